"""Imposition geometry, asserted numerically in millimetres (no drawing involved)."""
import math

import pytest

from generator.impose import GUIDE_STRIP, Options, Placement, Run, impose, impose_runs
from generator.tiling import impose_board, rectangles_of, tile_pieces

A4 = Options("a4", 210, 297)
LETTER = Options("letter", 215.9, 279.4)
TOL = 0.1


def _bleed_box(p):
    return (p.x - p.bleed[0], p.y - p.bleed[1], p.x + p.w + p.bleed[2], p.y + p.h + p.bleed[3])


def _overlap(a, b):
    return a[0] < b[2] - 1e-6 and b[0] < a[2] - 1e-6 and a[1] < b[3] - 1e-6 and b[1] < a[3] - 1e-6


def _mixed_runs(backs=True):
    """Cards, chits, hexes and tokens of a small game, some two-sided, some part-filling a sheet."""
    def run(key, n, w, h, shape="rect", two=True, bleed=3.0):
        fronts = [f"{key}{i}" for i in range(n)]
        return Run(key, key.title(), fronts, [f"back-{f}" for f in fronts] if two and backs else None,
                   w, h, shape, "pointy", bleed)
    return [run("cards", 11, 63, 88), run("chits", 7, 20, 20), run("hexes", 5, 40, 46.19, "hexagon", False),
            run("tokens", 13, 16, 16, "circle", False, 2.0), run("stickers", 7, 14, 14, two=False),
            run("board", 1, 140, 100, two=False)]


@pytest.mark.parametrize("opts", [A4, LETTER], ids=["a4", "letter"])
def test_a_sheet_of_poker_cards_keeps_full_bleed_inside_the_printer_margin(opts):
    """Nine 63 x 88 mm cards fit A4 with their bleed. On Letter three rows need 264 + 6 mm of the
    269.4 mm inside the margins: the cards turn, four rows of two, rather than lose bleed."""
    sheet = impose(list(range(9)), None, 63, 88, "rect", "pointy", opts)[0]
    if opts is A4:
        assert len(sheet.placements) == 9 and {p.rotation for p in sheet.placements} == {0}
    else:
        assert len(sheet.placements) == 8 and {p.rotation for p in sheet.placements} == {90}
        assert {(round(p.w), round(p.h)) for p in sheet.placements} == {(88, 63)}


@pytest.mark.parametrize("opts", [A4, LETTER], ids=["a4", "letter"])
def test_faces_bleed_and_marks_stay_inside_the_printable_area(opts):
    for sheet in impose_runs(_mixed_runs(), opts, "Game"):
        for p in sheet.placements:
            x0, y0, x1, y1 = _bleed_box(p)
            assert x0 >= opts.margin - 1e-6 and y0 >= opts.margin - 1e-6
            assert x1 <= opts.page_width - opts.margin + 1e-6
            assert y1 <= opts.page_height - opts.margin - GUIDE_STRIP + 1e-6
        for x0, y0, x1, y1 in sheet.lines:
            for v in (x0, x1):
                assert opts.margin - 1e-6 <= v <= opts.page_width - opts.margin + 1e-6
            for v in (y0, y1):
                assert opts.margin - 1e-6 <= v <= opts.page_height - opts.margin + 1e-6


@pytest.mark.parametrize("duplex", ["long", "short", "none"])
def test_no_face_or_its_bleed_covers_another_face(duplex):
    opts = Options("a4", 210, 297, duplex=duplex)
    for sheet in impose_runs(_mixed_runs(), opts, "Game"):
        _assert_apart(sheet)


@pytest.mark.parametrize("opts", [A4, LETTER], ids=["a4", "letter"])
def test_many_groups_packed_into_each_others_gaps_never_overlap(opts):
    """Free space is kept as overlapping maximal rectangles: a block placed in one must be cut
    out of every other it reaches into."""
    runs = []
    for k, (w, h, shape, n) in enumerate([(140, 100, "rect", 3), (63, 88, "rect", 5), (90, 43, "rect", 7),
                                          (30, 76, "rect", 9), (40, 46.19, "hexagon", 11), (20, 20, "square", 29),
                                          (25, 25, "circle", 17), (44, 63, "rect", 4), (14, 14, "square", 41),
                                          (22, 84, "rect", 6), (16, 16, "circle", 23)]):
        fronts = [f"g{k}-{i}" for i in range(n)]
        runs.append(Run(f"g{k}", f"G{k}", fronts, None, w, h, shape, "pointy", 3.0, "shared" if k % 2 else "separate"))
    sheets = impose_runs(runs, opts, "Game")
    assert sum(len(s.placements) for s in sheets) == sum(len(r.fronts) for r in runs)
    for sheet in sheets:
        _assert_apart(sheet)


