"""Imposition geometry, asserted numerically in millimetres (no drawing involved)."""
import pytest

from generator.impose import Options, impose, tile_pieces, impose_board

A4 = Options("a4", 210, 297)
LETTER = Options("letter", 215.9, 279.4)
TOL = 0.1


@pytest.mark.parametrize("opts", [A4, LETTER], ids=["a4", "letter"])
def test_nine_poker_cards_per_sheet(opts):
    sheets = impose(list(range(9)), None, 63, 88, "rect", "pointy", opts)
    assert len(sheets) == 1 and len(sheets[0].placements) == 9


@pytest.mark.parametrize("opts", [A4, LETTER], ids=["a4", "letter"])
def test_faces_and_bleed_stay_inside_the_printer_margin(opts):
    for w, h, shape in [(63, 88, "rect"), (44, 63, "rect"), (21, 24.249, "hexagon"), (30, 30, "circle")]:
        for p in impose(list(range(40)), None, w, h, shape, "pointy", opts)[0].placements:
            assert p.x - p.bleed[0] >= opts.margin - 1e-6
            assert p.y - p.bleed[1] >= opts.margin - 1e-6
            assert p.x + p.w + p.bleed[2] <= opts.page_width - opts.margin + 1e-6
            assert p.y + p.h + p.bleed[3] <= opts.page_height - opts.margin + 1e-6


def test_faces_never_overlap_their_neighbours_trim():
    placements = impose(list(range(9)), None, 63, 88, "rect", "pointy", A4)[0].placements
    for i, a in enumerate(placements):
        for b in placements[i + 1:]:
            assert (a.x + a.w <= b.x + 1e-6 or b.x + b.w <= a.x + 1e-6 or
                    a.y + a.h <= b.y + 1e-6 or b.y + b.h <= a.y + 1e-6)


def test_poker_block_is_centred_on_a4():
    xs = sorted({round(p.x, 3) for p in impose(list(range(9)), None, 63, 88, "rect", "pointy", A4)[0].placements})
    # 3 x 63 mm abutting, 3 mm outer bleed: 195 mm centred in 200 mm inside 5 mm margins
    assert xs == pytest.approx([10.5, 73.5, 136.5], abs=TOL)


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_backs_land_behind_their_fronts(duplex):
    sheets = impose(list(range(9)), [f"b{i}" for i in range(9)], 63, 88, "rect", "pointy",
                    Options("a4", 210, 297, duplex=duplex))
    front, back = sheets
    assert back.side == "back"
    for f in front.placements:
        b = next(p for p in back.placements if p.face == f"b{f.face}")
        if duplex == "long":      # turned over left-right: x mirrored, y kept
            assert b.x + b.w / 2 == pytest.approx(210 - (f.x + f.w / 2), abs=1e-6)
            assert b.y == pytest.approx(f.y, abs=1e-6)
        else:                     # turned over top-bottom
            assert b.y + b.h / 2 == pytest.approx(297 - (f.y + f.h / 2), abs=1e-6)
            assert b.x == pytest.approx(f.x, abs=1e-6)


def test_fold_and_glue_puts_backs_mirrored_across_the_fold():
    opts = Options("a4", 210, 297, duplex="none")
    (sheet,) = impose(list(range(3)), [f"b{i}" for i in range(3)], 63, 88, "rect", "pointy", opts)
    assert sheet.fold_x == pytest.approx(105)
    fronts = [p for p in sheet.placements if not str(p.face).startswith("b")]
    for f in fronts:
        b = next(p for p in sheet.placements if p.face == f"b{f.face}")
        assert b.x + b.w / 2 == pytest.approx(210 - (f.x + f.w / 2))
        assert f.x + f.w + f.bleed[2] <= 105 - 5 + 1e-6      # 5 mm from the fold to any bleed


def test_crop_marks_sit_on_trim_lines_outside_the_faces():
    (sheet,) = impose(list(range(9)), None, 63, 88, "rect", "pointy", A4)
    trims_x = {round(v, 3) for p in sheet.placements for v in (p.x, p.x + p.w)}
    vertical = [l for l in sheet.lines if l[0] == l[2]]
    assert {round(l[0], 3) for l in vertical} == trims_x
    block_top = min(p.y - p.bleed[1] for p in sheet.placements)
    block_bottom = max(p.y + p.h + p.bleed[3] for p in sheet.placements)
    for x0, y0, x1, y1 in vertical:
        assert max(y0, y1) <= block_top + 1e-6 or min(y0, y1) >= block_bottom - 1e-6
        assert min(y0, y1) >= A4.margin - 1e-6 and max(y0, y1) <= 297 - A4.margin + 1e-6


def test_hexes_pack_in_offset_rows():
    placements = impose(list(range(200)), None, 21, 24.249, "hexagon", "pointy", A4)[0].placements
    rows = sorted({round(p.y, 3) for p in placements})
    first_x = [min(p.x for p in placements if round(p.y, 3) == y) for y in rows[:2]]
    assert abs(first_x[1] - first_x[0]) == pytest.approx((21 + 6) / 2, abs=1e-6)
    assert rows[1] - rows[0] == pytest.approx(0.75 * (24.249 + 4 * 3 / 3 ** 0.5), abs=1e-3)
    assert len(placements) > len(impose(list(range(200)), None, 27, 30.3, "rect", "pointy", A4)[0].placements)


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
