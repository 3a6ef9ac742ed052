"""Diagrams for the rule booklets and player aids, drawn with the components themselves.

Each function returns an :class:`~generator.typeset.markup.Art` (items with the top-left
at (0, 0), and the natural size in mm); the typesetter scales it to the column.
Diagrams carry no words, only numbers, IDs and symbols, so every language's text
uses the same drawings and explains them in its caption. Numbers shown (block
points, setups, hand size) come from the definitions.

- Orbitus: closed blocks (a triangle and a ring; a ring with a hub), the
  start lines for every player count with a hand of face-down sectors, and an
  open-route example.
- Satellites: a colony with its control (tokens on a board fragment with the
  totals), and the setup (the board with its zones and an example deal).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from cards.definitions import OrbitusDefinitions, SatellitesDefinitions
from cards.models import SectorDef
from generator.components import orbitus as orb
from generator.components import satellites as sat
from generator.drawing import (
    Circle,
    Group,
    Item,
    Polygon,
    Polyline,
    Rect,
    Style,
    Text,
    text_centred,
)
from generator.typeset.markup import Art, signed
from rules import hexgeo
from rules.game import SetupError
from rules.orbitus.analysis import BITS, Analysis
from rules.orbitus.blocks import Loop, closed_loops
from rules.orbitus.ruleset import Scoring, mask_of
from rules.satellites import analysis as satellites_analysis
from rules.satellites.engine import deal
from rules.satellites.table import table

INK = "#1d1d1f"
MUTED = "#5a5a5a"
LOOP = "#e8a317"

Cell = hexgeo.Hex


# --- Orbitus: sectors laid out on a patch of table ---------------------------------------


def pick_sector(defs: OrbitusDefinitions, sides: frozenset[int],
                used: dict[str, int]) -> tuple[SectorDef, int, bool]:
    """A deck sector whose routes, turned by some ``rot``, are exactly ``sides``.

    Planet sectors first (they read best), then void, then pirates; copies already
    used are skipped. Returns ``(sector, rot, from_deck)``; when the deck has no such
    card, a stand-in without an ID is returned (``from_deck`` False).
    """
    order = sorted(defs.sectors.sectors,
                   key=lambda s: {"planet": 0, "void": 1, "pirate": 2}[s.centre])
    for sector in order:
        if used.get(sector.id, 0) >= sector.count:
            continue
        for rot in range(6):
            if hexgeo.rotate_sides(sector.route_sides, rot) == sides:
                used[sector.id] = used.get(sector.id, 0) + 1
                return sector, rot, True
    stand_in = SectorDef(id="X", routes=[hexgeo.SIDES[s] for s in sorted(sides)])
    return stand_in, 0, False


def _needed_sides(cells: Sequence[Cell], links: Sequence[tuple[Cell, Cell]]) -> dict[Cell,
                                                                                    set[int]]:
    sides: dict[Cell, set[int]] = {c: set() for c in cells}
    for a, b in links:
        sides[a].add(hexgeo.side_towards(a, b))
        sides[b].add(hexgeo.side_towards(b, a))
    return sides


def _patch(defs: OrbitusDefinitions, cells: Sequence[Cell], links: Sequence[tuple[Cell, Cell]],
           used: dict[str, int], flats: float) -> tuple[list[Item], dict[Cell, int]]:
    """Sectors at ``cells`` whose routes are exactly the ``links`` between them; and the
    route masks they lie with, for the rules core to analyse."""
    sides = _needed_sides(cells, links)
    items: list[Item] = []
    masks: dict[Cell, int] = {}
    for cell in cells:
        sector, rot, real = pick_sector(defs, frozenset(sides[cell]), used)
        items.append(Group(tuple(orb.sector_items(sector, defs, flats, rot, show_id=False,
                                                  fiducial=False)),
                           hexgeo.centre(cell, flats), cls="diagram-sector"))
        masks[cell] = mask_of(hexgeo.rotate_sides(sector.route_sides, rot))
    return items, masks


def _blocks(masks: dict[Cell, int]) -> list[Loop]:
    """The closed blocks of a patch of sectors, as the rules core finds them: the sectors
    joined where their routes meet (the analysis), the bounded faces of that drawing."""
    info = Analysis({}, 0, masks)
    return closed_loops({info.cells[i]: info.joined[i] for i in range(len(info.cells))})


def _badge(x: float, y: float, label: str, r: float) -> list[Item]:
    return [
        Circle(x, y, r, Style(fill="#ffffff", stroke=LOOP, width=r * 0.22), cls="block-badge"),
        text_centred(x, y, label, r * 1.15, fill=INK, bold=True),
    ]


def _face(points: Sequence[hexgeo.Point], width: float) -> list[Item]:
    """A closed block's face: a tinted area with the loop traced along the routes."""
    return [
        Polygon(tuple(points), Style(fill=LOOP, opacity=0.18), cls="block-face"),
        Polygon(tuple(points), Style(stroke=LOOP, width=width, join="round"), cls="block-loop"),
    ]


