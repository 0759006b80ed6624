"""Cones of Dunshire: the 70 terrain hexes, the god Challenge spaces and standees, the Cones,
Subcones and the Cone of Decision (components/cones-of-dunshire/hexes.yaml, gods.yaml,
cones.yaml). Counts against the rulebook and map.yaml, sizes, and that the numbers printed on
the faces come from the manifests (game.yaml data, map.yaml), not the templates."""
from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pymupdf
import pytest
import yaml

from conftest import MM, ROOT, build_pack, load_build_json, pack_subset
from map_oracles.data import map_data   # the pack's map.yaml with the oracle's independent numbers

PACK = ROOT / "components" / "cones-of-dunshire"
OWN = ("game.yaml", "map.yaml", "hexes.yaml", "gods.yaml", "cones.yaml")
MAP = map_data("cones-of-dunshire")
GAME = yaml.safe_load((PACK / "game.yaml").read_text(encoding="utf-8"))


def subset_pack(dest: Path) -> Path:
    return pack_subset(PACK, OWN, dest)


build = build_pack


def words(folder: Path) -> Counter:
    with pymupdf.open(folder / "cones-of-dunshire-sheets.pdf") as doc:
        return Counter(w[4] for page in doc for w in page.get_text("words"))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    base = tmp_path_factory.mktemp("cones-hexes")
    return build(subset_pack(base / "pack"), base / "out")


def test_counts_match_rulebook_and_map(built):
    data = load_build_json(built)
    groups = {g["id"]: g for g in data["groups"]}
    assert groups["hexes"]["total"] == groups["hexes"]["rulebook_count"] == 70 == MAP["board"]["hex_count"]
    assert groups["cones"]["total"] == groups["cones"]["rulebook_count"] == 32
    assert groups["subcones"]["total"] == groups["subcones"]["rulebook_count"] == 32
    assert groups["cone-of-decision"]["total"] == 1
    assert groups["challenge-spaces"]["total"] == groups["challenge-spaces"]["rulebook_count"] == 4
    assert groups["god-standees"]["total"] == 4
    hexes = {i["id"]: i["copies"] for i in data["items"] if i["group"] == "hexes"}
    mountain = MAP["mountain"]
    expected = dict(MAP["colors"])
    expected.update({f"mountain-{e}": n for e, n in mountain["elevations"].items()})
    expected["summit"] = mountain["summit"]["count"]
    assert hexes == expected                          # the mix the map generator draws
    for group in ("cones", "subcones"):
        copies = {i["id"]: i["copies"] for i in data["items"] if i["group"] == group}
        assert copies == {g["id"]: GAME["data"][f"{group}_per_god"] for g in MAP["gods"]}


def test_sizes_in_mm(built):
    data = load_build_json(built)
    by_group = {}
    for item in data["items"]:
        by_group.setdefault(item["group"], set()).add((item["width_mm"], item["height_mm"], item["sides"], item["shape"]))
    assert by_group["hexes"] == {(50, round(50 * 2 / math.sqrt(3), 3), 1, "hexagon")}
    assert by_group["cones"] == {(25, 25, 2, "circle")}
    assert by_group["subcones"] == {(20, 20, 2, "circle")}
    assert by_group["cone-of-decision"] == {(40, 40, 2, "circle")}
    assert by_group["challenge-spaces"] == {(140, 100, 1, "rect")}
    assert by_group["god-standees"] == {(40, 100, 1, "rect")}
    with pymupdf.open(built / "cones-of-dunshire-sheets.pdf") as doc:
        for page in doc:                              # A4 pages in points
            assert page.rect.width == pytest.approx(210 * MM, abs=0.1)
            assert page.rect.height == pytest.approx(297 * MM, abs=0.1)


def test_faces_print_their_names(built):
    text = words(built)
    assert text["MOUNTAIN"] == sum(MAP["mountain"]["elevations"].values())
    assert text["SUMMIT"] == MAP["mountain"]["summit"]["count"]
    for colour, count in MAP["colors"].items():
        assert text[colour.upper()] == count, colour
    assert text["SUBCONE"] == 64                   # 32 Subcones, both sides
    assert text["DAY"] == 1 and text["NIGHT"] == 1   # the Cone of Decision's two sides


def test_printed_numbers_come_from_the_manifests(tmp_path):
    """Change a number once in game.yaml data or map.yaml and every face that shows it changes."""
    pack = subset_pack(tmp_path / "pack")
    game = (pack / "game.yaml").read_text(encoding="utf-8")
    for old, new in [("cone_points: 20", "cone_points: 47"), ("cones_to_win: 4", "cones_to_win: 9"),
                     ("subcone_hexes: 4", "subcone_hexes: 6")]:
        assert old in game
        game = game.replace(old, new)
    (pack / "game.yaml").write_text(game, encoding="utf-8")
    map_text = (pack / "map.yaml").read_text(encoding="utf-8")
    for old, new in [("{type: green, count: &green 12}", "{type: green, count: &green 11}"),
                     ("count: green, exactly: 12,", "count: green, exactly: 11,"),
                     ("count: black, exactly: &black 6,", "count: black, exactly: &black 7,")]:
        assert old in map_text
        map_text = map_text.replace(old, new, 1)
    (pack / "map.yaml").write_text(map_text, encoding="utf-8")
    out = build(pack, tmp_path / "out")
    text = words(out)
    assert text["47"] == 4 and text["20"] == 0        # "47 Dragon points buy a Dragon Cone." x 4 gods
    assert text["9"] == 2                             # "1 of the 9 Cones", both sides
    assert text["6"] >= 4                             # "own 6 hexes with ..." on each god space
    assert text["GREEN"] == 11 and text["BLACK"] == 7
    hexes = {i["id"]: i["copies"] for i in load_build_json(out)["items"] if i["group"] == "hexes"}
    assert hexes["green"] == 11 and hexes["black"] == 7
