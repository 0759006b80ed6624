"""Shared cut lines only where the faces' edge colours match (generator/edges.py), judged on the
rasterized sheets: a face whose neighbour's edge is another colour keeps its own bleed, so a cut
1 mm off shows its own colour; faces whose edges match abut on one cut line, with crop marks
only where the cuts are."""
from __future__ import annotations

import pymupdf
import pytest

from conftest import FIXTURES
from generator.build import BuildRequest, _runs, group_options, plan_sheets
from generator.edges import delta_e, srgb_to_lab
from generator.manifest import load_pack

DPI = 200
PX = DPI / 25.4


@pytest.mark.parametrize("lab1,lab2,expected", [       # Sharma, Wu and Dalal (2005), pairs 1, 7, 17-21, 25, 31
    ((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
    ((50, 0, 0), (50, -1, 2), 2.3669),
    ((50, 2.5, 0), (73, 25, -18), 27.1492),
    ((50, 2.5, 0), (61, -5, 29), 22.8977),
    ((50, 2.5, 0), (56, -27, -3), 31.9030),
    ((50, 2.5, 0), (58, 24, 15), 19.4535),
    ((50, 2.5, 0), (50, 3.1736, 0.5854), 1.0000),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((90.8027, -2.0831, 1.4410), (91.1528, -1.6435, 0.0447), 1.4441)])
def test_colour_distance_is_ciede2000(lab1, lab2, expected):
    assert delta_e(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert delta_e(lab2, lab1) == pytest.approx(expected, abs=1e-4)


def test_white_is_lab_100_and_cream_is_not_white():
    assert srgb_to_lab((1.0, 1.0, 1.0)) == pytest.approx((100, 0, 0), abs=1e-3)
    cream = srgb_to_lab((0xf6 / 255, 0xf1 / 255, 0xe6 / 255))
    assert delta_e(srgb_to_lab((1.0, 1.0, 1.0)), cream) > 5.0


def test_each_group_shares_only_the_cut_lines_its_edges_allow():
    game = load_pack(FIXTURES / "cutedges")
    runs: dict[str, list] = {}
    for run in _runs(game, game.groups, BuildRequest(), group_options(game, BuildRequest())):
        runs.setdefault(run.key, []).append(({f.item.id for f in run.fronts}, run.cuts, run.joins))
    assert runs["seats"] == [({"red"}, "shared", (True, True)), ({"blue"}, "shared", (True, True))]
    assert runs["backed"] == [({"b1"}, "shared", (True, True)), ({"b2"}, "shared", (True, True))]
    assert runs["plain"] == [({"p1", "p2"}, "shared", (True, True))]
    assert runs["headed"] == [({"h1"}, "shared", (True, False))]     # a header over a cream body
    assert runs["striped"] == [({"s1"}, "shared", (False, True))]    # red on the left, white on the right
    edges = {run.edge for run in _runs(game, game.groups, BuildRequest(), group_options(game, BuildRequest()))}
    assert len(edges) == 7          # no two parts alike enough to share cuts with each other


def test_without_reading_edges_a_group_shares_every_cut_as_before():
    game = load_pack(FIXTURES / "cutedges")
    (run,) = [r for r in _runs(game, game.groups, BuildRequest(cuts="separate"), group_options(game, BuildRequest(cuts="separate"))) if r.key == "plain"]
    assert run.cuts == "separate"


@pytest.fixture(scope="module")
def printed(built):
    folder = built("cutedges", "--paper", "a4")
    game = load_pack(FIXTURES / "cutedges")
    sheets = plan_sheets(game, [g for g in game.groups if g.kind != "mat"], BuildRequest(paper="a4"), "sheets")
    doc = pymupdf.open(folder / "cutedges-sheets.pdf")
    assert len(doc) == len(sheets)
    return sheets, [page.get_pixmap(dpi=DPI) for page in doc]


def pixel(pix, x_mm, y_mm):
    return pix.pixel(min(max(round(x_mm * PX), 0), pix.width - 1), min(max(round(y_mm * PX), 0), pix.height - 1))


def rgb(hex_colour):
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def near(a, b, tol=16):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


CLOCKWISE = ("top", "right", "bottom", "left")


def edge_colour(face, page_side: str, rotation: int):
    """The colour a face's template paints along one side (as the side lies on the page)."""
    data = face.item.data
    if face.side == "back":
        return rgb(data["back"])
    side = CLOCKWISE[(CLOCKWISE.index(page_side) - rotation // 90) % 4]
    if side == "top" and data["header"]:
        return rgb(data["header"])
    if side == "left" and data["stripe"]:
        return rgb(data["stripe"])
    return rgb(data["edge"])


def test_a_cut_1mm_off_shows_the_faces_own_edge_colour_on_every_side(printed):
    """Faces of different seats, sides and backs of different colours: 1 mm outside the trim, on
    every side, lies the colour of the face's own edge there; where faces share a cut, the
    neighbour's edge is that colour too."""
    sheets, pixes = printed
    checked = 0
    for sheet, pix in zip(sheets, pixes):
        for p in sheet.placements:
            for side, x, y in (("left", p.x - 1, p.y + p.h / 2), ("right", p.x + p.w + 1, p.y + p.h / 2),
                               ("top", p.x + p.w / 2, p.y - 1), ("bottom", p.x + p.w / 2, p.y + p.h + 1)):
                assert near(pixel(pix, x, y), edge_colour(p.face, side, p.rotation)), \
                    (sheet.number, sheet.side, p.face.key, side)
                checked += 1
    assert checked >= 4 * 30


def _dark_columns(pix, y_mm, x0_mm, x1_mm) -> list[float]:
    """The x (mm) of each run of dark pixels along the row at y_mm between x0 and x1."""
    xs, row = [], round(y_mm * PX)
    for x in range(round(x0_mm * PX), round(x1_mm * PX)):
        if sum(pix.pixel(x, row)) < 3 * 200:        # a 0.25 pt mark is under a pixel wide: grey
            if not xs or x - xs[-1][-1] > 1:
                xs.append([x])
            else:
                xs[-1].append(x)
    return [sum(run) / len(run) / PX for run in xs]


@pytest.mark.parametrize("group,gutters", [("headed", True), ("seats", False), ("plain", False)])
def test_crop_marks_stand_at_each_faces_own_cut_or_at_the_shared_one(printed, group, gutters):
    """Above the top row of a group's first block: one crop mark per cut line, two between
    headed cards turned to lie side by side (header beside cream foot: a gutter, each its own
    cut) and one between cards of one seat, or plain ones (one shared cut)."""
    sheets, pixes = printed
    sheet, pix = next((s, p) for s, p in zip(sheets, pixes)
                      if s.side != "back" and any(q.face.group.id == group for q in s.placements))
    mine = [p for p in sheet.placements if p.face.group.id == group]
    top = min(p.y for p in mine)
    row = sorted((p for p in mine if abs(p.y - top) < 0.01), key=lambda p: p.x)
    assert len(row) >= 2
    cuts = sorted({round(v, 2) for p in row for v in (p.x, p.x + p.w)})
    assert len(cuts) == (2 * len(row) if gutters else len(row) + 1)
    mark_y = top - max(p.bleed[1] for p in row) - 1.6        # inside the crop marks' span above the bleed
    seen = _dark_columns(pix, mark_y, row[0].x - 4, row[-1].x + row[-1].w + 4)
    assert len(seen) == len(cuts), (seen, cuts)
    assert seen == pytest.approx(cuts, abs=0.3)


def test_piece_colour_is_numpys_median_to_the_bit():
    """edges._median stands in for numpy.median on the hot path: the same bits, odd and even."""
    import numpy
    from generator import edges
    rng = numpy.random.default_rng(7)
    for n in (1, 2, 3, 8, 9, 40, 41):
        colours = rng.normal(50, 30, (n, 3))
        assert edges._median(colours).tobytes() == numpy.median(colours, axis=0).tobytes()


def test_edges_compared_once_each_decide_as_every_pair():
    """_within compares each distinct run once; repeats must not change what it decides."""
    import numpy
    from generator import edges
    cream, near, red = [90.0, 2.0, 8.0], [89.0, 2.0, 8.5], [50.0, 60.0, 40.0]
    many = [[cream, near]] * 50
    assert edges._within(many, [[near, cream]] * 30)
    assert not edges._within(many + [[cream, red]], [[near, cream]] * 30)
    assert not edges._within(many, [[near, cream]] * 30 + [[red, cream]])
    assert edges.delta_e(numpy.array(cream), numpy.array(near)) <= edges.SAME_COLOUR


@pytest.mark.skipif(not __import__("os").path.isdir("/proc/self/task"), reason="threads counted in /proc")
def test_numpy_under_pnpgen_starts_no_blas_threads():
    """OpenBLAS's idle threads busy-wait after each product (1.65 % of a 10,000-card build's
    CPU); edges.py multiplies only 3x3 colour matrices, so pnpgen keeps numpy to one thread,
    unless the user set OPENBLAS_NUM_THREADS."""
    import os
    import subprocess
    import sys
    count = "import generator.edges, numpy, os; print(len(os.listdir('/proc/self/task')))"
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    assert subprocess.run([sys.executable, "-c", count], env=env, capture_output=True, text=True,
                          check=True).stdout.strip() == "1"
    chosen = subprocess.run([sys.executable, "-c", "import generator, os; print(os.environ['OPENBLAS_NUM_THREADS'])"],
                            env={**env, "OPENBLAS_NUM_THREADS": "2"}, capture_output=True, text=True, check=True)
    assert chosen.stdout.strip() == "2"
