"""The rules of both games, each written once, behind one :class:`~rules.game.Game` interface.

``rules.get("orbitus")`` and ``rules.get("satellites")`` return the game objects;
``rules.names()`` lists the games in a stable order. Everything that needs a game's rules
(scorers, engines, records, printables, simulator, browser) finds them here; adapters of
one game live in modules named after it (``generator.products.<game>``,
``records.<game>_replay``, ...), so nothing branches on the game's name.

This package imports only the standard library (a test checks it).
"""

from __future__ import annotations

import importlib
from typing import Any

from rules.game import Game, IllegalAction, NotationError, Outcome, SetupError

# game name -> the module whose ``GAME`` is the game object (imported on first use)
_REGISTRY: dict[str, str] = {
    "orbitus": "rules.orbitus",
    "satellites": "rules.satellites",
}


def names() -> tuple[str, ...]:
    """Every game there is, in a stable order."""
    return tuple(_REGISTRY)


def get(name: str) -> Game[Any, Any, Any]:
    """The game object of ``name``; ``KeyError`` with the known names if there is none."""
    try:
        module = _REGISTRY[name]
    except KeyError:
        raise KeyError(f"{name!r} is not a game (known: {', '.join(_REGISTRY)})") from None
    game: Game[Any, Any, Any] = importlib.import_module(module).GAME
    return game


__all__ = ["Game", "IllegalAction", "NotationError", "Outcome", "SetupError", "get", "names"]
