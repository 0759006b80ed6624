"""Every face of every pack keeps its text and icons in the safe zone: 3 mm inside the cut
(docs/manifests.md), judged by the glyphs' and icons' own boxes where the face draws them
(positions before any transform a template wraps them in)."""
import collections
import math

import pytest

from conftest import ROOT
from generator import templating
from generator.manifest import load_pack
from generator.render import FaceRenderer, expand_faces

SAFE = 3.0                     # mm inside the cut
SMALL = 0.15                   # pieces under 20 mm: 15 % of the smaller side (docs/manifests.md)
SLACK = 0.05                   # mm: rounding in the drawing
PACKS = sorted(p.parent.name for p in (ROOT / "components").glob("*/game.yaml"))
# Faces whose edges are folded or glued rather than cut: their text may run to the fold.
FOLDED = {"die-nets", "dice-d6", "dice-d8", "dice-d4", "ledger-hat"}


def _inside(outline, x, y) -> bool:
    form, data = outline.form, outline.data
    if form == "rect":
        x0, y0, w, h, r = data
        if not (x0 - SLACK <= x <= x0 + w + SLACK and y0 - SLACK <= y <= y0 + h + SLACK):
            return False
        cx, cy = min(max(x, x0 + r), x0 + w - r), min(max(y, y0 + r), y0 + h - r)
        return math.hypot(x - cx, y - cy) <= r + SLACK
    if form == "circle":
        cx, cy, r = data
        return math.hypot(x - cx, y - cy) <= r + SLACK
    points = data[0] if isinstance(data[0], (list, tuple)) and isinstance(data[0][0], (list, tuple)) else data
    inside = False
    for (x0, y0), (x1, y1) in zip(points, list(points[1:]) + [points[0]]):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    if inside:
        return True
    return any(math.hypot(x - px, y - py) <= SLACK for px, py in points)


def _probes(kind, x0, y0, x1, y1):
    """Points that must lie in the safe zone: a text run's corners (cap height to baseline);
    for an icon, its sides' midpoints and its corners pulled a fifth of the way in (an icon's
    drawing rarely fills its box's corners)."""
    corners = ((x0, y0), (x1, y0), (x0, y1), (x1, y1))
    if kind == "text":
        return corners
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return [(cx + (x - cx) * 0.8, cy + (y - cy) * 0.8) for x, y in corners] + \
        [(cx, y0), (cx, y1), (x0, cy), (x1, cy)]


def _art(name: str, size: float, repeats: collections.Counter, group) -> bool:
    """An icon drawn as art rather than as a symbol players read: repeated into a pattern
    (4 times or more on the face) or a picture a third of the face's smaller side or larger.
    Only art may run to the cut; a lone symbol near the edge is a fault like text."""
    return repeats[name] >= 4 or size >= min(group.width, group.height) / 3


class Recorder:
    """Wraps the helpers' drawing of text lines and icons to note each glyph run's and icon's box."""

    def __init__(self, monkeypatch):
        self.boxes = []
        real_block, real_icon = templating.block_parts, templating.icon_svg

        def block(lines, x, y, width, height, size, style, icons, align, valign, line_height, written):
            m = style.metrics
            n = len(lines)
            block_h = (n - 1) * size * line_height + (m.ascent + m.descent) * size
            top = y + {"top": 0.0, "middle": (height - block_h) / 2, "bottom": height - block_h}[valign]
            baseline = top + m.ascent * size
            space = m.width(" ", size)
            for line in lines:
                line_w = sum(u for _, u in line) * size + space * max(0, len(line) - 1)
                left = x + {"left": 0.0, "center": (width - line_w) / 2, "right": width - line_w}[align]
                if line:
                    self.boxes.append(("text", " ".join(w if isinstance(w, str) else "…" for w, _ in line),
                                       left, baseline - m.cap_height * size, left + line_w, baseline))
                baseline += size * line_height
            return real_block(lines, x, y, width, height, size, style, icons, align, valign, line_height, written)

        def icon(icon, x, y, size, color=None):
            minx, miny, vw, vh = icon.view_box
            scale = size / max(vw, vh)
            dx, dy = x + (size - vw * scale) / 2, y + (size - vh * scale) / 2
            self.boxes.append(("icon", icon.name, dx, dy, dx + vw * scale, dy + vh * scale))
            return real_icon(icon, x, y, size, color)

        monkeypatch.setattr(templating, "block_parts", block)
        monkeypatch.setattr(templating, "icon_svg", icon)


@pytest.mark.parametrize("pack", PACKS)
def test_text_and_icons_stay_in_every_faces_safe_zone(pack, monkeypatch):
    recorder = Recorder(monkeypatch)
    game = load_pack(ROOT / "components" / pack)
    renderer = FaceRenderer(game, 0.0)
    outside = []
    for group in game.groups:
        if group.id in FOLDED or group.kind == "mat":
            continue
        safe = group.outline(-min(SAFE, SMALL * min(group.width, group.height)))
        edge = group.outline(-1.0)
        fronts, backs = expand_faces(group)
        seen = set()
        for face in fronts + (backs or []):
            if (face.item.id, face.side) in seen:
                continue
            seen.add((face.item.id, face.side))
            recorder.boxes.clear()
            renderer._render(face)
            repeats = collections.Counter(what for kind, what, *_ in recorder.boxes if kind == "icon")
            for kind, what, x0, y0, x1, y1 in recorder.boxes:
                probes = _probes(kind, x0, y0, x1, y1)
                if kind == "icon" and _art(what, x1 - x0, repeats, group) and \
                        not all(_inside(edge, x, y) for x, y in probes):
                    continue            # a pattern or picture running to the cut and into the bleed
                if not all(_inside(safe, x, y) for x, y in _probes(kind, x0, y0, x1, y1)):
                    outside.append(f"{group.id}/{face.item.id} ({face.side}): {kind} {what!r} "
                                   f"at {x0:.1f},{y0:.1f}-{x1:.1f},{y1:.1f}")
    groups = collections.Counter(o.split("/")[0] for o in outside)
    firsts = {}
    for o in outside:
        firsts.setdefault(o.split("/")[0], o)
    assert not outside, (f"text or icons outside the safe zone: {dict(groups)}\n"
                         + "\n".join(firsts.values()))
