"""Shires small chits (components/shires/small-chits.yaml): the 206 small chits of the component
list. Built from a copy of the pack holding only game.yaml, map.yaml, the icons and this file, so
the test checks these groups whatever the rest of the pack is doing; then one copy with numbers
changed in game.yaml data and on the items, to see every face that shows them change."""
from __future__ import annotations

import shutil
from pathlib import Path

import pymupdf
import pytest
import yaml

from conftest import MM, ROOT, build_pack, face_texts, load_build_json
from generator.impose import GUIDE_STRIP
from map_oracles.data import map_data   # the pack's map.yaml with the oracle's independent numbers

PACK = ROOT / "components" / "shires"
CHITS = PACK / "small-chits.yaml"
TOTAL = 206       # "206 Sm. Building, Field, Control and Favor Chits"
GROUPS = {        # id: (shape, size mm, sides)
    "buildings": ("square", 20, 2), "small-fields": ("square", 20, 2),
    "large-fields": ("circle", 20, 2), "exploration": ("circle", 20, 2),
    "control": ("circle", 20, 1), "favor": ("rect", 20, 1), "events": ("circle", 20, 1),
    "markers": ("circle", 20, 1),
}


def chits_pack(dest: Path) -> Path:
    """A pack folder with only what the small chits need."""
    target = dest / "shires"
    target.mkdir(parents=True)
    for name in ("game.yaml", "map.yaml", "small-chits.yaml"):
        shutil.copy(PACK / name, target / name)
    shutil.copytree(PACK / "icons", target / "icons")
    return target


build = build_pack


