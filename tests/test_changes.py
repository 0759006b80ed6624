"""Reprint only what changed: build.json's face digests, pnpgen diff, build --changes-since."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pymupdf
import pytest

from conftest import DECK_GAME, load_build_json, run_cli, word_centres
from generator.changes import Baseline, ChangesError, compare, players_list, read_build

FRONT = ('<rect x="{{ -face.bleed }}" y="{{ -face.bleed }}" width="{{ face.width + 2 * face.bleed }}" '
         'height="{{ face.height + 2 * face.bleed }}" fill="#f7f1e3"/>'
         "{{ text_line(item.name, 5, 12, face.width - 10, size=8) }}"
         "{{ text_line(item.text, 5, 40, face.width - 10, size=6) }}"
         "{{ text_line(item.id, 5, 70, face.width - 10, size=6) }}"
         "{{ text_line('FRONT', 5, 80, face.width - 10, size=8) }}")
BACK = ('<rect x="{{ -face.bleed }}" y="{{ -face.bleed }}" width="{{ face.width + 2 * face.bleed }}" '
        'height="{{ face.height + 2 * face.bleed }}" fill="#223355"/>'
        "{{ text_line('BACK', 5, 80, face.width - 10, size=8, color='#ffffff') }}")
CARDS = [("ember", "Ember", "Deal one damage.", 3), ("frost", "Frost", "Slow a foe.", 2),
         ("gale", "Gale", "Push a foe.", 2), ("stone", "Stone", "Block a blow.", 4)]


def write_pack(folder: Path, cards) -> Path:
    """A deck of named cards with one shared back; `cards`: (id, name, text, copies)."""
    (folder / "templates").mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(DECK_GAME)
    (folder / "templates" / "front.svg.j2").write_text(FRONT)
    (folder / "templates" / "back.svg.j2").write_text(BACK)
    items = [{"id": i, "name": n, "text": t, "copies": c} for i, n, t, c in cards]
    deck = {"groups": [{"id": "spells", "name": "Spell cards", "kind": "card", "size": "poker",
                        "template": "front.svg.j2", "back_template": "back.svg.j2",
                        "fields": {"name": "text", "text": "text"}, "items": items}]}
    (folder / "deck.yaml").write_text(json.dumps(deck))
    return folder


def build(pack: Path, out: Path, *options) -> tuple[Path, str]:
    code, stdout, stderr = run_cli("build", pack, "--out", out, *options)
    assert code == 0, stderr
    return out / pack.name, stdout


@pytest.fixture(scope="module")
def edited(tmp_path_factory):
    """An earlier build kept aside, then the pack edited: Ember's text changed, two more Stones,
    Gale removed, and the cards in another order (which alone changes nothing)."""
    tmp = tmp_path_factory.mktemp("changes")
    pack = write_pack(tmp / "spells", CARDS)
    folder, _ = build(pack, tmp / "out")
    shutil.copytree(folder, tmp / "old")
    write_pack(pack, [("stone", "Stone", "Block a blow.", 6), ("frost", "Frost", "Slow a foe.", 2),
                      ("ember", "Ember", "Deal two damage.", 3)])
    folder, stdout = build(pack, tmp / "out", "--changes-since", tmp / "old")
    return tmp, folder, stdout


def test_build_json_has_a_digest_per_face_and_side(edited):
    tmp, _, _ = edited
    items = {i["id"]: i for i in load_build_json(tmp / "old")["items"]}
    assert set(items["ember"]["faces"]) == {"front", "back"}
    assert items["ember"]["name"] == "Ember"
    fronts = {i["faces"]["front"] for i in items.values()}
    assert len(fronts) == 4                                          # four different fronts
    assert len({i["faces"]["back"] for i in items.values()}) == 1    # one shared back


def test_changes_pdf_holds_exactly_the_changed_faces(edited):
    """Ember (changed: 3 new copies) and the 2 extra Stones; nothing of Frost, nothing of Gale."""
    _, folder, _ = edited
    doc = pymupdf.open(folder / "spells-changes.pdf")
    text = "".join(page.get_text() for page in doc)
    fronts = [w[4] for page in doc for w in page.get_text("words") if w[4].startswith(("ember", "frost", "gale", "stone"))]
    assert sorted(fronts) == ["ember"] * 3 + ["stone"] * 2
    assert "Deal two damage." in text and "Deal one damage." not in text
    guide = load_build_json(folder)
    entry = next(f for f in guide["files"] if f["role"] == "changes")
    assert entry["path"] == "spells-changes.pdf" and entry["pages"] == len(doc) == 3
    assert [p["side"] for p in entry["layout"]] == ["front", "back", "list"]


def test_changes_pdf_backs_behind_their_fronts(edited):
    """Long-edge duplex, like the sheets: each back mirrored left to right behind its front
    (both faces' labels are centred at the same height)."""
    _, folder, _ = edited
    doc = pymupdf.open(folder / "spells-changes.pdf")
    width = doc[0].rect.width / (72 / 25.4)
    fronts = sorted((round(x, 1), round(y, 1)) for x, y in word_centres(doc[0], "FRONT"))
    backs = sorted((round(width - x, 1), round(y, 1)) for x, y in word_centres(doc[1], "BACK"))
    assert len(fronts) == 5
    assert len(backs) == 5
    for (fx, fy), (bx, by) in zip(fronts, backs):
        assert (bx, by) == pytest.approx((fx, fy), abs=0.3)
    assert "reprint of changed components" in doc[0].get_text()


def test_players_list_by_name_and_count(edited):
    _, folder, stdout = edited
    doc = pymupdf.open(folder / "spells-changes.pdf")
    lines = doc[-1].get_text().splitlines()
    take_out = lines[lines.index("Take these out of the box (5):") + 1:lines.index("Put these in, from the pages before (5):")]
    put_in = lines[lines.index("Put these in, from the pages before (5):") + 1:]
    assert take_out == ["3 x Ember  (Spell cards; old version)", "2 x Gale  (Spell cards; no longer in the game)"]
    assert put_in == ["2 x Stone  (Spell cards; more copies)", "3 x Ember  (Spell cards; new version)"]
    assert "changed (front)" in stdout and "spells/gale" in stdout


def test_diff_of_two_build_folders(edited):
    tmp, folder, _ = edited
    code, stdout, stderr = run_cli("diff", tmp / "old", folder)
    assert code == 0, stderr
    assert stdout.splitlines()[0] == f"spells: 3 item(s) changed since {tmp / 'old'}"
    assert "print 5 component(s) again; the players take out 5 and put in 5" in stdout


def test_nothing_changed_writes_no_pdf(edited, tmp_path):
    tmp, folder, _ = edited
    shutil.copytree(folder, tmp_path / "same")
    out, stdout = build(tmp / "spells", tmp_path / "out", "--changes-since", tmp_path / "same")
    assert not (out / "spells-changes.pdf").exists()
    assert f"nothing changed since {tmp_path / 'same'}: no spells-changes.pdf written" in stdout
    code, stdout, _ = run_cli("diff", tmp_path / "same", out)
    assert code == 0 and "nothing changed" in stdout


def test_changes_pdf_is_the_same_bytes_twice(edited, tmp_path):
    tmp, folder, _ = edited
    again, _ = build(tmp / "spells", tmp_path / "out", "--changes-since", tmp / "old")
    assert (again / "spells-changes.pdf").read_bytes() == (folder / "spells-changes.pdf").read_bytes()


# --- the comparison alone --------------------------------------------------------------------

def doc(*items, game="g") -> dict:
    return {"game": game, "face_digests": "svg-sha256-128", "groups": [{"id": "cards", "name": "Cards"}],
            "items": [{"id": i, "group": "cards", "kind": "card", "copies": c, "name": i.title(),
                       "faces": {"front": f, "back": "B"}} for i, c, f in items]}


def test_a_face_that_only_moved_is_no_change():
    old = Baseline("old", doc(("a", 1, "A"), ("b", 2, "B2")))
    assert not compare(old, doc(("b", 2, "B2"), ("a", 1, "A")))


def test_each_kind_of_change():
    old = Baseline("old", doc(("a", 1, "A"), ("b", 2, "B"), ("c", 3, "C"), ("d", 1, "D")))
    changes = compare(old, doc(("a", 1, "A*"), ("b", 4, "B"), ("c", 1, "C"), ("e", 2, "E")))
    found = {(c.item, c.what, c.take_out, c.put_in) for c in changes.items}
    assert found == {("a", "changed", 1, 1), ("b", "more", 0, 2), ("c", "fewer", 2, 0),
                     ("e", "new", 0, 2), ("d", "removed", 1, 0)}
    assert changes.to_print == {("cards", "a"): 1, ("cards", "b"): 2, ("cards", "e"): 2}
    take_out, put_in = players_list(changes)
    assert "2 x C  (Cards; fewer copies now)" in take_out


def test_a_changed_back_is_a_change_of_that_side():
    old = Baseline("old", doc(("a", 1, "A")))
    new = doc(("a", 1, "A"))
    new["items"][0]["faces"]["back"] = "B*"
    assert [c.sides for c in compare(old, new).items] == [("back",)]


def test_another_games_build_is_refused():
    with pytest.raises(ChangesError, match="is a build of 'g', not of 'h'"):
        compare(Baseline("old", doc(("a", 1, "A"))), doc(("a", 1, "A"), game="h"))


@pytest.mark.parametrize("content, message", [
    (None, "no build.json there; give the folder of an earlier build"),
    ('{"items": [1,\n', "build.json:2:1: not valid JSON"),
    ('{"items": []}', "has no face digests (written by an older pnpgen"),
    ('{"face_digests": "svg-sha256-128", "items": [{"id": 1}]}', "items[0] is not an item as pnpgen writes it"),
])
def test_unusable_old_build_is_refused(tmp_path, content, message):
    if content is not None:
        (tmp_path / "build.json").write_text(content)
    with pytest.raises(ChangesError, match=message.replace("[", r"\[").replace("(", r"\(")):
        read_build(tmp_path)
    code, _, stderr = run_cli("diff", tmp_path, tmp_path)
    assert code == 2 and message in stderr and "Traceback" not in stderr


def test_a_changed_board_is_named_on_the_list_not_reprinted(tmp_path):
    pack = tmp_path / "mini"
    shutil.copytree(Path(__file__).parent / "fixtures" / "mini", pack)
    folder, _ = build(pack, tmp_path / "out")
    shutil.copytree(folder, tmp_path / "old")
    board = pack / "templates" / "board.svg.j2"
    board.write_text(board.read_text() + '<circle cx="20" cy="20" r="5" fill="#000000"/>')
    folder, stdout = build(pack, tmp_path / "out", "--changes-since", tmp_path / "old")
    doc = pymupdf.open(folder / "mini-changes.pdf")
    assert len(doc) == 1                       # no sheets: the list alone
    text = doc[0].get_text()
    assert "Print these boards again:\nmini-board.pdf" in text
    assert "changed (front)" in stdout and "board/board" in stdout


def git(*args, cwd):
    import subprocess
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=cwd, check=True,
                   capture_output=True, timeout=60)


