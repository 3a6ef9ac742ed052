"""The Satellites printables: the tokens, the board (tiled or fitted) with its trackers,
one SVG per component, and the score pad, player aids and booklets.

Every product module (one per game in :func:`rules.names`) offers the same functions:
``load``, ``steps``, ``components`` and ``tts_files``.
"""

from __future__ import annotations

from pathlib import Path

from cards.definitions import SatellitesDefinitions, load_satellites
from generator import aids
from generator.backends.pdf import render_pdf
from generator.backends.svg import render_svg
from generator.components import orbitus as orb
from generator.components import satellites as sat
from generator.drawing import Drawing, Group
from generator.options import BuildOptions, Step, caption
from generator.sheets import fit_page, grid_slots, page_size, tile_pages

TITLE = "Satellites"


def load(cards: Path | None) -> SatellitesDefinitions:
    return load_satellites(cards)



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
        d.add(caption(page, "Satellites tokens — print at 100 %, cut along the grey circles. "
                             "Red: solid; blue: ring and hatching."))
        pages.append(d)
    return pages


def board_pages(defs: SatellitesDefinitions, opts: BuildOptions) -> list[Drawing]:
    page = page_size(opts.page)
    board = sat.board_drawing(defs)
    if opts.fit:
        return [fit_page(board, page, "Satellites board")]
    return tile_pages(board, page, "Satellites board")


def components(defs: SatellitesDefinitions) -> dict[str, Drawing]:
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


def svgs(defs: SatellitesDefinitions, outline: bool = False) -> dict[str, bytes]:
    """One SVG per component; ``outline``: every letter drawn as a path (--svg-text)."""
    return {f"satellites/svg/{name}.svg": render_svg(drawing, outline)
            for name, drawing in components(defs).items()}


def steps(defs: SatellitesDefinitions, opts: BuildOptions) -> list[Step]:
    return [
        ("Satellites tokens", lambda: {"satellites/tokens.pdf": render_pdf(
            token_sheet(defs, opts), "Satellites tokens", "24 satellites")}),
        ("Satellites board", lambda: {"satellites/board.pdf": render_pdf(
            board_pages(defs, opts), "Satellites board", "board and trackers")}),
        ("Satellites SVG", lambda: svgs(defs, opts.svg_text == "outline")),
        *aids.satellites_aid_steps(defs, opts.page),  # score pad, player aids, rule booklets
    ]


def tts_files(defs: SatellitesDefinitions, root: Path) -> dict[str, bytes]:
    from generator.tts import satellites_tts

    return satellites_tts(defs, root)
