"""A version on every face (game.yaml `version`, --version), inside the safe zone, on the page guide."""
from __future__ import annotations

import shutil

import pymupdf
import pytest

from conftest import FIXTURES, MM, run_cli
from generator.build import BuildRequest, plan_sheets
from generator.manifest import load_pack
from generator.version import SAFE, stamp


def versioned_mini(tmp_path, version="v0.3", cards_extra="") -> object:
    pack = tmp_path / "mini"
    shutil.copytree(FIXTURES / "mini", pack)
    with open(pack / "game.yaml", "a") as handle:
        handle.write(f"version: {version}\n")
    if cards_extra:
        cards = pack / "cards.yaml"
        cards.write_text(cards.read_text().replace("    kind: card\n", f"    kind: card\n{cards_extra}"))
    return pack


def build(pack, out, *options):
    code, stdout, stderr = run_cli("build", pack, "--out", out, "-q", *options)
    assert code == 0, stderr
    return out / "mini"


def version_words(pack, pdf, word: str):
    """Per face placed on the sheets: (side, the version words inside its trim as mm boxes, trim box)."""
    game = load_pack(pack)
    sheets = plan_sheets(game, [g for g in game.groups if g.kind != "mat"], BuildRequest(), "sheets")
    out = []
    for page, sheet in zip(pymupdf.open(pdf), sheets):
        found = [tuple(v / MM for v in w[:4]) for w in page.get_text("words") if w[4] == word]
        for p in sheet.placements:
            inside = [b for b in found if p.x <= b[0] and b[2] <= p.x + p.w and p.y <= b[1] and b[3] <= p.y + p.h]
            out.append((p.face.side, inside, (p.x, p.y, p.w, p.h)))
    return out


def test_every_face_shows_the_version_inside_its_safe_zone(tmp_path):
    pack = versioned_mini(tmp_path)
    folder = build(pack, tmp_path / "out")
    faces = version_words(pack, folder / "mini-sheets.pdf", "v0.3")
    assert len(faces) == 24 and {side for side, _, _ in faces} == {"front", "back"}
    for side, boxes, (x, y, w, h) in faces:
        assert len(boxes) == 1, side
        left, top, right, bottom = boxes[0]
        assert right <= x + w - 3.0 and bottom <= y + h - 3.0            # 3 mm safe zone at the trim
        assert right == pytest.approx(x + w - SAFE, abs=0.4)            # the bottom-right corner
        assert bottom - top < 2.5                                         # small: 1.4 mm text


def test_page_guide_names_the_version(tmp_path):
    folder = build(versioned_mini(tmp_path), tmp_path / "out")
    for page in pymupdf.open(folder / "mini-sheets.pdf"):
        assert "Test Pack v0.3 | " in page.get_text()
    assert __import__("json").loads((folder / "build.json").read_text())["version"] == "v0.3"


def test_a_group_places_it_or_turns_it_off(tmp_path):
    pack = versioned_mini(tmp_path, cards_extra="    version_mark: top-left\n    version_size: 2.5mm\n")
    folder = build(pack, tmp_path / "out")
    for side, boxes, (x, y, w, h) in version_words(pack, folder / "mini-sheets.pdf", "v0.3"):
        (left, top, right, bottom), = boxes
        assert left == pytest.approx(x + SAFE, abs=0.3) and top >= y + 3.0 and bottom - top > 2.5
    off = versioned_mini(tmp_path / "off", cards_extra="    version_mark: 'off'\n")
    folder = build(off, tmp_path / "out-off")
    assert all(not boxes for _, boxes, _ in version_words(off, folder / "mini-sheets.pdf", "v0.3"))


def test_command_line_version_wins_and_empty_is_none(tmp_path):
    pack = versioned_mini(tmp_path)
    text = pymupdf.open(build(pack, tmp_path / "a", "--version", "2.0-rc1") / "mini-sheets.pdf")[0].get_text()
    assert "2.0-rc1" in text and "v0.3" not in text
    text = pymupdf.open(build(pack, tmp_path / "b", "--version", "") / "mini-sheets.pdf")[0].get_text()
    assert "v0.3" not in text and "Test Pack | " in text


def test_templates_read_it(tmp_path):
    pack = versioned_mini(tmp_path)
    template = pack / "templates" / "card-back.svg.j2"
    template.write_text(template.read_text() + "{{ text_line('edition ' ~ game.version, 5, 60, 50, size=7) }}")
    folder = build(pack, tmp_path / "out")
    assert "edition v0.3" in pymupdf.open(folder / "mini-sheets.pdf")[1].get_text()


def test_a_new_version_alone_changes_no_face(tmp_path):
    """The version is drawn over the faces, not into them: nothing to reprint."""
    pack = versioned_mini(tmp_path, "v1")
    shutil.copytree(build(pack, tmp_path / "out"), tmp_path / "old")
    code, stdout, stderr = run_cli("build", pack, "--out", tmp_path / "out", "--version", "v2",
                                   "--changes-since", tmp_path / "old")
    assert code == 0, stderr
    assert "nothing changed since" in stdout


def test_hexes_and_circles_centre_it():
    s = stamp("v2", "bottom-right", 1.4, 40.0, 46.2, "hexagon")
    assert s.anchor == "middle" and s.x == pytest.approx(20.0) and s.y == pytest.approx(46.2 * 0.8)
    assert stamp("v2", "off", 1.4, 40, 40, "rect") is None and stamp("", "top", 1.4, 40, 40, "rect") is None


def test_bad_version_refused_at_its_line(tmp_path):
    pack = versioned_mini(tmp_path, '"v2 <b>"')
    code, _, stderr = run_cli("validate", pack)
    assert code == 1 and "game.yaml:" in stderr and "version 'v2 <b>' is not allowed here" in stderr
