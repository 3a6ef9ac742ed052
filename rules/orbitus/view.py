"""What one Orbitus seat may know of a game (boardgame.io's ``playerView``): the table, its
own hand, how many cards the others hold and the deck has left, the cards out of the game
(discards and removals are played in the open), and whose turn it is. Never the order of
the deck or another player's hand.

:func:`sample_state` deals the unseen cards at random into a full state consistent with a
view (a *determinisation*, for bots that search).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from rules.hexgeo import Hex
from rules.orbitus.engine import Placed, Seating, State


@dataclass(frozen=True)
class View:
    """One seat's view of a state."""

    seat: int
    players: tuple[str, ...]
    start_lines: dict[int, int]
    barriers: frozenset[int]
    board: dict[Hex, Placed]
    hand: tuple[str, ...]  # this seat's own cards
    hand_sizes: tuple[int, ...]  # every seat's number of cards
    limits: tuple[int, ...]
    deck_left: int
    deck_size: int
    out: tuple[str, ...]
    to_move: int
    passed: tuple[bool, ...]
    quiet: int
    turn: int
    end: str | None

    def to_json(self) -> dict[str, Any]:
        """A plain-data form (for the browser companion and tests)."""
        return {
            "seat": self.seat,
            "players": list(self.players),
            "start_lines": {str(k): v for k, v in sorted(self.start_lines.items())},
            "barriers": sorted(self.barriers),
            "board": [[q, r, p.card, p.rot] for (q, r), p in self.board.items()],
            "hand": list(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "limits": list(self.limits),
            "deck_left": self.deck_left,
            "out": list(self.out),
            "to_move": self.to_move,
            "passed": list(self.passed),
            "turn": self.turn,
            "end": self.end,
        }


def view_for(state: State, seat: int) -> View:
    """What ``seat`` may see of ``state``."""
    game = state.game
    return View(
        seat=seat,
        players=game.players,
        start_lines=dict(game.start_lines),
        barriers=game.barriers,
        board=dict(state.board),
        hand=state.hands[seat],
        hand_sizes=tuple(len(h) for h in state.hands),
        limits=state.limits,
        deck_left=state.deck_left,
        deck_size=len(state.deck),
        out=state.out,
        to_move=state.to_move,
        passed=state.passed,
        quiet=state.quiet,
        turn=state.turn,
        end=state.end,
    )


def unseen(view: View, game: Seating) -> list[str]:
    """The cards ``view.seat`` cannot see (other hands and the deck), as a sorted list."""
    left = Counter(game.full_deck())
    left.subtract(p.card for p in view.board.values())
    left.subtract(view.hand)
    left.subtract(view.out)
    return sorted(left.elements())


def sample_state(view: View, game: Seating, rng: random.Random) -> State:
    """A full state consistent with ``view``: the unseen cards shuffled into the other
    hands (as many as each holds) and the deck."""
    pool = unseen(view, game)
    rng.shuffle(pool)
    hands: list[tuple[str, ...]] = []
    k = 0
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.seat:
            hands.append(view.hand)
        else:
            hands.append(tuple(pool[k:k + size]))
            k += size
    rest = tuple(pool[k:])
    drawn = view.deck_size - view.deck_left
    deck = ("?",) * drawn + rest  # the cards already drawn are never read again
    return State(game, dict(view.board), deck, drawn, tuple(hands), view.limits, view.to_move,
                 view.passed, view.quiet, view.end, view.turn, (), view.out)
