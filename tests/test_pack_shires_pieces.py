"""Shires pack, helper S4's components: dice (stickers and cube nets), Envoy standees, resource
tokens, player mats and the Turn Tracker board (components/shires/dice.yaml, pieces.yaml,
boards.yaml). Counts and sizes in build.json; the boards print on whole sheets of A4 and Letter;
the faces read their numbers from the pack: a number changed once in a copy of the pack shows up
changed on the mats, the tracker and the handout."""
from __future__ import annotations

import pymupdf
import pytest
import yaml

from conftest import MM, ROOT, copy_pack, load_build_json, run_cli

# group -> (total, rulebook_count, width mm, height mm)
EXPECTED = {
    "die-nets": (13, 13, 66, 92),            # 4 Militia + 4 Men-at-Arms + 4 Mercenary + 1 Diplomacy
    "die-stickers": (78, 78, 14, 14),        # 13 dice x 6 faces
    "envoys": (15, 15, 22, 84),              # 3 x 5 player colours
    "resource-tokens": (30, 30, 10, 10),     # 6 resources x 5 player colours
    "player-mats": (6, 6, 190, 256),         # 5 colours + 1 spare
    "turn-tracker": (1, 1, 380, 250),
}


@pytest.fixture(scope="module")
def shires(built):
    return built("shires")


def test_counts_and_sizes(shires):
    doc = load_build_json(shires)
    groups = {g["id"]: g for g in doc["groups"]}
    for gid, (total, rulebook, w, h) in EXPECTED.items():
        assert groups[gid]["total"] == total, gid
        assert groups[gid]["rulebook_count"] == rulebook, gid
        items = [i for i in doc["items"] if i["group"] == gid]
        assert {(i["width_mm"], i["height_mm"]) for i in items} == {(w, h)}, gid
    by_id = {(i["group"], i["id"]): i for i in doc["items"]}
    # the dice: one net per die, six stickers per die, as many copies of each as there are dice
    dice = {"militia": 4, "men-at-arms": 4, "mercenary": 4, "diplomacy": 1}
    for die, n in dice.items():
        assert by_id[("die-nets", die)]["copies"] == n
        for face in range(1, 7):
            assert by_id[("die-stickers", f"{die}-{face}")]["copies"] == n
    # per player colour: 3 numbered Envoys and one token of each of the six resources
    colours = ["red", "white", "teal", "magenta", "grey"]
    for c in colours:
        for k in (1, 2, 3):
            assert by_id[("envoys", f"envoy-{k}-{c}")]["copies"] == 1
        for r in ("food", "gold", "favor", "wood", "iron", "stone"):
            assert by_id[("resource-tokens", f"{r}-{c}")]["sides"] == 2
    assert {i["id"] for i in doc["items"] if i["group"] == "player-mats"} == \
        {"player-1", "player-2", "player-3", "player-4", "player-5", "spare"}


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_boards_fit_whole_sheets(built, paper):
    """Each player mat is one sheet of A4 and of Letter (no gluing); the tracker two."""
    out = built("shires", "--paper", paper)
    files = {f["path"]: f for f in load_build_json(out)["files"]}
    assert files["shires-player-mats.pdf"]["pages"] == 6
    assert files["shires-turn-tracker.pdf"]["pages"] == 2
    assert files["shires-handout.pdf"]["pages"] == 2


def test_stickers_and_nets_show_the_die_faces(shires):
    """Every sticker shows the face its die lists; every net shows its six faces."""
    from generator.manifest import load_pack
    from generator.render import FaceRef, FaceRenderer
    game = load_pack(_pack_root())
    renderer = FaceRenderer(game, 3.0)
    groups = {g.id: g for g in game.groups}
    marks = {name: game.icons[name].markup for name in ("hit", "flag", "frown", "skull")}
    nets = {i.id: i for i in groups["die-nets"].items}
    for item in groups["die-stickers"].items:
        face = nets[item.data["die"]].data["faces"][item.data["face"] - 1]
        svg = renderer.svg(FaceRef(groups["die-stickers"], item, "front"))
        for name, markup in marks.items():
            assert (markup in svg) == (name == face), (item.id, name)
    for item in groups["die-nets"].items:
        svg = renderer.svg(FaceRef(groups["die-nets"], item, "front"))
        for name, markup in marks.items():
            assert svg.count(markup) == item.data["faces"].count(name), (item.id, name)


def _pack_root():
    from conftest import ROOT
    return ROOT / "components" / "shires"


