"""What a map shows -> its legend: every tile, marker kind and player drawn on it, each with its
swatch, in rows under the map, grouped under Tiles, Markers and Players (nothing more: the
legend lists exactly what was drawn)."""
from __future__ import annotations

from .svgparts import draw_marker, ink_on, is_dark, pack_icon, text_line, text_width

LEGEND_ROW = 6.5
LEGEND_COL = 62.0        # mm: the narrowest drawing is two of these wide (the legend needs room)
LEGEND_TEXT = 3.2
LEGEND_SWATCH = 7.0      # mm: an entry's 5 mm swatch and the gap before its words
LEGEND_GAP = 5.0         # mm between two entries of a row


def legend_entries(cells, markers, art):
    """[(heading, [(kind, style, text)])] for what the map shows: tiles, markers, players."""
    tiles, seen = [], set()
    for _, style in sorted(cells, key=lambda cs: _legend_order(art, cs[1])):
        if style["key"] not in seen:
            seen.add(style["key"])
            tiles.append(("tile", style, style.get("legend", style["name"])))
    kinds, owners = {}, {}
    for entries in markers.values():
        for style, owner in entries:
            kinds.setdefault(style["name"], style)
            if owner:
                owners.setdefault(owner[2], owner)
    marks = [("marker", style, style.get("legend", name)) for name, style in sorted(kinds.items())]
    players = [("player", owner, name)                # the swatch carries the number or letters
               for name, owner in sorted(owners.items(), key=lambda kv: kv[1][1])]
    return [("Tiles", tiles), ("Markers", marks), ("Players", players)]


def _legend_head(legend, art) -> float:
    """mm left of every group's entries: the headings, each on its group's first row."""
    return max((text_width(heading, art.legend_text, True) for heading, entries in legend if entries),
               default=0.0) + 3.0


def _swatch(kind: str, style, art) -> float:        # mm; a player's as wide as their letters
    return max(5.0, text_width(style[1], art.min_text, True) + 1.4) if kind == "player" else 5.0


def _entry_width(entry, art) -> float:
    return _swatch(entry[0], entry[1], art) + LEGEND_SWATCH - 5.0 + text_width(entry[2], art.legend_text, False)


def _legend_order(art, style: dict) -> tuple:
    """Tiles in the order look.cells lists them (a type, then its variants; backs last)."""
    names = [name for key, cell in art.look.get("cells", {}).items()
             for name in [cell.get("name", key)] + [v.get("name") for v in cell.get("variants", {}).values()]]
    return (bool(style.get("face_down")), names.index(style["name"]) if style["name"] in names else len(names),
            style["key"])


def _legend_rows(entries, room: float, art) -> list[list[tuple[float, tuple]]]:
    """[[(x, entry)]]: entries one after another, each as wide as its words, in rows `room` mm wide."""
    rows, row, used = [], [], 0.0
    for entry in entries:
        wide = _entry_width(entry, art)
        if row and used + wide > room:
            rows.append(row)
            row, used = [], 0.0
        row.append((used, entry))
        used += wide + LEGEND_GAP
    return rows + ([row] if row else [])


def legend_rows(legend, room: float, art) -> int:
    head = _legend_head(legend, art)
    return sum(len(_legend_rows(entries, room - head, art)) for _, entries in legend if entries)


def draw_legend(dwg, art, legend, left: float, top: float, room: float) -> None:
    """Each group of entries from `top` down, its heading at `left`, its rows `room` mm wide."""
    head = _legend_head(legend, art)
    for heading, entries in legend:
        top = _draw_group(dwg, art, heading, entries, left, top, head, room)


def _draw_group(dwg, art, heading: str, entries, left: float, top: float, head: float, room: float) -> float:
    if not entries:
        return top
    dwg.add(text_line(dwg, left, top + 3.9, heading, art.legend_text, anchor="start", color=art.ink, bold=True,
                      floor=art.min_text))
    for row in _legend_rows(entries, room - head, art):
        for x, (kind, style, text) in row:
            _legend_entry(dwg, art, kind, style, text, left + head + x, top)
        top += LEGEND_ROW
    return top


def _legend_entry(dwg, art, kind: str, style, text: str, x: float, y: float) -> None:
    if kind == "tile":
        fill = art.color(style.get("fill"))
        dwg.add(dwg.rect(insert=(x, y), size=(5, 5), fill=fill, stroke=art.ink, stroke_width=0.25))
        icon = pack_icon(art, style.get("icon"), x + 0.6, y + 0.6, 3.8, ink_on(fill, art))
        if icon is not None:
            dwg.add(icon)
    elif kind == "marker":         # the kind's shape; owned kinds drawn blank (colour = owner)
        dwg.add(draw_marker(dwg, art, style, None if style.get("fill") else ("#ffffff", "", ""), x + 2.5, y + 2.5, 5))
    else:                          # a player: a pill of their colour as wide as their letters
        fill, letters, _ = style
        wide = _swatch(kind, style, art)
        dwg.add(dwg.rect(insert=(x, y), size=(round(wide, 3), 5), rx=2.5, fill=fill,
                         stroke=art.ink if not is_dark(fill) else "#ffffff", stroke_width=0.35))
        size = max(2.5, art.min_text)
        dwg.add(text_line(dwg, x + wide / 2, y + 2.5 + size * 0.36, letters, size, color=ink_on(fill, art), bold=True,
                          floor=art.min_text))
    words = x + _swatch(kind, style, art) + LEGEND_SWATCH - 5.0
    dwg.add(text_line(dwg, words, y + 3.9, text, art.legend_text, anchor="start", color=art.ink))
