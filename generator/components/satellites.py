"""Satellites components, each described once: satellite token, board, trackers.

Tokens are centred on (0, 0); the board drawing has its top-left at (0, 0) and
carries its own coordinate labels and trackers. Red and blue stay apart in
black and white: red tokens are solid discs, blue tokens are white with a
thick ring and hatching.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from cards.definitions import SatellitesDefinitions
from cards.models import SatPlayer
from generator.components.board_geometry import BoardGeometry, board_geometry, track_box
from generator.components.markers import board_marker_items, token_marker_items
from generator.drawing import (
    CAP_HEIGHT,
    Circle,
    Drawing,
    Group,
    Item,
    Polyline,
    Rect,
    Style,
    Text,
    fit_size,
    star,
    text_centred,
    text_width,
)
from generator.drawing import Polygon as Poly
from generator.fit import FLOOR_MM, common_size, fit_lines
from generator.markers.codes import MODULES
from generator.markers.plan import QUIET, token_marker
from generator.stamp import stamp_items, stamp_text
from rules.satellites.table import column_name, setup_zones

INK = "#1d1d1f"
WHITE = "#ffffff"

def player(defs: SatellitesDefinitions, colour: str) -> SatPlayer:
    return defs.board.red if colour == "red" else defs.board.blue


def shade(colour: str, k: float) -> str:
    """``colour`` darkened towards black by the fraction ``k`` (0: as is, 1: black)."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(*(round(v * (1 - k)) for v in (r, g, b)))


CUT_WIDTH_MM = 0.25


def cut_circle(radius: float) -> list[Item]:
    """The cut line of a round piece: white and black dashes, so it reads on light and on
    dark colours alike (3:1 or better against either); class ``cut-circle``."""
    return [
        Circle(0, 0, radius, Style(stroke=WHITE, width=CUT_WIDTH_MM), cls="cut-circle"),
        Circle(0, 0, radius, Style(stroke="#000000", width=CUT_WIDTH_MM, dash=(1.2, 1.2))),
    ]


def satellite_token(defs: SatellitesDefinitions, colour: str, value: int,
                    diameter: float | None = None, bleed: float = 0.0,
                    cut_line: bool = True, fiducial: bool = True,
                    stamp: bool = False) -> list[Item]:
    """One satellite centred on (0, 0): its value as a large numeral, the value again as
    pips on both sides, colour and pattern.

    The numeral dominates (its capitals 0.38 of the diameter tall, 9.6 mm on a 25 mm
    token); the photo marker, when the deck prints them (``markers: true`` in
    satellites.yaml), sits on the lower rim below it at the size the photo reader needs
    (:mod:`generator.markers.plan`), and without one the numeral takes the middle. The
    token's edge colour runs on into the bleed (solid red, and blue's ring), so a cut that
    misses by up to ``bleed`` shows no paper; the only thin high-contrast ring is the dashed
    cut line. ``stamp``: the design stamp (:mod:`generator.stamp`) up the token's left
    side."""
    d = diameter or defs.satellites.diameter_mm
    r = d / 2.0
    look = player(defs, colour)
    s = d / 25.0
    marked = token_marker_items(defs, colour, value, d) if fiducial else []
    items: list[Item] = []
    solid = look.pattern == "solid"
    items.append(Circle(0, 0, r + bleed, Style(fill=look.colour), cls=f"satellite {colour}"))
    if solid:
        # a darker band inside the edge: a frame, not a second cut line
        items.append(Circle(0, 0, r - 1.6 * s, Style(stroke=shade(look.colour, 0.3),
                                                     width=0.8 * s)))
        ink = WHITE
    else:
        # the ring is the token's edge: it runs on into the bleed
        inner = r - 2.3 * s
        items.append(Circle(0, 0, inner, Style(fill=WHITE)))
        hatch: list[Item] = []
        k = -2 * inner
        while k <= 2 * inner:
            hatch.append(Polyline(((k - inner, inner), (k + inner, -inner)),
                                  Style(stroke=look.colour, width=0.45 * s, opacity=0.45)))
            k += 2.2 * s
        items.append(Group(tuple(hatch), clip=Circle(0, 0, inner, Style())))
        ink = look.colour
    cap = NUMERAL_SHARE * d  # the capitals' height
    if marked:
        marker = token_marker(colour, value, d)
        quiet = QUIET * marker.size / MODULES
        top = -r + 2.6 * s
        bottom = marker.y - marker.size / 2.0 - quiet - 0.9 * s
        middle = (top + bottom) / 2.0
    else:
        middle = 0.0
    if not solid:  # white under the numeral, off the hatching
        items.append(Rect(-cap * 0.48, middle - cap / 2 - 0.8 * s, cap * 0.96, cap + 1.6 * s,
                          Style(fill=WHITE), rx=1.4 * s))
    items.append(text_centred(0, middle, str(value), cap / CAP_HEIGHT, fill=ink, bold=True,
                              cls="satellite-value"))
    items.extend(_pips(value, 0.34 * d, 0.034 * d, ink))
    items.extend(marked)
    text = stamp_text(defs) if stamp else None
    if text is not None:
        size = fit_size(text, 1.2 * s, 9.5 * s)
        items.extend(stamp_items(defs, -r + 3.4 * s, 0.0, size, fill=ink, rotate=-90.0))
    if cut_line:
        items.extend(cut_circle(r))
    return items


