"""Shires (seed 002): the players build the map together, hex by hex, then seed it.

The hand-written generator that made Shires maps before the game was declared in the map
vocabulary (components/shires/map.yaml `layout:`): kept here as an independent test oracle
(tests/test_maps_shires.py, bench/bench_shires.py), reading the oracle's data sections of map.yaml.

Setup as the rulebook tells it (components/shires/map.yaml holds every count):
  - the hexes for the player count (marked "4+"/"5" hexes removed) are shuffled into a pile;
  - players take turns, one hex each, player 1 first: each player's first two hexes touch at
    least one placed hex (the very first hex of the game touches none), every later hex at least
    two, on faces that meet (the `later_adjacent_faces` house reading);
  - the starting-building pile (Timber Camps, Quarries, Iron Mines) is mixed and one building goes
    on each Hamlet, basic side up; a face-down Small Field on each Hamlet; a face-down Exploration
    token on each Exploration hex; `coastal` on every hex with an edge touching nothing.

Balance (best of BALANCE_TRIES legal candidates, see engine.generate): the metrics simulate the
players choosing starting Shires (last placer first, as the rulebook says; each takes the Hamlet
with the most Wood, Stone and Iron nearby, Wood counting double as its Helpful Hint advises) and
measure how evenly those starts are served.
"""
from __future__ import annotations

import random

from generator.maps.grid import HEX_DIRECTIONS, hex_distance
from generator.maps.layout import Layout, make_cell
from generator.maps.rules import MapOptions
from map_oracles.data import map_data

DATA = map_data("shires")
PLAYERS = (DATA["players"]["min"], DATA["players"]["max"], DATA["players"]["default"])
BALANCE_TRIES = DATA["generator"]["balance_tries"]
SHAPE_TRIES = DATA["generator"]["shape_tries"]
GRID = dict(DATA["grid"])
KINDS = DATA["kinds"]
PLACE = DATA["placement"]
METRIC = DATA["metrics"]
RESOURCE = DATA["building_resource"]
LABELS = {"timber-camp": "TC", "quarry": "Q", "iron-mine": "IM"}

_RING = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))   # directions in turn around a hex


class ShiresMapError(Exception):
    pass


def _tiles(players: int) -> list[tuple[str, str]]:
    """(tile id, type) of every hex used at this player count, in a fixed order."""
    out = []
    for type_ in sorted(DATA["tiles"]):
        spec = DATA["tiles"][type_]
        marks = spec.get("marks", {})
        for n in range(1, spec["count"] + 1):
            if marks.get(n, 0) <= players:
                out.append((f"{type_}-{n}", type_))
    return out


_TILES = {p: _tiles(p) for p in range(PLAYERS[0], PLAYERS[1] + 1)}
_EXPLORATION = frozenset(f"blank-{n}" for n in DATA["exploration_blanks"])
_PILES = {p: [name for name in sorted(mix) for _ in range(mix[name])]
          for p, mix in DATA["starting_buildings"].items()}


def _shape(rng: random.Random, count: int, players: int) -> list[tuple[int, int]] | None:
    """Positions in placement order, each legal when placed; None if the placement got stuck."""
    first_ranks = PLACE["first_hexes"] * players
    first_touch, later_touch = PLACE["first_touch"], PLACE["later_touch"]
    need_notch = PLACE["later_adjacent_faces"]
    placed: set[tuple[int, int]] = set()
    order: list[tuple[int, int]] = []
    touch: dict[tuple[int, int], int] = {}       # empty position -> placed neighbours
    notch: set[tuple[int, int]] = set()          # empty positions with two placed neighbours on faces that meet

    def add(cell):
        placed.add(cell)
        order.append(cell)
        touch.pop(cell, None)
        notch.discard(cell)
        q, r = cell
        around = [(q + dq, r + dr) for dq, dr in _RING]
        taken = [n in placed for n in around]
        for k in range(6):
            if not taken[k]:
                e = around[k]
                touch[e] = touch.get(e, 0) + 1
                if taken[k - 1] or taken[k - 5]:         # cell and a placed hex next to both meet at e
                    notch.add(e)

    add((0, 0))                                          # the very first hex: nothing to touch
    for rank in range(1, count):
        if rank < first_ranks:
            candidates = [e for e, n in touch.items() if n >= first_touch]
        elif need_notch:
            candidates = [e for e, n in touch.items() if n >= later_touch and e in notch]
        else:
            candidates = [e for e, n in touch.items() if n >= later_touch]
        if not candidates:
            return None
        candidates.sort()                                # never depend on dict order
        add(candidates[rng.randrange(len(candidates))])
    return order


