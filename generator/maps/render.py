"""Layout -> a setup diagram in the pack's own art: SVG (mm units) built with svgwrite.

What a cell or a marker looks like is game knowledge, so it lives in map.yaml `look` (see
docs/maps.md): per cell type a player-facing name, a fill (a palette key or a colour) and an icon
of the pack; face-down cells drawn as their back (what is hidden stays hidden); per marker kind a
name and a shape, its owner shown by the player's colour and seat number or role letters. Each
cell keeps three rows: icon, name and labels above, markers in their own band below, so a marker
never covers a label. The legend lists exactly what was drawn.
"""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import svgwrite
from svgwrite.container import Group

from ..fonts import library
from .layout import Layout

HEX_FLAT = 24.0          # mm across flats of a drawn hex
SQUARE = 26.0            # mm side of a drawn square
FRAME = 8.0              # mm around the cells
TITLE = 12.0             # mm strip for the title
LEGEND_ROW = 6.5
LEGEND_COL = 62.0        # mm: the narrowest drawing is two of these wide (the legend needs room)
LEGEND_TEXT = 3.2
LEGEND_SWATCH = 7.0      # mm: an entry's 5 mm swatch and the gap before its words
LEGEND_GAP = 5.0         # mm between two entries of a row
MARKER = 5.2             # mm: a marker's size
MARKER_GAP = 0.6
MARKER_Y = 7.9            # mm below a cell centre: the marker band, under every label
ICON = 6.8               # mm: a cell's icon, its top ICON_TOP above the cell's centre
ICON_TOP = 10.2
NAME_TOP_LOW = 6.6       # mm above a cell's centre: the lowest a name's top sits without its icon
CELL_BOTTOM = 11.5       # mm below a cell's centre: its markers end above this (a hex's lower
                         # sides are there 3.5 mm either side of the centre line)
TEXT_BOTTOM = 8.5        # ... and its text (a line up to 7 mm either side of the centre line)
INK = "#222222"
FONT = "Liberation Sans"
# Maps are printed scaled to fit one page of A4 or Letter; every text is sized so that it prints
# at MIN_PRINT_PT or more on either paper (the 0.25 pt above 6 covers the legend growing a row).
MIN_PRINT_PT = 6.25
PT = 25.4 / 72
# The printable area A4 and Letter share (5 mm margins, 3 mm of bleed round the map, the page
# label's strip below), upright and lying: (width, height) in mm.
COMMON_PAGE = {"portrait": (194.0, 257.4), "landscape": (263.4, 188.0)}
TURN_GAIN = 1.1          # a map is printed lying only when that draws it at least 10 % larger


def fit_on_page(width: float, height: float, upright: tuple[float, float],
                lying: tuple[float, float]) -> tuple[float, bool]:
    """(scale, landscape): the drawing scaled down (never up) to fit the page's printable area
    upright (width, height), or the page turned (its area `lying`) with the map upright on it
    when that draws it TURN_GAIN larger."""
    scale_upright = min(1.0, upright[0] / width, upright[1] / height)
    scale_lying = min(1.0, lying[0] / width, lying[1] / height)
    return (scale_lying, True) if scale_lying > scale_upright * TURN_GAIN else (scale_upright, False)


def print_scale(width: float, height: float) -> float:
    """The scale a map of this size prints at on A4 or Letter, whichever is smaller."""
    return fit_on_page(width, height, COMMON_PAGE["portrait"], COMMON_PAGE["landscape"])[0]


LOOK_MAPPINGS = ("cells", "labels", "badges", "markers", "face_down")


def _check_look(look) -> None:
    """map.yaml `look` in the shape docs/maps.md gives, or a message saying which key is wrong
    (never a traceback while drawing)."""
    from .engine import MapError
    if not isinstance(look, dict):
        raise MapError("look: must be a mapping of drawing settings (see docs/maps.md, 'Drawing maps')")
    for key in LOOK_MAPPINGS:
        if key in look and not isinstance(look[key], dict):
            example = {"labels": 'labels: {number: "{number}"}', "cells": "cells: {forest: {name: Forest, fill: '#5c8a4a'}}"}
            raise MapError(f"look.{key}: must be a mapping (key: value), not a {type(look[key]).__name__}"
                           f"{'; e.g. ' + example[key] if key in example else ''} (see docs/maps.md)")
    for key in ("cells", "markers"):
        for name, style in look.get(key, {}).items():
            if not isinstance(style, dict):
                raise MapError(f"look.{key}.{name}: must be a mapping such as {{name: ..., fill: ...}} (see docs/maps.md)")


