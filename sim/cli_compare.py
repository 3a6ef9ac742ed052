"""``pnp sim compare A B``: two runs on the same seeds (or on seeds of their own with
``--seed-b``) compared game by game (:mod:`sim.compare`), or played in pairs until the
sequential test decides (``--sprt``, :mod:`sim.sequential`)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import shlex
import sys
from pathlib import Path
from typing import Any

from pnp.common import say, shown, write_out
from sim.command import (
    EXIT_OK,
    EXIT_USAGE,
    Options,
    Ray,
    Stop,
    Usage,
    _shown,
    _write,
    load,
    options,
    records_of,
    resume_hint,
    run,
)

SPRT_FILE = "sprt.json"


def compare_command(ns: argparse.Namespace, prog: str, args: list[str]) -> int:
    folder = ns.out or Path("output") / "sim" / "compare"
    hint = resume_hint(prog, args, folder, ns.out is not None)
    if ns.sprt:
        return sprt_command(ns, prog, folder, hint)
    for flag, value in (("--metric", ns.metric != "seat-gap"), ("--effect", ns.effect),
                        ("--beta", ns.beta != 0.1)):
        if value:
            raise Usage(f"{flag} belongs to the sequential test: add --sprt, or leave "
                        f"{flag} out")
    paired = ns.seed_b is None or ns.seed_b == ns.seed
    seeds = {"a": ns.seed, "b": ns.seed if ns.seed_b is None else ns.seed_b}
    check_primary(ns, prog)
    results = []
    with Ray(ns.ray, ns.jobs or 1, prog):
        for label, cards in (("a", ns.a), ("b", ns.b)):
            opts = options(ns, ns.game, cards, folder / label, prog, hint, seed=seeds[label])
            if not opts.json:
                say(f"{label.upper()}: {shown(cards)}")
            results.append(run(opts, ns.players, sys.stderr, quiet=ns.quiet))
    a, b = results
    for r in results:
        r.pop("_timing")
    common = sorted(set(a["players"]) & set(b["players"]))
    if not common:
        raise Stop(EXIT_USAGE, f"{prog}: compare: A plays {_shown(a['players'])} players "
                               f"and B {_shown(b['players'])}; no player count in common")
    from sim.compare import compare_records

    rows = compare_records(records_of(folder / "a", common, ns.games),
                           records_of(folder / "b", common, ns.games), a["kinds"],
                           paired=paired, correction=ns.correction, alpha=ns.alpha,
                           primary=ns.primary)
    if ns.primary is not None:
        keys = sorted({r["key"] for block in rows for r in block["rows"]})
        if ns.primary not in keys:
            raise Stop(EXIT_USAGE, f"{prog}: --primary {ns.primary}: no game of the runs has "
                                   f"that measure; they have {', '.join(keys)}")
    result = {"game": ns.game, "a": str(ns.a), "b": str(ns.b), "bots": a["bots"],
              "seed": a["seed"], "seed_b": None if paired else seeds["b"], "paired": paired,
              "games": a["games"], "budget": a["budget"], "think": a.get("think"),
              "correction": "primary" if ns.primary else ns.correction, "alpha": ns.alpha,
              "primary": ns.primary, "command": command(ns, a["command"]),
              "by_players": rows}
    return finish(ns, folder, result)


def command(ns: argparse.Namespace, run_command: str) -> str:
    """The compare command that plays the same games, by the command's own name (the
    report does not depend on how it was started)."""
    words = shlex.split(run_command)[2:]
    if "--cards" in words:
        k = words.index("--cards")
        del words[k:k + 2]
    extra: list[str] = []
    if ns.seed_b is not None:
        extra += ["--seed-b", str(ns.seed_b)]
    if ns.sprt:
        extra += ["--sprt", "--metric", ns.metric, "--effect", f"{ns.effect:g}", "--beta",
                  f"{ns.beta:g}"]
    else:
        if ns.primary:
            extra += ["--primary", ns.primary]
        elif ns.correction != "holm":
            extra += ["--correction", ns.correction]
    if ns.alpha != 0.05:
        extra += ["--alpha", f"{ns.alpha:g}"]
    return " ".join(shlex.quote(w) for w in ["pnp-sim", "compare", str(ns.a), str(ns.b),
                                             "--game", ns.game, *words, *extra])


def check_primary(ns: argparse.Namespace, prog: str) -> None:
    """Exit 2 for a --primary that names no kind of measure (before any game is played)."""
    if ns.primary is None:
        return
    from sim.compare import primary_keys

    key = ns.primary
    simple = ("draws", "length", "score")
    prefixes = ("seat:", "component:", "action:", "end:", "fact:")
    if key in simple or (key.startswith(prefixes) and key.split(":", 1)[1]):
        if key.startswith("seat:") and not key[5:].isdigit():
            raise Usage(f"--primary {key}: a seat is a number, e.g. seat:1")
        return
    raise Usage(f"--primary {key}: not a measure; one of {primary_keys()}")


def finish(ns: argparse.Namespace, folder: Path, result: dict[str, Any]) -> int:
    from sim import plots, report

    folder.mkdir(parents=True, exist_ok=True)
    _write(folder / "compare.json", json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    missing = None if plots.available() else plots.MISSING
    pictures = [] if missing or "by_players" not in result else \
        plots.compare_plots(result, folder / "plots")
    _write(folder / "compare.html", report.compare_html(result, pictures, missing))
    if ns.json:
        write_out(json.dumps(result, indent=2, ensure_ascii=False) + "\n", json=True)
    else:
        write_out(report.compare_terminal(result))
        write_out(f"\nreport: {shown(folder / 'compare.html')}; the two runs: "
                  f"{shown(folder / 'a')}, {shown(folder / 'b')}\n")
    return EXIT_OK


# --- the sequential test ----------------------------------------------------------------------


def sprt_command(ns: argparse.Namespace, prog: str, folder: Path, hint: str) -> int:
    from sim.sequential import MetricError, check_metric, run_sprt
    from sim.sprt import Sprt

    if ns.effect is None:
        raise Usage("--sprt needs --effect: the change worth finding in the metric's unit, "
                    "e.g. --effect 0.05 for 5 points of a win share, --effect 0.25 for a "
                    "quarter point of score")
    if ns.seed_b is not None:
        raise Usage("--sprt plays A and B on the same seeds (paired deals); leave --seed-b "
                    "out")
    if ns.primary is not None or ns.correction != "holm":
        raise Usage("--sprt tests its one --metric; --primary and --correction belong to "
                    "the fixed-size comparison")
    if ns.alpha + ns.beta >= 1:
        raise Usage(f"--alpha {ns.alpha:g} and --beta {ns.beta:g} must add up to less than 1")
    base = options(ns, ns.game, ns.a, folder / "a", prog, hint)
    ruleset = load(ns.game, ns.a, prog)
    from sim.play import adapter

    sim = adapter(ns.game)
    from sim.command import player_counts

    counts = player_counts(sim, ruleset, ns.players, prog)
    if len(counts) != 1:
        raise Usage(f"--sprt tests one player count, not {_shown(list(counts))}; give e.g. "
                    f"--players {counts[0]}")
    players = counts[0]
    try:
        check_metric(ns.metric, players, sim.components(ruleset))
    except MetricError as exc:
        raise Usage(str(exc)) from None
    previous = _previous(folder)
    replace = previous is not None and previous.get("decision") not in (None, "undecided")
    if ns.resume and previous is None and not (folder / "a").exists():
        raise Stop(EXIT_USAGE, f"{prog}: --resume: {shown(folder)} holds no sequential test "
                               f"of {prog} to continue; run without --resume to start one")
    most = ns.games
    runs = {label: dataclasses.replace(base, cards=cards, out=folder / label, games=most,
                                       players=str(players))
            for label, cards in (("a", ns.a), ("b", ns.b))}
    step = {"n": 0}
    batch = max(10, 2 * base.jobs)

    def play_pairs(wanted: list[int]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        upto = max(wanted) + 1
        for label in ("a", "b"):
            opts: Options = runs[label]
            first = step["n"] == 0
            resume = (not first) or ns.resume
            if resume and not (opts.out / "run.json").exists():
                resume = False
            run(dataclasses.replace(opts, resume=resume), str(players), sys.stderr,
                quiet=True, upto=upto, write_report=False, replace=first and replace)
        step["n"] += 1
        got_a = {r["game"]: r for r in records_of(folder / "a", (players,), upto)}
        got_b = {r["game"]: r for r in records_of(folder / "b", (players,), upto)}
        return [(got_a[i], got_b[i]) for i in wanted if i in got_a and i in got_b]

    sprt = Sprt(ns.alpha, ns.beta, ns.effect)
    first_seat = sim.first_seat(ruleset)
    with Ray(ns.ray, base.jobs, prog):
        found = run_sprt(sprt, ns.metric, first_seat, play_pairs, batch, most)
    result = {"game": ns.game, "a": str(ns.a), "b": str(ns.b), "bots": list(base.bots),
              "seed": ns.seed, "players": players, "games": most,
              "command": command(ns, _run_command(base, players)), "sprt": found}
    folder.mkdir(parents=True, exist_ok=True)
    _write(folder / SPRT_FILE, json.dumps({"tool": "pnp-sim", **found}, indent=2) + "\n")
    return finish(ns, folder, result)


def _run_command(opts: Options, players: int) -> str:
    from sim.command import reproduce

    return reproduce(opts, (players,))


def _previous(folder: Path) -> dict[str, Any] | None:
    try:
        data = json.loads((folder / SPRT_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("tool") == "pnp-sim" else None
