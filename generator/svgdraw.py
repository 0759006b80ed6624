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
"""

from __future__ import annotations

import itertools
import math
import re
import xml.etree.ElementTree as ET
from functools import lru_cache

import cairocffi

__all__ = ['draw_svg', 'supported', 'UnsupportedSVG']


class UnsupportedSVG(Exception):
    """The document uses something the fast path does not implement."""


# --------------------------------------------------------------------------
# constants

_SVG_NS = '{http://www.w3.org/2000/svg}'
_XLINK_HREF = '{http://www.w3.org/1999/xlink}href'
_XML_SPACE = '{http://www.w3.org/XML/1998/namespace}space'

_TAU = 2 * math.pi
_PT = 25.4 / 72  # one point in millimetres (document units)
_DEFAULT_FONT_SIZE = 12 * _PT  # same default as cairosvg (12pt)
_DEFAULT_MITER = 4.0
_MAX_ELEMENTS = 200_000  # guard against exponential <use> chains

_lib = cairocffi.cairo
_ffi = cairocffi.ffi

_MOVE_TO = cairocffi.PATH_MOVE_TO
_LINE_TO = cairocffi.PATH_LINE_TO
_CURVE_TO = cairocffi.PATH_CURVE_TO
_CLOSE_PATH = cairocffi.PATH_CLOSE_PATH

_CAP_BUTT = cairocffi.LINE_CAP_BUTT
_JOIN_MITER = cairocffi.LINE_JOIN_MITER
_WINDING = cairocffi.FILL_RULE_WINDING
_EVEN_ODD = cairocffi.FILL_RULE_EVEN_ODD
_OVER = cairocffi.OPERATOR_OVER

# --------------------------------------------------------------------------
# regular expressions (precompiled)

_NUM = r'[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?'
_NUM_RE = re.compile(r'[\s,]*(' + _NUM + ')')
_NUMS_RE = re.compile(_NUM)
_FLAG_RE = re.compile(r'[\s,]*([01])')
_CMD_RE = re.compile(r'[\s,]*([MmZzLlHhVvCcSsQqTtAa])')
_END_RE = re.compile(r'[\s,]*$')
_LENGTH_RE = re.compile(r'\s*(' + _NUM + r')\s*(px|mm|pt|cm|in|pc|em|ex|%)?\s*$')
_LIST_SPLIT_RE = re.compile(r'[\s,]+')
_TRANSFORM_RE = re.compile(
    r'[\s,]*(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)')
_WS_RE = re.compile(r'[ \t\n\r]+')
_NL_RE = re.compile(r'[\t\n\r]')
_DOCTYPE_RE = re.compile(r'<!\s*(?:DOCTYPE|ENTITY)', re.IGNORECASE)
_DOCTYPE_BRE = re.compile(rb'<!\s*(?:DOCTYPE|ENTITY)', re.IGNORECASE)
_RGB_RE = re.compile(r'rgba?\(([^)]*)\)\s*$')
_HEX_RE = re.compile(r'[0-9a-f]+$')

_UNITS = {None: 1.0, 'px': 1.0, 'mm': 1.0, 'cm': 10.0, 'in': 25.4,
          'pt': _PT, 'pc': 12 * _PT}

# --------------------------------------------------------------------------
# colours

_NAMED_COLORS_HEX = {
    'aliceblue': 'f0f8ff', 'antiquewhite': 'faebd7', 'aqua': '00ffff',
    'aquamarine': '7fffd4', 'azure': 'f0ffff', 'beige': 'f5f5dc',
    'bisque': 'ffe4c4', 'black': '000000', 'blanchedalmond': 'ffebcd',
    'blue': '0000ff', 'blueviolet': '8a2be2', 'brown': 'a52a2a',
    'burlywood': 'deb887', 'cadetblue': '5f9ea0', 'chartreuse': '7fff00',
    'chocolate': 'd2691e', 'coral': 'ff7f50', 'cornflowerblue': '6495ed',
    'cornsilk': 'fff8dc', 'crimson': 'dc143c', 'cyan': '00ffff',
    'darkblue': '00008b', 'darkcyan': '008b8b', 'darkgoldenrod': 'b8860b',
    'darkgray': 'a9a9a9', 'darkgreen': '006400', 'darkgrey': 'a9a9a9',
    'darkkhaki': 'bdb76b', 'darkmagenta': '8b008b',
    'darkolivegreen': '556b2f', 'darkorange': 'ff8c00',
    'darkorchid': '9932cc', 'darkred': '8b0000', 'darksalmon': 'e9967a',
    'darkseagreen': '8fbc8f', 'darkslateblue': '483d8b',
    'darkslategray': '2f4f4f', 'darkslategrey': '2f4f4f',
    'darkturquoise': '00ced1', 'darkviolet': '9400d3',
    'deeppink': 'ff1493', 'deepskyblue': '00bfff', 'dimgray': '696969',
    'dimgrey': '696969', 'dodgerblue': '1e90ff', 'firebrick': 'b22222',
    'floralwhite': 'fffaf0', 'forestgreen': '228b22', 'fuchsia': 'ff00ff',
    'gainsboro': 'dcdcdc', 'ghostwhite': 'f8f8ff', 'gold': 'ffd700',
    'goldenrod': 'daa520', 'gray': '808080', 'grey': '808080',
    'green': '008000', 'greenyellow': 'adff2f', 'honeydew': 'f0fff0',
    'hotpink': 'ff69b4', 'indianred': 'cd5c5c', 'indigo': '4b0082',
    'ivory': 'fffff0', 'khaki': 'f0e68c', 'lavender': 'e6e6fa',
    'lavenderblush': 'fff0f5', 'lawngreen': '7cfc00',
    'lemonchiffon': 'fffacd', 'lightblue': 'add8e6', 'lightcoral': 'f08080',
    'lightcyan': 'e0ffff', 'lightgoldenrodyellow': 'fafad2',
    'lightgray': 'd3d3d3', 'lightgreen': '90ee90', 'lightgrey': 'd3d3d3',
    'lightpink': 'ffb6c1', 'lightsalmon': 'ffa07a',
    'lightseagreen': '20b2aa', 'lightskyblue': '87cefa',
    'lightslategray': '778899', 'lightslategrey': '778899',
    'lightsteelblue': 'b0c4de', 'lightyellow': 'ffffe0', 'lime': '00ff00',
    'limegreen': '32cd32', 'linen': 'faf0e6', 'magenta': 'ff00ff',
    'maroon': '800000', 'mediumaquamarine': '66cdaa',
    'mediumblue': '0000cd', 'mediumorchid': 'ba55d3',
    'mediumpurple': '9370db', 'mediumseagreen': '3cb371',
    'mediumslateblue': '7b68ee', 'mediumspringgreen': '00fa9a',
    'mediumturquoise': '48d1cc', 'mediumvioletred': 'c71585',
    'midnightblue': '191970', 'mintcream': 'f5fffa', 'mistyrose': 'ffe4e1',
    'moccasin': 'ffe4b5', 'navajowhite': 'ffdead', 'navy': '000080',
    'oldlace': 'fdf5e6', 'olive': '808000', 'olivedrab': '6b8e23',
    'orange': 'ffa500', 'orangered': 'ff4500', 'orchid': 'da70d6',
    'palegoldenrod': 'eee8aa', 'palegreen': '98fb98',
    'paleturquoise': 'afeeee', 'palevioletred': 'db7093',
    'papayawhip': 'ffefd5', 'peachpuff': 'ffdab9', 'peru': 'cd853f',
    'pink': 'ffc0cb', 'plum': 'dda0dd', 'powderblue': 'b0e0e6',
    'purple': '800080', 'red': 'ff0000', 'rosybrown': 'bc8f8f',
    'royalblue': '4169e1', 'saddlebrown': '8b4513', 'salmon': 'fa8072',
    'sandybrown': 'f4a460', 'seagreen': '2e8b57', 'seashell': 'fff5ee',
    'sienna': 'a0522d', 'silver': 'c0c0c0', 'skyblue': '87ceeb',
    'slateblue': '6a5acd', 'slategray': '708090', 'slategrey': '708090',
    'snow': 'fffafa', 'springgreen': '00ff7f', 'steelblue': '4682b4',
    'tan': 'd2b48c', 'teal': '008080', 'thistle': 'd8bfd8',
    'tomato': 'ff6347', 'turquoise': '40e0d0', 'violet': 'ee82ee',
    'wheat': 'f5deb3', 'white': 'ffffff', 'whitesmoke': 'f5f5f5',
    'yellow': 'ffff00', 'yellowgreen': '9acd32',
}

#: The 147 SVG/CSS named colours as (r, g, b, a) tuples in 0..1.
NAMED_COLORS = {
    name: (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255,
           int(h[4:6], 16) / 255, 1.0)
    for name, h in _NAMED_COLORS_HEX.items()
}

_BLACK = (0.0, 0.0, 0.0, 1.0)


class _CurrentColor:
    """Sentinel for ``currentColor`` (resolved against ``color``)."""

    __slots__ = ()

    def __repr__(self):
        return 'currentColor'


_CURRENT = _CurrentColor()


def _channel(text, alpha=False):
    text = text.strip()
    if text.endswith('%'):
        value = float(text[:-1]) / 100
    else:
        value = float(text)
        if not alpha:
            value /= 255
    return min(1.0, max(0.0, _finite(value)))


@lru_cache(maxsize=1024)
def _parse_color(value):
    """Parse a colour (no paint servers); None for none/transparent."""
    value = value.strip()
    low = value.lower()
    named = NAMED_COLORS.get(low)
    if named is not None:
        return named
    if low in ('none', 'transparent'):
        return None
    if low == 'currentcolor':
        return _CURRENT
    if low.startswith('#'):
        digits = low[1:]
        if not _HEX_RE.match(digits):
            raise UnsupportedSVG(f'bad colour {value!r}')
        n = len(digits)
        if n in (3, 4):
            channels = [int(c, 16) / 15 for c in digits]
        elif n in (6, 8):
            channels = [int(digits[i:i + 2], 16) / 255 for i in range(0, n, 2)]
        else:
            raise UnsupportedSVG(f'bad colour {value!r}')
        if len(channels) == 3:
            channels.append(1.0)
        return None if channels[3] <= 0 else tuple(channels)
    match = _RGB_RE.match(low)
    if match:
        parts = match.group(1).split(',')
        if len(parts) == 1:  # CSS4 space separated, maybe "/ alpha"
            parts = match.group(1).replace('/', ' ').split()
        try:
            if len(parts) == 3:
                rgba = tuple(_channel(p) for p in parts) + (1.0,)
            elif len(parts) == 4:
                rgba = tuple(_channel(p) for p in parts[:3]) + (
                    _channel(parts[3], alpha=True),)
            else:
                raise ValueError
        except ValueError:
            raise UnsupportedSVG(f'bad colour {value!r}') from None
        return None if rgba[3] <= 0 else rgba
    raise UnsupportedSVG(f'unsupported colour {value!r}')


def _parse_paint(value, props=None):
    if 'url(' in value:
        raise UnsupportedSVG('paint servers are not supported')
    return _parse_color(value)


# --------------------------------------------------------------------------
# lengths and numbers

def _finite(number):
    """``number`` if it is finite, else UnsupportedSVG (NaN/inf would put
    the caller's cairo context in a permanent error state)."""
    if number - number == 0.0:
        return number
    raise UnsupportedSVG('non-finite number')


def _length(value, font_size=None):
    """A length in document units (mm); '' / None -> 0."""
    if not value:
        return 0.0
    try:
        return _finite(float(value))
    except ValueError:
        pass
    match = _LENGTH_RE.match(value)
    if match is None:
        raise UnsupportedSVG(f'unsupported length {value!r}')
    number, unit = match.groups()
    factor = _UNITS.get(unit)
    if factor is None:
        if unit in ('em', 'ex') and font_size is not None:
            factor = font_size if unit == 'em' else font_size / 2
        else:
            raise UnsupportedSVG(f'unsupported length {value!r}')
    return _finite(float(number) * factor)


def _opacity(value):
    value = value.strip()
    try:
        if value.endswith('%'):
            number = float(value[:-1]) / 100
        else:
            number = float(value)
    except ValueError:
        raise UnsupportedSVG(f'bad opacity {value!r}') from None
    return min(1.0, max(0.0, _finite(number)))


def _number_list(value):
    value = value.strip()
    if not value:
        return []
    return [_finite(float(n)) for n in _NUMS_RE.findall(value)]


# --------------------------------------------------------------------------
# transforms

def _compose(m1, m2):
    """Affine ``m1 ∘ m2`` (m2 applied first), tuples (a, b, c, d, e, f)."""
    a1, b1, c1, d1, e1, f1 = m1
    a2, b2, c2, d2, e2, f2 = m2
    return (a1 * a2 + c1 * b2, b1 * a2 + d1 * b2,
            a1 * c2 + c1 * d2, b1 * c2 + d1 * d2,
            a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1)


@lru_cache(maxsize=1024)
def _parse_transform_tuple(value):
    pos = 0
    end = len(value)
    total = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    while True:
        match = _TRANSFORM_RE.match(value, pos)
        if match is None:
            if _END_RE.match(value, pos):
                break
            raise UnsupportedSVG(f'bad transform {value!r}')
        pos = match.end()
        kind, args = match.groups()
        numbers = _number_list(args)
        n = len(numbers)
        if kind == 'matrix' and n == 6:
            m = tuple(numbers)
        elif kind == 'translate' and n in (1, 2):
            m = (1.0, 0.0, 0.0, 1.0, numbers[0], numbers[1] if n == 2 else 0.0)
        elif kind == 'scale' and n in (1, 2):
            m = (numbers[0], 0.0, 0.0, numbers[-1], 0.0, 0.0)
        elif kind == 'rotate' and n in (1, 3):
            angle = math.radians(numbers[0])
            cos, sin = math.cos(angle), math.sin(angle)
            m = (cos, sin, -sin, cos, 0.0, 0.0)
            if n == 3:
                cx, cy = numbers[1], numbers[2]
                m = _compose((1.0, 0.0, 0.0, 1.0, cx, cy),
                             _compose(m, (1.0, 0.0, 0.0, 1.0, -cx, -cy)))
        elif kind == 'skewX' and n == 1:
            m = (1.0, 0.0, math.tan(math.radians(numbers[0])), 1.0, 0.0, 0.0)
        elif kind == 'skewY' and n == 1:
            m = (1.0, math.tan(math.radians(numbers[0])), 0.0, 1.0, 0.0, 0.0)
        else:
            raise UnsupportedSVG(f'bad transform {value!r}')
        total = _compose(total, m)
        if pos >= end:
            break
    return total


_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


# --------------------------------------------------------------------------
# path data

def _encode_path(segments):
    """Build a ``cairo_path_t`` from ``[(type, coords), ...]``.

    Returns ``(path_pointer, data)``; both must be kept alive together.
    """
    length = 0
    for _, coords in segments:
        length += 1 + len(coords) // 2
    data = _ffi.new('cairo_path_data_t[]', length)
    i = 0
    for kind, coords in segments:
        header = data[i].header
        header.type = kind
        header.length = 1 + len(coords) // 2
        i += 1
        for j in range(0, len(coords), 2):
            point = data[i].point
            point.x = coords[j]
            point.y = coords[j + 1]
            i += 1
    path = _ffi.new('cairo_path_t *', {
        'status': cairocffi.STATUS_SUCCESS, 'data': data, 'num_data': length})
    return path, data


def _arc_to_curves(x1, y1, rx, ry, phi_deg, large, sweep, x2, y2):
    """Endpoint-parameterised elliptical arc -> list of cubic coordinates.

    Implements SVG 1.1 appendix F.6.5/F.6.6 (incl. radii scaling).
    """
    if x1 == x2 and y1 == y2:
        return []
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        return None  # straight line
    phi = math.radians(phi_deg % 360)
    cos_phi, sin_phi = math.cos(phi), math.sin(phi)
    dx2, dy2 = (x1 - x2) / 2, (y1 - y2) / 2
    x1p = cos_phi * dx2 + sin_phi * dy2
    y1p = -sin_phi * dx2 + cos_phi * dy2
    lam = (x1p * x1p) / (rx * rx) + (y1p * y1p) / (ry * ry)
    if lam > 1:
        scale = math.sqrt(lam)
        rx *= scale
        ry *= scale
    rx2, ry2 = rx * rx, ry * ry
    num = rx2 * ry2 - rx2 * y1p * y1p - ry2 * x1p * x1p
    den = rx2 * y1p * y1p + ry2 * x1p * x1p
    coef = math.sqrt(max(0.0, num / den)) if den else 0.0
    if large == sweep:
        coef = -coef
    cxp = coef * rx * y1p / ry
    cyp = -coef * ry * x1p / rx
    cx = cos_phi * cxp - sin_phi * cyp + (x1 + x2) / 2
    cy = sin_phi * cxp + cos_phi * cyp + (y1 + y2) / 2
    theta1 = math.atan2((y1p - cyp) / ry, (x1p - cxp) / rx)
    theta2 = math.atan2((-y1p - cyp) / ry, (-x1p - cxp) / rx)
    dtheta = theta2 - theta1
    if sweep and dtheta < 0:
        dtheta += _TAU
    elif not sweep and dtheta > 0:
        dtheta -= _TAU
    count = max(1, int(math.ceil(abs(dtheta) / (math.pi / 2) - 1e-9)))
    delta = dtheta / count
    t = 4 / 3 * math.tan(delta / 4)
    curves = []
    angle = theta1
    cos_a, sin_a = math.cos(angle), math.sin(angle)
    for k in range(count):
        angle2 = angle + delta
        cos_b, sin_b = math.cos(angle2), math.sin(angle2)
        # unit circle control points
        p1x, p1y = cos_a - t * sin_a, sin_a + t * cos_a
        p2x, p2y = cos_b + t * sin_b, sin_b - t * cos_b
        coords = []
        for ux, uy in ((p1x, p1y), (p2x, p2y), (cos_b, sin_b)):
            ux *= rx
            uy *= ry
            coords.append(cx + cos_phi * ux - sin_phi * uy)
            coords.append(cy + sin_phi * ux + cos_phi * uy)
        if k == count - 1:
            coords[4], coords[5] = x2, y2
        curves.append(tuple(coords))
        angle, cos_a, sin_a = angle2, cos_b, sin_b
    return curves


_PATH_ARGS = {'M': 2, 'L': 2, 'H': 1, 'V': 1, 'C': 6, 'S': 4, 'Q': 4,
              'T': 2, 'A': 7, 'Z': 0}


def _path_segments(d):
    """Parse path data into ``[(cairo_path_type, coords), ...]``.

    Quadratics and arcs become cubics.  On an error, the path is rendered
    up to the error, as the SVG spec requires.
    """
    segs = []
    append = segs.append
    pos = 0
    num_match = _NUM_RE.match
    cmd = None
    x = y = 0.0          # current point
    sx = sy = 0.0        # start of the current subpath
    last_c = None        # last cubic control point (for S)
    last_q = None        # last quadratic control point (for T)
    need_move = False    # after Z, before a drawing command
    started = False
    while True:
        match = _CMD_RE.match(d, pos)
        if match is not None:
            cmd = match.group(1)
            pos = match.end()
        else:
            if _END_RE.match(d, pos):
                break
            if cmd is None or cmd in 'Zz':
                break  # error: numbers without a command
        upper = cmd.upper()
        if not started and upper != 'M':
            break  # error: path must start with a moveto
        relative = cmd != upper
        # read arguments
        n = _PATH_ARGS[upper]
        args = []
        try:
            if upper == 'A':
                for i in range(7):
                    if i in (3, 4):
                        m = _FLAG_RE.match(d, pos)
                        if m is None:
                            raise ValueError
                        args.append(m.group(1) == '1')
                    else:
                        m = num_match(d, pos)
                        if m is None:
                            raise ValueError
                        args.append(_finite(float(m.group(1))))
                    pos = m.end()
            else:
                for _ in range(n):
                    m = num_match(d, pos)
                    if m is None:
                        raise ValueError
                    args.append(_finite(float(m.group(1))))
                    pos = m.end()
        except (ValueError, UnsupportedSVG):
            break
        if upper == 'Z':
            if started:
                append((_CLOSE_PATH, ()))
            x, y = sx, sy
            need_move = True
            last_c = last_q = None
            continue
        if upper == 'M':
            if relative:
                x += args[0]
                y += args[1]
            else:
                x, y = args
            sx, sy = x, y
            append((_MOVE_TO, (x, y)))
            started = True
            need_move = False
            last_c = last_q = None
            cmd = 'l' if relative else 'L'
            continue
        if need_move:
            append((_MOVE_TO, (x, y)))
            need_move = False
        if upper == 'L':
            if relative:
                x += args[0]
                y += args[1]
            else:
                x, y = args
            append((_LINE_TO, (x, y)))
            last_c = last_q = None
        elif upper == 'H':
            x = x + args[0] if relative else args[0]
            append((_LINE_TO, (x, y)))
            last_c = last_q = None
        elif upper == 'V':
            y = y + args[0] if relative else args[0]
            append((_LINE_TO, (x, y)))
            last_c = last_q = None
        elif upper == 'C' or upper == 'S':
            if upper == 'C':
                x1, y1, x2, y2, ex, ey = args
                if relative:
                    x1 += x
                    y1 += y
            else:
                x2, y2, ex, ey = args
                if last_c is None:
                    x1, y1 = x, y
                else:
                    x1, y1 = 2 * x - last_c[0], 2 * y - last_c[1]
            if relative:
                x2 += x
                y2 += y
                ex += x
                ey += y
            append((_CURVE_TO, (x1, y1, x2, y2, ex, ey)))
            last_c = (x2, y2)
            last_q = None
            x, y = ex, ey
        elif upper == 'Q' or upper == 'T':
            if upper == 'Q':
                qx, qy, ex, ey = args
                if relative:
                    qx += x
                    qy += y
            else:
                ex, ey = args
                if last_q is None:
                    qx, qy = x, y
                else:
                    qx, qy = 2 * x - last_q[0], 2 * y - last_q[1]
            if relative:
                ex += x
                ey += y
            append((_CURVE_TO, (x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y),
                                ex + 2 / 3 * (qx - ex), ey + 2 / 3 * (qy - ey),
                                ex, ey)))
            last_q = (qx, qy)
            last_c = None
            x, y = ex, ey
        else:  # 'A'
            rx, ry, phi, large, sweep, ex, ey = args
            if relative:
                ex += x
                ey += y
            curves = _arc_to_curves(x, y, rx, ry, phi, large, sweep, ex, ey)
            if curves is None:
                append((_LINE_TO, (ex, ey)))
            else:
                for coords in curves:
                    append((_CURVE_TO, coords))
            last_c = last_q = None
            x, y = ex, ey
    return segs


