"""Map rules as data: the `layout:` section of a pack's map.yaml, in the vocabulary of
docs/maps.md, checked (every mistake named with its place in the file), and the generic
generator that deals random legal layouts from it. The checker of such layouts is written apart,
in declared_check.py, and reads the same section on its own.

Generation: the bags are dealt one tile at a time onto a free cell drawn from those where the
tile breaks no placement rule (edge, adjacency, distance) with what is already down; when no
cell is left for a tile, a random tile already down is lifted again and dealing goes on (a
whole-board restart would rarely finish a crowded board). The rules about the whole board
(counts, connected regions, required neighbours, quotas) are then checked, and the board is
dealt again if one fails. Number tokens and start positions come last, the same way. Balancing
is the engine's: the best of `tries` legal layouts by the declared objective.
"""
from __future__ import annotations

import copy
import difflib
import random
import re
from dataclasses import dataclass
from pathlib import Path

from . import grid
from .layout import Layout
from .rules import MapError, MapOptions, is_int

MAX_ATTEMPTS = 400          # boards dealt before giving up (the default budget)
MAX_BUDGET = 100_000        # the most --budget may ask for
REPAIRS = 2000              # tiles lifted again on one board before dealing it again
TOKEN_DEALS = 20            # token deals tried on one board before dealing it again
MAX_CELLS = 2_000           # cells of a board (a 44 x 44 map): distance tables grow with its square
MAX_NUMBER = 10 ** 6        # a number in the declaration: sums over a board stay far inside what --check reads

BOARD_SHAPES = ("rectangle", "hexagon", "rows", "cells")
LOCAL_RULES = ("not_adjacent", "min_distance", "off_edge", "on_edge", "near")
GLOBAL_RULES = ("count", "adjacent", "connected", "quota", "reachable")
TOKEN_RULES = ("tokens_not_adjacent",)
START_RULES = ("start_distance", "start_quota", "start_areas_apart", "marker_off_start_areas")
MARKER_RULES = ("marked", "marker_distance", "marker_off_start_areas")
RULES = LOCAL_RULES + GLOBAL_RULES + TOKEN_RULES + START_RULES + ("marked", "marker_distance")
OBJECTIVES = ("region_spread", "start_spread")


class DeclarationError(Exception):
    pass


class NoLayout(MapError):
    """No board of the budget met every rule: says which rules rejected most boards."""
    SHOWN = 5

    def __init__(self, game_id: str, source: str, budget: int, rejected: dict):
        self.budget, self.rejected = budget, dict(rejected)
        worst = sorted(rejected.items(), key=lambda kv: (-kv[1], kv[0]))
        said = ", ".join(f"{rule} {n:,}" for rule, n in worst[:self.SHOWN])
        more = f" and {len(worst) - self.SHOWN} more" if len(worst) > self.SHOWN else ""
        super().__init__(f"{game_id}: no layout meets every rule of {source} in {budget:,} "
                         f"board{'s' if budget != 1 else ''}; boards "
                         f"rejected by: {said}{more}; loosen {worst[0][0] if worst else 'a rule'}, deal fewer "
                         f"tiles, or raise the budget (--budget {min(budget * 10, MAX_BUDGET):,})")


@dataclass
class Rule:
    kind: str
    id: str
    quote: str
    policy: bool
    args: dict


@dataclass
class Declared:
    grid: str
    orientation: str
    coords: list
    labels: list
    fixed: dict                         # cell index -> type
    players: tuple
    fill: str
    types: dict                         # type -> its values (written onto its cells)
    groups: dict                        # name -> frozenset of types (every type is its own group)
    deal: list                          # (sides: tuple of types, count per players: dict, option, max, tile values)
    tokens: list                        # {name, values per players, on: frozenset}
    rules: list
    starts: dict | None
    objective: list
    tries: int
    source: str = ""
    markers: list | None = None         # {name, over: frozenset, count per players}
    outside: list | None = None         # {type, values, piece}: spaces off the board, one step from it


