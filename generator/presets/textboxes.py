"""Where the words of a drawing are: the box of every line of text, in the drawing's own
millimetres, through every group's move, turn and scale.

A PDF carries its text, and the preflight reads it back from the file (pdfium's character
boxes). An image does not, so an image a preset writes carries these boxes in its PNG
metadata (``pnp-text-boxes``: pixels, one ``x0 y0 x1 y1`` per line of text), and the
preflight checks them against the safe zone.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from generator.drawing import CAP_HEIGHT, Drawing, Group, Item, Text, text_width

Matrix = tuple[float, float, float, float, float, float]  # a b c d e f: x' = ax + cy + e
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
DESCENDERS = set("gjpqyQ(),;[]{}|/_")
DESCENT = 0.236  # DejaVu Sans, of the em
KEY = "pnp-text-boxes"


def _mul(m: Matrix, n: Matrix) -> Matrix:
    """m then n applied to a point: n is the outer transform."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (A * a + C * b, B * a + D * b, A * c + C * d, B * c + D * d,
            A * e + C * f + E, B * e + D * f + F)


def _group_matrix(g: Group) -> Matrix:
    r = math.radians(g.rotate)
    cos, sin = math.cos(r), math.sin(r)
    s = g.scale
    return (cos * s, sin * s, -sin * s, cos * s, g.translate[0], g.translate[1])


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


Box = tuple[str, list[tuple[float, float]]]  # the text and its box's four corners, mm


def text_boxes(items: Iterable[Item], m: Matrix = IDENTITY) -> list[Box]:
    """``(text, corners)`` (mm) for every non-empty line of text under ``items``: the four
    corners of the box of its letters, turned and moved as the text is drawn."""
    out: list[Box] = []
    for item in items:
        if isinstance(item, Group):
            out += text_boxes(item.items, _mul(_group_matrix(item), m))
        elif isinstance(item, Text) and item.text.strip():
            width = text_width(item.text, item.size, item.bold)
            x0 = {"start": 0.0, "middle": -width / 2, "end": -width}[item.anchor]
            top = -CAP_HEIGHT * item.size
            bottom = DESCENT * item.size if DESCENDERS & set(item.text) else 0.0
            local = _mul(_group_matrix(Group((), (item.x, item.y), item.rotate)), m)
            corners = [_apply(local, x, y) for x, y in ((x0, top), (x0 + width, top),
                                                          (x0 + width, bottom), (x0, bottom))]
            out.append((item.text, corners))
    return out


def drawing_text_boxes(drawing: Drawing) -> list[Box]:
    return text_boxes(drawing.items)


def encode(boxes: list[Box], px_per_mm: float) -> str:
    """The metadata text of an image's boxes: a line of eight numbers (the corners, pixels,
    to a tenth) per line of text."""
    return "\n".join(" ".join(f"{v * px_per_mm:.1f}" for point in corners for v in point)
                     for _, corners in boxes)


def decode(text: str) -> list[list[tuple[float, float]]]:
    """The corners (pixels) of every box in an image's metadata; lines that are not eight
    numbers are skipped."""
    out = []
    for line in text.splitlines():
        try:
            values = [float(p) for p in line.split()]
        except ValueError:
            continue
        if len(values) == 8 and all(math.isfinite(v) for v in values):
            out.append(list(zip(values[0::2], values[1::2], strict=True)))
    return out
