"""Model -> one PNG per printed face and back, with bleed, named <group>/<item>-<copy>-<side>.png,
and export.json: the version and what each file shows.

Plain: the face plus the pack's bleed at --dpi. With a print-shop preset: the shop's image size
exactly (presets.yaml), the face centred on it, its art drawn out to the image's edges, on white.
Hexes and circles are cut to their outline plus bleed, as on the PDF sheets. The version is on
each image where the sheets print it; the file names do not carry it, so a shop's upload or a
script that reads them finds the same names in every version.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from ..errors import BuildError
from ..model import Game, Group
from ..render import FaceRenderer, expand_faces
from ..presets import Preset, Product, preset
from ..version import stamps
from .common import ExportRequest, ExportResult, pack_bleed, selected_groups
from .raster import Window, bleed_window, png_bytes, rasterize
from .workers import run_jobs

DEFAULT_DPI = 300
MAX_PIXELS = 120_000_000       # one image; a 600 x 800 mm board at 300 DPI is 67 million
MANIFEST = "export.json"
WHITE = (1.0, 1.0, 1.0)


@dataclass
class GroupPlan:
    group: Group
    window: Window
    render_bleed: float
    dpi: float
    product: Product | None


def export_png(game: Game, request: ExportRequest, progress, result: ExportResult) -> dict[str, bytes]:
    shop = preset(request.preset) if request.preset else None
    if shop and request.dpi and request.dpi != shop.dpi:
        raise BuildError(f"--preset {shop.id} sets the image size ({shop.name} asks for {shop.dpi} DPI); leave out --dpi")
    if shop and request.bleed is not None:
        raise BuildError(f"--preset {shop.id} sets the bleed (the image size {shop.name} asks for); leave out --bleed")
    dpi = shop.dpi if shop else (request.dpi or DEFAULT_DPI)
    groups = selected_groups(game, request)
    if shop:                                    # before drawing anything
        groups, skipped = shop.sold(groups, named=bool(request.groups))
        result.warnings += skipped
    plans = [plan_group(game, g, request, shop, dpi) for g in groups]
    progress.start(sum(p.group.total * p.group.sides for p in plans), f"{game.id} png")
    renderers: dict[float, FaceRenderer] = {}
    names, jobs = {}, {}
    stamp_of = stamps(game)
    for p in plans:
        renderer = renderers.setdefault(p.render_bleed, FaceRenderer(game, p.render_bleed, request.lenient))
        group_names, group_jobs = image_jobs(p, renderer, stamp_of)
        names.update(group_names)
        jobs.update(group_jobs)
    images = dict(zip(jobs, run_jobs([job for job, _ in jobs.values()], progress.advance,
                                     [uses for _, uses in jobs.values()])))
    files = {name: images[key] for name, key in names.items()}
    files[MANIFEST] = manifest(game, plans, shop, dpi)
    for renderer in renderers.values():
        result.warnings += renderer.warnings
    result.notes.append(_summary(plans, shop, dpi))
    return files


def plan_group(game: Game, group: Group, request: ExportRequest, shop: Preset | None, dpi: float) -> GroupPlan:
    if shop is None:
        bleed = pack_bleed(game, group, request)
        window = bleed_window(group, bleed, dpi)
        product = None
    else:
        product = shop.product_for(group)
        margin_x, margin_y = (product.full_w - group.width) / 2, (product.full_h - group.height) / 2
        window = Window(-margin_x, -margin_y, product.full_w, product.full_h, product.px_w, product.px_h)
        bleed = max(margin_x, margin_y)
    if window.px_w * window.px_h > MAX_PIXELS:
        raise BuildError(f"{group.mark}: group '{group.id}' at {dpi:g} DPI is {window.px_w} x {window.px_h} pixels, "
                         f"over the limit of {MAX_PIXELS // 1_000_000} million; export it with a lower --dpi")
    return GroupPlan(group, window, bleed, dpi, product)


def face_files(group: Group):
    """(file name, face, copy number) for every printed copy and side: <group>/<item>-<copy>-<side>.png."""
    fronts, backs = expand_faces(group)
    seen: dict[str, int] = {}
    for index, front in enumerate(fronts):
        item = front.item
        seen[item.id] = copy = seen.get(item.id, 0) + 1
        number = f"{copy:0{len(str(item.copies))}d}"
        for face in (front, backs[index]) if backs else (front,):
            yield f"{group.id}/{item.id}-{number}-{face.side}.png", face, copy


def image_jobs(p: GroupPlan, renderer: FaceRenderer, stamp_of) -> tuple[dict[str, tuple], dict[tuple, tuple]]:
    """The file names with the image each shows, and one drawing job per distinct image: faces
    with the same SVG (copies, a shared back) are drawn once and share the bytes. The SVG is
    rendered here, in this process, so template errors and time limits behave as in a build.
    stamp_of(face): where the version goes on it (the same for the whole group)."""
    clip = None if p.group.shape in ("rect", "square") else p.group.outline(p.render_bleed)
    background = WHITE if p.product else None
    names, jobs = {}, {}
    for name, face, _ in face_files(p.group):
        svg, marks = renderer.svg(face), stamp_of(face)
        key = (p.group.id, svg)           # the window, clip and version are the group's
        names[name] = key
        if key not in jobs:
            jobs[key] = [lambda svg=svg: png_bytes(rasterize(svg, p.window, clip, background, marks), p.dpi), 0]
        jobs[key][1] += 1
    return names, jobs


def manifest(game: Game, plans: list[GroupPlan], shop: Preset | None, dpi: float) -> bytes:
    """export.json: which version of which game the images are, and what each file shows."""
    files = [{"path": name, "group": p.group.id, "item": face.item.id, "copy": copy, "side": face.side}
             for p in plans for name, face, copy in face_files(p.group)]
    doc = {"game": game.id, "title": game.title, "version": game.version, "dpi": dpi,
           "preset": shop.id if shop else None, "files": files}
    return (json.dumps(doc, indent=1, sort_keys=True) + "\n").encode()


def _summary(plans: list[GroupPlan], shop: Preset | None, dpi: float) -> str:
    if shop is None:
        return f"one PNG per face and back at {dpi:g} DPI, bleed included"
    sold = sorted({f"{p.group.id}: {p.product.name} ({p.product.px_w} x {p.product.px_h} px)" for p in plans})
    return f"images for {shop.name} at {shop.dpi} DPI, bleed included: " + "; ".join(sold)
