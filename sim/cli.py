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
import hashlib
import json
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rules
from cards.safe_text import printable
from cards.spelling import did_you_mean
from pnp.common import DefinitionsFailed, Parser, fail, misuse, shown, write_out

EXIT_OK, EXIT_RULES, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
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


class Usage(Exception):
    """A bad option value: one line for the user (:func:`pnp.common.misuse`), exit 2."""


def whole(name: str, low: int, example: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{printable(text)!r} is not a whole number; "
                                             f"e.g. {name} {example}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"{value} is too small (at least {low}); e.g. "
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
    p.add_argument("--games", type=whole("--games", 1, "1000"), default=DEFAULT_GAMES,
                   metavar="N", help=f"games per player count (default {DEFAULT_GAMES})")
    p.add_argument("--bots", default="random", metavar="LIST",
                   help="bots taking the seats in turn, comma-separated: random, greedy, "
                        "value, mcts, each search bot with its own budget if wanted "
                        "(mcts:64, mcts:200ms, mcts:256x4) and restrictions after + "
                        "(value+never-remove); default random. The line-up turns one seat "
                        "every game so each bot plays each seat equally often")
    p.add_argument("--budget", type=whole("--budget", 1, "64"), default=None, metavar="N",
                   help="iterations per decision of an mcts bot that names none (default 64)")
    p.add_argument("--think", metavar="TIME",
                   help="thinking time per decision of an mcts bot that names no budget, "
                        "e.g. 200ms (the games then depend on the machine's speed)")
    p.add_argument("--seed", type=whole("--seed", 0, "1"), default=1, metavar="S",
                   help="run seed; every game's seed comes from it and the game's number "
                        "(default 1)")
    p.add_argument("--jobs", type=whole("--jobs", 1, "2"), default=None, metavar="K",
                   help="worker processes (default: all cores)")
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
    c.add_argument("--seed-b", type=whole("--seed-b", 0, "2"), default=None, metavar="S",
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
    l_.add_argument("--players", type=whole("--players", 2, "2"), default=None, metavar="N",
                    help="the player count the pairings play at (default: the fewest)")
    add_rungs(l_)
    add_play(l_)
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
    t.add_argument("--trials", type=whole("--trials", 1, "30"), default=30, metavar="N",
                   help="trials of the search (default 30; the definitions as they are "
                        "come first)")
    t.add_argument("--evidence", type=whole("--evidence", 10, "400"), default=None,
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


# --- options ----------------------------------------------------------------------------------


def parse_bots(text: str, flag: str = "--bots") -> tuple[str, ...]:
    """The bots of ``--bots`` as :func:`sim.bots.parse_spec` reads them, each written the
    one way (``mcts:64``, ``value+never-remove``); :class:`Usage` names a bad one. Whether
    a restriction exists in the game is checked once its definitions are loaded
    (:func:`check_restrictions`)."""
    from sim.bots import NAMES, BotError, parse_spec

    names = []
    for part in text.split(","):
        word = part.strip().lower()
        try:
            names.append(parse_spec(word).text())
        except BotError as exc:
            head = word.split("+")[0].split(":")[0]
            hint = did_you_mean(head, NAMES) if head not in NAMES else ""
            raise Usage(f"{flag} {printable(text)}: {printable(str(exc))}{hint}") from None
    return tuple(names)


def check_restrictions(sim: Any, ruleset: Any, bots: Sequence[str], prog: str) -> None:
    """Exit 2 for a restricted bot whose restriction the game does not have."""
    from sim.bots import parse_spec

    known = dict(sim.restrictions(ruleset)) if hasattr(sim, "restrictions") else {}
    for bot in bots:
        for r in parse_spec(bot).restrictions:
            if r not in known:
                names = ", ".join(known) or "none"
                raise Stop(EXIT_USAGE, f"{prog}: --bots {bot}: {r!r} is not a restriction of "
                                       f"{sim.game.name.capitalize()}; its restrictions are "
                                       f"{names}{did_you_mean(r, list(known))}")


def searches(bots: Sequence[str]) -> bool:
    """Whether a bot of the line-up searches with the run's default budget (an ``mcts``
    naming no budget of its own)."""
    from sim.bots import parse_spec

    return any((spec := parse_spec(b)).name == "mcts" and spec.budget is None
               and spec.think is None for b in bots)


def parse_players(text: str, low: int, high: int, game: str) -> tuple[int, ...]:
    counts: set[int] = set()
    try:
        for part in text.split(","):
            part = part.strip()
            if "-" in part:
                a, b = part.split("-", 1)
                first, last = int(a), int(b)
                if first > last:
                    raise Usage(f"--players {text}: {part} runs backwards; e.g. "
                                f"--players {last}-{first}")
                counts.update(range(first, last + 1))
            else:
                counts.add(int(part))
    except ValueError:
        raise Usage(f"--players {printable(text)}: give player counts such as 3, 2-6 or "
                    f"2,3,4") from None
    bad = sorted(c for c in counts if not low <= c <= high)
    if bad:
        raise Usage(f"--players {text}: {game.capitalize()} is played by {low} to "
                    f"{high} players, not {', '.join(map(str, bad))}")
    return tuple(sorted(counts))


@dataclass(frozen=True)
class Options:
    game: str
    cards: Path | None
    players: str | None
    games: int
    bots: tuple[str, ...]
    budget: int
    seed: int
    jobs: int
    ray: str | None
    out: Path
    resume: bool
    json: bool
    prog: str = "pnp-sim"  # the command as it was run, for its messages
    think: float | None = None  # the default thinking time of a search bot (seconds)
    feel: bool = False  # record every game's feel (sim.feel)
    hint: str | None = None  # the command that continues the run (Ctrl-C), shell-quoted


def options(ns: argparse.Namespace, game: str, cards: Path | None, out: Path,
            prog: str = "pnp-sim", hint: str | None = None,
            bots: tuple[str, ...] | None = None, seed: int | None = None) -> Options:
    from sim.bots import DEFAULT_BUDGET
    from sim.run import cores

    found = parse_bots(ns.bots) if bots is None else bots
    return Options(game, cards, getattr(ns, "players", None), ns.games, found,
                   ns.budget if ns.budget is not None else DEFAULT_BUDGET,
                   ns.seed if seed is None else seed,
                   ns.jobs if ns.jobs is not None else cores(), ns.ray, out, ns.resume,
                   ns.json, prog, think_option(ns), bool(getattr(ns, "feel", False)), hint)


def think_option(ns: argparse.Namespace) -> float | None:
    from sim.bots import BotError, parse_think

    text = getattr(ns, "think", None)
    if text is None:
        return None
    try:
        return parse_think(text)
    except BotError as exc:
        raise Usage(f"--think {printable(text)}: {printable(str(exc))}") from None


def resume_hint(prog: str, args: Sequence[str], out: Path, out_given: bool) -> str:
    """The command line that continues a run: the command as it was started (``pnp sim``
    or ``pnp-sim``) with every option it was given, ``--out`` if it was left to its
    default, and ``--resume``; each word quoted for a POSIX shell, so it pastes as is."""
    words = [a for a in args if a != "--resume"]
    if not out_given:
        words += ["--out", str(out)]
    return " ".join(shlex.quote(w) for w in [*prog.split(), *words, "--resume"])


def has_player_counts(game: str) -> bool:
    """Whether ``game`` is played by more than one number of players (``--players``)."""
    found = rules.get(game)
    return found.min_players != found.max_players


def shown_cards(cards: Path | None) -> str:
    return "cards/ (shipped)" if cards is None else str(cards)


def think_text(seconds: float) -> str:
    return f"{round(seconds * 1000)}ms"


def reproduce(opts: Options, counts: Sequence[int]) -> str:
    """The command that plays the same games (without --jobs, --ray, --out), by the
    command's own name whichever way it was started (the report must not depend on it)."""
    parts = ["pnp-sim", opts.game]
    if opts.cards is not None:
        parts += ["--cards", str(opts.cards)]
    if has_player_counts(opts.game):
        parts += ["--players", ",".join(map(str, counts))]
    parts += ["--games", str(opts.games), "--bots", ",".join(opts.bots), "--seed",
              str(opts.seed)]
    if searches(opts.bots):
        if opts.think is not None:
            parts += ["--think", think_text(opts.think)]
        else:
            parts += ["--budget", str(opts.budget)]
    if opts.feel:
        parts.append("--feel")
    return " ".join(shlex.quote(p) for p in parts)


# --- one run ----------------------------------------------------------------------------------


class Stop(Exception):
    """End the command with ``code`` after printing ``lines`` to stderr."""

    def __init__(self, code: int, *lines: str) -> None:
        super().__init__("\n".join(lines))
        self.code = code
        self.lines = lines


def load(game: str, cards: Path | None, prog: str = "pnp-sim") -> Any:
    from cards.loader import DefinitionError
    from cards.ruleset_cache import load_ruleset

    if cards is not None and not cards.is_dir():
        raise Stop(EXIT_USAGE, f"{prog}: {shown(cards)}: no such folder (expected a definitions "
                               f"folder with {game}/ inside, like the shipped cards/)")
    try:
        return load_ruleset(game, cards)
    except DefinitionError as exc:  # the one rule of every command for unusable definitions
        raise DefinitionsFailed(exc, "nothing was simulated") from None


def player_counts(sim: Any, ruleset: Any, text: str | None,
                  prog: str = "pnp-sim") -> tuple[int, ...]:
    game = sim.game
    if text is None or game.min_players == game.max_players:
        return sim.player_counts(ruleset)
    counts = parse_players(text, game.min_players, game.max_players, game.name)
    missing = [c for c in counts if c not in sim.player_counts(ruleset)]
    if missing:
        raise Stop(EXIT_RULES, f"{prog}: the definitions have no start lines for "
                               f"{', '.join(map(str, missing))} players (rules.yaml "
                               f"start_lines lists {', '.join(map(str, ruleset.player_counts))})")
    return counts


def ruleset_hash(ruleset: Any) -> str:
    data = json.dumps(ruleset.to_data(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(data.encode()).hexdigest()[:16]


IDENTITY = ("game", "definitions_hash", "players", "games", "bots", "budget", "seed", "think",
            "feel")


def run(opts: Options, counts_text: str | None, err: Any, quiet: bool = False,
        ruleset: Any = None, upto: int | None = None, write_report: bool = True,
        replace: bool = False) -> dict[str, Any]:
    """Play (or finish) one run into ``opts.out`` and write its report; the summary.

    ``ruleset`` plays these definitions instead of those of ``opts.cards`` (a tuning
    trial); ``upto`` plays only the games numbered below it of the ``opts.games`` the run
    is planned for (a sequential test plays a run in steps; the summary is of the games
    played); ``write_report`` False leaves report.json, report.html and the plots out;
    ``replace`` starts the run anew although the folder holds an unfinished one of ours
    (a sequential test that decided before it played every planned game)."""
    from rules.game import SetupError
    from sim import plots, report
    from sim.play import Setup, adapter
    from sim.run import (
        GAMES_FILE,
        RUN_FILE,
        TOOL,
        Progress,
        RayMissing,
        RayUnreachable,
        Stream,
        batch_cap,
        chunked,
        here,
        on_ray,
        pool,
        read_games,
    )
    from sim.summary import Summary

    started = time.perf_counter()
    if ruleset is None:
        ruleset = load(opts.game, opts.cards, opts.prog)
    try:
        sim = adapter(opts.game)
    except ImportError:  # a rules core that is not part of this installation
        raise Stop(EXIT_USAGE, f"{opts.prog}: {opts.game}: this installation has no "
                               f"{opts.game.capitalize()} rules engine to simulate with; "
                               f"update the project") from None
    counts = player_counts(sim, ruleset, counts_text, opts.prog)
    check_restrictions(sim, ruleset, opts.bots, opts.prog)
    for players in counts:
        try:
            sim.new_game(ruleset, players, 0)
        except SetupError as exc:
            raise Stop(EXIT_RULES, f"{opts.prog}: {players} players: {exc}") from None
    if opts.ray is not None:
        try:
            import ray  # noqa: F401
        except ImportError:
            raise Stop(EXIT_USAGE, f"{opts.prog}: --ray needs Ray, which is not installed: "
                                   f"pip install -e '.[cluster]' (or pip install ray)") from None

    out = opts.out
    if out.exists() and not out.is_dir():
        raise Stop(EXIT_USAGE, f"{opts.prog}: --out {shown(out)}: is a file, expected a folder")
    from cards.design_cache import design

    played = design(opts.game, opts.cards).to_json()  # the design the bots play
    identity = {
        "tool": TOOL, "format": 1, "game": opts.game, "definitions": shown_cards(opts.cards),
        "definitions_hash": ruleset_hash(ruleset), "design": played, "players": list(counts),
        "games": opts.games, "bots": list(opts.bots),
        "budget": opts.budget if searches(opts.bots) and opts.think is None else None,
        "seed": opts.seed,
        "think": think_text(opts.think) if opts.think is not None and searches(opts.bots)
        else None,
        "feel": True if opts.feel else None,
    }
    run_file, games_file = out / RUN_FILE, out / GAMES_FILE
    previous = _previous(run_file, games_file)
    resuming = False
    if opts.resume:
        if previous is None:
            raise Stop(EXIT_USAGE, f"{opts.prog}: --resume: {shown(out)} holds no run of "
                                   f"{opts.prog} to continue; run without --resume to start "
                                   f"one")
        differ = [k for k in IDENTITY if previous.get(k) != identity[k]]
        if differ:
            differ_text = "; ".join(f"{k} {_shown(previous.get(k))} then, "
                                    f"{_shown(identity[k])} now" for k in differ)
            raise Stop(EXIT_USAGE, f"{opts.prog}: --resume: the options differ from the "
                                   f"run in {shown(out)} ({differ_text}); give the same "
                                   f"options, or another --out to start a new run")
        resuming = games_file.exists()
    elif previous is not None and games_file.exists() and not replace:
        done, _ = read_games(games_file)
        planned = len(previous.get("players", [])) * int(previous.get("games", 0))
        if done < planned:
            raise Stop(EXIT_USAGE, f"{opts.prog}: {shown(out)} holds an unfinished run "
                                   f"({done:,} of {planned:,} games); continue it with "
                                   f"--resume, or choose another --out")
    if previous is None:
        theirs = [name for name in (GAMES_FILE, RUN_FILE, "report.json", "report.html",
                                    "plots") if (out / name).exists()]
        if theirs:
            raise Stop(EXIT_USAGE, f"{opts.prog}: {shown(out)} holds {', '.join(theirs)}, which "
                                   f"{opts.prog} did not write; choose another --out (nothing "
                                   f"is overwritten)")

    try:
        out.mkdir(parents=True, exist_ok=True)
        _write(run_file, json.dumps(identity, indent=2) + "\n")
    except OSError as exc:
        raise Stop(EXIT_USAGE, f"{opts.prog}: cannot write to {shown(out)}: "
                               f"{exc.strerror or exc}") from None

    header = {
        "game": opts.game, "definitions": identity["definitions"],
        "definitions_hash": identity["definitions_hash"], "design": played,
        "players": list(counts),
        "games": opts.games, "bots": list(opts.bots), "budget": identity["budget"],
        "seed": opts.seed, "think": identity["think"], "feel": opts.feel,
        "command": reproduce(opts, counts),
        "first_seat": sim.first_seat(ruleset), "kinds": list(sim.kinds),
        "_order": list(sim.components(ruleset)), "_labels": sim.components(ruleset),
    }
    if hasattr(sim, "card_centres"):
        header["card_centres"] = sim.card_centres(ruleset)
    summary = Summary(header)
    done_games: set[tuple[int, int]] = set()
    last = opts.games if upto is None else min(upto, opts.games)

    def earlier(record: dict[str, Any]) -> None:
        key = (record["players"], record["game"])
        if key in done_games or record["players"] not in counts or \
                not 0 <= record["game"] < last:
            return
        done_games.add(key)
        summary.add(record)

    keep: int | None = read_games(games_file, earlier)[1] if resuming else None
    todo = [(p, i) for p in counts for i in range(last) if (p, i) not in done_games]
    total = len(counts) * last
    setup = Setup(opts.game, ruleset, opts.bots, opts.budget, opts.seed, opts.think,
                  opts.feel)
    jobs = opts.jobs
    batches = chunked(todo, jobs, batch_cap(opts.bots))
    if opts.ray is not None:
        source = on_ray(setup, batches, opts.ray, jobs)
    elif jobs > 1 and len(batches) > 1:
        source = pool(setup, batches, min(jobs, len(batches)))
    else:
        source = here(setup, batches)
    progress = Progress(total, len(done_games), stream=err, enabled=None if not quiet else False)
    stream = Stream(games_file, keep)
    try:
        for batch in source:
            stream.write(batch)
            for record in batch:
                summary.add(record)
            progress.update(len(batch))
    except KeyboardInterrupt:
        progress.finish()
        stream.close()
        raise Stop(EXIT_INTERRUPTED,
                   f"{opts.prog}: interrupted after {summary.games:,} of {total:,} games; the "
                   f"finished games are kept in {shown(games_file)}",
                   f"{opts.prog}: continue with: {opts.hint or _resume_hint(opts, counts)}") \
            from None
    except RayMissing:
        raise Stop(EXIT_USAGE, f"{opts.prog}: --ray needs Ray: pip install -e '.[cluster]'") \
            from None
    except RayUnreachable as exc:
        stream.close()
        raise Stop(EXIT_USAGE, f"{opts.prog}: --ray {printable(opts.ray)}: cannot reach the "
                               f"Ray cluster: {exc}; start one (ray start --head) or give its "
                               f"address, 'auto' or 'local'") from None
    finally:
        stream.close()
    progress.finish()
    played = progress.done - progress.start_done
    result = summary.to_json()
    if write_report:
        _write(out / "report.json", json.dumps(result, indent=2, ensure_ascii=False) + "\n")
        missing = None if plots.available() else plots.MISSING
        pictures = [] if missing else plots.report_plots(result, out / "plots")
        _write(out / "report.html", report.html_report(result, pictures, missing))
    took = time.perf_counter() - started
    result["_timing"] = {"played": played, "seconds": took, "rate": progress.rate}
    return result


def _shown(value: object) -> str:
    if isinstance(value, list):
        return ",".join(map(str, value))
    return str(value)


def _resume_hint(opts: Options, counts: Sequence[int]) -> str:
    """The continuing command of a run started without its command line at hand."""
    words = shlex.split(reproduce(opts, counts))[1:]
    return resume_hint(opts.prog, words, opts.out, out_given=False)


def _previous(run_file: Path, games_file: Path) -> dict[str, Any] | None:
    """The identity of the run in the folder, if it is one this tool wrote."""
    try:
        data = json.loads(run_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(data, dict) and data.get("tool") == "pnp-sim":
        return data
    return None


def _write(path: Path, text: str) -> None:
    temp = path.with_name(f".{path.name}.tmp")
    temp.write_text(text, encoding="utf-8")
    temp.replace(path)


# --- records ----------------------------------------------------------------------------------


def records_of(folder: Path, counts: Sequence[int], games: int) -> list[dict[str, Any]]:
    """The records of the run in ``folder`` (each game once, in the order of the file)."""
    from sim.run import GAMES_FILE, read_games

    found: list[dict[str, Any]] = []
    seen: set[tuple[int, int]] = set()

    def each(record: dict[str, Any]) -> None:
        key = (record["players"], record["game"])
        if key not in seen and record["players"] in counts and 0 <= record["game"] < games:
            seen.add(key)
            found.append(record)

    path = folder / GAMES_FILE
    if path.exists():
        read_games(path, each)
    return found


class Ray:
    """One Ray session for a command that makes several runs (a ladder, a tuning, a
    sequential test): joined once, left at the end (``with Ray(opts.ray, jobs, prog):``)."""

    def __init__(self, address: str | None, jobs: int, prog: str) -> None:
        self.address, self.jobs, self.prog = address, jobs, prog
        self.started = False

    def __enter__(self) -> Ray:
        if self.address is None:
            return self
        from sim.run import RayUnreachable, connect

        try:
            import ray  # noqa: F401
        except ImportError:
            raise Stop(EXIT_USAGE, f"{self.prog}: --ray needs Ray, which is not installed: "
                                   f"pip install -e '.[cluster]' (or pip install ray)") from None
        try:
            self.started = connect(self.address, self.jobs)
        except RayUnreachable as exc:
            raise Stop(EXIT_USAGE, f"{self.prog}: --ray {printable(self.address)}: cannot "
                                   f"reach the Ray cluster: {exc}; start one (ray start "
                                   f"--head) or give its address, 'auto' or 'local'") from None
        return self

    def __exit__(self, *exc: object) -> None:
        if self.started:
            import ray

            ray.shutdown()


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


def run_lines(opts: Options, timing: dict[str, Any]) -> list[str]:
    """The closing lines of a run's terminal report: where it is, how long it took."""
    place = opts.out / "report.html"
    extra = ["", f"report: {shown(place)} (plots in {shown(opts.out / 'plots')}; every "
                 f"number in {shown(opts.out / 'report.json')})",
             f"played {timing['played']:,} games in {timing['seconds']:.1f} s "
             f"({timing['rate']:,.0f} games/s, {opts.jobs if opts.ray is None else 'Ray'}"
             f"{' jobs' if opts.ray is None else ''})"]
    if opts.think is not None:
        extra.append("the search bots thought for a time, not a number of iterations: "
                     "another machine (or a busier one) plays other games")
    if not (opts.out / "plots").exists():
        from sim.plots import MISSING

        extra.append(MISSING)
    return extra


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
