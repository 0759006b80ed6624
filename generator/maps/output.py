"""Layouts -> files: JSON, SVG, PNG, or a PDF tiled across the paper like any board."""
from __future__ import annotations

from ..impose import Options, impose_board
from ..parallel import write_pdf
from ..pdfwrite import PdfWriter
from ..shapes import rect_outline
from .layout import Layout, dumps
from .render import layout_svg_body, png_bytes, standalone_svg
from .rules import map_data

FORMATS = ("json", "svg", "pdf", "png")


def title_of(layout: Layout, game_title: str) -> str:
    return f"{game_title} - map for {layout.players} players, seed {layout.seed}"


def render_layout(layout: Layout, game_title: str) -> tuple[str, float, float]:
    """The standalone SVG of a layout and its size in mm."""
    look = map_data(layout.game).get("look", {})
    body, width, height = layout_svg_body(layout, look, title_of(layout, game_title))
    return standalone_svg(body, width, height), width, height


def map_files(layouts: list[Layout], fmt: str, stem: str, game_title: str, paper: Options,
              dpi: int = 150) -> dict[str, bytes]:
    if fmt == "json":
        return {f"{stem}.json": dumps(layouts).encode()}
    drawings = [render_layout(layout, game_title) for layout in layouts]
    if fmt == "svg":
        return {_name(stem, layout, len(layouts), "svg"): svg.encode()
                for layout, (svg, _, _) in zip(layouts, drawings)}
    if fmt == "png":
        return {_name(stem, layout, len(layouts), "png"): png_bytes(svg, w, h, dpi)
                for layout, (svg, w, h) in zip(layouts, drawings)}
    return {f"{stem}.pdf": map_pdf(layouts, drawings, game_title, paper)}


def map_pdf(layouts, drawings, game_title: str, paper: Options) -> bytes:
    sheets = []
    for layout, (svg, width, height) in zip(layouts, drawings):
        sheets += impose_board(svg, width, height, title_of(layout, game_title), paper)
    sizes = {svg: (w, h) for svg, w, h in drawings}
    writer = PdfWriter(face_svg=lambda svg: svg, face_name=lambda svg: "the map",
                       face_outline=lambda svg, grow: rect_outline(*sizes[svg], grow),
                       title=f"{game_title} - map", subject=f"pnpgen map layouts for {game_title}")
    return write_pdf(writer, sheets)


def _name(stem: str, layout: Layout, count: int, ext: str) -> str:
    return f"{stem}.{ext}" if count == 1 else f"{stem}-{layout.seed}.{ext}"
