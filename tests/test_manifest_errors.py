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


BAD_INPUTS = Path(__file__).parent / "bad_inputs"


def overlay(case: str, pack: Path) -> tuple[str, str]:
    """Copy a bad_inputs/<case>/ folder's files over the mini pack; return (pattern, line spec)."""
    for path in sorted((BAD_INPUTS / case).rglob("*")):
        if path.is_file() and path.name != "expected.txt":
            target = pack / path.relative_to(BAD_INPUTS / case)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
    lines = (BAD_INPUTS / case / "expected.txt").read_text().splitlines()
    return lines[0], (lines[1].removeprefix("line ") if len(lines) > 1 else "")


@pytest.mark.parametrize("case", sorted(p.name for p in BAD_INPUTS.iterdir()))
def test_broken_manifest_is_reported_with_its_position(case, tmp_path):
    """tests/bad_inputs/<case>/ holds the broken file(s) and expected.txt the pinned message."""
    pack = copy_pack("mini", tmp_path)
    pattern, line = overlay(case, pack)
    code, err = validate(pack)
    assert code == 1
    assert re.search(pattern, err), err
    if line:
        assert re.search(rf"{re.escape(line)}:", err), err


def test_every_problem_of_a_run_is_reported(tmp_path):
    pack = copy_pack("mini", tmp_path)
    edit(pack / "cards.yaml", "size: poker", "sise: poker")
    edit(pack / "cards.yaml", "template: card.svg.j2", "template: nope.svg.j2")
    edit(pack / "game.yaml", "family: Liberation Sans}", "family: Nope Sans}")
    code, err = validate(pack)
    assert code == 1
    assert "unknown key 'sise'" in err and "template 'nope.svg.j2' not found" in err and "Nope Sans" in err


@pytest.mark.parametrize("size, hint", [
    ("pokr", "did you mean 'poker'?"),
    ("huge", "use one of poker, poker-us, mini, mini-us, bridge, tarot, square, a length, or width/height"),
])
def test_an_unknown_size_name_offers_the_closest_one(tmp_path, size, hint):
    pack = copy_pack("mini", tmp_path)
    edit(pack / "cards.yaml", "size: poker", f"size: {size}")
    code, err = validate(pack)
    assert code == 1 and re.search(rf"cards\.yaml:\d+:\d+: groups\[1\]\.size: unknown size name '{size}'; {re.escape(hint)}", err), err


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
    assert re.search(r"cards\.yaml:\d+:\d+: group 'cards', item 'escape' \(front\): template card\.svg\.j2 line 4: "
                     r"text 'Very long rules text\..*' does not fit its 53 x 40 mm box even at 6 pt", err), err
    code, out, err = run_cli("build", pack, "--out", tmp_path / "out", "--quiet", "--lenient")
    assert code == 0 and re.search(r"warning: .*cards\.yaml:\d+:\d+: .*text 'Very long", err)


def test_a_character_the_font_lacks_is_reported(tmp_path):
    pack = copy_pack("mini", tmp_path)
    edit(pack / "cards.yaml", "title: Plain", "title: \"Plain \u2658\"")
    code, out, err = run_cli("build", pack, "--out", tmp_path / "out", "--quiet")
    assert code == 1 and "Traceback" not in err
    assert "item 'plain-1' (front)" in err and "has no glyph for '\u2658' (U+2658" in err


def test_unknown_game_is_a_usage_error(tmp_path):
    code, out, err = run_cli("build", "no-such-game", "--out", tmp_path)
    assert code == 2 and "'no-such-game' is not a game pack" in err and "royal-dukes" in err


@pytest.mark.parametrize("command", ["build", "map"])
def test_a_misspelt_game_names_the_closest_pack(tmp_path, command):
    code, out, err = run_cli(command, "royal-duke", "--out", tmp_path)
    assert code == 2 and "'royal-duke' is not a game pack" in err and "Traceback" not in err
    assert "has a game.yaml; did you mean 'royal-dukes'? (packs in components/: cones-of-dunshire, dragon-towers," in err


def test_bad_option_is_a_usage_error(tmp_path):
    code, out, err = run_cli("build", "royal-dukes", "--paper", "a5", "--out", tmp_path)
    assert code == 2 and "invalid choice: 'a5'" in err


