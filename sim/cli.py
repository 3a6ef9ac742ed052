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
                        "mcts (default random); the line-up turns one seat every game so "
                        "each bot plays each seat equally often")
    p.add_argument("--budget", type=whole("--budget", 1, "64"), default=None, metavar="N",
                   help="mcts rollouts per decision (default 64)")
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
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no progress bar (it is shown only on a terminal anyway)")


def build_parser(prog: str = "pnp-sim") -> Parser:
    games = rules.names("sim")
    top = Parser(prog, DESCRIPTION, EPILOG)
    sub = top.add_subparsers(dest="command", metavar="{" + ",".join([*games, "compare"]) + "}")
    sub.required = True
    for game in games:
        players = rules.get(game)
        few, many = players.min_players, players.max_players
        counts = f"{few} players" if few == many else f"{few}-{many} players"
        one = sub.add_parser(game, help=f"simulate {game.capitalize()} games ({counts})",
                             description=DESCRIPTION)
        add_common(one, players=has_player_counts(game))
    c = sub.add_parser(
        "compare", help="the same seeds and bots on two definitions folders",
        description="Run the same games (seeds, bots, player counts) on two definitions "
                    "folders A and B and report every difference B - A with a 95 % interval, "
                    "marking the significant ones. The two runs are kept in OUT/a and OUT/b "
                    "(each can be resumed).")
    c.add_argument("a", type=Path, metavar="A_DIR", help="definitions folder A (the baseline)")
    c.add_argument("b", type=Path, metavar="B_DIR", help="definitions folder B (the change)")
    c.add_argument("--game", required=True, choices=games, help="which game to simulate")
    c.add_argument("--players", metavar="COUNTS",
                   help="Orbitus player counts: 3, 2-6 or 2,3,4 (default: every count both "
                        "folders have start lines for)")
    add_play(c)
    return top


# --- options ----------------------------------------------------------------------------------


def parse_bots(text: str) -> tuple[str, ...]:
    from sim.bots import BOTS

    names = tuple(b.strip().lower() for b in text.split(","))
    for name in names:
        if name not in BOTS:
            word = name or "(empty)"
            raise Usage(f"--bots {printable(text)}: {printable(word)!r} is not a bot; the "
                        f"bots are {', '.join(BOTS)}{did_you_mean(name, BOTS)}")
    return names


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


def options(ns: argparse.Namespace, game: str, cards: Path | None, out: Path,
            prog: str = "pnp-sim") -> Options:
    from sim.bots import DEFAULT_BUDGET
    from sim.run import cores

    bots = parse_bots(ns.bots)  # a --budget without mcts is harmless (and not recorded)
    return Options(game, cards, getattr(ns, "players", None), ns.games, bots,
                   ns.budget if ns.budget is not None else DEFAULT_BUDGET, ns.seed,
                   ns.jobs if ns.jobs is not None else cores(), ns.ray, out, ns.resume,
                   ns.json, prog)


def has_player_counts(game: str) -> bool:
    """Whether ``game`` is played by more than one number of players (``--players``)."""
    found = rules.get(game)
    return found.min_players != found.max_players


def shown_cards(cards: Path | None) -> str:
    return "cards/ (shipped)" if cards is None else str(cards)


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
    if "mcts" in opts.bots:
        parts += ["--budget", str(opts.budget)]
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


IDENTITY = ("game", "definitions_hash", "players", "games", "bots", "budget", "seed")


