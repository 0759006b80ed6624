"""The pack's version (game.yaml `version`, or --version) -> where it is printed on each face:
small, inside the safe zone, in the corner (or edge) a group chooses, or not at all; and the
title with the version that maps, handouts, page guides and exports print.

It is drawn over the face when the sheet is drawn, not put into the face's SVG: a face's
digest (build.json, changes.py) is what the face shows, so a new version alone changes no face,
and the faces of a changes PDF carry the new version while the old ones carry theirs.
"""
from __future__ import annotations

from dataclasses import dataclass

PLACES = ("bottom-right", "bottom-left", "bottom", "top-right", "top-left", "top", "off")
SAFE = 3.5            # mm in from the trim: inside the 3 mm safe zone every shop asks for
PATTERN = r"^[A-Za-z0-9][A-Za-z0-9 ._+-]{0,39}$"     # printable in the guide's font, short
ROUND_INSET = 0.2     # hexes and circles: a fifth of the face in from the edge, where it is wide enough
FONT = "Liberation Sans"
GREY = (0.45, 0.45, 0.45)     # readable on light and mid art, quieter than the face's own text


def titled(title: str, version: str) -> str:
    """The title as page guides, maps, handouts and exports print it: with the version, if any."""
    return f"{title} {version}" if version else title


@dataclass(frozen=True)
class Stamp:
    text: str
    x: float              # the anchor point, mm in the face's own coordinates
    y: float              # the baseline
    size: float           # text height in mm
    anchor: str           # 'start' | 'middle' | 'end'


def stamp(text: str, place: str, size: float, width: float, height: float, shape: str) -> Stamp | None:
    """Where the version goes on a face of this size and shape; None when it is off or empty."""
    if not text or place == "off":
        return None
    vertical, _, horizontal = place.partition("-")
    if shape != "rect":               # a hex's or circle's corners are off the face: centred
        horizontal, inset = "", max(SAFE, ROUND_INSET * height)
    else:
        inset = SAFE
    x, anchor = {"left": (SAFE, "start"), "right": (width - SAFE, "end"), "": (width / 2, "middle")}[horizontal]
    y = height - inset if vertical == "bottom" else inset + size
    return Stamp(text, x, y, size, anchor)


def stamps(game):
    """face -> where its version is printed (a Stamp, or None), worked out once per group."""
    d = game.defaults
    by_group = {g.id: stamp(game.version, g.version_mark or d["version_mark"], g.version_size or d["version_size"],
                            g.width, g.height, g.shape) for g in game.groups}
    return lambda face: by_group.get(face.group.id)


def draw(ctx, mark: Stamp) -> None:
    """The stamp onto a cairo context in the face's own coordinates (millimetres)."""
    from .svgdraw.fontface import font_face
    ctx.save()
    ctx.set_font_face(font_face(FONT, False, False))
    ctx.set_font_size(mark.size)
    width = ctx.text_extents(mark.text)[4]
    ctx.move_to(mark.x - {"start": 0.0, "middle": width / 2, "end": width}[mark.anchor], mark.y)
    ctx.set_source_rgb(*GREY)
    ctx.show_text(mark.text)
    ctx.restore()