@pytest.mark.parametrize("words, usage, told", [
    (["bulid"], "usage: pnpgen [-h]", "pnpgen: error: unknown command 'bulid'; did you mean 'build'? (pnpgen --help "
                                      "tells what each of list, validate, build,"),
    (["xyz"], "usage: pnpgen [-h]", "pnpgen: error: unknown command 'xyz'; pnpgen --help tells what each of list,"),
    (["build", "--papr=a3"], "usage: pnpgen build [-h] [--paper",
     "pnpgen build: error: unrecognized arguments: --papr=a3; did you mean '--paper'? (pnpgen build --help lists them)"),
    (["export", "png", "--dpii", "300"], "usage: pnpgen export [-h] [--dpi DPI]",
     "pnpgen export: error: unrecognized arguments: --dpii 300; did you mean '--dpi'?"),
    (["map", "royal-dukes", "extra"], "usage: pnpgen map [-h]", "pnpgen map: error: unrecognized arguments: extra\n"),
    (["-q", "build"], "usage: pnpgen build [-h]",
     "pnpgen build: error: unrecognized arguments: -q; write -q after the command: pnpgen build -q ..."),
])
def test_a_misspelt_command_or_option_is_told_in_its_commands_usage_with_the_closest(words, usage, told, capsys):
    """Exit 2, no traceback; the usage shown is the command's own (its options), not the list of commands."""
    from generator import cli
    with pytest.raises(SystemExit) as stop:
        cli.parse(words)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.startswith(usage) and told in err and "Traceback" not in err


def test_references_read_map_and_data_per_player(tmp_path):
    """'=map...' and '=data...' values, with {player} the seat, are resolved at load time."""
    from generator.manifest import load_pack
    pack = copy_pack("mini", tmp_path)
    (pack / "map.yaml").write_text("data: {per_seat: {1: [1, 2], 2: [3]}, count: 4}\n")
    edit(pack / "game.yaml", "defaults:", "data: {backs: 2}\ndefaults:")
    (pack / "chits.yaml").write_text(
        "groups:\n  - id: chits\n    kind: chit\n    size: 20mm\n    template: card.svg.j2\n"
        "    per_player: true\n    fields: {n: int, title: text, body: text}\n    items:\n"
        "      - {id: c, copies: \"=map.data.count\", vary: {n: \"=map.data.per_seat.{player}\"}, title: T, body: B}\n"
        "      - {id: d, copies: \"=data.backs\", title: T, body: B}\n")
    game = load_pack(pack)
    chits = next(g for g in game.groups if g.id == "chits")
    assert [(i.id, i.copies) for i in chits.items] == [("c-1-red", 4), ("c-2-red", 4), ("d-red", 2),
                                                      ("c-3-blue", 4), ("d-blue", 2)]
    edit(pack / "chits.yaml", "=map.data.count", "=map.data.cuont")
    code, err = validate(pack)
    assert code == 1 and re.search(r"chits\.yaml:9:\d+: '=map\.data\.cuont': no 'cuont' there", err), err
    assert err.count("'=map.data.cuont'") == 1          # reported once, not once per player


def test_a_broken_game_yaml_is_reported_without_its_consequences(tmp_path):
    # per_player groups cannot be expanded without game.yaml's players: that is game.yaml's
    # error alone, not one more per group claiming game.yaml lists no player colours
    pack = copy_pack("royal-dukes", tmp_path)
    (pack / "game.yaml").write_text("title: [Royal Dukes\n")
    code, _, err = run_cli("validate", pack)
    assert code == 1 and "game.yaml:" in err, err
    assert "per_player" not in err and "player_colors" not in err, err


def test_a_yaml_merge_with_an_override_is_accepted(tmp_path):
    """`<<: *anchor` then a key of the mapping's own: the own value wins, as YAML says; only a
    key written twice by hand is a duplicate."""
    from generator.manifest import load_pack
    pack = copy_pack("mini", tmp_path)
    edit(pack / "cards.yaml", '- {id: escape,', '- &escape {id: escape,')
    edit(pack / "cards.yaml", "rulebook_count: 12", "rulebook_count: 13")
    (pack / "cards.yaml").write_text((pack / "cards.yaml").read_text()
                                     + "      - {<<: *escape, id: third, title: Third, copies: 1}\n")
    cards = next(g for g in load_pack(pack).groups if g.id == "cards")
    third = next(i for i in cards.items if i.id == "third")
    assert (third.copies, third.data["title"], third.data["body"]) == (1, "Third", "Fish & chips <b>")
    edit(pack / "cards.yaml", "id: third, title: Third,", "id: third, title: Third, title: Again,")
    code, err = validate(pack)
    assert code == 1 and re.search(r"cards\.yaml:13:\d+: duplicate key 'title' \(first at line 13\)", err), err


