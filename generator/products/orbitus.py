"""The Orbitus printables: sector sheets (fronts and duplex backs), the station with its
markers, one SVG per component, and the score pad, player aids and booklets.

Every product module (one per game in :func:`rules.names`) offers the same functions:
``load``, ``steps``, ``components`` and ``tts_files``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path, PurePath

from cards.definitions import OrbitusDefinitions, load_orbitus
from cards.labels import OrbitusLabels, default_labels, fill, load_labels
from cards.models import SectorDef
from generator.backends.pdf import render_pdf
from generator.components import orbitus as orb
from generator.drawing import (
    Drawing,
    Group,
    Item,
    Polygon,
    Polyline,
    Style,
    Text,
    fit_size,
    offset_polygon,
    text_width,
)
from generator.markers.plan import orbitus_map
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
from rules.hexgeo import Point, circumradius

TITLE = "Orbitus"
CAPTION = "#444444"


def load(cards: Path | None) -> OrbitusDefinitions:
    return load_orbitus(cards)



def labels(defs: OrbitusDefinitions, opts: BuildOptions) -> OrbitusLabels:
    """The words of the kit in the language asked for (``--lang``)."""
    return load_labels(defs.folder, "orbitus", opts.lang)  # type: ignore[no-any-return]


def _print_note(words: OrbitusLabels, n: int, total: int) -> list[str]:
    return [fill(line, n=n, total=total) for line in words.sectors.note]


def sector_slots(defs: OrbitusDefinitions, opts: BuildOptions) -> tuple[tuple[float, float],
                                                                        ...]:
    """Where the hexes of a sector sheet go: the largest honeycomb that fits and still leaves
    room for the printing note (a hex gives way to it if there is none)."""
    page = page_size(opts.page)
    flats = defs.sectors.hex_across_flats_mm
    sheet = honeycomb_slots(page, flats, opts.bleed_mm, opts.gutter)
    centres = list(sheet.centres)
    note = _print_note(labels(defs, opts), 99, 99)
    while len(centres) > 1 and not caption_lines(
            page, note, hex_obstacles(centres, flats, opts.bleed_mm, opts.gutter)):
        centres.pop()
    return tuple(centres)


def _fronts(page: Drawing, defs: OrbitusDefinitions, centres: Sequence[Point],
            cards: Sequence[SectorDef], bleed: float, gutter: float) -> None:
    """The sector fronts at ``centres``: every card's bleed first (under all of them), the
    faces, and the crop marks."""
    flats = defs.sectors.hex_across_flats_mm
    if bleed:
        for c, sector in zip(centres, cards, strict=True):
            page.add(Group(tuple(orb.sector_bleed_items(sector, defs, flats, bleed)), c,
                           cls="bleed"))
    for c, sector in zip(centres, cards, strict=True):
        page.add(Group(tuple(orb.sector_items(sector, defs, flats, stamp=True)), c,
                       cls="sector"))
    page.extend(hex_crop_marks(centres, flats, bleed, gutter))


def sector_sheets(defs: OrbitusDefinitions, opts: BuildOptions) -> list[Drawing]:
    """Fronts and backs on alternate pages; each back sits behind its front (long-edge duplex).

    Every hex carries its own bleed (background and route ends carried past the cut line),
    drawn under all the cards of the page: where neighbours share a cut line, each card's
    face covers its neighbour's bleed, so every card (and every back) is cut out whole."""
    page = page_size(opts.page)
    flats = defs.sectors.hex_across_flats_mm
    bleed = opts.bleed_mm
    slots = sector_slots(defs, opts)
    words = labels(defs, opts)
    copies = [s for s in defs.sectors.sectors for _ in range(s.count)]
    per_page = len(slots)
    sheets = [copies[i:i + per_page] for i in range(0, len(copies), per_page)]
    pages: list[Drawing] = []
    back = orb.back_items(defs, flats)
    back_bleed = Polygon(offset_polygon(orb.hex_points(flats), bleed),
                         Style(fill=defs.sectors.back.colour), cls="bleed") if bleed else None
    for n, cards in enumerate(sheets, start=1):
        centres = slots[:len(cards)]
        front = Drawing(page[0], page[1], title=f"Orbitus sectors, sheet {n} fronts")
        _fronts(front, defs, centres, cards, bleed, opts.gutter)
        obstacles = hex_obstacles(centres, flats, bleed, opts.gutter)
        front.extend(caption_lines(page, _print_note(words, n, len(sheets)), obstacles))
        back_page = Drawing(page[0], page[1], title=f"Orbitus sectors, sheet {n} backs")
        places = [mirror_x(c, page[0]) for c in centres]
        places = [(x + opts.back_offset[0], y + opts.back_offset[1]) for x, y in places]
        if back_bleed is not None:
            for x, y in places:
                back_page.add(Group((back_bleed,), (x, y), cls="bleed"))
        for x, y in places:
            back_page.add(Group(tuple(back), (x, y), cls="sector-back"))
        pages += [front, back_page]
    return pages


