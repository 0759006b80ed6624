"""The cairosvg fallback: a document outside the fast path's subset -> the same drawing
by cairosvg, onto the caller's context and in its user space, behind a resource guard.

The guard (``_refuse_fetch``) lets only images written into the SVG itself load (data:
URLs, within byte and pixel limits); a file or network URL is refused, and DOCTYPEs and
entities are never parsed.  cairosvg is imported on first use only.
"""

from __future__ import annotations

import re

import cairocffi

from .. import art
from .fontface import check_library, font_face
from .units import _finite

_FALLBACK_CLASS = None


def _fallback_class():
    """A cairosvg Surface that draws onto an existing cairocffi context."""
    global _FALLBACK_CLASS
    if _FALLBACK_CLASS is not None:
        return _FALLBACK_CLASS
    from cairosvg.surface import Surface

    class ContextSurface(Surface):
        """Draws a cairosvg Tree in the caller's current user space.

        Surface.__init__ is deliberately not called: it would create a new
        cairo surface and context and map the root viewBox onto them.  We
        set up the same attributes by hand and draw straight away.
        """

        def __init__(self, tree, context):  # pylint: disable=W0231
            _set_up_surface(self, tree, context)
            context.move_to(0, 0)
            self.draw(tree)

        def finish(self):
            """Nothing to finish: the surface belongs to the caller."""

    _FALLBACK_CLASS = ContextSurface
    return ContextSurface


def _set_up_surface(surface, tree, context):
    """The attributes Surface.__init__ would set, for the caller's context.

    cairosvg's user unit is the CSS pixel; with ``dpi = 25.4`` one
    millimetre is one pixel, so unitless numbers, "px" and "mm" are all
    one unit of the caller's space (1 mm), and "pt" is 25.4/72, exactly
    as in the fast path.  The root's viewBox only gives the viewport
    size (for percentages); no viewBox translation, scaling or clipping
    is applied, so the document's (0, 0) lands on the current origin.
    """
    from cairosvg.helpers import node_format, size
    surface.cairo = context.get_target()
    surface.context = context
    surface.output = None
    surface.dpi = 25.4
    surface.context_width = surface.context_height = None
    surface.cursor_position = [0, 0]
    surface.cursor_d_position = [0, 0]
    surface.text_path_width = 0
    surface.tree_cache = {(tree.url, tree.get('id')): tree}
    surface.reference_count = 0
    surface.markers = {}
    surface.gradients = {}
    surface.patterns = {}
    surface.masks = {}
    surface.paths = {}
    surface.filters = {}
    surface.images = {}
    surface._old_parent_node = surface.parent_node = None
    surface.map_rgba = None
    surface.map_image = None
    surface.stroke_and_fill = True
    surface.font_size = size(surface, '12pt')
    width, height, viewbox = node_format(surface, tree)
    if viewbox is None:
        viewbox = (0, 0, width, height)
    surface.width, surface.height = viewbox[2], viewbox[3]
    surface.context_width, surface.context_height = viewbox[2], viewbox[3]
    tree.image_width, tree.image_height = viewbox[2], viewbox[3]


class ExternalResourceRefused(ValueError):
    """An SVG drawn by cairosvg refers to a file, a URL or an oversized image."""


MAX_IMAGE_BYTES = 8 * 1024 * 1024
MAX_IMAGE_PIXELS = 40_000_000


def _refuse_fetch(url, resource_type):
    """Only images written into the SVG itself (data: URLs) load, within size limits, and the
    pack's pictures (already checked; given corrected, as PNG); a file or network URL never does."""
    if url.startswith(art.HREF_PREFIX):
        return _pack_picture(url)
    if not url.startswith("data:"):
        raise ExternalResourceRefused(f"SVG refers to an external resource ({url[:80]}); "
                                      "templates may not load files or URLs")
    from cairosvg.url import fetch
    result = fetch(url, resource_type)
    data = result.get("string", b"") if isinstance(result, dict) else result
    if len(data) > MAX_IMAGE_BYTES:
        raise ExternalResourceRefused(f"an embedded image of {len(data) // 1024} KB is over the "
                                      f"{MAX_IMAGE_BYTES // (1024 * 1024)} MB limit")
    if data and b"<svg" not in data[:1024]:      # raster, not a nested SVG
        _check_raster(data)
    return result


