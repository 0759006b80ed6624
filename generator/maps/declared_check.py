"""The checker of layouts for map rules declared in map.yaml `layout:` (docs/maps.md).

Written apart from the generator (declared.py) and trusting nothing of it: it reads the section
from the file itself, rebuilds the board, and counts from the layout alone. Its counts come from
the `constraints:` (what the rulebook says), never from the `deal:` (what the generator puts
down), so a typo in a bag is caught, not copied. Every rule is reported with its id and quote,
and marked as a policy where the declaration says `policy: true`.
"""
from __future__ import annotations

from pathlib import Path

import yaml

from . import grid
from .layout import Layout
from .rules import Violation, coords_text, is_int

SHOWN = 12
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
STRUCTURE = {
    "game": "House rule: a layout names the game whose rules it follows.",
    "players": "House rule: a layout is for a player count the game allows.",
    "grid": "House rule: a layout is drawn on the board's grid.",
    "cell-shape": "House rule: every cell of a layout is an object with whole-number coordinates and a type.",
    "cell-off-board": "House rule: every cell lies on the board.",
    "cell-duplicate": "House rule: each cell of the board is described once.",
    "board-complete": "House rule: every cell of the board is described.",
    "cell-type": "House rule: every cell has one of the declared types.",
    "cell-fixed": "House rule: the board's fixed cells keep their printed type.",
    "cell-label": "House rule: a cell's label is its row letter and column number.",
    "cell-value": "House rule: a cell carries the values declared for its type.",
    "token": "House rule: each cell of the token's types carries one token, and no other cell does.",
    "placement": "House rule: the only placements are the players' start positions.",
    "start": "House rule: each player has one start position, on a cell where starts are allowed.",
}