def test_text_is_checked_on_the_face_where_its_transforms_put_it(tmp_path):
    """A label turned a quarter round the card's centre lies on the face and is accepted; the
    same label moved 60 mm right runs off the 63 mm card and is an error naming the line."""
    pack = copy_pack("mini", tmp_path)
    card = pack / "templates" / "card.svg.j2"
    card.write_text('<rect width="63" height="88" fill="#fff"/>\n'
                    '<g transform="rotate(90 31.5 44)">{{ text_line("Turned label", 10, 44, 43) }}</g>\n'
                    '<g transform="translate(0 80)"><text x="5" y="5" font-size="3">Own text</text></g>\n')
    code, err = validate(pack)
    assert code == 0, err
    card.write_text(card.read_text().replace("rotate(90 31.5 44)", "translate(60 0)"))
    code, err = validate(pack)
    assert code == 1 and re.search(r"template card\.svg\.j2 line 2: text 'Turned label' is drawn outside its "
                                   r"63 x 88 mm face \(from x 8\d\.\d, y 4\d\.\d to x 10\d\.\d", err), err


def test_a_template_fault_is_told_once_with_the_number_of_items_it_affects(tmp_path):
    pack = copy_pack("mini", tmp_path)
    template = pack / "templates" / "card.svg.j2"
    template.write_text(template.read_text() + '<rect width="3" height="3" fill="{{ palette.gld }}"/>\n')
    code, err = validate(pack)
    lines = err.strip().splitlines()
    assert code == 1 and len(lines) == 2, err
    assert re.fullmatch(r".*cards\.yaml:11:9: group 'cards', item 'plain-1' \(front\): template card\.svg\.j2 line 6: "
                        r"the palette has no colour 'gld' \(its colours: ink, card, back\); add it to game\.yaml's "
                        r"palette, or use one of its colours \(the same on 10 more items\)", lines[0]), lines[0]


def test_build_reports_every_problem_not_only_the_first(tmp_path):
    """Three faults on faces of two templates and one item: build names all three, each once."""
    pack = copy_pack("mini", tmp_path)
    card = pack / "templates" / "card.svg.j2"
    card.write_text(card.read_text() + '<rect width="3" height="3" fill="redd"/>\n')
    (pack / "templates" / "card-back.svg.j2").write_text("{{ text_line('Back', 5, 100, 30) }}\n")
    edit(pack / "cards.yaml", 'body: "Fish & chips <b>"', "body: \"" + "Very long rules text. " * 80 + "\"")
    code, out, err = run_cli("build", pack, "--out", tmp_path / "out", "--quiet")
    assert code == 1 and "Traceback" not in err
    found = [line for line in err.splitlines() if line.startswith("error: ")]
    assert len(found) == 3, err
    redd, back, long_text = found            # in face order: plain-1 front, plain-1 back, ..., escape
    assert "item 'plain-1' (front): template card.svg.j2 line 6: fill='redd' is not a colour" in redd
    assert redd.endswith("(the same on 9 more items)")         # escape's front stops at its text first
    assert "item 'plain-1' (back): template card-back.svg.j2 line 1: text 'Back' is drawn outside" in back
    assert back.endswith("(the same on 10 more items)")
    assert "item 'escape' (front): template card.svg.j2 line 4: text 'Very long rules text." in long_text
    assert not (tmp_path / "out" / "mini").exists()


def test_text_off_its_face_is_a_warning_with_lenient(tmp_path):
    pack = copy_pack("mini", tmp_path)
    (pack / "templates" / "card.svg.j2").write_text('{{ text_line("Low", 5, 100, 40) }}\n')
    code, out, err = run_cli("build", pack, "--out", tmp_path / "out", "--quiet", "--lenient")
    assert code == 0, err
    assert re.search(r"warning: .*item 'plain-1' \(front\): template card\.svg\.j2 line 1: text 'Low' is drawn outside "
                     r"its 63 x 88 mm face .* \(the same on \d+ more faces\)", err), err
