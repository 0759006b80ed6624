"""What a checker reports, the options a map is made with, and the interface of a generator.

A generator (declared_gen.Generator, and the hand-written oracles under tests/map_oracles/) has
generate(rng, players, options) -> Layout, metrics(layout) -> dict and score(metrics) -> float
(higher is fairer); a checker, written apart so it never trusts the generator, has
check(layout) -> list[Violation]. A game's rules and rulebook quotes are its map.yaml.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


class MapError(Exception):
    """A pack's map rules cannot be read or met (said to the user as it is, without a traceback)."""


def read_map_yaml(path: Path) -> dict:
    """A pack's map.yaml (or game.yaml) as plain data, through the same checked loader as every
    manifest: bounded size, nesting and alias expansion, each problem as file:line:col."""
    from ..errors import Reporter, os_error_text
    from ..yamlsrc import load_yaml
    try:
        with open(path, "rb"):          # an unreadable file is said as before, with what to check
            pass
    except OSError as exc:
        raise MapError(f"{path}: cannot read the map rules: {os_error_text(exc, 'file')}") from None
    reporter = Reporter()
    data = load_yaml(Path(path), reporter)
    if reporter.errors:
        raise MapError("; ".join(str(p) for p in reporter.errors))
    if data is None:
        return {}
    if not isinstance(data, dict):
        from ..errors import display_path
        raise MapError(f"{display_path(Path(path))}:1:1: must be a mapping of keys, not a "
                       f"{'list' if isinstance(data, list) else type(data).__name__}")
    return data


@dataclass(frozen=True)
class Violation:
    rule: str          # short id, e.g. "settlement-count"
    message: str       # what is wrong in this layout, naming cells
    quote: str         # the rulebook sentence the rule comes from
    policy: bool = False   # the generator's preference, not something the rulebook forbids

    def __str__(self) -> str:
        source = "house policy" if self.policy else "rulebook"
        return f"{self.rule}: {self.message}\n    {source}: \"{self.quote}\""


@dataclass
class MapOptions:
    balance: bool = True
    relaxed: bool = False            # --relaxed: the allowance map.yaml `options: relaxed:` declares
    mountains: int = 0               # --mountains: a bag's `option: mountains` count (Royal Dukes)
    budget: int | None = None        # declared rules: boards dealt before giving up (None: the default)
    extra: dict | None = None


# --- small helpers every checker uses ------------------------------------------------------

def is_int(value) -> bool:
    """A whole number from JSON (true and false are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def coord_text(cell) -> str:
    return f"({cell[0]}, {cell[1]})"


def coords_text(cells, limit: int | None = None, name=coord_text, sort: bool = True) -> str:
    """Cells named for a message, the first `limit` of them and "and N more"."""
    cells = sorted(cells) if sort else list(cells)
    shown = cells if limit is None else cells[:limit]
    text = ", ".join(name(c) for c in shown)
    return text + (f" and {len(cells) - len(shown)} more" if len(shown) < len(cells) else "")
