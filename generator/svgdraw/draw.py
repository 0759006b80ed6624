"""The entry points: an SVG document -> cairo drawing (the fast path compiled to operations, or
cairosvg for anything else), and whether the fast path can draw a document."""

from __future__ import annotations

import cairocffi

from ..facedoc import Face
from .base import UnsupportedSVG  # noqa: F401  (the package's names come from here)
from .compiler import _check_safe, _compile, _compile_cached  # noqa: F401  (_compile: tests)
from .fallback import MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, ExternalResourceRefused, _fallback  # noqa: F401
from .paths import _path_segments  # noqa: F401  (tests)
from .properties import _CAP_BUTT, _DEFAULT_MITER, _JOIN_MITER


_lib = cairocffi.cairo
_ffi = cairocffi.ffi
_OVER = cairocffi.OPERATOR_OVER
_WINDING = cairocffi.FILL_RULE_WINDING

def supported(svg_text) -> bool:
    """True when the fast path can draw ``svg_text`` (no cairosvg fallback).

    Raises ValueError for documents with a DOCTYPE or entities.
    """
    face = type(svg_text) is Face
    if not face:     # (a Face's markup is checked as it is compiled)
        _check_safe(svg_text)
    if _compile_cached(svg_text) is not None:
        return True
    if face:         # its icons too, which its compile may not have reached
        _check_safe(svg_text)
    return False


def draw_svg(ctx: cairocffi.Context, svg_text, fresh: bool = False) -> None:
    """Draw an SVG document onto ctx in ctx's current user space.

    One document user unit is one unit of ``ctx`` (the caller makes it
    1 mm) and the document's (0, 0) point lands on ``ctx``'s origin; the
    root's width/height/viewBox are ignored for placement.  The context's
    graphics state and current path are left as they were.

    ``fresh``: the caller vouches that ctx is a context as cairo makes it but for its clip and
    transform (no current path; operator, line cap and join, fill rule and dash cairo's own
    defaults), and that it restores ctx's state itself (pdfwrite's faces): only what SVG starts
    with otherwise (the miter limit) is set, and the state is not saved and restored here.
    """
    face = type(svg_text) is Face
    if not face:     # (a Face's markup is checked as it is compiled)
        _check_safe(svg_text)
    program = _compile_cached(svg_text)
    ptr = ctx._pointer  # pylint: disable=protected-access
    # cairo's own calls rather than the Context's methods (each of which checks the status
    # after its call): the status is checked where those methods would have raised
    if fresh:   # (a context in error draws nothing: the caller's check after says why)
        saved_path = None
        _lib.cairo_set_miter_limit(ptr, _DEFAULT_MITER)
    else:
        saved_path = _svg_state(ctx, ptr)
    try:
        if program is None:
            if face:     # its icons too, which its compile may not have reached
                _check_safe(svg_text)
            _fallback(ctx, svg_text)
        else:
            for function, argument in program:
                function(ptr, argument)
            status = _lib.cairo_status(ptr)
            if status:
                message = _ffi.string(_lib.cairo_status_to_string(status))
                raise cairocffi.CairoError(
                    'cairo error while drawing SVG: '
                    + message.decode('utf-8', 'replace'), status)
    finally:
        _lib.cairo_new_path(ptr)
        if _lib.cairo_status(ptr):
            ctx.new_path()      # raises as it did, the state left unrestored
        if not fresh:
            _lib.cairo_restore(ptr)
            if saved_path:
                ctx.append_path(saved_path)


def _svg_state(ctx, ptr):
    """Save ctx's state and path and start from SVG's initial stroke and fill state, whatever the
    caller had set; the path saved (None: there was none)."""
    saved_path = ctx.copy_path() if _lib.cairo_has_current_point(ptr) else None
    if _lib.cairo_status(ptr):
        ctx.save()      # raises, as it did, for a context already in an error state
    _lib.cairo_save(ptr)
    _lib.cairo_new_path(ptr)
    _lib.cairo_set_operator(ptr, _OVER)
    _lib.cairo_set_miter_limit(ptr, _DEFAULT_MITER)
    _lib.cairo_set_line_cap(ptr, _CAP_BUTT)
    _lib.cairo_set_line_join(ptr, _JOIN_MITER)
    _lib.cairo_set_fill_rule(ptr, _WINDING)
    if _lib.cairo_get_dash_count(ptr):
        _lib.cairo_set_dash(ptr, _ffi.NULL, 0, 0.0)
    return saved_path
