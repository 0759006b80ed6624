"""The checker's part for laid maps (docs/maps.md, "A map the players lay"): a layout's tile sets,
the values printed on each set's tiles, its turn pieces, and the rules `set_count`, `pieces_each`,
`piece_on`, `piece_roll`, `pieces_apart` and `piece_beside`.

Written apart from the generator (declared_laid_gen.py) like the rest of declared_check.py: it
reads the raw `layout:` section, counts from the `constraints:` only and trusts nothing of a
layout; a piece or cell too malformed to read is said once as structure and left out of the rules.
"""
from __future__ import annotations

from collections import Counter

from . import grid
from .rules import is_int

RULES = ("set_count", "pieces_each", "piece_on", "piece_roll", "pieces_apart", "piece_beside")
ARGS = ("over", "die", "shows", "of", "chain")          # the keys these rules take besides the shared ones
STRUCTURE = {
    "set": "House rule: every tile of a laid map names the player whose set it comes from.",
    "piece": "House rule: every piece has a kind the rules declare, an owner among the players, and stands on a tile of the map.",
}


def cell_keys(decl: dict) -> set:
    sets = decl.get("sets") or {}
    return {sets.get("key"), *(t["name"] for t in sets.get("tokens") or [])} - {None}


def piece_kinds(decl: dict) -> set:
    return {p["kind"] for p in decl.get("turn_pieces") or []}


def lay(checker, layout) -> None:
    """A laid map's board is the layout's own tiles (each checked then like a printed board's)."""
    keys = ("q", "r") if checker.grid == "hex" else ("x", "y")
    checker.cells = sorted({(c[keys[0]], c[keys[1]]) for c in getattr(layout, "cells", None) or []
                            if isinstance(c, dict) and all(is_int(c.get(k)) for k in keys)})
    checker.on_board = set(checker.cells)
    checker.edge = set(grid.edge_cells(checker.cells, checker.grid))


def check(checker, layout, kinds: dict, report) -> None:
    """Every tile set, set token, turn piece and set or piece rule of the declaration, on one layout."""
    decl = checker.decl
    players = getattr(layout, "players", None)
    players = players if is_int(players) else 0
    records = checker._records
    key = decl["sets"]["key"]
    bad = sorted(c for c, rec in records.items() if not is_int(rec.get(key)) or not 1 <= rec[key] <= players)
    if bad:
        report("set", f"{key} is not one of the players on {checker.names(bad)}", STRUCTURE["set"])
    seat = {c: rec[key] for c, rec in records.items() if c not in bad and c in kinds}
    for token in decl["sets"].get("tokens") or []:
        _seat_token(checker, token, seat, kinds, players, report)
    pieces = _pieces(checker, layout, kinds, players, report)
    for n, rule in enumerate(checker.constraints):
        kind = next((k for k in RULES if k in rule), None)
        if kind is None:
            continue
        rule_id = str(rule.get("id") or f"{kind.replace('_', '-')}-{n + 1}")

        def broken(message, rule=rule, rule_id=rule_id):
            report(rule_id, message, str(rule.get("quote", "")), bool(rule.get("policy", False)))

        CHECKS[kind](checker, rule, seat, kinds, pieces, players, broken)


def _seat_token(checker, token, seat, kinds, players, report) -> None:
    """Each player's set shows exactly that seat's values on its tiles of the token's types; no other tile a token."""
    name, over = token["name"], checker.groups[token["over"]]
    records = checker._records
    wrong = sorted(c for c, t in kinds.items() if (t in over) != (name in records[c]))
    if wrong:
        report("token", f"{name} tokens missing or misplaced at {checker.names(wrong)}")
    for s in range(1, players + 1):
        shown = Counter(_typed(records[c][name]) for c in kinds if seat.get(c) == s and name in records[c])
        want = Counter(_typed(v) for v in (token["values"].get(s) or []))
        if shown != want:
            extra, missing = shown - want, want - shown
            report("token", f"player {s}'s {name} tokens are not their set {token['values'].get(s)}"
                   + (f": not in it {', '.join(v for v, _ in sorted(extra.elements()))}" if extra else "")
                   + (f"; missing {', '.join(v for v, _ in sorted(missing.elements()))}" if missing else ""))


def _pieces(checker, layout, kinds, players, report) -> list:
    """(kind, cell, owner, the piece) of each well-formed piece; the rest said as `piece`."""
    known = piece_kinds(checker.decl)
    out, problems = [], []
    for n, p in enumerate(getattr(layout, "placements", None) or []):
        if not isinstance(p, dict) or p.get("kind") not in known:
            continue                         # not a piece: `placement` says so
        where = p.get("cell")
        if not (isinstance(where, list) and len(where) == 2 and all(is_int(v) for v in where)) \
                or tuple(where) not in kinds:
            problems.append(f"{p['kind']} {n + 1} stands on {where!r}, not a tile of the map")
        elif not is_int(p.get("owner")) or not 1 <= p["owner"] <= players:
            problems.append(f"{p['kind']} {n + 1} on {checker.name(tuple(where))} has owner {p.get('owner')!r}")
        else:
            out.append((p["kind"], tuple(where), p["owner"], p))
    if problems:
        report("piece", "; ".join(problems[:12]), STRUCTURE["piece"])
    return out