NUMERAL_SHARE = 0.384  # the numeral's capital height, of the diameter


def track_marker(defs: SatellitesDefinitions, kind: str, diameter: float,
                 bleed: float = 0.0, cut_line: bool = True) -> list[Item]:
    """A round marker for a tracker beside the board, centred on (0, 0): ``connected``
    (half red, half blue, with two linked rings: it counts both colours) or ``grace``
    (the grace symbol on dark ink). Class ``track-marker KIND`` goes on the group."""
    r = diameter / 2.0
    outer = r + bleed
    items: list[Item] = []
    if kind == "connected":
        halves = (Rect(-outer, -outer, outer, 2 * outer, Style(fill=defs.board.red.colour)),
                  Rect(0.0, -outer, outer, 2 * outer, Style(fill=defs.board.blue.colour)))
        items.append(Group(halves, clip=Circle(0, 0, outer, Style())))
        items.append(Circle(0, 0, r * 0.62, Style(fill=WHITE)))
        ring = Style(stroke=INK, width=r * 0.11)
        items.append(Circle(-r * 0.17, 0, r * 0.27, ring))
        items.append(Circle(r * 0.17, 0, r * 0.27, ring))
    else:
        items.append(Circle(0, 0, outer, Style(fill=INK)))
        items.append(text_centred(0, 0, defs.trackers.grace.symbol, r * 1.6, fill="#f1d36b",
                                  bold=True))
    if cut_line:  # not on a piece a vendor die-cuts
        items.extend(cut_circle(r))
    return items


def _pips(value: int, radius: float, pip_r: float, fill: str) -> list[Item]:
    """``value`` pips on each side of the numeral, on an arc ``radius`` from the centre
    (a second cue to the value, counted by touch and sight, from either side)."""
    pips: list[Item] = []
    step = 17.0
    for side in (-1.0, 1.0):
        for i in range(value):
            a = math.radians(step * (i - (value - 1) / 2.0) - 12.0)
            x, y = side * radius * math.cos(a), radius * math.sin(a)
            pips.append(Circle(x, y, pip_r, Style(fill=fill), cls="pip"))
    return pips


# --- the board -----------------------------------------------------------------------


