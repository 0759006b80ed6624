"""The checker of layouts for map rules declared in map.yaml `layout:` (docs/maps.md).

Written apart from the generator (declared.py) and trusting nothing of it: it reads the section
from the file itself, rebuilds the board, and counts from the layout alone. Its counts come from
the `constraints:` (what the rulebook says), never from the `deal:` (what the generator puts
down), so a typo in a bag is caught, not copied. Every rule is reported with its id and quote,
and marked as a policy where the declaration says `policy: true`.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from . import declared_check_areas, declared_check_starts as start_checks, declared_grow_check as grow, \
    declared_laid_check as laid_check, grid
from .declared_check_starts import distance_for as _steps, per_count as _for
from .layout import Layout, LayoutKeys
from .rules import Violation, coords_text, is_int, read_map_yaml

SHOWN = 12
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
STRUCTURE = {
    **grow.STRUCTURE,
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
    "token": "House rule: each cell of the token's types carries one token, and no other cell does; the tokens are the declared ones.",
    "placement": "House rule: the only placements are the players' start positions.",
    "start": "House rule: each player has one start position, on a cell where starts are allowed.",
    "marker": "House rule: a marker is written true, and only on cells of the types it may mark.",
    "outside": "House rule: each space off the board is there once, one step from the board, with its piece.",
    "rules-mode": "House rule: a layout names the rules it was made under as metrics.rules: strict (the default) "
                  "or an option the map declares.",
}
STRICT = "strict"           # a layout's metrics.rules without any option (also when it says nothing)


class Checker:
    def __init__(self, source: "str | Path", game_id: str):
        data = read_map_yaml(Path(source))        # the checked loader, as the rules' reader uses
        self.game_id = game_id
        self.decl = section = data["layout"]
        board = section["board"]
        self.grid = board.get("grid", "hex")
        self.grow = grow.GrowChecks(section)     # a grown board, numbered tiles, pieces, edge marks
        self.laid = board.get("shape") == "laid"      # no printed board: the layout's tiles are the map
        self.cells = [] if self.grow.grown else self._cells(board)
        self.on_board = set(self.cells)
        self.edge = set(grid.edge_cells(self.cells, self.grid))
        walls = [[tuple(a), tuple(b)] for a, b in board.get("walls") or []]
        if walls:                # walled pairs are no neighbours; distances walk around walls
            self._around, self._distance = grid.walled(self.grid, self.cells, walls)
        else:
            self._around, self._distance = grid.neighbours_fn(self.grid), grid.distance_fn(self.grid)
        self.labels = {}
        if board.get("labels") == "row-letter":
            for c in self.cells:
                col, row = grid.axial_to_offset(c)
                self.labels[c] = f"{LETTERS[row % 26]}{col + 1}"
        self.types = {str(k): dict((v or {}).get("values", {})) for k, v in (section.get("types") or {}).items()}
        if not self.grow.grown:                  # a grown board has no cells left over to fill
            self.types.setdefault(str(section.get("fill", "empty")), {})
        self.groups = {**{t: {t} for t in self.types}, **{k: set(v) for k, v in (section.get("groups") or {}).items()}}
        self.fixed = {tuple(c): f["type"] for f in board.get("fixed") or [] for c in f["cells"]}
        players = section.get("players") or {"min": 1, "max": 1}
        self.players = (players.get("min", 1), players.get("max", 1))
        self.tokens = section.get("tokens") or []
        self.starts = section.get("starts")
        self.markers = section.get("markers") or []
        self.outside = section.get("outside") or []
        self.outside_types = {o["type"] for o in self.outside}
        self.constraints = section.get("constraints") or []
        self.places = declared_check_areas.Places(self)
        self.keys = self._keys()

    def _keys(self) -> LayoutKeys:
        """What the declaration lets a cell carry (its place, type, label, its type's values, the
        tokens and markers) and a placement (a start's seat and fields, the pieces off the board)."""
        cells = {*(("q", "r") if self.grid == "hex" else ("x", "y")), "type", "label"}
        cells |= {k for values in self.types.values() for k in values}
        cells |= {t["name"] for t in self.tokens} | {m["name"] for m in self.markers}
        cells |= {k for o in self.outside for k in (o.get("values") or {})} | self.grow.cell_keys()
        cells |= laid_check.cell_keys(self.decl)
        placements = {"kind", "cell", "player", "role", *((self.starts or {}).get("fields") or {})}
        placements |= {"label"} if (self.starts or {}).get("labels") else set()      # drawing only
        placements |= self.grow.placement_keys()
        placements |= {"owner", "roll"} if laid_check.piece_kinds(self.decl) else set()
        placements |= {k for o in self.outside for k in (o.get("piece") or {})}
        cells |= self.places.cell_keys()
        placements |= self.places.piece_keys()
        return LayoutKeys(frozenset(cells), frozenset(placements))

    def _cells(self, board) -> list:
        shape = board.get("shape", "rectangle")
        if shape == "laid":
            return []                        # read from each layout (check)
        if shape == "cells":
            return [tuple(c) for c in board["cells"]]
        if shape == "hexagon":
            return grid.hex_disc((0, 0), board["radius"])
        if shape == "rows":
            return [c for row, first, last in board["rows"] for c in grid.row_cells(row, first, last, self.grid)]
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

        if self.laid:
            laid_check.lay(self, layout)
        kinds = self._structure(layout, report)
        players = getattr(layout, "players", None)
        self._allowed = self._allowance(layout, players, report)
        for n, rule in enumerate(self.constraints):
            self._constraint(n, rule, kinds, players, report)
        self._tokens(layout, kinds, report)
        self._starts(layout, kinds, report)
        self._markers(layout, kinds, report)
        self._outside(layout, report)
        if kinds:
            self.places.check(layout, kinds, self._records, report)
        self.grow.check(layout, {c: t for c, t in kinds.items() if t in self.types}, self._records, self.edge, report,
                        self.name)
        if self.laid:
            laid_check.check(self, layout, kinds, report)
        return out

    def _structure(self, layout, report) -> dict:
        if getattr(layout, "game", None) != self.game_id:
            report("game", f"the layout is for {getattr(layout, 'game', None)!r}, not {self.game_id!r}")
        players = getattr(layout, "players", None)
        low, high = self.players
        if not is_int(players) or not low <= players <= high:
            report("players", f"{players!r} players; the game is for {low}-{high}")
        spec = getattr(layout, "grid", None)
        orientation = self.decl["board"].get("orientation", "pointy") if self.grid == "hex" else None
        if not isinstance(spec, dict) or spec.get("type") != self.grid or spec.get("orientation", orientation) != orientation:
            report("grid", f"grid {spec!r}; the board is a {self.grid} grid" + (f", {orientation}" if orientation else ""))
        keys = ("q", "r") if self.grid == "hex" else ("x", "y")
        kinds, records, off, twice = {}, {}, [], []
        self._spaces = {}                      # off the board, of a type declared under outside:
        for n, cell in enumerate(getattr(layout, "cells", None) or []):
            if not isinstance(cell, dict) or not all(is_int(cell.get(k)) for k in keys):
                report("cell-shape", f"cell {n + 1} ({cell!r:.60}) has no whole-number {keys[0]}, {keys[1]}")
                continue
            c = (cell[keys[0]], cell[keys[1]])
            outside = c not in self.on_board and not self.grow.grown    # a grown board: every cell laid is on it
            if outside and cell.get("type") in self.outside_types and c not in self._spaces:
                self._spaces[c] = cell
            elif outside:
                off.append(c)
            elif c in kinds:
                twice.append(c)
            else:
                kinds[c], records[c] = cell.get("type"), cell
        self._records = records
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
                if isinstance(value, list):           # each tile carries one of these (1 is not true)
                    if not any(declared_check_areas.same(record.get(key), v) for v in value):
                        wrong_value.append(f"{kinds[c]} at {self.name(c)} has {key} {record.get(key)!r}, not one of {value}")
                elif record.get(key) != value:
                    wrong_value.append(f"{kinds[c]} at {self.name(c)} has {key} {record.get(key)!r}, not {value!r}")
            declared = {k for vals in self.types.values() for k in vals}
            for key in declared - set(values):
                if key in record:
                    wrong_value.append(f"{kinds[c]} at {self.name(c)} has {key} {record[key]!r} but its type has none")
        if wrong_value:
            report("cell-value", "; ".join(wrong_value[:SHOWN]))
        return {c: t for c, t in kinds.items() if isinstance(t, str)}

    def _allowance(self, layout, players, report) -> dict:
        """rule id -> the breaks the layout's mode (metrics.rules: strict, or an option of
        `options:`) allows it; an unknown mode is reported and checked as strict."""
        options = self.decl.get("options") or {}
        metrics = getattr(layout, "metrics", None)
        self._mode = mode = metrics.get("rules", STRICT) if isinstance(metrics, dict) else STRICT
        if mode != STRICT and not (isinstance(mode, str) and mode in options):
            report("rules-mode", f"metrics.rules is {mode!r}, not {' or '.join([STRICT, *map(str, options)])}; "
                                 f"checked as {STRICT}")
            self._mode = mode = STRICT
        named = {str(rule_id) for option in options.values() for rule_id in (option or {}).get("allow") or {}}
        allow = (options.get(mode) or {}).get("allow") or {} if mode != STRICT else {}
        return {**{rule_id: 0 for rule_id in named}, **{str(k): _steps(v, players) for k, v in allow.items()}}

    def _members(self, name, kinds) -> list:
        types = self.groups[name]
        return sorted(c for c, t in kinds.items() if t in types)

    def _constraint(self, n, rule, kinds, players, report) -> None:
        kind = next(k for k in rule if k not in ("id", "quote", "policy", "exactly", "min", "max", "per",
                                                  "distance", "values", "within", "cells", "where",
                                                  "from", "by", "step", "equal", "spread", "in", *grow.ARGS,
                                                  *laid_check.ARGS))
        rule_id = str(rule.get("id") or f"{kind.replace('_', '-')}-{n + 1}")
        quote, policy = str(rule.get("quote", "")), bool(rule.get("policy", False))

        def broken(message, breaks=None):
            """A rule an option names allows that many breaks in the layout's mode."""
            if breaks is not None and rule_id in self._allowed:
                if breaks <= self._allowed[rule_id]:
                    return
                message += f" ({self._mode} allows {self._allowed[rule_id]})"
            report(rule_id, message, quote, policy)

        target = rule[kind]
        if isinstance(rule.get("in"), dict):            # a rule about one place of the board
            kinds = {c: t for c, t in kinds.items() if c in self.places.select(rule["in"])}
        if kind == "count":
            cells = self._members(target, kinds)
            only = rule.get("where") or {}
            cells = [c for c in cells if all(declared_check_areas.same(self._records[c].get(k), v) for k, v in only.items())]
            if only:
                target = f"{target} ({', '.join(f'{k} {v}' for k, v in only.items())})"
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
                       + "; ".join(f"{self.name(x)} - {self.name(y)}" for x, y in pairs[:SHOWN]), len(pairs))
        elif kind == "adjacent":
            b, need = set(self._members(target[1], kinds)), _for(rule.get("min", 1), players)
            short = [c for c in self._members(target[0], kinds) if sum(m in b for m in self._around(c)) < need]
            if short:
                broken(f"{target[0]} with fewer than {need} {target[1]} beside: {self.names(short)}")
        elif kind == "min_distance":
            d = _steps(rule["distance"], players)
            dist = self._distance
            everywhere = {**kinds, **{c: rec.get("type") for c, rec in self._spaces.items()}}
            b = self._members(target[1], everywhere)
            close = sorted({tuple(sorted((c, m))) for c in self._members(target[0], everywhere) for m in b
                            if m != c and dist(c, m) < d})
            if close:
                broken(f"{len(close)} pair(s) of {target[0]} and {target[1]} closer than {d}: "
                       + "; ".join(f"{self.name(x)} - {self.name(y)}" for x, y in close[:SHOWN]), len(close))
        elif kind in ("off_edge", "on_edge"):
            wrong = [c for c in self._members(target, kinds) if (c in self.edge) != (kind == "on_edge")]
            if wrong:
                broken(f"{len(wrong)} {target} cell(s) {'not ' if kind == 'on_edge' else ''}on the edge: {self.names(wrong)}",
                       len(wrong))
        elif kind == "near":
            d, dist = _steps(rule.get("distance", 0), players), self._distance
            far = [c for c in self._members(target, kinds) if all(dist(c, tuple(m)) > d for m in rule["cells"])]
            if far:
                broken(f"{len(far)} {target} cell(s) more than {d} step(s) from {self.names(tuple(m) for m in rule['cells'])}: "
                       + self.names(far), len(far))
        elif kind == "reachable":
            self._reachable(rule, target, kinds, broken, players)
        elif kind == "clusters":
            most = _for(rule["max"], players)
            big = [p for t in sorted(self.groups[target]) for p in grid.components(
                [c for c, k in kinds.items() if k == t], self.grid, self._around) if most is not None and len(p) > most]
            if big:
                broken(f"{len(big)} connected piece(s) of one {target} type larger than {most}: "
                       + "; ".join(f"{kinds[p[0]]} {self.names(p)}" for p in big[:SHOWN]))
        elif kind in ("start_edge", "start_nearest") or kind in grow.RULES:
            pass                        # checked with the starts, or by declared_grow_check
        elif kind == "connected":
            pieces = grid.components(self._members(target, kinds), self.grid, self._around)
            if len(pieces) > 1:
                pieces.sort(key=lambda p: (-len(p), p))
                broken(f"the {target} cells fall into {len(pieces)} pieces; cut off: {self.names(c for p in pieces[1:] for c in p)}")
        elif kind == "quota":
            names, region = self._region(rule["per"])
            counts = [0] * len(names)
            only = rule.get("where") or {}
            for c in self._members(target, kinds):
                if c in region and all(declared_check_areas.same(self._records[c].get(k), v) for k, v in only.items()):
                    counts[region[c]] += 1
            held = sorted({region[c] for c in kinds if c in region}) if "in" in rule else range(len(names))
            low, high = _for(rule.get("min"), players), _for(rule.get("max"), players)
            bad = [f"{names[k]} has {counts[k]}" for k in held
                   if (low is not None and counts[k] < low) or (high is not None and counts[k] > high)]
            what = f"{target}" + (f" ({', '.join(f'{k} {v}' for k, v in only.items())})" if only else "")
            if bad:
                broken(f"{what} per {rule['per']} outside {low or 0}-{'any' if high is None else high}: {', '.join(bad)}")
            spread = _for(rule.get("spread"), players)
            if spread is not None and held and max(counts[k] for k in held) - min(counts[k] for k in held) > spread:
                broken(f"{what} per {rule['per']}: " + ", ".join(f"{names[k]} {counts[k]}" for k in held)
                       + f" (more than {spread} apart)")
        # token and start rules are checked with the tokens and the starts

    def _reachable(self, rule, target, kinds, broken, players) -> None:
        """Breadth-first from every `from` cell, a step allowed where `by` changes by at most `step`."""
        by, step = rule["by"], _steps(rule.get("step", 1), players)

        def height(c):
            v = self._records[c].get(by, 0)
            return v if isinstance(v, (int, float)) and not isinstance(v, bool) else 0

        start = self._members(rule["from"], kinds)
        seen, queue = set(start), list(start)
        while queue:
            c = queue.pop(0)
            for m in self._around(c):
                if m in kinds and m not in seen and abs(height(m) - height(c)) <= step:
                    seen.add(m)
                    queue.append(m)
        cut = [c for c in self._members(target, kinds) if c not in seen]
        if cut:
            broken(f"{target} cell(s) {self.names(cut)} cannot be reached from {rule['from']} "
                   f"in steps of at most {step} {by}")

    def _region(self, name) -> tuple:
        """(part names, cell -> part) of a built-in cut of the board or one the pack draws."""
        own = (self.decl.get("regions") or {}).get(name)
        if own is None:
            return grid.REGION_SCHEMES[name][0], dict(zip(self.cells, grid.region_of(self.cells, self.grid, name)))
        return tuple(own), {tuple(c): k for k, cells in enumerate(own.values())
                            for c in (sorted(self.places.select(cells)) if isinstance(cells, dict) else cells)}

    def _tokens(self, layout, kinds, report) -> None:
        cells = {layout.coord(c): c for c in layout.cells if isinstance(c, dict) and layout.coord(c) in kinds} \
            if kinds else {}
        for token in self.tokens:
            name, on = token["name"], self.groups[token["over"]]
            wrong = [c for c, t in kinds.items() if (t in on) != (name in cells.get(c, {}))]
            if wrong:
                report("token", f"{name} tokens missing or misplaced at {self.names(wrong)}")
            self._token_values(token, [rec[name] for rec in cells.values() if name in rec], layout, report)
            for n, rule in enumerate(self.constraints):
                if rule.get("tokens_not_adjacent") != name:
                    continue
                values = rule.get("values") or []
                hot = {c: rec.get(name) for c, rec in cells.items()
                       if name in rec and (not values or rec.get(name) in values)}
                pairs = sorted({tuple(sorted((c, m))) for c in hot for m in self._around(c) if m in hot
                                and (not rule.get("equal") or _typed(hot[m]) == _typed(hot[c]))})
                if pairs:
                    rule_id = str(rule.get("id") or f"tokens-not-adjacent-{n + 1}")
                    what = "equal " if rule.get("equal") else ""
                    listed = f" {values}" if values else ""
                    report(rule_id, f"{len(pairs)} pair(s) of touching {what}{name} tokens{listed}: "
                           + "; ".join(f"{self.name(x)} - {self.name(y)}" for x, y in pairs[:SHOWN]),
                           str(rule.get("quote", "")), bool(rule.get("policy", False)))

    def _token_values(self, token, have: list, layout, report) -> None:
        """The values on the board are the declared ones for this player count, each as often
        (a 7 never dealt, a second 12, the text "3" for 3 are all wrong)."""
        values = token["values"]
        if isinstance(values, dict):
            values = values.get(getattr(layout, "players", None))
        if not isinstance(values, list):
            return                           # a player count the game does not have: said by `players`
        extra, missing = Counter(map(_typed, have)), Counter(map(_typed, values))
        extra, missing = extra - missing, missing - extra
        if extra or missing:
            said = lambda c: ", ".join(text for text, _ in sorted(c.elements()))
            report("token", f"{token['name']} tokens differ from the declared ones"
                   + (f": not dealt {said(extra)}" if extra else "") + (f"; missing {said(missing)}" if missing else ""))

    def _starts(self, layout, kinds, report) -> None:
        placements = getattr(layout, "placements", None) or []
        piece = (self.starts or {}).get("around_piece")
        declared = ({"start", piece} if self.starts else set()) | {o["piece"]["kind"] for o in self.outside if o.get("piece")} \
            | self.places.kinds() | self.grow.kinds() | laid_check.piece_kinds(self.decl)
        others = [p for p in placements if not (isinstance(p, dict) and isinstance(p.get("kind"), str)
                                                and p["kind"] in declared)]
        if others:
            report("placement", f"{len(others)} placement(s) the rules do not declare")
        if not self.starts:
            return
        starts = [p for p in placements if isinstance(p, dict) and p.get("kind") == "start"]
        cells = [tuple(p.get("cell", ())) if isinstance(p.get("cell"), list) else () for p in starts]
        allowed = self.groups[self.starts["over"]]
        bad = [c for c in cells if kinds.get(c) not in allowed]
        players = getattr(layout, "players", None)
        seats = [self._seat(p) for p in starts]
        shared = sorted({c for c in cells if len(c) == 2 and cells.count(c) > 1})
        if shared:
            report("start", f"two or more players start on {self.names(shared)}; each start has its own cell")
        if len(starts) != players or bad or sorted(seats, key=repr) != sorted(range(1, len(starts) + 1), key=repr):
            report("start", f"{len(starts)} start position(s) for {players!r} players"
                   + (f"; not on {self.starts['over']}: {self.names(bad)}" if bad else "")
                   + ("; some start's role and player do not agree with the declared roles" if None in seats else ""))
        self._start_setup(starts, cells, placements, piece, kinds, report)
        dist = self._distance
        for n, rule in enumerate(self.constraints):
            if "start_quota" in rule:
                start_checks.start_quota(self, n, rule, cells, kinds, dist, report, players)
                continue
            if "start_areas_apart" in rule:
                start_checks.start_areas_apart(self, n, rule, cells, kinds, report)
                continue
            if "start_edge" in rule or "start_nearest" in rule:
                start_checks.start_where(self, n, rule, [c for c in cells if c in kinds], kinds, dist, report, players)
                continue
            if "start_distance" not in rule:
                continue
            d = _steps(rule["start_distance"], players)
            close = [(a, b) for i, a in enumerate(cells) for b in cells[i + 1:] if len(a) == 2 and len(b) == 2 and dist(a, b) < d]
            if close:
                rule_id = str(rule.get("id") or f"start-distance-{n + 1}")
                report(rule_id, "start positions closer than " + f"{d}: " + "; ".join(f"{self.name(a)} - {self.name(b)}" for a, b in close),
                       str(rule.get("quote", "")), bool(rule.get("policy", False)))

    def _markers(self, layout, kinds, report) -> None:
        """Each marker on its types only, then the rules about it: how many, how far apart, off the
        starts' areas."""
        players = getattr(layout, "players", None)
        placements = getattr(layout, "placements", None) or []
        starts = [tuple(p["cell"]) for p in placements if isinstance(p, dict) and p.get("kind") == "start"
                  and isinstance(p.get("cell"), list) and len(p["cell"]) == 2]
        areas = {c for s in starts for c in (s, *(m for m in self._around(s) if m in kinds))}
        dist = self._distance
        for marker in self.markers:
            name, over = marker["name"], self.groups[marker["over"]]
            marked = sorted(c for c, rec in self._records.items() if name in rec)
            wrong = [c for c in marked if self._records[c][name] is not True or kinds.get(c) not in over]
            if wrong:
                report("marker", f"{name} on {self.names(wrong)}: it is true, on {marker['over']} only")
            for n, rule in enumerate(self.constraints):
                kind = next((k for k in ("marked", "marker_distance", "marker_off_start_areas") if rule.get(k) == name), None)
                if kind is None:
                    continue
                rule_id = str(rule.get("id") or f"{kind.replace('_', '-')}-{n + 1}")
                quote, policy = str(rule.get("quote", "")), bool(rule.get("policy", False))
                if kind == "marked":
                    want = {b: rule[b].get(getattr(layout, "players", None)) if isinstance(rule[b], dict) else rule[b]
                            for b in ("exactly", "min", "max") if b in rule}
                    n_marked = len(marked)
                    bad = [f"not {b} {w}" for b, w in want.items() if w is not None and not
                           {"exactly": n_marked == w, "min": n_marked >= w, "max": n_marked <= w}[b]]
                    if bad:
                        report(rule_id, f"{name} on {len(marked)} cell(s) ({self.names(marked)}): " + "; ".join(bad), quote, policy)
                elif kind == "marker_distance":
                    close = [(a, b) for i, a in enumerate(marked) for b in marked[i + 1:] if dist(a, b) < _steps(rule["distance"], players)]
                    if close:
                        report(rule_id, f"{name} closer than {rule['distance']}: "
                               + "; ".join(f"{self.name(a)} - {self.name(b)}" for a, b in close[:SHOWN]), quote, policy)
                else:
                    hit = [c for c in marked if c in areas]
                    if hit:
                        report(rule_id, f"{name} on a start or beside one: {self.names(hit)}", quote, policy)

    def _outside(self, layout, report) -> None:
        """Each declared space off the board once, one step from it, holding its piece."""
        problems = []
        left = dict(self._spaces)
        pieces = [p for p in getattr(layout, "placements", None) or []
                  if isinstance(p, dict) and isinstance(p.get("kind"), str)
                  and p["kind"] in {o.get("piece", {}).get("kind") for o in self.outside}]
        for space in self.outside:
            values = space.get("values") or {}
            where = [c for c, rec in sorted(left.items()) if rec.get("type") == space["type"]
                     and all(rec.get(k) == v for k, v in values.items())]
            if len(where) != 1:
                problems.append(f"{len(where)} {space['type']} space(s) with {values}")
            for c in where:
                del left[c]
                if not any(m in self.on_board for m in self._around(c)):
                    problems.append(f"the {space['type']} space at {self.name(c)} is not one step from the board")
                piece = space.get("piece")
                if piece:
                    here = [p for p in pieces if p.get("cell") == list(c)]
                    if len(here) != 1 or any(here[0].get(k) != v for k, v in piece.items()):
                        problems.append(f"the {space['type']} space at {self.name(c)} holds {here!r:.80}, not its {piece['kind']}")
        if left:
            problems.append(f"spaces off the board that none of outside: declares: {self.names(left)}")
        stray = [p for p in pieces if not isinstance(p.get("cell"), list) or tuple(p["cell"]) not in self._spaces]
        if stray:
            problems.append(f"{len(stray)} piece(s) not on a space off the board")
        if problems:
            report("outside", "; ".join(problems[:SHOWN]))

    def _seat(self, piece: dict):
        """The player a start or piece belongs to: its role's place in the declared roles (a
        `player` given too must agree), else its `player`; None when neither says."""
        roles, player = self.starts.get("roles"), piece.get("player")
        if not roles:
            return player
        seat = roles.index(piece["role"]) + 1 if piece.get("role") in roles else None
        return seat if player is None or player == seat else None

    def _start_setup(self, starts, cells, placements, piece, kinds, report) -> None:
        """Roles, the start cell's neighbours, the start's own fields and the pieces set beside it."""
        decl, problems = self.starts, []
        roles = decl.get("roles")
        fields = decl.get("fields") or {}
        around = self.groups.get(decl.get("around"))
        beside = [p for p in placements if isinstance(p, dict) and piece and p.get("kind") == piece]
        wanted = []
        for p, c in zip(starts, cells):
            if len(c) != 2 or c not in kinds:
                continue
            seat = self._seat(p)
            ring = [m for m in self._around(c) if m in kinds]
            if decl.get("neighbours") is not None and len(ring) != decl["neighbours"]:
                problems.append(f"the start at {self.name(c)} has {len(ring)} neighbours, not {decl['neighbours']}")
            if around is not None and any(kinds[m] not in around for m in ring):
                problems.append(f"beside the start at {self.name(c)} lies what is not {decl['around']}")
            wrong = [k for k, v in fields.items() if p.get(k) != v]
            if wrong:
                problems.append(f"the start at {self.name(c)} has {', '.join(f'{k} {p.get(k)!r}' for k in wrong)}")
            if piece:
                wanted += [(m, seat) for m in ring]
        if piece:
            have = sorted(((tuple(p.get("cell")) if isinstance(p.get("cell"), list) else (), self._seat(p))
                           for p in beside), key=repr)
            wanted.sort(key=repr)
            if have != wanted:
                problems.append(f"{piece} pieces are not one beside each start, of its player")
        if problems:
            report("start", "; ".join(problems[:SHOWN]))


def _typed(value) -> tuple:
    """A token value with its JSON type, so 3 and "3" (and true and 1) count apart."""
    return (repr(value), type(value).__name__)
