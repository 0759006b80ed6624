"""Grid geometry for maps: hex (axial q, r) and square (x, y) cells, neighbours, distances,
rings and connectivity. Pure functions on tuples; every iteration order is fixed (sorted or
list order), so layouts never depend on set or dict ordering.
"""
from __future__ import annotations

from collections import deque
from typing import Callable, Iterable

Cell = tuple[int, int]

HEX_DIRECTIONS: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
SQUARE_DIRECTIONS: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))


def hex_neighbours(cell: Cell) -> list[Cell]:
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in HEX_DIRECTIONS]


def square_neighbours(cell: Cell) -> list[Cell]:
    x, y = cell
    return [(x + dx, y + dy) for dx, dy in SQUARE_DIRECTIONS]


def hex_distance(a: Cell, b: Cell) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def square_distance(a: Cell, b: Cell) -> int:
    """Steps between squares sharing an edge (Manhattan distance)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def hex_ring(center: Cell, radius: int) -> list[Cell]:
    if radius == 0:
        return [center]
    q, r = center[0] - radius, center[1] + radius     # start at direction (-1, +1) * radius
    out = []
    for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
        for _ in range(radius):
            out.append((q, r))
            q, r = q + dq, r + dr
    return out


def hex_disc(center: Cell, radius: int) -> list[Cell]:
    return [c for k in range(radius + 1) for c in hex_ring(center, k)]


def offset_to_axial(col: int, row: int) -> Cell:
    """Pointy-top rows with odd rows shifted right ("odd-r") -> axial (q, r)."""
    return (col - (row - (row & 1)) // 2, row)


def axial_to_offset(cell: Cell) -> tuple[int, int]:
    q, r = cell
    return (q + (r - (r & 1)) // 2, r)


def row_cells(row: int, first: int, last: int, grid_type: str) -> list[Cell]:
    """Columns first..last of one row of a board, in offset coordinates (hex: odd rows shifted
    right, as hex_rectangle and the row-letter labels count them)."""
    if grid_type == "hex":
        return [offset_to_axial(col, row) for col in range(first, last + 1)]
    return [(col, row) for col in range(first, last + 1)]


def hex_rectangle(cols: int, rows: int) -> list[Cell]:
    """The cells of a cols x rows board of pointy hexes with odd rows shifted right, in row order."""
    return [offset_to_axial(col, row) for row in range(rows) for col in range(cols)]


def neighbours_fn(grid_type: str) -> Callable[[Cell], list[Cell]]:
    return hex_neighbours if grid_type == "hex" else square_neighbours


def distance_fn(grid_type: str) -> Callable[[Cell, Cell], int]:
    return hex_distance if grid_type == "hex" else square_distance


def components(cells: Iterable[Cell], grid_type: str,
               neighbours: Callable[[Cell], list[Cell]] | None = None) -> list[list[Cell]]:
    """Connected pieces of a set of cells (each piece sorted; pieces in order of their first cell);
    `neighbours` in place of the grid's, on a board with walls."""
    remaining = sorted(set(cells))
    inside = set(remaining)
    seen: set[Cell] = set()
    pieces = []
    neighbours = neighbours or neighbours_fn(grid_type)
    for start in remaining:
        if start in seen:
            continue
        piece, queue = [], deque([start])
        seen.add(start)
        while queue:
            cell = queue.popleft()
            piece.append(cell)
            for n in neighbours(cell):
                if n in inside and n not in seen:
                    seen.add(n)
                    queue.append(n)
        pieces.append(sorted(piece))
    return pieces


UNREACHABLE = 10 ** 6     # the distance between cells that walls cut apart


def walled(grid_type: str, cells: list[Cell], walls) -> tuple[Callable, Callable]:
    """neighbours(c) and distance(a, b) on a board whose walls close the edges between some pairs
    of neighbouring cells: a walled pair are not neighbours, and a distance is the fewest steps
    that cross no wall, walking on the board (a position one step off it, where a space off the
    board lies, is reached or left but never walked through). Distances from a cell are found
    once, when first asked."""
    on = set(cells)
    grid_neighbours = neighbours_fn(grid_type)
    space = on | {m for c in cells for m in grid_neighbours(c)}
    closed = {frozenset(w) for w in walls}

    def neighbours(c: Cell) -> list[Cell]:
        return [m for m in grid_neighbours(c) if frozenset((c, m)) not in closed]

    known: dict = {}

    def distance(a: Cell, b: Cell) -> int:
        if a not in known:
            steps, queue = {a: 0}, deque([a])
            while queue:
                c = queue.popleft()
                if c != a and c not in on:          # off the board: an end, not a way through
                    continue
                for m in neighbours(c):
                    if m in space and m not in steps:
                        steps[m] = steps[c] + 1
                        queue.append(m)
            known[a] = steps
        return known[a].get(b, UNREACHABLE)

    return neighbours, distance


def is_connected(cells: Iterable[Cell], grid_type: str) -> bool:
    return len(components(cells, grid_type)) <= 1


def edge_cells(cells: Iterable[Cell], grid_type: str) -> list[Cell]:
    """Cells with at least one neighbour position that holds no cell."""
    inside = set(cells)
    neighbours = neighbours_fn(grid_type)
    return sorted(c for c in inside if any(n not in inside for n in neighbours(c)))


def distances_from(start: Cell, cells: Iterable[Cell], grid_type: str,
                   passable: Callable[[Cell], bool] | None = None) -> dict[Cell, int]:
    """Steps from start to every reachable cell, walking only through passable cells."""
    inside = set(cells)
    neighbours = neighbours_fn(grid_type)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for n in neighbours(cell):
            if n in inside and n not in dist and (passable is None or passable(n)):
                dist[n] = dist[cell] + 1
                queue.append(n)
    return dist


# --- regions: named ways to cut a board into parts, for quotas and fairness ------------------

def centre(cell: Cell, grid_type: str) -> tuple[float, float]:
    """A cell's centre in cell widths (pointy hexes: odd rows sit half a cell to the right)."""
    if grid_type == "hex":
        q, r = cell
        return (q + r / 2, r * 0.8660254037844386)
    return (float(cell[0]), float(cell[1]))


def _quadrant(u: float, v: float) -> int:
    return (2 if v > 0 else 0) + (1 if u > 0 else 0)


def _diagonal_half(u: float, v: float) -> int:
    return 0 if u > v else 1


def _wedge(u: float, v: float) -> int:
    if abs(u) >= abs(v):
        return 1 if u > 0 else 3
    return 2 if v > 0 else 0


REGION_SCHEMES = {
    # name: (parts, part of a cell from its centre relative to the board's middle, scaled to the board)
    "quadrants": (("nw", "ne", "sw", "se"), _quadrant),
    "diagonal-halves": (("ne", "sw"), _diagonal_half),
    "wedges": (("n", "e", "s", "w"), _wedge),
}


def region_of(cells: list[Cell], grid_type: str, scheme: str) -> list[int]:
    """The part (an index into REGION_SCHEMES[scheme][0]) of each cell, in the cells' order."""
    names, part = REGION_SCHEMES[scheme]
    points = [centre(c, grid_type) for c in cells]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    mx, my = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    w, h = (max(xs) - min(xs)) or 1.0, (max(ys) - min(ys)) or 1.0
    return [part(round((x - mx) / w, 9), round((y - my) / h, 9)) for x, y in points]
