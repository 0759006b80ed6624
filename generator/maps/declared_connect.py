"""Dealing toward `connected` rules (declared_gen.py): a tile of a type that a `connected` rule
names goes, where some open cell allows it, next to a tile of that rule's types already down, so
the piece grows as one instead of being dealt at random and thrown away when it falls apart. It
only narrows which open cell a tile takes; every rule is still checked on the finished board.
A type in several such rules looks to the rule with the fewest types first.
"""
from __future__ import annotations


class Growth:
    def __init__(self, rules: list, nbrs: list):
        self.nbrs = nbrs
        groups = sorted({r.args["a"] for r in rules if r.kind == "connected"}, key=lambda a: (len(a), sorted(a)))
        self.groups = groups
        self.of = {t: [g for g, a in enumerate(groups) if t in a] for a in groups for t in a}

    def start(self) -> "Growing":
        return Growing(self)


class Growing:
    """One board's count, per rule, of the tiles down and of each cell's neighbours among them."""

    def __init__(self, growth: Growth):
        self.of, self.nbrs = growth.of, growth.nbrs
        self.down = [0] * len(growth.groups)
        self.touch = [[0] * len(growth.nbrs) for _ in growth.groups]

    def near(self, t: str, cells: list) -> list:
        """The open cells next to a tile of t's first rule that has one down, else all of them."""
        for g in self.of.get(t, ()):
            if self.down[g]:
                touch = self.touch[g]
                beside = [c for c in cells if touch[c]]
                if beside:
                    return beside
        return cells

    def put(self, t: str, c: int, step: int = 1) -> None:
        for g in self.of.get(t, ()):
            self.down[g] += step
            touch = self.touch[g]
            for m in self.nbrs[c]:
                touch[m] += step

    def lift(self, t: str, c: int) -> None:
        self.put(t, c, -1)
