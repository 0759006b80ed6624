"""Sheets judged as a printer would: printed double-sided (or folded) and cut.

The `printcheck` fixture paints every face's bleed loud magenta and its trim area in a colour of
its own per side. The sheets are rasterized and, for every face on every page, checked where a
person would look: no paper shows in the bleed on any side that is not a shared cut, the back
behind each front (found by turning the sheet over, not from the layout) is that face's own back,
and nothing at all lies behind a one-sided face or on a one-sided sheet's blank back.
"""
from __future__ import annotations

import math

import pymupdf
import pytest

from conftest import FIXTURES
from generator.build import BuildRequest, plan_sheets
from generator.impose import GUIDE_STRIP
from generator.manifest import load_pack

DPI = 150
PX = DPI / 25.4
MAGENTA = (255, 0, 255)
PAPER = (255, 255, 255)


def close(a, b, tol=14):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def rgb(hex_colour: str):
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


class Raster:
    def __init__(self, page):
        self.pix = page.get_pixmap(dpi=DPI)

    def at(self, x_mm, y_mm):
        x, y = int(round(x_mm * PX)), int(round(y_mm * PX))
        return self.pix.pixel(min(max(x, 0), self.pix.width - 1), min(max(y, 0), self.pix.height - 1))


def bleed_ring(p, depth):
    """Points `depth` mm outside the trim of placement p, with the side each is on (None: all
    round, for shapes without sides of their own; 'open' or 'shared' for the sides of hexagons on
    shared cuts)."""
    if p.edges:                         # hexagons on shared cuts: each side its own bleed
        cx, cy, apothem = p.x + p.w / 2, p.y + p.h / 2, min(p.w, p.h) / 2
        for angle, bleed in p.edges:
            a, out = math.radians(angle), apothem + (0.8 * bleed if bleed else 1.0)
            yield ("open" if bleed else "shared"), (cx + out * math.cos(a), cy + out * math.sin(a))
        return
    if p.clip_to_shape is False:        # rectangles: three points along each side
        for f in (0.25, 0.5, 0.75):
            yield 0, (p.x - depth, p.y + f * p.h)
            yield 1, (p.x + f * p.w, p.y - depth)
            yield 2, (p.x + p.w + depth, p.y + f * p.h)
            yield 3, (p.x + f * p.w, p.y + p.h + depth)
        return
    cx, cy = p.x + p.w / 2, p.y + p.h / 2
    if p.w == pytest.approx(p.h):       # circles
        for k in range(12):
            a = 2 * math.pi * k / 12
            yield None, (cx + (p.w / 2 + depth) * math.cos(a), cy + (p.w / 2 + depth) * math.sin(a))
        return
    turned = p.rotation in (90, 270)    # pointy hexagons turned a quarter lie flat
    apothem = (p.h if turned else p.w) / 2
    for k in range(6):                  # the middle of each side, pushed out
        a = math.radians(60 * k + (30 if turned else 0))
        yield None, (cx + (apothem + depth) * math.cos(a), cy + (apothem + depth) * math.sin(a))


def colour_of(face):
    data = face.item.data
    return rgb(data["front"] if face.side == "front" else data["back"])


def plan(paper, duplex):
    game = load_pack(FIXTURES / "printcheck")
    groups = [g for g in game.groups if g.kind != "mat"]
    return game, plan_sheets(game, groups, BuildRequest(paper=paper, duplex=duplex), "sheets")


CASES = [(paper, duplex) for paper in ("a4", "letter") for duplex in ("long", "short", "none")]


@pytest.fixture(scope="module")
def printed(built):
    out = {}

    def get(paper, duplex):
        if (paper, duplex) not in out:
            folder = built("printcheck", "--paper", paper, "--duplex", duplex)
            doc = pymupdf.open(folder / "printcheck-sheets.pdf")
            out[(paper, duplex)] = (doc, [Raster(page) for page in doc], plan(paper, duplex)[1])
        return out[(paper, duplex)]
    return get


