"""A rendered face's parsed document -> what in it would print differently from what was written:
colours no renderer knows (they print black), font families neither the pack's fonts/ nor
pnpgen's have (fontconfig would put another font in their place), transforms with words
where numbers go (the drawing would skip them) and transforms in a style (never drawn). Checked on every face by build
and validate alike, on the element tree the face was parsed into once (render.py): attributes
and style declarations of every element, and the style of each run the text helpers placed.
"""
from __future__ import annotations

import re
from functools import lru_cache

from .errors import close_to, did_you_mean
from .facedoc import RUN_TAG
from .fonts import library
from .svgdraw import NAMED_COLORS
from .svgdraw.transforms import well_formed as transform_well_formed

PAINT_PROPERTIES = ("fill", "stroke", "stop-color", "flood-color", "lighting-color", "color")
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


def tree_problems(root, palette: dict | None = None, blocks: tuple = (), nonce: str = "") -> list[tuple[str, str]]:
    """Each unknown colour or font family in the document, in document order: (the text it is
    written as, so the template line can be found; what is wrong, with the closest colour of
    CSS or the palette). `blocks` and `nonce`: the text helpers' blocks behind their placeholders
    (facedoc.py), checked where their placeholders stand."""
    found: dict[str, str] = {}
    styles = set()          # run styles checked already: the same again finds nothing new
    fine = _fine_values(library())
    for elem in root.iter():
        attrib = elem.attrib
        if not attrib:
            continue
        if elem.tag == _RUN and nonce and attrib.get("n") == nonce:
            _block_problems(blocks[int(attrib["b"])], found, styles, fine, palette)
            continue
        _element_problems(attrib, found, fine, palette)
    return list(found.items())


def block_problems(placeholders: tuple, blocks: tuple, palette: dict | None = None) -> list[tuple[str, str]]:
    """tree_problems of a document whose own elements have none: its blocks', in the order of
    their placeholders (facedoc.Document.placeholders)."""
    found: dict[str, str] = {}
    styles, fine = set(), _fine_values(library())
    for index in placeholders:
        _block_problems(blocks[index], found, styles, fine, palette)
    return list(found.items())


def _block_problems(parts: tuple, found: dict, styles: set, fine: set, palette) -> None:
    """A block's parts as its SVG text would be checked: a stretch of runs by its style (its
    font and fill), an icon element by element."""
    for part in parts:
        if type(part) is tuple:
            style = part[0].style
            if style not in styles and style not in fine:
                styles.add(style)
                _element_problems({"font-family": style.family, "fill": style.color}, found, fine, palette)
                if ("font-family", style.family) in fine and ("fill", style.color) in fine and len(fine) < MAX_FINE:
                    fine.add(style)     # (a RunStyle, made once by the helpers: by identity)
        else:
            _icon_problems(part, found, fine, palette)


def _icon_problems(icon, found: dict, fine: set, palette) -> None:
    """An inline icon element by element; one found to print as written is not read again (its
    `<g>`'s transform, which differs from face to face, is no colour nor font: the icon's fill
    and markup say all it is checked for). Kept in `fine`, emptied with it."""
    known = (_ICON, icon.fill, icon.markup)
    if known in fine:
        return
    elements = [elem.attrib for elem in icon.element().iter() if elem.attrib]
    for attrib in elements:
        _element_problems(attrib, found, fine, palette)
    if len(fine) < MAX_FINE and all((name, value) in fine for attrib in elements
                                    for name, value in attrib.items() if name in _CHECKED):
        fine.add(known)


def _element_problems(attrib, found: dict, fine: set, palette) -> None:
    for name, value in attrib.items():
        if name in _CHECKED and value not in found and (name, value) not in fine:
            declarations = _declarations(value) if name == "style" else ((name, value),)
            for prop, text in declarations:
                problem = _problem(prop, text, palette, name == "style")
                if problem:
                    found[value] = problem
                    break
            else:
                if len(fine) >= MAX_FINE:
                    fine.clear()
                fine.add((name, value))


MAX_FINE = 20_000


@lru_cache(maxsize=4)
def _fine_values(fonts) -> set:
    """(attribute, value) pairs found to print as written with a (fixed) font library: the
    same fill or font on the next face is not read again. What is wrong is found afresh on
    every face (its message names the palette)."""
    return set()


def _problem(prop: str, text: str, palette: dict | None, in_style: bool = False) -> str:
    if prop in PAINT_PROPERTIES:
        if _colour_known(text):
            return ""
        return (f"{prop}={text!r} is not a colour (it would print black); "
                + (_closest_colour(text, palette or {}) or "write '#rrggbb', a CSS colour name or a palette entry"))
    if prop == "transform" and in_style:        # (cairosvg, which draws such a face, ignores it)
        return (f"transform: {text} in a style attribute is not drawn; write it as the element's own "
                f"transform=\"...\" attribute, with numbers only")
    if prop == "transform" and not transform_well_formed(text):
        return (f"transform={text!r} is not a list of transforms of numbers (its other words would be "
                "skipped); write e.g. translate(10,5) rotate(90) scale(2), with numbers only")
    if prop == "font-family" and not family_known(text):
        first = text.split(",")[0].strip().strip("'\"").strip()
        return (f"font-family {text!r} is neither in the pack's fonts/ nor one of pnpgen's "
                f"(another font would be printed in its place); {library().unknown_family_hint(first)}")
    return ""


@lru_cache(maxsize=4096)
def _colour_known(text: str) -> bool:
    return color_known(text)


_CHECKED = frozenset(PAINT_PROPERTIES) | {"font-family", "style", "transform"}
_RUN = "{http://www.w3.org/2000/svg}" + RUN_TAG
_ICON = "<icon>"        # fine's key of an inline icon: (_ICON, fill, markup)


def _closest_colour(text: str, palette: dict) -> str:
    """'did you mean ...?' naming a palette entry ({{ palette.gold }}) or a CSS colour name; ''."""
    low = text.strip().lower()
    close = [text.strip()] if text.strip() in palette else close_to(low, palette, 1, 0.75)
    if close:
        return f"did you mean {{{{ palette.{close[0]} }}}}?"
    return did_you_mean(low, NAMED_COLORS, cutoff=0.75)


def _declarations(style: str) -> list[tuple[str, str]]:
    out = []
    for part in style.split(";"):
        if ":" in part:
            prop, value = part.split(":", 1)
            out.append((prop.strip().lower(), value.strip()))
    return out
