"""Layout -> a plain, legible board picture: SVG (mm units) for the PDF writer, PNG, or file.

Cells are coloured by type from the game's map.yaml `look`, labelled with their type and the
keys it lists; placements are round markers. Used until a game's pack gives its map real art.
"""
from __future__ import annotations

import math
from html import escape

from .layout import Layout

HEX_FLAT = 24.0          # mm across flats of a drawn hex
SQUARE = 26.0            # mm side of a drawn square
FRAME = 10.0             # mm around the cells
TITLE = 12.0             # mm strip for the title
LEGEND_ROW = 6.0
INK = "#222222"
FONT = "Liberation Sans"


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


def _coord_of(layout: Layout, placement: dict):
    cell = placement.get("cell")
    return tuple(cell) if isinstance(cell, (list, tuple)) and len(cell) == 2 else None


def board_size(layout: Layout) -> tuple[float, float, float, float, int]:
    """(width, height, dx, dy, legend rows): the drawing's size in mm and the shift of cell centres."""
    points = [p for cell in layout.cells for p in _corners(layout, *_centre(layout, layout.coord(cell)))]
    if not points:
        points = [(0.0, 0.0)]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    width = max(xs) - min(xs) + 2 * FRAME
    legend_rows = math.ceil(len(_legend_types(layout)) / max(1, int((width - 2 * FRAME) // 45))) + 1
    height = max(ys) - min(ys) + 2 * FRAME + TITLE + legend_rows * LEGEND_ROW
    return max(width, 120.0), height, FRAME - min(xs), FRAME + TITLE - min(ys), legend_rows


def _legend_types(layout: Layout) -> list[str]:
    return sorted({c["type"] for c in layout.cells})


def layout_svg_body(layout: Layout, look: dict, title: str) -> tuple[str, float, float]:
    """The SVG elements (no root) of the board, and its width and height in mm."""
    colors = look.get("cell_colors", {})
    labels = look.get("labels", [])
    marks = look.get("placement_colors", {})
    width, height, dx, dy, legend_rows = board_size(layout)
    out = [f'<rect x="-20" y="-20" width="{width + 40:.2f}" height="{height + 40:.2f}" fill="#ffffff"/>',
           _text(FRAME, FRAME + 5, title, 5.0, bold=True)]
    for cell in layout.cells:
        cx, cy = _centre(layout, layout.coord(cell))
        cx, cy = cx + dx, cy + dy
        points = " ".join(f"{x + dx:.2f},{y + dy:.2f}" for x, y in _corners(layout, cx - dx, cy - dy))
        fill = colors.get(cell["type"], "#dddddd")
        dash = ' stroke-dasharray="1.2 0.8"' if cell.get("face_down") else ""
        out.append(f'<polygon points="{points}" fill="{fill}" stroke="{INK}" stroke-width="0.3"{dash}/>')
        text_color = "#ffffff" if _dark(fill) else INK
        out.append(_text(cx, cy - 1.0, cell["type"].replace("-", " "), 2.6, anchor="middle", color=text_color))
        extra = [(str(cell[key]) if key == "label" else f"{key} {cell[key]}")
                 if not isinstance(cell[key], bool) else key.replace("_", " ")
                 for key in labels if key in cell and cell[key] not in (None, False)]
        for n, line in enumerate(extra[:3]):
            out.append(_text(cx, cy + 2.6 + n * 2.8, str(line), 2.2, anchor="middle", color=text_color))
    on_cell: dict = {}
    for placement in layout.placements:
        coord = _coord_of(layout, placement)
        if coord is None:
            continue
        slot = on_cell[coord] = on_cell.get(coord, -1) + 1     # several markers share a cell
        ox, oy = MARKER_SLOTS[slot % len(MARKER_SLOTS)]
        cx, cy = _centre(layout, coord)
        cx, cy = cx + dx + ox, cy + dy + oy
        fill = _marker_color(placement, marks, layout)
        tag = str(placement.get("owner", placement.get("label", placement["kind"][:1].upper())))
        out.append(f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="2.6" fill="{fill}" stroke="#ffffff" stroke-width="0.4"/>')
        out.append(_text(cx, cy + 0.9, tag[:3], 2.2, anchor="middle",
                         color="#ffffff" if _dark(fill) else INK, bold=True))
    out += _legend(layout, colors, marks, width, height - legend_rows * LEGEND_ROW - FRAME / 2)
    return "".join(out), width, height


MARKER_SLOTS = ((5.0, -5.0), (-5.0, -5.0), (5.0, 5.5), (-5.0, 5.5))
OWNER_COLORS = ("#c0392b", "#2471a3", "#1e8449", "#b7950b", "#7d3c98", "#ca6f1e", "#17a589", "#566573")


def _marker_color(placement: dict, marks: dict, layout: Layout) -> str:
    """A player's marker takes that player's colour; other markers their kind's colour."""
    owner = placement.get("owner")
    if owner is not None and not isinstance(owner, bool):
        owners = sorted({str(p.get("owner")) for p in layout.placements if p.get("owner") is not None})
        return OWNER_COLORS[owners.index(str(owner)) % len(OWNER_COLORS)]
    return marks.get(placement["kind"], "#555555")


def _legend(layout, colors, marks, width, top) -> list[str]:
    out, x, y = [], FRAME, top + 3
    entries = [(t, colors.get(t, "#dddddd"), "rect") for t in _legend_types(layout)]
    entries += [(k, marks.get(k, "#555555"), "circle") for k in sorted({p["kind"] for p in layout.placements})]
    for name, fill, shape in entries:
        if x + 45 > width - FRAME + 1e-6:
            x, y = FRAME, y + LEGEND_ROW
        if shape == "rect":
            out.append(f'<rect x="{x:.2f}" y="{y - 3:.2f}" width="4" height="4" fill="{fill}" stroke="{INK}" stroke-width="0.2"/>')
        else:
            out.append(f'<circle cx="{x + 2:.2f}" cy="{y - 1:.2f}" r="2" fill="{fill}"/>')
        out.append(_text(x + 6, y, name.replace("-", " "), 3.0))
        x += 45
    return out


def _text(x, y, text, size, anchor="start", color=INK, bold=False) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{x:.2f}" y="{y:.2f}" font-family="{FONT}" font-size="{size}"{weight} '
            f'text-anchor="{anchor}" fill="{color}">{escape(text)}</text>')


def _dark(color: str) -> bool:
    if not (isinstance(color, str) and color.startswith("#") and len(color) == 7):
        return False
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b < 110


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
