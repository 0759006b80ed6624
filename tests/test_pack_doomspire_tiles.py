"""Lords of Doomspire pack, helper D1's part: the land tiles (tiles.yaml), the four L-shaped ocean
tiles (ocean.yaml) and the Fame / Might track (track.yaml). Counts in build.json against map.yaml
(the one source of the tile mix), sizes in mm, the ocean geometry (the four Ls and the 8x8 grid of
land tiles make a square ring with no gap or overlap, 7 coastal tiles each) and numbers on the
faces read from the manifests (change one in a copy, rebuild, the face changes).

The pack is built from a copy holding only these components (plus game.yaml, map.yaml and the
icons), so the test does not depend on the rest of the pack."""
from __future__ import annotations

import re

import pymupdf
import pytest
import yaml

from conftest import ROOT, build_pack, indexed_build_info, pack_subset
from map_oracles.data import map_data   # the pack's map.yaml with the oracle's independent numbers

PACK = ROOT / "components" / "lords-of-doomspire"
MINE = ["game.yaml", "map.yaml", "tiles.yaml", "ocean.yaml", "track.yaml"]
LAND_GROUPS = ["home-tiles", "plains-tiles", "hills-tiles", "mountain-tiles"]
OCEANS = ["nw", "ne", "se", "sw"]


def _yaml(name, pack=PACK):
    return yaml.safe_load((pack / name).read_text())


def _subpack(dest):
    return pack_subset(PACK, MINE, dest)          # keeps the pack's name: it selects the map rules


_build = build_pack


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    base = tmp_path_factory.mktemp("ld1")
    return _build(_subpack(base / "pack"), base / "out")


@pytest.fixture(scope="module")
def info(out):
    return indexed_build_info(out)


def _group(gid):
    for name in ("tiles.yaml", "ocean.yaml", "track.yaml"):
        for g in _yaml(name)["groups"]:
            if g["id"] == gid:
                return g
    raise KeyError(gid)


def test_every_group_total_equals_its_rulebook_count(info):
    for gid in LAND_GROUPS + [f"ocean-{z}" for z in OCEANS] + ["track"]:
        g = info["groups"][gid]
        assert g["total"] == g["rulebook_count"], gid


def test_land_tiles_are_exactly_the_map_generators_mix(info):
    m = map_data("lords-of-doomspire")
    size = m["board"]["size"]
    land = sum(info["groups"][g]["total"] for g in LAND_GROUPS)
    assert land == size * size == 64
    assert info["groups"]["home-tiles"]["total"] == len(m["home"]["corners"]) == 4
    # each item reads its map entry: same type, resources and count, and every entry is printed
    for biome, gid in [("plains", "plains-tiles"), ("hills", "hills-tiles"), ("mountains", "mountain-tiles")]:
        items = _group(gid)["items"]
        assert len(items) == len(m["tiles"][biome])
        built = {i["id"]: i for i in info["items"] if i["group"] == gid}
        for index, (item, entry) in enumerate(zip(items, m["tiles"][biome])):
            ref = f"=map.data.tiles.{biome}.{index}"
            assert item["copies"] == f"{ref}.count" and item["type"] == f"{ref}.type"
            assert item["tier"] == f"=map.data.biomes.{biome}.tier"
            if entry["type"] == "resource":
                assert item["resources"] == f"{ref}.values.resources"
            assert built[item["id"]]["copies"] == entry["count"], item["id"]
        assert info["groups"][gid]["total"] == sum(e["count"] for e in m["tiles"][biome])


def test_tiers_two_and_three_have_a_back_and_tier_one_does_not(info):
    sides = {g: {i["sides"] for i in info["items"] if i["group"] == g} for g in LAND_GROUPS}
    assert sides == {"home-tiles": {1}, "plains-tiles": {1}, "hills-tiles": {2}, "mountain-tiles": {2}}
    for gid in ("hills-tiles", "mountain-tiles"):
        assert _group(gid)["back_template"].endswith("land-back.svg.j2")


def test_sizes_in_mm(info):
    for i in info["items"]:
        if i["group"] in LAND_GROUPS:
            assert (i["width_mm"], i["height_mm"], i["shape"]) == (40.0, 40.0, "square"), i["id"]
        elif i["group"].startswith("ocean-"):
            assert (i["width_mm"], i["height_mm"], i["shape"]) == (200.0, 200.0, "polygon")
        elif i["group"] == "track":
            assert (i["width_mm"], i["height_mm"]) == (190.0, 190.0)


def _area(points):
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]))) / 2


