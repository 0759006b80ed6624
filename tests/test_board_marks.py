"""Every board and every tiled piece of every pack, on A4 and on Letter, gets crop marks outside
its trim, never a dashed line over its art (a polygon board, cut along its drawn outline, gets
them on the straight cuts where its pieces overlap); also where the board fills the paper so that no room
is left for the sheets' marks (Doomspire's castle boards two to a page, Shires' player mats, the
Cones ledger sheet on A4): then a mark is a short tick in what room there is, reaching into the
board's own bleed (cut off with it) but stopping short of the trim, black on a white casing.

Geometry on the planned pages (build.plan_sheets), in millimetres; what is seen on the built
Doomspire boards rasterized.
"""
from __future__ import annotations

import re

import pymupdf
import pytest

from conftest import ROOT
from generator.build import BuildRequest, documents, group_options, plan_sheets
from generator.impose import TICK_CLEAR, Options, impose
from generator.manifest import load_pack

PACKS = sorted(p.parent.name for p in (ROOT / "components").glob("*/game.yaml"))
PAPERS = ("a4", "letter")
EPS = 1e-3


def board_pages(pack: str, paper: str):
    """(document name, sheet, options) of every page of the pack's board documents."""
    game = load_pack(ROOT / "components" / pack)
    request = BuildRequest(paper=paper)
    options = group_options(game, request)
    for name, role, groups in documents(game, None, options):
        if role == "board":
            for sheet in plan_sheets(game, groups, request, role, options):
                yield name, sheet, options[groups[0].id], groups


def cut_rectangles(sheet, bleed: float) -> list[tuple[float, float, float, float]]:
    """What is left of each rectangular board or piece once cut out (x0, y0, x1, y1): a face laid
    like a card, its trim; a tiled piece, its window less the board's bleed on its outer sides."""
    if sheet.clip is None:
        return [(p.x, p.y, p.x + p.w, p.y + p.h) for p in sheet.placements if not p.clip_to_shape]
    (p,) = sheet.placements
    if p.clip_to_shape:
        return []                        # a polygon board: cut along its outline
    cx, cy, cw, ch = sheet.clip
    x0 = p.x if abs(cx - (p.x - bleed)) < EPS else cx
    y0 = p.y if abs(cy - (p.y - bleed)) < EPS else cy
    x1 = p.x + p.w if abs(cx + cw - (p.x + p.w + bleed)) < EPS else cx + cw
    y1 = p.y + p.h if abs(cy + ch - (p.y + p.h + bleed)) < EPS else cy + ch
    return [(x0, y0, x1, y1)]


def marks_of(sheet) -> list[tuple[float, float, float, float]]:
    """The crop marks: a tiled piece's solid ones (its dashed lines are glue guides inside it)."""
    return (list(sheet.crops) if sheet.side == "board" else list(sheet.lines)) + list(sheet.ticks)


def crosses(segment, box) -> bool:
    x0, y0, x1, y1 = min(segment[0], segment[2]), min(segment[1], segment[3]), \
        max(segment[0], segment[2]), max(segment[1], segment[3])
    return x0 < box[2] - EPS and box[0] < x1 - EPS and y0 < box[3] - EPS and box[1] < y1 - EPS or \
        (x0 == x1 and box[0] + EPS < x0 < box[2] - EPS and y0 < box[3] - EPS and box[1] < y1 - EPS) or \
        (y0 == y1 and box[1] + EPS < y0 < box[3] - EPS and x0 < box[2] - EPS and box[0] < x1 - EPS)


def overlap_cuts(sheet) -> list[tuple[str, float]]:
    """A tiled polygon's piece: its straight cuts, the window's edges a neighbour overlaps (its
    other sides are cut along the polygon's drawn outline), as ('x' or 'y', where)."""
    found = re.search(r"row (\d+) of (\d+), column (\d+) of (\d+)", sheet.label)
    if sheet.clip is None or not sheet.placements[0].clip_to_shape or not found:
        return []
    row, rows, col, cols = map(int, found.groups())
    cx, cy, cw, ch = sheet.clip
    return ([("x", cx)] if col > 1 else []) + ([("x", cx + cw)] if col < cols else []) + \
        ([("y", cy)] if row > 1 else []) + ([("y", cy + ch)] if row < rows else [])


