"""The rules of both games, each written once, behind one :class:`~rules.game.Game` interface;
and the one registry of games.

``rules.get("orbitus")`` and ``rules.get("satellites")`` return the game objects;
``rules.names()`` lists the games in a stable order. Everything that needs a game's rules
(scorers, engines, records, printables, simulator, browser) finds them here.

A game is registered once (:func:`register`, as OpenSpiel registers a game's module and
boardgame.io takes a game object): its name, the module whose ``GAME`` is its game object,
and its *adapters*, one module per layer of the code that has something of that game to
do (:data:`LAYERS`: its definitions files, printables, photo reader, scorer, records,
simulator, browser pages). An adapter lives at the module the layer's convention names
(``sim.<game>``, ``records.<game>_replay``, ...) unless the registration names another
path; a layer the registration leaves out is one the game has nothing for (a game without
a photo reader, say). Code of a layer finds a game's adapter with :func:`adapter` and the
games it serves with ``names(layer)``, so no code branches on a game's name and a game
registered at run time, with adapter modules of its own, works everywhere.

This package imports only the standard library (a test checks it); :func:`adapter` imports
the module a layer asks for, by its path, when that layer asks.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from rules.game import Game, IllegalAction, NotationError, Outcome, SetupError

# layer -> where a game's adapter of that layer is by convention, and what it offers
LAYERS: dict[str, str] = {
    "cards": "cards.{game}",  # FILES, OPTIONAL, PARTS, RULESET, load(folder, deck_file)
    "products": "generator.products.{game}",  # TITLE, load, steps, components, tts_files
    "photo": "photo.{game}",  # READER, marker_map(defs), markers_missing(mmap), map_mismatch
    "scorer": "scorer.{game}.cli",  # run(args, prog), build_parser(prog)
    "records.setup": "records.{game}_setup",  # run(args, prog), build_parser(prog)
    "records.replay": "records.{game}_replay",  # FIELDS, replay(record, cards, until)
    "sim": "sim.{game}",  # SIM, the simulator's adapter object
    "web.play": "web.play_{game}",  # a game played in the browser (see web.games)
    "web.table": "web.{game}_table",  # a finished table transcribed (see web.tables)
}


class NoAdapter(LookupError):
    """A game that has nothing for a layer (or no such game); the message says which."""


@dataclass(frozen=True)
class Entry:
    """One registered game: its name, its game object's module, its adapters by layer."""

    name: str
    module: str  # the module whose ``GAME`` is the game object
    adapters: Mapping[str, str]  # layer -> module path

    def path(self, layer: str) -> str | None:
        return self.adapters.get(layer)


_REGISTRY: dict[str, Entry] = {}


def _conventional(name: str, layers: tuple[str, ...] | Mapping[str, str | None]) -> dict[str, str]:
    """The adapters of ``layers``: a layer named alone is at its conventional place, one
    given with a path there (a path of None: by convention)."""
    given = layers if isinstance(layers, Mapping) else dict.fromkeys(layers)
    out: dict[str, str] = {}
    for layer, path in given.items():
        if layer not in LAYERS:
            raise ValueError(f"{layer!r} is not a layer (the layers: {', '.join(LAYERS)})")
        out[layer] = path or LAYERS[layer].format(game=name)
    return out


def register(name: str, module: str,
             adapters: tuple[str, ...] | Mapping[str, str | None] = (),
             replace: bool = False) -> Entry:
    """Register the game ``name``: ``module``'s ``GAME`` is its game object; ``adapters``
    its adapters by layer, each at the path given or, given as a layer's name alone (or
    with None), at the layer's conventional place. A name already registered is refused
    unless ``replace``. Nothing is imported until a layer asks."""
    if not name or not name.isidentifier() or name != name.lower():
        raise ValueError(f"{name!r} is not a game name (lower-case letters, digits and _)")
    if name in _REGISTRY and not replace:
        raise ValueError(f"{name!r} is registered already")
    entry = Entry(name, module, _conventional(name, adapters))
    _REGISTRY[name] = entry
    return entry


def unregister(name: str) -> None:
    """Forget the game ``name`` (a game registered for a while, by a test)."""
    _REGISTRY.pop(name, None)


def entry(name: str) -> Entry:
    """The registration of ``name``; :class:`NoAdapter` (a ``LookupError``) with the known
    names if there is none."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise NoAdapter(f"{name!r} is not a game (known: {', '.join(_REGISTRY)})") from None


def names(layer: str | None = None) -> tuple[str, ...]:
    """Every game there is, in a stable order (the order they were registered); with
    ``layer``, the games that have an adapter of that layer."""
    if layer is not None and layer not in LAYERS:
        raise ValueError(f"{layer!r} is not a layer (the layers: {', '.join(LAYERS)})")
    return tuple(n for n, e in _REGISTRY.items() if layer is None or layer in e.adapters)


def listed(games: tuple[str, ...], word: str = "and") -> str:
    """Game names as a sentence lists them: ``orbitus and satellites``, ``a, b or c``."""
    if len(games) <= 1:
        return "".join(games)
    return f"{', '.join(games[:-1])} {word} {games[-1]}"


def get(name: str) -> Game[Any, Any, Any]:
    """The game object of ``name``; ``KeyError`` with the known names if there is none."""
    try:
        module = _REGISTRY[name].module
    except KeyError:
        raise KeyError(f"{name!r} is not a game (known: {', '.join(_REGISTRY)})") from None
    game: Game[Any, Any, Any] = importlib.import_module(module).GAME
    return game


def adapter_path(name: str, layer: str) -> str:
    """The module path of ``name``'s adapter of ``layer``; :class:`NoAdapter` when the game
    has none (or is not a game)."""
    path = entry(name).path(layer)
    if path is None:
        if layer not in LAYERS:
            raise ValueError(f"{layer!r} is not a layer (the layers: {', '.join(LAYERS)})")
        raise NoAdapter(f"{name} has no {layer} adapter (the games that have one: "
                        f"{', '.join(names(layer)) or 'none'})")
    return path


def adapter(name: str, layer: str) -> ModuleType:
    """``name``'s adapter module of ``layer``, imported on first use; :class:`NoAdapter`
    when the game has none (an adapter that is registered but cannot be imported raises
    the ``ImportError``: that is a broken installation, not a missing adapter)."""
    return importlib.import_module(adapter_path(name, layer))


register("orbitus", "rules.orbitus", tuple(LAYERS))
register("satellites", "rules.satellites",
         {**dict.fromkeys(LAYERS), "web.table": "web.satellites_board"})

__all__ = ["LAYERS", "Entry", "Game", "IllegalAction", "NoAdapter", "NotationError",
           "Outcome", "SetupError", "adapter", "adapter_path", "entry", "get", "listed",
           "names", "register", "unregister"]
