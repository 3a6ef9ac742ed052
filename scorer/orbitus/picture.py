"""The picture of a scored table (``--svg`` / ``--png``): a rendering of the one result.

Every sector is drawn at its cell with the same items as the printed card
(routes, centre, ID, orientation marker, turned as it lies), its face tinted
by the owner's seat colour (neutral zones grey). Closed blocks are outlined
through the hex centres of their loop, open route ends are marked with a ring
on the empty cell's side, the station shows its start lines and barriers, and
every cell carries its axial coordinates in small print so a transcriber can
check the file against the table. Cells named by a violation get a red rim.
"""

from __future__ import annotations

from cards.definitions import OrbitusDefinitions
from cards.models import SectorDef
from generator.components.orbitus import INK, sector_items, station_items
from generator.drawing import (
    Circle,
    Drawing,
    Group,
    Item,
    Polygon,
    Rect,
    Style,
    Text,
    text_centred,
    text_width,
)
from rules import hexgeo
from rules.hexgeo import SIDES, Hex
from rules.orbitus.score import Result
from rules.orbitus.table import STATION, Sector
from scorer.orbitus.report import as_layout

NEUTRAL = "#c8c8c8"
EMPTY_RIM = "#9a9a9a"
VIOLATION = "#d0021b"
OPEN_END = "#d0021b"
MAX_EXTENT_MM = 900.0  # a huge generated table is drawn smaller, not as a poster
MARGIN_MM = 12.0
HEADER_MM = 16.0


