"""Card groups, each with a card thickness -> <game>-tuckboxes.pdf: per group the net of its tuck box
(tuckbox.py), one to a page: cut lines solid, folds dashed, glue flaps grey and marked, the
front, back and spines drawn from templates (tuckbox/front.svg.j2, back.svg.j2, spine.svg.j2:
the pack's own, else the shared ones, which show the game's title and the deck's name), with
bleed past every cut edge of the art. A net too large for the paper, even turned, gets a page
of its own size.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import cairocffi as cairo

from .errors import BuildError
from .impose import GUIDE_SIZE
from .model import Game, Group, Item
from .pdfwrite import FIXED_DATE, FOLD_DASH, LABEL_FONT, MARK_WIDTH, PT_PER_MM, _Sink, new_context, stroke_segments
from .render import FaceRef, FaceRenderer
from .svgdraw import draw_svg
from .tuckbox import Net, Panel, box_for, net
from .version import titled

ART = {"front": "tuckbox/front.svg.j2", "back": "tuckbox/back.svg.j2",
       "spine-left": "tuckbox/spine.svg.j2", "spine-right": "tuckbox/spine.svg.j2"}
SIDEWAYS = {"spine-left", "spine-right"}     # drawn lying down, turned to read bottom to top
GLUE_GREY = (0.85, 0.85, 0.85)
GLUE_MIN_MM = 6 * 25.4 / 72        # the word GLUE: 6 pt at least


@dataclass(frozen=True)
class Page:
    width: float
    height: float
    x: float                 # the net's top-left on the page (before turning)
    y: float
    turned: bool             # the net turned a quarter (its top to the page's right)
    own_size: bool           # larger than the paper: a page of its own size


def place(n: Net, paper: tuple[float, float], margin: float, bleed: float) -> Page:
    """The net centred on the paper, upright or turned, above the page guide; else its own page."""
    W, H = paper
    room_w, room_h = W - 2 * margin - 2 * bleed, H - 2 * margin - 2 * bleed - 2 * GUIDE_SIZE
    if n.width <= room_w and n.height <= room_h:
        return Page(W, H, (W - n.width) / 2, (H - 2 * GUIDE_SIZE - n.height) / 2, False, False)
    if n.height <= room_w and n.width <= room_h:
        return Page(W, H, (W - n.height) / 2, (H - 2 * GUIDE_SIZE - n.width) / 2, True, False)
    w, h = n.width + 2 * (margin + bleed), n.height + 2 * (margin + bleed) + 2 * GUIDE_SIZE
    return Page(w, h, margin + bleed, margin + bleed, False, True)


def tuckbox_pdf(game: Game, boxes: list[tuple[Group, str]], paper: tuple[float, float], margin: float,
                bleed: float, lenient: bool = False) -> tuple[bytes, list[dict], list[str]]:
    """The PDF, a description of each net for build.json, and the templates' warnings."""
    renderer = FaceRenderer(game, bleed, lenient)
    buffer = _Sink()
    surface = cairo.PDFSurface(buffer, paper[0] * PT_PER_MM, paper[1] * PT_PER_MM)
    surface.set_metadata(cairo.PDF_METADATA_TITLE, f"{game.title} - tuck boxes")
    surface.set_metadata(cairo.PDF_METADATA_CREATOR, "pnpgen")
    surface.set_metadata(cairo.PDF_METADATA_CREATE_DATE, FIXED_DATE)
    surface.set_metadata(cairo.PDF_METADATA_MOD_DATE, FIXED_DATE)
    described = []
    for number, (group, thickness) in enumerate(boxes, 1):
        box = box_for(group.width, group.height, group.total, thickness)
        shape = net(box)
        page = place(shape, paper, margin, bleed)
        surface.set_size(page.width * PT_PER_MM, page.height * PT_PER_MM)
        ctx = new_context(surface)
        ctx.scale(PT_PER_MM, PT_PER_MM)
        _draw_net(ctx, page, shape, _art(renderer, game, group, box, shape), bleed)
        _guide(ctx, page, margin, f"{titled(game.title, game.version)} | tuck box for {group.name}: {group.total} cards, inside "
                                  f"{box.width:.1f} x {box.height:.1f} x {box.depth:.1f} mm | cut the solid line, "
                                  "fold the dashed ones, glue the grey flaps")
        ctx.show_page()
        described.append({"page": number, "group": group.id, "thickness": thickness, "inside_mm": [round(box.width, 2), round(box.height, 2),
                          round(box.depth, 2)], "net_mm": [round(shape.width, 2), round(shape.height, 2)],
                          "turned": page.turned, "own_page_size": page.own_size})
    surface.finish()
    return buffer.getvalue(), described, list(renderer.warnings)


def _art(renderer: FaceRenderer, game: Game, group: Group, box, shape: Net) -> dict[str, str]:
    """Each art panel's SVG, rendered by the template as a face of the panel's size."""
    return {name: renderer.svg(face) for name, face in art_faces(group, box, shape).items()}


