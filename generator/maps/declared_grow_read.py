"""The map vocabulary's terms for maps the players lay tile by tile (Shires) -> checked values:
a grown board, the laying rules (`touching`, `turns`), numbered tiles (`types.T.tiles`, a bag
`{tiles: T}`), pieces set on cells at setup (`pieces:`, `piece_count`) and edge marks
(`mark_edge`). Each mistake is named with its place through declared_read's Reader;
declared_grow_gen.py deals these terms, declared_grow_check.py (written apart) checks them.
"""
from __future__ import annotations

# rules of these terms: the keys each takes besides its own (declared_read.RULE_KEYS adds them)
RULE_KEYS = {"touching": ("first", "after", "faces_meet"), "turns": (), "mark_edge": (),
             "piece_count": ("exactly", "min", "max", "where")}
GROWN_ONLY = ("touching", "turns")
# what a grown board has no place for: an outline's cells, or rules about one
NOT_ON_GROWN = {"board": ("fixed", "walls", "labels", "cols", "rows", "radius", "cells"),
                "section": ("fill", "regions", "starts", "markers", "outside", "tokens")}
NOT_ON_GROWN_RULES = ("not_adjacent", "min_distance", "off_edge", "on_edge", "near", "quota", "reachable")
MAX_TILES = 1_000           # numbered tiles of one type


def grown_first(rd, board) -> tuple | None:
    """`shape: grown`: the cell the first tile is laid on (default [0, 0]); None for an outline."""
    if board.get("shape") != "grown":
        if "first" in board:
            rd.fail("board.first", "is for a grown board (shape: grown)")
        return None
    if board.get("grid", "hex") != "hex":
        rd.fail("board.grid", "a grown board is laid of hexes", "use grid: hex")
    for key in NOT_ON_GROWN["board"]:
        if key in board:
            rd.fail(f"board.{key}", "a grown board has no outline", "leave it out, or draw the board")
    first = board.get("first", [0, 0])
    if not (isinstance(first, list) and len(first) == 2 and all(isinstance(v, int) and not isinstance(v, bool)
                                                                for v in first)):
        rd.fail("board.first", f"must be a cell [q, r] of two whole numbers, not {first!r}")
    return tuple(first)


def tiles(rd, name: str, value, players) -> dict | None:
    """types.T.tiles: {count, marks: {n: fewest players}, values: {key: {n: value}}}: the numbered
    tiles T-1 .. T-count; a tile marked with more players than play is left out."""
    if value is None:
        return None
    where = f"types.{name}.tiles"
    value = rd.mapping(value, where)
    rd.keys(value, where, ("count", "marks", "values"))
    count = rd.whole(value.get("count"), f"{where}.count", 1, MAX_TILES)
    marks = {}
    for number, least in rd.mapping(value.get("marks", {}), f"{where}.marks").items():
        rd.whole(number, f"{where}.marks (tile number)", 1, count)
        marks[number] = rd.whole(least, f"{where}.marks.{number}", 1, 99)
    own = {}
    for key, by_number in rd.mapping(value.get("values", {}), f"{where}.values").items():
        by_number = rd.mapping(by_number, f"{where}.values.{key}")
        missing = [n for n in range(1, count + 1) if n not in by_number]
        if missing or len(by_number) != count:
            rd.fail(f"{where}.values.{key}", f"must give the value of each tile 1-{count} (missing: "
                    f"{', '.join(map(str, missing)) or 'none'}; or a number outside 1-{count})")
        for n, v in by_number.items():
            if not isinstance(v, (bool, int, float, str)):
                rd.fail(f"{where}.values.{key}.{n}", f"must be a number, true/false or a word, not {v!r}")
        own[str(key)] = dict(by_number)
    used = {p: [n for n in range(1, count + 1) if marks.get(n, 0) <= p] for p in range(players[0], players[1] + 1)}
    return {"count": count, "marks": marks, "values": own, "used": used}


def tile_bag(rd, where: str, entry: dict, types: dict, tile_sets: dict, players) -> tuple:
    """A bag `{tiles: T}`: every numbered tile of T used at the player count -> the bag tuple of
    declared_read.bags (sides, count per players, option, max, values)."""
    name = entry["tiles"]
    if not isinstance(name, str) or name not in tile_sets:
        rd.fail(f"{where}.tiles", f"'{name}' is not a type with numbered tiles",
                "declare types.<type>.tiles: {count: n}")
    if set(entry) - {"tiles"}:
        rd.fail(where, "a bag of numbered tiles takes only tiles: (its count comes from the tiles and their marks)")
    return ((name,), {p: len(n) for p, n in tile_sets[name]["used"].items()}, None, 0, {})


