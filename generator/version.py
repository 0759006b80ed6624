"""The pack's version (game.yaml `version`, or --version) -> where it is printed on each face:
small, inside the safe zone, in the corner (or edge) a group chooses, or not at all; the mark
NEW on a face changed since an earlier build (build --changes-since), beside the version or
where the group's `new_mark` puts it; and the title with the version that maps, handouts, page
guides and exports print.

It is drawn over the face when the sheet is drawn, not put into the face's SVG: a face's
digest (build.json, changes.py) is what the face shows, so a new version alone changes no face,
and the faces of a changes PDF carry the new version while the old ones carry theirs.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

PLACES = ("bottom-right", "bottom-left", "bottom", "top-right", "top-left", "top", "off")
SAFE = 3.5            # mm in from the trim: inside the 3 mm safe zone every shop asks for
PATTERN = r"^[A-Za-z0-9][A-Za-z0-9 ._+-]{0,39}$"     # printable in the guide's font, short
ROUND_INSET = 0.2     # hexes and circles: a fifth of the face in from the edge, where it is wide enough
FONT = "Liberation Sans"
GREY = (0.45, 0.45, 0.45)     # readable on light and mid art, quieter than the face's own text
NEW = "NEW"                   # bold, before the version where they share a place
# NEW is read by players sorting a reprint into the box: never under 6 pt, whatever the
# version's size (the version is a small build mark for the designer, 1.4 mm by default)
NEW_MIN_SIZE = 6 * 25.4 / 72  # mm


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
    lead: str = ""        # bold words before the text (NEW)
    lead_size: float = 0.0    # the lead's text height in mm (0: `size`)


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


def stamps(game, is_new=None):
    """face -> the marks drawn over it (a tuple of Stamps, maybe empty), worked out once per group:
    the version, and NEW where is_new(face) says the face changed since the earlier build."""
    d = game.defaults
    plain, marked = {}, {}
    for g in game.groups:
        place, size = g.version_mark or d["version_mark"], g.version_size or d["version_size"]
        new_place = g.new_mark or d.get("new_mark") or place
        version = stamp(game.version, place, size, g.width, g.height, g.shape)
        plain[g.id] = (version,) if version else ()
        new_size = max(size, NEW_MIN_SIZE)
        new = stamp(NEW, new_place, new_size, g.width, g.height, g.shape)
        if new and version and new_place == place:          # one line: NEW v2
            drop = new_size - size if place.startswith("top") else 0.0     # the taller NEW stays inside
            marked[g.id] = (replace(version, lead=NEW, lead_size=new_size, y=version.y + drop),)
        else:
            marked[g.id] = plain[g.id] + ((replace(new, text="", lead=NEW),) if new else ())
    if is_new is None:
        return lambda face: plain.get(face.group.id, ())
    return lambda face: (marked if is_new(face) else plain).get(face.group.id, ())


def draw(ctx, marks) -> None:
    """Marks (Stamps) onto a cairo context in the face's own coordinates (millimetres)."""
    from .svgdraw.fontface import font_face
    for mark in marks:
        ctx.save()
        runs = [(font_face(FONT, True, False), mark.lead_size or mark.size, mark.lead + (" " if mark.text else ""))
                ] if mark.lead else []
        runs += [(font_face(FONT, False, False), mark.size, mark.text)] if mark.text else []
        widths = []
        for face, size, text in runs:
            ctx.set_font_face(face)
            ctx.set_font_size(size)
            widths.append(ctx.text_extents(text)[4])
        ctx.move_to(mark.x - {"start": 0.0, "middle": sum(widths) / 2, "end": sum(widths)}[mark.anchor], mark.y)
        ctx.set_source_rgb(*GREY)
        for face, size, text in runs:
            ctx.set_font_face(face)
            ctx.set_font_size(size)
            ctx.show_text(text)
        ctx.restore()
