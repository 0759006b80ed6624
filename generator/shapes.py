"""Face shapes: size declaration -> bounding box, and outlines (for bleed clips, cut lines and
templates). Outlines are plain geometry, emitted as SVG path data or traced into cairo.

A shape is an entry in SHAPES; adding one is adding an entry.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

SQRT3 = math.sqrt(3)


@dataclass(frozen=True)
class Outline:
    """One closed outline in face coordinates (mm, origin at the trim box's top-left)."""
    form: str            # 'rect' (rounded when r > 0), 'circle', 'poly'
    data: tuple

    def svg_d(self) -> str:
        return _SVG[self.form](*self.data)

    def trace(self, ctx) -> None:
        _TRACE[self.form](ctx, *self.data)


def rect_outline(w, h, grow=0.0, radius=0.0) -> Outline:
    """A rounded card's outline: its cut line and anything inside it keep the round corners;
    grown outward (the bleed), it is the square the art must fill, since cards are cut straight
    from a sheet before their corners are rounded."""
    r = max(0.0, radius + grow) if radius > 0 and grow <= 0 else 0.0
    return Outline("rect", (-grow, -grow, w + 2 * grow, h + 2 * grow, r))


def circle_outline(w, h, grow=0.0, radius=0.0) -> Outline:
    return Outline("circle", (w / 2, h / 2, w / 2 + grow))


def hex_points(w, h, orientation, grow=0.0):
    """Six corners of a regular hexagon inscribed in the w x h box, grown outward by `grow` mm
    (measured perpendicular to the sides, so the bleed is even all round)."""
    cx, cy = w / 2, h / 2
    if orientation == "pointy":
        radius = h / 2 + grow * 2 / SQRT3
        angles = [-90 + 60 * i for i in range(6)]
    else:
        radius = w / 2 + grow * 2 / SQRT3
        angles = [60 * i for i in range(6)]
    return tuple((cx + radius * math.cos(math.radians(a)), cy + radius * math.sin(math.radians(a)))
                 for a in angles)


def polygon_grow(points, grow):
    """Offset a polygon outward by `grow` (mitred corners). Orientation-independent."""
    if not grow:
        return tuple(points)
    area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]))
    sign = 1 if area > 0 else -1     # screen coords (y down): area > 0 means clockwise
    out, n = [], len(points)
    for i in range(n):
        p_prev, p, p_next = points[i - 1], points[i], points[(i + 1) % n]
        n1, n2 = _normal(p_prev, p, sign), _normal(p, p_next, sign)
        bis = (n1[0] + n2[0], n1[1] + n2[1])
        dot = 1 + n1[0] * n2[0] + n1[1] * n2[1]
        scale = grow / dot if dot > 1e-6 else grow
        out.append((p[0] + bis[0] * scale, p[1] + bis[1] * scale))
    return tuple(out)


def _normal(a, b, sign):
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    return (-dy / length * sign * -1, dx / length * sign * -1)


@dataclass(frozen=True)
class Shape:
    name: str
    packing: str             # 'grid' or 'honeycomb' (offset rows)
    size_doc: str

    def box(self, size, orientation):
        """(width, height) of the trim box from the declared size."""
        return _BOX[self.name](size, orientation)

    def outline(self, w, h, orientation="pointy", grow=0.0, radius=0.0, points=None) -> Outline:
        if self.name == "hexagon":
            return Outline("poly", (hex_points(w, h, orientation, grow),))
        if self.name == "polygon":
            return Outline("poly", (polygon_grow(list(points), grow),))
        if self.name == "circle":
            return circle_outline(w, h, grow)
        return rect_outline(w, h, grow, radius)

    @property
    def rectangular(self) -> bool:
        return self.name in ("rect", "square")


def _hex_box(size, orientation):
    across_corners = size * 2 / SQRT3
    return (size, across_corners) if orientation == "pointy" else (across_corners, size)


_BOX = {
    "rect": lambda size, o: size,
    "square": lambda size, o: (size, size),
    "circle": lambda size, o: (size, size),
    "hexagon": _hex_box,
    "polygon": lambda size, o: size,
}

SHAPES = {
    "rect": Shape("rect", "grid", "a named size (poker, mini, ...) or {width, height}"),
    "square": Shape("square", "grid", "the side length, e.g. 25mm"),
    "circle": Shape("circle", "honeycomb", "the diameter, e.g. 25mm"),
    "hexagon": Shape("hexagon", "honeycomb", "the width across flats, e.g. 30mm"),
    "polygon": Shape("polygon", "grid", "the corner points in mm, as 'points'"),
}


def _svg_rect(x, y, w, h, r):
    if r <= 0:
        return f"M{x:.3f},{y:.3f}h{w:.3f}v{h:.3f}h{-w:.3f}Z"
    r = min(r, w / 2, h / 2)
    return (f"M{x + r:.3f},{y:.3f}H{x + w - r:.3f}A{r:.3f},{r:.3f} 0 0 1 {x + w:.3f},{y + r:.3f}"
            f"V{y + h - r:.3f}A{r:.3f},{r:.3f} 0 0 1 {x + w - r:.3f},{y + h:.3f}"
            f"H{x + r:.3f}A{r:.3f},{r:.3f} 0 0 1 {x:.3f},{y + h - r:.3f}"
            f"V{y + r:.3f}A{r:.3f},{r:.3f} 0 0 1 {x + r:.3f},{y:.3f}Z")


def _svg_circle(cx, cy, r):
    return (f"M{cx - r:.3f},{cy:.3f}A{r:.3f},{r:.3f} 0 1 1 {cx + r:.3f},{cy:.3f}"
            f"A{r:.3f},{r:.3f} 0 1 1 {cx - r:.3f},{cy:.3f}Z")


def _svg_poly(points):
    return "M" + "L".join(f"{x:.3f},{y:.3f}" for x, y in points) + "Z"


def _trace_rect(ctx, x, y, w, h, r):
    if r <= 0:
        ctx.rectangle(x, y, w, h)
        return
    r = min(r, w / 2, h / 2)
    ctx.new_sub_path()
    ctx.arc(x + w - r, y + r, r, -math.pi / 2, 0)
    ctx.arc(x + w - r, y + h - r, r, 0, math.pi / 2)
    ctx.arc(x + r, y + h - r, r, math.pi / 2, math.pi)
    ctx.arc(x + r, y + r, r, math.pi, 3 * math.pi / 2)
    ctx.close_path()


def _trace_circle(ctx, cx, cy, r):
    ctx.new_sub_path()
    ctx.arc(cx, cy, r, 0, 2 * math.pi)
    ctx.close_path()


def _trace_poly(ctx, points):
    ctx.move_to(*points[0])
    for p in points[1:]:
        ctx.line_to(*p)
    ctx.close_path()


_SVG = {"rect": _svg_rect, "circle": _svg_circle, "poly": _svg_poly}
_TRACE = {"rect": _trace_rect, "circle": _trace_circle, "poly": _trace_poly}
