"""Lords of Doomspire: a Layout -> the list of rules it breaks, each with the rulebook sentence.

Written from the rulebook and components/lords-of-doomspire/map.yaml, apart from the generator
(nothing here is shared with lords_of_doomspire_gen). Any layout, hand-made or edited, is judged
without raising: first its structure (game, player count, cell types and fields, duplicate or
off-board cells), then the 8x8 land grid; the other rules are judged only on a well-formed board.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

from generator.maps.layout import Layout, LayoutKeys
from generator.maps.rules import Violation
from map_oracles.data import cached_map_data
from generator.maps.rules import coord_text as _xy, coords_text, is_int as _is_int

GAME = "lords-of-doomspire"
# the keys this game's cells and placements carry (map --check refuses any other)
KEYS = LayoutKeys(cells=frozenset(("x", "y", "type", "label", "biome", "zone", "tier", "owner", "coastal", "face_down", "question_marks", "resources", "starred")),
                  placements=frozenset(("kind", "cell", "label", "owner", "zone", "count")))
CLOCKWISE = ("nw", "ne", "se", "sw")
TIERED = ("adventure", "oasis")          # tiles drawn from with question marks


def _data() -> dict:
    return cached_map_data(GAME)


def _cells_text(cells) -> str:
    return coords_text(cells)


class _Board:
    """Geometry of the board described by map.yaml: rings, biomes, quadrants, ocean ring (looked
    up in tables built once)."""

    def __init__(self, data: dict):
        self.n = n = data["board"]["size"]
        self.corners = {zone: tuple(xy) for zone, xy in data["home"]["corners"].items()}
        biome_of_ring = {r: name for name, b in data["biomes"].items() for r in b["rings"]}
        half = n // 2
        self.land = [(x, y) for y in range(n) for x in range(n)]
        self.ocean = [(x, y) for y in range(-1, n + 1) for x in range(-1, n + 1)
                      if x in (-1, n) or y in (-1, n)]
        self.land_set, self.ocean_set = set(self.land), set(self.ocean)
        self.quadrant_of = {(x, y): ("n" if y < half else "s") + ("w" if x < half else "e")
                            for x, y in self.land + self.ocean}
        self.ring_of = {(x, y): min(x, y, n - 1 - x, n - 1 - y) for x, y in self.land}
        self.biome_of = {c: biome_of_ring[r] for c, r in self.ring_of.items()}

    def on_land(self, c) -> bool:
        return c in self.land_set

    def on_ocean(self, c) -> bool:
        return c in self.ocean_set

    def ring(self, c) -> int:
        return self.ring_of[c]

    def quadrant(self, c) -> str:
        return self.quadrant_of[c]

    def biome(self, c) -> str:
        return self.biome_of[c]


@lru_cache(maxsize=1)
def _board() -> _Board:
    return _Board(_data())


def _kind(cell: dict) -> tuple:
    """What a tile is for the tile mix: its type and, for resource tiles, what it produces."""
    resources = cell.get("resources")
    res = tuple(sorted(resources.items())) if isinstance(resources, dict) else ()
    return (cell["type"], res)


def _entry_kind(entry: dict) -> tuple:
    return (entry["type"], tuple(sorted(entry.get("resources", {}).items())))


def _kind_text(kind: tuple) -> str:
    type_, res = kind
    return type_ + (" (" + ", ".join(f"{n} {name}" for name, n in res) + ")" if res else "")


# --- structure -----------------------------------------------------------------------------------

def _structure(layout, data: dict, board: _Board) -> list[str]:
    problems = []
    game = getattr(layout, "game", None)
    if game != GAME:
        return [f"layout is for game {game!r}, not {GAME!r}"]
    players = getattr(layout, "players", None)
    p = data["players"]
    if not _is_int(players) or not p["min"] <= players <= p["max"]:
        problems.append(f"players is {players!r}; the game is for {p['min']}-{p['max']} players")
    grid = getattr(layout, "grid", None)
    if not isinstance(grid, dict) or grid.get("type") != data["grid"]["type"]:
        problems.append(f"grid is {grid!r}; the board is a square grid {{'type': 'square'}}")
    cells = getattr(layout, "cells", None)
    if not isinstance(cells, list):
        return problems + ["cells must be a list"]
    known = set(data["cell_types"])
    resources = set(data["resources"])
    seen: dict = {}
    for n, cell in enumerate(cells):
        if not isinstance(cell, dict) or not _is_int(cell.get("x")) or not _is_int(cell.get("y")):
            problems.append(f"cell {n + 1} is not an object with integer x and y")
            continue
        xy = (cell["x"], cell["y"])
        if xy in seen:
            problems.append(f"two cells at {_xy(xy)}")
        seen[xy] = cell
        if not board.on_land(xy) and not board.on_ocean(xy):
            problems.append(f"cell {_xy(xy)} is off the board (x and y run from -1 to {board.n})")
        if not isinstance(cell.get("type"), str) or cell["type"] not in known:
            problems.append(f"cell {_xy(xy)} has unknown type {cell.get('type')!r}; "
                            f"known: {', '.join(sorted(known))}")
        problems += [f"cell {_xy(xy)}: {p}" for p in _field_problems(cell, resources)]
    placements = getattr(layout, "placements", None)
    if not isinstance(placements, list):
        return problems + ["placements must be a list"]
    kinds = set(data["setup"]["placement_kinds"])
    for n, pl in enumerate(placements):
        where = f"placement {n + 1}"
        if not isinstance(pl, dict) or not isinstance(pl.get("kind"), str) or pl["kind"] not in kinds:
            problems.append(f"{where} must be an object whose kind is one of {', '.join(sorted(kinds))}")
            continue
        c = pl.get("cell")
        if not isinstance(c, (list, tuple)) or len(c) != 2 or not all(_is_int(v) for v in c):
            problems.append(f"{where} ({pl['kind']}) needs a cell [x, y] of two integers")
        elif tuple(c) not in seen:
            problems.append(f"{where} ({pl['kind']}) is on {_xy(c)}, where the board has no cell")
        for key in ("owner", "count"):
            if key in pl and not _is_int(pl[key]):
                problems.append(f"{where} ({pl['kind']}): {key} must be a whole number")
    return problems


def _field_problems(cell: dict, resources: set) -> list[str]:
    out = []
    for key in ("face_down", "starred", "coastal"):
        if key in cell and not isinstance(cell[key], bool):
            out.append(f"{key} must be true or false")
    for key in ("tier", "question_marks"):
        if key in cell and not _is_int(cell[key]):
            out.append(f"{key} must be a whole number")
    for key in ("zone", "biome", "label"):
        if key in cell and not isinstance(cell[key], str):
            out.append(f"{key} must be text")
    if "owner" in cell and cell["owner"] is not None and not _is_int(cell["owner"]):
        out.append("owner must be a player number or null")
    if cell.get("type") in ("resource", "home") or "resources" in cell:
        res = cell.get("resources")
        if (not isinstance(res, dict) or not res or
                not all(k in resources and _is_int(v) and v > 0 for k, v in res.items())):
            out.append(f"resources must map {', '.join(sorted(resources))} to positive whole numbers")
    return out


# --- the board -----------------------------------------------------------------------------------

def _board_size(cells: dict, board: _Board) -> list[tuple[str, list]]:
    out = []
    missing = [(x, y) for y in range(board.n) for x in range(board.n) if (x, y) not in cells]
    if missing:
        out.append((f"{len(missing)} land tile(s) of the {board.n}x{board.n} grid missing: "
                    f"{_cells_text(missing)}", missing))
    wet = [c for c, cell in cells.items() if board.on_land(c) and cell["type"] == "ocean"]
    if wet:
        out.append((f"ocean inside the {board.n}x{board.n} land grid at {_cells_text(wet)}", wet))
    dry = [c for c, cell in cells.items() if board.on_ocean(c) and cell["type"] != "ocean"]
    if dry:
        out.append((f"land tile(s) outside the {board.n}x{board.n} grid at {_cells_text(dry)}", dry))
    return out


def _ocean_zones(cells: dict, board: _Board, data: dict) -> list[tuple[str, list]]:
    out = []
    ring = [(x, y) for y in range(-1, board.n + 1) for x in range(-1, board.n + 1)
            if board.on_ocean((x, y))]
    missing = [c for c in ring if c not in cells]
    if missing:
        out.append((f"the ocean around the land has no cell at {_cells_text(missing)}", missing))
    zones = set(data["board"]["ocean_zones"])
    for c in ring:
        cell = cells.get(c)
        if cell is not None and cell["type"] == "ocean" and cell.get("zone") != board.quadrant(c):
            out.append((f"ocean cell {_xy(c)} is in zone {cell.get('zone')!r}; the L-shaped zone "
                        f"around that corner is {board.quadrant(c)!r}"
                        + ("" if cell.get("zone") in zones else f" (zones: {', '.join(sorted(zones))})"), [c]))
    return out


def _coastal(cells: dict, board: _Board, data: dict) -> list[tuple[str, list]]:
    out = []
    coastal_rings = set(data["board"]["coastal_rings"])
    marked: Counter = Counter()
    for c, cell in sorted(cells.items()):
        if not board.on_land(c):
            continue
        if board.ring(c) in coastal_rings:
            zone = board.quadrant(c)
            if cell.get("coastal") is not True or cell.get("zone") != zone:
                out.append((f"{cell['type']} at {_xy(c)} is on the outermost ring: it must be "
                            f"coastal: true, zone: {zone!r} (has coastal: {cell.get('coastal')!r}, "
                            f"zone: {cell.get('zone')!r})", [c]))
            else:
                marked[zone] += 1
        elif cell.get("coastal") or "zone" in cell:
            out.append((f"{cell['type']} at {_xy(c)} is not on the outermost ring but is marked "
                        f"coastal: {cell.get('coastal')!r}, zone: {cell.get('zone')!r}", [c]))
    want = data["board"]["coastal_per_zone"]
    for zone in data["board"]["ocean_zones"]:
        if marked[zone] != want:
            tiles = sorted(c for c, cell in cells.items() if board.on_land(c) and cell.get("coastal") is True
                           and cell.get("zone") == zone)
            out.append((f"ocean zone {zone} touches {marked[zone]} coastal land tiles, not {want}"
                        + (f": {_cells_text(tiles)}" if tiles else ""), tiles))
    return out


def _home_corners(cells: dict, board: _Board, data: dict) -> list[tuple[str, list]]:
    out = []
    corners = set(board.corners.values())
    want = data["home"]["resources"]
    for zone in CLOCKWISE:
        c = board.corners[zone]
        cell = cells[c]
        if cell["type"] != "home":
            out.append((f"the {zone} corner {_xy(c)} holds {cell['type']}, not a home tile", [c]))
        elif cell.get("resources") != want or cell.get("starred"):
            out.append((f"home tile at {_xy(c)} provides {cell.get('resources')!r}"
                        f"{' and is starred' if cell.get('starred') else ''}; a home tile provides {want!r}", [c]))
    for c, cell in sorted(cells.items()):
        if cell["type"] == "home" and c not in corners:
            out.append((f"home tile at {_xy(c)} is not in a corner of the board", [c]))
    return out


def _homes_of(cells: dict, board: _Board) -> dict:
    """player number -> home cell, from the corner home tiles."""
    homes = {}
    for zone in CLOCKWISE:
        cell = cells[board.corners[zone]]
        if cell["type"] == "home" and _is_int(cell.get("owner")):
            homes.setdefault(cell["owner"], board.corners[zone])
    return homes


def _home_owners(cells: dict, board: _Board, data: dict, players: int) -> list[tuple[str, list]]:
    seats = data["home"]["seating"][players]
    owned = {}
    for zone in CLOCKWISE:
        c = board.corners[zone]
        cell = cells[c]
        if cell["type"] == "home" and cell.get("owner") is not None:
            owned[zone] = cell.get("owner")
    rotations = [{CLOCKWISE[(CLOCKWISE.index(z) + k) % len(CLOCKWISE)]: n + 1 for n, z in enumerate(seats)}
                 for k in range(len(CLOCKWISE))]
    if owned in rotations:
        return []
    corners = [board.corners[z] for z in CLOCKWISE]
    have = ", ".join(f"{z} {_xy(board.corners[z])}: {owned.get(z)}" for z in CLOCKWISE)
    return [(f"home owners by corner are {have}; with {players} players, players 1-{players} own the "
             f"{', '.join(seats)} homes clockwise (or a rotation of that) and the other homes have "
             f"no owner", corners)]


def _biomes(cells: dict, board: _Board, data: dict) -> list[tuple[str, list]]:
    out = []
    for c, cell in sorted(cells.items()):
        if not board.on_land(c):
            continue
        biome = board.biome(c)
        tier = data["biomes"][biome]["tier"]
        if cell.get("biome") != biome or cell.get("tier") != tier:
            out.append((f"{cell['type']} at {_xy(c)} (ring {board.ring(c)}) is in the {biome} "
                        f"(tier {tier}), but says biome {cell.get('biome')!r}, tier {cell.get('tier')!r}", [c]))
    return out


def _face_down(cells: dict, board: _Board, data: dict) -> list[tuple[str, list]]:
    out = []
    for c, cell in sorted(cells.items()):
        if not board.on_land(c):
            continue
        want = data["biomes"][board.biome(c)]["face_down"]
        if cell.get("face_down") is not want:
            out.append((f"{cell['type']} at {_xy(c)} in the {board.biome(c)} must start "
                        f"{'face down' if want else 'face up'} (face_down: {str(want).lower()}), "
                        f"has face_down: {cell.get('face_down')!r}", [c]))
    return out


def _in_biome(cells: dict, board: _Board, biome: str, corners: set) -> dict:
    return {c: cell for c, cell in cells.items()
            if board.on_land(c) and c not in corners and board.biome(c) == biome}


def _mountain_tiles(cells: dict, board: _Board, data: dict) -> list[tuple[str, list]]:
    centre = _in_biome(cells, board, "mountains", set())
    have = Counter(_kind(cell) for cell in centre.values())
    want = Counter({_entry_kind(e): e["count"] for e in data["tiles"]["mountains"]})
    if have == want:
        return []
    return [(f"the centre tiles {_cells_text(centre)} hold "
             f"{', '.join(f'{n} {_kind_text(k)}' for k, n in sorted(have.items()))}; they must hold "
             f"{', '.join(f'{n} {_kind_text(k)}' for k, n in sorted(want.items()))}", list(centre))]


def _adventure_tier(cells: dict, board: _Board, data: dict) -> list[tuple[str, list]]:
    out = []
    for c, cell in sorted(cells.items()):
        if board.on_land(c) and cell["type"] in TIERED:
            tier = data["biomes"][board.biome(c)]["tier"]
            if cell.get("question_marks") != tier:
                out.append((f"{cell['type']} tile at {_xy(c)} in the {board.biome(c)} (tier {tier}) "
                            f"has {cell.get('question_marks')!r} question marks, not {tier}", [c]))
        elif "question_marks" in cell:
            out.append((f"{cell['type']} at {_xy(c)} has question marks; only adventure and oasis "
                        f"tiles do", [c]))
    return out


def _starred(cells: dict, board: _Board, data: dict) -> list[tuple[str, list]]:
    out = []
    tier2 = [name for name, b in data["biomes"].items() if b["tier"] == 2]
    for c, cell in sorted(cells.items()):
        if cell["type"] != "resource":
            if cell["type"] != "home" and "starred" in cell:
                out.append((f"{cell['type']} at {_xy(c)} is marked starred; only resource tiles are", [c]))
            continue
        amount = sum(cell["resources"].values())
        if cell.get("starred") is not (amount > 1):
            out.append((f"resource tile at {_xy(c)} provides {amount} resource(s), so starred must "
                        f"be {str(amount > 1).lower()} (has {cell.get('starred')!r})", [c]))
        if board.on_land(c) and board.biome(c) in tier2 and amount <= 1:
            out.append((f"resource tile at {_xy(c)} is in the tier 2 {board.biome(c)} but provides "
                        f"only {amount} resource: tier 2 resource tiles are starred", [c]))
    return out


def _tile_mix(cells: dict, board: _Board, data: dict) -> list[tuple[str, list]]:
    out = []
    corners = set(board.corners.values())
    for biome in ("plains", "hills"):
        region = _in_biome(cells, board, biome, corners)
        have = Counter(_kind(cell) for cell in region.values())
        want = Counter({_entry_kind(e): e["count"] for e in data["tiles"][biome]})
        for kind in sorted(set(have) | set(want)):
            if have[kind] != want[kind]:
                where = [c for c, cell in region.items() if _kind(cell) == kind]
                out.append((f"the {biome} hold {have[kind]} {_kind_text(kind)} tile(s), the tile mix "
                            f"has {want[kind]}" + (f": {_cells_text(where)}" if where else ""), where))
    return out


def _quadrant_share(cells: dict, board: _Board, data: dict) -> list[tuple[str, list]]:
    out = []
    corners = set(board.corners.values())
    for biome in ("plains", "hills"):
        region = _in_biome(cells, board, biome, corners)
        kind_at = sorted((c, _kind(cell)) for c, cell in region.items())
        groups: dict[str, set] = {}
        for e in data["tiles"][biome]:
            groups.setdefault(f"{_kind_text(_entry_kind(e))} tiles", set()).add(_entry_kind(e))
            if "share" in e:
                groups.setdefault(f"share group {e['share']}", set()).add(_entry_kind(e))
        judged: list[set] = []
        for name, kinds in groups.items():
            if kinds in judged:               # a group of one kind says what that kind said
                continue
            judged.append(kinds)
            count = dict.fromkeys(CLOCKWISE, 0)
            where = [c for c, kind in kind_at if kind in kinds]
            for c in where:
                count[board.quadrant(c)] += 1
            if max(count.values()) - min(count.values()) > 1:
                per = ", ".join(f"{q} {count[q]}" for q in CLOCKWISE)
                out.append((f"{biome} {name} per quadrant: {per} (more than 1 apart) at "
                            f"{_cells_text(where)}", where))
    return out


def _placements(layout, kind: str) -> list[dict]:
    return [p for p in layout.placements if p["kind"] == kind]


def _knights(layout, cells: dict, board: _Board, data: dict) -> list[tuple[str, list]]:
    out = []
    homes = _homes_of(cells, board)
    want = data["setup"]["knights_per_player"]
    knights = _placements(layout, "knight")
    for player in range(1, layout.players + 1):
        mine = [tuple(p["cell"]) for p in knights if p.get("owner") == player]
        home = homes.get(player)
        if len(mine) != want:
            at = f" (home {_xy(home)})" if home else ""
            out.append((f"player {player}{at} has {len(mine)} starting knight(s), not {want}"
                        + (f": {_cells_text(mine)}" if mine else ""), mine + ([home] if home else [])))
        stray = [c for c in mine if home is not None and c != home]
        if stray:
            out.append((f"player {player}'s knight at {_cells_text(stray)} is not on their home "
                        f"tile {_xy(home)}", stray + [home]))
    others = [tuple(p["cell"]) for p in knights if p.get("owner") not in range(1, layout.players + 1)]
    if others:
        out.append((f"knight(s) at {_cells_text(others)} belong to no player 1-{layout.players}", others))
    return out


def _boats(layout, cells: dict, board: _Board, data: dict) -> list[tuple[str, list]]:
    out = []
    homes = _homes_of(cells, board)
    want = data["setup"]["boats_per_player"]
    boats = _placements(layout, "boat")
    for player in range(1, layout.players + 1):
        mine = [p for p in boats if p.get("owner") == player]
        home = homes.get(player)
        if len(mine) != want:
            at = [tuple(p["cell"]) for p in mine]
            out.append((f"player {player}" + (f" (home {_xy(home)})" if home else "")
                        + f" has {len(mine)} starting boat(s), not {want}"
                        + (f": {_cells_text(at)}" if at else ""), at + ([home] if home else [])))
        if home is None:
            continue
        zone = board.quadrant(home)
        for p in mine:
            c = tuple(p["cell"])
            if not board.on_ocean(c) or board.quadrant(c) != zone or p.get("zone") != zone:
                out.append((f"player {player}'s boat at {_xy(c)} (zone {p.get('zone')!r}) is not in "
                            f"the {zone} ocean zone beside their home tile {_xy(home)}", [c, home]))
    others = [tuple(p["cell"]) for p in boats if p.get("owner") not in range(1, layout.players + 1)]
    if others:
        out.append((f"boat(s) at {_cells_text(others)} belong to no player 1-{layout.players}", others))
    return out


def _adventure_tokens(layout, cells: dict, board: _Board, data: dict) -> list[tuple[str, list]]:
    out = []
    want = data["setup"]["adventure_tokens"]
    tokens: dict = {}
    for p in _placements(layout, "adventure-tokens"):
        tokens.setdefault(tuple(p["cell"]), []).append(p.get("count"))
    face_up = {c for c, cell in cells.items() if board.on_land(c) and cell["type"] in TIERED
               and not data["biomes"][board.biome(c)]["face_down"]}
    for c in sorted(face_up):
        if tokens.get(c) != [want]:
            out.append((f"face-up {cells[c]['type']} tile at {_xy(c)} must start with {want} adventure "
                        f"tokens (has {tokens.get(c, [])!r})", [c]))
    for c in sorted(set(tokens) - face_up):
        out.append((f"adventure tokens on {cells[c]['type']} at {_xy(c)}, which is not a face-up "
                    f"adventure or oasis tile", [c]))
    return out


def check(layout: Layout) -> list[Violation]:
    data = _data()
    quotes = data["rules"]
    board = _board()

    def report(rule: str, found) -> list[Violation]:
        return [Violation(rule, message, quotes[rule]) for message, _cells in found]

    problems = _structure(layout, data, board)
    if problems:
        return [Violation("structure", p, quotes["structure"]) for p in problems]
    cells = {(c["x"], c["y"]): c for c in layout.cells}
    shape = report("board-size", _board_size(cells, board))
    if shape:
        return shape                      # the other rules need the full 8x8 land grid
    found = []
    found += report("ocean-zones", _ocean_zones(cells, board, data))
    found += report("coastal-tiles", _coastal(cells, board, data))
    found += report("home-corners", _home_corners(cells, board, data))
    found += report("home-owners", _home_owners(cells, board, data, layout.players))
    found += report("biomes", _biomes(cells, board, data))
    found += report("face-down", _face_down(cells, board, data))
    found += report("mountain-tiles", _mountain_tiles(cells, board, data))
    found += report("adventure-tier", _adventure_tier(cells, board, data))
    found += report("starred-tiles", _starred(cells, board, data))
    found += report("tile-mix", _tile_mix(cells, board, data))
    found += report("quadrant-share", _quadrant_share(cells, board, data))
    found += report("knights", _knights(layout, cells, board, data))
    found += report("boats", _boats(layout, cells, board, data))
    found += report("adventure-tokens", _adventure_tokens(layout, cells, board, data))
    return found
