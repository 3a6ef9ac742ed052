"""Hex geometry for Orbitus: flat-top hexes in axial coordinates ``(q, r)``.

Conventions follow the Red Blob Games hex guide ("flat" orientation, axial
coordinates) with screen coordinates: x grows to the east, y grows to the
south (as on paper, in SVG and in this project's drawing description).

Sides and directions are numbered clockwise from the top::

    0=N (0,-1)  1=NE (+1,-1)  2=SE (+1,0)  3=S (0,+1)  4=SW (-1,+1)  5=NW (-1,0)

A card lying with ``rot = k`` is turned ``k * 60`` degrees clockwise: a route
printed on side ``i`` lies on table side ``(i + k) % 6``.

The size of a hex is given as its width *across flats* (the distance between
two opposite sides, e.g. N to S); its circumradius (centre to corner, equal
to the side length) is ``across_flats / sqrt(3)``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator

Hex = tuple[int, int]
Point = tuple[float, float]

SIDES: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")
SIDE_INDEX: dict[str, int] = {name: i for i, name in enumerate(SIDES)}
DIRECTIONS: tuple[Hex, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
SQRT3 = math.sqrt(3.0)


def side_index(name: str) -> int:
    """Index 0-5 of a side name (case-insensitive); raises ``ValueError``."""
    key = name.strip().upper()
    if key not in SIDE_INDEX:
        raise ValueError(f"{name!r} is not a side ({', '.join(SIDES)})")
    return SIDE_INDEX[key]


def opposite(side: int) -> int:
    """The side facing ``side`` on the neighbouring hex."""
    return (side + 3) % 6


def neighbour(cell: Hex, side: int) -> Hex:
    """The cell across ``side`` of ``cell``."""
    dq, dr = DIRECTIONS[side % 6]
    return (cell[0] + dq, cell[1] + dr)


def neighbours(cell: Hex) -> Iterator[tuple[int, Hex]]:
    """``(side, neighbour)`` for the six sides of ``cell``, N first, clockwise."""
    q, r = cell
    for side, (dq, dr) in enumerate(DIRECTIONS):
        yield side, (q + dq, r + dr)


def side_towards(a: Hex, b: Hex) -> int:
    """The side of ``a`` that faces its neighbour ``b``; ``ValueError`` if not adjacent."""
    delta = (b[0] - a[0], b[1] - a[1])
    try:
        return DIRECTIONS.index(delta)
    except ValueError:
        raise ValueError(f"{a} and {b} are not neighbours") from None


def distance(a: Hex, b: Hex) -> int:
    """Number of steps between two cells."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def rotate_sides(sides: Iterable[int], rot: int) -> frozenset[int]:
    """Sides after turning a card ``rot`` steps clockwise."""
    return frozenset((s + rot) % 6 for s in sides)


def rotate_cell(cell: Hex, steps: int) -> Hex:
    """Rotate a cell about the origin by ``steps * 60`` degrees clockwise.

    Uses cube coordinates: one clockwise step maps ``(x, y, z)`` to ``(-z, -x, -y)``.
    With axial ``(q, r)`` and ``s = -q - r`` this is ``(q, r) -> (-r, -s)``.
    """
    q, r = cell
    for _ in range(steps % 6):
        s = -q - r
        q, r = -r, -s
    return (q, r)


def circumradius(across_flats: float) -> float:
    """Centre-to-corner distance of a hex ``across_flats`` wide between sides."""
    return across_flats / SQRT3


def centre(cell: Hex, across_flats: float) -> Point:
    """Centre of ``cell`` in the plane, the origin cell centred at (0, 0)."""
    size = circumradius(across_flats)
    q, r = cell
    return (size * 1.5 * q, size * SQRT3 * (r + q / 2.0))


def corners(centre_xy: Point, across_flats: float) -> list[Point]:
    """The six corners of a flat-top hex, clockwise from the east corner.

    Corner ``i`` sits at angle ``60 * i`` degrees (y down), so corners ``4`` and
    ``5`` bound side N, corners ``5`` and ``0`` side NE, and in general side ``s``
    runs from corner ``(s + 4) % 6`` to corner ``(s + 5) % 6``.
    """
    size = circumradius(across_flats)
    cx, cy = centre_xy
    return [
        (cx + size * math.cos(math.radians(60 * i)), cy + size * math.sin(math.radians(60 * i)))
        for i in range(6)
    ]


def side_corners(side: int) -> tuple[int, int]:
    """Indices (into :func:`corners`) of the two corners that bound ``side``."""
    return ((side + 4) % 6, (side + 5) % 6)


def side_midpoint(centre_xy: Point, across_flats: float, side: int) -> Point:
    """Midpoint of ``side`` of the hex centred at ``centre_xy``."""
    apothem = across_flats / 2.0
    angle = math.radians(-90 + 60 * side)
    return (centre_xy[0] + apothem * math.cos(angle), centre_xy[1] + apothem * math.sin(angle))


def depth_inside(point: Point, centre_xy: Point, across_flats: float) -> float:
    """How far ``point`` lies inside the flat-top hex centred at ``centre_xy`` (its distance
    to the nearest side; negative outside, by that much)."""
    dx, dy = point[0] - centre_xy[0], point[1] - centre_xy[1]
    apothem = across_flats / 2.0
    depth = apothem - abs(dy)
    for angle in (30.0, 150.0):
        a = math.radians(angle)
        depth = min(depth, apothem - abs(dx * math.cos(a) + dy * math.sin(a)))
    return depth


def side_angle(side: int) -> float:
    """Direction (degrees, clockwise from north) in which ``side`` faces."""
    return 60.0 * (side % 6)


def pixel_to_hex(point: Point, across_flats: float) -> Hex:
    """The cell containing ``point`` (inverse of :func:`centre`, with cube rounding)."""
    size = circumradius(across_flats)
    x, y = point
    qf = (2.0 / 3.0 * x) / size
    rf = (-1.0 / 3.0 * x + SQRT3 / 3.0 * y) / size
    sf = -qf - rf
    q, r, s = round(qf), round(rf), round(sf)
    dq, dr, ds = abs(q - qf), abs(r - rf), abs(s - sf)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return (int(q), int(r))


class RotationError(ValueError):
    """A value that is not a rotation; ``kind`` says how: ``"range"`` (a whole number
    outside 0-5), ``"direction"`` (text that names no direction) or ``"type"``."""

    def __init__(self, value: object, kind: str) -> None:
        super().__init__(f"{value!r} is not a rotation (0-5 or {', '.join(SIDES)})")
        self.kind = kind


def parse_rotation(value: object) -> int:
    """A rotation given as ``0``-``5`` (a number or its digits) or as the name of the
    direction the card's marker points to; raises :class:`RotationError`. This is the one
    reader of rotations: layouts, records and the notation all use it."""
    if isinstance(value, bool):
        raise RotationError(value, "type")
    if isinstance(value, int):
        if 0 <= value <= 5:
            return value
        raise RotationError(value, "range")
    if isinstance(value, str):
        text = value.strip()
        digits = text[1:] if text[:1] in "+-" else text
        if digits and len(digits) <= 6 and all("0" <= ch <= "9" for ch in digits):
            return parse_rotation(int(text))
        if digits and all("0" <= ch <= "9" for ch in digits):
            raise RotationError(value, "range")  # a very long number: out of range too
        if text.upper() in SIDE_INDEX:
            return SIDE_INDEX[text.upper()]
        raise RotationError(value, "direction")
    raise RotationError(value, "type")
