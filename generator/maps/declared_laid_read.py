"""Tile sets and turn pieces in the map vocabulary (docs/maps.md, "A map the players lay"): the parts of a
map.yaml `layout:` section for a game with no printed board, whose players each lay their own set
of tiles and then set pieces on them (Dragon Towers) -> checked values, each mistake located.

`board: {shape: laid}` says the tiles laid are the map; `sets:` gives each player's set of tiles (and
the values printed on a set's own tiles); `turn_pieces:` the pieces every player sets, in turn; the rules
`set_count`, `pieces_each`, `piece_on`, `piece_roll`, `pieces_apart` and `piece_beside` say what
a legal set-up is, and the objectives `piece_types`, `piece_pressure` and `piece_distance` what balancing evens out. declared_read.py
registers the rules and the objective from the tables at the end; declared.py calls `read`.
"""
from __future__ import annotations

from .rules import is_int

# what a laid board cannot have: there is no printed board to fix cells on, cut or walk around
NOT_ON_LAID = ("fill", "deal", "tokens", "starts", "markers", "outside", "regions")
BOARD_ON_LAID = ("grid", "orientation", "shape")
# the rules a laid board keeps (the rest name a printed board's edge, cells, regions or starts)
LAID_RULES = ("connected", "adjacent", "clusters", "set_count", "pieces_each", "piece_on", "piece_roll",
              "pieces_apart", "piece_beside")
PIECE_RULES = ("pieces_each", "piece_on", "piece_roll", "pieces_apart", "piece_beside")
RESERVED_KINDS = ("start",)


def _known(rd, where, name, groups) -> frozenset:
    if name not in groups:
        rd.fail(where, f"'{name}' is not a declared type or group", "declare it under types: or groups:")
    return groups[name]


def _set_count(rd, where, entry, args, groups) -> None:
    """set_count: A with exactly/min/max -- how many cells of A each seat lays."""
    args["a"] = _known(rd, f"{where}.set_count", entry["set_count"], groups)
    if not set(args) & {"exactly", "min", "max"}:
        rd.fail(where, "set_count: needs exactly:, min: or max: (the tiles of A in each player's set)")


def _piece(rd, where, entry, kind, args) -> None:
    target = entry[kind]
    if not isinstance(target, str) or not target:
        rd.fail(f"{where}.{kind}", f"must name a kind of piece declared under turn_pieces:, not {target!r}")
    args["piece"] = target


def _pieces_each(rd, where, entry, args, groups) -> None:
    """pieces_each: KIND with exactly/min/max -- how many pieces of KIND each player has."""
    _piece(rd, where, entry, "pieces_each", args)
    if not set(args) & {"exactly", "min", "max"}:
        rd.fail(where, "pieces_each: needs exactly:, min: or max: (the pieces of that kind each player sets)")


def _piece_on(rd, where, entry, args, groups) -> None:
    """piece_on: KIND, over: A -- every piece of KIND stands on a cell of A."""
    _piece(rd, where, entry, "piece_on", args)
    args["over"] = _known(rd, f"{where}.over", entry.get("over"), groups)


def _piece_roll(rd, where, entry, args, groups) -> None:
    """piece_roll: KIND, die: n, shows: TOKEN -- each piece carries its die roll (1..n), and stands
    on a cell whose TOKEN shows that roll."""
    _piece(rd, where, entry, "piece_roll", args)
    args["die"] = rd.whole(entry.get("die"), f"{where}.die", 2, 1000)
    if not isinstance(entry.get("shows"), str):
        rd.fail(f"{where}.shows", "must name the token whose value the roll must match (a set token)")
    args["shows"] = entry["shows"]


def _pieces_apart(rd, where, entry, args, groups) -> None:
    """pieces_apart: [KIND, OTHER] -- no cell holds a piece of KIND and another of OTHER
    ([KIND, KIND]: at most one piece of KIND on a cell)."""
    pair = entry["pieces_apart"]
    if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(k, str) and k for k in pair)):
        rd.fail(f"{where}.pieces_apart", f"must name two kinds of piece: [a, b], not {pair!r}")
    args["pieces"] = tuple(pair)


