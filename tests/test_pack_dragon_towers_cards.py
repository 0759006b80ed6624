"""Dragon Towers, the cards half of the pack: troop cards, monster cards and standees, Empire
Missions, the direction key and the player aid. Counts in build.json equal the manifests (and
the map rules), faces have the right size, type stays at 6 pt or more and 3 mm inside the trim,
and the numbers on the faces (and in the handout) are read from the manifests: change one in a
copy of the pack and the printed face changes with it."""
import re
import shutil
from pathlib import Path

import openpyxl
import pymupdf
import pytest
import yaml

from conftest import MM, ROOT, assert_text_inside, load_build_json, run_cli
from map_oracles.data import map_data   # the pack's map.yaml with the oracle's independent numbers

PACK = ROOT / "components" / "dragon-towers"
MY_FILES = ("troops.yaml", "monsters.yaml", "cards.yaml")
CARDS = ("troops", "monsters", "missions", "direction-key", "player-aid")


def manifest(name: str) -> dict:
    groups = {g["id"]: g for g in yaml.safe_load((PACK / name).read_text())["groups"]}
    for group in groups.values():
        if isinstance(group["items"], dict):          # items: {from: missions.xlsx, sheet: ...}
            group["items"] = sheet_rows(PACK / group["items"]["from"], group["items"]["sheet"])
    return groups


def sheet_rows(path, sheet: str) -> list[dict]:
    """A spreadsheet's rows as {column: value}, read apart from pnpgen's own reader."""
    rows = list(openpyxl.load_workbook(path)[sheet].iter_rows(values_only=True))
    return [dict(zip(rows[0], row)) for row in rows[1:] if any(v is not None for v in row)]


def game() -> dict:
    return yaml.safe_load((PACK / "game.yaml").read_text())


def map_rules() -> dict:
    return map_data("dragon-towers")


def my_pack(tmp_path: Path) -> Path:
    """A copy of the pack holding only this half's component files (the other half's groups are
    not needed to print these faces, and their state is not this file's concern)."""
    target = tmp_path / "dragon-towers"
    shutil.copytree(PACK, target)
    for path in target.glob("*.yaml"):
        if path.name not in MY_FILES + ("game.yaml", "map.yaml", "handout.yaml"):
            path.unlink()
    return target


def build_faces(pack: Path, out: Path) -> pymupdf.Document:
    """One face per page (--paper face): each page's TrimBox is that face's trim."""
    code, stdout, stderr = run_cli("build", pack, "--paper", "face", "--out", out, "--quiet")
    assert code == 0, stderr
    return pymupdf.open(out / pack.name / f"{pack.name}-sheets.pdf")


def page_text(page) -> str:
    return " ".join(page.get_text().split())


def pages_with(doc, text: str) -> list:
    return [p for p in doc if text in page_text(p)]


