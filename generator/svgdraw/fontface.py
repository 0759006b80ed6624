"""A font family and style -> the cairo font face text is drawn with, made from the file the
active font library (fonts.library) resolves it to.

Never a cairo "toy" face looked up by name: cairo resolves a name through fontconfig once and
keeps the answer, in its own caches, for the life of the process, so a pack font would leak
into the next pack built in the same run. A face made from a file (cairo-ft, a fontconfig
pattern holding only the file and face number) draws and embeds exactly as the toy face of the
same file did. Faces are remembered by file; the caches that hold faces by family (here,
cascade's styles, compiled documents) are emptied when another library becomes active.
"""

from __future__ import annotations

import ctypes

import cairocffi

from .. import clibs, fonts

_BOLD = cairocffi.FONT_WEIGHT_BOLD
_NORMAL = cairocffi.FONT_SLANT_NORMAL
assert (cairocffi.FONT_SLANT_ITALIC, _BOLD) == (1, 1)     # int(italic), int(bold) below
_BY_FILE = {}           # (path, index) -> cairocffi FontFace (keeps the face alive)
_BY_STYLE = {}          # (family, bold, italic) -> cairo_font_face_t * of the active library
_seen_generation = [fonts.generation]
_forget = []            # functions emptying caches that hold faces: called on a library change


def font_face(family, bold, italic):
    """The cairocffi FontFace for a family and style (bold, italic: booleans)."""
    face = fonts.library().resolve(family, bold, italic)
    if face is None:           # no font at all (fontconfig missing): cairo's own choice
        return cairocffi.ToyFontFace(family, int(italic), int(bold))
    key = (str(face.path), face.index)
    made = _BY_FILE.get(key)
    if made is None:
        made = _BY_FILE[key] = _from_file(*key)
    return made


def face_pointer(family, slant, weight):
    """``cairo_font_face_t *`` for a family and cairo slant and weight (cached per style)."""
    key = (family, slant != _NORMAL, weight == _BOLD)
    pointer = _BY_STYLE.get(key)
    if pointer is None:
        pointer = _BY_STYLE[key] = font_face(family, key[2], key[1])._pointer
    return pointer


def on_library_change(forget):
    """Have forget() called (to empty a cache holding faces) when another library is active."""
    _forget.append(forget)


def check_library():
    """Empty every cache holding faces when another font library became active (another pack
    with fonts of its own): one integer compared per document drawn."""
    if _seen_generation[0] != fonts.generation:
        _seen_generation[0] = fonts.generation
        _BY_STYLE.clear()
        for forget in _forget:
            forget()


def _from_file(path, index):
    fc, cairo_ft = _libraries()
    pattern = fc.FcPatternCreate()
    try:
        fc.FcPatternAddString(pattern, b"file", path.encode())
        fc.FcPatternAddInteger(pattern, b"index", index)
        address = cairo_ft.cairo_ft_font_face_create_for_pattern(pattern)
    finally:
        fc.FcPatternDestroy(pattern)
    pointer = cairocffi.ffi.cast("cairo_font_face_t *", address)
    return cairocffi.FontFace._from_pointer(pointer, incref=False)   # checks cairo's status


_LIBS = []


def _libraries():
    """fontconfig and cairo through ctypes (cairocffi does not declare cairo-ft's functions);
    the same shared libraries cairocffi has loaded, so the face is one cairo knows."""
    if not _LIBS:
        fc = ctypes.CDLL(clibs.library("fontconfig"))
        fc.FcPatternCreate.restype = ctypes.c_void_p
        fc.FcPatternAddString.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p]
        fc.FcPatternAddInteger.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        fc.FcPatternDestroy.argtypes = [ctypes.c_void_p]
        cairo_ft = ctypes.CDLL(clibs.library("cairo"))
        cairo_ft.cairo_ft_font_face_create_for_pattern.restype = ctypes.c_void_p
        cairo_ft.cairo_ft_font_face_create_for_pattern.argtypes = [ctypes.c_void_p]
        _LIBS[:] = [fc, cairo_ft]
    return _LIBS
