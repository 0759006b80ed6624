"""Basic shapes: rect, circle, ellipse, line, polyline, polygon and path elements ->
shape operations on the compiler (one handler per tag, registered in compiler._HANDLERS).

Each handler reads its geometry, builds (or fetches from the path caches) what cairo needs,
and hands it to ``_Compiler.shape``, which adds the paint.  Degenerate shapes (zero size)
draw nothing, as SVG requires.
"""

from __future__ import annotations

from .cascade import _prep
from .ops import _b_circle, _b_path, _b_rect
from .paths import (
    _LINE_TO, _MOVE_TO, _ellipse_path, _encode_path, _parse_path, _points_path,
    _rounded_rect_path)
from .units import _attr_len, _length


def _shape_prep(c, elem, props):
    c.count += 1
    prepared = _prep(elem, props)
    if prepared is None or prepared[1] <= 0:
        return None
    return prepared


def _h_rect(c, elem, props):
    prepared = _shape_prep(c, elem, props)
    if prepared is None:
        return
    p, opacity, matrix = prepared
    a = elem.attrib
    fs = p['font-size']
    x = _attr_len(a, 'x', fs)
    y = _attr_len(a, 'y', fs)
    w = _attr_len(a, 'width', fs)
    h = _attr_len(a, 'height', fs)
    if w <= 0 or h <= 0:
        return
    rx_s, ry_s = a.get('rx'), a.get('ry')
    if rx_s is None and ry_s is None:
        c.shape(p, opacity, matrix, _b_rect, (x, y, w, h))
        return
    rx = _length(rx_s, fs) if rx_s not in (None, 'auto') else None
    ry = _length(ry_s, fs) if ry_s not in (None, 'auto') else None
    if rx is None or rx < 0:
        rx = ry
    if ry is None or ry < 0:
        ry = rx
    if rx and ry and rx > 0 and ry > 0:
        c.shape(p, opacity, matrix, _b_path,
                _rounded_rect_path(x, y, w, h, min(rx, w / 2), min(ry, h / 2)))
    else:
        c.shape(p, opacity, matrix, _b_rect, (x, y, w, h))


def _h_circle(c, elem, props):
    prepared = _shape_prep(c, elem, props)
    if prepared is None:
        return
    p, opacity, matrix = prepared
    a = elem.attrib
    fs = p['font-size']
    r = _attr_len(a, 'r', fs)
    if r <= 0:
        return
    c.shape(p, opacity, matrix, _b_circle,
            (_attr_len(a, 'cx', fs), _attr_len(a, 'cy', fs), r))


def _h_ellipse(c, elem, props):
    prepared = _shape_prep(c, elem, props)
    if prepared is None:
        return
    p, opacity, matrix = prepared
    a = elem.attrib
    fs = p['font-size']
    rx = _attr_len(a, 'rx', fs)
    ry = _attr_len(a, 'ry', fs)
    if rx <= 0 or ry <= 0:
        return
    c.shape(p, opacity, matrix, _b_path,
            _ellipse_path(_attr_len(a, 'cx', fs), _attr_len(a, 'cy', fs),
                          rx, ry))


def _h_line(c, elem, props):
    prepared = _shape_prep(c, elem, props)
    if prepared is None:
        return
    p, opacity, matrix = prepared
    a = elem.attrib
    fs = p['font-size']
    segs = [(_MOVE_TO, (_attr_len(a, 'x1', fs), _attr_len(a, 'y1', fs))),
            (_LINE_TO, (_attr_len(a, 'x2', fs), _attr_len(a, 'y2', fs)))]
    path, data = _encode_path(segs)
    c.shape(p, opacity, matrix, _b_path, (path, data, segs), fillable=False)


def _h_polyline(c, elem, props, close=False):
    prepared = _shape_prep(c, elem, props)
    if prepared is None:
        return
    p, opacity, matrix = prepared
    built = _points_path(elem.get('points', ''), close)
    if built is not None:
        c.shape(p, opacity, matrix, _b_path, built)


def _h_polygon(c, elem, props):
    _h_polyline(c, elem, props, close=True)


def _h_path(c, elem, props):
    prepared = _shape_prep(c, elem, props)
    if prepared is None:
        return
    d = elem.get('d')
    if not d:
        return
    built = _parse_path(d)
    if built is not None:
        p, opacity, matrix = prepared
        c.shape(p, opacity, matrix, _b_path, built)


# handlers whose operations depend only on the element and its style (see _Compiler.cached_shape)
_SHAPE_HANDLERS = frozenset((_h_rect, _h_circle, _h_ellipse, _h_line,
                             _h_polyline, _h_polygon, _h_path))