class Art:
    """The look of one game's map: map.yaml `look` resolved against the pack (palette, icons,
    players)."""

    def __init__(self, look: dict, game, reveal: bool = False):
        _check_look(look)
        self.look, self.game, self.reveal = look, game, reveal
        self.palette = game.palette if game else {}
        self.icons = game.icons if game else {}
        self.players = list(game.players) if game else []
        self.ink = self.palette.get("ink", INK)
        self.paper = self.palette.get("paper", "#ffffff")
        self.min_text = 0.0          # mm in the drawing: set once the drawing's print scale is known

    def printed_at(self, scale: float) -> None:
        self.min_text = MIN_PRINT_PT * PT / scale

    @property
    def legend_text(self) -> float:
        return max(LEGEND_TEXT, self.min_text)

    def color(self, value, default="#dddddd") -> str:
        if value is None:
            return default
        return self.palette.get(value, value)

    def cell_style(self, cell: dict) -> dict:
        """{key, name, fill, icon}: the cell's face, or its back when it lies face down."""
        if cell.get("face_down") and "face_down" in self.look and not self.reveal:
            backs = self.look["face_down"]
            style = backs.get(str(cell.get(backs.get("by", ""), "")), backs.get("default", {}))
            return {"key": "back:" + style.get("name", "face down"), **style, "face_down": True}
        style = _variant(self.look.get("cells", {}).get(cell["type"], {}), cell)
        return {"key": cell["type"] + ":" + style.get("name", ""), "name": cell["type"].replace("-", " ").capitalize(),
                **style}

    def cell_labels(self, cell: dict, style: dict) -> list[str]:
        """The player words printed under a face-up cell's name: its type's own `labels`
        formats, then look.labels (key: format, printed when the cell has that key)."""
        out = [_format(fmt, cell) for fmt in style.get("labels", []) if _filled(fmt, cell)]
        for key, fmt in self.look.get("labels", {}).items():
            if cell.get(key) not in (None, False) and _filled(fmt, cell):
                out.append(_format(fmt, cell))
        return out

    def badges(self, cell: dict, skip=()) -> list[tuple[dict, object]]:
        """[(style, owner)]: cell facts drawn as a marker (e.g. a Doom Point), from look.badges.
        `text` formats the cell's facts onto the badge ("{number}"). A badge with `owner: true` names a seat (whose tile set a tile comes from): it is drawn
        as that player's marker, colour and seat number, where a "Player N" line under the name
        would take the room of the tile's icon. `skip`: badge keys left off."""
        out = []
        for key, style in self.look.get("badges", {}).items():
            if key in skip or cell.get(key) in (None, False) or (cell.get("face_down") and style.get("hidden")):
                continue
            owner = self.seat(cell[key]) if style.get("owner") else None
            if style.get("owner") and owner is None:
                continue                  # a seat nobody sits at: no badge, never a blank one
            style = {"shape": "circle", **style, "kind": key}
            if "text" in style:              # a fact printed on the badge, e.g. a tile's die number
                style["text"] = _format(style["text"], cell)
            out.append((style, owner))
        return out

    def marker_style(self, placement: dict) -> dict:
        kinds = self.look.get("markers", {})
        style = _variant(kinds.get(placement["kind"], {}), placement)
        return {"name": placement["kind"].replace("-", " ").capitalize(), "shape": "circle", **style}

    def owner(self, placement: dict):
        """(colour, text, player name) of a placement's owner, or None. Owners are seat numbers
        (1 = first player colour) or player ids (look.owner_key names the key)."""
        key = self.look.get("owner_key", "owner")
        label = placement.get("label") if key != "owner" else None
        return self.seat(placement.get(key), label)

    def seat(self, value, label=None):
        """(colour, text, player name) of the player a seat number or player id names, or None;
        text: `label`, else the seat number."""
        if value is None or isinstance(value, bool):
            return None
        for number, player in enumerate(self.players, 1):
            if value == number or value == player.id:
                return player.color, str(label if label is not None else number), player.name
        return None