def art_faces(group: Group, box, shape: Net) -> dict[str, FaceRef]:
    """Each art panel as a face of the panel's size, drawn by its template (validate renders
    them as build does); a face of a group of its own, so the renderer never mixes it up with
    a card's."""
    out = {}
    for name, template in ART.items():
        rect = shape.panels[name].rect
        w, h = (rect.h, rect.w) if name in SIDEWAYS else (rect.w, rect.h)
        data = {"deck": group.name, "count": group.total, "panel": name, "notch": shape.notch[2],
                "box": {"width": box.width, "height": box.height, "depth": box.depth}}
        item = Item(id=name, copies=1, data=data, player=None, mark=group.mark)
        face_group = replace(group, id=f"{group.id}.tuckbox-{name}", kind="tuckbox", shape="rect", width=w, height=h,
                             corner_radius=0.0, points=None, template=template, back_template=None, items=[item])
        out[name] = FaceRef(face_group, item, "front")
    return out


def _draw_net(ctx, page: Page, shape: Net, art: dict[str, str], bleed: float) -> None:
    ctx.save()
    ctx.translate(page.x, page.y)
    if page.turned:                          # a quarter turn clockwise: the net's top to the right
        ctx.translate(shape.height, 0)
        ctx.rotate(1.5707963267948966)
    for name, svg in art.items():
        _draw_panel(ctx, shape.panels[name], svg, bleed)
    ctx.save()
    _trace(ctx, shape.outline)                # a glue flap's cut corners stay cut
    ctx.clip()
    for panel in shape.panels.values():
        if panel.role == "glue":
            _glue(ctx, panel)
    ctx.restore()
    _lines(ctx, shape)
    ctx.restore()


def _draw_panel(ctx, panel: Panel, svg: str, bleed: float) -> None:
    """The art clipped to its panel, and past it by the bleed on its cut edges only (across a
    fold the neighbour's own art takes over)."""
    r = panel.rect
    grow = {edge: bleed if edge in panel.cut_edges else 0.0 for edge in ("top", "right", "bottom", "left")}
    ctx.save()
    ctx.rectangle(r.x - grow["left"], r.y - grow["top"], r.w + grow["left"] + grow["right"],
                  r.h + grow["top"] + grow["bottom"])
    ctx.clip()
    if panel.name in SIDEWAYS:               # lying down: its top edge to the left, read upwards
        ctx.translate(r.x, r.y + r.h)
        ctx.rotate(-1.5707963267948966)
    else:
        ctx.translate(r.x, r.y)
    try:
        draw_svg(ctx, svg)
    except (ValueError, OSError, cairo.CairoError) as exc:
        raise BuildError(f"tuck box {panel.name}: {exc}") from None
    ctx.restore()


def _glue(ctx, panel: Panel) -> None:
    r = panel.rect
    ctx.save()
    ctx.rectangle(r.x, r.y, r.w, r.h)
    ctx.set_source_rgb(*GLUE_GREY)
    ctx.fill()
    ctx.set_source_rgb(0.35, 0.35, 0.35)
    ctx.select_font_face(LABEL_FONT)
    # 3 mm, or half the flap across, but never under 6 pt (no printed text of ours is): a 6 pt
    # word's capitals (1.5 mm) still sit well inside the 4 mm glue flap of the thinnest box
    ctx.set_font_size(min(3.0, max(GLUE_MIN_MM, min(r.w, r.h) * 0.5)))
    extents = ctx.text_extents("GLUE")
    if r.h > r.w:                            # a tall flap: the word along it
        ctx.translate(r.x + r.w / 2 + extents[3] / 2, r.y + r.h / 2 + extents[2] / 2)
        ctx.rotate(-1.5707963267948966)
        ctx.move_to(0, 0)
    else:
        ctx.move_to(r.x + (r.w - extents[2]) / 2, r.y + r.h / 2 + extents[3] / 2)
    ctx.show_text("GLUE")
    ctx.restore()


def _lines(ctx, shape: Net) -> None:
    """Folds dashed, then the cut outline solid on top."""
    ctx.save()
    ctx.set_source_rgb(0, 0, 0)
    ctx.set_line_width(MARK_WIDTH)
    stroke_segments(ctx, shape.folds, dash=FOLD_DASH)
    ctx.set_line_width(2 * MARK_WIDTH)
    _trace(ctx, shape.outline)
    ctx.stroke()
    ctx.restore()


def _trace(ctx, points) -> None:
    ctx.move_to(*points[0])
    for point in points[1:]:
        ctx.line_to(*point)
    ctx.close_path()


def _guide(ctx, page: Page, margin: float, text: str) -> None:
    ctx.save()
    ctx.set_source_rgb(0.25, 0.25, 0.25)
    ctx.select_font_face(LABEL_FONT)
    ctx.set_font_size(GUIDE_SIZE)
    ctx.move_to(margin, page.height - margin - 0.6)
    ctx.show_text(text if not page.own_size else text + " | larger than the paper: print at this page's size")
    ctx.restore()
