"""Tiles laid edge to edge show no frame line just inside their cut: whatever colour a tile's
edge has, it runs from inside the cut out through the bleed, so a cut a little off leaves an
even edge, never a sliver of frame that is thin on one side and thick on the other. Judged on
the rendered faces: along the middle of every side, the colour just inside the cut (0.3-0.9 mm)
against the colour just outside it in the bleed (0.3-0.9 mm)."""
import math

import numpy
import pymupdf
import pytest

from conftest import ROOT
from generator.manifest import load_pack
from generator.maps.render import png_bytes
from generator.render import FaceRenderer, expand_faces
from generator.shapes import hex_points

BLEED = 3.0
DPI = 300
CLOSE = 18            # mean RGB levels (of 255) the two strips may differ by
# (pack, group): the tiles a player butts together into a board
TILES = [("lords-of-doomspire", "home-tiles"), ("lords-of-doomspire", "plains-tiles"),
         ("lords-of-doomspire", "hills-tiles"), ("lords-of-doomspire", "mountain-tiles"),
         ("cones-of-dunshire", "hexes")]


def corners(group):
    if group.shape == "hexagon":
        return hex_points(group.width, group.height, group.orientation)
    w, h = group.width, group.height
    return ((0, 0), (w, 0), (w, h), (0, h))


def strip_colour(image, a, b, centre, depth):
    """The mean colour of points along the middle 60 % of side a-b, `depth` mm inside the cut
    (negative: outside, in the bleed)."""
    (ax, ay), (bx, by) = a, b
    length = math.hypot(bx - ax, by - ay)
    nx, ny = -(by - ay) / length, (bx - ax) / length
    mx, my = (ax + bx) / 2, (ay + by) / 2
    if (centre[0] - mx) * nx + (centre[1] - my) * ny < 0:
        nx, ny = -nx, -ny                                   # the normal points inward
    samples = []
    for k in range(41):
        t = 0.2 + 0.6 * k / 40
        for d in numpy.linspace(depth[0], depth[1], 4):
            x = ax + (bx - ax) * t + nx * d + BLEED
            y = ay + (by - ay) * t + ny * d + BLEED
            samples.append(image[int(y / 25.4 * DPI), int(x / 25.4 * DPI)])
    return numpy.mean(samples, axis=0)


@pytest.mark.parametrize("pack,group_id", TILES)
def test_tile_edges_run_to_the_bleed(pack, group_id):
    game = load_pack(ROOT / "components" / pack)
    group = next(g for g in game.groups if g.id == group_id)
    renderer = FaceRenderer(game, BLEED)
    fronts, backs = expand_faces(group)
    pts = corners(group)
    centre = (group.width / 2, group.height / 2)
    uneven = []
    seen = set()
    for face in list(fronts) + list(backs or []):
        if face.key in seen:
            continue
        seen.add(face.key)
        svg = renderer.svg(face)
        inner = svg[svg.index(">") + 1:svg.rindex("</svg>")]        # the bleed moved into view
        svg = f'<svg xmlns="http://www.w3.org/2000/svg"><g transform="translate({BLEED} {BLEED})">{inner}</g></svg>'
        pix = pymupdf.Pixmap(png_bytes(svg, group.width + 2 * BLEED, group.height + 2 * BLEED, DPI))
        image = numpy.frombuffer(pix.samples, dtype=numpy.uint8).reshape(pix.height, pix.width, pix.n)[..., :3]
        for a, b in zip(pts, pts[1:] + pts[:1]):
            inside = strip_colour(image.astype(float), a, b, centre, (0.3, 0.9))
            outside = strip_colour(image.astype(float), a, b, centre, (-0.9, -0.3))
            if numpy.abs(inside - outside).max() > CLOSE:
                uneven.append(f"{face.item.id} ({face.side}) side {a}-{b}: {inside.round()} inside, {outside.round()} outside")
    assert seen
    assert not uneven, "\n".join(uneven[:10])
