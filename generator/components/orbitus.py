"""Orbitus components, each described once: sector face, card back, station, markers.

Every function returns drawing items centred on (0, 0) for hexes (the hex's
centre) or on the marker's own centre, in millimetres, y down. Sheet layout,
PDF, SVG and the scorer's table picture all place these same items.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from cards.definitions import OrbitusDefinitions
from cards.models import PlanetType, SectorDef
from generator.components.markers import sector_marker_items, station_marker_items
from generator.drawing import (
    CAP_HEIGHT,
    Circle,
    Drawing,
    Group,
    Item,
    Path,
    Polygon,
    Polyline,
    Rect,
    Style,
    Text,
    fit_size,
    offset_polygon,
    star,
    text_centred,
    text_width,
)
from generator.fit import FitError, fit_lines
from generator.stamp import stamp_items, stamp_text
from rules import hexgeo

INK = "#1d1d1f"
WHITE = "#ffffff"
PIRATE_FILL = "#2a2a2a"
PIRATE_RING = "#b3261e"
MARKER_FILL = "#e8c35a"


def hex_points(across_flats: float, centre: hexgeo.Point = (0.0, 0.0)) -> tuple[hexgeo.Point, ...]:
    return tuple(hexgeo.corners(centre, across_flats))


def _luminance(colour: str) -> float:
    r, g, b = (int(colour[i:i + 2], 16) / 255.0 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour``."""
    return INK if _luminance(colour) > 0.5 else WHITE


def route_band(across_flats: float, side: int, width: float, colour: str,
               core: str | None = None) -> list[Item]:
    """A route from the hex centre to the midpoint of ``side``: a band with a dashed core."""
    end = hexgeo.side_midpoint((0.0, 0.0), across_flats, side)
    items: list[Item] = [
        Polyline(((0.0, 0.0), end), Style(stroke=colour, width=width), cls="route")
    ]
    if core:
        items.append(
            Polyline(((0.0, 0.0), end), Style(stroke=core, width=width * 0.16, dash=(1.6, 1.2)))
        )
    return items


ORIENTATION_OFFSET = 9.6  # mm (on a 50 mm hex) left of the N side's middle: off the route


def orientation_marker(across_flats: float, colour: str = MARKER_FILL) -> Polygon:
    """A small triangle pointing out of the printed N side: the card's 'up'. It sits towards
    the side's left end, clear of a route on N (in the middle it read as the route's
    arrow)."""
    top = -across_flats / 2.0
    s = across_flats / 50.0
    x = -ORIENTATION_OFFSET * s
    return Polygon(
        ((x, top + 1.2 * s), (x + 3.4 * s, top + 5.6 * s), (x - 3.4 * s, top + 5.6 * s)),
        Style(fill=colour, stroke=INK, width=0.35 * s, join="round"),
        cls="orientation-marker",
    )


def planet_disc(planet: PlanetType, radius: float) -> list[Item]:
    ring = Style(fill=planet.colour, stroke=INK, width=radius * 0.08)
    ink = ink_on(planet.colour)
    return [
        Circle(0.0, 0.0, radius, ring, cls=f"planet planet-{planet.id}"),
        Circle(0.0, 0.0, radius * 0.78, Style(stroke=ink, width=radius * 0.03, opacity=0.5)),
        Group(tuple(planet_symbol(planet.symbol, ink, planet.colour)), scale=radius * 0.56,
              cls="planet-symbol"),
    ]


def _ellipse(rx: float, ry: float, turn: float, start: float = 0.0, end: float = 360.0,
             steps: int = 48) -> tuple[hexgeo.Point, ...]:
    t = math.radians(turn)
    out = []
    for k in range(steps + 1):
        a = math.radians(start + (end - start) * k / steps)
        x, y = rx * math.cos(a), ry * math.sin(a)
        out.append((x * math.cos(t) - y * math.sin(t), x * math.sin(t) + y * math.cos(t)))
    return tuple(out)