@lru_cache(maxsize=4096)
def _parse_path(d):
    """Cached: path data -> encoded cairo path (or None when empty)."""
    segs = _path_segments(d)
    if not segs or all(kind == _MOVE_TO for kind, _ in segs):
        return None
    path, data = _encode_path(segs)
    return (path, data, segs)


@lru_cache(maxsize=1024)
def _rounded_rect_path(x, y, w, h, rx, ry):
    k = 1 - 0.5522847498307936  # 1 - 4/3*(sqrt(2)-1)
    r, b = x + w, y + h
    segs = [
        (_MOVE_TO, (x + rx, y)),
        (_LINE_TO, (r - rx, y)),
        (_CURVE_TO, (r - rx * k, y, r, y + ry * k, r, y + ry)),
        (_LINE_TO, (r, b - ry)),
        (_CURVE_TO, (r, b - ry * k, r - rx * k, b, r - rx, b)),
        (_LINE_TO, (x + rx, b)),
        (_CURVE_TO, (x + rx * k, b, x, b - ry * k, x, b - ry)),
        (_LINE_TO, (x, y + ry)),
        (_CURVE_TO, (x, y + ry * k, x + rx * k, y, x + rx, y)),
        (_CLOSE_PATH, ()),
    ]
    path, data = _encode_path(segs)
    return (path, data, segs)


