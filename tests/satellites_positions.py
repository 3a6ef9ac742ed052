"""Satellites positions written as text, for the bots' tests: a board of 10 x 10 cells,
each '.', or a colour (R red, B blue) and a size (``R3``), row by row."""

from __future__ import annotations

from typing import Any

import rules
from cards.ruleset_cache import load_ruleset
from sim.bots import Turn
from sim.satellites import SIM as SATELLITES


def position(text: str, to_move: int) -> Any:
    """The position the text draws, ``to_move`` (0 red, 1 blue) to move."""
    from rules.satellites.engine import start

    cells = [(1 if token[0] == "R" else -1) * int(token[1]) if token != "." else 0
             for token in text.split()]
    return start(load_ruleset("satellites"), 10, cells, to_move=to_move)


def bot_turn(state: Any) -> Turn:
    """The turn a bot is given in that position: its own view and the legal moves."""
    return Turn(state.to_move, rules.get("satellites").view_for(state, state.to_move),
                SATELLITES.legal(state), None, SATELLITES)
