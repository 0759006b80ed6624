"""Dragon Towers: random, rules-legal maps built the way the rulebook sets the game up.

1. Each player, in turn, lays their 26 hexes (the mix in components/dragon-towers/map.yaml) as
   one section touching the map so far; the whole map is one continuous piece, and so is its
   land (troops other than Paragons cannot cross Water).
2. The Empty tiles of each set carry five different d6 numbers (a different face left out of
   each set, so from two players on every roll has a tile).
3. Monsters: players take turns rolling a d6 and putting a monster on a free Empty tile showing
   that number (rerolling when none is free).
4. Outposts: players take turns placing one outpost at a time, never on Water, each next to Water
   or to one of their own outposts. With balancing on, players follow the rulebook's tip (an
   outpost on each of the four resource types); the engine keeps the fairest of BALANCE_TRIES.

Every choice comes from the rng passed in, over sorted lists; counts come from map.yaml.
"""
from __future__ import annotations

import random

from generator.maps.grid import hex_disc, hex_distance, hex_neighbours
from generator.maps.layout import Layout, make_cell
from generator.maps.rules import MapOptions
from map_oracles.data import map_data

GAME = "dragon-towers"
_DATA = map_data(GAME)
_GEN = _DATA["generator"]

PLAYERS = (_DATA["players"]["min"], _DATA["players"]["max"], _DATA["players"]["default"])
BALANCE_TRIES = _GEN["balance_tries"]

TILES: list[tuple[str, int]] = list(_DATA["tiles_per_player"].items())   # yaml order
RESOURCES: tuple[str, ...] = tuple(_DATA["resource_types"])
WATER = _DATA["water_type"]
EMPTY = _DATA["empty_type"]
DIE = _DATA["die_sides"]
MONSTERS_EACH = _DATA["monsters_per_player"]
OUTPOSTS_EACH = _DATA["outposts_per_player"]
REACH = _DATA["metrics"]["reach"]
MONSTER_RADIUS = _DATA["metrics"]["monster_radius"]
RIVAL_CAP = _DATA["metrics"]["rival_cap"]
SHAPE_TRIES = _GEN["shape_tries"]
COMPACTNESS = _GEN["compactness"]
REROLL_LIMIT = _GEN["reroll_limit"]


class GenerationError(RuntimeError):
    pass


class _Retry(Exception):
    pass


def _pick(rng: random.Random, items: list, weights: list[int]):
    """Weighted choice with integer weights (randrange only: same result on every Python)."""
    roll = rng.randrange(sum(weights))
    for item, weight in zip(items, weights):
        roll -= weight
        if roll < 0:
            return item
    return items[-1]


_NEIGHBOURS: dict = {}


def _nb(cell: tuple) -> tuple:
    """hex_neighbours, memoised (the generator asks for the same few hundred cells over and over)."""
    found = _NEIGHBOURS.get(cell)
    if found is None:
        found = _NEIGHBOURS[cell] = tuple(hex_neighbours(cell))
    return found


def _grow_sections(rng: random.Random, players: int, size: int) -> dict:
    """coord -> player: each player's section is a connected blob touching the map so far."""
    owner: dict = {}
    border: set = set()                       # free cells next to the map
    for player in range(1, players + 1):
        if not owner:
            start = (0, 0)
        else:
            cells = sorted(border)
            start = cells[rng.randrange(len(cells))]
        frontier: dict = {}                   # free cell -> how many of this section's hexes it touches
        cell = start
        for placed in range(size):
            if placed:
                if not frontier:              # walled in by the sections laid before: start again
                    raise _Retry()
                cells = sorted(frontier)
                cell = _pick(rng, cells, [frontier[c] ** COMPACTNESS for c in cells])
                del frontier[cell]
            owner[cell] = player
            border.discard(cell)
            for n in _nb(cell):
                if n not in owner:
                    frontier[n] = frontier.get(n, 0) + 1
                    border.add(n)
    return owner


def _land_connected(types: dict) -> bool:
    land = [c for c in types if types[c] != WATER]
    inside = set(land)
    seen = {land[0]}
    stack = [land[0]]
    while stack:
        cell = stack.pop()
        for n in _nb(cell):
            if n in inside and n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen) == len(land)


def _assign_types(rng: random.Random, owner: dict, players: int) -> dict | None:
    tiles = [t for t, n in TILES for _ in range(n)]
    by_player = {p: sorted(c for c in owner if owner[c] == p) for p in range(1, players + 1)}
    for _ in range(SHAPE_TRIES):
        types = {}
        for p in range(1, players + 1):
            mix = tiles[:]
            rng.shuffle(mix)
            types.update(zip(by_player[p], mix))
        if _land_connected(types):
            return types
    return None


def _numbers(rng: random.Random, types: dict, owner: dict, players: int) -> dict:
    """Each seat's Empty tiles are its printed set (map.yaml empty_faces), laid in random order."""
    numbers = {}
    for p in range(1, players + 1):
        empties = sorted(c for c in types if types[c] == EMPTY and owner[c] == p)
        shown = list(_DATA["empty_faces"][p])
        rng.shuffle(shown)
        numbers.update(zip(empties, shown))
    return numbers