def run(opts: Options, counts_text: str | None, err: Any, quiet: bool = False) -> dict[str, Any]:
    """Play (or finish) one run into ``opts.out`` and write its report; the summary."""
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
    ruleset = load(opts.game, opts.cards, opts.prog)
    try:
        sim = adapter(opts.game)
    except ImportError:  # a rules core that is not part of this installation
        raise Stop(EXIT_USAGE, f"{opts.prog}: {opts.game}: this installation has no "
                               f"{opts.game.capitalize()} rules engine to simulate with; "
                               f"update the project") from None
    counts = player_counts(sim, ruleset, counts_text, opts.prog)
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
    identity = {
        "tool": TOOL, "format": 1, "game": opts.game, "definitions": shown_cards(opts.cards),
        "definitions_hash": ruleset_hash(ruleset), "players": list(counts),
        "games": opts.games, "bots": list(opts.bots),
        "budget": opts.budget if "mcts" in opts.bots else None, "seed": opts.seed,
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
    elif previous is not None and games_file.exists():
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
        "definitions_hash": identity["definitions_hash"], "players": list(counts),
        "games": opts.games, "bots": list(opts.bots), "budget": identity["budget"],
        "seed": opts.seed, "command": reproduce(opts, counts),
        "first_seat": sim.first_seat(ruleset), "kinds": list(sim.kinds),
        "_order": list(sim.components(ruleset)), "_labels": sim.components(ruleset),
    }
    if hasattr(sim, "card_centres"):
        header["card_centres"] = sim.card_centres(ruleset)
    summary = Summary(header)
    done_games: set[tuple[int, int]] = set()

    def earlier(record: dict[str, Any]) -> None:
        key = (record["players"], record["game"])
        if key in done_games or record["players"] not in counts or \
                not 0 <= record["game"] < opts.games:
            return
        done_games.add(key)
        summary.add(record)

    keep: int | None = read_games(games_file, earlier)[1] if resuming else None
    todo = [(p, i) for p in counts for i in range(opts.games) if (p, i) not in done_games]
    total = len(counts) * opts.games
    setup = Setup(opts.game, ruleset, opts.bots, opts.budget, opts.seed)
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
                   f"{opts.prog}: continue with: {_resume_hint(opts, counts)}") from None
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
    parts = [*opts.prog.split(), opts.game]
    if opts.cards is not None:
        parts += ["--cards", str(opts.cards)]
    if has_player_counts(opts.game):
        parts += ["--players", ",".join(map(str, counts))]
    parts += ["--games", str(opts.games), "--bots", ",".join(opts.bots), "--seed",
              str(opts.seed)]
    if "mcts" in opts.bots:
        parts += ["--budget", str(opts.budget)]
    parts += ["--out", str(opts.out), "--resume"]
    return " ".join(shlex.quote(p) for p in parts)


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


# --- compare ----------------------------------------------------------------------------------


def compare(a: dict[str, Any], b: dict[str, Any]) -> list[dict[str, Any]]:
    """Every measure of two summaries side by side with its difference and test."""
    from sim.stats import two_means, two_proportions

    out = []
    by_b = {block["players"]: block for block in b["by_players"]}
    for block_a in a["by_players"]:
        block_b = by_b.get(block_a["players"])
        if block_b is None:
            continue
        na, nb = block_a["games"], block_b["games"]
        rows: list[dict[str, Any]] = []

        def prop(label: str, xa: float, xb: float, ta: int, tb: int,
                 rows: list[dict[str, Any]] = rows) -> None:
            d = two_proportions(xa, ta, xb, tb)
            rows.append({"label": label, "kind": "proportion", "difference": d.to_json()})

        def mean(label: str, sa: dict[str, Any], sb: dict[str, Any],
                 rows: list[dict[str, Any]] = rows) -> None:
            if not sa.get("n") or not sb.get("n"):
                return
            d = two_means(sa["mean"], sa["sd"] ** 2, sa["n"], sb["mean"], sb["sd"] ** 2,
                          sb["n"])
            rows.append({"label": label, "kind": "mean", "difference": d.to_json()})

        for seat_a, seat_b in zip(block_a["seats"], block_b["seats"], strict=True):
            first = " (first)" if seat_a["first"] else ""
            prop(f"seat {seat_a['seat']}{first} win rate", seat_a["wins"], seat_b["wins"],
                 na, nb)
        if block_a["draws"]["count"] or block_b["draws"]["count"]:
            prop("draws", block_a["draws"]["count"], block_b["draws"]["count"], na, nb)
        mean("game length (turns)", block_a["length"], block_b["length"])
        mean("score per player", block_a["scores"], block_b["scores"])
        for key, comp in block_a["components"].items():
            if key in block_b["components"]:
                mean(f"{comp['label']} (points)", comp, block_b["components"][key])
        total_a = sum(v["count"] for v in block_a["actions"].values())
        total_b = sum(v["count"] for v in block_b["actions"].values())
        for kind, entry in block_a["actions"].items():
            other = block_b["actions"].get(kind)
            if other is not None and total_a and total_b:
                prop(f"share of actions: {kind}", entry["count"], other["count"], total_a,
                     total_b)
        for key, values in block_a["facts"].items():
            other = block_b["facts"].get(key, {})
            for value in sorted(set(values) | set(other)):
                prop(f"{key.replace('_', ' ')}: {value}", values.get(value, 0),
                     other.get(value, 0), na, nb)
        out.append({"players": block_a["players"], "rows": rows})
    return out