def marks_on_both_ends(box, marks) -> list[str]:
    """Each of the box's four cut lines needs a mark on it before the box and one after it."""
    x0, y0, x1, y1 = box
    missing = []
    for x in (x0, x1):
        on = [m for m in marks if abs(m[0] - x) < EPS and abs(m[2] - x) < EPS]
        if not any(max(m[1], m[3]) <= y0 + EPS for m in on) or not any(min(m[1], m[3]) >= y1 - EPS for m in on):
            missing.append(f"x = {x:.2f}")
    for y in (y0, y1):
        on = [m for m in marks if abs(m[1] - y) < EPS and abs(m[3] - y) < EPS]
        if not any(max(m[0], m[2]) <= x0 + EPS for m in on) or not any(min(m[0], m[2]) >= x1 - EPS for m in on):
            missing.append(f"y = {y:.2f}")
    return missing


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("pack", PACKS)
def test_every_board_and_piece_has_crop_marks_and_none_crosses_the_art(pack, paper):
    judged = 0
    for name, sheet, opts, groups in board_pages(pack, paper):
        where = f"{name} on {paper}, page {sheet.number or '?'}"
        boxes = cut_rectangles(sheet, opts.bleed)
        marks = marks_of(sheet)
        assert not [p for p in sheet.outlines if not p.clip_to_shape], f"{where}: a dashed outline on a rectangle"
        for box in boxes:
            judged += 1
            assert not marks_on_both_ends(box, marks), (where, box, marks_on_both_ends(box, marks))
            for mark in marks:
                assert not crosses(mark, box), (where, mark, box)
        for axis, at in overlap_cuts(sheet):
            judged += 1
            cx, cy, cw, ch = sheet.clip
            on = [m for m in marks if abs(m[0 if axis == "x" else 1] - at) < EPS and abs(m[2 if axis == "x" else 3] - at) < EPS]
            start, end = (cy, cy + ch) if axis == "x" else (cx, cx + cw)
            along = (1, 3) if axis == "x" else (0, 2)
            assert any(max(m[i] for i in along) <= start + EPS for m in on), (where, axis, at)
            assert any(min(m[i] for i in along) >= end - EPS for m in on), (where, axis, at)
        for x0, y0, x1, y1 in marks:            # on the paper the printer prints
            assert min(x0, x1) >= opts.margin - EPS and max(x0, x1) <= opts.page_width - opts.margin + EPS
            assert min(y0, y1) >= opts.margin - EPS and max(y0, y1) <= opts.page_height - opts.margin + EPS
        for x0, y0, x1, y1 in sheet.ticks:      # a tick stops short of every trim
            for bx0, by0, bx1, by1 in boxes:
                grown = (bx0 - TICK_CLEAR + EPS, by0 - TICK_CLEAR + EPS, bx1 + TICK_CLEAR - EPS, by1 + TICK_CLEAR - EPS)
                assert not crosses((x0, y0, x1, y1), grown), (where, (x0, y0, x1, y1))
    has_boards = any(g.kind == "mat" for g in load_pack(ROOT / "components" / pack).groups)
    assert bool(judged) == has_boards, f"{pack}: {judged} boards judged"


