"""Cones of Dunshire (seed 000): is a layout a legal board? Written from the rulebook and
components/cones-of-dunshire/map.yaml, apart from the generator (it imports nothing of
cones_of_dunshire_gen).

Every rule id in map.yaml `rules:` is checked here; `structure:` ids report layouts that are not
a Cones of Dunshire board at all (wrong game, player count or grid, unknown cell types or badly
formed keys, two cells on one place, placements that are not setup pieces on a cell). Terrain
hexes off the board outline are reported by the rule `board-hexes`. The checker never raises on
malformed input: it reports and skips.
"""
from __future__ import annotations

from collections import deque
from itertools import combinations

from generator.maps.grid import components, hex_distance, hex_neighbours, offset_to_axial
from generator.maps.layout import Layout, LayoutKeys
from generator.maps.rules import Violation
from map_oracles.data import cached_map_data
from generator.maps.rules import coord_text as _name, coords_text, is_int as _is_int
from map_oracles.data import Report

# the keys this game's cells and placements carry (map --check refuses any other)
KEYS = LayoutKeys(cells=frozenset(("q", "r", "type", "color", "elevation", "god", "doom_point")),
                  placements=frozenset(("kind", "cell", "label", "role", "god", "avatar", "buildings")))


def _data() -> dict:
    return cached_map_data("cones-of-dunshire")


def _names(coords) -> str:
    return coords_text(coords, 8) or "none"


def check(layout: Layout) -> list[Violation]:
    data = _data()
    report = Report(data)
    try:
        _check(layout, data, report)
    except Exception as exc:      # a malformed layout must be reported, never crash the checker
        report("cell-type", f"the layout could not be read as a Cones of Dunshire board: "
                            f"{type(exc).__name__}: {exc}")
    return report.items


class _Board:
    """What the layout says, sorted out: terrain hexes, Challenge spaces and setup pieces."""

    def __init__(self):
        self.terrain: dict[tuple[int, int], dict] = {}      # normal, mountain and summit hexes
        self.spaces: dict[tuple[int, int], dict] = {}       # the gods' Challenge spaces
        self.starts: list[tuple[tuple[int, int], dict]] = []
        self.farms: list[tuple[tuple[int, int], dict]] = []
        self.decks: list[tuple[tuple[int, int], dict]] = []

    def height(self, coord) -> int:
        value = self.terrain[coord].get("elevation", 0)
        return value if _is_int(value) else 0


def _check(layout: Layout, data: dict, report: Report) -> None:
    # ---- structure: game, players, grid
    if getattr(layout, "game", None) != data["game"]:
        report("game", f"layout is for game {getattr(layout, 'game', None)!r}, not {data['game']!r}")
    players = getattr(layout, "players", None)
    low, high = data["players"]["min"], data["players"]["max"]
    if not (_is_int(players) and low <= players <= high):
        span = f"{low}" if low == high else f"{low}-{high}"
        report("player-count", f"Cones of Dunshire is for {span} players (one per role), not {players!r}")
    grid = getattr(layout, "grid", None)
    if not isinstance(grid, dict) or grid.get("type") != data["grid"]["type"] \
            or grid.get("orientation", data["grid"]["orientation"]) != data["grid"]["orientation"]:
        report("grid", f"the board is of {data['grid']['orientation']}-top hexes, not grid {grid!r}")
        return

    board = _read_cells(layout, data, report)
    _read_placements(layout, data, board, report)

    _check_terrain(data, board, report)
    _check_mountain(data, board, report)
    _check_starts(data, board, report)
    _check_doom(data, board, report)
    _check_gods(data, board, report)


# ------------------------------------------------------------------------------------ structure

def _read_cells(layout: Layout, data: dict, report: Report) -> _Board:
    board = _Board()
    raw = layout.cells if isinstance(layout.cells, list) else []
    if not isinstance(layout.cells, list):
        report("cell-type", "cells must be a list of hexes")
    colours = list(data["colors"])
    gods = {g["id"]: g for g in data["gods"]}
    known = colours + ["mountain", "summit", "challenge"]
    seen: set = set()
    for n, cell in enumerate(raw):
        if not isinstance(cell, dict) or not _is_int(cell.get("q")) or not _is_int(cell.get("r")):
            report("cell-type", f"cell {n + 1} is not a hex with integer q, r")
            continue
        coord = (cell["q"], cell["r"])
        type_ = cell.get("type")
        if type_ not in known:
            report("cell-type", f"hex {_name(coord)} has type {type_!r}; the board has only "
                                f"{', '.join(known)} cells")
            continue
        problem = _key_problem(cell, type_, colours, gods)
        if problem:
            report("cell-type", f"hex {_name(coord)} ({type_}): {problem}")
            continue
        if coord in seen:
            report("duplicate-cell", f"two cells at {_name(coord)}")
            continue
        seen.add(coord)
        (board.spaces if type_ == "challenge" else board.terrain)[coord] = cell
    return board


