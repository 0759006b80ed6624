"""Tuck boxes: the net's geometry in millimetres, then the drawn net as the PDF shows it."""
from __future__ import annotations

import json
from pathlib import Path

import pymupdf
import pytest

from conftest import DECK_GAME, MM, load_build_json, run_cli
from generator.tuckbox import ThicknessError, box_for, card_thickness, net

# (card width, height, count, thickness) -> inside width, height, depth, worked out by hand:
# plain cards 0.32 mm, sleeved 0.62 mm and 3 mm wider and taller, 1 mm clearance each way
DECKS = [((63, 88, 54, "plain"), (64.0, 89.0, 18.28)),
         ((70, 120, 78, "sleeved"), (74.0, 124.0, 49.36)),
         ((44, 63, 20, "0.5"), (45.0, 64.0, 11.0))]


@pytest.mark.parametrize("deck, inside", DECKS)
def test_panels_match_the_deck_plus_thickness(deck, inside):
    w, h, d = inside
    shape = net(box_for(*deck))
    sizes = {name: (p.rect.w, p.rect.h) for name, p in shape.panels.items()}
    for name, expected in [("front", (w, h)), ("back", (w, h)), ("spine-left", (d, h)), ("spine-right", (d, h)),
                           ("lid", (w, d)), ("bottom", (w, d))]:
        assert sizes[name] == pytest.approx(expected, abs=0.2), name
    assert sizes["glue"][1] == pytest.approx(h, abs=0.2) and sizes["glue"][0] < d      # glued inside a spine
    assert sizes["bottom-flap"][1] < d and sizes["tuck"][1] <= 18.0 + 1e-9
    for name in ("dust-top-left", "dust-top-right", "dust-bottom-left", "dust-bottom-right"):
        assert sizes[name][0] == pytest.approx(d, abs=0.2) and sizes[name][1] <= min(d, w / 2) + 1e-9
    assert shape.width == pytest.approx(2 * d + 2 * w + sizes["glue"][0], abs=0.2)
    assert shape.notch[2] <= w / 4                          # the thumb notch leaves the front's corners


def test_outline_is_closed_and_encloses_every_panel():
    shape = net(box_for(63, 88, 54, "plain"))
    xs, ys = [x for x, _ in shape.outline], [y for _, y in shape.outline]
    assert min(xs) == pytest.approx(0) and max(xs) == pytest.approx(shape.width)
    assert min(ys) == pytest.approx(0) and max(ys) == pytest.approx(shape.height)
    cx, cy, r = shape.notch
    assert max(y for x, y in shape.outline if abs(x - cx) < r) == pytest.approx(cy + r, abs=0.05)


@pytest.mark.parametrize("spec, message", [("thick", "give plain, sleeved or a number"),
                                           ("9", "outside 0.05-5 mm")])
def test_thickness_refused(spec, message):
    with pytest.raises(ThicknessError, match=message):
        card_thickness(spec)


# --- the drawn nets --------------------------------------------------------------------------

def write_decks(folder: Path) -> Path:
    (folder / "templates").mkdir(parents=True)
    (folder / "game.yaml").write_text(DECK_GAME)
    (folder / "templates" / "card.svg.j2").write_text('<rect x="0" y="0" width="1" height="1" fill="#000000"/>')
    groups = [{"id": gid, "name": name, "kind": "card", "size": size, "template": "card.svg.j2",
               "items": [{"id": "c", "copies": count}]}
              for gid, name, size, count in [("spells", "Spells", "poker", 54), ("quests", "Quests", "tarot", 78),
                                             ("coins", "Coins", "mini", 20)]]
    (folder / "decks.yaml").write_text(json.dumps({"groups": groups}))
    return folder


