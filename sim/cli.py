"""``pnp-sim``: play many games with bots and report what the rules and the deck do.

    pnp-sim orbitus    [--cards DIR] [--players 2-6|2,3,4] [--games N] [--bots LIST] ...
    pnp-sim satellites [--cards DIR] [--games N] [--bots LIST] ...
    pnp-sim compare A_DIR B_DIR --game orbitus [...]

:func:`main` is the entry point: it takes the arguments and returns the exit code, and
never raises (0 done, 1 the definitions break a rule, 2 misuse or unreadable input, 130
interrupted with the finished games kept).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import rules
from cards.safe_text import printable
from pnp.common import Parser, fail, misuse, write_out
from sim.command import (
    EXIT_OK,
    MAX_BUDGET,
    MAX_GAMES,
    MAX_JOBS,
    MAX_SEED,
    Stop,
    Usage,
    has_player_counts,
    options,
    resume_hint,
    run,
    run_lines,
)

DEFAULT_GAMES = 1000

DESCRIPTION = """\
Play many games between bots with the rules core and report what a deck or rule change
does: the win rate of every seat with 95 % intervals, the first-player advantage and
whether it is significant, score components, game length, actions taken and (Orbitus)
how each card fares. Results stream to OUT/games.jsonl as games finish; the report is
written to OUT/report.json, OUT/report.html and OUT/plots/*.png.
"""

EPILOG = """\
examples:
  pnp sim orbitus --players 3 --games 2000
  pnp sim orbitus --cards my-cards --bots greedy,random --players 2
  pnp sim satellites --games 100000 --jobs 2
  pnp sim compare cards my-cards --game orbitus --players 3,4
  pnp sim orbitus --out output/sim/orbitus --resume      # continue an interrupted run

The same seed, definitions, bots and number of games give the same results (byte for
byte in report.json) whatever --jobs is, and on a Ray cluster too.
"""


def whole(name: str, low: int, example: str, high: int,
          why: str = "") -> Callable[[str], int]:
    """An argparse ``type=`` for a whole number from ``low`` to ``high``; the message names
    the limit (``why``: what it protects)."""

    def parse(text: str) -> int:
        try:
            value = int(text) if len(text) <= 30 else int("x")
        except ValueError:
            raise argparse.ArgumentTypeError(f"{printable(text[:40])!r} is not a whole number; "
                                             f"e.g. {name} {example}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"{value} is too small (at least {low}); e.g. "
                                             f"{name} {example}")
        if value > high:
            raise argparse.ArgumentTypeError(f"{value:,} is too large (at most {high:,}"
                                             f"{'; ' + why if why else ''}); e.g. "
                                             f"{name} {example}")
        return value
    return parse


def add_common(p: argparse.ArgumentParser, players: bool) -> None:
    p.add_argument("--cards", type=Path, metavar="DIR",
                   help="definitions folder (default: the shipped cards/)")
    if players:
        p.add_argument("--players", metavar="COUNTS",
                       help="player counts: 3, 2-6 or 2,3,4 (default: every count the "
                            "definitions have start lines for)")
    add_play(p)


def add_play(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", type=whole("--games", 1, "1000", MAX_GAMES,
                                         "run more with other --seed values"),
                   default=DEFAULT_GAMES, metavar="N",
                   help=f"games per player count (default {DEFAULT_GAMES}, at most "
                        f"{MAX_GAMES:,})")
    p.add_argument("--bots", default="random", metavar="LIST",
                   help="bots taking the seats in turn, comma-separated: random, greedy, "
                        "value, mcts, tactics (Satellites: mcts behind an exact look at "
                        "the end), deep (tactics with both sides' connections searched "
                         "on), wary (tactics against an opponent who sees one move ahead), "
                         "closer (tactics with the middle and end of the game judged by sampled "
                         "plays), "
                         "each search bot with its own budget if wanted "
                        "(mcts:64, mcts:200ms, mcts:256x4, tactics:16) and restrictions after + "
                        "(value+never-remove); default random. The line-up turns one seat "
                        "every game so each bot plays each seat equally often")
    p.add_argument("--budget", type=whole("--budget", 1, "64", MAX_BUDGET,
                                          "a game would take hours"),
                   default=None, metavar="N",
                   help=f"iterations per decision of an mcts bot that names none (default 64, "
                        f"at most {MAX_BUDGET:,})")
    p.add_argument("--think", metavar="TIME",
                   help="thinking time per decision of an mcts bot that names no budget, "
                        "e.g. 200ms (the games then depend on the machine's speed)")
    p.add_argument("--seed", type=whole("--seed", 0, "1", MAX_SEED), default=1, metavar="S",
                   help="run seed; every game's seed comes from it and the game's number "
                        "(default 1)")
    p.add_argument("--jobs", type=whole("--jobs", 1, "2", MAX_JOBS), default=None,
                   metavar="K", help=f"worker processes (default: all cores, at most "
                                     f"{MAX_JOBS})")
    p.add_argument("--ray", metavar="ADDRESS",
                   help="play the games as tasks on a Ray cluster: its address, 'auto', or "
                        "'local' to start one here (needs pip install -e '.[cluster]')")
    p.add_argument("--out", type=Path, metavar="DIR",
                   help="results folder (default output/sim/GAME)")
    p.add_argument("--resume", action="store_true",
                   help="continue the interrupted run in --out (same options)")
    p.add_argument("--json", action="store_true",
                   help="print the report as JSON instead of text")
    p.add_argument("--feel", action="store_true",
                   help="measure how the games feel: lead changes, drama, decisiveness, "
                        "branching, kingmaking (costs an evaluation of every position)")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no progress bar (it is shown only on a terminal anyway)")


def _number(name: str, example: str, ok: Callable[[float], bool],
            what: str) -> Callable[[str], float]:
    """An argparse type: a number for which ``ok`` holds, else '... must WHAT'."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{printable(text)!r} is not a number; e.g. "
                                             f"{name} {example}") from None
        if not ok(value):
            raise argparse.ArgumentTypeError(f"{value:g} must {what}; e.g. {name} {example}")
        return value
    return parse


def share(name: str, example: str) -> Callable[[str], float]:
    """A number strictly between 0 and 1 (``--alpha 0.05``)."""
    return _number(name, example, lambda v: 0 < v < 1, "lie between 0 and 1")


def positive(name: str, example: str) -> Callable[[str], float]:
    """A number above 0 (``--effect 0.25``)."""
    return _number(name, example, lambda v: v > 0 and v != float("inf"), "be above 0")


def add_rungs(p: argparse.ArgumentParser) -> None:
    from sim.ladder import DEFAULT_RUNGS

    p.add_argument("--rungs", default=",".join(DEFAULT_RUNGS), metavar="LIST",
                   help=f"the bots of the ladder, weakest first (default "
                        f"{','.join(DEFAULT_RUNGS)})")


def build_parser(prog: str = "pnp-sim") -> Parser:
    games = rules.names("sim")
    top = Parser(prog, DESCRIPTION, EPILOG)
    commands = [*games, "compare", "ladder", "tune"]
    sub = top.add_subparsers(dest="command", metavar="{" + ",".join(commands) + "}")
    sub.required = True
    for game in games:
        players = rules.get(game)
        few, many = players.min_players, players.max_players
        counts = f"{few} players" if few == many else f"{few}-{many} players"
        one = sub.add_parser(game, help=f"simulate {game.capitalize()} games ({counts})",
                             description=DESCRIPTION + SKILL, project=("cards", "players"))
        add_common(one, players=has_player_counts(game))
        add_rungs(one)
    c = sub.add_parser(
        "compare", help="the same seeds and bots on two definitions folders",
        description=COMPARE)
    c.add_argument("a", type=Path, metavar="A_DIR", help="definitions folder A (the baseline)")
    c.add_argument("b", type=Path, metavar="B_DIR", help="definitions folder B (the change)")
    c.add_argument("--game", required=True, choices=games, help="which game to simulate")
    c.add_argument("--players", metavar="COUNTS",
                   help="Orbitus player counts: 3, 2-6 or 2,3,4 (default: every count both "
                        "folders have start lines for)")
    add_play(c)
    c.add_argument("--seed-b", type=whole("--seed-b", 0, "2", MAX_SEED), default=None, metavar="S",
                   help="play B on seeds of its own (independent runs, compared as two "
                        "independent means) instead of A's seeds (paired games)")
    c.add_argument("--correction", choices=("holm", "bh", "none"), default="holm",
                   help="how the p-values of all rows are adjusted together: holm (the "
                        "chance of any false alarm stays below --alpha), bh "
                        "(Benjamini-Hochberg: the expected share of false alarms), none "
                        "(default holm)")
    c.add_argument("--primary", metavar="MEASURE",
                   help="the one measure that is the question (only its row is tested, "
                        "unadjusted): seat:N, draws, length, score, component:NAME, "
                        "action:KIND, end:REASON")
    c.add_argument("--alpha", type=share("--alpha", "0.05"), default=0.05, metavar="A",
                   help="the significance level (default 0.05)")
    c.add_argument("--sprt", action="store_true",
                   help="play A and B in pairs and stop as soon as a sequential probability "
                        "ratio test on --metric decides (no change, or a change of --effect)")
    c.add_argument("--metric", default="seat-gap", metavar="MEASURE",
                   help="--sprt: seat-gap (the first seat's share of the win minus a fair "
                        "share), seat:N, length, score or component:NAME (default seat-gap)")
    c.add_argument("--effect", type=positive("--effect", "0.25"), default=None, metavar="X",
                   help="--sprt: the change worth finding, in the metric's unit (a share "
                        "for seat-gap and seat:N: 0.05 is 5 points; turns for length; points "
                        "for score and components)")
    c.add_argument("--beta", type=share("--beta", "0.1"), default=0.1, metavar="B",
                   help="--sprt: the chance of missing a change of --effect (default 0.1)")
    l_ = sub.add_parser("ladder", help="a round robin of bots of rising strength, rated",
                        description=LADDER)
    l_.add_argument("ladder_game", choices=games, metavar="GAME", help="the game: "
                    + ", ".join(games))
    l_.add_argument("--cards", type=Path, metavar="DIR",
                    help="definitions folder (default: the shipped cards/)")
    l_.add_argument("--players", type=whole("--players", 2, "2", 6), default=None, metavar="N",
                    help="the player count the pairings play at (default: the fewest)")
    add_rungs(l_)
    add_play(l_)
    l_.add_argument("--sprt", action="store_true",
                    help="end each pairing as soon as a sequential test on the higher rung's "
                         "win share decides (above or below one half by --effect, or within "
                         "it); --games is then the most a pairing plays")
    l_.add_argument("--effect", type=positive("--effect", "0.1"), default=None, metavar="X",
                    help="--sprt: the win share away from one half worth finding (default "
                         "0.1: 60 %% against 50 %%)")
    l_.add_argument("--alpha", type=share("--alpha", "0.05"), default=None, metavar="A",
                    help="--sprt: the chance of deciding a difference where there is none "
                         "(default 0.05)")
    l_.add_argument("--beta", type=share("--beta", "0.05"), default=None, metavar="B",
                    help="--sprt: the chance of missing a difference of --effect (default "
                         "0.05)")
    l_.set_defaults(games=None)
    t = sub.add_parser("tune", help="search the tunable numbers for definitions that meet "
                                    "targets", description=TUNE)
    t.add_argument("tune_game", choices=games, metavar="GAME", help="the game: "
                   + ", ".join(games))
    t.add_argument("--cards", type=Path, metavar="DIR",
                   help="definitions folder whose rules.yaml declares tune: (default: the "
                        "shipped cards/)")
    t.add_argument("--players", metavar="COUNTS",
                   help="Orbitus player counts the targets hold for (default: every count)")
    t.add_argument("--target", action="append", required=True, metavar="TARGET",
                   help="a measure and its bounds, e.g. \"seat-gap<2%%\", \"first-seat<55%%\", "
                        "\"draws<5%%\", \"length 25..40 turns\", \"score>0\" (repeat for "
                        "several)")
    t.add_argument("--trials", type=whole("--trials", 1, "30", 10_000, "a search would take days"),
                   default=30, metavar="N",
                   help="trials of the search (default 30; the definitions as they are "
                        "come first)")
    t.add_argument("--prune-every", type=whole("--prune-every", 10, "100", MAX_GAMES),
                   default=None, metavar="N",
                   help="also let the pruner stop a trial after every N games of a player "
                        "count (default: only after a whole player count; worth it for "
                        "one player count of slow bots)")
    t.add_argument("--evidence", type=whole("--evidence", 10, "400", MAX_GAMES), default=None,
                   metavar="N", help="games per player count of the paired comparison of "
                                     "the original and the proposal (default 2 x --games)")
    add_play(t)
    t.set_defaults(games=None)
    return top


SKILL = """
--bots ladder plays the run once per rung of --rungs (each rung in every seat) and
reports seat fairness, scores and lengths per rung, saying which conclusion changes with
skill.
"""

COMPARE = """\
Run the same games (seeds, bots, player counts) on two definitions folders A and B and
compare them game by game: for every measure (each seat's share of the win, draws, length,
scores and components, each kind of action's share per game, how games ended) the mean
per-game difference B - A with a 95 % interval, paired t test and how many games went up
or down; McNemar's test of who won outright. The p-values of all rows are adjusted
together (Holm by default), or one --primary measure is tested. The two runs are kept in
OUT/a and OUT/b (each can be resumed).

With --sprt, A and B are played in pairs until Wald's sequential test on --metric accepts
no change or a change of --effect at --alpha and --beta; it prints how many pairs it took
and how many a fixed-size test of the same error rates would need.
"""

LADDER = """\
Play every pair of bots of --rungs head to head (--games games per pairing, the line-up
turning a seat every game) and rate them with the Bradley-Terry model on the Elo scale
(95 % intervals, the first rung at 0), with each rung's win share against the one below
and whether it is significantly above one half. Each pairing is a run of its own in
OUT/pairing-I-J (resumable); the ratings go to OUT/ladder.json and OUT/ladder.html.
"""

TUNE = """\
Search the numbers that the game's rules.yaml declares under tune: (each with its range)
for definitions that meet the --target(s), changing as few numbers as it can: Optuna's TPE
sampler proposes, a trial that already misses badly at its first player counts is pruned,
and every changed number costs a trial 0.1. The study is kept in OUT/study.db, so
--resume goes on where an interrupted search stopped. The result is the proposal as a
diff of rules.yaml (OUT/proposal.diff) with its evidence: a paired comparison of the
original and the proposal on fresh seeds. Needs pip install -e '.[tune]'.
"""


# --- the command ------------------------------------------------------------------------------


def _main(args: list[str], prog: str) -> int:
    ns = build_parser(prog).parse_args(args)
    from sim import report

    try:
        if ns.command == "compare":
            from sim.cli_compare import compare_command

            return compare_command(ns, prog, args)
        if ns.command == "ladder":
            from sim.cli_ladder import ladder_command

            return ladder_command(ns, prog, args)
        if ns.command == "tune":
            from sim.cli_tune import tune_command

            return tune_command(ns, prog, args)
        default = Path("output") / "sim" / ns.command
        out = ns.out or default
        hint = resume_hint(prog, args, out, ns.out is not None)
        if ns.bots.strip().lower() == "ladder":
            from sim.cli_ladder import skill_command

            return skill_command(ns, prog, out, hint)
        opts = options(ns, ns.command, ns.cards, out, prog, hint)
        summary = run(opts, getattr(ns, "players", None), sys.stderr, quiet=ns.quiet)
    except Usage as exc:  # an option of the subcommand: its help explains it
        return misuse(f"{prog} {ns.command}", str(exc))
    timing = summary.pop("_timing")
    if opts.json:
        write_out(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", json=True)
    else:
        write_out(report.terminal(summary, run_lines(opts, timing)))
    return EXIT_OK


def main(argv: Sequence[str] | None = None, prog: str = "pnp-sim") -> int:
    """The ``pnp-sim`` command (``pnp sim``: ``prog`` names it in every message): the exit
    code, never an exception."""
    from pnp.common import never_raises

    args = list(sys.argv[1:] if argv is None else argv)

    def body() -> int:
        try:
            return _main(args, prog)
        except Stop as exc:
            for line in exc.lines:
                fail(line)
            return exc.code

    return never_raises(body, prog, f"the {prog} command you ran")
