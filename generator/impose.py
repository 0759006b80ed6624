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
inside the printable area, and crop marks stay outside all bleed, except where rectangles fill the
paper so that no room is left for them: then each is a short tick ending where the room ends,
reaching into the face's own bleed (cut off with it) but never onto the trim.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from .layouts import (EPS, FOLD_CLEARANCE, MARK_GUTTERS, SQRT3, FaceTooLarge, Options, Run,  # noqa: F401 (API)
                      _Block, hex_bleed_outline, honeycomb_slots)
from .packing import _Page, _pack, cut_note, fits_on_a_sheet  # noqa: F401 (fits_on_a_sheet: API)
from .pageguide import GUIDE_SIZE, GUIDE_STRIP, label_sheet     # noqa: F401 (GUIDE_SIZE: read from here too)

TILE_LABEL_STRIP = 6.0   # reserved under a board piece for its label


# 100,000 of them at 50,000 cards, made anew each time a sheet is asked for. Not frozen: a frozen
# dataclass's __init__ sets each field through object.__setattr__, 4.9 us a placement against
# 0.9 us (0.08 s of a 10,000-card build); hashable all the same, and nothing assigns to one.
@dataclass(slots=True, unsafe_hash=True)
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
        short = duplex == "short"
        path = edges = None     # (a hexagon's on shared cuts: its outline and sides flipped alike)
        if self.clip_path:
            path = tuple((x, page_h - y) if short else (page_w - x, y) for x, y in self.clip_path)
        if self.edges:
            edges = tuple((-a % 360 if short else (180 - a) % 360, g) for a, g in self.edges)
        if short:
            return Placement(self.x, page_h - self.y - self.h, self.w, self.h, (l, b, r, t), face,
                             self.clip_to_shape, turn, path, edges)
        return Placement(page_w - self.x - self.w, self.y, self.w, self.h, (r, t, l, b), face,
                         self.clip_to_shape, turn, path, edges)


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
    ticks: list[tuple[float, float, float, float]] = field(default_factory=list)   # crop marks partly on a bleed
    tags: list["Tag"] = field(default_factory=list)            # tiled pieces: the label on the piece
    cuts: tuple[tuple[str, str], ...] = ()                     # (group id, packing.cut_note) of its faces


@dataclass(frozen=True)
class Tag:
    """A label printed on a piece where it is covered or cut off when the board is assembled:
    its baseline starts at (x, y) and runs across (turn 0) or up the page (turn -90), on a white
    ground."""
    text: str
    x: float
    y: float
    turn: int = 0


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


def impose_runs(runs: list[Run], opts: Options, title: str = "") -> "Imposed":
    """Runs of faces -> the pages of one duplex-safe document (see the module's docstring), each
    sheet made when it is asked for (Imposed)."""
    pages = _pack(runs, opts)
    for page in pages:
        page.free = []          # packing's free rectangles: a few per page, of no use once packed
    return Imposed(_Plan(pages, opts, {run.key: run.name or run.key for run in runs}, title))


@dataclass(frozen=True, slots=True)    # one per page: 11,000 at 50,000 cards
class SheetInfo:
    """What build.json and the page count need of a sheet, known without placing its faces."""
    number: int
    side: str
    groups: tuple[str, ...]
    cuts: tuple[tuple[str, str], ...] = ()
    trim: None = None                 # (print-shop pages, which alone have one, are a list of Sheets)