def planet_symbol(symbol: str, ink: str, ground: str) -> list[Item]:
    """The planet's symbol in a circle of radius 1 centred on (0, 0): one of
    :data:`cards.models.PLANET_SYMBOLS`, drawn as shapes (the same in every backend and
    every language), or one or two characters set as text. ``ground``: the disc's colour
    (cut-outs in a shape)."""
    fill = Style(fill=ink)

    def stroke(width: float) -> Style:
        return Style(stroke=ink, width=width, cap="round", join="round")

    if symbol == "snowflake":
        items: list[Item] = []
        for k in range(6):
            a = math.radians(90 + 60 * k)
            ux, uy = math.cos(a), -math.sin(a)
            items.append(Polyline(((0.0, 0.0), (ux * 0.95, uy * 0.95)), stroke(0.16)))
            for side in (-1, 1):  # a small V near each arm's end
                b = a + side * math.radians(45)
                bx, by = ux * 0.55, uy * 0.55
                items.append(Polyline(((bx, by), (bx + math.cos(b) * 0.32,
                                                  by - math.sin(b) * 0.32)), stroke(0.13)))
        return items
    if symbol == "flame":
        return [Path((("M", 0.1, -1.0), ("C", 0.25, -0.55, 0.72, -0.3, 0.64, 0.35),
                      ("C", 0.58, 0.8, 0.3, 0.98, 0.0, 0.98),
                      ("C", -0.3, 0.98, -0.62, 0.8, -0.64, 0.35),
                      ("C", -0.66, 0.0, -0.5, -0.2, -0.4, -0.5),
                      ("C", -0.3, -0.25, -0.2, -0.2, -0.1, -0.3),
                      ("C", -0.02, -0.55, 0.06, -0.7, 0.1, -1.0), ("Z",)), fill),
                Path((("M", 0.0, -0.05), ("C", 0.25, 0.25, 0.32, 0.5, 0.22, 0.68),
                      ("C", 0.15, 0.8, -0.15, 0.8, -0.22, 0.68),
                      ("C", -0.32, 0.5, -0.25, 0.25, 0.0, -0.05), ("Z",)),
                     Style(fill=ground))]
    if symbol == "leaf":
        return [Path((("M", -0.8, 0.8), ("Q", -0.85, -0.85, 0.8, -0.8),
                      ("Q", 0.85, 0.85, -0.8, 0.8), ("Z",)), fill),
                Polyline(((-0.8, 0.8), (0.45, -0.45)),
                         Style(stroke=ground, width=0.12, cap="round"))]
    if symbol == "sun":
        items = [Circle(0.0, 0.0, 0.46, fill)]
        for k in range(8):
            a = math.radians(45 * k)
            items.append(Polyline(((math.cos(a) * 0.66, math.sin(a) * 0.66),
                                   (math.cos(a) * 0.98, math.sin(a) * 0.98)), stroke(0.16)))
        return items
    if symbol == "wave":
        items = []
        for y0 in (-0.36, 0.3):
            pts = tuple((-0.9 + 1.8 * k / 24, y0 + 0.2 * math.sin(math.pi * 2 * k / 12))
                        for k in range(25))
            items.append(Polyline(pts, stroke(0.2)))
        return items
    if symbol == "ring":
        return [Polyline(_ellipse(0.98, 0.32, -20), stroke(0.13)),
                Circle(0.0, 0.0, 0.5, fill),
                Polyline(_ellipse(0.98, 0.32, -20, 0, 180, 24), stroke(0.13))]
    if symbol == "star":
        from generator.drawing import star

        return [Polygon(star(0.0, 0.05, 1.0, 0.42), fill)]
    if symbol == "diamond":
        return [Polygon(((0.0, -0.95), (0.7, 0.0), (0.0, 0.95), (-0.7, 0.0)), fill)]
    if symbol == "triangle":
        return [Polygon(((0.0, -0.85), (0.85, 0.65), (-0.85, 0.65)), fill)]
    if symbol == "cross":
        w = 0.24
        return [Polygon(((-w, -0.85), (w, -0.85), (w, -w), (0.85, -w), (0.85, w), (w, w),
                         (w, 0.85), (-w, 0.85), (-w, w), (-0.85, w), (-0.85, -w), (-w, -w)),
                        fill)]
    if symbol == "moon":
        outer = _ellipse(0.85, 0.85, 0, 60, 300, 36)
        inner = tuple(reversed([(x + 0.42, y) for x, y in _ellipse(0.7, 0.7, 0, 82, 278, 30)]))
        return [Polygon(outer + inner, fill)]
    if symbol == "square":
        return [Rect(-0.7, -0.7, 1.4, 1.4, fill)]
    return [text_centred(0.0, 0.0, symbol, 2.0 if len(symbol) == 1 else 1.4, fill=ink,
                         bold=True)]


