"""The drawing description: every component is described once, in millimetres.

A :class:`Drawing` is a width, a height and a list of items (shapes, text and
groups). Coordinates are millimetres with the origin at the top-left and y
growing downwards, as on paper. The PDF and SVG backends
(:mod:`generator.backends`) render the same description; nothing here knows
about either format.

Text positions are baselines; :func:`text_centred` works out the baseline that
centres a line of text vertically so both backends place it identically.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

Point = tuple[float, float]


@dataclass(frozen=True)
class Style:
    """Paint of a shape. ``None`` means no fill / no outline. Widths in mm."""

    fill: str | None = None
    stroke: str | None = None
    width: float = 0.25
    dash: tuple[float, ...] | None = None
    cap: Literal["butt", "round", "square"] = "butt"
    join: Literal["miter", "round", "bevel"] = "miter"
    opacity: float = 1.0


@dataclass(frozen=True)
class Polygon:
    points: tuple[Point, ...]
    style: Style
    cls: str | None = None


@dataclass(frozen=True)
class Polyline:
    points: tuple[Point, ...]
    style: Style
    cls: str | None = None


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    style: Style
    cls: str | None = None


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    style: Style
    rx: float = 0.0
    cls: str | None = None


# ("M", x, y) | ("L", x, y) | ("Q", cx, cy, x, y) | ("C", c1x, c1y, c2x, c2y, x, y) | ("Z",)
PathCommand = tuple[str | float, ...]


@dataclass(frozen=True)
class Path:
    """An outline of moves, lines and curves, filled by the non-zero rule (glyph outlines,
    symbols)."""

    commands: tuple[PathCommand, ...]
    style: Style
    cls: str | None = None


@dataclass(frozen=True)
class Text:
    """One line of text; ``(x, y)`` is the baseline point, ``size`` the em size in mm."""

    x: float
    y: float
    text: str
    size: float
    fill: str = "#000000"
    anchor: Literal["start", "middle", "end"] = "start"
    bold: bool = False
    rotate: float = 0.0  # degrees, clockwise, about (x, y)
    cls: str | None = None


Clip = Polygon | Circle | Rect


@dataclass(frozen=True)
class Group:
    """Items drawn after ``translate``, then ``rotate`` (degrees clockwise), then ``scale``."""

    items: tuple[Item, ...]
    translate: Point = (0.0, 0.0)
    rotate: float = 0.0
    scale: float = 1.0
    clip: Clip | None = None  # in the group's own coordinates
    cls: str | None = None


Item = Polygon | Polyline | Circle | Rect | Path | Text | Group


@dataclass
class Drawing:
    """A component or a page: size in mm and the items to draw, in order."""

    width: float
    height: float
    items: list[Item] = field(default_factory=list)
    title: str = ""

    def add(self, *items: Item) -> None:
        self.items.extend(items)

    def extend(self, items: Iterable[Item]) -> None:
        self.items.extend(items)


# --- helpers used by component descriptions -------------------------------------------


def group(items: Iterable[Item], at: Point = (0.0, 0.0), rotate: float = 0.0,
          scale: float = 1.0, clip: Clip | None = None, cls: str | None = None) -> Group:
    return Group(tuple(items), at, rotate, scale, clip, cls)


def line(a: Point, b: Point, style: Style, cls: str | None = None) -> Polyline:
    return Polyline((a, b), style, cls)


def star(cx: float, cy: float, outer: float, inner: float, points: int = 5,
         start_deg: float = -90.0) -> tuple[Point, ...]:
    out: list[Point] = []
    for i in range(points * 2):
        r = outer if i % 2 == 0 else inner
        a = math.radians(start_deg + 180.0 * i / points)
        out.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return tuple(out)


# DejaVu Sans metrics (fractions of the em), used to centre text identically in both backends
CAP_HEIGHT = 0.729
X_HEIGHT = 0.547


def text_centred(x: float, y: float, text: str, size: float, **kw: object) -> Text:
    """Text whose capital letters are centred vertically on ``y`` (and horizontally on x)."""
    kw.setdefault("anchor", "middle")
    return Text(x, y + size * CAP_HEIGHT / 2.0, text, size, **kw)  # type: ignore[arg-type]


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width in mm of ``text`` set in the embedded font at ``size`` mm."""
    from generator.fonts import string_width

    return string_width(text, size, bold)


def fit_size(text: str, size: float, max_width: float, bold: bool = False) -> float:
    """The largest size up to ``size`` at which ``text`` fits in ``max_width`` mm."""
    width = text_width(text, size, bold)
    return size if width <= max_width or width == 0 else size * max_width / width


def offset_polygon(points: Sequence[Point], distance: float) -> tuple[Point, ...]:
    """A convex polygon grown outwards by ``distance`` (sides moved out in parallel)."""
    n = len(points)
    cx = sum(p[0] for p in points) / n
    cy = sum(p[1] for p in points) / n
    out: list[Point] = []
    for i in range(n):
        prev, cur, nxt = points[i - 1], points[i], points[(i + 1) % n]
        n1 = _outward_normal(prev, cur, (cx, cy))
        n2 = _outward_normal(cur, nxt, (cx, cy))
        bis = (n1[0] + n2[0], n1[1] + n2[1])
        length = math.hypot(*bis)
        cos_half = length / 2.0
        k = distance / cos_half if cos_half > 1e-9 else distance
        out.append((cur[0] + bis[0] / length * k, cur[1] + bis[1] / length * k))
    return tuple(out)


def _outward_normal(a: Point, b: Point, inside: Point) -> Point:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    nx, ny = dy / length, -dx / length
    mx, my = (a[0] + b[0]) / 2 - inside[0], (a[1] + b[1]) / 2 - inside[1]
    if nx * mx + ny * my < 0:
        nx, ny = -nx, -ny
    return (nx, ny)


def walk(items: Iterable[Item]) -> Iterator[Item]:
    """Every item, depth first, groups included (for tests and checks)."""
    for item in items:
        yield item
        if isinstance(item, Group):
            yield from walk(item.items)