@lru_cache(maxsize=1024)
def _ellipse_path(cx, cy, rx, ry):
    k = 0.5522847498307936
    segs = [
        (_MOVE_TO, (cx + rx, cy)),
        (_CURVE_TO, (cx + rx, cy + ry * k, cx + rx * k, cy + ry, cx, cy + ry)),
        (_CURVE_TO, (cx - rx * k, cy + ry, cx - rx, cy + ry * k, cx - rx, cy)),
        (_CURVE_TO, (cx - rx, cy - ry * k, cx - rx * k, cy - ry, cx, cy - ry)),
        (_CURVE_TO, (cx + rx * k, cy - ry, cx + rx, cy - ry * k, cx + rx, cy)),
        (_CLOSE_PATH, ()),
    ]
    path, data = _encode_path(segs)
    return (path, data, segs)


def _points_path(value, close):
    numbers = _number_list(value)
    if len(numbers) % 2:
        numbers.pop()  # odd number of coordinates: ignore the last one
    if len(numbers) < 4:
        return None
    segs = [(_MOVE_TO, (numbers[0], numbers[1]))]
    for i in range(2, len(numbers), 2):
        segs.append((_LINE_TO, (numbers[i], numbers[i + 1])))
    if close:
        segs.append((_CLOSE_PATH, ()))
    path, data = _encode_path(segs)
    return (path, data, segs)