def board_items(defs: SatellitesDefinitions, size: int | None = None, *,
                zones: bool = True, trackers: bool = True,
                words: Any = None, miniature: bool = False,
                print_scale: float = 1.0, stamp: bool = False) -> tuple[BoardGeometry,
                                                                         list[Item]]:
    """The board: cells, coordinates, setup zones, inward cells, (optionally) trackers and
    (``stamp``, as printed) the design stamp in the bottom margin.
    ``miniature``: as a booklet's diagram draws it, small: larger coordinates, no values
    in the inward cells (the caption says them)."""
    geo = board_geometry(defs, size, trackers)
    b = defs.board
    n, cell, lab = geo.size, geo.cell, geo.label
    items: list[Item] = [
        Rect(0, 0, geo.width, geo.height, Style(fill=WHITE), cls="board-sheet"),
        Rect(lab, lab, n * cell, n * cell, Style(fill=b.background), cls="board-grid"),
    ]
    if not miniature:
        items += _frame(n, cell, lab)
    if zones:
        inward_label = "·".join(str(v) for v in defs.ruleset.inward_values)
        for colour in ("red", "blue"):
            look = player(defs, colour)
            starts, inward = setup_zones(defs.ruleset, colour, n)  # S-12, S-13
            for row, col in starts:
                x, y = geo.cell_origin(row, col)
                items.append(Rect(x, y, cell, cell, Style(fill=look.light), cls=f"zone {colour}"))
                items.append(Rect(x + 1.2, y + 1.2, cell - 2.4, cell - 2.4,
                                  Style(stroke=look.colour, width=0.5)))
            for row, col in inward:
                x, y = geo.cell_origin(row, col)
                items.append(Rect(x + 1.2, y + 1.2, cell - 2.4, cell - 2.4,
                                  Style(stroke=look.colour, width=0.45, dash=(1.5, 1.2)),
                                  cls=f"inward {colour}"))
                if not miniature:
                    items.append(Text(x + cell - 2.4, y + cell - 2.6, inward_label, cell * 0.13,
                                      fill=look.colour, anchor="end", bold=True))
    grid = Style(stroke=b.grid, width=0.35)
    for i in range(n + 1):
        items.append(Polyline(((lab + i * cell, lab), (lab + i * cell, lab + n * cell)), grid))
        items.append(Polyline(((lab, lab + i * cell), (lab + n * cell, lab + i * cell)), grid))
    items.append(Rect(lab, lab, n * cell, n * cell, Style(stroke=INK, width=0.8)))
    items.extend(board_marker_items(defs, (lab, lab), n, cell, lab))  # for photos
    size_txt = min(lab * 0.74, cell * 0.3) if miniature else min(lab * 0.55, cell * 0.22)
    for i in range(n):
        cx = lab + (i + 0.5) * cell
        name = column_name(i)
        items.append(text_centred(cx, lab / 2.0, name, size_txt, fill=INK, bold=True))
        items.append(text_centred(cx, lab * 1.5 + n * cell, name, size_txt, fill=INK, bold=True))
        cy = lab + (i + 0.5) * cell
        items.append(text_centred(lab / 2.0, cy, str(i + 1), size_txt, fill=INK, bold=True))
        items.append(text_centred(lab * 1.5 + n * cell, cy, str(i + 1), size_txt, fill=INK,
                                  bold=True))
    if stamp:  # in the bottom margin, right of the last column's letter
        items.extend(board_stamp_items(defs, geo, n - 1, bottom=True, miniature=miniature))
    if trackers:
        items.extend(tracker_items(defs, geo, words, print_scale))
    return geo, items


def board_stamp_items(defs: SatellitesDefinitions, geo: BoardGeometry, col: int, *,
                      bottom: bool, miniature: bool = False) -> list[Item]:
    """The design stamp in the board's coordinate margin (bottom, or top), right of the
    letter of column ``col``: inside the frame, clear of the grid and of the letter."""
    text = stamp_text(defs)
    if text is None:
        return []
    n, cell, lab = geo.size, geo.cell, geo.label
    letters = min(lab * 0.74, cell * 0.3) if miniature else min(lab * 0.55, cell * 0.22)
    size = fit_size(text, min(1.6, letters), cell * 0.38)
    y = (lab * 1.5 + n * cell if bottom else lab / 2.0) + size * 0.35
    return stamp_items(defs, lab + (col + 1) * cell - 1.0, y, size, anchor="end")


FRAME = "#dfe6f2"  # the coordinate margin's tint: the board's frame (pale: the markers
# in its corners keep their white squares, and the reader its contrast)
FRAME_LINE = "#9aa9c4"


FRAME_INSET = 3.0  # mm of white between the frame and the board's outer edge: a board cut
# at its very edge (a print shop's pad 0) has no art at the cut that a drift would show


def _frame(n: int, cell: float, lab: float) -> list[Item]:
    """The coordinate margin as the board's frame: tinted bands along the four sides,
    :data:`FRAME_INSET` inside the outer edge, the corner squares (where the photo markers
    sit) left white, their quiet zone."""
    side = n * cell
    inset = min(FRAME_INSET, lab / 3.0)
    band = lab - inset
    bands = ((lab, inset, side, band), (lab, lab + side, side, band),
             (inset, lab, band, side), (lab + side, lab, band, side))
    return [Rect(x, y, w, h, Style(fill=FRAME), cls="board-frame") for x, y, w, h in bands]


