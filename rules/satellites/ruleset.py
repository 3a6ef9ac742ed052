"""Everything about Satellites a designer may change, as plain frozen dataclasses.

A :class:`Ruleset` is built from a definitions folder by :mod:`cards.ruleset` (YAML,
validated): the board size and setup zones, each colour's edges and satellites, the
colony sizes, the connected count that ends the game, the grace moves, who moves first,
how far a displaced satellite may be pushed and how many moves without a connection end
a stuck game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

RED = "red"  # the colours
BLUE = "blue"
COLOURS = (RED, BLUE)  # seat s plays COLOURS[s]
RED_SEAT = 0  # the seats (the engine's ``to_move`` and ``finished``)
BLUE_SEAT = 1
SEAT_OF = {RED: RED_SEAT, BLUE: BLUE_SEAT}


@dataclass(frozen=True, slots=True)
class Colour:
    """One player's colour: the board edges they start on and their satellites' values
    (each value as often as they have copies of it, ascending)."""

    name: str
    edges: tuple[str, ...]  # N, E, S, W
    satellites: tuple[int, ...]

    def copies(self, value: int) -> int:
        return self.satellites.count(value)

    @property
    def count(self) -> int:
        return len(self.satellites)


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One definitions folder's Satellites."""

    GAME: ClassVar[str] = "satellites"

    size: int
    setup_zone_cells: int
    inward_values: tuple[int, ...]
    red: Colour
    blue: Colour
    colony_min: int = 3
    colony_max: int = 6  # a colony of this size is crowned and can grow no further
    end_connected: int = 23  # this many connected satellites end the game at once
    grace_moves: int = 3  # the other player's moves once one has all satellites connected
    first: str = RED
    push_reach: int = 2  # a displaced satellite goes at most this many cells
    stall_moves: int = 1000  # moves in a row without a connection that end the game (S-62)

    def colour(self, name: str) -> Colour:
        return self.red if name == RED else self.blue

    @property
    def values(self) -> tuple[int, ...]:
        """Every satellite value either colour has, ascending."""
        return tuple(sorted(set(self.red.satellites) | set(self.blue.satellites)))

    @property
    def max_value(self) -> int:
        return max(self.values)

    @property
    def total(self) -> int:
        """Satellites of both colours together."""
        return self.red.count + self.blue.count

    # --- a plain-data form (the definitions cache stores it as JSON) ----------------------

    def to_data(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "setup_zone_cells": self.setup_zone_cells,
            "inward_values": list(self.inward_values),
            "colours": [[c.name, list(c.edges), list(c.satellites)]
                        for c in (self.red, self.blue)],
            "colony_min": self.colony_min,
            "colony_max": self.colony_max,
            "end_connected": self.end_connected,
            "grace_moves": self.grace_moves,
            "first": self.first,
            "push_reach": self.push_reach,
            "stall_moves": self.stall_moves,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Ruleset:
        red, blue = (Colour(str(n), tuple(str(e) for e in edges), tuple(int(v) for v in sats))
                     for n, edges, sats in data["colours"])
        return cls(
            size=int(data["size"]),
            setup_zone_cells=int(data["setup_zone_cells"]),
            inward_values=tuple(int(v) for v in data["inward_values"]),
            red=red,
            blue=blue,
            colony_min=int(data["colony_min"]),
            colony_max=int(data["colony_max"]),
            end_connected=int(data["end_connected"]),
            grace_moves=int(data["grace_moves"]),
            first=str(data["first"]),
            push_reach=int(data["push_reach"]),
            stall_moves=int(data.get("stall_moves", 1000)),
        )
