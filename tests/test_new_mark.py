"""The NEW mark: with --changes-since OLD, a face that shows what OLD did not carries NEW beside
the version (or where its group's new_mark puts it), on the sheets and in the changes PDF.
Read from the printed PDF: which placed faces hold the word NEW inside their trim."""
from __future__ import annotations

import json
import shutil

import pymupdf
import pytest

from conftest import MM
from test_changes import CARDS, build, write_pack
from generator.build import BuildRequest, plan_sheets, reprint_groups
from generator.changes import compare, read_build, shown_faces
from generator.manifest import load_pack
from generator.version import SAFE


def marked_faces(pdf, sheets, word="NEW") -> dict[tuple[str, str, int], list[tuple]]:
    """(item, side, copy on the page) -> the boxes (mm) of `word` inside that placed face's trim,
    with the face's own trim box."""
    out = {}
    for page, sheet in zip(pymupdf.open(pdf), sheets):
        found = [tuple(v / MM for v in w[:4]) for w in page.get_text("words") if w[4] == word]
        for n, p in enumerate(sheet.placements):
            inside = [b for b in found if p.x <= b[0] and b[2] <= p.x + p.w and p.y <= b[1] and b[3] <= p.y + p.h]
            out[(p.face.item.id, p.face.side, page.number, n)] = (inside, (p.x, p.y, p.w, p.h))
    return out


def sheets_of(pack):
    game = load_pack(pack)
    return plan_sheets(game, game.groups, BuildRequest(), "sheets")


def versioned(folder, cards, new_mark=None):
    """test_changes' deck at version v2; the group's new_mark set when given."""
    pack = write_pack(folder, cards)
    with open(pack / "game.yaml", "a") as handle:
        handle.write("version: v2\n")
    if new_mark:
        deck = json.loads((pack / "deck.yaml").read_text())
        deck["groups"][0]["new_mark"] = new_mark
        (pack / "deck.yaml").write_text(json.dumps(deck))
    return pack


@pytest.fixture(scope="module")
def one_edit(tmp_path_factory):
    """v1 built and kept aside; then Frost's text edited, and two more Stones."""
    tmp = tmp_path_factory.mktemp("newmark")
    pack = versioned(tmp / "spells", CARDS)
    first, _ = build(pack, tmp / "out")
    shutil.copytree(first, tmp / "old")
    edited = [(i, n, "Slow every foe." if i == "frost" else t, c + 2 if i == "stone" else c) for i, n, t, c in CARDS]
    versioned(pack, edited)
    folder, stdout = build(pack, tmp / "out", "--changes-since", tmp / "old")
    return tmp, pack, folder


def test_nothing_is_marked_on_a_first_build(tmp_path):
    pack = versioned(tmp_path / "spells", CARDS)
    folder, _ = build(pack, tmp_path / "out")
    assert all(not boxes for boxes, _ in marked_faces(folder / "spells-sheets.pdf", sheets_of(pack)).values())


def test_exactly_the_edited_card_carries_it_on_the_sheets(one_edit):
    _, pack, folder = one_edit
    faces = marked_faces(folder / "spells-sheets.pdf", sheets_of(pack))
    marked = {(item, side) for (item, side, _, _), (boxes, _) in faces.items() if boxes}
    assert marked == {("frost", "front")}               # more Stones are more copies, not new faces
    frosts = [(boxes, trim) for (item, side, _, _), (boxes, trim) in faces.items() if (item, side) == ("frost", "front")]
    assert len(frosts) == 2
    for (box,), (x, y, w, h) in frosts:                 # before the version, in the bottom-right corner
        assert box[3] <= y + h - 3.0 and box[2] < x + w - SAFE - 1.2      # inside the safe zone, left of "v2"


def test_new_and_version_share_one_line(one_edit):
    _, _, folder = one_edit
    page = pymupdf.open(folder / "spells-sheets.pdf")[0]
    words = page.get_text("words")
    for new in (w for w in words if w[4] == "NEW"):
        # on NEW's baseline (their boxes' feet differ by the larger NEW's deeper descent)
        following = [w for w in words if w[4] == "v2" and abs(w[3] - new[3]) < 0.6 and 0 < w[0] - new[2] < 2 * MM]
        assert len(following) == 1
    spans = [span for block in page.get_text("dict")["blocks"] for line in block.get("lines", [])
             for span in line["spans"] if span["text"].strip() in ("NEW", "v2")]
    assert {s["font"] for s in spans if s["text"].strip() == "NEW"} == {"LiberationSans-Bold"}
    # NEW at 6 pt however small the version (1.4 mm, about 4 pt, by default): players read it
    assert all(s["size"] >= 6 - 0.02 for s in spans if s["text"].strip() == "NEW")
    assert all(s["origin"][1] == pytest.approx(next(t["origin"][1] for t in spans if t["text"].strip() == "v2"
                                                    and abs(t["origin"][1] - s["origin"][1]) < 1), abs=0.05)
               for s in spans if s["text"].strip() == "NEW")


