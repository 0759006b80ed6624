"""A face's SVG -> a PNG of the face as it looks cut out, drawn by the same code as the PDFs.

The image covers the face's trim box at `dpi`; outside the face's outline (a card's rounded
corners, a hexagon's sides) it is transparent.
"""
from __future__ import annotations

import io
import math

import cairocffi as cairo

from .pdfwrite import new_context
from .shapes import Outline
from .svgdraw import draw_svg

MM_PER_INCH = 25.4


def face_png(svg: str, width_mm: float, height_mm: float, outline: Outline, dpi: float = 100) -> bytes:
    scale = dpi / MM_PER_INCH
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, max(1, math.ceil(width_mm * scale)),
                                 max(1, math.ceil(height_mm * scale)))
    ctx = new_context(surface)
    ctx.scale(scale, scale)
    outline.trace(ctx)
    ctx.clip()
    draw_svg(ctx, svg)
    surface.flush()
    out = io.BytesIO()
    surface.write_to_png(out)
    return out.getvalue()
