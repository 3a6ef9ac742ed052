"""Satellites in the simulator: the deal, the greedy evaluation and the statistics of a
finished game (colonies, crowns, how the winner was decided, how the game ended).

Satellites has no hidden information: a seat's view is the whole state, so the search
needs no determinisation. Seats: 0 is red, 1 is blue.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from rules.satellites.engine import State, connects, end_reason, random_action, standing_of
from rules.satellites.notation import PASS, parts

from rules.satellites import GAME
from rules.satellites.ruleset import COLOURS, Ruleset

KINDS = ("normal", "connection", "displacement", "pass")


class SatellitesSim:
    """The simulator's adapter of Satellites."""

    name = "satellites"
    game = GAME
    kinds = KINDS
    hidden_information = False
    reward_scale = 1.0  # a colony of margin makes a position clearly better

    def player_counts(self, ruleset: Ruleset) -> tuple[int, ...]:
        return (2,)

    def new_game(self, ruleset: Ruleset, players: int, seed: int) -> State:
        return GAME.new_game(ruleset, ("Red", "Blue"), seed)

    def first_seat(self, ruleset: Ruleset) -> int:
        return COLOURS.index(ruleset.first)

    def public(self, state: State) -> None:
        return None  # everything is on the board

    def legal(self, state: State) -> Sequence[int]:
        """The legal actions a bot is offered, listed only when a bot reads them (the
        random bot draws its move without the list)."""
        return Lazy(state)

    def random_action(self, turn: Any, rng: random.Random) -> int:
        """A legal move, each equally likely (:data:`PASS` when there is none), drawn by
        the rules core without listing them all."""
        return random_action(turn.view, rng)

    def kind(self, state: State, action: int) -> int:
        if action == PASS:
            return 3
        if parts(action)[2] >= 0:
            return 2
        return 1 if connects(state, action) else 0

    def components(self, ruleset: Ruleset) -> dict[str, str]:
        return {"colonies": "colonies controlled", "crowns": "crowned colonies",
                "connected": "satellites connected"}

    def tally(self) -> dict[str, Any]:
        return {}

    def count(self, tally: dict[str, Any], state: State, action: int) -> None:
        return None

    # --- search ----------------------------------------------------------------------------

    def determinise(self, public: None, view: State, rng: random.Random) -> State:
        return view  # perfect information

    def values(self, state: State) -> tuple[int, ...]:
        return GAME.scores(state)

    def score_changes(self, public: None, view: State, legal: Sequence[int],
                      state: State | None = None) -> list[tuple[int, int]]:
        """``(change of my colonies, action)``: only a move that connects can change
        a colony (a normal move lands where it touches no opponent), so only those are
        played out and scored."""
        seat = view.to_move
        now: int | None = None
        out = []
        for action in legal:
            if action == PASS or (parts(action)[2] < 0 and not connects(view, action)):
                out.append((0, action))
                continue
            if now is None:
                now = GAME.scores(view)[seat]
            out.append((GAME.scores(GAME.apply(view, action))[seat] - now, action))
        return out

    # --- statistics ------------------------------------------------------------------------

    def record(self, state: State, tally: dict[str, Any], cut_short: bool) -> dict[str, Any]:
        found = standing_of(state)
        from rules.satellites.analysis import groups

        crowns = dict.fromkeys(COLOURS, 0)
        for group in groups(state.table, state.red, state.blue, state.vals, state.ruleset,
                            state.conn):
            if group.colony and group.crowned and group.controller in crowns:
                crowns[group.controller] += 1
        seats = []
        for seat, colour in enumerate(COLOURS):
            own = state.red if seat == 0 else state.blue
            seats.append({"colonies": found.colonies[colour], "crowns": crowns[colour],
                          "connected": (state.conn & own).bit_count()})
        decided = "draw" if found.winner is None else (
            "tie-break" if found.tiebreak else "more colonies")
        end = "turn-limit" if cut_short else (end_reason(state) or "unfinished")
        return {"end": end, "seats": seats, "facts": {"decided_by": decided}}


class Lazy(Sequence[int]):
    """``GAME.legal_actions(state)``, worked out on first use."""

    __slots__ = ("_state", "_list")

    def __init__(self, state: State) -> None:
        self._state: State | None = state
        self._list: list[int] | None = None

    def _actions(self) -> list[int]:
        if self._list is None:
            assert self._state is not None
            self._list = GAME.legal_actions(self._state)
            self._state = None
        return self._list

    def __len__(self) -> int:
        return len(self._actions())

    def __getitem__(self, k: Any) -> Any:
        return self._actions()[k]

    def __iter__(self) -> Iterator[int]:
        return iter(self._actions())

    def __contains__(self, action: object) -> bool:
        return action in self._actions()


SIM = SatellitesSim()
__all__ = ["SIM", "SatellitesSim"]
