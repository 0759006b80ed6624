"""A face's SVG and the text blocks the helpers placed on it -> the first block drawn off the face.

text_box and text_line know their lines' box in the coordinates they were called in; a template
may call them inside `<g transform=...>` (a rotated label on a hat's net), so whether the text
lands on the face is decided here, with the transforms of the elements around it. A block is
known by its first text run's x, y and font size, as render_block writes them. Text past the
face's edge would be cut off at the trim without a word: it is an error instead.
"""
from __future__ import annotations

import re
import sys
import xml.parsers.expat

SLACK = 0.05        # mm a block may pass the edge: rounding, never a visible cut
_FIRST_RUN = re.compile(r'<text x="([^"]*)" y="([^"]*)" font-family="[^"]*" font-size="([^"]*)"')
# elements whose content is not drawn where it stands (or in a frame of its own)
_ELSEWHERE = {"defs", "symbol", "pattern", "clipPath", "mask", "marker", "svg", "linearGradient",
              "radialGradient", "filter"}
_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def place(placed: dict, markup: str, shown: str, extent: tuple) -> None:
    """Note a block (its markup, its text as messages show it, its (left, top, right, bottom)),
    with the template line that drew it."""
    run = _FIRST_RUN.search(markup)
    if run:
        placed.setdefault(run.groups(), (shown, extent, _template_line()))


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


def outside(body: str, placed: dict, width: float, height: float) -> str:
    """'' when every placed block lies on the width x height face, else what is wrong,
    beginning with the template line that drew it (' line N: ')."""
    if not placed:
        return ""
    if "transform" not in body and "<svg" not in body and "<symbol" not in body:
        blocks = list(placed.values())          # drawn where they were placed
    else:
        blocks = _drawn(body, placed)
    for shown, (left, top, right, bottom), line in blocks:
        if left < -SLACK or top < -SLACK or right > width + SLACK or bottom > height + SLACK:
            return (f"{f' line {line}' if line else ''}: text {shown} is drawn outside its {width:g} x {height:g} mm face (from x {left:.1f}, "
                    f"y {top:.1f} to x {right:.1f}, y {bottom:.1f} mm on the face); move or shrink its box to "
                    "lie on the face, or check the group's size")
    return ""


def _drawn(body: str, placed: dict) -> list:
    """The placed blocks with their boxes in face coordinates, found by walking the elements
    with their transforms (a block in defs, a symbol or a pattern is not drawn there: left out)."""
    from .svgdraw.base import UnsupportedSVG
    from .svgdraw.transforms import _compose, _parse_transform_tuple
    stack, found = [(_IDENTITY, False)], []

    def start(tag, attrs):
        matrix, away = stack[-1]
        away = away or tag in _ELSEWHERE
        if "transform" in attrs and not away:
            try:
                matrix = _compose(matrix, _parse_transform_tuple(attrs["transform"]))
            except (UnsupportedSVG, ValueError, KeyError):
                away = True             # svgcheck and the drawing say what is wrong with it
        stack.append((matrix, away))
        if tag == "text" and not away:
            block = placed.get((attrs.get("x"), attrs.get("y"), attrs.get("font-size")))
            if block:
                found.append((block[0], _box(matrix, block[1]), block[2]))

    parser = xml.parsers.expat.ParserCreate()
    parser.StartElementHandler = start
    parser.EndElementHandler = lambda tag: stack.pop()
    try:
        parser.Parse(f"<g>{body}</g>", True)
    except xml.parsers.expat.ExpatError:
        return []                       # reported as not well-formed
    return found


def _box(m, extent) -> tuple:
    left, top, right, bottom = extent
    a, b, c, d, e, f = m
    xs, ys = [], []
    for x, y in ((left, top), (right, top), (left, bottom), (right, bottom)):
        xs.append(a * x + c * y + e)
        ys.append(b * x + d * y + f)
    return min(xs), min(ys), max(xs), max(ys)
