"""Choosing cells that keep apart (declared_gen.py's starts and markers): `want` cells of the candidates, no
two clashing, in a random order, by a depth-first search that takes each cell first and drops it
only when that leads nowhere. The first path is the plain random greedy choice; the search goes
on where the greedy choice fails, prunes a branch as soon as the cells left cannot make up the
number, and so says "none" at once on a board that has no such set (instead of shuffling a
fixed number of times). Bounded by NODES steps.
"""
from __future__ import annotations

import random

NODES = 20_000              # search steps for one board before it is given up


def clash_bits(board, c: int, apart: tuple, disjoint: bool) -> int:
    """The cells (as bits) that may not hold a start beside one on c: closer than a
    start_distance, or (start_areas_apart) with areas that meet; worked out once per cell."""
    key = (c, apart, disjoint)
    if key not in board.clash:
        near = max(apart, default=0)
        bits = 0
        for j in range(board.n):
            if (near and board.distance(board.coords[c], board.coords[j]) < near) or \
                    (disjoint and not board.area[c].isdisjoint(board.area[j])):
                bits |= 1 << j
        board.clash[key] = bits
    return board.clash[key]


def pick_apart(rng: random.Random, cells: list, want: int, clash: dict, accept=None) -> list | None:
    """`want` of `cells`, none in another's `clash` bits, that `accept(chosen)` takes; None when
    there is no such set (or NODES steps did not find one)."""
    order = cells[:]
    rng.shuffle(order)
    n = len(order)
    left = [0] * (n + 1)                # the candidates from place i on, as bits
    for i in range(n - 1, -1, -1):
        left[i] = left[i + 1] | 1 << order[i]
    stack = [(0, 0, ())]                # (next place, cells kept off, chosen so far)
    for _ in range(NODES):
        if not stack:
            return None
        i, blocked, chosen = stack.pop()
        if len(chosen) == want:
            if accept is None or accept(chosen):
                return list(chosen)
            continue
        if len(chosen) + (left[i] & ~blocked).bit_count() < want:
            continue
        while blocked >> order[i] & 1:
            i += 1
        c = order[i]
        stack.append((i + 1, blocked, chosen))                       # without c, tried after
        stack.append((i + 1, blocked | clash[c], chosen + (c,)))     # with c, tried first
    return None


def markers(spec, board, rng: random.Random, kind: list, starts: list, players: int) -> dict | None:
    """Marker name -> the cells it marks: random cells of its types, kept apart as the rules say."""
    out, nbrs, coords, dist = {}, board.nbrs, spec.coords, board.distance
    for marker in spec.markers or []:
        rules = [r for r in spec.rules if r.args.get("marker") == marker["name"]]
        barred = {c for s in starts for c in (s, *nbrs[s])} \
            if any(r.kind == "marker_off_start_areas" for r in rules) else set()
        apart = [r.args["distance"][players] for r in rules if r.kind == "marker_distance"]
        cells = [c for c, t in enumerate(kind) if t in marker["over"] and c not in barred]
        want = marker["count"][players]
        for _ in range(200):
            rng.shuffle(cells)
            chosen: list[int] = []
            for c in cells:
                if len(chosen) == want:
                    break
                if all(dist(coords[c], coords[m]) >= d for m in chosen for d in apart):
                    chosen.append(c)
            if len(chosen) == want:
                out[marker["name"]] = sorted(chosen)
                break
        else:
            return None
    return out
