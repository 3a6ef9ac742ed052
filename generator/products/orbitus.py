"""The Orbitus printables: sector sheets (fronts and duplex backs), the station with its
markers, one SVG per component, and the score pad, player aids and booklets.

Every product module (one per game in :func:`rules.names`) offers the same functions:
``load``, ``steps``, ``components`` and ``tts_files``.
"""

from __future__ import annotations

from pathlib import Path

from cards.definitions import OrbitusDefinitions, load_orbitus
from generator import aids
from generator.backends.pdf import render_pdf
from generator.backends.svg import render_svg
from generator.components import orbitus as orb
from generator.drawing import Drawing, Group, Item, Polygon, Style, Text, offset_polygon
from generator.options import BuildOptions, Step, caption
from generator.sheets import (
    MARGIN_MM,
    box_crop_marks,
    caption_lines,
    grid_slots,
    hex_crop_marks,
    hex_obstacles,
    honeycomb_slots,
    mirror_x,
    page_size,
)
from rules.hexgeo import SIDES, circumradius

TITLE = "Orbitus"
CAPTION = "#444444"


def load(cards: Path | None) -> OrbitusDefinitions:
    return load_orbitus(cards)



def sector_sheets(defs: OrbitusDefinitions, opts: BuildOptions) -> list[Drawing]:
    """Fronts and backs on alternate pages; each back sits behind its front (long-edge duplex)."""
    page = page_size(opts.page)
    flats = defs.sectors.hex_across_flats_mm
    bleed = opts.bleed_mm
    sheet = honeycomb_slots(page, flats, bleed)
    copies = [s for s in defs.sectors.sectors for _ in range(s.count)]
    per_page = len(sheet.centres)
    sheets = [copies[i:i + per_page] for i in range(0, len(copies), per_page)]
    pages: list[Drawing] = []
    back = orb.back_items(defs, flats, bleed)
    for n, cards in enumerate(sheets, start=1):
        centres = sheet.centres[:len(cards)]
        front = Drawing(page[0], page[1], title=f"Orbitus sectors, sheet {n} fronts")
        if bleed:
            for c in centres:
                front.add(Polygon(offset_polygon(orb.hex_points(flats, c), bleed),
                                  Style(fill=defs.sectors.background), cls="bleed"))
        for c, sector in zip(centres, cards, strict=True):
            front.add(Group(tuple(orb.sector_items(sector, defs, flats)), c, cls="sector"))
        front.extend(hex_crop_marks(centres, flats, bleed))
        obstacles = hex_obstacles(centres, flats, bleed)
        front.extend(caption_lines(page, [f"Orbitus sectors: sheet {n} of {len(sheets)}, fronts",
                                          "print at 100 %, two-sided,",
                                          "flip on the long edge"], obstacles))
        back_page = Drawing(page[0], page[1], title=f"Orbitus sectors, sheet {n} backs")
        for c in centres:
            x, y = mirror_x(c, page[0])
            back_page.add(Group(tuple(back), (x + opts.back_offset[0], y + opts.back_offset[1]),
                                cls="sector-back"))
        pages += [front, back_page]
    return pages


