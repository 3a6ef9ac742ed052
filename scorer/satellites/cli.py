"""``pnp-score satellites``: score a transcribed Satellites board.

Only argparse, the rules core and the scoring modules are imported on the plain
scoring path; the rule numbers come from the definitions folder through the
ruleset cache (:func:`cards.ruleset.load_ruleset`, no pydantic on a cache hit),
PyYAML for the YAML form only, the drawing code for ``--svg``/``--png`` only, so a
score prints well within the 120 ms budget.
"""

from __future__ import annotations

import sys
from pathlib import Path

from pnp.common import (
    EXIT_OK,
    EXIT_UNREADABLE,
    EXIT_VIOLATIONS,
    DefinitionsFailed,
    Parser,
    colour_terminal,
    dump_json,
    fail,
    misuse,
    never_raises,
    other_picture,
    picture_target_problem,
    say,
    shown,
    write_out,
)

DESCRIPTION = """\
Score a Satellites board: groups, colonies, who controls each, connected
satellites, the end-of-game state, the winner and the tie-break, and every
rule the board breaks.

FILE is a text grid, one line per row from north (row 1) to south, one token
per cell from west (column a) to east: '.' empty, R1-R4 red, B1-B4 blue (lower
case accepted, '#' starts a comment); or a YAML file with 'game: satellites',
'board: |' followed by the grid, and optionally 'grace_moves_left: 0-3'.
Give '-' to read standard input.

The rule numbers (colony sizes, the connected count that ends the game, the
grace moves, the satellites each player has) come from the definitions folder,
cards/satellites/rules.yaml and satellites.yaml (--cards DIR for another one).
"""

EPILOG = """\
exit codes:
  0  the board is valid (or --lenient was given)
  1  the board breaks a rule; every violation is listed, scores still shown
  2  the input cannot be read, or the command was misused
  definitions (--cards) that cannot be used: 1 if one breaks a rule, 2 if a
  file of them cannot be read

examples:
  pnp score satellites game.txt --json --png game.png
  pnp score satellites --photo board.jpg --layout-out read.txt --debug-image read.jpg
"""


def build_parser(prog: str) -> Parser:
    parser = Parser(prog, DESCRIPTION, EPILOG)
    parser.add_argument("file", metavar="FILE", nargs="?",
                        help="the board: a text grid or a YAML file ('-' for standard input); "
                             "or --photo instead")
    parser.add_argument("--json", action="store_true",
                        help="print the result as one JSON object instead of the summary")
    parser.add_argument("--svg", metavar="FILE", type=Path,
                        help="also draw the scored board (colonies outlined and tinted by "
                             "controller, crowns and contested colonies marked) as SVG here")
    parser.add_argument("--png", metavar="FILE", type=Path,
                        help="also draw the scored board as PNG (150 dpi) here")
    photo = parser.add_argument_group(
        "scoring from a photo (needs the optional OpenCV extra: pip install "
        "'orbitus-pnp[photo]')")
    photo.add_argument("--photo", metavar="PHOTO", type=Path, action="append",
                       help="read the board from a photo (JPEG or PNG) of a board and "
                            "satellites printed with markers, instead of FILE; every "
                            "satellite not read for certain is reported. Give it twice "
                            "(another angle, or the lamp moved) to merge both readings cell "
                            "by cell")
    photo.add_argument("--layout-out", metavar="OUT", type=Path,
                       help="with --photo: write the board read as a text grid (to check, "
                            "correct and score again)")
    photo.add_argument("--debug-image", metavar="IMAGE", type=Path,
                       help="with --photo: write the photo with every satellite read "
                            "outlined and labelled and every cell not read hatched in red "
                            "(.png or .jpg; with two photos the second's is IMAGE-2.png)")
    photo.add_argument("--markers", metavar="JSON", type=Path,
                       help="with --photo: the markers.json of the build the pieces were "
                            "printed from (default: the markers of the definitions in use)")
    parser.add_argument("--lenient", action="store_true",
                        help="exit 0 even when the board breaks a rule (violations are still "
                             "reported); unreadable input still exits 2")
    parser.add_argument("--cards", metavar="DIR", type=Path,
                        help="a definitions folder laid out like the shipped cards/ whose "
                             "satellites/ gives the rule numbers (rules.yaml) and the "
                             "satellites (satellites.yaml); default: the shipped one")
    return parser


