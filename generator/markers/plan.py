"""Which printed marker is which component, and where it sits on it (standard library only).

Every marker is an ArUco 4 x 4 code (:mod:`generator.markers.codes`). A :class:`MarkerMap`
lists, for one game, each marker ID with the component it is printed on and its placement in that
component's own frame (millimetres, y down; a hex or a token is centred on (0, 0), the
Satellites board's frame starts at the top-left corner of its grid of cells). The build
writes the map as ``output/<game>/markers.json`` and the photo reader reads a photo
against it, so a photo is read against the deck that was printed.

ID plan (the first IDs of the dictionary are the farthest apart, so they are used first):

- Orbitus: 0 the station, then one ID per sector definition in deck order (every copy
  of a card carries its card's ID).
- Satellites: 0-3 red satellites of value 1-4, 4-7 blue 1-4, 8-11 the board's corners
  NW, NE, SE, SW.

The placements are computed here, once; the generator draws the markers from them
(:mod:`generator.components.markers`). A ``markers.json`` is read back by
:mod:`generator.markers.reading`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from generator.markers.codes import DICTIONARY, MODULES, code_count

if TYPE_CHECKING:
    from cards.definitions import OrbitusDefinitions, SatellitesDefinitions

FORMAT = 1
QUIET = 0.7  # light margin around the black border, in modules (drawn white)

# Orbitus sector (hex 50 mm across flats; everything scales with it): a diamond in the
# lower-right corner between the SE and S routes, clear of both route bands, the hub and
# the cut line by at least 0.7 module
SECTOR_MARKER_MM = 9.0
SECTOR_MARKER_DISTANCE_MM = 20.4  # from the centre, towards the corner at 60 degrees
SECTOR_MARKER_ROTATE = 15.0  # its diagonal lies along that corner's direction
STATION_MARKER_MM = 12.0  # one marker at the centre of the station
TOKEN_MARKER_SHARE = 0.30  # of a satellite's diameter: what the photo reader needs at
# 2 px/mm (0.24 loses 0.5 % of the satellites in the photo benchmark, 0.20 5 %)
TOKEN_MARKER_OFFSET = 0.24  # of the diameter: the marker sits on the lower rim, below the
# numeral (its centre that far below the satellite's; the reader takes the offset from
# markers.json)
BOARD_MARKER_SHARE = 0.72  # of the board's coordinate margin
BOARD_CORNERS = ("NW", "NE", "SE", "SW")
COLOURS = ("red", "blue")


class MarkerMapError(ValueError):
    """A markers.json that cannot be used; ``problems``: one line each (``FILE:LINE: what is
    wrong``), the message all of them."""

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems if problems is not None else [message]


@dataclass(frozen=True)
class Marker:
    """One printed marker: its ID, what carries it and where on that component."""

    id: int
    kind: str  # "station", "sector", "token" or "board"
    name: str  # the card ID, "station", "R3", or the board corner (NW, NE, SE, SW)
    x: float  # centre in the component's frame, mm
    y: float
    size: float  # side of the black square, mm
    rotate: float  # degrees clockwise of the marker's top from the component's top
    colour: str = ""  # tokens
    value: int = 0  # tokens

    def corners(self) -> list[tuple[float, float]]:
        """The four corners of the black square in the component's frame, in ArUco's order
        (the marker's own top-left, top-right, bottom-right, bottom-left)."""
        h = self.size / 2.0
        a = math.radians(self.rotate)
        ca, sa = math.cos(a), math.sin(a)
        return [(self.x + u * ca - v * sa, self.y + u * sa + v * ca)
                for u, v in ((-h, -h), (h, -h), (h, h), (-h, h))]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, "name": self.name,
                               "x": round(self.x, 4), "y": round(self.y, 4),
                               "size": round(self.size, 4), "rotate": round(self.rotate, 4)}
        if self.kind == "token":
            out["colour"], out["value"] = self.colour, self.value
        return out


