"""``pnp-score orbitus``: score a transcribed Orbitus table.

Imports are kept to what the command needs: the YAML loader, the scorer and
argparse. The pydantic models and the rendering code load only for ``--svg`` /
``--png`` (or when a definitions file needs the models' judgement).
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from dataclasses import dataclass
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
    shown,
    write_out,
)

if TYPE_CHECKING:
    from cards.definitions import OrbitusDefinitions
    from rules.orbitus.score import Result

DESCRIPTION = """\
Score a finished game of Orbitus from a transcribed table (a YAML layout file):
every player's system, planet groups, pirates, open routes, closed blocks and
total; the neutral zones; the winner(s); and every rule the table breaks.

Layout file (axial cells [q, r], the station at [0, 0]):
  game: orbitus
  players: [Anna, Boris]             # seat order, 2-6 names
  start_lines: {Anna: [N, NE, SE], Boris: [S, SW, NW]}   # optional
  barriers: []                       # optional
  cards: my-deck.yaml                # optional, a deck file in this folder
  sectors:
    - {at: [0, -1], card: S07, rot: 2}              # deck card, marker points SE
    - {at: [1, -1], routes: [SW, NW], planet: ice}  # inline, routes as it lies
    - {at: [2, -2], routes: [SW], pirate: true}
"""

EPILOG = """\
rot: where the card's orientation marker points: 0-5 (N=0, NE=1, SE=2, S=3,
SW=4, NW=5) or the direction's name; the card is turned rot x 60 degrees
clockwise. Without start_lines the rules' default table for the player count
is used; station sides that are no one's start line are barriers.

From a photo of cards printed with markers (the manual: docs/photo.md):
  pnp score orbitus --photo table.jpg --players Anna,Boris --layout-out read.yaml
  --debug-image read.jpg

