"""Spaces off the board (the map vocabulary's `outside:`, docs/maps.md): a dealt board -> a cell one
step off it for each space, kept from the board's cells and from each other as the `min_distance`
rules naming its type say. declared_gen.py deals the board first.
"""
from __future__ import annotations

import random

from . import grid


def place(spec, board, rng: random.Random, kind: list, players: int) -> list | None:
    """A cell one step off the board for each outside space, as far from the other spaces and
    from the board's cells as the min_distance rules naming its type say."""
    spaces = spec.outside or []
    if not spaces:
        return []
    on = set(spec.coords)
    neighbours = grid.neighbours_fn(spec.grid)
    ring = sorted({m for c in spec.coords for m in neighbours(c) if m not in on})
    dist, coords = board.distance, spec.coords
    apart = [r for r in spec.rules if r.kind == "min_distance"]

    memo: dict = {}

    def keeps_apart(t, u):          # asked for every cell and space: worked out once per pair of types
        if (t, u) not in memo:
            memo[t, u] = [r.args["distance"][players] for r in apart
                          if (t in r.args["a"] and u in r.args["b"]) or (t in r.args["b"] and u in r.args["a"])]
        return memo[t, u]

    # the cells of the ring each space may take, whatever the other spaces do
    allowed = []
    for space in spaces:
        far = [(coords[j], d) for j, u in enumerate(kind) for d in keeps_apart(space["type"], u)]
        allowed.append([c for c in ring if all(dist(c, m) >= d for m, d in far)])
    for _ in range(200):
        chosen: list = []
        for space, cells in zip(spaces, allowed):
            t = space["type"]
            open_ = [c for c in cells if c not in chosen and all(
                dist(c, o) >= d for o, s in zip(chosen, spaces) for d in keeps_apart(t, s["type"]))]
            if not open_:
                break
            chosen.append(open_[int(rng.random() * len(open_))])
        else:
            return chosen
    return None
