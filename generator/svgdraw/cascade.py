"""The style cascade: an element and its parent's properties -> the element's properties,
opacity and transform; a property dict -> the paints and font a drawing operation sets.

Property dicts are interned and never mutated (each carries a unique ``'_id'``), so every
result here is memoised by (parent id, attributes) and shared between documents: template
elements repeated from card to card are styled once.
"""

from __future__ import annotations

import itertools

import cairocffi

from .base import UnsupportedSVG
from .colors import _CURRENT
from .fontface import face_pointer, on_library_change
from .properties import (
    _ATTRS, _BASELINE, _CAP_BUTT, _DEFAULT_MITER, _DISPLAY, _HARMLESS, _HARMLESS_BASELINE,
    _INHERITED, _JOIN_MITER, _OPACITY, _TRANSFORM, _declarations)
from .transforms import _IDENTITY, _parse_transform_tuple
from .units import _opacity

_ffi = cairocffi.ffi

_CACHE_LIMIT = 20_000
_MISSING = object()
_PREP_CACHE = {}      # (parent props id, attribute items) -> _prep result
_STYLE_CACHE = {}     # (props id, kind) -> derived paint/font values
_PROPS_IDS = itertools.count(1)
on_library_change(_STYLE_CACHE.clear)    # it holds faces: emptied for another pack's fonts


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
        face = face_pointer(props['font-family'], props['font-style'],
                            props['font-weight'])
        result = (face, size, fill, stroke)
        if len(_STYLE_CACHE) >= _CACHE_LIMIT:
            _STYLE_CACHE.clear()
        _STYLE_CACHE[key] = result
    return result


