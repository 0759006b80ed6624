"""A face's SVG and the text the helpers placed on it -> the first text drawn off the face.

text_box and text_line know their lines' box in the coordinates they were called in; a template
may call them inside `<g transform=...>` (a rotated label on a hat's net), so whether the text
lands on the face is decided here, with the transforms of the elements around it. A block is
known by its first text run's x, y and font size, as render_block writes them. A `<text>` the
template writes itself is checked by its start point (its width is known only when drawn).
Text past the face's edge would be cut off at the trim without a word: it is an error instead.
"""
from __future__ import annotations

import re
import sys
import xml.parsers.expat

from .glyphs import snippet

SLACK = 0.05        # mm a block may pass the edge: rounding, never a visible cut
_FIRST_RUN = re.compile(r'<text x="([^"]*)" y="([^"]*)" font-family="[^"]*" font-size="([^"]*)"')
# elements whose content is not drawn where it stands (or in a frame of its own)
_ELSEWHERE = {"defs", "symbol", "pattern", "clipPath", "mask", "marker", "svg", "linearGradient",
              "radialGradient", "filter"}
_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


class Placed:
    """The text blocks the helpers drew on one face (first run -> (text, box, template line)),
    and how many <text> runs they wrote: more in the face means the template wrote its own."""

    def __init__(self) -> None:
        self.blocks: dict[tuple, tuple] = {}
        self.runs = 0


def place(placed: Placed, markup: str, shown: str, extent: tuple) -> None:
    """Note a block (its markup, its text as messages show it, its (left, top, right, bottom)),
    with the template line that drew it."""
    placed.runs += markup.count("<text ")
    run = _FIRST_RUN.search(markup)
    if run:
        placed.blocks.setdefault(run.groups(), (shown, extent, _template_line()))


def _template_line() -> int | None:
    """The line of the template being rendered that called the helper (Jinja2 maps its
    compiled code's lines back onto the template's)."""
    frame = sys._getframe(2)
    while frame is not None:
        template = frame.f_globals.get("__jinja_template__")
        if template is not None:
            return template.get_corresponding_lineno(frame.f_lineno)
        frame = frame.f_back
    return None


def outside(body: str, placed: Placed, width: float, height: float, line_of=lambda text: "") -> str:
    """'' when all text lies on the width x height face, else what is wrong, beginning with
    the template line that drew it (' line N: '; line_of(text) finds it for a raw <text>)."""
    raw = body.count("<text") > placed.runs
    if not placed.blocks and not raw:
        return ""
    if not raw and "transform" not in body and "<svg" not in body and "<symbol" not in body:
        drawn = list(placed.blocks.values())      # where they were placed
    else:
        drawn = _drawn(body, placed.blocks)
    for shown, (left, top, right, bottom), line in drawn:
        if left < -SLACK or top < -SLACK or right > width + SLACK or bottom > height + SLACK:
            where = f" line {line}" if isinstance(line, int) else line_of(line or "")
            span = (f"at x {left:.1f}, y {top:.1f}" if (left, top) == (right, bottom) else
                    f"from x {left:.1f}, y {top:.1f} to x {right:.1f}, y {bottom:.1f}")
            own = isinstance(line, str)         # a <text> of the template's own: a start point
            return (f"{where}: text {snippet(shown) if own else shown} is drawn outside its {width:g} x "
                    f"{height:g} mm face ({span} mm on the face); "
                    f"{'move it' if own else 'move or shrink its box'} to lie on the face, or check the group's size")
    return ""


def _drawn(body: str, blocks: dict) -> list:
    """The helpers' blocks with their boxes in face coordinates, and the start point of each
    <text> the template wrote itself, found by walking the elements with their transforms (text
    in defs, a symbol or a pattern is not drawn there: left out). Each is (text, box, line): a
    block's line is its template line, a raw text's is its content (to find its line by)."""
    from .svgdraw.base import UnsupportedSVG
    from .svgdraw.transforms import _compose, _parse_transform_tuple
    stack = [(_IDENTITY, False, None)]      # (matrix, not drawn here, the raw text being read)
    found, raw = [], []

    def start(tag, attrs):
        matrix, away, words = stack[-1]
        away = away or tag in _ELSEWHERE
        if "transform" in attrs and not away:
            try:
                matrix = _compose(matrix, _parse_transform_tuple(attrs["transform"]))
            except (UnsupportedSVG, ValueError, KeyError):
                away = True             # svgcheck and the drawing say what is wrong with it
        if tag == "text" and not away:
            block = blocks.get((attrs.get("x"), attrs.get("y"), attrs.get("font-size")))
            if block:
                found.append((block[0], _box(matrix, block[1]), block[2]))
            else:
                words = _raw_text(attrs, matrix, raw)
        stack.append((matrix, away, words))

    def text(data):
        if stack[-1][2] is not None:
            stack[-1][2].append(data)

    parser = xml.parsers.expat.ParserCreate()
    parser.StartElementHandler, parser.CharacterDataHandler = start, text
    parser.EndElementHandler = lambda tag: stack.pop()
    try:
        parser.Parse(f"<g>{body}</g>", True)
    except xml.parsers.expat.ExpatError:
        return []                       # reported as not well-formed
    for words, point in raw:
        content = "".join(words).strip()
        found.append((content, point, content))
    return found


def _raw_text(attrs: dict, matrix, raw: list) -> list | None:
    """A <text> written by the template: its start point noted in `raw` with a list its words
    are gathered into (returned), or None when its position is not one number each."""
    try:
        x, y = float(attrs.get("x", 0)), float(attrs.get("y", 0))
    except ValueError:              # a list of positions, or units: drawn as written
        return None
    words: list[str] = []
    raw.append((words, _box(matrix, (x, y, x, y))))
    return words


def _box(m, extent) -> tuple:
    left, top, right, bottom = extent
    a, b, c, d, e, f = m
    xs, ys = [], []
    for x, y in ((left, top), (right, top), (left, bottom), (right, bottom)):
        xs.append(a * x + c * y + e)
        ys.append(b * x + d * y + f)
    return min(xs), min(ys), max(xs), max(ys)
