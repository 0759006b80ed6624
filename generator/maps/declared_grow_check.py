"""The checker of the map vocabulary's terms for maps laid tile by tile (docs/maps.md): a grown
board's laying order (`order`, `placed_by`), the `touching` and `turns` rules, numbered tiles,
pieces set on cells (`pieces:`, `piece_count`) and edge marks (`mark_edge`).

Written apart from the generator like declared_check.py, which runs it: it reads the `layout:`
section as plain data and counts from the layout alone.
"""
from __future__ import annotations

from .grid import HEX_DIRECTIONS
from .rules import is_int

RULES = ("touching", "turns", "mark_edge", "piece_count")
ARGS = ("first", "after", "faces_meet")          # keys of these rules besides their own
SHOWN = 6
STRUCTURE = {
    "order": "House rule: on a grown board each cell carries its place in the laying order, 1 to the number of "
             "cells, once each.",
    "cell-detached": "House rule: a grown board is one piece: every tile is laid beside the map.",
    "tile": "House rule: a cell of a type with numbered tiles names one of them (<type>-<n>), each once, none "
            "marked for more players than play, and carries that tile's own values.",
    "piece": "House rule: setup sets one piece of each declared kind on each cell it covers, and nowhere else.",
}


def _same(a, b) -> bool:
    """Equal as JSON values (true is not 1, 3 is not "3")."""
    return type(a) is type(b) and a == b