def test_the_changes_pdf_marks_the_new_face_only(one_edit):
    tmp, pack, folder = one_edit
    game = load_pack(pack)
    changes = compare(read_build(tmp / "old"), json.loads((folder / "build.json").read_text()))
    sheets = plan_sheets(game, reprint_groups(game, changes), BuildRequest(), "changes")
    faces = marked_faces(folder / "spells-changes.pdf", sheets)
    assert {(item, side) for (item, side, _, _), (boxes, _) in faces.items() if boxes} == {("frost", "front")}
    assert {item for (item, _, _, _) in faces} == {"frost", "stone"}       # the two extra Stones: not marked


def test_a_group_puts_it_elsewhere_or_turns_it_off(tmp_path):
    tmp = tmp_path
    pack = versioned(tmp / "spells", CARDS, "top-left")
    first, _ = build(pack, tmp / "out")
    shutil.copytree(first, tmp / "old")
    versioned(pack, [(i, n, t + "!" if i == "gale" else t, c) for i, n, t, c in CARDS], "top-left")
    folder, _ = build(pack, tmp / "out", "--changes-since", tmp / "old")
    faces = marked_faces(folder / "spells-sheets.pdf", sheets_of(pack))
    for (item, side, _, _), (boxes, (x, y, w, h)) in faces.items():
        assert bool(boxes) == (item == "gale" and side == "front")
        if boxes:
            (left, top, _, _), = boxes
            assert left == pytest.approx(x + SAFE, abs=0.3) and top >= y + 3.0
    versioned(pack, [(i, n, t + "?" if i == "gale" else t, c) for i, n, t, c in CARDS], "off")
    folder, _ = build(pack, tmp / "out", "--changes-since", tmp / "old")
    assert all(not boxes for boxes, _ in marked_faces(folder / "spells-sheets.pdf", sheets_of(pack)).values())


def test_shown_faces_lists_what_the_earlier_build_printed(one_edit):
    tmp, _, _ = one_edit
    faces = shown_faces(read_build(tmp / "old"))
    assert {(g, i, s) for g, i, s in faces} == {("spells", c[0], side) for c in CARDS for side in ("front", "back")}
    assert len({d for (_, _, side), d in faces.items() if side == "back"}) == 1      # one shared back


def test_a_git_revision_marks_the_same_faces(tmp_path):
    from test_changes import git
    repo = tmp_path / "repo"
    pack = versioned(repo / "spells", CARDS)
    git("init", "-q", cwd=repo)
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "v1", cwd=repo)
    versioned(pack, [(i, n, "Block every blow." if i == "stone" else t, c) for i, n, t, c in CARDS])
    folder, _ = build(pack, tmp_path / "out", "--changes-since", "HEAD")
    faces = marked_faces(folder / "spells-sheets.pdf", sheets_of(pack))
    assert {(item, side) for (item, side, _, _), (boxes, _) in faces.items() if boxes} == {("stone", "front")}


def test_where_new_goes_with_and_without_a_version():
    """Beside the version in one line; alone in the version's place when the pack has none; in a
    place of its own with new_mark; nowhere when the version's place is off and new_mark unset."""
    from dataclasses import replace

    from conftest import FIXTURES
    from generator.render import FaceRef
    from generator.version import stamps
    game = load_pack(FIXTURES / "mini")
    cards = next(g for g in game.groups if g.id == "cards")
    face = FaceRef(cards, cards.items[0], "front")

    def marks(version, **group):
        g = replace(cards, **group)
        return stamps(replace(game, version=version, groups=[g]), lambda f: True)(replace(face, group=g))
    (one,) = marks("v2")
    assert (one.lead, one.text, one.anchor) == ("NEW", "v2", "end")
    (alone,) = marks("")
    assert (alone.lead, alone.text, alone.x) == ("NEW", "", one.x)
    version, new = marks("v2", new_mark="top-left")
    assert (version.text, version.lead, new.lead, new.anchor) == ("v2", "", "NEW", "start")
    assert marks("v2", version_mark="off") == ()
    assert [m.lead for m in marks("v2", version_mark="off", new_mark="top")] == ["NEW"]
    assert stamps(replace(game, version="v2"))(face)[0].lead == ""          # no earlier build: no NEW
