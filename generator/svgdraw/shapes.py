"""Basic shapes: rect, circle, ellipse, line, polyline, polygon and path elements ->
shape operations on the compiler (``SHAPE_HANDLERS``, registered in compiler._HANDLERS).

Each tag has a geometry function from its attributes to what cairo needs (built or fetched
from the path caches); the shared handler styles the element and hands both to
``_Compiler.shape``, which adds the paint.  Degenerate shapes (zero size) draw nothing, as
SVG requires.
"""

from __future__ import annotations

from .cascade import _prep
from .ops import _b_circle, _b_path, _b_rect
from .paths import (
    _LINE_TO, _MOVE_TO, _ellipse_path, _encode_path, _parse_path, _points_path,
    _rounded_rect_path)
from .units import _attr_len, _length


def _rect(a, fs):
    x = _attr_len(a, 'x', fs)
    y = _attr_len(a, 'y', fs)
    w = _attr_len(a, 'width', fs)
    h = _attr_len(a, 'height', fs)
    if w <= 0 or h <= 0:
        return None
    rx_s, ry_s = a.get('rx'), a.get('ry')
    if rx_s is None and ry_s is None:
        return _b_rect, (x, y, w, h)
    rx = _length(rx_s, fs) if rx_s not in (None, 'auto') else None
    ry = _length(ry_s, fs) if ry_s not in (None, 'auto') else None
    if rx is None or rx < 0:
        rx = ry
    if ry is None or ry < 0:
        ry = rx
    if rx and ry and rx > 0 and ry > 0:
        return _b_path, _rounded_rect_path(x, y, w, h, min(rx, w / 2), min(ry, h / 2))
    return _b_rect, (x, y, w, h)


def _circle(a, fs):
    r = _attr_len(a, 'r', fs)
    if r <= 0:
        return None
    return _b_circle, (_attr_len(a, 'cx', fs), _attr_len(a, 'cy', fs), r)


def _ellipse(a, fs):
    rx = _attr_len(a, 'rx', fs)
    ry = _attr_len(a, 'ry', fs)
    if rx <= 0 or ry <= 0:
        return None
    return _b_path, _ellipse_path(_attr_len(a, 'cx', fs), _attr_len(a, 'cy', fs), rx, ry)


def _line(a, fs):
    segs = [(_MOVE_TO, (_attr_len(a, 'x1', fs), _attr_len(a, 'y1', fs))),
            (_LINE_TO, (_attr_len(a, 'x2', fs), _attr_len(a, 'y2', fs)))]
    path, data = _encode_path(segs)
    return _b_path, (path, data, segs)


def _points(close):
    def geometry(a, fs):
        built = _points_path(a.get('points', ''), close)
        return None if built is None else (_b_path, built)
    return geometry


def _path(a, fs):
    d = a.get('d')
    built = _parse_path(d) if d else None
    return None if built is None else (_b_path, built)


def _shape_handler(geometry, fillable):
    """The handler of one shape tag: style, then the geometry function's
    (build function, its argument), or nothing when the shape is empty."""
    def handle(c, elem, props):
        c.count += 1
        prepared = _prep(elem, props)
        if prepared is None or prepared[1] <= 0:
            return
        p, opacity, matrix = prepared
        built = geometry(elem.attrib, p['font-size'])
        if built is not None:
            c.shape(p, opacity, matrix, built[0], built[1], fillable)
    return handle


# tag -> handler; a line has no inside to fill
SHAPE_HANDLERS = {
    'rect': _shape_handler(_rect, True),
    'circle': _shape_handler(_circle, True),
    'ellipse': _shape_handler(_ellipse, True),
    'line': _shape_handler(_line, False),
    'polyline': _shape_handler(_points(close=False), True),
    'polygon': _shape_handler(_points(close=True), True),
    'path': _shape_handler(_path, True),
}

# handlers whose operations depend only on the element and its style (see _Compiler.cached_shape)
_SHAPE_HANDLERS = frozenset(SHAPE_HANDLERS.values())
