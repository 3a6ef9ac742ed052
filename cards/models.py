"""Pydantic models of every definitions file in ``cards/``.

One model per kind of file; the JSON Schemas shipped in ``cards/schema/`` are
generated from these (``python -m cards.schema``). Messages raised here are
written for a game designer: they say what is wrong and what would be right.

Every size and count has a range that still makes a printable, playable kit (a hex
20-120 mm across, at most 30 copies of a card, a track of at most 99 boxes ...), so a
slip of the keyboard (``0.001``, ``1000000``, ``.inf``, ``.nan``) is a file:line message
instead of a build that hangs or runs out of memory. The JSON Schemas carry the same
ranges and every form a schema can state (the sides, ``#rrggbb`` colours, IDs, list
lengths and repeats, a pirate centre without a planet), so an editor flags them as you
type; what needs two values compared, two files or counting stays with the loader.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    WithJsonSchema,
    model_validator,
)

from rules.hexgeo import SIDES, side_index
from rules.orbitus.ruleset import Band

# --- shared pieces -----------------------------------------------------------------

_COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")


def _check_colour(value: str) -> str:
    if not _COLOUR_RE.match(value):
        raise ValueError(f"{value!r} is not a colour; write it as #rrggbb, e.g. '#1f77b4'")
    return value.lower()


def _check_side(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not a side ({', '.join(SIDES)})")
    return SIDES[side_index(value)]


def _check_id(value: str) -> str:
    if not re.match(r"^[A-Za-z0-9][A-Za-z0-9_-]*$", value):
        raise ValueError(
            f"{value!r} is not a usable ID; use letters, digits, '-' or '_' (e.g. S17)"
        )
    return value


def _scalar_to_str(value: object) -> object:
    # IDs like 07 or planet names like 'no' must not silently become numbers or booleans
    if isinstance(value, bool | int | float) and not isinstance(value, bool):
        return str(value)
    return value


def _check_routes(value: list[str]) -> list[str]:
    if not value:
        raise ValueError(
            f"none given; a sector needs at least one route side ({', '.join(SIDES)})"
        )
    for side in value:
        if value.count(side) > 1:
            raise ValueError(f"side {side} is listed twice")
    return value


# what the schemas say of these (the validators above say it to the loader)
COLOUR_SCHEMA = {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$",
                 "description": "a colour as #rrggbb, e.g. '#1f77b4'"}
SIDE_SCHEMA = {"type": "string",
               "pattern": "^\\s*([Nn][EeWw]?|[Ss][EeWw]?)\\s*$",
               "description": "a side of the hex: N, NE, SE, S, SW or NW"}
ID_SCHEMA = {"anyOf": [{"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_-]*$"},
                       {"type": "integer", "minimum": 0}],
             "description": "letters, digits, '-' or '_' (e.g. S17)"}

Colour = Annotated[str, AfterValidator(_check_colour), WithJsonSchema(COLOUR_SCHEMA)]
Side = Annotated[str, BeforeValidator(_check_side), WithJsonSchema(SIDE_SCHEMA)]
Ident = Annotated[str, BeforeValidator(_scalar_to_str), AfterValidator(_check_id),
                  WithJsonSchema(ID_SCHEMA)]
Routes = Annotated[list[Side], AfterValidator(_check_routes),
                   WithJsonSchema({"type": "array", "items": SIDE_SCHEMA, "minItems": 1,
                                   "maxItems": 6, "uniqueItems": True})]


def _once(value: list[str]) -> list[str]:
    for item in value:
        if value.count(item) > 1:
            raise ValueError(f"{item} is listed twice")
    return value


Sides = Annotated[list[Side], AfterValidator(_once),
                  WithJsonSchema({"type": "array", "items": SIDE_SCHEMA, "maxItems": 6,
                                  "uniqueItems": True})]
SeatSides = Annotated[list[Side], AfterValidator(_once),
                      WithJsonSchema({"type": "array", "items": SIDE_SCHEMA, "minItems": 1,
                                      "maxItems": 6, "uniqueItems": True})]


def mm(default: float, lo: float, hi: float, what: str) -> float:
    """A length in millimetres between ``lo`` and ``hi`` (finite: ``.inf`` and ``.nan``
    fail the range)."""
    return Field(default=default, ge=lo, le=hi,  # type: ignore[no-any-return]
                 description=f"{what}, in mm ({lo:g} to {hi:g})")


MAX_COPIES = 30  # copies of one sector card
MAX_VERSION = 20  # characters of a design version (it is printed on every component)
_VERSION_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]*$")


def _check_version(value: object) -> object:
    """A design version as the designer writes it (``0.7.2``, ``2b``): printed as is, so a
    number YAML would read with digits lost (``1.10`` is the number 1.1) must be quoted."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a version; write one such as 0.7.2")
    if isinstance(value, float):
        raise ValueError(f"{value!r} is read as a number, so digits may be lost (1.10 becomes "
                         f"1.1); write the version in quotes, e.g. version: '{value!r}'")
    if isinstance(value, int):
        value = str(value)
    if not isinstance(value, str) or not _VERSION_RE.match(value) \
            or len(value) > MAX_VERSION:
        raise ValueError(f"{value!r} is not a version; use at most {MAX_VERSION} letters, "
                         "digits, '.', '-', '_' or '+', starting with a letter or digit "
                         "(e.g. 0.7.2)")
    return value


