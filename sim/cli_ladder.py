"""``pnp sim ladder GAME`` (a round robin of bots, rated: :mod:`sim.ladder`) and
``pnp sim GAME --bots ladder`` (the balance of the definitions at every rung, and which
conclusion changes with skill).

Both are made of ordinary runs (:func:`sim.command.run`), one per pairing or rung, each in a
folder of its own under ``--out``: each streams its games, resumes after an interruption
(even kill -9) without a game lost or counted twice, and gives the same records on any
number of cores or on Ray; the ratings and the per-rung tables are worked out from the
records afterwards.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

from cards.safe_text import printable
from pnp.common import say, shown, write_out
from sim.command import (
    EXIT_OK,
    Options,
    Ray,
    Usage,
    _write,
    load,
    options,
    parse_bots,
    records_of,
    resume_hint,
    run,
)

LADDER_GAMES = 100  # games per pairing


def rungs_of(ns: argparse.Namespace) -> tuple[str, ...]:
    rungs = parse_bots(ns.rungs, "--rungs")
    if len(rungs) < 2:
        raise Usage(f"--rungs {printable(ns.rungs)}: a ladder needs at least two bots")
    twice = sorted({r for r in rungs if rungs.count(r) > 1})
    if twice:
        raise Usage(f"--rungs {printable(ns.rungs)}: {', '.join(twice)} is named twice")
    return rungs


def _step(opts: Options, resume: bool) -> Options:
    """A part run resumes when the command does and the part was begun."""
    return dataclasses.replace(opts, resume=resume and (opts.out / "run.json").exists())


# --- the ladder -------------------------------------------------------------------------------

SPRT_DEFAULTS = {"alpha": 0.05, "beta": 0.05, "effect": 0.1}  # 60 % against 50 %


def sprt_of(ns: argparse.Namespace) -> tuple[float, float, float] | None:
    """``--sprt``'s (alpha, beta, effect), or None without it."""
    given = [name for name in SPRT_DEFAULTS if getattr(ns, name) is not None]
    if not ns.sprt:
        if given:
            raise Usage(f"--{given[0]} belongs to the sequential test: add --sprt, or leave "
                        f"--{given[0]} out")
        return None
    alpha, beta, effect = (SPRT_DEFAULTS[name] if getattr(ns, name) is None
                           else getattr(ns, name) for name in SPRT_DEFAULTS)
    if alpha + beta >= 1:
        raise Usage(f"--alpha {alpha:g} and --beta {beta:g} must add up to less than 1")
    return alpha, beta, effect


