"""A GAME that names no pack is told in the user's terms: the folder they are in, and the
packs they could have meant by name (./components', or pnpgen's built-in ones), never the
folder pnpgen is installed in."""
from __future__ import annotations

import pytest

from conftest import copy_pack, run_cli
from generator.cli_common import spoken_folder
from generator.resources import BUILTIN_PACKS

BUILT_IN = "cones-of-dunshire, dragon-towers, lords-of-doomspire, royal-dukes, shires"


def told(*args, cwd) -> str:
    code, out, err = run_cli(*args, cwd=cwd)
    assert code == 2 and "Traceback" not in out + err and not out, (code, out, err)
    assert str(BUILTIN_PACKS) not in err and "shipped" not in err and "site-packages" not in err, err
    return err.strip()


def test_a_name_from_an_empty_folder_names_the_folder_and_the_built_in_packs(tmp_path):
    assert told("build", "zzz", cwd=tmp_path) == (
        f"error: 'zzz' is not a game pack: there is no zzz/game.yaml in this folder ({spoken_folder(tmp_path)}) nor among "
        f"pnpgen's built-in packs; built-in packs: {BUILT_IN}; pnpgen new zzz writes a starter pack")
    assert told("map", "royal-duke", cwd=tmp_path) == (
        f"error: 'royal-duke' is not a game pack: there is no royal-duke/game.yaml in this folder ({spoken_folder(tmp_path)}) "
        f"nor among pnpgen's built-in packs; did you mean 'royal-dukes'? (built-in packs: {BUILT_IN})")
    assert told("handout", "zzz", cwd=tmp_path) == (
        f"error: no handout for 'zzz': there is no zzz/handout.yaml in this folder ({spoken_folder(tmp_path)}) nor among "
        "pnpgen's built-in packs")


def test_a_name_beside_a_components_folder_names_that_folder_and_its_packs(tmp_path):
    copy_pack("mini", tmp_path / "components")
    assert told("validate", "minj", cwd=tmp_path) == (
        f"error: 'minj' is not a game pack: neither minj/ nor components/minj/ in this folder ({spoken_folder(tmp_path)}) has a "
        "game.yaml; did you mean 'mini'? (packs in components/: mini)")


@pytest.mark.parametrize("path", ["./zzz", "games/zzz"])
def test_a_path_is_told_as_that_path(path, tmp_path):
    assert told("build", path, cwd=tmp_path) == (
        f"error: '{path}' is not a game pack: {path} has no game.yaml (a pack is a folder with one); "
        f"pnpgen new {path} writes a starter pack there")
