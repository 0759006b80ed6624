"""Shires: the 32 Shire hexes and the 33 large Shire chits (components/shires/hexes.yaml,
shire-chits.yaml). Counts against the rulebook and map.yaml, sizes, and that the numbers
printed on the faces come from the manifests (game.yaml data, map.yaml), not the templates."""
from __future__ import annotations

import math
import re
from collections import Counter
from pathlib import Path

import pymupdf
import pytest
import yaml

from conftest import MM, ROOT, build_pack, load_build_json, pack_subset, run_cli
from map_oracles.data import map_data   # the pack's map.yaml with the oracle's independent numbers

PACK = ROOT / "components" / "shires"
OWN = ("game.yaml", "map.yaml", "hexes.yaml", "shire-chits.yaml")
MAP = map_data("shires")
GAME = yaml.safe_load((PACK / "game.yaml").read_text(encoding="utf-8"))


def subset_pack(dest: Path) -> Path:
    return pack_subset(PACK, OWN, dest)


build = build_pack


def words(folder: Path) -> list[list[str]]:
    """The words of each page of the sheets PDF."""
    with pymupdf.open(folder / "shires-sheets.pdf") as doc:
        return [[w[4] for w in page.get_text("words")] for page in doc]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    base = tmp_path_factory.mktemp("shires-hexes")
    return build(subset_pack(base / "pack"), base / "out")


def test_counts_match_rulebook_and_map(built):
    data = load_build_json(built)
    groups = {g["id"]: g for g in data["groups"]}
    assert groups["hexes"]["total"] == groups["hexes"]["rulebook_count"] == 32
    assert groups["shire-chits"]["total"] == groups["shire-chits"]["rulebook_count"] == 33
    items = [i for i in data["items"] if i["group"] == "hexes"]
    ids = {i["id"] for i in items}
    expected = {f"{t}-{n}" for t, spec in MAP["tiles"].items() for n in range(1, spec["count"] + 1)}
    assert ids == expected                         # the tiles map.yaml and the generator name
    assert all(i["copies"] == 1 for i in items)
    # 3 / 4 / 5 players use the hexes whose mark is at most the player count: hex_counts
    for players, counts in MAP["hex_counts"].items():
        for type_, spec in MAP["tiles"].items():
            used = [n for n in range(1, spec["count"] + 1) if spec.get("marks", {}).get(n, 0) <= players]
            assert len(used) == counts[type_]
    chits = {i["id"]: i["copies"] for i in data["items"] if i["group"] == "shire-chits"}
    assert chits == {"village": MAP["hex_counts"][5]["hamlet"],
                     "castle": GAME["data"]["shire_caps"]["castle"][5],
                     "city": GAME["data"]["shire_caps"]["city"][5]}
    assert sum(chits.values()) == 33


def test_sizes_in_mm(built):
    data = load_build_json(built)
    by_group = {}
    for item in data["items"]:
        by_group.setdefault(item["group"], set()).add((item["width_mm"], item["height_mm"], item["sides"], item["shape"]))
    assert by_group["hexes"] == {(94, round(94 * 2 / math.sqrt(3), 3), 2, "hexagon")}
    assert by_group["shire-chits"] == {(90, 43, 1, "rect")}
    sheets = next(f for f in data["files"] if f["role"] == "sheets")
    assert (sheets["page_width_mm"], sheets["page_height_mm"]) == (210, 297)
    with pymupdf.open(built / "shires-sheets.pdf") as doc:
        assert doc.page_count == sheets["pages"]
        for page in doc:                           # A4 pages in points
            assert page.rect.width == pytest.approx(210 * MM, abs=0.1)
            assert page.rect.height == pytest.approx(297 * MM, abs=0.1)


def test_every_hex_prints_its_name_and_mark_and_no_internal_id(built):
    text = Counter(w for page in words(built) for w in page)
    for type_, spec in MAP["tiles"].items():
        for n in range(1, spec["count"] + 1):
            assert text[f"{type_}-{n}"] == 0, f"{type_}-{n}"      # ids are the pack's, not the players'
    assert text["Hamlet"] >= MAP["tiles"]["hamlet"]["count"]
    assert text["Spot"] == MAP["tiles"]["trade"]["count"]
    marks = Counter(m for spec in MAP["tiles"].values() for m in spec.get("marks", {}).values())
    assert text["4+"] == marks[4] == 6           # hamlet-16..19, blank-5, trade-4
    # Exploration hexes: as map.yaml exploration_blanks says
    assert text["Ventured"] == len(MAP["exploration_blanks"])
    assert text["Space"] == MAP["tiles"]["blank"]["count"]       # every blank hex is an Open Space