# --------------------------------------------------------------------------
# drawing operations
#
# A compiled program is a tuple of ``(function, argument)`` pairs; each
# function is called as ``function(cairo_t_pointer, argument)``.  They call
# the cairo C functions directly through cairocffi's ``cairo`` library object
# instead of the ``Context`` methods: every ``Context`` method checks the
# context status after its call, which doubles the cost of each call.  The
# status is checked once at the end of ``draw_svg`` instead (cairo turns all
# calls into no-ops once a context is in an error state, so nothing is lost).

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
_text_extents = _lib.cairo_text_extents
_get_current_point = _lib.cairo_get_current_point


def _new_matrix(m):
    matrix = _ffi.new('cairo_matrix_t *')
    _lib.cairo_matrix_init(matrix, *m)
    return matrix


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


def _op_text(ptr, a):
    """Draw a <text> element.

    a = (matrix, chunks, face, size, source): ``face``/``size``/``source``
    are the font face pointer, font size and source colour known to be set
    on the context when the operation starts (None: unknown).
    chunks = ((anchor, runs), ...), anchor a fraction of the chunk advance.
    run = (utf8, face, size, fill, stroke, x, y, dx, dy, need_advance);
    fill/stroke rgba tuples (stroke = (rgba, width, extra)) or None.
    """
    matrix, chunks, face, size, source = a
    if matrix is not None:
        _save(ptr)
        _transform(ptr, matrix)
    cur_x = cur_y = 0.0
    extents = None
    point = None
    width = None
    for anchor, runs in chunks:
        first = runs[0]
        x = cur_x if first[5] is None else first[5]
        y = cur_y if first[6] is None else first[6]
        x += first[7]
        y += first[8]
        advances = None
        if anchor:
            if extents is None:
                extents = _ffi.new('cairo_text_extents_t *')
            advances = []
            total = 0.0
            for i, run in enumerate(runs):
                if run[1] is not face:
                    face = run[1]
                    _set_font_face(ptr, face)
                if run[2] != size:
                    size = run[2]
                    _set_font_size(ptr, size)
                _text_extents(ptr, run[0], extents)
                advances.append(extents.x_advance)
                total += extents.x_advance
                if i:
                    total += run[7]
            x -= total * anchor
        for i, run in enumerate(runs):
            data, run_face, run_size, fill, stroke, _, _, dx, dy, need = run
            if i:
                x += dx
                y += dy
            if run_face is not face:
                face = run_face
                _set_font_face(ptr, face)
            if run_size != size:
                size = run_size
                _set_font_size(ptr, size)
            need = need and advances is None
            if stroke is None:
                if fill is not None:
                    if fill != source:
                        source = fill
                        _set_source_rgba(ptr, fill[0], fill[1], fill[2],
                                         fill[3])
                    _move_to(ptr, x, y)
                    _show_text(ptr, data)
                    if need:
                        if point is None:
                            point = _ffi.new('double[2]')
                        _get_current_point(ptr, point, point + 1)
                        x = point[0]
                elif need:
                    if extents is None:
                        extents = _ffi.new('cairo_text_extents_t *')
                    _text_extents(ptr, data, extents)
                    x += extents.x_advance
            else:
                _move_to(ptr, x, y)
                _text_path(ptr, data)
                if need:
                    if point is None:
                        point = _ffi.new('double[2]')
                    _get_current_point(ptr, point, point + 1)
                    next_x = point[0]
                if fill is not None:
                    if fill != source:
                        _set_source_rgba(ptr, fill[0], fill[1], fill[2],
                                         fill[3])
                    _fill_preserve(ptr)
                rgba, stroke_width, extra = stroke
                source = rgba
                _set_source_rgba(ptr, rgba[0], rgba[1], rgba[2], rgba[3])
                if stroke_width != width:
                    width = stroke_width
                    _set_line_width(ptr, stroke_width)
                _do_stroke(ptr, (0, 0, 0, 0, False, 0, False, extra))
                if need:
                    x = next_x
            if advances is not None:
                x += advances[i]
        cur_x, cur_y = x, y
    if matrix is not None:
        _restore(ptr)


