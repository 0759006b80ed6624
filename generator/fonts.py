"""The fonts we ship (fonts/) -> a library of families with metrics, and a fontconfig set-up that
sees only them.

cairosvg and cairo's text API find fonts through fontconfig and silently substitute a missing
family, so we (1) give fontconfig a configuration listing only fonts/, (2) check every family a
game pack names against the library, (3) ask fontconfig what a family resolves to and refuse a
file outside fonts/.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
from dataclasses import dataclass
from functools import lru_cache
from html import escape      # not xml.sax.saxutils: it imports urllib.request, slow at start-up
from pathlib import Path

from . import workdir
from .errors import PnpError, display_path, os_error_text

from .resources import FONT_DIR

FONT_SUFFIXES = (".ttf", ".otf")


def configure_fontconfig(font_dir: Path = FONT_DIR) -> Path:
    """Write a fonts-only fontconfig file in our private folder and point FONTCONFIG_FILE at it
    (idempotent; a broken or tampered file is written afresh)."""
    conf_dir = workdir.private_dir("fontconfig")
    conf = conf_dir / "fonts.conf"
    text = ("<?xml version='1.0'?>\n<!DOCTYPE fontconfig SYSTEM 'fonts.dtd'>\n<fontconfig>\n"
            f"  <dir>{escape(str(font_dir), quote=False)}</dir>\n"
            f"  <cachedir>{escape(str(conf_dir / 'cache'), quote=False)}</cachedir>\n"
            "  <config><rescan><int>0</int></rescan></config>\n</fontconfig>\n").encode()
    if not (workdir.trusted_file(conf) and conf.read_bytes() == text):
        workdir.write_private(conf, text)
    os.environ["FONTCONFIG_FILE"] = str(conf)
    return conf


@dataclass(frozen=True)
class FontFace:
    family: str
    bold: bool
    italic: bool
    path: Path


class FontMetrics:
    """Advance widths from the font file: the same unhinted widths cairo uses in a PDF."""

    def __init__(self, path: Path):
        read = workdir.remembered("font-metrics", workdir.file_key(path, "metrics-1"), lambda: _read_metrics(path))
        self.widths = read["widths"]
        self.ascent, self.descent, self.cap_height = read["ascent"], read["descent"], read["cap_height"]
        self._word_cache: dict[str, float] = {}

    def width(self, text: str, size: float) -> float:
        unit = self._word_cache.get(text)
        if unit is None:
            w = self.widths
            unit = sum(w.get(c, 0.5) for c in text)
            if len(self._word_cache) < 200_000:     # words repeat across cards: remember them
                self._word_cache[text] = unit
        return unit * size


class FontLibrary:
    """Families found in the font folder, by (family, bold, italic)."""

    def __init__(self, font_dir: Path = FONT_DIR):
        self.faces: dict[tuple[str, bool, bool], FontFace] = {}
        for path in sorted(font_dir.glob("*")):
            if path.suffix.lower() in FONT_SUFFIXES:
                try:
                    face = _describe(path)
                except OSError as exc:          # pnpgen's own file: its install is broken
                    raise PnpError(f"{display_path(path)}: cannot read this font of pnpgen's: "
                                   f"{os_error_text(exc, 'file')}") from None
                self.faces.setdefault((face.family, face.bold, face.italic), face)

    @property
    def families(self) -> list[str]:
        return sorted({family for family, _, _ in self.faces})

    def face(self, family: str, bold: bool = False, italic: bool = False) -> FontFace | None:
        return self.faces.get((family, bold, italic))

    def metrics(self, family: str, bold: bool = False, italic: bool = False) -> FontMetrics:
        face = self.face(family, bold, italic)
        if face is None:
            raise KeyError(f"font {family}{' bold' if bold else ''}{' italic' if italic else ''} is not in {FONT_DIR.name}/")
        return _metrics(face.path)


@lru_cache(maxsize=None)
def _metrics(path: Path) -> FontMetrics:
    return FontMetrics(path)


@lru_cache(maxsize=1)
def library() -> FontLibrary:
    return FontLibrary(FONT_DIR)


def _describe(path: Path) -> FontFace:
    family, bold, italic = workdir.remembered("font-faces", workdir.file_key(path, "face-1"), lambda: _read_face(path))
    return FontFace(family, bold, italic, path)


# Reading a font with fontTools costs 15-35 ms (most of it importing its table modules): what
# is read is remembered by file (workdir.remembered), so a command seldom imports fontTools.

def _read_face(path: Path) -> list:
    """[family, bold, italic] from the font's name and OS/2 tables."""
    from fontTools.ttLib import TTFont
    font = TTFont(str(path), lazy=True)
    names = font["name"]
    family = (names.getDebugName(16) or names.getDebugName(1) or path.stem)
    style = (names.getDebugName(17) or names.getDebugName(2) or "Regular").lower()
    weight = getattr(font.get("OS/2"), "usWeightClass", 400)
    font.close()
    return [family, weight >= 600 or "bold" in style, "italic" in style or "oblique" in style]


def _read_metrics(path: Path) -> dict:
    """Advance widths per character and vertical metrics, in ems."""
    from fontTools.ttLib import TTFont      # only when measuring: not at start-up
    font = TTFont(str(path), lazy=True)
    upm = font["head"].unitsPerEm
    cmap = font.getBestCmap()
    hmtx = font["hmtx"].metrics
    cap = getattr(font.get("OS/2"), "sCapHeight", 0) or 0.7 * upm
    read = {"widths": {chr(code): hmtx[name][0] / upm for code, name in cmap.items()},
            "ascent": font["hhea"].ascent / upm, "descent": -font["hhea"].descent / upm,
            "cap_height": cap / upm}
    font.close()
    return read


# --- what fontconfig resolves a family to (ctypes; fontconfig is what cairo uses) -------------

@lru_cache(maxsize=None)
def resolved_file(family: str, bold: bool = False, italic: bool = False) -> Path | None:
    """The file fontconfig picks for this family, or None when fontconfig cannot be asked."""
    name = ctypes.util.find_library("fontconfig")
    if not name:
        return None
    fc = ctypes.CDLL(name)
    fc.FcNameParse.restype = ctypes.c_void_p
    fc.FcFontMatch.restype = ctypes.c_void_p
    fc.FcFontMatch.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
    fc.FcConfigSubstitute.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]
    fc.FcDefaultSubstitute.argtypes = [ctypes.c_void_p]
    fc.FcPatternGetString.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int,
                                      ctypes.POINTER(ctypes.c_char_p)]
    fc.FcPatternDestroy.argtypes = [ctypes.c_void_p]
    style = ":weight=bold" if bold else ""
    style += ":slant=italic" if italic else ""
    family_escaped = family.replace("-", r"\-").replace(":", r"\:")
    pattern = fc.FcNameParse((family_escaped + style).encode())
    fc.FcConfigSubstitute(None, pattern, 0)
    fc.FcDefaultSubstitute(pattern)
    result = ctypes.c_int()
    match = fc.FcFontMatch(None, pattern, ctypes.byref(result))
    fc.FcPatternDestroy(pattern)
    if not match:
        return None
    out = ctypes.c_char_p()
    found = fc.FcPatternGetString(match, b"file", 0, ctypes.byref(out)) == 0
    path = Path(out.value.decode()) if found and out.value else None
    fc.FcPatternDestroy(match)
    return path
