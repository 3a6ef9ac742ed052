"""``pnp setup heaps``: the deal of a seed, as the start of a game record (the game's
``records.setup`` adapter)."""

from __future__ import annotations

import argparse
from pathlib import Path

from pnp.common import (
    EXIT_OK,
    EXIT_UNREADABLE,
    EXIT_VIOLATIONS,
    fail,
    never_raises,
    whole_number,
    write_out,
)
from rules.game import MAX_SEED, SetupError
from testkit.heaps.game import GAME


def build_parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="Deal the heaps of a seed and "
                                     "print the start of a Heaps game record.")
    parser.add_argument("--seed", type=whole_number(0, MAX_SEED), metavar="N", default=0,
                        help="deal number (default 0)")
    parser.add_argument("--players", type=whole_number(GAME.min_players, GAME.max_players),
                        metavar="K", default=2, help="players, 2 to 4 (default 2)")
    parser.add_argument("--cards", metavar="DIR", type=Path,
                        help="definitions folder with heaps/rules.yaml (default: none)")
    return parser


def run(args: list[str], prog: str = "pnp setup heaps") -> int:
    return never_raises(lambda: _run(args, prog), prog, "the command line")


def _run(args: list[str], prog: str) -> int:
    try:
        opts = build_parser(prog).parse_args(args)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_UNREADABLE
    from cards.loader import DefinitionError
    from cards.ruleset_cache import load_ruleset

    try:
        ruleset = load_ruleset("heaps", opts.cards)
        names = [f"P{k + 1}" for k in range(opts.players)]
        state = GAME.new_game(ruleset, names, opts.seed)
    except DefinitionError as exc:
        return fail("\n".join(exc.problems), EXIT_VIOLATIONS)
    except SetupError as exc:
        return fail(f"{prog}: {exc}", EXIT_VIOLATIONS)
    write_out(f"# Heaps game record: replay it with pnp replay FILE\n"
              f"# heaps: {' '.join(map(str, state.heaps))}\n"
              f"game: heaps\nseed: {opts.seed}\nplayers: [{', '.join(names)}]\n"
              f"moves:\n")
    return EXIT_OK