def _line(page, label, x_min=0.0, x_max=1e9, nth=0):
    """The words on the text line of the nth word `label` found with x in [x_min, x_max] mm,
    to the right of it, in order."""
    words = page.get_text("words")
    hits = [w for w in words if w[4] == label and x_min <= w[0] / MM <= x_max]
    assert len(hits) > nth, f"{label!r} not found"
    h = hits[nth]
    yc = (h[1] + h[3]) / 2
    return [w[4] for w in sorted(words, key=lambda w: w[0])
            if abs((w[1] + w[3]) / 2 - yc) < 1.6 * MM and w[0] > h[2] and w[0] / MM <= x_max]


def _numbers(words):
    return [w for w in words if w.lstrip("-").isdigit()]


def _upkeep_labels(mat):
    """The numbers over the first Envoy's Standing Army slots, left to right (Food, Gold, ...)."""
    words = mat.get_text("words")
    head = next(w for w in words if w[4] == "Standing")
    return _numbers([w[4] for w in sorted(words, key=lambda w: w[0])
                     if head[3] < w[1] < head[3] + 7 * MM])


def _texts(folder):
    mat = pymupdf.open(folder / "shires-player-mats.pdf")[0]
    tracker = pymupdf.open(folder / "shires-turn-tracker.pdf")
    handout = pymupdf.open(folder / "shires-handout.pdf")
    return mat, tracker, handout


def _tracker_knights_cost(tracker):
    """The Mercenary Knights' Muster cost: the last pile, on the right-hand piece."""
    page = tracker[1]
    words = page.get_text("words")
    knights = max((w for w in words if w[4] == "Knights"), key=lambda w: w[0])
    below = [w[4] for w in words if abs(w[0] - knights[0]) < 12 * MM and w[1] > knights[3] + 20 * MM
             and w[1] < knights[3] + 60 * MM]
    return _numbers(below)


@pytest.mark.slow
def test_a_number_changed_once_changes_on_every_face(shires, tmp_path):
    """Change costs, votes, upkeep, the starting supply and the round count once, in game.yaml
    data of a copy of the pack: the player mat, the Turn Tracker and the handout all follow."""
    mat, tracker, handout = _texts(shires)
    game = yaml.safe_load((_pack_root() / "game.yaml").read_text())
    d = game["data"]
    # the printed values before the change agree with the data
    assert _numbers(_line(mat, "Village", x_max=105))[0] == str(d["shire_upgrades"]["village"]["cost"]["wood"])
    assert _numbers(_line(mat, "Simple", x_min=105))[0] == str(next(iter(d["building_tiers"]["simple"]["cost"].values())))
    assert _tracker_knights_cost(tracker) == [str(d["muster"]["mercenary"]["knight"]["gold"])]
    assert "start {}".format(d["starting_supply"]["stone"]) in mat.get_text()
    u = d["rules"]["upkeep"]
    assert _upkeep_labels(mat) == [str(n) for k in (1, 2, 3) for n in (u["food"] * k, u["gold"] * k)]

    pack = copy_pack("shires", tmp_path)
    d["shire_upgrades"]["village"]["cost"]["wood"] = 17
    d["building_tiers"]["simple"]["cost"]["wood"] = 13
    d["muster"]["mercenary"]["knight"]["gold"] = 19
    d["votes"]["city"] = 9
    d["starting_supply"]["stone"] = 3
    d["rules"]["upkeep"]["food"] = 5
    d["rules"]["rounds"] = 7
    (pack / "game.yaml").write_text(yaml.safe_dump(game, sort_keys=False, allow_unicode=True))
    out = tmp_path / "out"
    code, _, stderr = run_cli("build", pack, "--out", out, "--quiet")
    assert code == 0, stderr
    mat, tracker, handout = _texts(out / "shires")

    # player mat: cost aids, votes, starting star, upkeep over the Standing Army slots
    assert _numbers(_line(mat, "Village", x_max=105))[0] == "17"
    assert _numbers(_line(mat, "Simple", x_min=105))[0] == "13"
    assert _numbers(_line(mat, "City", x_max=105))[-1] == "9"
    text = mat.get_text()
    assert "start 3" in text and "start 0" not in text
    assert _upkeep_labels(mat)[::2] == ["5", "10", "15"]
    # Turn Tracker: the Mercenary Knights' cost, the turn track counts down from 7
    assert _tracker_knights_cost(tracker) == ["19"]
    rounds = tracker[0].get_text() + tracker[1].get_text()
    assert "round 7" in rounds and "round 8" not in rounds
    # handout: the same tables
    page1 = handout[0]
    row = next(_line(page1, "Hamlet", nth=n) for n in range(5) if _line(page1, "Hamlet", nth=n)[:1] == ["to"])
    assert _numbers(row)[:1] == ["17"]                      # "Hamlet to Village" row, Wood column
    assert "13" in _numbers(_line(page1, "Simple"))
    all_text = " ".join(" ".join(p.get_text().split()) for p in handout)
    assert "Knight 19" in all_text          # the Mercenary muster row: costs as the resource icons


