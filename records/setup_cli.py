"""``pnp-setup``: deal a start position for one game, importing only that game's code.

Each game of the rules registry that has a setup (``rules.names("records.setup")``) has it
in its ``records.setup`` adapter (by convention ``records.<game>_setup``) with
``run(args, prog) -> int``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

USAGE = """\
usage: {prog} GAME [OPTIONS]

Deal a random start position as the rules describe, reproducible by its seed.

Games:
  orbitus     {prog} orbitus --players K --seed N: the start lines, the
              hands and the shuffled deck (--json, --record to start a game
              record, --svg/--png to draw the station and the hands)
  satellites  {prog} satellites --seed N: the board with every satellite
              on its start cell (--svg/--png to draw it, --record to start a
              game record)

Run '{prog} GAME --help' for the options of one game.
Exit codes: 0 dealt, 1 the definitions do not give a start position,
2 misuse.
"""


def main(argv: Sequence[str] | None = None, prog: str = "pnp-setup") -> int:
    """The ``pnp setup`` command: the exit code (each game's setup never raises)."""
    from pnp.common import by_game

    args = list(sys.argv[1:] if argv is None else argv)
    return by_game(args, prog, USAGE.format(prog=prog), "records.setup")


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