VERSION_SCHEMA = {"anyOf": [{"type": "string", "pattern": _VERSION_RE.pattern,
                             "maxLength": MAX_VERSION}, {"type": "integer", "minimum": 0},
                            {"type": "null"}],
                  "description": "the design's version as you name it (e.g. 0.7.2), printed "
                                 "with the content hash on every component"}
Version = Annotated[str | int | float | None, BeforeValidator(_check_version),
                    WithJsonSchema(VERSION_SCHEMA)]
MAX_DECK = 300  # cards in a deck: 15 sheets of A4
MAX_POINTS = 1000  # a score in a table, either way
MAX_TRACK = 99  # boxes on the connected-satellites track


class Strict(BaseModel):
    """Unknown fields are errors; models are immutable once loaded."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# --- Orbitus -----------------------------------------------------------------------

# shapes drawn on a planet (generator/components/orbitus.py draws each): a symbol needs no
# language, where a letter (I for Ice, Л for Лёд) would need one per kit
PLANET_SYMBOLS: tuple[str, ...] = ("snowflake", "flame", "leaf", "sun", "wave", "ring",
                                   "star", "diamond", "triangle", "cross", "moon", "square")


def _check_symbol(value: object) -> object:
    if isinstance(value, str) and (value in PLANET_SYMBOLS or 1 <= len(value) <= 2):
        return value
    raise ValueError(f"{value!r} is not a planet symbol; use one of "
                     f"{', '.join(PLANET_SYMBOLS)} (or one or two characters)")


PlanetSymbol = Annotated[str, BeforeValidator(_check_symbol), WithJsonSchema({
    "anyOf": [{"enum": list(PLANET_SYMBOLS)},
              {"type": "string", "minLength": 1, "maxLength": 2}],
    "description": "a shape: " + ", ".join(PLANET_SYMBOLS) + " (or one or two characters)"})]



class PlanetType(Strict):
    """A kind of planet: the scorer groups planets by this ``id``."""

    id: Ident = Field(description="short name used in layouts and decks, e.g. 'ice'")
    name: str = Field(min_length=1, max_length=40,
                      description="name printed in player aids (English)")
    names: dict[str, str] = Field(
        default_factory=dict,
        description="the name in other languages, by language code (ru: Лёд), for booklets",
    )
    colour: Colour = Field(description="fill colour of the planet disc, #rrggbb")
    symbol: PlanetSymbol = Field(
        description="the shape drawn on the planet so black-and-white prints read in any "
                    f"language: {', '.join(PLANET_SYMBOLS)} (or one or two characters)",
    )


class PlanetsFile(Strict):
    """``cards/orbitus/planets.yaml``."""

    planet_types: list[PlanetType] = Field(min_length=1, max_length=24)

    def by_id(self) -> dict[str, PlanetType]:
        return {p.id: p for p in self.planet_types}


class SectorDef(Strict):
    """One sector card as printed, marker up (side N on top)."""

    id: Ident = Field(description="printed on the card; layouts refer to it")
    routes: Routes = Field(description="sides that carry a route: N, NE, SE, S, SW, NW")
    planet: Ident | None = Field(default=None, description="planet type id at the centre")
    pirate: bool = Field(default=False, description="a pirate base at the centre")
    count: int = Field(default=1, ge=1, le=MAX_COPIES,
                       description="copies of this card in the deck")

    # a pirate centre holds no planet
    model_config = ConfigDict(json_schema_extra={
        "if": {"properties": {"pirate": {"const": True}}, "required": ["pirate"]},
        "then": {"properties": {"planet": {"type": "null"}}}})

    @model_validator(mode="after")
    def _centre(self) -> SectorDef:
        if self.planet is not None and self.pirate:
            raise ValueError("a centre holds a planet or a pirate, not both")
        return self

    @property
    def route_sides(self) -> frozenset[int]:
        return frozenset(SIDES.index(s) for s in self.routes)

    @property
    def centre(self) -> str:
        """``'planet'``, ``'pirate'`` or ``'void'``."""
        if self.planet is not None:
            return "planet"
        return "pirate" if self.pirate else "void"


class CardBack(Strict):
    """The design shared by every sector's back."""

    title: str = "ORBITUS"
    subtitle: str = "Орбитус"
    colour: Colour = "#1b2440"
    accent: Colour = "#e8c35a"