@pytest.mark.parametrize("paper,duplex", CASES)
def test_every_face_shows_its_own_colour_and_full_bleed_on_every_open_side(printed, paper, duplex):
    doc, rasters, sheets = printed(paper, duplex)
    assert len(doc) == len(sheets)
    checked = 0
    for number, (raster, sheet) in enumerate(zip(rasters, sheets), 1):
        for p in sheet.placements:
            centre = raster.at(p.x + p.w / 2, p.y + p.h / 2)
            assert close(centre, colour_of(p.face)), (number, p.face.key, centre)
            bleed = max(p.bleed)
            for side, point in bleed_ring(p, 0.8 * (bleed or 3.0)):
                seen = raster.at(*point)
                if side in (None, "open") or (side != "shared" and p.bleed[side] > 0):
                    assert close(seen, MAGENTA), (f"page {number}: {p.face.key} shows {seen} "
                                                  f"{0.8 * bleed:.1f} mm outside its trim, side {side}")
                else:                     # a shared cut: the neighbour's art, never paper
                    assert not close(seen, PAPER), (number, p.face.key, side)
                checked += 1
    assert checked > 300


@pytest.mark.parametrize("paper,duplex", CASES)
def test_behind_every_front_lies_its_own_back_and_behind_one_sided_faces_nothing(printed, paper, duplex):
    """The sheet is turned over as a person would: long edge left-right, short edge top-bottom,
    fold-and-glue across the fold line. Page 2k is the back of page 2k-1 in every file that has
    backs."""
    doc, rasters, sheets = printed(paper, duplex)
    W, H = doc[0].rect.width / 72 * 25.4, doc[0].rect.height / 72 * 25.4

    def behind(x, y):
        if duplex == "long":
            return W - x, y
        if duplex == "short":
            return x, H - y
        return W - x, y               # folded on the page's middle

    pairs = ([(i, i) for i, s in enumerate(sheets) if s.side == "fold"] if duplex == "none" else
             [(i, i + 1) for i in range(0, len(sheets), 2)])     # one-sided pages print single-sided
    if duplex != "none":
        assert len(sheets) % 2 == 0
    backed = 0
    for f_index, b_index in pairs:
        front_sheet, back_raster = sheets[f_index], rasters[b_index]
        assert front_sheet.side in ("front", "one-sided", "fold")
        for p in front_sheet.placements:
            if p.face.side != "front":
                continue              # fold sheets hold the backs too
            two_sided = p.face.group.back_template is not None
            for fx, fy in ((0.5, 0.5), (0.3, 0.35), (0.7, 0.7)):
                seen = back_raster.at(*behind(p.x + fx * p.w, p.y + fy * p.h))
                if two_sided:
                    assert close(seen, rgb(p.face.item.data["back"])), (f_index + 1, p.face.key, seen)
                else:
                    assert close(seen, PAPER), (f"{p.face.key} on page {f_index + 1} is one-sided, "
                                                f"but page {b_index + 1} prints {seen} behind it")
            backed += two_sided
    assert backed == sum(g.total for g in load_pack(FIXTURES / "printcheck").groups if g.sides == 2)
    if duplex == "none":
        assert not {s.side for s in sheets} & {"back", "blank"}


@pytest.mark.parametrize("paper,duplex", [("a4", "long"), ("a4", "short")])     # on Letter every one-sided
def test_a_one_sided_sheets_back_is_blank_but_for_its_page_guide(printed, paper, duplex):   # face fits a gap
    doc, rasters, sheets = printed(paper, duplex)
    blanks = [i for i, s in enumerate(sheets) if s.side == "blank"]
    assert blanks and all(sheets[i - 1].side == "one-sided" for i in blanks)
    for i in blanks:
        pix = rasters[i].pix
        strip = (5 + GUIDE_STRIP) * PX
        ink = [(x, y) for y in range(0, pix.height, 6) for x in range(0, pix.width, 6)
               if (strip < y < pix.height - strip) and not close(pix.pixel(x, y), PAPER, 3)]
        assert not ink, f"page {i + 1} should be blank, ink at {ink[:3]} px"
        assert "left blank" in doc[i].get_text()


def test_page_guides_say_what_each_page_is(printed):
    doc, _, sheets = printed("a4", "long")
    for page, sheet in zip(doc, sheets):
        text = page.get_text()
        assert "Print Check" in text and f"sheet {sheet.number}" in text
        expected = {"front": "front of sheet", "back": "back of sheet", "one-sided": "one-sided",
                    "blank": "left blank"}[sheet.side]
        assert expected in text
    assert "flip on the long edge" in doc[0].get_text()