def _bounds(rule, players) -> dict:
    return {b: (rule[b].get(players) if isinstance(rule[b], dict) else rule[b])
            for b in ("exactly", "min", "max") if b in rule}


def _outside(n: int, bounds: dict) -> bool:
    return any(w is not None and not {"exactly": n == w, "min": n >= w, "max": n <= w}[b] for b, w in bounds.items())


def _set_count(checker, rule, seat, kinds, pieces, players, broken) -> None:
    types, bounds = checker.groups[rule["set_count"]], _bounds(rule, players)
    for s in range(1, players + 1):
        have = sorted(c for c, t in kinds.items() if t in types and seat.get(c) == s)
        if _outside(len(have), bounds):
            broken(f"player {s} laid {len(have)} {rule['set_count']} tile(s), not {bounds}"
                   + (f" ({checker.names(have)})" if have else ""))


def _pieces_each(checker, rule, seat, kinds, pieces, players, broken) -> None:
    bounds = _bounds(rule, players)
    for s in range(1, players + 1):
        have = sorted(c for k, c, owner, _ in pieces if k == rule["pieces_each"] and owner == s)
        if _outside(len(have), bounds):
            broken(f"player {s} has {len(have)} {rule['pieces_each']}(s), not {bounds}"
                   + (f" ({checker.names(have)})" if have else ""))


def _piece_on(checker, rule, seat, kinds, pieces, players, broken) -> None:
    over = checker.groups[rule["over"]]
    wrong = [(c, owner) for k, c, owner, _ in pieces if k == rule["piece_on"] and kinds[c] not in over]
    if wrong:
        broken("; ".join(f"player {o}'s {rule['piece_on']} on {kinds[c]} at {checker.name(c)}, not {rule['over']}"
                         for c, o in sorted(wrong)[:12]))


def _piece_roll(checker, rule, seat, kinds, pieces, players, broken) -> None:
    wrong = []
    for k, c, owner, piece in pieces:
        if k != rule["piece_roll"]:
            continue
        roll, shown = piece.get("roll"), checker._records[c].get(rule["shows"])
        if not is_int(roll) or not 1 <= roll <= rule["die"]:
            wrong.append(f"player {owner}'s {k} on {checker.name(c)} has roll {roll!r}, not a d{rule['die']} roll")
        elif roll != shown or not is_int(shown):
            wrong.append(f"player {owner}'s {k} rolled {roll} but stands on {checker.name(c)}, "
                         f"whose {rule['shows']} is {shown!r}")
    if wrong:
        broken("; ".join(sorted(wrong)[:12]))


def _pieces_apart(checker, rule, seat, kinds, pieces, players, broken) -> None:
    a, b = rule["pieces_apart"]
    on = {}
    for k, c, _, _ in pieces:
        on.setdefault(c, []).append(k)
    if a == b:
        hit = sorted(c for c, here in on.items() if here.count(a) > 1)
    else:
        hit = sorted(c for c, here in on.items() if a in here and b in here)
    if hit:
        broken(f"{a} and {b} share {checker.names(hit)}" if a != b else f"two or more {a}s on {checker.names(hit)}")


def _piece_beside(checker, rule, seat, kinds, pieces, players, broken) -> None:
    """Set one at a time, each beside `of` or (chain) beside one of its player's set before: every
    group of a player's touching pieces holds one beside `of`, which went down first."""
    of, kind = checker.groups[rule["of"]], rule["piece_beside"]
    for s in range(1, players + 1):
        own = sorted({c for k, c, owner, _ in pieces if k == kind and owner == s})
        groups = grid.components(own, checker.grid, checker._around) if rule.get("chain") else [[c] for c in own]
        for group in groups:
            if not any(kinds.get(m) in of for c in group for m in checker._around(c)):
                broken(f"player {s}'s {kind}(s) on {checker.names(group)} touch no {rule['of']}"
                       + (" nor another of theirs that does" if rule.get("chain") else ""))


CHECKS = {"set_count": _set_count, "pieces_each": _pieces_each, "piece_on": _piece_on,
          "piece_roll": _piece_roll, "pieces_apart": _pieces_apart, "piece_beside": _piece_beside}


def _typed(value) -> tuple:
    """A value with its JSON type, so 3 and "3" (and true and 1) count apart."""
    return (repr(value), type(value).__name__)
