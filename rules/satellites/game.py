"""Satellites behind the :class:`rules.game.Game` interface (``rules.get("satellites")``).

Seats: 0 is red, 1 is blue. Satellites is a game of perfect information: a seat sees the
whole state.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.game import Outcome, SetupError
from rules.satellites import engine
from rules.satellites.actions import PASS
from rules.satellites.engine import State
from rules.satellites.legal import legal_actions
from rules.satellites.notation import parse_move
from rules.satellites.ruleset import COLOURS, Ruleset
from rules.satellites.why import check, check_written


class Satellites:
    """The game object (stateless): every method reads or makes immutable states."""

    name = "satellites"
    min_players = 2
    max_players = 2
    hidden_information = False  # a seat sees the whole state

    def new_game(self, ruleset: Ruleset, players: Sequence[str] = ("Red", "Blue"),
                 seed: int = 0) -> State:
        """The deal of ``pnp-setup satellites --seed N`` (S-56); ``players``: red's name,
        then blue's."""
        if len(players) != 2:
            raise SetupError(f"Satellites is a game for 2 players, not {len(players)}")
        return engine.deal(ruleset, seed, (str(players[0]), str(players[1])))

    def players(self, state: State) -> tuple[str, ...]:
        return state.players

    def legal_actions(self, state: State) -> Sequence[int]:
        """Every legal move, sorted; ``[PASS]`` when the player to move has none (S-36);
        empty once the game is over."""
        legal = legal_actions(state)  # empty once the game is over (S-37 ...)
        if legal or engine.is_over(state):
            return legal
        return [PASS]

    def apply(self, state: State, action: int) -> State:
        return engine.apply(state, action)

    def check(self, state: State, action: int) -> int:
        return check(state, action)

    def current_player(self, state: State) -> int:
        return state.to_move

    def is_over(self, state: State) -> bool:
        return engine.is_over(state)

    def scores(self, state: State) -> tuple[int, ...]:
        """Colonies controlled, red then blue (S-46)."""
        found = engine.standing_of(state)
        return tuple(found.colonies[c] for c in COLOURS)

    def result(self, state: State) -> Outcome:
        """The winning seat once the game is over (none for a draw, or while it goes on);
        the scores; the decision in the scorer's words (S-46 to S-48)."""
        found = engine.standing_of(state)
        scores = tuple(found.colonies[c] for c in COLOURS)
        winners = ((COLOURS.index(found.winner),)
                   if found.winner is not None and engine.is_over(state) else ())
        return Outcome(winners, scores, found.decision)

    def view_for(self, state: State, seat: int) -> State:
        """Everything: Satellites has no hidden information."""
        return state

    def action_text(self, state: State, action: int) -> str:
        return engine.action_text(state, action)

    def parse_action(self, state: State, text: str) -> int:
        """The legal action ``text`` names here; :class:`~rules.game.NotationError` if it
        cannot be read, :class:`~rules.game.IllegalAction` if the rules forbid it."""
        return check_written(state, parse_move(text))

    def encode(self, state: State) -> bytes:
        return engine.encode(state)

    def decode(self, ruleset: Ruleset, data: bytes) -> State:
        return engine.decode(ruleset, data)

    def describe(self, state: State) -> str:
        """The board as a text grid, the connected satellites and the grace moves."""
        return engine.describe(state)


GAME = Satellites()