def test_git_revision_gives_the_same_answer_as_the_build_folder(tmp_path):
    """OLD as a git revision of the pack: the same items changed, the same faces reprinted."""
    repo = tmp_path / "repo"
    pack = write_pack(repo / "games" / "spells", CARDS)
    git("init", "-q", cwd=repo)
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "v1", cwd=repo)
    folder, _ = build(pack, tmp_path / "out")
    shutil.copytree(folder, tmp_path / "old")
    write_pack(pack, [("stone", "Stone", "Block a blow.", 6), ("frost", "Frost", "Slow a foe.", 2),
                      ("ember", "Ember", "Deal two damage.", 3)])
    by_folder, said_folder = build(pack, tmp_path / "a", "--changes-since", tmp_path / "old")
    by_git, said_git = build(pack, tmp_path / "b", "--changes-since", "HEAD")
    changes = [said.split("spells-changes.pdf", 1)[1].split("\n", 1)[1] for said in (said_folder, said_git)]
    assert changes[0] == changes[1] and changes[0].count("\n") == 4     # the same three items, and totals
    one, other = (pymupdf.open(f / "spells-changes.pdf") for f in (by_folder, by_git))
    assert [p.get_text() for p in one][:-1] == [p.get_text() for p in other][:-1]
    assert "changes since HEAD (git)" in other[-1].get_text()


