"""Heaps in the simulator (the game's ``sim`` adapter): the deal, the greedy evaluation and
the statistics of a finished game. No hidden information: a seat's view is the state."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from testkit.heaps.game import GAME, Action, Ruleset, State

LAST_STONE = 100  # greedy's value of taking the last stone: the win (H-4)


class HeapsSim:
    name = "heaps"
    game = GAME
    kinds = ("take one", "take more")
    reward_scale = 3.0

    def player_counts(self, ruleset: Ruleset) -> tuple[int, ...]:
        return tuple(range(GAME.min_players, GAME.max_players + 1))

    def new_game(self, ruleset: Ruleset, players: int, seed: int) -> State:
        return GAME.new_game(ruleset, [f"P{k + 1}" for k in range(players)], seed)

    def first_seat(self, ruleset: Ruleset) -> int:
        return 0  # H-2

    def public(self, state: State) -> None:
        return None

    def decided(self, state: State) -> bool:
        return state.over

    def may_end(self, action: Action) -> bool:
        return False  # a move that ends the game is seen by ``decided``

    def legal(self, state: State) -> Sequence[Action]:
        return GAME.legal_actions(state)

    def random_action(self, turn: Any, rng: random.Random) -> Action:
        legal = turn.legal
        return legal[rng.randrange(len(legal))]

    def kind(self, state: State, action: Action) -> int:
        return 0 if action[1] == 1 else 1

    def components(self, ruleset: Ruleset) -> dict[str, str]:
        return {"stones": "stones taken"}

    def tally(self) -> dict[str, Any]:
        return {}

    def count(self, tally: dict[str, Any], state: State, action: Action) -> None:
        return None

    def values(self, state: State) -> tuple[int, ...]:
        return GAME.scores(state)

    def score_changes(self, public: None, view: State, legal: Sequence[Action],
                      state: State | None = None) -> list[tuple[int, Action]]:
        """``(stones taken, and the win if it is the last one, action)``."""
        left = sum(view.heaps)
        return [(n + (LAST_STONE if n == left else 0), (h, n)) for h, n in legal]

    def best_actions(self, public: None, view: State,
                     legal: Sequence[Action]) -> Sequence[Action]:
        changes = self.score_changes(public, view, legal)
        best = max(value for value, _ in changes)
        return [action for value, action in changes if value == best]

    def record(self, state: State, tally: dict[str, Any], cut_short: bool) -> dict[str, Any]:
        return {"end": "turn-limit" if cut_short else ("last-stone" if state.over
                                                       else "unfinished"),
                "seats": [{"stones": n} for n in state.taken], "facts": {}}


SIM = HeapsSim()