def _key_problem(cell: dict, type_: str, colours: list, gods: dict) -> str:
    doom = cell.get("doom_point", False)
    if not isinstance(doom, bool):
        return f"doom_point must be true or false, not {doom!r}"
    if type_ in colours:
        if cell.get("color") != type_:
            return f"a {type_} hex has color {type_!r}, not {cell.get('color')!r}"
        if "elevation" in cell and not _is_int(cell["elevation"]):
            return f"elevation must be a whole number, not {cell['elevation']!r}"
        return ""
    if type_ in ("mountain", "summit"):
        if not _is_int(cell.get("elevation")):
            return f"a {type_} hex needs a whole-number elevation, not {cell.get('elevation')!r}"
        if cell.get("color") is not None:
            return f"a {type_} hex has no colour (it cannot be built on), not {cell.get('color')!r}"
        return ""
    god = gods.get(cell.get("god"))
    if god is None:
        return f"god {cell.get('god')!r} is not one of {', '.join(gods)}"
    if cell.get("color") != god["color"]:
        return f"the {god['name']} is {god['color']}, not {cell.get('color')!r}"
    if "elevation" in cell:
        return "a Challenge space is off the board and has no elevation"
    return ""


def _read_placements(layout: Layout, data: dict, board: _Board, report: Report) -> None:
    kinds = data["kinds"]
    roles = {r["id"] for r in data["roles"]}
    gods = {g["id"] for g in data["gods"]}
    raw = layout.placements if isinstance(layout.placements, list) else []
    if not isinstance(layout.placements, list):
        report("placement", "placements must be a list")
    for n, p in enumerate(raw):
        kind = p.get("kind") if isinstance(p, dict) else None
        cell = p.get("cell") if isinstance(p, dict) else None
        if not isinstance(kind, str) or kind not in kinds.values():
            report("placement", f"placement {n + 1} has kind {kind!r}; setup places "
                                f"{', '.join(sorted(kinds.values()))}")
            continue
        if not (isinstance(cell, (list, tuple)) and len(cell) == 2 and all(_is_int(v) for v in cell)):
            report("placement", f"placement {n + 1} ({kind}) names no hex [q, r]")
            continue
        coord = (cell[0], cell[1])
        if coord not in board.terrain and coord not in board.spaces:
            report("placement", f"{kind} at {_name(coord)} is not on a cell of the layout")
            continue
        if kind == kinds["deck"]:
            if p.get("god") not in gods:
                report("placement", f"{kind} at {_name(coord)} is for god {p.get('god')!r}, "
                                    f"not one of {', '.join(sorted(gods))}")
                continue
            board.decks.append((coord, p))
            continue
        if p.get("role") not in roles:
            report("placement", f"{kind} at {_name(coord)} belongs to role {p.get('role')!r}, "
                                f"not one of {', '.join(sorted(roles))}")
            continue
        (board.starts if kind == kinds["start"] else board.farms).append((coord, p))


# ------------------------------------------------------------------------------------ terrain

def _outline(data: dict) -> list:
    return sorted(offset_to_axial(col, row) for row, first, last in data["board"]["rows"]
                  for col in range(first, last + 1))


def _check_terrain(data: dict, board: _Board, report: Report) -> None:
    outline = set(_outline(data))
    missing = sorted(outline - set(board.terrain))
    outside = sorted(set(board.terrain) - outline)
    if missing:
        report("board-hexes", f"no terrain hex at {_names(missing)}: the {data['board']['hex_count']} "
                              f"terrain hexes fill every position of the board")
    if outside:
        report("board-hexes", f"terrain hexes {_names(outside)} lie off the board outline")

    for colour, want in data["colors"].items():
        have = sorted(c for c, cell in board.terrain.items() if cell["type"] == colour)
        if len(have) != want:
            report("color-mix", f"{len(have)} {colour} hexes ({_names(have)}); the board has {want}")

    raised = sorted(c for c, cell in board.terrain.items()
                    if cell["type"] in data["colors"] and cell.get("elevation", 0) != 0)
    if raised:
        report("normal-elevation", f"normal hexes {_names(raised)} are not at elevation zero")


