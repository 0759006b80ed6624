"""Dragon Towers: is a layout a legal set-up? Written from the rulebook
(../shared/seeds/001_29a8a5b551b6ea52.txt) and components/dragon-towers/map.yaml, apart from the
generator: nothing here comes from dragon_towers_gen.

A layout that is not well formed (wrong game, player count, grid, unknown tiles, two tiles on one
place, placements off the map, ...) gets `structure` violations only: the rules are checked on a
well-formed layout. check() never raises.
"""
from __future__ import annotations

from generator.maps.grid import components, hex_neighbours
from generator.maps.layout import Layout, LayoutKeys
from generator.maps.rules import Violation
from map_oracles.data import map_data
from generator.maps.rules import coord_text as _name, coords_text, is_int as _is_int

GAME = "dragon-towers"
# the keys this game's cells and placements carry (map --check refuses any other)
KEYS = LayoutKeys(cells=frozenset(("q", "r", "type", "number", "placed_by")),
                  placements=frozenset(("kind", "cell", "owner", "roll")))
_DATA = map_data(GAME)
RULES: dict = _DATA["rules"]
MIX: dict = _DATA["tiles_per_player"]
TYPES = sorted(MIX)
WATER = _DATA["water_type"]
EMPTY = _DATA["empty_type"]
SIDES = _DATA["die_sides"]
LOW, HIGH = _DATA["players"]["min"], _DATA["players"]["max"]
MONSTERS_EACH = _DATA["monsters_per_player"]
OUTPOSTS_EACH = _DATA["outposts_per_player"]
DISTINCT_NUMBERS = _DATA["empty_numbers_distinct_per_player"]
EMPTY_FACES = {int(seat): faces for seat, faces in _DATA["empty_faces"].items()}
KINDS = ("monster", "outpost")


def _v(rule: str, message: str) -> Violation:
    return Violation(rule, message, RULES[rule])


def _names(cells) -> str:
    return coords_text(cells)




def check(layout: Layout) -> list[Violation]:
    try:
        problems = _structure(layout)
        if problems:
            return [_v("structure", p) for p in problems]
        return _rules(layout)
    except Exception as exc:           # a layout odd enough to trip the checker is not well formed
        return [_v("structure", f"the layout cannot be read ({type(exc).__name__}: {exc})")]


# ---------------------------------------------------------------- structure

def _structure(layout) -> list[str]:
    out = []
    if getattr(layout, "game", None) != GAME:
        out.append(f"game is {getattr(layout, 'game', None)!r}, not {GAME!r}")
    players = getattr(layout, "players", None)
    if not _is_int(players) or not LOW <= players <= HIGH:
        out.append(f"players is {players!r}; Dragon Towers is for {LOW}-{HIGH} players")
        players = None
    grid = getattr(layout, "grid", None)
    if not isinstance(grid, dict) or grid.get("type") != "hex":
        out.append(f"grid is {grid!r}; Dragon Towers is played on hex tiles")
        return out
    cells = getattr(layout, "cells", None)
    if not isinstance(cells, list):
        return out + ["cells must be a list"]
    seen: dict = {}
    for n, cell in enumerate(cells, 1):
        if not isinstance(cell, dict) or not _is_int(cell.get("q")) or not _is_int(cell.get("r")):
            out.append(f"cell {n} has no integer q, r")
            continue
        where = (cell["q"], cell["r"])
        if where in seen:
            out.append(f"two tiles on {_name(where)} (cells {seen[where]} and {n})")
        else:
            seen[where] = n
        if cell.get("type") not in TYPES:
            out.append(f"{_name(where)} has type {cell.get('type')!r}; tiles are {', '.join(TYPES)}")
        owner = cell.get("placed_by")
        if not _is_int(owner) or (players is not None and not 1 <= owner <= players):
            out.append(f"{_name(where)} has placed_by {owner!r}; it must name one of the players")
    if not cells:
        out.append("the map has no hexes")
    placements = getattr(layout, "placements", None)
    if not isinstance(placements, list):
        return out + ["placements must be a list"]
    for n, placement in enumerate(placements, 1):
        if not isinstance(placement, dict) or placement.get("kind") not in KINDS:
            kind = placement.get("kind") if isinstance(placement, dict) else placement
            out.append(f"placement {n} is {kind!r}; set-up places a monster or an outpost")
            continue
        where = placement.get("cell")
        if (not isinstance(where, (list, tuple)) or len(where) != 2
                or not all(_is_int(x) for x in where)):
            out.append(f"{placement['kind']} {n} has cell {where!r}, not [q, r]")
            continue
        if tuple(where) not in seen:
            out.append(f"{placement['kind']} {n} is on {_name(where)}, off the map")
        owner = placement.get("owner")
        if not _is_int(owner) or (players is not None and not 1 <= owner <= players):
            out.append(f"{placement['kind']} {n} on {_name(where)} has owner {owner!r}; it must name one of the players")
    return out


# ---------------------------------------------------------------- rules

