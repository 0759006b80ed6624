"""Shires (seed 002): is a layout a legal setup? Written from the rulebook's setup section and
components/shires/map.yaml, apart from the generator (it imports nothing of shires_gen).

The hand-written checker of Shires before the game was declared in the map vocabulary: kept as an
independent test oracle that the declared checker (generator/maps/declared_check.py) must agree
with (tests/test_maps_shires.py).

Every rule id in map.yaml `rules:` is checked here; `structure:` ids report layouts that are not
a Shires map at all (wrong game, player count, unknown hex types, duplicate or detached hexes,
unknown placements). The checker never raises on malformed input: it reports and skips.
"""
from __future__ import annotations

from generator.maps.grid import HEX_DIRECTIONS, components, hex_distance
from generator.maps.layout import Layout, LayoutKeys
from generator.maps.rules import Violation
from map_oracles.data import cached_map_data
from generator.maps.rules import coord_text as _name, coords_text, is_int as _is_int
from map_oracles.data import Report

# the keys this game's cells and placements carry (map --check refuses any other)
KEYS = LayoutKeys(cells=frozenset(("q", "r", "type", "tile", "order", "placed_by", "coastal", "exploration")),
                  placements=frozenset(("kind", "cell", "label", "building", "side", "face_down")))


def _data() -> dict:
    return cached_map_data("shires")


def _names(coords) -> str:
    return coords_text(coords, 8, sort=False)


def check(layout: Layout) -> list[Violation]:
    data = _data()
    report = Report(data)
    try:
        _check(layout, data, report)
    except Exception as exc:      # a malformed layout must be reported, never crash the checker
        report("cell-type", f"the layout could not be read as a Shires map: {type(exc).__name__}: {exc}")
    return report.items


def _check(layout: Layout, data: dict, report: Report) -> None:
    # ---- structure: game, players, grid
    if getattr(layout, "game", None) != data["game"]:
        report("game", f"layout is for game {getattr(layout, 'game', None)!r}, not {data['game']!r}")
    players = getattr(layout, "players", None)
    low, high = data["players"]["min"], data["players"]["max"]
    players_ok = _is_int(players) and low <= players <= high
    if not players_ok:
        report("player-count", f"Shires is for {low}-{high} players, not {players!r}")
    grid = getattr(layout, "grid", None)
    if not isinstance(grid, dict) or grid.get("type") != data["grid"]["type"] \
            or grid.get("orientation", data["grid"]["orientation"]) != data["grid"]["orientation"]:
        report("grid", f"the map is of {data['grid']['orientation']}-top hexes, not grid {grid!r}")
        return
    raw_cells = layout.cells if isinstance(layout.cells, list) else []
    if not isinstance(layout.cells, list):
        report("cell-type", "cells must be a list of hexes")

    # ---- structure: cells
    types = sorted(data["tiles"])
    cells: dict[tuple[int, int], dict] = {}
    for n, cell in enumerate(raw_cells):
        if not isinstance(cell, dict) or not _is_int(cell.get("q")) or not _is_int(cell.get("r")):
            report("cell-type", f"cell {n + 1} is not a hex with integer q, r")
            continue
        coord = (cell["q"], cell["r"])
        if cell.get("type") not in types:
            report("cell-type", f"hex {_name(coord)} has type {cell.get('type')!r}; setup uses only {', '.join(types)} hexes")
            continue
        if coord in cells:
            report("duplicate-cell", f"two hexes at {_name(coord)}")
            continue
        cells[coord] = cell
    pieces = components(cells, "hex")
    if len(pieces) > 1:
        main = max(pieces, key=len)
        detached = sorted(c for piece in pieces if piece is not main for c in piece)
        report("off-map", f"hexes {_names(detached)} do not touch the rest of the map")

    # ---- structure: placements
    kinds = data["kinds"]
    known = set(kinds.values()) | {"large-field"}
    on: dict[str, dict[tuple[int, int], list[dict]]] = {k: {} for k in sorted(known)}
    raw_placements = layout.placements if isinstance(layout.placements, list) else []
    if not isinstance(layout.placements, list):
        report("placement", "placements must be a list")
    for n, p in enumerate(raw_placements):
        kind = p.get("kind") if isinstance(p, dict) else None
        cell = p.get("cell") if isinstance(p, dict) else None
        if not isinstance(kind, str) or kind not in known:
            report("placement", f"placement {n + 1} has kind {kind!r}; setup places {', '.join(sorted(kinds.values()))}")
            continue
        if not (isinstance(cell, (list, tuple)) and len(cell) == 2 and all(_is_int(v) for v in cell)):
            report("placement", f"placement {n + 1} ({kind}) names no hex [q, r]")
            continue
        coord = (cell[0], cell[1])
        if coord not in cells:
            report("placement", f"{kind} at {_name(coord)} is not on a hex of the map")
            continue
        on[kind].setdefault(coord, []).append(p)

    if players_ok:
        _check_counts(data, players, cells, report)
    _check_tiles(data, players if players_ok else None, cells, report)
    _check_placing(data, players if players_ok else None, cells, report)
    _check_buildings(data, players if players_ok else None, cells, on[kinds["building"]], report)
    _check_fields(data, cells, on[kinds["field"]], on["large-field"], report)
    _check_exploration(data, cells, on[kinds["exploration"]], report)
    _check_coastal(cells, report)