def station_sheet(defs: OrbitusDefinitions, opts: BuildOptions) -> list[Drawing]:
    """The station, its start-line and barrier markers, and the start-line table."""
    page = page_size(opts.page)
    flats = defs.sectors.hex_across_flats_mm
    bleed = opts.bleed_mm
    d = Drawing(page[0], page[1], title="Orbitus station and markers")
    centre = (page[0] / 2.0, MARGIN_MM + 14.0 + flats / 2.0)
    if bleed:
        d.add(Polygon(offset_polygon(orb.hex_points(flats, centre), bleed),
                      Style(fill=defs.station.colour), cls="bleed"))
    d.add(Group(tuple(orb.station_items(defs, flats)), centre, cls="station"))
    d.extend(hex_crop_marks([centre], flats, bleed))
    d.add(caption(page, "Orbitus station and start-line markers — print at 100 %."))
    need, barriers = marker_counts(defs)
    markers: list[list[Item]] = []
    for seat, k in enumerate(need):
        markers += [orb.start_marker_items(defs, seat, flats, bleed) for _ in range(k)]
    markers += [orb.barrier_marker_items(defs, flats, bleed) for _ in range(barriers)]
    box = orb.marker_size(flats)
    top = centre[1] + flats / 2.0 + 14.0
    area = (MARGIN_MM, top, page[0] - 2 * MARGIN_MM, page[1] - top - 66.0)
    slots = grid_slots(page, box, 2 * bleed + 6.0, bleed + 3.0, area)
    if len(slots) < len(markers):
        raise ValueError("the markers do not fit on the station sheet")
    for c, items in zip(slots, markers, strict=False):
        d.add(Group(tuple(items), c, cls="marker"))
        d.extend(box_crop_marks(c, box, bleed))
    y = page[1] - 62.0
    d.add(Text(MARGIN_MM + 10, y, "Start lines by player count (seat order P1, P2, ...)", 3.4,
               fill="#1d1d1f", bold=True))
    for i, setup in enumerate(defs.ruleset.start_lines):
        seats = " · ".join(f"P{k + 1}: {' '.join(SIDES[s] for s in lines)}"
                           for k, lines in enumerate(setup.start_lines))
        extra = (f"   barriers: {' '.join(SIDES[s] for s in setup.barriers)}"
                 if setup.barriers else "")
        d.add(Text(MARGIN_MM + 10, y + 7.0 + i * 6.0, f"{setup.players} players — {seats}{extra}",
                   3.0, fill="#1d1d1f"))
    d.add(Text(MARGIN_MM + 10, y + 7.0 + 5 * 6.0 + 2.0,
               "Lay each marker inside the station along its side; a barrier closes a side.",
               2.8, fill=CAPTION))
    return [d]


def marker_counts(defs: OrbitusDefinitions) -> tuple[list[int], int]:
    """Start-line markers per seat (the largest need over 2-6 players) and barrier markers."""
    need = [0] * 6
    start_lines = defs.ruleset.start_lines
    for setup in start_lines:
        for seat, lines in enumerate(setup.start_lines):
            need[seat] = max(need[seat], len(lines))
    return need, max(len(s.barriers) for s in start_lines)


def components(defs: OrbitusDefinitions) -> dict[str, Drawing]:
    """Every distinct Orbitus component as a standalone drawing, by file stem (SVG and PNG)."""
    flats = defs.sectors.hex_across_flats_mm
    w, h = 2 * circumradius(flats) + 2.0, flats + 2.0
    out: dict[str, Drawing] = {}
    for sector in defs.sectors.sectors:
        out[f"sector-{sector.id}"] = orb.component(orb.sector_items(sector, defs, flats), w, h,
                                                   f"Orbitus sector {sector.id}")
    out["sector-back"] = orb.component(orb.back_items(defs, flats), w, h, "Orbitus sector back")
    out["station"] = orb.component(orb.station_items(defs, flats), w, h, "Orbitus station")
    mw, mh = orb.marker_size(flats)
    for seat in range(6):
        out[f"start-marker-P{seat + 1}"] = orb.component(
            orb.start_marker_items(defs, seat, flats), mw + 2, mh + 2,
            f"Orbitus start-line marker P{seat + 1}")
    out["barrier-marker"] = orb.component(orb.barrier_marker_items(defs, flats), mw + 2, mh + 2,
                                          "Orbitus barrier marker")
    return out


def svgs(defs: OrbitusDefinitions) -> dict[str, bytes]:
    return {f"orbitus/svg/{name}.svg": render_svg(drawing)
            for name, drawing in components(defs).items()}


def steps(defs: OrbitusDefinitions, opts: BuildOptions) -> list[Step]:
    return [
        ("Orbitus sectors", lambda: {"orbitus/sectors.pdf": render_pdf(
            sector_sheets(defs, opts), "Orbitus sectors", "print-and-play sector deck")}),
        ("Orbitus station", lambda: {"orbitus/station.pdf": render_pdf(
            station_sheet(defs, opts), "Orbitus station", "station and start-line markers")}),
        ("Orbitus SVG", lambda: svgs(defs)),
        *aids.orbitus_aid_steps(defs, opts.page),  # score pad, player aids, rule booklets
    ]


def tts_files(defs: OrbitusDefinitions, root: Path) -> dict[str, bytes]:
    from generator.tts import orbitus_tts

    return orbitus_tts(defs, root)
