"""Map rules about places on the board (docs/maps.md, "Places"): map.yaml `layout:` parts ->
checked values, and what the generator makes of them.

- selectors `in: {ring: n, CUT: PART}`: the cells of a ring (steps from the board's edge) and/or
  of parts of a cut of the board (built-in or the pack's `regions:`);
- `areas:` values every cell of a place carries, whatever tile lies there (a biome's tier);
- bags dealt into a place (`deal: [{..., in: {...}, share: CUT, group: NAME}]`), shared out
  near-equally among the parts of a cut;
- `seats:` fixed places players sit at, taken per player count, with their starting pieces.
(`pieces:` on every cell of a type are declared_grow_read/_gen's, shared with grown boards.)

declared.py reads these with the rest; declared_gen.py deals with them. The checker,
declared_check_areas.py, is written apart and shares nothing with this module.
"""
from __future__ import annotations

import random

from . import grid

RANDOM_SHARES = 4           # random share-outs tried before the greedy one, which always succeeds


# --- reading -------------------------------------------------------------------------------------

def rings(coords: list, grid_type: str) -> list[int]:
    """Each cell's ring: the fewest steps to a cell on the board's edge (the edge is ring 0)."""
    edge = grid.edge_cells(coords, grid_type)
    dist = grid.distance_fn(grid_type)
    return [min(dist(c, e) for e in edge) for c in coords]


def selector(rd, where: str, value, coords: list, grid_type: str, regions: dict) -> frozenset:
    """`{ring: n or [n, ...], CUT: PART or [PART, ...], ...}` -> the indices of the cells that are
    in every one of them."""
    value = rd.mapping(value, where)
    if not value:
        rd.fail(where, "names no place", "give ring: and/or a cut of the board, e.g. {quadrants: nw}")
    cells = set(range(len(coords)))
    for key, want in value.items():
        wanted = want if isinstance(want, list) else [want]
        if key == "ring":
            for w in wanted:
                rd.whole(w, f"{where}.ring", 0, 1000)
            ring = rings(coords, grid_type)
            cells &= {i for i in cells if ring[i] in wanted}
        elif key in regions:
            names, part_of = regions[key]
            for w in wanted:
                if w not in names:
                    rd.fail(f"{where}.{key}", f"'{w}' is not a part of {key}", f"use {', '.join(names)}")
            parts = {names.index(w) for w in wanted}
            cells &= {i for i in cells if part_of[i] in parts}
        else:
            rd.fail(f"{where}.{key}", "is neither ring nor a cut of the board",
                    f"use ring or one of {', '.join(regions)}")
    if not cells:
        rd.fail(where, "holds no cell of the board")
    return frozenset(cells)


def areas(rd, entries, select, types: dict, groups: dict, known) -> list:
    """`areas: [{in, over, values, id, quote, policy}]`: values written onto every cell of a
    place (of the types `over` names). A key is given in one place only: never also a type's
    value, nor by two areas to one cell."""
    out = []
    for where, entry in rd.entries(entries, "areas", ("in", "over", "values", "id", "quote", "policy")):
        cells = select(f"{where}.in", entry.get("in"))
        over = None
        if "over" in entry:
            known(rd, f"{where}.over", entry["over"], groups)
            over = groups[entry["over"]]
        values = dict(rd.mapping(entry.get("values"), f"{where}.values"))
        if not values:
            rd.fail(f"{where}.values", "writes no value", "give the values every cell of the place carries")
        for key in values:
            typed = sorted(t for t in (over or types) if key in types[t])
            if typed:
                rd.fail(f"{where}.values.{key}", f"is a value of type {typed[0]} already", "give each value in one place")
        out.append({"cells": cells, "over": over, "values": values, "id": str(entry.get("id") or f"areas-{len(out) + 1}")})
    for i, a in enumerate(out):
        for j, b in enumerate(out[i + 1:], i + 2):
            if set(a["values"]) & set(b["values"]) and a["cells"] & b["cells"] and \
                    (a["over"] is None or b["over"] is None or a["over"] & b["over"]):
                key = sorted(set(a["values"]) & set(b["values"]))[0]
                rd.fail(f"areas[{j}].values.{key}", f"is given to cells areas[{i + 1}] gives it to",
                        "give each cell a value in one area only")
    return out


