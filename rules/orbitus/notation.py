"""How Orbitus actions are written in game records and typed at the table (O-76 to O-78):
``place S07 @0,-1 r2``, ``remove 1,-2``, ``discard S12``, ``pass``; ``Anna: pass`` names
the player too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.game import NotationError
from rules.hexgeo import SIDES, Hex, RotationError, parse_rotation
from rules.orbitus.actions import DISCARD, PASS, PLACE, REMOVE, Action


def cell_short(cell: Hex) -> str:
    """A cell as the notation writes it: ``0,-1``."""
    return f"{cell[0]},{cell[1]}"


def sides_text(mask: int) -> str:
    """Route sides as words: ``N NE SW`` (``none`` for none)."""
    return " ".join(SIDES[s] for s in range(6) if mask >> s & 1) or "none"


def notation(action: Action) -> str:
    """The action as a record writes it: ``place S07 @0,-1 r2``, ``remove 1,-2``,
    ``discard S12``, ``pass``."""
    if action.kind == PLACE:
        return f"place {action.card} @{cell_short(action.cell)} r{action.rot}"
    if action.kind == REMOVE:
        return f"remove {cell_short(action.cell)}"
    if action.kind == DISCARD:
        return f"discard {action.card}"
    return "pass"


@dataclass(frozen=True)
class Written:
    """An action as written at the table (the card as written, not yet looked up)."""

    text: str
    kind: int
    card: str = ""
    cell: Hex | None = None
    rot: int | None = None  # None: not written (0)
    player: str | None = None  # "Anna: pass" names who makes the move

    def action(self) -> Action:
        """The action it writes (the rotation 0 when none is written)."""
        cell = self.cell if self.cell is not None else (0, 0)
        return Action(self.kind, self.card, cell, self.rot or 0)


NOTATION_HELP = ("write place CARD @Q,R rN (place S07 @0,-1 r2, or place S07 at 0,-1 rot SE), "
                 "remove Q,R, discard CARD or pass")
_ID = r"([A-Za-z0-9][A-Za-z0-9_-]*)"
_NUM = r"([-+]?[0-9]{1,9})"
_CELL = rf"[\[(]?\s*{_NUM}\s*,\s*{_NUM}\s*[\])]?"
_AT = r"(?:\s*@\s*|\s+at\s+)"
_PLACE_RE = re.compile(rf"^place\s+{_ID}{_AT}{_CELL}(?:\s*(?:rot|r)\s*=?\s*([0-9]+|[a-z]+))?$",
                       re.IGNORECASE | re.ASCII)
_REMOVE_RE = re.compile(rf"^remove\s+(?:{_ID}{_AT}|@\s*|at\s+)?{_CELL}$",
                        re.IGNORECASE | re.ASCII)
_DISCARD_RE = re.compile(rf"^discard\s+{_ID}$", re.IGNORECASE | re.ASCII)
_WHO_RE = re.compile(r"^([^:]+?)\s*:\s*(.*)$", re.DOTALL)


def parse_move(text: str, player: str | None = None) -> Written:
    """Read one action as written at the table; raise :class:`NotationError` if unreadable.

    ``NAME: ACTION`` (or ``player``) names who makes it; the engine checks it is their turn.
    """
    body = " ".join(text.split())
    who = _WHO_RE.match(body)
    if who is not None:
        if player is not None:
            raise NotationError(f"{_quoted(text)}: the player is named twice")
        player, body = who.group(1).strip(), who.group(2).strip()
    word = body.split(" ", 1)[0].lower() if body else ""
    if word == "pass" and body.lower() == "pass":
        return Written(text, PASS, player=player)
    if word == "place":
        m = _PLACE_RE.match(body)
        if m is not None:
            rot = None if m.group(4) is None else _rotation(m.group(4), text)
            return Written(text, PLACE, m.group(1), (int(m.group(2)), int(m.group(3))), rot,
                           player)
        raise NotationError(f"{_quoted(text)} is not a placement: write place CARD @Q,R rN, e.g. "
                            f"place S07 @0,-1 r2 (or place S07 at 0,-1 rot 2; the rotation is "
                            f"0-5 or the direction the card's marker points to, N NE SE S SW "
                            f"NW)")
    if word == "remove":
        m = _REMOVE_RE.match(body)
        if m is not None:
            return Written(text, REMOVE, m.group(1) or "", (int(m.group(2)), int(m.group(3))),
                           player=player)
        raise NotationError(f"{_quoted(text)} is not a removal: write remove Q,R (the cell, e.g. "
                            f"remove 1,-2), or remove CARD @Q,R")
    if word == "discard":
        m = _DISCARD_RE.match(body)
        if m is not None:
            return Written(text, DISCARD, m.group(1), player=player)
        raise NotationError(f"{_quoted(text)} is not a discard: write discard CARD, e.g. "
                            f"discard S12")
    raise NotationError(f"{_quoted(text)} is not a move: {NOTATION_HELP}")


def _rotation(value: str, text: str) -> int:
    if value.lower() == "ot":
        raise NotationError(f"{_quoted(text)}: the rotation after rot is missing; write rot 0-5 "
                            f"or the direction the card's marker points to (rot SE)")
    try:
        return parse_rotation(value)
    except RotationError:
        raise NotationError(f"{_quoted(text)}: r{value} is not a rotation; write r0-r5 (60-degree "
                            f"steps clockwise) or the direction the card's marker points to "
                            f"(rot N, NE, SE, S, SW or NW)") from None


def _quoted(text: str) -> str:
    short = text if len(text) <= 40 else text[:40] + "…"
    return repr(short)