# --------------------------------------------------------------------------
# properties

_SLANTS = {'normal': cairocffi.FONT_SLANT_NORMAL,
           'italic': cairocffi.FONT_SLANT_ITALIC,
           'oblique': cairocffi.FONT_SLANT_OBLIQUE}
_CAPS = {'butt': cairocffi.LINE_CAP_BUTT, 'round': cairocffi.LINE_CAP_ROUND,
         'square': cairocffi.LINE_CAP_SQUARE}
_JOINS = {'miter': cairocffi.LINE_JOIN_MITER,
          'round': cairocffi.LINE_JOIN_ROUND,
          'bevel': cairocffi.LINE_JOIN_BEVEL,
          'miter-clip': cairocffi.LINE_JOIN_MITER,
          'arcs': cairocffi.LINE_JOIN_MITER}
_ANCHORS = {'start': 0.0, 'middle': 0.5, 'end': 1.0}
_NORMAL = cairocffi.FONT_WEIGHT_NORMAL
_BOLD = cairocffi.FONT_WEIGHT_BOLD


def _keyword(table, what):
    def parse(value, props):
        try:
            return table[value.strip().lower()]
        except KeyError:
            raise UnsupportedSVG(f'bad {what} {value!r}') from None
    return parse


def _p_weight(value, props):
    value = value.strip().lower()
    if value in ('normal', 'lighter'):
        return _NORMAL
    if value in ('bold', 'bolder'):
        return _BOLD
    try:
        return _BOLD if float(value) >= 600 else _NORMAL
    except ValueError:
        raise UnsupportedSVG(f'bad font-weight {value!r}') from None


def _p_family(value, props):
    first = value.split(',', 1)[0].strip().strip('"\'').strip()
    return first or 'sans-serif'


def _p_font_size(value, props):
    value = value.strip()
    parent = props['font-size']
    if value.endswith('%'):
        try:
            return _finite(parent * float(value[:-1]) / 100)
        except ValueError:
            raise UnsupportedSVG(f'bad font-size {value!r}') from None
    return _length(value, parent)


def _p_stroke_width(value, props):
    return _length(value, props['font-size'])


def _p_float(value, props):
    try:
        return _finite(float(value))
    except ValueError:
        raise UnsupportedSVG(f'bad number {value!r}') from None


def _p_opacity(value, props):
    return _opacity(value)


def _p_dasharray(value, props):
    value = value.strip()
    if value == 'none' or not value:
        return None
    font_size = props['font-size']
    dashes = [_length(v, font_size) for v in _LIST_SPLIT_RE.split(value) if v]
    if not dashes or any(v < 0 for v in dashes) or sum(dashes) <= 0:
        return None
    if len(dashes) % 2:
        dashes = dashes * 2
    return tuple(dashes)


def _p_dashoffset(value, props):
    return _length(value, props['font-size'])


def _p_visibility(value, props):
    return value.strip() == 'visible'