def touching(rd, where, entry, args, groups) -> None:
    """touching: k, first: n | after: n, faces_meet -- a tile, when laid, touched k laid before."""
    args["touch"] = rd.per_players(entry["touching"], f"{where}.touching", rd.players, 1, 6)
    if ("first" in entry) == ("after" in entry):
        rd.fail(where, "touching: needs first: n (each player's first n tiles) or after: n (each player's "
                "tiles after the n-th)")
    key = "first" if "first" in entry else "after"
    args[key] = rd.whole(entry[key], f"{where}.{key}", 0, 1000)
    args["faces_meet"] = entry.get("faces_meet", False)
    if not isinstance(args["faces_meet"], bool):
        rd.fail(f"{where}.faces_meet", "must be true or false")


def turns(rd, where, entry, args, groups) -> None:
    """turns: true -- the players lay in turn from player 1: the k-th tile is player ((k-1) mod n)+1's."""
    if entry["turns"] is not True:
        rd.fail(f"{where}.turns", "must be true")


def mark_edge(rd, where, entry, args, groups) -> None:
    """mark_edge: KEY -- every cell carries KEY: true on the edge of the map, false inside."""
    key = entry["mark_edge"]
    if not isinstance(key, str) or not key or key in ("q", "r", "x", "y", "type", "label"):
        rd.fail(f"{where}.mark_edge", f"must name the key written on each cell (e.g. coastal), not {key!r}")
    args["key"] = key


def piece_count(rd, where, entry, args, groups) -> None:
    """piece_count: KIND with exactly/min/max, optional where: {field: value} -- how many pieces."""
    if not isinstance(entry["piece_count"], str):
        rd.fail(f"{where}.piece_count", "must name a kind of piece declared under pieces:")
    args["kind"] = entry["piece_count"]
    rd.mapping(args.get("where", {}), f"{where}.where")
    if not set(args) & {"exactly", "min", "max"}:
        rd.fail(where, "piece_count: needs exactly:, min: or max:")


RULE_READERS = {"touching": touching, "turns": turns, "mark_edge": mark_edge, "piece_count": piece_count}


def pieces(rd, entries, groups, players) -> list:
    """pieces: [{kind, over, where, fields, pile: {name, counts}, id, quote}]: setup sets one piece of
    the kind on every cell of `over` (carrying the `where` values), with the fields; a pile deals
    each piece one name, written as pile.name (the counts per player count, mixed)."""
    out = []
    for where, entry in rd.entries(entries, "pieces", ("kind", "over", "where", "fields", "pile", "id", "quote")):
        kind = entry.get("kind")
        if not isinstance(kind, str) or not kind or kind == "start":
            rd.fail(f"{where}.kind", f"must name the kind of piece, not {kind!r}")
        if any(p["kind"] == kind for p in out):
            rd.fail(f"{where}.kind", f"a second pieces entry of kind '{kind}'", "one entry per kind")
        if not isinstance(entry.get("over"), str) or entry["over"] not in groups:
            rd.fail(f"{where}.over", f"'{entry.get('over')}' is not a declared type or group",
                    "declare it under types: or groups:")
        fields = dict(rd.mapping(entry.get("fields", {}), f"{where}.fields"))
        taken = {"kind", "cell"} & set(fields)
        if taken:
            rd.fail(f"{where}.fields", f"sets {', '.join(sorted(taken))}, which the piece itself fills in")
        pile = _pile(rd, f"{where}.pile", entry.get("pile"), players, fields)
        out.append({"kind": kind, "over": groups[entry["over"]], "over_name": entry["over"],
                    "where": dict(rd.mapping(entry.get("where", {}), f"{where}.where")), "fields": fields,
                    "pile": pile, "id": str(entry.get("id") or "piece"), "quote": str(entry.get("quote", ""))})
    return out


def _pile(rd, where, value, players, fields) -> dict | None:
    if value is None:
        return None
    value = rd.mapping(value, where)
    rd.keys(value, where, ("name", "counts"))
    name = value.get("name")
    if not isinstance(name, str) or not name or name in ("kind", "cell") or name in fields:
        rd.fail(f"{where}.name", f"must name the key each piece's drawn name is written as, not {name!r}")
    counts = rd.mapping(value.get("counts"), f"{where}.counts")
    rd.player_count_keys(counts, f"{where}.counts", players)
    per = {}
    for p in range(players[0], players[1] + 1):
        if p not in counts:
            rd.fail(f"{where}.counts", f"gives no pile for {p} players", "give one for every player count")
        mix = rd.mapping(counts[p], f"{where}.counts.{p}")
        per[p] = {str(k): rd.whole(n, f"{where}.counts.{p}.{k}", 0, 100_000) for k, n in mix.items()}
    return {"name": name, "counts": per}


def check_grown(rd, section: dict, board: dict, rules: list) -> None:
    """What a grown board cannot hold, refused with its place."""
    for key in NOT_ON_GROWN["section"]:
        if key in section:
            rd.fail(key, "is not for a grown board (shape: grown): it has no outline, fill or seats",
                    "leave it out, or draw the board")
    for n, rule in enumerate(rules):
        if rule.kind in NOT_ON_GROWN_RULES:
            rd.fail(f"constraints[{n + 1}].{rule.kind}", "is a rule about a drawn board, not a grown one",
                    "leave it out, or draw the board")


