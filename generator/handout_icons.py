"""A handout's inline icon (game.yaml icons, written `:name:`) -> a small PNG file in our private
cache, which reportlab embeds: drawn once per icon and colour, redrawn when the cached file is
not our own whole PNG; and the paragraph that keeps an icon on one line with the text set
against it."""
from __future__ import annotations

import hashlib
import io
import zlib
from pathlib import Path

from reportlab.platypus import Paragraph, paragraph

from . import interrupt, workdir


class IconParagraph(Paragraph):
    """A paragraph whose lines never break between an inline icon and the text touching it
    ("2 :military:, Player 2": reportlab would start the next line with ", Player 2"). reportlab
    makes every image a word of its own and may break at either side of it; while this paragraph
    breaks its lines, such neighbours are joined into one word. That takes reportlab's private
    `paragraph._getFragWords`: no public markup does it (`<nobr>` only stops hyphenation, a
    no-break space beside an image is still a break), and tests/test_handout_icons_api.py fails
    the day one does."""

    def breakLines(self, width):
        words_of = paragraph._getFragWords
        paragraph._getFragWords = lambda frags, max_width=None: _icons_joined(words_of(frags, max_width))
        try:
            return super().breakLines(width)
        finally:
            paragraph._getFragWords = words_of


def _icons_joined(words: list) -> list:
    """reportlab's words ([width, (frag, text), ...]; a plain list has no space after it, an
    _HSFrag has one) with each icon joined to the words it touches without a space."""
    joined: list = []
    for word in words:
        before = joined[-1] if joined else None
        if (before is not None and type(before) is list and type(word) in (list, paragraph._HSFrag)
                and not _is_break(before) and not _is_break(word) and (_has_icon(before) or _has_icon(word))):
            joined[-1] = type(word)([before[0] + word[0], *before[1:], *word[1:]])
        else:
            joined.append(word)
    return joined


def _has_icon(word) -> bool:
    return any(getattr(getattr(frag, "cbDefn", None), "width", 0) for frag, _ in word[1:])


def _is_break(word) -> bool:
    return any(hasattr(frag, "lineBreak") for frag, _ in word[1:])


def icon_png(icon, color: str) -> str:
    """An icon rasterized once (600 dpi at 9 pt) into our private cache, for reportlab to embed;
    an entry is used only when it is our own plain file holding a PNG of the right size."""
    key = hashlib.sha256(f"{icon.markup}{icon.view_box}{color}".encode()).hexdigest()[:16]
    path = workdir.private_dir("icons") / f"{key}.png"
    if not _cached_png_ok(path, icon_width_px(icon)):
        workdir.write_private(path, _rasterize_icon(icon, color))
    return str(path)


ICON_PX = 75            # the height; the width follows the icon's viewBox
MAX_ASPECT = 6          # a wider icon is drawn within 6 heights, keeping its aspect ratio


def icon_aspect(icon) -> float:
    """Width over height of the icon as the handout sets it: a tier mark of three signs is wider
    than a square resource icon; a tall icon sits in a square."""
    _, _, width, height = icon.view_box
    return min(max(width / height, 1.0), MAX_ASPECT)


def icon_width_px(icon) -> int:
    return round(ICON_PX * icon_aspect(icon))


def _rasterize_icon(icon, color: str) -> bytes:
    import cairocffi as cairo

    from .pdfwrite import new_context
    from .svgdraw import draw_svg
    from .textfit import icon_svg
    width = icon_width_px(icon)
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, width, ICON_PX)
    ctx = new_context(surface)
    ctx.scale(ICON_PX / 24, ICON_PX / 24)
    box = 24 * icon_aspect(icon)
    # icon_svg fits the icon in a square: the square as wide as the drawing, lowered to centre it
    draw_svg(ctx, f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {box:g} 24">'
                  f'{icon_svg(icon, 0, 12 - box / 2, box, color)}</svg>')
    buffer = io.BytesIO()
    with interrupt.deferred():          # never raise inside cairo's write callback
        surface.write_to_png(buffer)
    interrupt.check()
    return buffer.getvalue()


def _cached_png_ok(path: Path, width: int) -> bool:
    """Our own plain file holding a whole PNG of the icon's size: every chunk's checksum right,
    the image data unpacking to exactly its pixels (a truncated or garbled entry is drawn again)."""
    if not workdir.trusted_file(path):
        return False
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR" \
            or int.from_bytes(data[16:20], "big") != width or int.from_bytes(data[20:24], "big") != ICON_PX:
        return False
    at, packed = 8, b""
    while at + 12 <= len(data):
        size = int.from_bytes(data[at:at + 4], "big")
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + size]
        if len(body) != size or zlib.crc32(kind + body) != int.from_bytes(data[at + 8 + size:at + 12 + size], "big"):
            return False
        if kind == b"IDAT":
            packed += body
        if kind == b"IEND":
            try:
                return len(zlib.decompress(packed)) == ICON_PX * (width * 4 + 1)     # RGBA rows, filter bytes
            except zlib.error:
                return False
        at += 12 + size
    return False
