"""Where things are on the Satellites board drawing, in millimetres: the cells, the
coordinate margin around them and the trackers below. The board's drawing
(:mod:`generator.components.satellites`) and the marker plan
(:mod:`generator.markers.plan`: the board's corner markers sit in the margin) both read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cards.definitions import SatellitesDefinitions


@dataclass(frozen=True)
class BoardGeometry:
    """Where things are on the board drawing (mm)."""

    size: int
    cell: float
    label: float  # width of the coordinate margin on each side
    track_top: float  # y of the trackers' first row
    width: float
    height: float

    def cell_origin(self, row: int, col: int) -> tuple[float, float]:
        """The top-left corner (x, y) of the cell in ``row``, ``col`` (0-based)."""
        return (self.label + col * self.cell, self.label + row * self.cell)

    def cell_centre(self, row: int, col: int) -> tuple[float, float]:
        x, y = self.cell_origin(row, col)
        return (x + self.cell / 2.0, y + self.cell / 2.0)


def board_geometry(defs: SatellitesDefinitions, size: int | None = None,
                   trackers: bool = True) -> BoardGeometry:
    n = size or defs.board.size
    cell = defs.board.cell_mm
    label = max(9.0, cell * 0.4)
    grid_end = label + n * cell + label
    box = track_box(defs, n, cell)
    track_h = (box * 2 + 16.0) if trackers else 0.0
    return BoardGeometry(n, cell, label, grid_end + 4.0, grid_end,
                         grid_end + track_h)


def track_box(defs: SatellitesDefinitions, n: int, cell: float) -> float:
    available = n * cell
    return min(12.0, available / (defs.trackers.connected.max + 1))
