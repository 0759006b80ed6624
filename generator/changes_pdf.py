"""changes.Changes -> the players' list that ends <game>-changes.pdf: which components to take
out of the box and which to put in, by name and count, on as few pages as it takes (one for
any ordinary reprint), drawn with cairo in the page guide's font.
"""
from __future__ import annotations

import cairocffi as cairo

from .changes import Changes, players_list
from .glyphs import font_coverage, printable
from .pdfwrite import FIXED_DATE, LABEL_FONT, PT_PER_MM, _Sink, new_context

MARGIN = 15.0          # mm, inside any home printer's reach
TITLE_SIZE = 6.0       # mm, about 17 pt
HEAD_SIZE = 4.5
LINE_SIZE = 3.6        # about 10 pt
LEADING = 1.45         # line pitch as a multiple of the text size


def list_pages(changes: Changes, size: tuple[float, float], boards: list[str]) -> bytes:
    """The list as a PDF of `size` (mm) pages."""
    take_out, put_in = players_list(changes)
    blocks = [("title", f"{changes.title}: changes since {changes.since}"),
              ("line", f"Take these out of the box ({changes.taken_out}):"
                       if take_out else "Nothing to take out of the box."),
              *[("item", line) for line in take_out],
              ("line", f"Put these in, from the pages before ({changes.put_in}):"
                       if put_in else "Nothing new to put in."),
              *[("item", line) for line in put_in]]
    if boards:
        blocks += [("line", "Print these boards again:"), *[("item", name) for name in boards]]
    return _draw(blocks, size)


STYLES = {"title": (TITLE_SIZE, True, 0.0), "line": (HEAD_SIZE, True, 4.0), "item": (LINE_SIZE, False, 0.0)}


def _draw(blocks: list[tuple[str, str]], size: tuple[float, float]) -> bytes:
    width, height = size
    buffer = _Sink()
    surface = cairo.PDFSurface(buffer, width * PT_PER_MM, height * PT_PER_MM)
    surface.set_metadata(cairo.PDF_METADATA_CREATOR, "pnpgen")
    surface.set_metadata(cairo.PDF_METADATA_CREATE_DATE, FIXED_DATE)
    surface.set_metadata(cairo.PDF_METADATA_MOD_DATE, FIXED_DATE)
    ctx = _page(surface)
    y = MARGIN
    for style, text in blocks:
        text_size, bold, space = STYLES[style]
        y += space + text_size * LEADING
        if y > height - MARGIN:          # the list goes on on the next page
            ctx.show_page()
            ctx = _page(surface)
            y = MARGIN + text_size * LEADING
        ctx.select_font_face(LABEL_FONT, cairo.FONT_SLANT_NORMAL,
                             cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL)
        ctx.set_font_size(text_size)
        ctx.move_to(MARGIN + (6.0 if style == "item" else 0.0), y)
        ctx.show_text(_fitted(ctx, _printable(text, bold), width - 2 * MARGIN - 6.0))
    ctx.show_page()
    surface.finish()
    return buffer.getvalue()


def _page(surface) -> cairo.Context:
    ctx = new_context(surface)
    ctx.scale(PT_PER_MM, PT_PER_MM)
    ctx.set_source_rgb(0, 0, 0)
    return ctx


def _printable(text: str, bold: bool) -> str:
    """A pack's names are set in its own fonts; here, a character the guide's font lacks prints
    as '?' rather than as an empty box."""
    covered = font_coverage(LABEL_FONT, bold, False)[0]
    return "".join(c if c in covered or c == " " else "?" for c in printable(text))


def _fitted(ctx, text: str, width: float) -> str:
    """Text cut with '...' to the width, so a long name never runs off the page."""
    if ctx.text_extents(text)[4] <= width:
        return text
    low, high = 0, len(text)          # the longest start that fits, found by halving
    while low < high:
        mid = (low + high + 1) // 2
        low, high = (mid, high) if ctx.text_extents(text[:mid] + "...")[4] <= width else (low, mid - 1)
    return text[:low].rstrip() + "..."
