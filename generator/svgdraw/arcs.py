"""Elliptical arcs: an SVG endpoint-parameterised arc -> cubic Bézier coordinates.

Implements SVG 1.1 appendix F.6.5/F.6.6 (centre conversion, radii scaled up when too small),
then approximates the arc by one cubic per quarter turn at most.
"""

from __future__ import annotations

import math

_TAU = 2 * math.pi


def _arc_to_curves(x1, y1, rx, ry, phi_deg, large, sweep, x2, y2):
    """Endpoint-parameterised elliptical arc -> list of cubic coordinates;
    [] when the end points coincide, None when it is a straight line."""
    if x1 == x2 and y1 == y2:
        return []
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        return None  # straight line
    phi = math.radians(phi_deg % 360)
    cos_phi, sin_phi = math.cos(phi), math.sin(phi)
    cx, cy, rx, ry, theta1, dtheta = _arc_centre(
        x1, y1, rx, ry, cos_phi, sin_phi, large, sweep, x2, y2)
    return _arc_cubics(cx, cy, rx, ry, cos_phi, sin_phi, theta1, dtheta, x2, y2)


def _arc_centre(x1, y1, rx, ry, cos_phi, sin_phi, large, sweep, x2, y2):
    """F.6.5: centre, (scaled) radii, start angle and sweep angle."""
    dx2, dy2 = (x1 - x2) / 2, (y1 - y2) / 2
    x1p = cos_phi * dx2 + sin_phi * dy2
    y1p = -sin_phi * dx2 + cos_phi * dy2
    lam = (x1p * x1p) / (rx * rx) + (y1p * y1p) / (ry * ry)
    if lam > 1:
        scale = math.sqrt(lam)
        rx *= scale
        ry *= scale
    rx2, ry2 = rx * rx, ry * ry
    num = rx2 * ry2 - rx2 * y1p * y1p - ry2 * x1p * x1p
    den = rx2 * y1p * y1p + ry2 * x1p * x1p
    coef = math.sqrt(max(0.0, num / den)) if den else 0.0
    if large == sweep:
        coef = -coef
    cxp = coef * rx * y1p / ry
    cyp = -coef * ry * x1p / rx
    cx = cos_phi * cxp - sin_phi * cyp + (x1 + x2) / 2
    cy = sin_phi * cxp + cos_phi * cyp + (y1 + y2) / 2
    theta1 = math.atan2((y1p - cyp) / ry, (x1p - cxp) / rx)
    theta2 = math.atan2((-y1p - cyp) / ry, (-x1p - cxp) / rx)
    dtheta = theta2 - theta1
    if sweep and dtheta < 0:
        dtheta += _TAU
    elif not sweep and dtheta > 0:
        dtheta -= _TAU
    return cx, cy, rx, ry, theta1, dtheta


def _arc_cubics(cx, cy, rx, ry, cos_phi, sin_phi, theta1, dtheta, x2, y2):
    """One cubic per quarter turn or less; the last ends exactly on (x2, y2)."""
    count = max(1, int(math.ceil(abs(dtheta) / (math.pi / 2) - 1e-9)))
    delta = dtheta / count
    t = 4 / 3 * math.tan(delta / 4)
    curves = []
    angle = theta1
    cos_a, sin_a = math.cos(angle), math.sin(angle)
    for k in range(count):
        angle2 = angle + delta
        cos_b, sin_b = math.cos(angle2), math.sin(angle2)
        # unit circle control points
        p1x, p1y = cos_a - t * sin_a, sin_a + t * cos_a
        p2x, p2y = cos_b + t * sin_b, sin_b - t * cos_b
        coords = []
        for ux, uy in ((p1x, p1y), (p2x, p2y), (cos_b, sin_b)):
            ux *= rx
            uy *= ry
            coords.append(cx + cos_phi * ux - sin_phi * uy)
            coords.append(cy + sin_phi * ux + cos_phi * uy)
        if k == count - 1:
            coords[4], coords[5] = x2, y2
        curves.append(tuple(coords))
        angle, cos_a, sin_a = angle2, cos_b, sin_b
    return curves