def _piece_beside(rd, where, entry, args, groups) -> None:
    """piece_beside: KIND, of: A, chain: true -- each piece of KIND set next to a cell of A, or
    (chain) next to a piece of KIND of its player set before it."""
    _piece(rd, where, entry, "piece_beside", args)
    args["of"] = _known(rd, f"{where}.of", entry.get("of"), groups)
    chain = entry.get("chain", False)
    if not isinstance(chain, bool):
        rd.fail(f"{where}.chain", "must be true or false")
    args["chain"] = chain


# kind -> (the keys it takes besides its own, its reader): registered by declared_read
LAID_READERS = {
    "set_count": (("exactly", "min", "max"), _set_count),
    "pieces_each": (("exactly", "min", "max"), _pieces_each),
    "piece_on": (("over",), _piece_on),
    "piece_roll": (("die", "shows"), _piece_roll),
    "pieces_apart": ((), _pieces_apart),
    "piece_beside": (("of", "chain"), _piece_beside),
}


def piece_types(rd, where, entry, groups) -> dict:
    """{piece_types: KIND, over: A, within: d}: for each player, how many of A's types lie within
    d steps of their pieces of KIND; balancing raises the fewest any player has."""
    rd.keys(entry, where, ("piece_types", "over", "within", "weight"))
    kind = entry["piece_types"]
    if not isinstance(kind, str) or not kind:
        rd.fail(f"{where}.piece_types", f"must name a kind of piece declared under turn_pieces:, not {kind!r}")
    over = _known(rd, f"{where}.over", entry.get("over"), groups)
    return {"kind": "piece_types", "value": kind, "pieces": (kind,), "over": sorted(over), "over_name": entry["over"],
            "within": rd.whole(entry.get("within", 0), f"{where}.within", 0, 20), "weight": _weight(rd, where, entry)}


def piece_pressure(rd, where, entry, groups) -> dict:
    """{piece_pressure: KIND, around: OTHER, within: d}: for each player, every piece of KIND
    (anyone's) within d steps of their nearest OTHER counts d + 1 - its steps; balancing evens
    that out. (`around`, not `on`: YAML reads a bare on as true.)"""
    rd.keys(entry, where, ("piece_pressure", "around", "within", "weight"))
    for key in ("piece_pressure", "around"):
        if not isinstance(entry.get(key), str) or not entry[key]:
            rd.fail(f"{where}.{key}", f"must name a kind of piece declared under turn_pieces:, not {entry.get(key)!r}")
    return {"kind": "piece_pressure", "value": entry["piece_pressure"], "pieces": (entry["piece_pressure"], entry["around"]),
            "within": rd.whole(entry.get("within", 1), f"{where}.within", 0, 20), "weight": _weight(rd, where, entry)}


def piece_distance(rd, where, entry, groups) -> dict:
    """{piece_distance: KIND, cap: d}: the fewest steps between two players' pieces of KIND, counted
    up to d; balancing keeps players apart."""
    rd.keys(entry, where, ("piece_distance", "cap", "weight"))
    if not isinstance(entry["piece_distance"], str) or not entry["piece_distance"]:
        rd.fail(f"{where}.piece_distance", f"must name a kind of piece declared under turn_pieces:, not {entry['piece_distance']!r}")
    return {"kind": "piece_distance", "value": entry["piece_distance"], "pieces": (entry["piece_distance"],),
            "cap": rd.whole(entry.get("cap"), f"{where}.cap", 1, 100), "weight": _weight(rd, where, entry)}


def _weight(rd, where, entry) -> float:
    weight = entry.get("weight", 1)
    if not isinstance(weight, (int, float)) or isinstance(weight, bool):
        rd.fail(f"{where}.weight", f"must be a number, not {weight!r}")
    return float(weight)


LAID_OBJECTIVES = {"piece_types": piece_types, "piece_pressure": piece_pressure, "piece_distance": piece_distance}


# --- the sections ----------------------------------------------------------------------------

