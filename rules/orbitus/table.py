"""What lies on an Orbitus table: the station's sides, the sectors where they lie, who plays.

A :class:`Table` is what the analysis and the scoring read; the scorer builds one from a
transcribed layout (with inline sectors, possibly breaking rules), the engine from the
position of a game. Sides are numbered 0=N clockwise (:mod:`rules.hexgeo`).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.hexgeo import Hex

STATION: Hex = (0, 0)


def cell_text(cell: Hex) -> str:
    """A cell as messages write it: ``[1, -2]``."""
    return f"[{cell[0]}, {cell[1]}]"


@dataclass(frozen=True, slots=True)
class Sector:
    """A sector as it lies on the table."""

    cell: Hex
    routes: frozenset[int]  # table sides carrying a route, 0=N clockwise
    planet: str | None
    pirate: bool
    card: str | None  # deck ID, None for an inline sector
    rot: int  # where the card's orientation marker points (0 for inline sectors)
    line: int  # the line of the layout or record that put it there (0: none)
    order: int  # the order in which it was listed or placed

    @property
    def centre(self) -> str:
        if self.planet is not None:
            return "planet"
        return "pirate" if self.pirate else "void"

    @property
    def label(self) -> str:
        """``sector S07 at [1, -1]`` (or ``sector at [1, -1]`` when inline)."""
        name = f"sector {self.card}" if self.card else "sector"
        return f"{name} at {cell_text(self.cell)}"


@dataclass(frozen=True, slots=True)
class Finding:
    """A rule the table breaks: the rule's code, the cell, one sentence, the line it comes
    from (of a layout or a record; None when there is none)."""

    rule: str
    cell: Hex | None
    message: str
    line: int | None = None


@dataclass(frozen=True, slots=True)
class Table:
    """Who plays (seat order), how the station's sides are given, what lies where."""

    players: tuple[str, ...]
    start_lines: dict[int, int]  # station side -> seat
    barriers: frozenset[int]  # every station side that is not a start line
    sectors: dict[Hex, Sector]
    planet_types: tuple[str, ...]

    def start_lines_of(self, seat: int) -> tuple[int, ...]:
        return tuple(sorted(s for s, p in self.start_lines.items() if p == seat))
