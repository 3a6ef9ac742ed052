"""Build the printables of each game: render everything in memory, then write atomically.

A build first loads and checks the definitions (nothing is written if they are
wrong), then renders every file, and only then replaces the files in the output
folder one by one, each through a temporary file and a rename. A failed or
interrupted build therefore leaves the previous files intact.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from cards.definitions import (
    OrbitusDefinitions,
    SatellitesDefinitions,
    load_orbitus,
    load_satellites,
)
from cards.hexgeo import circumradius
from generator import aids
from generator.backends.pdf import render_pdf
from generator.backends.svg import render_svg
from generator.components import orbitus as orb
from generator.components import satellites as sat
from generator.drawing import Drawing, Group, Item, Polygon, Style, Text, offset_polygon
from generator.output import write_atomic
from generator.sheets import (
    BLEED_MM,
    MARGIN_MM,
    box_crop_marks,
    caption_lines,
    fit_page,
    grid_slots,
    hex_crop_marks,
    hex_obstacles,
    honeycomb_slots,
    mirror_x,
    page_size,
    tile_pages,
)

GAMES = ("orbitus", "satellites")
CAPTION = "#444444"


@dataclass(frozen=True)
class BuildOptions:
    page: str = "a4"
    bleed: bool = True
    fit: bool = False
    # (x, y) mm added to every duplex back (sector backs, calibration back): printer compensation
    back_offset: tuple[float, float] = (0.0, 0.0)
    png_dpi: float | None = None  # also write <game>/png/*.png at this resolution
    tts: bool = False  # also write the Tabletop Simulator export, <game>/tts/
    out_root: Path | None = None  # absolute output folder (for the TTS file:/// URLs)

    @property
    def bleed_mm(self) -> float:
        return BLEED_MM if self.bleed else 0.0


# A build step: a name for the progress bar and a function returning {relative path: bytes}
Step = tuple[str, Callable[[], dict[str, bytes]]]


def _caption(page: tuple[float, float], text: str) -> Text:
    return Text(MARGIN_MM, MARGIN_MM + 2.6, text, 2.6, fill=CAPTION, cls="page-caption")


# --- Orbitus ---------------------------------------------------------------------------


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
    d.add(_caption(page, "Orbitus station and start-line markers — print at 100 %."))
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
    for i, setup in enumerate(sorted(defs.rules.start_lines, key=lambda s: s.players)):
        seats = " · ".join(f"P{k + 1}: {' '.join(lines)}"
                           for k, lines in enumerate(setup.start_lines))
        extra = f"   barriers: {' '.join(setup.barriers)}" if setup.barriers else ""
        d.add(Text(MARGIN_MM + 10, y + 7.0 + i * 6.0, f"{setup.players} players — {seats}{extra}",
                   3.0, fill="#1d1d1f"))
    d.add(Text(MARGIN_MM + 10, y + 7.0 + 5 * 6.0 + 2.0,
               "Lay each marker inside the station along its side; a barrier closes a side.",
               2.8, fill=CAPTION))
    return [d]


def marker_counts(defs: OrbitusDefinitions) -> tuple[list[int], int]:
    """Start-line markers per seat (the largest need over 2-6 players) and barrier markers."""
    need = [0] * 6
    for setup in defs.rules.start_lines:
        for seat, lines in enumerate(setup.start_lines):
            need[seat] = max(need[seat], len(lines))
    return need, max(len(s.barriers) for s in defs.rules.start_lines)


def orbitus_components(defs: OrbitusDefinitions) -> dict[str, Drawing]:
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


def orbitus_svgs(defs: OrbitusDefinitions) -> dict[str, bytes]:
    return {f"orbitus/svg/{name}.svg": render_svg(drawing)
            for name, drawing in orbitus_components(defs).items()}


def orbitus_steps(defs: OrbitusDefinitions, opts: BuildOptions) -> list[Step]:
    return [
        ("Orbitus sectors", lambda: {"orbitus/sectors.pdf": render_pdf(
            sector_sheets(defs, opts), "Orbitus sectors", "print-and-play sector deck")}),
        ("Orbitus station", lambda: {"orbitus/station.pdf": render_pdf(
            station_sheet(defs, opts), "Orbitus station", "station and start-line markers")}),
        ("Orbitus SVG", lambda: orbitus_svgs(defs)),
        *aids.orbitus_aid_steps(defs, opts.page),  # score pad, player aids, rule booklets
    ]


# --- Satellites ------------------------------------------------------------------------


def token_sheet(defs: SatellitesDefinitions, opts: BuildOptions) -> list[Drawing]:
    page = page_size(opts.page)
    diameter = defs.satellites.diameter_mm
    bleed = opts.bleed_mm
    tokens = [(e.colour, e.value) for e in defs.satellites.satellites for _ in range(e.count)]
    slots = grid_slots(page, (diameter, diameter), 2 * bleed + 2.0, bleed)
    pages: list[Drawing] = []
    per = len(slots)
    for n in range(0, len(tokens), per):
        d = Drawing(page[0], page[1], title="Satellites tokens")
        for c, (colour, value) in zip(slots, tokens[n:n + per], strict=False):
            d.add(Group(tuple(sat.satellite_token(defs, colour, value, diameter, bleed)), c,
                        cls="satellite"))
        d.add(_caption(page, "Satellites tokens — print at 100 %, cut along the grey circles. "
                             "Red: solid; blue: ring and hatching."))
        pages.append(d)
    return pages


def board_pages(defs: SatellitesDefinitions, opts: BuildOptions) -> list[Drawing]:
    page = page_size(opts.page)
    board = sat.board_drawing(defs)
    if opts.fit:
        return [fit_page(board, page, "Satellites board")]
    return tile_pages(board, page, "Satellites board")


def satellites_components(defs: SatellitesDefinitions) -> dict[str, Drawing]:
    """Every distinct Satellites component as a standalone drawing, by file stem."""
    d = defs.satellites.diameter_mm
    out: dict[str, Drawing] = {}
    for e in defs.satellites.satellites:
        name = f"satellite-{e.colour}-{e.value}"
        if name not in out:
            out[name] = orb.component(sat.satellite_token(defs, e.colour, e.value, d), d + 2,
                                      d + 2, f"Satellites {e.colour} {e.value}")
    out["board"] = sat.board_drawing(defs)
    return out


def satellites_svgs(defs: SatellitesDefinitions) -> dict[str, bytes]:
    return {f"satellites/svg/{name}.svg": render_svg(drawing)
            for name, drawing in satellites_components(defs).items()}


def satellites_steps(defs: SatellitesDefinitions, opts: BuildOptions) -> list[Step]:
    return [
        ("Satellites tokens", lambda: {"satellites/tokens.pdf": render_pdf(
            token_sheet(defs, opts), "Satellites tokens", "24 satellites")}),
        ("Satellites board", lambda: {"satellites/board.pdf": render_pdf(
            board_pages(defs, opts), "Satellites board", "board and trackers")}),
        ("Satellites SVG", lambda: satellites_svgs(defs)),
        *aids.satellites_aid_steps(defs, opts.page),  # score pad, player aids, rule booklets
    ]


# --- whole builds -----------------------------------------------------------------------


LOADERS: dict[str, Callable[[Path | None], Any]] = {
    "orbitus": load_orbitus, "satellites": load_satellites,
}


def game_steps(game: str, defs: Any, opts: BuildOptions) -> list[Step]:
    """Every step of one game: its printables, then the opt-in exports (PNG, TTS)."""
    from generator.export import export_steps

    steps = orbitus_steps(defs, opts) if game == "orbitus" else satellites_steps(defs, opts)
    return steps + export_steps(game, defs, opts)


def common_steps(opts: BuildOptions) -> list[Step]:
    """Steps that belong to no game (they read no definitions)."""
    from generator.calibration import calibration_step

    return [calibration_step(opts)]


def plan(games: tuple[str, ...], cards: Path | None, opts: BuildOptions) -> list[Step]:
    """Load every asked game's definitions (all problems raised together), then list steps."""
    from cards.loader import collect

    loaded = collect(*[(lambda g=g: LOADERS[g](cards)) for g in games])
    steps: list[Step] = []
    for game, defs in zip(games, loaded, strict=True):
        steps += game_steps(game, defs, opts)
    return steps + common_steps(opts)


