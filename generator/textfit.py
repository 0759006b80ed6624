"""Text -> positioned runs: wraps words into a box, shrinks the size until the text fits, and
places inline icons written as :name:. Measured with the font files' advance widths, the same
widths cairo uses when it draws into the PDF. The helpers hand the runs on as they are
(block_parts, facedoc.py); where SVG text is wanted (render_block, a face's digest), the
runs are written as strings with every text and attribute value escaped, not with svgwrite:
this runs for every line of every face, and an svgwrite <text> element costs 73 us to build and
serialise against 3 us for the string (bench-deck card: about ten runs, 0.5 ms a card is the
whole budget at 2,000 cards/s).
"""
from __future__ import annotations

import operator
import re
import unicodedata
from dataclasses import dataclass

from . import glyphs
from .facedoc import InlineIcon, Run, RunStyle, parts_svg, run_style
from .fonts import FontMetrics
from .units import pt_to_mm

ICON_TOKEN = re.compile(r":([a-z0-9][a-z0-9_-]*):")
SIZE_STEP_PT = 0.25
SHY = glyphs.SOFT_HYPHEN     # a break point: printed as '-' where the line breaks, else nothing


class TextFitError(Exception):
    """Text that cannot be set as asked (too long for its box, or a character the font lacks)."""


@dataclass(frozen=True)
class Style:
    family: str
    bold: bool
    italic: bool
    metrics: FontMetrics
    color: str


def _pieces(raw: str, icons) -> list[tuple[str, str]]:
    """A word with icon tokens -> ('text', s) and ('icon', name) pieces."""
    pieces, pos = [], 0
    for match in ICON_TOKEN.finditer(raw):
        if match.group(1) not in icons:
            continue
        if match.start() > pos:
            pieces.append(("text", raw[pos:match.start()]))
        pieces.append(("icon", match.group(1)))
        pos = match.end()
    if pos < len(raw):
        pieces.append(("text", raw[pos:]))
    return pieces


ICON_EM = 1.15     # an inline icon is a little wider than a capital letter


class _Plain(list):
    """A measured paragraph without a soft hyphen (most paragraphs): wrapping it never splits
    a word."""
    __slots__ = ()


def measure(text: str, style: Style, icons):
    """Paragraphs of (word, width at size 1): widths scale with the size, so one measurement
    serves every size tried while shrinking. A word is its text, or a list of pieces when it
    holds an icon (the common case, plain text, stays a string: this runs for every card)."""
    metrics = style.metrics
    width = metrics.width
    out = []
    for paragraph in text.split("\n"):
        if SHY not in paragraph:        # (most paragraphs) every word at once, then those holding icons
            raws = paragraph.split()
            words = _Plain(metrics.measured(raws))
            if ":" in paragraph:
                _icon_words(words, icons, width)
            out.append(words)
            continue
        words = []
        for raw in paragraph.split():
            if ":" not in raw:
                words.append((raw, width(raw.replace(SHY, ""), 1.0)))
                continue
            pieces = _pieces(raw.replace(SHY, ""), icons)
            words.append((pieces, sum(ICON_EM if kind == "icon" else width(value, 1.0) for kind, value in pieces)))
        out.append(words)
    return out


def _icon_words(words: list, icons, width) -> None:
    """Each measured word holding a ':' made its pieces (icons and text), measured as such."""
    for index, (raw, _) in enumerate(words):
        if ":" in raw:
            pieces = _pieces(raw, icons)
            words[index] = (pieces, sum(ICON_EM if kind == "icon" else width(value, 1.0) for kind, value in pieces))


def layout_lines(text, width: float, size: float, style: Style, icons):
    """Greedy wrap at one size. Returns lines (lists of words) or None if a word is too wide.
    `text` is a string or what measure() returned for it."""
    paragraphs = measure(text, style, icons) if isinstance(text, str) else text
    space = style.metrics.widths.get(" ", 0.25) * size
    limit = width + 1e-6
    lines = []
    for paragraph in paragraphs:
        if type(paragraph) is _Plain:
            if not _wrap_plain(paragraph, lines, size, space, limit):
                return None
            continue
        line, line_w = [], 0.0
        queue = list(reversed(paragraph))
        while queue:
            word, unit_w = queue.pop()
            room = limit - (line_w + space if line else 0.0)
            if unit_w * size <= room:
                line_w += (space if line else 0.0) + unit_w * size
                line.append((word, unit_w))
                continue
            split = _soft_break(word, room / size, style) if isinstance(word, str) and SHY in word else None
            if split:                   # the head of the word, hyphenated, ends this line
                head, tail = split
                line.append(head)
                queue.append(tail)
            elif not line:
                return None             # too wide even alone on a line
            else:
                queue.append((word, unit_w))
            lines.append(line)
            line, line_w = [], 0.0
        lines.append(line)
    return lines