# --- the command ------------------------------------------------------------------------------


def _main(args: list[str], prog: str) -> int:
    ns = build_parser(prog).parse_args(args)
    from sim import report

    try:
        if ns.command == "compare":
            return _compare(ns, prog)
        default = Path("output") / "sim" / ns.command
        opts = options(ns, ns.command, ns.cards, ns.out or default, prog)
        summary = run(opts, getattr(ns, "players", None), sys.stderr, quiet=ns.quiet)
    except Usage as exc:  # an option of the subcommand: its help explains it
        return misuse(f"{prog} {ns.command}", str(exc))
    timing = summary.pop("_timing")
    if opts.json:
        write_out(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", json=True)
    else:
        place = opts.out / "report.html"
        extra = ["", f"report: {shown(place)} (plots in {shown(opts.out / 'plots')}; every "
                     f"number in {shown(opts.out / 'report.json')})",
                 f"played {timing['played']:,} games in {timing['seconds']:.1f} s "
                 f"({timing['rate']:,.0f} games/s, {opts.jobs if opts.ray is None else 'Ray'}"
                 f"{' jobs' if opts.ray is None else ''})"]
        if not (opts.out / "plots").exists():
            from sim.plots import MISSING

            extra.append(MISSING)
        write_out(report.terminal(summary, extra))
    return EXIT_OK


def _compare(ns: argparse.Namespace, prog: str) -> int:
    from pnp.common import say
    from sim import plots, report

    folder = ns.out or Path("output") / "sim" / "compare"
    results = []
    for label, cards in (("a", ns.a), ("b", ns.b)):
        opts = options(ns, ns.game, cards, folder / label, prog)
        if not opts.json:
            say(f"{label.upper()}: {shown(cards)}")
        results.append(run(opts, ns.players, sys.stderr, quiet=ns.quiet))
    a, b = results
    for r in results:
        r.pop("_timing")
    if a["players"] != b["players"]:
        common = sorted(set(a["players"]) & set(b["players"]))
        if not common:
            raise Stop(EXIT_USAGE, f"{prog}: compare: A plays {_shown(a['players'])} players "
                                   f"and B {_shown(b['players'])}; no player count in common")
    # by the command's own name, as reproduce() writes it: the report does not depend on
    # how the command was started
    command = (f"pnp-sim compare {shlex.quote(str(ns.a))} {shlex.quote(str(ns.b))} --game "
               f"{ns.game}" + a["command"].split(ns.game, 1)[1].replace(
                   f"--cards {shlex.quote(str(ns.a))} ", ""))
    result = {"game": ns.game, "a": str(ns.a), "b": str(ns.b), "bots": a["bots"],
              "seed": a["seed"], "games": a["games"], "budget": a["budget"],
              "command": command, "by_players": compare(a, b)}
    folder.mkdir(parents=True, exist_ok=True)
    _write(folder / "compare.json", json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    missing = None if plots.available() else plots.MISSING
    pictures = [] if missing else plots.compare_plots(result, folder / "plots")
    _write(folder / "compare.html", report.compare_html(result, pictures, missing))
    if ns.json:
        write_out(json.dumps(result, indent=2, ensure_ascii=False) + "\n", json=True)
    else:
        write_out(report.compare_terminal(result))
        write_out(f"\nreport: {shown(folder / 'compare.html')}; the two runs: "
                  f"{shown(folder / 'a')}, {shown(folder / 'b')}\n")
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
