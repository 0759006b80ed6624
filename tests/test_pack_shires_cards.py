"""Shires: the 48 Proclamation mini cards and the 80 Army Unit counters (components/shires/
proclamations.yaml, units.yaml). Counts and sizes from build.json; the printed faces read with
PyMuPDF: every number a card shows (Favor price) comes from game.yaml data, so changing it there
changes every face that shows it. Each counter fits every space the rules put it on."""
from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pymupdf
import pytest
import yaml

from conftest import MM, ROOT, load_build_json, run_cli

PACK = ROOT / "components" / "shires"
# The files these cards need: the game data, the map (game.yaml reads nothing from it, the build
# does), the dice and the two manifests.
KEEP = {"game.yaml", "map.yaml", "dice.yaml", "proclamations.yaml", "units.yaml"}
PLAY_LABELS = {"decree": "Play as a Royal Decree", "envoy": "Play as an Envoy action",
               "keep": "Keep in play", "battle": "Play in a battle or Siege",
               "vote": "Play at the VOTE", "when": "Play when stated"}
DECK_NAMES = {"stratagems": "Stratagems & Designs", "machinations": "Machinations & Tactics"}
BLEED = {"proclamations": 3.0, "units": 2.0}     # units.yaml: small squares, a 2 mm bleed
SAFE = {"proclamations": 3.0, "units": 1.8}      # a piece under 20 mm: 15 % of its side


def manifest(name: str) -> dict:
    return yaml.safe_load((PACK / name).read_text())


def group(name: str, gid: str) -> dict:
    return next(g for g in manifest(name)["groups"] if g["id"] == gid)


def cards_pack(dest: Path) -> Path:
    """A copy of the Shires pack holding only what the two card groups need."""
    root = dest / "shires"
    shutil.copytree(PACK, root)
    for path in root.glob("*.yaml"):
        if path.name not in KEEP:
            path.unlink()
    return root


def build_faces(pack: Path, out: Path) -> pymupdf.Document:
    """Build with one face per page (print-shop mode): a page's text is one card's text."""
    code, _, err = run_cli("build", pack, "--out", out, "--paper", "face", "--quiet")
    assert code == 0, err
    return pymupdf.open(out / "shires" / "shires-sheets.pdf")


def faces_by_group(doc: pymupdf.Document, build: dict) -> dict:
    """{group: [(item, front page, back page)]} in print order: the items of build.json, each
    copy a front page followed by its back page."""
    pages, out = iter(range(len(doc))), {}
    for item in build["items"]:
        for _ in range(item["copies"]):
            front = next(pages)
            back = next(pages) if item["sides"] == 2 else None
            out.setdefault(item["group"], []).append((item, front, back))
    return out