def _pack_picture(url):
    picture = art.lookup(url[len(art.HREF_PREFIX):])
    if picture is None:
        raise ExternalResourceRefused(f"<image href=\"{url[:80]}\"> names no picture of the pack")
    if not picture.raster:
        return art.data_of(picture)
    import io
    out = io.BytesIO()
    art.pixels(picture).save(out, "PNG", compress_level=1)
    return out.getvalue()


def _check_raster(data):
    """An embedded raster image is read whole here, within the pixel bound, before cairosvg
    sees it: a decompression bomb, garbage or a truncated file is refused with a reason
    (PIL's own errors would otherwise end the build with a traceback)."""
    import io
    from PIL import Image
    Image.MAX_IMAGE_PIXELS = None      # the bound below, with the size in its message
    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
            if width * height > MAX_IMAGE_PIXELS:
                raise ExternalResourceRefused(f"an embedded image of {width} x {height} pixels is over the "
                                              f"{MAX_IMAGE_PIXELS // 1_000_000} megapixel limit")
            image.load()
    except ExternalResourceRefused:
        raise
    except Image.UnidentifiedImageError:
        raise ExternalResourceRefused("an embedded image is in no format pnpgen reads; embed a PNG or "
                                      "JPEG file") from None
    except (OSError, SyntaxError, ValueError, EOFError, MemoryError) as exc:
        raise ExternalResourceRefused(f"an embedded image is broken ({str(exc)[:80] or type(exc).__name__}); "
                                      "embed a whole PNG or JPEG file") from None


_ATTRIBUTE = re.compile(r'([\w:.-]+)\s*=\s*(?:"([^"]*)"|\'([^\']*)\')')
_NUMBER_OR_WORD = re.compile(r'[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|\b(?:nan|inf(?:inity)?)\b', re.IGNORECASE)
_NOT_NUMERIC = {'id', 'class', 'font-family', 'lang', 'xml:lang'}


def _check_numbers(text):
    """Every number in the attributes cairosvg will read is finite and within
    MAX_COORDINATE: cairosvg draws NaN and hangs on 1e308 (the fast path checks its own)."""
    for match in _ATTRIBUTE.finditer(text):
        name, value = match.group(1), match.group(2) if match.group(2) is not None else match.group(3)
        if name in _NOT_NUMERIC or name.endswith('href'):
            continue
        for token in _NUMBER_OR_WORD.findall(value):
            _finite(float(token))


def _fallback(ctx, svg_text):
    from cairosvg.parser import Tree
    _check_numbers(svg_text if isinstance(svg_text, str) else svg_text.decode('utf-8', 'replace'))
    data = svg_text.encode('utf-8') if isinstance(svg_text, str) else svg_text
    # unsafe=False: no entities; and a fetcher that refuses every URL, so an <image> or
    # xlink to a file or the network loads nothing (cairosvg's default fetcher would)
    tree = Tree(bytestring=data, unsafe=False, url_fetcher=_refuse_fetch)
    _check_text(tree)
    check_library()
    _fallback_class()(tree, _LibraryFonts._from_pointer(ctx._pointer, incref=True))


class _LibraryFonts(cairocffi.Context):
    """The caller's context, with cairosvg's choice of font by name (select_font_face) made from
    the active font library's files, as the fast path makes it (fontface.py)."""

    def select_font_face(self, family='', slant=cairocffi.FONT_SLANT_NORMAL, weight=cairocffi.FONT_WEIGHT_NORMAL):
        self.set_font_face(font_face(family, weight == cairocffi.FONT_WEIGHT_BOLD,
                                     slant != cairocffi.FONT_SLANT_NORMAL))


def _check_text(node):
    """The fast path's glyph check, for the text cairosvg is about to draw (its nodes carry
    their inherited font properties)."""
    from .. import glyphs
    if node.tag in ('text', 'tspan', 'textPath') and node.text:
        family = node.get('font-family', 'sans-serif').split(',', 1)[0].strip().strip('"\'') or 'sans-serif'
        weight = node.get('font-weight', 'normal')
        bold = weight == 'bold' or (weight.isdigit() and int(weight) >= 550)     # as cairosvg chooses
        covered, font = glyphs.font_coverage(family, bold, node.get('font-style', 'normal') != 'normal')
        glyphs.check(node.text, covered, '<text>', font)
        node.text = glyphs.printable(node.text)
    for child in node.children:
        _check_text(child)
