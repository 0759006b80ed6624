"""A pack's fonts/ folder -> the font library its faces are drawn with (its fonts before
pnpgen's), each font file checked first: a file that is no font, is cut short or has no usable
character map is a problem naming the file, never a traceback or a wrong face in the PDF. A
variable font's regular and bold instances are made static fonts (fonts.faces_of), which cairo
embeds as it embeds any other.

TTF, OTF and collections (TTC, OTC) are read, in subfolders too (a family with its licence file
beside it); web fonts (WOFF, WOFF2) are refused with how to convert them. The folder is bounded
in files and bytes, and a link out of the pack is refused like any other pack file.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

from . import confine, workdir
from .errors import Mark, Reporter, display_path, os_error_text
from .fonts import FONT_SUFFIXES, FontFace, FontFileError, FontLibrary, faces_of, shipped

FOLDER = "fonts"
WEB_FONT_SUFFIXES = (".woff", ".woff2")
MAX_FONT_FILES = 200
MAX_FONT_BYTES = 64 * 1024 * 1024          # the largest CJK fonts are about 20 MB
LICENCE_WORDS = ("licen", "ofl", "copying", "copyright")
FIX = "replace it with a whole TTF or OTF file, or remove it from the pack's fonts/"


def pack_library(root: Path, rep: Reporter) -> FontLibrary:
    """The library of the pack at root: its fonts/ and pnpgen's; problems go to rep."""
    folder = root / FOLDER
    if not folder.is_dir():
        return shipped()
    faces, signature = [], hashlib.sha256()
    for path in font_files(folder, root, rep):
        try:
            found = faces_of(path, in_pack=True)
            signature.update(workdir.file_key(path).encode())
        except FontFileError as exc:
            rep.error(Mark(_shown(path), 1, 1), f"'{path.name}' is not a font pnpgen can use: {exc}", FIX)
            continue
        except OSError as exc:
            rep.error(Mark(_shown(path), 1, 1), f"cannot read the font '{path.name}': "
                      f"{os_error_text(exc, 'file')}", FIX)
            continue
        faces += found
    if not faces:
        return shipped()
    return FontLibrary(faces + list(shipped().faces.values()), signature.hexdigest())


def font_files(folder: Path, root: Path, rep: Reporter) -> list[Path]:
    """The font files under folder, in name order, each a regular file inside the pack and within
    the size bound; the others reported."""
    found = []
    for path in _walk(folder):
        suffix = path.suffix.lower()
        where = Mark(_shown(path), 1, 1)
        if suffix in WEB_FONT_SUFFIXES:
            rep.error(where, f"'{path.name}' is a web font, which cairo cannot embed in a PDF",
                      f"convert it to TTF or OTF (e.g. fonttools ttLib.woff2 decompress {path.name})")
            continue
        if suffix not in FONT_SUFFIXES:
            continue        # licence texts, read-me files
        problem = confine.read_problem(path, root)
        if problem:
            rep.error(where, problem, "copy the font file into the pack's fonts/ folder")
        elif os.path.getsize(path) > MAX_FONT_BYTES:
            rep.error(where, f"'{path.name}' is {os.path.getsize(path) / 2**20:.0f} MB, over the "
                      f"{MAX_FONT_BYTES // 2**20} MB a font file may have", "use a smaller font or a subset of it")
        elif len(found) == MAX_FONT_FILES:
            rep.error(where, f"more than {MAX_FONT_FILES} font files in {display_path(folder)}",
                      "keep only the fonts the pack uses")
            break
        else:
            found.append(path)
    return found


def _walk(folder: Path) -> list[Path]:
    """Files under folder, subfolders included (links to folders not followed), in name order."""
    out = []
    for parent, dirs, files in os.walk(folder):
        dirs.sort()
        out += [Path(parent) / name for name in sorted(files)]
        if len(out) > 10 * MAX_FONT_FILES:
            break
    return out


def licence_file(font: FontFace) -> Path | None:
    """The licence text beside a font file (OFL.txt, LICENSE, COPYING...), if its folder has one."""
    for path in sorted(font.file.parent.iterdir()):
        if path.is_file() and any(w in path.name.lower() for w in LICENCE_WORDS) and \
                path.suffix.lower() not in FONT_SUFFIXES:
            return path
    return None


def _shown(path: Path) -> str:
    """The file as the pack names it (a link by its own name, not its target's)."""
    return os.path.join(display_path(path.parent), path.name)