class _Reader:
    """Reads the declaration, naming each mistake by its path in map.yaml."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, where: str, message: str, hint: str = "") -> None:
        raise DeclarationError(f"{self.mark(where)}: layout.{where}: {message}" + (f"; {hint}" if hint else ""))

    def mark(self, where: str) -> str:
        """file:line:col of the value at `where` (e.g. constraints[3].distance), as far as it exists."""
        from ..errors import Reporter, display_path
        from ..yamlsrc import SrcDict, SrcList, load_yaml
        try:
            node = load_yaml(Path(self.source), Reporter())
        except (OSError, ValueError):
            return self.source
        if not isinstance(node, SrcDict) or "layout" not in node:
            return display_path(Path(self.source))
        mark, node = node.value_mark("layout"), node["layout"]
        for step in re.findall(r"[^.\[\]]+|\[\d+\]", where.split(" ")[0]):
            if step.startswith("[") and isinstance(node, SrcList) and int(step[1:-1]) - 1 < len(node):
                mark, node = node.item_mark(int(step[1:-1]) - 1), node[int(step[1:-1]) - 1]
            elif isinstance(node, SrcDict) and step in node:
                mark, node = node.value_mark(step), node[step]
            else:
                break
        return str(mark)

    def mapping(self, value, where) -> dict:
        if not isinstance(value, dict):
            self.fail(where, f"must be a mapping of keys, not {value!r}")
        return value

    def keys(self, value: dict, where: str, allowed) -> None:
        for key in value:
            if key not in allowed:
                close = difflib.get_close_matches(str(key), list(allowed), 1)
                self.fail(where, f"unknown key '{key}'",
                          f"did you mean '{close[0]}'?" if close else f"use {', '.join(allowed)}")

    def entries(self, value, name: str, allowed):
        """(where, entry) of each mapping in a list section, its keys checked."""
        if value is not None and not isinstance(value, list):
            self.fail(name, f"must be a list, not {value!r}")
        for n, entry in enumerate(value or []):
            where = f"{name}[{n + 1}]"
            entry = self.mapping(entry, where)
            self.keys(entry, where, allowed)
            yield where, entry

    def whole(self, value, where, low=0, high=100_000) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            self.fail(where, f"must be a whole number from {low} to {high}, not {value!r}")
        return value

    def per_players(self, value, where, players) -> dict:
        """A number, or {player count: number} for every allowed player count."""
        low, high = players[0], players[1]
        if isinstance(value, dict):
            out = {self.whole(k, f"{where} (player count)", 1, 99): self.whole(v, f"{where}.{k}") for k, v in value.items()}
            missing = [n for n in range(low, high + 1) if n not in out]
            if missing:
                self.fail(where, f"gives no number for {', '.join(map(str, missing))} players",
                          "give one for every player count")
            return out
        number = self.whole(value, where)
        return {n: number for n in range(low, high + 1)}


def load(section, source: "str | Path" = "map.yaml") -> Declared:
    """The `layout:` section -> a checked Declared; DeclarationError names the first mistake."""
    rd = _Reader(str(source))
    section = rd.mapping(section, "")
    rd.keys(section, "", ("board", "players", "fill", "types", "groups", "deal", "tokens",
                          "constraints", "starts", "objective", "tries", "markers", "outside"))
    board = rd.mapping(section.get("board"), "board")
    rd.keys(board, "board", ("grid", "orientation", "shape", "cols", "rows", "radius", "cells", "labels", "fixed"))
    grid_type = board.get("grid", "hex")
    if grid_type not in ("hex", "square"):
        rd.fail("board.grid", f"is {grid_type!r}", "use hex or square")
    coords = _board_cells(rd, board, grid_type)
    _numbers_bounded(rd, section)
    labels = _labels(rd, board, coords, grid_type)
    players = _players(rd, section.get("players", {"min": 1, "max": 1}))
    types = {}
    for name, spec in rd.mapping(section.get("types", {}), "types").items():
        spec = rd.mapping(spec or {}, f"types.{name}")
        rd.keys(spec, f"types.{name}", ("values",))
        types[str(name)] = dict(rd.mapping(spec.get("values", {}), f"types.{name}.values"))
    fill = str(section.get("fill", "empty"))
    types.setdefault(fill, {})
    groups = {name: frozenset([name]) for name in types}
    for name, members in rd.mapping(section.get("groups", {}), "groups").items():
        if name in types:
            rd.fail(f"groups.{name}", "has the name of a type", "give the group another name")
        if not isinstance(members, list) or not members:
            rd.fail(f"groups.{name}", "must be a list of types")
        for m in members:
            _known(rd, f"groups.{name}", m, types)
        groups[str(name)] = frozenset(members)
    index = {c: i for i, c in enumerate(coords)}
    fixed = _fixed(rd, board.get("fixed", []), index, types, grid_type)
    deal = _deal(rd, section.get("deal", []), types, players)
    tokens = _tokens(rd, section.get("tokens", []), groups, players)
    markers = _markers(rd, section.get("markers", []), groups, players)
    rules = [_rule(rd, n, r, groups, tokens, markers, players)
             for n, r in enumerate(section.get("constraints", []) or [])]
    starts = _starts(rd, section.get("starts"), groups, players)
    if starts is None and any(r.kind in START_RULES for r in rules):
        rd.fail("starts", "the start rules need start positions", "add starts: {over: TYPE, near: 1}")
    objective = _objective(rd, section.get("objective", []), types, starts, tokens)
    for t in sorted({fill, *fixed.values()}):
        if any(isinstance(v, list) for v in types[t].values()):
            rd.fail(f"types.{t}.values", "lists choices, but its cells are not dealt from a bag",
                    "give the fill and fixed types one value each")
    for n, rule in enumerate(rules):
        if rule.kind == "near" and fill in rule.args["a"]:
            rd.fail(f"constraints[{n + 1}].near", f"names the fill type {fill!r}, which is never dealt",
                    "keep near: to dealt types")
    spec = Declared(grid_type, board.get("orientation", "pointy"), coords, labels, fixed, players, fill,
                    types, groups, deal, tokens, rules, starts, objective,
                    rd.whole(section.get("tries", 40), "tries", 1, 10_000), str(source), markers,
                    _outside(rd, section.get("outside", []), types))
    _deal_fits_board(rd, spec)
    _deal_meets_counts(rd, spec)
    _markers_meet_counts(rd, spec)
    _rules_name_what_is_there(rd, spec)
    return spec


def _numbers_bounded(rd, section) -> None:
    """Every number finite and within ±MAX_NUMBER: a value written onto a layout (or summed into
    its metrics) is then one that `--check` reads back, never NaN, Infinity or 21 digits."""
    stack = [(section, "")]
    while stack:
        node, where = stack.pop()
        if isinstance(node, dict):
            stack += [(v, f"{where}.{k}" if where else str(k)) for k, v in node.items()]
        elif isinstance(node, list):
            stack += [(v, f"{where}[{n + 1}]") for n, v in enumerate(node)]
        elif isinstance(node, (int, float)) and not isinstance(node, bool) and not abs(node) <= MAX_NUMBER:
            rd.fail(where, f"the number {node!r:.24} is not finite or not within ±{MAX_NUMBER:,}",
                    "give a smaller number")


def _deal_fits_board(rd, spec: Declared) -> None:
    """More tiles than cells can never be dealt: said now, not after 400 boards."""
    for players in range(spec.players[0], spec.players[1] + 1):
        tiles = sum(high if option else count[players] for _, count, option, high, _ in spec.deal)
        room = len(spec.coords) - len(spec.fixed)
        if tiles > room:
            rd.fail("deal", f"deals {tiles:,} tiles with {players} players onto {room:,} free cells",
                    "deal fewer tiles or draw a larger board")


def _on_board(spec: Declared) -> set:
    """The types a layout can hold: dealt (for some player count or option), fixed, the fill,
    or a space off the board."""
    dealt = {side for sides, count, option, high, _ in spec.deal
             if (high if option else max(count.values(), default=0)) > 0 for side in sides}
    return dealt | set(spec.fixed.values()) | {spec.fill} | {o["type"] for o in spec.outside or []}


def _rules_name_what_is_there(rd, spec: Declared) -> None:
    """A rule, token, start or marker over types no layout can hold would pass on every layout
    (or fail every one): a typo or a bag left out, refused with its place."""
    there = _on_board(spec)
    names = {v: k for k, v in spec.groups.items()}
    for n, rule in enumerate(spec.rules):
        for key in ("a", "b", "from"):
            if key in rule.args and not rule.args[key] & there:
                rd.fail(f"constraints[{n + 1}].{rule.kind if key == 'a' else key}",
                        f"'{names.get(rule.args[key], '?')}' is never on the board: no bag deals it, "
                        f"no fixed cell holds it and it is not the fill", "deal it, or remove the rule")
    for where, over in ([(f"tokens[{n + 1}].over", t["over"]) for n, t in enumerate(spec.tokens)]
                        + [(f"markers[{n + 1}].over", m["over"]) for n, m in enumerate(spec.markers or [])]
                        + ([("starts.over", spec.starts["over"])] if spec.starts else [])):
        if not over & there:
            rd.fail(where, f"'{names.get(over, '?')}' is never on the board: no bag deals it, no fixed cell "
                    f"holds it and it is not the fill", "deal it, or name a type that is dealt")


def _markers_meet_counts(rd, spec: Declared) -> None:
    """A marker count that breaks a `marked` rule is a typo: said now."""
    count = {m["name"]: m["count"] for m in spec.markers}
    for rule in spec.rules:
        if rule.kind != "marked":
            continue
        for players in range(spec.players[0], spec.players[1] + 1):
            have = count[rule.args["marker"]][players]
            bounds = {k: (v.get(players) if isinstance(v, dict) else v) for k, v in rule.args.items() if k in ("exactly", "min", "max")}
            if not _within(have, bounds):
                rd.fail(f"constraints ({rule.id})", f"asks for {bounds} {rule.args['marker']} with {players} players, "
                        f"but markers: puts {have}", "fix the count in markers: or in the rule")


def _too_many_cells(rd, where: str, n: int) -> None:
    """Refused before the cells are made: a board is bounded, not built and then measured."""
    if n > MAX_CELLS:
        rd.fail(where, f"makes a board of {n:,} cells, over the limit of {MAX_CELLS:,}",
                "split the map, or draw a smaller board")


def _board_cells(rd, board, grid_type) -> list:
    shape = board.get("shape", "rectangle")
    if shape == "rectangle":
        cols, rows = rd.whole(board.get("cols"), "board.cols", 1, 200), rd.whole(board.get("rows"), "board.rows", 1, 200)
        _too_many_cells(rd, "board", cols * rows)
        if grid_type == "hex":
            return grid.hex_rectangle(cols, rows)
        return [(x, y) for y in range(rows) for x in range(cols)]
    if shape == "hexagon":
        if grid_type != "hex":
            rd.fail("board.shape", "a hexagon board needs grid: hex")
        radius = rd.whole(board.get("radius"), "board.radius", 0, 60)
        _too_many_cells(rd, "board.radius", 3 * radius * (radius + 1) + 1)
        return sorted(grid.hex_disc((0, 0), radius),
                      key=lambda c: (c[1], c[0]))
    if shape == "rows":
        spans = board.get("rows")
        if not isinstance(spans, list) or not spans:
            rd.fail("board.rows", "must list the board's rows as [row, first column, last column]")
        out = []
        for n, span in enumerate(spans):
            if not (isinstance(span, list) and len(span) == 3 and all(is_int(v) for v in span) and span[1] <= span[2]):
                rd.fail(f"board.rows[{n + 1}]", f"must be [row, first column, last column] of whole numbers, not {span!r}")
            _too_many_cells(rd, f"board.rows[{n + 1}]", len(out) + span[2] - span[1] + 1)
            out += grid.row_cells(*span, grid_type)
        if len(set(out)) != len(out):
            rd.fail("board.rows", "lists a cell twice")
        return out
    if shape == "cells":
        cells = board.get("cells")
        if not isinstance(cells, list) or not cells:
            rd.fail("board.cells", "must list the board's cells as [q, r] (hex) or [x, y] (square)")
        _too_many_cells(rd, "board.cells", len(cells))
        out = [_cell(rd, f"board.cells[{n + 1}]", c) for n, c in enumerate(cells)]
        if len(set(out)) != len(out):
            rd.fail("board.cells", "lists a cell twice")
        return out
    rd.fail("board.shape", f"is {shape!r}", f"use one of {', '.join(BOARD_SHAPES)}")


def _cell(rd, where, value) -> tuple:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        rd.fail(where, f"must be a cell [a, b] of two whole numbers, not {value!r}")
    return (value[0], value[1])


def _labels(rd, board, coords, grid_type) -> list:
    style = board.get("labels")
    if style is None:
        return []
    if style != "row-letter" or grid_type != "hex" or board.get("shape", "rectangle") != "rectangle":
        rd.fail("board.labels", f"is {style!r}", "row-letter (A1, B3, ...) is for rectangle hex boards")
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return [f"{letters[row % 26]}{col + 1}" for col, row in (grid.axial_to_offset(c) for c in coords)]


def _players(rd, value) -> tuple:
    value = rd.mapping(value, "players")
    rd.keys(value, "players", ("min", "max", "default"))
    low, high = rd.whole(value.get("min", 1), "players.min", 1, 20), rd.whole(value.get("max", 1), "players.max", 1, 20)
    default = rd.whole(value.get("default", high), "players.default", low, high)
    if low > high:
        rd.fail("players", f"min {low} is above max {high}")
    return (low, high, default)


def _known(rd, where, name, names) -> None:
    if name not in names:
        close = difflib.get_close_matches(str(name), list(names), 1)
        rd.fail(where, f"'{name}' is not a declared type or group",
                f"did you mean '{close[0]}'?" if close else "declare it under types: or groups:")


def _fixed(rd, entries, index, types, grid_type) -> dict:
    out = {}
    for where, entry in rd.entries(entries, "board.fixed", ("type", "cells")):
        _known(rd, where, entry.get("type"), types)
        for cell in entry.get("cells") or rd.fail(where, "needs cells: [[a, b], ...]") or []:
            coord = _cell(rd, where, cell)
            if coord not in index:
                rd.fail(where, f"cell {list(coord)} is not on the board")
            out[index[coord]] = entry["type"]
    return out


def _deal(rd, entries, types, players) -> list:
    out = []
    for where, entry in rd.entries(entries, "deal", ("type", "sides", "count", "option", "max", "values")):
        if ("type" in entry) == ("sides" in entry):
            rd.fail(where, "needs type: (a one-sided tile) or sides: [a, b] (a two-sided tile)")
        sides = (entry["type"],) if "type" in entry else tuple(entry["sides"] or ())
        if not sides or len(sides) > 2:
            rd.fail(where, "sides: must name the two faces of the tile")
        for side in sides:
            _known(rd, where, side, types)
        option = entry.get("option")
        count = rd.per_players(entry.get("count", 0), f"{where}.count", players)
        high = rd.whole(entry.get("max", 0), f"{where}.max") if option else 0
        out.append((sides, count, option, high, _tile_values(rd, where, entry, sides, types)))
    return out


def _tile_values(rd, where, entry, sides, types) -> dict:
    """A tile's own values: for each value its type lists as choices ([1, 2, 3]), the one this
    bag's tiles carry."""
    chosen = rd.mapping(entry.get("values", {}), f"{where}.values")
    choices = {k for side in sides for k, v in types[side].items() if isinstance(v, list)}
    if choices and len(sides) > 1:
        rd.fail(where, "a two-sided tile cannot carry values of its own", "deal such tiles with type:")
    for key, value in chosen.items():
        if key not in choices:
            rd.fail(f"{where}.values.{key}", f"{sides[0]} lists no choices for {key}",
                    f"declare types.{sides[0]}.values.{key} as a list of the values its tiles carry")
        if value not in types[sides[0]][key]:
            rd.fail(f"{where}.values.{key}", f"is {value!r}, not one of {types[sides[0]][key]}")
    missing = sorted(choices - set(chosen))
    if missing:
        rd.fail(f"{where}.values", f"gives no {', '.join(missing)}", f"each {sides[0]} tile carries one of its type's choices")
    return dict(chosen)


