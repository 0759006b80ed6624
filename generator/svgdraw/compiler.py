"""The compiler: an SVG document -> a tuple of ``(function, argument)`` drawing operations.

``_Compiler`` walks the element tree, dispatching each tag through ``_HANDLERS`` (shapes in
shapes.py, text in text.py, containers and <use> here), and keeps track of the graphics
state the operations leave behind so that they can skip redundant cairo calls.  Anything
outside the subset raises UnsupportedSVG before a single cairo call is made.

A face document (facedoc.Face) is compiled once per markup with holes where its blocks stand
(``_Holed``); each face of that markup compiles only its own blocks into them.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import lru_cache

from ..facedoc import RUN_TAG, Face
from .base import _MAX_ELEMENTS, _SVG_NS, _XLINK_HREF, UnsupportedSVG, _check_safe
from .cascade import _CACHE_LIMIT, _paints, _prep
from .fontface import check_library, on_library_change
from .ops import (
    _new_matrix, _op_fill, _op_pop, _op_push, _op_restore, _op_save_transform, _op_shape)
from .properties import _ROOT_PROPS
from .shapes import _SHAPE_HANDLERS, SHAPE_HANDLERS
from .images import h_image, h_nested_svg
from .text import _h_text, draw_block, h_run
from .transforms import _IDENTITY, _compose
from .units import _attr_len

class _Compiler:
    """Walks the element tree and emits drawing operations.

    It also simulates the part of cairo's graphics state that the
    operations set (source colour, font face, font size, line width), with
    save/restore and push/pop groups, so that the operations can skip
    setting a value the context already has.  ``gs`` is
    ``[source, face, size, line_width]``; None means unknown.
    """

    __slots__ = ('ops', 'root', 'ids', 'use_stack', 'count', 'gs', 'stack', 'blocks', 'nonce', 'holes')

    def __init__(self, root, blocks=None, nonce=None):
        self.ops = []
        self.root = root
        self.blocks, self.nonce = blocks, nonce     # a face's laid-out blocks (text.h_run)
        self.holes = None       # where the blocks' operations stand, when recorded (_Holed)
        self.ids = None
        self.use_stack = []
        self.count = 0
        self.gs = [None, None, None, None]
        self.stack = []

    def lookup(self, ident):
        if self.ids is None:
            ids = {}
            for elem in self.root.iter():
                value = elem.get('id')
                if value is not None and value not in ids:
                    ids[value] = elem
            self.ids = ids
        return self.ids.get(ident)

    # graphics state bookkeeping -------------------------------------------

    def save_transform(self, matrix):
        self.ops.append((_op_save_transform, _new_matrix(matrix)))
        self.stack.append(self.gs[:])

    def restore(self):
        self.ops.append((_op_restore, None))
        self.gs = self.stack.pop()

    def push(self):
        self.ops.append((_op_push, None))
        self.stack.append(self.gs[:])

    def pop(self, alpha):
        self.ops.append((_op_pop, alpha))
        self.gs = self.stack.pop()
        self.gs[0] = None  # the group pattern is now the source

    # containers -----------------------------------------------------------

    def children(self, elem, props):
        for child in elem:
            tag = child.tag
            handler = _HANDLERS.get(tag)
            if handler is None:
                if not isinstance(tag, str):
                    continue  # comment / processing instruction
                if tag[:1] == '{' and not tag.startswith(_SVG_NS):
                    continue  # foreign namespace (inkscape, sodipodi...)
                raise UnsupportedSVG(f'element {tag!r} is not supported')
            if handler in _SHAPE_HANDLERS:
                self.cached_shape(handler, child, props)
            else:
                handler(self, child, props)

    def cached_shape(self, handler, elem, props):
        """Compile a basic shape, memoised across documents.

        A shape's operations depend only on its tag and attributes, its
        inherited properties (``props['_id']``) and the known graphics
        state, so template elements repeated from card to card are
        compiled once.
        """
        key = (elem.tag, props['_id'], tuple(elem.attrib.items()),
               tuple(self.gs))
        hit = _SHAPE_CACHE.get(key)
        if hit is None:
            ops = self.ops
            start = len(ops)
            handler(self, elem, props)
            hit = (ops[start:], tuple(self.gs))
            if len(_SHAPE_CACHE) >= _CACHE_LIMIT:
                _SHAPE_CACHE.clear()
            _SHAPE_CACHE[key] = hit
        else:
            self.count += 1
            self.ops.extend(hit[0])
            self.gs = list(hit[1])

    def group(self, elem, props, extra_matrix=None, draw_target=None):
        """Compile a container; ``draw_target`` draws a <use> target."""
        self.count += 1
        if self.count > _MAX_ELEMENTS:
            raise ValueError('SVG references too many elements')
        prepared = _prep(elem, props)
        if prepared is None:
            return
        p, opacity, matrix = prepared
        if opacity <= 0:
            return
        if extra_matrix is not None:
            matrix = _compose(matrix or _IDENTITY, extra_matrix)
            if matrix == _IDENTITY:
                matrix = None
        ops = self.ops
        start = len(ops)
        saved_gs = self.gs[:]
        saved_depth = len(self.stack)
        if matrix is not None:
            self.save_transform(matrix)
        if opacity < 1:
            self.push()
        mark = len(ops)
        if draw_target is None:
            self.children(elem, p)
        else:
            draw_target(p)
        if len(ops) == mark:  # nothing drawn: drop the wrapper too
            del ops[start:]
            self.gs = saved_gs
            del self.stack[saved_depth:]
            return
        if opacity < 1:
            self.pop(opacity)
        if matrix is not None:
            self.restore()

    # shapes -----------------------------------------------------------------

    def shape(self, props, opacity, matrix, build, barg, fillable=True):
        if not props['visibility']:
            return
        fill, stroke = _paints(props)
        if not fillable:
            fill = None
        if fill is None and stroke is None:
            return
        group = False
        if opacity < 1:
            if fill is not None and stroke is not None:
                group = True
            elif fill is not None:
                fill = fill[:3] + (fill[3] * opacity,)
            else:
                stroke = (stroke[0][:3] + (stroke[0][3] * opacity,),
                          stroke[1], stroke[2])
        if group:
            self.push()
        gs = self.gs
        source, width = gs[0], gs[3]
        fill_op = None
        if fill is not None:
            fill_op = fill + (fill != source,)
            source = fill
        stroke_op = None
        if stroke is not None:
            rgba, stroke_width, extra = stroke
            stroke_op = rgba + (rgba != source, stroke_width,
                                stroke_width != width, extra)
            source, width = rgba, stroke_width
        if stroke_op is None and not matrix and not props['fill-rule']:    # the common shape: filled only
            self.ops.append((_op_fill, (build, barg, fill if fill_op[4] else None)))
        else:
            self.ops.append((_op_shape, (
                build, barg, _new_matrix(matrix) if matrix else None,
                fill_op, props['fill-rule'], stroke_op)))
        if matrix is None:  # otherwise the operation restores the state
            gs[0], gs[3] = source, width
        if group:
            self.pop(opacity)


def _h_g(c, elem, props):
    c.group(elem, props)


def _h_skip(c, elem, props):
    pass


def _h_use(c, elem, props):
    href = elem.get('href')
    if href is None:
        href = elem.get(_XLINK_HREF)
    if not href:
        return
    if not href.startswith('#'):
        raise UnsupportedSVG('external <use> references')
    target = c.lookup(href[1:].strip())
    if target is None or target in c.use_stack:
        return  # missing or circular reference: not rendered
    a = elem.attrib
    fs = props['font-size']
    x = _attr_len(a, 'x', fs)
    y = _attr_len(a, 'y', fs)
    shift = (1.0, 0.0, 0.0, 1.0, x, y) if (x or y) else None
    tag = target.tag
    if tag == 'symbol' or tag == _SVG_NS + 'symbol':
        if target.get('viewBox') is not None:
            raise UnsupportedSVG('<symbol> with viewBox')
        handler = _h_g
    else:
        handler = _HANDLERS.get(tag)
        if handler is None:
            raise UnsupportedSVG(f'<use> of {tag!r} is not supported')
        if handler is _h_skip:
            return

    def draw_target(p):
        c.use_stack.append(target)
        handler(c, target, p)
        c.use_stack.pop()

    c.group(elem, props, extra_matrix=shift, draw_target=draw_target)




_SHAPE_CACHE = {}  # see _Compiler.cached_shape

_HANDLERS = {}
for _prefix in ('', _SVG_NS):
    _HANDLERS.update({
        _prefix + 'g': _h_g,
        _prefix + 'svg': h_nested_svg,
        _prefix + 'image': h_image,
        _prefix + 'defs': _h_skip,
        _prefix + 'symbol': _h_skip,
        _prefix + 'title': _h_skip,
        _prefix + 'desc': _h_skip,
        _prefix + 'metadata': _h_skip,
        _prefix + 'use': _h_use,
        _prefix + 'text': _h_text,
        _prefix + RUN_TAG: h_run,
    })
    _HANDLERS.update({_prefix + tag: handler for tag, handler in SHAPE_HANDLERS.items()})
del _prefix


def _compile(svg_text):
    """Parse and compile a document; raises UnsupportedSVG. A Face is compiled from its parsed
    markup, its blocks spliced in where their placeholders stand."""
    if type(svg_text) is Face:
        return _compiled(_root(svg_text.doc), svg_text.blocks, svg_text.nonce)
    return _compiled(ET.fromstring(svg_text))


def _compiled(root, blocks=None, nonce=None, holes=None):
    compiler = _Compiler(root, blocks, nonce)
    compiler.holes = holes
    if root.tag != _SVG_NS + 'svg' and root.tag != 'svg':
        raise UnsupportedSVG('root element is not <svg>')
    # CSS style sheets apply document-wide, even from inside <defs>.
    for tag in (_SVG_NS + 'style', 'style'):
        for _ in root.iter(tag):
            raise UnsupportedSVG('<style> elements are not supported')
    compiler.group(root, _ROOT_PROPS)
    if holes is not None:
        holes.count = compiler.count
    return tuple(compiler.ops)


class _Holed:
    """A face document's program with holes where its blocks stand: the operations of its own
    elements, compiled once for every face of that markup, and for each placeholder where its
    block's operations went, with the parent's properties and the graphics state (gs) the
    compiler had before and after them. Another face's blocks are compiled into the holes
    from the same state (text.draw_block, as the whole compile does): its program is the
    whole compile's, operation for operation, while each block leaves the state as the
    recorded one did (else the face is compiled whole)."""

    __slots__ = ('holes', 'pieces', 'count', 'broken', 'unsupported', 'filled')

    def __init__(self):
        self.holes = []     # (start, end, block index, props, gs before, gs after, elements counted)
        self.pieces = ()    # the operations between the holes: len(holes) + 1 tuples
        self.count = 0      # elements the whole compile counted
        self.broken = False     # a block drew nothing (its group may have been dropped): not reusable
        self.unsupported = False    # raised in a block's own part, not the document's
        self.filled = ()    # per hole: (block index, props, gs before, gs after, elements counted, piece after it)

    def cut(self, ops):
        starts = [0] + [end for _, end, *_ in self.holes]
        ends = [start for start, *_ in self.holes] + [len(ops)]
        self.pieces = tuple(ops[a:b] for a, b in zip(starts, ends))
        self.filled = tuple((index, props, tuple(before), after, counted, piece)
                            for (_, _, index, props, before, after, counted), piece in zip(self.holes, self.pieces[1:]))

    def program(self, root, blocks, nonce):
        """The operations for these blocks, or None when they leave another state than the
        recorded ones (or count past the element bound: the whole compile says so)."""
        out, count = list(self.pieces[0]), self.count
        compiler = _Compiler(root, blocks, nonce)
        for index, props, before, after, counted, piece in self.filled:
            compiler.gs, compiler.count = list(before), 0
            start = len(out)
            compiler.ops = out
            draw_block(compiler, blocks[index], props)
            if compiler.gs != after or len(out) == start or compiler.stack:
                return None
            count += compiler.count - counted
            out += piece
        return tuple(out) if count <= _MAX_ELEMENTS else None


def _face_program(face):
    """A Face's program, from one of its document's holed programs when one fits its blocks
    (else compiled whole, the holes recorded: kept as another for the faces that follow)."""
    doc = face.doc
    root = _root(doc)
    kept = doc.program
    if kept is None or kept[0] != _generation[0]:
        # the face's text is its markup's, its runs' (escaped: no '<!') and its icons' (each
        # checked where it is drawn, text.draw_block): the markup is checked once
        _check_safe(doc.markup)
        kept = doc.program = (_generation[0], [])
    for holed in kept[1]:
        if holed is None:
            return None         # the document's own elements are outside the subset
        ops = holed.program(root, face.blocks, face.nonce)
        if ops is not None:
            return ops
    holed = _Holed()
    try:
        ops = _compiled(root, face.blocks, face.nonce, holed)
    except UnsupportedSVG:
        if not holed.unsupported:
            kept[1][:] = [None]
        return None
    if not holed.broken and len(kept[1]) < _PROGRAMS:
        holed.cut(ops)
        kept[1].append(holed)
    return ops


def _root(doc):
    """The document's parsed tree: the one render.py parsed, or (a document it did not keep)
    parsed again."""
    return doc.root if doc.root is not None else ET.fromstring(doc.markup)


_PROGRAMS = 4       # holed programs kept per document: its blocks may leave a few states (a colour per player)


def _compile_cached(svg_text):
    """Compiled program, or None when the fast path cannot draw it (its faces those of the
    active font library)."""
    check_library()
    if type(svg_text) is Face:
        return _face_program(svg_text)
    return _compile_memo(svg_text)


@lru_cache(maxsize=256)
def _compile_memo(svg_text):
    try:
        return _compile(svg_text)
    except UnsupportedSVG:
        return None


_generation = [0]       # bumped when another font library is active: documents' programs hold its faces


def _next_generation():
    _generation[0] += 1


on_library_change(_compile_memo.cache_clear)
on_library_change(_next_generation)
