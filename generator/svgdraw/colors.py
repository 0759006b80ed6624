"""Colours: SVG/CSS colour text -> (r, g, b, a) tuples in 0..1.

Named colours, #rgb/#rgba/#rrggbb/#rrggbbaa, rgb()/rgba() (CSS3 commas or CSS4 spaces with
"/ alpha"), currentColor (a sentinel resolved against the ``color`` property); None means
nothing is painted (none, transparent, zero alpha).  Paint servers (url(...)) go to cairosvg.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .base import UnsupportedSVG
from .units import _finite

_RGB_RE = re.compile(r'rgba?\(([^)]*)\)\s*$')
_HEX_RE = re.compile(r'[0-9a-f]+$')

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