def _tokens(rd, entries, groups, players) -> list:
    out = []
    for where, entry in rd.entries(entries, "tokens", ("name", "values", "over")):
        values = entry.get("values")
        if isinstance(values, list):
            values = {p: values for p in range(players[0], players[1] + 1)}
        if not isinstance(values, dict) or not all(isinstance(v, list) for v in values.values()):
            rd.fail(f"{where}.values", "must be a list of token values (or one list per player count)")
        over = entry.get("over")
        _known(rd, f"{where}.over", over, groups)
        name = str(entry.get("name") or rd.fail(where, "needs a name"))
        if any(t["name"] == name for t in out):
            rd.fail(f"{where}.name", f"a second token named '{name}' (only one list of a name can be dealt)",
                    "give every value its tokens in one list, or name this one differently")
        out.append({"name": name, "values": values, "over": groups[over]})
    return out


RULE_KEYS = {
    "count": ("exactly", "min", "max", "where"), "not_adjacent": (), "adjacent": ("min",),
    "min_distance": ("distance",), "off_edge": (), "on_edge": (), "connected": (),
    "quota": ("per", "min", "max"), "tokens_not_adjacent": ("values",), "start_distance": ("distance",), "start_areas_apart": (),
    "start_quota": ("within", "min", "max"), "near": ("cells", "distance"),
    "reachable": ("from", "by", "step"), "marked": ("exactly", "min", "max"), "marker_distance": ("distance",),
    "marker_off_start_areas": (),
}