class SectorsFile(Strict):
    """``cards/orbitus/sectors.yaml``: the sector deck."""

    hex_across_flats_mm: float = mm(50.0, 20.0, 120.0, "a sector's width across flats")
    background: Colour = Field(default="#f6f3ea", description="front background colour")
    route_colour: Colour = "#2b3550"
    back: CardBack = CardBack()
    markers: bool = Field(
        default=True,
        description="print a machine-readable marker on every sector (its card ID and "
                    "rotation), so pnp-score --photo can read a table from a photo")
    sectors: list[SectorDef] = Field(min_length=1, max_length=MAX_DECK)

    @model_validator(mode="after")
    def _deck(self) -> SectorsFile:
        if self.deck_size > MAX_DECK:
            raise ValueError(f"the deck holds {self.deck_size} cards (the counts added up); "
                             f"at most {MAX_DECK} make a kit that prints")
        return self

    def by_id(self) -> dict[str, SectorDef]:
        return {s.id: s for s in self.sectors}

    @property
    def deck_size(self) -> int:
        return sum(s.count for s in self.sectors)


class StationFile(Strict):
    """``cards/orbitus/station.yaml``: the central station and its markers."""

    name: str = Field(default="Орбитус", min_length=1, max_length=40)
    name_en: str = Field(default="Orbitus", min_length=1, max_length=40)
    colour: Colour = "#1b2440"
    accent: Colour = "#e8c35a"
    player_colours: list[Colour] = Field(
        min_length=6, max_length=6, description="seat colours P1..P6 for start-line markers"
    )
    barrier_colour: Colour = "#5b5b5b"
    markers: bool = Field(
        default=True,
        description="print a machine-readable marker at the station's centre (the table's "
                    "origin and orientation for pnp-score --photo)")


