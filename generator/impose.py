"""Runs of faces + paper + options -> sheets: where each face, mark, fold line and page guide goes
on each page.

Pure geometry in millimetres (origin at the page's top-left, y down); nothing here draws.

Every document is duplex-safe. Faces of all groups share sheets (largest faces first, smaller
ones filling the gaps) when their sidedness allows. Sheets that carry two-sided faces come first,
each front page followed by its back page; sheets of one-sided faces follow, each followed by a
blank page when the document has backs at all. So printing the whole file double-sided puts every
back behind its front and nothing behind a one-sided face. With `--duplex none` two-sided faces
sit beside their backs, to fold and glue, and no page needs a blank back.

Every side of a face that is not a shared cut line keeps the full bleed; trim, bleed and marks stay
inside the printable area, and crop marks stay outside all bleed.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from .pageguide import GUIDE_SIZE, GUIDE_STRIP, label_pages     # noqa: F401 (GUIDE_SIZE: read from here too)

MARK_GUTTERS = ((1.0, 3.0), (0.5, 2.0))   # crop marks (gap to the bleed, length), roomiest first
FOLD_CLEARANCE = 5.0     # fold line to the nearest bleed, fold-and-glue
TILE_LABEL_STRIP = 6.0   # reserved under a board piece for its label
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


@dataclass(frozen=True, slots=True)    # 100,000 of them at 50,000 cards
class Placement:
    """One face on a page: trim box at (x, y) size (w, h) as it lies on the page, bleed per side
    (left, top, right, bottom), and the face turned `rotation` degrees clockwise to lie so."""
    x: float
    y: float
    w: float
    h: float
    bleed: tuple[float, float, float, float]
    face: object = None
    clip_to_shape: bool = True   # False: clip to the bleed rectangle (rectangles: square bleed)
    rotation: int = 0
    # hexagons sharing cut lines: the bleed outline on the page, and per side (the direction it
    # faces, in degrees clockwise from the page's x axis; its bleed: 0 on a shared cut)
    clip_path: tuple[tuple[float, float], ...] | None = None
    edges: tuple[tuple[float, float], ...] | None = None

    def mirrored(self, page_w: float, page_h: float, duplex: str, face=None) -> "Placement":
        """Where this face's back lands: mirrored left-right (long edge) or top-bottom (short).
        A turned face's back is turned the other way, so every back sits the same way round
        behind its front whether or not the front was turned to fit the sheet."""
        l, t, r, b = self.bleed
        turn = (-self.rotation) % 360
        if duplex == "short":
            flip = (lambda x, y: (x, page_h - y)), (lambda a: -a % 360)
            box = (self.x, page_h - self.y - self.h, self.w, self.h, (l, b, r, t))
        else:
            flip = (lambda x, y: (page_w - x, y)), (lambda a: (180 - a) % 360)
            box = (page_w - self.x - self.w, self.y, self.w, self.h, (r, t, l, b))
        path = tuple(flip[0](x, y) for x, y in self.clip_path) if self.clip_path else None
        edges = tuple((flip[1](a), g) for a, g in self.edges) if self.edges else None
        return Placement(*box, face, self.clip_to_shape, turn, path, edges)


@dataclass
class Sheet:
    width: float
    height: float
    side: str          # 'front' | 'back' | 'one-sided' | 'blank' | 'fold' | 'board'
    placements: list[Placement]
    lines: list[tuple[float, float, float, float]] = field(default_factory=list)   # marks
    outlines: list[Placement] = field(default_factory=list)   # faces whose outline is a cut line
    fold_x: float | None = None
    label: str = ""
    clip: tuple[float, float, float, float] | None = None      # boards: the page's window
    trim: tuple[float, float, float, float] | None = None      # print-shop pages: the TrimBox
    number: int = 0                                            # the sheet of paper (front and back share it)
    groups: tuple[str, ...] = ()                               # group ids on this page
    label_at: tuple[float, float] | None = None                # the label's baseline start
    shift: tuple[float, float] = (0.0, 0.0)                    # all drawn moved by this: a printer's back offset
    crops: list[tuple[float, float, float, float]] = field(default_factory=list)   # boards: solid crop marks
    tags: list["Tag"] = field(default_factory=list)            # tiled pieces: the label on the piece


@dataclass(frozen=True)
class Tag:
    """A label printed on a piece where it is covered or cut off when the board is assembled:
    its baseline starts at (x, y) and runs across (turn 0) or up the page (turn -90), on a white
    ground."""
    text: str
    x: float
    y: float
    turn: int = 0


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


# --- packing runs onto sheets ------------------------------------------------------------------

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


@dataclass
class _Page:
    area: tuple[float, float, float, float]      # x, y, w, h the faces may use
    free: list[tuple[float, float, float, float]]
    blocks: list[_Block] = field(default_factory=list)

    @property
    def two_sided(self) -> bool:
        return any(block.run.backs is not None for block in self.blocks)


def _fit(run: Run, rect, n: int, marks: str, shared: bool, empty_sheet: bool = False) -> _Block | None:
    """The best layout of up to n faces of the run in the rectangle: the most faces, then with
    crop marks, then the smallest footprint (more room left for other faces), then unturned, then
    roomier marks. On an empty sheet a rectangle may do without room for crop marks, its cut
    outline drawn instead, when that puts more on the sheet (two boards where one fits with marks)."""
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


def _taken(footprints) -> list[tuple[float, float, float, float]]:
    """A block's footprint as rectangles (x0, y0, x1, y1): its full rows, and its last row."""
    last_top = max(f[1] for f in footprints)
    last = [f for f in footprints if f[1] >= last_top - EPS]
    full = [f for f in footprints if f[1] < last_top - EPS]
    boxes = [last] + ([full] if full else [])
    return [(min(f[0] for f in b), min(f[1] for f in b), max(f[2] for f in b), max(f[3] for f in b)) for b in boxes]


