"""How colours look to players with a colour-vision deficiency, and how far apart they stay.

The three dichromacies are simulated with the matrices of Machado, Oliveira and Fernandes,
"A Physiologically-based Model for Simulation of Color Vision Deficiency" (IEEE TVCG 15(6),
2009), at severity 1.0, applied to linear sRGB; greyscale is the relative luminance (a
black-and-white print or copy). Distances are CIEDE2000 colour differences (Sharma, Wu and
Dalal, "The CIEDE2000 Color-Difference Formula", Color Research & Application 30(1), 2005)
between CIELAB colours under D65.

:func:`close_pairs` names every pair of a palette that falls below a threshold in any of
the views, so a test (and a designer choosing colours) sees which two colours merge and for
whom. Standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

RGB = tuple[float, float, float]  # components 0..1
Lab = tuple[float, float, float]

# Machado et al. 2009, Table 1, severity 1.0 (rows: output R, G, B of linear sRGB)
MACHADO: dict[str, tuple[RGB, RGB, RGB]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
VIEWS = ("normal", "protanopia", "deuteranopia", "tritanopia", "greyscale")


def parse_hex(colour: str) -> RGB:
    """``#rrggbb`` as components 0..1."""
    h = colour.lstrip("#")
    if len(h) != 6:
        raise ValueError(f"{colour!r} is not a #rrggbb colour")
    return (int(h[0:2], 16) / 255.0, int(h[2:4], 16) / 255.0, int(h[4:6], 16) / 255.0)


def to_hex(rgb: RGB) -> str:
    return "#" + "".join(f"{round(min(1.0, max(0.0, c)) * 255):02x}" for c in rgb)


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encoded(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def simulate(rgb: RGB, view: str) -> RGB:
    """``rgb`` (sRGB, 0..1) as seen in ``view``: one of :data:`VIEWS`."""
    if view == "normal":
        return rgb
    lin = tuple(_linear(c) for c in rgb)
    if view == "greyscale":
        y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
        g = _encoded(y)
        return (g, g, g)
    if view not in MACHADO:
        raise ValueError(f"unknown view {view!r}; one of {', '.join(VIEWS)}")
    m = MACHADO[view]
    out = tuple(sum(m[i][j] * lin[j] for j in range(3)) for i in range(3))
    return (_encoded(out[0]), _encoded(out[1]), _encoded(out[2]))


def lab(rgb: RGB) -> Lab:
    """CIELAB (D65) of an sRGB colour."""
    r, g, b = (_linear(c) for c in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def delta_e(a: Lab, b: Lab) -> float:
    """CIEDE2000 colour difference of two CIELAB colours."""
    l1, a1, b1 = a
    l2, a2, b2 = b
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    cm = (c1 + c2) / 2
    g = 0.5 * (1 - math.sqrt(cm ** 7 / (cm ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dl = l2 - l1
    dc = c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    elif h2p - h1p > 180:
        dh = h2p - h1p - 360
    else:
        dh = h2p - h1p + 360
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lm = (l1 + l2) / 2
    cmp_ = (c1p + c2p) / 2
    if c1p * c2p == 0:
        hm = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hm = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hm = (h1p + h2p + 360) / 2
    else:
        hm = (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hm - 30)) + 0.24 * math.cos(math.radians(2 * hm))
         + 0.32 * math.cos(math.radians(3 * hm + 6)) - 0.20 * math.cos(math.radians(4 * hm - 63)))
    sl = 1 + 0.015 * (lm - 50) ** 2 / math.sqrt(20 + (lm - 50) ** 2)
    sc = 1 + 0.045 * cmp_
    sh = 1 + 0.015 * cmp_ * t
    rt = (-2 * math.sqrt(cmp_ ** 7 / (cmp_ ** 7 + 25 ** 7))
          * math.sin(math.radians(60 * math.exp(-(((hm - 275) / 25) ** 2)))))
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2
                     + rt * (dc / sc) * (dhh / sh))


@dataclass(frozen=True)
class ClosePair:
    """Two colours of a palette that merge for some players."""

    view: str
    first: str
    second: str
    distance: float

    def __str__(self) -> str:
        return f"{self.first} and {self.second}: ΔE {self.distance:.1f} ({self.view})"


def distances(colours: Mapping[str, RGB], view: str) -> dict[tuple[str, str], float]:
    """CIEDE2000 between every pair of ``colours`` (name -> sRGB) as seen in ``view``."""
    labs = {name: lab(simulate(rgb, view)) for name, rgb in colours.items()}
    names = list(colours)
    return {(a, b): delta_e(labs[a], labs[b])
            for i, a in enumerate(names) for b in names[i + 1:]}


def close_pairs(colours: Mapping[str, RGB], threshold: float,
                views: Sequence[str] = VIEWS[:4]) -> list[ClosePair]:
    """Every pair of ``colours`` closer than ``threshold`` in any of ``views``, closest
    first."""
    found = [ClosePair(view, a, b, d) for view in views
             for (a, b), d in distances(colours, view).items() if d < threshold]
    return sorted(found, key=lambda p: p.distance)


def smallest(colours: Mapping[str, RGB], views: Sequence[str] = VIEWS[:4]) -> ClosePair:
    """The closest pair of ``colours`` over ``views``."""
    return min((ClosePair(view, a, b, d) for view in views
                for (a, b), d in distances(colours, view).items()), key=lambda p: p.distance)
