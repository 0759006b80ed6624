"""Fast interpreter for the SVG subset produced by our templates.

``draw_svg(ctx, svg_text)`` draws an SVG document onto a cairocffi context,
in the context's current user space: one document user unit is one unit of
the context (the caller sets 1 unit = 1 mm) and the document's (0, 0) point
lands on the context's origin.  The root's width/height/viewBox are ignored
for placement.

The document is first *compiled* into a flat list of ``(function, argument)``
operations (cached per document text), then the list is executed with plain
cairo calls.  Compiling never touches the context, so anything outside the
supported subset is detected before drawing starts: in that case the whole
document is drawn by cairosvg onto the same context instead (see
``_fallback``), mapped the same way.

Supported: svg (root), g, defs, use, symbol (without viewBox, through use),
rect, circle, ellipse, line, polyline, polygon, path, text/tspan,
title/desc/metadata; presentation attributes and inline ``style``; transforms;
group/element opacity; named, hex, rgb()/rgba() colours and currentColor.

The package, one module per concern (each opens with what it turns into what):

    units       attribute text -> finite numbers and lengths in mm
    colors      colour text -> rgba tuples
    transforms  transform text -> affine matrix
    arcs, paths path data and shapes -> cairo paths
    properties  attributes and style -> typed property values (the ``_ATTRS`` table)
    cascade     element + parent properties -> its properties, paints and font
    shapes      basic shape elements -> shape operations
    text        text/tspan elements -> text operations
    compiler    document -> tuple of operations (the ``_HANDLERS`` table)
    ops         operations -> cairo calls
    fallback    anything else -> cairosvg, behind a resource guard
"""

from __future__ import annotations

import cairocffi

from .base import UnsupportedSVG
from .colors import NAMED_COLORS
from .compiler import _check_safe, _compile, _compile_cached  # noqa: F401  (_compile: tests)
from .fallback import MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, ExternalResourceRefused, _fallback
from .paths import _path_segments  # noqa: F401  (tests)
from .properties import _CAP_BUTT, _DEFAULT_MITER, _JOIN_MITER

__all__ = ['draw_svg', 'supported', 'UnsupportedSVG', 'ExternalResourceRefused',
           'NAMED_COLORS', 'MAX_IMAGE_BYTES', 'MAX_IMAGE_PIXELS']

_lib = cairocffi.cairo
_ffi = cairocffi.ffi
_OVER = cairocffi.OPERATOR_OVER
_WINDING = cairocffi.FILL_RULE_WINDING

def supported(svg_text) -> bool:
    """True when the fast path can draw ``svg_text`` (no cairosvg fallback).

    Raises ValueError for documents with a DOCTYPE or entities.
    """
    _check_safe(svg_text)
    return _compile_cached(svg_text) is not None


def draw_svg(ctx: cairocffi.Context, svg_text) -> None:
    """Draw an SVG document onto ctx in ctx's current user space.

    One document user unit is one unit of ``ctx`` (the caller makes it
    1 mm) and the document's (0, 0) point lands on ``ctx``'s origin; the
    root's width/height/viewBox are ignored for placement.  The context's
    graphics state and current path are left as they were.
    """
    _check_safe(svg_text)
    program = _compile_cached(svg_text)
    saved_path = ctx.copy_path() if ctx.has_current_point() else None
    ctx.save()
    try:
        ctx.new_path()
        # SVG's initial stroke/fill state, whatever the caller had set
        ptr = ctx._pointer  # pylint: disable=protected-access
        _lib.cairo_set_operator(ptr, _OVER)
        _lib.cairo_set_miter_limit(ptr, _DEFAULT_MITER)
        _lib.cairo_set_line_cap(ptr, _CAP_BUTT)
        _lib.cairo_set_line_join(ptr, _JOIN_MITER)
        _lib.cairo_set_fill_rule(ptr, _WINDING)
        if _lib.cairo_get_dash_count(ptr):
            _lib.cairo_set_dash(ptr, _ffi.NULL, 0, 0.0)
        if program is None:
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
        ctx.new_path()
        ctx.restore()
        if saved_path:
            ctx.append_path(saved_path)
