"""``pnp-setup orbitus``: shuffle the sector deck, deal the hands, show the start lines.

Everything comes from the definitions (``cards/`` or ``--cards``) through the
validated ruleset (:func:`cards.ruleset.load_ruleset`): the deck (every card as often
as its ``count``), ``hand_size``, ``min_hand`` and the start lines for the player
count. The deal is the rules core's (:func:`rules.orbitus.engine.new_game`, O-73):
``random.Random(seed)`` shuffles the deck in file order, then each player in seat
order takes ``hand_size`` cards from the top. A game record with ``seed: N`` and the
same players starts from this deal.
"""

from __future__ import annotations

import argparse
import json
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
from rules.game import MAX_SEED
from rules.hexgeo import SIDES

if TYPE_CHECKING:
    from cards.definitions import OrbitusDefinitions
    from generator.drawing import Drawing
    from rules.orbitus.engine import Seating, State
    from rules.orbitus.ruleset import Ruleset

DECK_PER_LINE = 12
PICTURE_FLATS_MM = 30.0


def default_names(count: int) -> list[str]:
    return [f"P{i + 1}" for i in range(count)]


def dealt(ruleset: Ruleset, names: list[str], seed: int) -> State:
    """The start of the game for ``seed`` with the default start lines for ``names``."""
    from rules.orbitus.engine import new_game

    return new_game(ruleset, names, seed)


# --- what is printed ------------------------------------------------------------------------


def _lines(game: Seating, seat: int) -> str:
    return " ".join(SIDES[s] for s in game.start_lines_of(seat))


def text_of(state: State, seed: int, again: str, note: str) -> str:
    game = state.game
    width = max(len(n) for n in game.players)
    out = [
        f"# Orbitus deal: seed {seed}{note}, {game.n} players, {len(state.deck)}-card deck "
        f"({again})",
        "",
        f"Station (seat order; {game.players[0]} plays first, then clockwise):",
    ]
    for seat, name in enumerate(game.players):
        out.append(f"  {name:<{width}}  start lines {_lines(game, seat)}")
    barriers = " ".join(SIDES[s] for s in sorted(game.barriers)) or "none"
    out.append(f"  barriers{' ' * max(0, width - 6)}  {barriers}")
    out.append("")
    out.append(f"Hands ({game.hand_size} each; the hand limit starts at {game.hand_size} and "
               f"never drops below {game.min_hand}):")
    id_width = max(len(c) for c in game.cards)
    for seat, name in enumerate(game.players):
        out.append(f"  {name}:")
        for ident in state.hands[seat]:
            card = game.cards[ident]
            routes = " ".join(SIDES[s] for s in range(6) if card.routes >> s & 1)
            out.append(f"    {ident:<{id_width}}  {card.centre:<8} routes {routes}")
    rest = state.deck[state.drawn:]
    out.append("")
    out.append(f"Deck ({len(rest)} cards, top first):")
    for i in range(0, len(rest), DECK_PER_LINE):
        out.append("  " + " ".join(rest[i:i + DECK_PER_LINE]))
    return "\n".join(out) + "\n"


def record_of(state: State, seed: int, again: str, note: str,
              definitions: list[str] | None = None) -> str:
    """The start of a game record of the deal; ``definitions``: the lines that name the
    definitions it was dealt from (:func:`cards.design_check.record_lines`)."""
    from cards.yaml_out import comment, flow

    game = state.game
    hands = [f"#   {comment(name)}: {' '.join(state.hands[seat])}"
             for seat, name in enumerate(game.players)]
    lines = [f"#   {comment(name)}: {_lines(game, seat)}"
             for seat, name in enumerate(game.players)]
    out = [
        "# Orbitus game record: replay it with pnp-replay FILE",
        f"# deal: seed {seed}{note} ({comment(again)})",
        "# start lines:",
        *lines,
        "# hands:",
        *hands,
        "game: orbitus",
        *(definitions or []),
        f"players: {flow(list(game.players))}",
        f"seed: {seed}",
        f"# one action per line, {comment(game.players[0])} first, then clockwise:",
        "#   place S07 @0,-1 r2 | remove 1,-2 | discard S12 | pass",
        "moves:",
    ]
    return "\n".join(out) + "\n"


