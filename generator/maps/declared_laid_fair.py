"""A laid map's fairness (the objectives of declared_laid_read.py): a layout -> its metrics, per
player in seat order, and the score balancing maximises (higher is fairer).

- `piece_types`: how many of the group's types lie within `within` steps of a player's pieces
  of the kind (`<kind>_<group>[_within_<d>]`); the score loses `weight` for each type the
  worst-off player lacks (`..._shortfall`).
- `piece_pressure`: for each player, every piece of the kind within `within` steps of their
  nearest `around` piece counts `within` + 1 - its steps (`<kind>_around_<around>`); the score loses
  `weight` x the spread between the most and least pressed player.
- `piece_distance`: the fewest steps between two players' pieces of the kind
  (`<kind>_rival_distance`, null for one player); the score gains `weight` x that, counted up to `cap`.
"""
from __future__ import annotations

from . import grid
from .layout import Layout


def metrics(spec, layout: Layout) -> dict:
    types = {layout.coord(c): c.get("type") for c in layout.cells}
    distance = grid.distance_fn(spec.grid)
    pieces: dict = {}                     # kind -> player -> cells
    for p in layout.placements:
        pieces.setdefault(p.get("kind"), {}).setdefault(p.get("owner"), []).append(tuple(p["cell"]))
    seats = range(1, layout.players + 1)
    out = {}
    for goal in spec.objective:
        name = metric_name(goal)
        if goal["kind"] == "piece_types":
            near = [_types_near(pieces.get(goal["value"], {}).get(s, []), types, goal["within"], spec.grid) for s in seats]
            out[name] = [len(n & set(goal["over"])) for n in near]
            out[f"{name}_shortfall"] = len(goal["over"]) - min(out[name])
        elif goal["kind"] == "piece_pressure":
            kind, on = goal["pieces"]
            pressing = [c for cells in pieces.get(kind, {}).values() for c in cells]
            out[name] = [_pressure(pressing, pieces.get(on, {}).get(s, []), goal["within"], distance) for s in seats]
            out[f"{name}_spread"] = max(out[name]) - min(out[name])
        else:
            own = pieces.get(goal["value"], {})
            gaps = [distance(a, b) for s in seats for t in seats if s < t for a in own.get(s, []) for b in own.get(t, [])]
            out[name] = min(gaps) if gaps else None
    return out


def score(spec, metrics: dict) -> float:
    total = 0.0
    for goal in spec.objective:
        name = metric_name(goal)
        if goal["kind"] == "piece_types":
            total -= goal["weight"] * metrics[f"{name}_shortfall"]
        elif goal["kind"] == "piece_pressure":
            total -= goal["weight"] * metrics[f"{name}_spread"]
        elif metrics[name] is not None:
            total += goal["weight"] * min(metrics[name], goal["cap"])
    return round(total, 4)


def metric_name(goal: dict) -> str:
    if goal["kind"] == "piece_types":
        return f"{goal['value']}_{goal['over_name']}" + (f"_within_{goal['within']}" if goal["within"] else "")
    if goal["kind"] == "piece_pressure":
        return f"{goal['pieces'][0]}_around_{goal['pieces'][1]}"
    return f"{goal['value']}_rival_distance"


def _types_near(cells: list, types: dict, within: int, grid_type: str) -> set:
    if not within:
        return {types.get(c) for c in cells}
    around = grid.neighbours_fn(grid_type)
    seen = set(cells)
    ring = list(cells)
    for _ in range(within):              # a breadth-first ring per step, on the grid
        ring = [m for c in ring for m in around(c) if m not in seen and not seen.add(m)]
    return {types.get(c) for c in seen}


def _pressure(pressing: list, own: list, within: int, distance) -> int:
    total = 0
    for m in pressing:
        steps = min((distance(m, o) for o in own), default=within + 1)
        total += max(0, within + 1 - steps)
    return total