def test_a_piece_fills_the_whole_height_beside_a_smaller_block():
    """A 120 mm square board top-left leaves a 69 mm strip down the whole page beside it: a
    50 x 200 mm standee goes there, on the same page, not on a page of its own."""
    runs = [Run("board", "Board", ["b"], None, 120, 120), Run("standee", "Standee", ["s"], None, 50, 200)]
    sheets = impose_runs(runs, A4, "Game")
    assert [len(s.placements) for s in sheets] == [2]
    _assert_apart(sheets[0])


def _assert_apart(sheet):
    """No face, nor the bleed of a rectangle, covers another face; hexagons and circles at most touch."""
    for i, a in enumerate(sheet.placements):
        for b in sheet.placements[i + 1:]:
            trim_a, trim_b = (a.x, a.y, a.x + a.w, a.y + a.h), (b.x, b.y, b.x + b.w, b.y + b.h)
            apart = math.dist((a.x + a.w / 2, a.y + a.h / 2), (b.x + b.w / 2, b.y + b.h / 2))
            if a.edges and b.edges:          # hexagons on shared cuts: they abut, no bleed between
                assert apart >= min(a.w, a.h) - 1e-6
                continue
            if a.clip_to_shape and b.clip_to_shape:     # hexagons, circles: their bleed rings touch at most
                assert apart >= min(a.w, a.h) / 2 + min(b.w, b.h) / 2 + max(a.bleed) + max(b.bleed) - 1e-6
                continue
            assert not _overlap(trim_a, trim_b)
            if a.clip_to_shape is False and b.clip_to_shape is False:   # rectangles: square bleed
                assert not _overlap(_bleed_box(a), trim_b) and not _overlap(_bleed_box(b), trim_a)


def test_every_side_without_a_neighbour_on_its_cut_line_has_full_bleed():
    """Part-filled rows and sheets: a side drops its bleed only where another face abuts it."""
    for n in (1, 4, 7, 11, 52):
        for sheet in impose(list(range(n)), None, 14, 14, "square", "pointy", A4):
            for p in sheet.placements:
                neighbours = {
                    0: any(abs(q.x + q.w - p.x) < 1e-6 and abs(q.y - p.y) < 1e-6 for q in sheet.placements),
                    1: any(abs(q.y + q.h - p.y) < 1e-6 and abs(q.x - p.x) < 1e-6 for q in sheet.placements),
                    2: any(abs(p.x + p.w - q.x) < 1e-6 and abs(q.y - p.y) < 1e-6 for q in sheet.placements),
                    3: any(abs(p.y + p.h - q.y) < 1e-6 and abs(q.x - p.x) < 1e-6 for q in sheet.placements),
                }
                for side in range(4):
                    assert p.bleed[side] == (0.0 if neighbours[side] else 3.0), (n, p, side)


def test_crop_marks_sit_on_trim_lines_and_never_on_any_bleed():
    opts = Options("a4", 210, 297)
    for sheet in impose_runs(_mixed_runs(), opts, "Game"):
        rect_trims_x = {round(v, 3) for p in sheet.placements if not p.clip_to_shape for v in (p.x, p.x + p.w)}
        rect_trims_y = {round(v, 3) for p in sheet.placements if not p.clip_to_shape for v in (p.y, p.y + p.h)}
        for x0, y0, x1, y1 in sheet.lines:
            if x0 == x1:
                assert round(x0, 3) in rect_trims_x
            else:
                assert round(y0, 3) in rect_trims_y
            segment = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
            for p in sheet.placements:
                assert not _overlap(segment, _bleed_box(p)), (sheet.number, (x0, y0, x1, y1), p)


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_every_back_page_follows_its_front_and_one_sided_sheets_get_blank_backs(duplex):
    opts = Options("a4", 210, 297, duplex=duplex)
    sheets = impose_runs(_mixed_runs(), opts, "Game")
    assert len(sheets) % 2 == 0
    for front, back in zip(sheets[0::2], sheets[1::2]):
        assert front.number == back.number
        assert (front.side, back.side) in {("front", "back"), ("one-sided", "blank")}
        assert len(back.placements) == sum(1 for p in front.placements if not str(p.face).startswith(("hexes", "tokens", "stickers", "board")))
        for f in front.placements:
            behind = [b for b in back.placements if b.face == f"back-{f.face}"]
            if str(f.face).startswith(("hexes", "tokens", "stickers", "board")):
                assert not behind                              # one-sided: nothing behind it
                continue
            (b,) = behind
            if duplex == "long":      # turned over left-right: x mirrored, y kept
                assert b.x + b.w / 2 == pytest.approx(210 - (f.x + f.w / 2), abs=1e-6)
                assert b.y == pytest.approx(f.y, abs=1e-6)
            else:                     # turned over top-bottom
                assert b.y + b.h / 2 == pytest.approx(297 - (f.y + f.h / 2), abs=1e-6)
                assert b.x == pytest.approx(f.x, abs=1e-6)
            assert b.rotation == (-f.rotation) % 360


