"""Machine-readable markers on the printed components (for ``pnp-score --photo``).

A marker is an ArUco 4 x 4 code (:mod:`generator.markers.codes`): a black square of 6 x 6 modules
whose inner 4 x 4 carry the bits, on a white quiet zone 0.7 module wide. Where each
marker goes and which ID it carries is decided once in :mod:`generator.markers.plan`; the
functions here only draw it, black on white, so it prints in black and white too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from generator.drawing import Group, Item, Rect, Style
from generator.markers.codes import MODULES, modules
from generator.markers.plan import (
    QUIET,
    Marker,
    board_markers,
    sector_marker,
    station_marker,
    token_marker,
)

if TYPE_CHECKING:
    from cards.definitions import OrbitusDefinitions, SatellitesDefinitions
    from cards.models import SectorDef

BLACK = "#000000"
WHITE = "#ffffff"
SEAM = 0.02  # mm: white modules overlap their white neighbours so no hairline shows


def marker_items(marker_id: int, size: float, quiet: float = QUIET) -> list[Item]:
    """The marker centred on (0, 0), ``size`` mm the side of its black square, with a white
    quiet zone of ``quiet`` modules round it."""
    m = size / MODULES
    h = size / 2.0
    q = quiet * m
    bits = modules(marker_id)
    items: list[Item] = [
        # rounded: the quiet zone reaches ``quiet`` modules beyond the corners too, no more
        Rect(-h - q, -h - q, size + 2 * q, size + 2 * q, Style(fill=WHITE), rx=q,
             cls="marker-quiet"),
        Rect(-h, -h, size, size, Style(fill=BLACK), cls=f"marker marker-{marker_id}"),
    ]
    for r, row in enumerate(bits):
        for c, bit in enumerate(row):
            if not bit:
                continue
            left = SEAM if c > 0 and row[c - 1] else 0.0
            right = SEAM if c < MODULES - 1 and row[c + 1] else 0.0
            up = SEAM if r > 0 and bits[r - 1][c] else 0.0
            down = SEAM if r < MODULES - 1 and bits[r + 1][c] else 0.0
            items.append(Rect(-h + c * m - left, -h + r * m - up, m + left + right,
                              m + up + down, Style(fill=WHITE)))
    return items


def placed(marker: Marker) -> Group:
    """A marker where its placement puts it in its component's frame."""
    return Group(tuple(marker_items(marker.id, marker.size)), (marker.x, marker.y),
                 rotate=marker.rotate, cls="fiducial")


def sector_marker_items(sector: SectorDef, defs: OrbitusDefinitions,
                        across_flats: float) -> list[Item]:
    """The marker of one sector (its card's ID), or nothing when the deck prints none."""
    if not defs.sectors.markers:
        return []
    ids = [s.id for s in defs.sectors.sectors]
    if sector.id not in ids:  # an inline sector drawn by the scorer: no card, no marker
        return []
    return [placed(sector_marker(1 + ids.index(sector.id), sector.id, across_flats))]


def station_marker_items(defs: OrbitusDefinitions, across_flats: float) -> list[Item]:
    if not defs.station.markers:
        return []
    return [placed(station_marker(across_flats))]


def token_marker_items(defs: SatellitesDefinitions, colour: str, value: int,
                       diameter: float) -> list[Item]:
    if not defs.satellites.markers or colour not in ("red", "blue") or not 1 <= value <= 4:
        return []  # (a diagram's sum of values is no satellite)
    return [placed(token_marker(colour, value, diameter))]


def board_marker_items(defs: SatellitesDefinitions, origin: tuple[float, float], size: int,
                       cell: float, margin: float) -> list[Item]:
    """The four corner markers; ``origin`` is the grid's top-left corner on the drawing."""
    if not defs.board.markers:
        return []
    return [Group((placed(m),), origin) for m in board_markers(size, cell, margin)]
