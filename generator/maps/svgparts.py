"""The small SVG pieces a map is drawn with, shared by its cells (render.py) and its legend
(legend.py): a line of text shrunk to its width, a pack icon, a marker of a kind's shape.
`art` is the map's look (render.Art): palette, icons, ink and the smallest printable text."""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from svgwrite.container import Group

from ..fonts import library

INK = "#222222"
FONT = "Liberation Sans"


def text_width(text: str, size: float, bold: bool) -> float:
    return library().metrics(FONT, bold, False).width(text, size)


def fitted_size(text: str, size: float, width: float, bold: bool, smallest: float) -> float:
    wide = text_width(text, size, bold)
    return size if wide <= width else max(smallest, size * width / wide)


def text_line(dwg, x, y, text, size, anchor="middle", color=INK, bold=False, width=None, floor=0.0):
    """One line of text; `width`: shrunk to fit it, but never under `floor` (the map's smallest
    printable size) nor under 55 % of its size."""
    size = max(size, floor)
    if width:
        size = fitted_size(text, size, width, bold, max(size * 0.55, floor))
    extra = {"font_weight": "bold"} if bold else {}
    return dwg.text(text, insert=(round(x, 3), round(y, 3)), font_family=FONT, font_size=round(size, 3),
                    text_anchor=anchor, fill=color, **extra)


def two_lines(text: str, size: float, width: float, bold: bool, separator: str = " ") -> list[str]:
    """The text in one line, or two broken at the separator nearest its middle when one line
    at `size` is wider than `width`."""
    parts = text.split(separator)
    if len(parts) < 2 or text_width(text, size, bold) <= width:
        return [text]
    cut = min(range(1, len(parts)), key=lambda k: abs(text_width(separator.join(parts[:k]), size, bold)
                                                      - text_width(separator.join(parts[k:]), size, bold)))
    return [separator.join(parts[:cut]), separator.join(parts[cut:])]


def is_dark(color: str) -> bool:
    if not (isinstance(color, str) and color.startswith("#") and len(color) == 7):
        return False
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b < 120


def ink_on(fill: str, art) -> str:
    return "#ffffff" if is_dark(fill) else art.ink


class RawGroup(Group):
    """A group whose children are ready SVG markup (a pack icon, already checked at load)."""

    def __init__(self, markup: str, **extra):
        super().__init__(**extra)
        self.markup = markup

    def get_xml(self):
        xml = super().get_xml()
        for child in ET.fromstring(f"<g>{self.markup}</g>"):
            xml.append(child)
        return xml


def pack_icon(art, name: str, x: float, y: float, size: float, color: str):
    """A pack icon in a size x size square at (x, y); None when the pack has no such icon."""
    icon = art.icons.get(name) if name else None
    if icon is None:
        return None
    minx, miny, vw, vh = icon.view_box
    scale = size / max(vw, vh)
    dx, dy = x + (size - vw * scale) / 2, y + (size - vh * scale) / 2
    return RawGroup(icon.markup, transform=f"translate({dx:.3f},{dy:.3f}) scale({scale:.5f}) "
                                       f"translate({-minx:g},{-miny:g})", fill=color)


# --- markers ---------------------------------------------------------------------------------

def shape_points(shape: str, cx: float, cy: float, r: float):
    """Corner points of a marker shape, or None for a circle."""
    sides = {"triangle": (3, -90), "square": (4, 45), "diamond": (4, 0), "pentagon": (5, -90),
             "hexagon": (6, -90)}
    if shape == "house":
        return [(cx - r, cy + r), (cx - r, cy - r * 0.2), (cx, cy - r * 1.05), (cx + r, cy - r * 0.2), (cx + r, cy + r)]
    if shape == "card":
        return [(cx - r * 0.75, cy - r * 1.05), (cx + r * 0.75, cy - r * 1.05), (cx + r * 0.75, cy + r * 1.05),
                (cx - r * 0.75, cy + r * 1.05)]
    if shape == "shield":
        return [(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r * 0.1), (cx, cy + r * 1.1), (cx - r, cy + r * 0.1)]
    if shape in sides:
        n, start = sides[shape]
        grow = 1.0 / math.cos(math.pi / n) if shape in ("square",) else 1.15 if n == 3 else 1.05
        return [(cx + r * grow * math.cos(math.radians(start + 360 * i / n)),
                 cy + r * grow * math.sin(math.radians(start + 360 * i / n))) for i in range(n)]
    return None


# How much wider than its letters each shape is drawn (a pentagon's slanting top needs more)
LETTER_ROOM = {"pentagon": 1.3, "triangle": 1.7, "diamond": 1.5, "hexagon": 1.15, "shield": 1.2}


def draw_marker(dwg, art, style: dict, owner, cx: float, cy: float, size: float):
    """One marker: its kind's shape, filled with the owner's colour carrying the seat number (or
    role letters), else the kind's colour carrying its icon or letters."""
    g = dwg.g()
    r = size / 2
    fill = owner[0] if owner else art.color(style.get("fill"), "#555555")
    ring = art.ink if not is_dark(fill) else "#ffffff"
    points = shape_points(style.get("shape", "circle"), cx, cy, r)
    outline = {"fill": fill, "stroke": ring, "stroke_width": 0.35}
    g.add(dwg.polygon([(round(x, 3), round(y, 3)) for x, y in points], **outline) if points
          else dwg.circle(center=(round(cx, 3), round(cy, 3)), r=round(r, 3), **outline))
    text = owner[1] if owner else style.get("text", "")     # formatted with the placement by the caller
    if text:
        text_size = max(size * (0.5 if len(text) < 3 else 0.38), art.min_text)
        g.add(text_line(dwg, cx, cy + text_size * 0.36, text, text_size, color=ink_on(fill, art), bold=True,
                        width=size * 0.95, floor=art.min_text))
    else:
        icon = pack_icon(art, style.get("icon"), cx - r * 0.62, cy - r * 0.62, r * 1.24, ink_on(fill, art))
        if icon is not None:
            g.add(icon)
    return g