def _free_after(free, taken) -> list[tuple[float, float, float, float]]:
    """Maximal free rectangles (x, y, w, h, which may overlap) once the taken boxes are used:
    each free rectangle a taken box cuts into is replaced by the parts of it left, right, above
    and below the box; rectangles inside another are dropped."""
    for x0, y0, x1, y1 in taken:
        out = []
        for fx, fy, fw, fh in free:
            if x0 >= fx + fw - EPS or x1 <= fx + EPS or y0 >= fy + fh - EPS or y1 <= fy + EPS:
                out.append((fx, fy, fw, fh))
                continue
            out += [r for r in ((fx, fy, x0 - fx, fh), (x1, fy, fx + fw - x1, fh),
                                (fx, fy, fw, y0 - fy), (fx, y1, fw, fy + fh - y1)) if r[2] > 1.0 and r[3] > 1.0]
        free = out
    kept = []
    for i, r in enumerate(free):
        inside = any(j != i and o[0] <= r[0] + EPS and o[1] <= r[1] + EPS and r[0] + r[2] <= o[0] + o[2] + EPS
                     and r[1] + r[3] <= o[1] + o[3] + EPS and (o != r or j < i) for j, o in enumerate(free))
        if not inside:
            kept.append(r)
    return kept


def _page_areas(opts: Options) -> tuple[tuple, tuple]:
    """The rectangle faces may use on a sheet with backs and on a one-sided sheet: inside the
    printer margin, above the page guide; to fold and glue, the half left of the fold."""
    W, H, m = opts.page_width, opts.page_height, opts.margin
    full = (m, m, W - 2 * m, H - 2 * m - GUIDE_STRIP)
    if opts.duplex == "none":
        return (m, m, W / 2 - m - FOLD_CLEARANCE, H - 2 * m - GUIDE_STRIP), full
    return full, full


def _pack(runs: list[Run], opts: Options) -> list[_Page]:
    """First fit, largest faces first: each run fills the free rectangles of the pages made so
    far, then new pages. Two-sided runs come first, so one-sided faces fill what they leave."""
    two_area, one_area = _page_areas(opts)
    pages: list[_Page] = []
    order = sorted(_merge_alike(runs), key=lambda r: (r.backs is None, -(r.w * r.h), r.key))
    for run in order:
        if not run.fronts:
            continue
        area = two_area if run.backs is not None else one_area
        shared = _shared_cuts(run, area, opts)
        first, start, full_page = 0, 0, None
        whole = _room_for_all(run, pages, len(run.fronts), opts.marks, shared)
        if whole:      # a group that fits in one gap stays together there
            page, rect, block = whole
            _place(page, rect, block, run, 0)
            continue
        while first < len(run.fronts):
            n = len(run.fronts) - first
            placed = False
            for index in range(start, len(pages)):
                page = pages[index]
                choice = _best_rect(run, page, n, opts.marks, shared)
                if choice:
                    rect, block = choice
                    _place(page, rect, block, run, first)
                    first += len(block.boxes)
                    placed = True
                    break
                start = index + 1      # faces of one run are alike: a page that took none never will
            if placed:
                continue
            page = _Page(area, [area])
            if full_page is not None and n >= len(full_page.boxes):     # a long run: the same sheet again
                block = _Block(run, 0, full_page.boxes, full_page.bleeds, full_page.gutter, full_page.shared)
            else:
                block = _fit(run, area, n, opts.marks, shared, empty_sheet=True)
            if block is None:
                w, h = run.w + 2 * run.bleed, run.h + 2 * run.bleed
                raise FaceTooLarge(run.owners[first] if run.owners else run.key,
                                   f"a {run.w:.1f} x {run.h:.1f} mm face ({w:.1f} x {h:.1f} mm with its bleed"
                                   f"{' and crop marks' if run.rectangular and opts.marks != 'none' else ''}) "
                                   f"does not fit on {opts.paper} paper inside a {opts.margin:g} mm margin")
            if len(block.boxes) < n:
                full_page = block
            pages.append(page)
            _place(page, area, block, run, first)
            first += len(block.boxes)
    return pages


