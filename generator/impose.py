"""Face sizes + paper + options -> sheets: where each face, mark and fold line goes on each page.

Pure geometry in millimetres (origin at the page's top-left, y down); nothing here draws.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

MARK_LENGTH = 4.0      # crop mark length, mm
MARK_OFFSET = 1.0      # gap between the bleed edge and a crop mark
FOLD_CLEARANCE = 5.0   # fold line to the nearest bleed, fold-and-glue
TILE_LABEL_STRIP = 6.0  # reserved under a board piece for its label


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


@dataclass(frozen=True)
class Placement:
    """One face on a page: trim box at (x, y) size (w, h), bleed per side (left, top, right, bottom)."""
    x: float
    y: float
    w: float
    h: float
    bleed: tuple[float, float, float, float]
    face: object = None
    clip_to_shape: bool = True   # False: clip to the bleed rectangle (rectangles on shared cuts)

    def mirrored(self, page_w: float, page_h: float, duplex: str, face=None) -> "Placement":
        """Where this face's back lands: mirrored left-right (long edge) or top-bottom (short)."""
        l, t, r, b = self.bleed
        if duplex == "short":
            return Placement(self.x, page_h - self.y - self.h, self.w, self.h, (l, b, r, t), face, self.clip_to_shape)
        return Placement(page_w - self.x - self.w, self.y, self.w, self.h, (r, t, l, b), face, self.clip_to_shape)


@dataclass
class Sheet:
    width: float
    height: float
    side: str                          # 'front' | 'back' | 'fold' | 'board'
    placements: list[Placement]
    lines: list[tuple[float, float, float, float]] = field(default_factory=list)   # marks
    outlines: list[Placement] = field(default_factory=list)   # faces whose outline is a cut line
    fold_x: float | None = None
    label: str = ""
    clip: tuple[float, float, float, float] | None = None      # boards: the page's window
    trim: tuple[float, float, float, float] | None = None      # print-shop pages: the TrimBox


@dataclass(frozen=True)
class Slots:
    positions: list[tuple[float, float]]      # trim top-left of each slot
    bleed: list[tuple[float, float, float, float]]
    shared_cuts: bool