@pytest.mark.parametrize("since, message", [
    ("no-such-rev", "'no-such-rev' is neither a build folder nor a git revision"),
])
def test_unknown_revision_is_refused(tmp_path, since, message):
    repo = tmp_path / "repo"
    pack = write_pack(repo / "spells", CARDS)
    git("init", "-q", cwd=repo)
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "v1", cwd=repo)
    code, _, stderr = run_cli("build", pack, "--out", tmp_path / "out", "--changes-since", since)
    assert code == 2 and message in stderr and "Traceback" not in stderr
    assert not (tmp_path / "out").exists()


def test_a_picture_changed_in_place_changes_its_face(tmp_path):
    """Same file name, other pixels: the face points at its picture by the picture's digest."""
    import cairocffi as cairo

    def paint(path, rgb):
        surface = cairo.ImageSurface(cairo.FORMAT_RGB24, 600, 600)
        ctx = cairo.Context(surface)
        ctx.set_source_rgb(*rgb)
        ctx.paint()
        surface.write_to_png(str(path))
    pack = write_pack(tmp_path / "spells", CARDS)
    (pack / "art").mkdir()
    paint(pack / "art" / "ember.png", (0.8, 0.2, 0.1))
    paint(pack / "art" / "frost.png", (0.1, 0.3, 0.9))
    deck = json.loads((pack / "deck.yaml").read_text())
    group = deck["groups"][0]
    group["fields"]["art"] = "image"
    for item in group["items"]:
        item["art"] = f"art/{item['id']}.png" if item["id"] in ("ember", "frost") else "art/frost.png"
    (pack / "deck.yaml").write_text(json.dumps(deck))
    (pack / "templates" / "front.svg.j2").write_text(FRONT + "{{ image(item.art, 5, 45, 20, 20) }}")
    folder, _ = build(pack, tmp_path / "out")
    shutil.copytree(folder, tmp_path / "old")
    paint(pack / "art" / "ember.png", (0.2, 0.8, 0.1))
    _, stdout = build(pack, tmp_path / "out", "--changes-since", tmp_path / "old")
    assert "spells/ember" in stdout and "changed (front)" in stdout
    assert "spells/frost" not in stdout and "spells/gale" not in stdout
