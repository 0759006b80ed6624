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

Supported: svg (root, and nested: a clipping viewport with viewBox), g, defs, use, symbol
(without viewBox, through use), rect, circle, ellipse, line, polyline, polygon, path,
text/tspan, image of a pack's picture (``href="pnpgen-art:<digest>"``, see generator/art.py),
title/desc/metadata; presentation attributes and inline ``style``; transforms;
group/element opacity; named, hex, rgb()/rgba() colours and currentColor.

A face document (generator/facedoc.py ``Face``: the SVG text, and its parsed markup with the
text helpers' blocks behind ``<pnpgen-run>`` placeholders) is compiled from its markup, each
placeholder becoming the operations of its block as laid out (text.h_run): the same drawing as
its SVG text, without reading the runs back from it. Cards of one template share the markup:
it is compiled once with holes where the blocks stand, and each face's blocks are compiled into
the holes (compiler._Holed). A stretch of runs of one style becomes one operation (ops._op_runs)
with the font and colour to set decided when compiled; an inline icon's operations are compiled
once for its markup, fill and the state around it, and placed by each face's own transform
(text._draw_icon).

The package, one module per concern (each opens with what it turns into what):

    units       attribute text -> finite numbers and lengths in mm
    colors      colour text -> rgba tuples
    transforms  transform text -> affine matrix
    arcs, paths path data and shapes -> cairo paths
    properties  attributes and style -> typed property values (the ``_ATTRS`` table)
    fontface    family and style -> the cairo face of the active font library's file
    cascade     element + parent properties -> its properties, paints and font
    shapes      basic shape elements -> shape operations
    text        text/tspan elements, and a face's laid-out blocks -> text operations
    images      image and nested svg elements -> picture operations (JPEG passed to PDFs as is)
    compiler    document -> tuple of operations (the ``_HANDLERS`` table); a face's, with holes
    ops         operations -> cairo calls
    fallback    anything else -> cairosvg, behind a resource guard
    draw        the entry points: draw_svg, supported

Only colours and errors load without cairo (svgcheck reads the colour names while validating);
the rest loads on first use, so commands that never draw start without cairo.
"""

from __future__ import annotations

from .base import UnsupportedSVG
from .colors import NAMED_COLORS

__all__ = ['draw_svg', 'supported', 'UnsupportedSVG', 'ExternalResourceRefused',
           'NAMED_COLORS', 'MAX_IMAGE_BYTES', 'MAX_IMAGE_PIXELS']


def __getattr__(name: str):
    """draw_svg and the rest, from .draw, imported (with cairo) when first asked for."""
    import importlib
    draw = importlib.import_module(f"{__name__}.draw")
    try:
        return getattr(draw, name)
    except AttributeError:
        raise AttributeError(f"module 'generator.svgdraw' has no attribute {name!r}") from None
