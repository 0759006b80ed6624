"""Pictures: <image href="pnpgen-art:..."> and nested <svg> viewports -> image operations.

A pack's picture reaches the SVG as `href="pnpgen-art:<digest>"` (templating and render put it
there, generator/art.py loaded it). Drawing it depends on the target:

- a PDF (or a recording replayed onto one): cairo is given a small surface (the image at 1/8
  size) carrying the JPEG stream as MIME data `image/jpeg`; cairo then embeds that stream as
  it is (DCTDecode) and draws it where the small surface would go, so the PDF holds the file's
  own bytes at full resolution and the pixels are never decoded in full. `application/x-cairo.uuid`
  (the digest) makes cairo embed each distinct image once per PDF however often it is drawn.
  PNG and transparent images are given as full pixels (cairo compresses them losslessly).
- an image surface (preview, PNG and TTS exports): the full pixels, edges padded and clipped so
  a picture's edge is as sharp as in the PDF.

An SVG picture is drawn by svgdraw itself, mapped from its viewBox.
"""

from __future__ import annotations

import re
from collections import OrderedDict

import cairocffi

from .. import art as artmod
from .base import _XLINK_HREF, UnsupportedSVG
from .units import _attr_len, _finite

_lib = cairocffi.cairo
_VECTOR_TARGETS = (cairocffi.SURFACE_TYPE_PDF, cairocffi.SURFACE_TYPE_RECORDING)
THUMBNAIL = 8                        # the small surface a PDF gets is 1/8 of the image
_ALIGN = {'min': 0.0, 'mid': 0.5, 'max': 1.0}
_PAR = re.compile(r'^\s*(?:defer\s+)?(none|x(min|mid|max)y(min|mid|max))(?:\s+(meet|slice))?\s*$', re.IGNORECASE)
SURFACE_BYTES = 64 * 2**20           # pictures kept for the faces that follow


def aspect(value, view_box, viewport):
    """(matrix from view_box onto viewport, whether to clip to the viewport) for a
    preserveAspectRatio value (SVG's rules: default xMidYMid meet)."""
    match = _PAR.match(value or 'xMidYMid meet')
    if match is None:
        raise UnsupportedSVG(f'preserveAspectRatio {value!r}')
    vx, vy, vw, vh = view_box
    x, y, w, h = viewport
    sx, sy = w / vw, h / vh
    if match.group(1).lower() == 'none':
        return (sx, 0.0, 0.0, sy, x - vx * sx, y - vy * sy), False
    slice_ = (match.group(4) or 'meet').lower() == 'slice'
    s = max(sx, sy) if slice_ else min(sx, sy)
    ax, ay = _ALIGN[match.group(2).lower()], _ALIGN[match.group(3).lower()]
    tx = x + (w - vw * s) * ax - vx * s
    ty = y + (h - vh * s) * ay - vy * s
    return (s, 0.0, 0.0, s, tx, ty), slice_


def _viewport(attrib, font_size):
    x, y = _attr_len(attrib, 'x', font_size), _attr_len(attrib, 'y', font_size)
    if attrib.get('width') is None or attrib.get('height') is None:
        raise UnsupportedSVG('<image> or <svg> without width and height')
    return x, y, _attr_len(attrib, 'width', font_size), _attr_len(attrib, 'height', font_size)


def h_image(c, elem, props):
    """<image> of a pack's picture; any other href (a data: URL) is cairosvg's."""
    href = elem.get('href') or elem.get(_XLINK_HREF) or ''
    if not href.startswith(artmod.HREF_PREFIX):
        raise UnsupportedSVG('<image> other than a pack picture')
    picture = artmod.lookup(href[len(artmod.HREF_PREFIX):])
    if picture is None:
        raise ValueError(f'<image href="{href[:80]}"> names no picture of the pack; use image() or '
                         'href="art/..." (a path inside the pack)')

    def draw(p):
        if not p['visibility']:
            return
        viewport = _viewport(elem.attrib, p['font-size'])
        if viewport[2] <= 0 or viewport[3] <= 0:
            return
        box = picture.view_box or (0.0, 0.0, picture.width, picture.height)
        matrix, clip = aspect(elem.get('preserveAspectRatio'), box, viewport)
        c.count += 1
        c.ops.append((_op_image, (picture, matrix, viewport if clip else None)))
    c.group(elem, props, draw_target=draw)


def h_nested_svg(c, elem, props):
    """A nested <svg>: its viewport clips (overflow hidden, SVG's default) and its viewBox maps."""
    viewport = _viewport(elem.attrib, props['font-size'])
    if viewport[2] <= 0 or viewport[3] <= 0:
        return
    numbers = [float(v) for v in re.split(r'[\s,]+', (elem.get('viewBox') or '').strip()) if v]
    if numbers and (len(numbers) != 4 or numbers[2] <= 0 or numbers[3] <= 0):
        raise UnsupportedSVG('nested <svg> with a viewBox of other than four numbers')
    box = tuple(_finite(v) for v in numbers) or (0.0, 0.0, viewport[2], viewport[3])
    matrix, _ = aspect(elem.get('preserveAspectRatio'), box, viewport)
    if (elem.get('overflow') or '').strip() in ('visible', 'auto'):
        c.group(elem, props, extra_matrix=matrix)
        return
    c.ops.append((_op_save_clip, viewport))
    c.stack.append(c.gs[:])
    c.group(elem, props, extra_matrix=matrix)
    c.restore()