class GrowChecks:
    def __init__(self, section: dict):
        board = section.get("board") or {}
        self.grown = board.get("shape") == "grown"
        self.tiles = {str(t): (spec or {}).get("tiles") for t, spec in (section.get("types") or {}).items()
                      if (spec or {}).get("tiles")}
        self.pieces = section.get("pieces") or []
        self.groups = {**{t: {t} for t in section.get("types") or {}},
                       **{k: set(v) for k, v in (section.get("groups") or {}).items()}}
        self.rules = [(n, r) for n, r in enumerate(section.get("constraints") or []) if any(k in r for k in RULES)]

    def cell_keys(self) -> set:
        keys = {"order", "placed_by"} if self.grown else set()
        keys |= {"tile"} if self.tiles else set()
        keys |= {k for t in self.tiles.values() for k in (t.get("values") or {})}
        return keys | {r["mark_edge"] for _, r in self.rules if "mark_edge" in r}

    def placement_keys(self) -> set:
        """A piece's fields and pile name, and `label`: free text a piece may carry for the drawing."""
        if not self.pieces:
            return set()
        return {"label"} | {k for p in self.pieces for k in (p.get("fields") or {})} | \
               {p["pile"]["name"] for p in self.pieces if p.get("pile")}

    def kinds(self) -> set:
        return {p["kind"] for p in self.pieces}

    def check(self, layout, kinds: dict, records: dict, board_edge: set, report, name) -> None:
        """kinds, records: the layout's cells of declared types by coordinate; report(rule, message,
        quote=None, policy=False) as declared_check's; name(cell) -> its text."""
        players = getattr(layout, "players", None)
        players = players if is_int(players) and players > 0 else None      # else said by `players`
        if self.grown:
            self._laying(kinds, records, players, report, name)
        self._tiles(kinds, records, players, report, name)
        edge = {c for c in kinds if any((c[0] + dq, c[1] + dr) not in kinds for dq, dr in HEX_DIRECTIONS)} \
            if self.grown else board_edge
        for n, rule in self.rules:
            if "mark_edge" in rule:
                key = rule["mark_edge"]
                wrong = [c for c in sorted(kinds) if records[c].get(key) is not (c in edge)]
                if wrong:
                    _report_rule(report, rule, n, "mark-edge", f"wrong {key} mark on " + "; ".join(
                        f"{name(c)} ({key} {records[c].get(key)!r}, {'on' if c in edge else 'off'} the edge)"
                        for c in wrong[:SHOWN]) + (f" and {len(wrong) - SHOWN} more" if len(wrong) > SHOWN else ""))
        self._pieces(layout, kinds, records, players, report, name)

    # --- a grown board: one piece, laid in order, each tile touching as the rules say ----------
    def _laying(self, kinds, records, players, report, name) -> None:
        pieces = _pieces_of(kinds)
        if len(pieces) > 1:
            main = max(pieces, key=len)
            report("cell-detached", "cells " + ", ".join(name(c) for p in pieces if p is not main for c in sorted(p))
                   + " do not touch the rest of the map", STRUCTURE["cell-detached"])
        orders = {c: records[c].get("order") for c in kinds}
        if any(not is_int(o) for o in orders.values()):
            report("order", "cells " + ", ".join(name(c) for c in sorted(kinds) if not is_int(orders[c]))
                   + " have no place in the laying order", STRUCTURE["order"])
            return
        if sorted(orders.values()) != list(range(1, len(orders) + 1)):
            report("order", f"the laying order is not 1-{len(orders)}, once each: "
                   + ", ".join(f"{name(c)} {orders[c]}" for c in sorted(kinds, key=lambda c: (orders[c], c))[:SHOWN * 2]),
                   STRUCTURE["order"])
        sequence = sorted(kinds, key=lambda c: (orders[c], c))
        seat = {}
        for k, c in enumerate(sequence):
            by = records[c].get("placed_by")
            if players is None:
                seat[c] = by if is_int(by) else ("?", c)
            else:
                seat[c] = by if is_int(by) and 1 <= by <= players else k % players + 1
        for n, rule in self.rules:
            if "turns" in rule and players is not None:
                wrong = [f"{name(c)} (tile {k + 1}, placed_by {records[c].get('placed_by')!r}, turn of player "
                         f"{k % players + 1})" for k, c in enumerate(sequence)
                         if not _same(records[c].get("placed_by"), k % players + 1)]
                if wrong:
                    _report_rule(report, rule, n, "turns", "tiles laid out of turn: " + "; ".join(wrong[:SHOWN])
                                 + (f" and {len(wrong) - SHOWN} more" if len(wrong) > SHOWN else ""))
            elif "touching" in rule:
                self._touching(n, rule, sequence, seat, players, report, name)

    def _touching(self, n, rule, sequence, seat, players, report, name) -> None:
        need = rule["touching"]
        need = need.get(players, max(need.values())) if isinstance(need, dict) else need
        meet = rule.get("faces_meet") is True
        laid, nth, wrong = set(), {}, []
        for k, c in enumerate(sequence):
            nth[seat[c]] = nth.get(seat[c], 0) + 1
            mine = nth[seat[c]]
            applies = mine <= rule["first"] if "first" in rule else mine > rule.get("after", 0)
            if k and applies:
                touching = [(c[0] + dq, c[1] + dr) for dq, dr in HEX_DIRECTIONS if (c[0] + dq, c[1] + dr) in laid]
                meets = any(abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[0] + a[1] - b[0] - b[1]) == 2
                            for i, a in enumerate(touching) for b in touching[i + 1:])
                if len(touching) < need or (meet and not meets):
                    wrong.append(f"{name(c)} (tile {k + 1}, player {seat[c]}'s tile {mine}) touched "
                                 f"{len(touching)} laid tile(s)" + (", none of them on faces that meet" if meet else ""))
            laid.add(c)
        if wrong:
            _report_rule(report, rule, n, "touching", f"tiles laid touching fewer than {need} tile(s)"
                         + (" two of which meet" if meet else "") + ": " + "; ".join(wrong[:SHOWN])
                         + (f" and {len(wrong) - SHOWN} more" if len(wrong) > SHOWN else ""))

    # --- numbered tiles ----------------------------------------------------------------------
    def _tiles(self, kinds, records, players, report, name) -> None:
        problems, seen = [], {}
        own_keys = {k for t in self.tiles.values() for k in (t.get("values") or {})}
        for c in sorted(kinds):
            rec, t = records[c], kinds[c]
            spec = self.tiles.get(t)
            if spec is None:
                problems += [f"{t} at {name(c)} has {k} {rec[k]!r} but its tiles have none" for k in sorted(own_keys)
                             if k in rec]
                continue
            tile, number = rec.get("tile"), None
            if isinstance(tile, str) and tile.startswith(f"{t}-") and tile[len(t) + 1:].isdigit():
                number = int(tile[len(t) + 1:])
            if number is None or not 1 <= number <= spec["count"]:
                problems.append(f"{t} at {name(c)} names tile {tile!r}, not one of {t}-1..{t}-{spec['count']}")
                continue
            if tile in seen:
                problems.append(f"tile {tile} is used twice, at {name(seen[tile])} and {name(c)}")
            seen.setdefault(tile, c)
            mark = (spec.get("marks") or {}).get(number, 0)
            if players is not None and mark > players:
                problems.append(f"{name(c)} is tile {tile}, marked for {mark} players or more; it is left out with {players}")
            values = spec.get("values") or {}
            problems += [f"{tile} at {name(c)} has {k} {rec.get(k)!r}, not {values[k][number]!r}" for k in sorted(values)
                         if not _same(rec.get(k), values[k][number])]
            problems += [f"{t} at {name(c)} has {k} {rec[k]!r} but its tiles have none" for k in sorted(own_keys - set(values))
                         if k in rec]
        if problems:
            report("tile", "; ".join(problems[:SHOWN]) + (f" and {len(problems) - SHOWN} more" if len(problems) > SHOWN else ""),
                   STRUCTURE["tile"])

    # --- pieces set at setup -------------------------------------------------------------------
    def _pieces(self, layout, kinds, records, players, report, name) -> None:
        placements = [p for p in getattr(layout, "placements", None) or [] if isinstance(p, dict)]
        for entry in self.pieces:
            kind, problems = entry["kind"], []
            over = self.groups.get(entry["over"], set())
            where = entry.get("where") or {}
            fields = entry.get("fields") or {}
            pile = entry.get("pile")
            on: dict = {}
            for p in (p for p in placements if p.get("kind") == kind):
                cell = p.get("cell")
                c = tuple(cell) if isinstance(cell, list) and len(cell) == 2 and all(is_int(v) for v in cell) else None
                if c not in kinds:
                    problems.append(f"a {kind} at {cell!r:.30}, not on a cell of the map")
                    continue
                on.setdefault(c, []).append(p)
                wrong = [k for k, v in fields.items() if not _same(p.get(k), v)]
                if wrong:
                    problems.append(f"the {kind} at {name(c)} has " + ", ".join(f"{k} {p.get(k)!r}, not {fields[k]!r}" for k in wrong))
                if pile:
                    names = (pile["counts"].get(players) or {}) if players is not None else \
                        {n for mix in pile["counts"].values() for n in mix}
                    if not isinstance(p.get(pile["name"]), str) or p[pile["name"]] not in names:
                        problems.append(f"the {kind} at {name(c)} has {pile['name']} {p.get(pile['name'])!r}, "
                                        f"not one of {', '.join(sorted(names))}")
            for c in sorted(kinds):
                covered = kinds[c] in over and all(_same(records[c].get(k), v) for k, v in where.items())
                here = len(on.get(c, []))
                if here != (1 if covered else 0):
                    problems.append(f"{kinds[c]} {name(c)} has {here} {kind} piece(s), needs {1 if covered else 0}")
            if problems:
                report(str(entry.get("id") or "piece"), "; ".join(problems[:SHOWN])
                       + (f" and {len(problems) - SHOWN} more" if len(problems) > SHOWN else ""),
                       str(entry.get("quote") or STRUCTURE["piece"]), bool(entry.get("policy", False)))
        for n, rule in self.rules:
            if "piece_count" in rule and players is not None:
                want = rule.get("where") or {}
                have = sum(1 for p in placements if p.get("kind") == rule["piece_count"]
                           and all(_same(p.get(k), v) for k, v in want.items()))
                bad = [f"not {b} {w}" for b in ("exactly", "min", "max") if b in rule
                       for w in [rule[b].get(players) if isinstance(rule[b], dict) else rule[b]] if w is not None
                       and not {"exactly": have == w, "min": have >= w, "max": have <= w}[b]]
                if bad:
                    _report_rule(report, rule, n, "piece-count", f"{have} {rule['piece_count']} piece(s)"
                                 + (f" with {', '.join(f'{k} {v}' for k, v in want.items())}" if want else "")
                                 + ": " + "; ".join(bad))


def _report_rule(report, rule, n, default, message) -> None:
    report(str(rule.get("id") or f"{default}-{n + 1}"), message, str(rule.get("quote", "")), bool(rule.get("policy", False)))


def _pieces_of(cells) -> list[set]:
    """The connected pieces of hex cells."""
    left, out = set(cells), []
    while left:
        start = min(left)
        left.discard(start)
        piece, stack = {start}, [start]
        while stack:
            q, r = stack.pop()
            for dq, dr in HEX_DIRECTIONS:
                m = (q + dq, r + dr)
                if m in left:
                    left.discard(m)
                    piece.add(m)
                    stack.append(m)
        out.append(piece)
    return out
