"""``pnp-score``: dispatches to one game's scorer, importing only that game's code.

Scoring a real game must feel instant (the whole command well under 200 ms),
so this entry point does not import typer or any rendering code itself: it
reads the game name and hands the remaining arguments to that game's CLI.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import rules

USAGE = """\
Usage: {prog} GAME [OPTIONS] FILE

Score a finished game from a transcribed table.

Games:
  orbitus     score an Orbitus layout (YAML): systems, planets, pirates,
              open routes, closed blocks, winner
  satellites  score a Satellites board (text grid or YAML): groups,
              colonies, control, end state, winner

Run '{prog} GAME --help' for the options of one game.
Exit codes: 0 valid, 1 the table breaks a rule, 2 unreadable input or misuse.
"""


def main(argv: Sequence[str] | None = None, prog: str = "pnp-score") -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        sys.stdout.write(USAGE.format(prog=prog))
        return 0 if args else 2
    game, rest = args[0].lower(), args[1:]
    games = rules.names("scorer")
    if game not in games:
        sys.stderr.write(f"{prog}: unknown game {args[0]!r}; choose {' or '.join(games)}\n")
        return 2
    # each game of the rules registry that has a scorer: its scorer adapter (scorer.<game>.cli)
    module = rules.adapter(game, "scorer")
    return int(module.run(rest, prog=f"{prog} {game}"))


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