def _p_xml_space(value, props):
    return value.strip() == 'preserve'


def _p_color(value, props):
    color = _parse_color(value)
    if color is _CURRENT:
        return props['color']
    return color


def _p_fill_rule(value, props):
    return value.strip() == 'evenodd'


# codes for attribute handling in _prep
_INHERITED = 0
_OPACITY = 1
_DISPLAY = 2
_TRANSFORM = 3
_REJECT = 4     # unsupported unless the value is a "do nothing" keyword
_BASELINE = 5   # dominant-baseline / alignment-baseline

# attribute name -> (code, property key, parser)
_ATTRS = {
    'fill': (_INHERITED, 'fill', _parse_paint),
    'stroke': (_INHERITED, 'stroke', _parse_paint),
    'color': (_INHERITED, 'color', _p_color),
    'stroke-width': (_INHERITED, 'stroke-width', _p_stroke_width),
    'fill-opacity': (_INHERITED, 'fill-opacity', _p_opacity),
    'stroke-opacity': (_INHERITED, 'stroke-opacity', _p_opacity),
    'fill-rule': (_INHERITED, 'fill-rule', _p_fill_rule),
    'stroke-linecap': (_INHERITED, 'stroke-linecap',
                       _keyword(_CAPS, 'stroke-linecap')),
    'stroke-linejoin': (_INHERITED, 'stroke-linejoin',
                        _keyword(_JOINS, 'stroke-linejoin')),
    'stroke-miterlimit': (_INHERITED, 'stroke-miterlimit', _p_float),
    'stroke-dasharray': (_INHERITED, 'stroke-dasharray', _p_dasharray),
    'stroke-dashoffset': (_INHERITED, 'stroke-dashoffset', _p_dashoffset),
    'font-family': (_INHERITED, 'font-family', _p_family),
    'font-size': (_INHERITED, 'font-size', _p_font_size),
    'font-weight': (_INHERITED, 'font-weight', _p_weight),
    'font-style': (_INHERITED, 'font-style', _keyword(_SLANTS, 'font-style')),
    'text-anchor': (_INHERITED, 'text-anchor',
                    _keyword(_ANCHORS, 'text-anchor')),
    'visibility': (_INHERITED, 'visibility', _p_visibility),
    _XML_SPACE: (_INHERITED, 'xml:space', _p_xml_space),
    'opacity': (_OPACITY, None, None),
    'display': (_DISPLAY, None, None),
    'transform': (_TRANSFORM, None, None),
    'dominant-baseline': (_BASELINE, None, None),
    'alignment-baseline': (_BASELINE, None, None),
}
for _name in ('clip-path', 'mask', 'filter', 'marker', 'marker-start',
              'marker-mid', 'marker-end', 'letter-spacing', 'word-spacing',
              'text-decoration', 'textLength', 'lengthAdjust', 'rotate',
              'baseline-shift', 'writing-mode', 'direction', 'unicode-bidi',
              'clip', 'font', 'font-variant', 'font-stretch',
              'transform-origin', 'paint-order', 'vector-effect',
              'text-rendering', 'shape-rendering', 'display-anchor',
              'mix-blend-mode', 'isolation', 'systemLanguage',
              'requiredFeatures', 'requiredExtensions'):
    _ATTRS[_name] = (_REJECT, None, None)
del _name

_HARMLESS = frozenset(('none', 'normal', 'auto', '0', 'inherit', 'initial',
                       'visible', 'inline', 'ltr', 'lr', 'lr-tb',
                       'horizontal-tb', 'baseline', 'geometricprecision',
                       'optimizelegibility', 'fill', 'isolate', ''))
_HARMLESS_BASELINE = frozenset(('auto', 'alphabetic', 'baseline', 'inherit',
                                'initial', ''))

_ROOT_PROPS = {
    '_id': 0,
    'fill': _BLACK,
    'stroke': None,
    'color': _BLACK,
    'stroke-width': 1.0,
    'fill-opacity': 1.0,
    'stroke-opacity': 1.0,
    'fill-rule': False,
    'stroke-linecap': _CAP_BUTT,
    'stroke-linejoin': _JOIN_MITER,
    'stroke-miterlimit': _DEFAULT_MITER,
    'stroke-dasharray': None,
    'stroke-dashoffset': 0.0,
    'font-family': 'sans-serif',
    'font-size': _DEFAULT_FONT_SIZE,
    'font-weight': _NORMAL,
    'font-style': cairocffi.FONT_SLANT_NORMAL,
    'text-anchor': 0.0,
    'visibility': True,
    'xml:space': False,
}


def _declarations(elem):
    """Attribute items with the inline ``style`` declarations applied."""
    attrib = elem.attrib
    style = attrib.get('style')
    if style is None:
        return attrib.items()
    merged = dict(attrib)
    for declaration in style.split(';'):
        name, sep, value = declaration.partition(':')
        if not sep:
            if declaration.strip():
                raise UnsupportedSVG(f'bad style {style!r}')
            continue
        name = name.strip()
        value = value.strip()
        if value.endswith('!important'):
            value = value[:-10].strip()
        if name == 'transform':
            raise UnsupportedSVG('CSS transform in style')
        if name not in _ATTRS:
            if name in ('x', 'y', 'width', 'height', 'rx', 'ry', 'r', 'cx',
                        'cy', 'd'):
                raise UnsupportedSVG('geometry properties in style')
            continue  # unknown CSS property: ignored like browsers do
        merged[name] = value
    return merged.items()


_CACHE_LIMIT = 20_000
_MISSING = object()
_PREP_CACHE = {}      # (parent props id, attribute items) -> _prep result
_STYLE_CACHE = {}     # (props id, kind) -> derived paint/font values
_PROPS_IDS = itertools.count(1)


def _prep(elem, props):
    """Apply an element's presentation attributes (memoised).

    Returns ``(props, opacity, matrix_tuple_or_None)`` or None when the
    element is not displayed.  Property dicts are never mutated once built
    and carry a unique ``'_id'``, so results can be shared between
    documents: the same template element under the same parent style gives
    the same result.
    """
    attrib = elem.attrib
    if not attrib:
        return props, 1.0, None
    key = (props['_id'], tuple(attrib.items()))
    result = _PREP_CACHE.get(key, _MISSING)
    if result is _MISSING:
        result = _prep_uncached(elem, props)
        if len(_PREP_CACHE) >= _CACHE_LIMIT:
            _PREP_CACHE.clear()
        _PREP_CACHE[key] = result
    return result