@dataclass(frozen=True)
class MarkerMap:
    """Every marker of one game as printed, and the geometry the reader needs."""

    game: str
    markers: tuple[Marker, ...]
    hex_across_flats_mm: float = 0.0  # Orbitus
    board_size: int = 0  # Satellites: cells per side
    cell_mm: float = 0.0  # Satellites: board cell
    margin_mm: float = 0.0  # Satellites: the coordinate margin round the grid
    token_mm: float = 0.0  # Satellites: token diameter
    dictionary: str = DICTIONARY
    design: dict[str, Any] | None = None  # the design printed (cards.design: hash, version)
    by_id: dict[int, Marker] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.by_id.update({m.id: m for m in self.markers})

    def of_kind(self, kind: str) -> list[Marker]:
        return [m for m in self.markers if m.kind == kind]

    def to_json(self) -> str:
        doc: dict[str, Any] = {
            "format": FORMAT,
            "game": self.game,
            "dictionary": self.dictionary,
            "modules": MODULES,
            "quiet_zone_modules": QUIET,
            **({"design": self.design} if self.design is not None else {}),
            "about": "ArUco markers printed on the components: id, what carries it, and its "
                     "centre (x, y, mm, y down), side and rotation (degrees clockwise) in that "
                     "component's frame. pnp-score --photo reads photos against this file.",
        }
        if self.game == "orbitus":
            doc["hex_across_flats_mm"] = self.hex_across_flats_mm
        else:
            doc["board"] = {"size": self.board_size, "cell_mm": self.cell_mm,
                            "margin_mm": self.margin_mm, "token_mm": self.token_mm}
        head = json.dumps(doc, indent=1, ensure_ascii=False)[:-2]
        rows = ",\n".join("  " + json.dumps(m.to_json(), ensure_ascii=False)
                          for m in self.markers)
        return f'{head},\n "markers": [\n{rows}\n ]\n}}\n'  # one marker a line


# --- placements --------------------------------------------------------------------------


def sector_marker(marker_id: int, card: str, across_flats: float) -> Marker:
    s = across_flats / 50.0
    d = SECTOR_MARKER_DISTANCE_MM * s
    a = math.radians(60.0)
    return Marker(marker_id, "sector", card, d * math.cos(a), d * math.sin(a),
                  SECTOR_MARKER_MM * s, SECTOR_MARKER_ROTATE)


def station_marker(across_flats: float) -> Marker:
    return Marker(0, "station", "station", 0.0, 0.0, STATION_MARKER_MM * across_flats / 50.0,
                  0.0)


def token_name(colour: str, value: int) -> str:
    return f"{colour[0].upper()}{value}"


def token_marker(colour: str, value: int, diameter: float) -> Marker:
    marker_id = COLOURS.index(colour) * 4 + (value - 1)
    return Marker(marker_id, "token", token_name(colour, value), 0.0,
                  TOKEN_MARKER_OFFSET * diameter, TOKEN_MARKER_SHARE * diameter, 0.0, colour,
                  value)


def board_markers(size: int, cell: float, margin: float) -> list[Marker]:
    """The four corner markers, centred in the corner squares of the coordinate margin
    (frame: the grid's top-left corner at (0, 0))."""
    side = size * cell
    h = margin / 2.0
    centres = ((-h, -h), (side + h, -h), (side + h, side + h), (-h, side + h))
    return [Marker(8 + i, "board", corner, x, y, BOARD_MARKER_SHARE * margin, 0.0)
            for i, (corner, (x, y)) in enumerate(zip(BOARD_CORNERS, centres, strict=True))]


def orbitus_map(defs: OrbitusDefinitions) -> MarkerMap:
    """The markers of an Orbitus deck as printed (empty where ``markers: false``)."""
    flats = defs.sectors.hex_across_flats_mm
    markers: list[Marker] = []
    if defs.station.markers:
        markers.append(station_marker(flats))
    if defs.sectors.markers:
        for i, sector in enumerate(defs.sectors.sectors):
            markers.append(sector_marker(1 + i, sector.id, flats))
    if len(defs.sectors.sectors) + 1 > code_count():
        raise MarkerMapError(f"the deck has {len(defs.sectors.sectors)} different sectors; "
                             f"markers exist for at most {code_count() - 1}")
    return MarkerMap("orbitus", tuple(markers), hex_across_flats_mm=flats,
                     design=defs.design.to_json())


def board_margin(defs: SatellitesDefinitions) -> float:
    """The coordinate margin round the grid, as the board drawing lays it out."""
    from generator.components.board_geometry import board_geometry

    return board_geometry(defs).label


def satellites_map(defs: SatellitesDefinitions) -> MarkerMap:
    """The markers of the Satellites tokens and board as printed."""
    b = defs.board
    diameter = defs.satellites.diameter_mm
    margin = board_margin(defs)
    markers: list[Marker] = []
    if defs.satellites.markers:
        kinds = sorted({(e.colour, e.value) for e in defs.satellites.satellites},
                       key=lambda k: (COLOURS.index(k[0]), k[1]))
        markers += [token_marker(colour, value, diameter) for colour, value in kinds]
    if b.markers:
        markers += board_markers(b.size, b.cell_mm, margin)
    return MarkerMap("satellites", tuple(markers), board_size=b.size, cell_mm=b.cell_mm,
                     margin_mm=margin, token_mm=diameter, design=defs.design.to_json())
