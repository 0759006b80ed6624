"""Sheets (impose.Sheet) -> the page guide printed at the foot of each: the game, the sheet, its
side and the groups on it, never cut short.

Measured with the guide font's own advance widths, as cairo draws it (pdfwrite.LABEL_FONT).
"""
from __future__ import annotations

import math

GUIDE_STRIP = 3.0        # reserved at the foot of each sheet for the page guide
GUIDE_SIZE = 2.2         # page guide text height, mm (about 6 pt)
SQRT3 = math.sqrt(3)

SIDE_WORDS = {
    "front": "front of sheet {n} - print double-sided, flip on the {edge} edge",
    "back": "back of sheet {n}",
    "one-sided": "sheet {n}, one-sided - nothing is printed behind it",
    "blank": "back of sheet {n} - left blank: sheet {n} is one-sided",
    "fold": "sheet {n}, print one-sided - cut out, fold on the dashed line, glue back to back",
}


SHORT_SIDE_WORDS = {      # when the page guide is too long for the page even on two lines
    "front": "front of sheet {n}, flip on the {edge} edge",
    "back": "back of sheet {n}",
    "one-sided": "sheet {n}, one-sided",
    "blank": "back of sheet {n}, left blank",
    "fold": "sheet {n}, print one-sided, fold and glue",
}
GUIDE_LEADING = 2.7      # mm from one line of a two-line page guide to the next


def label_sheet(sheet, names: dict[str, str], opts, title: str) -> None:
    """The page guide: game, sheet, side and groups (group key -> name in `names`), in the strip
    kept free at the foot of the page; on a back page in the strip that lies behind the front's
    (the top, for short-edge flips), so it never sits behind a face. Never cut short: too long
    for one line, the groups go on a second line where the page leaves room for it (guide_lines)."""
    m, H = opts.margin, opts.page_height
    behind_top = sheet.side in ("back", "blank") and opts.duplex == "short"
    top, bottom = _drawn_rows(sheet)
    room = (top - m - GUIDE_SIZE) if behind_top else (H - m - GUIDE_STRIP - bottom)
    lines = guide_lines(title, sheet.side, sheet.number, opts.duplex, [names[k] for k in sheet.groups],
                        opts.page_width - 2 * m, two=room >= GUIDE_LEADING + 0.8)
    sheet.label = "\n".join(lines)
    first = m + GUIDE_SIZE if behind_top else H - m - 0.6 - GUIDE_LEADING * (len(lines) - 1)
    sheet.label_at = (m, first)


def guide_lines(title: str, side: str, number: int, duplex: str, groups: list[str], width: float,
                two: bool = True) -> list[str]:
    """The page guide as one line where it fits the width; else the groups on a second line
    (`two`: the page has room for it); else the side said shorter; else the groups that fit
    named and the rest counted. Never a word cut off."""
    whole, short = (words[side].format(n=number, edge=duplex) for words in (SIDE_WORDS, SHORT_SIDE_WORDS))
    named = ", ".join(groups)
    for what in (whole, short):
        head = " | ".join(t for t in (title, what) if t)
        if _fits(" | ".join(t for t in (head, named) if t), width):
            return [" | ".join(t for t in (head, named) if t)]
        if two and _fits(head, width) and _fits(named, width):
            return [head, named]
    head = " | ".join(t for t in (title, short) if t)
    for k in range(len(groups) - 1, -1, -1):
        more = f"{len(groups) - k} more group{'s' if len(groups) - k > 1 else ''} (build.json lists them)"
        text = " | ".join([head, ", ".join(groups[:k] + [more])])
        if _fits(text, width):
            return [text]
    return [head]


_ZEROS = str.maketrans("123456789", "000000000")
_FITTED: dict[tuple[str, float], bool] = {}


def _fits(text: str, width: float) -> bool:
    """Does the text fit the width? Liberation Sans' digits are all one width, so a guide's width
    is the same with its digits as 0s, to the bit (the same advances summed in the same order):
    each guide is measured once per length of its numbers, not once per page (2,224 pages at
    10,000 cards), and the font's word cache is not filled with every page's own line."""
    metrics, digits_alike = _guide_font()
    key = (text.translate(_ZEROS) if digits_alike else text, width)
    fits = _FITTED.get(key)
    if fits is None:
        if len(_FITTED) > 4096:
            _FITTED.clear()
        fits = _FITTED[key] = metrics.width(key[0], GUIDE_SIZE) <= width
    return fits


_METRICS: list = []


def _guide_font() -> tuple:
    """Liberation Sans' advance widths (the page guide's font, pdfwrite.LABEL_FONT), and whether
    its ten digits are all one width."""
    if not _METRICS:
        from .fonts import shipped
        metrics = shipped().metrics("Liberation Sans")
        _METRICS.append((metrics, len({metrics.widths.get(d, 0.5) for d in "0123456789"}) == 1))
    return _METRICS[0]


def _guide_metrics():
    return _guide_font()[0]


def _drawn_rows(sheet) -> tuple[float, float]:
    """How far down the page what is drawn (faces with their bleed, marks) starts and ends."""
    ys = [v for x0, y0, x1, y1 in sheet.lines + sheet.ticks for v in (y0, y1)]
    for p in sheet.placements + sheet.outlines:
        reach = max(p.bleed) * 2 / SQRT3          # a hexagon's bleed reaches furthest at its corners
        ys += [p.y - reach, p.y + p.h + reach]
    return (min(ys), max(ys)) if ys else (sheet.height / 2, sheet.height / 2)
