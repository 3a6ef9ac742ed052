"""The Satellites actions: a move is one ``int``, a pass is :data:`PASS`.

An action is ``from << 20 | to << 10 | (push + 1)``, cells numbered as in
:mod:`rules.satellites.table` (boards up to 26 x 26 have fewer than 1024 cells), ``push``
-1 for an ordinary move; :data:`PASS` is -1. Sorting actions sorts them by the cell moved
from, then to, then where a displaced satellite goes, ordinary moves first. How they are
written is :mod:`rules.satellites.notation`.
"""

from __future__ import annotations

PASS = -1


def action(frm: int, to: int, push: int = -1) -> int:
    return frm << 20 | to << 10 | (push + 1)


def parts(code: int) -> tuple[int, int, int]:
    """``(from, to, push)`` of an action (push -1: none); not for :data:`PASS`."""
    return code >> 20, code >> 10 & 1023, (code & 1023) - 1