class Checker:
    def __init__(self, source: "str | Path", game_id: str):
        data = yaml.safe_load(Path(source).read_text(encoding="utf-8")) or {}
        self.game_id = game_id
        self.decl = section = data["layout"]
        board = section["board"]
        self.grid = board.get("grid", "hex")
        self.cells = self._cells(board)
        self.on_board = set(self.cells)
        self.edge = set(grid.edge_cells(self.cells, self.grid))
        self.labels = {}
        if board.get("labels") == "row-letter":
            for c in self.cells:
                col, row = grid.axial_to_offset(c)
                self.labels[c] = f"{LETTERS[row % 26]}{col + 1}"
        self.types = {str(k): dict((v or {}).get("values", {})) for k, v in (section.get("types") or {}).items()}
        self.types.setdefault(str(section.get("fill", "empty")), {})
        self.groups = {**{t: {t} for t in self.types}, **{k: set(v) for k, v in (section.get("groups") or {}).items()}}
        self.fixed = {tuple(c): f["type"] for f in board.get("fixed") or [] for c in f["cells"]}
        players = section.get("players") or {"min": 1, "max": 1}
        self.players = (players.get("min", 1), players.get("max", 1))
        self.tokens = section.get("tokens") or []
        self.starts = section.get("starts")
        self.constraints = section.get("constraints") or []

    def _cells(self, board) -> list:
        shape = board.get("shape", "rectangle")
        if shape == "cells":
            return [tuple(c) for c in board["cells"]]
        if shape == "hexagon":
            return grid.hex_disc((0, 0), board["radius"])
        if self.grid == "hex":
            return grid.hex_rectangle(board["cols"], board["rows"])
        return [(x, y) for y in range(board["rows"]) for x in range(board["cols"])]

    def name(self, c) -> str:
        label = self.labels.get(c)
        return f"{label} ({c[0]}, {c[1]})" if label else f"({c[0]}, {c[1]})"

    def names(self, cells) -> str:
        return coords_text(cells, SHOWN, self.name)

    # --- the checks ----------------------------------------------------------------------
    def check(self, layout: Layout) -> list[Violation]:
        out: list[Violation] = []

        def report(rule, message, quote=None, policy=False):
            out.append(Violation(rule, message, STRUCTURE.get(rule, "") if quote is None else quote, policy))

        kinds = self._structure(layout, report)
        players = getattr(layout, "players", None)
        for n, rule in enumerate(self.constraints):
            self._constraint(n, rule, kinds, players, report)
        self._tokens(layout, kinds, report)
        self._starts(layout, kinds, report)
        return out

    def _structure(self, layout, report) -> dict:
        if getattr(layout, "game", None) != self.game_id:
            report("game", f"the layout is for {getattr(layout, 'game', None)!r}, not {self.game_id!r}")
        players = getattr(layout, "players", None)
        low, high = self.players
        if not is_int(players) or not low <= players <= high:
            report("players", f"{players!r} players; the game is for {low}-{high}")
        spec = getattr(layout, "grid", None)
        if not isinstance(spec, dict) or spec.get("type") != self.grid:
            report("grid", f"grid {spec!r}; the board is a {self.grid} grid")
        keys = ("q", "r") if self.grid == "hex" else ("x", "y")
        kinds, records, off, twice = {}, {}, [], []
        for n, cell in enumerate(getattr(layout, "cells", None) or []):
            if not isinstance(cell, dict) or not all(is_int(cell.get(k)) for k in keys):
                report("cell-shape", f"cell {n + 1} ({cell!r:.60}) has no whole-number {keys[0]}, {keys[1]}")
                continue
            c = (cell[keys[0]], cell[keys[1]])
            if c not in self.on_board:
                off.append(c)
            elif c in kinds:
                twice.append(c)
            else:
                kinds[c], records[c] = cell.get("type"), cell
        if off:
            report("cell-off-board", f"{len(off)} cell(s) off the board: {self.names(off)}")
        if twice:
            report("cell-duplicate", f"cell(s) described more than once: {self.names(set(twice))}")
        missing = [c for c in self.cells if c not in kinds]
        if missing:
            report("board-complete", f"{len(missing)} of the board's {len(self.cells)} cells are missing: {self.names(missing)}")
        unknown = [c for c, t in kinds.items() if not isinstance(t, str) or t not in self.types]
        if unknown:
            report("cell-type", "; ".join(f"{self.name(c)} is {kinds[c]!r}" for c in sorted(unknown)[:SHOWN])
                   + f"; a cell is one of {', '.join(sorted(self.types))}")
        moved = [c for c, t in self.fixed.items() if c in kinds and kinds[c] != t]
        if moved:
            report("cell-fixed", "; ".join(f"{self.name(c)} is {kinds[c]!r}, not {self.fixed[c]!r}" for c in sorted(moved)[:SHOWN]))
        wrong_label = [c for c, r in records.items() if self.labels and "label" in r and r["label"] != self.labels[c]]
        if wrong_label:
            report("cell-label", "; ".join(f"{self.name(c)} is labelled {records[c]['label']!r}" for c in sorted(wrong_label)[:SHOWN]))
        wrong_value = []
        for c, record in sorted(records.items()):
            values = self.types.get(kinds[c], {}) if isinstance(kinds[c], str) else {}
            for key, value in values.items():
                if record.get(key) != value:
                    wrong_value.append(f"{kinds[c]} at {self.name(c)} has {key} {record.get(key)!r}, not {value!r}")
            declared = {k for vals in self.types.values() for k in vals}
            for key in declared - set(values):
                if key in record:
                    wrong_value.append(f"{kinds[c]} at {self.name(c)} has {key} {record[key]!r} but its type has none")
        if wrong_value:
            report("cell-value", "; ".join(wrong_value[:SHOWN]))
        return {c: t for c, t in kinds.items() if isinstance(t, str)}

    def _members(self, name, kinds) -> list:
        types = self.groups[name]
        return sorted(c for c, t in kinds.items() if t in types)

    def _constraint(self, n, rule, kinds, players, report) -> None:
        kind = next(k for k in rule if k not in ("id", "quote", "policy", "exactly", "min", "max", "per",
                                                  "distance", "values", "within"))
        rule_id = str(rule.get("id") or f"{kind.replace('_', '-')}-{n + 1}")
        quote, policy = str(rule.get("quote", "")), bool(rule.get("policy", False))

        def broken(message):
            report(rule_id, message, quote, policy)

        target = rule[kind]
        if kind == "count":
            cells = self._members(target, kinds)
            for bound in ("exactly", "min", "max"):
                want = rule.get(bound)
                if isinstance(want, dict):
                    want = want.get(players)
                if want is None:
                    continue
                if (bound == "exactly" and len(cells) != want) or (bound == "min" and len(cells) < want) \
                        or (bound == "max" and len(cells) > want):
                    word = {"exactly": "not", "min": "fewer than", "max": "more than"}[bound]
                    broken(f"{len(cells)} {target} cell(s), {word} {want}")
        elif kind == "not_adjacent":
            a, b = self._members(target[0], kinds), set(self._members(target[1], kinds))
            pairs = sorted({tuple(sorted((c, m))) for c in a for m in self._around(c) if m in b and m != c})
            if pairs:
                broken(f"{len(pairs)} pair(s) of touching {target[0]} and {target[1]}: "
                       + "; ".join(f"{self.name(x)} - {self.name(y)}" for x, y in pairs[:SHOWN]))
        elif kind == "adjacent":
            b, need = set(self._members(target[1], kinds)), rule.get("min", 1)
            short = [c for c in self._members(target[0], kinds) if sum(m in b for m in self._around(c)) < need]
            if short:
                broken(f"{target[0]} with fewer than {need} {target[1]} beside: {self.names(short)}")
        elif kind == "min_distance":
            d = rule["distance"]
            dist = grid.distance_fn(self.grid)
            b = self._members(target[1], kinds)
            close = sorted({tuple(sorted((c, m))) for c in self._members(target[0], kinds) for m in b
                            if m != c and dist(c, m) < d})
            if close:
                broken(f"{len(close)} pair(s) of {target[0]} and {target[1]} closer than {d}: "
                       + "; ".join(f"{self.name(x)} - {self.name(y)}" for x, y in close[:SHOWN]))
        elif kind in ("off_edge", "on_edge"):
            wrong = [c for c in self._members(target, kinds) if (c in self.edge) != (kind == "on_edge")]
            if wrong:
                broken(f"{len(wrong)} {target} cell(s) {'not ' if kind == 'on_edge' else ''}on the edge: {self.names(wrong)}")
        elif kind == "connected":
            pieces = grid.components(self._members(target, kinds), self.grid)
            if len(pieces) > 1:
                pieces.sort(key=lambda p: (-len(p), p))
                broken(f"the {target} cells fall into {len(pieces)} pieces; cut off: {self.names(c for p in pieces[1:] for c in p)}")
        elif kind == "quota":
            names, _ = grid.REGION_SCHEMES[rule["per"]]
            region = dict(zip(self.cells, grid.region_of(self.cells, self.grid, rule["per"])))
            counts = [0] * len(names)
            for c in self._members(target, kinds):
                counts[region[c]] += 1
            bad = [f"{names[k]} has {v}" for k, v in enumerate(counts)
                   if (rule.get("min") is not None and v < rule["min"]) or (rule.get("max") is not None and v > rule["max"])]
            if bad:
                broken(f"{target} per {rule['per']} outside {rule.get('min', 0)}-{rule.get('max', 'any')}: {', '.join(bad)}")
        # token and start rules are checked with the tokens and the starts

    def _around(self, c) -> list:
        return grid.neighbours_fn(self.grid)(c)

    def _tokens(self, layout, kinds, report) -> None:
        cells = {layout.coord(c): c for c in layout.cells if isinstance(c, dict) and layout.coord(c) in kinds} \
            if kinds else {}
        for token in self.tokens:
            name, on = token["name"], self.groups[token["over"]]
            wrong = [c for c, t in kinds.items() if (t in on) != (name in cells.get(c, {}))]
            if wrong:
                report("token", f"{name} tokens missing or misplaced at {self.names(wrong)}")
            for n, rule in enumerate(self.constraints):
                if rule.get("tokens_not_adjacent") != name:
                    continue
                hot = {c for c, rec in cells.items() if rec.get(name) in set(rule["values"])}
                pairs = sorted({tuple(sorted((c, m))) for c in hot for m in self._around(c) if m in hot})
                if pairs:
                    rule_id = str(rule.get("id") or f"tokens-not-adjacent-{n + 1}")
                    report(rule_id, f"{len(pairs)} pair(s) of touching {name} tokens {rule['values']}: "
                           + "; ".join(f"{self.name(x)} - {self.name(y)}" for x, y in pairs[:SHOWN]),
                           str(rule.get("quote", "")), bool(rule.get("policy", False)))

    def _starts(self, layout, kinds, report) -> None:
        placements = getattr(layout, "placements", None) or []
        others = [p for p in placements if not (isinstance(p, dict) and p.get("kind") == "start" and self.starts)]
        if others:
            report("placement", f"{len(others)} placement(s) the rules do not declare")
        if not self.starts:
            return
        starts = [p for p in placements if isinstance(p, dict) and p.get("kind") == "start"]
        cells = [tuple(p.get("cell", ())) for p in starts]
        allowed = self.groups[self.starts["over"]]
        bad = [c for c in cells if kinds.get(c) not in allowed]
        players = getattr(layout, "players", None)
        if len(starts) != players or bad or sorted(p.get("player") for p in starts) != list(range(1, len(starts) + 1)):
            report("start", f"{len(starts)} start position(s) for {players!r} players"
                   + (f"; not on {self.starts['over']}: {self.names(bad)}" if bad else ""))
        dist = grid.distance_fn(self.grid)
        for n, rule in enumerate(self.constraints):
            if "start_quota" in rule:
                self._start_quota(n, rule, cells, kinds, dist, report)
                continue
            if "start_distance" not in rule:
                continue
            d = rule["start_distance"]
            close = [(a, b) for i, a in enumerate(cells) for b in cells[i + 1:] if len(a) == 2 and len(b) == 2 and dist(a, b) < d]
            if close:
                rule_id = str(rule.get("id") or f"start-distance-{n + 1}")
                report(rule_id, "start positions closer than " + f"{d}: " + "; ".join(f"{self.name(a)} - {self.name(b)}" for a, b in close),
                       str(rule.get("quote", "")), bool(rule.get("policy", False)))

    def _start_quota(self, n, rule, starts, kinds, dist, report) -> None:
        target, within = rule["start_quota"], rule.get("within", 1)
        members = self._members(target, kinds)
        wrong = []
        for s in starts:
            if len(s) != 2:
                continue
            have = sum(1 for c in members if dist(s, c) <= within)
            if (rule.get("min") is not None and have < rule["min"]) or (rule.get("max") is not None and have > rule["max"]):
                wrong.append(f"{self.name(s)} has {have}")
        if wrong:
            report(str(rule.get("id") or f"start-quota-{n + 1}"),
                   f"{target} within {within} of a start outside {rule.get('min', 0)}-{rule.get('max', 'any')}: "
                   + "; ".join(wrong), str(rule.get("quote", "")), bool(rule.get("policy", False)))
