"""Dealing the terms of declared_grow_read.py: a grown board laid tile by tile under the
`touching` rules, numbered tiles named, edges marked and pieces set on cells (a checked
declaration + seed -> a layout). declared_gen.Generator hands a grown board's boards to
`attempt`, and every layout's finishing touches to `finish`.
"""
from __future__ import annotations

import copy
import random

from . import declared_holds as holds
from .layout import Layout
from .rules import MapError

# the directions round a hex in turn: the cells beside both a hex and its k-th neighbour are its
# (k-1)-th and (k+1)-th neighbours
_RING = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
LAYING = "dealing (no cell left for a tile under the laying rules {})"


class _GrownBoard:
    """The cells of one laid map, as the whole-board rules of declared_holds read a board."""

    def __init__(self, coords: list):
        index = {c: i for i, c in enumerate(coords)}
        self.n = len(coords)
        self.nbrs = [[index[(q + dq, r + dr)] for dq, dr in _RING if (q + dq, r + dr) in index] for q, r in coords]


def needs(spec, players: int, count: int) -> list[tuple[int, bool]]:
    """(tiles it must touch, must two of them meet) for each tile in laying order: the strongest of
    the `touching` rules that apply to the layer's n-th tile (every tile but the first touches one)."""
    rules = [r for r in spec.rules if r.kind == "touching"]
    out = []
    for rank in range(count):
        nth, touch, meet = rank // players + 1, 1, False
        for rule in rules:
            if (nth <= rule.args["first"]) if "first" in rule.args else (nth > rule.args["after"]):
                touch, meet = max(touch, rule.args["touch"][players]), meet or rule.args["faces_meet"]
        out.append((touch, meet))
    return out


def lay(rng: random.Random, first: tuple, wants: list) -> list | None:
    """Cells in laying order, each one open to its tile when laid; None when the map got stuck."""
    placed: set = set()
    order: list = []
    touch: dict = {}            # empty cell -> laid neighbours
    notch: set = set()          # empty cells beside two laid hexes that are neighbours themselves

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
                if taken[k - 1] or taken[k - 5]:
                    notch.add(e)

    add(first)
    for need, meet in wants[1:]:
        cells = sorted(e for e, n in touch.items() if n >= need and (not meet or e in notch))
        if not cells:
            return None
        add(cells[rng.randrange(len(cells))])
    return order


class Grower:
    """A grown board's boards for declared_gen.Generator: laid, checked against the rules about
    the whole board, finished. Made once per generator (what each tile must touch is kept per
    player count)."""

    def __init__(self, spec):
        self.spec = spec
        self.wants: dict = {}
        touching = [r.id for r in spec.rules if r.kind == "touching"]
        self.stuck = LAYING.format(", ".join(dict.fromkeys(touching)) or "(each tile beside the map)")

    def attempt(self, gen, rng: random.Random, players: int, options) -> "Layout | str":
        """One grown map laid and finished, or the rule (or stage) that made it fail."""
        bag, carried = gen._bag(rng, players, options)      # shuffled: the order the tiles are drawn
        if players not in self.wants:
            self.wants[players] = needs(self.spec, players, len(bag))
        coords = lay(rng, self.spec.first, self.wants[players])
        if coords is None:
            return self.stuck
        return _finished(gen, rng, players, bag, carried, coords)


def _finished(gen, rng: random.Random, players: int, bag: list, carried: dict, coords: list) -> "Layout | str":
    """The laid map checked against the rules about the whole board, and finished."""
    spec = gen.spec
    own = gen._carried(bag, carried)
    constant = gen._constant

    def value(c, key):
        return {**constant[bag[c]], **own.get(c, {})}.get(key)

    board = _GrownBoard(coords) if gen._board_rules[players] else None
    for rule in gen._board_rules[players]:
        where = rule.args.get("where") or {}
        cells = [c for c, t in enumerate(bag) if t in rule.args["a"] and all(value(c, k) == v for k, v in where.items())]
        if not holds.global_holds(rule, cells, bag, board, players):
            return rule.id
    cells = [{"q": q, "r": r, "type": t, **constant[t], **own.get(c, {}), "order": c + 1, "placed_by": c % players + 1}
             for c, ((q, r), t) in enumerate(zip(coords, bag))]
    inside = set(coords)
    edge = {(q, r) for q, r in coords if any((q + dq, r + dr) not in inside for dq, dr in _RING)}
    placements = finish(spec, rng, cells, coords, edge, players)
    grid_spec = {"type": "hex", "orientation": spec.orientation}
    return Layout(game=gen.game_id, seed=None, players=players, grid=grid_spec, cells=cells,
                  placements=placements, metrics={})


def finish(spec, rng: random.Random, cells: list, coords: list, edge: set, players: int) -> list:
    """A dealt board's finishing touches: each cell's numbered tile named, the edge marked where a
    rule asks, and the pieces setup sets on cells (returned). `cells` are the board's, in
    `coords` order."""
    name_tiles(spec, rng, cells, players)
    mark_edges(spec, cells, coords, edge)
    return set_pieces(spec, rng, cells, coords, players)


def name_tiles(spec, rng: random.Random, cells: list, players: int) -> None:
    """Each cell of a type with numbered tiles names one of those used at the player count (the
    type's tiles shuffled, in cell order), with the tile's own values."""
    for t in sorted(spec.tiles or {}):
        tiles = spec.tiles[t]
        numbers = list(tiles["used"][players])
        rng.shuffle(numbers)
        mine = [cell for cell in cells if cell["type"] == t]
        if len(mine) != len(numbers):
            raise MapError(f"{len(mine)} {t} cells for the {len(numbers)} numbered {t} tiles used with {players} "
                           f"players: deal the type only as {{tiles: {t}}}")
        for cell, n in zip(mine, numbers):
            cell["tile"] = f"{t}-{n}"
            for key, by_number in tiles["values"].items():
                cell[key] = by_number[n]


def mark_edges(spec, cells: list, coords: list, edge: set) -> None:
    """`mark_edge: KEY`: every cell carries KEY, true on the edge."""
    for rule in spec.rules:
        if rule.kind == "mark_edge":
            for cell, c in zip(cells, coords):
                cell[rule.args["key"]] = c in edge


def set_pieces(spec, rng: random.Random, cells: list, coords: list, players: int) -> list:
    """`pieces:`: one placement of each declared kind on every cell of its types carrying its
    `where` values, with its fields; a pile's names mixed and dealt one to each piece."""
    out = []
    for entry in spec.pieces or []:
        at = [c for cell, c in zip(cells, coords) if cell["type"] in entry["over"]
              and all(_same(cell.get(k), v) for k, v in entry["where"].items())]
        names = [None] * len(at)
        pile = entry["pile"]
        if pile is not None:
            names = [name for name in sorted(pile["counts"][players]) for _ in range(pile["counts"][players][name])]
            rng.shuffle(names)                                # "Mix these together"
            if len(names) != len(at):
                raise MapError(f"{len(names)} names in the {entry['kind']} pile for {len(at)} cells with {players} players")
        fields = entry["fields"]
        nested = any(isinstance(v, (dict, list)) for v in fields.values())   # copied, never shared
        for c, name in zip(at, names):
            out.append({"kind": entry["kind"], "cell": list(c), **(copy.deepcopy(fields) if nested else fields),
                        **({pile["name"]: name} if pile is not None else {})})
    return out


def _same(a, b) -> bool:
    """Equal as JSON values (true is not 1), as the checker compares them."""
    return type(a) is type(b) and a == b
