"""Layout -> a setup diagram in the pack's own art: SVG (mm units) built with svgwrite.

What a cell or a marker looks like is game knowledge, so it lives in map.yaml `look` (see
docs/maps.md): per cell type a player-facing name, a fill (a palette key or a colour) and an icon
of the pack; face-down cells drawn as their back (what is hidden stays hidden); per marker kind a
name and a shape, its owner shown by the player's colour and seat number or role letters. Each
cell keeps three rows: icon, name and labels above, markers in their own band below, so a marker
never covers a label. The legend (legend.py) lists exactly what was drawn; text, icons and marker
shapes are drawn by svgparts.py for both.
"""
from __future__ import annotations

import math

import svgwrite

from .layout import Layout
from .legend import LEGEND_COL, LEGEND_ROW, LEGEND_TEXT, draw_legend, legend_entries, legend_rows
from .svgparts import INK, LETTER_ROOM, draw_marker, ink_on, pack_icon, text_line, text_width, two_lines

HEX_FLAT = 24.0          # mm across flats of a drawn hex
SQUARE = 26.0            # mm side of a drawn square
FRAME = 8.0              # mm around the cells
TITLE = 12.0             # mm strip for the title
MARKER = 5.2             # mm: a marker's size
MARKER_GAP = 0.6
MARKER_Y = 7.9            # mm below a cell centre: the marker band, under every label
ICON = 6.8               # mm: a cell's icon, its top ICON_TOP above the cell's centre
ICON_TOP = 10.2
NAME_TOP_LOW = 6.6       # mm above a cell's centre: the lowest a name's top sits without its icon
CELL_BOTTOM = 11.5       # mm below a cell's centre: its markers end above this (a hex's lower
                         # sides are there 3.5 mm either side of the centre line)
TEXT_BOTTOM = 8.5        # ... and its text (a line up to 7 mm either side of the centre line)
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
    legend = legend_entries(cells, markers, art)
    room = board_size(layout, 0)[0] - 2 * FRAME
    art.printed_at(print_scale(*board_size(layout, legend_rows(legend, room, art))[:2]))
    rows = legend_rows(legend, room, art)
    width, height, dx, dy = board_size(layout, rows)
    dwg = svgwrite.Drawing(size=(f"{width:.2f}mm", f"{height:.2f}mm"), viewBox=f"0 0 {width:.2f} {height:.2f}",
                           profile="full", debug=False)
    dwg.add(dwg.rect(insert=(0, 0), size=(round(width, 2), round(height, 2)), fill=art.paper))
    dwg.add(text_line(dwg, FRAME, FRAME + 5, title, 5.0, anchor="start", color=art.ink, bold=True,
                      width=width - 2 * FRAME, floor=art.min_text))
    for cell, style in cells:
        cx, cy = _centre(layout, layout.coord(cell))
        _draw_cell(dwg, art, layout, cell, style, cx + dx, cy + dy, markers.get(layout.coord(cell), []))
    top = height - rows * LEGEND_ROW - 2
    draw_legend(dwg, art, legend, FRAME, top, room)
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
    rows = two_lines(" · ".join(labels), size, box_w, False, " · ") if labels else []
    # a marker wide enough for the letters it carries ("Wr1" at the smallest printed size)
    letters = max((text_width(owner[1] if owner else style.get("text", ""), art.min_text, True)
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
    text_color = ink_on(fill, art)
    box_w, _ = _cell_box(layout)
    parts = _cell_rows(art, layout, cell, style, markers)
    rows, name_size, size, msize = parts
    with_icon, (icon_top, name_base, baselines, marker_y, _) = _cell_plan(parts, cy)
    icon = pack_icon(art, style.get("icon"), cx - ICON / 2, icon_top, ICON, text_color) if with_icon else None
    if icon is not None:
        dwg.add(icon)
    dwg.add(text_line(dwg, cx, name_base, style["name"], name_size, color=text_color, bold=True, width=box_w,
                      floor=art.min_text))
    for line, baseline in zip(rows, baselines):     # two rows when one would be printed too small
        dwg.add(text_line(dwg, cx, baseline, line, size, color=text_color, width=box_w, floor=art.min_text))
    step = msize + MARKER_GAP
    x0 = cx - step * (len(markers) - 1) / 2
    for n, (mstyle, owner) in enumerate(markers):   # in the band under the labels
        dwg.add(draw_marker(dwg, art, mstyle, owner, x0 + n * step, marker_y, msize))


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
