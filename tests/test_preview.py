"""pnpgen preview and the face cache: the contact sheet shows every face as the PDFs draw it, an
edit re-renders only the faces it changes, and what a long-running preview writes after edits is
byte for byte what a clean build writes."""
import re
import shutil
from pathlib import Path

import pymupdf

from conftest import copy_pack, run_cli
from generator import preview
from generator.build import BuildRequest
from generator.manifest import load_pack


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"fixture changed: {old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1))


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.name.startswith(".")}


def test_preview_shows_every_face_grouped_as_in_the_manifests(tmp_path):
    pack = copy_pack("mini", tmp_path)
    code, out, err = run_cli("preview", pack, "--out", tmp_path / "out")
    assert code == 0, err
    page = (tmp_path / "out" / "mini-preview" / "index.html").read_text()
    # one section per manifest, in file order; one figure per item (12 faces: 11 items), the board
    assert re.findall(r"<h2>([\w.]+\.yaml)</h2>", page) == ["board.yaml", "cards.yaml"]
    captions = re.findall(r"<figcaption>([^<]+)<span class=\"copies\">×(\d+)", page)
    assert [c for c, _ in captions] == ["board "] + [f"plain-{n} " for n in range(1, 11)] + ["escape "]
    assert "12 components = the rulebook&#x27;s 12" in page and "63 × 88 mm" in page
    assert 'href="../mini/mini-sheets.pdf"' in page and 'href="../mini/mini-board.pdf"' in page
    assert "&lt;/text&gt;&lt;script&gt;" not in page or "<script>&" not in page     # item text never markup
    images = re.findall(r'src="faces/([0-9a-f]+\.png)"', page)
    assert len(images) == 1 + 2 * 11 and len(set(images)) == len(images)
    # a card front as drawn: 63 x 88 mm at 100 dpi, the card colour inside the trim
    front = pymupdf.Pixmap(str(tmp_path / "out" / "mini-preview" / "faces" / images[1]))
    assert (front.width, front.height) == (248, 346)
    assert front.pixel(120, 200)[:3] == (0, 255, 0)


def test_text_set_smaller_to_fit_is_noted_under_its_face(tmp_path):
    pack = copy_pack("mini", tmp_path)
    edit(pack / "cards.yaml", 'title: Plain,', 'title: "A plain card with a title far too long for its line",')
    code, _, err = run_cli("preview", pack, "--out", tmp_path / "out")
    assert code == 0, err
    page = (tmp_path / "out" / "mini-preview" / "index.html").read_text()
    notes = re.findall(r'<ul class="notes"><li>([^<]+)</li>', page)
    assert len(notes) == 10 and all("set at" in n and "(asked 10 pt)" in n for n in notes)
    assert "10 item(s) have text set smaller than asked" in page


def test_an_edit_renders_again_only_the_faces_it_changes(tmp_path):
    pack = copy_pack("mini", tmp_path)
    session = preview.Session(pack, BuildRequest(out_dir=tmp_path / "live"))
    assert not session.rebuild().problems
    first = session.cache.renders
    assert first == 1 + 2 * 11                   # every distinct face once: board, fronts, backs
    edit(pack / "cards.yaml", "title: Plain,", "title: Plains,")    # ten items: fronts change
    assert not session.rebuild().problems
    assert session.cache.renders - first == 10   # their backs read only the id: not rendered again
    edit(pack / "cards.yaml", "body: \"Fish & chips <b>\"", "body: \"Fish & peas\"")
    assert not session.rebuild().problems
    assert session.cache.renders - first == 11
    # the live output equals a clean build of the edited pack, made by another process
    code, _, err = run_cli("preview", pack, "--out", tmp_path / "clean")
    assert code == 0, err
    live, clean = files_of(tmp_path / "live"), files_of(tmp_path / "clean")
    assert live.keys() == clean.keys() and live == clean


def test_a_face_that_shows_another_groups_numbers_follows_them(tmp_path):
    """The board template reads groups.cards.total: changing the cards' copies re-renders it."""
    pack = copy_pack("mini", tmp_path)
    board = pack / "templates" / "board.svg.j2"
    board.write_text(board.read_text() + "{{ text_line('cards: ' ~ groups.cards.total, 10, 20, 100) }}\n")
    session = preview.Session(pack, BuildRequest(out_dir=tmp_path / "live"))
    assert not session.rebuild().problems
    edit(pack / "cards.yaml", "rulebook_count: 12", "rulebook_count: 13")
    edit(pack / "cards.yaml", "copies: 2", "copies: 3")
    assert not session.rebuild().problems
    code, _, err = run_cli("build", pack, "--out", tmp_path / "clean", "-q")
    assert code == 0, err
    for name in ("mini-board.pdf", "mini-sheets.pdf"):
        assert (tmp_path / "live" / "mini" / name).read_bytes() == (tmp_path / "clean" / "mini" / name).read_bytes()
    assert "cards: 13" in pymupdf.open(tmp_path / "live" / "mini" / "mini-board.pdf")[0].get_text()


