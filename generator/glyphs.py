"""Text -> text that prints as written, or a clear refusal.

Every string pnpgen sets (template <text>, text helpers, board labels, maps, handouts) passes
through here first:
  - composed (Unicode NFC), so a letter written as base + combining accent becomes the one
    precomposed glyph the font has and the accent lands where it belongs;
  - soft hyphens (U+00AD) are break points for the wrapping helpers and invisible elsewhere;
  - a character the font has no glyph for, a combining mark left over after composing, and
    right-to-left scripts are refused, naming the text: pnpgen draws glyphs one after the
    other, left to right, without a shaping engine, so it cannot set these correctly, and a
    wrong or empty box on a printed card is worse than an error.
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

SOFT_HYPHEN = "\u00ad"
RIGHT_TO_LEFT = {"R", "AL", "RLE", "RLO", "RLI"}
_BLANKS = frozenset(" \n\t\r" + SOFT_HYPHEN)     # never drawn as glyphs: a font need not have them


class GlyphError(ValueError):
    """Text that would not print as written."""


def composed(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def printable(text: str) -> str:
    """Text as drawn where no line breaks are made: composed, soft hyphens dropped."""
    return composed(text).replace(SOFT_HYPHEN, "")


def problem(text: str, covered, shaped: bool = False) -> str:
    """'' when every character of (composed) text prints with a font covering `covered`
    (a set or mapping of characters), else what is wrong and what to do. `shaped`: the text is
    drawn through the shaping engine (raw <text>, helpers, maps), so right-to-left scripts and
    combining marks are set properly; elsewhere (handouts, page labels) they are refused."""
    text = composed(text)
    plain = text.isascii()           # the common case: no right-to-left letters nor marks
    for index, char in enumerate(text if not (shaped or plain) else ""):
        if unicodedata.bidirectional(char) in RIGHT_TO_LEFT:
            return (f"right-to-left text ({_name(char)}) cannot be set here: this text is drawn left to right "
                    "without shaping, so it would print in reverse order; it can be set on components")
        if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me"):
            base = repr(text[index - 1]) if index else "nothing"
            return (f"the combining mark {_name(char)} after {base} has no composed form, and this text is "
                    "drawn without shaping; use a precomposed letter")
    chars = set(text)
    if isinstance(covered, (dict, frozenset, set)) and \
            (covered.keys() if isinstance(covered, dict) else covered) >= chars - _BLANKS:
        return ""                   # the usual case, asked in one step: the font has every character
    if all(c in covered or c in " \n\t\r" + SOFT_HYPHEN for c in chars):
        return ""
    missing = list(dict.fromkeys(c for c in text if c not in covered and not c.isspace() and c != SOFT_HYPHEN))
    if missing:
        shown = ", ".join(repr(c) for c in missing[:8]) + (" ..." if len(missing) > 8 else "")
        return (f"the font has no glyph for {shown} ({_name(missing[0])}), it would print as an empty box; "
                "replace the character, or set the text in a font that has it")
    return ""


def check(text: str, covered, where: str, font: str, shaped: bool = False) -> None:
    """Raise GlyphError naming the text, its place and its font when it would not print as written."""
    wrong = problem(text, covered, shaped)
    if wrong:
        raise GlyphError(f"{where}: text {snippet(text)} in {font}: {wrong}")


def font_file(family: str, bold: bool, italic: bool):
    """The face (fonts.FontFace) cairo draws a family with: the pack's or pnpgen's face of
    that family, or the one fontconfig picks among pnpgen's fonts for a name neither has."""
    from .fonts import library
    return library().resolve(family, bold, italic)


def font_coverage(family: str, bold: bool, italic: bool) -> tuple[frozenset, str]:
    """(characters covered, a name for messages) of the font cairo draws a family with."""
    from .fonts import library
    return _coverage_in(library(), family, bold, italic)


@lru_cache(maxsize=1024)
def _coverage_in(fonts, family: str, bold: bool, italic: bool) -> tuple[frozenset, str]:
    face = fonts.resolve(family, bold, italic)
    if face is None:
        return frozenset(), f"font '{family}'"
    return coverage(face.path, face.index), f"font '{family}' ({face.shown})"


@lru_cache(maxsize=None)
def coverage(font_file: Path, index: int = 0) -> frozenset:
    """The characters a font file (the face `index` of a collection) has glyphs for."""
    from .fonts import _metrics
    return frozenset(_metrics(Path(font_file), index).widths)


def _name(char: str) -> str:
    return f"U+{ord(char):04X} {unicodedata.name(char, 'unnamed character')}"


def snippet(text: str) -> str:
    text = text.replace(SOFT_HYPHEN, "")
    return repr(text if len(text) <= 40 else text[:37] + "...")
