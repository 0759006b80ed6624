"""The data the hand-written oracles read: a built-in pack's map.yaml (what the engine reads:
`layout`, `look`, `policies`, `data`) with the oracle's own sections laid over it, kept in
tests/map_oracles/<game>.yaml (its numbers, rulebook quotes, board and balance settings). The
engine never reads those sections, so they live beside the oracles, not in the pack: a designer
who copies a pack meets only what drives the map."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml

from generator.maps.rules import Violation
from generator.resources import BUILTIN_PACKS

HERE = Path(__file__).resolve().parent


def oracle_path(game: str) -> Path:
    return HERE / f"{game.replace('-', '_')}.yaml"


def map_data(game: str) -> dict:
    """components/<game>/map.yaml with tests/map_oracles/<game>.yaml over it (both trusted)."""
    pack = yaml.safe_load((BUILTIN_PACKS / game / "map.yaml").read_text(encoding="utf-8")) or {}
    oracle = yaml.safe_load(oracle_path(game).read_text(encoding="utf-8")) or {}
    clash = sorted(set(pack) & set(oracle))
    assert not clash, f"{oracle_path(game).name} repeats map.yaml's {clash}"
    return {**pack, **oracle}


@lru_cache(maxsize=None)
def cached_map_data(game: str) -> dict:
    """map_data read once per process, for oracles that only look."""
    return map_data(game)


class Report:
    """Collects an oracle's violations; the quote of each rule comes from its data (`rules`,
    and `structure` for the checks of a layout's shape)."""

    def __init__(self, data: dict):
        self.quotes = {**data.get("structure", {}), **data.get("rules", {})}
        self.items: list[Violation] = []

    def __call__(self, rule: str, message: str) -> None:
        self.items.append(Violation(rule, message, self.quotes.get(rule, "")))
