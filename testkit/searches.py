"""Searches for random games that reach a given moment of the rules, for tests and tools
that need such a position without writing it by hand."""

from __future__ import annotations

import random


def random_game_to_grace(tries: int) -> tuple[int, list[str]] | None:
    """The first seed (below ``tries``) whose random Satellites game reaches the grace moves
    (a player has all satellites connected, the game not yet over), with the moves that get
    there in notation; None if none does. The browser tests and tools/make_web_images.py use it."""
    from cards.ruleset_cache import load_ruleset
    from rules.satellites import GAME

    ruleset = load_ruleset("satellites")
    for seed in range(tries):
        state = GAME.new_game(ruleset, ("A", "B"), seed)
        rng = random.Random(seed)
        moves = []
        while not GAME.is_over(state) and state.finished is None:
            legal = GAME.legal_actions(state)
            move = legal[rng.randrange(len(legal))]
            moves.append(GAME.action_text(state, move))
            state = GAME.apply(state, move)
        if state.finished is not None and not GAME.is_over(state):
            return seed, moves
    return None