# --- the Army Unit counters fit the spaces the rules put them on ------------------------------

def _dashed_rects(page):
    return [d["rect"] for d in page.get_drawings() if d.get("dashes") not in (None, "[] 0")]


def _gap(one, two):
    """The distance between two rectangles (0 where they touch or overlap), in mm."""
    dx = max(two.x0 - one.x1, one.x0 - two.x1, 0)
    dy = max(two.y0 - one.y1, one.y0 - two.y1, 0)
    return max(dx, dy) / MM


def _row_beside(heading, boxes):
    """The boxes next to a heading (within 1.5 mm: a face may be turned on the sheet) and those
    next to them in turn (a row of spaces)."""
    row = [b for b in boxes if _gap(heading, b) < 1.5]
    for box in row:
        row += [b for b in boxes if b not in row and _gap(box, b) < 1.2]
    return row


def _holds(space, w_mm, h_mm, play_mm=0.5):
    """A space holds a piece with play_mm to spare on every side, either way round."""
    sw, sh = space.width / MM, space.height / MM
    need = (w_mm + 2 * play_mm, h_mm + 2 * play_mm)
    return (sw >= need[0] and sh >= need[1]) or (sw >= need[1] and sh >= need[0])


def test_every_unit_space_holds_a_unit_counter(shires):
    """The rulebook puts Army Units on the Garrison spaces of a Shire and the Standing Army spaces
    of a player's board, and sorts them onto the Turn Tracker: each of those spaces, measured in
    the printed PDFs, holds a counter (its printed size in build.json) with play to spare."""
    doc = load_build_json(shires)
    (w, h), = {(i["width_mm"], i["height_mm"]) for i in doc["items"] if i["group"] == "units"}
    data = yaml.safe_load((ROOT / "components" / "shires" / "game.yaml").read_text())["data"]
    # Standing Army: a counter's spot (dashed) inside each numbered slot
    mat = pymupdf.open(shires / "shires-player-mats.pdf")[0]
    slots = [r for r in _dashed_rects(mat) if r.y1 < mat.search_for("Supply")[0].y0]
    assert len(slots) == data["rules"]["envoys_max"] * 6
    assert all(_holds(r, w, h) for r in slots), [(r.width / MM, r.height / MM) for r in slots]
    # Garrison spaces: the dashed boxes under each "Garrison" heading of a Shire band (hexes and
    # upgrade chits), as many as that Shire's Garrison
    sheets = pymupdf.open(shires / "shires-sheets.pdf")
    counts = set()
    for page in sheets:
        dashed = _dashed_rects(page)
        for word in (wd for wd in page.get_text("words") if wd[4] == "Garrison"):
            below = _row_beside(pymupdf.Rect(word[:4]), [r for r in dashed if r.width < 25 * MM])
            assert below, f"page {page.number + 1}: no Garrison space under the heading"
            assert all(_holds(r, w, h) for r in below), [(r.width / MM, r.height / MM) for r in below]
            counts.add(len(below))
    assert counts == {s["garrison"] for s in data["shires"].values()}
    # the Turn Tracker's piles: each box holds its pile
    tracker = pymupdf.open(shires / "shires-turn-tracker.pdf")
    piles = 0
    for page in tracker:
        boxes = [d["rect"] for d in page.get_drawings() if d["rect"].width > 20 * MM and d["rect"].height > 20 * MM]
        for word in (wd for wd in page.get_text("words") if wd[4] == "counters"):
            inside = [b for b in boxes if b.contains(pymupdf.Rect(word[:4]))]
            box = min(inside, key=lambda b: b.width * b.height)
            assert _holds(box, w, h, play_mm=3)
            piles += 1
    assert piles >= 9          # 9 unit types; a pile cut by the overlap of the two pieces shows twice