def _wrap_plain(paragraph, lines, size, space, limit) -> bool:
    """layout_lines' greedy wrap of a _Plain paragraph, its lines added to `lines`, with the
    same arithmetic (the same breaks to the last bit) but no queue: no word is ever split.
    False when a word is too wide even alone on a line."""
    line, line_w = [], 0.0
    for word in paragraph:
        w = word[1] * size
        if line:
            if w <= limit - (line_w + space):
                line_w += space + w
                line.append(word)
                continue
            lines.append(line)
        if w > limit:
            return False
        line, line_w = [word], w
    lines.append(line)
    return True


def _soft_break(word: str, room: float, style: Style):
    """The longest head of `word` up to a soft hyphen that fits `room` (at size 1) with its
    hyphen: ((head + '-', width), (rest, width)), or None."""
    width = style.metrics.width
    cuts = [i for i, c in enumerate(word) if c == SHY]
    for cut in reversed(cuts):
        head = word[:cut].replace(SHY, "") + "-"
        head_w = width(head, 1.0)
        if head_w <= room:
            rest = word[cut + 1:]
            return (head, head_w), (rest, width(rest.replace(SHY, ""), 1.0))
    return None


def fit(text, width, height, size_pt, min_pt, style, icons, line_height=1.2, max_lines=None):
    """Largest size from size_pt down to min_pt (in 0.25 pt steps) at which the text fits in
    the box (and in at most max_lines lines)."""
    if not (text.isascii() and style.metrics.covers_ascii and text.replace("\n", " ").isprintable()):
        wrong = glyphs.problem(ICON_TOKEN.sub("", text), style.metrics.widths, shaped=True)
        if wrong:
            raise TextFitError(f"text {glyphs.snippet(text)} in {style.family}: {wrong}")
    measured = measure(text, style, icons)
    size_pt = max(size_pt, min_pt)
    steps = int(round((size_pt - min_pt) / SIZE_STEP_PT))
    for step in range(steps + 1):
        size = pt_to_mm(size_pt - step * SIZE_STEP_PT)
        if _block_height(1, size, line_height, style) > height + 1e-6:
            continue
        lines = layout_lines(measured, width, size, style, icons)
        if (lines is not None and _block_height(len(lines), size, line_height, style) <= height + 1e-6
                and (max_lines is None or len(lines) <= max_lines)):
            return size, lines
    return None


def _block_height(n_lines, size, line_height, style):
    return (n_lines - 1) * size * line_height + (style.metrics.ascent + style.metrics.descent) * size


def render_block(lines, x, y, width, height, size, style, icons, align="left", valign="top",
                 line_height=1.2) -> str:
    """Positioned SVG for fitted lines (lists of (word, width at size 1)): one <text> per run
    between icons, a <g> per icon."""
    head = run_style(style.family, size, style.bold, style.italic, style.color)
    return parts_svg(block_parts(lines, x, y, width, height, size, style, icons, align, valign, line_height, head)[0])