def _variant(style: dict, thing: dict) -> dict:
    """A style with `by: key` takes the look of its variant for thing[key] (e.g. a god's space)."""
    key = style.get("by")
    if key and thing.get(key) in style.get("variants", {}):
        return {**style, **style["variants"][thing[key]]}
    return style


def _format(fmt: str, cell: dict) -> str:
    try:
        return str(fmt).format(**{k: (v if not isinstance(v, dict) else _amounts(v)) for k, v in cell.items()})
    except (KeyError, IndexError, ValueError):
        return str(fmt)


def _filled(fmt: str, thing: dict) -> bool:
    """Does the thing have every value the format prints? A label with a value missing ("Player
    None": a corner nobody sits at) is left off, never printed with a hole."""
    import string
    try:
        names = [name for _, name, _, _ in string.Formatter().parse(str(fmt)) if name]
    except ValueError:
        return True
    return all(thing.get(name.split(".")[0].split("[")[0]) not in (None, "") for name in names)


def _amounts(value: dict) -> str:
    return " + ".join(f"{n} {name}" for name, n in value.items())


# --- geometry --------------------------------------------------------------------------------

def _centre(layout: Layout, coord) -> tuple[float, float]:
    a, b = coord
    if layout.grid_type == "square":
        return a * SQUARE, b * SQUARE
    radius = HEX_FLAT / math.sqrt(3)
    if layout.grid.get("orientation", "pointy") == "pointy":
        return radius * math.sqrt(3) * (a + b / 2), radius * 1.5 * b
    return radius * 1.5 * a, radius * math.sqrt(3) * (b + a / 2)


def _corners(layout: Layout, cx: float, cy: float) -> list[tuple[float, float]]:
    if layout.grid_type == "square":
        h = SQUARE / 2
        return [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]
    radius = HEX_FLAT / math.sqrt(3)
    start = -90 if layout.grid.get("orientation", "pointy") == "pointy" else 0
    return [(cx + radius * math.cos(math.radians(start + 60 * i)),
             cy + radius * math.sin(math.radians(start + 60 * i))) for i in range(6)]


def _coord_of(placement: dict):
    cell = placement.get("cell")
    return tuple(cell) if isinstance(cell, (list, tuple)) and len(cell) == 2 else None


def _cell_box(layout: Layout) -> tuple[float, float]:
    """(width, height) of the part of a cell that holds rows of text and markers."""
    return (SQUARE - 3, SQUARE - 3) if layout.grid_type == "square" else (HEX_FLAT - 4, HEX_FLAT)


# --- text ------------------------------------------------------------------------------------

def _text_width(text: str, size: float, bold: bool) -> float:
    return library().metrics(FONT, bold, False).width(text, size)


def _fitted_size(text: str, size: float, width: float, bold: bool, smallest: float) -> float:
    wide = _text_width(text, size, bold)
    return size if wide <= width else max(smallest, size * width / wide)


def _text(dwg, x, y, text, size, anchor="middle", color=INK, bold=False, width=None, floor=0.0):
    """One line of text; `width`: shrunk to fit it, but never under `floor` (the map's smallest
    printable size) nor under 55 % of its size."""
    size = max(size, floor)
    if width:
        size = _fitted_size(text, size, width, bold, max(size * 0.55, floor))
    extra = {"font_weight": "bold"} if bold else {}
    return dwg.text(text, insert=(round(x, 3), round(y, 3)), font_family=FONT, font_size=round(size, 3),
                    text_anchor=anchor, fill=color, **extra)


def _lines(text: str, size: float, width: float, bold: bool, separator: str = " ") -> list[str]:
    """The text in one line, or two broken at the separator nearest its middle when one line
    at `size` is wider than `width`."""
    parts = text.split(separator)
    if len(parts) < 2 or _text_width(text, size, bold) <= width:
        return [text]
    cut = min(range(1, len(parts)), key=lambda k: abs(_text_width(separator.join(parts[:k]), size, bold)
                                                      - _text_width(separator.join(parts[k:]), size, bold)))
    return [separator.join(parts[:cut]), separator.join(parts[cut:])]


