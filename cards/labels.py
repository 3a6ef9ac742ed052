"""The printed words of each game's kit outside its booklets, one file per language.

``cards/<game>/text/labels-<lang>.yaml`` holds every word the sheets, markers, tracks and
score pads print (the Orbitus file also the calibration sheet's), beside the same
language's rule booklet (``rules-<lang>.md``) and player aid: a language is a folder's
worth of files per game, and ``pnp-build --lang <lang>`` builds a whole kit in it.

Each file is read like every definition file (safe YAML, file:line messages): every text
is required, unknown ones are refused, and a ``{value}`` a text may not use is named with
the values it may. What is printed in a language a game has no file for is decided by
:func:`resolve` (English, with a note saying so).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from cards.files import DEFAULT_CARDS, definitions_of
from cards.text_files import KINDS as KINDS  # re-exported: the kit's texts are found there
from cards.text_files import LANGUAGE_NAMES as LANGUAGE_NAMES
from cards.text_files import Choice as Choice
from cards.text_files import labels_path as labels_path
from cards.text_files import languages as languages
from cards.text_files import resolve as resolve
from cards.text_files import text_folder as text_folder

_VALUE_RE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


class Texts(BaseModel):
    """A group of texts; ``VALUES`` names the ``{values}`` each text may use."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    VALUES: ClassVar[Mapping[str, tuple[str, ...]]] = {}

    @field_validator("*", mode="after")
    @classmethod
    def _values(cls, value: Any, info: ValidationInfo) -> Any:
        allowed = cls.VALUES.get(info.field_name or "", ())
        texts = value if isinstance(value, list) else [value]
        for text in texts:
            if not isinstance(text, str):
                continue
            for name in _VALUE_RE.findall(text):
                if name not in allowed:
                    known = ", ".join("{" + a + "}" for a in allowed) or "none"
                    raise ValueError(f"unknown value {{{name}}}; this text may use: {known}")
        return value


Line = str
Lines = list[str]


def fill(text: str, **values: object) -> str:
    """``text`` with each ``{name}`` replaced by ``values[name]``."""
    return _VALUE_RE.sub(lambda m: str(values.get(m.group(1), m.group(0))), text)


# --- Orbitus --------------------------------------------------------------------------------


class SectorSheetTexts(Texts):
    VALUES = {"note": ("n", "total"), "fold_note": ("n", "total")}
    note: Lines = Field(min_length=1, max_length=4,
                        description="the note on each front sheet, one line each: which "
                                    "sheet, print at 100 %, two-sided, flip on the long edge")
    fold_note: Lines | None = Field(None, min_length=1, max_length=4,
                                    description="the note on each sheet of --fold: which "
                                                "sheet, print one-sided, fold, glue, cut")
    fold_line: Line | None = Field(None, description="the label of the fold line")


class StationTexts(Texts):
    VALUES = {"start_marker": ("seat",), "table_row": ("players", "seats"),
              "table_barriers": ("sides",)}
    caption: Line
    start_marker: Line = Field(description="a start-line marker; {seat} is P1 ... P6")
    barrier_marker: Line
    table_title: Line
    table_row: Line
    table_barriers: Line
    table_note: Line


class OrbitusPadTexts(Texts):
    VALUES = {"pirates_rule": ("points",), "open_routes_rule": ("points",),
              "blocks": ("band",), "blocks_rule": ("points",)}
    title: Line
    subtitle: Line
    game_date: Line
    player: Line
    how: Line
    count: Line
    points: Line
    pirates: Line
    pirates_rule: Line
    open_routes: Line
    open_routes_rule: Line
    blocks: Line
    blocks_rule: Line
    total: Line
    total_rule: Line
    footer: Line


class CalibrationTexts(Texts):
    VALUES = {"offset_note": ("x", "y")}
    front_title: Line
    front_lines: Lines = Field(min_length=1, max_length=8)
    ruler: Line
    back_title: Line
    back_lines: Lines = Field(min_length=1, max_length=10)
    offset_note: Line


class OrbitusTtsTexts(Texts):
    """The names and tooltips of the Tabletop Simulator objects."""

    VALUES = {"deck_about": ("count",), "card_about": ("routes", "centre"),
              "planet": ("planet",), "station": ("name",), "start_marker": ("seat",)}
    deck: Line
    deck_about: Line
    card_about: Line = Field(description="a sector card's tooltip: {routes} its sides with "
                                         "a route, {centre} what its centre shows")
    routes_none: Line
    planet: Line
    pirate: Line
    void: Line
    station: Line
    station_about: Line
    start_marker: Line
    barrier: Line
    rules: Line
    aid: Line
    note: Lines = Field(min_length=1, max_length=12,
                        description="the table's notes (TTS's Notes tab), one line each")