def _prep_uncached(elem, props):
    attrib = elem.attrib
    if not attrib:
        return props, 1.0, None
    items = attrib.items() if 'style' not in attrib else _declarations(elem)
    changes = None
    opacity = 1.0
    matrix = None
    get = _ATTRS.get
    for name, value in items:
        entry = get(name)
        if entry is None:
            continue
        code = entry[0]
        if code == _INHERITED:
            if value == 'inherit' or not value:
                continue
            if changes is None:
                changes = [(name, value)]
            else:
                changes.append((name, value))
        elif code == _OPACITY:
            opacity = _opacity(value)
        elif code == _DISPLAY:
            if value.strip() == 'none':
                return None
        elif code == _TRANSFORM:
            matrix = _parse_transform_tuple(value)
            if matrix == _IDENTITY:
                matrix = None
            elif not matrix[0] * matrix[3] - matrix[1] * matrix[2]:
                return None  # singular (e.g. scale(0)): not rendered
        elif code == _BASELINE:
            if value.strip().lower() not in _HARMLESS_BASELINE:
                raise UnsupportedSVG(f'{name}={value!r}')
        elif value.strip().lower() not in _HARMLESS:  # _REJECT
            raise UnsupportedSVG(f'{name}={value!r} is not supported')
    if changes is None:
        return props, opacity, matrix
    return _derive(props, tuple(changes)), opacity, matrix


_DERIVED = {}  # (parent props id, inherited declarations) -> props


def _derive(props, changes):
    """The property dict of a child; interned, so that elements with the
    same style under the same parent share one dict (and its caches)
    whatever their geometry or transform."""
    key = (props['_id'], changes)
    p = _DERIVED.get(key)
    if p is None:
        p = props.copy()
        for name, value in changes:
            entry = _ATTRS[name]
            p[entry[1]] = entry[2](value, p)
        p['_id'] = next(_PROPS_IDS)
        if len(_DERIVED) >= _CACHE_LIMIT:
            _DERIVED.clear()
        _DERIVED[key] = p
    return p


def _resolve(paint, props, alpha):
    if paint is None:
        return None
    if paint is _CURRENT:
        paint = props['color']
        if paint is None:
            return None
    a = paint[3] * alpha
    if a <= 0:
        return None
    return (paint[0], paint[1], paint[2], a)


def _stroke_spec(props, alpha):
    paint = props['stroke']
    if paint is None:
        return None
    width = props['stroke-width']
    if width <= 0:
        return None
    rgba = _resolve(paint, props, props['stroke-opacity'] * alpha)
    if rgba is None:
        return None
    cap = props['stroke-linecap']
    join = props['stroke-linejoin']
    miter = props['stroke-miterlimit']
    dashes = props['stroke-dasharray']
    if (cap == _CAP_BUTT and join == _JOIN_MITER
            and miter == _DEFAULT_MITER and dashes is None):
        extra = None
    else:
        dash_data = _ffi.new('double[]', dashes) if dashes else None
        extra = (cap, join, max(1.0, miter), dash_data,
                 len(dashes) if dashes else 0, props['stroke-dashoffset'])
    return (rgba, width, extra)


def _paints(props):
    """Cached (fill rgba, stroke spec) of a property dict."""
    key = (props['_id'], 'paint')
    result = _STYLE_CACHE.get(key)
    if result is None:
        result = (_resolve(props['fill'], props, props['fill-opacity']),
                  _stroke_spec(props, 1.0))
        if len(_STYLE_CACHE) >= _CACHE_LIMIT:
            _STYLE_CACHE.clear()
        _STYLE_CACHE[key] = result
    return result


def _run_style(props):
    """Cached (face, size, fill, stroke) of a text run's property dict."""
    key = (props['_id'], 'text')
    result = _STYLE_CACHE.get(key)
    if result is None:
        size = props['font-size']
        if size <= 0:
            raise UnsupportedSVG('font size <= 0')
        if props['visibility']:
            fill, stroke = _paints(props)
        else:
            fill = stroke = None
        face = _font_face(props['font-family'], props['font-style'],
                          props['font-weight'])
        result = (face, size, fill, stroke)
        if len(_STYLE_CACHE) >= _CACHE_LIMIT:
            _STYLE_CACHE.clear()
        _STYLE_CACHE[key] = result
    return result


_FACES = {}


def _font_face(family, slant, weight):
    """Cached ``cairo_font_face_t *`` of a toy font face."""
    key = (family, slant, weight)
    pointer = _FACES.get(key)
    if pointer is None:
        face = cairocffi.ToyFontFace(family, slant, weight)
        # the pointer keeps the face alive (ffi.gc owner)
        pointer = _FACES[key] = face._pointer
    return pointer
# --------------------------------------------------------------------------
# compiler: element tree -> tuple of (function, argument)

class _Compiler:
    """Walks the element tree and emits drawing operations.

    It also simulates the part of cairo's graphics state that the
    operations set (source colour, font face, font size, line width), with
    save/restore and push/pop groups, so that the operations can skip
    setting a value the context already has.  ``gs`` is
    ``[source, face, size, line_width]``; None means unknown.
    """

    __slots__ = ('ops', 'root', 'ids', 'use_stack', 'count', 'gs', 'stack')

    def __init__(self, root):
        self.ops = []
        self.root = root
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
        self.ops.append((_op_shape, (
            build, barg, _new_matrix(matrix) if matrix else None,
            fill_op, props['fill-rule'], stroke_op)))
        if matrix is None:  # otherwise the operation restores the state
            gs[0], gs[3] = source, width
        if group:
            self.pop(opacity)


def _attr_len(attrib, name, font_size):
    value = attrib.get(name)
    if value is None:
        return 0.0
    try:
        return _finite(float(value))
    except ValueError:
        return _length(value, font_size)


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


def _h_g(c, elem, props):
    c.group(elem, props)


def _h_skip(c, elem, props):
    pass


def _h_nested_svg(c, elem, props):
    raise UnsupportedSVG('nested <svg> is not supported')


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


# text -----------------------------------------------------------------------

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


def _text_run(text, p, pos, need):
    face, size, fill, stroke = _run_style(p)
    if pos is None:
        return (text.encode('utf-8'), face, size, fill, stroke, None, None,
                0.0, 0.0, need)
    x, y, dx, dy = pos
    return (text.encode('utf-8'), face, size, fill, stroke, x, y,
            dx or 0.0, dy or 0.0, need)


_TEXT_CACHE = {}  # (parent props id, attribute items) -> _text_head result
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
        if not text:
            return
        run = (text.encode('utf-8'),) + style + (False,)
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