class _Plan:
    """The packed pages of one document and what makes their sheets: a front (or fold, or
    one-sided) sheet per page, and after it its back (or blank back) when the document has backs
    and is not folded."""

    def __init__(self, pages: list[_Page], opts: Options, names: dict[str, str], title: str):
        self.pages, self.opts, self.names, self.title = pages, opts, names, title
        self.fold = opts.duplex == "none"
        self.per_page = 2 if any(page.two_sided for page in pages) and not self.fold else 1
        self._made: tuple = (None, None)       # (page index, its sheets): a back is asked for after its front

    def sheet(self, index: int) -> Sheet:
        at, part = divmod(index, self.per_page)
        if self._made[0] != at:
            self._made = (at, self._sheets(at))
        return self._made[1][part]

    def info(self, index: int) -> SheetInfo:
        at, part = divmod(index, self.per_page)
        page, number = self.pages[at], at + 1
        blocks = page.blocks
        if part:
            return SheetInfo(number, "back" if page.two_sided else "blank",
                             _group_keys(b for b in blocks if b.run.backs is not None))
        side = ("fold" if self.fold else "front") if page.two_sided else "one-sided"
        cuts = tuple(dict.fromkeys((key, cut_note(b.run, b.shared)) for b in blocks for key in _group_keys([b])))
        return SheetInfo(number, side, _group_keys(blocks), cuts)

    def faces(self, index: int):
        """(face, its widest bleed) of each face the sheet shows, in the order its placements
        list them, without placing them."""
        at, part = divmod(index, self.per_page)
        for block in self.pages[at].blocks:
            run, first = block.run, block.first
            sides = ((run.fronts,) if part == 0 else ()) + \
                ((run.backs,) if run.backs is not None and (part == 1 or self.fold) else ())
            for faces in sides:
                for i, bleed in enumerate(block.bleeds):
                    yield faces[first + i], max(bleed)

    def _sheets(self, at: int) -> tuple[Sheet, ...]:
        """The sheets of page `at` (see the module's docstring), labelled."""
        page, opts, number, fold = self.pages[at], self.opts, at + 1, self.fold
        W, H = opts.page_width, opts.page_height
        blocks = _centre(page, opts)
        two = page.two_sided
        side = ("fold" if fold else "front") if two else "one-sided"
        front = Sheet(W, H, side, [], number=number)
        back = Sheet(W, H, "back" if two else "blank", [], number=number)
        taken = [box for block in blocks for box in block.footprints()]
        for block in blocks:
            placed = _placements(block)
            front.placements += placed
            ticks = _add_marks(front, placed, block, opts.marks, (page.area, taken))
            if block.run.backs is None:
                continue
            flip = "long" if fold else opts.duplex
            mirrored = [p.mirrored(W, H, flip, block.run.backs[block.first + i]) for i, p in enumerate(placed)]
            target = front if fold else back
            target.placements += mirrored
            if ticks is None:
                _add_marks(target, mirrored, block, opts.marks)
                continue
            target.lines += _mirrored_lines(ticks[0], W, H, flip)   # the room round the backs
            target.ticks += _mirrored_lines(ticks[1], W, H, flip)   # is the fronts', mirrored
        if fold and two:
            front.fold_x = W / 2
        info = self.info(at * self.per_page)
        front.groups, front.cuts = info.groups, info.cuts
        if self.per_page == 2:
            back.groups = self.info(at * 2 + 1).groups
        sheets = (front, back)[:self.per_page]
        for sheet in sheets:
            label_sheet(sheet, self.names, opts, self.title)
        return sheets


class Imposed(Sequence):
    """The sheets of one document (impose_runs), each made from the packed pages when it is
    asked for and dropped when its caller is done with it: 50,000 cards are 11,000 sheets and
    100,000 placements, which no process holds at once. A slice is a view of the same plan (a
    drawing worker's share, made in the worker); `shift` moves the pages of `sides` (printer.py)."""

    def __init__(self, plan: _Plan, indices: range | None = None, shift: tuple | None = None, sides: tuple = ()):
        self.plan, self.shift, self.sides = plan, shift, sides
        self.indices = range(len(plan.pages) * plan.per_page) if indices is None else indices

    def __len__(self) -> int:
        return len(self.indices)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return Imposed(self.plan, self.indices[index], self.shift, self.sides)
        sheet = self.plan.sheet(self.indices[index])
        return replace(sheet, shift=self.shift) if sheet.side in self.sides else sheet

    def shifted_backs(self, offset: tuple[float, float], sides: tuple[str, ...]) -> "Imposed":
        """The same sheets, those of these sides moved by `offset` as each is made."""
        return Imposed(self.plan, self.indices, offset, sides)

    def infos(self) -> list[SheetInfo]:
        """Each sheet's SheetInfo, its faces left unplaced."""
        return [self.plan.info(i) for i in self.indices]

    def faces(self):
        """(face, its widest bleed) of every face on the sheets, in the order they are drawn."""
        for i in self.indices:
            yield from self.plan.faces(i)


def sheet_infos(sheets) -> list:
    """What build.json and the page count read of each sheet (number, side, groups, cuts, trim):
    Imposed's SheetInfo, made without placing faces; any other list's sheets themselves."""
    return sheets.infos() if isinstance(sheets, Imposed) else sheets


def placed_faces(sheets):
    """(face, its widest bleed) of every face on the sheets; Imposed's without placing them."""
    if isinstance(sheets, Imposed):
        return sheets.faces()
    return ((p.face, max(p.bleed)) for sheet in sheets for p in sheet.placements)


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

def _add_marks(sheet: Sheet, placements: list[Placement], block: _Block, marks: str, room=None):
    """The block's crop marks (or cut lines, or outlines) onto the sheet. Rectangles laid with no
    room kept for marks get them where `room` (the page's area, every footprint on it) allows, in
    part as ticks (_ticks): those (marks, ticks) are returned, for the backs to mirror."""
    if marks == "none" or not placements:
        return None
    if block.run.rectangular and not sum(block.gutter) and room is not None:
        ticks = _ticks_alike(placements, *room)
        if ticks is not None:
            sheet.lines += ticks[0]
            sheet.ticks += ticks[1]
            return ticks
    if not block.run.rectangular or not sum(block.gutter):
        sheet.outlines += placements          # cut along each outline
        return None
    key = (marks, block.gutter, tuple((p.x, p.y, p.w, p.h, p.bleed) for p in placements))
    # the sheets of a long run are alike
    sheet.lines += _remembered(_MARKS, key, lambda: _crop_marks(placements, block.gutter, marks))
    return None


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