def _check_counts(data, players, cells, report) -> None:
    want = data["hex_counts"][players]
    for type_ in sorted(want):
        have = sorted(c for c, cell in cells.items() if cell["type"] == type_)
        if len(have) != want[type_]:
            report("hex-counts", f"{len(have)} {type_} hexes ({_names(have) or 'none'}); {players} players use {want[type_]}")


def _check_tiles(data, players, cells, report) -> None:
    """Each hex is one physical tile <type>-<n>, used once, not marked for more players."""
    spec = data["tiles"]
    exploration = set(data["exploration_blanks"])
    seen: dict[str, tuple[int, int]] = {}
    for coord in sorted(cells):
        cell = cells[coord]
        tile, type_ = cell.get("tile"), cell["type"]
        number = None
        if isinstance(tile, str) and tile.startswith(type_ + "-") and tile[len(type_) + 1:].isdigit():
            number = int(tile[len(type_) + 1:])
            if not 1 <= number <= spec[type_]["count"]:
                number = None
        if number is None:
            report("hex-tiles", f"hex {_name(coord)} names tile {tile!r}, not one of the {type_} hexes "
                                f"{type_}-1..{type_}-{spec[type_]['count']}")
            continue
        if tile in seen:
            report("hex-tiles", f"tile {tile} is used twice, at {_name(seen[tile])} and {_name(coord)}")
        seen.setdefault(tile, coord)
        mark = spec[type_].get("marks", {}).get(number, 0)
        if players is not None and mark > players:
            report("hex-tiles", f"hex {_name(coord)} is tile {tile}, marked {mark}{'+' if mark < data['players']['max'] else ''}; "
                                f"it is removed with {players} players")
        if type_ == "blank":
            flag = cell.get("exploration")
            if flag is not (number in exploration):
                report("hex-tiles", f"hex {_name(coord)} (tile {tile}) has exploration {flag!r}; "
                                    f"that Blank hex is {'an' if number in exploration else 'not an'} Exploration hex")
        elif cell.get("exploration") not in (None, False):
            report("hex-tiles", f"hex {_name(coord)} is a {type_} hex, not an Exploration (Blank) hex")


def _check_placing(data, players, cells, report) -> None:
    orders = {c: cell.get("order") for c, cell in cells.items()}
    bad = sorted(c for c, o in orders.items() if not _is_int(o))
    if bad:
        report("placement-order", f"hexes {_names(bad)} have no placing order")
        return
    values = sorted(orders.values())
    if values != list(range(1, len(values) + 1)):
        dup = sorted(c for c, o in orders.items() if values.count(o) > 1)
        if dup:
            report("placement-order", f"hexes {_names(dup)} share a placing order")
        outside = sorted(c for c, o in orders.items() if not 1 <= o <= len(values))
        if outside:
            report("placement-order", f"hexes {_names(outside)} have placing orders outside 1..{len(values)} "
                                      f"(one per hex, in the order placed)")
    sequence = sorted(cells, key=lambda c: (orders[c], c))
    # turn order: the k-th hex placed is player ((k - 1) mod n) + 1's
    placer = {}
    if players is not None:
        wrong = []
        for k, coord in enumerate(sequence):
            by = cells[coord].get("placed_by")
            expected = k % players + 1
            placer[coord] = by if _is_int(by) and 1 <= by <= players else expected
            if by != expected or not _is_int(by):
                wrong.append(f"{_name(coord)} (hex {k + 1}, placed_by {by!r}, turn of player {expected})")
        if wrong:
            report("turn-order", f"hexes placed out of turn: {'; '.join(wrong[:6])}"
                                 + (f" and {len(wrong) - 6} more" if len(wrong) > 6 else ""))
    else:
        placer = {c: cells[c].get("placed_by") for c in sequence}
    # touching rules, walking the placements in order
    spec = data["placement"]
    first_hexes, first_touch, later_touch = spec["first_hexes"], spec["first_touch"], spec["later_touch"]
    meeting = spec["later_adjacent_faces"]
    placed: set[tuple[int, int]] = set()
    count_by: dict = {}
    for k, coord in enumerate(sequence):
        who = placer[coord]
        key = who if _is_int(who) else ("?", coord)
        nth = count_by.get(key, 0) + 1
        count_by[key] = nth
        q, r = coord
        touching = [(q + dq, r + dr) for dq, dr in HEX_DIRECTIONS if (q + dq, r + dr) in placed]
        if k == 0:
            pass                                  # the very first hex has nothing to touch
        elif nth <= first_hexes:
            if len(touching) < first_touch:
                report("first-hexes-touch", f"hex {_name(coord)} (hex {k + 1}, player {who}'s hex {nth}) "
                                            f"touches {len(touching)} placed hexes, needs {first_touch}")
        else:
            notch = any(hex_distance(a, b) == 1 for i, a in enumerate(touching) for b in touching[i + 1:])
            where = f" ({_names(touching)})" if touching else ""
            if len(touching) < later_touch:
                report("later-hexes-touch", f"hex {_name(coord)} (hex {k + 1}, player {who}'s hex {nth}) "
                                            f"touches {len(touching)} placed hexes{where}, needs {later_touch}")
            elif meeting and not notch:           # the strict reading of "on adjacent faces": a policy
                report("adjacent-faces", f"hex {_name(coord)} (hex {k + 1}, player {who}'s hex {nth}) "
                                         f"touches {len(touching)} placed hexes{where}, none on faces that meet")
        placed.add(coord)