def _inside(x, y, polygon):
    inside = False
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def test_the_four_ocean_ls_frame_the_8x8_grid_of_land_tiles():
    m = map_data("lords-of-doomspire")
    n = m["board"]["size"]
    tile = float(_group("plains-tiles")["size"].removesuffix("mm"))
    side = (n + 2) * tile                                   # the ring's outer square
    # each L sits in its corner of the outer square; the land grid starts one cell in
    origin = {"nw": (0, 0), "ne": (side / 2, 0), "se": (side / 2, side / 2), "sw": (0, side / 2)}
    placed = {}
    for z in OCEANS:
        g = _group(f"ocean-{z}")
        pts = [tuple(p) for p in g["points"]]
        w = float(g["size"]["width"].removesuffix("mm"))
        h = float(g["size"]["height"].removesuffix("mm"))
        assert (w, h) == (side / 2, side / 2)
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        assert (min(xs), min(ys), max(xs), max(ys)) == (0, 0, w, h)   # bounding box = the mat
        assert _area(pts) == 9 * tile * tile                        # the zone's 9 ocean cells
        assert g["items"][0]["cell"] == tile and g["items"][0]["zone"] == z
        placed[z] = [(x + origin[z][0], y + origin[z][1]) for x, y in pts]
    # areas: the four Ls are the ring around the grid exactly
    assert sum(_area(p) for p in placed.values()) == side ** 2 - (n * tile) ** 2
    # cover: sample every half cell; ring points in exactly one L, grid points in none
    step = tile / 2
    k = int(side / step)
    for i in range(k):
        for j in range(k):
            x, y = (i + 0.5) * step, (j + 0.5) * step
            hits = [z for z, p in placed.items() if _inside(x, y, p)]
            on_grid = tile < x < side - tile and tile < y < side - tile
            assert len(hits) == (0 if on_grid else 1), (x, y, hits)
    # each L touches 7 land tiles (shares an edge with them), those of its quadrant's coast
    for z, p in placed.items():
        touching = set()
        for cx in range(n):
            for cy in range(n):
                x, y = (cx + 1.5) * tile, (cy + 1.5) * tile       # land tile centre
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    if _inside(x + dx * tile, y + dy * tile, p):
                        touching.add((cx, cy))
        assert len(touching) == m["board"]["coastal_per_zone"] == 7, z
        quadrant = {"nw": (0, 0), "ne": (1, 0), "se": (1, 1), "sw": (0, 1)}[z]
        assert all((cx >= n // 2) == quadrant[0] and (cy >= n // 2) == quadrant[1] for cx, cy in touching)


def _text(pdf):
    return " ".join(page.get_text() for page in pymupdf.open(pdf))


def test_fame_track_reaches_15_and_marks_the_threshold(out):
    game = _yaml("game.yaml")
    assert game["data"]["tracks"]["fame"]["max"] >= 15 == game["data"]["impress"]["fame"]
    text = _text(out / "lords-of-doomspire-boards.pdf")
    numbers = set(re.findall(r"\b(\d+)\+?", text))
    assert {str(v) for v in range(game["data"]["tracks"]["fame"]["max"] + 1)} <= numbers
    assert "impresses" in text and "dragon" in text and "bear" in text


@pytest.mark.slow
def test_numbers_on_faces_come_from_the_manifests(out, tmp_path):
    sheets = _text(out / "lords-of-doomspire-sheets.pdf")
    assert "Might 5" in sheets and "Might 8" in sheets and "Pay 3" in sheets
    pack = _subpack(tmp_path / "pack")
    game = _yaml("game.yaml", pack)
    game["data"]["bear"]["might"] = 7
    game["data"]["dragon"]["might"] = 11
    game["data"]["special_tiles"]["mercenary-camp"]["pay"]["gold"] = 4
    game["data"]["tracks"]["fame"]["max"] = 23
    (pack / "game.yaml").write_text(yaml.safe_dump(game, sort_keys=False, allow_unicode=True))
    changed = _build(pack, tmp_path / "out")
    sheets = _text(changed / "lords-of-doomspire-sheets.pdf")
    assert "Bear guard · Might 7" in sheets and "Bear · Might 7" in sheets
    assert "Dragon · Might 11" in sheets and "Pay 4" in sheets and "Might 5" not in sheets
    track = _text(changed / "lords-of-doomspire-boards.pdf")
    assert "23+" in track and "Fame 23+" not in track
    assert {str(v) for v in range(24)} <= set(re.findall(r"\b(\d+)\+?", track))


def test_ocean_ls_carry_join_marks_where_they_butt():
    """Where one L's arm butts against the next L's arm, each draws half a disc on the cut at the
    middle of the ring's depth and two bars across the cut at 0.3 of the depth either side, at
    the same ring positions on both pieces, so a player lines them up disc to disc."""
    import numpy

    from generator.manifest import load_pack
    from generator.maps.render import png_bytes
    from generator.render import FaceRenderer, expand_faces

    game = load_pack(PACK)
    renderer = FaceRenderer(game, 0.0)
    dpi = 100
    paper = numpy.array([int(game.palette["paper"][k:k + 2], 16) for k in (1, 3, 5)])
    for z in OCEANS:
        group = next(g for g in game.groups if g.id == f"ocean-{z}")
        c = group.items[0].data["cell"]
        w, h = group.width, group.height
        pix = pymupdf.Pixmap(png_bytes(renderer.svg(expand_faces(group)[0][0]), w, h, dpi))
        image = numpy.frombuffer(pix.samples, dtype=numpy.uint8).reshape(pix.height, pix.width, pix.n)[..., :3]
        is_paper = lambda x, y: numpy.abs(image[int(y / 25.4 * dpi), int(x / 25.4 * dpi)] - paper).max() < 30
        west, north = z[1] == "w", z[0] == "n"
        ky, kx = (0 if north else h - c), (0 if west else w - c)
        ex, inward_x = (w - 1.5, -1) if west else (1.5, 1)          # 1.5 mm inside the arm's end
        ey = h - 1.5 if north else 1.5
        for f, mark in ((0, True), (0.3, True), (-0.3, True), (0.15, False), (-0.15, False)):
            assert is_paper(ex, ky + c / 2 + f * c) == mark, (z, "east-west end", f)
            assert is_paper(kx + c / 2 + f * c, ey) == mark, (z, "north-south end", f)