class StartLineSetup(Strict):
    """Default start lines and barriers for one player count (seat order P1, P2, ...)."""

    players: int = Field(ge=2, le=6)
    start_lines: list[SeatSides] = Field(min_length=2, max_length=6)
    barriers: Sides = Field(default_factory=list)

    # as many seats as players
    model_config = ConfigDict(json_schema_extra={"allOf": [
        {"if": {"properties": {"players": {"const": n}}, "required": ["players"]},
         "then": {"properties": {"start_lines": {"minItems": n, "maxItems": n}}}}
        for n in range(2, 7)]})

    @model_validator(mode="after")
    def _sides_once(self) -> StartLineSetup:
        if len(self.start_lines) != self.players:
            raise ValueError(
                f"lists {len(self.start_lines)} players' start lines, expected {self.players}"
            )
        used = [s for lines in self.start_lines for s in lines] + list(self.barriers)
        for side in SIDES:
            if used.count(side) > 1:
                raise ValueError(f"side {side} is given twice")
        return self


class ScoreBand(Strict):
    """Points for a size from ``min`` to ``max`` (no ``max``: and above)."""

    min: int = Field(ge=0, le=MAX_POINTS)
    max: int | None = Field(default=None, ge=0, le=MAX_POINTS)
    points: int = Field(ge=-MAX_POINTS, le=MAX_POINTS)

    @model_validator(mode="after")
    def _ordered(self) -> ScoreBand:
        if self.max is not None and self.max < self.min:
            raise ValueError(f"max {self.max} is below min {self.min}")
        return self

    @property
    def label(self) -> str:
        """``3``, ``3–4`` or ``6+`` (as the rules core writes a band)."""
        return Band(self.min, self.max, self.points).label


def _bands_disjoint(bands: list[ScoreBand], what: str) -> None:
    ordered = sorted(bands, key=lambda b: b.min)
    for a, b in zip(ordered, ordered[1:], strict=False):
        if a.max is None or a.max >= b.min:
            raise ValueError(f"{what} bands {a.label} and {b.label} overlap")


class ScoringTables(Strict):
    """The scoring tables of the rules page."""

    planet_groups: list[ScoreBand] = Field(min_length=1, max_length=20)
    pirate: int = Field(default=-3, ge=-MAX_POINTS, le=MAX_POINTS)
    open_route: int = Field(default=-1, ge=-MAX_POINTS, le=MAX_POINTS)
    closed_blocks: list[ScoreBand] = Field(min_length=1, max_length=20)

    @model_validator(mode="after")
    def _disjoint(self) -> ScoringTables:
        _bands_disjoint(self.planet_groups, "planet-group")
        _bands_disjoint(self.closed_blocks, "closed-block")
        return self


TUNE_DESCRIPTION = ("numbers pnp sim tune may change, each with the range to search: "
                    "NAME: [LOW, HIGH] (whole numbers); see docs/sim.md")
TuneRange = Annotated[list[int], Field(min_length=2, max_length=2)]


def _tune_keys(tune: dict[str, list[int]] | None, allowed: Callable[[str], bool],
               names: str) -> None:
    for key, (low, high) in (tune or {}).items():
        if not allowed(key):
            raise ValueError(f"tune: {key!r} is not a number that can be tuned; {names}")
        if low >= high:
            raise ValueError(f"tune: {key}: [{low}, {high}] is no range; give [LOW, HIGH] "
                             f"with LOW below HIGH")


