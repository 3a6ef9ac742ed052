"""``pnp-setup satellites``: the Satellites start position, dealt by the rules core from
the definitions in ``cards/`` and a seed.

The deal is :func:`rules.satellites.engine.deal` (S-12, S-13, S-56): every number it
needs (board size, central cells, inward values, each colour's edges and satellites, who
moves first) comes from the ruleset of the definitions folder, so a designer who changes
them gets the matching deal. This module prints it as a board the scorer reads, as the
start of a game record, or as a picture.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp.common import (
    EXIT_OK,
    EXIT_VIOLATIONS,
    DefinitionsFailed,
    Parser,
    fail,
    misuse,
    never_raises,
    other_picture,
    picture_target_problem,
    shown,
    whole_number,
)
from rules.game import MAX_SEED, SetupError
from rules.satellites.engine import deal

if TYPE_CHECKING:
    from cards.definitions import SatellitesDefinitions
    from generator.drawing import Drawing
    from rules.satellites.engine import State

__all__ = ["MAX_SEED", "SetupError", "deal", "grid_text", "picture", "run"]


def grid_text(state: State) -> str:
    """The position as the scorer's text grid, cells aligned in columns, with the column
    letters above and each row's number after it as ``#`` comments (the scorer skips them)."""
    n = state.table.size
    names = state.table.names
    rows = ["# " + "  ".join(names[c][:-1] for c in range(n)) + "\n"]
    for r in range(n):
        tokens = []
        for s in state.cells[r * n:(r + 1) * n]:
            tokens.append("." if s == 0 else f"{'R' if s > 0 else 'B'}{abs(s)}")
        rows.append("  " + " ".join(t.ljust(2) for t in tokens) + f"  # {r + 1}\n")
    return "".join(rows)


def picture(defs: SatellitesDefinitions, state: State, title: str) -> Drawing:
    """The printed board (zones, trackers) with the satellites on it, a caption above."""
    from generator.components.satellites import board_items, tokens_at
    from generator.drawing import Drawing, Group, Text

    geo, items = board_items(defs, state.table.size)
    placed = [(*state.table.rc(i), "red" if s > 0 else "blue", abs(s))
              for i, s in enumerate(state.cells) if s]
    items.extend(tokens_at(defs, geo, placed))
    top = 14.0
    caption = Text(geo.label, 9.0, title, 5.0, fill="#1d1d1f", bold=True)
    return Drawing(geo.width, geo.height + top,
                   [caption, Group(tuple(items), translate=(0.0, top))], title)


def json_of(state: State, seed: int) -> dict[str, Any]:
    """The deal as ``--json`` prints it."""
    n = state.table.size
    names = state.table.names
    rows = [["." if s == 0 else f"{'R' if s > 0 else 'B'}{abs(s)}"
             for s in state.cells[r * n:(r + 1) * n]] for r in range(n)]
    return {
        "game": "satellites",
        "seed": seed,
        "size": n,
        "first": state.ruleset.first,
        "board": [" ".join(row) for row in rows],
        "satellites": {
            colour: [{"cell": names[i], "value": abs(s)} for i, s in enumerate(state.cells)
                     if s and (s > 0) == (colour == "red")]
            for colour in ("red", "blue")
        },
    }


# --- the command ------------------------------------------------------------------------------

DESCRIPTION = """\
Deal a random Satellites start position as the rules describe: each player's
satellites at random on the central cells of their two edges (red north and
south, blue west and east), the low values one cell inward. The position is
printed as a board pnp score satellites reads ('#' lines are comments). The
board size, the zones, the satellites and who moves first come from the
definitions folder (cards/satellites/, or --cards).
"""

EPILOG = """\
The same seed always deals the same position (for the same definitions):
write 'seed: N' in a game record and pnp replay starts from it.

exit codes: 0 dealt, 1 the definitions (--cards) do not give a start
position or break a rule, 2 the command was misused, a file could not be
written or a definitions file cannot be read

examples:
  pnp setup satellites --seed 42
  pnp setup satellites --seed 42 --record > game.yaml
  pnp setup satellites --seed 42 --json
  pnp setup satellites --seed 42 --png start.png
"""