def test_two_boards_share_a_sheet_where_they_fit_without_room_for_crop_marks():
    """190 x 130 mm castle boards: with bleed 196 mm wide, no room for marks beside them on A4,
    but two fit one above the other: two to a sheet. The cuts down get the sheets' marks above
    and below; the cuts across, ticks in the 2 mm of paper beside the bleed and 1 mm of it (no
    dashed outline over the art: tests/test_board_marks.py)."""
    sheets = impose(list(range(4)), None, 190, 130, "rect", "pointy", A4)
    assert [len(s.placements) for s in sheets] == [2, 2]
    for sheet in sheets:
        assert not sheet.outlines and len(sheet.lines) == 4 and len(sheet.ticks) == 8
        for x0, y0, x1, y1 in sheet.ticks:
            assert y0 == y1 and abs(x1 - x0) == pytest.approx(3.0)
            assert min(x0, x1) == pytest.approx(5.0) or max(x0, x1) == pytest.approx(205.0)


def test_two_sided_sheets_come_first_and_small_groups_share_sheets():
    sheets = impose_runs(_mixed_runs(), Options("a4", 210, 297), "Game")
    sides = [s.side for s in sheets]
    assert sides[: sides.count("front") * 2] == ["front", "back"] * sides.count("front")
    assert any(len(s.groups) >= 3 for s in sheets)
    assert len(sheets) <= 6       # 11 cards, 7 chits, 5 hexes, 13 tokens, 7 stickers, a board


def test_a_document_without_backs_has_no_blank_pages():
    sheets = impose_runs(_mixed_runs(backs=False), Options("a4", 210, 297), "Game")
    assert {s.side for s in sheets} == {"one-sided"}


def test_fold_and_glue_puts_backs_mirrored_across_the_fold():
    opts = Options("a4", 210, 297, duplex="none")
    (sheet,) = impose(list(range(3)), [f"b{i}" for i in range(3)], 63, 88, "rect", "pointy", opts)
    assert sheet.fold_x == pytest.approx(105) and sheet.side == "fold"
    fronts = [p for p in sheet.placements if not str(p.face).startswith("b")]
    for f in fronts:
        b = next(p for p in sheet.placements if p.face == f"b{f.face}")
        assert b.x + b.w / 2 == pytest.approx(210 - (f.x + f.w / 2))
        assert f.x + f.w + f.bleed[2] <= 105 - 5 + 1e-6      # 5 mm from the fold to any bleed


def test_page_guide_names_game_sheet_side_and_groups():
    sheets = impose_runs(_mixed_runs(), Options("a4", 210, 297), "My Game")
    assert sheets[0].label.startswith("My Game | front of sheet 1 - print double-sided, flip on the long edge")
    assert "Cards" in sheets[0].label and sheets[1].label.startswith("My Game | back of sheet 1")
    blank = next(s for s in sheets if s.side == "blank")
    assert "left blank" in blank.label and not blank.placements
    for s in sheets:      # in the strip kept free under the faces
        assert s.label_at[1] > max((p.y + p.h + p.bleed[3] for p in s.placements), default=0)


def test_separate_cuts_give_every_card_its_own_bleed():
    opts = Options("a4", 210, 297, cuts="separate")
    for sheet in impose(list(range(20)), None, 63, 88, "rect", "pointy", opts):
        assert all(p.bleed == (3.0,) * 4 for p in sheet.placements)
    shared = impose(list(range(20)), None, 63, 88, "rect", "pointy", A4)
    assert any(0.0 in p.bleed for s in shared for p in s.placements)