def ladder_command(ns: argparse.Namespace, prog: str, args: list[str]) -> int:
    from sim.ladder import play_pairing, rate, terminal
    from sim.play import adapter
    from sim.sprt import Sprt

    game = ns.ladder_game
    rungs = rungs_of(ns)
    sequential = sprt_of(ns)
    folder = ns.out or Path("output") / "sim" / f"ladder-{game}"
    hint = resume_hint(prog, args, folder, ns.out is not None)
    ns.games = ns.games or LADDER_GAMES
    ruleset = load(game, ns.cards, prog)
    sim = adapter(game)
    players = ns.players or sim.game.min_players
    ns.players = str(players)
    tallies: dict[tuple[int, int], Any] = {}
    from sim.ladder import pairings

    with Ray(ns.ray, ns.jobs or 1, prog):
        for i, j in pairings(rungs):
            out = folder / f"pairing-{i + 1}-{j + 1}"
            opts = options(ns, game, ns.cards, out, prog, hint, bots=(rungs[i], rungs[j]))
            if not ns.json and not ns.quiet:
                most = "at most " if sequential else ""
                say(f"{rungs[j]} against {rungs[i]} ({most}{ns.games} games)")
            steps = {"n": 0}

            def play(bots: tuple[str, str], wanted: Any, opts: Options = opts,
                     steps: dict[str, int] = steps) -> list[dict[str, Any]]:
                upto = max(wanted) + 1 if sequential else ns.games
                resume = ns.resume or steps["n"] > 0
                steps["n"] += 1
                run(_step(opts, resume), ns.players, sys.stderr, quiet=ns.quiet,
                    ruleset=ruleset, upto=upto if sequential else None,
                    write_report=sequential is None)
                return [r for r in records_of(opts.out, (players,), upto)
                        if r["game"] in wanted]

            test = None if sequential is None else Sprt(*sequential)
            tallies[(i, j)] = play_pairing(rungs[i], rungs[j], play, ns.games, test)
    found = rate(rungs, tallies)
    result = {"game": game, "definitions": "cards/ (shipped)" if ns.cards is None
              else str(ns.cards), "players": players, "games": ns.games, "seed": ns.seed,
              **({} if sequential is None else {"sprt": dict(zip(("alpha", "beta", "effect"),
                                                                 sequential, strict=True))}),
              **found}
    _write(folder / "ladder.json", json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    from sim import plots, report

    missing = None if plots.available() else plots.MISSING
    pictures = [] if missing else plots.ladder_plots(result, folder / "plots")
    _write(folder / "ladder.html", report.ladder_html(result, pictures, missing))
    if ns.json:
        write_out(json.dumps(result, indent=2, ensure_ascii=False) + "\n", json=True)
    else:
        write_out(f"{game.capitalize()} ladder, {players} players, {ns.games} games per "
                  f"pairing, seed {ns.seed}\n" + terminal(found)
                  + f"\nreport: {shown(folder / 'ladder.html')}; the pairings' runs in "
                    f"{shown(folder)}\n")
    return EXIT_OK


# --- balance per rung -------------------------------------------------------------------------

CONCLUSIONS = (
    ("first_player", "the first player's advantage is significant"),
    ("seats_differ", "the seats' win rates differ significantly"),
)


def conclusions(rungs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """For every player count and test, whether it is significant at each rung, and
    whether that changes with skill."""
    out = []
    counts = sorted({b["players"] for r in rungs for b in r["report"]["by_players"]})
    for players in counts:
        for key, words in CONCLUSIONS:
            at = {}
            for r in rungs:
                block = next((b for b in r["report"]["by_players"] if b["players"] == players),
                             None)
                if block is not None:
                    at[r["bot"]] = {"significant": bool(block[key]["significant"]),
                                    "p": block[key]["p"]}
            verdicts = {v["significant"] for v in at.values()}
            out.append({"players": players, "test": key, "claim": words, "at": at,
                        "changes_with_skill": len(verdicts) > 1})
    return out


def skill_command(ns: argparse.Namespace, prog: str, out: Path, hint: str) -> int:
    from sim import report

    rungs = rungs_of(ns)
    game = ns.command
    ruleset = load(game, ns.cards, prog)
    found = []
    with Ray(ns.ray, ns.jobs or 1, prog):
        for k, rung in enumerate(rungs):
            opts = options(ns, game, ns.cards, out / f"rung-{k + 1}", prog, hint,
                           bots=(rung,))
            if not ns.json and not ns.quiet:
                say(f"rung {k + 1}: {rung} in every seat")
            summary = run(_step(opts, ns.resume), getattr(ns, "players", None), sys.stderr,
                          quiet=ns.quiet, ruleset=ruleset)
            summary.pop("_timing")
            found.append({"bot": rung, "folder": f"rung-{k + 1}", "report": summary})
    result = {"game": game, "definitions": found[0]["report"]["definitions"],
              "seed": ns.seed, "games": ns.games, "rungs": found,
              "conclusions": conclusions(found)}
    out.mkdir(parents=True, exist_ok=True)
    _write(out / "skill.json", json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    _write(out / "skill.html", report.skill_html(result))
    if ns.json:
        write_out(json.dumps(result, indent=2, ensure_ascii=False) + "\n", json=True)
    else:
        write_out(report.skill_terminal(result, report.conclusion_lines(result["conclusions"]))
                  + f"\nreport: {shown(out / 'skill.html')} (each rung's report in "
                    f"{shown(out)}/rung-N)\n")
    return EXIT_OK
