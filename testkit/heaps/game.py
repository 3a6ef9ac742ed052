"""Heaps: the rules core behind :data:`GAME` (standard library only, like :mod:`rules`).

The rules, numbered as a rules page would number them:

* H-1 The deal: ``heaps`` heaps, each of 1 to ``most`` stones, drawn from the seed.
* H-2 The players move in seat order, the first seat first.
* H-3 A move takes 1 to ``take`` stones from one heap (never more than it holds).
* H-4 The game ends when no stone is left; whoever took the last stone wins.
* H-5 A player's score is the stones they took (the simulator's statistics read it).

Notation: ``H-N`` takes ``N`` stones from heap ``H`` (heaps are numbered from 1), e.g.
``2-3``.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from rules.game import IllegalAction, NotationError, Outcome, SetupError

Action = tuple[int, int]  # (heap, stones): the heap counted from 0
_MOVE = re.compile(r"^\s*(\d{1,3})\s*-\s*(\d{1,3})\s*$")


@dataclass(frozen=True)
class Ruleset:
    """What a designer may change (``heaps/rules.yaml``)."""

    GAME: ClassVar[str] = "heaps"
    heaps: int = 3  # heaps dealt (H-1)
    most: int = 7  # stones in a heap at most (H-1)
    take: int = 3  # stones a move takes at most (H-3)

    def to_data(self) -> dict[str, Any]:
        return {"heaps": self.heaps, "most": self.most, "take": self.take}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Ruleset:
        return cls(int(data["heaps"]), int(data["most"]), int(data["take"]))


@dataclass(frozen=True)
class State:
    """A position: the heaps, who moves, what each seat took, who took the last stone."""

    ruleset: Ruleset
    players: tuple[str, ...]
    heaps: tuple[int, ...]
    to_move: int = 0
    taken: tuple[int, ...] = ()
    last: int = -1  # the seat that took the last stone (H-4); -1 while stones are left

    @property
    def over(self) -> bool:
        return not any(self.heaps)


def parse_move(text: str) -> Action:
    """``H-N`` as an action; :class:`NotationError` if it is not written so."""
    m = _MOVE.match(text)
    if m is None:
        raise NotationError(f"{text.strip()!r} is not a move: write HEAP-STONES, e.g. 2-3 "
                            f"(three stones from heap 2)")
    return int(m.group(1)) - 1, int(m.group(2))


class Heaps:
    """The :class:`rules.game.Game` of Heaps."""

    name = "heaps"
    min_players = 2
    max_players = 4
    hidden_information = False

    def new_game(self, ruleset: Ruleset, players: Sequence[str], seed: int) -> State:
        """The deal of seed ``seed`` (H-1)."""
        if not self.min_players <= len(players) <= self.max_players:
            raise SetupError(f"Heaps is played by {self.min_players} to {self.max_players} "
                             f"players, not {len(players)}")
        if min(ruleset.heaps, ruleset.most, ruleset.take) < 1:
            raise SetupError("heaps, most and take must each be at least 1")
        rng = random.Random(seed)
        heaps = tuple(rng.randint(1, ruleset.most) for _ in range(ruleset.heaps))
        return State(ruleset, tuple(str(p) for p in players), heaps, 0, (0,) * len(players))

    def players(self, state: State) -> tuple[str, ...]:
        return state.players

    def legal_actions(self, state: State) -> Sequence[Action]:
        """Every move (H-3), heap by heap, fewest stones first; none once the game is over."""
        take = state.ruleset.take
        return [(h, n) for h, size in enumerate(state.heaps) for n in range(1, min(take, size) + 1)]

    def check(self, state: State, action: Action) -> Action:
        heap, stones = action
        if state.over:
            raise IllegalAction(f"the game is over ({self.result(state).reason})")
        if not 0 <= heap < len(state.heaps):
            raise IllegalAction(f"there is no heap {heap + 1} (the heaps are 1 to "
                                f"{len(state.heaps)})")
        if stones < 1:
            raise IllegalAction("a move takes at least one stone (rule H-3)")
        if stones > state.ruleset.take:
            raise IllegalAction(f"a move takes at most {state.ruleset.take} stones (rule H-3)")
        if stones > state.heaps[heap]:
            raise IllegalAction(f"heap {heap + 1} holds {state.heaps[heap]} stone(s), not "
                                f"{stones}")
        return action

    def apply(self, state: State, action: Action) -> State:
        heap, stones = self.check(state, action)
        heaps = list(state.heaps)
        heaps[heap] -= stones
        taken = list(state.taken)
        taken[state.to_move] += stones
        last = state.to_move if not any(heaps) else -1
        return replace(state, heaps=tuple(heaps), taken=tuple(taken), last=last,
                       to_move=(state.to_move + 1) % len(state.players))

    def current_player(self, state: State) -> int:
        return -1 if state.over else state.to_move

    def is_over(self, state: State) -> bool:
        return state.over

    def scores(self, state: State) -> tuple[int, ...]:
        return state.taken  # H-5

    def result(self, state: State) -> Outcome:
        if state.over:
            return Outcome((state.last,), state.taken,
                           f"{state.players[state.last]} took the last stone and wins")
        return Outcome((), state.taken, f"{sum(state.heaps)} stone(s) left, "
                                        f"{state.players[state.to_move]} to move")

    def view_for(self, state: State, seat: int) -> State:
        return state  # nothing is hidden

    def action_text(self, state: State, action: Action) -> str:
        return f"{action[0] + 1}-{action[1]}"

    def parse_action(self, state: State, text: str) -> Action:
        return self.check(state, parse_move(text))

    def encode(self, state: State) -> bytes:
        return json.dumps([list(state.players), list(state.heaps), state.to_move,
                           list(state.taken), state.last], separators=(",", ":")).encode()

    def decode(self, ruleset: Ruleset, data: bytes) -> State:
        players, heaps, to_move, taken, last = json.loads(data)
        return State(ruleset, tuple(players), tuple(heaps), to_move, tuple(taken), last)

    def describe(self, state: State) -> str:
        took = ", ".join(f"{p} {n}" for p, n in zip(state.players, state.taken, strict=True))
        return (f"heaps: {' '.join(map(str, state.heaps))}\ntaken: {took}\n"
                f"{self.result(state).reason}\n")


GAME = Heaps()
