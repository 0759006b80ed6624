"""A document's groups + their rendered faces -> where their faces may share cut lines.

Faces that abut on one cut line (impose's shared cuts) trade edges when the cut misses: 1 mm too
far leaves a strip of the neighbour on the face. That is harmless where the neighbour's edge is
the colour this face's own edge has there (a deck's cream borders, one back for all) and wrong
where it is another (a red player's card beside a blue one, a header band below a cream foot).
So a few faces of each group are drawn small and the band a miscut can show is read, from
`miscut` mm inside the trim to the bleed's edge (generator/data/cut_edges.yaml).

Rectangles are read side by side: each side's band in short pieces along it, and faces may stand
side by side on one cut when every face's right side matches every face's left side piece by
piece (CIEDE2000 within `same_colour`), fronts and backs alike; one above the other likewise with
bottoms and tops. A deck whose cards have a coloured header over a cream body shares the cuts
between its columns and gets gutters between its rows. Hexagons in a honeycomb meet on all six
sides: they share cuts when every face's side i matches every face's side i + 3 (run the other
way) for every side, so water tiles share with water tiles, whatever waves are drawn on them.

Decided per group, not per neighbouring pair: a grid's cut lines run the whole sheet, so a gutter
between one pair costs the paper of a gutter for the whole row, and a group is one design
repeated. Groups alike enough to share with each other get one class, so impose may still pack
them together.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import numpy
import yaml

from .errors import BuildError

SETTINGS = yaml.safe_load((Path(__file__).parent / "data" / "cut_edges.yaml").read_text())
SAME_COLOUR = float(SETTINGS["same_colour"])
SIDES = ("left", "top", "right", "bottom")


@dataclass(frozen=True)
class Edges:
    """One face's cut band in CIE L*a*b*, per side the colours of its pieces along the side: a
    rectangle's left, top, right and bottom (top to bottom, left to right), a hexagon's six
    sides 0-5 clockwise, each from corner to corner clockwise."""
    sides: dict


@dataclass(frozen=True)
class Part:
    """Faces of one group laid out together: its items `items` (None: all of them), their edge
    class (parts of one class may share cuts with each other) and which cut lines they may share:
    (side by side, one above the other), as the face stands."""
    items: tuple[str, ...] | None
    edge: str
    joins: tuple[bool, bool]


WHOLE = Part(None, "", (True, True))         # a group not read: laid out as it asks


def cut_parts(groups, svg_of, bleed_of) -> dict[str, list[Part]]:
    """Group id -> its parts. A group whose faces' edges all match is one part; one whose edges
    differ is split by edge colour (each seat's cards share cuts among themselves, with gutters
    to the next seat's) when it has at most `items_split` items, else kept whole on separate
    cuts. `svg_of(face)` renders a face (a BuildError there: the build reports it later, and the
    group keeps separate cuts); `bleed_of(group)` is its bleed."""
    out: dict[str, list[Part]] = {}
    classes: list[tuple[str, tuple, tuple]] = []      # (name, joins, faces read), first come
    for group in groups:
        parts = []
        for items, joins, read in _split(group, svg_of, bleed_of(group)):
            if not any(joins):
                parts.append(Part(items, "", joins))
                continue
            name = next((n for n, j, known in classes if j == joins and _alike(known, read)
                         and _together(group, known, joins, read)), None)
            if name is None:
                name = f"edge{len(classes) + 1}"
                classes.append((name, joins, read))
            parts.append(Part(items, name, joins))
        out[group.id] = parts
    return out


def _split(group, svg_of, bleed: float):
    """(item ids or None, joins, faces read) of each part of the group."""
    items = group.items
    whole = len(items) > int(SETTINGS["items_split"])
    chosen = sampled(items, int(SETTINGS["faces_read"])) if whole else list(items)
    read = _read_group(group, chosen, svg_of, bleed)
    if read is None:
        return [(None, (False, False), None)]
    joins = _joins(group, read)
    if whole or any(joins):
        return [(None, joins, read)]
    clusters: list[tuple[list[int], tuple]] = []
    for i in range(len(chosen)):
        own = _joins(group, _subset(read, [i]))
        home = next((c for c in clusters if any(own) and c[1] == own
                     and _together(group, _subset(read, c[0]), own, _subset(read, [i]))), None)
        if home:
            home[0].append(i)
        else:
            clusters.append(([i], own))
    # a face alone shares no cut: those go together, each with its own bleed
    lone = [i for members, j in clusters if sum(chosen[k].copies for k in members) < 2 or not any(j) for i in members]
    parts = [(tuple(chosen[i].id for i in members), j, _subset(read, members)) for members, j in clusters
             if not set(members) & set(lone)]
    if lone:
        parts.append((tuple(chosen[i].id for i in sorted(lone)), (False, False), None))
    return parts


def _subset(read, indices):
    return read[0], {side: [faces[i] for i in indices] for side, faces in read[1].items()}


def _read_group(group, items, svg_of, bleed: float):
    """(geometry, {side: [Edges of each item's face]}) or None when a face cannot be drawn."""
    from .render import FaceRef
    geometry = (group.shape, group.width, group.height, group.orientation, bleed)
    faces = {}
    for side in ("front", "back") if group.back_template else ("front",):
        faces[side] = []
        for item in items:
            try:
                svg = svg_of(FaceRef(group, item, side))
            except BuildError:
                return None
            edges = face_edges(svg, group, bleed)
            if edges is None:
                return None
            faces[side].append(edges)
    return geometry, faces


def _alike(a, b) -> bool:
    return a[0] == b[0] and a[1].keys() == b[1].keys()


def _joins(group, read, other=None) -> tuple[bool, bool]:
    """May the faces read stand side by side on one cut, and one above the other? With `other`
    (faces read of the same geometry): may a face of one stand so beside a face of the other,
    either way round?"""
    a, b = read[1], (other or read)[1]

    def meet(first, second, turn=lambda pieces: pieces):
        return all(_within([e.sides[first] for e in a[s]], [turn(e.sides[second]) for e in b[s]])
                   and (other is None or _within([e.sides[first] for e in b[s]], [turn(e.sides[second]) for e in a[s]]))
                   for s in a)
    if group.shape == "hexagon":      # side i meets a neighbour's side i + 3, run the other way
        one = all(meet(i, i + 3, lambda pieces: pieces[::-1]) for i in range(3))
        return one, one
    return meet("right", "left"), meet("bottom", "top")


def _together(group, a, a_joins, b) -> bool:
    """Do the faces of a and of b, together, share the cut lines a's share (b's the same)?"""
    between = _joins(group, a, b)
    return all(x or not wanted for x, wanted in zip(between, a_joins))


def _within(these, those) -> bool:
    """Every one of these colour runs within SAME_COLOUR of every one of those, piece by piece.
    Each distinct run is compared once: a deck's faces mostly repeat a few edges, and every pair
    of 200 faces cost 1.8 s of a 200-card build's 3.9 s."""
    a = numpy.unique(numpy.asarray(these, float), axis=0)[:, None]
    b = numpy.unique(numpy.asarray(those, float), axis=0)[None, :]
    a, b = numpy.broadcast_arrays(a, b)
    return bool(numpy.all(delta_e(a, b) <= SAME_COLOUR))


def sampled(items: list, most: int) -> list:
    """Up to `most` items spread evenly from first to last (all of them when there are fewer)."""
    if len(items) <= most:
        return list(items)
    return [items[round(i * (len(items) - 1) / (most - 1))] for i in range(most)]


_EDGES: dict[str, Edges | None] = {}          # by face SVG, shape and bleed: a shared back is read once


READ_MOST_ELEMENTS = 20_000    # a face drawn with more is not read (its group keeps separate cuts)


def face_edges(svg: str, group, bleed: float) -> Edges | None:
    """The face's edges; None where it cannot be read: too large to draw quickly, or drawing it
    fails (a glyph the font lacks, a coordinate of 1e308), which drawing the PDF then reports
    with its place, so it is not reported here too."""
    from .render import drawn_elements
    key = hashlib.sha256(f"{group.shape}|{group.width}|{group.height}|{group.orientation}|"
                         f"{group.corner_radius}|{bleed}|".encode() + svg.encode()).hexdigest()
    if key not in _EDGES:
        if len(_EDGES) > 4096:
            _EDGES.clear()
        try:
            _EDGES[key] = _read_edges(svg, group, bleed) if drawn_elements(svg) <= READ_MOST_ELEMENTS else None
        except Exception:                  # noqa: BLE001 (any drawing failure: see above)
            _EDGES[key] = None
    return _EDGES[key]


PIECE = 3.0      # mm along a side read as one colour


def _read_edges(svg: str, group, bleed: float) -> Edges:
    """The face drawn small on white paper; its band from `miscut` mm inside the trim to the
    bleed's edge, side by side in PIECE mm lengths."""
    from .export.raster import Window, px, rasterize
    dpi, miscut = float(SETTINGS["dpi"]), float(SETTINGS["miscut"])
    w, h = group.width + 2 * bleed, group.height + 2 * bleed
    window = Window(-bleed, -bleed, w, h, px(w, dpi), px(h, dpi))
    rgb = _rgb(rasterize(svg, window, clip=group.outline(bleed), background=(1.0, 1.0, 1.0)))
    if group.shape == "hexagon":
        return Edges(_hex_side_pieces(srgb_to_lab(rgb), window, bleed, miscut, group))
    return Edges(_side_pieces(rgb, window, bleed, miscut, group.width, group.height))


def _side_pieces(rgb, window, bleed, miscut, w, h) -> dict:
    """Per side, the median colour of each PIECE mm of its band (corners left out: they lie
    beyond every neighbour's side). Only the bands are turned into L*a*b*, not the face inside."""
    scale_x, scale_y = window.px_w / window.w, window.px_h / window.h

    def cols(a, b):
        return slice(round((a + bleed) * scale_x), max(round((b + bleed) * scale_x), round((a + bleed) * scale_x) + 1))

    def rows(a, b):
        return slice(round((a + bleed) * scale_y), max(round((b + bleed) * scale_y), round((a + bleed) * scale_y) + 1))

    def pieces(length):
        n = max(1, round(length / PIECE))
        return [(length * i / n, length * (i + 1) / n) for i in range(n)]
    full = slice(None)
    bands = {"left": (full, cols(-bleed, miscut)), "right": (full, cols(w - miscut, w + bleed)),
             "top": (rows(-bleed, miscut), full), "bottom": (rows(h - miscut, h + bleed), full)}
    out, lab = {}, numpy.empty(rgb.shape)             # only the bands are filled, and only they read
    for side, band in bands.items():
        lab[band] = srgb_to_lab(rgb[band])
        strip = ((lambda a, b: lab[rows(a, b), band[1]]) if side in ("left", "right")
                 else (lambda a, b: lab[band[0], cols(a, b)]))
        length = h if side in ("left", "right") else w
        out[side] = [_median(strip(a, b).reshape(-1, 3)) for a, b in pieces(length)]
    return out


def _median(colours) -> numpy.ndarray:
    """numpy.median(colours, axis=0), to the bit, at a tenth of its cost on a few pixels (a face
    has about a hundred pieces)."""
    ordered = numpy.sort(colours, axis=0)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def _hex_side_pieces(lab, window, bleed, miscut, group) -> dict:
    """Per side of the hexagon (0-5, clockwise from its first corner), the median colour of each
    PIECE mm along it, read on a grid across the band (from `miscut` inside to the bleed's edge);
    the corners' ends left out, as a rectangle's corners are."""
    from .shapes import hex_points
    corners = numpy.array(hex_points(group.width, group.height, group.orientation))
    centre = corners.mean(axis=0)
    scale = numpy.array([window.px_w / window.w, window.px_h / window.h])
    out = {}
    for i in range(6):
        a, b = corners[i], corners[(i + 1) % 6]
        along = b - a
        length = float(numpy.hypot(*along))
        normal = (a + b) / 2 - centre
        normal /= numpy.hypot(*normal)
        n = max(1, round(length / PIECE))
        across = numpy.linspace(-miscut, bleed * 0.9, 4)
        pieces = []
        for k in range(n):
            ts = numpy.linspace((k + 0.15) / n, (k + 0.85) / n, 4)
            points = (a + ts[:, None, None] * along + across[None, :, None] * normal).reshape(-1, 2)
            cols = numpy.clip(((points[:, 0] + bleed) * scale[0]).astype(int), 0, lab.shape[1] - 1)
            rows = numpy.clip(((points[:, 1] + bleed) * scale[1]).astype(int), 0, lab.shape[0] - 1)
            pieces.append(numpy.median(lab[rows, cols], axis=0))
        out[i] = pieces
    return out


def _rgb(surface) -> numpy.ndarray:
    """cairo's ARGB32 (native order: B, G, R, A on little-endian machines) -> RGB in 0..1."""
    w, h, stride = surface.get_width(), surface.get_height(), surface.get_stride()
    argb = numpy.frombuffer(surface.get_data(), numpy.uint8).reshape(h, stride)[:, :4 * w].reshape(h, w, 4)
    return argb[:, :, [2, 1, 0]].astype(float) / 255.0


# --- colour ------------------------------------------------------------------------------------

_D65 = numpy.array([0.95047, 1.0, 1.08883])
_RGB_TO_XYZ = numpy.array([[0.4124564, 0.3575761, 0.1804375],
                           [0.2126729, 0.7151522, 0.0721750],
                           [0.0193339, 0.1191920, 0.9503041]])


def srgb_to_lab(rgb) -> numpy.ndarray:
    """sRGB in 0..1 (..., 3) -> CIE L*a*b* under D65."""
    rgb = numpy.asarray(rgb, float)
    linear = numpy.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    xyz = linear @ _RGB_TO_XYZ.T / _D65
    f = numpy.where(xyz > (6 / 29) ** 3, numpy.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return numpy.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], -1)


def delta_e(lab1, lab2):
    """CIEDE2000 colour difference (Sharma, Wu and Dalal 2005), element-wise over (..., 3)."""
    L1, a1, b1 = numpy.moveaxis(numpy.asarray(lab1, float), -1, 0)
    L2, a2, b2 = numpy.moveaxis(numpy.asarray(lab2, float), -1, 0)
    c_bar = (numpy.hypot(a1, b1) + numpy.hypot(a2, b2)) / 2
    g = 0.5 * (1 - numpy.sqrt(c_bar ** 7 / (c_bar ** 7 + 25.0 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = numpy.hypot(a1p, b1), numpy.hypot(a2p, b2)
    h1p = numpy.degrees(numpy.arctan2(b1, a1p)) % 360
    h2p = numpy.degrees(numpy.arctan2(b2, a2p)) % 360
    dL, dC = L2 - L1, c2p - c1p
    dh = h2p - h1p
    dh = numpy.where(dh > 180, dh - 360, numpy.where(dh < -180, dh + 360, dh))
    dh = numpy.where(c1p * c2p == 0, 0.0, dh)
    dH = 2 * numpy.sqrt(c1p * c2p) * numpy.sin(numpy.radians(dh / 2))
    L_bar, c_bar_p = (L1 + L2) / 2, (c1p + c2p) / 2
    h_sum = h1p + h2p
    h_bar = numpy.where(numpy.abs(h1p - h2p) > 180, numpy.where(h_sum < 360, h_sum + 360, h_sum - 360), h_sum) / 2
    h_bar = numpy.where(c1p * c2p == 0, h_sum, h_bar)
    t = (1 - 0.17 * numpy.cos(numpy.radians(h_bar - 30)) + 0.24 * numpy.cos(numpy.radians(2 * h_bar))
         + 0.32 * numpy.cos(numpy.radians(3 * h_bar + 6)) - 0.20 * numpy.cos(numpy.radians(4 * h_bar - 63)))
    s_l = 1 + 0.015 * (L_bar - 50) ** 2 / numpy.sqrt(20 + (L_bar - 50) ** 2)
    s_c = 1 + 0.045 * c_bar_p
    s_h = 1 + 0.015 * c_bar_p * t
    r_c = 2 * numpy.sqrt(c_bar_p ** 7 / (c_bar_p ** 7 + 25.0 ** 7))
    r_t = -numpy.sin(numpy.radians(60 * numpy.exp(-(((h_bar - 275) / 25) ** 2)))) * r_c
    value = numpy.sqrt((dL / s_l) ** 2 + (dC / s_c) ** 2 + (dH / s_h) ** 2
                       + r_t * (dC / s_c) * (dH / s_h))
    return float(value) if numpy.ndim(value) == 0 else value