@pytest.fixture(scope="module")
def faces(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("dt-cards")
    return build_faces(my_pack(tmp), tmp / "out")


# -- counts and sizes in build.json ------------------------------------------------------------

def test_build_json_counts_equal_the_manifests(built):
    data = load_build_json(built("dragon-towers"))
    totals = {g["id"]: g["total"] for g in data["groups"]}
    troops, monsters, cards = manifest("troops.yaml"), manifest("monsters.yaml"), manifest("cards.yaml")
    rules = map_rules()
    # one reference card per troop type and per monster type
    assert totals["troops"] == len(troops["troops"]["items"]) == 4
    assert totals["monsters"] == len(monsters["monsters"]["items"]) == 3
    # 3 standees of each monster type: enough for the largest game (4 players x 2 monsters)
    assert totals["standees"] == 3 * totals["monsters"] == 9
    assert totals["standees"] >= rules["players"]["max"] * rules["monsters_per_player"]
    # the mission deck, one card per mission item
    assert totals["missions"] == len(cards["missions"]["items"]) == 8
    # one direction key and one player aid per seat
    assert totals["direction-key"] == totals["player-aid"] == rules["players"]["max"] == game()["players"]["max"]


def test_build_json_sizes_and_sides(built):
    items = load_build_json(built("dragon-towers"))["items"]
    mine = [i for i in items if i["group"] in CARDS + ("standees",)]
    assert {i["group"] for i in mine} == set(CARDS) | {"standees"}
    for item in mine:
        if item["group"] == "standees":
            assert (item["width_mm"], item["height_mm"], item["sides"]) == (30, 70, 1), item
        else:
            assert (item["width_mm"], item["height_mm"], item["sides"]) == (63, 88, 2), item


def test_groups_whose_numbers_the_pack_designed_say_so():
    for name in MY_FILES:
        for gid, group in manifest(name).items():
            if gid != "direction-key":          # the key only arranges the rulebook's d6 directions
                assert group.get("prototype_content") is True, gid


# -- the printed faces ---------------------------------------------------------------------------

def test_face_sizes(faces):
    sizes = sorted({(round(p.trimbox.width / MM, 1), round(p.trimbox.height / MM, 1)) for p in faces})
    assert sizes == [(30.0, 70.0), (63.0, 88.0)]
    # 23 two-sided cards and 9 one-sided standees
    assert len(faces) == 2 * (4 + 3 + 8 + 4 + 4) + 9


def test_type_is_readable_and_inside_the_safe_zone(faces):
    for number, page in enumerate(faces):
        assert_text_inside(page, number, 3 * MM)


def test_troop_cards_show_their_items_numbers(faces):
    for troop in manifest("troops.yaml")["troops"]["items"]:
        [page] = [p for p in faces if page_text(p).startswith(troop["name"])]
        text = page_text(page)
        assert f"Move {troop['move']}" in text and f"Health {troop['health']}" in text
        for attack in troop["attacks"]:
            assert (f"{attack['name']} Range {attack['range']} Hit on d10 {attack['hit']}+ "
                    f"Damage {attack['damage']} ") in text + " ", (troop["id"], attack)
        assert ("Flies" in text) == troop["flies"]


def test_monster_cards_and_standees_show_their_items_numbers(faces):
    reactions = game()["data"]["reactions"]
    for monster in manifest("monsters.yaml")["monsters"]["items"]:
        [card] = pages_with(faces, f"MONSTER {monster['name']}")
        text = page_text(card)
        assert f"Health {monster['health']} Might {monster['might']}" in text
        for row in reactions[:-1]:
            assert f"{row['roll']} {row['name']}:" in text
        # the last row of the d8 table is this monster's own behaviour
        assert f"{reactions[-1]['roll']} {monster['special_name']}: {monster['special']}" in text
        standees = [p for p in faces if p.trimbox.width / MM < 40 and monster["name"] in page_text(p)]
        assert len(standees) == 3
        for page in standees:
            assert str(monster["health"]) in page_text(page).split()


def test_direction_key_numbers_the_directions_of_the_data(faces):
    directions = game()["data"]["directions"]
    pages = pages_with(faces, "Monster movement")
    assert len(pages) == 4
    words = page_text(pages[0]).split()
    for number, direction in enumerate(directions, 1):
        assert str(number) in words and direction in words
    assert f"({len(directions)} goes to 1)" in page_text(pages[0])


def test_mission_cards_show_each_condition(faces):
    for mission in manifest("cards.yaml")["missions"]["items"]:
        [page] = pages_with(faces, f"EMPIRE MISSION {mission['name']} ")
        assert mission["condition"] in page_text(page)
        assert f"+{mission['renown']} Renown" in page_text(page)


def test_player_aid_reads_the_capital_rate(faces):
    capital = game()["data"]["capital"]
    pages = pages_with(faces, "Player aid")
    assert len(pages) == 4
    assert f"pay {capital['give']} of one resource, take {capital['take']} of another" in page_text(pages[0])


# -- change a number in the manifests, and the faces and the handout follow ------------------------

def food_pixels(page) -> int:
    """Pixels of the Food colour (the cost chips) on a face, at 150 dpi (within 3 per channel:
    the renderer rounds colours)."""
    pix = page.get_pixmap(dpi=150)
    food = bytes.fromhex(game()["palette"]["food"][1:])
    samples, n = pix.samples, pix.n
    return sum(1 for i in range(0, len(samples), n)
               if all(abs(samples[i + k] - food[k]) <= 3 for k in range(3)))


@pytest.mark.slow
def test_a_changed_manifest_number_changes_the_faces(faces, tmp_path):
    pack = my_pack(tmp_path)
    troops = pack / "troops.yaml"
    text = troops.read_text()
    text = text.replace("{name: Aimed Shot, range: 3, hit: 7, damage: d10}", "{name: Aimed Shot, range: 3, hit: 9, damage: d10}")
    text = text.replace("cost: {food: 1, wood: 1}", "cost: {food: 3, wood: 1}")       # the Warrior
    troops.write_text(text)
    monsters = pack / "monsters.yaml"
    monsters.write_text(monsters.read_text().replace("health: 8", "health: 11"))     # the Troll
    game_yaml = pack / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("capital: {give: 2, take: 1}", "capital: {give: 3, take: 1}"))
    changed = build_faces(pack, tmp_path / "out")

    [archer] = [p for p in changed if page_text(p).startswith("Archer")]
    assert "Aimed Shot Range 3 Hit on d10 9+ Damage d10" in page_text(archer)
    [troll] = pages_with(changed, "MONSTER Troll")
    assert "Health 11" in page_text(troll)
    assert all("11" in page_text(p).split() for p in changed if p.trimbox.width / MM < 40 and "Troll" in page_text(p))
    assert "pay 3 of one resource" in page_text(pages_with(changed, "Player aid")[0])
    # the Warrior's cost is drawn as resource chips: three Food chips instead of one
    [before] = [p for p in faces if page_text(p).startswith("Warrior")]
    [after] = [p for p in changed if page_text(p).startswith("Warrior")]
    assert food_pixels(after) > 2.5 * food_pixels(before) > 0
    # ... and on the player aid, whose Warrior row reads the same item
    assert food_pixels(pages_with(changed, "Player aid")[0]) > food_pixels(pages_with(faces, "Player aid")[0])

    code, out, err = run_cli("handout", pack, "--out", tmp_path / "handout")
    assert code == 0, err
    handout = " ".join(" ".join(p.get_text().split())
                       for p in pymupdf.open(tmp_path / "handout" / "dragon-towers" / "dragon-towers-handout.pdf"))
    assert "Aimed Shot: range 3, 9+, d10" in handout
    assert "Train a Warrior 3 Food, 1 Wood" in handout
    assert re.search(r"Troll 11 1 Regenerate", handout)
    assert "3 of one resource" in handout


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_handout_shows_the_pack_numbers_on_two_pages(tmp_path, paper):
    code, out, err = run_cli("handout", "dragon-towers", "--paper", paper, "--out", tmp_path)
    assert code == 0, err
    doc = pymupdf.open(tmp_path / "dragon-towers" / "dragon-towers-handout.pdf")
    assert len(doc) <= 2
    text = " ".join(" ".join(p.get_text().split()) for p in doc)
    for troop in manifest("troops.yaml")["troops"]["items"]:
        for attack in troop["attacks"]:
            assert f"{attack['name']}: range {attack['range']}, {attack['hit']}+, {attack['damage']}" in text
    for mission in manifest("cards.yaml")["missions"]["items"]:
        assert mission["name"] in text
    for row in game()["data"]["reactions"]:
        assert f"{row['name']}: {row['effect']}" in text
