"""Placing a piece on a vendor's product: the size, scale and turn it is printed at, the
page (or image) it is drawn on, and where the cut and the safe zone lie.

A piece goes on a product of its own shape (a hex on a hex tile) or, where the vendor has
none, on a rectangle that holds it (a hex on a card, its own outline the line to cut).
``exact`` prints it at 100 %: refused when it is larger than the product, and when it is
smaller its art is carried on past its edge to the product's cut and bleed. ``fit``
scales it to fill a product of its own shape. Every refusal names the component, the
product and both sizes, before anything is drawn.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from cards.preset_models import PresetFile, Product
from generator.drawing import Drawing, Group, Rect, Style
from generator.presets.geometry import inside_safe  # noqa: F401  (for callers)
from generator.presets.pieces import Face, Piece

EPS = 1e-6


class PresetMismatch(ValueError):
    """A product that cannot hold a component; the message says which and both sizes."""


@dataclass(frozen=True)
class Layout:
    """How one piece lies on its product (all lengths in mm)."""

    product_key: str
    product: Product
    canvas: tuple[float, float]  # the page or image: trim + bleed (or the vendor's size)
    trim: tuple[float, float]  # the cut shape's bounding box, centred on the canvas
    bleed: float  # the product's bleed
    safe: float  # the product's safe margin
    scale: float
    turn: float  # degrees clockwise (a flat-top hex on a pointy product: 30)
    art_bleed: float  # how far (at the piece's own size) its art must run past its edge
    same_shape: bool
    offset: tuple[float, float]  # where the piece's centre lies from the canvas centre

    @property
    def shape(self) -> str:
        return self.product.shape


def _fmt(size: tuple[float, float]) -> str:
    return f"{round(size[0], 2):g} × {round(size[1], 2):g} mm"


def layout(piece: Piece, preset: PresetFile) -> Layout:
    """Where ``piece`` goes on the product its preset names (:class:`PresetMismatch` when
    it cannot)."""
    placed = preset.components[piece.component]  # type: ignore[index]
    key = placed.product
    product = preset.products[key]
    bleed, safe = preset.mm(product.bleed), preset.mm(product.safe)
    w, h = piece.size
    turn = 0.0
    if piece.shape == "hex" and product.shape == "hex" and product.orientation == "pointy":
        # a sixth of a turn less than a quarter: a flat-top hex stands on a corner, its
        # words tilted least
        turn, (w, h) = 30.0, (h, w)
    same = piece.shape == product.shape
    if product.trim is None:
        pad = preset.mm(product.pad)
        trim = (w + 2 * pad, h + 2 * pad)
    else:
        trim = (preset.mm(product.trim[0]), preset.mm(product.trim[1]))
    name = f"{preset.vendor} {product.title}"
    if placed.scale == "fit":
        if not same:
            raise PresetMismatch(
                f"{piece.component} is a {piece.shape}, {name} a {product.shape}: scale: fit "
                "fills a product of the same shape only; use scale: exact to print it at "
                "100 % with its cut line")
        scale = min(trim[0] / w, trim[1] / h)
    else:
        scale = 1.0
        if w > trim[0] + 1e-3 or h > trim[1] + 1e-3:
            raise PresetMismatch(
                f"{piece.component} ({_fmt((w, h))}) does not fit on {name} ({_fmt(trim)} "
                f"cut): choose a larger product, or scale: fit where the shapes match")
    if product.pixels is not None:
        canvas = (product.pixels[0] / preset.dpi * 25.4, product.pixels[1] / preset.dpi * 25.4)
        if canvas[0] + EPS < trim[0] + 2 * bleed - 0.05 or \
                canvas[1] + EPS < trim[1] + 2 * bleed - 0.05:
            raise PresetMismatch(
                f"product {key}: {product.pixels[0]} × {product.pixels[1]} px at {preset.dpi} "
                f"dpi ({_fmt(canvas)}) is smaller than its cut plus bleed "
                f"({_fmt((trim[0] + 2 * bleed, trim[1] + 2 * bleed))})")
    else:
        canvas = (trim[0] + 2 * bleed, trim[1] + 2 * bleed)
    if same:
        art_bleed = _cover(product.shape, (w, h), trim, bleed, scale)
    else:  # cut by hand along its own outline: its own bleed, as far as the product allows
        art_bleed = min(bleed, (trim[0] - w) / 2, (trim[1] - h) / 2)
    ox, oy = piece.offset
    if turn:
        a = math.radians(turn)
        ox, oy = ox * math.cos(a) - oy * math.sin(a), ox * math.sin(a) + oy * math.cos(a)
    # centre the piece's offset point, as far as the cut lets it move
    room = ((trim[0] - w * scale) / 2, (trim[1] - h * scale) / 2)
    off = (-max(-room[0], min(room[0], ox * scale)), -max(-room[1], min(room[1], oy * scale)))
    return Layout(key, product, canvas, trim, bleed, safe, scale, turn, max(0.0, art_bleed),
                  same, off)


def _cover(shape: str, size: tuple[float, float], trim: tuple[float, float], bleed: float,
           scale: float) -> float:
    """How far (at the piece's size) the art must run past its edge to reach the product's
    bleed edge once scaled: the product's cut plus bleed, less the piece."""
    w, h = size
    if shape == "hex":  # measured across the flats
        return (min(trim) / 2 + bleed) / scale - min(w, h) / 2
    if shape == "circle":
        return (min(trim) / 2 + bleed) / scale - min(w, h) / 2
    # a rectangle, and the corners: run on to the farther of the two
    return max((trim[0] / 2 + bleed) / scale - w / 2, (trim[1] / 2 + bleed) / scale - h / 2)


def face_drawing(piece: Piece, face: Face, lay: Layout, title: str = "") -> Drawing:
    """One face on its product: the canvas, the product's ground, the art."""
    cw, ch = lay.canvas
    ground = piece.ground if lay.same_shape else "#ffffff"
    art = face.art(lay.art_bleed, lay.safe / lay.scale if lay.same_shape else 0.0)
    centre = (cw / 2 + lay.offset[0], ch / 2 + lay.offset[1])
    group = Group(tuple(art), centre, rotate=lay.turn, scale=lay.scale, cls="piece")
    return Drawing(cw, ch, [Rect(0, 0, cw, ch, Style(fill=ground), cls="ground"), group],
                   title or f"{piece.component} {face.name}")


def trim_box(lay: Layout) -> tuple[float, float, float, float]:
    """The cut's bounding box on the canvas (x, y, w, h, mm, from the top-left)."""
    cw, ch = lay.canvas
    return ((cw - lay.trim[0]) / 2, (ch - lay.trim[1]) / 2, lay.trim[0], lay.trim[1])