def _block_faces(loops: Sequence[Loop], flats: float, s: float, width: float,
                 badge: float) -> list[Item]:
    """Every closed block drawn as a tinted face along its loop, its size on a badge at the
    loop's centre."""
    items: list[Item] = []
    for loop in loops:
        points = [hexgeo.centre(c, flats) for c in loop.sectors]
        items += _face(points, width * s)
    for loop in loops:
        points = [hexgeo.centre(c, flats) for c in loop.sectors]
        cx = sum(p[0] for p in points) / len(points)
        cy = sum(p[1] for p in points) / len(points)
        items += _badge(cx, cy, str(loop.size), badge * s)
    return items


def _bounds(centres: Sequence[hexgeo.Point], flats: float) -> tuple[float, float, float, float]:
    r = hexgeo.circumradius(flats)
    xs = [x for x, _ in centres]
    ys = [y for _, y in centres]
    return min(xs) - r, min(ys) - flats / 2, max(xs) + r, max(ys) + flats / 2


def _panel(items: list[Item], cells: Sequence[Cell], flats: float, caption: str,
           caption_size: float) -> tuple[list[Item], float, float]:
    """Items shifted so their hexes start at (0, 0), with a caption line below."""
    x0, y0, x1, y1 = _bounds([hexgeo.centre(c, flats) for c in cells], flats)
    w, h = x1 - x0, y1 - y0
    out: list[Item] = [Group(tuple(items), (-x0, -y0))]
    out.append(Text(w / 2.0, h + caption_size * 1.5, caption, caption_size, fill=INK,
                    anchor="middle", bold=True, cls="diagram-label"))
    return out, w, h + caption_size * 2.0


def _row(panels: Sequence[tuple[list[Item], float, float]], gap: float) -> Art:
    items: list[Item] = []
    x = 0.0
    height = max(p[2] for p in panels)
    for panel_items, w, h in panels:
        items.append(Group(tuple(panel_items), (x, height - h)))
        x += w + gap
    return Art(tuple(items), x - gap, height)


RING = [hexgeo.neighbour((0, 0), d) for d in range(6)]


def _sizes_caption(loops: Sequence[Loop], scoring: Scoring) -> str:
    """``3 → +1`` for one block; ``6 × (3 → +1) = +6`` for several of one size."""
    sizes = sorted({loop.size for loop in loops})
    parts = []
    for size in sizes:
        k = sum(1 for loop in loops if loop.size == size)
        one = f"{size} → {signed(scoring.block_points(size))}"
        parts.append(one if k == 1 else
                     f"{k} × ({one}) = {signed(k * scoring.block_points(size))}")
    return " · ".join(parts)


