"""A face's parsed document and the text the helpers placed on it -> the first text drawn off the face.

text_box and text_line know their lines' box in the coordinates they were called in; a template
may call them inside `<g transform=...>` (a rotated label on a hat's net), so whether the text
lands on the face is decided here, with the transforms of the elements around it. A block is
known by its placeholder (facedoc.py). A `<text>` the
template writes itself is checked by its start point (its width is known only when drawn).
Text past the face's edge would be cut off at the trim without a word: it is an error instead.
"""
from __future__ import annotations

import sys

from .facedoc import RUN_TAG as RUN
from .glyphs import snippet
from .sandbox import CALLER

SLACK = 0.05        # mm a block may pass the edge: rounding, never a visible cut
# elements whose content is not drawn where it stands (or in a frame of its own)
_ELSEWHERE = {"defs", "symbol", "pattern", "clipPath", "mask", "marker", "svg", "linearGradient",
              "radialGradient", "filter"}
_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_SVG = "{http://www.w3.org/2000/svg}"


class Placed:
    """The text blocks the helpers drew on one face (its index in the face's table -> (text, box,
    template line)), and how many <text> elements and frames (a transform, an <svg>, a <symbol>)
    their markup holds (an icon's own): more in the face means the template wrote its own."""

    def __init__(self) -> None:
        self.blocks: dict[int, tuple] = {}
        self.runs = 0
        self.frames = 0

    def note(self, markup: str) -> None:
        """Markup a helper wrote (an icon): what in it is not the template's."""
        if "<" in markup:
            self.runs += markup.count("<text ")
            self.frames += sum(markup.count(mark) for mark in FRAMES)


FRAMES = ("transform", "<svg", "<symbol")     # what may move text from where a helper placed it


def place(placed: Placed, first: int | None, markup: str, shown: str, extent: tuple) -> None:
    """Note a block (its index in the face's table, its markup, its text
    as messages show it, its (left, top, right, bottom)), with the template line that drew it."""
    if first is None:           # its SVG (a placeholder holds no text nor frame of the template's)
        placed.note(markup)
    else:
        if first not in placed.blocks:
            placed.blocks[first] = (shown, extent, _template_line())


def line_number(line: tuple) -> int:
    """The template line of a block's (template, code, instruction), found when a message needs
    it: Jinja2 maps its compiled code's lines back onto the template's by reparsing its line
    table at every call, and Python finds a frame's line by decoding its code's line table (long,
    for a template's compiled code): a few per cent of a card's time each if done for every
    block. So the caller's instruction is kept (a plain tuple: made for every block), and its
    line found only when asked."""
    template, code, instruction = line
    return template.get_corresponding_lineno(_code_line(code, instruction))


def _code_line(code, instruction: int) -> int:
    """The line of code's instruction at byte offset `instruction` (a frame's f_lasti): what
    the frame's f_lineno said when it stood there."""
    for start, end, line in code.co_lines():
        if start <= instruction < end:
            return line if line is not None else 0
    return 0


def _template_line() -> tuple | None:
    """(template, code, instruction) of the template frame nearest the helper that called
    place(): the frame the sandbox called the helper from (sandbox.CALLER), else the walk starts
    at that helper's caller: the helper itself (place's caller, a function of pnpgen's) is no
    template, and each frame looked at is made into an object (4 a face: 1-2 us)."""
    frame = CALLER[0] or sys._getframe(3)
    while frame is not None:
        template = frame.f_globals.get("__jinja_template__")
        if template is not None:
            return template, frame.f_code, frame.f_lasti
        frame = frame.f_back
    return None


