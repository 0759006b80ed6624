"""Lords of Doomspire, the cards: the adventure decks (3 tiers x 3 themes, 9 backs) and the open
trader deck, plus the rule summary's numbers. Counts in build.json equal the manifest, faces are
poker-sized and two-sided, type stays at 6 pt or more and 3 mm inside the trim, and the numbers
on the faces (and in the handout) are read from the manifests: change one in a copy of the pack
and the printed face changes with it."""
import shutil
from collections import Counter
from pathlib import Path

import pymupdf
import pytest
import yaml

from conftest import MM, ROOT, load_build_json, run_cli
from map_oracles.data import map_data   # the pack's map.yaml with the oracle's independent numbers

PACK = ROOT / "components" / "lords-of-doomspire"
KEEP = ("cards.yaml", "game.yaml", "map.yaml", "handout.yaml")
THEMES = ("beast", "cave", "grove")


def groups() -> dict:
    return {g["id"]: g for g in yaml.safe_load((PACK / "cards.yaml").read_text())["groups"]}


def game() -> dict:
    return yaml.safe_load((PACK / "game.yaml").read_text())


def resolve(value, data: dict):
    """A manifest value, following a `=data.` reference into game.yaml data."""
    if isinstance(value, str) and value.startswith("=data."):
        for key in value[len("=data."):].split("."):
            data = data[key]
        return data
    return value


def my_pack(tmp_path: Path) -> Path:
    """A copy of the pack holding only the cards (the other parts are other files' concern)."""
    target = tmp_path / "lords-of-doomspire"
    shutil.copytree(PACK, target)
    for path in target.glob("*.yaml"):
        if path.name not in KEEP:
            path.unlink()
    return target


def build_faces(pack: Path, out: Path) -> pymupdf.Document:
    """One face per page (--paper face): front, back, front, back ... in manifest order."""
    code, _, stderr = run_cli("build", pack, "--paper", "face", "--out", out, "--quiet")
    assert code == 0, stderr
    return pymupdf.open(out / pack.name / f"{pack.name}-sheets.pdf")


def text(page) -> str:
    return " ".join(page.get_text().split())


def handout_text(pack: Path, out: Path, paper: str = "a4") -> tuple:
    code, _, stderr = run_cli("handout", pack, "--paper", paper, "--out", out)
    assert code == 0, stderr
    doc = pymupdf.open(out / pack.name / f"{pack.name}-handout.pdf")
    return len(doc), " ".join(text(p) for p in doc)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("ld-cards")
    pack = my_pack(tmp)
    return pack, build_faces(pack, tmp / "out"), load_build_json(tmp / "out" / pack.name)


# -- counts and sizes ------------------------------------------------------------------------------

def test_build_json_counts_equal_the_manifest(built):
    _, _, data = built
    totals = {g["id"]: g for g in data["groups"]}
    g = groups()
    for gid, expected in (("adventure", 72), ("trader", 9)):
        copies = sum(i.get("copies", 1) for i in g[gid]["items"])
        assert totals[gid]["total"] == copies == g[gid]["rulebook_count"] == expected, gid
        assert totals[gid]["prototype_content"] is True
    # 12 per theme in tier 1, 6 per theme in tiers 2 and 3 (the written mix)
    mix = Counter()
    for item in g["adventure"]["items"]:
        mix[item["tier"], item["theme"]] += item.get("copies", 1)
    assert mix == {(t, th): n for t, n in ((1, 12), (2, 6), (3, 6)) for th in THEMES}


def test_decks_outlast_the_adventure_tiles():
    rules = map_data("lords-of-doomspire")
    tokens = rules["setup"]["adventure_tokens"]
    draws = {1: "plains", 2: "hills", 3: "mountains"}
    for tier, biome in draws.items():
        tiles = sum(t["count"] for t in rules["tiles"][biome] if t["type"] in ("adventure", "oasis"))
        cards = sum(i.get("copies", 1) for i in groups()["adventure"]["items"] if i["tier"] == tier)
        assert cards >= tiles * tokens, (tier, cards, tiles * tokens)


def test_sizes_and_sides(built):
    _, doc, data = built
    for item in data["items"]:
        assert (item["width_mm"], item["height_mm"], item["sides"]) == (63, 88, 2), item
    sizes = {(round(p.trimbox.width / MM, 1), round(p.trimbox.height / MM, 1)) for p in doc}
    assert sizes == {(63.0, 88.0)}
    assert len(doc) == 2 * (72 + 9)


def test_monsters_follow_the_rules():
    data = game()["data"]
    monsters = [i for i in groups()["adventure"]["items"] if i["type"] == "monster"]
    might = {t: [resolve(m["might"], data) for m in monsters if m["tier"] == t] for t in (1, 2, 3)}
    assert max(might[1]) < min(might[3])
    assert max(might[3]) <= data["dragon"]["might"]
    bears = [m for m in monsters if m["title"] == "Bear"]
    assert bears and all(m["might"] == "=data.bear.might" for m in bears)     # read, not typed
    for m in monsters:
        assert m["fame"] > 0 and m["loot"] and set(m["loot"]) <= {"food", "wood", "ore", "gold"}
    rings = [i for i in groups()["adventure"]["items"] if "ring" in i["text"].lower() and i["type"] == "treasure"]
    assert len(rings) == 3


