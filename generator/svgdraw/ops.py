"""Drawing operations: compiled ``(function, argument)`` pairs -> cairo calls.

A compiled program is a tuple of ``(function, argument)`` pairs; each function is called
as ``function(cairo_t_pointer, argument)``.  They call the cairo C functions directly
through cairocffi's ``cairo`` library object instead of the ``Context`` methods: every
``Context`` method checks the context status after its call, which doubles the cost of
each call.  The status is checked once at the end of ``draw_svg`` instead (cairo turns all
calls into no-ops once a context is in an error state, so nothing is lost).
"""

from __future__ import annotations

import math

import cairocffi

_TAU = 2 * math.pi
_lib = cairocffi.cairo
_ffi = cairocffi.ffi

_WINDING = cairocffi.FILL_RULE_WINDING
_EVEN_ODD = cairocffi.FILL_RULE_EVEN_ODD

_save = _lib.cairo_save
_restore = _lib.cairo_restore
_transform = _lib.cairo_transform
_set_source_rgba = _lib.cairo_set_source_rgba
_set_line_width = _lib.cairo_set_line_width
_set_line_cap = _lib.cairo_set_line_cap
_set_line_join = _lib.cairo_set_line_join
_set_miter_limit = _lib.cairo_set_miter_limit
_set_dash = _lib.cairo_set_dash
_set_fill_rule = _lib.cairo_set_fill_rule
_rectangle = _lib.cairo_rectangle
_arc = _lib.cairo_arc
_close_path = _lib.cairo_close_path
_new_sub_path = _lib.cairo_new_sub_path
_append_path = _lib.cairo_append_path
_move_to = _lib.cairo_move_to
_fill = _lib.cairo_fill
_fill_preserve = _lib.cairo_fill_preserve
_stroke = _lib.cairo_stroke
_push_group = _lib.cairo_push_group
_pop_group_to_source = _lib.cairo_pop_group_to_source
_paint_with_alpha = _lib.cairo_paint_with_alpha
_set_font_face = _lib.cairo_set_font_face
_set_font_size = _lib.cairo_set_font_size
_show_text = _lib.cairo_show_text
_text_path = _lib.cairo_text_path
_show_glyphs = _lib.cairo_show_glyphs
_glyph_path = _lib.cairo_glyph_path
_text_extents = _lib.cairo_text_extents
_get_current_point = _lib.cairo_get_current_point


def _new_matrix(m):
    """A cairo_matrix_t of (a, b, c, d, e, f): its fields xx, yx, xy, yy, x0, y0 in that order,
    as cairo_matrix_init would set them (one call instead of two)."""
    return _ffi.new('cairo_matrix_t *', m)


def _b_rect(ptr, a):
    _rectangle(ptr, a[0], a[1], a[2], a[3])


def _b_circle(ptr, a):
    _new_sub_path(ptr)      # else cairo joins the arc to the current point (e.g. after text)
    _arc(ptr, a[0], a[1], a[2], 0.0, _TAU)
    _close_path(ptr)


def _b_path(ptr, a):
    _append_path(ptr, a[0])


def _do_stroke(ptr, stroke):
    """stroke = (r, g, b, a, set_source, width, set_width, extra)."""
    if stroke[4]:
        _set_source_rgba(ptr, stroke[0], stroke[1], stroke[2], stroke[3])
    if stroke[6]:
        _set_line_width(ptr, stroke[5])
    extra = stroke[7]
    if extra is None:
        _stroke(ptr)
    else:
        cap, join, miter, dash_data, dash_count, dash_offset = extra
        _save(ptr)
        _set_line_cap(ptr, cap)
        _set_line_join(ptr, join)
        _set_miter_limit(ptr, miter)
        if dash_data is not None:
            _set_dash(ptr, dash_data, dash_count, dash_offset)
        _stroke(ptr)
        _restore(ptr)


