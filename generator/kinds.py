"""Component kinds: which shapes each allows and its defaults. A kind is an entry in KINDS."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    name: str
    shapes: tuple[str, ...]
    default_shape: str
    corner_radius: float     # mm, default rounding of rectangular faces
    tiled: bool              # True: one large face tiled across pages (boards, mats)
    doc: str


KINDS = {
    "card": Kind("card", ("rect",), "rect", 3.0, False,
                 "rectangle with rounded corners; a shared back or a back per card"),
    "tile": Kind("tile", ("hexagon", "square", "polygon"), "hexagon", 0.0, False,
                 "hexagon (flat or pointy, size across flats), square or any polygon; one or two sides"),
    "chit": Kind("chit", ("circle", "square", "hexagon", "rect"), "circle", 0.0, False,
                 "circle, square, hexagon or rectangular token, usually two-sided"),
    "mat": Kind("mat", ("rect", "polygon"), "rect", 0.0, True,
                "any rectangle or polygon (an L-shaped ocean); larger than the paper it is tiled "
                "across pages with overlap and marks"),
}
