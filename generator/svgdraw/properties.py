"""Presentation properties: attribute and ``style`` text -> typed property values.

``_ATTRS`` is the table of every attribute the interpreter knows: name -> (how the cascade
treats it, the property it sets, the parser turning its text into a value).  Attributes
that would change the drawing in ways the fast path cannot follow (clip-path, filter,
letter-spacing...) are rejected unless their value does nothing, so the document goes to
cairosvg.  ``_ROOT_PROPS`` are SVG's initial values.
"""

from __future__ import annotations

import cairocffi

from .base import _XML_SPACE, UnsupportedSVG
from .colors import _BLACK, _CURRENT, _parse_color, _parse_paint
from .units import _DEFAULT_FONT_SIZE, _LIST_SPLIT_RE, _finite, _length, _opacity

_CAP_BUTT = cairocffi.LINE_CAP_BUTT
_JOIN_MITER = cairocffi.LINE_JOIN_MITER
_DEFAULT_MITER = 4.0

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

