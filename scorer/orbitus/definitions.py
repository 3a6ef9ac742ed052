"""The Orbitus definitions the scorer needs: deck, planet types, start lines, scoring tables.

``pnp-score orbitus`` must finish a real game in well under 200 ms, interpreter
start included. Loading the definitions through the pydantic models
(:func:`cards.definitions.load_orbitus`) costs about 100 ms on its own (importing
pydantic is most of it), so the scorer first reads the three files it needs
(``planets.yaml``, ``sectors.yaml``, ``rules.yaml``) with plain checks.

Those checks can only *accept*. Every check the models make is made here too,
and anything not recognised as certainly valid (a wrong type, an unknown field,
a value pydantic might coerce) hands the whole job to the pydantic loader, whose
line-exact messages are the authority. So the fast path never accepts a file
the models reject, and error messages read the same either way.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cards  # the package only, for its folder: no models are imported
from rules.hexgeo import SIDE_INDEX

if TYPE_CHECKING:  # the pydantic models are imported only on the slow path
    from cards.definitions import OrbitusDefinitions
    from cards.models import ScoreBand, SectorsFile

DEFAULT_FOLDER = Path(cards.__file__).resolve().parent  # as cards.definitions.DEFAULT_CARDS


@dataclass(frozen=True)
class Card:
    """One card of the deck as printed, marker up."""

    id: str
    routes: frozenset[int]  # printed sides, 0=N clockwise
    planet: str | None
    pirate: bool
    count: int


@dataclass(frozen=True)
class Band:
    """Points for sizes ``min``..``max`` (``max`` None: and above)."""

    min: int
    max: int | None
    points: int

    def contains(self, size: int) -> bool:
        return size >= self.min and (self.max is None or size <= self.max)


@dataclass(frozen=True)
class Scoring:
    """The scoring tables of ``rules.yaml``."""

    planet_groups: tuple[Band, ...]
    pirate: int
    open_route: int
    closed_blocks: tuple[Band, ...]

    def planet_points(self, count: int) -> int:
        return _band_points(self.planet_groups, count)

    def block_points(self, size: int) -> int:
        return _band_points(self.closed_blocks, size)


def _band_points(bands: tuple[Band, ...], size: int) -> int:
    for band in bands:
        if band.contains(size):
            return band.points
    return 0


@dataclass(frozen=True)
class Setup:
    """Default station sides for one player count: start lines per seat, barriers."""

    start_lines: tuple[tuple[int, ...], ...]
    barriers: frozenset[int]


@dataclass(frozen=True)
class Definitions:
    """Everything the scorer reads from a definitions folder (and a layout's own deck)."""

    folder: Path
    deck_file: Path
    planet_types: tuple[str, ...]
    deck: dict[str, Card]
    scoring: Scoring
    setups: dict[int, Setup]


class _Unsure(Exception):
    """The fast path met something only the models can judge."""


def load_definitions(
    folder: Path | None = None, deck_file: Path | None = None, full: bool = False
) -> tuple[Definitions, OrbitusDefinitions | None]:
    """Read a definitions folder (default: the shipped ``cards/``) and a deck file.

    ``deck_file`` defaults to the folder's ``orbitus/sectors.yaml``. With ``full``
    (needed to draw the table) the pydantic models are loaded and returned too, their
    ``sectors`` being the deck in use.
    Raises :class:`cards.loader.DefinitionError` (or its ``UnreadableInput``) with
    one line per problem.
    """
    folder = (folder or DEFAULT_FOLDER).resolve()
    default_deck = folder / "orbitus" / "sectors.yaml"
    deck_file = (deck_file or default_deck).resolve()
    if not full:
        try:
            return _lean(folder, deck_file), None
        except _Unsure:
            pass
    from cards.definitions import load_orbitus, load_sectors_file

    models = load_orbitus(folder)
    if deck_file != default_deck.resolve():
        # the layout's own deck replaces the folder's (its card size and colours too)
        models = replace(models, sectors=load_sectors_file(deck_file, models.planets))
    return from_models(models, models.sectors, deck_file), models


def from_models(models: OrbitusDefinitions, deck: SectorsFile, deck_file: Path) -> Definitions:
    """The scorer's view of definitions loaded through the pydantic models."""
    scoring = models.rules.scoring

    def bands(items: list[ScoreBand]) -> tuple[Band, ...]:
        return tuple(Band(b.min, b.max, b.points) for b in items)

    return Definitions(
        folder=models.folder,
        deck_file=deck_file,
        planet_types=tuple(p.id for p in models.planets.planet_types),
        deck={
            s.id: Card(s.id, s.route_sides, s.planet, s.pirate, s.count) for s in deck.sectors
        },
        scoring=Scoring(
            bands(scoring.planet_groups),
            scoring.pirate,
            scoring.open_route,
            bands(scoring.closed_blocks),
        ),
        setups={
            s.players: Setup(
                tuple(tuple(SIDE_INDEX[x] for x in lines) for lines in s.start_lines),
                frozenset(SIDE_INDEX[x] for x in s.barriers),
            )
            for s in models.rules.start_lines
        },
    )


# --- the fast path -------------------------------------------------------------------

_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
_IDENT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")


def _need(condition: bool) -> None:
    if not condition:
        raise _Unsure


def _mapping(
    value: Any, allowed: set[str], required: frozenset[str] | set[str] = frozenset()
) -> dict[str, Any]:
    _need(isinstance(value, dict))
    _need(all(isinstance(k, str) and k in allowed for k in value))
    _need(required <= value.keys())
    return value  # type: ignore[no-any-return]


def _int(value: Any, low: int | None = None, high: int | None = None) -> int:
    _need(type(value) is int)
    _need((low is None or value >= low) and (high is None or value <= high))
    return value  # type: ignore[no-any-return]


def _text(value: Any, low: int = 0, high: int | None = None) -> str:
    _need(type(value) is str)
    _need(len(value) >= low and (high is None or len(value) <= high))
    return value  # type: ignore[no-any-return]


def _ident(value: Any) -> str:
    if type(value) is int:
        value = str(value)
    _need(type(value) is str and _IDENT.match(value) is not None)
    return value  # type: ignore[no-any-return]


def _colour(value: Any) -> None:
    _need(type(value) is str and _COLOUR.match(value) is not None)


def _side(value: Any) -> int:
    _need(type(value) is str)
    index = SIDE_INDEX.get(value.strip().upper())
    _need(index is not None)
    return index  # type: ignore[return-value]


def _sides(value: Any) -> list[int]:
    _need(type(value) is list)
    return [_side(v) for v in value]


def _read(path: Path) -> Any:
    from cards.loader import DefinitionError, load_yaml

    try:
        return load_yaml(path, "").data
    except (DefinitionError, RecursionError):
        raise _Unsure from None


def _lean(folder: Path, deck_file: Path) -> Definitions:
    planets = _lean_planets(_read(folder / "orbitus" / "planets.yaml"))
    scoring, setups = _lean_rules(_read(folder / "orbitus" / "rules.yaml"))
    deck = _lean_deck(_read(deck_file), set(planets))
    if deck_file != (folder / "orbitus" / "sectors.yaml").resolve():
        # load_orbitus validates the folder's own deck as well, even when a layout names another
        _lean_deck(_read(folder / "orbitus" / "sectors.yaml"), set(planets))
    return Definitions(folder, deck_file, planets, deck, scoring, setups)


def _lean_planets(data: Any) -> tuple[str, ...]:
    top = _mapping(data, {"planet_types"}, {"planet_types"})
    items = top["planet_types"]
    _need(type(items) is list and len(items) >= 1)
    ids: list[str] = []
    for item in items:
        fields = {"id", "name", "colour", "symbol"}
        entry = _mapping(item, fields | {"names"}, fields)
        ids.append(_ident(entry["id"]))
        _text(entry["name"], 1)
        names = entry.get("names", {})
        _need(isinstance(names, dict))
        for lang, name in names.items():
            _text(lang)
            _text(name)
        _colour(entry["colour"])
        _text(entry["symbol"], 1, 2)
    _need(len(set(ids)) == len(ids))
    return tuple(ids)


def _lean_deck(data: Any, planets: set[str]) -> dict[str, Card]:
    top = _mapping(
        data, {"hex_across_flats_mm", "background", "route_colour", "back", "sectors"}, {"sectors"}
    )
    if "hex_across_flats_mm" in top:
        size = top["hex_across_flats_mm"]
        _need(type(size) in (int, float) and math.isfinite(size) and size > 0)
    for key in ("background", "route_colour"):
        if key in top:
            _colour(top[key])
    if "back" in top:
        back = _mapping(top["back"], {"title", "subtitle", "colour", "accent"})
        for key in ("title", "subtitle"):
            if key in back:
                _text(back[key])
        for key in ("colour", "accent"):
            if key in back:
                _colour(back[key])
    items = top["sectors"]
    _need(type(items) is list and len(items) >= 1)
    deck: dict[str, Card] = {}
    for item in items:
        entry = _mapping(item, {"id", "routes", "planet", "pirate", "count"}, {"id", "routes"})
        ident = _ident(entry["id"])
        routes = _sides(entry["routes"])
        _need(len(routes) >= 1 and len(set(routes)) == len(routes))
        planet = entry.get("planet")
        if planet is not None:
            planet = _ident(planet)
            _need(planet in planets)
        pirate = entry.get("pirate", False)
        _need(type(pirate) is bool)
        _need(not (planet is not None and pirate))
        count = _int(entry.get("count", 1), 1)
        _need(ident not in deck)
        deck[ident] = Card(ident, frozenset(routes), planet, pirate, count)
    return deck


def _lean_bands(value: Any) -> tuple[Band, ...]:
    _need(type(value) is list and len(value) >= 1)
    bands: list[Band] = []
    for item in value:
        entry = _mapping(item, {"min", "max", "points"}, {"min", "points"})
        low = _int(entry["min"], 0)
        high = entry.get("max")
        if high is not None:
            high = _int(high, low)
        bands.append(Band(low, high, _int(entry["points"])))
    ordered = sorted(bands, key=lambda b: b.min)
    for a, b in zip(ordered, ordered[1:], strict=False):
        _need(a.max is not None and a.max < b.min)
    return tuple(bands)


def _lean_rules(data: Any) -> tuple[Scoring, dict[int, Setup]]:
    top = _mapping(
        data, {"hand_size", "min_hand", "start_lines", "scoring"}, {"start_lines", "scoring"}
    )
    hand = _int(top.get("hand_size", 4), 1)
    _need(_int(top.get("min_hand", 2), 1) <= hand)
    _need(type(top["start_lines"]) is list)
    setups: dict[int, Setup] = {}
    for item in top["start_lines"]:
        entry = _mapping(item, {"players", "start_lines", "barriers"}, {"players", "start_lines"})
        players = _int(entry["players"], 2, 6)
        _need(type(entry["start_lines"]) is list)
        lines = tuple(tuple(_sides(x)) for x in entry["start_lines"])
        barriers = _sides(entry.get("barriers", []))
        used = [s for seat in lines for s in seat] + barriers
        _need(len(lines) == players and len(set(used)) == len(used))
        _need(players not in setups)
        setups[players] = Setup(lines, frozenset(barriers))
    _need(set(setups) == {2, 3, 4, 5, 6})
    table = _mapping(
        top["scoring"],
        {"planet_groups", "pirate", "open_route", "closed_blocks"},
        {"planet_groups", "closed_blocks"},
    )
    scoring = Scoring(
        _lean_bands(table["planet_groups"]),
        _int(table.get("pirate", -3)),
        _int(table.get("open_route", -1)),
        _lean_bands(table["closed_blocks"]),
    )
    return scoring, setups