def bound_bags(rd, entries, select, regions: dict, players: tuple, free: set) -> list:
    """The bags dealt into a place (`in:`), grouped by place: [{cells, share, bags: [(bag index,
    group)]}]. One share per place; places that overlap are refused (which bag would go first?)."""
    places: list = []
    for n, entry in enumerate(entries or []):
        where = f"deal[{n + 1}]"
        if not isinstance(entry, dict) or "in" not in entry:
            for key in ("share", "group"):
                if isinstance(entry, dict) and key in entry:
                    rd.fail(f"{where}.{key}", "needs in: (the place the bag is dealt into)")
            continue
        if "sides" in entry or "option" in entry:
            rd.fail(where, "a bag dealt into a place (in:) is one-sided with a fixed count", "drop sides:/option:, or in:")
        cells = select(f"{where}.in", entry["in"])
        share = entry.get("share")
        if share is not None and share not in regions:
            rd.fail(f"{where}.share", f"is {share!r}", f"use one of {', '.join(regions)}")
        group = str(entry.get("group", f"#{n}"))
        place = next((p for p in places if p["cells"] == cells), None)
        if place is None:
            clash = next((p for p in places if p["cells"] & cells), None)
            if clash is not None:
                rd.fail(f"{where}.in", "overlaps the place of another bag", "deal into the same place, or places apart")
            place = {"cells": cells, "share": share, "bags": [], "where": where}
            places.append(place)
        if place["share"] != share:
            rd.fail(f"{where}.share", f"is {share!r}, but {place['where']} shares the same place by {place['share']!r}",
                    "share every bag of a place by one cut")
        place["bags"].append((n, group))
    for place in places:
        room = len(place["cells"] & free)
        for p in range(players[0], players[1] + 1):
            tiles = sum(_count(entries[n], p) for n, _ in place["bags"])
            if tiles > room:
                rd.fail(f"{place['where']}.in", f"deals {tiles} tiles with {p} players into {room} free cells",
                        "deal fewer tiles or name a larger place")
        place["cells"] = sorted(place["cells"] & free)
        place["share"] = regions[place["share"]] if place["share"] else None
    return places


def _count(entry: dict, players: int) -> int:
    count = entry.get("count", 0)
    return count[players] if isinstance(count, dict) else count


def seats(rd, value, index: dict, players: tuple, cell) -> dict | None:
    """`seats: {key, places: [{name, cell, pieces}], taken: {players: [names]}, turn, near}`."""
    if value is None:
        return None
    value = rd.mapping(value, "seats")
    rd.keys(value, "seats", ("key", "places", "taken", "turn", "near", "quote", "id"))
    key = value.get("key", "owner")
    if not isinstance(key, str) or not key:
        rd.fail("seats.key", "must name the cell key that says whose seat it is (e.g. owner)")
    places = []
    for where, place in rd.entries(value.get("places"), "seats.places", ("name", "cell", "pieces")):
        at = cell(rd, f"{where}.cell", place.get("cell"))
        if at not in index:
            rd.fail(f"{where}.cell", f"cell {list(at)} is not on the board")
        pieces = []
        if not isinstance(place.get("pieces", []), list):
            rd.fail(f"{where}.pieces", "must list the place's pieces: [{kind: knight, cell: [0, 0]}, ...]")
        for k, piece in enumerate(place.get("pieces", [])):
            pwhere = f"{where}.pieces[{k + 1}]"
            piece = rd.mapping(piece, pwhere)
            if not isinstance(piece.get("kind"), str):
                rd.fail(f"{pwhere}.kind", "must name the kind of piece")
            spot = cell(rd, f"{pwhere}.cell", piece.get("cell"))
            if spot not in index:
                rd.fail(f"{pwhere}.cell", f"cell {list(spot)} is not on the board")
            if key in piece:
                rd.fail(f"{pwhere}.{key}", "is the seat's player, filled in by the generator")
            if "in" in piece and index[spot] not in rd.place(f"{pwhere}.in", piece["in"]):
                rd.fail(f"{pwhere}.cell", f"cell {list(spot)} is not in the piece's place (in:)")
            pieces.append({k: v for k, v in piece.items() if k != "in"} | {"cell": list(spot)})
        places.append({"name": str(place.get("name")), "index": index[at], "pieces": pieces})
    names = [p["name"] for p in places]
    if not places or len(set(names)) != len(names):
        rd.fail("seats.places", "must list the places, each with its own name")
    taken = rd.mapping(value.get("taken"), "seats.taken")
    rd.player_count_keys(taken, "seats.taken", players)
    out = {}
    for p in range(players[0], players[1] + 1):
        seated = taken.get(p)
        if not isinstance(seated, list) or len(seated) != p or len(set(map(str, seated))) != p \
                or not all(s in names for s in seated):
            rd.fail(f"seats.taken.{p}" if p in taken else "seats.taken",
                    f"must list {p} different places for {p} players, player 1 first", f"places: {', '.join(names)}")
        out[p] = [names.index(s) for s in seated]
    if not isinstance(value.get("turn", False), bool):
        rd.fail("seats.turn", "must be true or false")
    return {"key": key, "places": places, "taken": out, "turn": value.get("turn", False),
            "near": rd.whole(value.get("near", 1), "seats.near", 0, 20)}