def outside(root, body: str, placed: Placed, width: float, height: float, nonce: str = "",
            line_of=lambda text: "", blocks: tuple = ()) -> str:
    """'' when all text lies on the width x height face, else what is wrong, beginning with
    the template line that drew it (' line N: '; line_of(text) finds it for a raw <text>).
    `root` is the face's parsed document, `body` its markup as the template wrote it, `nonce`
    that of its block placeholders and `blocks` the blocks (facedoc.py)."""
    texts, frames = _marks(root, body)
    raw = texts > placed.runs
    if not placed.blocks and not raw:
        return ""
    if not raw and frames <= placed.frames:
        drawn = list(placed.blocks.values())      # where they were placed
    else:
        drawn = _drawn(root, placed.blocks, nonce, blocks)
    for shown, (left, top, right, bottom), line in drawn:
        if left < -SLACK or top < -SLACK or right > width + SLACK or bottom > height + SLACK:
            where = f" line {line_number(line)}" if type(line) is tuple else line_of(line or "")
            span = (f"at x {left:.1f}, y {top:.1f}" if (left, top) == (right, bottom) else
                    f"from x {left:.1f}, y {top:.1f} to x {right:.1f}, y {bottom:.1f}")
            own = isinstance(line, str)         # a <text> of the template's own: a start point
            return (f"{where}: text {snippet(shown) if own else shown} is drawn outside its {width:g} x "
                    f"{height:g} mm face ({span} mm on the face); "
                    f"{'move it' if own else 'move or shrink its box'} to lie on the face, or check the group's size")
    return ""


_MARKED = [None, -1, 0, 0]     # the last document's root, its body's length, <text> and frame marks


def _marks(root, body: str) -> tuple[int, int]:
    """How many <text> and frame marks the face's body holds: counted once for the faces that
    share its document (the same root: the same markup, so the same body)."""
    if _MARKED[0] is not root or _MARKED[1] != len(body) or root is None:
        _MARKED[:] = [root, len(body), body.count("<text"), sum(body.count(mark) for mark in FRAMES)]
    return _MARKED[2], _MARKED[3]


def _drawn(root, blocks: dict, nonce: str, parts: tuple = ()) -> list:
    """The helpers' blocks with their boxes in face coordinates, and the start point of each
    <text> the template wrote itself, found by walking the face's elements with their transforms
    (text in defs, a symbol or a pattern is not drawn there: left out). Each is (text, box,
    line): a block's line is its template line, a raw text's is its content (to find its line by).
    `parts`: each block's parts (its icons are walked where the block stands)."""
    from .svgdraw.base import UnsupportedSVG
    from .svgdraw.transforms import _compose, _parse_transform_tuple
    found = []
    placeholders = {e for e in root.iter(_SVG + RUN)}     # (not one an icon holds)
    todo = [(child, _IDENTITY) for child in reversed(root)]     # depth first, in document order
    while todo:
        elem, matrix = todo.pop()
        tag = elem.tag
        if not isinstance(tag, str):
            continue                    # a comment or processing instruction
        tag = tag[len(_SVG):] if tag.startswith(_SVG) else tag
        if tag in _ELSEWHERE:
            continue
        transform = elem.get("transform")
        if transform is not None:
            try:
                matrix = _compose(matrix, _parse_transform_tuple(transform))
            except (UnsupportedSVG, ValueError, KeyError):
                continue                # svgcheck and the drawing say what is wrong with it
        if tag == RUN and nonce and elem.get("n") == nonce and elem in placeholders:
            index = int(elem.get("b"))
            block = blocks.get(index)
            if block:
                found.append((block[0], _box(matrix, block[1]), block[2]))
            todo += [(part.element(), matrix) for part in reversed(parts[index]) if type(part) is not tuple]
            continue
        if tag == "text":
            point = _raw_point(elem.attrib, matrix)
            if point is not None:
                content = "".join(elem.itertext()).strip()
                found.append((content, point, content))
        todo += [(child, matrix) for child in reversed(elem)]
    return found


def _raw_point(attrs, matrix) -> tuple | None:
    """The start point of a <text> written by the template, on the face; None when its position
    is not one number each (a list of positions, or units: drawn as written)."""
    try:
        x, y = float(attrs.get("x", 0)), float(attrs.get("y", 0))
    except ValueError:
        return None
    return _box(matrix, (x, y, x, y))


def _box(m, extent) -> tuple:
    left, top, right, bottom = extent
    a, b, c, d, e, f = m
    xs, ys = [], []
    for x, y in ((left, top), (right, top), (left, bottom), (right, bottom)):
        xs.append(a * x + c * y + e)
        ys.append(b * x + d * y + f)
    return min(xs), min(ys), max(xs), max(ys)
