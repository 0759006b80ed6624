"""Runs of faces + paper + options -> pages of blocks: which faces of which run go in which free
rectangle of which page, before impose.py turns the pages into sheets.

First fit, largest faces first, two-sided runs before one-sided ones; free space is kept as
maximal free rectangles. A new page is begun only when no free rectangle of any page so far takes
one more face of the run, and later (smaller) runs fill the earlier pages first: so a sparse last
page holds only faces that no room left elsewhere takes (tests/test_sparse_pages.py holds it).

Rectangles keep room round their block for crop marks, except on an empty sheet where doing
without puts more on it. A document is packed a second time letting every block do without where
that fits more faces in its rectangle (their marks are then ticks: impose._ticks), and that
packing is kept only when it needs fewer pages (Cones of Dunshire on Letter: 46 -> 45 sheets).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .layouts import EPS, FOLD_CLEARANCE, FaceTooLarge, Options, Run, _Block, _fit
from .pageguide import GUIDE_STRIP


@dataclass
class _Page:
    area: tuple[float, float, float, float]      # x, y, w, h the faces may use
    free: list[tuple[float, float, float, float]]
    blocks: list[_Block] = field(default_factory=list)

    @property
    def two_sided(self) -> bool:
        return any(block.run.backs is not None for block in self.blocks)


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
    """The pages of the runs (see the module's docstring): marks given room wherever it costs no
    page, else only where it does."""
    pages = _first_fit(runs, opts, unmarked=False)
    if opts.marks not in ("crop", "lines") or not any(run.rectangular for run in runs):
        return pages
    tighter = _first_fit(runs, opts, unmarked=True)
    return tighter if len(tighter) < len(pages) else pages


def _first_fit(runs: list[Run], opts: Options, unmarked: bool) -> list[_Page]:
    """First fit, largest faces first: each run fills the free rectangles of the pages made so
    far, then new pages. Two-sided runs come first, so one-sided faces fill what they leave.
    `unmarked`: rectangles may do without room for marks in any free rectangle, not only on an
    empty sheet, where that fits more."""
    two_area, one_area = _page_areas(opts)
    pages: list[_Page] = []
    order = sorted(_merge_alike(runs), key=lambda r: (r.backs is None, -(r.w * r.h), r.key))
    for run in order:
        if not run.fronts:
            continue
        area = two_area if run.backs is not None else one_area
        shared = _shared_cuts(run, area, opts)
        first, start, full_page = 0, 0, None
        whole = _room_for_all(run, pages, len(run.fronts), opts.marks, shared, unmarked)
        if whole:      # a group that fits in one gap stays together there
            page, rect, block = whole
            _place(page, rect, block, run, 0)
            continue
        while first < len(run.fronts):
            n = len(run.fronts) - first
            placed = False
            for index in range(start, len(pages)):
                page = pages[index]
                choice = _best_rect(run, page, n, opts.marks, shared, unmarked)
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
               run.backs is None, (run.edge, run.joins) if run.cuts == "shared" else "", run.why)
        alike.setdefault(key, []).append(run)
    merged = []
    for same in alike.values():
        if len(same) == 1:
            merged.append(same[0])
            continue
        first = same[0]
        merged.append(Run("+".join(r.key for r in same), first.name, _joined([r.fronts for r in same]),
                          None if first.backs is None else _joined([r.backs for r in same]),
                          first.w, first.h, first.shape, first.orientation, first.bleed, first.cuts,
                          tuple(r.key for r in same for _ in range(len(r.fronts))), first.edge, first.joins, first.why))
    return merged


def _joined(sides: list):
    """Runs' faces one after the other: made when asked for where each run's are (render.Copies)."""
    if all(hasattr(faces, "joined") for faces in sides):
        return type(sides[0]).joined(sides)
    return [face for faces in sides for face in faces]


def _room_for_all(run: Run, pages: list[_Page], n: int, marks: str, shared: bool, unmarked: bool = False):
    """The first page with a free rectangle that takes all n faces, and the tightest such."""
    for page in pages:
        choice = _best_rect(run, page, n, marks, shared, unmarked)
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


def cut_note(run: Run, shared: bool) -> str:
    """What was done with the run's cut lines, and why, as build.json reports it: `shared` is
    what packing decided (_shared_cuts), the run's `why` what the faces' edges decided."""
    if shared:
        across, down = run.joins
        if run.shape == "hexagon" or (across and down):
            return "shared"
        done = "shared side by side, separate one above the other" if across else \
            "shared one above the other, separate side by side"
        return f"{done}: {run.why}" if run.why else done
    if run.cuts == "separate":
        return f"separate: {run.why}" if run.why else "separate, as asked"
    if run.shape not in ("rect", "square", "hexagon"):
        return "separate: only rectangles and hexagons share cut lines"
    if run.bleed <= 0:
        return "separate: without bleed there is no cut line to share"
    return "separate: shared cut lines would fit no more faces on a sheet"


def _best_rect(run, page: _Page, n: int, marks: str, shared: bool, unmarked: bool = False):
    """The free rectangle of the page that takes the most faces (the tightest on a tie);
    `unmarked`: rectangles may do without room for crop marks there (layouts._fit)."""
    best = None
    short, long = sorted((run.w + 2 * run.bleed, run.h + 2 * run.bleed))
    for rect in page.free:
        if min(rect[2], rect[3]) < short - EPS or max(rect[2], rect[3]) < long - EPS:
            continue          # too small for one face with its bleed: no need to lay it out
        block = _fit(run, rect, n, marks, shared, empty_sheet=unmarked)
        if block and (best is None or (len(block.boxes), -rect[2] * rect[3]) >
                      (len(best[1].boxes), -best[0][2] * best[0][3])):
            best = (rect, block)
    return best


def _place(page: _Page, rect, block: _Block, run: Run, first: int) -> None:
    block.first = first
    page.free = _free_left(page.free, block.footprints())
    page.blocks.append(block)


_FREE_LEFT: dict = {}


def _free_left(free, footprints) -> list[tuple[float, float, float, float]]:
    """_free_after(free, _taken(footprints)), worked out once for the pages that are packed alike
    (each full page of a long run: 2 x 1,112 at 10,000 cards); the cache emptied past 256."""
    key = (tuple(free), tuple(footprints))
    left = _FREE_LEFT.get(key)
    if left is None:
        if len(_FREE_LEFT) > 256:
            _FREE_LEFT.clear()
        left = _FREE_LEFT[key] = tuple(_free_after(free, _taken(footprints)))
    return list(left)
