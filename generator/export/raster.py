"""Face SVG (render.FaceRenderer) -> pixels -> PNG bytes.

The images are the faces the PDFs show: the same SVG, drawn by the same svgdraw.draw_svg, only
onto a cairo image surface instead of a PDF page. A Window says which part of the face (in the
face's millimetres, origin at the trim box's top-left) fills how many pixels.
"""
from __future__ import annotations

import math
import struct
import zlib
from dataclasses import dataclass

import cairocffi as cairo
import numpy
from zlib_ng import zlib_ng

from .. import version
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


def draw_face(ctx: cairo.Context, svg: str, window: Window, clip=None, marks=()) -> None:
    """Draw a face so that `window` fills the pixel rectangle at the context's origin; `clip` is
    an outline (shapes.Outline) the face is cut to, as the PDF cuts hexes and circles; `marks`
    (version.stamps) are the version drawn over it where the PDF sheets draw it."""
    ctx.save()
    ctx.rectangle(0, 0, window.px_w, window.px_h)     # also bounds svgdraw's opacity groups to
    ctx.clip()                                        # the cell, not the whole sprite sheet
    ctx.scale(window.px_w / window.w, window.px_h / window.h)
    ctx.translate(-window.x, -window.y)
    if clip is not None:
        clip.trace(ctx)
        ctx.clip()
    draw_svg(ctx, svg)
    version.draw(ctx, marks)
    ctx.restore()


def rasterize(svg: str, window: Window, clip=None, background: tuple | None = None,
              marks=()) -> cairo.ImageSurface:
    """One face alone as an image; transparent where the face draws nothing, unless a background
    colour (r, g, b in 0..1) is given."""
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, window.px_w, window.px_h)
    ctx = new_context(surface)
    if background is not None:
        ctx.set_source_rgb(*background)
        ctx.paint()
    draw_face(ctx, svg, window, clip, marks)
    surface.flush()
    return surface


def rasterize_turned(svg: str, window: Window, clip=None, marks=()) -> cairo.ImageSurface:
    """One face alone, turned a quarter counter-clockwise: its top at the image's left, the image
    px_h wide and px_w high (a pointy-topped hex becomes the flat-topped one TTS's hex tile is)."""
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, window.px_h, window.px_w)
    ctx = new_context(surface)
    ctx.translate(0, window.px_w)          # (x, y) of the upright face -> (y, px_w - x)
    ctx.rotate(-math.pi / 2)
    draw_face(ctx, svg, window, clip, marks)
    surface.flush()
    return surface


def new_sheet(px_w: int, px_h: int) -> tuple[cairo.ImageSurface, cairo.Context]:
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, px_w, px_h)
    return surface, new_context(surface)


PNG_LEVEL = 3       # zlib-ng level 3: on card art as small as zlib's level 3, 2.4x faster (bench notes in docs/export.md)


def png_bytes(surface: cairo.ImageSurface, dpi: float | None = None) -> bytes:
    """A PNG of the surface: no time or software chunk (same pixels, same bytes), RGB when fully
    opaque, the resolution recorded (pHYs) so editors and print shops read the intended size.
    Written here rather than by cairo: with no row filter, flat print art compresses about as
    well as libpng's filtered output, in a third of the time. The pixels are reordered by numpy
    straight from cairo's buffer and deflated by zlib-ng: both 3x faster than Python byte slicing
    and the standard zlib module, which took most of an export's time."""
    surface.flush()
    w, h, stride = surface.get_width(), surface.get_height(), surface.get_stride()
    # cairo keeps native-endian premultiplied ARGB: B, G, R, A in memory on little-endian machines
    argb = numpy.frombuffer(surface.get_data(), numpy.uint8).reshape(h, stride)[:, :4 * w].reshape(h, w, 4)
    alpha = argb[:, :, 3]
    opaque = bool(alpha.min() == 255)
    channels = 3 if opaque else 4
    raw = numpy.zeros((h, 1 + w * channels), numpy.uint8)    # each row opens with filter type 0 (none)
    pixels = raw[:, 1:].reshape(h, w, channels)
    for out, cairo_channel in enumerate((2, 1, 0)):
        pixels[:, :, out] = argb[:, :, cairo_channel]
    if not opaque:
        pixels[:, :, 3] = alpha
        _unpremultiply(pixels, alpha)
    chunks = [_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2 if opaque else 6, 0, 0, 0))]
    if dpi:
        per_metre = round(dpi / 0.0254)
        chunks.append(_chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)))
    chunks += [_chunk(b"IDAT", zlib_ng.compress(raw, PNG_LEVEL)), _chunk(b"IEND", b"")]
    return b"\x89PNG\r\n\x1a\n" + b"".join(chunks)


def _unpremultiply(pixels: numpy.ndarray, alpha: numpy.ndarray) -> None:
    """Only edge pixels are partly transparent; the rest are 0 or 255 and need nothing."""
    partial = (alpha > 0) & (alpha < 255)
    if not partial.any():
        return
    a = alpha[partial].astype(numpy.uint32)[:, None]
    colour = pixels[partial][:, :3].astype(numpy.uint32)
    pixels[partial, :3] = numpy.minimum(255, (colour * 255 + a // 2) // a).astype(numpy.uint8)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