def _dark(color: str) -> bool:
    if not (isinstance(color, str) and color.startswith("#") and len(color) == 7):
        return False
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b < 120


def _on(fill: str, art: Art) -> str:
    return "#ffffff" if _dark(fill) else art.ink


class _Raw(Group):
    """A group whose children are ready SVG markup (a pack icon, already checked at load)."""

    def __init__(self, markup: str, **extra):
        super().__init__(**extra)
        self.markup = markup

    def get_xml(self):
        xml = super().get_xml()
        for child in ET.fromstring(f"<g>{self.markup}</g>"):
            xml.append(child)
        return xml


def _icon(art: Art, name: str, x: float, y: float, size: float, color: str):
    """A pack icon in a size x size square at (x, y); None when the pack has no such icon."""
    icon = art.icons.get(name) if name else None
    if icon is None:
        return None
    minx, miny, vw, vh = icon.view_box
    scale = size / max(vw, vh)
    dx, dy = x + (size - vw * scale) / 2, y + (size - vh * scale) / 2
    return _Raw(icon.markup, transform=f"translate({dx:.3f},{dy:.3f}) scale({scale:.5f}) "
                                       f"translate({-minx:g},{-miny:g})", fill=color)


# --- markers ---------------------------------------------------------------------------------

def _shape_points(shape: str, cx: float, cy: float, r: float):
    """Corner points of a marker shape, or None for a circle."""
    sides = {"triangle": (3, -90), "square": (4, 45), "diamond": (4, 0), "pentagon": (5, -90),
             "hexagon": (6, -90)}
    if shape == "house":
        return [(cx - r, cy + r), (cx - r, cy - r * 0.2), (cx, cy - r * 1.05), (cx + r, cy - r * 0.2), (cx + r, cy + r)]
    if shape == "card":
        return [(cx - r * 0.75, cy - r * 1.05), (cx + r * 0.75, cy - r * 1.05), (cx + r * 0.75, cy + r * 1.05),
                (cx - r * 0.75, cy + r * 1.05)]
    if shape == "shield":
        return [(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r * 0.1), (cx, cy + r * 1.1), (cx - r, cy + r * 0.1)]
    if shape in sides:
        n, start = sides[shape]
        grow = 1.0 / math.cos(math.pi / n) if shape in ("square",) else 1.15 if n == 3 else 1.05
        return [(cx + r * grow * math.cos(math.radians(start + 360 * i / n)),
                 cy + r * grow * math.sin(math.radians(start + 360 * i / n))) for i in range(n)]
    return None


# How much wider than its letters each shape is drawn (a pentagon's slanting top needs more)
LETTER_ROOM = {"pentagon": 1.3, "triangle": 1.7, "diamond": 1.5, "hexagon": 1.15, "shield": 1.2}


def _marker(dwg, art: Art, style: dict, owner, cx: float, cy: float, size: float):
    """One marker: its kind's shape, filled with the owner's colour carrying the seat number (or
    role letters), else the kind's colour carrying its icon or letters."""
    g = dwg.g()
    r = size / 2
    fill = owner[0] if owner else art.color(style.get("fill"), "#555555")
    ring = art.ink if not _dark(fill) else "#ffffff"
    points = _shape_points(style.get("shape", "circle"), cx, cy, r)
    outline = {"fill": fill, "stroke": ring, "stroke_width": 0.35}
    g.add(dwg.polygon([(round(x, 3), round(y, 3)) for x, y in points], **outline) if points
          else dwg.circle(center=(round(cx, 3), round(cy, 3)), r=round(r, 3), **outline))
    text = owner[1] if owner else style.get("text", "")     # formatted with the placement by the caller
    if text:
        text_size = max(size * (0.5 if len(text) < 3 else 0.38), art.min_text)
        g.add(_text(dwg, cx, cy + text_size * 0.36, text, text_size, color=_on(fill, art), bold=True,
                    width=size * 0.95, floor=art.min_text))
    else:
        icon = _icon(art, style.get("icon"), cx - r * 0.62, cy - r * 0.62, r * 1.24, _on(fill, art))
        if icon is not None:
            g.add(icon)
    return g