def _markers(rd, entries, groups, players) -> list:
    out = []
    for where, entry in rd.entries(entries, "markers", ("name", "over", "count")):
        name = entry.get("name")
        if not isinstance(name, str) or not name:
            rd.fail(f"{where}.name", "must name the marker (the key written true on its cells)")
        _known(rd, f"{where}.over", entry.get("over"), groups)
        out.append({"name": name, "over": groups[entry["over"]],
                    "count": rd.per_players(entry.get("count", 0), f"{where}.count", players)})
    return out


def _outside(rd, entries, types) -> list:
    out = []
    for where, entry in rd.entries(entries, "outside", ("type", "values", "piece")):
        _known(rd, f"{where}.type", entry.get("type"), types)
        piece = dict(rd.mapping(entry.get("piece", {}), f"{where}.piece"))
        if piece and not isinstance(piece.get("kind"), str):
            rd.fail(f"{where}.piece", "needs the kind of piece set on the space")
        if "cell" in piece:
            rd.fail(f"{where}.piece.cell", "is the space's own cell, filled in by the generator")
        out.append({"type": entry["type"], "values": dict(rd.mapping(entry.get("values", {}), f"{where}.values")),
                    "piece": piece})
    return out


def _rule(rd, n, entry, groups, tokens, markers, players) -> Rule:
    where = f"constraints[{n + 1}]"
    entry = rd.mapping(entry, where)
    kinds = [k for k in entry if k in RULE_KEYS]
    if len(kinds) != 1:
        unknown = [k for k in entry if k not in ("id", "quote", "policy") and k not in
                   {a for args in RULE_KEYS.values() for a in args}]
        close = difflib.get_close_matches(str(unknown[0]), list(RULE_KEYS), 1) if unknown else []
        rd.fail(where, f"must name exactly one rule of the vocabulary ({', '.join(RULE_KEYS)})",
                f"did you mean '{close[0]}'?" if close else "see docs/maps.md")
    kind = kinds[0]
    rd.keys(entry, where, (kind, "id", "quote", "policy") + RULE_KEYS[kind])
    target = entry[kind]
    args = {k: entry[k] for k in RULE_KEYS[kind] if k in entry}
    for bound in ("exactly", "min", "max"):          # a number, or {player count: number}
        if bound in args and kind != "near":
            args[bound] = rd.per_players(args[bound], f"{where}.{bound}", players)
    if kind in ("not_adjacent", "adjacent", "min_distance"):
        if not (isinstance(target, list) and len(target) == 2):
            rd.fail(f"{where}.{kind}", "must name two types or groups: [a, b]")
        for t in target:
            _known(rd, f"{where}.{kind}", t, groups)
        args["a"], args["b"] = groups[target[0]], groups[target[1]]
    elif kind == "tokens_not_adjacent":
        if target not in {t["name"] for t in tokens}:
            rd.fail(f"{where}.{kind}", f"'{target}' is not a token declared under tokens:")
        args["token"] = target
        args["values"] = set(entry.get("values") or rd.fail(where, "needs values: [...]") or ())
    elif kind in MARKER_RULES:
        if target not in {m["name"] for m in markers}:
            rd.fail(f"{where}.{kind}", f"'{target}' is not a marker declared under markers:")
        args["marker"] = target
        if kind == "marker_distance":
            args["distance"] = rd.whole(entry.get("distance"), f"{where}.distance", 2, 100)
        if kind == "marked" and not set(args) & {"exactly", "min", "max"}:
            rd.fail(where, "marked: needs exactly:, min: or max:")
    elif kind == "start_areas_apart":
        if target is not True:
            rd.fail(f"{where}.{kind}", "must be true")
    elif kind == "start_distance":
        args["distance"] = rd.whole(target, f"{where}.{kind}", 1, 100)
    else:
        _known(rd, f"{where}.{kind}", target, groups)
        args["a"] = groups[target]
    if kind == "min_distance":
        args["distance"] = rd.whole(entry.get("distance"), f"{where}.distance", 2, 100)
    if kind == "near":
        args["distance"] = rd.whole(entry.get("distance", 0), f"{where}.distance", 0, 100)
        listed = entry.get("cells")
        if not isinstance(listed, list) or not listed:
            rd.fail(f"{where}.cells", "must list the cells A stays near: [[q, r], ...]")
        args["cells"] = [_cell(rd, f"{where}.cells[{k + 1}]", c) for k, c in enumerate(listed)]
    if kind == "start_quota":
        args["within"] = rd.whole(entry.get("within", 1), f"{where}.within", 0, 100)
        if not set(args) & {"min", "max"}:
            rd.fail(where, "a start_quota needs min: or max:")
    if kind == "quota":
        if entry.get("per") not in grid.REGION_SCHEMES:
            rd.fail(f"{where}.per", f"is {entry.get('per')!r}", f"use one of {', '.join(grid.REGION_SCHEMES)}")
    if kind == "count" and not set(args) & {"exactly", "min", "max"}:
        rd.fail(where, "a count needs exactly:, min: or max:")
    if kind == "reachable":
        _known(rd, f"{where}.from", entry.get("from"), groups)
        args["from"] = groups[entry["from"]]
        if not isinstance(entry.get("by"), str):
            rd.fail(f"{where}.by", "must name the value a step may change by at most step: (e.g. elevation)")
        args["step"] = rd.whole(entry.get("step", 1), f"{where}.step", 0, 1000)
    if kind == "count" and "where" in args:
        rd.mapping(args["where"], f"{where}.where")
    rule_id = str(entry.get("id") or f"{kind.replace('_', '-')}-{n + 1}")
    return Rule(kind, rule_id, str(entry.get("quote", "")), bool(entry.get("policy", False)), args)


def _starts(rd, value, groups, players) -> dict | None:
    if value is None:
        return None
    value = rd.mapping(value, "starts")
    rd.keys(value, "starts", ("over", "near", "roles", "neighbours", "around", "fields", "around_piece"))
    _known(rd, "starts.over", value.get("over"), groups)       # `over`, not `on`: YAML reads a bare on as true
    roles = value.get("roles")
    if roles is not None and (not isinstance(roles, list) or not all(isinstance(r, str) for r in roles)
                              or len(set(roles)) != len(roles) or len(roles) < players[1]):
        rd.fail("starts.roles", f"must name {players[1]} different roles, one per seat in player order")
    if "around" in value:
        _known(rd, "starts.around", value["around"], groups)
    fields = dict(rd.mapping(value.get("fields", {}), "starts.fields"))
    taken = {"kind", "cell", "player", "role"} & set(fields)
    if taken:
        rd.fail("starts.fields", f"sets {', '.join(sorted(taken))}, which the start itself fills in")
    piece = value.get("around_piece")
    if piece is not None and (not isinstance(piece, str) or piece == "start"):
        rd.fail("starts.around_piece", f"must name the kind of piece set beside each start, not {piece!r}")
    return {"over": groups[value["over"]], "near": rd.whole(value.get("near", 1), "starts.near", 0, 20),
            "roles": roles, "around": groups.get(value.get("around")), "fields": fields, "around_piece": piece,
            "neighbours": None if value.get("neighbours") is None else rd.whole(value["neighbours"], "starts.neighbours", 0, 8)}


