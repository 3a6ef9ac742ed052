"""``pnp-replay FILE``: replay a game record and say whether every move was legal.

The record's ``game:`` picks the engine (imported only then). The replay stops
at the first illegal move and says which (number and line), why, and what was
legal there; either way the position reached is scored through that game's
scorer, with the scorer's output options (``--json``, ``--svg``, ``--png``,
``--lenient``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.common import (
    EXIT_OK,
    EXIT_UNREADABLE,
    EXIT_VIOLATIONS,
    DefinitionsFailed,
    Parser,
    colour_terminal,
    dump_json,
    fail,
    never_raises,
    other_picture,
    picture_target_problem,
    shown,
    whole_number,
    write_out,
)

if TYPE_CHECKING:
    from records.record import Replay

PROG = "pnp-replay"
SHOWN_LEGAL = 12  # legal moves listed in the summary

DESCRIPTION = """\
Replay a game record move by move with the rules engine. The replay stops at
the first illegal move and says which move (number and line), why it is
illegal and what was legal there; otherwise it prints the final position
scored as pnp score does (winner, colonies or systems, end of the game).

FILE is a YAML game record:

  game: satellites
  players: {red: Anna, blue: Ben}
  seed: 42                # the deal of pnp setup satellites --seed 42
  moves:                  # red first
    - c1-c4               # a move
    - b5-d7+              # + marks a connection move (checked)
    - d5-d6>d8            # displacement: the satellite on d6 goes to d8
    - pass                # only with no legal move

(setup: | and the board written out instead of seed:; see docs/engines.md.)

or, for Orbitus:

  game: orbitus
  players: [Anna, Boris, Carla]   # seat order; play goes clockwise
  seed: 42                # the deal of pnp setup orbitus --players 3 --seed 42
  moves:                  # Anna first
    - place S50 @0,-1 r3  # card S50 on cell 0,-1, its marker turned to S
    - remove 0,-1         # a sector of the player's own system leaves the game
    - discard S19         # and draw one
    - pass                # never two turns in a row