def generate(rng: random.Random, players: int, options: MapOptions) -> Layout:
    if players not in _TILES:
        raise ShiresMapError(f"Shires is for {PLAYERS[0]}-{PLAYERS[1]} players, not {players}")
    tiles = list(_TILES[players])
    rng.shuffle(tiles)                                   # "Shuffle the remaining hexes"
    for _ in range(SHAPE_TRIES):
        positions = _shape(rng, len(tiles), players)
        if positions is not None:
            break
    else:
        raise ShiresMapError(f"no legal hex placement found in {SHAPE_TRIES} tries")
    pile = list(_PILES[players])
    rng.shuffle(pile)                                    # "Mix these together and set them aside."
    inside = set(positions)
    cells, placements = [], []
    building = iter(pile)
    for rank, ((tile, type_), pos) in enumerate(zip(tiles, positions)):
        q, r = pos
        coastal = not ((q + 1, r) in inside and (q - 1, r) in inside and (q, r + 1) in inside
                       and (q, r - 1) in inside and (q + 1, r - 1) in inside and (q - 1, r + 1) in inside)
        extra = {"tile": tile, "order": rank + 1, "placed_by": rank % players + 1, "coastal": coastal}
        if type_ == "blank":
            extra["exploration"] = tile in _EXPLORATION
        cells.append(make_cell("hex", pos, type_, **extra))
        at = [q, r]
        if type_ == "hamlet":
            name = next(building)
            placements.append({"kind": KINDS["building"], "cell": at, "building": name,
                               "side": DATA["starting_building_side"], "label": LABELS.get(name, name[:2])})
            placements.append({"kind": KINDS["field"], "cell": at, "face_down": True, "label": "F"})
        elif type_ == "blank" and tile in _EXPLORATION:
            placements.append({"kind": KINDS["exploration"], "cell": at, "face_down": True,
                               "side": DATA["exploration_side"], "label": "Ex"})
    return Layout(game="shires", seed=None, players=players, grid=dict(GRID), cells=cells,
                  placements=placements)


# ---------------------------------------------------------------- balance

def _access(layout: Layout) -> tuple[list[tuple[int, int]], dict, set]:
    """Hamlets (sorted), what each has near it, and the Hamlets that produce Wood."""
    near, wood_weight = METRIC["near"], METRIC["wood_weight"]
    hamlets = sorted((c["q"], c["r"]) for c in layout.cells if c["type"] == "hamlet")
    trades = [(c["q"], c["r"]) for c in layout.cells if c["type"] == "trade"]
    produce = {tuple(p["cell"]): RESOURCE.get(p.get("building"))
               for p in layout.placements if p.get("kind") == KINDS["building"]}
    counts = {}
    producers = [(other, produce[other]) for other in hamlets if produce.get(other) in ("wood", "stone", "iron")]
    for h in hamlets:
        c = {"wood": 0, "stone": 0, "iron": 0}
        for other, res in producers:
            if hex_distance(h, other) <= near:
                c[res] += 1
        c["value"] = wood_weight * c["wood"] + c["stone"] + c["iron"]
        c["trade"] = min((hex_distance(h, t) for t in trades), default=0)
        counts[h] = c
    return hamlets, counts, {h for h in hamlets if produce.get(h) == "wood"}


def _picks(layout: Layout, hamlets, counts) -> list[tuple[int, int]]:
    """Simulated choice of starting Shires, one per player in choosing order: each takes the best
    Hamlet left (value, then Wood, then a near Trade hex), keeping `spacing` from earlier picks
    while it can."""
    spacing = METRIC["spacing"]
    ranked = sorted(hamlets, key=lambda h: (-counts[h]["value"], -counts[h]["wood"], counts[h]["trade"], h))
    picks: list[tuple[int, int]] = []
    for _ in range(min(layout.players, len(ranked))):
        free = [h for h in ranked if h not in picks]
        spaced = [h for h in free if all(hex_distance(h, p) >= spacing for p in picks)]
        picks.append((spaced or free)[0])
    return picks


def _radius(coords) -> int:
    """Smallest eccentricity: min over cells of the distance to the farthest cell. A hex distance
    is the largest of |dq|, |dr|, |ds| (s = -q - r), so the farthest cell is found from the extremes
    of q, r and s alone: linear, not quadratic, in the number of cells."""
    qs = [q for q, _ in coords]
    rs = [r for _, r in coords]
    ss = [-q - r for q, r in coords]
    lo_q, hi_q, lo_r, hi_r, lo_s, hi_s = min(qs), max(qs), min(rs), max(rs), min(ss), max(ss)
    return min(max(q - lo_q, hi_q - q, r - lo_r, hi_r - r, -q - r - lo_s, hi_s + q + r) for q, r in coords)


def metrics(layout: Layout) -> dict:
    hamlets, counts, wood = _access(layout)
    picks = _picks(layout, hamlets, counts)
    out = {}
    if picks:
        woods = [counts[p]["wood"] for p in picks]
        values = [counts[p]["value"] for p in picks]
        trades = [counts[p]["trade"] for p in picks]
        out["start_wood_min"] = min(woods)
        out["start_wood_spread"] = max(woods) - min(woods)
        out["start_value_spread"] = max(values) - min(values)
        out["start_trade_spread"] = max(trades) - min(trades)
        out["start_missing_resource"] = sum(
            1 for p in picks if min(counts[p][r] for r in ("wood", "stone", "iron")) == 0)
    if hamlets:
        close = sum(1 for h in hamlets if any(hex_distance(h, w) <= 1 for w in wood))
        out["wood_hamlet_share"] = round(close / len(hamlets), 4)
    coords = [(c["q"], c["r"]) for c in layout.cells]
    if coords:
        out["radius"] = _radius(coords)
        inside = set(coords)
        edge = sum(1 for q, r in coords if any((q + dq, r + dr) not in inside for dq, dr in HEX_DIRECTIONS))
        out["coastal_share"] = round(edge / len(coords), 4)
    return out


def score(m: dict) -> float:
    """Higher is fairer: evenly served starts first, Wood for the last chooser, then a compact map."""
    return (-3.0 * m.get("start_value_spread", 0) - 4.0 * m.get("start_wood_spread", 0)
            + 2.0 * m.get("start_wood_min", 0) - 1.5 * m.get("start_trade_spread", 0)
            - 3.0 * m.get("start_missing_resource", 0) + 2.0 * m.get("wood_hamlet_share", 0)
            - 0.5 * m.get("radius", 0))
