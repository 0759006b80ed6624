"""game.yaml `icons` (SVG files inside the pack) -> model.Icon: each file bounded in size
(an .svgz too), refused when it is not plain SVG, its drawing kept as markup for templates."""
from __future__ import annotations

import io
import math
import re
from functools import lru_cache
from pathlib import Path

from .confine import UNREADABLE, resolve_inside
from .errors import Reporter, os_error_text
from .model import Icon
from .yamlsrc import SrcDict

MAX_ICON_BYTES = 512 * 1024
SVG_NS = "{http://www.w3.org/2000/svg}"


def load_icons(root: Path, rec, rep: Reporter) -> dict[str, Icon]:
    icons = {}
    source = rec.source.get("icons") if isinstance(rec.source, dict) else None
    for name, rel in (rec.icons or {}).items():
        mark = source.value_mark(name) if isinstance(source, SrcDict) else rec.mark
        path, problem = resolve_inside(root, rel)
        if problem:
            rep.error(mark, f"icon '{name}': {problem}", "" if problem.startswith(UNREADABLE) else
                      "put the icon file inside the game pack folder and give its relative path")
            continue
        try:
            icons[name] = _read_icon(name, path)
        except ValueError as exc:
            rep.error(mark, f"icon '{name}' ({rel}): {exc}", "save the icon as a plain SVG file")
        except OSError as exc:
            rep.error(mark, f"icon '{name}': {UNREADABLE} '{rel}': {os_error_text(exc, 'file')}")
    return icons


IMAGE_MAGIC = {b"\x89PNG": "PNG", b"\xff\xd8\xff": "JPEG", b"GIF8": "GIF", b"RIFF": "WebP",
               b"II*\x00": "TIFF", b"MM\x00*": "TIFF", b"BM": "BMP", b"%PDF": "PDF"}


def _icon_bytes(path: Path) -> bytes:
    """The icon's SVG bytes, at most MAX_ICON_BYTES, an .svgz unpacked within the same bound
    (a gzip bomb stops at the limit, not at the end of its output)."""
    with open(path, "rb") as handle:
        raw = handle.read(MAX_ICON_BYTES + 1)
    if len(raw) > MAX_ICON_BYTES:
        raise ValueError(f"over the {MAX_ICON_BYTES // 1024} KB limit for an icon")
    if raw[:2] == b"\x1f\x8b":
        import gzip
        import zlib
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as packed:
                raw = packed.read(MAX_ICON_BYTES + 1)
        except (OSError, EOFError, zlib.error) as exc:
            raise ValueError(f"a broken gzip (.svgz) file ({exc})") from None
        if len(raw) > MAX_ICON_BYTES:
            raise ValueError(f"unpacks to over the {MAX_ICON_BYTES // 1024} KB limit for an icon")
    return raw


@lru_cache(maxsize=None)
def _read_icon(name: str, path: Path) -> Icon:
    import xml.etree.ElementTree as ET       # (a pack with icons only: not loaded at start-up)
    raw = _icon_bytes(path)
    kind = next((k for magic, k in IMAGE_MAGIC.items() if raw.startswith(magic)), None)
    if kind:
        raise ValueError(f"the file is a {kind} image, not an SVG drawing; icons are SVG (redraw or trace it)")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError("the file is not SVG text (not UTF-8)") from None
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        raise ValueError("SVG must not contain a DOCTYPE or entities")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise ValueError(f"not well-formed XML ({exc})") from None
    try:
        box = [float(v) for v in re.split(r"[\s,]+", root.get("viewBox", "").strip()) if v]
    except ValueError:
        box = []
    if len(box) != 4 or not all(math.isfinite(v) and abs(v) <= 1e6 for v in box) or box[2] <= 0 or box[3] <= 0:
        raise ValueError("the <svg> element needs a viewBox such as '0 0 24 24'")
    ET.register_namespace("", SVG_NS[1:-1])
    try:
        markup = "".join(ET.tostring(child, encoding="unicode") for child in root)
    except RecursionError:
        raise ValueError("elements nested thousands deep; simplify the drawing") from None
    markup = markup.replace(' xmlns="http://www.w3.org/2000/svg"', "")
    return Icon(name, tuple(box), markup)
