"""A pack path on the command line always means that path, never the built-in pack of that name."""
import json
import re

import pytest
import pymupdf

from conftest import ROOT, copy_pack, run_cli


@pytest.fixture
def edited_copy(tmp_path):
    pack = copy_pack("royal-dukes", tmp_path)
    game = pack / "game.yaml"
    game.write_text(game.read_text().replace("title: Royal Dukes", "title: Royal Dukes Edited", 1))
    assert "Royal Dukes Edited" in game.read_text()
    return pack


@pytest.mark.parametrize("spelling", ["./royal-dukes", "royal-dukes", "{tmp}/royal-dukes"])
def test_build_and_validate_take_the_folder_named(edited_copy, tmp_path, spelling):
    game = spelling.format(tmp=tmp_path)
    code, out, err = run_cli("validate", game, cwd=tmp_path)
    assert code == 0 and "ok" in out, err
    assert str(ROOT / "components") not in out and "components/royal-dukes" not in out, out
    (edited_copy / "counters.yaml").write_text("groups: oops\n")      # the copy is what is checked
    code, _, err = run_cli("validate", game, cwd=tmp_path)
    assert code == 1 and "counters.yaml" in err


def test_build_of_a_dot_path_builds_the_edited_copy(edited_copy, tmp_path):
    code, _, err = run_cli("build", "./royal-dukes", "--out", "out", "--quiet", cwd=tmp_path)
    assert code == 0, err
    assert json.loads((tmp_path / "out" / "royal-dukes" / "build.json").read_text())["title"] == "Royal Dukes Edited"


def test_handout_of_a_dot_path_uses_the_edited_copy(edited_copy, tmp_path):
    handout = edited_copy / "handout.yaml"
    handout.write_text(handout.read_text().replace("Goal and end of game", "Goal of the edited game"))
    code, _, err = run_cli("handout", "./royal-dukes", "--out", "out", cwd=tmp_path)
    assert code == 0, err
    text = pymupdf.open(tmp_path / "out" / "royal-dukes" / "royal-dukes-handout.pdf")[0].get_text()
    assert "Goal of the edited game" in text


def test_a_path_that_is_not_a_pack_is_an_error_not_the_built_in_pack(tmp_path):
    (tmp_path / "royal-dukes").mkdir()
    code, _, err = run_cli("validate", "./royal-dukes", cwd=tmp_path)
    assert code == 2 and "is not a game pack" in err


def test_validate_inside_a_pack_names_it_by_its_folder_not_dot(tmp_path):
    """Run in the pack's folder, the summary line names the pack, as build's does, not '.'."""
    pack = copy_pack("mini", tmp_path)
    code, out, _ = run_cli("validate", cwd=pack)
    assert code == 0 and out.startswith("mini: ok (")
    (pack / "templates" / "card.svg.j2").write_text("{{ item.nope.nope }}\n")
    code, _, err = run_cli("validate", cwd=pack)
    assert code == 1 and re.fullmatch(r"mini: \d+ problem\(s\); build would refuse this pack", err.splitlines()[-1])
