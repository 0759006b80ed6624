"""A card deck (card size, count, card thickness) -> the net of its tuck box: every panel and
flap as a rectangle, the cut outline, the fold lines, in millimetres. Pure geometry, asserted
numerically in the tests; tuckbox_draw.py prints it.

The net, left to right: left spine, front, right spine, back, glue flap. Above the back its lid
and the tuck flap that slips in behind the front; above the spines their dust flaps; the front's
top edge is cut, with a thumb notch. Below the back the bottom; below the front a flap glued
under the bottom; below the spines dust flaps. Folded: the glue flap under the left spine, the
bottom onto the front's flap, the lid over the top.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import yaml

DATA = yaml.load((Path(__file__).parent / "data" / "tuckbox.yaml").read_text(encoding="utf-8"),
                 Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))     # libyaml's when there: read at every start
NOTCH_STEPS = 16             # the thumb notch's half circle as straight pieces


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class Box:
    """The inside of the box: the deck plus clearance."""
    width: float
    height: float
    depth: float


@dataclass(frozen=True)
class Panel:
    name: str
    rect: Rect
    role: str                # 'art' (front, back, spines), 'flap', or 'glue' (glued to another panel)
    cut_edges: tuple[str, ...] = ()     # of 'top', 'right', 'bottom', 'left': where art may bleed


@dataclass(frozen=True)
class Net:
    width: float
    height: float
    panels: dict[str, Panel]
    outline: tuple[tuple[float, float], ...]        # the cut line, closed, clockwise
    folds: tuple[tuple[float, float, float, float], ...]
    notch: tuple[float, float, float]               # centre x, y and radius


class ThicknessError(ValueError):
    pass


def card_thickness(spec) -> tuple[float, float]:
    """'plain', 'sleeved' or a number of mm -> (one card's thickness, growth of width and height)."""
    if spec in DATA["thickness"]:
        entry = DATA["thickness"][spec]
        return float(entry["card"]), float(entry["grow"])
    try:
        value = float(str(spec).removesuffix("mm"))
    except ValueError:
        raise ThicknessError(f"card thickness '{spec}': give {', '.join(DATA['thickness'])} or a number of "
                             "millimetres such as 0.35") from None
    if not 0.05 <= value <= 5:
        raise ThicknessError(f"card thickness {value:g} mm is outside 0.05-5 mm; a playing card is about 0.3 mm")
    return value, 0.0


def box_for(card_w: float, card_h: float, count: int, thickness) -> Box:
    per_card, grow = card_thickness(thickness)
    room = DATA["clearance"]
    return Box(card_w + grow + room, card_h + grow + room, max(DATA["min_depth"], count * per_card + room))


def flap_sizes(box: Box) -> dict[str, float]:
    """The flaps' sizes for a box (mm): each bounded so it folds inside the box."""
    w, h, d = box.width, box.height, box.depth
    return {"tuck": min(DATA["tuck"]["most"], h * DATA["tuck"]["of_height"]),
            "dust": min(d, w * DATA["dust"]["of_width"]),
            "glue": min(DATA["glue"]["most"], d - 1.0),
            "bottom_flap": d - 1.0,
            "notch": min(DATA["notch"]["most"], w * DATA["notch"]["of_width"]),
            "chamfer": min(DATA["chamfer"], d / 3)}


def net(box: Box) -> Net:
    w, h, d = box.width, box.height, box.depth
    f = flap_sizes(box)
    tuck, dust, glue, low, r, c = f["tuck"], f["dust"], f["glue"], f["bottom_flap"], f["notch"], f["chamfer"]
    top = tuck + d                           # the main row's top edge
    bottom = top + h
    xs = [0.0, d, d + w, 2 * d + w, 2 * d + 2 * w]        # left spine, front, right spine, back, glue
    panels = {
        "spine-left": Panel("spine-left", Rect(xs[0], top, d, h), "art", ("left",)),
        "front": Panel("front", Rect(xs[1], top, w, h), "art", ("top",)),
        "spine-right": Panel("spine-right", Rect(xs[2], top, d, h), "art"),
        "back": Panel("back", Rect(xs[3], top, w, h), "art"),
        "glue": Panel("glue", Rect(xs[4], top, glue, h), "glue"),
        "lid": Panel("lid", Rect(xs[3], tuck, w, d), "flap"),
        "tuck": Panel("tuck", Rect(xs[3], 0.0, w, tuck), "flap"),
        "bottom": Panel("bottom", Rect(xs[3], bottom, w, d), "flap"),
        "bottom-flap": Panel("bottom-flap", Rect(xs[1], bottom, w, low), "glue"),
        "dust-top-left": Panel("dust-top-left", Rect(xs[0], top - dust, d, dust), "flap"),
        "dust-top-right": Panel("dust-top-right", Rect(xs[2], top - dust, d, dust), "flap"),
        "dust-bottom-left": Panel("dust-bottom-left", Rect(xs[0], bottom, d, dust), "flap"),
        "dust-bottom-right": Panel("dust-bottom-right", Rect(xs[2], bottom, d, dust), "flap"),
    }
    notch = (xs[1] + w / 2, top, r)
    outline = (
        [(xs[0], top), (xs[0] + c, top - dust), (xs[1] - c, top - dust), (xs[1], top)]
        + [(xs[1] + w / 2 - r, top)] + _half_circle(*notch) + [(xs[1] + w / 2 + r, top)]
        + [(xs[2], top), (xs[2] + c, top - dust), (xs[3] - c, top - dust), (xs[3], top)]
        + [(xs[3], tuck), (xs[3] + c, 0.0), (xs[4] - c, 0.0), (xs[4], tuck)]
        + [(xs[4], top), (xs[4] + glue, top + c), (xs[4] + glue, bottom - c), (xs[4], bottom)]
        + [(xs[4], bottom + d), (xs[3], bottom + d)]
        + [(xs[3], bottom), (xs[3] - c, bottom + dust), (xs[2] + c, bottom + dust), (xs[2], bottom)]
        + [(xs[2] - c, bottom + low), (xs[1] + c, bottom + low), (xs[1], bottom)]
        + [(xs[1] - c, bottom + dust), (xs[0] + c, bottom + dust), (xs[0], bottom)])
    folds = ([(x, top, x, bottom) for x in xs[1:]]
             + [(xs[0], top, xs[1], top), (xs[2], top, xs[4], top), (xs[3], tuck, xs[4], tuck)]
             + [(xs[0], bottom, xs[4], bottom)])
    return Net(xs[4] + glue, bottom + max(d, dust, low), panels, tuple(outline), tuple(folds), notch)


def _half_circle(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """The notch: from its left end down through (cx, cy + r) to its right end."""
    return [(cx - r * math.cos(math.pi * i / NOTCH_STEPS), cy + r * math.sin(math.pi * i / NOTCH_STEPS))
            for i in range(1, NOTCH_STEPS)]


def net_for(card_w: float, card_h: float, count: int, thickness) -> Net:
    return net(box_for(card_w, card_h, count, thickness))