def test_build_json_tells_how_to_print_and_where_each_group_is(built):
    import json
    folder = built("printcheck", "--paper", "a4", "--duplex", "long")
    (sheets_file,) = [f for f in json.loads((folder / "build.json").read_text())["files"] if f["role"] == "sheets"]
    assert sheets_file["duplex"] == "long"
    layout = sheets_file["layout"]
    assert [p["page"] for p in layout] == list(range(1, sheets_file["pages"] + 1))
    assert all(p["side"] == "back" for p in layout if p["page"] % 2 == 0 and p["side"] != "blank")
    for group, pages in sheets_file["group_pages"].items():
        assert pages, group
    assert "double-sided" in sheets_file["print"]["advice"]


def test_separate_cuts_give_every_face_its_own_bleed_on_the_page(tmp_path):
    from conftest import build_pack, copy_pack
    pack = copy_pack("printcheck", tmp_path / "packs")
    folder = build_pack(pack, tmp_path / "out", "--cuts", "separate")
    raster = Raster(pymupdf.open(folder / "printcheck-sheets.pdf")[0])
    game, _ = plan("a4", "long")
    sheets = plan_sheets(game, [g for g in game.groups if g.kind != "mat"],
                         BuildRequest(paper="a4", duplex="long", cuts="separate"), "sheets")
    for p in sheets[0].placements:
        assert max(p.bleed) == min(p.bleed) > 0
        for side, point in bleed_ring(p, 2.4):
            assert close(raster.at(*point), MAGENTA), (p.face.key, side)


def test_an_l_shaped_board_prints_as_its_two_rectangles_with_full_bleed(built):
    """230 x 230 mm with 50 mm arms: too large for A4, but its two rectangles (230 x 50 and
    50 x 180) fit one sheet side by side, each with its bleed, rather than tiling four pages."""
    folder = built("printcheck", "--paper", "a4", "--duplex", "long")
    doc = pymupdf.open(folder / "printcheck-ell.pdf")
    game = load_pack(FIXTURES / "printcheck")
    (sheet,) = plan_sheets(game, [g for g in game.groups if g.id == "ell"], BuildRequest(paper="a4"), "board")
    assert len(doc) == 1 and len(sheet.placements) == 2
    pieces = sorted((p.face.w, p.face.h) for p in sheet.placements)
    assert pieces == [(50, 180), (230, 50)]
    raster = Raster(doc[0])
    for p in sheet.placements:
        assert close(raster.at(p.x + p.w / 2, p.y + p.h / 2), rgb("#2ca02c"))
        for side, point in bleed_ring(p, 2.4):
            seen = raster.at(*point)
            assert not close(seen, PAPER), (p.face.offset, side, seen)
    assert "L board (in 2 pieces)" in doc[0].get_text()


def test_print_shop_pages_are_not_called_duplex(built):
    import json
    folder = built("printcheck", "--paper", "face")
    (sheets_file,) = [f for f in json.loads((folder / "build.json").read_text())["files"] if f["role"] == "sheets"]
    assert sheets_file["duplex"] == "print-shop" and "print shop" in sheets_file["print"]["advice"]


def test_a_card_too_large_for_the_paper_is_refused_by_validate_and_build_with_its_place(tmp_path):
    from conftest import copy_pack, run_cli
    pack = copy_pack("printcheck", tmp_path / "packs")
    path = pack / "components.yaml"
    path.write_text(path.read_text().replace("size: {width: 140mm, height: 100mm}", "size: {width: 240mm, height: 300mm}"))
    for command in ("validate", "build"):
        code, out, err = run_cli(command, pack, "--out", tmp_path / "out") if command == "build" else run_cli(command, pack)
        assert code == 1, (command, err)
        line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if "id: panels" in text)
        assert f"components.yaml:{line}:" in err and "group 'panels'" in err and "does not fit on a4 paper" in err
        assert "Traceback" not in err
    assert not (tmp_path / "out" / "printcheck").exists()