def run(args: list[str], prog: str = "pnp-score satellites") -> int:
    """Run the command with ``args``; return the exit code. Never raises."""
    return never_raises(lambda: _run(args, prog), prog, "the input file (or photo)")


def _run(args: list[str], prog: str) -> int:
    parser = build_parser(prog)
    opts = parser.parse_args(args)
    if opts.photo is not None:
        from scorer.photo_cli import satellites

        return satellites(opts, prog)
    for flag in ("layout_out", "debug_image", "markers"):
        if getattr(opts, flag) is not None:
            return misuse(prog, f"--{flag.replace('_', '-')} goes with --photo PHOTO")
    if opts.file is None:
        parser.error("the following arguments are required: FILE (or --photo PHOTO)")
    for flag in ("svg", "png"):
        problem = picture_target_problem(prog, flag, getattr(opts, flag), "board",
                                         [Path(opts.file)], other_picture(opts, flag))
        if problem:
            return fail(problem)

    if opts.cards is not None and not opts.cards.is_dir():
        return fail(f"{prog}: --cards {shown(opts.cards)}: not a folder; give a folder laid out "
                    f"like cards/ (with satellites/rules.yaml)")
    from scorer.satellites.board import MAX_SIZE, InputError, load_rules, read_input
    from scorer.satellites.score import score

    try:
        ruleset = load_rules(opts.cards)
    except Exception as exc:  # a DefinitionError; its module (and PyYAML) only on a miss
        loader = sys.modules.get("cards.loader")
        if loader is None or not isinstance(exc, loader.DefinitionError):
            raise
        raise DefinitionsFailed(exc, "nothing was scored") from None
    try:
        transcript = read_input(Path(opts.file), ruleset)
    except InputError as exc:
        for line in exc.problems:
            fail(line)
        return EXIT_UNREADABLE
    cards = opts.cards
    if transcript.cards is not None and (cards is None or
                                         cards.resolve() != transcript.cards):
        cards = transcript.cards  # the folder the board file names: read it with those rules
        try:
            ruleset = load_rules(cards)
            transcript = read_input(Path(opts.file), ruleset)
        except InputError as exc:
            for line in exc.problems:
                fail(line)
            return EXIT_UNREADABLE
        except Exception as exc:
            loader = sys.modules.get("cards.loader")
            if loader is None or not isinstance(exc, loader.DefinitionError):
                raise
            raise DefinitionsFailed(exc, "nothing was scored") from None
    from cards.design_cache import design
    from cards.design_check import check

    explicit = opts.cards is not None and not getattr(opts, "cards_from_project", False) \
        and transcript.cards is None
    checked = check(transcript.design_at, transcript.design, "satellites", cards, explicit)
    if checked.problem:
        return fail(checked.problem)
    if checked.note:
        say(f"{prog}: note: {checked.note}")
    result = score(transcript.board, transcript.grace_moves_left, transcript.problems,
                   ruleset)

    if opts.svg is not None or opts.png is not None:
        board = result.board
        if max(board.width, board.height) > MAX_SIZE:
            return fail(
                f"{prog}: no picture drawn: the board is {board.height} x {board.width}, and "
                f"pictures are drawn for boards up to {MAX_SIZE} x {MAX_SIZE}; score it "
                f"without --svg/--png to see its violations"
            )
        code = _pictures(result, opts.svg, opts.png, transcript.source, prog, cards)
        if code:
            return code

    if opts.json:
        from scorer.satellites.report import to_json

        write_out(dump_json({**to_json(result), "design": design("satellites", cards).to_json()}),
                  json=True)
    else:
        from scorer.satellites.report import summary

        write_out(summary(result, transcript.source, colour=colour_terminal()))
    if result.valid or opts.lenient:
        return EXIT_OK
    return EXIT_VIOLATIONS


def _pictures(result: object, svg: Path | None, png: Path | None, source: str,
              prog: str, cards: Path | None) -> int:
    from cards.definitions import load_satellites
    from cards.loader import DefinitionError
    from generator.picture_out import save_picture
    from scorer.satellites.picture import board_picture

    try:
        defs = load_satellites(cards)
    except DefinitionError as exc:
        raise DefinitionsFailed(exc, "no picture was drawn") from None
    drawing = board_picture(result, title=f"Satellites: {source}",  # type: ignore[arg-type]
                            defs=defs)
    return save_picture(prog, drawing, svg, png) or EXIT_OK