def _op_shape(ptr, a):
    """a = (build, build_arg, matrix, fill, evenodd, stroke).

    fill = (r, g, b, a, set_source) or None; see _do_stroke for stroke.
    """
    build, barg, matrix, fill, evenodd, stroke = a
    if matrix is not None:
        _save(ptr)
        _transform(ptr, matrix)
    build(ptr, barg)
    if fill is not None:
        if fill[4]:
            _set_source_rgba(ptr, fill[0], fill[1], fill[2], fill[3])
        if evenodd:
            _set_fill_rule(ptr, _EVEN_ODD)
        if stroke is None:
            _fill(ptr)
        else:
            _fill_preserve(ptr)
        if evenodd:
            _set_fill_rule(ptr, _WINDING)
    if stroke is not None:
        _do_stroke(ptr, stroke)
    if matrix is not None:
        _restore(ptr)


def _op_fill(ptr, a):
    """_op_shape's calls for a shape only filled, with the winding rule and no transform of its
    own: a = (build, build_arg, fill), fill the rgba to set first or None (the context has it)."""
    build, barg, fill = a
    build(ptr, barg)
    if fill is not None:
        _set_source_rgba(ptr, fill[0], fill[1], fill[2], fill[3])
    _fill(ptr)


def _op_save_transform(ptr, matrix):
    _save(ptr)
    _transform(ptr, matrix)


def _op_restore(ptr, _):
    _restore(ptr)


def _op_push(ptr, _):
    _push_group(ptr)


def _op_pop(ptr, alpha):
    _pop_group_to_source(ptr)
    _paint_with_alpha(ptr, alpha)


# Scratch buffers for cairo's out-parameters; a process draws one document at a time.
_EXTENTS = _ffi.new('cairo_text_extents_t *')
_POINT = _ffi.new('double[2]')


def _op_text(ptr, a):
    """Draw a <text> element.

    a = (matrix, chunks, face, size, source): ``face``/``size``/``source``
    are the font face pointer, font size and source colour known to be set
    on the context when the operation starts (None: unknown).
    chunks = ((anchor, runs), ...), anchor a fraction of the chunk advance.
    run = (data, face, size, fill, stroke, x, y, dx, dy, need_advance), data the
    UTF-8 text or a shaping.Shaped run of glyphs;
    fill/stroke rgba tuples (stroke = (rgba, width, extra)) or None.
    """
    matrix, chunks, face, size, source = a
    if matrix is not None:
        _save(ptr)
        _transform(ptr, matrix)
    state = [face, size, source, None]  # what the context has set; width unknown
    x = y = 0.0
    for anchor, runs in chunks:
        first = runs[0]
        if first[5] is not None:
            x = first[5]
        if first[6] is not None:
            y = first[6]
        x += first[7]
        y += first[8]
        advances = None
        if anchor:
            advances, total = _chunk_advances(ptr, runs, state)
            x -= total * anchor
        x, y = _draw_runs(ptr, runs, x, y, advances, state)
    if matrix is not None:
        _restore(ptr)


def _op_runs(ptr, a):
    """Draw a stretch of filled runs of one font and colour, each placed on its own (what
    _op_text does for runs of one style written as <text> after <text>, with fewer calls).

    a = (face, size, source, runs, glyph_size): face/size/source the font face pointer, font
    size and colour to set first (None: the context has it already); runs = ((x, y, data), ...),
    data UTF-8 or a shaping.Shaped run of glyphs; glyph_size the font size shaped runs are
    placed at.
    """
    face, size, source, runs, glyph_size = a
    if face is not None:
        _set_font_face(ptr, face)
    if size is not None:
        _set_font_size(ptr, size)
    if source is not None:
        _set_source_rgba(ptr, source[0], source[1], source[2], source[3])
    for x, y, data in runs:
        if type(data) is bytes:
            _move_to(ptr, x, y)
            _show_text(ptr, data)
        else:
            glyphs, count = _placed_glyphs(data, x, y, glyph_size)
            _show_glyphs(ptr, glyphs, count)


