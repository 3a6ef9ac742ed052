"""Satellites positions written as text, for the bots' tests: a board of 10 x 10 cells,
each '.', or a colour (R red, B blue) and a size (``R3``), row by row."""

from __future__ import annotations

from typing import Any

import rules
from sim.bots import Turn
from sim.satellites import SIM as SATELLITES


def bot_turn(state: Any) -> Turn:
    """The turn a bot is given in that position: its own view and the legal moves."""
    return Turn(state.to_move, rules.get("satellites").view_for(state, state.to_move),
                SATELLITES.legal(state), None, SATELLITES)
