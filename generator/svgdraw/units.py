"""Numbers and lengths: attribute text -> finite floats in document units (mm).

A number that is NaN or infinite, or a unit outside the subset, raises UnsupportedSVG so
the document goes to cairosvg instead of putting the caller's cairo context in an error
state.
"""

from __future__ import annotations

import re

from .base import UnsupportedSVG

_PT = 25.4 / 72  # one point in millimetres (document units)
_DEFAULT_FONT_SIZE = 12 * _PT  # same default as cairosvg (12pt)

_NUM = r'[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?'
_NUMS_RE = re.compile(_NUM)
_LENGTH_RE = re.compile(r'\s*(' + _NUM + r')\s*(px|mm|pt|cm|in|pc|em|ex|%)?\s*$')
_LIST_SPLIT_RE = re.compile(r'[\s,]+')

_UNITS = {None: 1.0, 'px': 1.0, 'mm': 1.0, 'cm': 10.0, 'in': 25.4,
          'pt': _PT, 'pc': 12 * _PT}


MAX_COORDINATE = 100_000.0   # mm (100 m): any number past this in a face is a mistake


class SVGNumberError(ValueError):
    """A number no drawing can use (NaN, infinite, or past MAX_COORDINATE): refused, never
    handed to cairosvg (which would draw it, or hang on it)."""


def _finite(number):
    """``number`` if it is finite and within MAX_COORDINATE, else SVGNumberError (NaN/inf
    would put the caller's cairo context in a permanent error state, 1e308 hangs cairo)."""
    if -MAX_COORDINATE <= number <= MAX_COORDINATE:
        return number
    raise SVGNumberError(f'the number {number!r} in the SVG is not finite or not within '
                         f'±{MAX_COORDINATE:g} mm; check the values the template computes')


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




def _attr_len(attrib, name, font_size):
    """A length attribute of an element; absent -> 0."""
    value = attrib.get(name)
    if value is None:
        return 0.0
    try:
        return _finite(float(value))
    except ValueError:
        return _length(value, font_size)
