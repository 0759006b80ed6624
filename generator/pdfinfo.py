"""Finished PDFs -> what build.json says of them: how many pages, the first page's size, and
every font they embed with its file and licence."""
from __future__ import annotations

import io
import re
from pathlib import Path

from .fonts import library
from .packfonts import licence_file
from .publish import StagedFile


def pages_of(pdf: bytes) -> int:
    import pikepdf
    return len(pikepdf.Pdf.open(io.BytesIO(pdf)).pages)


_FONT_NAME = re.compile(rb"/FontName\s*/(?:[A-Z]{6}\+)?([^\s/<>\[\]()]+)")


def fonts_used(staged: dict[str, bytes | StagedFile], root: Path) -> list[dict]:
    """Every font the PDFs embed (each font descriptor's name), with its file: a pack font by its
    path inside the pack, one of pnpgen's by its name, and the licence file beside it."""
    faces = library().by_postscript()
    found: dict[str, list[str]] = {}
    for name, data in staged.items():
        if name.endswith(".pdf"):
            for raw in dict.fromkeys(_font_names(data)):
                found.setdefault(_pdf_name(raw), []).append(name)
    out = []
    for postscript, documents in sorted(found.items()):
        face = faces.get(postscript)
        entry = {"postscript_name": postscript, "documents": documents, "family": None, "file": None}
        if face is not None:
            licence = licence_file(face)
            place = (lambda p: p.relative_to(root).as_posix()) if face.in_pack else (lambda p: p.name)
            entry.update(family=face.family, style=face.style, source="pack" if face.in_pack else "pnpgen",
                         file=place(face.file), licence=place(licence) if licence else None)
            if face.instance:
                entry["instance"] = face.instance       # of a variable font, made static to embed
        out.append(entry)
    return out


FONT_NAME_REACH = 1 << 16     # bytes: longer than any /FontName entry a PDF of ours holds


def _font_names(pdf: bytes | StagedFile) -> list[bytes]:
    """_FONT_NAME's names in a PDF, in order; a staged file read a piece at a time, the last
    FONT_NAME_REACH bytes of each carried on to the next, so an entry cut by a piece's end is
    read whole."""
    if not isinstance(pdf, StagedFile):
        return _FONT_NAME.findall(pdf)
    found, carried = [], b""
    for piece in pdf.pieces():
        text = carried + piece
        keep = max(len(text) - FONT_NAME_REACH, 0)      # entries starting here are read next time
        found += [m.group(1) for m in _FONT_NAME.finditer(text, 0, len(text)) if m.start() < keep]
        carried = text[keep:]
    return found + _FONT_NAME.findall(carried)


def _pdf_name(raw: bytes) -> str:
    """A PDF name's text (#xx escapes undone)."""
    return re.sub(rb"#([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]), raw).decode("latin-1")


def page_size(pdf: bytes) -> tuple[float, float]:
    """The first page's size in mm, to 0.1 mm."""
    import pikepdf
    with pikepdf.Pdf.open(io.BytesIO(pdf)) as doc:
        x0, y0, x1, y1 = (float(v) for v in doc.pages[0].mediabox)
    return round((x1 - x0) * 25.4 / 72, 1), round((y1 - y0) * 25.4 / 72, 1)