_SHAPE_CACHE = {}  # see _Compiler.cached_shape
_SHAPE_HANDLERS = frozenset((_h_rect, _h_circle, _h_ellipse, _h_line,
                             _h_polyline, _h_polygon, _h_path))

_TEXT_CHILDREN = {}
for _prefix in ('', _SVG_NS):
    _TEXT_CHILDREN[_prefix + 'tspan'] = 'tspan'
    for _tag in ('title', 'desc', 'metadata'):
        _TEXT_CHILDREN[_prefix + _tag] = 'skip'
del _prefix, _tag


_HANDLERS = {}
for _prefix in ('', _SVG_NS):
    _HANDLERS.update({
        _prefix + 'g': _h_g,
        _prefix + 'svg': _h_nested_svg,
        _prefix + 'defs': _h_skip,
        _prefix + 'symbol': _h_skip,
        _prefix + 'title': _h_skip,
        _prefix + 'desc': _h_skip,
        _prefix + 'metadata': _h_skip,
        _prefix + 'use': _h_use,
        _prefix + 'rect': _h_rect,
        _prefix + 'circle': _h_circle,
        _prefix + 'ellipse': _h_ellipse,
        _prefix + 'line': _h_line,
        _prefix + 'polyline': _h_polyline,
        _prefix + 'polygon': _h_polygon,
        _prefix + 'path': _h_path,
        _prefix + 'text': _h_text,
    })
del _prefix


def _check_safe(svg_text):
    if isinstance(svg_text, str):
        if '<!' in svg_text and _DOCTYPE_RE.search(svg_text):
            raise ValueError('SVG must not contain a DOCTYPE or entities')
    elif b'<!' in svg_text and _DOCTYPE_BRE.search(svg_text):
        raise ValueError('SVG must not contain a DOCTYPE or entities')


def _compile(svg_text):
    """Parse and compile a document; raises UnsupportedSVG."""
    root = ET.fromstring(svg_text)
    if root.tag != _SVG_NS + 'svg' and root.tag != 'svg':
        raise UnsupportedSVG('root element is not <svg>')
    # CSS style sheets apply document-wide, even from inside <defs>.
    for tag in (_SVG_NS + 'style', 'style'):
        for _ in root.iter(tag):
            raise UnsupportedSVG('<style> elements are not supported')
    compiler = _Compiler(root)
    compiler.group(root, _ROOT_PROPS)
    return tuple(compiler.ops)


@lru_cache(maxsize=256)
def _compile_cached(svg_text):
    """Compiled program, or None when the fast path cannot draw it."""
    try:
        return _compile(svg_text)
    except UnsupportedSVG:
        return None


# --------------------------------------------------------------------------
# fallback through cairosvg

_FALLBACK_CLASS = None


def _fallback_class():
    """A cairosvg Surface that draws onto an existing cairocffi context."""
    global _FALLBACK_CLASS
    if _FALLBACK_CLASS is not None:
        return _FALLBACK_CLASS
    from cairosvg.helpers import node_format, size
    from cairosvg.surface import Surface

    class ContextSurface(Surface):
        """Draws a cairosvg Tree in the caller's current user space.

        Surface.__init__ is deliberately not called: it would create a new
        cairo surface and context and map the root viewBox onto them.  We
        set up the same attributes by hand and draw straight away.

        cairosvg's user unit is the CSS pixel; with ``dpi = 25.4`` one
        millimetre is one pixel, so unitless numbers, "px" and "mm" are all
        one unit of the caller's space (1 mm), and "pt" is 25.4/72, exactly
        as in the fast path.  The root's viewBox only gives the viewport
        size (for percentages); no viewBox translation, scaling or clipping
        is applied, so the document's (0, 0) lands on the current origin.
        """

        def __init__(self, tree, context):  # pylint: disable=W0231
            self.cairo = context.get_target()
            self.context = context
            self.output = None
            self.dpi = 25.4
            self.context_width = self.context_height = None
            self.cursor_position = [0, 0]
            self.cursor_d_position = [0, 0]
            self.text_path_width = 0
            self.tree_cache = {(tree.url, tree.get('id')): tree}
            self.reference_count = 0
            self.markers = {}
            self.gradients = {}
            self.patterns = {}
            self.masks = {}
            self.paths = {}
            self.filters = {}
            self.images = {}
            self._old_parent_node = self.parent_node = None
            self.map_rgba = None
            self.map_image = None
            self.stroke_and_fill = True
            self.font_size = size(self, '12pt')
            width, height, viewbox = node_format(self, tree)
            if viewbox is None:
                viewbox = (0, 0, width, height)
            self.width, self.height = viewbox[2], viewbox[3]
            self.context_width, self.context_height = viewbox[2], viewbox[3]
            tree.image_width, tree.image_height = viewbox[2], viewbox[3]
            context.move_to(0, 0)
            self.draw(tree)

        def finish(self):
            """Nothing to finish: the surface belongs to the caller."""

    _FALLBACK_CLASS = ContextSurface
    return ContextSurface


class ExternalResourceRefused(ValueError):
    pass


MAX_IMAGE_BYTES = 8 * 1024 * 1024
MAX_IMAGE_PIXELS = 40_000_000


def _refuse_fetch(url, resource_type):
    """Only images written into the SVG itself (data: URLs) load, within size limits; a file
    or network URL never does."""
    if not url.startswith("data:"):
        raise ExternalResourceRefused(f"SVG refers to an external resource ({url[:80]}); "
                                      "templates may not load files or URLs")
    from cairosvg.url import fetch
    result = fetch(url, resource_type)
    data = result.get("string", b"") if isinstance(result, dict) else result
    if len(data) > MAX_IMAGE_BYTES:
        raise ExternalResourceRefused(f"an embedded image of {len(data) // 1024} KB is over the "
                                      f"{MAX_IMAGE_BYTES // (1024 * 1024)} MB limit")
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        if width * height > MAX_IMAGE_PIXELS:
            raise ExternalResourceRefused(f"an embedded image of {width} x {height} pixels is over the "
                                          f"{MAX_IMAGE_PIXELS // 1_000_000} megapixel limit")
    return result


def _fallback(ctx, svg_text):
    from cairosvg.parser import Tree
    data = svg_text.encode('utf-8') if isinstance(svg_text, str) else svg_text
    # unsafe=False: no entities; and a fetcher that refuses every URL, so an <image> or
    # xlink to a file or the network loads nothing (cairosvg's default fetcher would)
    tree = Tree(bytestring=data, unsafe=False, url_fetcher=_refuse_fetch)
    _fallback_class()(tree, ctx)


# --------------------------------------------------------------------------
# public API

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
