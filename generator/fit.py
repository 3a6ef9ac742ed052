"""Fitting words into the room a component gives them, never below a readable size.

Every label of a printed component has a box: a tracker cell, a pad column, a marker, the
line under a sheet. :func:`fit_lines` sets a text in its box: at the size the design asks
for if it fits, else wrapped onto as many lines as the box takes, else smaller, but never
below the floor (:data:`FLOOR_MM`, 6 pt on components; :data:`AID_FLOOR_MM`, 7 pt in
player aids). A text that cannot fit even then is an error naming the text and its box
(:class:`FitError`): the build stops rather than print words nobody can read or words
outside the paper. :func:`placed_texts` lists every text of a drawing with its size and
extent on the page, for the tests that read a kit back.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from generator.drawing import CAP_HEIGHT, Group, Item, Text, text_width

PT_MM = 25.4 / 72.0
FLOOR_MM = 6.0 * PT_MM  # the smallest text on a component
AID_FLOOR_MM = 7.0 * PT_MM  # ... in a player aid
LEADING = 1.18  # line pitch, in ems


class FitError(ValueError):
    """A text that does not fit its box at the readable floor; the message says which."""


@dataclass(frozen=True)
class Fitted:
    """A text set in its box: its size (mm) and its lines."""

    size: float
    lines: tuple[str, ...]

    def height(self) -> float:
        return self.size * (CAP_HEIGHT + LEADING * (len(self.lines) - 1))


def wrap(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` at ``size`` (a single
    word wider than that stays whole on its own line)."""
    words = text.split()
    lines: list[str] = []
    current = ""
    for word in words:
        trial = f"{current} {word}" if current else word
        if current and text_width(trial, size, bold) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines


def fit_lines(text: str, size: float, width: float, height: float | None = None, *,
              floor: float = FLOOR_MM, max_lines: int = 1, bold: bool = False,
              what: str = "a text") -> Fitted:
    """``text`` set to fit ``width`` (and ``height``, when given) mm: on as few lines as it
    can (at most ``max_lines``), at the largest size up to ``size`` that allows them, never
    below ``floor``."""
    for lines_allowed in range(1, max_lines + 1):
        s = size
        while True:
            lines = wrap(text, s, width, bold)
            fits = (len(lines) <= lines_allowed
                    and all(text_width(ln, s, bold) <= width + 1e-6 for ln in lines))
            if fits and height is not None:
                fits = Fitted(s, tuple(lines)).height() <= height + 1e-6
            if fits:
                return Fitted(s, tuple(lines))
            if s <= floor + 1e-9:
                break
            s = max(floor, s * 0.97)
    raise FitError(f"{what} «{text}» does not fit {width:.1f} mm"
                   + (f" x {height:.1f} mm" if height is not None else "")
                   + f" on {max_lines} line(s) even at {floor / PT_MM:.0f} pt; "
                     "shorten it or give it more room")


def common_size(texts: Sequence[str], size: float, width: float, *, floor: float = FLOOR_MM,
                bold: bool = False, what: str = "texts") -> float:
    """One size for texts that stand side by side (column heads, a reminder's lines): the
    largest at which every one of them fits ``width`` on one line."""
    fitted = [fit_lines(t, size, width, floor=floor, bold=bold, what=what).size
              for t in texts]
    return min(fitted) if fitted else size


@dataclass(frozen=True)
class Placed:
    """A text as it lands on the page: its size and extent there (mm)."""

    text: str
    size: float
    x0: float
    y0: float
    x1: float
    y1: float
    cls: str | None


def placed_texts(items: Sequence[Item], translate: tuple[float, float] = (0.0, 0.0),
                 rotate: float = 0.0, scale: float = 1.0) -> Iterator[Placed]:
    """Every text of ``items`` with its size and bounding box on the page (groups'
    translations, turns and scales applied)."""
    for item in items:
        if isinstance(item, Group):
            yield from placed_texts(item.items, *_compose(
                (translate, rotate, scale), (item.translate, item.rotate, item.scale)))
        elif isinstance(item, Text):
            w = text_width(item.text, item.size, item.bold)
            x0 = {"start": 0.0, "middle": -w / 2.0, "end": -w}[item.anchor]
            local = [(x0, -item.size * CAP_HEIGHT), (x0 + w, -item.size * CAP_HEIGHT),
                     (x0 + w, item.size * 0.22), (x0, item.size * 0.22)]
            pts = [_apply((translate, rotate, scale),
                          _turn((item.x, item.y), item.rotate, p)) for p in local]
            yield Placed(item.text, item.size * scale, min(p[0] for p in pts),
                         min(p[1] for p in pts), max(p[0] for p in pts),
                         max(p[1] for p in pts), item.cls)


Transform = tuple[tuple[float, float], float, float]


def _turn(origin: tuple[float, float], degrees: float,
          p: tuple[float, float]) -> tuple[float, float]:
    a = math.radians(degrees)
    return (origin[0] + p[0] * math.cos(a) - p[1] * math.sin(a),
            origin[1] + p[0] * math.sin(a) + p[1] * math.cos(a))


def _apply(t: Transform, p: tuple[float, float]) -> tuple[float, float]:
    (tx, ty), rot, k = t
    return _turn((tx, ty), rot, (p[0] * k, p[1] * k))


def _compose(outer: Transform, inner: Transform) -> Transform:
    """A group inside a group: first the inner transform, then the outer."""
    (ix, iy), irot, ik = inner
    ox, oy = _apply(outer, (ix, iy))
    return ((ox, oy), outer[1] + irot, outer[2] * ik)