def read(rd, section: dict, board: dict, types: dict, groups: dict, players: tuple, rules: list,
         objective: list) -> tuple:
    """(sets, turn pieces) of the declaration: both None unless the board is laid."""
    laid = board.get("shape") == "laid"
    for key in ("sets", "turn_pieces"):
        if key in section and not laid:
            rd.fail(key, "is for a map the players lay from their own tiles", "give the board shape: laid")
    kinds_used = [n for n, r in enumerate(rules) if r.kind in LAID_READERS]
    if not laid:
        for n in kinds_used:
            rd.fail(f"constraints[{n + 1}].{rules[n].kind}", "is a rule of a laid map (tile sets and turn pieces)",
                    "give the board shape: laid, with sets: and turn_pieces:")
        for n, goal in enumerate(objective):
            if goal["kind"] in LAID_OBJECTIVES:
                rd.fail(f"objective[{n + 1}]", f"{goal['kind']} is for a laid map with turn_pieces:")
        return None, None
    _laid_board_only(rd, section, board, rules)
    sets = _sets(rd, section.get("sets"), types, groups, players)
    pieces = _pieces(rd, section.get("turn_pieces"), players, groups)
    _rules_meet_pieces(rd, rules, pieces, sets, players)
    for n, goal in enumerate(objective):
        if goal["kind"] not in LAID_OBJECTIVES:
            rd.fail(f"objective[{n + 1}]", f"{goal['kind']} reads a printed board",
                    f"use {', '.join(LAID_OBJECTIVES)} on a laid map")
        for kind in goal["pieces"]:
            if kind not in {p["kind"] for p in pieces}:
                rd.fail(f"objective[{n + 1}]", f"'{kind}' is not a kind declared under turn_pieces:")
    return sets, pieces


def _laid_board_only(rd, section, board, rules) -> None:
    for key in board:
        if key not in BOARD_ON_LAID:
            rd.fail(f"board.{key}", "a laid board has no printed cells", f"give only {', '.join(BOARD_ON_LAID)}")
    for key in NOT_ON_LAID:
        if key in section:
            rd.fail(key, "is for a printed board; on a laid board each player lays their own set",
                    "give the tiles under sets: tiles:, the values printed on them under sets: tokens:")
    if "sets" not in section:
        rd.fail("board.shape", "a laid board needs sets: (the tiles each player lays)")
    for n, rule in enumerate(rules):
        if rule.kind not in LAID_RULES:
            rd.fail(f"constraints[{n + 1}].{rule.kind}", "reads a printed board (its edge, cells or regions)",
                    f"on a laid board use {', '.join(LAID_RULES)}")


def _sets(rd, value, types, groups, players) -> dict:
    value = rd.mapping(value, "sets")
    rd.keys(value, "sets", ("key", "tiles", "grow", "tokens"))
    key = value.get("key")
    if not isinstance(key, str) or not key or key in ("q", "r", "x", "y", "type"):
        rd.fail("sets.key", f"must name the cell key that says whose set a tile is from (placed_by), not {key!r}")
    tiles = []
    for where, entry in rd.entries(value.get("tiles"), "sets.tiles", ("type", "count")):
        if entry.get("type") not in types:
            rd.fail(f"{where}.type", f"'{entry.get('type')}' is not a declared type")
        tiles.append((entry["type"], rd.per_players(entry.get("count", 0), f"{where}.count", players, 0, 500)))
    for p in range(players[0], players[1] + 1):
        if not sum(count[p] for _, count in tiles):
            rd.fail("sets.tiles", f"give each player at least one tile (none with {p} players)")
        if p * sum(count[p] for _, count in tiles) > 2_000:
            rd.fail("sets.tiles", f"{p} players lay over 2,000 tiles", "give each set fewer tiles")
    grow = value.get("grow", 1)
    if not isinstance(grow, (int, float)) or isinstance(grow, bool) or not 0 <= grow <= 8:
        rd.fail("sets.grow", f"must be a number from 0 to 8 (how strongly a set's tiles keep together), not {grow!r}")
    return {"key": key, "tiles": tiles, "grow": grow, "tokens": _set_tokens(rd, value.get("tokens"), tiles, groups, players)}


