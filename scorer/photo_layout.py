"""A photo's reading as the table people type, with the sentences that report it.

Shared by ``pnp-score GAME --photo`` (:mod:`scorer.photo_cli`) and the browser companion's
photo upload (``POST /api/GAME/photo``, :mod:`web.app`), so both turn a reading into the
same layout and say the same things about it: the cards (satellites) read, in the
format ``pnp-score`` reads; a cell seen but not read; a deck printed without markers (the
game's photo reader says which: :func:`photo.markers_missing`); how to install OpenCV.
Importing this module loads neither OpenCV nor NumPy.
"""

from __future__ import annotations

from typing import Any

from photo import markers_missing

LAYOUT_MARK = "# Read from a photo by pnp-score"
INSTALL_HOW = ("install it with pip install 'orbitus-pnp[photo]' (from a checkout: pip install "
               "-e '.[photo]'), which adds opencv-python-headless and numpy")
INSTALL = f"--photo needs OpenCV, an optional part of this toolchain; {INSTALL_HOW}"


def _comment(text: str) -> str:
    return " ".join(text.split())


def cell_text(cell: tuple[int, int]) -> str:
    return f"[{cell[0]}, {cell[1]}]"


# --- Orbitus --------------------------------------------------------------------------------


def orbitus_sectors(reading: Any) -> list[dict[str, Any]]:
    """The cards read as a layout's ``sectors`` (``{at, card, rot}``), ring by ring from
    the station; the cells seen but not read are not among them."""
    from rules import hexgeo

    cells = sorted(reading.placed, key=lambda c: (hexgeo.distance(c, (0, 0)), c[1], c[0]))
    return [{"at": [c[0], c[1]], "card": reading.placed[c].card, "rot": reading.placed[c].rot}
            for c in cells]


def orbitus_unread(cell: tuple[int, int]) -> str:
    """The sentence for a cell where a card is seen but not read."""
    return (f"a card lies on {cell_text(cell)} but its marker cannot be read in the photo; it "
            f"is not scored (write its card and rot into the layout, or photograph it again)")


def orbitus_lifted(cells: list[tuple[int, int]]) -> str:
    """The sentence for the cards read that do not lie flat (a note, not a violation: each
    was read, its marker only seen tilted)."""
    return (f"{len(cells)} card(s) read but not lying flat (curled or lifted off the table): "
            + ", ".join(cell_text(c) for c in cells)
            + "; check them, and flatten them before the next photo")


def orbitus_layout_text(reading: Any, players: list[str], source: str,
                        design: str | None = None) -> str:
    """The layout read, in the format people type (``pnp-score orbitus --help``); a cell
    seen but not read is written as ``card: "?"`` for the reader to fill in; ``design``:
    the design of the definitions it was read with (``design: v0.7.2·3fa9c1``)."""
    import yaml

    sectors = orbitus_sectors(reading)
    lines = [f"{LAYOUT_MARK} orbitus --photo {_comment(source)}",
             f"# {len(sectors)} card(s) read. Check them against the table; then score this "
             f"file", "# with: pnp-score orbitus FILE"]
    if reading.unread:
        where = ", ".join(f"[{c[0]}, {c[1]}]" for c in sorted(reading.unread))
        lines.append(f"# Seen but not read (write their card and rot below): {where}")
    for f in reading.findings:
        lines.append(f"# {f.rule}: {_comment(f.message)}")
    if getattr(reading, "lifted", None):
        lines.append(f"# {orbitus_lifted(reading.lifted)}")
    lines.append("game: orbitus")
    if design:
        lines.append(f"design: {design}")
    lines.append("players: " + yaml.safe_dump(players, default_flow_style=True,
                                              allow_unicode=True).strip())
    lines.append("sectors:")
    for s in sectors:
        lines.append(f"  - {{at: [{s['at'][0]}, {s['at'][1]}], card: {s['card']}, "
                     f"rot: {s['rot']}}}")
    for c in sorted(reading.unread):
        lines.append(f"  - {{at: [{c[0]}, {c[1]}], card: \"?\"}}  # seen, not read")
    if not sectors and not reading.unread:
        lines[-1] = "sectors: []"
    return "\n".join(lines) + "\n"


# --- Satellites -----------------------------------------------------------------------------


def satellites_rows(reading: Any, unread: str = "?") -> list[list[str]]:
    """The board read as rows of tokens (``.`` empty), a cell seen but not read as
    ``unread``."""
    grid = reading.grid()
    for row, col in reading.unread:
        grid[row][col] = unread
    return grid


def satellites_unread(name: str) -> str:
    """The sentence for a cell (``c3``) where something stands but is not read."""
    return (f"something stands in {name} but no satellite's marker can be read there; it is "
            f"not scored (write it into the board, or photograph it again)")


def satellites_board_text(reading: Any, source: str, design: str | None = None) -> str:
    """The board read as the text grid people type; a cell seen but not read is '?';
    ``design``: the design of the definitions it was read with (a comment: a text grid has
    no fields)."""
    from photo.satellites import cell_name

    lines = [f"{LAYOUT_MARK} satellites --photo {_comment(source)}",
             f"# {len(reading.tokens)} satellite(s) read. Check them against the board; then "
             f"score this file with: pnp-score satellites FILE"]
    if reading.unread:
        lines.append("# ? = something stands there but was not read (write its satellite): "
                     + ", ".join(cell_name(c) for c in sorted(reading.unread)))
    for f in reading.findings:
        lines.append(f"# {f.rule}: {_comment(f.message)}")
    if design:
        lines.append(f"# design: {design}")
    from rules.satellites.table import column_name

    letters = "  ".join(column_name(c) for c in range(reading.size))
    lines.append(f"# {letters}")
    for r, row in enumerate(satellites_rows(reading)):
        lines.append("  " + " ".join(t.ljust(2) for t in row) + f"  # {r + 1}")
    return "\n".join(lines) + "\n"


__all__ = ["INSTALL", "INSTALL_HOW", "LAYOUT_MARK", "cell_text", "markers_missing",
           "orbitus_layout_text", "orbitus_lifted", "orbitus_sectors", "orbitus_unread",
           "satellites_board_text", "satellites_rows", "satellites_unread"]