def grid_slots(area_w, area_h, w, h, bleed) -> Slots:
    """Most rectangles in the area: each with its own bleed, or abutting on shared cut lines with
    bleed only round the block (more faces when the bleed is what stops one more column or row)."""
    cols_a, rows_a = int(area_w // (w + 2 * bleed)), int(area_h // (h + 2 * bleed))
    cols_b, rows_b = int(area_w // w), int(area_h // h)
    if bleed > 0 and cols_b * rows_b > cols_a * rows_a:
        out_x = min(bleed, (area_w - cols_b * w) / 2)
        out_y = min(bleed, (area_h - rows_b * h) / 2)
        positions, bleeds = [], []
        for row in range(rows_b):
            for col in range(cols_b):
                positions.append((out_x + col * w, out_y + row * h))
                bleeds.append((out_x if col == 0 else 0.0, out_y if row == 0 else 0.0,
                               out_x if col == cols_b - 1 else 0.0, out_y if row == rows_b - 1 else 0.0))
        return Slots(positions, bleeds, True)
    positions = [(bleed + col * (w + 2 * bleed), bleed + row * (h + 2 * bleed))
                 for row in range(rows_a) for col in range(cols_a)]
    return Slots(positions, [(bleed,) * 4] * len(positions), False)


def honeycomb_slots(area_w, area_h, w, h, bleed, shape, orientation) -> Slots:
    """Hexagons and circles in offset rows (columns for flat hexagons), bleed outlines touching;
    a plain grid when that holds more."""
    transpose = shape == "hexagon" and orientation == "flat"
    if transpose:
        area_w, area_h, w, h = area_h, area_w, h, w
    bw, bh = w + 2 * bleed, (h + 4 * bleed / math.sqrt(3)) if shape == "hexagon" else h + 2 * bleed
    row_pitch = 0.75 * bh if shape == "hexagon" else bw * math.sqrt(3) / 2
    best = None
    for offset in (True, False):
        pitch_y = row_pitch if offset else bh
        rows = int((area_h - bh) // pitch_y) + 1 if area_h >= bh else 0
        positions = []
        for row in range(rows):
            shift = bw / 2 if offset and row % 2 else 0.0
            cols = int((area_w - shift) // bw)
            positions += [((bw - w) / 2 + shift + col * bw, (bh - h) / 2 + row * pitch_y) for col in range(cols)]
        if best is None or len(positions) > len(best):
            best = positions
    if transpose:
        best = sorted(((y, x) for x, y in best), key=lambda p: (round(p[1], 6), p[0]))
    return Slots(best, [(bleed,) * 4] * len(best), False)


def _centred(slots: Slots, area_x, area_y, area_w, area_h, w, h) -> list[tuple[float, float, tuple]]:
    if not slots.positions:
        return []
    left = min(x - b[0] for (x, _), b in zip(slots.positions, slots.bleed))
    top = min(y - b[1] for (_, y), b in zip(slots.positions, slots.bleed))
    right = max(x + w + b[2] for (x, _), b in zip(slots.positions, slots.bleed))
    bottom = max(y + h + b[3] for (_, y), b in zip(slots.positions, slots.bleed))
    dx = area_x + (area_w - (right - left)) / 2 - left
    dy = area_y + (area_h - (bottom - top)) / 2 - top
    return [(x + dx, y + dy, b) for (x, y), b in zip(slots.positions, slots.bleed)]


def impose(fronts: list, backs: list | None, w: float, h: float, shape: str, orientation: str,
           opts: Options) -> list[Sheet]:
    """Faces of one group -> sheets. `backs[i]` is the back of `fronts[i]` (None: one-sided)."""
    W, H, m = opts.page_width, opts.page_height, opts.margin
    fold = backs is not None and opts.duplex == "none"
    area_w = (W / 2 - m - FOLD_CLEARANCE) if fold else W - 2 * m
    area_h = H - 2 * m
    maker = grid_slots if shape in ("rect", "square", "polygon") else None
    slots = (grid_slots(area_w, area_h, w, h, opts.bleed) if maker else
             honeycomb_slots(area_w, area_h, w, h, opts.bleed, shape, orientation))
    if not slots.positions:
        raise ValueError(f"a {w:.1f} x {h:.1f} mm face with {opts.bleed:g} mm bleed does not fit on "
                         f"{opts.paper} paper inside a {m:g} mm margin")
    if fold:   # the block sits against the fold, backs mirror across it
        placed = _centred(slots, m, m, area_w, area_h, w, h)
        right = max(x + w + b[2] for x, _, b in placed)
        shift = (W / 2 - FOLD_CLEARANCE) - right
        placed = [(x + shift, y, b) for x, y, b in placed]
    else:
        placed = _centred(slots, m, m, area_w, area_h, w, h)
    per_page = len(placed)
    sheets = []
    for start in range(0, len(fronts), per_page):
        chunk = list(range(start, min(start + per_page, len(fronts))))
        front = [Placement(x, y, w, h, b, fronts[i], not slots.shared_cuts)
                 for i, (x, y, b) in zip(chunk, placed)]
        sheet = Sheet(W, H, "fold" if fold else "front", front)
        _add_marks(sheet, front, shape, opts, slots.shared_cuts)
        if backs is None:
            sheets.append(sheet)
            continue
        mirrored = [p.mirrored(W, H, "long" if fold else opts.duplex, backs[i]) for i, p in zip(chunk, front)]
        if fold:
            sheet.placements = front + mirrored
            sheet.fold_x = W / 2
            _add_marks(sheet, mirrored, shape, opts, slots.shared_cuts)
            sheets.append(sheet)
        else:
            back = Sheet(W, H, "back", mirrored)
            _add_marks(back, mirrored, shape, opts, slots.shared_cuts)
            sheets += [sheet, back]
    return sheets


def impose_single(fronts: list, backs: list | None, w: float, h: float, bleed: float) -> list[Sheet]:
    """Print-shop layout: one face per page, the page exactly the face plus its bleed, each back
    on the page after its front; the trim box is recorded for the PDF's TrimBox."""
    sheets = []
    for i, front in enumerate(fronts):
        for side, face in (("front", front), ("back", backs[i] if backs else None)):
            if face is None:
                continue
            placement = Placement(bleed, bleed, w, h, (bleed,) * 4, face)
            sheets.append(Sheet(w + 2 * bleed, h + 2 * bleed, side, [placement], trim=(bleed, bleed, w, h)))
    return sheets


def _add_marks(sheet: Sheet, placements: list[Placement], shape: str, opts: Options, shared: bool) -> None:
    if opts.marks == "none" or not placements:
        return
    if shape not in ("rect", "square"):
        sheet.outlines += placements          # cut along each outline
        return
    xs = sorted({round(v, 4) for p in placements for v in (p.x, p.x + p.w)})
    ys = sorted({round(v, 4) for p in placements for v in (p.y, p.y + p.h)})
    left = min(p.x - p.bleed[0] for p in placements)
    right = max(p.x + p.w + p.bleed[2] for p in placements)
    top = min(p.y - p.bleed[1] for p in placements)
    bottom = max(p.y + p.h + p.bleed[3] for p in placements)
    m, W, H = opts.margin, sheet.width, sheet.height
    if opts.marks == "lines":
        x0 = m if sheet.fold_x is None else min(p.x - p.bleed[0] for p in placements)
        x1 = W - m if sheet.fold_x is None else max(p.x + p.w + p.bleed[2] for p in placements)
        sheet.lines += [(x, m, x, H - m) for x in xs] + [(x0, y, x1, y) for y in ys]
        return
    trim_top, trim_bottom = min(p.y for p in placements), max(p.y + p.h for p in placements)
    trim_left, trim_right = min(p.x for p in placements), max(p.x + p.w for p in placements)
    for x in xs:
        a, b = _mark_span(top, trim_top, m, -1)
        sheet.lines.append((x, a, x, b))
        a, b = _mark_span(bottom, trim_bottom, H - m, 1)
        sheet.lines.append((x, a, x, b))
    for y in ys:
        a, b = _mark_span(left, trim_left, m, -1)
        sheet.lines.append((a, y, b, y))
        a, b = _mark_span(right, trim_right, W - m, 1)
        sheet.lines.append((a, y, b, y))


def _mark_span(bleed_edge, trim_edge, limit, direction):
    """A crop mark's two ends along its axis: outside the bleed when there is room before the
    printer margin, else from just outside the trim line across the bleed (cut away anyway)."""
    room = (limit - bleed_edge) * direction
    if room >= MARK_OFFSET + 1.5:
        start = bleed_edge + direction * MARK_OFFSET
        end = bleed_edge + direction * min(room, MARK_OFFSET + MARK_LENGTH)
    else:
        start = trim_edge + direction * 0.75
        end = trim_edge + direction * max(0.75 + 1.0, min((limit - trim_edge) * direction, MARK_LENGTH))
    return start, end


# --- boards larger than the paper --------------------------------------------------------------

@dataclass(frozen=True)
class Piece:
    row: int
    col: int
    x: float          # region of the board (mm, board coordinates incl. bleed at -bleed)
    y: float
    w: float
    h: float


def tile_pieces(board_w, board_h, bleed, area_w, area_h, overlap) -> list[Piece]:
    """Cut a board (plus bleed) into page-sized pieces that overlap their neighbours by `overlap`."""
    total_w, total_h = board_w + 2 * bleed, board_h + 2 * bleed
    cols = 1 if total_w <= area_w else math.ceil((total_w - overlap) / (area_w - overlap))
    rows = 1 if total_h <= area_h else math.ceil((total_h - overlap) / (area_h - overlap))
    # spread the pieces evenly rather than leaving a sliver at the end
    piece_w = total_w if cols == 1 else (total_w + (cols - 1) * overlap) / cols
    piece_h = total_h if rows == 1 else (total_h + (rows - 1) * overlap) / rows
    return [Piece(r, c, -bleed + c * (piece_w - overlap), -bleed + r * (piece_h - overlap), piece_w, piece_h)
            for r in range(rows) for c in range(cols)]


def impose_board(face, board_w, board_h, title: str, opts: Options, outline=None) -> list[Sheet]:
    """A board cut into page-sized pieces. `outline` (corner points, for boards that are not
    rectangles, such as an L-shaped ocean tile): the art is clipped to it, its cut line drawn,
    and pieces of the bounding box that hold none of it are left out."""
    W, H, m = opts.page_width, opts.page_height, opts.margin
    area_w, area_h = W - 2 * m, H - 2 * m - TILE_LABEL_STRIP
    pieces = tile_pieces(board_w, board_h, opts.bleed, area_w, area_h, opts.overlap)
    rows, cols = pieces[-1].row + 1, pieces[-1].col + 1
    if outline:
        pieces = [p for p in pieces if _touches(p, outline)]
    sheets = []
    for piece in pieces:
        # page position of the piece's top-left, centred in the area
        px = m + (area_w - piece.w) / 2
        py = m + (area_h - piece.h) / 2
        placement = Placement(px - piece.x, py - piece.y, board_w, board_h, (opts.bleed,) * 4, face,
                              clip_to_shape=bool(outline))
        label = (f"{title} - row {piece.row + 1} of {rows}, column {piece.col + 1} of {cols} "
                 f"(piece {chr(65 + piece.row)}{piece.col + 1}); overlap {opts.overlap:g} mm"
                 if len(pieces) > 1 else title)
        sheet = Sheet(W, H, "board", [placement], label=label, clip=(px, py, piece.w, piece.h))
        sheet.lines += _piece_marks(piece, px, py, rows, cols, opts)
        if outline and opts.marks != "none":
            sheet.outlines.append(placement)
        sheets.append(sheet)
    return sheets


def _touches(piece: Piece, polygon, samples: int = 24) -> bool:
    """Does any of the polygon lie in the piece? Sampled on a grid: pieces are page-sized and
    polygons are boards, so a part smaller than 1/24 of a page is not a piece worth printing."""
    for i in range(samples + 1):
        for j in range(samples + 1):
            if _inside(piece.x + piece.w * i / samples, piece.y + piece.h * j / samples, polygon):
                return True
    return False


def _inside(x, y, polygon) -> bool:
    """Even-odd point in polygon."""
    inside = False
    for (x0, y0), (x1, y1) in zip(polygon, list(polygon[1:]) + [polygon[0]]):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def _piece_marks(piece: Piece, px, py, rows, cols, opts: Options):
    """Alignment lines where each neighbour's edge lands, so pieces are glued square."""
    lines, o = [], opts.overlap
    if piece.col < cols - 1:
        x = px + piece.w - o
        lines.append((x, py, x, py + piece.h))
    if piece.row < rows - 1:
        y = py + piece.h - o
        lines.append((px, y, px + piece.w, y))
    if piece.col > 0:
        x = px + o
        lines.append((x, py, x, py + piece.h))
    if piece.row > 0:
        y = py + o
        lines.append((px, y, px + piece.w, y))
    return lines