def title_art(defs: SatellitesDefinitions, title: str, height: float,
              width: float) -> tuple[list[Item], float]:
    """The game's name beside a little picture, a planet with a ring and two satellites
    (red and blue) on an orbit: the board's title, at most ``height`` high and ``width``
    wide, its left edge at x = 0 and top at y = 0. Returns the items and their width."""
    r = height * 0.30
    cx, cy = height * 0.62, height / 2.0
    red, blue = player(defs, "red").colour, player(defs, "blue").colour
    orbit = [(cx + height * 0.58 * math.cos(math.radians(a)),
              cy + height * 0.20 * math.sin(math.radians(a))) for a in range(0, 361, 8)]
    items: list[Item] = [
        Polyline(tuple(orbit), Style(stroke=FRAME_LINE, width=0.45), cls="board-art"),
        Circle(cx, cy, r, Style(fill=FRAME, stroke=INK, width=0.45), cls="board-art"),
        Circle(cx - height * 0.52, cy + height * 0.09, height * 0.08, Style(fill=red),
               cls="board-art"),
        Circle(cx + height * 0.50, cy - height * 0.10, height * 0.08,
               Style(fill=WHITE, stroke=blue, width=height * 0.045), cls="board-art"),
    ]
    art_w = cx + height * 0.70
    size = common_size([title], height * 0.62, max(1.0, width - art_w - 1.0), floor=FLOOR_MM,
                       bold=True, what="the board's title")
    items.append(Text(art_w + 1.0, cy + size * CAP_HEIGHT / 2.0, title, size, fill=INK,
                      bold=True, cls="board-title"))
    return items, art_w + 1.0 + text_width(title, size, True)


def tracker_items(defs: SatellitesDefinitions, geo: BoardGeometry,
                  words: Any = None, print_scale: float = 1.0) -> list[Item]:
    """The connected-satellites track (0..max, marked values) and the grace-move track, in
    one row each below the board."""
    box = track_box(defs, geo.size, geo.cell)
    items, _ = tracks(defs, geo.label, geo.track_top + 4.0, box,
                      defs.trackers.connected.max + 1, words, print_scale)
    return items