def _objective(rd, entries, types, starts, tokens) -> list:
    out = []
    for n, entry in enumerate(entries or []):
        where = f"objective[{n + 1}]"
        entry = rd.mapping(entry, where)
        kinds = [k for k in entry if k in OBJECTIVES]
        if len(kinds) != 1:
            rd.fail(where, f"must be one of {', '.join(OBJECTIVES)}")
        kind = kinds[0]
        rd.keys(entry, where, (kind, "per", "through", "weight"))
        value = entry[kind]
        if not any(value in v for v in types.values()) and value not in {t["name"] for t in tokens}:
            rd.fail(f"{where}.{kind}", f"no type declares the value '{value}' and no token has that name",
                    "add it under types: <type>: values:, or name a token")
        per = entry.get("per", ["quadrants"])
        per = [per] if isinstance(per, str) else per
        if kind == "region_spread":
            for scheme in per:
                if scheme not in grid.REGION_SCHEMES:
                    rd.fail(f"{where}.per", f"is {scheme!r}", f"use {', '.join(grid.REGION_SCHEMES)}")
        if kind == "start_spread" and starts is None:
            rd.fail(where, "start_spread needs starts:")
        through = entry.get("through")
        if through is not None:
            _known(rd, f"{where}.through", through, types)
        weight = entry.get("weight", 1)
        out.append({"kind": kind, "value": value, "per": per, "through": through,
                    "weight": float(weight) if isinstance(weight, (int, float)) else rd.fail(where, "weight must be a number")})
    return out


def _dealt(spec: Declared, players: int) -> tuple[dict, set]:
    """How many of each type the deal always puts down, and the types whose number varies."""
    dealt: dict = {}
    for sides, count, option, _, _ in spec.deal:
        if len(sides) == 1 and not option:
            dealt[sides[0]] = dealt.get(sides[0], 0) + count[players]
    for t in spec.fixed.values():
        dealt[t] = dealt.get(t, 0) + 1
    varying = {s for sides, _, option, _, _ in spec.deal if len(sides) > 1 or option for s in sides} | {spec.fill}
    return dealt, varying


def _count_is_dealt(spec: Declared, rule: Rule, players: int) -> bool:
    dealt, varying = _dealt(spec, players)
    if rule.args["a"] & varying or set(rule.args) - {"a", "exactly"}:
        return False
    want = rule.args["exactly"]
    want = want.get(players) if isinstance(want, dict) else want
    return want == sum(dealt.get(t, 0) for t in rule.args["a"])


def _deal_meets_counts(rd, spec: Declared) -> None:
    """A bag that cannot meet an exact count rule is a typo: said now, not after 400 boards."""
    for players in range(spec.players[0], spec.players[1] + 1):
        dealt, varying = _dealt(spec, players)
        for rule in spec.rules:
            if rule.kind != "count" or "exactly" not in rule.args or rule.args["a"] & varying or "where" in rule.args:
                continue
            want = rule.args["exactly"]
            want = want.get(players) if isinstance(want, dict) else want
            have = sum(dealt.get(t, 0) for t in rule.args["a"])
            if want is not None and have != want:
                rd.fail(f"constraints ({rule.id})", f"asks for exactly {want} of {', '.join(sorted(rule.args['a']))} "
                        f"with {players} players, but the deal puts {have} on the board",
                        "fix the count in deal: or in the rule")


# ---------------------------------------------------------------------------------------------
# the generator

class _Board:
    def __init__(self, spec: Declared):
        self.n = len(spec.coords)
        index = {c: i for i, c in enumerate(spec.coords)}
        neighbours = grid.neighbours_fn(spec.grid)
        self.nbrs = [[index[m] for m in neighbours(c) if m in index] for c in spec.coords]
        self.area = [frozenset((i, *self.nbrs[i])) for i in range(self.n)]      # a cell and its neighbours
        edges = set(grid.edge_cells(spec.coords, spec.grid))
        self.edge = [c in edges for c in spec.coords]
        self.distance = grid.distance_fn(spec.grid)
        self.regions = {s: grid.region_of(spec.coords, spec.grid, s) for s in grid.REGION_SCHEMES}
        self._within: dict = {}

    def within(self, d: int, coords) -> list[list[int]]:
        """For each cell, the other cells closer than d steps (cached per d)."""
        if d not in self._within:
            dist = self.distance
            self._within[d] = [[j for j, b in enumerate(coords) if j != i and dist(a, b) < d]
                               for i, a in enumerate(coords)]
        return self._within[d]


