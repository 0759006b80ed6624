"""A face's SVG -> a PNG of the face as it looks cut out, drawn by the same code as the PDFs.

The drawing is export.raster's (the PNG and Tabletop Simulator exports draw faces the same way):
the image covers the face's trim box at `dpi`, transparent outside its outline (a card's rounded
corners, a hexagon's sides).
"""
from __future__ import annotations

from .export.raster import Window, png_bytes, px, rasterize
from .shapes import Outline


def face_png(svg: str, width_mm: float, height_mm: float, outline: Outline, dpi: float = 100) -> bytes:
    window = Window(0.0, 0.0, width_mm, height_mm, px(width_mm, dpi), px(height_mm, dpi))
    return png_bytes(rasterize(svg, window, clip=outline))