def json_of(state: State, seed: int) -> dict[str, Any]:
    game = state.game
    return {
        "game": "orbitus",
        "seed": seed,
        "players": list(game.players),
        "first": game.players[state.to_move],
        "start_lines": {SIDES[s]: game.players[p] for s, p in sorted(game.start_lines.items())},
        "barriers": [SIDES[s] for s in sorted(game.barriers)],
        "hand_size": game.hand_size,
        "min_hand": game.min_hand,
        "hands": {name: list(state.hands[seat]) for seat, name in enumerate(game.players)},
        "deck": list(state.deck[state.drawn:]),
    }


def picture(models: OrbitusDefinitions, state: State, title: str) -> Drawing:
    """The station with its start lines and barriers, and each player's hand beside it."""
    from generator.components.orbitus import INK, sector_items, station_items
    from generator.drawing import Drawing, Group, Item, Rect, Style, Text, fit_size
    from rules import hexgeo

    game = state.game
    flats = PICTURE_FLATS_MM
    big = flats * 1.6  # the station, drawn larger so its side labels read
    radius = hexgeo.circumradius(flats)
    margin, header, label, gap, bar = 10.0, 14.0, 7.0, 4.0, 4.0
    step = 2 * radius + gap
    row = flats + label + gap
    station_w = 2 * hexgeo.circumradius(big) + 2 * gap
    columns = max(len(h) for h in state.hands)
    x0 = margin + station_w + 10.0 + bar + 4.0
    width = x0 + max(columns, 1) * step - gap + margin
    body = max(game.n * row, big + 2 * gap)
    height = header + body + margin - gap
    colours = models.station.player_colours
    by_id = models.sectors.by_id()
    items: list[Item] = [
        Rect(0.0, 0.0, width, height, Style(fill="#ffffff")),
        Text(margin, margin, title, 5.0, fill=INK, bold=True),
    ]
    items.append(Group(tuple(station_items(models, big, game.start_lines, game.barriers)),
                       (margin + station_w / 2, header + body / 2 - gap / 2), cls="station"))
    for seat, name in enumerate(game.players):
        top = header + seat * row
        colour = colours[seat % len(colours)]
        text = f"{name} — start lines {_lines(game, seat)}"
        items.append(Rect(x0 - bar - 4.0, top + 1.0, bar, flats + label - 1.0,
                          Style(fill=colour), rx=1.0))
        items.append(Text(x0, top + 5.0, text, fit_size(text, 4.0, width - x0 - margin),
                          fill=INK, bold=True))
        for i, ident in enumerate(state.hands[seat]):
            at = (x0 + radius + i * step, top + label + flats / 2)
            items.append(Group(tuple(sector_items(by_id[ident], models, flats)), at,
                               cls="sector"))
    return Drawing(width, height, items, title)


# --- the command ------------------------------------------------------------------------------

DESCRIPTION = """\
Deal an Orbitus game as the rules describe: the sector deck shuffled, each
player dealt a hand of hand_size sectors face down (orbitus/rules.yaml; 4 in
the shipped rules), and the station's start lines and barriers for the player
count. The same seed and players always give the
same deal; write 'seed: N' and the players in a game record and pnp replay
starts from it.
"""

EPILOG = """\
The deal: random.Random(seed) shuffles the deck (every card of
orbitus/sectors.yaml as often as its count, in file order); then each player
in seat order takes hand_size cards from the top. P1 plays first, then
clockwise.

exit codes: 0 dealt, 1 the definitions (--cards) do not give a deal (e.g. too
few cards) or break a rule, 2 the command was misused, a file could not be
written or a definitions file cannot be read

examples:
  pnp setup orbitus --players 3 --seed 42
  pnp setup orbitus --names Anna,Boris,Carla --seed 42 --record > game.yaml
  pnp setup orbitus --players 4 --seed 7 --json
  pnp setup orbitus --players 2 --seed 7 --png deal.png
"""


def build_parser(prog: str) -> Parser:
    parser = Parser(prog, DESCRIPTION, EPILOG, project=("cards", "players"))
    parser.add_argument("--players", type=_players, metavar="K",
                        help="how many players, 2 to 6 (named P1, P2, ...)")
    parser.add_argument("--names", type=_names, metavar="A,B,...",
                        help="the players' names in seat order, separated by commas "
                             "(instead of --players)")
    parser.add_argument("--seed", type=whole_number(0, MAX_SEED), metavar="N",
                        help=f"deal number, 0 to {MAX_SEED} (default: chosen at random and "
                             f"printed)")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true",
                     help="print one JSON object: players, start lines, barriers, hands, deck")
    out.add_argument("--record", action="store_true",
                     help="print the start of a game record (YAML for pnp replay): the seed, "
                          "the players, the hands as comments, moves:")
    parser.add_argument("--svg", metavar="FILE", type=Path,
                        help="also draw the station with its start lines and every hand as SVG")
    parser.add_argument("--png", metavar="FILE", type=Path,
                        help="also draw it as PNG (150 dpi)")
    parser.add_argument("--cards", metavar="DIR", type=Path,
                        help="definitions folder laid out like cards/ (default: the shipped one)")
    return parser


