"""A game's two adapters in the browser companion, found through the registry of games.

**Play** (``web.play`` layer, by convention ``web.play_<game>``: :mod:`web.play_orbitus`,
:mod:`web.play_satellites`): a game played in the browser. The module offers

* ``game``: the rules core's game object;
* ``HIDES``: whether a seat holds something the others do not see (hands, the deck's
  order); a game without it is taken to hide something (a chosen seed is then told to
  every seat);
* ``seats_ok(ruleset, count)``: why ``count`` players cannot play, or None;
* ``new(ruleset, names, seed)``: the start state;
* ``action_data(action)`` / ``action_from(data)``: an action as JSON data and back (the
  store keeps them);
* ``public(state)``: what every page may see (no hand), ``private(state, seat)``: what only
  that seat may see, ``full(state)``: everything (the replay of a finished game);
* ``legal(state)``: the legal actions of the player to move, grouped for the page;
* ``parse(state, seat, text)``: the legal action ``seat`` wrote (``NotationError``,
  ``IllegalAction`` with the rules core's sentence);
* ``text(state, action)``: an action in the records' notation;
* ``reveals(before, after)``: whether something hidden came to light between two states
  (a card drawn): a move is never taken back across it;
* ``record(start, actions, seed, note)``: the game record ``pnp replay`` replays;
* ``page_extras(desk, view)``: what a page of the game needs besides the view (Orbitus:
  the station drawn), an empty dict when nothing.
* ``prepare(ruleset)`` (optional): work out at once, when the server starts, what the rules
  core would otherwise work out as the first moves come (Orbitus: its table of fitting
  turns).

**Table** (``web.table`` layer, by convention ``web.<game>_table``: :mod:`web.orbitus_table`,
:mod:`web.satellites_board`): a finished table transcribed on its page and scored as
``pnp score`` scores it. The module offers

* ``PAGE``: its page in ``web/static/``; ``SOURCE``: the file name its table has when the
  page gives none (``table.yaml``); ``KEY``: the key of the page's table in a request;
* ``page_pieces(desk)``: the pieces the page draws with;
* ``page_score(desk, model, source)``: the page's table scored;
* ``page_import(desk, text, source)``: a file read as the page's table;
* ``photo_keep(raw)``: what of the page's own table a photo does not show and the reading
  keeps (the ``table`` query parameter, JSON), ``page_photo(desk, reading, keep, source)``:
  a photo's reading as the page's table, with ``read``, ``unread``, ``findings``, ``how``;
* ``page_export(desk, kind, model, stem)``: the table as a download, ``(data, file name)``,
  or None for a kind it does not make;
* ``check_text(desk, text)``: refuses (422) a saved text ``pnp score`` would not read.

Each adapter is handed a :class:`Desk`: the game's ruleset, its definitions (loaded on
first use) and a cache of what it drew.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import rules
from web.errors import WebError


@dataclass
class Desk:
    """What the server hands a game's adapters: the ruleset, the definitions (the drawing
    code needs their pydantic models: loaded on first use) and drawings made once."""

    game: str
    ruleset: Any
    load: Callable[[], Any]  # the validated definitions
    drawings: dict[Any, Any] = field(default_factory=dict)
    design: dict[str, Any] | None = None  # the definitions' design (cards.design), as JSON
    _defs: Any = None

    @property
    def defs(self) -> Any:
        if self._defs is None:
            self._defs = self.load()
        return self._defs

    def drawn(self, key: Any, draw: Callable[[], Any]) -> Any:
        """``draw()``, made once per ``key`` and kept."""
        if key not in self.drawings:
            self.drawings[key] = draw()
        return self.drawings[key]


def check_design(where: str, named: object, design: dict[str, Any] | None) -> None:
    """Refuse (422) a table or board that names a design (``design:`` at ``where``) other
    than the server's: scored with these definitions it would be another game's score."""
    from cards.design_check import refused_by

    folder = (design or {}).get("cards")
    problem = refused_by(
        where, named, design,
        f"pnp web's definitions ({f'the folder {folder}/' if folder else 'the shipped cards/'})",
        "start pnp web with --cards DIR: the definitions of {made}; or, to score it with "
        "these on purpose, remove the design line")
    if problem is not None:
        raise WebError(422, problem)


def play_adapter(game: str) -> ModuleType:
    """The play adapter of ``game``; 422 for a game that cannot be played here."""
    if game not in rules.names("web.play"):
        raise WebError(422, f"{game!r} is not a game; choose "
                            f"{rules.listed(rules.names('web.play'), 'or')}")
    return rules.adapter(game, "web.play")


def table_adapter(game: str) -> ModuleType:
    """The table adapter of ``game``; 404 for a game whose tables are not transcribed here."""
    if game not in rules.names("web.table"):
        raise WebError(404, f"{game!r} is not a game; the games are "
                            f"{rules.listed(rules.names('web.table'))}")
    return rules.adapter(game, "web.table")


def web_games() -> tuple[str, ...]:
    """Every game the server has something for (played or transcribed), in the registry's
    order."""
    return tuple(g for g in rules.names()
                 if g in rules.names("web.play") or g in rules.names("web.table"))
