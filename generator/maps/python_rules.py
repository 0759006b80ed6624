"""The hand-written map rules of a built-in game (`python_rules: <name>` in its map.yaml) -> the
engine's generator, checkers and layout keys. Only Royal Dukes is left: its `--relaxed` (at most
five settlements on the side and five touching pairs, used only when needed) has no declared form
yet. The other four games are declared, their hand-written modules kept as test oracles in
tests/map_oracles/. When Royal Dukes is declared too, this module goes (see engine.py).
"""
from __future__ import annotations

import copy
import importlib
from pathlib import Path
from types import ModuleType

import yaml

from ..resources import BUILTIN_PACKS
from .layout import Layout
from .rules import MapError, Violation

PYTHON_RULES = ("royal-dukes",)       # the built-in games whose hand-written rules are in generator/maps/
DEFAULT_BALANCE_TRIES = 40
# map.yaml sections a copy of a built-in pack may change while keeping the hand-written rules:
# they are read from the pack itself (the drawing, which rules are policies, the declared form)
PACK_OWN = ("look", "policies", "layout")


class RulesNotForThisCopy(MapError):
    """A copy of a built-in pack changes numbers its hand-written rules read from the original:
    `pnpgen map` refuses it; build and validate make everything else and say why no map."""


def load(game_id: str, root: Path, data: dict) -> tuple:
    """(generator, checkers, layout keys) of the pack's hand-written rules; its declared form, where
    it has one, checks as a second opinion."""
    name = data["python_rules"]
    if name not in PYTHON_RULES:
        raise MapError(f"{root / 'map.yaml'}: python_rules '{name}' is not one of {', '.join(PYTHON_RULES)}; "
                       f"write your own rules as a `layout:` section (docs/maps.md)")
    builtin = BUILTIN_PACKS / name
    if builtin != root:
        _same_rules_as_builtin(root, data, builtin)
    gen, check = _module(name, "gen"), _module(name, "check")
    checkers = [("python", _renamed(check.check, game_id, name))]
    if "layout" in data:                          # the declared form: a second opinion
        from . import declared, declared_check
        declared.load(data["layout"], root / "map.yaml")
        checkers.append(("declared", declared_check.Checker(root / "map.yaml", game_id).check))
    return RenamedGen(gen, game_id), tuple(checkers), check.KEYS


def _same_rules_as_builtin(root: Path, data: dict, builtin: Path) -> None:
    """The hand-written rules read their numbers from the built-in pack: a copy that changes them
    would be ignored, so it is refused (the PACK_OWN sections may differ)."""
    original = yaml.safe_load((builtin / "map.yaml").read_text(encoding="utf-8")) or {}
    changed = sorted(k for k in set(data) | set(original)
                     if k not in PACK_OWN and data.get(k) != original.get(k))
    if changed:
        raise RulesNotForThisCopy(f"{root / 'map.yaml'}: changes {', '.join(changed)} of the built-in rules "
                                  f"'{data['python_rules']}', which are written in Python and read the built-in "
                                  f"numbers; remove python_rules and declare the map in the vocabulary "
                                  f"(`layout:`, docs/maps.md) to change them")


def _module(name: str, part: str) -> ModuleType:
    return importlib.import_module(f"{__package__}.{name.replace('-', '_')}_{part}")


class RenamedGen:
    """A hand-written generator whose layouts name the pack they were made for."""

    def __init__(self, module: ModuleType, game_id: str):
        self.module, self.game_id = module, game_id
        self.PLAYERS = module.PLAYERS
        self.OPTIONS = getattr(module, "OPTIONS", ())
        self.BALANCE_TRIES = getattr(module, "BALANCE_TRIES", DEFAULT_BALANCE_TRIES)

    def generate(self, rng, players, options):
        layout = self.module.generate(rng, players, options)
        layout.game = self.game_id
        return layout

    def metrics(self, layout):
        return self.module.metrics(layout)

    def score(self, metrics):
        return self.module.score(metrics)


def _renamed(check, game_id: str, name: str):
    """A hand-written checker knows its game by the built-in name; the pack's id stands for it."""
    def run(layout: Layout) -> list[Violation]:
        if getattr(layout, "game", None) == game_id and game_id != name:
            layout = copy.copy(layout)
            layout.game = name
        return list(check(layout))
    return run