class Generator:
    """The engine's generator interface (PLAYERS, generate, metrics, score) for declared rules."""

    def __init__(self, spec: Declared, game_id: str):
        self.spec, self.game_id = spec, game_id
        self.PLAYERS = spec.players
        self.BALANCE_TRIES = spec.tries
        self.OPTIONS = tuple(sorted({"budget", *(option for _, _, option, _, _ in spec.deal if option)}))
        self._token_names = {t["name"] for t in spec.tokens}
        local = [r.id for r in spec.rules if r.kind in LOCAL_RULES]
        self._placement_stage = ("dealing (no cell left for a tile under the placement rules "
                                 f"{', '.join(dict.fromkeys(local))})" if local else "dealing (more tiles than free cells)")
        self.board = _Board(spec)
        self._local_rules()
        self._start = self._empty_board()
        # the values every cell of a type carries (a list is a choice each tile makes for itself)
        self._constant = {t: {k: v for k, v in values.items() if not isinstance(v, list)}
                          for t, values in spec.types.items()}
        self._board_rules = {p: self._rules_to_check(p) for p in range(spec.players[0], spec.players[1] + 1)}
        keys = ("q", "r") if spec.grid == "hex" else ("x", "y")
        self._cell_bases = [{keys[0]: c[0], keys[1]: c[1], **({"label": spec.labels[i]} if spec.labels else {})}
                            for i, c in enumerate(spec.coords)]

    # --- placement rules, precomputed: types with the same rules share a class, and each class
    # keeps the list of cells still open to it, updated as tiles go down and are lifted ---
    def _local_rules(self) -> dict:
        rules = {t: {"forbid": set(), "far": [], "edge": None, "zone": None} for t in self.spec.types}
        board = self.board
        for rule in self.spec.rules:
            a = rule.args.get("a", ())
            if rule.kind == "not_adjacent":
                for t in a:
                    rules[t]["forbid"] |= rule.args["b"]
                for t in rule.args["b"]:
                    rules[t]["forbid"] |= a
            elif rule.kind == "min_distance":
                d = rule.args["distance"]
                for t in a:
                    rules[t]["far"].append((d, frozenset(rule.args["b"])))
                for t in rule.args["b"]:
                    rules[t]["far"].append((d, frozenset(a)))
            elif rule.kind in ("off_edge", "on_edge"):
                for t in a:
                    rules[t]["edge"] = rule.kind
            elif rule.kind == "near":
                zone = _zone(rule, self.spec.coords, board)
                for t in a:
                    rules[t]["zone"] = zone if rules[t]["zone"] is None else rules[t]["zone"] & zone
        keys = {t: (frozenset(r["forbid"]), tuple(sorted(set(r["far"]), key=repr)), r["edge"],
                    None if r["zone"] is None else tuple(sorted(r["zone"]))) for t, r in rules.items()}
        self.classes = sorted({k for k in keys.values() if k != (frozenset(), (), None, None)}, key=repr)
        self.class_of = {t: (self.classes.index(k) if k in self.classes else -1) for t, k in keys.items()}
        self.open_cell = [[(edge is None or board.edge[c] == (edge == "on_edge")) and (zone is None or c in zone)
                           for c in range(board.n)] for _, _, edge, zone in self.classes]
        # effects[t]: (class, the cells around a cell of type t that it closes to that class)
        self.effects = {t: [] for t in self.spec.types}
        for k, (forbid, far, _, _) in enumerate(self.classes):
            for t in forbid:
                self.effects[t].append((k, board.nbrs))
            for d, others in far:
                near = board.within(d, self.spec.coords)
                for t in others:
                    self.effects[t].append((k, near))
        return rules

    def _bag(self, rng: random.Random, players: int, options: MapOptions) -> tuple[list[str], dict]:
        """The tiles to deal, and for each type whose tiles carry values of their own, those values
        (one dict per tile, in random order: they go onto that type's cells in cell order)."""
        bag, carried = [], {}
        for sides, count, option, high, values in self.spec.deal:
            n = count[players]
            if option:
                n = getattr(options, option, 0) or 0
                if not isinstance(n, int) or not 0 <= n <= high:
                    raise MapError(f"{self.game_id} takes 0-{high} {option}, not {n}")
            bag += [sides[0] if len(sides) == 1 else rng.choice(sides) for _ in range(n)]
            if values:
                carried.setdefault(sides[0], []).extend([values] * n)
        rng.shuffle(bag)
        for tiles in carried.values():
            rng.shuffle(tiles)
        # tiles bound by placement rules go down first, while the board is open
        bag.sort(key=lambda t: self.class_of[t] < 0)
        return bag, carried

    def _empty_board(self) -> tuple:
        """kind, lists, pos, blocked of the board with only its fixed cells: lists[k] holds the
        cells open to placement class k, pos[k][c] is c's place there (-1: not open), blocked[k][c]
        how many tiles around c close it to class k."""
        n, classes = self.board.n, len(self.classes)
        kind: list = [None] * n
        lists = [[c for c in range(n) if self.open_cell[k][c]] for k in range(classes)]
        pos = [[-1] * n for _ in lists]
        for k, cells in enumerate(lists):
            for at, c in enumerate(cells):
                pos[k][c] = at
        blocked = [[0] * n for _ in range(classes)]
        state = (kind, lists, pos, blocked)
        put, _, _ = self._deal_ops(state)
        for i, t in sorted(self.spec.fixed.items()):
            put(t, i)
        return state

    def _deal_ops(self, state):
        """put(type, cell), lift(cell) -> type, and reopen(cell) on one board's state."""
        kind, lists, pos, blocked = state
        open_cell, effects = self.open_cell, self.effects
        every = range(len(self.classes))

        def close(spots, where, c):
            at = where[c]
            if at >= 0:
                last = spots.pop()
                if last != c:
                    spots[at] = last
                    where[last] = at
                where[c] = -1

        def put(t, c):
            kind[c] = t
            for k in every:
                close(lists[k], pos[k], c)
            for k, around in effects[t]:
                row, spots, where = blocked[k], lists[k], pos[k]
                for j in around[c]:
                    row[j] += 1
                    at = where[j]
                    if at >= 0:                 # close(spots, where, j), inlined: the hot loop
                        last = spots.pop()
                        if last != j:
                            spots[at] = last
                            where[last] = at
                        where[j] = -1

        def reopen(c):
            for k in every:
                if blocked[k][c] == 0 and open_cell[k][c] and pos[k][c] < 0:
                    pos[k][c] = len(lists[k])
                    lists[k].append(c)

        def lift(c):
            t, kind[c] = kind[c], None
            for k, around in effects[t]:
                row, spots, where, opened = blocked[k], lists[k], pos[k], open_cell[k]
                for j in around[c]:
                    row[j] -= 1
                    if row[j] == 0 and kind[j] is None and opened[j] and where[j] < 0:
                        where[j] = len(spots)
                        spots.append(j)
            return t

        return put, lift, reopen

    def _deal(self, rng: random.Random, bag: list[str]) -> list | None:
        """Kind of every cell after dealing the bag (tiles under placement rules first), or None."""
        kind, lists, pos, blocked = self._start
        state = kind, lists, pos, blocked = (kind[:], [l[:] for l in lists], [p[:] for p in pos],
                                             [b[:] for b in blocked])
        put, lift, reopen = self._deal_ops(state)
        class_of, rand = self.class_of, rng.random
        placed: list[int] = []
        pending = list(reversed(bag))
        repairs = REPAIRS
        resting = -1            # a lifted cell sits out one placement, so the tile goes elsewhere
        while pending and class_of[pending[-1]] >= 0:
            cells = lists[class_of[pending[-1]]]
            if not cells:
                if resting >= 0:
                    reopen(resting)
                    resting = -1
                    continue
                if not placed or not repairs:
                    return None
                repairs -= 1
                resting = placed.pop(int(rand() * len(placed)))
                pending.append(lift(resting))
                continue
            c = cells[int(rand() * len(cells))]
            put(pending.pop(), c)
            placed.append(c)
            if resting >= 0:
                reopen(resting)
                resting = -1
        free = [c for c, t in enumerate(kind) if t is None]       # the rest go anywhere
        if len(free) < len(pending):
            return None
        while pending:
            at = int(rand() * len(free))
            kind[free[at]] = pending.pop()
            free[at] = free[-1]
            free.pop()
        fill = self.spec.fill
        return [fill if k is None else k for k in kind]

    def _whole_board_fails(self, kind: list, players: int) -> Rule | None:
        """The first rule about the whole board that the dealt board breaks, or None."""
        for rule in self._board_rules[players]:
            if "where" in rule.args or rule.kind == "reachable":    # need the tiles' values: _values_ok
                continue
            a = rule.args["a"]
            cells = [i for i, t in enumerate(kind) if t in a]
            if not _global_holds(rule, cells, kind, self.board, players):
                return rule
        return None

    def _rules_to_check(self, players: int) -> list:
        """The rules about the whole board, less the exact counts the deal meets by itself
        (load() proved it: the bags put exactly that many of one-sided tiles down)."""
        proven = {id(r) for r in self.spec.rules if r.kind == "count" and _count_is_dealt(self.spec, r, players)}
        return [r for r in self.spec.rules if r.kind in GLOBAL_RULES and id(r) not in proven]

    def _tokens(self, rng: random.Random, kind: list, carried: dict, players: int) -> "dict | str":
        """token name -> {cell: value}, or the id of the rule the tokens could not be made to keep."""
        failed = ""
        for _ in range(TOKEN_DEALS):
            out = {}
            for token in self.spec.tokens:
                placed = self._token_deal(rng, kind, token, players)
                if isinstance(placed, str):
                    return placed
                out[token["name"]] = placed
            rule = self._values_ok(kind, carried, players, out) if out else None
            if rule is None:
                return out
            failed = rule.id
        return failed

    def _token_deal(self, rng: random.Random, kind: list, token: dict, players: int) -> "dict | str":
        cells = [i for i, t in enumerate(kind) if t in token["over"]]
        values = list(token["values"].get(players, []))
        if len(values) != len(cells):
            raise MapError(f"{self.game_id}: {len(values)} {token['name']} tokens for {len(cells)} cells")
        rules = [r for r in self.spec.rules if r.kind == "tokens_not_adjacent" and r.args["token"] == token["name"]]
        for _ in range(200):
            rng.shuffle(values)
            placed = dict(zip(cells, values))
            broken = next((rule for rule in rules if not _tokens_apart(rule, placed, self.board)), None)
            if broken is None:
                return placed
        return broken.id

    def _starts(self, rng: random.Random, kind: list, players: int) -> list[int] | None:
        if self.spec.starts is None:
            return []
        starts, nbrs = self.spec.starts, self.board.nbrs
        cells = [i for i, t in enumerate(kind) if t in starts["over"]
                 and (starts["neighbours"] is None or len(nbrs[i]) == starts["neighbours"])
                 and (starts["around"] is None or all(kind[m] in starts["around"] for m in nbrs[i]))]
        apart = [r.args["distance"] for r in self.spec.rules if r.kind == "start_distance"]
        disjoint = any(r.kind == "start_areas_apart" for r in self.spec.rules)
        if len(cells) < players:
            return None
        area = self.board.area
        quotas = [r for r in self.spec.rules if r.kind == "start_quota"]
        coords, dist = self.spec.coords, self.board.distance
        cells = [c for c in cells if all(_start_quota_holds(r, c, kind, coords, dist, players) for r in quotas)]
        for _ in range(200):
            rng.shuffle(cells)
            chosen: list[int] = []
            for c in cells:
                if all(dist(coords[c], coords[s]) >= d for s in chosen for d in apart) and \
                        not (disjoint and any(not area[c].isdisjoint(area[s]) for s in chosen)):
                    chosen.append(c)
                    if len(chosen) == players:
                        return chosen
        return None

    def generate(self, rng: random.Random, players: int, options: MapOptions) -> Layout:
        spec = self.spec
        if options.relaxed:
            raise MapError(f"{self.game_id}: --relaxed is for the hand-written Royal Dukes rules; declared rules "
                           f"keep every constraint (mark a constraint policy: true to make it a preference in checks)")
        budget = options.budget or MAX_ATTEMPTS
        rejected: dict = {}             # why boards were dealt again: rule id (or stage) -> boards
        for _ in range(budget):
            found = self._attempt(rng, players, options)
            if isinstance(found, Layout):
                return found
            rejected[found] = rejected.get(found, 0) + 1
        raise NoLayout(self.game_id, spec.source, budget, rejected)

    def _attempt(self, rng: random.Random, players: int, options: MapOptions) -> "Layout | str":
        """One board dealt and finished, or the rule (or stage) that made it fail."""
        bag, carried = self._bag(rng, players, options)
        kind = self._deal(rng, bag)
        if kind is None:
            return self._placement_stage
        rule = self._whole_board_fails(kind, players)
        carried = self._carried(kind, carried) if rule is None else carried
        rule = rule or self._values_ok(kind, carried, players)
        if rule is not None:
            return rule.id
        tokens = self._tokens(rng, kind, carried, players)
        if isinstance(tokens, str):
            return tokens
        starts = self._starts(rng, kind, players)
        if starts is None:
            return "starts (no seats meet starts: and the start rules)"
        marks = self._markers(rng, kind, starts, players)
        if marks is None:
            return "markers (no cells meet markers: and the marker rules)"
        spaces = self._outside(rng, kind)
        if spaces is None:
            return "outside (no spaces off the board meet the min_distance rules)"
        return self._layout(kind, tokens, starts, players, carried, marks, spaces)

    def _markers(self, rng: random.Random, kind: list, starts: list, players: int) -> dict | None:
        """Marker name -> the cells it marks: random cells of its types, kept apart as the rules say."""
        out, nbrs, coords, dist = {}, self.board.nbrs, self.spec.coords, self.board.distance
        for marker in self.spec.markers or []:
            rules = [r for r in self.spec.rules if r.args.get("marker") == marker["name"]]
            barred = {c for s in starts for c in (s, *nbrs[s])} \
                if any(r.kind == "marker_off_start_areas" for r in rules) else set()
            apart = [r.args["distance"] for r in rules if r.kind == "marker_distance"]
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

    def _outside(self, rng: random.Random, kind: list) -> list | None:
        """A cell one step off the board for each outside space, as far from the other spaces and
        from the board's cells as the min_distance rules naming its type say."""
        spaces = self.spec.outside or []
        if not spaces:
            return []
        on = set(self.spec.coords)
        neighbours = grid.neighbours_fn(self.spec.grid)
        ring = sorted({m for c in self.spec.coords for m in neighbours(c) if m not in on})
        dist, coords = self.board.distance, self.spec.coords
        apart = [r for r in self.spec.rules if r.kind == "min_distance"]

        def keeps_apart(t, u):
            return [r.args["distance"] for r in apart
                    if (t in r.args["a"] and u in r.args["b"]) or (t in r.args["b"] and u in r.args["a"])]

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

    def _carried(self, kind: list, carried: dict) -> dict:
        """cell -> the values its tile carries (the type's shuffled tiles, in cell order)."""
        out = {}
        for t, tiles in carried.items():
            for c, values in zip((c for c, k in enumerate(kind) if k == t), tiles):
                out[c] = values
        return out

    def _values_ok(self, kind: list, carried: dict, players: int, tokens: dict | None = None) -> Rule | None:
        """The first rule that reads cells' values (counts with `where:`, reachable) and fails once
        the tiles' own values are down, or None. Without `tokens`, a count whose `where` reads a
        token is left for later; with them, only such counts are checked."""
        names = self._token_names
        placed = tokens or {}

        def value(c, key):
            if key in placed:
                return placed[key].get(c)
            return {**self._constant[kind[c]], **carried.get(c, {})}.get(key)

        for rule in self._board_rules[players]:
            if rule.kind == "reachable":
                if tokens is None and not _reachable(rule, kind, self.board, value):
                    return rule
                continue
            where = rule.args.get("where")
            if where is None or (tokens is None) == bool(names & set(where)):
                continue
            cells = [c for c, t in enumerate(kind) if t in rule.args["a"] and
                     all(value(c, k) == v for k, v in where.items())]
            if not _global_holds(rule, cells, kind, self.board, players):
                return rule
        return None

    def _layout(self, kind, tokens, starts, players, carried, marks, spaces) -> Layout:
        spec = self.spec
        constant = self._constant
        cells = [{**base, "type": t, **constant[t], **carried.get(c, {})}
                 for c, (base, t) in enumerate(zip(self._cell_bases, kind))]
        for name, placed in tokens.items():
            for i, value in placed.items():
                cells[i][name] = value
        for name, marked in marks.items():
            for i in marked:
                cells[i][name] = True
        keys = ("q", "r") if spec.grid == "hex" else ("x", "y")
        for space, c in zip(spec.outside or [], spaces):
            cells.append({keys[0]: c[0], keys[1]: c[1], "type": space["type"], **constant[space["type"]], **space["values"]})
        placements = self._start_placements(starts)
        placements += [{**copy.deepcopy(space["piece"]), "cell": list(c)}
                       for space, c in zip(spec.outside or [], spaces) if space["piece"]]
        grid_spec = {"type": spec.grid, "orientation": spec.orientation} if spec.grid == "hex" else {"type": "square"}
        return Layout(game=self.game_id, seed=None, players=players, grid=grid_spec, cells=cells,
                      placements=placements, metrics={})

    def _start_placements(self, starts: list) -> list:
        """Each start (with its role and declared fields), then the pieces beside it."""
        spec = self.spec
        decl = spec.starts or {}
        out, beside = [], []
        for p, c in enumerate(starts):
            seat = {"player": p + 1, **({"role": decl["roles"][p]} if decl.get("roles") else {})}
            out.append({"kind": "start", **seat, "cell": list(spec.coords[c]), **copy.deepcopy(decl.get("fields", {}))})
            if decl.get("around_piece"):
                beside += [{"kind": decl["around_piece"], **seat, "cell": list(spec.coords[m])}
                           for m in sorted(self.board.nbrs[c])]
        return out + beside

    # --- fairness ---
    def metrics(self, layout: Layout) -> dict:
        spec, board = self.spec, self.board
        index = {c: i for i, c in enumerate(spec.coords)}
        kind, record = [None] * board.n, [{}] * board.n
        for cell in layout.cells:
            i = index.get(layout.coord(cell))
            if i is not None:
                kind[i], record[i] = cell.get("type"), cell
        out = {}
        for goal in spec.objective:
            # the value as each cell carries it: its type's, its own tile's, or its token's
            value = [v if isinstance(v, (int, float)) and not isinstance(v, bool) else None
                     for v in (r.get(goal["value"]) for r in record)]
            if goal["kind"] == "region_spread":
                for scheme in goal["per"]:
                    sums = _region_sums(goal, scheme, kind, value, board)
                    out[f"{goal['value']}_{scheme}"] = [round(s, 4) for s in sums]
                    out[f"{goal['value']}_{scheme}_spread"] = round(max(sums) - min(sums), 4)
            else:
                sums = _start_sums(layout, value, board, spec, index)
                out[f"{goal['value']}_near_starts"] = [round(s, 4) for s in sums]
                out[f"{goal['value']}_near_starts_spread"] = round(max(sums) - min(sums), 4) if sums else 0.0
        return out

    def score(self, metrics: dict) -> float:
        """Higher is fairer: minus the weighted spreads of the declared objective."""
        total = 0.0
        for goal in self.spec.objective:
            if goal["kind"] == "region_spread":
                total -= goal["weight"] * sum(metrics[f"{goal['value']}_{s}_spread"] for s in goal["per"])
            else:
                total -= goal["weight"] * metrics[f"{goal['value']}_near_starts_spread"]
        return total