def _rules(layout: Layout) -> list[Violation]:
    players = layout.players
    tiles = {(c["q"], c["r"]): c for c in layout.cells}
    kind = {where: c["type"] for where, c in tiles.items()}
    out: list[Violation] = []

    # "Use All Your Tiles": every player's whole set is on the map.
    for p in range(1, players + 1):
        for type_ in TYPES:
            have = sorted(w for w, c in tiles.items() if c["placed_by"] == p and c["type"] == type_)
            if len(have) != MIX[type_]:
                out.append(_v("tile-count", f"player {p} placed {len(have)} {type_} hexes, not {MIX[type_]}"
                              + (f" ({_names(have)})" if have else "")))

    # "Ensure Continuity": one piece; and the land one piece too (only Paragons cross Water).
    pieces = components(tiles, "hex")
    if len(pieces) > 1:
        out.append(_v("continuity", f"the map falls into {len(pieces)} pieces; cut off: "
                      + "; ".join(_names(piece) for piece in pieces[1:])))
    land = components([w for w in tiles if kind[w] != WATER], "hex")
    if len(land) > 1:
        biggest = max(range(len(land)), key=lambda i: (len(land[i]), -i))
        cut = [piece for i, piece in enumerate(land) if i != biggest]
        out.append(_v("land-continuity", "Water isolates land from the rest for troops: "
                      + "; ".join(_names(piece) for piece in cut)))

    # Empty tiles carry a d6 number; nothing else does.
    for where, cell in sorted(tiles.items()):
        number = cell.get("number")
        if cell["type"] == EMPTY:
            if not _is_int(number) or not 1 <= number <= SIDES:
                out.append(_v("empty-number", f"Empty tile {_name(where)} shows {number!r}, not a number 1-{SIDES}"))
        elif number is not None:
            out.append(_v("empty-number", f"{cell['type']} tile {_name(where)} carries number {number!r}; only Empty tiles do"))
    if DISTINCT_NUMBERS:
        for p in range(1, players + 1):
            shown: dict = {}
            for where, cell in sorted(tiles.items()):
                if cell["placed_by"] == p and cell["type"] == EMPTY and _is_int(cell.get("number")):
                    shown.setdefault(cell["number"], []).append(where)
            for number, where in sorted(shown.items()):
                if len(where) > 1:
                    out.append(_v("empty-numbers-differ", f"player {p}'s Empty tiles {_names(where)} all show {number}"))
    for p in range(1, players + 1):
        printed = set(EMPTY_FACES.get(p, []))
        foreign = sorted(where for where, cell in tiles.items() if cell["placed_by"] == p and cell["type"] == EMPTY
                         and _is_int(cell.get("number")) and 1 <= cell["number"] <= SIDES
                         and cell["number"] not in printed)
        if foreign:
            out.append(_v("empty-set", f"player {p}'s Empty tiles {_names(foreign)} show numbers their printed set "
                                       f"({', '.join(map(str, sorted(printed)))}) does not have"))

    monsters = [p for p in layout.placements if p["kind"] == "monster"]
    outposts = [p for p in layout.placements if p["kind"] == "outpost"]

    # Monsters.
    for p in range(1, players + 1):
        own = sorted(tuple(m["cell"]) for m in monsters if m["owner"] == p)
        if len(own) != MONSTERS_EACH:
            out.append(_v("monster-count", f"player {p} has {len(own)} monsters, not {MONSTERS_EACH}"
                          + (f" ({_names(own)})" if own else "")))
    on_cell: dict = {}
    for m in monsters:
        where = tuple(m["cell"])
        on_cell.setdefault(where, []).append(m)
        if kind[where] != EMPTY:
            out.append(_v("monster-on-empty", f"player {m['owner']}'s monster stands on {kind[where]} tile {_name(where)}, not an Empty tile"))
            continue
        roll, number = m.get("roll"), tiles[where].get("number")
        if not _is_int(roll) or not 1 <= roll <= SIDES:
            out.append(_v("monster-roll", f"player {m['owner']}'s monster on {_name(where)} has roll {roll!r}, not a d6 roll"))
        elif roll != number:
            out.append(_v("monster-roll", f"player {m['owner']}'s monster rolled {roll} but stands on {_name(where)}, which shows {number!r}"))
    for where, stack in sorted(on_cell.items()):
        if len(stack) > 1:
            out.append(_v("monster-stack", f"{len(stack)} monsters on {_name(where)}"))
    monster_cells = set(on_cell)

    # Outposts.
    by_owner: dict = {p: [] for p in range(1, players + 1)}
    for o in outposts:
        by_owner[o["owner"]].append(tuple(o["cell"]))
    for p in range(1, players + 1):
        if len(by_owner[p]) != OUTPOSTS_EACH:
            out.append(_v("outpost-count", f"player {p} has {len(by_owner[p])} outposts, not {OUTPOSTS_EACH}"
                          + (f" ({_names(by_owner[p])})" if by_owner[p] else "")))
    stacked: dict = {}
    for o in outposts:
        where = tuple(o["cell"])
        stacked.setdefault(where, []).append(o["owner"])
        if kind[where] == WATER:
            out.append(_v("outpost-not-water", f"player {o['owner']}'s outpost is on Water tile {_name(where)}"))
        if where in monster_cells:
            out.append(_v("outpost-not-on-monster", f"player {o['owner']}'s outpost is on {_name(where)}, where a monster stands"))
    for where, owners in sorted(stacked.items()):
        if len(owners) > 1:
            out.append(_v("outpost-stack", f"{len(owners)} outposts on {_name(where)} (players {', '.join(map(str, sorted(owners)))})"))
    # Placed one at a time, each next to Water or to one already placed by the same player: every
    # group of a player's touching outposts must hold one next to Water (it went down first).
    for p in range(1, players + 1):
        for group in components(by_owner[p], "hex"):
            if not any(kind.get(n) == WATER for c in group for n in hex_neighbours(c)):
                out.append(_v("outpost-adjacent", f"player {p}'s outposts on {_names(group)} touch no Water tile"
                              + (" nor any other outpost of theirs that does" if len(group) > 1 else
                                 " and no other outpost of theirs")))
    return out
