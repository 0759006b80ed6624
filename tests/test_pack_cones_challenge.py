"""Cones of Dunshire pack, helper C3's part: the 72 Challenge Play cards (challenge.yaml), the 36
dice nets (dice.yaml), resource tokens and agriculture chits (resources.yaml).

Built from a copy of the pack that holds only game.yaml, map.yaml, icons and these three files,
so the test stays fast and independent of the other parts: counts in build.json against the
manifests and the rulebook, sizes in mm, the hex diagrams drawn from each card's `hexes` (change
one card's offsets, the drawing changes), and numbers on the faces read from the manifests
(change one in a temp copy, rebuild, the printed number changes)."""
from __future__ import annotations

import re

import pymupdf
import pytest
import yaml

from conftest import ROOT, build_pack, indexed_build_info, pack_subset
from generator.manifest import load_pack
from generator.render import FaceRef, FaceRenderer
from map_oracles.data import map_data   # the pack's map.yaml with the oracle's independent numbers

PACK = ROOT / "components" / "cones-of-dunshire"
MINE = ["challenge.yaml", "dice.yaml", "resources.yaml"]
HEX_COLOURS = {"green", "blue", "red", "yellow", "black"}
TOL = 0.01


def _pack_copy(dest):
    return pack_subset(PACK, ["game.yaml", "map.yaml", *MINE], dest)


_build = build_pack


def _groups(name):
    return yaml.safe_load((PACK / name).read_text())["groups"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("c3")
    return _build(_pack_copy(tmp / "pack"), tmp / "out")


@pytest.fixture(scope="module")
def info(built):
    return indexed_build_info(built)


def test_counts_match_the_manifests_and_the_rulebook(info):
    g = info["groups"]
    expected = {"challenge-plays": 72, "dice-d6": 12, "dice-d8": 12, "dice-d4": 12,
                "resources": 90, "agriculture-chits": 100}
    for gid, total in expected.items():
        assert g[gid]["total"] == g[gid]["rulebook_count"] == total, gid
    assert sum(g[d]["total"] for d in ("dice-d6", "dice-d8", "dice-d4")) == 36     # "36 dice"
    copies = {i["id"]: i["copies"] for i in info["items"]}
    assert (copies["wood"], copies["stone"], copies["iron"]) == (30, 30, 30)
    assert (copies["irrigation"], copies["famine"]) == (60, 40)
    for group in _groups("challenge.yaml") + _groups("dice.yaml") + _groups("resources.yaml"):
        counts = [i.get("copies", 1) for i in group["items"]]
        counts = [n if isinstance(n, int) else copies[i["id"]] for n, i in zip(counts, group["items"])]  # "=map..."
        assert g[group["id"]]["total"] == sum(counts)
    assert g["doom-points"]["total"] == map_data("cones-of-dunshire")["doom_points"]["count"]


def test_each_god_has_18_cards_of_both_types():
    cards = _groups("challenge.yaml")[0]["items"]
    gods = [god["id"] for god in yaml.safe_load((PACK / "game.yaml").read_text())["data"]["gods"]]
    for god in gods:
        mine = [c for c in cards if c["god"] == god]
        assert len(mine) == 18, god
        assert {c["play"] for c in mine} == {"single", "config"}
    for card in cards:
        if card["play"] == "single":
            assert len(card["hexes"]) == 1 and card["hexes"][0][2] in HEX_COLOURS
            assert isinstance(card["night"], int) and isinstance(card["day"], int)
        else:
            assert len(card["hexes"]) >= 2 and all(h[2] == "any" for h in card["hexes"])


def _sets(hexes):
    """Groups of touching hexes (axial distance 1)."""
    cells = [tuple(h[:2]) for h in hexes]
    assert len(set(cells)) == len(cells)
    sets, left = [], set(cells)
    while left:
        todo, group = [left.pop()], set()
        while todo:
            q, r = todo.pop()
            group.add((q, r))
            for dq, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)):
                if (q + dq, r + dr) in left:
                    left.remove((q + dq, r + dr))
                    todo.append((q + dq, r + dr))
        sets.append(group)
    return sets