def _check_mountain(data: dict, board: _Board, report: Report) -> None:
    spec = data["mountain"]
    mountain = sorted(c for c, cell in board.terrain.items() if cell["type"] == "mountain")
    summit = sorted(c for c, cell in board.terrain.items() if cell["type"] == "summit")
    by_height: dict[int, list] = {}
    for c in mountain:
        by_height.setdefault(board.height(c), []).append(c)
    want = {int(k): v for k, v in spec["elevations"].items()}
    for h in sorted(set(want) | set(by_height)):
        have = by_height.get(h, [])
        if len(have) != want.get(h, 0):
            report("mountain-mix", f"{len(have)} Mountain hexes of elevation {h} ({_names(have)}); "
                                   f"the Mountain has {want.get(h, 0)}")
    if len(summit) != spec["summit"]["count"]:
        report("mountain-mix", f"{len(summit)} Summit hexes ({_names(summit)}); the Summit is "
                               f"{spec['summit']['count']} hexes")

    # central: one connected Mountain around the centre hexes
    centre = [offset_to_axial(col, row) for col, row in data["board"]["centre"]]
    whole = mountain + summit
    pieces = components(whole, "hex")
    if len(pieces) > 1:
        report("mountain-central", f"the Mountain falls into {len(pieces)} pieces: "
                                   + "; ".join(_names(p) for p in pieces))
    far = [c for c in whole if min(hex_distance(c, x) for x in centre) > spec["radius"]]
    if far:
        report("mountain-central", f"Mountain hexes {_names(far)} lie more than {spec['radius']} steps "
                                   f"from the centre hexes {_names(centre)}")
    far = [c for c in summit if min(hex_distance(c, x) for x in centre) > spec["summit_radius"]]
    if far:
        report("mountain-central", f"Summit hexes {_names(far)} lie more than {spec['summit_radius']} "
                                   f"step(s) from the centre hexes {_names(centre)}")

    if len(summit) > 1 and len(components(summit, "hex")) > 1:
        report("summit-size", f"the Summit hexes {_names(summit)} do not form one space")

    top = spec["summit"]["elevation"]
    highest = max((board.height(c) for c in mountain), default=0)
    low_summit = [c for c in summit if board.height(c) != top or board.height(c) <= highest]
    if low_summit:
        report("summit-top", f"Summit hexes {_names(low_summit)} are at elevation "
                             f"{', '.join(str(board.height(c)) for c in low_summit)}; the Summit is at "
                             f"{top}, above every Mountain hex (highest {highest})")

    if summit and not _climbable(board, spec["max_step"], set(summit)):
        report("summit-reachable", f"the Summit {_names(summit)} cannot be reached from the lowland in "
                                   f"steps of at most {spec['max_step']} elevation")


def _climbable(board: _Board, max_step: int, summit: set) -> bool:
    """Walk from every normal (lowland) hex uphill; does any walk reach the Summit?"""
    lowland = [c for c, cell in board.terrain.items() if cell["type"] not in ("mountain", "summit")]
    seen = set(lowland)
    queue = deque(sorted(lowland))
    while queue:
        here = queue.popleft()
        for there in hex_neighbours(here):
            if there in board.terrain and there not in seen \
                    and abs(board.height(there) - board.height(here)) <= max_step:
                if there in summit:
                    return True
                seen.add(there)
                queue.append(there)
    return False


# ------------------------------------------------------------------------------------ starts

def _check_starts(data: dict, board: _Board, report: Report) -> None:
    spec = data["start"]
    roles = [r["id"] for r in data["roles"]]
    names = {r["id"]: r["name"] for r in data["roles"]}
    count = {r: [] for r in roles}
    for coord, p in board.starts:
        count[p["role"]].append(coord)
    for role in roles:
        if len(count[role]) != 1:
            report("start-roles", f"{names[role]} has {len(count[role])} start hexes "
                                  f"({_names(count[role])}); each role has one")
    shared: dict = {}
    for coord, p in board.starts:
        shared.setdefault(coord, []).append(p["role"])
    for coord, who in sorted(shared.items()):
        if len(who) > 1:
            report("start-roles", f"start hex {_name(coord)} is the start of {', '.join(who)}")

    groups = []
    for coord, p in board.starts:
        role = p["role"]
        if coord not in board.terrain:
            report("start-hexes", f"the {names[role]} starts at {_name(coord)}, which is not a terrain hex")
            continue
        around = [n for n in hex_neighbours(coord) if n in board.terrain]
        if len(around) != spec["neighbours"]:
            report("start-hexes", f"the {names[role]}'s start hex {_name(coord)} has {len(around)} "
                                  f"adjacent hexes ({_names(around)}), not {spec['neighbours']}: the start "
                                  f"and its neighbours are the {spec['neighbours'] + 1} hexes with buildings")
        high = [c for c in [coord, *around] if board.terrain[c]["type"] in ("mountain", "summit")]
        if high:
            report("start-hexes", f"the {names[role]}'s starting buildings would stand on Mountain "
                                  f"hexes {_names(high)}")
        colour = board.terrain[coord]["type"]
        if colour in spec["forbidden_colors"]:
            report("start-not-black", f"the {names[role]}'s start hex {_name(coord)} is {colour}")
        groups.append((role, coord, {coord, *around}))

    for (r1, c1, g1), (r2, c2, g2) in combinations(groups, 2):
        common = g1 & g2
        if common and c1 != c2:
            report("start-apart", f"the {names[r1]} ({_name(c1)}) and the {names[r2]} ({_name(c2)}) both "
                                  f"start with buildings on {_names(common)}")

    # the setup pieces: the start hex's buildings, a Farm on every adjacent hex, nothing else
    want = sorted(spec["buildings"])
    expected_farms: dict[str, set] = {r: set() for r in roles}
    for coord, p in board.starts:
        role = p["role"]
        have = p.get("buildings")
        if not isinstance(have, list) or sorted(map(str, have)) != want:
            report("setup-buildings", f"the {names[role]}'s start hex {_name(coord)} holds {have!r}, "
                                      f"not {', '.join(spec['buildings'])}")
        if p.get("avatar") is not True:
            report("setup-buildings", f"the {names[role]}'s Avatar is not on its start hex {_name(coord)}")
        expected_farms[role] |= {n for n in hex_neighbours(coord) if n in board.terrain}
    placed: dict[str, list] = {r: [] for r in roles}
    for coord, p in board.farms:
        placed[p["role"]].append(coord)
    for role in roles:
        have = placed[role]
        doubled = sorted({c for c in have if have.count(c) > 1})
        if doubled:
            report("setup-buildings", f"the {names[role]} has two starting Farms on {_names(doubled)}")
        missing = sorted(expected_farms[role] - set(have))
        extra = sorted(set(have) - expected_farms[role])
        if missing:
            report("setup-buildings", f"the {names[role]} has no starting Farm on {_names(missing)}, "
                                      f"next to its start hex")
        if extra:
            report("setup-buildings", f"the {names[role]} has starting Farms on {_names(extra)}, "
                                      f"which are not next to its start hex")


