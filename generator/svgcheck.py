"""A rendered face's SVG -> what in it would print differently from what was written: colours no
renderer knows (they print black) and font families neither the pack's fonts/ nor pnpgen's
have (fontconfig would put another font in their place). Checked on every face by build and validate alike.
"""
from __future__ import annotations

import difflib
import re
from functools import lru_cache

from .fonts import library
from .svgdraw import NAMED_COLORS

PAINT_PROPERTIES = ("fill", "stroke", "stop-color", "flood-color", "lighting-color", "color")
_ATTRIBUTE = re.compile(r'\s(' + "|".join(PAINT_PROPERTIES) + r'|font-family|style)\s*=\s*(["\'])(.*?)\2', re.S)
_HEX = re.compile(r"^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$")
_FUNCTION = re.compile(r"^(?:rgba?|hsla?)\([^()]*\)$")
_URL = re.compile(r"^url\(\s*#[^)]+\)(\s+.+)?$")
KEYWORDS = {"none", "transparent", "currentcolor", "inherit"}
GENERIC_FAMILIES = {"sans-serif", "serif"}        # fontconfig maps these onto the shipped fonts


def color_known(value: str) -> bool:
    low = value.strip().lower()
    if low in KEYWORDS or low in NAMED_COLORS or _HEX.match(low) or _FUNCTION.match(low):
        return True
    match = _URL.match(low)
    return bool(match) and (match.group(1) is None or color_known(match.group(1)))


def family_known(value: str) -> bool:
    """The first family of a font-family list is the pack's or ours (quotes and case aside)."""
    first = value.split(",")[0].strip().strip("'\"").strip()
    return first.lower() in _known_families(library())


@lru_cache(maxsize=4)
def _known_families(fonts) -> frozenset:
    """The families of a (fixed) font library, lower-cased: asked for every face's every font."""
    return frozenset(f.lower() for f in fonts.families) | GENERIC_FAMILIES


def problems(svg: str, palette: dict | None = None) -> list[tuple[str, str]]:
    """Each unknown colour or font family in the document: (the text it is written as, so the
    template line can be found; what is wrong, with the closest colour of CSS or the palette)."""
    found: dict[str, str] = {}
    for name, _, value in _ATTRIBUTE.findall(svg):
        declarations = _declarations(value) if name == "style" else [(name, value)]
        for prop, text in declarations:
            text = _unescape(text)
            if prop in PAINT_PROPERTIES and not color_known(text):
                found.setdefault(value, f"{prop}={text!r} is not a colour (it would print black); "
                                 + (_closest_colour(text, palette or {})
                                    or "write '#rrggbb', a CSS colour name or a palette entry"))
            elif prop == "font-family" and not family_known(text):
                first = text.split(",")[0].strip().strip("'\"").strip()
                found.setdefault(value, f"font-family {text!r} is neither in the pack's fonts/ nor one of pnpgen's "
                                 f"(another font would be printed in its place); {library().unknown_family_hint(first)}")
    return list(found.items())


def _closest_colour(text: str, palette: dict) -> str:
    """'did you mean ...?' naming a palette entry ({{ palette.gold }}) or a CSS colour name; ''."""
    low = text.strip().lower()
    close = [text.strip()] if text.strip() in palette else difflib.get_close_matches(low, list(palette), 1, 0.75)
    if close:
        return f"did you mean {{{{ palette.{close[0]} }}}}?"
    close = difflib.get_close_matches(low, NAMED_COLORS, 1, 0.75)
    return f"did you mean '{close[0]}'?" if close else ""


def _declarations(style: str) -> list[tuple[str, str]]:
    out = []
    for part in style.split(";"):
        if ":" in part:
            prop, value = part.split(":", 1)
            out.append((prop.strip().lower(), value.strip()))
    return out


def _unescape(text: str) -> str:
    return text.replace("&quot;", '"').replace("&#39;", "'").replace("&#34;", '"').replace("&amp;", "&")