def pirate_disc(radius: float) -> list[Item]:
    return [
        Circle(0.0, 0.0, radius, Style(fill=PIRATE_FILL, stroke=PIRATE_RING, width=radius * 0.16),
               cls="pirate"),
        text_centred(0.0, -radius * 0.06, "☠", radius * 1.25, fill=WHITE, cls="pirate-symbol"),
    ]


def void_hub(radius: float, colour: str, background: str) -> list[Item]:
    return [
        Circle(0.0, 0.0, radius * 0.45, Style(fill=background, stroke=colour, width=radius * 0.14),
               cls="void"),
    ]


# --- a sector face, part by part (the printed cards, the scorer's pictures and the browser's
# table all put their faces together from these) -----------------------------------------------

UNKNOWN_PLANET = PlanetType(id="unknown", name="?", colour="#cccccc", symbol="?")


def face_ground(across_flats: float, background: str) -> Polygon:
    """The face's background, the hex filled."""
    return Polygon(hex_points(across_flats), Style(fill=background), cls="sector-face")


def face_route(across_flats: float, side: int, colour: str, background: str) -> list[Item]:
    """One route of a face, from the hub to ``side``: 7 % of the hex wide (14 % of the
    face's 50 units), with a dashed core of the background's colour."""
    s = across_flats / 50.0
    return route_band(across_flats, side, 7.0 * s, colour, core=background)


def face_hub(centre: str, planet: PlanetType | None, across_flats: float, route_colour: str,
             background: str) -> list[Item]:
    """The face's centre: a planet's disc (``planet``; None: a type the definitions do not
    have, drawn as a neutral disc with a question mark), a pirate, or the void where the
    routes meet."""
    hub = 9.0 * (across_flats / 50.0)
    if centre == "planet":
        return planet_disc(planet if planet is not None else UNKNOWN_PLANET, hub)
    if centre == "pirate":
        return pirate_disc(hub)
    return void_hub(hub, route_colour, background)


def face_outline(across_flats: float) -> Polygon:
    """The cut line: the one polygon of class ``sector-outline``."""
    s = across_flats / 50.0
    return Polygon(hex_points(across_flats), Style(stroke=INK, width=0.3 * s),
                   cls="sector-outline")


def sector_items(sector: SectorDef, defs: OrbitusDefinitions, across_flats: float | None = None,
                 rot: int = 0, *, show_id: bool = True, show_marker: bool = True,
                 outline: bool = True, tint: str | None = None,
                 fiducial: bool = True, id_margin: float = 0.0,
                 stamp: bool = False) -> list[Item]:
    """One sector face centred on (0, 0).

    ``rot`` turns the card ``rot * 60`` degrees clockwise as it would lie on the
    table (the ID and marker turn with it). ``tint`` replaces the background
    (the scorer tints sectors by owner). ``outline`` draws the cut line, the one
    polygon of class ``sector-outline``. ``fiducial``: the card's photo marker, when the
    deck prints them (:mod:`generator.components.markers`). ``id_margin``: the ID stays at
    least that many mm inside the cut (a print shop's safe zone), moved in if need be.
    ``stamp``: the design stamp, as printed (:mod:`generator.stamp`), in the free corner
    between the N and NE routes.
    """
    flats = across_flats or defs.sectors.hex_across_flats_mm
    deck = defs.sectors
    background = tint or deck.background
    face: list[Item] = [face_ground(flats, background)]
    for side in sorted(sector.route_sides):
        face.extend(face_route(flats, side, deck.route_colour, background))
    planet = defs.planets.by_id().get(sector.planet or "")  # None: a type unknown (scorer input)
    face.extend(face_hub(sector.centre, planet, flats, deck.route_colour, background))
    if show_id:
        face.append(_id_label(sector.id, flats, background, id_margin))
    if show_marker:
        face.append(orientation_marker(flats))
    if fiducial:
        face.extend(sector_marker_items(sector, defs, flats))
    if stamp:
        face.extend(corner_stamp(defs, flats, ink_on(background), id_margin))
    if outline:
        face.append(face_outline(flats))
    if rot % 6:
        return [Group(tuple(face), rotate=60.0 * (rot % 6))]
    return face


