"""Map rules as data: the `layout:` section of a pack's map.yaml, in the vocabulary of
docs/maps.md -> a checked Declared (every mistake named with its place in the file). Its parts are
read by declared_read.py; here they are put together and checked against each other (a bag that
cannot meet a count, a rule over a type no layout holds). declared_gen.py deals layouts from it;
declared_check.py, written apart, checks layouts against the same section, read for itself.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import declared_areas as areas, declared_grow_read as grow, declared_laid_read, declared_options, \
    declared_read as read
from .declared_read import DeclarationError, Rule, known

__all__ = ["DeclarationError", "Declared", "Rule", "load"]

MAX_NUMBER = 10 ** 6        # a number in the declaration: sums over a board stay far inside what --check reads
LOCAL_RULES = ("not_adjacent", "min_distance", "off_edge", "on_edge", "near")
GLOBAL_RULES = ("count", "adjacent", "connected", "quota", "reachable", "clusters")
START_RULES = ("start_distance", "start_quota", "start_areas_apart", "marker_off_start_areas", "start_edge",
               "start_nearest")


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
    regions: dict | None = None         # name -> (part names, each cell's part or -1): built-in and the pack's
    walls: frozenset = frozenset()      # frozensets of two neighbouring cells with a closed edge between
    areas: list | None = None           # {cells, over, values}: values every cell of a place carries
    seats: dict | None = None           # {key, places, taken per players, turn, near}
    pieces: list | None = None          # {kind, over, where, fields, pile, id, quote}: set on cells at setup
    bound: list | None = None           # bags dealt into a place: [{cells, share, bags: [(bag index, group)]}]
    first: tuple | None = None          # a grown board (shape: grown): the cell of the first tile laid
    tiles: dict | None = None           # type -> its numbered tiles (declared_grow_read.tiles)
    sets: dict | None = None            # a laid map: each player's set of tiles (declared_laid_read.py)
    turn_pieces: list | None = None     # a laid map: the pieces every player sets, in turn
    options: dict | None = None         # switch -> the breaks of placement rules it allows (declared_options.py)


def load(section, source: "str | Path" = "map.yaml") -> Declared:
    """The `layout:` section -> a checked Declared; DeclarationError names the first mistake."""
    rd = read.Reader(str(source))
    section = rd.mapping(section, "")
    rd.keys(section, "", ("board", "players", "fill", "types", "groups", "deal", "tokens", "regions",
                          "constraints", "starts", "objective", "tries", "markers", "outside",
                          "areas", "seats", "pieces", "sets", "turn_pieces", "options"))
    board = rd.mapping(section.get("board"), "board")
    rd.keys(board, "board", ("grid", "orientation", "shape", "cols", "rows", "radius", "cells", "labels", "fixed",
                             "walls", "first"))
    grid_type = board.get("grid", "hex")
    if grid_type not in ("hex", "square"):
        rd.fail("board.grid", f"is {grid_type!r}", "use hex or square")
    first = grow.grown_first(rd, board)
    if first is not None:
        grow.check_grown(rd, section, board, [])
    coords = read.board_cells(rd, board, grid_type)
    _numbers_bounded(rd, section)
    labels = read.board_labels(rd, board, coords, grid_type)
    regions = read.regions(rd, section.get("regions"), coords, grid_type, areas.selector) if coords else {}
    rd.place = lambda where, value: areas.selector(rd, where, value, coords, grid_type, regions)
    players = rd.players = read.player_counts(rd, section.get("players", {"min": 1, "max": 1}))
    types, tile_sets = {}, {}
    for name, spec in rd.mapping(section.get("types", {}), "types").items():
        spec = rd.mapping(spec or {}, f"types.{name}")
        rd.keys(spec, f"types.{name}", ("values", "tiles"))
        types[str(name)] = dict(rd.mapping(spec.get("values", {}), f"types.{name}.values"))
        if spec.get("tiles") is not None:
            tile_sets[str(name)] = grow.tiles(rd, name, spec["tiles"], players)
    fill = str(section.get("fill", "empty"))
    if first is None:                   # a grown board has no cells left over to fill
        types.setdefault(fill, {})
    groups = {name: frozenset([name]) for name in types}
    for name, members in rd.mapping(section.get("groups", {}), "groups").items():
        if name in types:
            rd.fail(f"groups.{name}", "has the name of a type", "give the group another name")
        if not isinstance(members, list) or not members:
            rd.fail(f"groups.{name}", "must be a list of types")
        for m in members:
            known(rd, f"groups.{name}", m, types)
        groups[str(name)] = frozenset(members)
    index = {c: i for i, c in enumerate(coords)}
    fixed = read.fixed_cells(rd, board.get("fixed", []), index, types, grid_type)
    deal = read.bags(rd, section.get("deal", []), types, players, tile_sets)
    tokens = read.token_lists(rd, section.get("tokens", []), groups, players)
    markers = read.marker_lists(rd, section.get("markers", []), groups, players)
    rules = [read.constraint(rd, n, r, groups, tokens, markers, players)
             for n, r in enumerate(section.get("constraints", []) or [])]
    if first is not None:
        grow.check_grown(rd, section, board, rules)
    starts = read.start_rules(rd, section.get("starts"), groups, players)
    if starts is None and any(r.kind in START_RULES for r in rules):
        rd.fail("starts", "the start rules need start positions", "add starts: {over: TYPE, near: 1}")
    place = _places(rd, section, board, coords, grid_type, regions, types, groups, fixed, index)
    rd.area_keys = {k for area in place["areas"] for k in area["values"]}
    objective = read.objectives(rd, section.get("objective", []), types, groups, starts or place["seats"], tokens,
                                place["pieces"], markers)
    for t in sorted({fill, *fixed.values()} & set(types)):
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
                    read.outside_spaces(rd, section.get("outside", []), types), regions,
                    read.walls(rd, board.get("walls"), coords, grid_type), first=first, tiles=tile_sets, **place)
    grow.check_terms(rd, spec, dealt_counts)
    spec.options = declared_options.read(rd, section.get("options"), rules, players)
    spec.sets, spec.turn_pieces = declared_laid_read.read(rd, section, board, types, groups, players, rules, objective)
    _deal_fits_board(rd, spec)
    _deal_meets_counts(rd, spec)
    _markers_meet_counts(rd, spec)
    _rules_name_what_is_there(rd, spec)
    return spec


def _places(rd, section, board, coords, grid_type, regions, types, groups, fixed, index) -> dict:
    """The parts about places on the board (declared_areas.py): areas, seats, pieces, bags
    dealt into a place."""
    select = rd.place
    free = set(range(len(coords))) - set(fixed)
    return {"areas": areas.areas(rd, section.get("areas", []), select, types, groups, read.known),
            "seats": areas.seats(rd, section.get("seats"), index, rd.players, read.cell),
            "pieces": grow.pieces(rd, section.get("pieces", []), groups, rd.players),
            "bound": areas.bound_bags(rd, section.get("deal", []), select, regions, rd.players, free)}


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
        room = len(spec.coords) - len(spec.fixed) if spec.first is None else read.MAX_CELLS
        if tiles > room:
            rd.fail("deal", f"deals {tiles:,} tiles with {players} players onto {room:,} free cells",
                    "deal fewer tiles or draw a larger board")


def _on_board(spec: Declared) -> set:
    """The types a layout can hold: dealt (for some player count or option), fixed, the fill,
    or a space off the board."""
    dealt = {side for sides, count, option, high, _ in spec.deal
             if (high if option else max(count.values(), default=0)) > 0 for side in sides}
    laid = {t for t, _ in spec.sets["tiles"]} if spec.sets else set()
    return dealt | set(spec.fixed.values()) | {spec.fill} | {o["type"] for o in spec.outside or []} | laid


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
                        + [(f"pieces[{n + 1}].over", p["over"]) for n, p in enumerate(spec.pieces or [])]
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
            if not within_bounds(have, bounds):
                rd.fail(f"constraints ({rule.id})", f"asks for {bounds} {rule.args['marker']} with {players} players, "
                        f"but markers: puts {have}", "fix the count in markers: or in the rule")


def dealt_counts(spec: Declared, players: int) -> tuple[dict, set]:
    """How many of each type the deal always puts down, and the types whose number varies."""
    dealt: dict = {}
    for sides, count, option, _, _ in spec.deal:
        if len(sides) == 1 and not option:
            dealt[sides[0]] = dealt.get(sides[0], 0) + count[players]
    for t in spec.fixed.values():
        dealt[t] = dealt.get(t, 0) + 1
    varying = {s for sides, _, option, _, _ in spec.deal if len(sides) > 1 or option for s in sides} | {spec.fill}
    return dealt, varying


def count_is_dealt(spec: Declared, rule: Rule, players: int) -> bool:
    dealt, varying = dealt_counts(spec, players)
    if rule.args["a"] & varying or set(rule.args) - {"a", "exactly"}:
        return False
    want = rule.args["exactly"]
    want = want.get(players) if isinstance(want, dict) else want
    return want == sum(dealt.get(t, 0) for t in rule.args["a"])


def _deal_meets_counts(rd, spec: Declared) -> None:
    """A bag that cannot meet an exact count rule is a typo: said now, not after 400 boards."""
    for players in range(spec.players[0], spec.players[1] + 1):
        dealt, varying = dealt_counts(spec, players)
        for rule in spec.rules:
            if rule.kind != "count" or "exactly" not in rule.args or rule.args["a"] & varying or "where" in rule.args \
                    or "in" in rule.args:
                continue
            want = rule.args["exactly"]
            want = want.get(players) if isinstance(want, dict) else want
            have = sum(dealt.get(t, 0) for t in rule.args["a"])
            if want is not None and have != want:
                rd.fail(f"constraints ({rule.id})", f"asks for exactly {want} of {', '.join(sorted(rule.args['a']))} "
                        f"with {players} players, but the deal puts {have} on the board",
                        "fix the count in deal: or in the rule")


def within_bounds(n: int, bounds: dict) -> bool:
    return ((bounds.get("exactly") is None or n == bounds["exactly"]) and
            (bounds.get("min") is None or n >= bounds["min"]) and (bounds.get("max") is None or n <= bounds["max"]))
