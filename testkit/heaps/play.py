"""Heaps in the browser companion's play mode (the game's ``web.play`` adapter, the
functions :mod:`web.adapters` lists). Nothing is hidden: every page gets the whole state."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from testkit.heaps.game import GAME, Action, Ruleset, State

if TYPE_CHECKING:
    from web.adapters import Desk

game = GAME
HIDES = False


def seats_ok(ruleset: Ruleset, count: int) -> str | None:
    if GAME.min_players <= count <= GAME.max_players:
        return None
    return f"Heaps is played by {GAME.min_players} to {GAME.max_players} players, not {count}"


def new(ruleset: Ruleset, names: list[str], seed: int) -> State:
    return GAME.new_game(ruleset, names, seed)


def action_data(action: Action) -> list[int]:
    return list(action)


def action_from(data: list[int]) -> Action:
    heap, stones = data
    return int(heap), int(stones)


def public(state: State) -> dict[str, Any]:
    outcome = GAME.result(state)
    return {"heaps": list(state.heaps), "taken": list(state.taken), "over": state.over,
            "to_move": GAME.current_player(state), "message": outcome.reason}


def private(state: State, seat: int) -> dict[str, Any]:
    return {}


def legal(state: State) -> dict[str, Any]:
    """``moves``: every legal move as written (``2-3``)."""
    return {"moves": [GAME.action_text(state, a) for a in GAME.legal_actions(state)]}


def parse(state: State, seat: int, text: str) -> Action:
    return GAME.parse_action(state, text)


def reveals(before: State, after: State) -> bool:
    """Nothing is hidden in Heaps."""
    return False


def text(state: State, action: Action) -> str:
    return GAME.action_text(state, action)


def record(start: State, actions: list[Action], seed: int, note: str) -> str:
    """The record ``pnp replay`` replays to the same end."""
    from cards.safe_text import split_lines
    from cards.yaml_out import comment, flow

    out = [f"# {comment(line)}".rstrip() for line in split_lines(note)] if note else []
    out += ["game: heaps", f"players: {flow(list(start.players))}", f"seed: {seed}", "moves:"]
    state = start
    for action in actions:
        out.append(f"  - {GAME.action_text(state, action)}")
        state = GAME.apply(state, action)
    return "\n".join(out) + "\n"


def full(state: State) -> dict[str, Any]:
    return public(state)


def page_extras(desk: Desk, view: dict[str, Any]) -> dict[str, Any]:
    return {}