(deck: [...] the cards in order instead of seed:; see docs/engines.md.)
Give '-' to read standard input.
"""

EPILOG = """\
exit codes:
  0  every move is legal and the position reached breaks no rule
     (or --lenient was given)
  1  a move is illegal, or the position reached breaks a rule
  2  the record cannot be read (YAML, fields, a move that is not in the
     notation), or the command was misused
  definitions (--cards, the record's cards:) that cannot be used: 1 if one
  breaks a rule, 2 if a file of them cannot be read

example:
  pnp replay game.yaml --png final.png
"""


MAX_UNTIL = 1_000_000  # moves (a record of 2 MB holds some 100,000)


def build_parser(prog: str = PROG) -> Parser:
    parser = Parser(prog, DESCRIPTION, EPILOG)
    parser.add_argument("file", metavar="FILE", help="the game record (YAML; '-' for stdin)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object: the scorer's, plus a 'replay' object")
    parser.add_argument("--svg", metavar="FILE", type=Path,
                        help="also draw the position reached, scored, as SVG here")
    parser.add_argument("--png", metavar="FILE", type=Path,
                        help="also draw it as PNG (150 dpi) here")
    parser.add_argument("--lenient", action="store_true",
                        help="exit 0 even when a move is illegal or the position breaks a rule "
                             "(both are still reported); an unreadable record still exits 2")
    parser.add_argument("--until", metavar="N",
                        type=whole_number(0, MAX_UNTIL,
                                          too_low="{value} is negative; give 0 or more moves"),
                        help="replay only the first N moves (the position after move N)")
    parser.add_argument("--legal", action="store_true",
                        help="also list every legal move in the position reached")
    parser.add_argument("--cards", metavar="DIR", type=Path,
                        help="definitions folder laid out like cards/, for records that start "
                             "from a seed (default: the shipped one)")
    return parser


def main(argv: list[str] | None = None, prog: str = PROG) -> int:
    """Run the command (named ``prog`` in its messages); return the exit code. Never
    raises."""
    args = list(sys.argv[1:] if argv is None else argv)
    return never_raises(lambda: _run(args, prog), prog, "the record")


def _run(args: list[str], prog: str = PROG) -> int:
    opts = build_parser(prog).parse_args(args)
    for flag in ("svg", "png"):
        problem = picture_target_problem(prog, flag, getattr(opts, flag), "final",
                                         [Path(opts.file)], other_picture(opts, flag))
        if problem:
            return fail(problem)
    if opts.cards is not None and not opts.cards.is_dir():
        return fail(f"{prog}: --cards {shown(opts.cards)}: not a folder; give a folder laid out "
                    f"like cards/")

    from records.record import RecordError, read_record, replay

    try:
        record = read_record(Path(opts.file))
        explicit = opts.cards is not None and not getattr(opts, "cards_from_project", False)
        result = replay(record, opts.cards, opts.until, explicit=explicit)
    except RecordError as exc:
        for line in exc.problems:
            fail(line)
        return EXIT_UNREADABLE
    if result.design_note:
        from pnp.common import say

        say(f"{prog}: note: {result.design_note}")

    if opts.svg is not None or opts.png is not None:
        from cards.loader import DefinitionError
        from generator.picture_out import save_picture

        try:
            drawing = result.picture()
        except DefinitionError as exc:  # pragma: no cover - the ruleset came from them
            raise DefinitionsFailed(exc, "no picture was drawn") from None
        stop = save_picture(prog, drawing, opts.svg, opts.png)
        if stop is not None:
            return stop

    if opts.json:
        obj = result.to_json()
        if opts.legal:
            whose, moves = result.legal_now()
            obj["replay"]["legal_now"] = {"player": whose, "moves": moves}
        write_out(dump_json(obj), json=True)
    else:
        colour = colour_terminal()
        text = header(result, opts.until) + "\n" + result.score_summary(colour)
        if opts.legal:
            text += "\n" + legal_block(result)
        write_out(text)
    if opts.lenient or (result.illegal is None and result.valid):
        return EXIT_OK
    return EXIT_VIOLATIONS


def header(result: Replay, until: int | None = None) -> str:
    """What the replay found, before the scorer's summary of the position reached."""
    who = ", ".join(f"{colour} {name}" for colour, name in result.players.items())
    from cards.safe_text import printable

    out = [f"Replay: {printable(result.source)} ({result.game}{', ' + who if who else ''}), "
           f"start: {result.start}"]
    if until is not None and until < result.moves:
        out.append(f"Replaying only the first {until} of {result.moves} moves (--until {until})")
    bad = result.illegal
    if bad is not None:
        out.append(f"ILLEGAL: move {bad.number} ({bad.player}, line {bad.line}): {bad.text}")
        out.append(f"  {bad.reason}")
        if bad.legal_in_reason:
            pass
        elif bad.legal:
            shown = ", ".join(bad.legal[:SHOWN_LEGAL])
            more = bad.legal_count - SHOWN_LEGAL
            out.append(f"  Legal there for {bad.legal_of} ({bad.legal_count}): {shown}"
                       + (f" and {more} more" if more > 0 else ""))
        elif bad.legal_of.startswith("nobody"):
            pass
        else:
            out.append(f"  {bad.player} had no legal move there, so the move had to be: pass")
        if bad.number == 1:
            out.append("The start position:")
        else:
            done = f"{'the move' if bad.number == 2 else f'all {bad.number - 1} moves'} before it"
            out.append(f"The position before move {bad.number} ({done} legal):")
    else:
        n = result.played
        if result.moves == 0:
            out.append("No moves recorded: the start position")
        else:
            out.append(f"{n} move{'s' if n != 1 else ''} replayed, all legal")
        at = f"after move {n} (line {result.last_line})" if n else "at the start"
        if result.over:
            out.append(f"Game over {at}: {result.message}")
        else:
            out.append(f"The game goes on {at}: {result.message}")
    return "\n".join(out) + "\n"


def legal_block(result: Replay) -> str:
    whose, moves = result.legal_now()
    if not moves:
        return f"Legal moves: none for {whose}\n"
    return f"Legal moves for {whose} ({len(moves)}): {', '.join(moves)}\n"




def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