# --- the drawing -----------------------------------------------------------------------------

def board_size(layout: Layout, legend_rows: int) -> tuple[float, float, float, float]:
    """(width, height, dx, dy): the drawing's size in mm and the shift of cell centres."""
    points = [p for cell in layout.cells for p in _corners(layout, *_centre(layout, layout.coord(cell)))]
    points = points or [(0.0, 0.0)]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    width = max(max(xs) - min(xs) + 2 * FRAME, 2 * LEGEND_COL + 2 * FRAME)
    height = max(ys) - min(ys) + 2 * FRAME + TITLE + legend_rows * LEGEND_ROW + 4
    dx = (width - (max(xs) - min(xs))) / 2 - min(xs)
    return width, height, dx, FRAME + TITLE - min(ys)


def draw_layout(layout: Layout, look: dict, title: str, game=None, reveal: bool = False) -> tuple[str, float, float]:
    """The standalone SVG of a layout and its width and height in mm. `reveal`: face-down cells
    drawn face up (dashed outline), for the reveal sheet that nobody at the table reads."""
    art = Art(look, game, reveal)
    cells = [(cell, art.cell_style(cell)) for cell in layout.cells]
    markers = _markers_by_cell(layout, art)
    legend = _legend_entries(cells, markers, art)
    room = board_size(layout, 0)[0] - 2 * FRAME
    art.printed_at(print_scale(*board_size(layout, _legend_height(legend, room, art))[:2]))
    rows = _legend_height(legend, room, art)
    width, height, dx, dy = board_size(layout, rows)
    dwg = svgwrite.Drawing(size=(f"{width:.2f}mm", f"{height:.2f}mm"), viewBox=f"0 0 {width:.2f} {height:.2f}",
                           profile="full", debug=False)
    dwg.add(dwg.rect(insert=(0, 0), size=(round(width, 2), round(height, 2)), fill=art.paper))
    dwg.add(_text(dwg, FRAME, FRAME + 5, title, 5.0, anchor="start", color=art.ink, bold=True,
                  width=width - 2 * FRAME, floor=art.min_text))
    for cell, style in cells:
        cx, cy = _centre(layout, layout.coord(cell))
        _draw_cell(dwg, art, layout, cell, style, cx + dx, cy + dy, markers.get(layout.coord(cell), []))
    top = height - rows * LEGEND_ROW - 2
    for heading, entries in legend:
        top = _draw_legend(dwg, art, heading, entries, top, _legend_head(legend, art), room)
    return dwg.tostring(), width, height


def _markers_by_cell(layout: Layout, art: Art) -> dict:
    """Per cell: [(style, owner)] of the markers on it; markers a face-down cell would give away
    (look.markers.<kind>.hidden_on_face_down) are left off."""
    cells = layout.by_coord()
    out: dict = {}
    # an owner badge tells seats apart: on a map of one seat (Dragon Towers solo) it would say
    # the same on every tile, so it is left off
    single = {key for key, style in art.look.get("badges", {}).items() if style.get("owner")
              and len({c.get(key) for c in layout.cells} - {None, False}) <= 1}
    for cell in layout.cells:
        badges = art.badges(cell, single)
        if badges:
            out.setdefault(layout.coord(cell), []).extend(badges)
    for placement in layout.placements:
        coord = _coord_of(placement)
        if coord is None or placement.get("face_down_hidden"):
            continue
        style = art.marker_style(placement)
        if "text" in style:
            style = {**style, "text": _format(style["text"], placement)}
        if style.get("hidden_on_face_down") and cells.get(coord, {}).get("face_down") and not art.reveal:
            continue
        out.setdefault(coord, []).append((style, art.owner(placement)))
    return out


