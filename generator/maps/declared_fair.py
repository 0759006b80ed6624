"""A declared game's fairness: a layout -> its metrics (each region's or start's sum of a value)
and the score balancing maximises (minus the weighted spreads of the declared objective).
Values are read from the layout's cells: a type's value, one a tile carries, or a token's.
"""
from __future__ import annotations

from . import declared_pick, declared_steps
from .layout import Layout


def metrics(spec, board, layout: Layout) -> dict:
    """The objective's sums and spreads of one layout."""
    index = {c: i for i, c in enumerate(spec.coords)}
    kind, record = [None] * board.n, [{}] * board.n
    for cell in layout.cells:
        i = index.get(layout.coord(cell))
        if i is not None:
            kind[i], record[i] = cell.get("type"), cell
    walked = [g for g in spec.objective if g.get("walk")]
    out = declared_steps.metrics(walked, layout, spec,
                                 [spec.coords[s] for s in _starts(layout, spec, index) if s is not None]) if walked else {}
    for goal in spec.objective:
        if goal.get("walk"):
            continue
        name = goal["value"]
        if goal["kind"] == "pick_spread":        # the players' simulated choices of a cell
            sums = declared_pick.pick_sums(layout, goal)
            out[f"{goal['name']}_picks"] = [round(s, 4) for s in sums]
            out[f"{goal['name']}_picks_spread"] = round(max(sums) - min(sums), 4) if sums else 0.0
            continue
        value = _values(goal, record)
        if goal["kind"] == "region_spread":
            for scheme in goal["per"]:
                sums = _region_sums(goal, scheme, kind, value, board)
                out[f"{name}_{scheme}"] = [round(s, 4) for s in sums]
                out[f"{name}_{scheme}_spread"] = round(max(sums) - min(sums), 4)
        elif goal["kind"] == "type_spread":
            sums = {t: sum((v for v, k in zip(value, kind) if k == t and v is not None), 0.0) for t in goal["over"]}
            out[f"{name}_per_type"] = {t: round(s, 4) for t, s in sums.items()}
            out[f"{name}_per_type_spread"] = round(max(sums.values()) - min(sums.values()), 4)
        elif goal["kind"] == "nearest_spread":
            steps = _nearest(layout, goal["types"], kind, board, spec, index)
            out[f"{name}_nearest"] = steps
            out[f"{name}_nearest_spread"] = max(steps) - min(steps) if steps else 0
        else:
            sums = _start_sums(layout, value, board, spec, index, goal["within"])
            out[f"{name}_near_starts"] = [round(s, 4) for s in sums]
            out[f"{name}_near_starts_spread"] = round(max(sums) - min(sums), 4) if sums else 0.0
    return out


def spreads(goal) -> list[str]:
    """The metrics an objective evens out."""
    name = goal["value"]
    if goal.get("walk"):
        return [f"{declared_steps.metric_name(goal)}_spread"]
    if goal["kind"] == "region_spread":
        return [f"{name}_{s}_spread" for s in goal["per"]]
    if goal["kind"] == "pick_spread":
        return [f"{goal['name']}_picks_spread"]
    if goal["kind"] == "nearest_spread":
        return [f"{name}_nearest_spread"]
    return [f"{name}_per_type_spread" if goal["kind"] == "type_spread" else f"{name}_near_starts_spread"]


def score(spec, metrics: dict) -> float:
    """Higher is fairer: minus the weighted spreads of the declared objective."""
    total = 0.0
    for goal in spec.objective:
        total -= goal["weight"] * sum(metrics[key] for key in spreads(goal))
    return total


MARKER_DEALS = 24          # with balancing, the markers of each candidate are the fairest of this many deals


def fairest_markers(spec, board, deal, marks: dict, starts: list) -> dict:
    """The fairest of MARKER_DEALS marker deals (`marks` and more from deal()) for the starts, by
    the objectives that count markers near each start; the markers are dealt last and alone, so
    this is cheap beside dealing whole candidates."""
    goals = [g for g in spec.objective if g.get("marker")]
    if not goals or not starts:
        return marks
    coords, dist = spec.coords, board.distance

    def cost(found: dict) -> float:
        total = 0.0
        for goal in goals:
            near = goal["within"] if goal["within"] is not None else 1
            counts = [sum(1 for c in found.get(goal["value"], ()) if dist(coords[s], coords[c]) <= near) for s in starts]
            total += goal["weight"] * (max(counts) - min(counts))
        return total

    best, best_cost = marks, cost(marks)
    for _ in range(MARKER_DEALS - 1):
        if best_cost == 0:
            break
        other = deal()
        if other is not None and cost(other) < best_cost:
            best, best_cost = other, cost(other)
    return best


def _values(goal, record) -> list:
    """The value as each cell carries it (its type's, its own tile's, or its token's), counted
    as the objective's `as:` table says; None where a cell has none."""
    table = goal["as"]
    out = []
    for r in record:
        v = r.get(goal["value"])
        if goal.get("marker"):              # a marker: each marked cell counts 1
            v = 1 if v is True else None
        if isinstance(v, dict):             # a tile's yield {food: 1, ore: 1} counts as its amounts' sum
            v = sum(n for n in v.values() if isinstance(n, (int, float)) and not isinstance(n, bool))
        if table is not None and v is not None and not isinstance(v, (dict, list)):
            v = table.get(v, 0)
        out.append(v if isinstance(v, (int, float)) and not isinstance(v, bool) else None)
    return out


def _region_sums(goal, scheme, kind, value, board) -> list[float]:
    """Each cell's value counted in the region it lies in, or, with `through`, shared equally by
    the regions of its neighbours of that type (where players reach it from)."""
    names, region = board.region_names[scheme], board.regions[scheme]
    sums = [0.0] * len(names)
    for i, v in enumerate(value):
        if v is None:
            continue
        if goal["through"] is None:
            if region[i] >= 0:
                sums[region[i]] += v
            continue
        doors = [j for j in board.nbrs[i] if kind[j] == goal["through"]]
        for j in doors:
            if region[j] >= 0:
                sums[region[j]] += v / len(doors)
    return sums


def _starts(layout, spec, index) -> list:
    """The starts' cells, or the taken seats' (in player order) where there are no starts."""
    if spec.seats and not spec.starts:
        return [spec.seats["places"][k]["index"] for k in spec.seats["taken"][layout.players]]
    return [index.get(tuple(p["cell"])) for p in layout.placements if p.get("kind") == "start"]


def _nearest(layout, types, kind, board, spec, index) -> list[int]:
    """The steps from each start (or taken seat) to its nearest cell of the types."""
    cells = [spec.coords[i] for i, t in enumerate(kind) if t in types]
    return [min((board.distance(spec.coords[s], c) for c in cells), default=0) for s in _starts(layout, spec, index)]


def _start_sums(layout, value, board, spec, index, within=None) -> list[float]:
    """Each start's (or taken seat's, in player order) sum of the value within `near` steps (the
    objective's own `within`, where it gives one)."""
    sums = []
    near = (spec.starts or spec.seats or {}).get("near", 1) if within is None else within
    near = near.get(layout.players, 1) if isinstance(near, dict) else near     # starts.near: per player count
    for s in _starts(layout, spec, index):
        sums.append(sum((v for i, v in enumerate(value)
                         if v is not None and board.distance(spec.coords[s], spec.coords[i]) <= near), 0.0))
    return sums
