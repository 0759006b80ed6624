"""A board larger than the paper, tiled across pages, judged on the rasterized pages: crop marks
at every corner of every piece's cut line, and each piece's label printed on the piece where
assembling the board hides it (the strip a neighbour is glued over, or the bleed cut off)."""
from __future__ import annotations

import pymupdf
import pytest

from conftest import FIXTURES
from generator.build import BuildRequest, plan_sheets
from generator.manifest import load_pack

DPI = 200
PX = DPI / 25.4


@pytest.fixture(scope="module", params=["a4", "letter"])
def tiled(request, built):
    folder = built("tiled", "--paper", request.param)
    game = load_pack(FIXTURES / "tiled")
    sheets = plan_sheets(game, game.groups, BuildRequest(paper=request.param), "board")
    doc = pymupdf.open(folder / "tiled-board.pdf")
    assert len(doc) == len(sheets) > 1
    return sheets, doc


def dark(pix, x_mm, y_mm) -> bool:
    """Any grey pixel within 0.3 mm clearly darker than paper (a 0.25 pt black line is under a
    pixel wide: it shows as a light grey)."""
    r = max(1, round(0.3 * PX))
    cx, cy = round(x_mm * PX), round(y_mm * PX)
    return any(max(c) < 215 and max(c) - min(c) < 30 for x in range(cx - r, cx + r + 1)
               for y in range(cy - r, cy + r + 1) if 0 <= x < pix.width and 0 <= y < pix.height
               for c in [pix.pixel(x, y)])


def test_every_piece_shows_crop_marks_at_the_four_corners_of_its_cut_line(tiled):
    sheets, doc = tiled
    for sheet, page in zip(sheets, doc):
        pix = page.get_pixmap(dpi=DPI)
        assert len(sheet.crops) == 8
        for x0, y0, x1, y1 in sheet.crops:
            assert dark(pix, (x0 + x1) / 2, (y0 + y1) / 2), (sheet.label, (x0, y0, x1, y1))
            cx, cy, cw, ch = sheet.clip                 # outside the piece: on white paper
            mid = ((x0 + x1) / 2, (y0 + y1) / 2)
            assert not (cx < mid[0] < cx + cw and cy < mid[1] < cy + ch)


def test_each_piece_carries_its_label_where_the_assembled_board_hides_it(tiled):
    sheets, doc = tiled
    for number, (sheet, page) in enumerate(zip(sheets, doc), 1):
        (tag,) = sheet.tags
        hits = page.search_for(tag.text.split(":")[1].split(" (")[0].strip())     # "Big board - piece A1 of 4"
        assert hits, (number, tag.text)
        x0, y0, x1, y1 = (v / 72 * 25.4 for v in hits[0])
        cx, cy, cw, ch = sheet.clip
        (p,) = sheet.placements
        if "is glued over this strip" in tag.text and tag.turn == -90:
            assert cx + cw - 10 <= x0 and x1 <= cx + cw + 0.2 and cy <= y0 and y1 <= cy + ch
        elif "is glued over this strip" in tag.text:
            assert cy + ch - 10 <= y0 and y1 <= cy + ch + 0.2
        else:                                           # the last piece: in its bleed, cut off
            assert number == len(sheets)
            assert p.x + p.w - 0.2 <= x0 and x1 <= p.x + p.w + 3 + 0.2
        pix = page.get_pixmap(dpi=DPI, clip=hits[0])    # on a white ground, readable over the art
        light = sum(1 for y in range(pix.height) for x in range(pix.width) if min(pix.pixel(x, y)) > 235)
        assert light > 0.5 * pix.width * pix.height
