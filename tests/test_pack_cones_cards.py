"""Cones of Dunshire, the three card decks of helper C2: 40 Spirit, 60 Agriculture and 50 Summit
cards. build.json counts equal the manifest and the rulebook's component list, faces are poker
size and two-sided, type stays at 6 pt or more and 3 mm inside the trim, the authored numbers keep
the rules' day/night shape, and the numbers on the faces are read from the manifests: change one
in a copy of the pack and the printed face changes with it."""
import shutil
from pathlib import Path

import pymupdf
import pytest
import yaml

from conftest import MM, ROOT, assert_text_inside, build_pack, load_build_json

PACK = ROOT / "components" / "cones-of-dunshire"
MY_FILES = ("cards.yaml",)
DECKS = ("spirit", "agriculture", "summit")


def manifest() -> dict:
    return {g["id"]: g for g in yaml.safe_load((PACK / "cards.yaml").read_text())["groups"]}


def game() -> dict:
    return yaml.safe_load((PACK / "game.yaml").read_text())


def copies(group: dict, **match) -> int:
    return sum(i.get("copies", 1) for i in group["items"] if all(i.get(k) == v for k, v in match.items()))


def my_pack(tmp_path: Path) -> Path:
    """A copy of the pack holding only these decks (the other helpers' groups are not needed to
    print these faces, and their state is not this file's concern)."""
    target = tmp_path / "cones-of-dunshire"
    shutil.copytree(PACK, target)
    for path in target.glob("*.yaml"):
        if path.name not in MY_FILES + ("game.yaml", "map.yaml", "handout.yaml"):
            path.unlink()
    return target


build = build_pack


def faces_of(folder: Path) -> pymupdf.Document:
    return pymupdf.open(folder / "cones-of-dunshire-sheets.pdf")


_TEXTS: dict = {}


def page_text(page) -> str:
    key = (id(page.parent), page.number)
    if key not in _TEXTS:
        _TEXTS[key] = " ".join(page.get_text().split())
    return _TEXTS[key]


def all_texts(doc) -> list[str]:
    key = (id(doc), "all")
    if key not in _TEXTS:
        _TEXTS[key] = [page_text(page) for page in doc]
    return _TEXTS[key]


def pages_with(doc, text: str) -> list:
    return [doc[n] for n, t in enumerate(all_texts(doc)) if text in t]