def _check_buildings(data, players, cells, buildings, report) -> None:
    side = data["starting_building_side"]
    names = sorted(data["building_resource"])
    for coord in sorted(cells):
        here = buildings.get(coord, [])
        if cells[coord]["type"] == "hamlet":
            if len(here) != 1:
                report("starting-building", f"Hamlet {_name(coord)} has {len(here)} starting buildings, needs 1")
        elif here:
            report("starting-building", f"{cells[coord]['type']} hex {_name(coord)} has a starting building; only Hamlets get one")
        for p in here:
            if p.get("building") not in names:
                report("starting-building", f"starting building at {_name(coord)} is {p.get('building')!r}, not one of {', '.join(names)}")
            if p.get("side") != side:
                report("starting-building", f"starting building at {_name(coord)} shows side {p.get('side')!r}, not {side!r}")
    if players is not None:
        want = data["starting_buildings"][players]
        for name in sorted(want):
            at = sorted(c for c, ps in buildings.items() for p in ps if p.get("building") == name)
            if len(at) != want[name]:
                report("starting-building-mix", f"{len(at)} {name} starting buildings ({_names(at) or 'none'}); "
                                                f"{players} players use {want[name]}")


def _check_fields(data, cells, small, large, report) -> None:
    for coord in sorted(large):
        report("small-field", f"a Large Field at {_name(coord)}; setup puts a Small Field on each Hamlet")
    for coord in sorted(cells):
        here = small.get(coord, [])
        if cells[coord]["type"] == "hamlet":
            if len(here) != 1:
                report("small-field", f"Hamlet {_name(coord)} has {len(here)} Small Fields, needs 1")
        elif here:
            report("small-field", f"{cells[coord]['type']} hex {_name(coord)} has a Small Field; only Hamlets get one")
        for p in here:
            if p.get("face_down") is not True:
                report("small-field", f"the Small Field at {_name(coord)} is not Field side up (face_down must be true)")


def _check_exploration(data, cells, tokens, report) -> None:
    side = data["exploration_side"]
    for coord in sorted(cells):
        cell, here = cells[coord], tokens.get(coord, [])
        if cell["type"] == "blank" and cell.get("exploration") is True:
            if len(here) != 1:
                report("exploration-tokens", f"Exploration hex {_name(coord)} has {len(here)} Exploration tokens, needs 1")
        elif here:
            report("exploration-tokens", f"hex {_name(coord)} is not an Exploration hex but has an Exploration token")
        for p in here:
            if p.get("face_down") is not True or p.get("side") != side:
                report("exploration-tokens", f"the Exploration token at {_name(coord)} is not face down "
                                             f"with the {side!r} side up")


def _check_coastal(cells, report) -> None:
    wrong = []
    for coord in sorted(cells):
        q, r = coord
        open_edge = any((q + dq, r + dr) not in cells for dq, dr in HEX_DIRECTIONS)
        if cells[coord].get("coastal") is not open_edge:
            wrong.append(f"{_name(coord)} (coastal {cells[coord].get('coastal')!r}, "
                         f"{'has' if open_edge else 'has no'} edge touching nothing)")
    if wrong:
        report("coastal", "wrong coastal mark on " + "; ".join(wrong[:6])
                          + (f" and {len(wrong) - 6} more" if len(wrong) > 6 else ""))
