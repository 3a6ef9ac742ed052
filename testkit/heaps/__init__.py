"""*Heaps*, a third game of a few dozen lines, plugged in at run time: the proof that a game
needs its own modules and one registration, and nothing else.

Stones lie in a row of heaps dealt from the seed; the players take turns, each taking one
to ``take`` stones from one heap; whoever takes the last stone wins. Two to four players,
no hidden information. Its modules are one per layer, as a real game's would be:

========================  =======================================================
:mod:`.game`              the rules core: ruleset, state, legal moves, the
                          notation (``2-3``: three stones from heap 2), the score
:mod:`.cards`             its definitions: ``<folder>/heaps/rules.yaml`` (optional)
:mod:`.setup`             ``pnp setup heaps --seed N [--players K]``
:mod:`.replay`            ``pnp replay`` of a Heaps record
:mod:`.sim`               the simulator's adapter (random, greedy and mcts bots)
:mod:`.play`              playing it in the browser companion (``/api/games``)
========================  =======================================================

:func:`register` puts it in the registry of games (:func:`rules.register`), naming where
each adapter is; :func:`unregister` takes it out again. Nothing outside this package and
the registry knows it.
"""

from __future__ import annotations

import rules

NAME = "heaps"
ADAPTERS = {
    "cards": "testkit.heaps.cards",
    "records.setup": "testkit.heaps.setup",
    "records.replay": "testkit.heaps.replay",
    "sim": "testkit.heaps.sim",
    "web.play": "testkit.heaps.play",
}


def register() -> rules.Entry:
    """Register Heaps with its adapters (again, if it is registered already)."""
    return rules.register(NAME, "testkit.heaps.game", ADAPTERS, replace=True)


def unregister() -> None:
    rules.unregister(NAME)
