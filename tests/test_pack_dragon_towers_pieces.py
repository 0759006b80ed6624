"""Dragon Towers pack, the map hexes and the player / supply pieces (hexes.yaml, tokens.yaml):
counts in build.json against map.yaml and game.yaml data, sizes in mm, the duplex outpost /
Dragon Tower chit, numbers on the faces read from the manifests (change one, the face changes),
and pixels of the rendered hexes (owner's mark, Empty die faces, terrains apart in greyscale)."""
from __future__ import annotations

import itertools
import re

import cairocffi
import pymupdf
import pytest
import yaml

from conftest import MM, ROOT, assert_item_sizes, copy_pack, group_items, indexed_build_info, run_cli, word_centres
from generator import svgdraw
from generator.manifest import load_pack
from generator.render import FaceRef, FaceRenderer
from map_oracles.data import map_data   # the pack's map.yaml with the oracle's independent numbers

PACK = ROOT / "components" / "dragon-towers"
TERRAINS = ["water", "food", "wood", "rock", "mana", "empty"]
TOL = 0.01


def _yaml(name):
    return yaml.safe_load((PACK / name).read_text())


@pytest.fixture(scope="module")
def out(built):
    return built("dragon-towers")


@pytest.fixture(scope="module")
def info(out):
    return indexed_build_info(out)


_items = group_items


def test_hex_counts_follow_map_yaml_and_the_rulebook(info):
    game, tiles = _yaml("game.yaml"), map_data("dragon-towers")["tiles_per_player"]
    seats = [c["id"] for c in game["player_colors"]]
    assert sum(tiles.values()) == 26                   # "5 Water, 5 Food, 5 Wood, 5 Empty, 4 Rock, and 2 Mana"
    group = info["groups"]["hexes"]
    assert group["total"] == group["rulebook_count"] == 26 * len(seats) == 104
    items = _items(info, "hexes")
    for seat in seats:
        for terrain, count in tiles.items():
            mine = [i for i in items if i["id"].endswith(f"-{seat}") and i["id"].startswith(terrain)]
            assert sum(i["copies"] for i in mine) == count, (seat, terrain)


def test_empty_tiles_show_the_seats_d6_numbers():
    game = load_pack(PACK)
    faces, tiles = map_data("dragon-towers")["empty_faces"], map_data("dragon-towers")["tiles_per_player"]
    hexes = next(g for g in game.groups if g.id == "hexes")
    for seat, player in enumerate(game.players, 1):
        numbers = sorted(i.data["number"] for i in hexes.items
                         if i.player is player and i.data["terrain"] == "empty")
        assert numbers == sorted(faces[seat]) and len(numbers) == tiles["empty"]


def test_piece_counts_follow_game_data(info):
    data, seats = _yaml("game.yaml")["data"], len(_yaml("game.yaml")["player_colors"])
    g = info["groups"]
    assert g["outposts"]["total"] == data["pieces"]["outposts"] * seats == 32
    assert g["renown"]["total"] == g["renown"]["rulebook_count"] == data["renown_to_win"] * seats == 12
    # 3 tokens of each of the 4 troop types per player (the 6-troop limit, any mix of types)
    assert data["pieces"]["troops"] == 6
    tokens = _items(info, "troop-tokens")
    assert g["troop-tokens"]["total"] == 3 * 4 * seats == 48
    for kind in ("warrior", "archer", "mage", "paragon"):
        assert sum(i["copies"] for i in tokens if i["id"].startswith(kind + "-")) == 3 * seats
    resources = _items(info, "resources")
    assert g["resources"]["total"] == 80
    assert sorted(i["id"] for i in resources) == sorted(map_data("dragon-towers")["resource_types"])
    assert all(i["copies"] == 20 for i in resources)


@pytest.mark.parametrize("group,width,height,sides", [
    ("hexes", 40.0, 40.0 * 2 / 3 ** 0.5, 1),
    ("outposts", 20.0, 20.0 * 2 / 3 ** 0.5, 2),
    ("troop-tokens", 22.0, 22.0, 1),
    ("resources", 18.0, 18.0, 1),
    ("renown", 20.0, 20.0, 1),
])
def test_sizes_in_mm(info, group, width, height, sides):
    assert_item_sizes(info, group, width, height, sides, TOL)


_words = word_centres


def test_each_outpost_has_its_dragon_tower_behind_it(out):
    """Long-edge duplex: the page after the outposts holds a TOWER label mirrored left-right
    behind every OUTPOST label."""
    doc = pymupdf.open(out / "dragon-towers-sheets.pdf")
    found = 0
    for index, page in enumerate(doc):
        fronts = _words(page, "OUTPOST")
        if not fronts:
            continue
        backs = _words(doc[index + 1], "TOWER")
        assert len(backs) == len(fronts)
        width = page.rect.width / MM
        for x, y in fronts:
            assert min(abs(width - x - bx) + abs(y - by) for bx, by in backs) < 0.2
        found += len(fronts)
    assert found == 32


def test_every_page_keeps_the_faces_it_draws(out):
    """Each page that paints recorded faces (`/xN Do`) still names them in its resources: a
    step that loses them prints blank pages (seen when a face repeats many times on a page)."""
    for path in sorted(out.glob("*.pdf")):
        for page in pymupdf.open(path):
            used = set(re.findall(rb"/(x\d+) Do", page.read_contents()))
            names = {x[1].encode() for x in page.get_xobjects()}
            assert used <= names, f"{path.name} page {page.number + 1}: {sorted(used - names)} missing"