@pytest.fixture(scope="module")
def sheets(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cd-cards")
    return build(my_pack(tmp), tmp / "out")


@pytest.fixture(scope="module")
def faces(tmp_path_factory):
    """One face per page (--paper face): each page's TrimBox is that face's trim."""
    tmp = tmp_path_factory.mktemp("cd-cards-faces")
    return faces_of(build(my_pack(tmp), tmp / "out", "--paper", "face"))


# -- counts and sizes -------------------------------------------------------------------------------

def test_build_json_counts_equal_the_manifest_and_the_rulebook(sheets):
    data = load_build_json(sheets)
    groups = {g["id"]: g for g in data["groups"]}
    decks = manifest()
    # "40 Spirit Cards - 20 Positive, 10 Negative, 10 Chaotic"
    assert groups["spirit"]["total"] == copies(decks["spirit"]) == groups["spirit"]["rulebook_count"] == 40
    assert [copies(decks["spirit"], type=t) for t in ("positive", "negative", "chaotic")] == [20, 10, 10]
    # "60 Agriculture Cards - 35 Harvest, 20 Irrigation, 5 Famine"
    assert groups["agriculture"]["total"] == copies(decks["agriculture"]) == groups["agriculture"]["rulebook_count"] == 60
    assert [copies(decks["agriculture"], type=t) for t in ("harvest", "irrigation", "famine")] == [35, 20, 5]
    # "50 Summit Cards"
    assert groups["summit"]["total"] == copies(decks["summit"]) == groups["summit"]["rulebook_count"] == 50
    for deck in DECKS:
        assert groups[deck]["prototype_content"] is True
        per_item = {i["id"]: i["copies"] for i in data["items"] if i["group"] == deck}
        assert per_item == {i["id"]: i.get("copies", 1) for i in decks[deck]["items"]}


def test_build_json_sizes_and_sides(sheets):
    mine = [i for i in load_build_json(sheets)["items"] if i["group"] in DECKS]
    assert {i["group"] for i in mine} == set(DECKS)
    for item in mine:
        assert (item["width_mm"], item["height_mm"], item["sides"]) == (63, 88, 2), item


def test_authored_numbers_follow_the_rules():
    decks = manifest()
    for card in decks["spirit"]["items"]:
        if card["type"] == "positive":        # "These cards have smaller RS costs during the day."
            assert 0 < card["day"] < card["night"], card["id"]
        elif card["type"] == "negative":      # "These cards have a smaller RS costs during the night."
            assert 0 < card["night"] < card["day"], card["id"]
        else:                                 # Chaotic: "have no RS cost"
            assert card["type"] == "chaotic" and "night" not in card and "day" not in card, card["id"]
    for card in decks["agriculture"]["items"]:
        assert card["cost"] > 0
        if card["type"] == "irrigation":      # "These cards are more effective during the night."
            assert card["night"] > card["day"] > 0, card["id"]
        elif card["type"] == "harvest":       # "These cards are generally more effective during the day."
            assert card["day"] >= card["night"] > 0, card["id"]
        else:
            assert card["type"] == "famine" and "night" not in card, card["id"]
    questions = [c["question"] for c in decks["summit"]["items"]]
    assert len(set(questions)) == len(questions) == 50
    assert all(q.endswith("?") or q.endswith(")") or q.endswith(".") for q in questions)


# -- the printed faces -------------------------------------------------------------------------------

def test_face_sizes(faces):
    sizes = {(round(p.trimbox.width / MM, 1), round(p.trimbox.height / MM, 1)) for p in faces}
    assert sizes == {(63.0, 88.0)}
    assert len(faces) == 2 * (40 + 60 + 50)


def test_type_is_readable_and_inside_the_safe_zone(faces):
    seen = set()
    for number, page in enumerate(faces):
        text = page_text(page)
        if text in seen:                      # copies of a card: judge each face once
            continue
        seen.add(text)
        # 3 mm inside the trim (0.05 pt for rounding: text set exactly at 3 mm is inside)
        assert_text_inside(page, number, 3 * MM - 0.05)


def test_faces_show_their_items(faces):
    decks = manifest()
    data = game()["data"]
    for card in decks["spirit"]["items"]:
        pages = pages_with(faces, f"SPIRIT {card['name']} ")
        assert len(pages) == card.get("copies", 1), card["id"]
        text = page_text(pages[0])
        assert " ".join(card["text"].split()) in text
        if card["type"] == "chaotic":
            assert "NO COST" in text
        else:
            assert f"{card['name']} {card['night']} {card['day']} RS" in text
    for card in decks["agriculture"]["items"]:
        if card["type"] == "irrigation":
            expect = f"Gain {card['night']}/{card['day']} irrigation tokens"
        elif card["type"] == "harvest":
            expect = f"Gain {card['night']}/{card['day']} food" + (" for each farm" if card["per_farm"] else "")
        else:
            expect = "Only the Arbiter can play this card."
        pages = [p for p in pages_with(faces, expect) if f" {card['cost']} RS " in page_text(p)]
        assert len(pages) >= card.get("copies", 1), card["id"]
    harvest = pages_with(faces, "Gain 1/2 food for each farm")
    assert f"({data['food_per_troop']} food = 1 troop" in page_text(harvest[0])
    for card in decks["summit"]["items"]:
        assert len(pages_with(faces, card["question"])) == 1, card["id"]
    title = game()["title"]
    for deck in ("SPIRIT", "AGRICULTURE", "SUMMIT"):
        backs = [t for t in all_texts(faces) if t == f"{deck} {title}"]
        assert len(backs) == {"SPIRIT": 40, "AGRICULTURE": 60, "SUMMIT": 50}[deck]


# -- change a number in the manifests, and the faces follow --------------------------------------------

@pytest.mark.slow
def test_a_changed_manifest_number_changes_the_faces(faces, tmp_path):
    pack = my_pack(tmp_path)
    cards = pack / "cards.yaml"
    text = cards.read_text()
    old_forge = "type: positive, night: 8, day: 4, name: Spirit of the Forge"
    old_irrigation = "{id: irrigation-3-2, copies: 8, type: irrigation, cost: 4, night: 3, day: 2}"
    assert old_forge in text and old_irrigation in text
    text = text.replace(old_forge, "type: positive, night: 11, day: 7, name: Spirit of the Forge")
    text = text.replace(old_irrigation, "{id: irrigation-3-2, copies: 8, type: irrigation, cost: 7, night: 5, day: 2}")
    cards.write_text(text)
    game_yaml = pack / "game.yaml"
    text = game_yaml.read_text()
    assert "food_per_troop: 3" in text and "agriculture_price: {wood: 1, stone: 1, iron: 1}" in text
    text = text.replace("food_per_troop: 3", "food_per_troop: 4")
    text = text.replace("agriculture_price: {wood: 1, stone: 1, iron: 1}", "agriculture_price: {wood: 2, stone: 1, iron: 1}")
    game_yaml.write_text(text)
    changed = faces_of(build(pack, tmp_path / "out", "--paper", "face"))

    assert "Spirit of the Forge 8 4 RS" in page_text(pages_with(faces, "Spirit of the Forge")[0])
    forge = pages_with(changed, "Spirit of the Forge")
    assert len(forge) == 2 and all("Spirit of the Forge 11 7 RS" in page_text(p) for p in forge)
    assert not pages_with(changed, "Gain 3/2 irrigation tokens")
    irrigation = pages_with(changed, "Gain 5/2 irrigation tokens")
    assert len(irrigation) == 8 and all(" 7 RS " in page_text(p) for p in irrigation)
    assert "give the Arbiter 2 wood, 1 stone, 1 iron." in page_text(irrigation[0])
    harvest = pages_with(changed, "Gain 1/2 food for each farm")
    assert harvest and all("(4 food = 1 troop" in page_text(p) for p in harvest)
