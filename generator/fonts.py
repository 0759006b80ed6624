"""The fonts a pack prints with -> a library of families with metrics: the pack's own fonts/
(read and checked by packfonts.py) searched before the fonts pnpgen ships (fonts/). A variable
font's named instances are made static fonts in the private folder: cairo 1.16 would embed
only its default outlines.

cairo and cairosvg find fonts through fontconfig and silently substitute a missing family, so
(1) fontconfig gets a configuration listing only pnpgen's fonts/, so a name nothing matches
still resolves to one of ours, never to the machine's; (2) every family a pack names is checked
against the library; (3) text is drawn with cairo faces made from the library's own files
(svgdraw/fontface.py), never looked up by name: cairo remembers what a name resolved to for the
life of the process, so two packs built in one run would otherwise share a pack's font. A pack's
fonts are therefore never registered with fontconfig at all, nor installed anywhere.

One library is active at a time (activate(), called when a pack is loaded); caches that depend
on it compare `generation`, which changes whenever a library with other fonts becomes active.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from functools import lru_cache
from html import escape      # not xml.sax.saxutils: it imports urllib.request, slow at start-up
from pathlib import Path

from . import clibs, workdir
from .errors import PnpError, close_to, display_path, os_error_text

from .resources import FONT_DIR

FONT_SUFFIXES = (".ttf", ".otf", ".ttc", ".otc")


def configure_fontconfig(font_dir: Path = FONT_DIR) -> Path:
    """Write a fonts-only fontconfig file in our private folder and point FONTCONFIG_FILE at it
    (idempotent; a broken or tampered file is written afresh). Its name is the font folder's:
    two installs of pnpgen run by one user (a checkout and a pipx one) each read their own."""
    conf_dir = workdir.private_dir("fontconfig")
    conf = conf_dir / f"fonts-{hashlib.sha256(str(font_dir).encode()).hexdigest()[:16]}.conf"
    text = ("<?xml version='1.0'?>\n<!DOCTYPE fontconfig SYSTEM 'fonts.dtd'>\n<fontconfig>\n"
            f"  <dir>{escape(str(font_dir), quote=False)}</dir>\n"
            f"  <cachedir>{escape(str(conf_dir / 'cache'), quote=False)}</cachedir>\n"
            "  <config><rescan><int>0</int></rescan></config>\n</fontconfig>\n").encode()
    if not (workdir.trusted_file(conf) and conf.read_bytes() == text):
        workdir.write_private(conf, text)
    os.environ["FONTCONFIG_FILE"] = str(conf)
    return conf


class FontFileError(ValueError):
    """A font file that cannot be used, and why (packfonts.py says where and what to do)."""


@dataclass(frozen=True)
class FontFace:
    family: str
    bold: bool
    italic: bool
    path: Path
    index: int = 0                  # the face's number in a collection (.ttc)
    postscript: str = ""            # the name a PDF gives the embedded font
    in_pack: bool = False           # from the pack's fonts/, not pnpgen's
    source: Path | None = None      # the pack's file, when path is what is drawn: a copy of it
    instance: str = ""              # (_snapshot) or a variable font's instance, named here (Bold)

    @property
    def style(self) -> str:
        return " ".join(w for w, on in (("bold", self.bold), ("italic", self.italic)) if on) or "regular"

    @property
    def file(self) -> Path:
        """The font file as the pack has it (a variable font's, not its instance's)."""
        return self.source or self.path

    @property
    def shown(self) -> str:
        return self.file.name + (f", instance {self.instance}" if self.instance else "")


class FontMetrics:
    """Advance widths from the font file: the same unhinted widths cairo uses in a PDF."""

    def __init__(self, path: Path, index: int = 0):
        read = workdir.remembered("font-metrics", workdir.file_key(path, "metrics-2", str(index)),
                                  lambda: _read_metrics(path, index), shape=_metrics_shape)
        self.widths = read["widths"]
        self.ascent, self.descent, self.cap_height = read["ascent"], read["descent"], read["cap_height"]
        self._word_cache: dict[str, tuple[str, float]] = {}    # a word -> (the word, its width at size 1)
        # every printable ASCII character has a glyph: such text needs no other glyph check
        self.covers_ascii = all(chr(code) in self.widths for code in range(0x20, 0x7F))

    def width(self, text: str, size: float) -> float:
        known = self._word_cache.get(text)
        return (self._measured(text) if known is None else known)[1] * size

    def measured(self, words: list[str]) -> list[tuple[str, float]]:
        """(word, width at size 1) for each word, as the text fitter wraps them: a word's tuple
        made once and shared by every text it is in (a card's ~40 words, most of them known)."""
        pairs = list(map(self._word_cache.get, words))     # (in C)
        if None in pairs:
            pairs = [self._measured(word) if pair is None else pair for word, pair in zip(words, pairs)]
        return pairs

    def _measured(self, text: str) -> tuple[str, float]:
        w = self.widths
        pair = (text, sum(w.get(c, 0.5) for c in text))
        if len(self._word_cache) < 200_000:     # words repeat across cards: remember them
            self._word_cache[text] = pair
        return pair


def folded(family: str) -> str:
    """A family name as fontconfig compares them: case and blanks ignored."""
    return "".join(family.split()).casefold()


class FontLibrary:
    """Faces by (family, bold, italic): a pack's faces first, then pnpgen's. A family the pack
    has replaces pnpgen's family of that name as a whole, so one family never mixes files."""

    def __init__(self, faces: list[FontFace], signature: str = ""):
        own = {folded(f.family) for f in faces if f.in_pack}
        self.faces: dict[tuple[str, bool, bool], FontFace] = {}
        for face in faces:
            if face.in_pack or folded(face.family) not in own:
                self.faces.setdefault((face.family, face.bold, face.italic), face)
        self.signature = signature          # the pack's font files as they are: equal ones draw alike
        self._families: dict[str, list[FontFace]] = {}
        for face in self.faces.values():
            self._families.setdefault(folded(face.family), []).append(face)
        self._resolved: dict[tuple[str, bool, bool], FontFace | None] = {}
        self._content: str | None = None

    @property
    def families(self) -> list[str]:
        return sorted({family for family, _, _ in self.faces})

    @property
    def pack_faces(self) -> list[FontFace]:
        return [f for f in self.faces.values() if f.in_pack]

    def face(self, family: str, bold: bool = False, italic: bool = False) -> FontFace | None:
        return self.faces.get((family, bold, italic))

    def metrics(self, family: str, bold: bool = False, italic: bool = False) -> FontMetrics:
        face = self.face(family, bold, italic)
        if face is None:
            raise KeyError(f"font {family}{' bold' if bold else ''}{' italic' if italic else ''} is not in {FONT_DIR.name}/")
        return _metrics(face.path, face.index)

    def resolve(self, family: str, bold: bool = False, italic: bool = False) -> FontFace | None:
        """The face text in this family and style is drawn with: the family's nearest style
        (slant before weight, as fontconfig chooses); a name the library lacks (sans-serif)
        goes to fontconfig, which knows only pnpgen's fonts."""
        key = (family, bold, italic)
        if key not in self._resolved:
            faces = self._families.get(folded(family))
            if faces:
                found = min(faces, key=lambda f: (f.italic != italic, f.bold != bold))
            else:
                path = resolved_file(family, bold, italic)
                found = shipped().by_real_path().get(os.path.realpath(path)) if path else None
            self._resolved[key] = found
        return self._resolved[key]

    def by_postscript(self) -> dict[str, FontFace]:
        """Faces by the name a PDF gives them; a pack's face wins over one of pnpgen's."""
        out = {}
        for face in sorted(self.faces.values(), key=lambda f: not f.in_pack):
            out.setdefault(face.postscript, face)
        return out

    def by_real_path(self) -> dict[str, FontFace]:
        return {os.path.realpath(f.path): f for f in self.faces.values() if not f.index}

    def unknown_family_hint(self, family: str) -> str:
        """Which families there are (the pack's, then pnpgen's) and the closest to `family`."""
        own = sorted({f.family for f in self.pack_faces})
        ours = [f for f in self.families if f not in own]
        listed = (f"{', '.join(own)} (the pack's fonts/) and " if own else "") + f"{', '.join(ours)} (pnpgen's)"
        by_fold = {folded(f).replace("-", ""): f for f in self.families}
        close = close_to(folded(family).replace("-", ""), by_fold)
        guess = f"did you mean '{by_fold[close[0]]}'? " if close else ""
        return f"{guess}the families available are {listed}; or add the font files to the pack's fonts/ folder"

    def content_digest(self) -> str:
        """A digest of the bytes of the pack's font files (faces drawn with them change with
        them), read once per library: a pack is loaded afresh for each build."""
        if self._content is None:
            digest = hashlib.sha256()
            for path in sorted({f.file for f in self.pack_faces}):
                digest.update(str(path).encode() + b"\0" + path.read_bytes())
            self._content = digest.hexdigest()
        return self._content


@lru_cache(maxsize=None)
def _metrics(path: Path, index: int = 0) -> FontMetrics:
    return FontMetrics(path, index)


@lru_cache(maxsize=1)
def shipped() -> FontLibrary:
    """pnpgen's own fonts."""
    faces = []
    for path in sorted(FONT_DIR.glob("*")):
        if path.suffix.lower() in FONT_SUFFIXES:
            try:
                faces += faces_of(path)
            except OSError as exc:          # pnpgen's own file: its install is broken
                raise PnpError(f"{display_path(path)}: cannot read this font of pnpgen's: "
                               f"{os_error_text(exc, 'file')}") from None
            except FontFileError as exc:
                raise PnpError(f"{display_path(path)}: this font of pnpgen's is damaged ({exc}); "
                               "reinstall pnpgen") from None
    return FontLibrary(faces)


_active: FontLibrary | None = None
generation = 0          # changes when a library with other fonts becomes active


def library() -> FontLibrary:
    """The active library: the loaded pack's fonts and pnpgen's (pnpgen's alone before a pack)."""
    return _active or shipped()


def activate(fonts: FontLibrary) -> None:
    global _active, generation
    if fonts.signature != library().signature:
        generation += 1
    _active = fonts


def faces_of(path: Path, in_pack: bool = False) -> list[FontFace]:
    """Every face in a font file (a collection has several; a variable font gives its regular,
    bold and italic named instances, each made a static font of its own); FontFileError when
    the file is unusable, OSError when it cannot be read."""
    read = workdir.remembered("font-faces", workdir.file_key(path, "faces-3"), lambda: _read_faces(path),
                              shape=_faces_shape)
    drawn = _snapshot(path) if in_pack and any(entry[5] is None for entry in read) else path
    faces = []
    for family, bold, italic, postscript, index, instance in read:
        if instance is None:
            faces.append(FontFace(family, bold, italic, drawn, index, postscript, in_pack,
                                  path if drawn != path else None))
        else:
            static = _static_instance(path, index, family, instance)
            faces.append(FontFace(family, bold, italic, static, 0, postscript, in_pack, path, instance["name"]))
    return faces


def _snapshot(path: Path) -> Path:
    """The pack's font file as it is now, copied into the private folder under a name that
    digests it (path, size, time): cairo and FreeType keep a font file open by its name for the
    life of the process, so a font the designer replaces while preview --watch runs must be
    drawn from a new name, not from the old file still held open."""
    copy = workdir.private_dir("pack-fonts") / f"{workdir.file_key(path, 'copy-1')}{path.suffix.lower()}"
    if not workdir.trusted_file(copy):
        workdir.write_private(copy, path.read_bytes())
    return copy


def _describe(path: Path, index: int = 0) -> FontFace:
    return faces_of(path)[index]


# Reading a font with fontTools costs 15-35 ms (most of it importing its table modules): what
# is read is remembered by file (workdir.remembered), so a command seldom imports fontTools.

def _faces_shape(value) -> bool:
    """What _read_faces gives, as a remembered entry must hold it (else it is read again)."""
    return len(value) > 0 and all(
        [type(v) for v in entry[:5]] == [str, bool, bool, str, int] and len(entry) == 6
        and (entry[5] is None or (isinstance(entry[5]["name"], str) and isinstance(entry[5]["postscript"], str)
                                  and all(isinstance(c, (int, float)) for c in entry[5]["coordinates"].values())))
        for entry in value)


def _metrics_shape(value) -> bool:
    numbers = (int, float)
    return (all(isinstance(value[k], numbers) for k in ("ascent", "descent", "cap_height"))
            and all(isinstance(w, numbers) for w in value["widths"].values()))


MAX_FACES_IN_A_FILE = 64
NEEDED_TABLES = ("cmap", "head", "hhea", "hmtx", "maxp", "name")


def _read_faces(path: Path) -> list:
    """[family, bold, italic, postscript name, face number, instance or None] of each face in
    the file, each checked to be one cairo can embed and pnpgen can measure."""
    with open(path, "rb") as handle:
        head = handle.read(12)
        size = os.fstat(handle.fileno()).st_size
    count = int.from_bytes(head[8:12], "big") if head[:4] == b"ttcf" and len(head) == 12 else 1
    if not 0 < count <= MAX_FACES_IN_A_FILE:
        raise FontFileError(f"a font collection claiming {count} faces (at most {MAX_FACES_IN_A_FILE} are read)")
    return [entry for index in range(count) for entry in _read_face(path, index, size)]


def _read_face(path: Path, index: int = 0, size: int | None = None) -> list:
    from fontTools.ttLib import TTFont
    try:
        font = TTFont(str(path), lazy=True, fontNumber=index)
    except OSError:
        raise
    except Exception as exc:        # fontTools raises many kinds on a file that is no font
        raise FontFileError(f"not a TrueType or OpenType font ({_why(exc)})") from None
    try:
        return _checked_face(font, path, index, size if size is not None else os.path.getsize(path))
    except FontFileError:
        raise
    except Exception as exc:        # a table fontTools cannot decode: the file is damaged
        raise FontFileError(f"the font is damaged ({_why(exc)})") from None
    finally:
        font.close()


def _checked_face(font, path: Path, index: int, size: int) -> list:
    reader = font.reader
    for tag in reader.keys():
        entry = reader.tables[tag]
        if entry.offset + entry.length > size:
            raise FontFileError(f"the file is cut short: its '{tag.strip()}' table ends at byte "
                                f"{entry.offset + entry.length:,} of {size:,}")
    missing = [t for t in NEEDED_TABLES if t not in font] + \
        ([] if any(t in font for t in ("glyf", "CFF ", "CFF2")) else ["glyf or CFF"])
    if missing:
        raise FontFileError(f"the font has no {', '.join(repr(t) for t in missing)} table")
    if not font.getBestCmap():
        raise FontFileError("the font has no usable character map (no Unicode 'cmap' subtable), "
                            "so no text could be set in it")
    font["hmtx"].metrics       # decoded now: a damaged table fails here, not while drawing
    names = font["name"]
    family = (names.getDebugName(16) or names.getDebugName(1) or path.stem)
    if "fvar" in font:
        return [[family, bold, italic, postscript, index, instance]
                for bold, italic, postscript, instance in _named_instances(font, family)]
    if "CFF2" in font:
        raise FontFileError("CFF2 outlines without variations, which cairo cannot embed; use a TTF or a CFF OTF")
    style = (names.getDebugName(17) or names.getDebugName(2) or "Regular").lower()
    weight = getattr(font.get("OS/2"), "usWeightClass", 400)
    return [[family, weight >= 600 or "bold" in style, "italic" in style or "oblique" in style,
             names.getDebugName(6) or "", index, None]]


# --- variable fonts: cairo 1.16 embeds only a variable font's default outlines, so each style
# used is made a static font (fontTools' instancer), kept in pnpgen's private folder ---------

def _named_instances(font, family: str) -> list:
    """(bold, italic, postscript name, instance) for the named instances nearest to regular and
    bold, upright and italic (roles know no other weights); the default outlines when the font
    names none."""
    names = font["name"]
    found = []
    for instance in font["fvar"].instances:
        style = names.getDebugName(instance.subfamilyNameID) or "Instance"
        coordinates = dict(instance.coordinates)
        italic = "italic" in style.lower() or "oblique" in style.lower() or \
            coordinates.get("ital", 0) >= 0.5 or coordinates.get("slnt", 0) != 0
        postscript = names.getDebugName(instance.postscriptNameID) if instance.postscriptNameID != 0xFFFF else None
        found.append((coordinates.get("wght", 400), italic, style, coordinates,
                      postscript or f"{family}-{style}".replace(" ", "")))
    if not found:
        defaults = {axis.axisTag: axis.defaultValue for axis in font["fvar"].axes}
        found = [(defaults.get("wght", 400), False, "Regular", defaults, names.getDebugName(6) or family.replace(" ", ""))]
    chosen = {}
    for bold in (False, True):
        for italic in (False, True):
            near = [f for f in found if f[1] == italic and (f[0] >= 600) == bold]
            if near:
                weight, _, style, coordinates, postscript = min(near, key=lambda f: abs(f[0] - (700 if bold else 400)))
                chosen[(bold, italic)] = (bold, italic, postscript,
                                          {"name": style, "coordinates": coordinates, "postscript": postscript})
    return list(chosen.values())


def _static_instance(path: Path, index: int, family: str, instance: dict) -> Path:
    """The named instance of a variable font as a static font file of its own, made once and
    kept in the private folder under a name that digests the variable font as it is now."""
    key = workdir.file_key(path, "instance-2", str(index), json.dumps(instance, sort_keys=True))
    static = workdir.private_dir("font-instances") / f"{key}.ttf"
    if not workdir.trusted_file(static):
        workdir.write_private(static, _instantiated(path, index, family, instance))
    if not faces_of(static):
        raise FontFileError(f"its instance {instance['name']} could not be made a static font")
    return static


def _instantiated(path: Path, index: int, family: str, instance: dict) -> bytes:
    import io
    from fontTools.ttLib import TTFont
    from fontTools.varLib import instancer
    try:
        # the variable font's own time stamp kept: the PDF embeds it, and a rebuild must not differ
        variable = TTFont(str(path), fontNumber=index, recalcTimestamp=False)
        font = instancer.instantiateVariableFont(variable, instance["coordinates"])
    except Exception as exc:        # fontTools' instancer refuses what it cannot do in many ways
        raise FontFileError(f"its instance {instance['name']} cannot be made a static font ({_why(exc)})") from None
    style = instance["name"]
    for record in list(font["name"].names):
        text = {1: family, 2: style, 4: f"{family} {style}", 6: instance["postscript"], 16: family,
                17: style}.get(record.nameID)
        if text is not None:
            record.string = text
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def _why(exc: Exception) -> str:
    return (str(exc).strip() or type(exc).__name__)[:100]


def _read_metrics(path: Path, index: int = 0) -> dict:
    """Advance widths per character and vertical metrics, in ems."""
    from fontTools.ttLib import TTFont      # only when measuring: not at start-up
    font = TTFont(str(path), lazy=True, fontNumber=index)
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
    """The file fontconfig picks for this family among pnpgen's fonts, or None when fontconfig
    cannot be asked."""
    import ctypes
    name = clibs.library("fontconfig")
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