def _merge_alike(runs: list[Run]) -> list[Run]:
    """Groups of faces alike in size, shape, bleed, cuts and sidedness (five small decks of
    poker cards) are packed as one run, so they fill whole sheets together rather than each
    leaving its own part-filled block; on shared cuts only groups whose edges are one colour."""
    alike: dict[tuple, list[Run]] = {}
    for run in runs:
        key = (round(run.w, 3), round(run.h, 3), run.shape, run.orientation, run.bleed, run.cuts,
               run.backs is None, (run.edge, run.joins) if run.cuts == "shared" else "")
        alike.setdefault(key, []).append(run)
    merged = []
    for same in alike.values():
        if len(same) == 1:
            merged.append(same[0])
            continue
        first = same[0]
        merged.append(Run("+".join(r.key for r in same), first.name, [f for r in same for f in r.fronts],
                          None if first.backs is None else [b for r in same for b in r.backs],
                          first.w, first.h, first.shape, first.orientation, first.bleed, first.cuts,
                          tuple(r.key for r in same for _ in r.fronts), first.edge, first.joins))
    return merged


def _room_for_all(run: Run, pages: list[_Page], n: int, marks: str, shared: bool):
    """The first page with a free rectangle that takes all n faces, and the tightest such."""
    for page in pages:
        choice = _best_rect(run, page, n, marks, shared)
        if choice and len(choice[1].boxes) == n:
            return page, choice[0], choice[1]
    return None


def fits_on_a_sheet(run: Run, opts: Options) -> bool:
    """Does one face of the run fit on a sheet with its bleed (turned, if need be)?"""
    return _fit(run, _page_areas(opts)[1], 1, opts.marks, False, empty_sheet=True) is not None


def _shared_cuts(run: Run, area, opts: Options) -> bool:
    """Rectangles abut on shared cut lines when the group allows it and a sheet then holds more
    of them; otherwise each keeps its own bleed all round."""
    if run.shape not in ("rect", "square", "hexagon") or run.cuts != "shared" or run.bleed <= 0:
        return False
    counts = {}
    for shared in (True, False):
        block = _fit(run, area, 10 ** 6, opts.marks, shared, empty_sheet=True)
        counts[shared] = (len(block.boxes), sum(block.gutter) > 0) if block else (0, False)
    return counts[True] > counts[False]      # more faces; as many, but with crop marks


def _best_rect(run, page: _Page, n: int, marks: str, shared: bool):
    """The free rectangle of the page that takes the most faces (the tightest on a tie)."""
    best = None
    for rect in page.free:
        block = _fit(run, rect, n, marks, shared)
        if block and (best is None or (len(block.boxes), -rect[2] * rect[3]) >
                      (len(best[1].boxes), -best[0][2] * best[0][3])):
            best = (rect, block)
    return best


def _place(page: _Page, rect, block: _Block, run: Run, first: int) -> None:
    block.first = first
    page.free = _free_after(page.free, _taken(block.footprints()))
    page.blocks.append(block)


def _centre(page: _Page, opts: Options) -> list[_Block]:
    """The page's blocks moved together to the middle of its area; to fold and glue, against
    the fold."""
    fps = [f for block in page.blocks for f in block.footprints()]
    x0, y0, x1, y1 = min(f[0] for f in fps), min(f[1] for f in fps), max(f[2] for f in fps), max(f[3] for f in fps)
    ax, ay, aw, ah = page.area
    dy = ay + (ah - (y1 - y0)) / 2 - y0
    if opts.duplex == "none" and page.two_sided:
        dx = (opts.page_width / 2 - FOLD_CLEARANCE) - x1
    else:
        dx = ax + (aw - (x1 - x0)) / 2 - x0
    return [block.shifted(dx, dy) for block in page.blocks]