def test_a_broken_pack_gives_the_error_page_and_keeps_the_pdfs(tmp_path):
    pack = copy_pack("mini", tmp_path)
    out = tmp_path / "out"
    assert run_cli("preview", pack, "--out", out)[0] == 0
    sheets = (out / "mini" / "mini-sheets.pdf").read_bytes()
    (pack / "templates" / "card.svg.j2").write_text("{{ item.nonexistent }}")
    code, _, err = run_cli("preview", pack, "--out", out)
    assert code == 1 and "Traceback" not in err
    assert "card.svg.j2 line 1" in err and "nonexistent" in err
    page = (out / "mini-preview" / "index.html").read_text()
    assert 'id="errors"' in page and "card.svg.j2 line 1" in page and "<img" not in page
    assert (out / "mini" / "mini-sheets.pdf").read_bytes() == sheets


def test_the_watcher_sees_manifests_templates_icons_and_spreadsheets(tmp_path):
    pack = copy_pack("mini", tmp_path)
    (pack / "cards.csv").write_text("id\na\n")
    out = pack / "output"                      # output inside the pack is not watched
    out.mkdir()
    before = preview.watched_files(pack, out)
    assert {Path(p).name for p in before} >= {"cards.yaml", "game.yaml", "card.svg.j2", "star.svg", "cards.csv"}
    (out / "x.pdf").write_text("x")
    assert preview.watched_files(pack, out) == before
    for name in ("cards.csv", "icons/star.svg"):
        target = pack / name
        target.write_text(target.read_text() + "\n")
        now = preview.watched_files(pack, out)
        assert now != before
        before = now


def test_a_pack_outside_components_previews_under_any_folder_name(tmp_path):
    pack = shutil.copytree(copy_pack("mini", tmp_path / "a"), tmp_path / "My Deck (v2)")
    code, out, err = run_cli("preview", pack, "--out", tmp_path / "out")
    assert code == 0, err
    page = (tmp_path / "out" / "My Deck (v2)-preview" / "index.html").read_text()
    assert 'href="../My%20Deck%20%28v2%29/My%20Deck%20%28v2%29-sheets.pdf"' in page
    assert load_pack(pack).id == "My Deck (v2)"


def test_a_built_in_pack_edited_in_its_spreadsheet_rebuilds_like_a_clean_build(tmp_path):
    """Dragon Towers (templates importing macros with context, faces reading other groups):
    a mission's text changed in missions.xlsx re-renders that card alone."""
    import openpyxl
    pack = copy_pack("dragon-towers", tmp_path)
    session = preview.Session(pack, BuildRequest(out_dir=tmp_path / "live"))
    assert not session.rebuild().problems
    first = session.cache.renders
    book = openpyxl.load_workbook(pack / "missions.xlsx")
    sheet = book["Missions"]
    assert sheet["A3"].value == "mana-lord" and sheet["D1"].value == "condition"
    sheet["D3"] = "you have a Dragon Tower on a Mana tile and one on a Rock tile."
    book.save(pack / "missions.xlsx")
    assert not session.rebuild().problems
    assert session.cache.renders - first == 1
    code, _, err = run_cli("build", pack, "--out", tmp_path / "clean", "-q")
    assert code == 0, err
    for name in ("dragon-towers-sheets.pdf", "build.json"):
        assert (tmp_path / "live" / "dragon-towers" / name).read_bytes() == \
            (tmp_path / "clean" / "dragon-towers" / name).read_bytes()


def test_faces_drawn_on_both_cores_equal_those_drawn_in_turn(tmp_path):
    game = load_pack(copy_pack("mini", tmp_path))
    renderer = preview.FaceCache().renderer(game, 3.0)
    cards = next(g for g in game.groups if g.id == "cards")
    todo = [(str(n), renderer.svg(preview.FaceRef(cards, item, side)), cards)
            for n, item in enumerate(cards.items) for side in ("front", "back")] * 2
    assert len(todo) >= preview.MIN_FACES_TO_FORK
    both_cores = list(preview._rasterized(todo, 50))
    in_turn = list(preview._rasterized(todo[:preview.MIN_FACES_TO_FORK - 1], 50))
    assert both_cores[:len(in_turn)] == in_turn and all(png.startswith(b"\x89PNG") for png in both_cores)


def test_warnings_of_cached_faces_name_the_face_where_it_now_is(tmp_path):
    """--lenient: a cached face tells its warning again, at the item's line after the edit."""
    from generator.build import build
    pack = copy_pack("mini", tmp_path)
    edit(pack / "cards.yaml", 'body: "Fish & chips <b>"', 'body: "' + "Fish and chips, " * 150 + '"')
    session = preview.Session(pack, BuildRequest(out_dir=tmp_path / "live", lenient=True))
    first = session.rebuild()
    assert not first.problems and [w for w in first.result.warnings if "does not fit" in w]
    renders = session.cache.renders
    edit(pack / "cards.yaml", "groups:\n", "# a comment: every item moves down a line\ngroups:\n")
    again = session.rebuild()
    assert session.cache.renders == renders                 # nothing to draw again
    clean = build(pack, BuildRequest(out_dir=tmp_path / "clean", lenient=True)).warnings
    assert again.result.warnings == clean and clean != first.result.warnings
    assert any("cards.yaml:13:" in w and "does not fit" in w for w in clean), clean
