"""Layouts -> files: JSON, SVG, PNG, or a PDF tiled across the paper like any board."""
from __future__ import annotations

import functools

from ..errors import BuildError
from ..glyphs import GlyphError
from ..impose import Options
from ..tiling import impose_board
from ..parallel import write_pdf
from ..pdfwrite import PdfWriter
from ..shapes import rect_outline
from .layout import Layout, dumps
from .render import draw_layout, fit_on_page, png_bytes, standalone_svg


def _map_data(layout: Layout) -> dict:
    from .engine import rules_of_layout
    return rules_of_layout(layout).data

FORMATS = ("json", "svg", "pdf", "png")


def title_of(layout: Layout, game_title: str) -> str:
    return f"{game_title} - map for {players(layout.players)}, seed {layout.seed}"


def players(count: int) -> str:
    return f"{count} player{'s' if count != 1 else ''}"


REVEAL_TITLE = "REVEAL SHEET (not for players: the face-down tiles' faces) - "


def render_layout(layout: Layout, game_title: str, reveal: bool = False) -> tuple[str, float, float]:
    """The standalone SVG of a layout and its size in mm: drawn by the pack's own template when
    its map.yaml `look` names one, else from its `look` data in the pack's palette and icons.
    `reveal`: the reveal sheet, face-down tiles shown face up."""
    look = _map_data(layout).get("look", {})
    game = _pack(layout)
    title = (REVEAL_TITLE if reveal else "") + title_of(layout, game_title)
    if look.get("template"):
        body, width, height = _pack_art(layout, look, title, game)
        return standalone_svg(body, width, height), width, height
    return draw_layout(layout, look, title, game, reveal)


def has_hidden_tiles(layouts: list[Layout]) -> bool:
    return any(cell.get("face_down") for layout in layouts for cell in layout.cells)


def _pack(layout: Layout):
    """The layout's own pack (palette, icons, players), wherever it lives: the map is drawn in its art."""
    from .engine import rules_of_layout
    return _load_pack(rules_of_layout(layout).root)


@functools.lru_cache(maxsize=8)
def _load_pack(root):
    from ..manifest import load_pack
    return load_pack(root)


def _pack_art(layout: Layout, look: dict, title: str, game) -> tuple[str, float, float]:
    """Render look.template with the layout, the pack's palette, icons and helpers; look.size
    gives its size in mm and look.item the values it reads as `item` (e.g. the board grid)."""
    from .. import templating
    from ..sandbox import read_only
    width, height = float(look["size"]["width"]), float(look["size"]["height"])
    context = {
        **read_only({
            "layout": layout.to_dict(), "title": title, "item": look.get("item", {}),
            "cells": {c.get("label", f"{c.get('q', c.get('x'))},{c.get('r', c.get('y'))}"): c for c in layout.cells},
            "game": {"id": game.id, "title": game.title, "data": game.data}, "palette": game.palette,
            "face": {"width": width, "height": height, "bleed": 0.0, "side": "front"}}),
        **templating.Helpers(game).bind(),
    }
    try:
        body = templating.environment(game.root).get_template(look["template"]).render(context)
    except Exception as exc:       # a pack template's mistake, named with the template
        raise BuildError(f"map template {look['template']}: {exc}") from None
    return body, width, height


def map_files(layouts: list[Layout], fmt: str, stem: str, game_title: str, paper: Options,
              dpi: int = 150, advance=lambda n=1: None) -> dict[str, bytes]:
    """The files of a run; advance() is called as each layout is drawn (the CLI's progress).
    `game_title` is printed as given: with the version (version.titled) where there is one."""
    if fmt == "json":
        return {f"{stem}.json": dumps(layouts).encode()}
    drawings = []
    for layout in layouts:
        drawings.append(render_layout(layout, game_title))
        if fmt != "png":            # a PNG is drawn when it is rasterized, below
            advance()
    if fmt == "svg":
        return {_name(stem, layout, len(layouts), "svg"): svg.encode()
                for layout, (svg, _, _) in zip(layouts, drawings)}
    if fmt == "png":
        try:
            files = {}
            for layout, (svg, w, h) in zip(layouts, drawings):
                files[_name(stem, layout, len(layouts), "png")] = png_bytes(svg, w, h, dpi)
                advance()
            return files
        except GlyphError as exc:
            raise BuildError(f"the map: {exc}") from None
    files = {f"{stem}.pdf": map_pdf(layouts, drawings, game_title, paper)}
    if has_hidden_tiles(layouts):        # a separate sheet for checking a layout; players get the map
        revealed = [render_layout(layout, game_title, reveal=True) for layout in layouts]
        files[f"{stem}-reveal.pdf"] = map_pdf(layouts, revealed, game_title, paper)
    return files


SETUP_LABEL = "Setup diagram: lay out the pieces as drawn (not to scale)"


def map_pdf(layouts, drawings, game_title: str, paper: Options) -> bytes:
    """Each layout on one page, scaled to fit (turned a quarter when that draws it larger): the
    pieces are components or the board is its own PDF, so the map is a setup diagram. A map.yaml
    `look` with `one_page: false` tiles it across pages at full size instead."""
    sheets = []
    one_page = not layouts or _map_data(layouts[0]).get("look", {}).get("one_page", True)
    papers = [paper] * len(drawings)
    if one_page:
        fitted = [_fit_page(svg, width, height, paper) for svg, width, height in drawings]
        drawings, papers = [d[:3] for d in fitted], [d[3] for d in fitted]
    for layout, (svg, width, height), page in zip(layouts, drawings, papers):
        guide = f"{game_title} | {SETUP_LABEL}" if one_page else title_of(layout, game_title)
        sheets += impose_board(svg, width, height, guide, page)
    sizes = {svg: (w, h) for svg, w, h in drawings}
    writer = PdfWriter(face_svg=lambda svg: svg, face_name=lambda svg: "the map",
                       face_outline=lambda svg, grow: rect_outline(*sizes[svg], grow),
                       title=f"{game_title} - map", subject=f"pnpgen map layouts for {game_title}")
    return write_pdf(writer, sheets)


def _fit_page(svg: str, width: float, height: float, paper: Options) -> tuple[str, float, float, Options]:
    """The drawing scaled down (never up) to the page's printable area, kept in proportion, and
    the paper it goes on: turned to landscape when that draws a wide map larger (the map stays
    upright on the page, so it reads the right way round on screen and on paper)."""
    import dataclasses

    from ..impose import TILE_LABEL_STRIP
    m, strip = paper.margin + paper.bleed, TILE_LABEL_STRIP      # the board keeps its bleed round it
    scale, landscape = fit_on_page(width, height, (paper.page_width - 2 * m, paper.page_height - 2 * m - strip),
                                   (paper.page_height - 2 * m, paper.page_width - 2 * m - strip))
    scale *= 0.9995               # no float rounding past the area (it would cut a second piece)
    if landscape:
        paper = dataclasses.replace(paper, page_width=paper.page_height, page_height=paper.page_width)
    if scale >= 1.0:
        return svg, width, height, paper
    head_end = svg.index(">", svg.index("<svg")) + 1
    body = svg[head_end:svg.rindex("</svg>")]
    w, h = width * scale, height * scale
    return standalone_svg(f'<g transform="scale({scale:.6f})">{body}</g>', w, h), w, h, paper


def _name(stem: str, layout: Layout, count: int, ext: str) -> str:
    return f"{stem}.{ext}" if count == 1 else f"{stem}-{layout.seed}.{ext}"