def impose_runs(runs: list[Run], opts: Options, title: str = "") -> list[Sheet]:
    """Runs of faces -> the pages of one duplex-safe document (see the module's docstring)."""
    pages = _pack(runs, opts)
    W, H = opts.page_width, opts.page_height
    fold = opts.duplex == "none"
    has_backs = any(page.two_sided for page in pages)
    sheets: list[Sheet] = []
    for number, page in enumerate(pages, 1):
        blocks = _centre(page, opts)
        two = page.two_sided
        side = ("fold" if fold else "front") if two else "one-sided"
        front = Sheet(W, H, side, [], number=number)
        back = Sheet(W, H, "back" if two else "blank", [], number=number)
        for block in blocks:
            placed = _placements(block)
            front.placements += placed
            _add_marks(front, placed, block, opts.marks)
            if block.run.backs is None:
                continue
            mirrored = [p.mirrored(W, H, "long" if fold else opts.duplex, block.run.backs[block.first + i])
                        for i, p in enumerate(placed)]
            target = front if fold else back
            target.placements += mirrored
            _add_marks(target, mirrored, block, opts.marks)
        if fold and two:
            front.fold_x = W / 2
        front.groups = _group_keys(b for b in blocks)
        back.groups = _group_keys(b for b in blocks if b.run.backs is not None)
        sheets.append(front)
        if has_backs and not fold:
            sheets.append(back)
    label_pages(sheets, runs, opts, title)
    return sheets


def _group_keys(blocks) -> tuple[str, ...]:
    keys: list[str] = []
    for block in blocks:
        run = block.run
        owners = run.owners[block.first:block.first + len(block.boxes)] if run.owners else (run.key,)
        for key in owners:
            if key not in keys:
                keys.append(key)
    return tuple(keys)


def _placements(block: _Block) -> list[Placement]:
    run = block.run
    out = []
    for i, ((x, y, w, h, rotation), bleed) in enumerate(zip(block.boxes, block.bleeds)):
        edges = block.edges[i] if block.edges else None
        path = block.paths[i] if block.paths else None
        out.append(Placement(x, y, w, h, bleed, run.fronts[block.first + i], not run.rectangular and not edges,
                             rotation, path, edges))
    return out


def impose(fronts: list, backs: list | None, w: float, h: float, shape: str, orientation: str,
           opts: Options) -> list[Sheet]:
    """Faces of one group -> sheets. `backs[i]` is the back of `fronts[i]` (None: one-sided)."""
    return impose_runs([Run("faces", "faces", fronts, backs, w, h, shape, orientation, opts.bleed, opts.cuts)], opts)


def impose_single(fronts: list, backs: list | None, w: float, h: float, bleed: float) -> list[Sheet]:
    """Print-shop layout: one face per page, the page exactly the face plus its bleed, each back
    on the page after its front; the trim box is recorded for the PDF's TrimBox."""
    sheets = []
    for i, front in enumerate(fronts):
        for side, face in (("front", front), ("back", backs[i] if backs else None)):
            if face is None:
                continue
            placement = Placement(bleed, bleed, w, h, (bleed,) * 4, face, False)
            sheets.append(Sheet(w + 2 * bleed, h + 2 * bleed, side if backs else "one-sided", [placement],
                                trim=(bleed, bleed, w, h), number=i + 1))
    return sheets


# --- marks ---------------------------------------------------------------------

def _add_marks(sheet: Sheet, placements: list[Placement], block: _Block, marks: str) -> None:
    if marks == "none" or not placements:
        return
    if not block.run.rectangular or not sum(block.gutter):
        sheet.outlines += placements          # cut along each outline
        return
    key = (marks, block.gutter, tuple((p.x, p.y, p.w, p.h, p.bleed) for p in placements))
    if key not in _MARKS:                     # the sheets of a long run are alike
        if len(_MARKS) > 256:
            _MARKS.clear()
        _MARKS[key] = _crop_marks(placements, block.gutter, marks)
    sheet.lines += _MARKS[key]


_MARKS: dict = {}


def _crop_marks(placements: list[Placement], gutter, marks: str) -> list[tuple]:
    lines = []
    gap, length = gutter
    for x in sorted({round(v, 4) for p in placements for v in (p.x, p.x + p.w)}):
        touching = [p for p in placements if abs(p.x - x) < 1e-3 or abs(p.x + p.w - x) < 1e-3]
        top = min(p.y - p.bleed[1] for p in touching)
        bottom = max(p.y + p.h + p.bleed[3] for p in touching)
        lines += _cut_mark(top, bottom, gap, length, marks, lambda a, b: (x, a, x, b))
    for y in sorted({round(v, 4) for p in placements for v in (p.y, p.y + p.h)}):
        touching = [p for p in placements if abs(p.y - y) < 1e-3 or abs(p.y + p.h - y) < 1e-3]
        left = min(p.x - p.bleed[0] for p in touching)
        right = max(p.x + p.w + p.bleed[2] for p in touching)
        lines += _cut_mark(left, right, gap, length, marks, lambda a, b: (a, y, b, y))
    return lines


def _cut_mark(start, end, gap, length, marks, line):
    """Crop marks: a short line beyond each end of the bleed, `gap` away from it; cut lines: one
    line through the whole run of faces and the room kept for marks."""
    if marks == "lines":
        return [line(start - gap - length, end + gap + length)]
    return [line(start - gap - length, start - gap), line(end + gap, end + gap + length)]