class OrbitusLabels(Texts):
    """``cards/orbitus/text/labels-<lang>.yaml``."""

    directions: Lines | None = Field(None, min_length=6, max_length=6,
                                     description="the six sides N, NE, SE, S, SW, NW as "
                                                 "this language names them (tables, "
                                                 "station, markers)")
    sectors: SectorSheetTexts
    station: StationTexts
    pad: OrbitusPadTexts
    calibration: CalibrationTexts
    tts: OrbitusTtsTexts | None = None


# --- Satellites -----------------------------------------------------------------------------


class TokenTexts(Texts):
    VALUES = {"note_fit": ("scale",)}
    note: Line
    note_fit: Line


class BoardTexts(Texts):
    VALUES = {"fit": ("scale",), "page": ("n", "total", "pieces"), "piece": ("name", "cells"),
              "glue": ("name",)}
    fit: Line
    page: Line
    how: Line
    piece: Line
    trackers: Line
    glue: Line


class TrackTexts(Texts):
    VALUES = {"ends": ("count",), "grace": ("count",)}
    connected: Line
    ends: Line
    grace: Line
    end: Line


class SatellitesPadTexts(Texts):
    VALUES = {"ends": ("end", "grace", "count"), "colony": ("n",)}
    title: Line
    subtitle: Line
    reminder: Line
    ends: Line = Field(description="when the game ends, with the rule numbers: {end} connected "
                                   "satellites, {grace} grace moves, {count} satellites each")
    game_date: Line
    red: Line
    blue: Line
    player: Line
    colonies: Line
    colonies_rule: Line
    lowest: Line
    lowest_rule: Line
    winner: Line
    winner_rule: Line
    draw: Line
    colony: Line | None = Field(None, description="a colony's row: {n} its number")
    colony_value: Line | None = Field(None, description="the column of a colony's value "
                                                        "(every satellite in it)")


class SatellitesTtsTexts(Texts):
    """The names and tooltips of the Tabletop Simulator objects."""

    VALUES = {"board_about": ("size",), "red": ("value",), "blue": ("value",)}
    board: Line
    board_about: Line
    red: Line = Field(description="a red satellite; {value} its value")
    blue: Line
    connected_marker: Line
    grace_marker: Line
    rules: Line
    aid: Line
    note: Lines = Field(min_length=1, max_length=12,
                        description="the table's notes (TTS's Notes tab), one line each")


class SatellitesLabels(Texts):
    """``cards/satellites/text/labels-<lang>.yaml``."""

    tokens: TokenTexts
    board: BoardTexts
    tracks: TrackTexts
    pad: SatellitesPadTexts
    tts: SatellitesTtsTexts | None = None


# --- finding and reading them ---------------------------------------------------------------


def load_labels(cards: Path | None, game: str, lang: str) -> Any:
    """``game``'s labels in ``lang`` (English where that language has no file), validated
    against the model its ``cards`` adapter names (``labels()``); problems raise
    ``DefinitionError`` with file and line."""
    from cards.reading import inside

    path = labels_path(cards, game, lang)
    root = (cards or DEFAULT_CARDS) if path.is_relative_to(cards or DEFAULT_CARDS) \
        else DEFAULT_CARDS
    inside(root, path)  # a link may not lead out of the definitions folder
    words = _read(path, game, path.stat().st_mtime_ns if path.exists() else 0)
    # a labels file written before these texts existed: the shipped file's of its language
    # a labels file written before some texts existed: the shipped file's of its language
    return _completed(words, lambda: _shipped(game, path.name))


def _completed(words: Any, shipped: Callable[[], Any]) -> Any:
    """``words`` with every text it leaves out (None: an optional text, added after the
    file was written) taken from the shipped labels of its language."""
    update: dict[str, Any] = {}
    for name in type(words).model_fields:
        value = getattr(words, name)
        if value is None:
            update[name] = getattr(shipped(), name)
        elif isinstance(value, Texts):
            inner = _completed(value, lambda n=name: getattr(shipped(), n))
            if inner is not value:
                update[name] = inner
    return words.model_copy(update=update) if update else words


def _shipped(game: str, name: str) -> Any:
    path = DEFAULT_CARDS / game / "text" / name
    if not path.exists():
        path = DEFAULT_CARDS / game / "text" / "labels-en.yaml"
    return _read(path, game, path.stat().st_mtime_ns)


@lru_cache(maxsize=16)
def _read(path: Path, game: str, stamp: int) -> Any:
    from cards.loader import load_yaml, validate

    doc = load_yaml(path, f"the {game} labels (the words of its printables)")
    return validate(doc, definitions_of(game).labels())


def default_labels(game: str) -> Any:
    """The shipped English labels (what a component prints when no language is given)."""
    return load_labels(None, game, "en")
