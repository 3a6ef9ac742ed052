"""``pnp sim tune GAME --target ...``: the search of :mod:`sim.tune` on the command line.

Each trial's games are an ordinary run (:func:`sim.command.run`) in ``OUT/trials/KEY`` (KEY:
the trial's numbers), so a trial interrupted by a kill is played on from its games when
``--resume`` goes on with the study in ``OUT/study.db``, and every trial's games are
spread over ``--jobs`` or a Ray cluster (``--ray``) with the same records either way. The
proposal is ``OUT/proposal.diff`` (rules.yaml with the best numbers) and its evidence a
paired comparison of the original and the proposal on fresh seeds (``OUT/evidence``).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import shlex
import sys
from pathlib import Path
from typing import Any

from pnp.common import say, shown, write_out
from sim.command import (
    EXIT_OK,
    EXIT_RULES,
    EXIT_USAGE,
    Options,
    Ray,
    Stop,
    Usage,
    _write,
    load,
    options,
    player_counts,
    records_of,
    resume_hint,
    ruleset_hash,
    run,
)

TRIAL_GAMES = 200  # games per player count and trial
STUDY = "pnp-sim-tune"
RUN_FILE = "tune.json"
EVIDENCE_SEED = 1_000_003  # the evidence is played on seeds no trial used: seed + this


def rules_file(game: str, cards: Path | None) -> Path:
    import cards as shipped

    folder = Path(shipped.__file__).parent if cards is None else cards
    return folder / game / "rules.yaml"


def key_of(values: dict[str, int]) -> str:
    text = json.dumps(values, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def tune_command(ns: argparse.Namespace, prog: str, args: list[str]) -> int:
    from sim.play import adapter
    from sim.tune import TuneError, declared, parse_target, search, tunables, with_values

    game = ns.tune_game
    ns.games = ns.games or TRIAL_GAMES
    evidence = ns.evidence or 2 * ns.games
    if ns.prune_every is not None and ns.prune_every >= ns.games:
        raise Usage(f"--prune-every {ns.prune_every}: must be fewer than the {ns.games} games "
                    f"a trial plays per player count (--games), or it never prunes")
    try:
        targets = [parse_target(t) for t in ns.target]
    except TuneError as exc:
        raise Usage(str(exc)) from None
    try:
        import optuna  # noqa: F401
    except ImportError:
        raise Stop(EXIT_USAGE, f"{prog}: tune needs Optuna, which is not installed: pip "
                               f"install -e '.[tune]' (or pip install optuna)") from None
    ruleset = load(game, ns.cards, prog)
    path = rules_file(game, ns.cards)
    try:
        found = tunables(declared(path), ruleset, shown(path))
    except TuneError as exc:
        raise Stop(EXIT_USAGE, f"{prog}: {exc}") from None
    sim = adapter(game)
    counts = player_counts(sim, ruleset, getattr(ns, "players", None), prog)
    folder = ns.out or Path("output") / "sim" / f"tune-{game}"
    hint = resume_hint(prog, args, folder, ns.out is not None)
    base = options(ns, game, ns.cards, folder, prog, hint)
    identity = {"tool": "pnp-sim", "game": game, "definitions_hash": ruleset_hash(ruleset),
                "targets": [t.text for t in targets], "tunables": [dataclasses.asdict(t)
                                                                   for t in found],
                "players": list(counts), "games": ns.games, "bots": list(base.bots),
                "budget": base.budget, "seed": ns.seed, "trials": ns.trials,
                "prune_every": ns.prune_every}
    study_file = folder / "study.db"
    _check_folder(folder, study_file, identity, ns.resume, prog)
    folder.mkdir(parents=True, exist_ok=True)
    _write(folder / RUN_FILE, json.dumps({**identity, "finished": False}, indent=2) + "\n")

    def summarise(trial_rules: Any, players: int, played: int) -> dict[str, Any]:
        values = {t.key: _value(trial_rules, t.key) for t in found}
        out = folder / "trials" / key_of(values)
        opts = dataclasses.replace(base, out=out, players=str(players), json=True,
                                   resume=(out / "run.json").exists())
        try:
            summary = run(opts, str(players), sys.stderr, quiet=True, ruleset=trial_rules,
                          upto=played, write_report=False)
        except Stop as exc:
            if exc.code == EXIT_RULES:  # numbers the game cannot be dealt with
                return _impossible(players)
            raise
        block: dict[str, Any] = summary["by_players"][0]
        return block

    if not ns.json:
        say(f"tuning {len(found)} number(s) of {shown(path)} towards "
            f"{', '.join(t.text for t in targets)}: {ns.trials} trials of {ns.games} games "
            f"per player count")
    with Ray(ns.ray, base.jobs, prog):
        best = search(found, targets, ruleset, summarise, counts, ns.trials,
                      f"sqlite:///{study_file}", STUDY, ns.seed, ns.games, ns.prune_every)
        proposal = with_values(ruleset, best["best"])
        evidence_result = _evidence(base, folder, ruleset, proposal, counts, evidence,
                                    ns.seed + EVIDENCE_SEED, sim.kinds)
    from sim.tune import yaml_diff

    text = path.read_text(encoding="utf-8")
    changed = {k: v for k, v in best["best"].items() if k in best["changed"]}
    diff = yaml_diff(text, changed, f"{game}/rules.yaml") if changed else ""
    _write(folder / "proposal.diff", diff)
    original = {t.key: t.default for t in found}
    result = {"game": game, "definitions": shown(path), "targets": [t.text for t in targets],
              "tunables": identity["tunables"], "trials": best["trials"],
              "games": ns.games, "players": list(counts), "bots": list(base.bots),
              "seed": ns.seed, "original": original, "best": best["best"],
              "changed": best["changed"], "loss": round(best["loss"], 6),
              "original_loss": _original_loss(best["history"], original),
              "diff": diff, "evidence": evidence_result, "history": best["history"],
              "command": _command(ns, game)}
    _write(folder / "tune.json", json.dumps({**identity, "finished": True}, indent=2) + "\n")
    _write(folder / "result.json", json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    from sim import report

    _write(folder / "tune.html", report.tune_html(result))
    if ns.json:
        write_out(json.dumps(result, indent=2, ensure_ascii=False) + "\n", json=True)
    else:
        write_out(report.tune_terminal(result)
                  + f"\nreport: {shown(folder / 'tune.html')}; the proposal: "
                    f"{shown(folder / 'proposal.diff')}\n")
    return EXIT_OK


def _value(ruleset: Any, key: str) -> int:
    from sim.tune import current

    return current(ruleset, key)


def _impossible(players: int) -> dict[str, Any]:
    """A summary block that misses every target by far (a trial whose numbers cannot be
    played)."""
    huge = 1e6
    return {"players": players, "seats": [{"rate": huge}], "first_player": {"rate": huge},
            "draws": {"rate": huge}, "length": {"mean": huge}, "scores": {"mean": -huge}}


def _original_loss(history: list[dict[str, Any]], original: dict[str, int]) -> float | None:
    for trial in history:
        if trial["values"] == original and trial["state"] == "complete":
            loss: float | None = trial["loss"]
            return loss
    return None


def _check_folder(folder: Path, study: Path, identity: dict[str, Any], resume: bool,
                  prog: str) -> None:
    previous = None
    try:
        previous = json.loads((folder / RUN_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    ours = isinstance(previous, dict) and previous.get("tool") == "pnp-sim"
    if resume:
        if not ours:
            raise Stop(EXIT_USAGE, f"{prog}: --resume: {shown(folder)} holds no tuning of "
                                   f"{prog} to continue; run without --resume to start one")
        assert isinstance(previous, dict)
        differ = [k for k in identity if k != "trials" and previous.get(k) != identity[k]]
        if differ:
            raise Stop(EXIT_USAGE, f"{prog}: --resume: the options differ from the tuning in "
                                   f"{shown(folder)} ({', '.join(differ)}); give the same "
                                   f"options, or another --out to start a new one")
        return
    if ours:
        assert isinstance(previous, dict)
        if not previous.get("finished"):
            raise Stop(EXIT_USAGE, f"{prog}: {shown(folder)} holds an unfinished tuning; "
                                   f"continue it with --resume, or choose another --out")
        # a finished tuning of ours is replaced: its study, trials and evidence go
        import shutil

        study.unlink(missing_ok=True)
        for part in ("trials", "evidence"):
            shutil.rmtree(folder / part, ignore_errors=True)
        return
    theirs = [n for n in ("study.db", RUN_FILE, "trials", "evidence", "proposal.diff")
              if (folder / n).exists()]
    if theirs:
        raise Stop(EXIT_USAGE, f"{prog}: {shown(folder)} holds {', '.join(theirs)}, which "
                               f"{prog} did not write; choose another --out (nothing is "
                               f"overwritten)")


def _evidence(base: Options, folder: Path, original: Any, proposal: Any,
              counts: tuple[int, ...], games: int, seed: int,
              kinds: tuple[str, ...]) -> dict[str, Any]:
    """The original and the proposal on fresh seeds, compared game by game. A proposal to
    keep the definitions as they are is not played a second time: the same seeds and
    definitions give the same games, so its side is the original's records."""
    from sim.compare import compare_records

    text = ",".join(map(str, counts))
    sides = (("a", original), ("b", proposal)) if proposal != original else (("a", original),)
    for label, rules in sides:
        out = folder / "evidence" / label
        opts = dataclasses.replace(base, out=out, players=text, games=games, seed=seed,
                                   json=True, resume=(out / "run.json").exists())
        run(opts, text, sys.stderr, quiet=True, ruleset=rules, write_report=False)
    b = "b" if len(sides) == 2 else "a"
    rows = compare_records(records_of(folder / "evidence" / "a", counts, games),
                           records_of(folder / "evidence" / b, counts, games), kinds)
    return {"games": games, "seed": seed, "by_players": rows}


def _command(ns: argparse.Namespace, game: str) -> str:
    words = ["pnp-sim", "tune", game]
    if ns.cards is not None:
        words += ["--cards", str(ns.cards)]
    if getattr(ns, "players", None):
        words += ["--players", ns.players]
    for t in ns.target:
        words += ["--target", t]
    words += ["--trials", str(ns.trials), "--games", str(ns.games), "--bots", ns.bots,
              "--seed", str(ns.seed)]
    if ns.prune_every is not None:
        words += ["--prune-every", str(ns.prune_every)]
    return " ".join(shlex.quote(w) for w in words)
