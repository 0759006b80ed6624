"""Transforms: ``transform`` attribute text -> one affine matrix tuple (a, b, c, d, e, f).

Each SVG transform function is an entry of ``_TRANSFORMS``: name -> (accepted argument
counts, function from the numbers to a matrix).  Anything malformed raises UnsupportedSVG.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

from .base import UnsupportedSVG
from .units import MAX_COORDINATE, _number_list

_TRANSFORM_RE = re.compile(
    r'[\s,]*(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)')
_END_RE = re.compile(r'[\s,]*$')

_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _compose(m1, m2):
    """Affine ``m1 ∘ m2`` (m2 applied first), tuples (a, b, c, d, e, f)."""
    a1, b1, c1, d1, e1, f1 = m1
    a2, b2, c2, d2, e2, f2 = m2
    return (a1 * a2 + c1 * b2, b1 * a2 + d1 * b2,
            a1 * c2 + c1 * d2, b1 * c2 + d1 * d2,
            a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1)


def _translate(n):
    return (1.0, 0.0, 0.0, 1.0, n[0], n[1] if len(n) == 2 else 0.0)


def _scale(n):
    return (n[0], 0.0, 0.0, n[-1], 0.0, 0.0)


def _rotate(n):
    angle = math.radians(n[0])
    cos, sin = math.cos(angle), math.sin(angle)
    m = (cos, sin, -sin, cos, 0.0, 0.0)
    if len(n) == 3:  # about (cx, cy)
        cx, cy = n[1], n[2]
        m = _compose((1.0, 0.0, 0.0, 1.0, cx, cy),
                     _compose(m, (1.0, 0.0, 0.0, 1.0, -cx, -cy)))
    return m


def _skew_x(n):
    return (1.0, 0.0, math.tan(math.radians(n[0])), 1.0, 0.0, 0.0)


def _skew_y(n):
    return (1.0, math.tan(math.radians(n[0])), 0.0, 1.0, 0.0, 0.0)


_TRANSFORMS = {
    'matrix': ((6,), tuple),
    'translate': ((1, 2), _translate),
    'scale': ((1, 2), _scale),
    'rotate': ((1, 3), _rotate),
    'skewX': ((1,), _skew_x),
    'skewY': ((1,), _skew_y),
}


_N = r'(-?[0-9]+(?:\.[0-9]+)?)'
_PLACED_RE = re.compile(rf'translate\({_N},{_N}\) scale\({_N}\) translate\({_N},{_N}\)')


@lru_cache(maxsize=1024)
def _parse_transform_tuple(value):
    placed = _PLACED_RE.fullmatch(value)
    if placed is not None:      # an inline icon's (textfit.inline_icon), one per face: read at once
        x, y, scale, dx, dy = map(float, placed.groups())
        if max(abs(x), abs(y), abs(scale), abs(dx), abs(dy)) <= MAX_COORDINATE:    # (else said below)
            # _compose(_IDENTITY, translate) is the translation with 0.0 added (-0.0 made 0.0)
            return _compose(_compose((1.0, 0.0, 0.0, 1.0, x + 0.0, y + 0.0), (scale, 0.0, 0.0, scale, 0.0, 0.0)),
                            (1.0, 0.0, 0.0, 1.0, dx, dy))
    pos = 0
    end = len(value)
    total = _IDENTITY
    while True:
        match = _TRANSFORM_RE.match(value, pos)
        if match is None:
            if _END_RE.match(value, pos):
                break
            raise UnsupportedSVG(f'bad transform {value!r}')
        pos = match.end()
        kind, args = match.groups()
        numbers = _number_list(args)
        counts, build = _TRANSFORMS[kind]
        if len(numbers) not in counts:
            raise UnsupportedSVG(f'bad transform {value!r}')
        total = _compose(total, build(numbers))
        if pos >= end:
            break
    return total