def _monsters(rng: random.Random, numbers: dict, players: int) -> list[dict]:
    taken: set = set()
    placements = []
    empties = sorted(numbers)
    for _ in range(MONSTERS_EACH):
        for player in range(1, players + 1):
            for _ in range(REROLL_LIMIT):
                roll = rng.randint(1, DIE)
                free = [c for c in empties if numbers[c] == roll and c not in taken]
                if free:
                    break
            else:
                raise _Retry()
            cell = free[rng.randrange(len(free))]
            taken.add(cell)
            placements.append({"kind": "monster", "cell": [cell[0], cell[1]], "owner": player, "roll": roll})
    return placements


def _outposts(rng: random.Random, types: dict, monster_cells: set, players: int, follow_tip: bool) -> list[dict]:
    land = {c for c in types if types[c] != WATER and c not in monster_cells}
    by_water = {c for c in land if any(types.get(n) == WATER for n in _nb(c))}
    allowed = {p: set(by_water) for p in range(1, players + 1)}   # next to Water or to own outpost
    held: dict = {p: set() for p in range(1, players + 1)}
    mine: dict = {p: set() for p in range(1, players + 1)}
    used: set = set()
    placements = []
    for _ in range(OUTPOSTS_EACH):
        for player in range(1, players + 1):
            legal = sorted(allowed[player] - used)
            if not legal:
                raise _Retry()
            if follow_tip:      # "place your 4 starting outposts near the 4 different resource types"
                new = [c for c in legal if types[c] in RESOURCES and types[c] not in held[player]]
                legal = new or [c for c in legal if types[c] in RESOURCES] or legal
                near_rival = {n for c in used - mine[player] for n in _nb(c)}   # keep a step from rivals
                apart = [c for c in legal if c not in near_rival]
                legal = apart or legal
            cell = legal[rng.randrange(len(legal))]
            used.add(cell)
            mine[player].add(cell)
            held[player].add(types[cell])
            allowed[player].update(n for n in _nb(cell) if n in land)
            placements.append({"kind": "outpost", "cell": [cell[0], cell[1]], "owner": player})
    return placements


def generate(rng: random.Random, players: int, options: MapOptions) -> Layout:
    low, high, _ = PLAYERS
    if not low <= players <= high:
        raise GenerationError(f"Dragon Towers is for {low}-{high} players, not {players}")
    size = sum(n for _, n in TILES)
    for _ in range(SHAPE_TRIES):
        try:
            owner = _grow_sections(rng, players, size)
        except _Retry:
            continue
        types = _assign_types(rng, owner, players)
        if types is None:
            continue
        numbers = _numbers(rng, types, owner, players)
        try:
            monsters = _monsters(rng, numbers, players)
            monster_cells = {tuple(m["cell"]) for m in monsters}
            outposts = _outposts(rng, types, monster_cells, players, options.balance)
        except _Retry:
            continue
        cells = []
        for coord in sorted(types, key=lambda c: (c[1], c[0])):
            extra = {"placed_by": owner[coord]}
            if coord in numbers:
                extra["number"] = numbers[coord]
            cells.append(make_cell("hex", coord, types[coord], **extra))
        return Layout(game=GAME, seed=None, players=players, grid=dict(_DATA["grid"]),
                      cells=cells, placements=monsters + outposts)
    raise GenerationError(f"no legal Dragon Towers map for {players} players in {SHAPE_TRIES} tries")


# ---------------------------------------------------------------- balance

def metrics(layout: Layout) -> dict:
    """Per player: resource types under their outposts (the tip asks for all 4), resource types
    within reach, monster pressure near their outposts, distance to the nearest rival outpost."""
    types = {(c["q"], c["r"]): c["type"] for c in layout.cells}
    players = layout.players
    outposts = {p: [] for p in range(1, players + 1)}
    monsters = []
    for placement in layout.placements:
        cell = tuple(placement["cell"])
        if placement["kind"] == "outpost" and placement.get("owner") in outposts:
            outposts[placement["owner"]].append(cell)
        elif placement["kind"] == "monster":
            monsters.append(cell)
    held, reach, pressure, rival = [], [], [], []
    for p in range(1, players + 1):
        own = outposts[p]
        held.append(len({types.get(c) for c in own} & set(RESOURCES)))
        near = {types.get(cell) for o in own for cell in hex_disc(o, REACH)}
        reach.append(len(near & set(RESOURCES)))
        weight = 0
        for m in monsters:
            d = min((hex_distance(m, o) for o in own), default=MONSTER_RADIUS + 1)
            weight += max(0, MONSTER_RADIUS + 1 - d)
        pressure.append(weight)
        others = [o for q in range(1, players + 1) if q != p for o in outposts[q]]
        rival.append(min((hex_distance(a, b) for a in own for b in others), default=None)
                     if others and own else None)
    result = {
        "resource_types_held": held,
        "resource_types_held_min": min(held),
        "resource_types_held_mean": round(sum(held) / players, 4),
        "resource_types_in_reach": reach,
        "resource_types_in_reach_min": min(reach),
        "monster_pressure": pressure,
        "monster_pressure_max": max(pressure),
        "monster_pressure_spread": max(pressure) - min(pressure),
        "rival_distance": rival,
        "rival_distance_min": min((d for d in rival if d is not None), default=None),
    }
    return result


def score(m: dict) -> float:
    value = (3.0 * m["resource_types_held_min"] + m["resource_types_held_mean"]
             + m["resource_types_in_reach_min"]
             - 1.0 * m["monster_pressure_spread"] - 0.5 * m["monster_pressure_max"])
    if m["rival_distance_min"] is not None:
        value += 0.5 * min(m["rival_distance_min"], RIVAL_CAP)
    return round(value, 4)