def sector_bleed_items(sector: SectorDef, defs: OrbitusDefinitions, across_flats: float,
                       bleed: float) -> list[Item]:
    """What of a sector lies beyond its cut line: the background grown by ``bleed`` and each
    route carried on past its side for ``bleed`` mm, so a cut that misses by up to that
    shows the card's own art (drawn under the card, whose face covers the rest)."""
    flats = across_flats
    deck = defs.sectors
    s = flats / 50.0
    items: list[Item] = [Polygon(offset_polygon(hex_points(flats), bleed),
                                 Style(fill=deck.background), cls="bleed")]
    for side in sorted(sector.route_sides):
        # the whole route from the centre on, so its dashes run on in step past the side
        mx, my = hexgeo.side_midpoint((0.0, 0.0), flats, side)
        ux, uy = mx / (flats / 2.0), my / (flats / 2.0)
        a = (0.0, 0.0)
        b = (mx + ux * (bleed + 0.2), my + uy * (bleed + 0.2))
        items.append(Polyline((a, b), Style(stroke=deck.route_colour, width=7.0 * s)))
        items.append(Polyline((a, b), Style(stroke=deck.background, width=7.0 * s * 0.16,
                                            dash=(1.6, 1.2))))
    return items


def corner_stamp(defs: object, flats: float, ink: str, inset: float = 0.0) -> list[Item]:
    """The design stamp in a hex's upper right, between the N and NE routes and 2.5 mm
    (or ``inset``, a print shop's safe zone) inside the cut: clear of every route band, the
    orientation marker and the photo marker."""
    text = stamp_text(defs)
    if text is None:
        return []
    s = flats / 50.0
    size = fit_size(text, 1.5 * s, 8.0 * s)
    return stamp_items(defs, 8.6 * s, -flats / 2.0 + max(2.5 * s, inset) + size * 0.75, size,
                       fill=ink)


def _id_label(ident: str, flats: float, background: str, margin: float = 0.0) -> Text:
    s = flats / 50.0
    r = hexgeo.circumradius(flats)
    # towards the lower-left corner, clear of every route band and the hub
    x, y = -r / 2.0 + 3.2 * s, flats / 2.0 - 4.2 * s
    size = fit_size(ident, 3.0 * s, 9.0 * s)
    half = text_width(ident, size) / 2.0
    base = size * 0.36  # the baseline below the label's centre
    # in along the corner's line (between the two route bands there) until every corner of
    # the label is ``margin`` inside the cut; at most a third of the way to the hub
    k = 1.0
    while margin > 0 and k > 0.67 and min(
            hexgeo.depth_inside((x * k + dx, y * k + base + dy), (0.0, 0.0), flats)
            for dx in (-half, half) for dy in (0.0, -size * CAP_HEIGHT)) < margin:
        k -= 0.01
    return Text(x * k, y * k + base, ident, size, fill=ink_on(background), anchor="middle",
                cls="sector-id")


