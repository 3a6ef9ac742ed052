"""Satellites: the rules core behind :data:`GAME` (``rules.get("satellites")``).

Modules, the same in every game's package: :mod:`.ruleset` (the numbers a designer may
change), :mod:`.table` (the board, cell names, setup zones), :mod:`.analysis`
(connections, groups, colonies, control, crowns, the end: the one implementation),
:mod:`.score` (the scorer's breakdown and the winning criteria), :mod:`.actions` (a move
is an int), :mod:`.engine` (states, the deal, applying a move, the end), :mod:`.legal`
(the legal moves), :mod:`.why` (why a move is illegal), :mod:`.notation` (``c1-c4``,
``d5-d6>d8``, ``pass``) and :mod:`.game` (the game object).

The game object and the engine are imported on first use, so that the scorer, which needs
only the analysis, starts without them.
"""

from __future__ import annotations

from typing import Any

from rules.satellites.actions import PASS


def __getattr__(name: str) -> Any:
    if name in ("GAME", "Satellites"):
        from rules.satellites import game

        return getattr(game, name)
    raise AttributeError(f"module 'rules.satellites' has no attribute {name!r}")


__all__ = ["GAME", "PASS", "Satellites"]