def _use_font(ptr, face, size, state):
    if face is not state[0]:
        state[0] = face
        _set_font_face(ptr, face)
    if size != state[1]:
        state[1] = size
        _set_font_size(ptr, size)


def _chunk_advances(ptr, runs, state):
    """Each run's advance and the chunk's total (for text-anchor)."""
    advances = []
    total = 0.0
    for i, run in enumerate(runs):
        _use_font(ptr, run[1], run[2], state)
        advance = _advance(ptr, run[0], run[2])
        advances.append(advance)
        total += advance
        if i:
            total += run[7]
    return advances, total


def _draw_runs(ptr, runs, x, y, advances, state):
    """Draw the runs of one chunk from (x, y); the pen position after them."""
    for i, run in enumerate(runs):
        data, face, size, fill, stroke, _, _, dx, dy, need = run
        if i:
            x += dx
            y += dy
        _use_font(ptr, face, size, state)
        need = need and advances is None
        if stroke is None:
            x = _fill_run(ptr, data, fill, x, y, need, state)
        else:
            x = _stroke_run(ptr, data, fill, stroke, x, y, need, state)
        if advances is not None:
            x += advances[i]
    return x, y


def _fill_run(ptr, data, fill, x, y, need, state):
    """Show a run that is only filled (or invisible); the pen's x after it
    when ``need``, else ``x``."""
    if fill is not None:
        if fill != state[2]:
            state[2] = fill
            _set_source_rgba(ptr, fill[0], fill[1], fill[2], fill[3])
        if type(data) is not bytes:         # shaped glyphs (right-to-left, marks)
            glyphs, count = _placed_glyphs(data, x, y, state[1])
            _show_glyphs(ptr, glyphs, count)
            return x + data.advance * state[1] if need else x
        _move_to(ptr, x, y)
        _show_text(ptr, data)
        if need:
            _get_current_point(ptr, _POINT, _POINT + 1)
            return _POINT[0]
    elif need:
        return x + _advance(ptr, data, state[1])
    return x


def _advance(ptr, data, size):
    """How far a run moves the pen: cairo measures UTF-8, shaped runs know theirs."""
    if type(data) is not bytes:
        return data.advance * size
    _text_extents(ptr, data, _EXTENTS)
    return _EXTENTS.x_advance


def _placed_glyphs(shaped, x, y, size):
    """A shaped run's glyphs as a cairo_glyph_t array placed from (x, y) at this size."""
    count = len(shaped.glyphs)
    glyphs = _ffi.new('cairo_glyph_t[]', count)
    for i, (index, gx, gy) in enumerate(shaped.glyphs):
        glyphs[i].index = index
        glyphs[i].x = x + gx * size
        glyphs[i].y = y + gy * size
    return glyphs, count


def _stroke_run(ptr, data, fill, stroke, x, y, need, state):
    """Fill (maybe) and stroke a run's outline; as _fill_run for the result."""
    if type(data) is not bytes:
        glyphs, count = _placed_glyphs(data, x, y, state[1])
        _glyph_path(ptr, glyphs, count)
        if need:
            x += data.advance * state[1]
    else:
        _move_to(ptr, x, y)
        _text_path(ptr, data)
        if need:
            _get_current_point(ptr, _POINT, _POINT + 1)
            x = _POINT[0]
    if fill is not None:
        if fill != state[2]:
            _set_source_rgba(ptr, fill[0], fill[1], fill[2], fill[3])
        _fill_preserve(ptr)
    rgba, stroke_width, extra = stroke
    state[2] = rgba
    _set_source_rgba(ptr, rgba[0], rgba[1], rgba[2], rgba[3])
    if stroke_width != state[3]:
        state[3] = stroke_width
        _set_line_width(ptr, stroke_width)
    _do_stroke(ptr, (0, 0, 0, 0, False, 0, False, extra))
    return x