# --- generation ------------------------------------------------------------------------------

def deal_bound(rng: random.Random, places: list, deal: list, players: int) -> "list | None":
    """(cell, type, the tile's own values) of every tile of the bags dealt into a place; None
    when a share-out cannot be made."""
    out = []
    for place in places:
        tiles = [[deal[n][0][0], deal[n][4], deal[n][1][players], group] for n, group in place["bags"]]
        if place["share"] is None:
            pile = [(t, values) for t, values, count, _ in tiles for _ in range(count)]
            cells = place["cells"][:]
            rng.shuffle(cells)
            out += [(c, t, values) for c, (t, values) in zip(cells, pile)]
            continue
        dealt = _shared(rng, place, tiles)
        if dealt is None:
            return None
        out += dealt
    return out


def _shared(rng: random.Random, place: dict, tiles: list) -> "list | None":
    """The place's tiles shared out near-equally among the parts of its cut: first each group,
    then each bag inside its group; then shuffled inside each part."""
    names, part_of = place["share"]
    rows = [[c for c in place["cells"] if part_of[c] == k] for k in range(len(names))]
    rows = [r for r in rows if r]
    groups = list(dict.fromkeys(g for *_, g in tiles))
    totals = [sum(count for *_, count, g in tiles if g == group) for group in groups]
    left = sum(map(len, rows)) - sum(totals)
    if left:                                       # cells no bag fills: shared out as a group too
        groups.append(None)
        totals.append(left)
    per_group = share_out([len(r) for r in rows], totals, rng)
    if per_group is None:
        return None
    hands: list = [[] for _ in rows]
    for gi, group in enumerate(groups):
        members = [(t, values, count) for t, values, count, g in tiles if g == group] if group else [(None, None, left)]
        split = share_out([row[gi] for row in per_group], [count for *_, count in members], rng)
        if split is None:
            return None
        for r in range(len(rows)):
            for mi, (t, values, _) in enumerate(members):
                hands[r] += [(t, values)] * split[r][mi]
    out = []
    for cells, hand in zip(rows, hands):
        cells = cells[:]
        rng.shuffle(cells)
        out += [(c, t, values) for c, (t, values) in zip(cells, hand) if t is not None]
    return out


