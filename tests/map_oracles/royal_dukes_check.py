"""Royal Dukes layout checker, written from the rulebook (seeds/004) and components/royal-dukes/map.yaml.

The hand-written checker of Royal Dukes before the game was declared in the map vocabulary: kept as
an independent test oracle that the declared checker (generator/maps/declared_check.py) must agree
with, strict and relaxed (tests/test_maps_declared.py).

It trusts nothing in the layout: hand-made or edited files get the same checks as generated
ones, and it never uses the generator's placement code. Every rule id it reports is listed in
map.yaml `rules:` with the rulebook sentence it comes from.

A layout declares how strictly settlements were placed in `metrics.rules`: "strict" (the default
when absent: no settlement on the side of the map or next to another) or "relaxed" (the rulebook's
"Some of this is ok", within the limits in map.yaml).
"""
from __future__ import annotations

from generator.maps import grid
from generator.maps.layout import Layout, LayoutKeys
from generator.maps.rules import Violation
from map_oracles.data import map_data
from generator.maps.rules import coords_text, is_int as _is_int

GAME = "royal-dukes"
# the keys this game's cells and placements carry (map --check refuses any other)
KEYS = LayoutKeys(cells=frozenset(("q", "r", "type", "label", "vp")),
                  placements=frozenset(("kind", "cell")))
_SHOWN = 12                  # cells named in one message before "and N more"


# The rulebook's numbers, written here from seeds/004 and never read from map.yaml, which the
# generator deals from: a typo there must give boards this checker refuses, not boards it copies.
COLS = ROWS = 10                 # "Use a 10 x 10 Hex map."
SETTLEMENTS = 20                 # "20 of the 100 spaces are Settlements."
TABLE = {                        # Settlement table: Type, Number, VP
    "village": (6, 1), "town": (5, 2), "castle": (4, 3), "mine": (3, 4), "city": (2, 5),
}
PLAYERS = (2, 4)                 # "Abstract Strategy. 2-4 players."


class _Rules:
    def __init__(self, data: dict):
        self.data = data
        board = data["board"]
        self.cols, self.rows = COLS, ROWS
        self.board = grid.hex_rectangle(self.cols, self.rows)
        self.on_board = set(self.board)
        self.edge = set(grid.edge_cells(self.board, "hex"))
        letters = board["row_letters"]
        self.label = {}
        for cell in self.board:
            col, row = grid.axial_to_offset(cell)
            self.label[cell] = f"{letters[row]}{col + 1}"
        self.vp = {name: vp for name, (_, vp) in TABLE.items()}
        self.number = {name: number for name, (number, _) in TABLE.items()}
        self.empty = data["cell_types"]["empty"]
        self.mountain = data["cell_types"]["mountain"]
        self.types = sorted([*self.vp, self.empty, self.mountain])
        self.quotes = data["rules"]


_R = _Rules(map_data(GAME))


def _name(cell) -> str:
    label = _R.label.get(cell)
    return f"{label} ({cell[0]}, {cell[1]})" if label else f"({cell[0]}, {cell[1]})"


def _names(cells) -> str:
    return coords_text(cells, _SHOWN, _name, sort=False)


