"""Text that needs shaping (right-to-left scripts, combining marks left after composing) ->
glyphs placed by HarfBuzz (uharfbuzz), in visual order.

Other text is drawn by cairo straight from its characters, one glyph per character at the
font's advances, and textfit measures it the same way: shaping changes nothing there. Kerning
stays off in shaped runs too, so a shaped line is as wide as textfit measured it; HarfBuzz
places the marks (the font's GPOS mark tables) and mirrors brackets in right-to-left runs.

Bidirectional order follows the Unicode algorithm for one line without explicit embeddings:
the paragraph takes the direction of its first strong letter, numbers stay left to right,
neutrals between two runs of one direction take it, others the paragraph's (rules W1-W7,
N1-N2, I1-I2, L2).
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

RTL_CLASSES = {"R", "AL"}
NUMBER_CLASSES = {"EN", "AN"}


@dataclass(frozen=True)
class Shaped:
    """A line of glyphs: (glyph id, x, y) in em from the line's start (y down), and its advance."""
    text: str
    glyphs: tuple[tuple[int, float, float], ...]
    advance: float


def needs_shaping(text: str) -> bool:
    return not text.isascii() and any(unicodedata.bidirectional(c) in RTL_CLASSES or unicodedata.combining(c)
               or unicodedata.category(c) in ("Mn", "Me") for c in text)


@lru_cache(maxsize=4096)
def shape(text: str, face) -> Shaped:
    """text set in face (a fonts.FontFace)."""
    import uharfbuzz as hb
    font, upem = _hb_font(face.path, face.index)
    glyphs, pen = [], 0
    for start, end, level in visual_runs(text):
        buffer = hb.Buffer()
        buffer.add_str(text[start:end])
        buffer.guess_segment_properties()
        buffer.direction = "rtl" if level % 2 else "ltr"
        hb.shape(font, buffer, {"kern": False})
        for info, pos in zip(buffer.glyph_infos, buffer.glyph_positions):
            glyphs.append((info.codepoint, (pen + pos.x_offset) / upem, -pos.y_offset / upem))
            pen += pos.x_advance
    return Shaped(text, tuple(glyphs), pen / upem)


@lru_cache(maxsize=None)
def _hb_font(font_file: Path, index: int):
    import uharfbuzz as hb
    face = hb.Face(hb.Blob.from_file_path(str(font_file)), index)
    return hb.Font(face), face.upem


def visual_runs(text: str) -> list[tuple[int, int, int]]:
    """(start, end, level) runs of text in the order they appear from left to right."""
    levels = embedding_levels(text)
    runs, start = [], 0
    for index in range(1, len(text) + 1):
        if index == len(text) or levels[index] != levels[start]:
            runs.append((start, index, levels[start]))
            start = index
    for level in range(max(levels, default=0), 0, -1):      # L2: reverse from the highest level
        out, index = [], 0
        while index < len(runs):
            if runs[index][2] >= level:
                end = index
                while end < len(runs) and runs[end][2] >= level:
                    end += 1
                out += reversed(runs[index:end])
                index = end
            else:
                out.append(runs[index])
                index += 1
        runs = out
    return runs


def embedding_levels(text: str) -> list[int]:
    kinds = _resolved_kinds(text)
    base = next((0 if k == "L" else 1 for k in kinds if k in ("L", "R")), 0)
    _resolve_neutrals(kinds, base)
    levels = []
    for kind in kinds:
        if base == 0:
            levels.append({"L": 0, "R": 1, "N": 2}[kind])        # I1
        else:
            levels.append({"L": 2, "R": 1, "N": 2}[kind])        # I2
    return levels


def _resolved_kinds(text: str) -> list[str]:
    """Each character as L (left to right), R (right to left), N (number) or '' (neutral)."""
    raw = [unicodedata.bidirectional(c) for c in text]
    kinds = []
    for index, cls in enumerate(raw):
        if cls == "NSM":                                          # W1: a mark takes its base's
            kinds.append(kinds[-1] if kinds else "")
        elif cls == "L":
            kinds.append("L")
        elif cls in RTL_CLASSES:
            kinds.append("R")
        elif cls in NUMBER_CLASSES:
            kinds.append("N")
        else:
            kinds.append("")
    for index, cls in enumerate(raw):                             # W4, W5: 1,000  5%  $5
        if kinds[index] == "" and cls in ("CS", "ES", "ET"):
            before = kinds[index - 1] if index else ""
            after = kinds[index + 1] if index + 1 < len(kinds) else ""
            if (before == "N" and after == "N") or (cls == "ET" and "N" in (before, after)):
                kinds[index] = "N"
    strong = None                                                 # W7: numbers after L are L
    for index, kind in enumerate(kinds):
        if kind in ("L", "R"):
            strong = kind
        elif kind == "N" and strong == "L":
            kinds[index] = "L"
    return kinds


def _resolve_neutrals(kinds: list[str], base: int) -> None:
    """N1, N2: a neutral stretch between two of one direction (numbers count as R) takes it;
    otherwise the paragraph's direction."""
    edge = "L" if base == 0 else "R"
    index = 0
    while index < len(kinds):
        if kinds[index]:
            index += 1
            continue
        end = index
        while end < len(kinds) and not kinds[end]:
            end += 1
        before = kinds[index - 1] if index else edge
        after = kinds[end] if end < len(kinds) else edge
        side = lambda k: "R" if k in ("R", "N") else "L"          # noqa: E731
        direction = side(before) if side(before) == side(after) else edge
        for j in range(index, end):
            kinds[j] = direction
        index = end