@pytest.fixture(scope="module")
def faces(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("shires-cards")
    pack = cards_pack(tmp)
    doc = build_faces(pack, tmp / "out")
    build = load_build_json(tmp / "out" / "shires")
    return doc, build, faces_by_group(doc, build)


def lines(page) -> list[str]:
    return [s.strip() for s in page.get_text().splitlines() if s.strip()]


# --- counts and sizes ------------------------------------------------------------------------

@pytest.mark.slow
def test_whole_pack_build_json_counts_and_sizes(built):
    data = load_build_json(built("shires"))
    groups = {g["id"]: g for g in data["groups"]}
    assert groups["proclamations"]["total"] == groups["proclamations"]["rulebook_count"] == 48
    assert groups["units"]["total"] == groups["units"]["rulebook_count"] == 80
    assert groups["proclamations"]["prototype_content"] and groups["units"]["prototype_content"]
    for item in data["items"]:
        if item["group"] == "proclamations":      # mini cards, two-sided (a back per deck)
            assert (item["kind"], item["sides"]) == ("card", 2)
            assert (item["width_mm"], item["height_mm"]) == (pytest.approx(44), pytest.approx(63))
        if item["group"] == "units":              # 12 mm counters, alike on both sides
            assert (item["kind"], item["sides"]) == ("chit", 2)
            assert (item["width_mm"], item["height_mm"]) == (pytest.approx(12), pytest.approx(12))


def test_proclamation_breakdown():
    g = group("proclamations.yaml", "proclamations")
    items = g["items"]
    assert sum(i.get("copies", 1) for i in items) == g["rulebook_count"] == 48
    decks = Counter(i["deck"] for i in items)
    assert decks == {"stratagems": 24, "machinations": 24}
    assert len({i["title"] for i in items}) == 48, "card names are distinct"
    assert {i["play"] for i in items} <= set(PLAY_LABELS)
    plays = Counter((i["deck"], i["play"]) for i in items)
    # the rulebook's two markings are on cards of both decks; vote stealing is a Stratagem
    for deck in decks:
        assert plays[(deck, "decree")] and plays[(deck, "envoy")]
    assert plays[("stratagems", "vote")] and not plays[("machinations", "vote")]
    texts = " ".join(i["text"] for i in items)
    assert "Rats!" in texts and "Bribe" in texts and "votes" in texts
    # costs are not on the cards: they live once in game.yaml
    data = manifest("game.yaml")["data"]["rules"]["proclamation_cost"]
    assert set(data) == set(decks)


def test_unit_breakdown():
    g = group("units.yaml", "units")
    by_class = Counter()
    for i in g["items"]:
        by_class[i["class"]] += i["copies"]
    assert by_class == {"militia": 35, "men-at-arms": 25, "mercenary": 20}
    assert sum(by_class.values()) == g["rulebook_count"] == 80
    types = {(i["class"], i["type"]) for i in g["items"]}
    assert types == {("militia", "soldier"), ("militia", "archer"), ("militia", "guard"),
                     ("men-at-arms", "soldier"), ("men-at-arms", "archer"), ("men-at-arms", "knight"),
                     ("mercenary", "soldier"), ("mercenary", "archer"), ("mercenary", "knight")}
    muster = manifest("game.yaml")["data"]["muster"]
    for cls, ty in types:                           # every unit has a Muster cost in game.yaml
        assert muster[cls][ty]
    abilities = {i["id"]: set(i["abilities"]) for i in g["items"]}
    assert abilities["militia-guards"] == {"cannot-move"}
    assert abilities["men-at-arms-knights"] == {"blocks-retreat", "two-hits"}
    assert abilities["mercenary-knights"] == {"blocks-retreat"}


# --- what the faces show ---------------------------------------------------------------------

def test_proclamation_faces_show_title_timing_deck_and_price(faces):
    doc, _, by_group = faces
    cards = {i["id"]: i for i in group("proclamations.yaml", "proclamations")["items"]}
    cost = manifest("game.yaml")["data"]["rules"]["proclamation_cost"]
    seen = 0
    for item, front, back in by_group["proclamations"]:
        card = cards[item["id"]]
        text = " ".join(lines(doc[front]))
        assert " ".join(card["title"].split()) in text
        assert PLAY_LABELS[card["play"]] in text
        assert DECK_NAMES[card["deck"]] in text
        assert str(cost[card["deck"]]) in lines(doc[front])
        back_lines = lines(doc[back])
        assert str(cost[card["deck"]]) in back_lines and "Favor" in back_lines
        seen += 1
    assert seen == 48


def test_the_two_decks_have_two_backs(faces):
    doc, _, by_group = faces
    cards = {i["id"]: i for i in group("proclamations.yaml", "proclamations")["items"]}
    samples = {}
    for item, _, back in by_group["proclamations"]:
        pix = doc[back].get_pixmap(dpi=30)
        samples.setdefault(cards[item["id"]]["deck"], set()).add(pix.samples)
    assert len(samples["stratagems"]) == 1 and len(samples["machinations"]) == 1
    assert samples["stratagems"] != samples["machinations"]


def test_unit_counters_show_dice_and_read_alike_either_side_up(faces):
    doc, _, by_group = faces
    units = {i["id"]: i for i in group("units.yaml", "units")["items"]}
    seen = Counter()
    for item, front, back in by_group["units"]:
        unit = units[item["id"]]
        # the only words: "2x" where the unit rolls two dice (the Mercenary Knights)
        assert lines(doc[front]) == (["2\u00d7"] if unit["dice"] == 2 else []), item["id"]
        one, two = (doc[p].get_pixmap(dpi=150).samples for p in (front, back))
        assert one == two, item["id"]
        seen[unit["class"]] += 1
    assert seen == {"militia": 35, "men-at-arms": 25, "mercenary": 20}


def test_unit_classes_differ_without_colour(faces):
    """Militia, Men-at-Arms and Mercenaries of one type differ in greyscale (the Shire symbol
    where they are Mustered), not by their colour alone."""
    doc, _, by_group = faces
    grey = {}
    for item, front, _ in by_group["units"]:
        pix = pymupdf.Pixmap(pymupdf.csGRAY, doc[front].get_pixmap(dpi=150))
        grey.setdefault(item["id"], pix.samples)
    for ty in ("soldiers", "archers", "knights"):
        faces_of = [grey[k] for k in grey if k.endswith(ty)]
        for one in range(len(faces_of)):
            for two in range(one + 1, len(faces_of)):
                differ = sum(abs(a - b) > 40 for a, b in zip(faces_of[one], faces_of[two]))
                assert differ > 0.02 * len(faces_of[one]), ty


def test_banner_colour_is_the_class_colour(faces):
    doc, _, by_group = faces
    palette = manifest("game.yaml")["palette"]
    units = {i["id"]: i for i in group("units.yaml", "units")["items"]}
    key = {"militia": "militia", "men-at-arms": "men_at_arms", "mercenary": "mercenary"}
    bleed = BLEED["units"]
    for item, front, _ in by_group["units"]:
        pix = doc[front].get_pixmap(dpi=200)
        px = lambda x_mm, y_mm: pix.pixel(int((x_mm + bleed) / 25.4 * 200), int((y_mm + bleed) / 25.4 * 200))
        want = palette[key[units[item["id"]]["class"]]]
        rgb = tuple(int(want[k:k + 2], 16) for k in (1, 3, 5))
        for point in ((-1, 6), (0.3, 11), (6, 11.6)):       # bleed, corner, bottom edge
            assert all(abs(a - b) <= 6 for a, b in zip(px(*point), rgb)), (item["id"], point)


def test_text_is_legible_and_inside_the_safe_zone(faces):
    doc, build, by_group = faces
    for gid, min_body in (("proclamations", 6.5), ("units", 6.0)):
        for item, front, _ in by_group[gid]:
            page = doc[front]
            for block in page.get_text("dict")["blocks"]:
                for line in block.get("lines", []):
                    for span in line["spans"]:
                        if not span["text"].strip():
                            continue
                        assert span["size"] >= 6 - 0.01, (item["id"], span["text"], span["size"])
                        if gid == "proclamations" and "Bold" not in span["font"] and span["text"] != "prototype" \
                                and span["size"] < 8:           # the card text (not title, banner, footer)
                            assert span["size"] >= min_body - 0.01, (item["id"], span["text"])
                        x0, y0, x1, y1 = (v / MM for v in span["bbox"])
                        w, h = item["width_mm"], item["height_mm"]
                        bleed, safe = BLEED[gid], SAFE[gid]
                        assert bleed + safe - 0.3 <= x0 and x1 <= bleed + w - safe + 0.3, (item["id"], span["text"])
                        assert bleed + min(safe, 2) - 0.4 <= y0 and y1 <= bleed + h - min(safe, 2) + 0.4, (item["id"], span["text"])


# --- one number, one place -------------------------------------------------------------------

@pytest.mark.slow
def test_changing_a_cost_in_game_yaml_changes_every_face(tmp_path):
    pack = cards_pack(tmp_path)
    game_file = pack / "game.yaml"
    game = yaml.safe_load(game_file.read_text())
    game["data"]["rules"]["proclamation_cost"] = {"stratagems": 7, "machinations": 5}
    game_file.write_text(yaml.safe_dump(game, sort_keys=False, allow_unicode=True))
    doc = build_faces(pack, tmp_path / "out")
    by_group = faces_by_group(doc, load_build_json(tmp_path / "out" / "shires"))
    cards = {i["id"]: i for i in group("proclamations.yaml", "proclamations")["items"]}
    changed = Counter()
    for item, front, back in by_group["proclamations"]:
        deck = cards[item["id"]]["deck"]
        want, old = {"stratagems": ("7", "4"), "machinations": ("5", "2")}[deck]
        for page in (front, back):
            text = lines(doc[page])
            assert want in text and old not in text, (item["id"], text)
            changed[page == back] += 1
    assert changed == {False: 48, True: 48}


def test_proclamation_art_stripes_stay_in_their_panel():
    """The hatching of the art panel (3.5 mm in, 44 mm card) never leaks out of its box."""
    import re

    from generator.manifest import load_pack
    from generator.render import FaceRenderer, expand_faces
    game = load_pack(ROOT / "components" / "shires")
    group = next(g for g in game.groups if g.id == "proclamations")
    renderer = FaceRenderer(game, 0.0)
    fronts, _ = expand_faces(group)
    svg = renderer.svg(fronts[0])
    stripes = re.findall(r'<line x1="([\d.]+)" y1="[\d.]+" x2="([\d.]+)"[^>]*stroke-opacity="0.12" stroke-width="1.2"', svg)
    assert len(stripes) >= 3
    for x1, x2 in stripes:
        for x in (float(x1), float(x2)):
            assert 3.5 + 0.6 - 1e-6 <= x <= group.width - 3.5 - 0.6 + 1e-6