@pytest.mark.parametrize("cuts", ["shared", "separate"])
def test_hexes_pack_in_a_honeycomb(cuts):
    """Offset rows of pointy hexagons, or the same turned a quarter (offset columns of flat ones),
    whichever holds more. Shared cuts: neighbours abut (centres 21 mm apart) and only the sides
    without a neighbour have bleed; separate: their bleed rings touch (27 mm apart)."""
    opts = Options("a4", 210, 297, cuts=cuts)
    placements = impose(list(range(200)), None, 21, 24.249, "hexagon", "pointy", opts)[0].placements
    centres = [(p.x + p.w / 2, p.y + p.h / 2) for p in placements]
    pitch = 21 if cuts == "shared" else 27
    for p, c in list(zip(placements, centres))[:40]:
        nearest = sorted(math.dist(c, d) for d in centres if d != c)
        assert nearest[0] == pytest.approx(pitch, abs=1e-3)
        if cuts == "shared":
            for angle, bleed in p.edges:
                beyond = (c[0] + 21 * math.cos(math.radians(angle)), c[1] + 21 * math.sin(math.radians(angle)))
                has_neighbour = any(math.dist(beyond, d) < 1e-3 for d in centres)
                assert bleed == (0.0 if has_neighbour else 3.0)
    assert len({p.rotation for p in placements}) == 1
    assert len(placements) > len(impose(list(range(200)), None, 27, 30.3, "rect", "pointy", A4)[0].placements)


def test_shared_hexagons_fit_more_than_separate_ones():
    counts = {cuts: len(impose(list(range(300)), None, 40, 46.188, "hexagon", "pointy",
                               Options("a4", 210, 297, cuts=cuts))[0].placements) for cuts in ("shared", "separate")}
    assert counts["shared"] > counts["separate"] * 1.2


def test_board_pieces_cover_the_board_with_the_overlap():
    pieces = tile_pieces(300, 400, 3, 200, 281, 10)
    cols, rows = pieces[-1].col + 1, pieces[-1].row + 1
    assert (cols, rows) == (2, 2)
    assert min(p.x for p in pieces) == pytest.approx(-3) and min(p.y for p in pieces) == pytest.approx(-3)
    assert max(p.x + p.w for p in pieces) == pytest.approx(303)
    assert max(p.y + p.h for p in pieces) == pytest.approx(403)
    for p in pieces:
        assert p.w <= 200 + 1e-6 and p.h <= 281 + 1e-6
        right = [q for q in pieces if q.row == p.row and q.col == p.col + 1]
        below = [q for q in pieces if q.col == p.col and q.row == p.row + 1]
        if right:
            assert p.x + p.w - right[0].x == pytest.approx(10)
        if below:
            assert p.y + p.h - below[0].y == pytest.approx(10)


@pytest.mark.parametrize("size", [(150, 150), (300, 400), (278.5, 239.7)])
def test_every_board_piece_has_crop_marks_at_the_four_corners_of_its_cut_line(size):
    """Two 2 mm marks at each corner of every piece's cut line, on the lines' extensions: the
    board's trim on its outer sides (the marks clear of the bleed), the piece's edge where a
    neighbour overlaps it; on the paper at least 2.5 mm from its edge."""
    board_w, board_h = size
    sheets = impose_board("f", board_w, board_h, "t", A4)
    for sheet in sheets:
        (p,) = sheet.placements
        cx, cy, cw, ch = sheet.clip
        xs = [p.x if abs(cx - (p.x - 3)) < 1e-6 else cx, p.x + board_w if abs(cx + cw - (p.x + board_w + 3)) < 1e-6 else cx + cw]
        ys = [p.y if abs(cy - (p.y - 3)) < 1e-6 else cy, p.y + board_h if abs(cy + ch - (p.y + board_h + 3)) < 1e-6 else cy + ch]
        corners = [(x, y) for x in xs for y in ys]
        assert len(sheet.crops) == 8
        for x0, y0, x1, y1 in sheet.crops:
            assert math.hypot(x1 - x0, y1 - y0) == pytest.approx(2.0)
            corner = min(corners, key=lambda c: math.hypot((x0 + x1) / 2 - c[0], (y0 + y1) / 2 - c[1]))
            along = (x0, x1, corner[0]) if y0 == y1 == corner[1] else (y0, y1, corner[1]) if x0 == x1 == corner[0] else None
            assert along, "a mark on the extension of a cut line"
            outer = (corner[0] in (p.x, p.x + board_w)) if y0 == y1 else (corner[1] in (p.y, p.y + board_h))
            assert min(abs(along[0] - along[2]), abs(along[1] - along[2])) >= (3 if outer else 0) + 0.5 - 1e-6
            assert 2.5 <= min(x0, x1) and max(x0, x1) <= 210 - 2.5 and 2.5 <= min(y0, y1) and max(y0, y1) <= 297 - 2.5


