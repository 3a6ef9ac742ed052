"""``pnp-score``: dispatches to one game's scorer, importing only that game's code.

Scoring a real game must feel instant (the whole command well under 200 ms),
so this entry point does not import any rendering code itself: it
reads the game name and hands the remaining arguments to that game's CLI.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

USAGE = """\
usage: {prog} GAME [OPTIONS] FILE

Score a finished game from a transcribed table.

Games:
  orbitus     score an Orbitus layout (YAML): systems, planets, pirates,
              open routes, closed blocks, winner
  satellites  score a Satellites board (text grid or YAML): groups,
              colonies, control, end state, winner

Run '{prog} GAME --help' for the options of one game.
Exit codes: 0 valid, 1 the table breaks a rule, 2 unreadable input or misuse;
definitions that cannot be used: 1 if one breaks a rule, 2 if a file of them
cannot be read.
"""


def main(argv: Sequence[str] | None = None, prog: str = "pnp-score") -> int:
    """The ``pnp score`` command: the exit code (each game's scorer never raises)."""
    from pnp.common import by_game

    args = list(sys.argv[1:] if argv is None else argv)
    # each game of the rules registry that has a scorer: its scorer adapter (scorer.<game>.cli)
    return by_game(args, prog, USAGE.format(prog=prog), "scorer")


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