def _cell_rows(art: Art, layout: Layout, cell: dict, style: dict, markers) -> tuple:
    """What a cell prints: (its label rows, name size, label size, marker size)."""
    box_w, _ = _cell_box(layout)
    labels = [] if style.get("face_down") else art.cell_labels(cell, style)
    if art.reveal and cell.get("face_down"):
        labels = ["face down"] + labels
    size = max(2.7, art.min_text)
    rows = _lines(" · ".join(labels), size, box_w, False, " · ") if labels else []
    # a marker wide enough for the letters it carries ("Wr1" at the smallest printed size)
    letters = max((_text_width(owner[1] if owner else style.get("text", ""), art.min_text, True)
                   * LETTER_ROOM.get(style.get("shape", "circle"), 1.0) for style, owner in markers), default=0.0)
    msize = min(max(MARKER, 2.0 * art.min_text, letters + 1.4), 7.0, (box_w - 2) / max(1, len(markers)) - MARKER_GAP)
    return rows, max(3.0, art.min_text), size, (msize if markers else 0.0)


def _cell_places(parts: tuple, cy: float, icon: bool, name_top: float = 0.0) -> tuple:
    """(icon top, name baseline, label baselines, marker centre, all inside) of a cell's rows, top to
    bottom: each row starts below the one above it, however large the map's smallest printed text
    makes them. Without the icon the name's top is at `name_top` from the cell's centre."""
    rows, name_size, size, msize = parts
    name_base = cy + 0.4 if icon else cy + name_top + 0.72 * name_size
    first = name_base + 0.25 * name_size + 0.75 * size + 0.3
    if icon:
        first = max(first, cy + 3.9 - (len(rows) - 1) * size * 0.35)
    baselines = [first + n * size * 1.05 for n in range(len(rows))]
    text_bottom = (baselines[-1] + 0.25 * size) if rows else name_base + 0.25 * name_size
    marker_y = max(cy + MARKER_Y, text_bottom + 0.4 + msize / 2)
    fits = text_bottom <= cy + TEXT_BOTTOM and (not msize or marker_y + msize / 2 <= cy + CELL_BOTTOM)
    return cy - ICON_TOP, name_base, baselines, marker_y, fits


def _cell_plan(parts: tuple, cy: float) -> tuple:
    """(with icon, places): a cell's rows with its icon where icon, name, labels and markers fit
    in the cell; else without the icon (a map printed so small that its text is large, a cell
    with many labels), the name as low as the cell's straight sides allow (a hex narrows above
    them) and no lower than leaves the markers in the cell."""
    with_icon = _cell_places(parts, cy, True)
    if with_icon[4]:
        return True, with_icon
    top = -NAME_TOP_LOW
    while top > -ICON_TOP:
        places = _cell_places(parts, cy, False, top)
        if places[4]:
            return False, places
        top -= 0.6
    return False, _cell_places(parts, cy, False, -ICON_TOP)


def _draw_cell(dwg, art: Art, layout: Layout, cell: dict, style: dict, cx: float, cy: float, markers):
    fill = art.color(style.get("fill"))
    dash = {"stroke_dasharray": "1.2,0.8"} if cell.get("face_down") else {}
    dwg.add(dwg.polygon([(round(x, 3), round(y, 3)) for x, y in _corners(layout, cx, cy)], fill=fill,
                        stroke=art.ink, stroke_width=0.3, **dash))
    text_color = _on(fill, art)
    box_w, _ = _cell_box(layout)
    parts = _cell_rows(art, layout, cell, style, markers)
    rows, name_size, size, msize = parts
    with_icon, (icon_top, name_base, baselines, marker_y, _) = _cell_plan(parts, cy)
    icon = _icon(art, style.get("icon"), cx - ICON / 2, icon_top, ICON, text_color) if with_icon else None
    if icon is not None:
        dwg.add(icon)
    dwg.add(_text(dwg, cx, name_base, style["name"], name_size, color=text_color, bold=True, width=box_w,
                  floor=art.min_text))
    for line, baseline in zip(rows, baselines):     # two rows when one would be printed too small
        dwg.add(_text(dwg, cx, baseline, line, size, color=text_color, width=box_w, floor=art.min_text))
    step = msize + MARKER_GAP
    x0 = cx - step * (len(markers) - 1) / 2
    for n, (mstyle, owner) in enumerate(markers):   # in the band under the labels
        dwg.add(_marker(dwg, art, mstyle, owner, x0 + n * step, marker_y, msize))


def _legend_entries(cells, markers, art: Art):
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


