"""The plumbing every ``pnp sim`` command shares: its options read into :class:`Options`,
one run of games (:func:`run`) with its records and resume hint, the Ray connection.

:mod:`sim.cli` (the parser and the plain run) and the subcommands
(:mod:`sim.cli_compare`, :mod:`sim.cli_ladder`, :mod:`sim.cli_tune`) build on it, so none
of them imports another."""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import shlex
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rules
from cards.safe_text import printable
from cards.spelling import did_you_mean
from pnp.common import DefinitionsFailed, say, shown

EXIT_OK, EXIT_RULES, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class Usage(Exception):
    """A bad option value: one line for the user (:func:`pnp.common.misuse`), exit 2."""


MAX_GAMES = 200_000  # games per player count in one run (its bookkeeping: some 100 MB)
MAX_BUDGET = 10_000  # mcts rollouts per decision (at 64 a 4-player game takes seconds)
MAX_JOBS = 256  # worker processes
MAX_SEED = 2**63 - 1  # as every seed of the project (rules.game.MAX_SEED)


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
    """Exit 2 for a restricted bot whose restriction the game does not have, or a bot the
    game cannot play (``tactics``, ``deep`` and ``wary`` need the game's tactics)."""
    from sim.bots import TACTICAL, parse_spec

    known = dict(sim.restrictions(ruleset)) if hasattr(sim, "restrictions") else {}
    for bot in bots:
        name = parse_spec(bot).name
        if name in TACTICAL and not hasattr(sim, "tactical"):
            raise Stop(EXIT_USAGE, f"{prog}: --bots {bot}: {name} plays only Satellites; "
                                   f"{sim.game.name.capitalize()} has no tactics, use mcts")
        for r in parse_spec(bot).restrictions:
            if r not in known:
                names = ", ".join(known) or "none"
                raise Stop(EXIT_USAGE, f"{prog}: --bots {bot}: {r!r} is not a restriction of "
                                       f"{sim.game.name.capitalize()}; its restrictions are "
                                       f"{names}{did_you_mean(r, list(known))}")


def searches(bots: Sequence[str]) -> bool:
    """Whether a bot of the line-up searches with the run's default budget (an ``mcts``
    naming no budget of its own)."""
    from sim.bots import SEARCHES, parse_spec

    return any((spec := parse_spec(b)).name in SEARCHES and spec.budget is None
               and spec.think is None for b in bots)


def parse_players(text: str, low: int, high: int, game: str) -> tuple[int, ...]:
    counts: set[int] = set()
    try:
        for part in text.split(","):
            part = part.strip()
            if "-" in part:
                a, b = part.split("-", 1)
                first, last = int(a), int(b)
                if not (low <= first <= high and low <= last <= high):
                    bad = ", ".join(str(n) for n in (first, last) if not low <= n <= high)
                    raise Usage(f"--players {printable(text)}: {game.capitalize()} is played "
                                f"by {low} to {high} players, not {bad}")
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
        done = _earlier_games(opts, previous, games_file).games
        planned = _planned(previous)
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

    key = games_file_key(identity)
    if resuming:
        _resume_from(opts, identity, games_file, key, earlier)
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
    stream = Stream(games_file, resuming, key)
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


def games_file_key(identity: dict[str, Any]) -> str:
    """What seals each line of the run's games.jsonl to this run (:mod:`sim.games_file`)."""
    from sim.games_file import run_key

    return run_key(identity, IDENTITY)


def _planned(identity: dict[str, Any]) -> int:
    """The games a run (its run.json) plans: player counts times games."""
    players, games = identity.get("players"), identity.get("games")
    if not isinstance(players, list) or not isinstance(games, int) or isinstance(games, bool):
        return 0
    return len(players) * max(0, min(games, MAX_GAMES))


def _earlier_games(opts: Options, identity: dict[str, Any], games_file: Path,
                   each: Any = None) -> Any:
    """The games of the run ``identity`` in its games.jsonl (:func:`sim.games_file.read`);
    :class:`Stop` (exit 2) for a file that cannot be read at all (a pipe, a device)."""
    from cards.reading import UnreadableInput
    from sim.games_file import read

    counts = identity.get("players") if isinstance(identity.get("players"), list) else []
    games = identity.get("games") if isinstance(identity.get("games"), int) else 0

    def fits(record: dict[str, Any]) -> str | None:
        players, game = record.get("players"), record.get("game")
        if players not in counts or not isinstance(game, int) or isinstance(game, bool) \
                or not 0 <= game < games:
            return (f"game {_shown(game)} of {_shown(players)} players is not a game of this "
                    f"run ({_shown(counts)} players, games 0 to {games - 1})")
        return None

    try:
        return read(games_file, games_file_key(identity), _planned(identity), fits,
                    each or (lambda record: None))
    except UnreadableInput as exc:
        raise Stop(EXIT_USAGE, f"{opts.prog}: {exc.problems[0]}") from None


def _resume_from(opts: Options, identity: dict[str, Any], games_file: Path, key: str,
                 each: Any) -> None:
    """Read the finished games of the run being resumed; every line that is not one (file:
    line, what is wrong) is said on stderr and moved aside, so games.jsonl holds each game
    of the run once before the run goes on."""
    from sim.games_file import REJECTED_FILE, rewrite

    found = _earlier_games(opts, identity, games_file, each)
    if found.clean:
        return
    for number, why in found.problems[:20]:
        say(f"{shown(games_file)}:{number}: {why}; left out, that game is played again")
    if len(found.problems) > 20:
        say(f"{shown(games_file)}: and {len(found.problems) - 20} more line(s) left out")
    try:
        rewrite(games_file, found)
    except OSError as exc:
        raise Stop(EXIT_USAGE, f"{opts.prog}: cannot rewrite {shown(games_file)}: "
                               f"{exc.strerror or exc}; nothing was played") from None
    say(f"{opts.prog}: kept {found.games:,} finished game(s) of {shown(games_file)}; the "
        f"{len(found.problems):,} line(s) left out are in "
        f"{shown(games_file.with_name(REJECTED_FILE))}")


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
    from cards.reading import UnreadableInput
    from sim.games_file import read
    from sim.run import GAMES_FILE, RUN_FILE

    found: list[dict[str, Any]] = []
    seen: set[tuple[int, int]] = set()

    def each(record: dict[str, Any]) -> None:
        key = (record["players"], record["game"])
        if key not in seen and record["players"] in counts and 0 <= record["game"] < games:
            seen.add(key)
            found.append(record)

    path = folder / GAMES_FILE
    if path.exists():
        try:
            identity = json.loads((folder / RUN_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return found
        with contextlib.suppress(UnreadableInput):  # only the sealed games of this run
            read(path, games_file_key(identity), max(1, len(counts) * games),
                 lambda record: None, each)
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
