"""Pydantic models of every definitions file in ``cards/``.

One model per kind of file; the JSON Schemas shipped in ``cards/schema/`` are
generated from these (``python -m cards.schema``). Messages raised here are
written for a game designer: they say what is wrong and what would be right.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
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


Colour = Annotated[str, AfterValidator(_check_colour)]
Side = Annotated[str, BeforeValidator(_check_side)]
Ident = Annotated[str, BeforeValidator(_scalar_to_str), AfterValidator(_check_id)]
Routes = Annotated[list[Side], AfterValidator(_check_routes)]
PositiveMM = Annotated[float, Field(gt=0, description="a length in millimetres, > 0")]


class Strict(BaseModel):
    """Unknown fields are errors; models are immutable once loaded."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# --- Orbitus -----------------------------------------------------------------------


class PlanetType(Strict):
    """A kind of planet: the scorer groups planets by this ``id``."""

    id: Ident = Field(description="short name used in layouts and decks, e.g. 'ice'")
    name: str = Field(min_length=1, description="name printed in player aids (English)")
    names: dict[str, str] = Field(
        default_factory=dict,
        description="the name in other languages, by language code (ru: Лёд), for booklets",
    )
    colour: Colour = Field(description="fill colour of the planet disc, #rrggbb")
    symbol: str = Field(
        min_length=1, max_length=2,
        description="letter or symbol printed on the planet so black-and-white prints read",
    )


class PlanetsFile(Strict):
    """``cards/orbitus/planets.yaml``."""

    planet_types: list[PlanetType] = Field(min_length=1)

    def by_id(self) -> dict[str, PlanetType]:
        return {p.id: p for p in self.planet_types}


class SectorDef(Strict):
    """One sector card as printed, marker up (side N on top)."""

    id: Ident = Field(description="printed on the card; layouts refer to it")
    routes: Routes = Field(description="sides that carry a route: N, NE, SE, S, SW, NW")
    planet: Ident | None = Field(default=None, description="planet type id at the centre")
    pirate: bool = Field(default=False, description="a pirate base at the centre")
    count: int = Field(default=1, ge=1, description="copies of this card in the deck")

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

    hex_across_flats_mm: PositiveMM = 50.0
    background: Colour = Field(default="#f6f3ea", description="front background colour")
    route_colour: Colour = "#2b3550"
    back: CardBack = CardBack()
    sectors: list[SectorDef] = Field(min_length=1)

    def by_id(self) -> dict[str, SectorDef]:
        return {s.id: s for s in self.sectors}

    @property
    def deck_size(self) -> int:
        return sum(s.count for s in self.sectors)


class StationFile(Strict):
    """``cards/orbitus/station.yaml``: the central station and its markers."""

    name: str = Field(default="Орбитус", min_length=1)
    name_en: str = Field(default="Orbitus", min_length=1)
    colour: Colour = "#1b2440"
    accent: Colour = "#e8c35a"
    player_colours: list[Colour] = Field(
        min_length=6, max_length=6, description="seat colours P1..P6 for start-line markers"
    )
    barrier_colour: Colour = "#5b5b5b"


class StartLineSetup(Strict):
    """Default start lines and barriers for one player count (seat order P1, P2, ...)."""

    players: int = Field(ge=2, le=6)
    start_lines: list[list[Side]]
    barriers: list[Side] = Field(default_factory=list)

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

    min: int = Field(ge=0)
    max: int | None = None
    points: int

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

    planet_groups: list[ScoreBand] = Field(min_length=1)
    pirate: int = -3
    open_route: int = -1
    closed_blocks: list[ScoreBand] = Field(min_length=1)

    @model_validator(mode="after")
    def _disjoint(self) -> ScoringTables:
        _bands_disjoint(self.planet_groups, "planet-group")
        _bands_disjoint(self.closed_blocks, "closed-block")
        return self


class RulesFile(Strict):
    """``cards/orbitus/rules.yaml``: hand sizes, start lines, scoring."""

    hand_size: int = Field(default=4, ge=1)
    min_hand: int = Field(default=2, ge=1)
    start_lines: list[StartLineSetup]
    scoring: ScoringTables

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
COPIES_PER_VALUE = 3  # the rules: values 1-4, three of each, per player


class SatPlayer(Strict):
    """How one player's satellites and setup zone look."""

    colour: Colour
    light: Colour = Field(description="a pale tint of the colour for board zones")
    pattern: Literal["solid", "hatched"] = Field(
        description="solid or hatched token face, so the colours differ in black and white"
    )
    edges: list[Edge] = Field(min_length=1, max_length=2)


class BoardFile(Strict):
    """``cards/satellites/board.yaml``."""

    size: int = Field(default=10, ge=5, le=26, description="cells per side")
    cell_mm: PositiveMM = 30.0
    setup_zone_cells: int = Field(
        default=6, ge=1, description="central cells of each edge where satellites start"
    )
    inward_values: list[int] = Field(
        default_factory=lambda: [1, 2], description="values that start one cell inward"
    )
    background: Colour = "#fbfaf6"
    grid: Colour = "#3a3a3a"
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
    count: int = Field(default=1, ge=1)


class SatellitesFile(Strict):
    """``cards/satellites/satellites.yaml``: the 24 satellite tokens."""

    diameter_mm: PositiveMM = 25.0
    satellites: list[SatelliteEntry]


class SatRulesFile(Strict):
    """``cards/satellites/rules.yaml``: the Satellites rule numbers (optional file; without
    it the numbers of the rules page apply)."""

    colony_min: int = Field(default=3, ge=2, description="satellites in a group that make it "
                            "a colony")
    colony_max: int = Field(default=6, ge=2, description="the most a colony may hold; a colony "
                            "this size is crowned")
    end_connected: int = Field(default=23, ge=2, description="connected satellites (both "
                               "colours) that end the game at once")
    grace_moves: int = Field(default=3, ge=0, le=20, description="moves the other player makes "
                             "once one player has every satellite connected")
    first: Colourname = Field(default="red", description="the colour that moves first")
    push_reach: int = Field(default=2, ge=1, le=4, description="how many cells a displaced "
                            "satellite may be pushed, at most")

    @model_validator(mode="after")
    def _sizes(self) -> SatRulesFile:
        if self.colony_max < self.colony_min:
            raise ValueError(f"colony_max {self.colony_max} is below colony_min "
                             f"{self.colony_min}")
        return self


class ConnectedTrack(Strict):
    max: int = Field(default=24, ge=1, description="the last number on the track")
    marked: list[int] | None = Field(
        default=None,
        description="no longer needed: the track marks end_connected of rules.yaml; if "
                    "given, it must be exactly that number")


class GraceTrack(Strict):
    steps: int | None = Field(
        default=None, ge=0,
        description="no longer needed: the track has grace_moves of rules.yaml steps; if "
                    "given, it must be that number")
    symbol: str = "⚡"


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