def tracks(defs: SatellitesDefinitions, x0: float, y: float, box: float,
           per_row: int, words: Any = None, print_scale: float = 1.0
           ) -> tuple[list[Item], float]:
    """Both tracks with their headings, the connected track in rows of ``per_row`` boxes;
    ``y`` is the first row's top. Returns the items and the bottom of the grace track.
    ``words``: the kit's labels (default: English); ``print_scale``: the scale the board
    prints at (--fit), so that the words still print at 6 pt or more."""
    from cards.labels import default_labels, fill

    said = (words or default_labels("satellites")).tracks
    t = defs.trackers
    numbers = defs.ruleset
    width = per_row * box
    floor = FLOOR_MM / print_scale  # 6 pt once printed
    heading = fit_lines(said.connected, max(3.2, floor * 1.05), width * 0.55, floor=floor,
                        bold=True, what="the connected track's heading").size
    items: list[Item] = [
        Text(x0, y - 1.2, said.connected, heading, fill=INK, bold=True),
    ]
    marked = {numbers.end_connected}
    count = t.connected.max + 1
    per_row = max(1, min(per_row, count))
    for v in range(count):
        row, k = divmod(v, per_row)
        x, top = x0 + k * box, y + row * (box + 2.0)
        hot = v in marked
        items.append(Rect(x, top, box, box, Style(fill="#f1d36b" if hot else WHITE, stroke=INK,
                                                  width=0.6 if hot else 0.3),
                          cls="track-connected" + (" marked" if hot else "")))
        items.append(text_centred(x + box / 2, top + box / 2, str(v), box * 0.38, fill=INK,
                                  bold=hot))
        if hot:
            items.append(Poly(star(x + box - 2.0, top + 2.0, 1.6, 0.7), Style(fill=INK)))
        if k == per_row - 1 and v < count - 1:  # the track goes on in the next row
            items.append(text_centred(x + box + 1.6, top + box / 2, "↵", box * 0.4, fill=INK))
    rows = (count + per_row - 1) // per_row
    if marked:
        listed = ", ".join(str(m) for m in sorted(marked))
        note = "★ " + fill(said.ends, count=listed)
        items.append(Text(x0 + per_row * box, y - 1.2, note,
                          fit_lines(note, max(2.6, floor * 1.05), width * 0.43, floor=floor,
                                    what="the connected track's note").size,
                          fill=INK, anchor="end"))
    y2 = y + rows * (box + 2.0) - 2.0 + 6.0
    grace = f"{t.grace.symbol} " + fill(said.grace, count=numbers.red.count)
    items.append(Text(x0, y2 - 1.2, grace,
                      fit_lines(grace, max(3.2, floor * 1.05), width, floor=floor, bold=True,
                                what="the grace track's heading").size, fill=INK, bold=True))
    steps = numbers.grace_moves
    labels = [f"{t.grace.symbol}{i}" if i else said.end for i in range(steps, -1, -1)]
    # one size for every step, with room to spare inside its box (the end's word too)
    size = common_size(labels, box * 0.38, box * 1.6 - 4.0, bold=True, what="a grace step")
    for i, label in zip(range(steps, -1, -1), labels, strict=True):
        x = x0 + (steps - i) * box * 1.6
        items.append(Rect(x, y2, box * 1.6, box, Style(fill=WHITE, stroke=INK, width=0.3),
                          cls="track-grace"))
        items.append(text_centred(x + box * 0.8, y2 + box / 2, label, size, fill=INK,
                                  bold=True, cls="track-grace-label"))
    # the game's name and picture at the grace track's right: the board's title
    words_all = words or default_labels("satellites")
    free = width - (steps + 1) * box * 1.6 - 4.0
    if free > box * 2.5:
        art, used = title_art(defs, words_all.pad.title, box, free)
        items.append(Group(tuple(art), (x0 + width - used, y2), cls="board-title-art"))
    return items, y2 + box


def tracker_panel(defs: SatellitesDefinitions, width: float, words: Any = None) -> Drawing:
    """The two tracks as a card of their own, no wider than ``width`` (the connected track
    wraps into rows), for printing beside a board split across pages."""
    geo = board_geometry(defs)
    box = track_box(defs, geo.size, geo.cell)
    pad = 3.0
    count = defs.trackers.connected.max + 1
    per_row = max(1, min(count, int((width - 2 * pad - 4.0) // box)))
    rows = (count + per_row - 1) // per_row
    per_row = (count + rows - 1) // rows  # rows of about equal length
    items, bottom = tracks(defs, pad, pad + 4.0, box, per_row, words)
    grace_w = (defs.ruleset.grace_moves + 1) * box * 1.6
    w = max(per_row * box + 4.0, grace_w) + 2 * pad
    frame = Rect(0, 0, w, bottom + pad, Style(fill=WHITE), cls="tracker-panel")
    stamp = stamp_items(defs, w - pad, bottom + pad - 0.8, 1.4, anchor="end")
    return Drawing(w, bottom + pad, [frame, *items, *stamp], "Satellites trackers")


def board_drawing(defs: SatellitesDefinitions, title: str = "Satellites board",
                  words: Any = None, print_scale: float = 1.0) -> Drawing:
    """The board with its trackers below (``words``: the kit's labels, default English;
    ``print_scale``: the scale it prints at, --fit)."""
    geo, items = board_items(defs, words=words, print_scale=print_scale, stamp=True)
    return Drawing(geo.width, geo.height, items, title)


def tokens_at(defs: SatellitesDefinitions, geo: BoardGeometry,
              placed: Iterable[tuple[int, int, str, int]], scale: float = 0.8) -> list[Item]:
    """Satellite tokens drawn in board cells: ``(row, col, colour, value)`` each; as the
    booklets' diagrams show them, without photo markers (the value in the middle)."""
    d = min(defs.satellites.diameter_mm, geo.cell * scale)
    out: list[Item] = []
    for row, col, colour, value in placed:
        out.append(Group(tuple(satellite_token(defs, colour, value, d, cut_line=False,
                                               fiducial=False)),
                         geo.cell_centre(row, col)))
    return out