def _set_tokens(rd, entries, tiles, groups, players) -> list:
    """{name, over, values: {seat: [...]}}: seat n's tiles of those types show its own values."""
    out = []
    for where, entry in rd.entries(entries, "sets.tokens", ("name", "over", "values")):
        name = entry.get("name")
        if not isinstance(name, str) or not name or name in {t["name"] for t in out}:
            rd.fail(f"{where}.name", f"must name the token (once), not {name!r}")
        over = _known(rd, f"{where}.over", entry.get("over"), groups)
        values = rd.mapping(entry.get("values"), f"{where}.values")
        per_seat = {}
        for seat, shown in values.items():
            rd.whole(seat, f"{where}.values (seat)", 1, 99)
            if not isinstance(shown, list) or not all(is_int(v) or isinstance(v, str) for v in shown):
                rd.fail(f"{where}.values.{seat}", "must list the values seat n's tiles show (numbers or words)")
            per_seat[seat] = list(shown)
        for p in range(players[0], players[1] + 1):
            under = sum(count[p] for t, count in tiles if t in over)
            for seat in range(1, p + 1):
                if seat not in per_seat:
                    rd.fail(f"{where}.values", f"gives no values for seat {seat}", "give one list per seat")
                if len(per_seat[seat]) != under:
                    rd.fail(f"{where}.values.{seat}", f"lists {len(per_seat[seat])} values for the {under} "
                            f"tiles of {entry['over']} in a set", "give one value per tile")
        out.append({"name": name, "over": over, "values": per_seat})
    return out


def _pieces(rd, entries, players, groups) -> list:
    out = []
    for where, entry in rd.entries(entries, "turn_pieces", ("kind", "each", "rerolls", "prefer")):
        kind = entry.get("kind")
        if not isinstance(kind, str) or not kind or kind in RESERVED_KINDS or kind in {p["kind"] for p in out}:
            rd.fail(f"{where}.kind", f"must name the kind of piece (once; not start), not {kind!r}")
        prefer = rd.mapping(entry.get("prefer", {}), f"{where}.prefer")
        rd.keys(prefer, f"{where}.prefer", ("new", "apart"))
        if "apart" in prefer and not isinstance(prefer["apart"], bool):
            rd.fail(f"{where}.prefer.apart", "must be true or false")
        new = None if prefer.get("new") is None else _known(rd, f"{where}.prefer.new", prefer["new"], groups)
        out.append({"kind": kind, "each": rd.per_players(entry.get("each", 1), f"{where}.each", players, 0, 100),
                    "rerolls": rd.whole(entry.get("rerolls", 200), f"{where}.rerolls", 1, 10_000),
                    "new": new, "apart": prefer.get("apart", False)})
    return out


def _rules_meet_pieces(rd, rules, pieces, sets, players) -> None:
    """Each piece rule names a declared kind; a piece count the rules refuse, or a roll no set
    token shows, is a typo: said now, not after a budget of boards."""
    kinds = {p["kind"]: p for p in pieces}
    tokens = {t["name"] for t in sets["tokens"]}
    for n, rule in enumerate(rules):
        if rule.kind not in PIECE_RULES:
            continue
        where = f"constraints[{n + 1}]"
        named = rule.args.get("pieces") or (rule.args["piece"],)
        for kind in named:
            if kind not in kinds:
                rd.fail(f"{where}.{rule.kind}", f"'{kind}' is not a kind declared under turn_pieces:")
        if rule.kind == "piece_roll" and rule.args["shows"] not in tokens:
            rd.fail(f"{where}.shows", f"'{rule.args['shows']}' is not a token under sets: tokens:")
        if rule.kind == "pieces_each":
            for p in range(players[0], players[1] + 1):
                have = kinds[rule.args["piece"]]["each"][p]
                bounds = {b: rule.args[b][p] for b in ("exactly", "min", "max") if b in rule.args}
                if not ((bounds.get("exactly") is None or have == bounds["exactly"])
                        and have >= bounds.get("min", have) and have <= bounds.get("max", have)):
                    rd.fail(f"constraints ({rule.id})", f"asks for {bounds} {rule.args['piece']} each with {p} "
                            f"players, but turn_pieces: sets {have}", "fix each: in turn_pieces: or the rule")