def _region_sums(goal, scheme, kind, value, board) -> list[float]:
    """Each cell's value counted in the region it lies in, or, with `through`, shared equally by
    the regions of its neighbours of that type (where players reach it from)."""
    names, _ = grid.REGION_SCHEMES[scheme]
    region = board.regions[scheme]
    sums = [0.0] * len(names)
    for i, v in enumerate(value):
        if v is None:
            continue
        if goal["through"] is None:
            sums[region[i]] += v
            continue
        doors = [j for j in board.nbrs[i] if kind[j] == goal["through"]]
        for j in doors:
            sums[region[j]] += v / len(doors)
    return sums


def _start_sums(layout, value, board, spec, index) -> list[float]:
    sums = []
    near = spec.starts["near"] if spec.starts else 1
    for p in layout.placements:
        if p.get("kind") != "start":
            continue
        s = index.get(tuple(p["cell"]))
        sums.append(sum(v for i, v in enumerate(value)
                        if v is not None and board.distance(spec.coords[s], spec.coords[i]) <= near))
    return sums


def _zone(rule: Rule, coords: list, board: _Board) -> frozenset:
    """The cells (indices) within the rule's distance of one of its listed cells."""
    return frozenset(i for i, c in enumerate(coords)
                     if any(board.distance(c, tuple(m)) <= rule.args["distance"] for m in rule.args["cells"]))