def share_out(row_sums: list, totals: list, rng: random.Random) -> "list | None":
    """A matrix m with row r summing to row_sums[r], column c to totals[c], and every m[r][c]
    totals[c] // rows or one more (each column shared out near-equally); None when none is."""
    rows = len(row_sums)
    base = [t // rows for t in totals]
    extra = [t % rows for t in totals]
    need = [s - sum(base) for s in row_sums]
    if min(need) < 0 or sum(need) != sum(extra):
        return None
    columns = list(range(len(totals)))
    for attempt in range(RANDOM_SHARES + 1):
        greedy = attempt == RANDOM_SHARES
        left = need[:]
        matrix = [base[:] for _ in range(rows)]
        rng.shuffle(columns)
        for c in (sorted(columns, key=lambda c: -extra[c]) if greedy else columns):
            if greedy:         # the rows with most room left first: finds a share-out when one exists
                keys = [rng.random() for _ in range(rows)]
                chosen = sorted(range(rows), key=lambda r: (-left[r], keys[r]))[:extra[c]]
                if any(left[r] == 0 for r in chosen):
                    break
            else:
                open_rows = [r for r in range(rows) if left[r] > 0]
                if len(open_rows) < extra[c]:
                    break
                chosen = rng.sample(open_rows, extra[c])
            for r in chosen:
                matrix[r][c] += 1
                left[r] -= 1
        else:
            return matrix
    return None


def proven_by_deal(spec, rule, players: int) -> bool:
    """Does dealing into places keep this rule by itself (so the generator need not check it;
    the checker always does)? A count `in:` a place that its bags fill whole, or a quota with only
    `spread` (at least 1) over the cut the place is shared by, counting exactly one group or one
    bag: what the deal puts there is known, and the share-out keeps each group and each bag at
    most 1 apart. `where` may read only values the tiles carry themselves."""
    if rule.kind not in ("count", "quota") or "in" not in rule.args:
        return False
    place = next((p for p in spec.bound or () if set(p["cells"]) == rule.args["in"] - set(spec.fixed)), None)
    if place is None or any(spec.fixed[c] in rule.args["a"] for c in rule.args["in"] if c in spec.fixed):
        return False
    if sum(spec.deal[n][1][players] for n, _ in place["bags"]) != len(place["cells"]):
        return False                          # cells left free: other bags may land there
    where, matched = rule.args.get("where", {}), []
    for n, group in place["bags"]:
        sides, count, _, _, values = spec.deal[n]
        if sides[0] not in rule.args["a"]:
            continue
        if any(k not in values for k in where):
            return False                      # a value from the type or an area: not the bag's to say
        if all(values[k] == v for k, v in where.items()):
            matched.append((n, group, count[players]))
    if rule.kind == "count":
        total = sum(n for *_, n in matched)
        bounds = {k: rule.args[k][players] for k in ("exactly", "min", "max") if k in rule.args}
        return all({"exactly": total == v, "min": total >= v, "max": total <= v}[k] for k, v in bounds.items())
    spread = rule.args.get("spread", {}).get(players)
    if "min" in rule.args or "max" in rule.args or not spread or place["share"] is not spec.regions.get(rule.args["per"]):
        return False
    groups = {g for _, g, _ in matched}
    whole = len(groups) == 1 and {n for n, _, _ in matched} == {n for n, g in place["bags"] if g in groups}
    return len(matched) <= 1 or whole


def area_values(spec, c: int, t: str) -> dict:
    """The values the areas write onto cell c holding type t."""
    out = {}
    for area in spec.areas or ():
        if c in area["cells"] and (area["over"] is None or t in area["over"]):
            out.update(area["values"])
    return out


def finish(spec, cells: list, kind: list, players: int, on_area=None) -> list:
    """Write the areas' values and the seats' players onto the layout's cells (each its own copy
    of a value that is a mapping or list); the seats' pieces (the cells' `pieces:` are
    declared_grow_gen's). on_area: the areas' values per cell and type, made once (area_values of each)."""
    for c, t in enumerate(kind):
        if on_area:
            cells[c].update(on_area[c][t])
        for key, value in cells[c].items():
            if isinstance(value, (dict, list)):
                cells[c][key] = type(value)(value)
    placements = []
    seat = spec.seats
    if seat:
        owner = {seat["places"][k]["index"]: p + 1 for p, k in enumerate(seat["taken"][players])}
        for place in seat["places"]:
            cells[place["index"]][seat["key"]] = owner.get(place["index"])
        for p, k in enumerate(seat["taken"][players]):
            placements += [{**piece, seat["key"]: p + 1} for piece in seat["places"][k]["pieces"]]
    return placements
