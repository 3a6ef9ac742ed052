"""Where a point lies against a product's safe zone: the cut shape (a hexagon, circle or
rectangle) shrunk by the safe margin. Shared by the renderer and the preflight."""

from __future__ import annotations

import math

from rules.hexgeo import depth_inside


def inside_safe(shape: str, orientation: str, trim: tuple[float, float],
                centre: tuple[float, float], safe: float, x: float, y: float) -> float:
    """How far the point (x, y) lies inside the safe zone (negative: outside it, by that
    many mm): the cut shape of ``trim`` centred on ``centre``, shrunk by ``safe``."""
    dx, dy = x - centre[0], y - centre[1]
    if shape == "circle":
        return (min(trim) / 2 - safe) - math.hypot(dx, dy)
    if shape == "rect":
        return min(trim[0] / 2 - safe - abs(dx), trim[1] / 2 - safe - abs(dy))
    # a regular hexagon: the distance to its nearest side
    if orientation == "pointy":
        dx, dy = dy, dx
        trim = (trim[1], trim[0])
    return depth_inside((dx, dy), (0.0, 0.0), trim[1]) - safe