# -- the printed faces ---------------------------------------------------------------------------

def test_nine_distinct_adventure_backs(built):
    _, doc, _ = built
    backs = {}
    for n in range(0, 2 * 72, 2):
        front, back = doc[n], doc[n + 1]
        drawn = tuple(sorted((tuple(round(v) for v in d["rect"]), str(d.get("fill")), str(d.get("color")))
                             for d in back.get_drawings()))
        backs.setdefault((text(back), drawn), set()).add(text(front).split(" Tier ")[0] + " " + text(back).split()[-1])
    assert len(backs) == 9
    # each back is one theme and one tier, and says which: the theme's name and the question marks
    for labels in backs.values():
        assert len(labels) == 1, labels


def test_type_is_readable_and_inside_the_safe_zone(built):
    _, doc, _ = built
    for number, page in enumerate(doc):
        trim = page.trimbox
        safe = pymupdf.Rect(trim.x0 + 3 * MM, trim.y0 + 3 * MM, trim.x1 - 3 * MM, trim.y1 - 3 * MM)
        spans = [s for b in page.get_text("dict")["blocks"] for line in b.get("lines", [])
                 for s in line["spans"] if s["text"].strip()]
        assert spans, number
        for span in spans:
            assert span["size"] >= 6 - 0.01, (number, span["text"], span["size"])
            box = pymupdf.Rect(span["bbox"])
            assert safe.contains(pymupdf.Rect(box.x0 + 0.3, box.y0 + 0.6, box.x1 - 0.3, box.y1 - 0.6)), (number, span["text"])


def test_faces_show_their_numbers(built):
    _, doc, _ = built
    bear = next(p for p in doc if "Bear Trap" not in text(p) and text(p).startswith("BEAST Tier 2 adventure ?? Bear "))
    assert f"MIGHT {game()['data']['bear']['might']} " in text(bear)
    sword = next(p for p in doc if " Sword " in f" {text(p)} ")
    assert "Price: 3 gold" in text(sword)


@pytest.mark.slow
def test_a_changed_number_changes_the_faces_and_the_handout(tmp_path):
    pack = my_pack(tmp_path)
    cards = (pack / "cards.yaml").read_text()
    cards = cards.replace("might: 2, fame: 1, loot: {food: 1}, text: \"A lone wolf",
                          "might: 7, fame: 1, loot: {food: 1}, text: \"A lone wolf")
    cards = cards.replace("title: Sword, art: sword, cost: 3", "title: Sword, art: sword, cost: 4")
    (pack / "cards.yaml").write_text(cards)
    g = yaml.safe_load((pack / "game.yaml").read_text())
    g["data"]["bear"]["might"] = 6
    g["data"]["support_bonus"] = 3
    g["data"]["builds"]["chapel"]["cost"]["wood"] = 7
    (pack / "game.yaml").write_text(yaml.safe_dump(g, sort_keys=False, allow_unicode=True))
    doc = build_faces(pack, tmp_path / "out")
    pages = [text(p) for p in doc]
    wolf = next(t for t in pages if " Wolf MONSTER" in t)
    assert "MIGHT 7 " in wolf and "+ 3 per supporter ≥ 7" in wolf
    bear = next(t for t in pages if t.startswith("BEAST Tier 2 adventure ?? Bear MONSTER"))
    assert "MIGHT 6 " in bear
    assert any("Sword" in t and "Price: 4 gold" in t for t in pages)
    pages_n, handout = handout_text(pack, tmp_path / "h")
    assert "7 wood, 2 gold" in handout and "Bear: Might 6" in handout
    assert "3 per supporting unit" in handout


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_handout_is_two_pages_and_reads_the_pack(tmp_path, paper):
    pack = my_pack(tmp_path)
    pages, handout = handout_text(pack, tmp_path / "h", paper)
    assert pages == 2
    data = game()["data"]
    knight = data["builds"]["knight"]["cost"]
    assert ", ".join(f"{n} {r}" for r, n in knight.items()) in handout
    assert f"{groups()['adventure']['rulebook_count']} adventure cards" in handout
    assert f"Might {data['dragon']['might']}" in handout
    assert "{{" not in handout and "built-in" not in handout


def test_monsters_and_items_have_their_own_art():
    """Every monster and item card (adventure deck and trader) names its picture, a declared
    icon; monsters and items are not one shared blob or box."""
    import yaml as _yaml
    pack = ROOT / "components" / "lords-of-doomspire"
    icons = _yaml.safe_load((pack / "game.yaml").read_text())["icons"]
    groups = {g["id"]: g for g in _yaml.safe_load((pack / "cards.yaml").read_text())["groups"]}
    monsters = [i for i in groups["adventure"]["items"] if i["type"] == "monster"]
    items = [i for i in groups["adventure"]["items"] if i["type"] == "treasure"] + groups["trader"]["items"]
    for card in monsters + items:
        assert card.get("art") in icons, card["id"]
        assert card["art"] not in ("monster", "item"), card["id"]
    assert len({c["art"] for c in monsters}) >= 12
    assert len({c["art"] for c in items}) >= 12