def test_castle_boards_fill_a_letter_page_and_still_get_crop_marks():
    """Two 190 x 130 mm boards on one shared cut fill 266 of Letter's 266.4 mm: the cuts across
    get the sheets' marks beside the boards; the cuts down get ticks above and below, 2.2 mm in
    the 0.2 mm of paper and the 3 mm bleed, stopping 1 mm short of the trim."""
    letter = Options("letter", 215.9, 279.4)
    for sheet in impose(list(range(4)), None, 190, 130, "rect", "pointy", letter):
        upper, lower = sorted(sheet.placements, key=lambda p: p.y)
        assert not sheet.outlines and lower.y == pytest.approx(upper.y + upper.h)
        assert sorted({round(m[1], 2) for m in sheet.lines}) == [round(v, 2) for v in (upper.y, lower.y, lower.y + lower.h)]
        assert len(sheet.ticks) == 4
        for x0, y0, x1, y1 in sheet.ticks:
            assert x0 == x1 and round(x0, 2) in {round(upper.x, 2), round(upper.x + upper.w, 2)}
            near = min(abs(y0 - upper.y), abs(y1 - upper.y), abs(y0 - lower.y - lower.h), abs(y1 - lower.y - lower.h))
            assert near == pytest.approx(TICK_CLEAR)
            assert abs(y1 - y0) == pytest.approx(2.2)
            assert letter.margin - EPS <= min(y0, y1) and max(y0, y1) <= 279.4 - letter.margin


def test_a_face_that_leaves_no_room_even_for_a_tick_keeps_its_outline():
    """Without bleed and filling the printable area, a mark would have to lie on the art: the
    cut outline is drawn instead (a wrong mark is worse than none)."""
    a4 = Options("a4", 210, 297, bleed=0.0)
    (sheet,) = impose([0], None, 200, 284, "rect", "pointy", a4)
    assert sheet.outlines and not sheet.ticks


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_ticks_behind_two_sided_boards_are_the_fronts_mirrored(duplex):
    letter = Options("letter", 215.9, 279.4, duplex=duplex)
    front, back = impose([0, 1], ["b0", "b1"], 190, 130, "rect", "pointy", letter)
    assert len(front.ticks) == len(back.ticks) == 4
    flip = (lambda x, y: (215.9 - x, y)) if duplex == "long" else (lambda x, y: (x, 279.4 - y))
    mirrored = {tuple(round(v, 6) for v in (*flip(x0, y0), *flip(x1, y1))) for x0, y0, x1, y1 in front.ticks}
    assert mirrored == {tuple(round(v, 6) for v in t) for t in back.ticks}
    for t in back.ticks:
        for p in back.placements:
            assert not crosses(t, (p.x, p.y, p.x + p.w, p.y + p.h))


# --- as printed ----------------------------------------------------------------------------------

DPI = 300
PX = DPI / 25.4


def dark(pix, x_mm, y_mm) -> bool:
    """A grey-to-black pixel within 0.15 mm: a 0.25 pt line is under a pixel wide."""
    r = max(1, round(0.15 * PX))
    cx, cy = round(x_mm * PX), round(y_mm * PX)
    return any(max(c) < 160 and max(c) - min(c) < 40 for x in range(cx - r, cx + r + 1)
               for y in range(cy - r, cy + r + 1) if 0 <= x < pix.width and 0 <= y < pix.height
               for c in [pix.pixel(x, y)])


@pytest.mark.parametrize("paper", PAPERS)
def test_the_doomspire_boards_marks_are_seen_on_the_printed_page(built, paper):
    """Each mark of every page of Doomspire's boards (the castle boards two to a page, the track
    filling A4's width), rasterized: a dark line along it (a tick over the purple or red bleed
    shows on its white casing), and no dashed outline drawn across a board."""
    folder = built("lords-of-doomspire", "--paper", paper)
    doc = pymupdf.open(folder / "lords-of-doomspire-boards.pdf")
    pages = [(sheet, doc[i]) for i, (_, sheet, _, _) in enumerate(board_pages("lords-of-doomspire", paper))]
    assert len(pages) == len(doc) and any(sheet.ticks for sheet, _ in pages)
    for sheet, page in pages:
        pix = page.get_pixmap(dpi=DPI)
        for x0, y0, x1, y1 in marks_of(sheet):
            for t in (0.25, 0.5, 0.75):
                assert dark(pix, x0 + (x1 - x0) * t, y0 + (y1 - y0) * t), (paper, (x0, y0, x1, y1))
        outlines = [d for d in page.get_drawings() if d["type"] == "s" and d.get("color") == (0.0, 0.0, 0.0)
                    and d.get("dashes") not in (None, "[] 0")]        # the board's own art draws dashed boxes
        assert not outlines, outlines[:1]