def back_items(defs: OrbitusDefinitions, across_flats: float | None = None,
               bleed: float = 0.0, texts: bool = True) -> list[Item]:
    """The card back shared by every sector (bleed grows its background outwards);
    ``texts`` False: a miniature without its title (the booklets' diagrams)."""
    flats = across_flats or defs.sectors.hex_across_flats_mm
    back = defs.sectors.back
    s = flats / 50.0
    shape = hex_points(flats)
    items: list[Item] = [
        Polygon(offset_polygon(shape, bleed) if bleed else shape, Style(fill=back.colour),
                cls="back-face"),
    ]
    if defs.ink_saver:  # a light back: a fine screen keeps the front from showing through
        items.append(_screen(offset_polygon(shape, bleed) if bleed else shape, back.accent,
                             flats))
    items += [
        Polygon(offset_polygon(shape, -2.5 * s), Style(stroke=back.accent, width=0.5 * s)),
        Circle(0.0, 0.0, 15.0 * s, Style(stroke=back.accent, width=0.35 * s, dash=(1.2, 1.0))),
        Circle(11.0 * s, -10.4 * s, 1.6 * s, Style(fill=back.accent)),
        Circle(-13.0 * s, 7.8 * s, 1.0 * s, Style(fill=back.accent)),
    ]
    if not texts:
        return items
    title_size = fit_size(back.title, 6.0 * s, 27.0 * s, bold=True)
    items.append(text_centred(0.0, -1.6 * s, back.title, title_size, fill=back.accent, bold=True,
                              cls="back-title"))
    if back.subtitle:
        sub = fit_size(back.subtitle, 3.6 * s, 28.0 * s)
        items.append(text_centred(0.0, 5.2 * s, back.subtitle, sub, fill=back.accent))
    return items


SCREEN_PITCH_MM = 1.2  # the ink-saving back's screen: lines this far apart, both diagonals
SCREEN_WIDTH_MM = 0.22


def _screen(shape: Sequence[hexgeo.Point], colour: str, flats: float) -> Group:
    """Two sets of fine diagonal lines over the whole back, clipped to it: about a sixth of
    the back covered, too fine and too even for a front's routes to show through."""
    r = hexgeo.circumradius(flats) + 4.0
    lines: list[Item] = []
    k = -2 * r
    while k <= 2 * r:
        for sign in (1.0, -1.0):
            lines.append(Polyline(((k - r, -sign * r), (k + r, sign * r)),
                                  Style(stroke=colour, width=SCREEN_WIDTH_MM, opacity=0.4)))
        k += SCREEN_PITCH_MM * math.sqrt(2)
    return Group(tuple(lines), clip=Polygon(tuple(shape), Style()), cls="back-screen")