class RulesFile(Strict):
    """``cards/orbitus/rules.yaml``: hand sizes, start lines, scoring."""

    version: Version = Field(default=None, description=VERSION_SCHEMA["description"])
    hand_size: int = Field(default=4, ge=1, le=20)
    min_hand: int = Field(default=2, ge=1, le=20)
    start_lines: list[StartLineSetup] = Field(
        min_length=5, max_length=5, description="one setup for each player count, 2 to 6")
    scoring: ScoringTables
    tune: dict[str, TuneRange] | None = Field(default=None, description=TUNE_DESCRIPTION)

    @model_validator(mode="after")
    def _tunable(self) -> RulesFile:
        rows = {f"scoring.planet_groups.{b.min}" for b in self.scoring.planet_groups}
        rows |= {f"scoring.closed_blocks.{b.min}" for b in self.scoring.closed_blocks}
        fixed = {"hand_size", "min_hand", "scoring.pirate", "scoring.open_route"}
        _tune_keys(self.tune, lambda k: k in fixed | rows,
                   "the numbers are hand_size, min_hand, scoring.pirate, scoring.open_route, "
                   "scoring.planet_groups.MIN and scoring.closed_blocks.MIN (the points of "
                   "the row that starts at MIN)")
        return self

    @model_validator(mode="after")
    def _complete(self) -> RulesFile:
        if self.min_hand > self.hand_size:
            raise ValueError(f"min_hand {self.min_hand} exceeds hand_size {self.hand_size}")
        counts = [s.players for s in self.start_lines]
        for n in range(2, 7):
            if counts.count(n) != 1:
                raise ValueError(
                    f"start_lines must give exactly one setup for {n} players "
                    f"(found {counts.count(n)})"
                )
        return self

    def setup_for(self, players: int) -> StartLineSetup:
        for setup in self.start_lines:
            if setup.players == players:
                return setup
        raise KeyError(players)


# --- Satellites --------------------------------------------------------------------

Colourname = Literal["red", "blue"]
Edge = Literal["N", "E", "S", "W"]
SAT_VALUES: tuple[int, ...] = (1, 2, 3, 4)


class SatPlayer(Strict):
    """How one player's satellites and setup zone look."""

    colour: Colour
    light: Colour = Field(description="a pale tint of the colour for board zones")
    pattern: Literal["solid", "hatched"] = Field(
        description="solid or hatched token face, so the colours differ in black and white"
    )
    edges: Annotated[list[Edge], AfterValidator(_once)] = Field(
        min_length=1, max_length=2, json_schema_extra={"uniqueItems": True},
        description="the board edges (N, E, S, W) where this colour starts")


class BoardFile(Strict):
    """``cards/satellites/board.yaml``."""

    size: int = Field(default=10, ge=5, le=26, description="cells per side")
    cell_mm: float = mm(30.0, 10.0, 60.0, "a cell's side")
    setup_zone_cells: int = Field(
        default=6, ge=1, le=22, description="central cells of each edge where satellites start"
    )
    inward_values: list[Annotated[int, Field(ge=1, le=4)]] = Field(
        default_factory=lambda: [1, 2], max_length=4,
        json_schema_extra={"uniqueItems": True},
        description="values (1-4) that start one cell inward")
    background: Colour = "#fbfaf6"
    grid: Colour = "#3a3a3a"
    markers: bool = Field(
        default=True,
        description="print a machine-readable marker in each corner of the board (its grid "
                    "for pnp-score satellites --photo)")
    red: SatPlayer
    blue: SatPlayer

    @model_validator(mode="after")
    def _fits(self) -> BoardFile:
        if self.setup_zone_cells + 4 > self.size:
            raise ValueError(
                f"setup zones of {self.setup_zone_cells} cells need a board of at least "
                f"{self.setup_zone_cells + 4} cells so the zones and inward cells do not "
                f"overlap (size is {self.size})"
            )
        if (self.size - self.setup_zone_cells) % 2:
            raise ValueError(
                f"setup_zone_cells {self.setup_zone_cells} cannot be centred on a board of "
                f"{self.size}; both must be even or both odd"
            )
        edges = list(self.red.edges) + list(self.blue.edges)
        if len(set(edges)) != len(edges):
            raise ValueError("red and blue must use different edges")
        for v in self.inward_values:
            if v not in SAT_VALUES:
                raise ValueError(f"inward_values: {v} is not a satellite value (1-4)")
        return self