FOLD_GAP_MM = 4.0  # from the fold line to the nearest bleed, on either half


def fold_sheets(defs: OrbitusDefinitions, opts: BuildOptions) -> list[Drawing]:
    """``--fold``: for printers without duplex. Each page holds fronts on its upper half and
    their backs on the lower half, each back the mirror image of its front's place about
    the fold line and turned half round, so that folding the lower half back along the
    dashed line puts every back behind its front; glued and cut through both layers, the
    two sides cannot be out of register. One-sided printing, fewer cards per page."""
    page = page_size(opts.page)
    flats = defs.sectors.hex_across_flats_mm
    bleed = opts.bleed_mm
    words = labels(defs, opts)
    fold = page[1] / 2.0
    lines = len(words.sectors.fold_note or [])
    head = lines * 2.4 * 1.3 + 1.5  # the note's room at the top of the page
    # the upper half below the note, its lower margin the gap to the fold
    half = (page[0], fold - head + MARGIN_MM - FOLD_GAP_MM)
    slots = list(honeycomb_slots(half, flats, bleed, opts.gutter).centres)
    # the packing sits against the fold: its lowest bleed FOLD_GAP_MM above the line
    low = max(y for _, y in slots) + flats / 2.0 + bleed
    slots = [(x, y + (fold - FOLD_GAP_MM - low)) for x, y in slots]
    copies = [s for s in defs.sectors.sectors for _ in range(s.count)]
    sheets = [copies[i:i + len(slots)] for i in range(0, len(copies), len(slots))]
    back = orb.back_items(defs, flats)
    back_bleed = Polygon(offset_polygon(orb.hex_points(flats), bleed),
                         Style(fill=defs.sectors.back.colour), cls="bleed") if bleed else None
    pages: list[Drawing] = []
    for n, cards in enumerate(sheets, start=1):
        centres = slots[:len(cards)]
        d = Drawing(page[0], page[1], title=f"Orbitus sectors, sheet {n} to fold")
        _fronts(d, defs, centres, cards, bleed, opts.gutter)
        for x, y in centres:  # the back behind it once folded: mirrored about the fold
            at = (x, 2 * fold - y)
            if back_bleed is not None:
                d.add(Group((back_bleed,), at, rotate=180.0, cls="bleed"))
            d.add(Group(tuple(back), at, rotate=180.0, cls="sector-back"))
        d.extend(_fold_line(page, fold, words.sectors.fold_line or ""))
        obstacles = hex_obstacles(centres, flats, bleed, opts.gutter)
        d.extend(caption_lines(page, [fill(line, n=n, total=len(sheets))
                                      for line in words.sectors.fold_note or []],
                               obstacles, top_only=True))
        pages.append(d)
    return pages


def _fold_line(page: tuple[float, float], y: float, label: str) -> list[Item]:
    """The dashed fold line across the page, its label in a gap at the middle."""
    size = 2.4
    width = fit_size(label, size, page[0] - 4 * MARGIN_MM) if label else size
    gap = text_width(label, width) + 6.0 if label else 0.0
    mid = page[0] / 2.0
    style = Style(stroke="#555555", width=0.3, dash=(2.0, 1.5))
    out: list[Item] = [
        Polyline(((MARGIN_MM, y), (mid - gap / 2, y)), style, cls="fold-line"),
        Polyline(((mid + gap / 2, y), (page[0] - MARGIN_MM, y)), style, cls="fold-line"),
    ]
    if label:
        out.append(Text(mid, y + width * 0.36, label, width, fill=CAPTION, anchor="middle",
                        cls="fold-label"))
    return out


