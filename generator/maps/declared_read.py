"""The parts of a map.yaml `layout:` section -> checked values: the board, players, bags, tokens,
markers, spaces off the board, constraints, starts and objective, each mistake named with its
place (`map.yaml:LINE:COL: layout.constraints[3].distance: ...`). declared.py puts them together
and checks them against each other.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import did_you_mean
from . import declared_grow_read as grow, declared_steps, grid
from .declared_laid_read import LAID_OBJECTIVES, LAID_READERS
from .rules import is_int

MAX_CELLS = 2_000           # cells of a board (a 44 x 44 map): distance tables grow with its square
BOARD_SHAPES = ("rectangle", "hexagon", "rows", "cells", "grown", "laid")
MARKER_RULES = ("marked", "marker_distance", "marker_off_start_areas")
OBJECTIVES = ("region_spread", "start_spread", "type_spread", "pick_spread", "nearest_spread", *LAID_OBJECTIVES)


class DeclarationError(Exception):
    pass


@dataclass
class Rule:
    kind: str
    id: str
    quote: str
    policy: bool
    args: dict


class Reader:
    """Reads the declaration, naming each mistake by its path in map.yaml."""

    def __init__(self, source: str):
        self.source = source
        self.schemes = tuple(grid.REGION_SCHEMES)      # and the pack's own regions, once read
        self.players = (1, 1, 1)                       # the allowed player counts, once read
        self.place = None                              # `in: {...}` -> the cells of a place, once the board is read
        self.area_keys: set = set()                    # the values `areas:` write, once read

    def fail(self, where: str, message: str, hint: str = "") -> None:
        raise DeclarationError(f"{self.mark(where)}: {'layout.' + where if where else 'layout'}: {message}"
                               + (f"; {hint}" if hint else ""))

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
                self.fail(where, f"unknown key '{key}'", did_you_mean(key, allowed, f"use {', '.join(allowed)}"))

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

    def player_count_keys(self, value: dict, where: str, players) -> None:
        """A {player count: ...} mapping keyed by the allowed player counts only: another key
        would be read by no layout."""
        allowed = range(players[0], players[1] + 1)
        for key in value:
            if key not in allowed:
                self.fail(where, f"has the key {key!r}, not a player count this map allows",
                          f"key it by {players[0]}-{players[1]}" if players[0] != players[1] else f"key it by {players[0]}")

    def per_players(self, value, where, players, least: int = 0, most: int = 100_000) -> dict:
        """A number, or {player count: number} for every allowed player count."""
        low, high = players[0], players[1]
        if isinstance(value, dict):
            out = {self.whole(k, f"{where} (player count)", 1, 99): self.whole(v, f"{where}.{k}", least, most)
                   for k, v in value.items()}
            missing = [n for n in range(low, high + 1) if n not in out]
            if missing:
                self.fail(where, f"gives no number for {', '.join(map(str, missing))} players",
                          "give one for every player count")
            return out
        number = self.whole(value, where, least, most)
        return {n: number for n in range(low, high + 1)}


def _too_many_cells(rd, where: str, n: int) -> None:
    """Refused before the cells are made: a board is bounded, not built and then measured."""
    if n > MAX_CELLS:
        rd.fail(where, f"makes a board of {n:,} cells, over the limit of {MAX_CELLS:,}",
                "split the map, or draw a smaller board")


def board_cells(rd, board, grid_type) -> list:
    shape = board.get("shape", "rectangle")
    if shape == "grown":                # no outline: the cells are the tiles as laid (declared_grow_*)
        return []
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
    if shape == "laid":             # no printed board: the tiles the players lay are the map
        return []
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


def cell(rd, where, value) -> tuple:
    return _cell(rd, where, value)


def _cell(rd, where, value) -> tuple:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        rd.fail(where, f"must be a cell [a, b] of two whole numbers, not {value!r}")
    return (value[0], value[1])


def board_labels(rd, board, coords, grid_type) -> list:
    style = board.get("labels")
    if style is None:
        return []
    if style != "row-letter" or grid_type != "hex" or board.get("shape", "rectangle") != "rectangle":
        rd.fail("board.labels", f"is {style!r}", "row-letter (A1, B3, ...) is for rectangle hex boards")
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return [f"{letters[row % 26]}{col + 1}" for col, row in (grid.axial_to_offset(c) for c in coords)]


def player_counts(rd, value) -> tuple:
    value = rd.mapping(value, "players")
    rd.keys(value, "players", ("min", "max", "default"))
    low, high = rd.whole(value.get("min", 1), "players.min", 1, 20), rd.whole(value.get("max", 1), "players.max", 1, 20)
    default = rd.whole(value.get("default", high), "players.default", low, high)
    if low > high:
        rd.fail("players", f"min {low} is above max {high}")
    return (low, high, default)


def known(rd, where, name, names) -> None:
    if name not in names:
        rd.fail(where, f"'{name}' is not a declared type or group",
                did_you_mean(name, names, "declare it under types: or groups:"))


def fixed_cells(rd, entries, index, types, grid_type) -> dict:
    out = {}
    for where, entry in rd.entries(entries, "board.fixed", ("type", "cells")):
        known(rd, where, entry.get("type"), types)
        for cell in entry.get("cells") or rd.fail(where, "needs cells: [[a, b], ...]") or []:
            coord = _cell(rd, where, cell)
            if coord not in index:
                rd.fail(where, f"cell {list(coord)} is not on the board")
            out[index[coord]] = entry["type"]
    return out


def bags(rd, entries, types, players, tile_sets=None) -> list:
    out = []
    for where, entry in rd.entries(entries, "deal", ("type", "sides", "count", "option", "max", "values",
                                                            "in", "share", "group", "tiles")):
        if "tiles" in entry:            # every numbered tile of a type used at the player count
            out.append(grow.tile_bag(rd, where, entry, types, tile_sets or {}, players))
            continue
        if ("type" in entry) == ("sides" in entry):
            rd.fail(where, "needs type: (a one-sided tile) or sides: [a, b] (a two-sided tile)")
        sides = (entry["type"],) if "type" in entry else tuple(entry["sides"] or ())
        if not sides or len(sides) > 2:
            rd.fail(where, "sides: must name the two faces of the tile")
        for side in sides:
            known(rd, where, side, types)
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


def token_lists(rd, entries, groups, players) -> list:
    out = []
    for where, entry in rd.entries(entries, "tokens", ("name", "values", "over")):
        values = entry.get("values")
        if isinstance(values, list):
            values = {p: values for p in range(players[0], players[1] + 1)}
        if not isinstance(values, dict) or not all(isinstance(v, list) for v in values.values()):
            rd.fail(f"{where}.values", "must be a list of token values (or one list per player count)")
        over = entry.get("over")
        known(rd, f"{where}.over", over, groups)
        name = str(entry.get("name") or rd.fail(where, "needs a name"))
        if any(t["name"] == name for t in out):
            rd.fail(f"{where}.name", f"a second token named '{name}' (only one list of a name can be dealt)",
                    "give every value its tokens in one list, or name this one differently")
        out.append({"name": name, "values": values, "over": groups[over]})
    return out


RULE_KEYS = {
    "count": ("exactly", "min", "max", "where", "in"), "not_adjacent": (), "adjacent": ("min",),
    "min_distance": ("distance",), "off_edge": (), "on_edge": (), "connected": (),
    "quota": ("per", "min", "max", "in", "where", "spread"), "tokens_not_adjacent": ("values",), "start_distance": ("distance",), "start_areas_apart": (),
    "start_quota": ("within", "min", "max"), "near": ("cells", "distance"),
    "reachable": ("from", "by", "step"), "marked": ("exactly", "min", "max"), "marker_distance": ("distance",),
    "marker_off_start_areas": (),
    "clusters": ("max",), "start_edge": (), "start_nearest": ("min", "max", "spread"),
}
RULE_KEYS["tokens_not_adjacent"] += ("equal",)


def marker_lists(rd, entries, groups, players) -> list:
    out = []
    for where, entry in rd.entries(entries, "markers", ("name", "over", "count")):
        name = entry.get("name")
        if not isinstance(name, str) or not name:
            rd.fail(f"{where}.name", "must name the marker (the key written true on its cells)")
        known(rd, f"{where}.over", entry.get("over"), groups)
        out.append({"name": name, "over": groups[entry["over"]],
                    "count": rd.per_players(entry.get("count", 0), f"{where}.count", players)})
    return out


def outside_spaces(rd, entries, types) -> list:
    out = []
    for where, entry in rd.entries(entries, "outside", ("type", "values", "piece")):
        known(rd, f"{where}.type", entry.get("type"), types)
        piece = dict(rd.mapping(entry.get("piece", {}), f"{where}.piece"))
        if piece and not isinstance(piece.get("kind"), str):
            rd.fail(f"{where}.piece", "needs the kind of piece set on the space")
        if "cell" in piece:
            rd.fail(f"{where}.piece.cell", "is the space's own cell, filled in by the generator")
        out.append({"type": entry["type"], "values": dict(rd.mapping(entry.get("values", {}), f"{where}.values")),
                    "piece": piece})
    return out


def constraint(rd, n, entry, groups, tokens, markers, players) -> Rule:
    where = f"constraints[{n + 1}]"
    entry = rd.mapping(entry, where)
    kinds = [k for k in entry if k in RULE_KEYS]
    if len(kinds) != 1:
        unknown = [k for k in entry if k not in ("id", "quote", "policy") and k not in
                   {a for args in RULE_KEYS.values() for a in args}]
        rd.fail(where, f"must name exactly one rule of the vocabulary ({', '.join(RULE_KEYS)})",
                did_you_mean(unknown[0], RULE_KEYS, "see docs/maps.md") if unknown else "see docs/maps.md")
    kind = kinds[0]
    rd.keys(entry, where, (kind, "id", "quote", "policy") + RULE_KEYS[kind])
    target = entry[kind]
    args = {k: entry[k] for k in RULE_KEYS[kind] if k in entry}
    for bound in ("exactly", "min", "max"):          # a number, or {player count: number}
        if bound in args and kind != "near":
            args[bound] = rd.per_players(args[bound], f"{where}.{bound}", players)
    if kind in MORE_RULES:
        MORE_RULES[kind](rd, where, entry, args, groups)
    elif kind in ("not_adjacent", "adjacent", "min_distance"):
        if not (isinstance(target, list) and len(target) == 2):
            rd.fail(f"{where}.{kind}", "must name two types or groups: [a, b]")
        for t in target:
            known(rd, f"{where}.{kind}", t, groups)
        args["a"], args["b"] = groups[target[0]], groups[target[1]]
    elif kind == "tokens_not_adjacent":
        if target not in {t["name"] for t in tokens}:
            rd.fail(f"{where}.{kind}", f"'{target}' is not a token declared under tokens:")
        args["token"] = target
        args["equal"] = entry.get("equal", False)
        if not isinstance(args["equal"], bool):
            rd.fail(f"{where}.equal", "must be true or false")
        if not args["equal"] and not entry.get("values"):
            rd.fail(where, "needs values: [...] (the values that never touch), or equal: true (equal values never touch)")
        args["values"] = set(entry.get("values") or ())
    elif kind in MARKER_RULES:
        if target not in {m["name"] for m in markers}:
            rd.fail(f"{where}.{kind}", f"'{target}' is not a marker declared under markers:")
        args["marker"] = target
        if kind == "marker_distance":
            args["distance"] = rd.per_players(entry.get("distance"), f"{where}.distance", players, 2, 100)
        if kind == "marked" and not set(args) & {"exactly", "min", "max"}:
            rd.fail(where, "marked: needs exactly:, min: or max:")
    elif kind == "start_areas_apart":
        if target is not True:
            rd.fail(f"{where}.{kind}", "must be true")
    elif kind == "start_distance":
        args["distance"] = rd.per_players(target, f"{where}.{kind}", players, 1, 100)
    else:
        known(rd, f"{where}.{kind}", target, groups)
        args["a"] = groups[target]
    if kind == "min_distance":
        args["distance"] = rd.per_players(entry.get("distance"), f"{where}.distance", players, 2, 100)
    if kind == "near":
        args["distance"] = rd.per_players(entry.get("distance", 0), f"{where}.distance", players, 0, 100)
        listed = entry.get("cells")
        if not isinstance(listed, list) or not listed:
            rd.fail(f"{where}.cells", "must list the cells A stays near: [[q, r], ...]")
        args["cells"] = [_cell(rd, f"{where}.cells[{k + 1}]", c) for k, c in enumerate(listed)]
    if kind == "start_quota":
        args["within"] = rd.per_players(entry.get("within", 1), f"{where}.within", players, 0, 100)
        if not set(args) & {"min", "max"}:
            rd.fail(where, "a start_quota needs min: or max:")
    if kind == "quota":
        if entry.get("per") not in rd.schemes:
            rd.fail(f"{where}.per", f"is {entry.get('per')!r}", f"use one of {', '.join(rd.schemes)}")
    if kind == "count" and not set(args) & {"exactly", "min", "max"}:
        rd.fail(where, "a count needs exactly:, min: or max:")
    if kind == "reachable":
        known(rd, f"{where}.from", entry.get("from"), groups)
        args["from"] = groups[entry["from"]]
        if not isinstance(entry.get("by"), str):
            rd.fail(f"{where}.by", "must name the value a step may change by at most step: (e.g. elevation)")
        args["step"] = rd.per_players(entry.get("step", 1), f"{where}.step", players, 0, 1000)
    if "where" in args:
        rd.mapping(args["where"], f"{where}.where")
    if "in" in args:
        args["in"] = rd.place(f"{where}.in", args["in"])
    if kind == "quota" and "spread" in args:
        args["spread"] = rd.per_players(args["spread"], f"{where}.spread", players, 0, 100_000)
    if kind == "quota" and not set(args) & {"min", "max", "spread"}:
        rd.fail(where, "a quota needs min:, max: or spread: (how far apart the parts' counts may be)")
    rule_id = str(entry.get("id") or f"{kind.replace('_', '-')}-{n + 1}")
    return Rule(kind, rule_id, str(entry.get("quote", "")), bool(entry.get("policy", False)), args)


def walls(rd, value, coords, grid_type) -> frozenset:
    """board.walls: [[a, b], ...], pairs of neighbouring board cells with a closed edge between."""
    if value is None:
        return frozenset()
    if not isinstance(value, list):
        rd.fail("board.walls", "must list walls as pairs of neighbouring cells: [[[0, 0], [1, 0]], ...]")
    on, out = set(coords), set()
    for n, pair in enumerate(value):
        where = f"board.walls[{n + 1}]"
        if not isinstance(pair, list) or len(pair) != 2:
            rd.fail(where, f"must be a pair of neighbouring cells [[a, b], [c, d]], not {pair!r}")
        a, b = _cell(rd, where, pair[0]), _cell(rd, where, pair[1])
        for c in (a, b):
            if c not in on:
                rd.fail(where, f"cell {list(c)} is not on the board")
        if b not in grid.neighbours_fn(grid_type)(a):
            rd.fail(where, f"cells {list(a)} and {list(b)} are not neighbours", "a wall closes the edge between two neighbours")
        out.add(frozenset((a, b)))
    return frozenset(out)


def regions(rd, value, coords, grid_type, selector=None) -> dict:
    """name -> (part names, each cell's part or -1): the built-in cuts of the board (grid.py) and
    the pack's own, `regions: {NAME: {PART: [[q, r], ...], ...}}`, parts that share no cell."""
    out = {s: (grid.REGION_SCHEMES[s][0], grid.region_of(coords, grid_type, s)) for s in grid.REGION_SCHEMES}
    index = {c: i for i, c in enumerate(coords)}
    for name, parts in rd.mapping(value or {}, "regions").items():
        where = f"regions.{name}"
        if name in out:
            rd.fail(where, f"'{name}' is a built-in cut of the board", "give your regions another name")
        parts = rd.mapping(parts, where)
        if not parts:
            rd.fail(where, "must name its parts, each with its cells: {west: [[0, 0], ...], east: [...]}")
        part_of = [-1] * len(coords)
        for k, (part, cells) in enumerate(parts.items()):
            if isinstance(cells, dict) and selector is not None:     # a place: {ring: 1, quadrants: nw}
                for i in sorted(selector(rd, f"{where}.{part}", cells, coords, grid_type, out)):
                    if part_of[i] >= 0:
                        rd.fail(f"{where}.{part}", f"cell {list(coords[i])} is in two parts", "a cell is in one part")
                    part_of[i] = k
                continue
            if not isinstance(cells, list) or not cells:
                rd.fail(f"{where}.{part}", "must list the part's cells: [[q, r], ...]")
            for n, value in enumerate(cells):
                c = _cell(rd, f"{where}.{part}[{n + 1}]", value)
                if c not in index:
                    rd.fail(f"{where}.{part}[{n + 1}]", f"cell {list(c)} is not on the board")
                if part_of[index[c]] >= 0:
                    rd.fail(f"{where}.{part}[{n + 1}]", f"cell {list(c)} is in two parts", "a cell is in one part")
                part_of[index[c]] = k
        out[str(name)] = (tuple(str(p) for p in parts), part_of)
    rd.schemes = tuple(out)
    return out


def _clusters(rd, where, entry, args, groups) -> None:
    """clusters: A, max: n -- no connected piece of one type of A has more than n cells."""
    known(rd, f"{where}.clusters", entry["clusters"], groups)
    args["a"] = groups[entry["clusters"]]
    if "max" not in args:
        rd.fail(where, "clusters: needs max: (the most cells of one type in a connected piece)")


def _start_edge(rd, where, entry, args, groups) -> None:
    """start_edge: on | off -- every start on (off) the board's edge."""
    if entry["start_edge"] not in ("on", "off"):
        rd.fail(f"{where}.start_edge", f"is {entry['start_edge']!r}", "use on (every start on the edge) or off")
    args["on"] = entry["start_edge"] == "on"


def _start_nearest(rd, where, entry, args, groups) -> None:
    """start_nearest: A with min, max, spread -- steps from each start to its nearest A cell."""
    known(rd, f"{where}.start_nearest", entry["start_nearest"], groups)
    args["a"] = groups[entry["start_nearest"]]
    if "spread" in entry:
        args["spread"] = rd.per_players(entry["spread"], f"{where}.spread", rd.players, 0, 100)
    if not set(args) & {"min", "max", "spread"}:
        rd.fail(where, "start_nearest: needs min:, max: or spread: (how far from each start its nearest "
                "cell may be, or how much those distances may differ)")


MORE_RULES = {"clusters": _clusters, "start_edge": _start_edge, "start_nearest": _start_nearest,
              **grow.RULE_READERS}
RULE_KEYS.update(grow.RULE_KEYS)
# a laid map's set and piece rules (declared_laid_read.py)
RULE_KEYS.update({kind: keys for kind, (keys, _) in LAID_READERS.items()})
MORE_RULES.update({kind: reader for kind, (_, reader) in LAID_READERS.items()})


def start_rules(rd, value, groups, players) -> dict | None:
    if value is None:
        return None
    value = rd.mapping(value, "starts")
    rd.keys(value, "starts", ("over", "near", "roles", "labels", "neighbours", "around", "fields", "around_piece"))
    known(rd, "starts.over", value.get("over"), groups)       # `over`, not `on`: YAML reads a bare on as true
    roles = value.get("roles")
    if roles is not None and (not isinstance(roles, list) or not all(isinstance(r, str) for r in roles)
                              or len(set(roles)) != len(roles) or len(roles) < players[1]):
        rd.fail("starts.roles", f"must name {players[1]} different roles, one per seat in player order")
    labels = value.get("labels")            # drawing only: the letters printed on a seat's pieces
    if labels is not None and (not isinstance(labels, list) or not all(isinstance(x, str) and x for x in labels)
                               or len(labels) < players[1]):
        rd.fail("starts.labels", f"must give {players[1]} short names, one per seat in player order")
    if "around" in value:
        known(rd, "starts.around", value["around"], groups)
    fields = dict(rd.mapping(value.get("fields", {}), "starts.fields"))
    taken = {"kind", "cell", "player", "role"} & set(fields)
    if taken:
        rd.fail("starts.fields", f"sets {', '.join(sorted(taken))}, which the start itself fills in")
    piece = value.get("around_piece")
    if piece is not None and (not isinstance(piece, str) or piece == "start"):
        rd.fail("starts.around_piece", f"must name the kind of piece set beside each start, not {piece!r}")
    return {"over": groups[value["over"]], "near": rd.per_players(value.get("near", 1), "starts.near", players, 0, 20),
            "roles": roles, "labels": labels, "around": groups.get(value.get("around")), "fields": fields, "around_piece": piece,
            "neighbours": None if value.get("neighbours") is None else rd.whole(value["neighbours"], "starts.neighbours", 0, 8)}


def objectives(rd, entries, types, groups, starts, tokens, pieces=(), markers=()) -> list:
    out = []
    for n, entry in enumerate(entries or []):
        where = f"objective[{n + 1}]"
        entry = rd.mapping(entry, where)
        kinds = [k for k in entry if k in OBJECTIVES]
        if len(kinds) != 1:
            rd.fail(where, f"must be one of {', '.join(OBJECTIVES)}")
        kind = kinds[0]
        if kind == "pick_spread":
            goal = grow.pick_objective(rd, where, entry, types, groups, tokens, pieces,
                                       _counted_as(rd, f"{where}.as", entry.get("as")))
            if any(o.get("name") == goal["name"] for o in out):
                rd.fail(f"{where}.name", f"a second pick_spread named '{goal['name']}'", "give it a name: of its own")
            out.append(goal)
            continue
        if kind in LAID_OBJECTIVES:
            out.append(LAID_OBJECTIVES[kind](rd, where, entry, groups))
            continue
        if kind == "nearest_spread" and set(entry) & set(declared_steps.WALK_KEYS):    # walked steps
            if starts is None:
                rd.fail(where, "nearest_spread needs starts: or seats:")
            out.append(declared_steps.read(rd, where, entry, groups))
            continue
        rd.keys(entry, where, (kind, "per", "through", "weight", "over", "as") + (("within",) if kind == "start_spread" else ()))
        value = entry[kind]
        marker = kind == "start_spread" and value in {m["name"] for m in markers}    # a marked cell counts 1
        if kind == "nearest_spread":                 # names the types whose nearest cell is measured
            known(rd, f"{where}.{kind}", value, groups)
            if starts is None:
                rd.fail(where, "nearest_spread needs starts: or seats:")
        elif not any(value in v for v in types.values()) and value not in {t["name"] for t in tokens} \
                and value not in rd.area_keys and not marker:
            rd.fail(f"{where}.{kind}", f"no type or area declares the value '{value}' and no token has that name",
                    "add it under types: <type>: values:, or name a token" + (" or a marker" if kind == "start_spread" else ""))
        per = entry.get("per", ["quadrants"])
        per = [per] if isinstance(per, str) else per
        if kind == "region_spread":
            for scheme in per:
                if scheme not in rd.schemes:
                    rd.fail(f"{where}.per", f"is {scheme!r}", f"use {', '.join(rd.schemes)}")
        if kind == "start_spread" and starts is None:
            rd.fail(where, "start_spread needs starts: or seats:")
        if (kind == "type_spread") != ("over" in entry):
            rd.fail(where, "type_spread needs over: TYPE-OR-GROUP (the types whose sums are evened out), "
                    "and only it takes over:")
        if "over" in entry:
            known(rd, f"{where}.over", entry["over"], groups)
        through = entry.get("through")
        if through is not None:
            known(rd, f"{where}.through", through, types)
        weight = entry.get("weight", 1)
        out.append({"kind": kind, "value": value, "per": per, "through": through,
                    "types": sorted(groups[value]) if kind == "nearest_spread" else None,
                    "over": sorted(groups[entry["over"]]) if "over" in entry else None,
                    "as": _counted_as(rd, f"{where}.as", entry.get("as")), "marker": marker,
                    "within": rd.whole(entry["within"], f"{where}.within", 0, 20) if "within" in entry else None,
                    "weight": float(weight) if isinstance(weight, (int, float)) else rd.fail(where, "weight must be a number")})
    return out


def _counted_as(rd, where, table) -> dict | None:
    """`as: {value: amount}`: each value counted as its amount (a number token as its pips);
    a value the table does not list counts 0."""
    if table is None:
        return None
    table = rd.mapping(table, where)
    for key, amount in table.items():
        if not isinstance(amount, (int, float)) or isinstance(amount, bool):
            rd.fail(f"{where}.{key}", f"must be a number, not {amount!r}")
    return dict(table)
