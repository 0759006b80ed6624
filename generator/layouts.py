"""One run of faces + one free rectangle of a page -> the best block of its faces there: a grid
(turned or not, with room for crop marks or without, abutting on shared cut lines where the
run's edges allow) or a honeycomb of hexagons and circles.

Pure geometry in millimetres (origin at the page's top-left, y down); nothing here draws. The
types impose.py and packing.py share (Options, Run) live here, at the bottom of the three.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

MARK_GUTTERS = ((1.0, 3.0), (0.5, 2.0))   # crop marks (gap to the bleed, length), roomiest first
FOLD_CLEARANCE = 5.0     # fold line to the nearest bleed, fold-and-glue
EPS = 1e-6
SQRT3 = math.sqrt(3)


class FaceTooLarge(ValueError):
    """A face that fits no sheet of the paper with its bleed; `key` is its run's (group's) key."""

    def __init__(self, key: str, message: str):
        super().__init__(message)
        self.key = key


@dataclass(frozen=True)
class Options:
    paper: str = "a4"
    page_width: float = 210.0
    page_height: float = 297.0
    margin: float = 5.0
    bleed: float = 3.0
    duplex: str = "long"         # long | short | none
    marks: str = "crop"          # crop | lines | none
    overlap: float = 10.0        # board pieces
    cuts: str = "shared"         # shared | separate: may rectangles abut on one cut line


@dataclass(frozen=True)
class Run:
    """The faces of one group to place: `backs[i]` is the back of `fronts[i]` (None: one-sided)."""
    key: str
    name: str
    fronts: list
    backs: list | None
    w: float
    h: float
    shape: str = "rect"
    orientation: str = "pointy"
    bleed: float = 3.0
    cuts: str = "shared"
    owners: tuple[str, ...] | None = None     # per face, the group it belongs to (merged runs)
    edge: str = ""          # edge colour class (edges.py): only runs of one class share cut lines together
    joins: tuple[bool, bool] = (True, True)   # on shared cuts, may faces abut side by side, one above
                                              # the other (as the face stands, unturned; edges.py)
    why: str = ""           # why cut lines are not shared (all or some) when that was not asked for

    @property
    def rectangular(self) -> bool:
        return self.shape in ("rect", "square")

    def extents(self, rotation: int = 0) -> tuple[float, float]:
        """How far the bleed reaches past the trim box, across and down, as the face lies on the
        page (a hexagon's bleed reaches further at its corners; a quarter turn swaps them)."""
        if self.shape != "hexagon":
            return self.bleed, self.bleed
        pointy = (self.orientation == "pointy") != (rotation in (90, 270))
        return _hex_reach(self.bleed, "pointy" if pointy else "flat")


def _hex_reach(bleed: float, orientation: str) -> tuple[float, float]:
    """A hexagon's bleed past its box, across and down: further at its corners."""
    corner = 2 * bleed / SQRT3
    return (bleed, corner) if orientation == "pointy" else (corner, bleed)


@dataclass(frozen=True)
class Slots:
    positions: list[tuple[float, float]]      # trim top-left of each slot
    bleed: list[tuple[float, float, float, float]]
    shared_cuts: bool


def _grid_shape(area_w, area_h, w, h, bleed, shared: tuple[bool, bool]) -> tuple[int, int]:
    """Columns and rows: faces abut on shared cuts across and/or down, else a bleed each side."""
    def count(length, size, share):
        return int((length - 2 * bleed + EPS) // size) if share else int((length + EPS) // (size + 2 * bleed))
    return count(area_w, w, shared[0]), count(area_h, h, shared[1])


def _page_joins(run: Run, rotation: int, shared: bool) -> tuple[bool, bool]:
    """Which cut lines faces of the run share as they lie on the page: across (between columns)
    and down (between rows). A quarter turn makes the face's side-by-side sides top and bottom."""
    if not shared:
        return False, False
    return run.joins if rotation in (0, 180) else run.joins[::-1]


def honeycomb_slots(area_w, area_h, w, h, bleed, shape, orientation, offsets=(True, False)) -> Slots:
    """Hexagons and circles in offset rows (columns for flat hexagons), bleed outlines touching;
    a plain grid when that holds more (unless `offsets` is (True,))."""
    transpose = shape == "hexagon" and orientation == "flat"
    if transpose:
        area_w, area_h, w, h = area_h, area_w, h, w
    bw, bh = w + 2 * bleed, (h + 4 * bleed / SQRT3) if shape == "hexagon" else h + 2 * bleed
    row_pitch = 0.75 * bh if shape == "hexagon" else bw * SQRT3 / 2
    best = None
    for offset in offsets:
        pitch_y = row_pitch if offset else bh
        rows = int((area_h - bh + EPS) // pitch_y) + 1 if area_h + EPS >= bh else 0
        positions = []
        for row in range(rows):
            shift = bw / 2 if offset and row % 2 else 0.0
            cols = int((area_w - shift + EPS) // bw)
            positions += [((bw - w) / 2 + shift + col * bw, (bh - h) / 2 + row * pitch_y) for col in range(cols)]
        if best is None or len(positions) > len(best):
            best = positions
    if transpose:
        best = sorted(((y, x) for x, y in best), key=lambda p: (round(p[1], 6), p[0]))
    return Slots(best, [(bleed,) * 4] * len(best), False)


@dataclass
class _Block:
    """Some faces of one run laid out together in one free rectangle of a page."""
    run: Run
    first: int                                   # index of its first face in the run
    boxes: list[tuple[float, float, float, float, int]]   # trim x, y, w, h, rotation
    bleeds: list[tuple[float, float, float, float]]
    gutter: tuple[float, float]                  # crop marks: (gap, length); (0, 0) without
    shared: bool
    edges: list | None = None                    # hexagons on shared cuts: per face, per side (angle, bleed)
    paths: list | None = None                    # ... and per face its bleed outline on the page

    def footprints(self) -> list[tuple[float, float, float, float]]:
        """Each face's trim plus bleed plus room for its marks, as (x0, y0, x1, y1)."""
        if self.paths:
            return [(min(p[0] for p in path), min(p[1] for p in path),
                     max(p[0] for p in path), max(p[1] for p in path)) for path in self.paths]
        g = sum(self.gutter)
        if self.run.rectangular:
            return [(x - l - g, y - t - g, x + w + r + g, y + h + b + g)
                    for (x, y, w, h, _), (l, t, r, b) in zip(self.boxes, self.bleeds)]
        return [(x - ex, y - ey, x + w + ex, y + h + ey)
                for x, y, w, h, rot in self.boxes for ex, ey in [self.run.extents(rot)]]

    def shifted(self, dx: float, dy: float) -> "_Block":
        boxes = [(x + dx, y + dy, w, h, rot) for x, y, w, h, rot in self.boxes]
        paths = [tuple((x + dx, y + dy) for x, y in path) for path in self.paths] if self.paths else None
        return _Block(self.run, self.first, boxes, self.bleeds, self.gutter, self.shared, self.edges, paths)


def _fit(run: Run, rect, n: int, marks: str, shared: bool, empty_sheet: bool = False) -> _Block | None:
    """The best layout of up to n faces of the run in the rectangle: the most faces, then with
    crop marks, then the smallest footprint (more room left for other faces), then unturned, then
    roomier marks. With `empty_sheet` (packing.py asks it on an empty sheet, and in its second,
    tighter packing everywhere) a rectangle may do without room for crop marks, its marks then
    ticks in what room there is (impose._ticks), when that puts more in the rectangle (two boards
    where one fits with marks)."""
    layouts = _layouts(run, rect, n, marks, shared)
    if empty_sheet and run.rectangular and marks in ("crop", "lines"):
        layouts += _layouts(run, rect, n, "outline", shared)
    best, best_key = None, None
    for block in layouts:
        fp = block.footprints()
        area = (max(f[2] for f in fp) - min(f[0] for f in fp)) * (max(f[3] for f in fp) - min(f[1] for f in fp))
        unmarked = run.rectangular and marks in ("crop", "lines") and not sum(block.gutter)
        key = (-len(block.boxes), unmarked, round(area, 3), block.boxes[0][4] != 0, -sum(block.gutter))
        if best_key is None or key < best_key:
            best, best_key = block, key
    return best


def _layouts(run: Run, rect, n: int, marks: str, shared: bool) -> list[_Block]:
    """Candidate layouts; with marks 'outline' (a face too big to keep room for crop marks)
    rectangles get none, and their cut outline is drawn instead."""
    return list(_candidate_layouts(run, rect, n, marks, shared))


def _candidate_layouts(run: Run, rect, n: int, marks: str, shared: bool):
    x0, y0, rw, rh = rect
    if run.shape in ("hexagon", "circle"):
        turns = [(run.w, run.h, run.orientation, 0)]
        if run.shape == "hexagon":      # a quarter turn makes pointy rows flat columns, and back
            turns.append((run.h, run.w, "flat" if run.orientation == "pointy" else "pointy", 90))
        for w, h, orientation, rotation in turns:
            if shared:
                yield from _shared_honeycomb(run, rect, n, w, h, orientation, rotation)
                continue
            slots = honeycomb_slots(rw, rh, w, h, run.bleed, run.shape, orientation)
            k = min(n, len(slots.positions))
            if k:
                boxes = [(x0 + x, y0 + y, w, h, rotation) for x, y in slots.positions[:k]]
                yield _Block(run, 0, boxes, [(run.bleed,) * 4] * k, (0.0, 0.0), False)
        return
    b = run.bleed
    turns = [(run.w, run.h, 0)]
    if run.rectangular and abs(run.w - run.h) > EPS:
        turns.append((run.h, run.w, 90))
    gutters = MARK_GUTTERS if run.rectangular and marks in ("crop", "lines") else ((0.0, 0.0),)
    for fw, fh, rotation in turns:
        joins = _page_joins(run, rotation, shared)
        for gutter in gutters:
            g = sum(gutter)
            cols, rows = _grid_shape(rw - 2 * g, rh - 2 * g, fw, fh, b, joins)
            k = min(n, max(cols, 0) * max(rows, 0))
            if not k:
                continue
            pitch_x, pitch_y = (fw if joins[0] else fw + 2 * b), (fh if joins[1] else fh + 2 * b)
            boxes = []
            for i in range(k):
                r, c = divmod(i, cols)
                boxes.append((x0 + g + b + c * pitch_x, y0 + g + b + r * pitch_y, fw, fh, rotation))
            yield _Block(run, 0, boxes, _grid_bleeds(k, cols, b, joins), gutter, any(joins))


def _shared_honeycomb(run: Run, rect, n: int, w: float, h: float, orientation: str, rotation: int):
    """Hexagons abutting on shared cut lines in offset rows (columns, when flat), the bleed only
    on the sides without a neighbour, and room for it kept round the block."""
    x0, y0, rw, rh = rect
    b = run.bleed
    ex, ey = _hex_reach(b, orientation)
    slots = honeycomb_slots(rw - 2 * ex, rh - 2 * ey, w, h, 0.0, "hexagon", orientation, offsets=(True,))
    positions = slots.positions[:n]
    if not positions:
        return
    boxes = [(x0 + ex + x, y0 + ey + y, w, h, rotation) for x, y in positions]
    centres = _PointSet((x + w / 2, y + h / 2) for x, y, *_ in boxes)
    across = w if orientation == "pointy" else h          # the distance between neighbours' centres
    normals = [(-60 + 60 * i) % 360 if orientation == "pointy" else (30 + 60 * i) % 360 for i in range(6)]
    edges = []
    for x, y, *_ in boxes:
        cx, cy = x + w / 2, y + h / 2
        edges.append(tuple((a, 0.0 if (cx + across * math.cos(math.radians(a)),
                                       cy + across * math.sin(math.radians(a))) in centres else b)
                           for a in normals))
    paths = [hex_bleed_outline(x, y, w, h, e) for (x, y, *_), e in zip(boxes, edges)]
    yield _Block(run, 0, boxes, [(b,) * 4] * len(boxes), (0.0, 0.0), True, edges, paths)


class _PointSet:
    """Points looked up within a hundredth of a millimetre (sums of pitches are not exact)."""

    def __init__(self, points):
        self.cells: dict = {}
        for x, y in points:
            self.cells.setdefault((round(x * 10), round(y * 10)), []).append((x, y))

    def __contains__(self, point) -> bool:
        x, y = point
        i, j = round(x * 10), round(y * 10)
        return any(math.dist(point, q) < 0.01 for di in (-1, 0, 1) for dj in (-1, 0, 1)
                   for q in self.cells.get((i + di, j + dj), ()))


def hex_bleed_outline(x, y, w, h, edges) -> tuple[tuple[float, float], ...]:
    """The bleed outline of a regular hexagon in the box (x, y, w, h), each side pushed out by its
    own bleed: the corners where neighbouring sides' offset lines meet."""
    cx, cy = x + w / 2, y + h / 2
    apothem = min(w, h) / 2
    lines = [(math.cos(math.radians(a)), math.sin(math.radians(a)), apothem + g) for a, g in edges]
    corners = []
    for (a1, b1, d1), (a2, b2, d2) in zip(lines, lines[1:] + lines[:1]):
        det = a1 * b2 - a2 * b1
        corners.append((cx + (d1 * b2 - d2 * b1) / det, cy + (a1 * d2 - a2 * d1) / det))
    return tuple(corners)


def _grid_bleeds(k: int, cols: int, bleed: float, shared: tuple[bool, bool]) -> list[tuple]:
    """Full bleed on every side without a neighbour on a shared cut line: the ends of a part-filled
    row and the faces above its empty slots keep theirs, and every side across a cut not shared."""
    across, down = shared
    out = []
    for i in range(k):
        r, c = divmod(i, cols)
        left = 0.0 if across and c > 0 else bleed
        right = 0.0 if across and c + 1 < cols and i + 1 < k else bleed
        top = 0.0 if down and r > 0 else bleed
        bottom = 0.0 if down and i + cols < k else bleed
        out.append((left, top, right, bottom))
    return out