def check(layout: Layout) -> list[Violation]:
    out: list[Violation] = []

    def report(rule: str, message: str) -> None:
        out.append(Violation(rule, message, _R.quotes[rule]))

    data = _R.data
    # --- the layout as a whole
    game = getattr(layout, "game", None)
    if game != GAME:
        report("game", f"the layout is for '{game}', not '{GAME}'")
    players = getattr(layout, "players", None)
    low, high = PLAYERS
    if not _is_int(players) or not low <= players <= high:
        report("players", f"{players!r} players; the game is for {low}-{high}")
    grid_spec = getattr(layout, "grid", None)
    want = data["grid"]
    if not isinstance(grid_spec, dict) or grid_spec.get("type") != want["type"] \
            or grid_spec.get("orientation", want["orientation"]) != want["orientation"]:
        report("grid", f"grid {grid_spec!r}; the map is {want['type']} hexes, {want['orientation']} "
                       f"({_R.cols} x {_R.rows})")

    # --- cells: shape, position, uniqueness
    cells = getattr(layout, "cells", None)
    if not isinstance(cells, list):
        report("cell-shape", f"cells must be a list, not {type(cells).__name__}")
        cells = []
    types: dict[grid.Cell, object] = {}
    records: dict[grid.Cell, dict] = {}
    off_board, duplicates = [], []
    for n, cell in enumerate(cells):
        if not isinstance(cell, dict) or not _is_int(cell.get("q")) or not _is_int(cell.get("r")):
            report("cell-shape", f"cell {n + 1} ({cell!r:.60}) is not an object with whole-number q and r")
            continue
        coord = (cell["q"], cell["r"])
        if coord not in _R.on_board:
            off_board.append(coord)
            continue
        if coord in types:
            duplicates.append(coord)
            continue
        types[coord] = cell.get("type")
        records[coord] = cell
    if off_board:
        report("cell-off-board", f"{len(off_board)} cell(s) lie off the {_R.cols} x {_R.rows} board: {_names(off_board)}")
    if duplicates:
        report("cell-duplicate", f"cell(s) described more than once: {_names(sorted(set(duplicates)))}")
    missing = [c for c in _R.board if c not in types]
    if missing:
        report("board-complete", f"{len(missing)} of the board's {len(_R.board)} spaces are missing: {_names(missing)}")

    # --- each cell's own content
    unknown, bad_label, bad_vp = [], [], []
    for coord in _R.board:
        if coord not in records:
            continue
        cell, kind = records[coord], types[coord]
        if not isinstance(kind, str) or kind not in _R.types:
            unknown.append(f"{_name(coord)} is {kind!r}")
        if "label" in cell and cell["label"] != _R.label[coord]:
            bad_label.append(f"{_name(coord)} is labelled {cell['label']!r}")
        vp = cell.get("vp")
        if isinstance(kind, str) and kind in _R.vp:
            if not _is_int(vp) or vp != _R.vp[kind]:
                bad_vp.append(f"{kind} at {_name(coord)} has vp {vp!r}, not {_R.vp[kind]}")
        elif vp is not None:
            bad_vp.append(f"{kind} at {_name(coord)} is not a settlement but has vp {vp!r}")
    if unknown:
        report("cell-type", f"unknown space type(s): {'; '.join(unknown[:_SHOWN])}; "
                            f"a space is one of {', '.join(_R.types)}")
    if bad_label:
        report("cell-label", "; ".join(bad_label[:_SHOWN]))
    if bad_vp:
        report("settlement-vp", "; ".join(bad_vp[:_SHOWN]))

    placements = getattr(layout, "placements", None)
    if placements:
        items = placements if isinstance(placements, list) else [placements]
        kinds = [p.get("kind") if isinstance(p, dict) else p for p in items]
        report("placement", f"{len(items)} placement(s) ({', '.join(repr(k) for k in kinds[:_SHOWN])}); "
                            f"Royal Dukes setup places nothing on the board")

    metrics = getattr(layout, "metrics", None)
    mode = metrics.get("rules", "strict") if isinstance(metrics, dict) else "strict"
    limits = data["placement_limits"]
    if not isinstance(mode, str) or mode not in limits:
        report("rules-mode", f"metrics.rules is {mode!r}, not one of {', '.join(sorted(limits))}; "
                             f"checked as strict")
        mode = "strict"
    limit = limits[mode]

    # --- settlements
    settled = [c for c in _R.board if isinstance(types.get(c), str) and types[c] in _R.vp]
    settled_set = set(settled)
    total = SETTLEMENTS
    found = {name: sum(1 for c in settled if types[c] == name) for name in _R.vp}
    table = ", ".join(f"{found[name]} {name}" for name in _R.vp)
    if len(settled) != total:
        report("settlement-count", f"{len(settled)} settlements ({table}), not {total}")
    else:
        wrong = [f"{found[name]} {name} (table: {number}): {_names(c for c in settled if types[c] == name)}"
                 for name, number in _R.number.items() if found[name] != number]
        if wrong:
            report("settlement-mix", "; ".join(wrong))

    on_edge = [c for c in settled if c in _R.edge]
    if len(on_edge) > limit["edge_settlements"]:
        report("settlement-edge",
               f"{len(on_edge)} settlement(s) on the side of the map ({mode} allows {limit['edge_settlements']}): "
               f"{_names(on_edge)}")
    pairs = [(a, b) for a in settled for b in grid.hex_neighbours(a) if b in settled_set and a < b]
    if len(pairs) > limit["adjacent_pairs"]:
        shown = "; ".join(f"{_name(a)} - {_name(b)}" for a, b in pairs[:_SHOWN])
        report("settlement-adjacent",
               f"{len(pairs)} pair(s) of adjacent settlements ({mode} allows {limit['adjacent_pairs']}): {shown}")

    # --- mountains and the empty spaces
    mountains = [c for c in _R.board if types.get(c) == _R.mountain]
    if len(mountains) > data["mountains"]["max"]:
        report("mountain-count", f"{len(mountains)} mountains; at most {data['mountains']['max']}: {_names(mountains)}")
    empty = [c for c in _R.board if types.get(c) == _R.empty]
    empty_set = set(empty)
    pieces = grid.components(empty, "hex")
    if len(pieces) > 1:
        pieces.sort(key=lambda p: (-len(p), p))
        cut = [c for p in pieces[1:] for c in p]
        report("free-connected", f"the empty spaces fall into {len(pieces)} pieces; cut off from the "
                                 f"main one: {_names(cut)}")
    shut = [c for c in settled if not any(n in empty_set for n in grid.hex_neighbours(c))]
    if shut:
        report("settlement-access", f"settlement(s) with no empty space beside them: {_names(shut)}")
    return out
