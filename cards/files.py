"""Which files make a game's definitions, and where they are (standard library only, so
the fast paths can find the files without importing the models).

Each game's own list is its ``cards`` adapter's ``FILES`` (:mod:`cards.orbitus`,
:mod:`cards.satellites`, or the module a game registered at run time names:
:func:`rules.adapter`); the shipped games' lists are written here, where the loader's
messages read them too.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import rules

DEFAULT_CARDS = Path(__file__).resolve().parent

ORBITUS_FILES: dict[str, str] = {
    "planets": "the Orbitus planet types",
    "sectors": "the Orbitus sector deck",
    "station": "the Orbitus station",
    "rules": "the Orbitus hand sizes, start lines and scoring tables",
}
SATELLITES_FILES: dict[str, str] = {
    "board": "the Satellites board",
    "satellites": "the Satellites satellite tokens",
    "trackers": "the Satellites trackers",
    "rules": "the Satellites rule numbers",
}


def definitions_of(game: str) -> ModuleType:
    """The ``cards`` adapter of ``game``: ``FILES`` (role -> what it holds), ``OPTIONAL``
    (the roles that may be missing), ``PARTS`` (ruleset attribute -> roles), ``RULESET``
    (the rules core's ruleset class), ``load(folder, deck_file)`` (the validated
    definitions, with ``.ruleset``) and ``labels()`` (the model of its printed words, for a
    game with printables); :class:`rules.NoAdapter` for a game without definitions."""
    return rules.adapter(game, "cards")


def game_files(game: str, folder: Path | None = None,
               deck_file: Path | None = None) -> dict[str, Path]:
    """Every definition file of ``game``, role -> path, in ``folder`` (default: shipped).

    ``deck_file`` (Orbitus) is a deck that a layout or a record names: it replaces the
    folder's ``sectors.yaml``, and each other file that lies beside it (``planets.yaml``,
    ``rules.yaml``, ...) replaces the folder's too, so a deck kept in its own definitions
    folder brings that folder's planet types and rules with it.
    """
    root = (folder or DEFAULT_CARDS).resolve()
    files = {role: root / game / f"{role}.yaml" for role in definitions_of(game).FILES}
    if deck_file is not None:
        files["sectors"] = deck_file
        beside = deck_file.parent
        for role in files:
            if role != "sectors" and (beside / f"{role}.yaml").is_file():
                files[role] = beside / f"{role}.yaml"
    return files


def shown_deck(path: Path) -> str:
    """A deck file as messages name it: the shipped deck by its place in the project."""
    from cards.loader import display_path

    if path.resolve() == (DEFAULT_CARDS / "orbitus" / "sectors.yaml").resolve():
        return "cards/orbitus/sectors.yaml"
    return display_path(path)