def build_parser(prog: str) -> Parser:
    parser = Parser(prog, DESCRIPTION, EPILOG)
    parser.add_argument("--seed", type=whole_number(0, MAX_SEED), metavar="N",
                        help=f"deal number, 0 to {MAX_SEED} (default: chosen at random and "
                             f"printed)")
    parser.add_argument("--json", action="store_true",
                        help="print the deal as one JSON object (seed, size, who moves first, "
                             "the board rows, every satellite's cell) instead of the board")
    parser.add_argument("--record", action="store_true",
                        help="print the start of a game record (YAML for pnp replay) instead "
                             "of the plain board: the seed, the board as comments, moves:")
    parser.add_argument("--svg", metavar="FILE", type=Path,
                        help="also draw the board with the satellites on it as SVG here")
    parser.add_argument("--png", metavar="FILE", type=Path,
                        help="also draw it as PNG (150 dpi) here")
    parser.add_argument("--cards", metavar="DIR", type=Path,
                        help="definitions folder laid out like cards/ (default: the shipped one)")
    return parser


def run(args: list[str], prog: str = "pnp-setup satellites") -> int:
    """``pnp-setup satellites``: return the exit code; never raises."""
    return never_raises(lambda: _run(args, prog), prog, "the command line")


def _run(args: list[str], prog: str) -> int:
    opts = build_parser(prog).parse_args(args)
    for flag in ("svg", "png"):
        problem = picture_target_problem(prog, flag, getattr(opts, flag), "start",
                                         other=other_picture(opts, flag))
        if problem:
            return fail(problem)
    if opts.cards is not None and not opts.cards.is_dir():
        return fail(f"{prog}: --cards {shown(opts.cards)}: not a folder; give a folder laid "
                    f"out like cards/ (with satellites/board.yaml)")

    from cards.loader import DefinitionError
    from scorer.satellites.board import load_rules

    try:
        ruleset = load_rules(opts.cards)
    except DefinitionError as exc:
        raise DefinitionsFailed(exc, "nothing was dealt") from None
    chosen = opts.seed is None
    seed = secrets.randbelow(1_000_000) if chosen else opts.seed
    try:
        state = deal(ruleset, seed)
    except SetupError as exc:
        return fail(f"{prog}: {exc}", EXIT_VIOLATIONS)

    n = state.table.size
    first = ruleset.first
    again = f"{prog} --seed {seed}" + (
        f" --cards {shown(opts.cards)}" if opts.cards is not None else "")
    note = " (chosen at random)" if chosen else ""
    board = grid_text(state)
    if opts.json and opts.record:
        return misuse(prog, "give --json or --record, not both")
    if opts.json:
        from cards.design_cache import design
        from pnp.common import dump_json

        text = dump_json({**json_of(state, seed),
                          "design": design("satellites", opts.cards).to_json()})
    elif opts.record:
        from cards.design_cache import design
        from cards.design_check import record_lines

        definitions = "".join(line + "\n" for line in record_lines(
            "satellites", opts.cards, design("satellites", opts.cards).stamp))
        commented = "".join(f"#   {line.removeprefix('# ')}" if line.startswith("#")
                            else f"# {line}" for line in board.splitlines(keepends=True))
        text = (
            f"# Satellites game record: replay it with pnp-replay FILE\n"
            f"# start position: seed {seed}{note}, {n} x {n} board ({again})\n"
            f"#\n{commented}#\n"
            f"game: satellites\n"
            f"{definitions}"
            f"seed: {seed}\n"
            f"players: {{red: Red, blue: Blue}}\n"
            f"# one move per line, {first} first: c1-c4, c1-c4+ (connection), d5-d6>d8\n"
            f"# (displacement pushing the satellite on d6 to d8), pass\n"
            f"moves:\n"
        )
    else:
        text = (f"# Satellites start position: seed {seed}{note}, {n} x {n} board ({again})\n"
                f"# {first} moves first\n" + board)
    if opts.svg is not None or opts.png is not None:
        from cards.definitions import load_satellites
        from generator.picture_out import save_picture

        try:
            defs = load_satellites(opts.cards)
        except DefinitionError as exc:  # pragma: no cover - the ruleset came from them
            raise DefinitionsFailed(exc, "nothing was dealt") from None
        drawing = picture(defs, state, f"Satellites start position: seed {seed}")
        stop = save_picture(prog, drawing, opts.svg, opts.png)
        if stop is not None:
            return stop
    from pnp.common import write_out

    write_out(text, json=bool(getattr(opts, "json", False)))
    return EXIT_OK