def closed_blocks(defs: OrbitusDefinitions, labels: float = 1.0) -> Art:
    """Left: three sectors around one corner, a block of 3. Right: a ring of six around an
    empty cell, one block of 6. Under each: size → points from the scoring table.
    ``labels``: the badges and captions that many times their size (a small print)."""
    flats = defs.sectors.hex_across_flats_mm
    s = flats / 50.0
    scoring = defs.ruleset.scoring
    used: dict[str, int] = {}
    label = 8.5 * s * labels
    # the triangle: (0,0), its NE and SE neighbours meet at one corner
    tri = [(0, 0), (1, -1), (1, 0)]
    tri_links = [(tri[0], tri[1]), (tri[1], tri[2]), (tri[2], tri[0])]
    tri_items, tri_masks = _patch(defs, tri, tri_links, used, flats)
    tri_loops = _blocks(tri_masks)
    tri_items += _block_faces(tri_loops, flats, s, 1.2, 6.0 * labels)
    left = _panel(tri_items, tri, flats, _sizes_caption(tri_loops, scoring), label)
    # the ring of six around an empty cell
    ring_links = [(RING[d], RING[(d + 1) % 6]) for d in range(6)]
    ring_items, ring_masks = _patch(defs, RING, ring_links, used, flats)
    ring_items.append(Polygon(orb.hex_points(flats), Style(fill="#ffffff", stroke="#9a9a9a",
                                                           width=0.35 * s, dash=(2.0, 1.6)),
                              cls="empty-cell"))
    ring_loops = _blocks(ring_masks)
    ring_items += _block_faces(ring_loops, flats, s, 1.2, 8.0 * labels)
    right = _panel(ring_items, RING, flats, _sizes_caption(ring_loops, scoring), label)
    return replace(_row([left, right], 10.0 * s),
                   relabel=lambda f: closed_blocks(defs, labels * f))


HEX_MM = 24.0  # a sector in a diagram is drawn at most this wide across flats


def _max_scale(defs: OrbitusDefinitions) -> float:
    return HEX_MM / defs.sectors.hex_across_flats_mm


def closed_block_hub(defs: OrbitusDefinitions) -> Art:
    """The ring with a seventh sector in its centre joined to all six: six blocks of 3."""
    flats = defs.sectors.hex_across_flats_mm
    s = flats / 50.0
    used: dict[str, int] = {}
    cells = [(0, 0), *RING]
    links = [(RING[d], RING[(d + 1) % 6]) for d in range(6)] + [((0, 0), c) for c in RING]
    items, masks = _patch(defs, cells, links, used, flats)
    loops = _blocks(masks)
    items += _block_faces(loops, flats, s, 1.0, 4.2)
    panel = _panel(items, cells, flats, _sizes_caption(loops, defs.ruleset.scoring), 6.5 * s)
    return Art(tuple(panel[0]), panel[1], panel[2], _max_scale(defs))


def open_routes(defs: OrbitusDefinitions, side_names: Sequence[str] | None = None) -> Art:
    """The station with one player's start lines and two sectors: every route that faces an
    empty cell is open (marked with the open-route points, as the rules core finds them)."""
    flats = defs.sectors.hex_across_flats_mm
    s = flats / 50.0
    used: dict[str, int] = {}
    start_lines = {0: 0, 1: 0}  # the player's start lines: the station's N and NE sides
    items: list[Item] = [Group(tuple(orb.station_items(defs, flats, start_lines=start_lines,
                                                       barriers=(), fiducial=False,
                                                       side_names=side_names, texts=False)),
                               (0.0, 0.0))]
    # N of the station: a sector matching the start line, with two more routes
    north, north_east = (0, -1), (1, -2)
    placements = [(north, frozenset({3, 1, 5})), (north_east, frozenset({4, 0}))]
    masks: dict[Cell, int] = {}
    for cell, sides in placements:
        sector, rot, real = pick_sector(defs, sides, used)
        items.append(Group(tuple(orb.sector_items(sector, defs, flats, rot, show_id=False,
                                                  fiducial=False)),
                           hexgeo.centre(cell, flats)))
        masks[cell] = mask_of(hexgeo.rotate_sides(sector.route_sides, rot))
    # open ends: the route sides of the player's system that face empty cells
    penalty = signed(defs.ruleset.scoring.open_route)
    info = Analysis(start_lines, 1, masks)
    for i in info.system(0):
        cell = info.cells[i]
        for side in BITS[info.open_sides(i)]:
            mid = hexgeo.side_midpoint(hexgeo.centre(cell, flats), flats, side)
            items.append(Circle(mid[0], mid[1], 4.4 * s, Style(fill="#ffffff", stroke="#b3261e",
                                                               width=0.7 * s), cls="open-route"))
            items.append(text_centred(mid[0], mid[1], penalty, 4.8 * s, fill="#b3261e",
                                      bold=True))
    # the station's other open start line (NE) also lies open but scores nothing
    cells = [(0, 0), north, north_east]
    x0, y0, x1, y1 = _bounds([hexgeo.centre(c, flats) for c in cells], flats)
    pad = 5.0 * s
    return Art((Group(tuple(items), (-x0 + pad, -y0 + pad)),), x1 - x0 + 2 * pad,
               y1 - y0 + 2 * pad, _max_scale(defs))