class SatelliteEntry(Strict):
    colour: Colourname
    value: int = Field(ge=1, le=4)
    count: int = Field(default=1, ge=1, le=12)


class SatellitesFile(Strict):
    """``cards/satellites/satellites.yaml``: the 24 satellite tokens."""

    diameter_mm: float = mm(25.0, 10.0, 60.0, "a satellite token's diameter")
    markers: bool = Field(
        default=True,
        description="print a machine-readable marker (colour and value) on every satellite, "
                    "so pnp-score satellites --photo can read a board from a photo")
    satellites: list[SatelliteEntry] = Field(min_length=1, max_length=24)


class SatRulesFile(Strict):
    """``cards/satellites/rules.yaml``: the Satellites rule numbers (optional file; without
    it the numbers of the rules page apply)."""

    version: Version = Field(default=None, description=VERSION_SCHEMA["description"])
    colony_min: int = Field(default=3, ge=2, le=24,
                            description="satellites in a group that make it a colony")
    colony_max: int = Field(default=6, ge=2, le=24,
                            description="the most a colony may hold; a colony this size is "
                                        "crowned")
    end_connected: int = Field(default=23, ge=2, le=MAX_TRACK,
                               description="connected satellites (both colours) that end the "
                                           "game at once")
    grace_moves: int = Field(default=3, ge=0, le=20, description="moves the other player makes "
                             "once one player has every satellite connected")
    first: Colourname = Field(default="red", description="the colour that moves first")
    push_reach: int = Field(default=2, ge=1, le=4, description="how many cells a displaced "
                            "satellite may be pushed, at most")
    stall_moves: int = Field(
        default=1000, ge=1, le=4000,
        description="moves in a row (both players, passes too) that connect no satellite and "
                    "so end a stuck game, scored as it stands (rule S-62); at most 4000, so "
                    "that every game ends within 100,000 moves")

    tune: dict[str, TuneRange] | None = Field(default=None, description=TUNE_DESCRIPTION)

    @model_validator(mode="after")
    def _tunable(self) -> SatRulesFile:
        names = ("colony_min", "colony_max", "end_connected", "grace_moves", "push_reach",
                 "stall_moves")
        _tune_keys(self.tune, lambda k: k in names, f"the numbers are {', '.join(names)}")
        return self

    @model_validator(mode="after")
    def _sizes(self) -> SatRulesFile:
        if self.colony_max < self.colony_min:
            raise ValueError(f"colony_max {self.colony_max} is below colony_min "
                             f"{self.colony_min}")
        return self


class ConnectedTrack(Strict):
    max: int = Field(default=24, ge=1, le=MAX_TRACK, description="the last number on the track")
    marked: list[Annotated[int, Field(ge=0, le=MAX_TRACK)]] | None = Field(
        default=None,
        description="no longer needed: the track marks end_connected of rules.yaml; if "
                    "given, it must be exactly that number")


class GraceTrack(Strict):
    steps: int | None = Field(
        default=None, ge=0, le=20,
        description="no longer needed: the track has grace_moves of rules.yaml steps; if "
                    "given, it must be that number")
    symbol: str = Field(default="⚡", min_length=1, max_length=2,
                        description="the mark of a grace move on the track")


class TrackersFile(Strict):
    """``cards/satellites/trackers.yaml``: how the trackers beside the board look (their
    numbers come from ``rules.yaml``)."""

    connected: ConnectedTrack = ConnectedTrack()
    grace: GraceTrack = GraceTrack()


# the schema files shipped in cards/schema, by file name
SCHEMAS: dict[str, type[BaseModel]] = {
    "orbitus-planets": PlanetsFile,
    "orbitus-sectors": SectorsFile,
    "orbitus-station": StationFile,
    "orbitus-rules": RulesFile,
    "satellites-board": BoardFile,
    "satellites-satellites": SatellitesFile,
    "satellites-trackers": TrackersFile,
    "satellites-rules": SatRulesFile,
}