# ------------------------------------------------------------------------------------ Doom Points

def _check_doom(data: dict, board: _Board, report: Report) -> None:
    spec = data["doom_points"]
    doom = sorted(c for c, cell in {**board.terrain, **board.spaces}.items() if cell.get("doom_point"))
    if len(doom) != spec["count"]:
        report("doom-point-count", f"{len(doom)} Doom Points ({_names(doom)}); the board has {spec['count']}")
    cells = {**board.terrain, **board.spaces}
    off = [c for c in doom if cells[c]["type"] not in data["colors"]]
    if off:
        report("doom-point-hexes", f"Doom Points {_names(off)} are not on normal hexes, where farms stand")
    setup = set()
    for coord, _ in board.starts:
        setup |= {coord} | {n for n in hex_neighbours(coord) if n in board.terrain}
    hit = [c for c in doom if c in setup]
    if hit:
        report("doom-point-hexes", f"Doom Points {_names(hit)} lie on start hexes or starting Farms")
    close = [(a, b) for a, b in combinations(doom, 2) if hex_distance(a, b) < spec["min_distance"]]
    if close:
        report("doom-point-hexes", "Doom Points too close together: "
                                   + "; ".join(f"{_name(a)} and {_name(b)}" for a, b in close))


# ------------------------------------------------------------------------------------ gods

def _check_gods(data: dict, board: _Board, report: Report) -> None:
    gods = data["gods"]
    for god in gods:
        where = sorted(c for c, cell in board.spaces.items() if cell["god"] == god["id"])
        if len(where) != 1:
            report("challenge-spaces", f"the {god['name']} has {len(where)} Challenge spaces "
                                       f"({_names(where)}); each god has one")
    outline = set(_outline(data))
    for coord in sorted(board.spaces):
        if coord in outline:
            report("challenge-off-board", f"the Challenge space at {_name(coord)} lies on the board")
        elif not any(n in board.terrain for n in hex_neighbours(coord)):
            report("challenge-off-board", f"the Challenge space at {_name(coord)} is not one step from "
                                          f"the board")
    gap = data["challenge"]["min_distance"]
    close = [(a, b) for a, b in combinations(sorted(board.spaces), 2) if hex_distance(a, b) < gap]
    if close:
        report("challenge-apart", "Challenge spaces closer than " + str(gap) + " steps: "
                                  + "; ".join(f"{_name(a)} and {_name(b)} ({hex_distance(a, b)})"
                                              for a, b in close))
    decks: dict = {}
    for coord, p in board.decks:
        decks.setdefault(coord, []).append(p["god"])
    for coord in sorted(set(board.spaces) | set(decks)):
        here = decks.get(coord, [])
        space = board.spaces.get(coord)
        if space is None:
            report("challenge-decks", f"Challenge decks {', '.join(here)} at {_name(coord)}, "
                                      f"which is not a Challenge space")
        elif here != [space["god"]]:
            report("challenge-decks", f"the {space['god']} Challenge space {_name(coord)} holds decks "
                                      f"{here!r}, not the one {space['god']} deck")
