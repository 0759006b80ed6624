"""Does a declared rule hold on a dealt board? The generator's tests of the rules about the whole
board, tokens and starts, on cell indices (declared_gen.py deals; declared_check.py, written apart,
checks whole layouts).
"""
from __future__ import annotations

from .declared import Rule, within_bounds


def zone(rule: Rule, coords: list, board, players: int) -> frozenset:
    """The cells (indices) within the rule's distance of one of its listed cells."""
    return frozenset(i for i, c in enumerate(coords)
                     if any(board.distance(c, tuple(m)) <= rule.args["distance"][players] for m in rule.args["cells"]))


def global_holds(rule: Rule, cells: list, kind: list, board, players: int) -> bool:
    """Does a rule about the whole board hold? `cells`: the cells of the rule's types."""
    if rule.kind == "count":
        n = len(cells)
        bounds = {k: (v.get(players) if isinstance(v, dict) else v) for k, v in rule.args.items() if k in ("exactly", "min", "max")}
        return within_bounds(n, bounds)
    if rule.kind == "adjacent":
        need, b, nbrs = bound(rule, "min", players, 1), rule.args["b"], board.nbrs
        for i in cells:
            found = 0
            for j in nbrs[i]:
                if kind[j] in b:
                    found += 1
                    if found >= need:
                        break
            else:
                return False
        return True
    if rule.kind == "connected":
        return connected(cells, board.nbrs)
    if rule.kind == "clusters":
        most = bound(rule, "max", players)
        return all(size <= most for size in piece_sizes(cells, kind, board.nbrs))
    if rule.kind == "quota":
        region = board.regions[rule.args["per"]]
        counts = [0] * len(board.region_names[rule.args["per"]])
        for i in cells:
            if region[i] >= 0:              # a cell in none of the pack's own parts counts nowhere
                counts[region[i]] += 1
        if "in" in rule.args:                # only the parts that hold some of the place count
            held = {region[i] for i in rule.args["in"]}
            counts = [n for k, n in enumerate(counts) if k in held]
        low, high = bound(rule, "min", players), bound(rule, "max", players)
        spread = bound(rule, "spread", players)
        return all((low is None or c >= low) and (high is None or c <= high) for c in counts) and \
            (spread is None or not counts or max(counts) - min(counts) <= spread)
    return True


def bound(rule: Rule, key: str, players: int, default=None):
    """A rule's exactly/min/max for this player count (load() made each {player count: n})."""
    value = rule.args.get(key)
    return default if value is None else value[players]


def reachable(rule: Rule, kind: list, board, value, players: int) -> bool:
    """Can every cell of the rule's types be walked to from its `from` types, each step to a
    neighbour whose value `by` differs by at most `step` (a cell without the value: 0)?"""
    by, step, nbrs = rule.args["by"], rule.args["step"][players], board.nbrs
    height = [value(c, by) if isinstance(value(c, by), (int, float)) else 0 for c in range(board.n)]
    seen = bytearray(board.n)
    todo = [c for c in range(board.n) if kind[c] in rule.args["from"]]
    for c in todo:
        seen[c] = 1
    while todo:
        c = todo.pop()
        for m in nbrs[c]:
            if not seen[m] and abs(height[m] - height[c]) <= step:
                seen[m] = 1
                todo.append(m)
    return all(seen[c] for c in range(board.n) if kind[c] in rule.args["a"])


def connected(cells: list, nbrs: list) -> bool:
    if not cells:
        return True
    todo = bytearray(len(nbrs))           # 1: a cell of the region not reached yet
    for c in cells:
        todo[c] = 1
    todo[cells[0]] = 0
    stack, reached = [cells[0]], 1
    while stack:
        for j in nbrs[stack.pop()]:
            if todo[j]:
                todo[j] = 0
                reached += 1
                stack.append(j)
    return reached == len(cells)


def piece_sizes(cells: list, kind: list, nbrs: list) -> list[int]:
    """The sizes of the connected pieces that cells of one type form among `cells`."""
    left, sizes = set(cells), []
    for c in cells:
        if c not in left:
            continue
        left.discard(c)
        stack, size = [c], 1
        while stack:
            for j in nbrs[stack.pop()]:
                if j in left and kind[j] == kind[c]:
                    left.discard(j)
                    size += 1
                    stack.append(j)
        sizes.append(size)
    return sizes


def start_quota_holds(rule: Rule, start: int, kind: list, coords: list, dist, players: int) -> bool:
    """The number of cells of the rule's types within `within` steps of a start is in bounds."""
    n = sum(1 for i, t in enumerate(kind)
            if t in rule.args["a"] and dist(coords[start], coords[i]) <= rule.args["within"][players])
    return bound(rule, "min", players, n) <= n <= bound(rule, "max", players, n)


def tokens_apart(rule: Rule, placed: dict, board) -> bool:
    """No two touching cells both carry one of the values (with `equal`: carry the same value)."""
    values = rule.args["values"]
    hot = {c: v for c, v in placed.items() if not values or v in values}
    if rule.args.get("equal"):
        return not any(j in hot and hot[j] == v for c, v in hot.items() for j in board.nbrs[c])
    return not any(j in hot for c in hot for j in board.nbrs[c])