def test_configuration_sets_never_touch():
    """A shape's sets are groups of touching hexes; two sets are at least 2 steps apart (the
    rulebook: 'the sets cannot be adjacent'), so they read as separate on the card."""
    for card in _groups("challenge.yaml")[0]["items"]:
        if card["play"] != "config":
            continue
        sets = _sets(card["hexes"])
        for i, a in enumerate(sets):
            for b in sets[i + 1:]:
                dist = min((abs(p[0] - q[0]) + abs(p[1] - q[1]) + abs(p[0] + p[1] - q[0] - q[1])) // 2
                           for p in a for q in b)
                assert dist >= 2, card["id"]


@pytest.mark.parametrize("group,width,height", [
    ("challenge-plays", 63, 88), ("dice-d6", 54, 70), ("dice-d8", 78, 58), ("dice-d4", 58, 56),
    ("resources", 16, 16), ("agriculture-chits", 18, 18)])
def test_sizes_in_mm(info, group, width, height):
    items = [i for i in info["items"] if i["group"] == group]
    assert items
    for item in items:
        assert item["width_mm"] == pytest.approx(width, abs=TOL)
        assert item["height_mm"] == pytest.approx(height, abs=TOL)


def _hex_polygons(pack, card_id):
    game = load_pack(pack)
    group = next(g for g in game.groups if g.id == "challenge-plays")
    item = next(i for i in group.items if i.id == card_id)
    svg = FaceRenderer(game, 3.0).svg(FaceRef(group, item, "front"))
    block = re.search(r'<g class="hexes">(.*?)</g>', svg, re.S).group(1)
    return re.findall(r'<polygon points="([^"]+)"', block)


def test_hex_diagram_is_drawn_from_the_offsets(tmp_path):
    card_id = "kraken-two-pairs"
    card = next(c for c in _groups("challenge.yaml")[0]["items"] if c["id"] == card_id)
    before = _hex_polygons(PACK, card_id)
    assert len(before) == len(card["hexes"])
    # change one card's offsets (a pair becomes a bent line of 3 plus one apart) in a copy
    pack = _pack_copy(tmp_path)
    path = pack / "challenge.yaml"
    text = path.read_text()
    line = next(l for l in text.splitlines() if f"id: {card_id}," in l)
    new_line = re.sub(r"hexes: \[.*\]\}", "hexes: [[0, 0, any], [1, 0, any], [1, 1, any], [4, 0, any]]}", line)
    path.write_text(text.replace(line, new_line))
    after = _hex_polygons(pack, card_id)
    assert len(after) == 4 and after != before


def _words(pdf, page):
    return [w[4] for w in pymupdf.open(pdf)[page].get_text("words")]


def _all_words(pdf):
    return [w for n in range(len(pymupdf.open(pdf))) for w in _words(pdf, n)]


@pytest.mark.slow
def test_numbers_on_faces_come_from_the_manifests(built, tmp_path):
    pdf = built / "cones-of-dunshire-sheets.pdf"
    # first sheet: the first nine Dragon cards; the first card prints 3 (night) and 5 (day)
    assert "8" not in _words(pdf, 0) and "9" not in _words(pdf, 0)
    rs = yaml.safe_load((PACK / "game.yaml").read_text())["data"]["rs_per_face"]
    assert _all_words(pdf).count(f"+{rs}") == 12 * 8         # 12 d8 nets of 8 faces

    pack = _pack_copy(tmp_path / "pack")
    path = pack / "challenge.yaml"
    text = path.read_text().replace("id: dragon-green-3-5, god: dragon, play: single, night: 3, day: 5",
                                    "id: dragon-green-3-5, god: dragon, play: single, night: 8, day: 9")
    path.write_text(text)
    game = pack / "game.yaml"
    game.write_text(game.read_text().replace(f"rs_per_face: {rs}", "rs_per_face: 7"))
    pdf2 = _build(pack, tmp_path / "out") / "cones-of-dunshire-sheets.pdf"
    words = _words(pdf2, 0)
    assert "8" in words and "9" in words
    assert _all_words(pdf2).count("+7") == 12 * 8 and f"+{rs}" not in _all_words(pdf2)
