"""The Satellites printables: the tokens, the board (tiled or fitted) with its trackers,
one SVG per component, and the score pad, player aids and booklets.

Every product module (one per game in :func:`rules.names`) offers the same functions:
``load``, ``steps``, ``components`` and ``tts_files``.
"""

from __future__ import annotations

from pathlib import Path, PurePath

from cards.definitions import SatellitesDefinitions, load_satellites
from cards.labels import SatellitesLabels, default_labels, fill, load_labels
from generator import tiling
from generator.backends.pdf import render_pdf
from generator.components import orbitus as orb
from generator.components import satellites as sat
from generator.drawing import Drawing, Group, Item
from generator.markers.plan import satellites_map
from generator.options import BuildOptions, Step, caption, caption_height
from generator.sheets import MARGIN_MM, fit_page, fit_scale, grid_slots, page_size
from rules.satellites.table import column_name

TITLE = "Satellites"


def load(cards: Path | None) -> SatellitesDefinitions:
    return load_satellites(cards)



def labels(defs: SatellitesDefinitions, opts: BuildOptions) -> SatellitesLabels:
    """The words of the kit in the language asked for (``--lang``)."""
    return load_labels(defs.folder, "satellites", opts.lang)  # type: ignore[no-any-return]


def _percent(scale: float) -> str:
    return f"{scale * 100:.0f} %"


def print_scale(defs: SatellitesDefinitions, opts: BuildOptions) -> float:
    """The scale the board prints at (1, or less with --fit): the tokens follow it."""
    if not opts.fit:
        return 1.0
    geo = sat.board_geometry(defs)
    return fit_scale((geo.width, geo.height), page_size(opts.page))


def token_sheet(defs: SatellitesDefinitions, opts: BuildOptions,
                markers: bool = True) -> list[Drawing]:
    """The 24 satellites and (``markers``) a marker for each tracker, at the board's scale
    (--fit prints them smaller, as the board, and says so)."""
    page = page_size(opts.page)
    scale = print_scale(defs, opts)
    diameter = defs.satellites.diameter_mm * scale
    geo = sat.board_geometry(defs)
    marker = (sat.track_box(defs, geo.size, geo.cell) - 1.0) * scale
    bleed = opts.bleed_mm
    pieces: list[tuple[str, list[Item]]] = [
        ("satellite", sat.satellite_token(defs, e.colour, e.value, diameter, bleed,
                                          stamp=True))
        for e in defs.satellites.satellites for _ in range(e.count)]
    if markers:
        pieces += [(f"track-marker {kind}", sat.track_marker(defs, kind, marker, bleed))
                   for kind in ("connected", "grace")]
    words = labels(defs, opts).tokens
    note = fill(words.note_fit, scale=_percent(scale)) if scale < 1 else words.note
    top = MARGIN_MM + caption_height(page, note) + 1.0  # the tokens start below the caption
    slots = grid_slots(page, (diameter, diameter), 2 * bleed + 2.0, bleed,
                       area=(MARGIN_MM, top, page[0] - 2 * MARGIN_MM,
                             page[1] - top - MARGIN_MM))
    pages: list[Drawing] = []
    per = len(slots)
    for n in range(0, len(pieces), per):
        d = Drawing(page[0], page[1], title="Satellites tokens")
        for c, (cls, items) in zip(slots, pieces[n:n + per], strict=False):
            d.add(Group(tuple(items), c, cls=cls))
        d.add(caption(page, note))
        pages.append(d)
    return pages


def board_pages(defs: SatellitesDefinitions, opts: BuildOptions) -> list[Drawing]:
    """The board at 100 % cut into pieces along its cell lines (glue flaps outside the art)
    with the trackers as a card of their own, packed onto as few pages as they fit; with
    --fit the whole board with its trackers scaled onto one page."""
    page = page_size(opts.page)
    words = labels(defs, opts)
    if opts.fit:
        scale = print_scale(defs, opts)
        board = sat.board_drawing(defs, words=words, print_scale=scale)
        return [fit_page(board, page, fill(words.board.fit, scale=_percent(scale)))]
    return tiled_board(defs, page, words)[1]


