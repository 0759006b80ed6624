"""The fill type's placement rules while dealing (declared_gen.py).

The cells no tile is dealt onto become the `fill` at the end of dealing (among them the cells of
a place that its bags do not fill), so a placement rule naming the fill (`off_edge: plain`,
`not_adjacent: [plain, water]`) cannot close cells to it while the tiles go down. Instead, the
tiles dealt last (those no placement rule names) go first onto the free cells where the fill
would break such a rule, and the board is dealt again when the fill still breaks one.
"""
from __future__ import annotations

from .declared import LOCAL_RULES
from .declared_allow import check_of, count


class FillRules:
    """The placement rules naming the fill, at one player count, with the breaks each may have
    (an option's allowance, else none)."""

    def __init__(self, spec, board, players: int, allowed: dict):
        fill = self.fill = spec.fill
        named = [n for n, r in enumerate(spec.rules)
                 if r.kind in LOCAL_RULES and fill in r.args.get("a", frozenset()) | r.args.get("b", frozenset())]
        self.rules = [spec.rules[n] for n in named]
        self.limits = [allowed[n][players] if n in allowed else 0 for n in named]
        self.checks = [check_of(spec, board, spec.rules[n], players) for n in named]

    def closed(self, kind: list, c: int) -> bool:
        """Would the fill on free cell c break a rule, with the tiles down so far?"""
        fill = self.fill
        for what, a, b, around in self.checks:
            if what == "cells":
                if fill in a and c not in around:
                    return True
            elif any(kind[m] is not None and ((fill in a and kind[m] in b) or (fill in b and kind[m] in a))
                     for m in around[c]):
                return True
        return False

    def deal_rest(self, rand, kind: list, pending: list) -> bool:
        """The tiles no placement rule names onto the free cells, those the fill may not take
        first; False when there is no room."""
        free = [c for c, t in enumerate(kind) if t is None]
        if len(free) < len(pending):
            return False
        shut = [c for c in free if self.closed(kind, c)]
        is_shut = set(shut)
        rest = [c for c in free if c not in is_shut]
        at = {c: i for i, c in enumerate(rest)}
        while pending:
            spots = shut if shut else rest
            i = int(rand() * len(spots))
            c, spots[i] = spots[i], spots[-1]
            spots.pop()
            if spots is rest and i < len(rest):
                at[rest[i]] = i
            t = kind[c] = pending.pop()
            for m in self._shut_by(t, c, kind):
                if m not in is_shut:            # the fill beside this tile would break a pair rule
                    is_shut.add(m)
                    shut.append(m)
                    j = at.pop(m)
                    last = rest.pop()
                    if last != m:
                        rest[j] = last
                        at[last] = j
        return True

    def _shut_by(self, t: str, c: int, kind: list) -> list:
        """Free cells a tile t on c closes to the fill."""
        fill = self.fill
        return [m for what, a, b, around in self.checks if what == "pairs"
                and ((fill in a and t in b) or (fill in b and t in a)) for m in around[c] if kind[m] is None]

    def broken(self, kind: list):
        """The first rule the fill breaks on a dealt board (beyond its allowance), or None."""
        for rule, breaks, most in zip(self.rules, count(self.checks, kind), self.limits):
            if breaks > most:
                return rule
        return None
