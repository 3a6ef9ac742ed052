"""Transcribing a Satellites board in the browser, scored live.

The page keeps the board as rows of tokens (``.``, ``R1`` ... ``B4``) and, when a player
already has every satellite connected, the grace moves left. The server writes that as
the text ``pnp-score satellites`` reads (:func:`board_text`: the text grid, or the YAML
form when there is a grace-move count) and reads it back through the scorer's reader
(:func:`scorer.satellites.board.read_string`), so the score, the violations and their
sentences are the command's and the export is the very text that was scored.

This module is Satellites's table adapter (``web.table``, :mod:`web.adapters`): the
``page_*`` functions are what the server's routes call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.satellites.ruleset import Ruleset
from scorer.satellites.board import InputError, read_string
from scorer.satellites.report import summary, to_json
from scorer.satellites.score import Score, score
from web.adapters import check_design
from web.errors import WebError

if TYPE_CHECKING:
    from cards.definitions import SatellitesDefinitions
    from web.adapters import Desk

PAGE = "satellites.html"
SOURCE = "board.txt"
KEY = "board"
MAX_TEXT = 100_000  # bytes of a pasted or uploaded board (a 26 x 26 board is 2 kB)
MAX_SIDE = 26


def board_text(model: Any, design: dict[str, Any] | None = None) -> str:
    """The text of the page's board: the grid (tokens separated by one space, one row per
    line), inside the YAML form when ``grace_moves_left`` is given or the server's
    ``design`` is known (the YAML form names it: a bare grid has no place to)."""
    if not isinstance(model, dict) or not isinstance(model.get("rows"), list):
        raise WebError(422, "the board must be a JSON object with rows (lists of tokens)")
    rows = model["rows"]
    if not rows or len(rows) > MAX_SIDE:
        raise WebError(422, f"the board must have 1 to {MAX_SIDE} rows, got {len(rows)}")
    lines = []
    for i, row in enumerate(rows):
        if not isinstance(row, list) or not row or len(row) > MAX_SIDE or not all(
                isinstance(t, str) and 0 < len(t) <= 3 and t.isalnum() or t == "."
                for t in row):
            raise WebError(422, f"row {i + 1} of the board must be 1 to {MAX_SIDE} tokens "
                                f"(., R1 ... B4)")
        lines.append(" ".join(row))
    grid = "".join(line + "\n" for line in lines)
    grace = model.get("grace_moves_left")
    stamp = (design or {}).get("stamp")
    if grace is None and not stamp:
        return grid
    if grace is not None and type(grace) is not int:
        raise WebError(422, f"grace_moves_left must be a whole number, got {grace!r}")
    from cards.yaml_out import flow

    head = "game: satellites\n" + (f"design: {flow(stamp)}\n" if stamp else "")
    head += "" if grace is None else f"grace_moves_left: {grace}\n"
    return head + "board: |\n" + "".join(f"  {line}\n" for line in lines)


def read(text: str, ruleset: Ruleset, source: str = "board.txt",
         design: dict[str, Any] | None = None) -> tuple[Score, Any]:
    """Read and score a board text as ``pnp-score satellites`` does (422 when it cannot
    be read at all, with the reader's lines, or names a design other than ``design``, the
    server's)."""
    if len(text.encode("utf-8")) > MAX_TEXT:
        raise WebError(413, f"{source}: larger than {MAX_TEXT // 1000} kB; a Satellites board "
                            f"is a few lines of text, is this the right file?")
    try:
        transcript = read_string(text, source, ruleset)
    except InputError as exc:
        raise WebError(422, exc.problems) from None
    if transcript.cards is not None:
        raise WebError(422, f"{source}: cards: the browser companion scores with the "
                            f"definitions it was started with (pnp-web --cards DIR); remove "
                            f"the cards line")
    check_design(transcript.design_at, transcript.design, design)
    return score(transcript.board, transcript.grace_moves_left, transcript.problems,
                 ruleset), transcript


def answer(text: str, result: Score, transcript: Any, source: str) -> dict[str, Any]:
    board = result.board
    rows = [["." if s is None else s.token for s in row] for row in board.rows]
    return {
        "text": text,
        "model": {"rows": rows, "grace_moves_left": transcript.grace_moves_left},
        "report": to_json(result),
        "report_text": summary(result, source),
        "links": [[list(a), list(b)] for a, b in result.links],
        "groups": [[list(c) for c in g.cells] for g in result.groups],
        "violation_cells": [[list(c) for c in cells] for cells in result.violation_cells],
    }


def scored(model: Any, ruleset: Ruleset, source: str = "board.txt",
           design: dict[str, Any] | None = None) -> dict[str, Any]:
    text = board_text(model, design)
    result, transcript = read(text, ruleset, source, design)
    return answer(text, result, transcript, source)


def imported(text: str, ruleset: Ruleset, source: str,
             design: dict[str, Any] | None = None) -> dict[str, Any]:
    """A pasted or uploaded board: read as the command reads it; the board as read (ragged
    rows padded, unreadable tokens empty) becomes the page's, and the reader's violations
    are reported with it. One naming another design than ``design`` is refused."""
    result, transcript = read(text, ruleset, source, design)
    out = scored({"rows": [["." if s is None else s.token for s in row]
                           for row in result.board.rows],
                  "grace_moves_left": transcript.grace_moves_left}, ruleset, source, design)
    out["import_report"] = to_json(result)
    return out


# --- the page's routes ----------------------------------------------------------------------


def page_pieces(desk: Desk) -> dict[str, Any]:
    return pieces(desk.defs)


def page_score(desk: Desk, model: Any, source: str) -> dict[str, Any]:
    return scored(model, desk.ruleset, source, desk.design)


def page_import(desk: Desk, text: str, source: str) -> dict[str, Any]:
    return imported(text, desk.ruleset, source, desk.design)


def photo_keep(raw: str | None) -> dict[str, Any]:
    """Nothing: a photo shows the whole board."""
    return {}


def page_photo(desk: Desk, reading: Any, keep: dict[str, Any],
               source: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The satellites read as the page's board (a cell not read left empty), scored; and
    what the photo showed: satellites read, cells seen but not read ([row, col], as the
    page), findings, how each satellite was read."""
    from photo.satellites import cell_name
    from scorer.photo_layout import satellites_rows, satellites_unread

    rows = satellites_rows(reading, unread=".")
    out = scored({"rows": rows, "grace_moves_left": None}, desk.ruleset, source, desk.design)
    findings = [{"rule": "photo-unread", "cell": cell_name(c), "at": list(c),
                 "message": satellites_unread(cell_name(c))} for c in sorted(reading.unread)]
    findings += [{"rule": f.rule, "cell": cell_name(f.cell) if f.cell else None,
                  "at": list(f.cell) if f.cell else None, "message": f.message}
                 for f in reading.findings]
    return out, {"read": len(reading.tokens), "unread": [list(c) for c in sorted(reading.unread)],
                 "findings": findings,
                 "how": {cell_name(c): t.how for c, t in sorted(reading.tokens.items())}}


def page_export(desk: Desk, kind: str, model: Any, stem: str) -> tuple[bytes | str, str] | None:
    """The board as ``txt`` or ``yaml`` (the text scored: the YAML form when it has a grace
    count), ``json`` (the score), ``report`` (the summary), ``svg`` or ``png``; None for
    another kind."""
    if kind in ("svg", "png"):
        return picture(model, desk.ruleset, desk.defs, kind, f"{stem}.txt"), f"{stem}.{kind}"
    out = scored(model, desk.ruleset, f"{stem}.txt", desk.design)
    if kind in ("txt", "yaml"):
        suffix = "yaml" if out["text"].startswith("game:") else "txt"
        return out["text"], f"{stem}.{suffix}"
    if kind == "json":
        from pnp.common import dump_json

        return dump_json(out["report"]), f"{stem}.json"
    if kind == "report":
        return out["report_text"], f"{stem}-score.txt"
    return None


def check_text(desk: Desk, text: str) -> None:
    read(text, desk.ruleset)


def picture(model: Any, ruleset: Ruleset, defs: SatellitesDefinitions, kind: str,
            source: str = "board.txt") -> bytes:
    from scorer.satellites.picture import board_picture

    text = board_text(model)
    result, _ = read(text, ruleset, source)
    if result.board.width > MAX_SIDE or result.board.height > MAX_SIDE:
        raise WebError(422, f"pictures are drawn for boards up to {MAX_SIDE} x {MAX_SIDE}")
    drawing = board_picture(result, title=f"Satellites: {source}", defs=defs)
    if kind == "svg":
        from generator.backends.svg import render_svg

        return render_svg(drawing)
    from generator.backends.png import render_png

    return render_png(drawing, 150)[0]


def pieces(defs: SatellitesDefinitions) -> dict[str, Any]:
    """The board and the satellites as SVG fragments drawn by the printables' components
    (millimetres), and the numbers the page needs."""
    from generator.components.satellites import board_items, satellite_token
    from generator.drawing import Drawing, Group
    from web.orbitus_table import _fragment

    ruleset = defs.ruleset
    geo, items = board_items(defs, zones=True, trackers=False)
    tokens: dict[str, str] = {}
    diameter = defs.satellites.diameter_mm
    for colour in ("red", "blue"):
        for value in ruleset.values:
            tokens[f"{colour[0].upper()}{value}"] = _fragment(Drawing(
                diameter, diameter, [Group(tuple(satellite_token(
                    defs, colour, value, diameter, cut_line=False)))]),
                prefix=f"{colour}{value}")
    return {
        "size": ruleset.size,
        "cell": geo.cell,
        "label": geo.label,
        "width": geo.width,
        "height": geo.label * 2 + geo.size * geo.cell,
        "board": _fragment(Drawing(geo.width, geo.height, [Group(tuple(items))]), "board"),
        "tokens": tokens,
        "token_mm": diameter,
        "values": list(ruleset.values),
        "colours": {"red": defs.board.red.colour, "blue": defs.board.blue.colour},
        "grace_moves": ruleset.grace_moves,
        "end_connected": ruleset.end_connected,
        "per_colour": ruleset.red.count,
    }