def render(steps: list[Step]) -> Iterator[tuple[str, dict[str, bytes]]]:
    for name, step in steps:
        yield name, step()


# folders one step writes completely: files there that this build did not write are stale
# Families of files of which a build writes every member at once: once a build wrote one
# member, the others on disk are left-overs of components (or texts) no longer defined.
FAMILIES = ("svg/*.svg", "png/*.png", "tts/*.png", "tts/*.json", "rules-*.pdf",
            "player-aid-*.pdf")


def write_outputs(out_dir: Path, files: dict[str, bytes], games: tuple[str, ...]) -> None:
    """Replace each file atomically; then, in each family of files this build wrote (a
    game's SVGs, PNGs, TTS files, booklets, player aids), drop the members no longer made."""
    from fnmatch import fnmatchcase

    for rel in sorted(files):
        write_atomic(out_dir / rel, files[rel])
    for game in games:
        for family in FAMILIES:
            pattern = f"{game}/{family}"
            if not any(fnmatchcase(rel, pattern) for rel in files):
                continue
            for old in sorted((out_dir / game).glob(family)):
                rel = old.relative_to(out_dir).as_posix()
                if old.is_file() and rel not in files:
                    old.unlink()


def build(out_dir: Path, games: tuple[str, ...] = GAMES, cards: Path | None = None,
          opts: BuildOptions | None = None) -> dict[str, bytes]:
    """Build everything in memory, then write it; returns what was written."""
    opts = opts or BuildOptions()
    if opts.out_root is None:
        opts = replace(opts, out_root=out_dir.resolve())
    files: dict[str, bytes] = {}
    for _, produced in render(plan(games, cards, opts)):
        files.update(produced)
    write_outputs(out_dir, files, games)
    return files