def station_items(defs: OrbitusDefinitions, across_flats: float | None = None,
                  start_lines: dict[int, int] | None = None,
                  barriers: Iterable[int] = (), fiducial: bool = True,
                  side_names: Sequence[str] | None = None, texts: bool = True,
                  stamp: bool = False, safe: float = 0.0) -> list[Item]:
    """The station hex: its art (orbits and stars on the station's colour), its name, the
    six side labels (``side_names``, in the kit's language: N, NE, ... by default) and the
    start-line stubs.

    ``start_lines`` (side -> seat index) and ``barriers`` are drawn when given (the
    scorer's picture of a table); the printed station shows all six sides open. With
    its photo marker (``markers: true`` in station.yaml) the marker takes the centre
    and the names move next to the N and S sides, where start-line markers leave them
    visible. ``stamp``: the design stamp in the corner between the N and NE sides, at least
    ``safe`` mm (a print shop's safe zone) inside the cut.
    """
    flats = across_flats or defs.sectors.hex_across_flats_mm
    st = defs.station
    s = flats / 50.0
    names = tuple(side_names or hexgeo.SIDES)
    items: list[Item] = [
        Polygon(hex_points(flats), Style(fill=st.colour), cls="station-face"),
        *_station_art(flats, st.accent),
        Polygon(offset_polygon(hex_points(flats), -1.6 * s), Style(stroke=st.accent,
                                                                  width=0.5 * s)),
    ]
    barrier_set = set(barriers)
    for side in range(6):
        end = hexgeo.side_midpoint((0.0, 0.0), flats, side)
        inner = (end[0] * 0.62, end[1] * 0.62)
        if side in barrier_set:
            items.append(_side_band(flats, side, st.barrier_colour, "barrier"))
            continue
        colour = st.accent
        if start_lines is not None and side in start_lines:
            colour = st.player_colours[start_lines[side] % len(st.player_colours)]
            items.append(_side_band(flats, side, colour, f"start-line seat-{start_lines[side]}"))
        items.append(Polyline((inner, end), Style(stroke=colour, width=7.0 * s), cls="start-stub"))
    marked = station_marker_items(defs, flats) if fiducial else []
    if not texts:  # a miniature (the booklets' diagrams): the art without its small words
        items.extend(marked)
        items.append(Polygon(hex_points(flats), Style(stroke=INK, width=0.3 * s),
                             cls="station-outline"))
        return items
    label_at = 0.532 if marked else 0.5  # of the way to each side's midpoint
    for side in range(6):
        mid = hexgeo.side_midpoint((0.0, 0.0), flats, side)
        lx, ly = mid[0] * label_at, mid[1] * label_at
        items.append(text_centred(lx, ly, names[side], fit_size(names[side], 2.8 * s, 7.0 * s,
                                                               bold=True),
                                  fill=WHITE, bold=True, cls="side-label"))
    if marked:  # the marker takes the centre, the names sit above and below it
        items.extend(marked)
        name_size = fit_size(st.name, 2.6 * s, 13.0 * s, bold=True)
        items.append(text_centred(0.0, -9.6 * s, st.name, name_size, fill=st.accent,
                                  bold=True, cls="station-name"))
        en = fit_size(st.name_en, 2.2 * s, 13.0 * s)
        items.append(text_centred(0.0, 9.6 * s, st.name_en, en, fill=WHITE))
    else:
        name_size = fit_size(st.name, 4.2 * s, 21.0 * s, bold=True)
        items.append(text_centred(0.0, -1.0 * s, st.name, name_size, fill=st.accent,
                                  bold=True, cls="station-name"))
        en = fit_size(st.name_en, 2.4 * s, 18.0 * s)
        items.append(text_centred(0.0, 3.4 * s, st.name_en, en, fill=WHITE))
    if stamp:
        items.extend(corner_stamp(defs, flats, WHITE, safe))
    items.append(Polygon(hex_points(flats), Style(stroke=INK, width=0.3 * s),
                         cls="station-outline"))
    return items


# the stars of the station's art: (angle in degrees, share of the radius, size in mm at 50 mm)
_STARS = ((12, 0.80, 0.55), (47, 0.62, 0.35), (78, 0.86, 0.45), (104, 0.70, 0.30),
          (131, 0.83, 0.50), (163, 0.58, 0.35), (196, 0.79, 0.42), (224, 0.66, 0.30),
          (252, 0.85, 0.52), (283, 0.60, 0.32), (311, 0.81, 0.40), (342, 0.68, 0.30))


def _station_art(flats: float, accent: str) -> list[Item]:
    """Two orbits round the centre and a scatter of stars: the station looks like the
    piece it is, not a plain hex (drawn faint, under the labels and the stubs)."""
    s = flats / 50.0
    r = hexgeo.circumradius(flats)
    items: list[Item] = [
        Path(_ellipse_path(r * 0.74, r * 0.30, -18.0), Style(stroke=accent, width=0.35 * s,
                                                             opacity=0.45), cls="station-art"),
        Path(_ellipse_path(r * 0.66, r * 0.24, 32.0), Style(stroke=accent, width=0.30 * s,
                                                            opacity=0.35), cls="station-art"),
    ]
    for angle, k, size in _STARS:
        a = math.radians(angle)
        x, y = r * k * 0.86 * math.cos(a), r * k * 0.86 * math.sin(a)
        items.append(Polygon(star(x, y, size * s, size * s * 0.4, 4), Style(fill=WHITE,
                                                                          opacity=0.7),
                             cls="station-art"))
    return items


def _ellipse_path(rx: float, ry: float, turn: float) -> tuple[tuple[str | float, ...], ...]:
    pts = _ellipse(rx, ry, turn)
    return (("M", *pts[0]), *(("L", *p) for p in pts[1:]), ("Z",))


