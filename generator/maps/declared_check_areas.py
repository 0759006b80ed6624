"""The checker's side of the places on the board (docs/maps.md, "Places"): a layout -> what it
breaks of the `areas:` (values every cell of a place carries), the `seats:` (whose seat each
place is, and the pieces set there), and the places `in:` that count and quota rules read
(`pieces:` on cells are declared_grow_check's).

Written apart from the generator's declared_areas.py and sharing nothing with it: it reads the
section as the YAML gives it, finds each place for itself, and counts from the layout alone.
"""
from __future__ import annotations

import json
from collections import Counter

from . import grid


class Places:
    def __init__(self, checker):
        self.ck = checker
        decl = checker.decl
        edge = checker.edge
        dist = grid.distance_fn(checker.grid)
        self.ring = {c: min(dist(c, e) for e in edge) for c in checker.cells}
        self.areas = decl.get("areas") or []
        self.seats = decl.get("seats")
        self._cache: dict = {}

    # --- places ----------------------------------------------------------------------------
    def select(self, place) -> set:
        """The board's cells in every part the place names ({ring: 1, quadrants: nw})."""
        key = json.dumps(place, sort_keys=True, default=str)
        if key not in self._cache:
            cells = set(self.ck.cells)
            for name, want in place.items():
                wanted = want if isinstance(want, list) else [want]
                if name == "ring":
                    cells = {c for c in cells if self.ring[c] in wanted}
                    continue
                names, part_of = self.ck._region(name)
                cells = {c for c in cells if c in part_of and names[part_of[c]] in wanted}
            self._cache[key] = cells
        return self._cache[key]

    def kinds(self) -> set:
        """The kinds of piece the seats set down (the cells' `pieces:` are declared_grow_check's)."""
        return {p["kind"] for place in (self.seats or {}).get("places", []) for p in place.get("pieces", [])}

    def cell_keys(self) -> set:
        return {k for a in self.areas for k in a["values"]} | ({self.seats.get("key", "owner")} if self.seats else set())

    def piece_keys(self) -> set:
        keys = {k for place in (self.seats or {}).get("places", []) for p in place.get("pieces", []) for k in p} - {"in"}
        keys |= {self.seats.get("key", "owner")} if self.seats else set()
        return keys

    # --- the checks --------------------------------------------------------------------------
    def check(self, layout, kinds: dict, records: dict, report) -> None:
        self._areas(kinds, records, report)
        if self.seats:
            self._seats(layout, kinds, records, report)

    def _rule(self, entry: dict, default: str) -> tuple:
        return str(entry.get("id") or default), str(entry.get("quote", "")), bool(entry.get("policy", False))

    def _areas(self, kinds, records, report) -> None:
        """Each cell of an area (of its types) carries the area's values; no other cell carries
        a value only areas give."""
        given: dict = {}                      # (cell, key) -> the area that gives it
        for n, area in enumerate(self.areas):
            over = self.ck.groups.get(area.get("over")) if area.get("over") else None
            for c in sorted(self.select(area["in"])):
                if c in kinds and (over is None or kinds[c] in over):
                    for key in area["values"]:
                        given[(c, key)] = n
        wrong: dict = {}
        for (c, key), n in sorted(given.items()):
            want, have = self.areas[n]["values"][key], records[c].get(key, _MISSING)
            if not _same(have, want):
                wrong.setdefault(n, []).append(f"{kinds[c]} at {self.ck.name(c)} has {key} "
                                               f"{'none' if have is _MISSING else repr(have)}, not {want!r}")
        # a label is a cell's free text (docs/maps.md): judged only where an area gives one
        owners = ({self.seats.get("key", "owner")} if self.seats else set()) | {"label"}
        for c, rec in sorted(records.items()):
            for key in sorted(set(rec) & (self.cell_keys() - owners)):
                if (c, key) not in given:
                    n = next(k for k, a in enumerate(self.areas) if key in a["values"])
                    wrong.setdefault(n, []).append(f"{kinds.get(c)} at {self.ck.name(c)} has {key} "
                                                   f"{rec[key]!r}, which no area gives it")
        for n, problems in sorted(wrong.items()):
            rule, quote, policy = self._rule(self.areas[n], f"areas-{n + 1}")
            report(rule, "; ".join(problems[:12]) + (f" (and {len(problems) - 12} more)" if len(problems) > 12 else ""),
                   quote, policy)

    def _seats(self, layout, kinds, records, report) -> None:
        """The places' cells say whose seat each is, as the seats taken for this player count
        (or a turn of them around the places) say; each taken seat holds its pieces."""
        seat, problems = self.seats, []
        key = seat.get("key", "owner")
        places = seat["places"]
        cells = [tuple(p["cell"]) for p in places]
        players = getattr(layout, "players", None)
        taken = (seat.get("taken") or {}).get(players)
        have = [records.get(c, {}).get(key, _MISSING) for c in cells]
        ways = []
        if isinstance(taken, list):
            names = [p["name"] for p in places]
            turns = range(len(places)) if seat.get("turn") else range(1)
            for k in turns:
                way = [None] * len(places)
                for player, name in enumerate(taken, 1):
                    way[(names.index(name) + k) % len(places)] = player
                ways.append(way)
        if not any(all(_same(h, w) for h, w in zip(have, way)) for way in ways):
            now = ", ".join(f"{p['name']} {self.ck.name(c)}: {'none' if h is _MISSING else repr(h)}"
                            for p, c, h in zip(places, cells, have))
            wanted = ", ".join(f"{p['name']}: {w}" for p, w in zip(places, ways[0])) if ways else ""
            problems.append(f"the seats hold players {now}; with {players!r} players they are {wanted}"
                            + (" (or a turn of that around the seats)" if seat.get("turn") else "")
                            if ways else f"no seats are declared for {players!r} players")
        stray = [c for c, rec in records.items() if key in rec and c not in cells]
        if stray:
            problems.append(f"{key} on cells that are no seat: {self.ck.names(stray)}")
        seated = ways[0] if ways else []
        for way in ways:
            if all(_same(h, w) for h, w in zip(have, way)):
                seated = way
        wanted = [({k: v for k, v in piece.items() if k != "in"} | {key: player}, piece.get("in"))
                  for place, player in zip(places, seated) if player is not None for piece in place.get("pieces", [])]
        want = sorted(_text(piece) for piece, _ in wanted)
        kinds_ = {p["kind"] for place in places for p in place.get("pieces", [])}
        placed = sorted(self._as_declared(p, wanted) for p in getattr(layout, "placements", None) or []
                        if isinstance(p, dict) and p.get("kind") in kinds_)
        if placed != want:
            missing, extra = _differ(want, placed)
            problems.append("the seats' pieces differ" + (f"; missing {', '.join(missing[:6])}" if missing else "")
                            + (f"; not wanted {', '.join(extra[:6])}" if extra else ""))
        if problems:
            rule, quote, policy = self._rule(seat, "seats")
            report(rule, "; ".join(problems), quote, policy)

    def _as_declared(self, placed: dict, wanted: list) -> str:
        """A seat's piece as declared: one that may lie anywhere in its place (`in:`) and does is
        the declared one."""
        rest = {k: v for k, v in placed.items() if k != "cell"}
        cell = placed.get("cell")
        for piece, place in wanted:
            if place and rest == {k: v for k, v in piece.items() if k != "cell"} and isinstance(cell, list) \
                    and len(cell) == 2 and tuple(cell) in self.select(place):
                return _text(piece)
        return _text(placed)


_MISSING = object()


def same(have, want) -> bool:
    """Equal and of the same JSON type (1 is not true, 3 is not "3"), mappings and lists item by item."""
    if isinstance(want, dict):
        return isinstance(have, dict) and set(have) == set(want) and all(same(have[k], v) for k, v in want.items())
    if isinstance(want, list):
        return isinstance(have, list) and len(have) == len(want) and all(map(same, have, want))
    return have is not _MISSING and type(have) is type(want) and have == want


_same = same


def _text(piece: dict) -> str:
    return json.dumps(piece, sort_keys=True, default=str)


def _differ(want: list, have: list) -> tuple:
    w, h = Counter(want), Counter(have)
    return sorted((w - h).elements()), sorted((h - w).elements())
