"""Broken manifests: each gives file:line:col with what is wrong and how to fix it, exit code 1,
no traceback, and leaves earlier output untouched."""
import re
from pathlib import Path

import pytest

from conftest import copy_pack, run_cli


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"fixture changed: {old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1))


def validate(pack: Path):
    code, out, err = run_cli("validate", pack)
    assert "Traceback" not in out + err
    return code, err


# (file, old text, new text, expected message, line) - one broken thing each
CASES = {
    "yaml-syntax": ("cards.yaml", "    kind: card\n", "    kind: [card\n", r"cards\.yaml:\d+:\d+: YAML syntax", None),
    "tab-indent": ("board.yaml", "  - id: board\n", "\t- id: board\n", r"board\.yaml:2:1: YAML syntax: .*indent with spaces, not tabs", 2),
    "unknown-key": ("cards.yaml", "    size: poker\n", "    size: poker\n    bleeed: 2mm\n", r"cards\.yaml:5:5: unknown key 'bleeed' in groups\[1\]; did you mean 'bleed'\?", 5),
    "wrong-type": ("cards.yaml", "rulebook_count: 12", "rulebook_count: twelve", r"cards\.yaml:8:21: groups\[1\]\.rulebook_count must be a whole number, not text", 8),
    "missing-key": ("cards.yaml", "    size: poker\n", "", r"cards\.yaml:2:5: groups\[1\]: missing required key 'size'; add 'size:'", 2),
    "missing-template": ("cards.yaml", "template: card.svg.j2", "template: cardz.svg.j2", r"cards\.yaml:6:15: template 'cardz\.svg\.j2' not found", 6),
    "missing-font": ("game.yaml", "family: Liberation Sans}", "family: Comic Sans}", r"game\.yaml:\d+:\d+: font role 'body': family 'Comic Sans' \(normal, normal\) is not in fonts/; use one of Liberation Sans, Liberation Serif", None),
    "miscount": ("cards.yaml", "rulebook_count: 12", "rulebook_count: 13", r"cards\.yaml:8:21: group 'cards' has 12 components \(sum of copies\) but rulebook_count is 13; fix the copies", 8),
    "duplicate-key": ("cards.yaml", "    kind: card\n", "    kind: card\n    kind: tile\n", r"cards\.yaml:4:5: duplicate key 'kind' \(first at line 3\); remove one", 4),
    "python-tag": ("cards.yaml", "size: poker", "size: !!python/object/apply:os.system ['true']", r"cards\.yaml:\d+:\d+: YAML syntax: .*only plain data is allowed", None),
    "bad-choice": ("cards.yaml", "kind: card", "kind: crad", r"cards\.yaml:3:11: groups\[1\]\.kind is 'crad', which is not one of card, tile, chit, mat; did you mean 'card'\?", 3),
    "bad-length": ("cards.yaml", "size: poker", "size: 5 m", r"cards\.yaml:4:11: groups\[1\]\.size: '5 m' is not a length", 4),
    "huge-card": ("cards.yaml", "size: poker", "size: {width: 63mm, height: 5000mm}", r"groups\[1\]\.size\.height is 5000 mm, above the largest allowed 2000 mm", None),
    "huge-deck": ("cards.yaml", "copies: 2", "copies: 10000000", r"copies is 1e\+07, above the largest allowed 100000", None),
    "bad-color": ("game.yaml", 'card: "#00ff00"', 'card: "green-ish"', r"game\.yaml:\d+:\d+: palette\.card must be a colour written '#rrggbb'", None),
    "empty-file": ("board.yaml", None, "", r"board\.yaml:1:1: file is empty", 1),
    "not-utf8": ("board.yaml", None, b"groups: [\xff\xfe]\n", r"board\.yaml:1:1: file is not UTF-8 text; save it as UTF-8", 1),
    "icon-outside": ("game.yaml", "icons: {star: icons/star.svg}", "icons: {star: ../../etc/passwd}", r"icon 'star': '\.\./\.\./etc/passwd' points outside the game pack", None),
    "vary-unknown": ("cards.yaml", "vary: {n: 1..10}", "vary: {m: 1..10}", r"vary names 'm', which is not in the group's fields", None),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_broken_manifest_is_reported_with_its_position(case, tmp_path):
    file, old, new, pattern, line = CASES[case]
    pack = copy_pack("mini", tmp_path)
    if old is None:
        (pack / file).write_bytes(new if isinstance(new, bytes) else new.encode())
    else:
        edit(pack / file, old, new)
    code, err = validate(pack)
    assert code == 1
    assert re.search(pattern, err), err
    if line is not None:
        assert re.search(rf"{re.escape(file)}:{line}:", err)


def test_every_problem_of_a_run_is_reported(tmp_path):
    pack = copy_pack("mini", tmp_path)
    edit(pack / "cards.yaml", "size: poker", "sise: poker")
    edit(pack / "cards.yaml", "template: card.svg.j2", "template: nope.svg.j2")
    edit(pack / "game.yaml", "family: Liberation Sans}", "family: Nope Sans}")
    code, err = validate(pack)
    assert code == 1
    assert "unknown key 'sise'" in err and "template 'nope.svg.j2' not found" in err and "Nope Sans" in err


def test_a_failed_build_leaves_earlier_output_untouched(tmp_path):
    pack = copy_pack("mini", tmp_path)
    out = tmp_path / "out"
    code, _, err = run_cli("build", pack, "--out", out, "--quiet")
    assert code == 0, err
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in (out / "mini").iterdir()}
    edit(pack / "cards.yaml", "rulebook_count: 12", "rulebook_count: 11")
    code, _, err = run_cli("build", pack, "--out", out, "--quiet")
    assert code == 1 and "Traceback" not in err
    assert "not built, earlier output left as it was" in err
    after = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in (out / "mini").iterdir()}
    assert after == before


def test_text_that_cannot_fit_names_the_card(tmp_path):
    pack = copy_pack("mini", tmp_path)
    edit(pack / "cards.yaml", 'body: "Fish & chips <b>"', "body: \"" + "Very long rules text. " * 80 + "\"")
    code, out, err = run_cli("build", pack, "--out", tmp_path / "out", "--quiet")
    assert code == 1 and "Traceback" not in err
    assert re.search(r"cards\.yaml: group 'cards', item 'escape' \(front\): template card\.svg\.j2 line 4: "
                     r"text 'Very long rules text\..*' does not fit its 53 x 40 mm box even at 6 pt", err), err
    code, out, err = run_cli("build", pack, "--out", tmp_path / "out", "--quiet", "--lenient")
    assert code == 0 and "warning: text 'Very long" in err


def test_a_character_the_font_lacks_is_reported(tmp_path):
    pack = copy_pack("mini", tmp_path)
    edit(pack / "cards.yaml", "title: Plain", "title: \"Plain \u2658\"")
    code, out, err = run_cli("build", pack, "--out", tmp_path / "out", "--quiet")
    assert code == 1 and "Traceback" not in err
    assert "item 'plain-1' (front)" in err and "has no glyph for '\u2658' (U+2658)" in err


def test_unknown_game_is_a_usage_error(tmp_path):
    code, out, err = run_cli("build", "no-such-game", "--out", tmp_path)
    assert code == 2 and "'no-such-game' is not a game pack" in err and "royal-dukes" in err


def test_bad_option_is_a_usage_error(tmp_path):
    code, out, err = run_cli("build", "royal-dukes", "--paper", "a5", "--out", tmp_path)
    assert code == 2 and "invalid choice: 'a5'" in err
