"""Text: <text> and <tspan> elements, and the text helpers' laid-out runs behind a face's
placeholders (h_run), -> text operations (runs of UTF-8 with their font, paint and position,
grouped in anchored chunks).

White space is collapsed as SVG 1.1 does (xml:space="preserve" keeps it); each absolute x/y
starts a new chunk, which text-anchor aligns as a whole.  Per-glyph position lists,
textPath and letter-spacing are outside the subset: the document goes to cairosvg.
"""

from __future__ import annotations

import re
from functools import lru_cache

import cairocffi

from .. import glyphs, shaping
from ..facedoc import written_place
from .base import _MAX_ELEMENTS, _SVG_NS, UnsupportedSVG, _check_safe
from .cascade import _CACHE_LIMIT, _derive, _prep, _run_style
from .fontface import on_library_change
from .ops import _new_matrix, _op_restore, _op_runs, _op_save_transform, _op_text
from .transforms import _IDENTITY, _parse_transform_tuple, placed_matrix
from .units import _LIST_SPLIT_RE, _finite, _length

_WS_RE = re.compile(r'[ \t\n\r]+')
_NL_RE = re.compile(r'[\t\n\r]')


def _single_coord(attrib, name, font_size):
    value = attrib.get(name)
    if value is None:
        return None
    try:
        return _finite(float(value))
    except ValueError:
        pass
    value = value.strip()
    if not value:
        return None
    if len(_LIST_SPLIT_RE.split(value)) > 1:
        raise UnsupportedSVG(f'per-glyph {name} lists are not supported')
    return _length(value, font_size)


def _position(attrib, props, pending):
    """Merge the x/y/dx/dy of an element into ``pending`` (inner wins)."""
    get = attrib.get
    if (get('x') is None and get('y') is None and get('dx') is None
            and get('dy') is None):
        return pending
    fs = props['font-size']
    values = (_single_coord(attrib, 'x', fs), _single_coord(attrib, 'y', fs),
              _single_coord(attrib, 'dx', fs), _single_coord(attrib, 'dy', fs))
    if pending is None:
        return list(values)
    for i, value in enumerate(values):
        if value is not None:
            pending[i] = value
    return pending


class _TextBuilder:
    """Collects the runs of a <text> element with tspan children."""

    __slots__ = ('compiler', 'runs', 'pending', 'prev_space')

    def __init__(self, compiler, pending):
        self.compiler = compiler
        self.runs = []  # [text, props, position]
        self.pending = pending  # [x, y, dx, dy] for the next character
        self.prev_space = True  # strips leading white space

    def add(self, text, props):
        if props['xml:space']:
            text = _NL_RE.sub(' ', text)
            self.prev_space = text.endswith(' ')
        else:
            text = _WS_RE.sub(' ', text)
            if self.prev_space and text.startswith(' '):
                text = text[1:]
            if not text:
                return
            self.prev_space = text.endswith(' ')
        if not text:
            return
        self.runs.append([text, props, self.pending])
        self.pending = None

    def collect(self, elem, props):
        if elem.text:
            self.add(elem.text, props)
        for child in elem:
            tag = child.tag
            kind = _TEXT_CHILDREN.get(tag)
            if kind is None:
                if isinstance(tag, str) and (
                        tag[:1] != '{' or tag.startswith(_SVG_NS)):
                    raise UnsupportedSVG(f'{tag!r} inside <text>')
            elif kind == 'tspan':
                self.compiler.count += 1
                prepared = _prep(child, props)
                if prepared is not None:
                    p, opacity, matrix = prepared
                    if opacity < 1 or matrix is not None:
                        raise UnsupportedSVG('opacity/transform on <tspan>')
                    self.pending = _position(child.attrib, p, self.pending)
                    self.collect(child, p)
            if child.tail:
                self.add(child.tail, props)

    def finish(self):
        runs = self.runs
        # strip the trailing white space of the text element
        while runs and not runs[-1][1]['xml:space']:
            last = runs[-1]
            if last[0].endswith(' '):
                last[0] = last[0][:-1]
            if last[0]:
                break
            runs.pop()
        return runs


def _checked(text, p):
    """The text as it prints: UTF-8 (composed, soft hyphens dropped), or its glyphs shaped by
    HarfBuzz when it holds right-to-left letters or combining marks; GlyphError when the font
    cannot print it as written."""
    text = glyphs.printable(text)
    style = _font_style(p)
    covered, font = glyphs.font_coverage(*style)
    glyphs.check(text, covered, '<text>', font, shaped=True)
    if shaping.needs_shaping(text):
        return shaping.shape(text, glyphs.font_file(*style))
    return text.encode('utf-8')


