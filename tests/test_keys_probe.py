"""Nothing fails silently (issue 26): a key nothing reads, put into any mapping of a built-in
pack's YAML files (game.yaml, the component files, map.yaml, handout.yaml), is refused at its
file:line. tests/keys_probe.py does it one mapping at a time on a copy of the pack (one mapping per
key path); the free-form mappings it skips are listed there with why, and in the docs."""
from __future__ import annotations

import pytest

import keys_probe
from generator.maps import engine


@pytest.mark.parametrize("game", engine.GAMES)
def test_every_mapping_of_the_pack_refuses_a_stray_key_at_its_place(game, tmp_path):
    from generator.resources import BUILTIN_PACKS
    assert keys_probe.probe(BUILTIN_PACKS / game, tmp_path) == []


def test_the_probe_finds_a_mapping_that_takes_any_key(tmp_path, monkeypatch):
    """The probe can fail: with a reader that accepts anything, every mapping it tries is named,
    and the free-form ones are not tried."""
    from generator.resources import BUILTIN_PACKS
    monkeypatch.setattr(keys_probe, "problem_of", lambda pack, name: "")
    silent = keys_probe.probe(BUILTIN_PACKS / "royal-dukes", tmp_path, files=["map.yaml"])
    paths = {path for _, path, _, _ in silent}
    assert {"(top)", "layout", "layout.board", "look"} <= paths
    assert not any(p.startswith("data") or p.startswith("layout.types.village.values") for p in paths)


def test_free_form_paths_cover_what_is_below_them_only():
    assert keys_probe._free("map.yaml", "data") and keys_probe._free("map.yaml", "data.board")
    assert keys_probe._free("map.yaml", "layout.types.village.values")
    assert not keys_probe._free("map.yaml", "layout.types.village")
    assert keys_probe._free("cards.yaml", "groups[*].items[*].loot")
    assert not keys_probe._free("cards.yaml", "groups[*].items[*]")


def test_the_starter_pack_refuses_a_stray_key_everywhere(tmp_path):
    """What `pnpgen new` writes, a designer's first pack, holds no mapping that takes any key."""
    from conftest import run_cli
    code, out, err = run_cli("new", tmp_path / "my-game")
    assert code == 0, err
    assert keys_probe.probe(tmp_path / "my-game", tmp_path / "work") == []
