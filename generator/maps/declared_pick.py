"""The `pick_spread` objective of the map vocabulary: a layout -> the sums the players' simulated
choices of a cell get (each player in turn takes the cell of `over` with the most of a value
within `near` steps, keeping `spacing` steps from earlier choices while it can), for games where
the players choose their starts after setup (Shires). declared_fair.py scores their spread.
"""
from __future__ import annotations

from functools import lru_cache

from .grid import distance_fn


def value_at(layout, goal) -> dict:
    """cell -> the goal's value there: the cell's own, else the pieces' on it (summed), each
    counted as the goal's `as:` table says."""
    table = goal["as"]
    out: dict = {}

    def add(c, v):
        if table is not None and v is not None and not isinstance(v, (dict, list)):
            v = table.get(v, 0)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            out[c] = out.get(c, 0) + v

    for cell in layout.cells:
        add(layout.coord(cell), cell.get(goal["value"]))
    for p in layout.placements:
        cell = p.get("cell")
        if isinstance(cell, list) and len(cell) == 2:
            add(tuple(cell), p.get(goal["value"]))
    return out


def pick_sums(layout, goal) -> list[float]:
    """The simulated choices' sums, in choosing order."""
    dist = distance_fn(layout.grid_type)
    value = value_at(layout, goal)
    near, spacing = goal["near"], goal["spacing"]
    over = [layout.coord(c) for c in layout.cells if c.get("type") in goal["over_types"]]
    disc = _disc(layout.grid_type, near)
    worth = {c: sum(value.get((c[0] + dx, c[1] + dy), 0) for dx, dy in disc) for c in over}
    ranked = sorted(over, key=lambda c: (-worth[c], c))
    picks: list = []
    for _ in range(min(layout.players, len(ranked))):
        free = [c for c in ranked if c not in picks]
        spaced = [c for c in free if all(dist(c, p) >= spacing for p in picks)]
        picks.append((spaced or free)[0])
    return [worth[c] for c in picks]


@lru_cache(maxsize=None)
def _disc(grid_type: str, radius: int) -> tuple:
    """The steps (dx, dy) to every cell within `radius` steps: the cells a sum looks at."""
    dist = distance_fn(grid_type)
    return tuple((dx, dy) for dx in range(-radius, radius + 1) for dy in range(-radius, radius + 1)
                 if dist((0, 0), (dx, dy)) <= radius)