def _side_band(flats: float, side: int, colour: str, cls: str) -> Polygon:
    """A band along the inside of one side of a hex (for start lines and barriers)."""
    pts = hexgeo.corners((0.0, 0.0), flats)
    a, b = (pts[i] for i in hexgeo.side_corners(side))
    depth = 3.0 * flats / 50.0
    k = 1.0 - depth / (flats / 2.0)
    return Polygon((a, b, (b[0] * k, b[1] * k), (a[0] * k, a[1] * k)),
                   Style(fill=colour, stroke=INK, width=0.2), cls=cls)


# --- start-line and barrier markers --------------------------------------------------

MARKER_DEPTH_MM = 8.0


def marker_outline(across_flats: float) -> tuple[hexgeo.Point, ...]:
    """A trapezoid that lies along one inner side of the station, centred on (0, 0)."""
    side_len = hexgeo.circumradius(across_flats)
    d = MARKER_DEPTH_MM * across_flats / 50.0
    inset = d / math.tan(math.radians(60))
    return ((-side_len / 2, -d / 2), (side_len / 2, -d / 2),
            (side_len / 2 - inset, d / 2), (-side_len / 2 + inset, d / 2))


def marker_size(across_flats: float) -> tuple[float, float]:
    return hexgeo.circumradius(across_flats), MARKER_DEPTH_MM * across_flats / 50.0


SEAT_GLYPHS = ("circle", "square", "triangle", "diamond", "star", "cross")


def seat_glyph(seat: int, radius: float, fill: str, edge: str | None = None) -> list[Item]:
    """Seat ``seat``'s (0-based) own shape, centred on (0, 0) within ``radius``: P1 a disc,
    P2 a square, P3 a triangle, P4 a diamond, P5 a star, P6 a cross. With the seat colours
    they tell the seats apart in black and white and for colour-blind players too."""
    kind = SEAT_GLYPHS[seat % len(SEAT_GLYPHS)]
    style = Style(fill=fill, stroke=edge, width=radius * 0.14) if edge else Style(fill=fill)
    r = radius
    cls = f"seat-glyph {kind}"
    if kind == "circle":
        return [Circle(0.0, 0.0, r * 0.9, style, cls=cls)]
    if kind == "square":
        a = r * 0.78
        return [Polygon(((-a, -a), (a, -a), (a, a), (-a, a)), style, cls=cls)]
    if kind == "triangle":
        return [Polygon(((0.0, -r), (r * 0.92, r * 0.62), (-r * 0.92, r * 0.62)), style,
                        cls=cls)]
    if kind == "diamond":
        return [Polygon(((0.0, -r), (r * 0.78, 0.0), (0.0, r), (-r * 0.78, 0.0)), style,
                        cls=cls)]
    if kind == "star":
        return [Polygon(star(0.0, 0.0, r, r * 0.45), style, cls=cls)]
    a, b = r * 0.92, r * 0.32
    return [Polygon(((-b, -a), (b, -a), (b, -b), (a, -b), (a, b), (b, b), (b, a), (-b, a),
                     (-b, b), (-a, b), (-a, -b), (-b, -b)), style, cls=cls)]


def _marker_stamp(defs: object, flats: float, ink: str) -> list[Item]:
    """The design stamp along the short edge of a start-line or barrier marker."""
    text = stamp_text(defs)
    if text is None:
        return []
    h = marker_size(flats)[1]
    size = fit_size(text, 1.1, 12.0)
    return stamp_items(defs, 0.0, h / 2.0 - 0.9, size, fill=ink)