exit codes: 0 the table is valid, 1 it breaks a rule (scores shown
best-effort, marked not valid; from a photo also any card not read for
certain), 2 a file can't be read or the command was misused. Definitions
(--cards, a layout's cards:) that cannot be used: 1 if one breaks a rule, 2 if
a file of them cannot be read."""


PICTURE_LIMIT = 2000  # sectors; beyond that a picture is a poster nobody can check
# A 72-sector table is 4 kB of YAML; 4 MB is some 80,000 sectors (and about half a GB of
# memory to score): anything larger is not a transcribed table.
MAX_LAYOUT_BYTES = 4_000_000


def build_parser(prog: str) -> Parser:
    parser = Parser(prog, DESCRIPTION, EPILOG)
    parser.add_argument("layout", metavar="LAYOUT", nargs="?",
                        help="the layout YAML file to score (or --photo instead)")
    parser.add_argument(
        "--json", action="store_true",
        help="print one JSON object (game, valid, violations, players, neutral, winners, ...) "
             "instead of the readable table",
    )
    parser.add_argument(
        "--svg", metavar="FILE", type=Path,
        help="also draw the table (sectors tinted by owner, closed blocks outlined, open "
             "route ends marked, the station's start lines and barriers, cell coordinates) "
             "as an SVG file",
    )
    parser.add_argument(
        "--png", metavar="FILE", type=Path, help="also draw the table as a PNG file (150 dpi)",
    )
    parser.add_argument(
        "--lenient", action="store_true",
        help="exit 0 even when the table breaks a rule (the violations are still reported)",
    )
    photo = parser.add_argument_group(
        "scoring from a photo (needs the optional OpenCV extra: pip install "
        "'orbitus-pnp[photo]')")
    photo.add_argument(
        "--photo", metavar="FILE", type=Path, action="append",
        help="read the table from a photo (JPEG or PNG) of cards printed with markers, "
             "instead of a LAYOUT file; every card not read for certain is reported. Give it "
             "twice (another angle, or the lamp moved) to merge both readings cell by cell")
    photo.add_argument(
        "--players", metavar="NAMES",
        help="with --photo: the players in seat order, separated by commas (Anna,Boris), or "
             "their number (3: P1, P2, P3); start lines are the rules' default for that many")
    photo.add_argument(
        "--layout-out", metavar="FILE", type=Path,
        help="with --photo: write the layout read, in the LAYOUT format (to check, correct "
             "and score again)")
    photo.add_argument(
        "--debug-image", metavar="FILE", type=Path,
        help="with --photo: write the photo with every card read outlined and labelled and "
             "every card seen but not read hatched in red (.png or .jpg; with two photos the "
             "second's is FILE-2.png)")
    photo.add_argument(
        "--markers", metavar="FILE", type=Path,
        help="with --photo: the markers.json of the build the cards were printed from "
             "(default: the markers of the definitions in use)")
    parser.add_argument(
        "--cards", metavar="DIR", type=Path, dest="cards_dir",
        help="a definitions folder laid out like the shipped cards/ (its orbitus/ holds "
             "planets.yaml, sectors.yaml, station.yaml, rules.yaml); default: the shipped one",
    )
    return parser


def run(args: Sequence[str], prog: str = "pnp-score orbitus") -> int:
    """Run the command with ``args``; returns the exit code (never raises)."""
    # A short run that builds many small objects and frees them all at the end: the
    # cyclic garbage collector finds nothing to collect but rescans the growing heap
    # again and again (on a 10,000-sector table it doubled the time to read the file).
    collecting = gc.isenabled()
    gc.disable()

    try:
        return never_raises(lambda: _run(args, prog), prog, "the layout file (or photo)")
    finally:
        if collecting:
            gc.enable()


def score_file(
    path: Path, cards_dir: Path | None = None, full: bool = False
) -> tuple[Result, OrbitusDefinitions | None]:
    """Read, check and score one layout file (``full``: also load the models, to draw):
    :func:`score_layout`'s result and models."""
    found = score_layout(path, cards_dir, full)
    return found.result, found.models


@dataclass(frozen=True)
class Scored:
    """A layout scored: the result, the models (when asked for), the design of the
    definitions it was scored with and, when the layout names another design and the
    definitions were chosen on purpose, the note that says so."""

    result: Result
    models: OrbitusDefinitions | None
    folder: Path | None
    deck_file: Path | None
    note: str | None = None

    def design(self) -> dict[str, Any]:
        """The design of the definitions scored with (asked for only where it is shown: it
        reads every text the kit prints)."""
        from cards.design_cache import design
        from cards.ruleset_cache import load_definitions

        if self.deck_file is None:
            return design("orbitus", self.folder).to_json()
        return load_definitions("orbitus", self.folder, self.deck_file).design.to_json()


def score_layout(path: Path, cards_dir: Path | None = None, full: bool = False,
                 explicit: bool = False) -> Scored:
    """Read, check and score one layout file (``full``: also load the models, to draw).

    The definitions come from the folder the layout names with ``cards:`` (or from the deck
    file it names and the files beside it), else from ``cards_dir``, else the shipped ones;
    they are read through the validated, cached ruleset (:func:`cards.ruleset.load_ruleset`).
    A layout that names its ``design:`` is scored only with definitions of that design
    (:func:`cards.design_check.check`), unless ``cards_dir`` was given on purpose
    (``explicit``). Raises :class:`cards.loader.DefinitionError` (``UnreadableInput`` for a
    file that can't be read, or another design) with one line per problem of the layout,
    and :class:`pnp.common.DefinitionsFailed` when the definitions cannot be used.
    """
    from cards.design_check import DESIGN_FIELD, check
    from cards.files import game_files, shown_deck
    from cards.loader import DefinitionError, UnreadableInput, load_yaml
    from cards.ruleset_cache import load_definitions, load_ruleset
    from rules.orbitus.score import score
    from scorer.orbitus.layout import deck_path, parse_layout

    try:
        doc = load_yaml(path, "an Orbitus layout", MAX_LAYOUT_BYTES)
    except RecursionError:
        raise DefinitionError([f"{path}: the YAML is nested too deeply to be a layout"]) from None
    named = deck_path(doc)
    folder, deck_file = cards_dir, named
    if named is not None and named.is_dir():
        folder, deck_file = named, None
    try:
        ruleset = load_ruleset("orbitus", folder, deck_file)
    except DefinitionError as exc:
        raise DefinitionsFailed(exc, "nothing was scored") from None
    checked = None
    data = doc.data if isinstance(doc.data, dict) else {}
    if data.get(DESIGN_FIELD) is not None:
        checked = check(doc.where((DESIGN_FIELD,)), data[DESIGN_FIELD], "orbitus", folder,
                        explicit and named is None)
        if checked.problem:
            raise UnreadableInput([checked.problem])
    deck = shown_deck(game_files("orbitus", folder, deck_file)["sectors"])
    layout = parse_layout(doc, ruleset, deck)
    del doc  # the parsed file is not needed any more: free it before scoring
    try:
        models = load_definitions("orbitus", folder, deck_file) if full else None
    except DefinitionError as exc:  # pragma: no cover - the ruleset came from them
        raise DefinitionsFailed(exc, "nothing was scored") from None
    result = score(layout, ruleset.scoring, layout.findings)
    return Scored(result, models, folder, deck_file,  # type: ignore[arg-type]
                  checked.note if checked is not None else None)


def _run(args: Sequence[str], prog: str) -> int:
    parser = build_parser(prog)
    opts = parser.parse_args(list(args))
    if opts.photo is not None:
        from scorer.photo_cli import orbitus

        return orbitus(opts, prog)
    for flag in ("players", "layout_out", "debug_image", "markers"):
        if getattr(opts, flag) is not None:
            return misuse(prog, f"--{flag.replace('_', '-')} goes with --photo FILE")
    if opts.layout is None:
        parser.error("the following arguments are required: LAYOUT (or --photo FILE)")
    from cards.loader import DefinitionError
    from pnp.common import other_picture, picture_target_problem

    for flag in ("svg", "png"):  # before anything is read or printed
        problem = picture_target_problem(prog, flag, getattr(opts, flag), "table",
                                         [Path(opts.layout)], other_picture(opts, flag))
        if problem:
            return fail(problem)

    picture = opts.svg is not None or opts.png is not None
    explicit = opts.cards_dir is not None and not getattr(opts, "cards_from_project", False)
    try:
        scored = score_layout(Path(opts.layout), opts.cards_dir, picture, explicit)
    except DefinitionError as exc:
        return fail("\n".join(exc.problems))
    result, models = scored.result, scored.models
    if scored.note:
        from pnp.common import say

        say(f"{prog}: note: {scored.note}")
    if picture and len(result.table.sectors) > PICTURE_LIMIT:
        return fail(
            f"{prog}: {shown(opts.layout)} has {len(result.table.sectors)} sectors; pictures are "
            f"drawn for tables of up to {PICTURE_LIMIT} (a real game has at most a few hundred). "
            f"Score it without --svg/--png"
        )

    if opts.json:
        from scorer.orbitus.report import json_text, to_json

        write_out(json_text({**to_json(result), "design": scored.design()}), json=True)
    else:
        from scorer.orbitus.report import to_text

        write_out(to_text(result))
    if picture:
        from generator.picture_out import save_picture
        from scorer.orbitus.picture import draw_table

        assert models is not None
        stop = save_picture(prog, draw_table(result, models), opts.svg, opts.png)
        if stop is not None:
            return stop
    if result.valid or opts.lenient:
        return EXIT_OK
    return EXIT_VIOLATIONS