@pytest.fixture(scope="module")
def baseline(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("chits")
    return build(chits_pack(tmp / "src"), tmp / "out")


@pytest.fixture(scope="module")
def changed(tmp_path_factory):
    """The same pack with one number changed in each place the chits read numbers from."""
    tmp = tmp_path_factory.mktemp("chits-changed")
    pack = chits_pack(tmp / "src")
    game = (pack / "game.yaml").read_text()
    edits = [
        ("    sawmill: {name: Sawmill, tier: improved, produces: {wood: 2}",
         "    sawmill: {name: Sawmill, tier: improved, produces: {wood: 7}"),          # production
        ("    field_cost: {small: 1, large: 2}", "    field_cost: {small: 5, large: 2}"),  # planting cost
        ("  votes: {hamlet: 1, village: 2, castle: 3, city: 4}",
         "  votes: {hamlet: 1, village: 9, castle: 3, city: 4}"),                       # votes
        ("    first_phase: 4 ", "    first_phase: 6 "),                                 # phase marker
    ]
    for old, new in edits:
        assert game.count(old) == 1, f"game.yaml no longer holds {old!r}; update this test"
        game = game.replace(old, new)
    (pack / "game.yaml").write_text(game)
    chits = (pack / "small-chits.yaml").read_text()
    old = "{id: small-3, field: small, food: 3, copies: 12}"
    assert chits.count(old) == 1
    (pack / "small-chits.yaml").write_text(chits.replace(old, "{id: small-3, field: small, food: 8, copies: 12}"))
    return build(pack, tmp / "out")


def manifest_groups() -> dict:
    return {g["id"]: g for g in yaml.safe_load(CHITS.read_text())["groups"]}


# -- counts and sizes -------------------------------------------------------------------------

def test_build_json_counts_match_the_manifest_and_the_component_list(baseline):
    doc = load_build_json(baseline)
    groups = {g["id"]: g for g in doc["groups"]}
    assert set(groups) == set(GROUPS)
    assert doc["total_components"] == TOTAL
    assert sum(g["total"] for g in groups.values()) == TOTAL
    manifest = manifest_groups()
    assert sum(g["rulebook_count"] for g in manifest.values()) == TOTAL
    for gid, group in groups.items():
        assert group["total"] == group["rulebook_count"] == manifest[gid]["rulebook_count"], gid
    assert groups["control"]["total"] == 12 * 5      # per player colour, five colours


def test_sizes_shapes_and_sides_in_mm(baseline):
    for item in load_build_json(baseline)["items"]:
        shape, size, sides = GROUPS[item["group"]]
        assert (item["shape"], item["sides"]) == (shape, sides), item["id"]
        assert item["width_mm"] == pytest.approx(size, abs=0.01)
        assert item["height_mm"] == pytest.approx(size, abs=0.01)


def test_enough_starting_buildings_and_plague_free_small_fields():
    """At least the setup chart's starting buildings (map.yaml), and a Plague-free Small Field
    for every Hamlet at the largest player count."""
    map_rules = map_data("shires")
    groups = manifest_groups()
    copies = {i["building"]: i.get("copies", 1) for i in groups["buildings"]["items"]}
    for players, chart in map_rules["starting_buildings"].items():
        for building, needed in chart.items():
            assert copies[building] >= needed, (players, building)
    hamlets = max(c["hamlet"] for c in map_rules["hex_counts"].values())
    clean = sum(i.get("copies", 1) for i in groups["small-fields"]["items"] if not i.get("event"))
    assert clean >= hamlets
    data = yaml.safe_load((PACK / "game.yaml").read_text())["data"]
    for building in copies:        # every token names a building of the data table
        assert building in data["buildings"]


# -- faces ------------------------------------------------------------------------------------

def sheets(folder: Path):
    return pymupdf.open(folder / "shires-sheets.pdf")


def numbers_under(page, label: str, depth_mm: float = 17.0) -> list[str]:
    """The numbers printed on each face whose title is `label`: digit words below the title,
    within the 20 mm face."""
    words = page.get_text("words")
    found = []
    guide_top = page.rect.height - (5 + GUIDE_STRIP) * MM      # the page guide names groups too
    for rect in (r for r in page.search_for(label) if r.y0 < guide_top):
        cx = (rect.x0 + rect.x1) / 2
        digits = [w[4] for w in words
                  if w[4].lstrip("+−-").isdigit() and abs((w[0] + w[2]) / 2 - cx) < 9.5 * MM
                  and rect.y0 < (w[1] + w[3]) / 2 < rect.y0 + depth_mm * MM]
        found.append(" ".join(digits))
    return found


def faces_with(doc, label: str, depth_mm: float = 17.0) -> list[str]:
    return [n for page in doc for n in numbers_under(page, label, depth_mm)]


def test_building_production_comes_from_game_data(baseline, changed):
    before, after = faces_with(sheets(baseline), "Sawmill"), faces_with(sheets(changed), "Sawmill")
    assert len(before) == len(after) == 10          # the back of every Timber Camp token
    assert set(before) == {"2"} and set(after) == {"7"}
    # the basic side and the other buildings did not move
    assert set(faces_with(sheets(changed), "Timber Camp")) == {"1"}
    assert set(faces_with(sheets(changed), "Market")) == {"1 1 1"}


def test_field_cost_votes_phase_and_yields_change_where_they_live(baseline, changed):
    assert set(faces_with(sheets(baseline), "Small Field")) == {"1"}
    assert set(faces_with(sheets(changed), "Small Field")) == {"5"}
    assert set(faces_with(sheets(changed), "Large Field")) == {"2"}
    base_votes = [n for n in faces_with(sheets(baseline), "Village") if n]
    new_votes = [n for n in faces_with(sheets(changed), "Village") if n]
    assert len(base_votes) == len(new_votes) == 4 * 5
    assert all(n.split()[-1] == "2" for n in base_votes) and all(n.split()[-1] == "9" for n in new_votes)
    assert faces_with(sheets(baseline), "Phase") == ["4"] and faces_with(sheets(changed), "Phase") == ["6"]
    assert faces_with(sheets(baseline), "Turn") == ["8"]
    harvest = sorted(faces_with(sheets(baseline), "Harvest"))
    changed_harvest = sorted(faces_with(sheets(changed), "Harvest"))
    assert harvest.count("3") == 12 and "8" not in harvest
    assert changed_harvest.count("8") == 12 and "3" not in changed_harvest


def test_upgraded_side_lands_behind_its_basic_side(baseline):
    """Long-edge duplex: the back page mirrors the front left to right, so each basic building
    has its upgraded side (or itself, for Market and Vineyard) at the mirrored spot."""
    data = yaml.safe_load((PACK / "game.yaml").read_text())["data"]["buildings"]
    basic = [item["building"] for item in manifest_groups()["buildings"]["items"]]
    doc = sheets(baseline)
    checked = 0
    for index in range(0, len(doc) - 1, 2):       # this build's pages go front, back, ...
        front, back = doc[index], doc[index + 1]
        width = front.rect.width
        for key in basic:
            upgraded = data[data[key].get("upgrade", key)]["name"]
            for rect in front.search_for(data[key]["name"]):
                cx, cy = width - (rect.x0 + rect.x1) / 2, (rect.y0 + rect.y1) / 2
                hits = [r for r in back.search_for(upgraded)
                        if abs((r.x0 + r.x1) / 2 - cx) < 1 * MM and abs((r.y0 + r.y1) / 2 - cy) < 1 * MM]
                assert hits, f"{data[key]['name']} on page {index + 1}: no {upgraded} behind it"
                checked += 1
    assert checked == manifest_groups()["buildings"]["rulebook_count"]


def test_no_text_under_6_pt(baseline):
    for page in sheets(baseline):
        for block in page.get_text("dict")["blocks"]:
            for line in block.get("lines", []):
                for span in line["spans"]:
                    assert span["size"] >= 5.99, (page.number, span["text"], span["size"])


def test_field_fronts_hide_the_yield(baseline):
    """All fronts of a Field group are alike: no yield and no Plague/Rats on the up side."""
    pack = baseline.parent.parent / "src" / "shires"
    fronts = [text for group, _, side, text in face_texts(pack, baseline / "shires-sheets.pdf")
              if group in ("small-fields", "large-fields") and side == "front"]
    assert len(fronts) == 28 + 16
    for text in fronts:
        assert "Field" in text
        assert "Plague!" not in text and "Rats!" not in text and "Harvest" not in text