def _text_run(text, p, pos, need):
    data = _checked(text, p)
    face, size, fill, stroke = _run_style(p)
    if pos is None:
        return (data, face, size, fill, stroke, None, None, 0.0, 0.0, need)
    x, y, dx, dy = pos
    return (data, face, size, fill, stroke, x, y, dx or 0.0, dy or 0.0, need)


_TEXT_CACHE = {}  # (parent props id, attribute items) -> _text_head result
on_library_change(_TEXT_CACHE.clear)
_NOT_DRAWN = ()


def _text_head(elem, props):
    """Memoised per-element part of a <text>: style and position."""
    attrib = elem.attrib
    key = (props['_id'], tuple(attrib.items()))
    head = _TEXT_CACHE.get(key)
    if head is None:
        prepared = _prep(elem, props)
        if prepared is None or prepared[1] <= 0:
            head = _NOT_DRAWN
        else:
            p, opacity, matrix = prepared
            pending = _position(attrib, p, None)
            face, size, fill, stroke = _run_style(p)
            if pending is None:
                x = y = None
                dx = dy = 0.0
            else:
                x, y, dx, dy = pending
                dx = dx or 0.0
                dy = dy or 0.0
            head = (p, opacity, matrix,
                    None if pending is None else tuple(pending),
                    (face, size, fill, stroke, x, y, dx, dy),
                    fill is not None or stroke is not None)
        if len(_TEXT_CACHE) >= _CACHE_LIMIT:
            _TEXT_CACHE.clear()
        _TEXT_CACHE[key] = head
    return head


def _h_text(c, elem, props):
    c.count += 1
    head = _text_head(elem, props)
    if head is _NOT_DRAWN:
        return
    p, opacity, matrix, pending, style, visible = head
    if not len(elem):  # plain text without tspans: the common case
        if not visible:
            return
        text = elem.text
        if not text:
            return
        if p['xml:space']:
            text = _NL_RE.sub(' ', text)
        elif ('  ' in text or '\n' in text or '\t' in text
              or '\r' in text):
            text = _WS_RE.sub(' ', text).strip(' ')
        else:
            text = text.strip(' ')
        data = _checked(text, p)
        if not data:
            return
        run = (data,) + style + (False,)
        _emit_text(c, opacity, matrix, [(p['text-anchor'], [run])],
                   style[2] is not None, style[3] is not None)
        return
    builder = _TextBuilder(c, None if pending is None else list(pending))
    builder.collect(elem, p)
    runs = builder.finish()
    if not runs:
        return
    last = len(runs) - 1
    chunks = []
    current = None
    has_fill = has_stroke = False
    for index, (text, run_props, pos) in enumerate(runs):
        run = _text_run(text, run_props, pos, index != last)
        has_fill = has_fill or run[3] is not None
        has_stroke = has_stroke or run[4] is not None
        if current is None or run[5] is not None or run[6] is not None:
            current = []
            chunks.append((run_props['text-anchor'], current))
        current.append(run)
    if has_fill or has_stroke:
        _emit_text(c, opacity, matrix, chunks, has_fill, has_stroke)


def h_run(c, elem, props):
    """A text helper's block behind its placeholder (generator/facedoc.py): drawn as the
    <text> elements and icons it stands for would be, from the laid-out runs themselves. Their
    glyphs were checked when they were laid out; a placeholder that is not the face's own (or
    one inside a block's icon) is an unknown element. Where the compiler records holes
    (compiler._Holed), where the block's operations stand and the state around them."""
    blocks, index = c.blocks, elem.get('b')
    if (blocks is None or elem.get('n') != c.nonce or not (index or 'x').isascii() or not (index or 'x').isdigit()
            or int(index) >= len(blocks)):
        raise UnsupportedSVG(f'element {elem.tag!r} is not supported')
    index = int(index)
    holes = c.holes
    if holes is None:
        draw_block(c, blocks[index], props)
        return
    start, before, counted = len(c.ops), c.gs[:], c.count
    try:
        draw_block(c, blocks[index], props)
    except UnsupportedSVG:
        holes.unsupported = True
        raise
    if len(c.ops) == start:
        holes.broken = True
    holes.holes.append((start, len(c.ops), index, props, before, c.gs[:], c.count - counted))


def draw_block(c, parts, props):
    """A block's parts under their parent's properties: each stretch of runs as _h_text draws
    the <text> elements it is written as, each icon as its <g>."""
    blocks, c.blocks = c.blocks, None       # (a placeholder inside an icon is no block's)
    try:
        parent = props['_id']
        for part in parts:
            if type(part) is tuple:     # a stretch: its runs share their block's style
                c.count += len(part)
                styled = _RUN_CACHE.get((parent, part[0].style))
                if styled is None:
                    styled = _run_styled(props, part[0].style)
                styled[6](c, part, styled)
            else:
                if '<!' in part.markup:     # as draw_svg would have found it in the face's text
                    _check_safe(part.markup)
                _draw_icon(c, part, props)
    finally:
        c.blocks = blocks