def _legend_head(legend, art: Art) -> float:
    """mm left of every group's entries: the headings, each on its group's first row."""
    return max((_text_width(heading, art.legend_text, True) for heading, entries in legend if entries),
               default=0.0) + 3.0


def _swatch(kind: str, style, art: Art) -> float:        # mm; a player's as wide as their letters
    return max(5.0, _text_width(style[1], art.min_text, True) + 1.4) if kind == "player" else 5.0


def _entry_width(entry, art: Art) -> float:
    return _swatch(entry[0], entry[1], art) + LEGEND_SWATCH - 5.0 + _text_width(entry[2], art.legend_text, False)


def _legend_order(art: Art, style: dict) -> tuple:
    """Tiles in the order look.cells lists them (a type, then its variants; backs last)."""
    names = [name for key, cell in art.look.get("cells", {}).items()
             for name in [cell.get("name", key)] + [v.get("name") for v in cell.get("variants", {}).values()]]
    return (bool(style.get("face_down")), names.index(style["name"]) if style["name"] in names else len(names),
            style["key"])


def _legend_rows(entries, room: float, art: Art) -> list[list[tuple[float, tuple]]]:
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


def _legend_height(legend, room: float, art: Art) -> int:
    head = _legend_head(legend, art)
    return sum(len(_legend_rows(entries, room - head, art)) for _, entries in legend if entries)


def _draw_legend(dwg, art: Art, heading: str, entries, top: float, head: float, room: float) -> float:
    if not entries:
        return top
    dwg.add(_text(dwg, FRAME, top + 3.9, heading, art.legend_text, anchor="start", color=art.ink, bold=True,
                  floor=art.min_text))
    for row in _legend_rows(entries, room - head, art):
        for x, (kind, style, text) in row:
            _legend_entry(dwg, art, kind, style, text, FRAME + head + x, top)
        top += LEGEND_ROW
    return top


def _legend_entry(dwg, art: Art, kind: str, style, text: str, x: float, y: float) -> None:
    if kind == "tile":
        fill = art.color(style.get("fill"))
        dwg.add(dwg.rect(insert=(x, y), size=(5, 5), fill=fill, stroke=art.ink, stroke_width=0.25))
        icon = _icon(art, style.get("icon"), x + 0.6, y + 0.6, 3.8, _on(fill, art))
        if icon is not None:
            dwg.add(icon)
    elif kind == "marker":         # the kind's shape; owned kinds drawn blank (colour = owner)
        dwg.add(_marker(dwg, art, style, None if style.get("fill") else ("#ffffff", "", ""), x + 2.5, y + 2.5, 5))
    else:                          # a player: a pill of their colour as wide as their letters
        fill, letters, _ = style
        wide = _swatch(kind, style, art)
        dwg.add(dwg.rect(insert=(x, y), size=(round(wide, 3), 5), rx=2.5, fill=fill,
                         stroke=art.ink if not _dark(fill) else "#ffffff", stroke_width=0.35))
        size = max(2.5, art.min_text)
        dwg.add(_text(dwg, x + wide / 2, y + 2.5 + size * 0.36, letters, size, color=_on(fill, art), bold=True,
                      floor=art.min_text))
    words = x + _swatch(kind, style, art) + LEGEND_SWATCH - 5.0
    dwg.add(_text(dwg, words, y + 3.9, text, art.legend_text, anchor="start", color=art.ink))


def standalone_svg(body: str, width: float, height: float) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.2f}mm" height="{height:.2f}mm" '
            f'viewBox="0 0 {width:.2f} {height:.2f}">{body}</svg>\n')


def png_bytes(svg: str, width: float, height: float, dpi: int) -> bytes:
    import io

    import cairocffi as cairo

    from ..pdfwrite import new_context
    from ..svgdraw import draw_svg
    scale = dpi / 25.4
    surface = cairo.ImageSurface(cairo.FORMAT_RGB24, max(1, round(width * scale)), max(1, round(height * scale)))
    ctx = new_context(surface)
    ctx.set_source_rgb(1, 1, 1)
    ctx.paint()
    ctx.scale(scale, scale)
    draw_svg(ctx, svg)
    out = io.BytesIO()
    surface.write_to_png(out)
    return out.getvalue()