def tiled_board(defs: SatellitesDefinitions, page: tuple[float, float],
                words: SatellitesLabels | None = None) -> tuple[tiling.Tiled, list[Drawing]]:
    """How the board is split and packed, and the pages."""
    words = words or default_labels("satellites")
    geo, board = sat.board_items(defs, trackers=False, stamp=True)
    margin = 2 * tiling.MARKS + tiling.SPACE_MM
    panel = sat.tracker_panel(defs, page[0] - 2 * MARGIN_MM - margin, words)
    panel_size = (panel.width + margin, panel.height + margin)
    tiled = tiling.tile_board(geo.size, geo.cell, geo.label, page, [panel_size])
    # every piece says its design once cut out (a loose piece of an older print is seen):
    # in its outer margin, right of its last column's letter; the bottom-right piece has
    # the board's own stamp
    for p in tiled.pieces:
        if p.row1 == geo.size and p.col1 == geo.size:
            continue
        if p.row1 == geo.size or p.row0 == 0:
            board += sat.board_stamp_items(defs, geo, p.col1 - 1, bottom=p.row1 == geo.size)
    things: list[tuple[list[Item], tuple[float, float]]] = [
        (tiling.piece_items(p, board, words.board.glue), p.footprint)
        for p in tiled.pieces]
    panel_items: list[Item] = [Group(tuple(panel.items), (tiling.MARKS, tiling.MARKS))]
    panel_items += tiling.crop_marks((tiling.MARKS, tiling.MARKS, tiling.MARKS + panel.width,
                                      tiling.MARKS + panel.height))
    things.append((panel_items, panel_size))
    total = len(tiled.pages)
    captions = []
    for k, placed in enumerate(tiled.pages, start=1):
        names = []
        for p in sorted(placed, key=lambda p: p.index):
            if p.index < len(tiled.pieces):
                piece = tiled.pieces[p.index]
                names.append(fill(words.board.piece, name=piece.name,
                                  cells=tiling.cell_range(piece, column_name)))
            else:
                names.append(words.board.trackers)
        captions.append(fill(words.board.page, n=k, total=total, pieces=", ".join(names))
                        + "\n" + words.board.how)
    return tiled, tiling.page_drawings(tiled, page, things, captions, "Satellites board")


def components(defs: SatellitesDefinitions, words: SatellitesLabels | None = None) -> dict[
        str, Drawing]:
    """Every distinct Satellites component as a standalone drawing, by file stem, its words
    in the language of ``words`` (default: English)."""
    d = defs.satellites.diameter_mm
    out: dict[str, Drawing] = {}
    for e in defs.satellites.satellites:
        name = f"satellite-{e.colour}-{e.value}"
        if name not in out:
            out[name] = orb.component(sat.satellite_token(defs, e.colour, e.value, d,
                                                          stamp=True), d + 2,
                                      d + 2, f"Satellites {e.colour} {e.value}")
    out["board"] = sat.board_drawing(defs, words=words)
    return out


def svgs(defs: SatellitesDefinitions, outline: bool = False,
         words: SatellitesLabels | None = None) -> dict[str, bytes]:
    """One SVG per component; ``outline``: every letter drawn as a path (--svg-text)."""
    from generator.backends.svg import render_svg  # here: comparing components needs none

    return {f"satellites/svg/{name}.svg": render_svg(drawing, outline)
            for name, drawing in components(defs, words).items()}


def steps(defs: SatellitesDefinitions, opts: BuildOptions) -> list[Step]:
    from generator import aids  # here: comparing components needs no booklets

    return [
        ("Satellites tokens", lambda: {"satellites/tokens.pdf": render_pdf(
            token_sheet(defs, opts), "Satellites tokens", "24 satellites")}),
        ("Satellites board", lambda: {"satellites/board.pdf": render_pdf(
            board_pages(defs, opts), "Satellites board", "board and trackers")}),
        ("Satellites SVG", lambda: svgs(defs, opts.svg_text == "outline",
                                        labels(defs, opts))),
        # which printed marker is which component, for pnp-score --photo
        ("Satellites markers", lambda: {
            "satellites/markers.json": satellites_map(defs).to_json().encode()}),
        # score pad, player aids, rule booklets
        *aids.satellites_aid_steps(defs, opts.page, opts.lang),
    ]


def tts_files(defs: SatellitesDefinitions, root: PurePath | str,
              words: SatellitesLabels | None = None,
              lang: str = "en") -> dict[str, bytes]:
    from generator.tts import satellites_tts

    return satellites_tts(defs, root, words, lang)