_ICON_BODIES = {}   # (parent props id, fill, markup, gs) -> (an icon's operations inside its <g>'s, elements counted)
on_library_change(_ICON_BODIES.clear)
_ELSEWHERE = {'use', 'image', _SVG_NS + 'use', _SVG_NS + 'image'}     # what draws from outside the icon's markup


def _draw_icon(c, icon, props):
    """An inline icon as c.group compiles its <g>: the operations of its elements depend on its
    markup, its fill, its parent's properties and the graphics state, not on where its transform
    places it, so they are compiled once and put between this icon's save_transform and restore."""
    key = (props['_id'], icon.fill, icon.markup, tuple(c.gs))
    body = _ICON_BODIES.get(key)
    matrix = _icon_matrix(icon.place)
    if matrix is None:
        try:
            matrix = _parse_transform_tuple(icon.transform)
        except (UnsupportedSVG, ValueError):     # the group says what is wrong, as it did
            matrix = _IDENTITY
    turned = matrix != _IDENTITY and matrix[0] * matrix[3] - matrix[1] * matrix[2]     # (else no save, or not drawn)
    if body is not None and turned and c.count + body[1] <= _MAX_ELEMENTS:     # (else the group says so)
        ops = c.ops
        ops.append((_op_save_transform, _new_matrix(matrix)))
        ops += body[0]
        ops.append((_op_restore, None))
        c.count += body[1]
        return
    start, counted, element = len(c.ops), c.count, icon.element()
    c.group(element, props)
    ops = c.ops[start:]
    if turned and len(ops) > 2 and not any(e.tag in _ELSEWHERE for e in element.iter()):
        if len(_ICON_BODIES) >= _CACHE_LIMIT:
            _ICON_BODIES.clear()
        _ICON_BODIES[key] = (tuple(ops[1:-1]), c.count - counted)


@lru_cache(maxsize=1024)
def _icon_matrix(place: tuple):
    """An inline icon's matrix from its numbers as its SVG writes them, no text read; None where
    the text must be read (it says what is wrong). A deck's icons often stand at the same places."""
    return placed_matrix(*written_place(place))


def _stretch_unseen(c, batch, styled):
    """A stretch neither filled nor stroked: nothing drawn."""


def _stretch_as_texts(c, batch, styled):
    """A stretch stroked, or anchored other than at its start: a <text> operation per run when
    stroked (each sets its line width, as each <text> does), else one with each run a chunk
    placed on its own (as <text> after <text>)."""
    p, face, size, fill, stroke, anchor, _ = styled
    chunks = []
    for run in batch:
        data = _run_data(run.text, p)
        if data:        # x, y as written: three decimals
            chunks.append((anchor, ((data, face, size, fill, stroke, _finite(round(run.x, 3)),
                                     _finite(round(run.y, 3)), 0.0, 0.0, False),)))
    if stroke is not None:
        for chunk in chunks:
            _emit_text(c, 1.0, None, [chunk], fill is not None, True)
    elif chunks:        # (_emit_text's operation and graphics state, for runs of one style filled, unturned)
        gs = c.gs
        c.ops.append((_op_text, (None, tuple(chunks), gs[1], gs[2], gs[0])))
        gs[0], gs[1], gs[2] = fill, face, size


def _fill_stretch(c, batch, styled):
    """A stretch of filled, start-anchored runs as one _op_runs: the cairo calls _op_text makes
    for them (the font and colour set only where the state the compiler knows differs; x and y
    as _op_text reaches them, 0.0 added), decided here once instead of run by run when drawn."""
    p, face, size, fill, _, _, _ = styled
    plain, rounded = not p['xml:space'], _ROUNDED
    runs = []
    for run in batch:
        text = run.text     # (_run_data's common case inline: words of ASCII, single spaces)
        if plain and text.isascii() and not ('  ' in text or '\n' in text or '\t' in text or '\r' in text):
            data = text.strip(' ').encode('ascii')
        else:
            data = _run_data(text, p)
        if data:
            x, y = rounded.get(run.x), rounded.get(run.y)
            runs.append((_rounded(run.x) if x is None else x, _rounded(run.y) if y is None else y, data))
    if runs:
        gs = c.gs
        c.ops.append((_op_runs, (None if face is gs[1] else face, None if size == gs[2] else size,
                                 None if fill == gs[0] else fill, tuple(runs), size)))
        gs[0], gs[1], gs[2] = fill, face, size


