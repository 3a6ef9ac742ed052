"""How much ink a printed page takes: its darkness, measured on a rendering.

A page's *ink* is the mean darkness of its pixels, 1 - relative luminance (white paper 0,
solid black 1; a navy back about 0.98): the share of the page a printer covers, weighted by
how dark it prints. It is measured on the page rendered as it prints (pdfium, through the
PNG backend), so whatever draws the page is counted as printed. The build summary reports
one figure per sheet and ``--ink-saver`` is judged by it.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

DPI = 100.0  # fine enough that a hairline counts its own width (at 30 dpi it counts a pixel)


def _lin(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


# darkness of each 8-bit sRGB level (luminance is linear in light, so weight per channel)
_LEVEL = [_lin(v / 255.0) for v in range(256)]


def page_ink(png: bytes) -> float:
    """The darkness (0..1) of one rendered page (RGB or RGBA PNG; clear counts as paper).
    Luminance is linear in each channel's light, so the mean is taken per channel from
    its histogram: exact, and fast without NumPy."""
    from PIL import Image

    img = Image.open(io.BytesIO(png)).convert("RGBA")
    paper = Image.new("RGBA", img.size, (255, 255, 255, 255))
    rgb = Image.alpha_composite(paper, img).convert("RGB")
    n = rgb.width * rgb.height
    if not n:
        return 0.0
    light = 0.0
    for weight, channel in zip((0.2126, 0.7152, 0.0722), rgb.split(), strict=True):
        light += weight * sum(k * _LEVEL[v] for v, k in enumerate(channel.histogram())) / n
    return 1.0 - light


def pdf_ink(pdf: bytes, dpi: float = DPI) -> list[float]:
    """The darkness of every page of ``pdf``."""
    from generator.backends.png import pdf_to_pngs

    return [page_ink(png) for png in pdf_to_pngs(pdf, dpi)]


@dataclass(frozen=True)
class SheetInk:
    """The ink of one PDF of a kit, page by page."""

    name: str
    pages: tuple[float, ...]

    def summary(self, labels: Sequence[str] | None = None) -> str:
        """``sectors.pdf: 4 fronts 12–21 %, 4 backs 69 %`` when ``labels`` names each
        page's kind (``front``/``back``); else the range over all pages."""
        if not self.pages:
            return f"{self.name}: no pages"
        if labels is None:
            return f"{self.name}: {_range(self.pages)} ink"
        kinds: dict[str, list[float]] = {}
        for kind, value in zip(labels, self.pages, strict=True):
            kinds.setdefault(kind, []).append(value)
        parts = [f"{len(v)} {k}{'s' if len(v) > 1 else ''} {_range(v)}"
                 for k, v in kinds.items()]
        return f"{self.name}: " + ", ".join(parts) + " ink"


def _range(values: Sequence[float]) -> str:
    lo, hi = round(100 * min(values)), round(100 * max(values))
    return f"{lo} %" if lo == hi else f"{lo}–{hi} %"


# --- --ink-saver ----------------------------------------------------------------------------


def tint(colour: str, share: float) -> str:
    """``colour`` mixed with white: ``share`` of the colour (1 keeps it, 0 is white)."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(255 - (255 - v) * share):02x}" for v in (r, g, b))


BACK_SHARE = 0.10  # the light back: a tenth of the back colour
ROUTE_SHARE = 0.62  # routes keep most of their colour: they are what a player reads
STATION_SHARE = 0.12
FACE_SHARE = 0.3  # the fronts' cream ground: a hint of its warmth, nearly paper


def ink_saving(defs: Any) -> Any:
    """``defs`` in the ink-saving look (``--ink-saver``): for Orbitus a light back (a tenth
    of its colour, its lines and title in the full colour, and a screen that keeps a front
    from showing through), fronts on a ground near the paper's white, lighter routes and a
    light station; planets, symbols, seat
    colours and photo markers stay as they are. Satellites prints little solid colour
    outside its tokens and is left as it is."""
    from cards.definitions import OrbitusDefinitions

    if not isinstance(defs, OrbitusDefinitions):
        return defs
    back = defs.sectors.back
    sectors = defs.sectors.model_copy(update={
        "back": back.model_copy(update={"colour": tint(back.colour, BACK_SHARE),
                                        "accent": back.colour}),
        "route_colour": tint(defs.sectors.route_colour, ROUTE_SHARE),
        "background": tint(defs.sectors.background, FACE_SHARE)})
    station = defs.station.model_copy(update={
        "colour": tint(defs.station.colour, STATION_SHARE), "accent": defs.station.colour})
    return replace(defs, sectors=sectors, station=station, ink_saver=True)


SHEETS = ("orbitus/sectors.pdf", "orbitus/station.pdf", "satellites/tokens.pdf",
          "satellites/board.pdf")  # the sheets that carry colour; pads and texts are paper


def kit_summary(files: dict[str, bytes], fold: bool = False) -> list[str]:
    """One line per printed sheet of a kit: how much ink its pages take (the sector sheet's
    fronts and backs apart)."""
    out = []
    for name in SHEETS:
        if name not in files:
            continue
        ink = SheetInk(name, tuple(pdf_ink(files[name])))
        labels = None
        if name == "orbitus/sectors.pdf" and not fold:
            labels = ["front" if k % 2 == 0 else "back" for k in range(len(ink.pages))]
        out.append(ink.summary(labels))
    return out
