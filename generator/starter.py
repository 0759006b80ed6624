"""`pnpgen new PATH` -> a starter pack that validates and builds at once.

The pack's text files are data, in generator/starter/ (game.yaml, a spreadsheet-driven deck, hex
tiles, map.yaml, handout.yaml, commented templates); the card art is painted here with cairo, a
picture per row of cards.csv, so pnpgen ships no binary images. Nothing is ever overwritten.
"""
from __future__ import annotations

import colorsys
import csv
import io
import math
import re
import zlib
from importlib.resources import files
from pathlib import Path

from .errors import UsageError, display_path

ART_PX = (660, 460)       # the starter card's art window (57 x 38 mm) at about 290 dpi, cropped to fit
ART_DPI = 270


def starter_files(title: str, game_id: str) -> dict[str, bytes]:
    """Every file of the starter pack by its path inside the pack."""
    source = files("generator") / "starter"
    out = {}
    for rel, entry in _walk(source, ""):
        text = entry.read_text(encoding="utf-8")
        out[rel] = text.replace("{title}", _yaml_quoted(title)).replace("{id}", game_id).encode()
    for row in csv.DictReader(io.StringIO(out["cards.csv"].decode())):
        out[row["art"]] = paint_art(row["id"])
    return out


def _walk(folder, prefix: str):
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.startswith((".", "__")):
            continue
        if entry.is_dir():
            yield from _walk(entry, f"{prefix}{entry.name}/")
        else:
            yield f"{prefix}{entry.name}", entry


def _yaml_quoted(title: str) -> str:
    """The title as the inside of a YAML double-quoted string."""
    return title.replace("\\", "\\\\").replace('"', '\\"')


def names_for(folder: Path, title: str | None) -> tuple[str, str]:
    """(title, id) of a new pack: the id from the folder's name, the title from --title or it."""
    stem = folder.resolve().name
    game_id = re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-") or "my-game"
    return (title or re.sub(r"[-_]+", " ", stem).strip().title() or "My Game"), game_id


def write_starter(folder: Path, title: str | None = None) -> list[Path]:
    """Write the starter pack into folder (made if missing); refuse, writing nothing, when any of
    its files is there already."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"'{display_path(folder)}' is a file; give a folder for the new pack")
    title, game_id = names_for(folder, title)
    if not title.isprintable() or len(title) > 200:
        raise UsageError("--title must be one line of at most 200 printable characters")
    wanted = starter_files(title, game_id)
    there = [rel for rel in wanted if (folder / rel).exists() or (folder / rel).is_symlink()]
    if there:
        shown = ", ".join(there[:5]) + (f" and {len(there) - 5} more" if len(there) > 5 else "")
        raise UsageError(f"{display_path(folder)} already has {shown}; pnpgen new never overwrites a file: "
                         "choose a new folder, or move those files away")
    written = []
    for rel, data in wanted.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "xb") as f:         # exclusive: a file that appeared meanwhile is kept
            f.write(data)
        written.append(path)
    return written


def paint_art(name: str) -> bytes:
    """A small landscape with a figure, its colours and hills drawn from the name: the same name
    always gives the same PNG bytes."""
    import cairocffi as cairo
    from .export.raster import png_bytes
    seed = zlib.crc32(name.encode())
    hue = (seed % 360) / 360
    w, h = ART_PX
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, w, h)
    ctx = cairo.Context(surface)
    sky = cairo.LinearGradient(0, 0, 0, h)
    sky.add_color_stop_rgb(0, *colorsys.hls_to_rgb(hue, 0.35, 0.55))
    sky.add_color_stop_rgb(1, *colorsys.hls_to_rgb((hue + 0.08) % 1, 0.85, 0.6))
    ctx.set_source(sky)
    ctx.paint()
    sun_x, sun_y = w * (0.2 + (seed >> 9) % 60 / 100), h * 0.3
    glow = cairo.RadialGradient(sun_x, sun_y, 10, sun_x, sun_y, 120)
    glow.add_color_stop_rgba(0, 1, 0.97, 0.8, 1)
    glow.add_color_stop_rgba(0.3, 1, 0.9, 0.6, 0.9)
    glow.add_color_stop_rgba(1, 1, 0.9, 0.6, 0)
    ctx.set_source(glow)
    ctx.arc(sun_x, sun_y, 120, 0, 2 * math.pi)
    ctx.fill()
    for layer in range(3):
        base = h * (0.55 + 0.13 * layer)
        phase = (seed >> (4 * layer)) % 100 / 16
        ctx.move_to(0, h)
        for x in range(0, w + 20, 20):
            ctx.line_to(x, base - 40 * math.sin(x / (90 + 30 * layer) + phase) - 18 * math.sin(x / 37 + layer))
        ctx.line_to(w, h)
        ctx.close_path()
        ctx.set_source_rgb(*colorsys.hls_to_rgb((hue + 0.3 + 0.05 * layer) % 1, 0.45 - 0.1 * layer, 0.35))
        ctx.fill()
    _figure(ctx, w * 0.62, h * 0.93, h * 0.5)
    return png_bytes(surface, ART_DPI)


def _figure(ctx, x: float, feet: float, height: float) -> None:
    """A hero's silhouette: cloak, head and a staff."""
    ctx.set_source_rgb(0.1, 0.09, 0.12)
    head = height * 0.11
    ctx.arc(x, feet - height + head, head, 0, 2 * math.pi)
    ctx.fill()
    ctx.move_to(x - head * 0.9, feet - height + 2 * head)
    ctx.line_to(x + head * 0.9, feet - height + 2 * head)
    ctx.line_to(x + head * 2.2, feet)
    ctx.line_to(x - head * 2.2, feet)
    ctx.close_path()
    ctx.fill()
    ctx.set_line_width(head * 0.3)
    ctx.move_to(x + head * 2.6, feet)
    ctx.line_to(x + head * 2.0, feet - height * 1.05)
    ctx.stroke()