def block_parts(lines, x, y, width, height, size, style, icons, align, valign, line_height,
                written: RunStyle) -> tuple[tuple, tuple[float, float, float, float]]:
    """Fitted lines as the block's parts, in drawing order: a stretch of runs (a tuple of
    facedoc.Run, each at its x and baseline, in the style `written`) between icons, a
    facedoc.InlineIcon per icon; and the block's (left, top, right, bottom) in mm: the ink's
    box, not the box asked for (a line set centred in a wide box is narrower than it). The
    text helpers hand the parts to the drawing stage as they are (facedoc.py); render_block
    writes them as SVG."""
    m = style.metrics
    block_h = _block_height(len(lines), size, line_height, style)
    top = y + _INDENT[_VALIGN[valign]](height - block_h)
    baseline = top + m.ascent * size
    space = m.width(" ", size)
    indent = _INDENT[align]
    step = size * line_height
    parts, runs, left_edge, right_edge = [], [], None, None
    for line in lines:
        if not line:                # an empty paragraph: a line's height, nothing drawn
            baseline += step
            continue
        line_w = sum(map(_WIDTH, line)) * size + space * (len(line) - 1)
        start = x + indent(width - line_w)
        end = start + line_w
        if left_edge is None:
            left_edge, right_edge = start, end
        else:                       # (min and max, as they choose between equals)
            if start < left_edge:
                left_edge = start
            if end > right_edge:
                right_edge = end
        first = line[0][0]
        mirror = not (type(first) is str and first[:1].isascii() and first[:1].isalpha()) and right_to_left(line)
        plain = _plain_run(line) if not mirror else None
        if plain is not None:       # plain words, left to right (most lines): one run from the line's start
            runs.append(Run(start, baseline, written, plain))
            baseline += step
            continue
        for kind, value, left, w in _segments(line, start, size, space, m):
            if mirror:          # runs and icons from the right: the line reads right to left
                left = 2 * start + line_w - left - w
            if kind == "text":
                runs.append(Run(left, baseline, written, value))
                continue
            if runs:
                parts.append(tuple(runs))
                runs = []
            parts.append(_icon_markup(icons[value], left, baseline, size, style))
        baseline += step
    if runs:
        parts.append(tuple(runs))
    extent = (x, top, x, top) if left_edge is None else (left_edge, top, right_edge, top + block_h)
    return tuple(parts), extent


_WORD, _WIDTH = operator.itemgetter(0), operator.itemgetter(1)      # of a (word, width at size 1)
_INDENT = {"left": lambda room: 0.0, "center": lambda room: room / 2, "right": lambda room: room}   # align -> a line's
# indent from the room its box leaves beside it
_VALIGN = {"top": "left", "middle": "center", "bottom": "right"}     # valign -> the block's, the same way down


def _plain_run(line) -> str | None:
    """A line of words without icons as the one run it is drawn as; None when a word holds
    an icon (its pieces are a list: join refuses it) or there are no words."""
    try:
        text = " ".join(map(_WORD, line))
    except TypeError:
        return None
    return (text.replace(SHY, "") if SHY in text else text) if line else None


def right_to_left(line) -> bool:
    """A line whose first strong letter is right to left (Hebrew) is laid out from the right;
    the drawing stage orders the letters inside each run."""
    first = line[0][0] if line else None
    if type(first) is str and first[:1].isascii() and first[:1].isalpha():
        return False                # a Latin letter first (most lines): left to right
    for word, _ in line:
        for text in ([word] if isinstance(word, str) else [v for k, v in word if k == "text"]):
            for char in text:
                kind = unicodedata.bidirectional(char)
                if kind in ("L", "R", "AL"):
                    return kind != "L"
    return False


def _segments(line, pen, size, space, m):
    """A line as ('text', run, x, width) between icons and ('icon', name, x, width), left to right."""
    segments, run, run_x = [], [], pen

    def close(end):
        if run:
            segments.append(("text", "".join(run), run_x, end - run_x))
            run.clear()
    for i, (word, unit_w) in enumerate(line):
        if i:
            pen += space
            if run:
                run.append(" ")
            else:
                run_x = pen
        if isinstance(word, str):       # a word without an icon (most): one piece of text
            if not run:
                run_x = pen
            run.append(word.replace(SHY, ""))
            pen += unit_w * size
            continue
        for kind, value in word:
            w = m.width(value, size) if kind == "text" else size * ICON_EM
            if kind == "text":
                if not run:
                    run_x = pen
                run.append(value)
            else:
                close(pen)
                segments.append(("icon", value, pen, w))
            pen += w
    close(pen)
    return segments


def _icon_markup(icon, x, baseline, size, style) -> InlineIcon:
    """An icon one em high, centred on the capital height, inside an ICON_EM wide slot."""
    box = size * 1.0
    left = x + (size * ICON_EM - box) / 2
    top = baseline - style.metrics.cap_height * size / 2 - box / 2
    return inline_icon(icon, left, top, box, style.color)


def inline_icon(icon, x, y, size, color=None) -> InlineIcon:
    """An icon scaled into a size x size square at (x, y), keeping its aspect ratio."""
    minx, miny, vw, vh = icon.view_box
    scale = size / max(vw, vh)
    dx, dy = x + (size - vw * scale) / 2, y + (size - vh * scale) / 2
    return InlineIcon((dx, dy, scale, -minx, -miny), str(color) if color else None, icon.markup)


def icon_svg(icon, x, y, size, color=None) -> str:
    """inline_icon's SVG."""
    return inline_icon(icon, x, y, size, color).svg()