def _players(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 2 <= value <= 6:
        raise argparse.ArgumentTypeError(f"{value} players; Orbitus is played by 2 to 6")
    return value


def _names(text: str) -> list[str]:
    from cards.safe_text import has_control, printable

    names = [n.strip() for n in text.split(",")]
    if any(has_control(n) for n in names):
        raise argparse.ArgumentTypeError(f"{printable(text)!r}: a name holds a control "
                                         "character (or bytes that are not UTF-8); names are "
                                         "plain text on one line")
    if any(not n for n in names):
        raise argparse.ArgumentTypeError(f"{text!r}: an empty name; separate the names with "
                                         f"commas, e.g. Anna,Boris,Carla")
    if len(set(names)) != len(names):
        raise argparse.ArgumentTypeError(f"{text!r}: a name is given twice; every player needs "
                                         f"their own")
    if any(":" in n for n in names):
        raise argparse.ArgumentTypeError(f"{text!r}: a name may not contain ':' (the move "
                                         f"notation writes NAME: MOVE)")
    if not 2 <= len(names) <= 6:
        raise argparse.ArgumentTypeError(f"{len(names)} name(s); Orbitus is played by 2 to 6")
    return names


def run(args: list[str], prog: str = "pnp-setup orbitus") -> int:
    """``pnp-setup orbitus``: return the exit code; never raises."""
    return never_raises(lambda: _run(args, prog), prog, "the command line")


def _run(args: list[str], prog: str) -> int:
    opts = build_parser(prog).parse_args(args)
    if opts.players is None and opts.names is None:
        return misuse(prog, "say how many play: --players K (2 to 6) or --names A,B,...")
    if opts.players is not None and opts.names is not None and opts.players != len(opts.names):
        return misuse(prog, f"--players {opts.players} but --names gives {len(opts.names)} "
                            f"names; give one of them, or make them agree")
    for flag in ("svg", "png"):
        problem = picture_target_problem(prog, flag, getattr(opts, flag), "deal",
                                         other=other_picture(opts, flag))
        if problem:
            return fail(problem)
    if opts.cards is not None and not opts.cards.is_dir():
        return fail(f"{prog}: --cards {shown(opts.cards)}: not a folder; give a folder laid "
                    f"out like cards/ (with orbitus/sectors.yaml)")
    names = opts.names or default_names(opts.players)

    from cards.loader import DefinitionError
    from cards.ruleset_cache import load_ruleset
    from rules.game import SetupError

    try:
        ruleset = load_ruleset("orbitus", opts.cards)
    except DefinitionError as exc:
        raise DefinitionsFailed(exc, "nothing was dealt") from None
    chosen = opts.seed is None
    seed = secrets.randbelow(1_000_000) if chosen else opts.seed
    try:
        state = dealt(ruleset, names, seed)  # type: ignore[arg-type]
    except SetupError as exc:
        return fail(f"{prog}: {exc}", EXIT_VIOLATIONS)

    who = f"--names {','.join(names)}" if opts.names else f"--players {len(names)}"
    again = f"{prog} {who} --seed {seed}" + (
        f" --cards {shown(opts.cards)}" if opts.cards is not None else "")
    note = " (chosen at random)" if chosen else ""
    if opts.json:
        from cards.design_cache import design

        text = json.dumps({**json_of(state, seed),
                           "design": design("orbitus", opts.cards).to_json()},
                          ensure_ascii=False, indent=2) + "\n"
    elif opts.record:
        from cards.design_cache import design
        from cards.design_check import record_lines

        text = record_of(state, seed, again, note, record_lines(
            "orbitus", opts.cards, design("orbitus", opts.cards).stamp))
    else:
        text = text_of(state, seed, again, note)
    if opts.svg is not None or opts.png is not None:
        from cards.definitions import load_orbitus
        from generator.picture_out import save_picture

        drawing = picture(load_orbitus(opts.cards), state,
                          f"Orbitus deal: seed {seed}, {len(names)} players")
        stop = save_picture(prog, drawing, opts.svg, opts.png)
        if stop is not None:
            return stop
    from pnp.common import write_out

    write_out(text, json=bool(getattr(opts, "json", False)))
    return EXIT_OK
