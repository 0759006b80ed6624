"""A pack + seed + options -> a checked layout: where a pack's map rules come from, and the search
for balanced layouts (best of a fixed number of legal candidates, so the result depends only on
the seed, never on the machine's speed).

A pack's map rules are its own map.yaml: either declared in the map vocabulary (`layout:`,
docs/maps.md), generated and checked by the generic modules `declared_gen` and `declared_check`,
or `python_rules: <name>`, the hand-written modules generator/maps/<name>_gen.py and _check.py of
a built-in game. Nothing is looked up by the pack's name, so a copied or renamed pack maps
exactly like the original.
"""
from __future__ import annotations

import copy
import importlib
import random
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from types import ModuleType

import yaml

from .. import interrupt
from ..errors import os_error_text
from ..fonts import PROJECT_ROOT
from .layout import Layout, LayoutKeys
from .rules import MapOptions, Violation

GAMES = ("royal-dukes", "shires", "lords-of-doomspire", "dragon-towers", "cones-of-dunshire")
PYTHON_RULES = GAMES            # the built-in games with hand-written rules
DEFAULT_BALANCE_TRIES = 40
# map.yaml sections a copy of a built-in pack may change while keeping the hand-written rules:
# they are read from the pack itself (the drawing, which rules are policies, the declared form)
PACK_OWN = ("look", "policies", "layout")


class MapError(Exception):
    pass


class RulesNotForThisCopy(MapError):
    """A copy of a built-in pack changes numbers its hand-written rules read from the original:
    `pnpgen map` refuses it; build and validate make everything else and say why no map."""


@dataclass(frozen=True)
class MapRules:
    """One pack's map rules: `id` is the pack's (what layouts name as their game)."""
    id: str
    root: Path
    data: dict
    gen: object                 # generate(rng, players, options), metrics(layout), score(metrics), PLAYERS
    checkers: tuple             # (name, check(layout) -> list[Violation]) each, the first one decides
    keys: LayoutKeys | None = None   # what the deciding checker lets cells and placements carry

    @property
    def checker(self):
        return self.checkers[0][1]


def builtin_root(name: str) -> Path:
    return PROJECT_ROOT / "components" / name


def rules_for(game: "str | Path | MapRules") -> MapRules:
    """The map rules of a pack given as its folder (any path), or a pack name under components/."""
    if isinstance(game, MapRules):
        return game
    root = Path(game) if isinstance(game, Path) else builtin_root(game)
    return _rules_at(root.resolve())


@lru_cache(maxsize=None)
def _rules_at(root: Path) -> MapRules:
    path = root / "map.yaml"
    if not path.is_file():
        raise MapError(f"no map rules for '{root.name}': {path} does not exist (see docs/maps.md)")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except OSError as exc:
        raise MapError(f"{path}: cannot read the map rules: {os_error_text(exc, 'file')}") from None
    except yaml.YAMLError as exc:
        raise MapError(f"{path}: cannot read the map rules: {exc}") from None
    if not isinstance(data, dict):
        raise MapError(f"{path}: map rules must be a mapping of keys")
    from ..manifest import pack_id
    game_id = pack_id(root)
    python = data.get("python_rules")
    if python is not None:
        return _python_rules(game_id, root, data, python)
    if "layout" in data:
        from . import declared
        try:
            spec = declared.load(data["layout"], path)
        except declared.DeclarationError as exc:
            raise MapError(str(exc)) from None
        checker = declared.checker(spec, game_id)
        return MapRules(game_id, root, data, declared.Generator(spec, game_id),
                        (("declared", checker.check),), checker.keys)
    raise MapError(f"{path}: declares no map rules; add a `layout:` section in the map vocabulary "
                   f"(docs/maps.md)")


def _python_rules(game_id: str, root: Path, data: dict, name) -> MapRules:
    if name not in PYTHON_RULES:
        raise MapError(f"{root / 'map.yaml'}: python_rules '{name}' is not one of {', '.join(PYTHON_RULES)}; "
                       f"write your own rules as a `layout:` section (docs/maps.md)")
    builtin = builtin_root(name)
    if builtin != root:
        _same_rules_as_builtin(root, data, builtin)
    gen, check = _module(name, "gen"), _module(name, "check")
    checkers = [("python", _renamed(check.check, game_id, name))]
    if "layout" in data:                          # the declared form: a second opinion
        from . import declared
        spec = declared.load(data["layout"], root / "map.yaml")
        checkers.append(("declared", declared.checker(spec, game_id).check))
    return MapRules(game_id, root, data, _RenamedGen(gen, game_id), tuple(checkers), check.KEYS)


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


