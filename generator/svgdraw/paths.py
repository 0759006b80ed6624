"""Path data: ``d`` / ``points`` text and basic shapes -> cairo path structures.

``_path_segments`` parses SVG path data into ``[(cairo_path_type, coords), ...]``, one
function per path command in ``_COMMANDS`` (quadratics and arcs become cubics); the
``*_path`` builders encode segments into a ``cairo_path_t`` that the drawing operations
append in one call, cached because template shapes repeat from card to card.
"""

from __future__ import annotations

import re
from functools import lru_cache

import cairocffi

from .arcs import _arc_to_curves
from .base import UnsupportedSVG
from .units import _NUM, _finite, _number_list

_ffi = cairocffi.ffi

_MOVE_TO = cairocffi.PATH_MOVE_TO
_LINE_TO = cairocffi.PATH_LINE_TO
_CURVE_TO = cairocffi.PATH_CURVE_TO
_CLOSE_PATH = cairocffi.PATH_CLOSE_PATH

_NUM_RE = re.compile(r'[\s,]*(' + _NUM + ')')
_FLAG_RE = re.compile(r'[\s,]*([01])')
_CMD_RE = re.compile(r'[\s,]*([MmZzLlHhVvCcSsQqTtAa])')
_END_RE = re.compile(r'[\s,]*$')


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


class _PathState:
    """The pen of a path being parsed, and the segments drawn so far."""

    __slots__ = ('segs', 'x', 'y', 'sx', 'sy', 'last_c', 'last_q',
                 'need_move', 'started')

    def __init__(self):
        self.segs = []
        self.x = self.y = 0.0      # current point
        self.sx = self.sy = 0.0    # start of the current subpath
        self.last_c = None         # last cubic control point (for S)
        self.last_q = None         # last quadratic control point (for T)
        self.need_move = False     # after Z, before a drawing command
        self.started = False

    def reflected(self, control):
        """The reflection of the previous control point (S, T), or the pen."""
        if control is None:
            return self.x, self.y
        return 2 * self.x - control[0], 2 * self.y - control[1]

    def line_to(self, x, y):
        self.segs.append((_LINE_TO, (x, y)))
        self.x, self.y = x, y
        self.last_c = self.last_q = None

    def curve_to(self, x1, y1, x2, y2, ex, ey):
        self.segs.append((_CURVE_TO, (x1, y1, x2, y2, ex, ey)))
        self.last_c = (x2, y2)
        self.last_q = None
        self.x, self.y = ex, ey

    def quad_to(self, qx, qy, ex, ey):
        x, y = self.x, self.y
        self.segs.append((_CURVE_TO, (x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y),
                                      ex + 2 / 3 * (qx - ex), ey + 2 / 3 * (qy - ey),
                                      ex, ey)))
        self.last_q = (qx, qy)
        self.last_c = None
        self.x, self.y = ex, ey


def _move(st, args, relative):
    if relative:
        st.x += args[0]
        st.y += args[1]
    else:
        st.x, st.y = args
    st.sx, st.sy = st.x, st.y
    st.segs.append((_MOVE_TO, (st.x, st.y)))
    st.started = True
    st.need_move = False
    st.last_c = st.last_q = None


def _close(st, args, relative):
    if st.started:
        st.segs.append((_CLOSE_PATH, ()))
    st.x, st.y = st.sx, st.sy
    st.need_move = True
    st.last_c = st.last_q = None


def _line(st, args, relative):
    if relative:
        st.line_to(st.x + args[0], st.y + args[1])
    else:
        st.line_to(args[0], args[1])


def _horizontal(st, args, relative):
    st.line_to(st.x + args[0] if relative else args[0], st.y)


def _vertical(st, args, relative):
    st.line_to(st.x, st.y + args[0] if relative else args[0])


def _cubic(st, args, relative):
    x1, y1, x2, y2, ex, ey = args
    if relative:
        x, y = st.x, st.y
        x1, y1, x2, y2, ex, ey = x1 + x, y1 + y, x2 + x, y2 + y, ex + x, ey + y
    st.curve_to(x1, y1, x2, y2, ex, ey)


def _smooth_cubic(st, args, relative):
    x1, y1 = st.reflected(st.last_c)
    x2, y2, ex, ey = args
    if relative:
        x, y = st.x, st.y
        x2, y2, ex, ey = x2 + x, y2 + y, ex + x, ey + y
    st.curve_to(x1, y1, x2, y2, ex, ey)


def _quadratic(st, args, relative):
    qx, qy, ex, ey = args
    if relative:
        x, y = st.x, st.y
        qx, qy, ex, ey = qx + x, qy + y, ex + x, ey + y
    st.quad_to(qx, qy, ex, ey)


def _smooth_quadratic(st, args, relative):
    qx, qy = st.reflected(st.last_q)
    ex, ey = args
    if relative:
        ex, ey = ex + st.x, ey + st.y
    st.quad_to(qx, qy, ex, ey)


def _arc(st, args, relative):
    rx, ry, phi, large, sweep, ex, ey = args
    if relative:
        ex, ey = ex + st.x, ey + st.y
    curves = _arc_to_curves(st.x, st.y, rx, ry, phi, large, sweep, ex, ey)
    if curves is None:
        st.segs.append((_LINE_TO, (ex, ey)))
    else:
        for coords in curves:
            st.segs.append((_CURVE_TO, coords))
    st.last_c = st.last_q = None
    st.x, st.y = ex, ey


# command letter -> (its arguments: n a number, f a 0/1 flag; the function drawing it)
_COMMANDS = {
    'M': ('nn', _move), 'Z': ('', _close), 'L': ('nn', _line),
    'H': ('n', _horizontal), 'V': ('n', _vertical),
    'C': ('nnnnnn', _cubic), 'S': ('nnnn', _smooth_cubic),
    'Q': ('nnnn', _quadratic), 'T': ('nn', _smooth_quadratic),
    'A': ('nnnffnn', _arc),
}


def _read_args(d, pos, kinds):
    """The arguments of one command from ``d[pos:]``; ValueError when malformed."""
    args = []
    for kind in kinds:
        if kind == 'f':
            match = _FLAG_RE.match(d, pos)
            if match is None:
                raise ValueError
            args.append(match.group(1) == '1')
        else:
            match = _NUM_RE.match(d, pos)
            if match is None:
                raise ValueError
            args.append(_finite(float(match.group(1))))
        pos = match.end()
    return args, pos


def _path_segments(d):
    """Parse path data into ``[(cairo_path_type, coords), ...]``.

    Quadratics and arcs become cubics.  On an error, the path is rendered
    up to the error, as the SVG spec requires.
    """
    st = _PathState()
    pos = 0
    cmd = None
    while True:
        match = _CMD_RE.match(d, pos)
        if match is not None:
            cmd = match.group(1)
            pos = match.end()
        elif _END_RE.match(d, pos) or cmd is None or cmd in 'Zz':
            break  # the end, or numbers without a command (an error)
        upper = cmd.upper()
        if not st.started and upper != 'M':
            break  # error: path must start with a moveto
        kinds, draw = _COMMANDS[upper]
        try:
            args, pos = _read_args(d, pos, kinds)
        except (ValueError, UnsupportedSVG):
            break
        relative = cmd != upper
        if st.need_move and upper not in 'MZ':
            st.segs.append((_MOVE_TO, (st.x, st.y)))
            st.need_move = False
        draw(st, args, relative)
        if upper == 'M':  # numbers after a moveto are linetos
            cmd = 'l' if relative else 'L'
    return st.segs


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
