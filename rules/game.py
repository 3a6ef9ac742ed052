"""The interface every game's rules core implements, in the spirit of OpenSpiel's game API
and boardgame.io's game object.

A *game* object is stateless: it knows the rules and works on immutable *states*. The
numbers a designer may change live in the game's ``Ruleset`` (plain frozen dataclasses,
built from the YAML definitions by :mod:`cards.ruleset`), which a state carries with it.

* ``new_game(ruleset, players, seed)`` deals a start position;
* ``legal_actions(state)`` lists what the player to move may do, ``apply(state, action)``
  returns the next state (the action must be legal), ``check(state, action)`` says why an
  action is not legal (:class:`IllegalAction`, one sentence);
* ``current_player``, ``is_over``, ``scores`` and ``result`` read a state;
* ``view_for(state, seat)`` is what one seat may see: never another hand or the order of
  the deck (a game without ``hidden_information`` shows a seat the whole state);
* ``min_players`` to ``max_players`` is the range of players the rules allow;
* ``action_text``/``parse_action`` convert between actions and the notation records use;
* ``encode``/``decode`` give a compact byte form of a state;
* ``describe(state)`` is the whole position in a few lines of text (the playthroughs pin
  it after every move, so a change in any rule shows up as a readable diff).

Everything here is standard library only; :mod:`rules` never imports a third-party
package, so simulators and servers can use it without the printing stack.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

MAX_SEED = 2**63 - 1  # seeds of deals and games: 0 to this

S = TypeVar("S")  # a state
A = TypeVar("A")  # an action
R = TypeVar("R")  # a ruleset


class IllegalAction(Exception):
    """An action the rules do not allow in this position; ``reason`` says why in one
    sentence, in the words the commands print."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NotationError(ValueError):
    """An action written in a way that cannot be read (not a question of the rules)."""


class SetupError(Exception):
    """The ruleset or the players asked for do not give a game (too few cards, zones that
    overlap, a player count the game is not for)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game (or the position reached) stands.

    ``winners`` are the seats that share the win (empty: a draw, or nobody has won yet);
    ``scores`` one number per seat in the game's own unit (Orbitus points, Satellites
    colonies controlled); ``reason`` one sentence saying how it was decided.
    """

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    reason: str


class Game(Protocol[S, A, R]):
    """One game's rules behind one interface (see the module docstring)."""

    name: str
    min_players: int  # the player range the rules allow (a ruleset may allow fewer counts)
    max_players: int
    hidden_information: bool  # whether a seat may see less than the whole state

    def new_game(self, ruleset: R, players: Sequence[str], seed: int) -> S: ...

    def players(self, state: S) -> tuple[str, ...]: ...

    def legal_actions(self, state: S) -> Sequence[A]: ...

    def apply(self, state: S, action: A) -> S: ...

    def check(self, state: S, action: A) -> A: ...

    def current_player(self, state: S) -> int: ...

    def is_over(self, state: S) -> bool: ...

    def scores(self, state: S) -> tuple[int, ...]: ...

    def result(self, state: S) -> Outcome: ...

    def view_for(self, state: S, seat: int) -> Any: ...

    def action_text(self, state: S, action: A) -> str: ...

    def parse_action(self, state: S, text: str) -> A: ...

    def encode(self, state: S) -> bytes: ...

    def decode(self, ruleset: R, data: bytes) -> S: ...

    def describe(self, state: S) -> str: ...
