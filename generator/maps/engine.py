"""Game name + seed + options -> a checked layout: the registry of map games and the search for
balanced layouts (best of a fixed number of legal candidates, so the result depends only on the
seed, never on the machine's speed).
"""
from __future__ import annotations

import importlib
import random
from types import ModuleType

from .layout import Layout
from .rules import MapOptions, Violation

GAMES = ("royal-dukes", "shires", "lords-of-doomspire", "dragon-towers", "cones-of-dunshire")
DEFAULT_BALANCE_TRIES = 40


class MapError(Exception):
    pass


def _module(game: str, part: str) -> ModuleType:
    if game not in GAMES:
        raise MapError(f"no map rules for '{game}'; games with maps: {', '.join(GAMES)}")
    return importlib.import_module(f"{__package__}.{game.replace('-', '_')}_{part}")


def generator_of(game: str) -> ModuleType:
    return _module(game, "gen")


def checker_of(game: str) -> ModuleType:
    return _module(game, "check")


def player_counts(game: str) -> tuple[int, int, int]:
    """(min, max, default) player counts the rulebook allows."""
    return tuple(generator_of(game).PLAYERS)


def generate(game: str, seed: int, players: int | None = None, options: MapOptions | None = None) -> Layout:
    gen = generator_of(game)
    options = options or MapOptions()
    low, high, default = gen.PLAYERS
    players = default if players is None else players
    if not low <= players <= high:
        raise MapError(f"{game} is for {low}-{high} players, not {players}")
    rng = random.Random(seed)
    tries = getattr(gen, "BALANCE_TRIES", DEFAULT_BALANCE_TRIES) if options.balance else 1
    best, best_score = None, None
    for _ in range(tries):
        candidate = gen.generate(rng, players, options)
        score = gen.score(gen.metrics(candidate)) if options.balance else 0.0
        if best is None or score > best_score:
            best, best_score = candidate, score
    best.seed = seed
    best.metrics = {**gen.metrics(best), "balance": "on" if options.balance else "off"}
    if options.balance:
        best.metrics["score"] = round(best_score, 4)
    return best


def check(layout: Layout) -> list[Violation]:
    return list(checker_of(layout.game).check(layout))