def _mix(colour: str, amount: float) -> str:
    """``colour`` blended with white: ``amount`` 0 gives white, 1 the colour itself."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(255 + (c - 255) * amount):02x}" for c in rgb)


def _card(sector: Sector) -> SectorDef:
    """The printed card a sector shows (inline sectors: a card already turned as it lies)."""
    routes = sorted(sector.routes)
    if sector.card is not None:
        routes = sorted((s - sector.rot) % 6 for s in sector.routes)
    return SectorDef.model_construct(
        id=sector.card or "inline",
        routes=[SIDES[s] for s in routes],
        planet=sector.planet,
        pirate=sector.pirate,
        count=1,
    )


def draw_table(result: Result, models: OrbitusDefinitions) -> Drawing:
    """The whole table as one drawing, sized to fit every sector and its empty neighbours."""
    layout = as_layout(result)
    sectors = layout.sectors
    cells = set(sectors) | {STATION}
    rim: set[Hex] = set()
    for cell in cells:
        for _, near in hexgeo.neighbours(cell):
            if near not in cells:
                rim.add(near)
    shown = cells | rim

    flats = models.sectors.hex_across_flats_mm
    unit = [hexgeo.centre(c, 1.0) for c in shown]
    xs = [x for x, _ in unit]
    ys = [y for _, y in unit]
    span = max(max(xs) - min(xs) + 1.2, max(ys) - min(ys) + 1.0)
    flats = min(flats, MAX_EXTENT_MM / span)
    s = flats / 50.0
    radius = hexgeo.circumradius(flats)
    left = min(xs) * flats - radius + -MARGIN_MM
    top = min(ys) * flats - flats / 2.0 - MARGIN_MM - HEADER_MM
    width = (max(xs) - min(xs)) * flats + 2 * radius + 2 * MARGIN_MM
    height = (max(ys) - min(ys)) * flats + flats + 2 * MARGIN_MM + HEADER_MM

    colours = models.station.player_colours
    owner: dict[Hex, int] = {}
    for p in result.players:
        for cell in p.sectors:
            owner[cell] = p.seat
    flagged = {f.cell for f in result.findings if f.cell is not None}

    def at(cell: Hex) -> tuple[float, float]:
        x, y = hexgeo.centre(cell, flats)
        return (x - left, y - top)

    items: list[Item] = [Rect(0.0, 0.0, width, height, Style(fill="#ffffff"))]
    for cell in sorted(rim):
        items.append(Group((
            Polygon(tuple(hexgeo.corners((0.0, 0.0), flats)),
                    Style(stroke=EMPTY_RIM, width=0.25 * s, dash=(1.5 * s, 1.5 * s))),
            _coords(cell, flats, 5, "#7a7a7a"),
        ), at(cell)))
    for cell, sector in sorted(sectors.items(), key=lambda kv: kv[1].order):
        seat = owner.get(cell)
        tint = _mix(colours[seat % len(colours)], 0.28) if seat is not None else NEUTRAL
        face = sector_items(_card(sector), models, flats, sector.rot,
                            show_id=sector.card is not None,
                            show_marker=sector.card is not None, tint=tint)
        corner = (5 + sector.rot) % 6 if sector.card is not None else 5
        items.append(Group((*face, _coords(cell, flats, corner, INK)), at(cell),
                           cls=f"sector seat-{seat}" if seat is not None else "sector neutral"))
    items.append(Group(tuple(station_items(models, flats, layout.start_lines, layout.barriers)),
                       at(STATION), cls="station"))
    for cell in sorted(c for c in flagged if c in shown):
        items.append(Group((Polygon(tuple(hexgeo.corners((0.0, 0.0), flats * 0.94)),
                                    Style(stroke=VIOLATION, width=1.2 * s, join="round")),),
                           at(cell), cls="violation"))
    for p in result.players:
        colour = colours[p.seat % len(colours)]
        for block in p.closed_blocks:
            pts = tuple(at(c) for c in block.sectors)
            items.append(Polygon(pts, Style(stroke=colour, width=2.2 * s, join="round",
                                            opacity=0.85), cls="closed-block"))
            cx = sum(x for x, _ in pts) / len(pts)
            cy = sum(y for _, y in pts) / len(pts)
            label = f"{block.size}: {block.points:+d}"
            size = 3.4 * s
            w = text_width(label, size, bold=True) + 1.6 * s
            items.append(Rect(cx - w / 2, cy - size * 0.75, w, size * 1.5,
                              Style(fill="#ffffff", stroke=colour, width=0.4 * s, opacity=0.9),
                              rx=0.8 * s))
            items.append(text_centred(cx, cy, label, size, fill=colour, bold=True,
                                      cls="block-label"))
        for end in p.open_routes:
            x, y = at(end.cell)
            mx, my = hexgeo.side_midpoint((x, y), flats, end.side)
            items.append(Circle(mx, my, 2.6 * s, Style(fill="#ffffff", stroke=OPEN_END,
                                                       width=0.9 * s), cls="open-route"))
    items.extend(_header(result, models, width))
    return Drawing(width, height, items, title=f"Orbitus table: {layout.source}")


def _coords(cell: Hex, flats: float, corner: int, colour: str) -> Text:
    """The cell's axial coordinates, tucked into one corner of the hex (clear of routes)."""
    cx, cy = hexgeo.corners((0.0, 0.0), flats * 0.62)[corner]
    return text_centred(cx, cy, f"{cell[0]},{cell[1]}", 2.6 * flats / 50.0, fill=colour,
                        cls="coords")


def _header(result: Result, models: OrbitusDefinitions, width: float) -> list[Item]:
    layout = as_layout(result)
    colours = models.station.player_colours
    status = "valid" if result.valid else f"NOT VALID ({len(result.findings)} violation(s))"
    items: list[Item] = [
        Text(MARGIN_MM, MARGIN_MM, f"Orbitus — {layout.source} — {status}", 5.0,
             fill=VIOLATION if not result.valid else INK, bold=True),
    ]
    x = MARGIN_MM
    y = MARGIN_MM + 8.0
    for p in result.players:
        colour = colours[p.seat % len(colours)]
        crown = " ★" if p.name in result.winners else ""
        label = f"{p.name}: {p.total}{crown}"
        items.append(Rect(x, y - 3.6, 4.5, 4.5, Style(fill=_mix(colour, 0.28), stroke=colour,
                                                      width=0.6)))
        items.append(Text(x + 6.5, y, label, 4.0, fill=INK))
        x += 12.0 + 2.3 * len(label)
    if result.neutral_zones:
        items.append(Rect(x, y - 3.6, 4.5, 4.5, Style(fill=NEUTRAL, stroke=INK, width=0.3)))
        items.append(Text(x + 6.5, y, "neutral", 4.0, fill=INK))
    return items
