"""Face SVG (render.FaceRenderer) -> pixels -> PNG bytes.

The images are the faces the PDFs show: the same SVG, drawn by the same svgdraw.draw_svg, only
onto a cairo image surface instead of a PDF page. A Window says which part of the face (in the
face's millimetres, origin at the trim box's top-left) fills how many pixels.
"""
from __future__ import annotations

import io
import struct
import zlib
from dataclasses import dataclass

import cairocffi as cairo

from ..model import Group
from ..pdfwrite import new_context
from ..svgdraw import draw_svg

MM_PER_INCH = 25.4


@dataclass(frozen=True)
class Window:
    """The rectangle (x, y, w, h) of face millimetres that fills an image of px_w x px_h."""
    x: float
    y: float
    w: float
    h: float
    px_w: int
    px_h: int


def px(mm: float, dpi: float) -> int:
    return max(1, round(mm * dpi / MM_PER_INCH))


def bleed_window(group: Group, bleed: float, dpi: float) -> Window:
    """The face with its bleed all round, at dpi."""
    w, h = group.width + 2 * bleed, group.height + 2 * bleed
    return Window(-bleed, -bleed, w, h, px(w, dpi), px(h, dpi))


def trim_window(group: Group, px_w: int, px_h: int) -> Window:
    """The face cut at its trim line, stretched to px_w x px_h (sprite cells, tiles)."""
    return Window(0.0, 0.0, group.width, group.height, px_w, px_h)


def draw_face(ctx: cairo.Context, svg: str, window: Window, clip=None) -> None:
    """Draw a face so that `window` fills the pixel rectangle at the context's origin; `clip` is
    an outline (shapes.Outline) the face is cut to, as the PDF cuts hexes and circles."""
    ctx.save()
    ctx.scale(window.px_w / window.w, window.px_h / window.h)
    ctx.translate(-window.x, -window.y)
    if clip is not None:
        clip.trace(ctx)
        ctx.clip()
    draw_svg(ctx, svg)
    ctx.restore()


def rasterize(svg: str, window: Window, clip=None, background: tuple | None = None) -> cairo.ImageSurface:
    """One face alone as an image; transparent where the face draws nothing, unless a background
    colour (r, g, b in 0..1) is given."""
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, window.px_w, window.px_h)
    ctx = new_context(surface)
    if background is not None:
        ctx.set_source_rgb(*background)
        ctx.paint()
    draw_face(ctx, svg, window, clip)
    surface.flush()
    return surface


def new_sheet(px_w: int, px_h: int) -> tuple[cairo.ImageSurface, cairo.Context]:
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, px_w, px_h)
    return surface, new_context(surface)


def png_bytes(surface: cairo.ImageSurface, dpi: float | None = None) -> bytes:
    """cairo's PNG (no time chunk: same pixels, same bytes; RGB when fully opaque) with the
    resolution recorded (pHYs), so image editors and print shops read the intended size."""
    buffer = io.BytesIO()
    surface.write_to_png(buffer)
    data = buffer.getvalue()
    if not dpi:
        return data
    per_metre = round(dpi / 0.0254)
    end_of_ihdr = 8 + 8 + 13 + 4           # signature, IHDR length/type, IHDR data, CRC
    return data[:end_of_ihdr] + _chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)) + data[end_of_ihdr:]


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
