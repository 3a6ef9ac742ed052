"""Orbitus: the rules core behind :data:`GAME` (``rules.get("orbitus")``).

Modules, the same in every game's package: :mod:`.ruleset` (what a designer may change),
:mod:`.table` (what lies on the table), :mod:`.analysis` (matching, systems, neutral zones,
open routes, free cells, removals: the one implementation), :mod:`.blocks` (closed
blocks), :mod:`.score` (the breakdown), :mod:`.actions`, :mod:`.engine` (the seating, the
deal, turns, applying an action, the end), :mod:`.legal` (the legal actions), :mod:`.why`
(why an action is illegal), :mod:`.notation`, :mod:`.view` (what one seat may see) and
:mod:`.game` (the game object).

The game object and the engine are imported on first use, so that reading a ruleset (the
scorers do) does not load them.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name in ("GAME", "Orbitus"):
        from rules.orbitus import game

        return getattr(game, name)
    raise AttributeError(f"module 'rules.orbitus' has no attribute {name!r}")


__all__ = ["GAME", "Orbitus"]
