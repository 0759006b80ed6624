"""A handout's inline icon (game.yaml icons, written `:name:`) -> a small PNG file in our private
cache, which reportlab embeds: drawn once per icon and colour, redrawn when the cached file is
not our own whole PNG."""
from __future__ import annotations

import hashlib
import io
import zlib
from pathlib import Path

from . import interrupt, workdir


def icon_png(icon, color: str) -> str:
    """An icon rasterized once (600 dpi at 9 pt) into our private cache, for reportlab to embed;
    an entry is used only when it is our own plain file holding a PNG of the right size."""
    key = hashlib.sha256(f"{icon.markup}{icon.view_box}{color}".encode()).hexdigest()[:16]
    path = workdir.private_dir("icons") / f"{key}.png"
    if not _cached_png_ok(path):
        workdir.write_private(path, _rasterize_icon(icon, color))
    return str(path)


ICON_PX = 75


def _rasterize_icon(icon, color: str) -> bytes:
    import cairocffi as cairo

    from .pdfwrite import new_context
    from .svgdraw import draw_svg
    from .textfit import icon_svg
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, ICON_PX, ICON_PX)
    ctx = new_context(surface)
    ctx.scale(ICON_PX / 24, ICON_PX / 24)
    draw_svg(ctx, f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">{icon_svg(icon, 0, 0, 24, color)}</svg>')
    buffer = io.BytesIO()
    with interrupt.deferred():          # never raise inside cairo's write callback
        surface.write_to_png(buffer)
    interrupt.check()
    return buffer.getvalue()


def _cached_png_ok(path: Path) -> bool:
    """Our own plain file holding a whole PNG of the icon's size: every chunk's checksum right,
    the image data unpacking to exactly its pixels (a truncated or garbled entry is drawn again)."""
    if not workdir.trusted_file(path):
        return False
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR" \
            or not int.from_bytes(data[16:20], "big") == ICON_PX == int.from_bytes(data[20:24], "big"):
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
                return len(zlib.decompress(packed)) == ICON_PX * (ICON_PX * 4 + 1)     # RGBA rows, filter bytes
            except zlib.error:
                return False
        at += 12 + size
    return False