def _global_holds(rule: Rule, cells: list, kind: list, board: _Board, players: int) -> bool:
    """Does a rule about the whole board hold? `cells`: the cells of the rule's types."""
    if rule.kind == "count":
        n = len(cells)
        bounds = {k: (v.get(players) if isinstance(v, dict) else v) for k, v in rule.args.items() if k in ("exactly", "min", "max")}
        return _within(n, bounds)
    if rule.kind == "adjacent":
        need, b, nbrs = _bound(rule, "min", players, 1), rule.args["b"], board.nbrs
        for i in cells:
            found = 0
            for j in nbrs[i]:
                if kind[j] in b:
                    found += 1
                    if found >= need:
                        break
            else:
                return False
        return True
    if rule.kind == "connected":
        return _connected(cells, board.nbrs)
    if rule.kind == "quota":
        region = board.regions[rule.args["per"]]
        counts = [0] * len(grid.REGION_SCHEMES[rule.args["per"]][0])
        for i in cells:
            counts[region[i]] += 1
        low, high = _bound(rule, "min", players), _bound(rule, "max", players)
        return all((low is None or c >= low) and (high is None or c <= high) for c in counts)
    return True


def _bound(rule: Rule, key: str, players: int, default=None):
    """A rule's exactly/min/max for this player count (load() made each {player count: n})."""
    value = rule.args.get(key)
    return default if value is None else value[players]


def _within(n: int, bounds: dict) -> bool:
    return ((bounds.get("exactly") is None or n == bounds["exactly"]) and
            (bounds.get("min") is None or n >= bounds["min"]) and (bounds.get("max") is None or n <= bounds["max"]))


def _reachable(rule: Rule, kind: list, board: _Board, value) -> bool:
    """Can every cell of the rule's types be walked to from its `from` types, each step to a
    neighbour whose value `by` differs by at most `step` (a cell without the value: 0)?"""
    by, step, nbrs = rule.args["by"], rule.args["step"], board.nbrs
    height = [value(c, by) if isinstance(value(c, by), (int, float)) else 0 for c in range(board.n)]
    seen = bytearray(board.n)
    todo = [c for c in range(board.n) if kind[c] in rule.args["from"]]
    for c in todo:
        seen[c] = 1
    while todo:
        c = todo.pop()
        for m in nbrs[c]:
            if not seen[m] and abs(height[m] - height[c]) <= step:
                seen[m] = 1
                todo.append(m)
    return all(seen[c] for c in range(board.n) if kind[c] in rule.args["a"])


def _connected(cells: list, nbrs: list) -> bool:
    if not cells:
        return True
    todo = bytearray(len(nbrs))           # 1: a cell of the region not reached yet
    for c in cells:
        todo[c] = 1
    todo[cells[0]] = 0
    stack, reached = [cells[0]], 1
    while stack:
        for j in nbrs[stack.pop()]:
            if todo[j]:
                todo[j] = 0
                reached += 1
                stack.append(j)
    return reached == len(cells)


def _start_quota_holds(rule: Rule, start: int, kind: list, coords: list, dist, players: int) -> bool:
    """The number of cells of the rule's types within `within` steps of a start is in bounds."""
    n = sum(1 for i, t in enumerate(kind) if t in rule.args["a"] and dist(coords[start], coords[i]) <= rule.args["within"])
    return _bound(rule, "min", players, n) <= n <= _bound(rule, "max", players, n)


def _tokens_apart(rule: Rule, placed: dict, board: _Board) -> bool:
    values = rule.args["values"]
    hot = {c for c, v in placed.items() if v in values}
    return not any(j in hot for c in hot for j in board.nbrs[c])


def checker(spec: Declared, game_id: str):
    """The separately written checker, reading the declaration for itself (its `check` and the
    `keys` a layout's cells and placements may carry)."""
    from . import declared_check
    return declared_check.Checker(spec.source, game_id)