class _RenamedGen:
    """A hand-written generator whose layouts name the pack they were made for."""

    def __init__(self, module: ModuleType, game_id: str):
        self.module, self.game_id = module, game_id
        self.PLAYERS = module.PLAYERS
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


# --- the interface the command line, build and tests use -------------------------------------

def generator_of(game) -> object:
    return rules_for(game).gen


def checker_of(game) -> ModuleType:
    rules = rules_for(game)
    return _module(rules.data["python_rules"], "check") if "python_rules" in rules.data else rules.checker


def player_counts(game) -> tuple[int, int, int]:
    """(min, max, default) player counts the rulebook allows."""
    return tuple(rules_for(game).gen.PLAYERS)


def generate(game, seed: int, players: int | None = None, options: MapOptions | None = None) -> Layout:
    rules = rules_for(game)
    gen = rules.gen
    options = options or MapOptions()
    low, high, default = gen.PLAYERS
    players = default if players is None else players
    if not low <= players <= high:
        allowed = f"{low}" if low == high else f"{low}-{high}"
        raise MapError(f"{rules.id} is for {allowed} players, not {players}")
    rng = random.Random(seed)
    tries = getattr(gen, "BALANCE_TRIES", DEFAULT_BALANCE_TRIES) if options.balance else 1
    best, best_score = None, None
    for _ in range(tries):
        # a signal whose exception was swallowed (one landing in a finalizer is only printed)
        # is still noted: stop here rather than run on through thousands of layouts
        interrupt.check()
        candidate = gen.generate(rng, players, options)
        score = gen.score(gen.metrics(candidate)) if options.balance else 0.0
        if best is None or score > best_score:
            best, best_score = candidate, score
    best.seed = seed
    best.root = rules.root
    best.metrics = {**gen.metrics(best), "balance": "on" if options.balance else "off"}
    if options.balance:
        best.metrics["score"] = round(best_score, 4)
    return best


def rules_of_layout(layout: Layout, pack: "str | Path | None" = None) -> MapRules:
    """The rules a layout is checked against: the pack given, else the pack it was made from,
    else the pack under components/ named by its game."""
    if pack is not None:
        return rules_for(pack)
    root = getattr(layout, "root", None)
    if root is not None:
        return rules_for(Path(root))
    game = getattr(layout, "game", None)
    if not isinstance(game, str) or not (builtin_root(game) / "map.yaml").is_file():
        raise MapError(f"no map rules for '{game}': name the pack whose rules to check against "
                       f"(pnpgen map PACK --check FILE.json)")
    return rules_for(game)


def check(layout: Layout, pack=None) -> list[Violation]:
    """The violations the pack's deciding checker finds, rulebook rules and policies alike (a
    policy's `policy` is set: map.yaml `policies:` lists what the generator prefers but the
    rulebook does not forbid)."""
    rules = rules_of_layout(layout, pack)
    return _marked(rules, rules.checker(layout))


def unknown_keys(layout: Layout, pack=None, where: str = "") -> list[str]:
    """'cells[3].colour: unknown key; ...' for each key of a cell or placement that the pack's
    deciding checker does not read (it would be ignored, so it is refused)."""
    keys = rules_of_layout(layout, pack).keys
    return keys.unknown(layout, where) if keys else []


def check_all(layout: Layout, pack=None) -> list[tuple[str, list[Violation]]]:
    """Every checker of the pack (hand-written and declared), each with its violations."""
    rules = rules_of_layout(layout, pack)
    return [(name, _marked(rules, run(layout))) for name, run in rules.checkers]


def broken_rules(violations: list[Violation]) -> list[Violation]:
    """What makes a layout illegal: the violations of rulebook rules, not of policies."""
    return [v for v in violations if not v.policy]


def _marked(rules: MapRules, violations) -> list[Violation]:
    policies = set(rules.data.get("policies") or ())
    return [v if v.policy or v.rule not in policies else replace(v, policy=True) for v in violations]