def test_piece_text_is_never_under_6pt(out):
    labels = {"OUTPOST", "TOWER", "RENOWN", "FLIES", "WARRIOR", "ARCHER", "MAGE", "PARAGON",
              "WATER", "FOOD", "WOOD", "ROCK", "MANA", "EMPTY"}
    seen = set()
    for page in pymupdf.open(out / "dragon-towers-sheets.pdf"):       # the pieces' labels, wherever they are
        for block in page.get_text("dict")["blocks"]:
            for line in block.get("lines", []):
                for span in line["spans"]:
                    if span["text"].strip() in labels:
                        seen.add(span["text"].strip())
                        assert span["size"] >= 5.99, span
    assert seen == labels


def _paragon_tokens(pdf):
    """Digits printed on each Paragon token: the words inside the circle round its FLIES tag."""
    tokens = []
    for page in pymupdf.open(pdf):
        words = [((w[0] + w[2]) / 2 / MM, (w[1] + w[3]) / 2 / MM, w[4]) for w in page.get_text("words")]
        for fx, fy, text in words:
            if text != "FLIES":
                continue
            if not any(t == "PARAGON" and abs(x - fx) < 1 and -4 < y - fy < 0 for x, y, t in words):
                continue
            cx, cy = fx, fy - 6.6              # the token's centre
            tokens.append(sorted(t for x, y, t in words
                                 if re.fullmatch(r"\d+", t) and (x - cx) ** 2 + (y - cy) ** 2 < 10 ** 2))
    return tokens


@pytest.mark.slow
def test_troop_tokens_read_move_and_health_from_the_troop_items(out, tmp_path):
    troops = _yaml("troops.yaml")["groups"][0]["items"]
    paragon = next(t for t in troops if t["id"] == "paragon")
    assert paragon["flies"] and not any(t["flies"] for t in troops if t["id"] != "paragon")
    tokens = _paragon_tokens(out / "dragon-towers-sheets.pdf")
    assert len(tokens) == 12                  # only Paragons fly: 3 per player carry the tag
    assert all(t == sorted([str(paragon["move"]), str(paragon["health"])]) for t in tokens)

    # change the numbers in one place, troops.yaml: the tokens follow
    pack = copy_pack("dragon-towers", tmp_path)
    path = pack / "troops.yaml"
    manifest = yaml.safe_load(path.read_text())
    changed = next(t for t in manifest["groups"][0]["items"] if t["id"] == "paragon")
    changed["move"], changed["health"] = 7, 5
    path.write_text(yaml.safe_dump(manifest, sort_keys=False))
    code, _, stderr = run_cli("build", pack, "--out", tmp_path / "out", "--quiet")
    assert code == 0, stderr
    tokens = _paragon_tokens(tmp_path / "out" / "dragon-towers" / "dragon-towers-sheets.pdf")
    assert len(tokens) == 12 and all(t == ["5", "7"] for t in tokens)


# --- pixels of single hex faces, drawn at 10 px/mm -----------------------------------------

PX = 10


def _raster(renderer, group, item):
    svg = renderer.svg(FaceRef(group, item, "front"))
    w, h = round(group.width * PX), round(group.height * PX)
    surface = cairocffi.ImageSurface(cairocffi.FORMAT_RGB24, w, h)
    ctx = cairocffi.Context(surface)
    ctx.set_source_rgb(1, 1, 1)
    ctx.paint()
    ctx.scale(PX, PX)
    svgdraw.draw_svg(ctx, svg)
    surface.flush()
    data, stride = bytes(surface.get_data()), surface.get_stride()

    def pixel(x_mm, y_mm):
        i = round(y_mm * PX) * stride + round(x_mm * PX) * 4
        b, g, r = data[i], data[i + 1], data[i + 2]
        return r, g, b
    return pixel, w, h


@pytest.fixture(scope="module")
def hexes():
    game = load_pack(PACK)
    group = next(g for g in game.groups if g.id == "hexes")
    return game, group, FaceRenderer(game, 3.0)


def _rgb(colour):
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def test_every_hex_carries_its_owners_colour(hexes):
    game, group, renderer = hexes
    for item in group.items:
        pixel, w, h = _raster(renderer, group, item)
        # the owner's dot sits on the axis, 40.6 mm down a 46.2 mm tile
        assert pixel(group.width / 2, 40.6) == pytest.approx(_rgb(item.player.color), abs=3), item.id


def test_empty_hexes_show_their_number_as_pips(hexes):
    game, group, renderer = hexes
    for item in (i for i in group.items if i.data["terrain"] == "empty"):
        svg = renderer.svg(FaceRef(group, item, "front"))
        pips = re.findall(r'<circle[^>]*r="1\.25"', svg)
        assert len(pips) == item.data["number"], item.id


def test_terrains_differ_in_greyscale(hexes):
    """Printed in black and white, every pair of terrains still differs clearly (pattern and
    icon, not only colour): mean absolute grey difference over the tile's middle band."""
    game, group, renderer = hexes
    greys = {}
    for terrain in TERRAINS:
        item = next(i for i in group.items if i.data["terrain"] == terrain)
        pixel, w, h = _raster(renderer, group, item)
        greys[terrain] = [sum(c * k for c, k in zip(pixel(x / PX, y / PX), (0.299, 0.587, 0.114)))
                          for y in range(12 * PX, 30 * PX, 3) for x in range(5 * PX, 35 * PX, 3)]
    for a, b in itertools.combinations(TERRAINS, 2):
        diff = sum(abs(p - q) for p, q in zip(greys[a], greys[b])) / len(greys[a])
        assert diff > 12, (a, b, diff)