def _op_save_clip(ptr, rect):
    _lib.cairo_save(ptr)
    _lib.cairo_new_path(ptr)
    _lib.cairo_rectangle(ptr, *rect)
    _lib.cairo_clip(ptr)


def _op_image(ptr, argument):
    picture, matrix, clip = argument
    ctx = cairocffi.Context._from_pointer(ptr, incref=True)  # pylint: disable=protected-access
    ctx.save()
    try:
        if clip is not None:
            ctx.rectangle(*clip)
            ctx.clip()
        ctx.transform(cairocffi.Matrix(*matrix))
        if picture.raster:
            _paint_raster(ctx, picture)
        else:
            _paint_svg(ctx, picture)
    finally:
        ctx.restore()


_in_pdfs: list[str] = []          # digests of the pictures drawn for PDFs, in order (see drawn_for_pdf)


def drawn_for_pdf(since: int = 0) -> list[str]:
    """The pictures this process has drawn for PDFs since the `since`-th (len() of an earlier
    call): a PDF written in parts learns which pictures more than one part holds."""
    return _in_pdfs[since:]


def _paint_raster(ctx, picture) -> None:
    """The picture in its own pixel space (0, 0, width, height) onto ctx."""
    vector = _lib.cairo_surface_get_type(_lib.cairo_get_target(ctx._pointer)) in _VECTOR_TARGETS  # pylint: disable=protected-access
    if vector:
        _in_pdfs.append(picture.digest)
    surface = _surface(picture, vector)
    scale_x, scale_y = picture.width / surface.get_width(), picture.height / surface.get_height()
    ctx.rectangle(0, 0, picture.width, picture.height)
    ctx.clip()
    ctx.scale(scale_x, scale_y)
    ctx.set_source_surface(surface, 0, 0)
    if not vector:         # padded: the clip, not a fade into transparency, makes the edge
        ctx.get_source().set_extend(cairocffi.EXTEND_PAD)
    ctx.paint()


def _paint_svg(ctx, picture) -> None:
    from .draw import draw_svg
    ctx.rectangle(*picture.view_box)       # an SVG's own viewport clips what it draws
    ctx.clip()
    draw_svg(ctx, _svg_of(picture))


_svg_texts: OrderedDict = OrderedDict()


def _svg_of(picture) -> str:
    text = _svg_texts.get(picture.digest)
    if text is None:
        text = _svg_texts[picture.digest] = artmod.svg_text(picture)
        while len(_svg_texts) > 16:
            _svg_texts.popitem(last=False)
    return text


_surfaces: OrderedDict = OrderedDict()      # (digest, vector) -> (cairo surface, bytes it holds), least recent first
_surface_bytes = [0]


def _surface(picture, vector: bool):
    """The picture's cairo surface, kept while it is among the last SURFACE_BYTES drawn (pixels
    and JPEG stream counted): a picture on many faces is decoded once, a deck of pictures each
    drawn once does not pile up (cairo lets go of a PDF's pictures as each page is written)."""
    key = (picture.digest, vector)
    hit = _surfaces.get(key)
    if hit is not None:
        _surfaces.move_to_end(key)
        return hit[0]
    image, stream = artmod.for_pdf(picture, THUMBNAIL) if vector else (artmod.pixels(picture), None)
    surface = _from_pillow(image)
    if stream is not None:
        surface.set_mime_data('image/jpeg', stream)
    surface.set_mime_data('application/x-cairo.uuid', picture.digest.encode())
    size = surface.get_stride() * surface.get_height() + len(stream or b'')
    _surfaces[key] = (surface, size)
    _surface_bytes[0] += size
    while _surface_bytes[0] > SURFACE_BYTES and len(_surfaces) > 1:
        _, (_, old) = _surfaces.popitem(last=False)
        _surface_bytes[0] -= old
    return surface


def _from_pillow(image):
    """A Pillow RGB or RGBA image -> a cairo image surface (premultiplied BGRA in memory, as
    cairo keeps ARGB32 on little-endian machines)."""
    width, height = image.size
    if image.mode == 'RGBA':
        fmt, data = cairocffi.FORMAT_ARGB32, image.tobytes('raw', 'BGRa')
    else:
        fmt, data = cairocffi.FORMAT_RGB24, image.tobytes('raw', 'BGRX')
    stride = cairocffi.ImageSurface.format_stride_for_width(fmt, width)
    assert stride == width * 4
    return cairocffi.ImageSurface.create_for_data(bytearray(data), fmt, width, height, stride)
