"""The games' components as pieces a vendor makes: each with its shape, its own cut size,
its faces and how many copies of each, and a way to draw its art run on past the cut.

Every face is drawn by the components' own functions (:mod:`generator.components`),
centred on (0, 0) at 100 %, with ``bleed`` mm of art carried past its edge; a preset
scales and places it on a product (:mod:`generator.presets.place`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from generator.components import orbitus as orb
from generator.components import satellites as sat
from generator.drawing import Group, Item, Polygon, Rect, Style, offset_polygon
from generator.presets.deck import orbitus_faces, satellites_faces
from rules.hexgeo import circumradius

Art = Callable[[float, float], list[Item]]  # (bleed, safe margin) mm -> items centred on 0, 0
WHITE = "#ffffff"


@dataclass(frozen=True)
class Face:
    name: str  # the face's name in file names: sector-S01, sector-back, satellite-red-1
    art: Art
    copies: int = 1
    title: str = ""


@dataclass(frozen=True)
class Piece:
    """One kind of component (``orbitus.sector`` ...): every front face with its copies and
    the back they share (None: printed on one side)."""

    component: str
    shape: str  # hex (flat-top) | circle | rect | trapezoid (always cut along its outline)
    size: tuple[float, float]  # the cut size in mm (a hex: across corners, across flats)
    fronts: tuple[Face, ...]
    back: Face | None
    ground: str  # the colour a larger product is filled with around the art
    offset: tuple[float, float] = (0.0, 0.0)  # the point to centre on, from the box centre
    back_is_front: bool = False  # two-sided, each face the same on both sides (tokens)

    @property
    def game(self) -> str:
        return self.component.split(".")[0]

    @property
    def kind(self) -> str:
        return self.component.split(".")[1]

    @property
    def copies(self) -> int:
        return sum(f.copies for f in self.fronts)


def _hex(flats: float) -> tuple[float, float]:
    return (2 * circumradius(flats), flats)


def orbitus_pieces(defs: Any, words: Any) -> list[Piece]:
    from cards.labels import fill

    faces = orbitus_faces(defs)
    flats = defs.sectors.hex_across_flats_mm
    deck = defs.sectors

    def sector_art(sector: Any) -> Art:
        return lambda bleed, safe: (orb.sector_bleed_items(sector, defs, flats, bleed)
                                    if bleed > 0 else []) + orb.sector_items(
            sector, defs, flats, id_margin=safe, stamp=True)

    named = dict(faces["orbitus.sector"])
    fronts = tuple(Face(f"sector-{s.id}", sector_art(s), named[f"sector-{s.id}"],
                        f"sector {s.id}") for s in deck.sectors)
    # a back is named for what it backs: sector-back.png, station-back.png
    back = Face("sector", lambda bleed, _safe: orb.back_items(defs, flats, bleed),
                title="back")
    pieces = [Piece("orbitus.sector", "hex", _hex(flats), fronts, back, deck.background)]

    st = defs.station

    def station_art(bleed: float, safe: float) -> list[Item]:
        under: list[Item] = [Polygon(offset_polygon(orb.hex_points(flats), bleed),
                                     Style(fill=st.colour))] if bleed > 0 else []
        return under + orb.station_items(defs, flats, stamp=True, safe=safe)

    def station_back(bleed: float, _safe: float) -> list[Item]:
        return [Polygon(offset_polygon(orb.hex_points(flats), bleed), Style(fill=st.colour))]

    pieces.append(Piece("orbitus.station", "hex", _hex(flats),
                        (Face("station", station_art, 1, st.name_en),),
                        Face("station", station_back, title="station back"), st.colour))
    size = orb.marker_size(flats)
    markers = []
    for name, copies in faces["orbitus.start_marker"]:
        seat = int(name.rsplit("P", 1)[1]) - 1
        label = fill(words.station.start_marker, seat=f"P{seat + 1}")
        markers.append(Face(name, (lambda s, lab: lambda bleed, _safe: orb.start_marker_items(
            defs, s, flats, bleed, lab, stamp=True))(seat, label), copies, label))
    (_, barriers), = faces["orbitus.barrier_marker"]
    pieces.append(Piece("orbitus.start_marker", "trapezoid", size, tuple(markers), None, WHITE))
    pieces.append(Piece("orbitus.barrier_marker", "trapezoid", size, (Face(
        "barrier-marker", lambda bleed, _safe: orb.barrier_marker_items(
            defs, flats, bleed, words.station.barrier_marker, stamp=True), barriers,
        words.station.barrier_marker),), None, WHITE))
    return pieces


def satellites_pieces(defs: Any, words: Any) -> list[Piece]:
    d = defs.satellites.diameter_mm
    faces = satellites_faces(defs)

    def token(colour: str, value: int) -> Art:
        return lambda bleed, _safe: sat.satellite_token(defs, colour, value, d, bleed,
                                                        cut_line=False, stamp=True)

    fronts = []
    for name, n in faces["satellites.satellite"]:
        colour, value = name.split("-")[1:]
        fronts.append(Face(name, token(colour, int(value)), n, f"{colour} {value}"))
    # a token shows the same on both sides: whichever way it lands, it reads
    pieces = [Piece("satellites.satellite", "circle", (d, d), tuple(fronts), None, WHITE,
                    back_is_front=True)]
    geo = sat.board_geometry(defs)
    marker = sat.track_box(defs, geo.size, geo.cell) - 1.0

    def tracker(kind: str) -> Art:
        return lambda bleed, _safe: sat.track_marker(defs, kind, marker, bleed, cut_line=False)

    pieces.append(Piece("satellites.track_marker", "circle", (marker, marker),
                        tuple(Face(f"track-marker-{k}", tracker(k), 1, k)
                              for k in ("connected", "grace")), None, WHITE,
                        back_is_front=True))
    board = sat.board_drawing(defs, words=words)
    w, h = board.width, board.height
    grid_centre = (geo.label + geo.size * geo.cell / 2.0,) * 2

    def board_art(bleed: float, _safe: float) -> list[Item]:
        ground: list[Item] = [Rect(-w / 2 - bleed, -h / 2 - bleed, w + 2 * bleed, h + 2 * bleed,
                                   Style(fill=WHITE))]
        return ground + [Group(tuple(board.items), (-w / 2, -h / 2))]

    # a folding board folds through its middle: between two rows and two columns of cells
    offset = (grid_centre[0] - w / 2, grid_centre[1] - h / 2)
    pieces.append(Piece("satellites.board", "rect", (w, h),
                        (Face("board", board_art, 1, "board"),), None, WHITE, offset))
    return pieces


def pieces(game: str, defs: Any, words: Any) -> list[Piece]:
    """Every piece of ``game``, its words in the kit's language."""
    return orbitus_pieces(defs, words) if game == "orbitus" else satellites_pieces(defs, words)
