"""Transforms: ``transform`` attribute text -> one affine matrix tuple (a, b, c, d, e, f).

Each SVG transform function is an entry of ``_TRANSFORMS``: name -> (accepted argument
counts, function from the numbers to a matrix).  Anything malformed raises UnsupportedSVG.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

from .base import UnsupportedSVG
from .units import _NUMS_RE, MAX_COORDINATE, _number_list

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


_BETWEEN_NUMBERS_RE = re.compile(r'[\s,]*')


def well_formed(value: str) -> bool:
    """Is `value` a list of transform functions (matrix, translate, scale, rotate, skewX, skewY)
    of numbers only? _parse_transform_tuple takes the numbers out of each function's text and
    skips the rest ('translate(nan,5)' is drawn as translate(5)), so svgcheck refuses such a text
    first with this. How many numbers each function takes is the drawing's to check. One pass
    (no nested repeats to backtrack through, whatever the text)."""
    pos, end = 0, len(value)
    while pos < end:
        match = _TRANSFORM_RE.match(value, pos)
        if match is None:
            return _END_RE.match(value, pos) is not None
        if not _BETWEEN_NUMBERS_RE.fullmatch(_NUMS_RE.sub("", match.group(2))):
            return False
        pos = match.end()
    return True


def placed_matrix(x, y, scale, dx, dy):
    """translate(x,y) scale(scale) translate(dx,dy) as one matrix, the one _parse_transform_tuple
    reads from that text (an inline icon's, facedoc.InlineIcon: handed over as numbers); None
    when a number is not finite or past MAX_COORDINATE (the text's parse says what is wrong)."""
    for number in (x, y, scale, dx, dy):
        if not -MAX_COORDINATE <= number <= MAX_COORDINATE:      # (NaN fails it)
            return None
    # what _compose makes of the three, bit for bit: each product with 1.0 or 0.0 and sum with
    # 0.0 taken out, which only turns a -0.0 into 0.0 (tests/test_draw_once.py holds it to the scan)
    scale += 0.0
    return (scale, 0.0, 0.0, scale, scale * dx + (x + 0.0), scale * dy + (y + 0.0))


@lru_cache(maxsize=1024)
def _parse_transform_tuple(value):
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