def setups(defs: OrbitusDefinitions, side_names: Sequence[str] | None = None) -> Art:
    """The station for every player count (start lines in seat colours, barriers) and a
    hand of face-down sectors, in a grid of three columns."""
    flats = defs.sectors.hex_across_flats_mm
    s = flats / 50.0
    r = hexgeo.circumradius(flats)
    cell_w, cell_h = 2 * r + 16.0 * s, flats + 24.0 * s
    panels: list[list[Item]] = []
    for setup in defs.ruleset.start_lines:
        seats = setup.owners()
        barriers = list(setup.barriers)
        items: list[Item] = [Group(tuple(orb.station_items(defs, flats, seats, barriers,
                                                           fiducial=False,
                                                           side_names=side_names,
                                                           texts=False)))]
        for side, seat in seats.items():
            mid = hexgeo.side_midpoint((0.0, 0.0), flats, side)
            k = 1.0 + 6.0 * s / (flats / 2.0)
            colour = defs.station.player_colours[seat % len(defs.station.player_colours)]
            items.append(text_centred(mid[0] * k, mid[1] * k, f"P{seat + 1}", 5.8 * s,
                                      fill=colour, bold=True, cls="seat-label"))
        items += _count_badge(-cell_w / 2.0 + 6.0 * s, -cell_h / 2.0 + 6.0 * s,
                              str(setup.players), s, defs.station.colour)
        panels.append(items)
    # the hand: face-down sectors fanned, with the hand size
    hand = defs.ruleset.hand_size
    back = orb.back_items(defs, flats, texts=False)
    fan: list[Item] = []
    spread = 8.0
    for i in range(hand):
        angle = spread * (i - (hand - 1) / 2.0)
        fan.append(Group((Group(tuple(back), (0.0, -flats * 0.55), scale=0.62),),
                         (0.0, flats * 0.3), rotate=angle))
    fan += _count_badge(-cell_w / 2.0 + 6.0 * s, -cell_h / 2.0 + 6.0 * s, f"{hand}",
                        s, defs.sectors.back.colour, hand_mark=True)
    panels.append(fan)
    cols = 3
    items = []
    for k, panel in enumerate(panels):
        row, col = divmod(k, cols)
        items.append(Group(tuple(panel), (col * cell_w + cell_w / 2.0,
                                          row * cell_h + cell_h / 2.0)))
    rows = math.ceil(len(panels) / cols)
    return Art(tuple(items), cols * cell_w, rows * cell_h)


def _count_badge(x: float, y: float, label: str, s: float, colour: str,
                 hand_mark: bool = False) -> list[Item]:
    items: list[Item] = [Circle(x, y, 5.2 * s, Style(fill=colour), cls="count-badge"),
                         text_centred(x, y, label, 5.6 * s, fill="#ffffff", bold=True)]
    if hand_mark:  # a small card outline next to the number: "cards in hand"
        items.append(Rect(x + 6.6 * s, y - 3.6 * s, 5.0 * s, 7.2 * s,
                          Style(fill="#ffffff", stroke=colour, width=0.6 * s), rx=0.8 * s))
    return items


