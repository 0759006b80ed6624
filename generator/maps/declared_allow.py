"""Dealing under an option's allowance (`options:` in map.yaml, declared_options.py): a few breaks
of named placement rules are allowed, and used only when needed.

With the option on, the generator deals on the placement rules less the allowed ones, and every
tile of a type an allowed rule names goes on the cheapest cell still within the allowance: one
that breaks nothing while there is one, else the fewest breaks (the hand-written Royal Dukes
generator's "cheapest cell first"). When no cell is within the allowance, a tile is lifted again,
as when a strict board runs out of cells. A lifted tile gives its breaks back.
"""
from __future__ import annotations

from . import declared_holds as holds
from .declared_options import STRICT


class Allowance:
    """The allowed rules of one option at one player count, and the breaks used so far. For a
    rule about pairs, each cell keeps how many tiles of A, of B and of both lie around it, so a
    tile's cost on a cell is read, not counted (the hot loop of relaxed dealing)."""

    def __init__(self, spec, board, allowed: dict, players: int):
        """allowed: rule index -> {player count: most breaks}."""
        self.checks = [check_of(spec, board, spec.rules[n], players) for n in sorted(allowed)]
        self.limit = [allowed[n][players] for n in sorted(allowed)]
        self.governed = frozenset(t for check in self.checks for t in check[1] | check[2])
        self.n = board.n
        self._flags: dict = {}
        self.start([None] * board.n)

    def start(self, kind: list) -> None:
        """The breaks already on the board (its fixed cells and the tiles dealt into places)."""
        self.used = count(self.checks, kind)
        self.around = [[[0] * self.n for _ in range(3)] for _ in self.checks]     # tiles of A, B, both
        for c, t in enumerate(kind):
            if t is not None:
                self._count_around(t, c, 1)

    def flags(self, t: str) -> list:
        """Per rule, whether tile t is of A, of B (and so which neighbours it pairs with)."""
        if t not in self._flags:
            self._flags[t] = [(t in a, t in b) for _, a, b, _ in self.checks]
        return self._flags[t]

    def cost(self, flags: list, c: int) -> list[int]:
        """The breaks of each allowed rule that a tile (its flags) on free cell c would add."""
        out = []
        for (what, _, _, around), (ta, tb), (na, nb, nab) in zip(self.checks, flags, self.around):
            if what == "pairs":
                out.append((nb[c] if ta else 0) + (na[c] if tb else 0) - (nab[c] if ta and tb else 0))
            else:
                out.append(1 if ta and c not in around else 0)
        return out

    def pick(self, t: str, pool: list, rand) -> int:
        """A random one of the cheapest cells of the pool within the allowance, or -1."""
        if t not in self.governed:
            return pool[int(rand() * len(pool))]
        # the rules tile t takes part in, each with the breaks it has left
        parts = [(what == "pairs", ta, tb, counts, ok, most - used)
                 for (what, _, _, ok), (ta, tb), counts, used, most
                 in zip(self.checks, self.flags(t), self.around, self.used, self.limit) if ta or tb]
        best, cheapest = None, []
        for c in pool:
            total = 0
            for pairs, ta, tb, (na, nb, nab), ok, room in parts:
                if pairs:
                    k = (nb[c] if ta else 0) + (na[c] if tb else 0) - (nab[c] if ta and tb else 0)
                else:
                    k = 0 if c in ok else 1
                if k > room:
                    break
                total += k
            else:
                if best is None or total < best:
                    best, cheapest = total, [c]
                elif total == best:
                    cheapest.append(c)
        return cheapest[int(rand() * len(cheapest))] if cheapest else -1

    def put(self, t: str, c: int) -> None:
        if t in self.governed:
            self.used = [u + k for u, k in zip(self.used, self.cost(self.flags(t), c))]
            self._count_around(t, c, 1)

    def lift(self, t: str, c: int) -> None:
        """After the tile at c is lifted: its breaks are given back."""
        if t in self.governed:
            self._count_around(t, c, -1)
            self.used = [u - k for u, k in zip(self.used, self.cost(self.flags(t), c))]

    def _count_around(self, t: str, c: int, step: int) -> None:
        for (what, _, _, around), (ta, tb), (na, nb, nab) in zip(self.checks, self.flags(t), self.around):
            if what != "pairs" or not (ta or tb):
                continue
            for m in around[c]:
                if ta:
                    na[m] += step
                if tb:
                    nb[m] += step
                if ta and tb:
                    nab[m] += step


def check_of(spec, board, rule, players) -> tuple:
    """(what is counted, A, B, for each cell the cells it pairs with, or the cells that break
    nothing)."""
    a = frozenset(rule.args["a"])
    if rule.kind == "not_adjacent":
        return "pairs", a, frozenset(rule.args["b"]), board.nbrs
    if rule.kind == "min_distance":
        return "pairs", a, frozenset(rule.args["b"]), board.within(rule.args["distance"][players], spec.coords)
    if rule.kind == "near":
        return "cells", a, frozenset(), holds.zone(rule, spec.coords, board, players)
    on_edge = rule.kind == "on_edge"
    return "cells", a, frozenset(), frozenset(c for c in range(board.n) if board.edge[c] == on_edge)


def count(checks: list, kind: list) -> list[int]:
    """The breaks of each rule on a board (a pair of cells counted once)."""
    out = []
    for what, a, b, around in checks:
        if what == "pairs":
            out.append(sum(1 for c, t in enumerate(kind) if t in a for m in around[c]
                           if kind[m] in b and (m > c or kind[m] not in a or t not in b)))
        else:
            out.append(sum(1 for c, t in enumerate(kind) if t in a and c not in around))
    return out


def metrics(spec, board, layout) -> dict:
    """The mode a layout records (metrics.rules: strict or the option's name) and the breaks of
    each rule an option allows."""
    mode = layout.metrics.get("rules", STRICT) if isinstance(layout.metrics, dict) else STRICT
    index = {c: i for i, c in enumerate(spec.coords)}
    kind: list = [None] * board.n
    for cell in layout.cells:
        i = index.get(layout.coord(cell))
        if i is not None and isinstance(cell.get("type"), str):
            kind[i] = cell["type"]
    allowed = sorted({n for option in spec.options.values() for n in option["allow"]})
    checks = [check_of(spec, board, spec.rules[n], layout.players) for n in allowed]
    return {"rules": mode, "breaks": {spec.rules[n].id: k for n, k in zip(allowed, count(checks, kind))}}
