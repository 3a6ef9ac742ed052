"""Two renderings of a :class:`Score`: the JSON object and the terminal summary; and the
same JSON object for an engine state's breakdown (the browser's live score)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.satellites.analysis import Group
from rules.satellites.score import Breakdown, End, Standing
from rules.satellites.table import Table
from scorer.satellites.board import BLUE, COLOURS, EMPTY, RED, cell_name, column_name
from scorer.satellites.score import Score, violation
from scorer.violation import Violation


def to_json(result: Score) -> dict[str, Any]:
    """The ``--json`` object; key names are part of the interface (docs/score-satellites.md,
    its schema docs/schemas/score-satellites.schema.json)."""
    board = result.board
    return _json(board.height, board.width, result.violations, result.groups,
                 result.connected, result.standing, result.end)


def breakdown_json(tb: Table, found: Breakdown) -> dict[str, Any]:
    """The ``--json`` object of a position the rules core scored directly
    (:func:`rules.satellites.score.score_state`): the same keys and values as
    :func:`to_json` of the same board."""
    return _json(tb.rows, tb.cols, [violation(f) for f in found.findings], found.groups,
                 found.connected, found.standing, found.end)


def _json(rows: int, cols: int, violations: Sequence[Violation], groups: Sequence[Group],
          connected: dict[str, int], standing: Standing, end: End) -> dict[str, Any]:
    return {
        "game": "satellites",
        "size": cols if rows == cols else None,
        "columns": cols,
        "rows": rows,
        "valid": not violations,
        "violations": [v.to_json() for v in violations],
        "groups": [
            {
                "label": g.label,
                "cells": g.cell_names,
                "size": g.size,
                "colony": g.colony,
                "red": g.red,
                "blue": g.blue,
                "total": g.total,
                "controller": g.controller,
                "contested": g.contested,
                "crowned": g.crowned,
            }
            for g in groups
        ],
        "connected": dict(connected),
        "colonies": dict(standing.colonies),
        "lowest_controlled": dict(standing.lowest),
        "winner": standing.winner,
        "tiebreak": standing.tiebreak,
        "decision": standing.decision,
        "end": {
            "connected": end.connected,
            "over": end.over,
            "reason": end.reason,
            "finished": list(end.finished),
            "grace_player": end.grace_player,
            "grace_moves_left": end.grace_moves_left,
            "message": end.message,
        },
    }


_ANSI = {RED: "\x1b[31m", BLUE: "\x1b[34m", "bold": "\x1b[1m", "dim": "\x1b[2m"}
_RESET = "\x1b[0m"


def summary(result: Score, source: str, colour: bool = False) -> str:
    """The readable summary printed by default (``colour``: ANSI colours for a terminal)."""

    def paint(text: str, how: str) -> str:
        return f"{_ANSI[how]}{text}{_RESET}" if colour else text

    board = result.board
    n_bad = len(result.violations)
    validity = "valid" if result.valid else f"NOT VALID ({n_bad} violation{_s(n_bad)})"
    from cards.safe_text import printable

    out = [f"Satellites: {printable(source)}, {board.height} x {board.width} board, "
           f"{validity}", ""]

    # the board, with each satellite's group label after its token
    group_of = result.group_of
    unknown = {v.cell for v in result.violations if v.rule == "unknown-token"}
    label_width = max((len(g.label) for g in result.groups), default=0)
    width = 2 + label_width
    row_width = len(str(board.height))
    out.append(" " * (row_width + 2) + " ".join(
        column_name(c).ljust(width) for c in range(board.width)).rstrip())
    for r, row in enumerate(board.rows):
        cells = []
        for c, sat in enumerate(row):
            if sat is None:
                shown = "?" if cell_name(r, c) in unknown else EMPTY
                cells.append(shown.ljust(width))
                continue
            group = group_of.get((r, c))
            mark = group.label if group is not None else ""
            cells.append(paint(sat.token, sat.colour) + mark.ljust(width - 2))
        out.append(f"{r + 1:>{row_width}}  " + " ".join(cells).rstrip())
    out.append("")
    out.append("R red, B blue, then the value. A letter after a token names its group:")
    out.append(f"capital for a colony ({result.ruleset.colony_min} or more), small for a pair; "
               f"no letter: unconnected.")
    if unknown:
        out.append("? marks a cell whose token could not be read (see the violations).")
    out.append("")

    # groups
    colonies = sum(1 for g in result.groups if g.colony)
    out.append(f"Groups: {len(result.groups)}, of which {colonies} "
               f"{'colony' if colonies == 1 else 'colonies'}")
    for g in result.groups:
        kind = "colony" if g.colony else "pair" if g.size == 2 else "group"
        if g.controller is not None:
            control = f"controlled by {paint(g.controller, g.controller)}"
        elif g.contested:
            control = "contested (equal totals, no controller)"
        else:
            control = "not a colony, nobody controls it"
        crown = ", crowned" if g.crowned else ""
        out.append(
            f"  {g.label:<{label_width}}  {kind:<6}  size {g.size}  red {g.red:>2}  "
            f"blue {g.blue:>2}  total {g.total:>2}  {control}{crown}"
        )
        out.append(f"  {'':<{label_width}}  cells {' '.join(g.cell_names)}")
    if not result.groups:
        out.append("  (no satellites are connected)")
    out.append("")

    con = result.connected
    out.append(
        f"Connected: red {con[RED]} of {result.ruleset.red.count}, blue {con[BLUE]} of "
        f"{result.ruleset.blue.count}, {result.end.connected} in all"
    )
    parts = []
    for c in COLOURS:
        low = result.lowest[c]
        extra = f" (lowest total {low}, colony {result.lowest_label[c]})" if low is not None else ""
        parts.append(f"{c} {result.colonies[c]}{extra}")
    out.append("Colonies controlled: " + ", ".join(parts))
    out.append(f"End: {result.end.message}")
    tie = ", on the tie-break" if result.tiebreak and result.winner else ""
    who = paint(result.winner, result.winner) if result.winner else ""
    if result.end.over is True:
        head = f"Winner: {who}{tie}" if result.winner else "Draw"
    elif result.winner:
        head = f"If the game ended now: {who} would win{tie}"
    else:
        head = "If the game ended now: a draw"
    out.append(paint(head, "bold"))
    out.append(f"  {result.decision}")
    out.append("")

    if result.violations:
        out.append(f"Violations ({n_bad}):")
        for v in result.violations:
            where = v.cell if v.cell is not None else "board"
            out.append(f"  {where}: {v.rule}: {v.message}")
        out.append(f"NOT VALID: {n_bad} violation{_s(n_bad)}; the scores above are best effort.")
    else:
        out.append("Valid: no rule is broken.")
    return "\n".join(out) + "\n"


def _s(n: int) -> str:
    return "" if n == 1 else "s"