# --- Satellites -----------------------------------------------------------------------------

# the example corner of the colony diagram, as (row, col, colour, value): the rules core says
# what it is (a colony of four, a pair, two lone satellites) and who controls it
COLONY = [(1, 1, "red", 3), (1, 2, "blue", 2), (2, 2, "red", 1), (2, 3, "blue", 4)]
PAIR = [(4, 0, "red", 2), (4, 1, "blue", 3)]
LONE = [(0, 4, "blue", 1), (4, 4, "red", 4)]
COLONY_BOARD = 5  # the corner drawn: 5 x 5 cells, the smallest board the scorer reads


def colony(defs: SatellitesDefinitions) -> Art:
    """A corner of the board: a colony of four (blue controls it, 6 against 4), a pair that
    is no colony, and two lone satellites; under it the colony's totals by colour. The
    connections, the colony and its controller come from the rules core's analysis."""
    n = COLONY_BOARD
    geo, board = sat.board_items(defs, size=n, zones=False, trackers=False, miniature=True)
    cell = geo.cell
    items: list[Item] = list(board)
    tokens = COLONY + PAIR + LONE
    tb = table(n)
    cells = [0] * (n * n)
    for row, col, colour, value in tokens:
        cells[row * n + col] = value if colour == "red" else -value
    red, blue, vals = satellites_analysis.masks(cells)
    found = [g for g in satellites_analysis.groups(tb, red, blue, vals, defs.ruleset)
             if g.colony]
    for g in found:
        for row, col in g.cells:
            x, y = geo.cell_origin(row, col)
            items.append(Rect(x + 0.8, y + 0.8, cell - 1.6, cell - 1.6,
                              Style(fill=LOOP, opacity=0.28), rx=2.0, cls="colony-cell"))
    for a, b in satellites_analysis.links(tb, red, blue):
        pa = geo.cell_centre(*tb.rc(a))
        pb = geo.cell_centre(*tb.rc(b))
        items.append(Polyline((pa, pb), Style(stroke=INK, width=cell * 0.16, cap="round"),
                              cls="connection"))
    items += sat.tokens_at(defs, geo, tokens)
    # the totals under the board: red sum, blue sum, the controller ticked
    y = geo.height + 4.0
    size = cell * 0.27
    winner = found[0].controller if found else None
    for k, colour in enumerate(("red", "blue")):
        values = [v for _, _, c, v in COLONY if c == colour]
        cy = y + size * 0.9 + k * size * 1.9
        look = sat.player(defs, colour)
        token = [i for i in sat.satellite_token(defs, colour, sum(values), size * 2.3,
                                                 cut_line=False, fiducial=False) if i.cls != "pip"]
        x0 = geo.label + cell * 0.5
        items.append(Group(tuple(token), (x0, cy)))
        sum_text = " + ".join(str(v) for v in values) + f" = {sum(values)}"
        mark = "  ✔" if colour == winner else ""
        items.append(Text(x0 + size * 1.8, cy + size * 0.36, sum_text + mark, size,
                          fill=look.colour, bold=True, cls="colony-total"))
    height = y + size * 3.8
    return Art(tuple(items), geo.width, height)


def satellites_setup(defs: SatellitesDefinitions, seed: int = 7) -> Art:
    """The board with both players' setup zones and one example deal (the rules core's deal
    for ``seed``: the low values one cell inward)."""
    geo, board = sat.board_items(defs, zones=True, trackers=False, miniature=True)
    try:
        dealt = deal(defs.ruleset, seed)
    except SetupError:  # zones that do not take every satellite: show the zones alone
        return Art(tuple(board), geo.width, geo.height)
    placed = [(*dealt.table.rc(i), "red" if s > 0 else "blue", abs(s))
              for i, s in enumerate(dealt.cells) if s]
    items = list(board) + sat.tokens_at(defs, geo, placed)
    return Art(tuple(items), geo.width, geo.height)