_ROUNDED = {}       # a run's x or y -> as drawn; lines of a template repeat their positions


def _rounded(number):
    """A run's x or y as written (three decimals, within bounds) and as _op_text reaches it
    (0.0 added), remembered: Python's round() to decimals is slower than a lookup."""
    value = _finite(round(number, 3)) + 0.0
    if len(_ROUNDED) >= _CACHE_LIMIT:
        _ROUNDED.clear()
    _ROUNDED[number] = value
    return value


def _run_data(text, p):
    """A run's text as _h_text reads a <text> (white space: a run may end in a space before an
    icon), then as cairo draws it: UTF-8, or HarfBuzz's glyphs."""
    if p['xml:space']:
        text = _NL_RE.sub(' ', text)
    elif '  ' in text or '\n' in text or '\t' in text or '\r' in text:
        text = _WS_RE.sub(' ', text).strip(' ')
    else:
        text = text.strip(' ')
    if text.isascii():
        return text.encode('ascii')
    text = glyphs.printable(text)
    return shaping.shape(text, glyphs.font_file(*_font_style(p))) if shaping.needs_shaping(text) \
        else text.encode('utf-8')


_RUN_CACHE = {}   # (parent props id, facedoc.RunStyle) -> _run_styled's
on_library_change(_RUN_CACHE.clear)


def _run_styled(props, style):
    """A run's properties under its parent's, as the cascade derives a <text> written with
    the run's attributes, the font and paints they give, its anchor, and how a stretch of such
    runs is drawn (remembered): (props, face, size, fill, stroke, anchor, drawer)."""
    p = _derive(props, style.changes) if style.changes else props
    face, size, fill, stroke = _run_style(p)
    anchor = p['text-anchor']
    styled = (p, face, size, fill, stroke, anchor, _STRETCH_DRAWER[fill is not None, stroke is not None, bool(anchor)])
    if len(_RUN_CACHE) >= _CACHE_LIMIT:
        _RUN_CACHE.clear()
    _RUN_CACHE[props['_id'], style] = styled
    return styled


# (filled, stroked, anchored other than at its start) -> how a stretch of runs so styled is drawn
_STRETCH_DRAWER = {(fill, stroke, anchored): _fill_stretch if fill and not (stroke or anchored)
                   else _stretch_as_texts if fill or stroke else _stretch_unseen
                   for fill in (False, True) for stroke in (False, True) for anchored in (False, True)}


def _font_style(p):
    return (p['font-family'], p['font-weight'] == cairocffi.FONT_WEIGHT_BOLD,
            p['font-style'] != cairocffi.FONT_SLANT_NORMAL)


def _emit_text(c, opacity, matrix, chunks, has_fill, has_stroke):
    """Append a text operation; chunks = [(anchor, [run, ...]), ...]."""
    group = opacity < 1 and has_fill and has_stroke
    if opacity < 1 and not group:  # fold the opacity into the colours
        for _, runs in chunks:
            for i, run in enumerate(runs):
                fill, stroke = run[3], run[4]
                if fill is not None:
                    fill = fill[:3] + (fill[3] * opacity,)
                if stroke is not None:
                    stroke = (stroke[0][:3] + (stroke[0][3] * opacity,),
                              stroke[1], stroke[2])
                runs[i] = run[:3] + (fill, stroke) + run[5:]
    if group:
        c.push()
    gs = c.gs
    op_matrix = _new_matrix(matrix) if matrix else None
    c.ops.append((_op_text, (
        op_matrix,
        tuple([(anchor, tuple(runs)) for anchor, runs in chunks]),
        gs[1], gs[2], gs[0])))
    if op_matrix is None:
        # state after the operation: the last run's font, the colour of
        # the last visible run, line width unknown if anything was stroked
        last = chunks[-1][1][-1]
        gs[1], gs[2] = last[1], last[2]
        source = gs[0]
        for _, runs in chunks:
            for run in runs:
                if run[4] is not None:
                    source = run[4][0]
                elif run[3] is not None:
                    source = run[3]
        gs[0] = source
        if has_stroke:
            gs[3] = None
    if group:
        c.pop(opacity)

# children allowed inside <text>: tspan, or skipped
_TEXT_CHILDREN = {}
for _prefix in ('', _SVG_NS):
    _TEXT_CHILDREN[_prefix + 'tspan'] = 'tspan'
    for _tag in ('title', 'desc', 'metadata'):
        _TEXT_CHILDREN[_prefix + _tag] = 'skip'
del _prefix, _tag