def station_sheet(defs: OrbitusDefinitions, opts: BuildOptions) -> list[Drawing]:
    """The station, its start-line and barrier markers, and the start-line table."""
    page = page_size(opts.page)
    flats = defs.sectors.hex_across_flats_mm
    bleed = opts.bleed_mm
    words = labels(defs, opts).station
    d = Drawing(page[0], page[1], title="Orbitus station and markers")
    centre = (page[0] / 2.0, MARGIN_MM + 14.0 + flats / 2.0)
    if bleed:
        d.add(Polygon(offset_polygon(orb.hex_points(flats, centre), bleed),
                      Style(fill=defs.station.colour), cls="bleed"))
    d.add(Group(tuple(orb.station_items(defs, flats, side_names=labels(defs, opts).directions,
                                        stamp=True)), centre, cls="station"))
    d.extend(hex_crop_marks([centre], flats, bleed))
    d.add(caption(page, words.caption))
    need, barriers = defs.ruleset.marker_counts()
    markers: list[list[Item]] = []
    for seat, k in enumerate(need):
        label = fill(words.start_marker, seat=f"P{seat + 1}")
        markers += [orb.start_marker_items(defs, seat, flats, bleed, label, stamp=True)
                    for _ in range(k)]
    markers += [orb.barrier_marker_items(defs, flats, bleed, words.barrier_marker, stamp=True)
                for _ in range(barriers)]
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
    width = page[0] - 2 * MARGIN_MM - 20.0
    d.add(Text(MARGIN_MM + 10, y, words.table_title, fit_size(words.table_title, 3.4, width,
                                                                 bold=True),
               fill="#1d1d1f", bold=True))
    sides = labels(defs, opts).directions  # the sides as the station shows them
    for i, setup in enumerate(defs.ruleset.start_lines):
        seats = " · ".join(f"P{k + 1}: {' '.join(sides[s] for s in lines)}"
                           for k, lines in enumerate(setup.start_lines))
        row = fill(words.table_row, players=setup.players, seats=seats)
        if setup.barriers:
            row += "   " + fill(words.table_barriers,
                                sides=" ".join(sides[s] for s in setup.barriers))
        d.add(Text(MARGIN_MM + 10, y + 7.0 + i * 6.0, row, fit_size(row, 3.0, width),
                   fill="#1d1d1f"))
    d.add(Text(MARGIN_MM + 10, y + 7.0 + 5 * 6.0 + 2.0, words.table_note,
               fit_size(words.table_note, 2.8, width), fill=CAPTION))
    return [d]


def components(defs: OrbitusDefinitions, words: OrbitusLabels | None = None) -> dict[
        str, Drawing]:
    """Every distinct Orbitus component as a standalone drawing, by file stem (SVG and PNG),
    its words in the language of ``words`` (default: English)."""
    words = words or default_labels("orbitus")
    flats = defs.sectors.hex_across_flats_mm
    w, h = 2 * circumradius(flats) + 2.0, flats + 2.0
    out: dict[str, Drawing] = {}
    for sector in defs.sectors.sectors:
        out[f"sector-{sector.id}"] = orb.component(
            orb.sector_items(sector, defs, flats, stamp=True), w, h,
            f"Orbitus sector {sector.id}")
    out["sector-back"] = orb.component(orb.back_items(defs, flats), w, h, "Orbitus sector back")
    out["station"] = orb.component(orb.station_items(defs, flats, side_names=words.directions,
                                                     stamp=True), w, h, "Orbitus station")
    mw, mh = orb.marker_size(flats)
    for seat in range(6):
        out[f"start-marker-P{seat + 1}"] = orb.component(
            orb.start_marker_items(defs, seat, flats,
                                   label=fill(words.station.start_marker, seat=f"P{seat + 1}"),
                                   stamp=True),
            mw + 2, mh + 2, f"Orbitus start-line marker P{seat + 1}")
    out["barrier-marker"] = orb.component(
        orb.barrier_marker_items(defs, flats, label=words.station.barrier_marker, stamp=True),
        mw + 2,
        mh + 2, "Orbitus barrier marker")
    return out


def svgs(defs: OrbitusDefinitions, outline: bool = False,
         words: OrbitusLabels | None = None) -> dict[str, bytes]:
    """One SVG per component; ``outline``: every letter drawn as a path (--svg-text)."""
    from generator.backends.svg import render_svg  # here: comparing components needs none

    return {f"orbitus/svg/{name}.svg": render_svg(drawing, outline)
            for name, drawing in components(defs, words).items()}


def steps(defs: OrbitusDefinitions, opts: BuildOptions) -> list[Step]:
    from generator import aids  # here: comparing components needs no booklets

    return [
        ("Orbitus sectors", lambda: {"orbitus/sectors.pdf": render_pdf(
            (fold_sheets if opts.fold else sector_sheets)(defs, opts), "Orbitus sectors",
            "print-and-play sector deck")}),
        ("Orbitus station", lambda: {"orbitus/station.pdf": render_pdf(
            station_sheet(defs, opts), "Orbitus station", "station and start-line markers")}),
        ("Orbitus SVG", lambda: svgs(defs, opts.svg_text == "outline", labels(defs, opts))),
        # which printed marker is which component, for pnp-score --photo
        ("Orbitus markers", lambda: {
            "orbitus/markers.json": orbitus_map(defs).to_json().encode()}),
        # score pad, player aids, rule booklets
        *aids.orbitus_aid_steps(defs, opts.page, opts.lang),
    ]


def tts_files(defs: OrbitusDefinitions, root: PurePath | str,
              words: OrbitusLabels | None = None,
              lang: str = "en") -> dict[str, bytes]:
    from generator.tts import orbitus_tts

    return orbitus_tts(defs, root, words, lang)
