"""The Satellites move notation (S-59 to S-61): ``c1-c4``, ``c1-c4+``, ``d5-d6>d8``, ``pass``.

:func:`parse_move` reads what a player wrote into a :class:`Written` move (cells as
``(row, col)``, possibly off the board: whether the move exists is the engine's question);
:func:`move_text` writes an engine action back.

Actions are the ints of :mod:`rules.satellites.actions`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.game import NotationError
from rules.satellites.actions import PASS, parts
from rules.satellites.table import Table, parse_cell


@dataclass(frozen=True)
class Written:
    """A move as written: cells as (row, column), possibly off the board; ``pass``."""

    text: str
    frm: tuple[int, int] | None  # None: a pass
    to: tuple[int, int] | None = None
    push: tuple[int, int] | None = None
    plus: bool = False  # marked as a connection with a trailing +

    @property
    def is_pass(self) -> bool:
        return self.frm is None


_MOVE = re.compile(r"^([a-z]+[0-9]+)-([a-z]+[0-9]+)(?:>([a-z]+[0-9]+))?(\+)?$")
NOTATION_HELP = (
    "write FROM-TO (c1-c4), a trailing + for a connection move (c1-c4+), FROM-TO>CELL for a "
    "displacement that pushes the satellite on TO to CELL (d5-d6>d8), or pass"
)


def parse_move(text: str) -> Written:
    """Read one move as written at the table (S-61: any case, spaces around the signs, the
    dash ``–``); raise :class:`~rules.game.NotationError` if it cannot be read."""
    compact = re.sub(r"\s+", "", text).lower().replace("\u2013", "-").replace("\u2014", "-")
    if compact == "pass":
        return Written(text, None)
    match = _MOVE.match(compact)
    if match is None:
        raise NotationError(f"{_quoted(text)} is not a move: {NOTATION_HELP}")
    frm, to, push = (parse_cell(g) if g else None for g in match.groups()[:3])
    if frm is None or to is None or (match.group(3) and push is None):
        raise NotationError(f"{_quoted(text)} is not a move: {NOTATION_HELP}")
    return Written(text, frm, to, push, bool(match.group(4)))


def readable(text: str) -> bool:
    """Whether ``text`` reads as one move."""
    try:
        parse_move(text)
    except NotationError:
        return False
    return True


def _quoted(text: str) -> str:
    short = text if len(text) <= 24 else text[:24] + "…"
    return repr(short)


def move_text(tb: Table, code: int, connects: bool = False) -> str:
    """The action as written: ``c1-c4``, ``d5-d6>d8``, ``pass``; ``connects`` adds the ``+``
    the engine writes on every move that ends connected (S-60)."""
    if code == PASS:
        return "pass"
    frm, to, push = parts(code)
    text = f"{tb.names[frm]}-{tb.names[to]}"
    if push >= 0:
        text += f">{tb.names[push]}"
    return text + "+" if connects else text