@pytest.mark.parametrize("size", [(300, 400), (278.5, 239.7), (500, 200)])
def test_each_tiled_piece_is_labelled_where_assembling_hides_the_label(size):
    """The strip a piece's right (else lower) neighbour is glued over holds its label; the last
    piece's label lies in its outer bleed, cut off. Each names its piece and its place."""
    board_w, board_h = size
    sheets = impose_board("f", board_w, board_h, "Game: Board", A4)
    assert len(sheets) > 1
    for sheet in sheets:
        (tag,) = sheet.tags
        (p,) = sheet.placements
        cx, cy, cw, ch = sheet.clip
        assert tag.text.startswith("Game: Board - piece ") and f" of {len(sheets)} (row " in tag.text
        if "is glued over this strip" in tag.text and tag.turn == -90:
            assert cx + cw - 10 < tag.x < cx + cw                       # the right overlap strip
        elif "is glued over this strip" in tag.text:
            assert cy + ch - 10 < tag.y < cy + ch                       # the lower overlap strip
        else:
            assert tag is sheets[-1].tags[0] and tag.turn == -90
            assert p.x + board_w < tag.x < p.x + board_w + 3            # in the bleed, cut off
    assert len(impose_board("f", 150, 150, "t", A4)[0].tags) == 0       # one piece: nothing to assemble


def test_board_smaller_than_the_paper_is_one_page():
    sheets = impose_board("f", 150, 150, "t", A4)
    assert len(sheets) == 1 and sheets[0].label == "t"


def test_an_l_shaped_board_skips_the_pieces_it_does_not_reach():
    ell = [(0, 0), (360, 0), (360, 40), (40, 40), (40, 360), (0, 360)]
    sheets = impose_board("ocean", 360, 360, "Ocean NW", A4, outline=ell)
    assert len(sheets) == 3                        # of the 2 x 2 pieces, the inner corner is empty
    for sheet in sheets:
        (placement,) = sheet.placements
        assert placement.clip_to_shape and sheet.outlines == [placement]
    assert not any("row 2 of 2, column 2 of 2" in s.label for s in sheets)


def test_a_polygon_of_rectangles_is_cut_into_the_fewest_rectangles():
    ell = [(0, 0), (200, 0), (200, 40), (40, 40), (40, 200), (0, 200)]
    rects = rectangles_of(ell)
    assert len(rects) == 2 and sum(w * h for _, _, w, h in rects) == pytest.approx(200 * 40 + 40 * 160)
    tee = [(0, 0), (90, 0), (90, 30), (60, 30), (60, 100), (30, 100), (30, 30), (0, 30)]
    assert sorted((w, h) for _, _, w, h in rectangles_of(tee)) == [(30, 70), (90, 30)]
    assert rectangles_of([(0, 0), (100, 0), (50, 80)]) is None          # a triangle is not


@pytest.mark.parametrize("duplex, box, bleed, path, edges", [
    ("long", (136.5, 15.0), (3.0, 0.0, 3.0, 3.0), ((209.0, 2.0), (207.0, 4.5)), ((150.0, 3.0), (90.0, 0.0))),
    ("short", (10.5, 194.0), (3.0, 3.0, 3.0, 0.0), ((1.0, 295.0), (3.0, 292.5)), ((330.0, 3.0), (270.0, 0.0)))])
def test_a_back_lies_mirrored_behind_its_front_its_outline_and_sides_too(duplex, box, bleed, path, edges):
    """A hexagon on shared cuts turned 90: its back on the other side of an A4 sheet, turned the
    other way, its bleed per side, outline and sides' directions flipped with the page."""
    front = Placement(10.5, 15.0, 63.0, 88.0, (3.0, 0.0, 3.0, 3.0), "front", True, 90,
                      ((1.0, 2.0), (3.0, 4.5)), ((30.0, 3.0), (90.0, 0.0)))
    back = front.mirrored(210.0, 297.0, duplex, "back")
    assert back == Placement(*box, 63.0, 88.0, bleed, "back", True, 270, path, edges)
    plain = Placement(10.5, 15.0, 63.0, 88.0, (3.0,) * 4, "front", False, 0).mirrored(210.0, 297.0, duplex, "back")
    assert (plain.x, plain.y, plain.rotation, plain.clip_path, plain.edges) == (*box, 0, None, None)