def check_terms(rd, spec, dealt_counts) -> None:
    """The new terms against each other: laying rules only on a grown board, a piece_count over a
    declared kind and met by its pile, a pile as large as the cells it covers (`dealt_counts`:
    declared.dealt_counts, how many of each type the deal always puts down)."""
    kinds = {p["kind"]: p for p in spec.pieces}
    if spec.first is not None:
        for p in range(spec.players[0], spec.players[1] + 1):
            if not sum(count[p] for _, count, _, _, _ in spec.deal):
                rd.fail("deal", f"deals no tile with {p} players, so nothing is laid", "deal the tiles the players lay")
    for n, rule in enumerate(spec.rules):
        where = f"constraints[{n + 1}]"
        if rule.kind in GROWN_ONLY and spec.first is None:
            rd.fail(f"{where}.{rule.kind}", "is a rule about laying tiles one by one", "use it on a grown board (shape: grown)")
        if rule.kind == "piece_count" and rule.args["kind"] not in kinds:
            rd.fail(f"{where}.piece_count", f"'{rule.args['kind']}' is not a kind declared under pieces:")
        if rule.kind == "count" and "where" in rule.args and set(rule.args["where"]) & _tile_keys(spec):
            rd.fail(f"{where}.where", "reads a value of numbered tiles, which are named after the rules are met",
                    "count the pieces or the types instead")
    for p in range(spec.players[0], spec.players[1] + 1):
        dealt, varying = dealt_counts(spec, p)
        for entry in spec.pieces:
            pile = entry["pile"]
            if pile is None:
                continue
            mix = pile["counts"][p]
            for n, rule in enumerate(spec.rules):
                if rule.kind != "piece_count" or rule.args["kind"] != entry["kind"]:
                    continue
                want = rule.args.get("where", {})
                if set(want) - {pile["name"]} or any(k in entry["fields"] for k in want):
                    continue
                have = sum(c for name, c in mix.items() if all(name == v for v in want.values()))
                bounds = {k: rule.args[k][p] for k in ("exactly", "min", "max") if k in rule.args}
                if not _within(have, bounds):
                    rd.fail(f"constraints ({rule.id})", f"asks for {bounds} {entry['kind']} pieces "
                            f"{want or ''} with {p} players, but pieces: puts {have}", "fix the pile or the rule")
            if not entry["where"] and not entry["over"] & varying:
                cells = sum(dealt.get(t, 0) for t in entry["over"])
                if sum(mix.values()) != cells:
                    rd.fail(f"pieces ({entry['kind']}).pile", f"holds {sum(mix.values())} with {p} players for "
                            f"{cells} {entry['over_name']} cells", "one name for each piece")


def _tile_keys(spec) -> set:
    return {k for t in (spec.tiles or {}).values() for k in t["values"]}


def _within(n: int, bounds: dict) -> bool:
    return all({"exactly": n == v, "min": n >= v, "max": n <= v}[k] for k, v in bounds.items())


def pick_objective(rd, where, entry, types, groups, tokens, pieces, counted_as) -> dict:
    """pick_spread: VALUE, over: TYPE-OR-GROUP, near: d, spacing: s -- the players' simulated
    choices of a cell of `over` (each the one with the most VALUE within `near`) get even sums."""
    rd.keys(entry, where, ("pick_spread", "over", "near", "spacing", "as", "weight", "name"))
    value = entry["pick_spread"]
    if not isinstance(value, str):
        rd.fail(f"{where}.pick_spread", f"must name a value the cells or pieces carry, not {value!r}")
    named = {k for v in types.values() for k in v} | {t["name"] for t in tokens} | \
        {k for p in pieces for k in p["fields"]} | {p["pile"]["name"] for p in pieces if p["pile"]}
    if value not in named:
        rd.fail(f"{where}.pick_spread", f"no type, token or piece carries the value '{value}'",
                "name a value the layout's cells or pieces carry")
    if not isinstance(entry.get("over"), str) or entry["over"] not in groups:
        rd.fail(f"{where}.over", f"'{entry.get('over')}' is not a declared type or group",
                "name the types the players choose from")
    weight = entry.get("weight", 1)
    if not isinstance(weight, (int, float)) or isinstance(weight, bool):
        rd.fail(f"{where}.weight", "must be a number")
    name = entry.get("name", value)
    if not isinstance(name, str) or not name:
        rd.fail(f"{where}.name", f"must be a word naming the metrics (<name>_picks), not {name!r}")
    return {"kind": "pick_spread", "value": value, "name": name, "over": sorted(groups[entry["over"]]),
            "over_types": groups[entry["over"]], "near": rd.whole(entry.get("near", 1), f"{where}.near", 0, 20),
            "spacing": rd.whole(entry.get("spacing", 0), f"{where}.spacing", 0, 20), "as": counted_as,
            "weight": float(weight), "per": [], "through": None}