def start_marker_items(defs: OrbitusDefinitions, seat: int, across_flats: float | None = None,
                       bleed: float = 0.0, label: str | None = None,
                       stamp: bool = False) -> list[Item]:
    """A start-line marker for seat ``seat`` (0-based), in that seat's colour, with the
    seat's glyph (:func:`seat_glyph`) and ``label`` (default: the seat, P1 ... P6)."""
    flats = across_flats or defs.sectors.hex_across_flats_mm
    colour = defs.station.player_colours[seat]
    shape = marker_outline(flats)
    w, h = marker_size(flats)
    label = label or f"P{seat + 1}"
    ink = ink_on(colour)
    g = h * 0.22  # the glyph's radius
    inset = h / math.tan(math.radians(60))  # the slopes take this much at the bottom
    room = w - 1.5 * inset - 1.6 - 2.6 * g  # the label's width beside the glyph
    items: list[Item] = [
        Polygon(offset_polygon(shape, bleed) if bleed else shape, Style(fill=colour),
                cls="marker-face"),
    ]
    try:  # on one line beside the glyph, at least 6 pt
        size = fit_lines(label, h * 0.5, room, bold=True, what="a start-line marker").size
        lines: tuple[str, ...] = (label,)
    except FitError:  # else the seat beside the glyph, the word below ("P1 ·" / "partenza")
        head, _, rest = label.partition(" · ")
        lines = (head, rest) if rest else fit_lines(label, h * 0.36, room, max_lines=2,
                                                    bold=True, what="a start-line marker").lines
        size = min(fit_lines(line, h * 0.36, w - 2 * inset - 1.6, bold=True,
                             what="a start-line marker").size for line in lines)
    lead = size * 1.12
    top = -h * 0.04 - (len(lines) - 1) * lead / 2.0  # the first line's middle
    if stamp and stamp_text(defs) is not None:  # the lowest line clear of the stamp's line
        low = top + (len(lines) - 1) * lead + size * (0.729 / 2.0 + 0.25)
        top -= max(0.0, low - (h / 2.0 - 2.1))
    width = text_width(lines[0], size, True)
    gx = -(width + 2.6 * g) / 2.0 + g
    items.append(Group(tuple(seat_glyph(seat, g, ink)), (gx, top)))
    items.append(Text(gx + 1.6 * g, top + size * 0.729 / 2.0, lines[0], size, fill=ink,
                      bold=True))
    for k, line in enumerate(lines[1:], start=1):
        items.append(Text(0.0, top + k * lead + size * 0.729 / 2.0, line, size, fill=ink,
                          bold=True, anchor="middle"))
    return [
        *items,
        *(_marker_stamp(defs, flats, ink) if stamp else []),
        Polygon(shape, Style(stroke=INK, width=0.25), cls="marker-outline"),
    ]


def barrier_marker_items(defs: OrbitusDefinitions, across_flats: float | None = None,
                         bleed: float = 0.0, label: str = "", stamp: bool = False) -> list[Item]:
    """A barrier marker: closes one station side (counts as a blank side); ``label`` is the
    word printed on it (its stripes say it without words too)."""
    flats = across_flats or defs.sectors.hex_across_flats_mm
    colour = defs.station.barrier_colour
    shape = marker_outline(flats)
    w, h = marker_size(flats)
    stripes: list[Item] = []
    x = -w
    while x < w:
        stripes.append(Polyline(((x, h), (x + h * 1.4, -h)), Style(stroke="#f2f2f2", width=1.1)))
        x += 3.2
    return [
        Polygon(offset_polygon(shape, bleed) if bleed else shape, Style(fill=colour),
                cls="marker-face"),
        Group(tuple(stripes), clip=Polygon(shape, Style())),
        Rect(-w * 0.3, -h * 0.3, w * 0.6, h * 0.6, Style(fill="#f2f2f2", stroke=INK, width=0.2),
             rx=0.8),
        text_centred(0.0, 0.0, label, fit_size(label, h * 0.42, w * 0.54, bold=True),
                     fill=INK, bold=True),
        *(_marker_stamp(defs, flats, WHITE) if stamp else []),
        Polygon(shape, Style(stroke=INK, width=0.25), cls="marker-outline"),
    ]


def component(items: list[Item], width: float, height: float, title: str) -> Drawing:
    """A standalone drawing of centred items (for one SVG per component)."""
    return Drawing(width, height, [Group(tuple(items), (width / 2.0, height / 2.0))], title)
