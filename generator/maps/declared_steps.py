"""The objective `nearest_spread` walked (docs/maps.md): how far each start (or taken seat) is
from the cells of a type, walking as the rules let a piece walk -> per-start metrics and their
spread, which balancing evens out ("every player as far from the Summit, from each colour, from
the Challenge spaces"). Without `by`, `step` or `each`, nearest_spread counts grid steps
(declared_fair.py).

{nearest_spread: A, by: VALUE, step: d, each: true, weight: w}: the steps from each start to its
nearest cell of A (with `each`, the sum over every cell of A), walking from cell to neighbouring
cell, each step to a cell whose VALUE differs by at most d (with `by`; a cell without it counts
0); a space off the board is reached from any cell beside it, one step more, and never walked
through. A cell that cannot be reached counts FAR steps.
"""
from __future__ import annotations

from collections import deque

from . import grid

FAR = 99
WALK_KEYS = ("by", "step", "each")
KEYS = ("nearest_spread", *WALK_KEYS, "weight")


def read(rd, where, entry, groups) -> dict:
    rd.keys(entry, where, KEYS)
    target = entry["nearest_spread"]
    if target not in groups:
        rd.fail(f"{where}.nearest_spread", f"'{target}' is not a declared type or group", "declare it under types: or groups:")
    by = entry.get("by")
    if by is not None and not isinstance(by, str):
        rd.fail(f"{where}.by", "must name the value a step may change by at most step: (e.g. elevation)")
    each = entry.get("each", False)
    if not isinstance(each, bool):
        rd.fail(f"{where}.each", "must be true or false")
    weight = entry.get("weight", 1)
    if not isinstance(weight, (int, float)) or isinstance(weight, bool):
        rd.fail(f"{where}.weight", f"must be a number, not {weight!r}")
    return {"kind": "nearest_spread", "walk": True, "value": target, "a": groups[target], "by": by, "each": each,
            "step": rd.whole(entry.get("step", 1), f"{where}.step", 0, 1000), "weight": float(weight)}


def metric_name(goal: dict) -> str:
    by = f"_by_{goal['by']}" if goal["by"] else ""
    return f"{goal['value']}_{'to_each' if goal['each'] else 'nearest'}{by}"


def metrics(goals: list, layout, spec, starts: list) -> dict:
    """Each walked goal's steps from each start (cells, in player order) and their spread."""
    if not goals:
        return {}
    cells = {layout.coord(c): c for c in layout.cells}
    on_board = set(spec.coords)
    around = grid.walled(spec.grid, spec.coords, spec.walls)[0] if spec.walls else grid.neighbours_fn(spec.grid)
    adj = {c: [m for m in around(c) if m in cells] for c in cells}
    starts = [s for s in starts if s in cells]
    walks: dict = {}
    out = {}
    for goal in goals:
        key = (goal["by"], goal["step"])
        if key not in walks:
            moves = _moves(cells, adj, on_board, *key)
            walks[key] = [_walk(s, moves) for s in starts]
        targets = [c for c, rec in cells.items() if rec.get("type") in goal["a"]]
        steps = []
        for dist in walks[key]:
            found = [dist.get(c, FAR) for c in targets] or [FAR]
            steps.append(sum(found) if goal["each"] else min(found))
        name = metric_name(goal)
        out[name] = steps
        out[f"{name}_spread"] = max(steps) - min(steps) if steps else 0
    return out


def _moves(cells: dict, adj: dict, on_board: set, by, step) -> dict:
    """Where a piece may step from each cell: to a neighbour on the board whose `by` differs by at
    most `step`, or onto a space off the board (from which it goes nowhere)."""
    def height(c):
        v = cells[c].get(by, 0) if by else 0
        return v if isinstance(v, (int, float)) and not isinstance(v, bool) else 0

    heights = {c: height(c) for c in cells}
    return {c: ([m for m in adj[c] if m not in on_board or abs(heights[m] - heights[c]) <= step]
                if c in on_board else []) for c in cells}


def _walk(start, moves: dict) -> dict:
    """Steps from start to every cell it can walk to (breadth first)."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        c = queue.popleft()
        d = dist[c] + 1
        for m in moves[c]:
            if m not in dist:
                dist[m] = d
                queue.append(m)
    return dist