TICK_CLEAR = 1.0     # a tick stops this far short of the trim: a cut 1 mm wide of it leaves none on the face
TICK_LENGTH = 3.0    # ... and is this long where the room allows
TICK_SHORTEST = 1.5  # shorter than this it would not be seen: the outline is drawn instead


_TICKS: dict = {}
_MIRRORED: dict = {}


def _ticks_alike(placements: list[Placement], area, taken) -> tuple[list, list] | None:
    """_ticks, worked out once for the sheets of a long run that lie alike: they then share one
    set of line tuples (50,000 cards: 11,000 sheets' own copies were ~80 MB)."""
    key = (area, tuple(taken), tuple((p.x, p.y, p.w, p.h, p.bleed) for p in placements))
    return _remembered(_TICKS, key, lambda: _ticks(placements, area, taken))


def _mirrored_lines(lines: list, page_w: float, page_h: float, duplex: str) -> tuple:
    """The lines mirrored for the backs, shared by the backs that lie alike (as _ticks_alike)."""
    key = (tuple(lines), page_w, page_h, duplex)
    return _remembered(_MIRRORED, key, lambda: tuple(_mirrored_line(line, page_w, page_h, duplex) for line in lines))


def _remembered(cache: dict, key, make):
    """cache[key], made once; the cache emptied when it passes 256 layouts (a build has a few)."""
    if key not in cache:
        if len(cache) > 256:
            cache.clear()
        cache[key] = make()
    return cache[key]


def _ticks(placements: list[Placement], area, taken) -> tuple[list, list] | None:
    """Crop marks for rectangles laid with no room kept for them (faces that fill the paper): at
    each end of each cut line, the sheets' mark where the paper beyond the bleed has room for it
    (MARK_GUTTERS, roomiest first); else a tick in the last TICK_LENGTH mm of the room there is,
    reaching into the face's own bleed but stopping TICK_CLEAR short of its trim. (marks on
    paper, ticks), or None when some end has no room even for a short tick."""
    marks, ticks = [], []
    ends = []
    for x in sorted({round(v, 4) for p in placements for v in (p.x, p.x + p.w)}):
        touching = [p for p in placements if abs(p.x - x) < 1e-3 or abs(p.x + p.w - x) < 1e-3]
        ends += [((x, min(p.y for p in touching)), min(p.y - p.bleed[1] for p in touching), (0, -1)),
                 ((x, max(p.y + p.h for p in touching)), max(p.y + p.h + p.bleed[3] for p in touching), (0, 1))]
    for y in sorted({round(v, 4) for p in placements for v in (p.y, p.y + p.h)}):
        touching = [p for p in placements if abs(p.y - y) < 1e-3 or abs(p.y + p.h - y) < 1e-3]
        ends += [((min(p.x for p in touching), y), min(p.x - p.bleed[0] for p in touching), (-1, 0)),
                 ((max(p.x + p.w for p in touching), y), max(p.x + p.w + p.bleed[2] for p in touching), (1, 0))]
    for trim, bleed_edge, step in ends:
        start = (bleed_edge, trim[1]) if step[0] else (trim[0], bleed_edge)
        free = _room_along(start, step, area, taken)
        gutter = next((g for g in MARK_GUTTERS if sum(g) <= free + EPS), None)
        along = trim[0] if step[0] else trim[1]          # the trim's coordinate along the step
        if gutter:
            gap, length = gutter
            marks.append(_line_along(trim, step, abs(bleed_edge - along) + gap, length))
            continue
        far = abs(bleed_edge - along) + free            # from the trim to where the room ends
        length = min(TICK_LENGTH, far - TICK_CLEAR)
        if length < TICK_SHORTEST - EPS:
            return None
        ticks.append(_line_along(trim, step, far - length, length))
    return marks, ticks


def _line_along(trim, step, start: float, length: float) -> tuple[float, float, float, float]:
    """A mark on the cut line through `trim`, from `start` mm beyond it in the direction `step`."""
    (x, y), (dx, dy) = trim, step
    return (x + dx * start, y + dy * start, x + dx * (start + length), y + dy * (start + length))


def _room_along(start, step, area, taken) -> float:
    """How far from `start` (a point on a face's bleed edge) the page is free in the direction
    `step`: to the edge of the page's area, or to the first footprint (x0, y0, x1, y1) in the way."""
    (x, y), (dx, dy) = start, step
    ax, ay, aw, ah = area
    room = {(1, 0): ax + aw - x, (-1, 0): x - ax, (0, 1): ay + ah - y, (0, -1): y - ay}[step]
    for x0, y0, x1, y1 in taken:
        if dx and y0 + EPS < y < y1 - EPS:
            beyond = x0 - x if dx > 0 else x - x1
        elif dy and x0 + EPS < x < x1 - EPS:
            beyond = y0 - y if dy > 0 else y - y1
        else:
            continue
        if beyond >= -EPS:
            room = min(room, beyond)
    return max(room, 0.0)


def _mirrored_line(line, page_w: float, page_h: float, duplex: str) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = line
    if duplex == "short":
        return x0, page_h - y0, x1, page_h - y1
    return page_w - x0, y0, page_w - x1, y1
