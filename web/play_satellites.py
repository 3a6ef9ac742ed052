"""Satellites in the browser's play mode.

Satellites has no hidden information: every seat and spectator is sent the whole
position, with what the game's own digital board shows: the connected count towards the
end count, and once a player has every satellite connected the grace moves the other
still has (the ⚡ indicator). The seat to move also gets its legal moves: for each
satellite the cells it can reach, and for a displacement the cells the pushed satellite
may go to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.game import IllegalAction
from rules.satellites import GAME
from rules.satellites.actions import PASS, parts
from rules.satellites.engine import State, end_message, end_reason
from rules.satellites.ruleset import COLOURS, Ruleset
from rules.satellites.score import score_state
from scorer.satellites.report import breakdown_json

if TYPE_CHECKING:
    from web.adapters import Desk

NAME = "satellites"
game = GAME
HIDES = False  # everything is on the board


def seats_ok(ruleset: Ruleset, count: int) -> str | None:
    return None if count == 2 else f"Satellites is a game for 2 players, not {count}"


def new(ruleset: Ruleset, names: list[str], seed: int) -> State:
    return GAME.new_game(ruleset, names, seed)


def action_data(action: int) -> int:
    return action


def action_from(data: int) -> int:
    return int(data)


def public(state: State) -> dict[str, Any]:
    tb = state.table
    rules = state.ruleset
    result = score_state(state)  # from the state's own masks: no board to read again
    red = (state.conn & state.red).bit_count()
    blue = (state.conn & state.blue).bit_count()
    over = GAME.is_over(state)
    return {
        "size": tb.rows,
        "cells": list(state.cells),
        "names": list(tb.names),
        "connected_cells": [i for i in range(tb.rows * tb.cols) if state.conn >> i & 1],
        "players": list(state.players),
        "to_move": -1 if over else state.to_move,
        "colours": list(COLOURS),
        "connected": {"red": red, "blue": blue, "all": red + blue,
                      "end": rules.end_connected, "per_colour": rules.red.count},
        "grace": {"finished": None if state.finished is None else COLOURS[state.finished],
                  "player": None if state.finished is None else COLOURS[1 - state.finished],
                  "left": state.grace_left if state.finished is not None else None,
                  "moves": rules.grace_moves},
        "over": over,
        "end": end_reason(state),
        "message": end_message(state),
        "score": breakdown_json(tb, result),
        "links": [[list(a), list(b)] for a, b in result.links],
        "groups": [[list(c) for c in g.cells] for g in result.groups],
    }


def private(state: State, seat: int) -> dict[str, Any]:
    return {}


def legal(state: State) -> dict[str, Any]:
    """``moves``: from cell -> to cell -> the cells a displaced satellite may go to (empty
    for an ordinary move); ``pass``: whether passing is the only move."""
    names = state.table.names
    moves: dict[str, dict[str, list[str]]] = {}
    can_pass = False
    for code in GAME.legal_actions(state):
        if code == PASS:
            can_pass = True
            continue
        frm, to, push = parts(code)
        targets = moves.setdefault(names[frm], {})
        pushes = targets.setdefault(names[to], [])
        if push >= 0:
            pushes.append(names[push])
    return {"moves": moves, "pass": can_pass}


def parse(state: State, seat: int, text: str) -> int:
    return GAME.parse_action(state, text)


def reveals(before: State, after: State) -> bool:
    """Nothing is hidden in Satellites, so no move reveals anything."""
    return False


def text(state: State, action: int) -> str:
    return GAME.action_text(state, action)


def record(start: State, actions: list[int], seed: int, note: str) -> str:
    from records.satellites_replay import record_text

    return record_text(start, actions, seed, note)


def full(state: State) -> dict[str, Any]:
    return public(state)


def page_extras(desk: Desk, view: dict[str, Any]) -> dict[str, Any]:
    return {}  # the board is drawn from the view


__all__ = ["IllegalAction"]