@pytest.fixture(scope="module")
def nets(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("tuck")
    pack = write_decks(tmp / "decks")
    code, _, stderr = run_cli("build", pack, "--out", tmp / "out", "-q", "--tuck-boxes")
    assert code == 0, stderr
    return tmp / "out" / "decks"


def drawn_folds(page) -> list[tuple[float, float, float, float]]:
    """The dashed lines of a page, in mm, each as (x0, y0, x1, y1)."""
    out = []
    for drawing in page.get_drawings():
        if drawing.get("dashes") and drawing["dashes"] not in ("[] 0", "[] 0.0"):
            out += [(a.x / MM, a.y / MM, b.x / MM, b.y / MM) for kind, a, b, *_ in drawing["items"] if kind == "l"]
    return out


@pytest.mark.parametrize("page_no, inside", [(0, DECKS[0][1]), (1, (71.0, 121.0, 25.96)), (2, DECKS[2][1][:2] + (7.4,))])
def test_drawn_panels_measure_the_deck(nets, page_no, inside):
    """Folded in the head: the four long folds between spines, front, back and glue flap lie
    d, w, d, w apart, and are as long as the box is tall."""
    w, h, d = inside
    page = pymupdf.open(nets / "decks-tuckboxes.pdf")[page_no]
    folds = drawn_folds(page)
    long = [f for f in folds if abs(abs(f[2] - f[0]) + abs(f[3] - f[1]) - h) < 0.2]
    assert len(long) == 4
    upright = abs(long[0][0] - long[0][2]) < 0.01
    places = sorted(f[0] if upright else f[1] for f in long)
    gaps = [b - a for a, b in zip(places, places[1:])]
    assert gaps == pytest.approx([w, d, w], abs=0.2)
    box = next(b for b in load_build_json(nets)["files"] if b["role"] == "tuckboxes")["boxes"][page_no]
    assert box["inside_mm"] == pytest.approx([w, h, d], abs=0.01)


def test_art_on_its_panel_the_right_way_up(nets):
    """Title and deck name on the front and back, upright; the spines read from bottom to top."""
    page = pymupdf.open(nets / "decks-tuckboxes.pdf")[0]          # the poker deck, upright on A4
    x1, x2, x3, x4 = sorted(f[0] for f in drawn_folds(page) if abs(abs(f[3] - f[1]) - 89.0) < 0.2)
    panels = {"spine-left": (x1 - 18.28, x1), "front": (x1, x2), "spine-right": (x2, x3), "back": (x3, x4)}

    def panel_of(bbox):
        left, right = bbox[0] / MM, bbox[2] / MM
        return next((name for name, (a, b) in panels.items() if a - 0.3 < left and right < b + 0.3), None)
    found = {("".join(s["text"] for s in line["spans"]), panel_of(line["bbox"]), tuple(round(v) for v in line["dir"]))
             for block in page.get_text("dict")["blocks"] for line in block.get("lines", [])}
    assert {("Test Deck", "front", (1, 0)), ("Spells", "front", (1, 0)), ("54 cards", "front", (1, 0)),
            ("Test Deck", "back", (1, 0)), ("Test Deck - Spells", "spine-left", (0, -1)),
            ("Test Deck - Spells", "spine-right", (0, -1))} <= found


def test_a_net_larger_than_the_paper_gets_its_own_page(tmp_path):
    """78 sleeved tarot cards: 74 x 124 x 49 mm inside, a net of 259 x 241 mm, too large for A4
    either way round; the turned tarot net of plain cards fits."""
    pack = write_decks(tmp_path / "decks")
    code, _, stderr = run_cli("build", pack, "--out", tmp_path / "out", "-q", "--tuck-boxes", "sleeved")
    assert code == 0, stderr
    boxes = next(b for b in load_build_json(tmp_path / "out" / "decks")["files"] if b["role"] == "tuckboxes")["boxes"]
    quest = next(b for b in boxes if b["group"] == "quests")
    assert quest["own_page_size"] and quest["net_mm"] == pytest.approx([258.72, 240.72], abs=0.2)
    page = pymupdf.open(tmp_path / "out" / "decks" / "decks-tuckboxes.pdf")[1]
    assert page.rect.width / MM == pytest.approx(258.72 + 2 * 8, abs=0.1)
    assert "larger than the paper" in page.get_text()


def test_a_net_turned_to_fit_the_paper(nets):
    box = next(b for b in load_build_json(nets)["files"] if b["role"] == "tuckboxes")["boxes"][1]
    assert box["turned"] and not box["own_page_size"]
    page = pymupdf.open(nets / "decks-tuckboxes.pdf")[1]
    assert (page.rect.width / MM, page.rect.height / MM) == pytest.approx((210, 297), abs=0.1)


def test_bad_thickness_is_a_usage_error(tmp_path):
    code, _, stderr = run_cli("build", write_decks(tmp_path / "decks"), "--tuck-boxes", "thick")
    assert code == 2 and "give plain, sleeved or a number of millimetres" in stderr


def test_group_key_asks_for_its_own_box(tmp_path):
    """tuck_box in a group: that group's box in every build; --tuck-boxes alone adds the other
    card groups (plain), 'off' keeps a group out."""
    pack = write_decks(tmp_path / "decks")
    decks = json.loads((pack / "decks.yaml").read_text())
    decks["groups"][0]["tuck_box"] = "sleeved"
    decks["groups"][2]["tuck_box"] = "off"
    (pack / "decks.yaml").write_text(json.dumps(decks))

    def boxes(*options):
        code, _, stderr = run_cli("build", pack, "--out", tmp_path / "out", "-q", *options)
        assert code == 0, stderr
        files = {f["role"]: f for f in load_build_json(tmp_path / "out" / "decks")["files"]}
        return [(b["group"], b["thickness"]) for b in files["tuckboxes"]["boxes"]] if "tuckboxes" in files else []
    assert boxes() == [("spells", "sleeved")]
    assert boxes("--tuck-boxes") == [("spells", "sleeved"), ("quests", "plain")]
    assert boxes("--tuck-boxes", "0.4") == [("spells", "0.4"), ("quests", "0.4")]


@pytest.mark.parametrize("value, message", [
    ('"thick"', "tuck_box: card thickness 'thick': give plain, sleeved or a number"),
    ("0.01", "tuck_box: card thickness 0.01 mm is outside 0.05-5 mm"),
])
def test_bad_group_key_refused_at_its_line(tmp_path, value, message):
    pack = write_decks(tmp_path / "decks")
    text = (pack / "decks.yaml").read_text().replace('"id": "spells",', f'"id": "spells", "tuck_box": {value},')
    (pack / "decks.yaml").write_text(text)
    code, _, stderr = run_cli("validate", pack)
    assert code == 1 and "decks.yaml:1:" in stderr and message in stderr
