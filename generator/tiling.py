"""A board larger than the paper -> page-sized pieces to cut out and join; a board shaped of
rectangles (an L-shaped ocean) -> its rectangles, laid out like cards.

Pure geometry in millimetres, like impose.py (whose Sheet, Placement and Options it makes):
each piece's window on its page, its crop marks, alignment lines and its label (a Tag placed
where assembling the board hides it).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .impose import (EPS, MARK_GUTTERS, TICK_CLEAR, TICK_LENGTH, TICK_SHORTEST, TILE_LABEL_STRIP, Options, Placement,
                     Sheet, Tag)
from .pageguide import GUIDE_SIZE, _guide_metrics


# --- polygon boards in rectangular pieces ------------------------------------------------------

@dataclass(frozen=True)
class Part:
    """A rectangular piece (x, y, w, h in the face's own millimetres) of a face too large for the
    paper; it stands for the face everywhere else (`part.group`, `part.item`, ...)."""
    face: object
    x: float
    y: float
    w: float
    h: float
    full: tuple[float, float]        # the whole face's width and height
    number: int
    count: int

    @property
    def offset(self) -> tuple[float, float]:
        return self.x, self.y

    def __getattr__(self, name):
        return getattr(self.face, name)


def rectangles_of(points) -> list[tuple[float, float, float, float]] | None:
    """A polygon whose sides all run across or down (an L, a T, a U), as the fewest rectangles
    got by cutting along the lines through its corners, across or down; None for any other."""
    pts = [tuple(map(float, p)) for p in points]
    edges = list(zip(pts, pts[1:] + pts[:1]))
    if any(abs(a[0] - b[0]) > EPS and abs(a[1] - b[1]) > EPS for a, b in edges):
        return None
    across = _slabs(edges, 1)
    down = [(y, x, h, w) for x, y, w, h in _slabs([((a[1], a[0]), (b[1], b[0])) for a, b in edges], 1)]
    return min((across, down), key=len)


def _slabs(edges, axis) -> list[tuple[float, float, float, float]]:
    """Cut at every corner's y: each band's runs inside the polygon (even-odd on the upright
    sides), bands with the same run joined."""
    ys = sorted({round(p[axis], 6) for edge in edges for p in edge})
    rects: list[list[float]] = []
    for y0, y1 in zip(ys, ys[1:]):
        mid = (y0 + y1) / 2
        xs = sorted(a[0] for a, b in edges if abs(a[0] - b[0]) < EPS and min(a[1], b[1]) < mid < max(a[1], b[1]))
        for x0, x1 in zip(xs[0::2], xs[1::2]):
            same = next((r for r in rects if abs(r[0] - x0) < EPS and abs(r[2] - (x1 - x0)) < EPS
                         and abs(r[1] + r[3] - y0) < EPS), None)
            if same:
                same[3] = y1 - same[1]
            else:
                rects.append([x0, y0, x1 - x0, y1 - y0])
    return [tuple(r) for r in rects]


def parts_of(face, points, w: float, h: float) -> list[Part] | None:
    """The rectangular pieces of a polygon face, or None when it is not made of rectangles."""
    rects = rectangles_of(points)
    if not rects or len(rects) < 2:
        return None
    return [Part(face, x, y, rw, rh, (w, h), i + 1, len(rects)) for i, (x, y, rw, rh) in enumerate(rects)]


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
    cropped = not outline and opts.marks in ("crop", "lines")
    pieces = tile_pieces(board_w, board_h, opts.bleed, area_w, area_h, opts.overlap)
    tight = False
    if cropped:                 # room round every piece for the board's corner crop marks, unless it costs a page
        room = 2 * sum(MARK_GUTTERS[-1])
        roomy = tile_pieces(board_w, board_h, opts.bleed, area_w - room, area_h - room, opts.overlap)
        pieces, tight = (roomy, False) if len(roomy) == len(pieces) else (pieces, True)
    rows, cols = pieces[-1].row + 1, pieces[-1].col + 1
    if outline:
        pieces = [p for p in pieces if _touches(p, outline)]
    sheets = []
    for piece in pieces:
        # page position of the piece's top-left, centred in the area; pieces with too little room
        # for their marks, against the side where the board's bleed takes ticks (the room left
        # goes to a side a neighbour overlaps, where only paper can take them)
        px = m + _placed_in(area_w - piece.w, piece.col, cols, tight)
        py = m + _placed_in(area_h - piece.h, piece.row, rows, tight)
        placement = Placement(px - piece.x, py - piece.y, board_w, board_h, (opts.bleed,) * 4, face,
                              clip_to_shape=bool(outline))
        label = (f"{title} - row {piece.row + 1} of {rows}, column {piece.col + 1} of {cols} "
                 f"(piece {_piece_name(piece)}); overlap {opts.overlap:g} mm"
                 if len(pieces) > 1 else title)
        sheet = Sheet(W, H, "board", [placement], label=label, clip=(px, py, piece.w, piece.h))
        sheet.lines += _piece_marks(piece, px, py, rows, cols, opts)
        if opts.marks in ("crop", "lines") and (cropped or len(pieces) > 1):
            for mark, on_bleed in _piece_crop_marks(piece, px, py, rows, cols, opts.bleed, (m, m, area_w, area_h)):
                if cropped or _on_an_overlap(mark, piece, px, py, rows, cols):    # a polygon: cut along
                    (sheet.ticks if on_bleed else sheet.crops).append(mark)     # its outline elsewhere
        if outline and opts.marks != "none":
            sheet.outlines.append(placement)
        if len(pieces) > 1:
            sheet.tags.append(_piece_tag(piece, px, py, rows, cols, len(pieces), title, opts))
        sheets.append(sheet)
    return sheets


def _piece_name(piece: Piece) -> str:
    return f"{chr(65 + piece.row)}{piece.col + 1}"


def _piece_tag(piece: Piece, px, py, rows, cols, count, title, opts: Options) -> Tag:
    """The piece's label, inside it where assembling hides it: in the strip its right (else its
    lower) neighbour is glued over; the last piece, which nothing covers, in its outer bleed
    (cut off), or just outside its cut line where the bleed is too narrow for the text."""
    name = f"{title} - piece {_piece_name(piece)} of {count} (row {piece.row + 1} of {rows}, column {piece.col + 1} of {cols})"
    right = f"{chr(65 + piece.row)}{piece.col + 2}"
    below = f"{chr(66 + piece.row)}{piece.col + 1}"
    o, rise = opts.overlap, 0.35 * GUIDE_SIZE
    if piece.col < cols - 1:
        text = f"{name}: {right} is glued over this strip"
        length = _guide_metrics().width(text, GUIDE_SIZE)
        return Tag(text, px + piece.w - o / 2 + rise, py + (piece.h + length) / 2, -90)
    if piece.row < rows - 1:
        text = f"{name}: {below} is glued over this strip"
        length = _guide_metrics().width(text, GUIDE_SIZE)
        return Tag(text, px + (piece.w - length) / 2, py + piece.h - o / 2 + rise)
    over = [f"{chr(65 + piece.row)}{piece.col}'s" if piece.col else "", f"{chr(64 + piece.row)}{piece.col + 1}'s" if piece.row else ""]
    text = f"{name}: glued over {' and '.join(t for t in over if t)} dashed line{'s' if all(over) else ''}"
    length = _guide_metrics().width(text, GUIDE_SIZE)
    inset = opts.bleed / 2 if opts.bleed >= GUIDE_SIZE + 0.4 else -(MARK_GUTTERS[-1][0] + GUIDE_SIZE / 2)
    return Tag(text, px + piece.w - inset + rise, py + (piece.h + length) / 2, -90)


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


def _placed_in(spare: float, index: int, count: int, tight: bool) -> float:
    """Where a piece starts in its row (or column) of the area, `spare` mm longer than it: in
    the middle; when tight, the first of several against the start, the last against the end."""
    if not tight or count == 1 or 0 < index < count - 1:
        return spare / 2
    return 0.0 if index == 0 else spare


def _piece_crop_marks(piece: Piece, px, py, rows, cols, bleed: float, area):
    """Crop marks at the four corners of the piece's cut line: the board's trim on its outer
    sides (marks clear of the bleed), the piece's edge on the sides a neighbour overlaps; two
    short lines outside each corner (the sheets' tighter gap and length: 0.5 and 2 mm). Where the
    area leaves no room for one, a tick as on the sheets (impose._ticks): in the last
    TICK_LENGTH mm of the room, reaching into the board's bleed but stopping short of the trim.
    Each as (mark, whether it lies on the bleed)."""
    gap, length = MARK_GUTTERS[-1]
    outer = {"left": piece.col == 0, "right": piece.col == cols - 1, "top": piece.row == 0, "bottom": piece.row == rows - 1}
    x = {"left": px + (bleed if outer["left"] else 0.0), "right": px + piece.w - (bleed if outer["right"] else 0.0)}
    y = {"top": py + (bleed if outer["top"] else 0.0), "bottom": py + piece.h - (bleed if outer["bottom"] else 0.0)}
    ax, ay, aw, ah = area
    room = {"left": x["left"] - ax, "right": ax + aw - x["right"], "top": y["top"] - ay, "bottom": ay + ah - y["bottom"]}
    out = []
    for xs, sx in (("left", -1), ("right", 1)):
        for ys, sy in (("top", -1), ("bottom", 1)):
            X, Y = x[xs], y[ys]
            bx, by = (bleed if outer[xs] else 0.0), (bleed if outer[ys] else 0.0)
            near_x, far_x = _mark_span(bx, room[xs], gap, length)
            near_y, far_y = _mark_span(by, room[ys], gap, length)
            out += [((X + sx * near_x, Y, X + sx * far_x, Y), near_x < bx - EPS),
                    ((X, Y + sy * near_y, X, Y + sy * far_y), near_y < by - EPS)]
    return out


def _on_an_overlap(mark, piece: Piece, px, py, rows, cols) -> bool:
    """Is the mark on a piece's edge that a neighbour overlaps (a straight cut across the art)?"""
    x0, y0, x1, y1 = mark
    if abs(x0 - x1) < EPS:
        return (piece.col > 0 and abs(x0 - px) < EPS) or (piece.col < cols - 1 and abs(x0 - px - piece.w) < EPS)
    return (piece.row > 0 and abs(y0 - py) < EPS) or (piece.row < rows - 1 and abs(y0 - py - piece.h) < EPS)


def _mark_span(bleed: float, room: float, gap: float, length: float) -> tuple[float, float]:
    """From and to how far beyond the cut a mark runs: `gap` past the bleed and `length` long
    where the room allows; else the last TICK_LENGTH mm of the room, into the bleed at most up
    to TICK_CLEAR from the cut (with no bleed there, `gap` from it), no shorter than TICK_SHORTEST
    (else the mark as it was, past the room)."""
    if bleed + gap + length <= room + EPS:
        return bleed + gap, bleed + gap + length
    clear = TICK_CLEAR if bleed > 0 else gap
    tick = min(TICK_LENGTH, room - clear)
    if tick < TICK_SHORTEST - EPS:
        return bleed + gap, bleed + gap + length
    return room - tick, room


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
