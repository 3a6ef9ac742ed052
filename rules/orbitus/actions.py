"""The four Orbitus actions (O-31 to O-46): place a sector, remove one, discard, pass."""

from __future__ import annotations

from typing import NamedTuple

from rules.hexgeo import Hex
from rules.orbitus.table import STATION

PLACE, REMOVE, DISCARD, PASS = 0, 1, 2, 3
KIND_NAMES = ("place", "remove", "discard", "pass")


class Action(NamedTuple):
    """One action: ``kind`` (PLACE, REMOVE, DISCARD, PASS), the card, the cell, the rotation."""

    kind: int
    card: str = ""
    cell: Hex = STATION
    rot: int = 0


PASS_ACTION = Action(PASS)