def test_the_band_captions_stand_apart(built):
    """Influence, Production, Votes and Garrison head the band's columns at 6 pt: each at least
    1 mm clear of the next on its line (in bold, 'Influence' ended 0.2 mm before 'Production')."""
    order = ["Influence", "Production", "Votes", "Garrison"]
    gaps = []
    with pymupdf.open(built / "shires-sheets.pdf") as doc:
        for page in doc:
            captions = sorted((w for w in page.get_text("words") if w[4] in order), key=lambda w: (round(w[3]), w[0]))
            for a, b in zip(captions, captions[1:]):
                if abs(a[3] - b[3]) < 1 and order.index(b[4]) == order.index(a[4]) + 1:
                    gaps.append(b[0] - a[2])
    assert len(gaps) >= 90, f"{len(gaps)} caption pairs found"     # three on each Hamlet hex and Shire chit
    assert min(gaps) >= 1.0 * MM, f"closest captions {min(gaps) / MM:.2f} mm apart"


def test_no_page_lost_its_resources(built):
    """Every sheet draws something: a page whose resources were lost prints blank."""
    with pymupdf.open(built / "shires-sheets.pdf") as doc:
        for number, page in enumerate(doc, 1):
            assert page.get_text().strip(), f"page {number} has no text"
            pix = page.get_pixmap(dpi=10)
            assert len(set(pix.samples[i:i + 3] for i in range(0, len(pix.samples), 3))) > 3, number


@pytest.mark.slow
def test_printed_numbers_come_from_the_manifests(tmp_path):
    """Change a number once in game.yaml data and every face that shows it changes."""
    pack = subset_pack(tmp_path / "pack")
    game = (pack / "game.yaml").read_text(encoding="utf-8")
    edits = [  # (old line fragment, new line fragment) in game.yaml data
        ("hamlet: {name: Hamlet, influence: 3,", "hamlet: {name: Hamlet, influence: 47,"),
        ("village: {name: Village, influence: 5, gold: 2,", "village: {name: Village, influence: 5, gold: 58,"),
        ("votes: {hamlet: 1, village: 2, castle: 3, city: 4}", "votes: {hamlet: 1, village: 2, castle: 3, city: 73}"),
        ("trade_cart: {buy: 3, sell: 2}", "trade_cart: {buy: 69, sell: 2}"),
    ]
    for old, new in edits:
        assert old in game, old
        game = game.replace(old, new)
    # and one count: Castles printed = data.shire_caps.castle.5
    assert "castle: {3: 3, 4: 4, 5: 5}" in game
    game = game.replace("castle: {3: 3, 4: 4, 5: 5}", "castle: {3: 3, 4: 4, 5: 6}")
    (pack / "game.yaml").write_text(game, encoding="utf-8")
    # the Castle cap now makes 34 chits: the rulebook_count guard must say so
    code, _, err = run_cli("validate", pack)
    assert code != 0 and "33" in err and "34" in err
    chits = (pack / "shire-chits.yaml").read_text(encoding="utf-8")
    (pack / "shire-chits.yaml").write_text(chits.replace("rulebook_count: 33", "rulebook_count: 34"), encoding="utf-8")
    folder = build(pack, tmp_path / "out")
    text = Counter(w for page in words(folder) for w in page)
    hamlets = MAP["tiles"]["hamlet"]["count"]
    villages = MAP["hex_counts"][5]["hamlet"]
    assert text["47"] == hamlets                  # Influence on every Hamlet hex
    assert text["+58"] == villages                # Gold production on every Village chit
    assert text["73"] == GAME["data"]["shire_caps"]["city"][5]   # Votes on every City chit
    assert text["69"] == MAP["tiles"]["trade"]["count"]          # Trade Cart price on every Trade hex
    assert text["CASTLE"] == 6                    # one more Castle chit printed
    data = load_build_json(folder)
    assert {g["id"]: g["total"] for g in data["groups"]}["shire-chits"] == 34


def test_hex_ranges_are_map_counts():
    """hexes.yaml writes each type's range (1..21): it must be map.yaml's tile count."""
    text = (PACK / "hexes.yaml").read_text(encoding="utf-8")
    for type_, spec in MAP["tiles"].items():
        match = re.search(rf"id: {type_}, type: {type_}, vary: {{n: 1\.\.(\d+)}}", text)
        assert match and int(match.group(1)) == spec["count"], type_
