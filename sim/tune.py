"""``pnp sim tune GAME``: search the numbers a designer declared tunable for a game that
meets the targets, changing as few of them as it can.

The numbers come from ``tune:`` in the game's ``rules.yaml`` (``NAME: [LOW, HIGH]``, whole
numbers; Orbitus: ``hand_size``, ``min_hand``, ``scoring.pirate``,
``scoring.open_route``, ``scoring.planet_groups.MIN`` and ``scoring.closed_blocks.MIN``,
the points of the row that starts at MIN; Satellites: ``colony_min``, ``colony_max``,
``end_connected``, ``grace_moves``, ``push_reach``, ``stall_moves``). A target is a
measure and what it should be: ``seat-gap<2%`` (the largest gap between a seat's win
rate and a fair share, at any player count), ``first-seat<55%``, ``draws<5%``,
``length 25..40`` (mean turns), ``score>0`` (mean score per player).

Each trial plays the same games (seeds) with one choice of the numbers and scores it by
how far it misses the targets (each miss in the target's own unit, relative to the
target) plus :data:`CHANGE_COST` for every number it changes. The first trials are the
definitions as they are and each number one step either way alone (the smallest changes,
:func:`first_trials`); then Optuna's TPE sampler proposes the numbers, its median pruner
stops a trial whose first player counts (or, with ``--prune-every N``, whose first N, 2N,
... games of a count) already miss by more than most, and its SQLite
storage (``OUT/study.db``) keeps every trial, so an interrupted tuning resumes where it
stopped. Optuna is an optional extra (``pip install
-e '.[tune]'``). The result is the best choice as a diff against ``rules.yaml`` and the
evidence: a paired comparison of the original and the proposal on fresh seeds.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CHANGE_COST = 0.1  # what changing one number costs a trial, against missing a target
LIMITS = {"hand_size": (1, 20), "min_hand": (1, 20), "colony_min": (2, 24),
          "colony_max": (2, 24), "end_connected": (2, 99), "grace_moves": (0, 20),
          "push_reach": (1, 4), "stall_moves": (1, 4000)}
POINTS = (-1000, 1000)  # a score in a table, either way (cards.models.MAX_POINTS)


class TuneError(ValueError):
    """A tune declaration or a target that cannot be used (exit 2; the message says
    why and what would be right)."""


@dataclass(frozen=True)
class Tunable:
    key: str
    low: int
    high: int
    default: int


def limits(key: str) -> tuple[int, int]:
    """What the loader allows for the number ``key``."""
    return LIMITS.get(key, POINTS)


def current(ruleset: Any, key: str) -> int:
    """The number ``key`` in ``ruleset``."""
    if key.startswith("scoring."):
        part, _, minimum = key.removeprefix("scoring.").partition(".")
        scoring = ruleset.scoring
        if not minimum:
            return int(getattr(scoring, part))
        for band in getattr(scoring, part):
            if band.min == int(minimum):
                return int(band.points)
        raise TuneError(f"tune: {key}: the scoring has no row that starts at {minimum}")
    return int(getattr(ruleset, key))


def with_values(ruleset: Any, values: dict[str, int]) -> Any:
    """``ruleset`` with the numbers of ``values`` in place of its own."""
    plain = {k: v for k, v in values.items() if not k.startswith("scoring.")}
    out = dataclasses.replace(ruleset, **plain) if plain else ruleset
    scored = {k: v for k, v in values.items() if k.startswith("scoring.")}
    if scored:
        scoring = out.scoring
        changes: dict[str, Any] = {}
        for key, value in scored.items():
            part, _, minimum = key.removeprefix("scoring.").partition(".")
            if not minimum:
                changes[part] = value
            else:
                rows = changes.get(part, getattr(scoring, part))
                changes[part] = tuple(dataclasses.replace(b, points=value)
                                      if b.min == int(minimum) else b for b in rows)
        out = dataclasses.replace(out, scoring=dataclasses.replace(scoring, **changes))
    return out


def tunables(declared: dict[str, Sequence[int]] | None, ruleset: Any,
             where: str) -> list[Tunable]:
    """The declared numbers with their ranges checked against what the loader allows."""
    if not declared:
        raise TuneError(f"{where} declares nothing to tune; add e.g. 'tune: "
                        f"{{scoring.open_route: [-2, 0]}}' to it")
    out = []
    for key, (low, high) in declared.items():
        least, most = limits(key)
        if low < least or high > most:
            raise TuneError(f"{where}: tune: {key}: [{low}, {high}] goes beyond what the "
                            f"definitions allow ({least} to {most})")
        out.append(Tunable(key, int(low), int(high), current(ruleset, key)))
    return out


# --- targets -------------------------------------------------------------------------------

_TARGET = re.compile(r"^\s*([a-z-]+)\s*(?:(<=|>=|<|>)\s*(-?[0-9.]+)\s*(%?)|(-?[0-9.]+)\s*\.\.\s*"
                     r"(-?[0-9.]+)\s*(%?))\s*(?:turns|points)?\s*$")
MEASURES = {"seat-gap": "%", "first-seat": "%", "draws": "%", "length": "", "score": ""}


@dataclass(frozen=True)
class Target:
    text: str
    measure: str
    low: float | None
    high: float | None

    def miss(self, value: float) -> float:
        """How far ``value`` misses the target, relative to its size (0: met)."""
        scale = max(abs(self.low or 0), abs(self.high or 0), 1e-9)
        if self.low is not None and value < self.low:
            return (self.low - value) / scale
        if self.high is not None and value > self.high:
            return (value - self.high) / scale
        return 0.0


def parse_target(text: str) -> Target:
    """``seat-gap<2%``, ``length 25..40 turns``, ... (:class:`TuneError` if it cannot be
    read)."""
    m = _TARGET.match(text.lower())
    if m is None or m.group(1) not in MEASURES:
        raise TuneError(f"--target {text!r}: cannot be read; e.g. \"seat-gap<2%\", "
                        f"\"length 25..40 turns\", \"draws<5%\"; the measures are "
                        f"{', '.join(MEASURES)}")
    measure = m.group(1)
    percent = m.group(4) or m.group(7)
    if MEASURES[measure] == "%" and not percent:
        raise TuneError(f"--target {text!r}: {measure} is a share; write it with %, e.g. "
                        f"{measure}<2%")
    scale = 0.01 if percent else 1.0
    if m.group(2):
        value = float(m.group(3)) * scale
        low, high = (None, value) if m.group(2).startswith("<") else (value, None)
    else:
        low, high = float(m.group(5)) * scale, float(m.group(6)) * scale
        if low > high:
            raise TuneError(f"--target {text!r}: the range runs backwards")
    return Target(text, measure, low, high)


def measure(target: Target, block: dict[str, Any]) -> float:
    """A target's measure in one player count's summary block."""
    if target.measure == "seat-gap":
        fair = 1 / block["players"]
        return max(abs(s["rate"] - fair) for s in block["seats"])
    if target.measure == "first-seat":
        return block["first_player"]["rate"]
    if target.measure == "draws":
        return block["draws"]["rate"]
    if target.measure == "length":
        return block["length"]["mean"]
    return block["scores"]["mean"]


def loss(targets: Sequence[Target], blocks: Iterable[dict[str, Any]]) -> float:
    """How far the summaries miss the targets, in all."""
    return sum(t.miss(measure(t, b)) for b in blocks for t in targets)


# --- the search ----------------------------------------------------------------------------


def first_trials(tunable: Sequence[Tunable]) -> list[dict[str, int]]:
    """The trials every search starts with: the definitions as they are, then each
    number one step down and one step up (inside its range), the others as they are."""
    defaults = {t.key: t.default for t in tunable}
    out = [defaults]
    for t in tunable:
        for step in (-1, 1):
            if t.low <= t.default + step <= t.high:
                out.append({**defaults, t.key: t.default + step})
    return out


def steps(counts: Sequence[int], games: int, every: int | None) -> list[tuple[int, int]]:
    """Where a trial reports to the pruner: ``(players, games played of that count)``.
    Without ``every``, once per player count (after all its games); with it, also after
    every ``every`` games of each count (a trial whose first games already miss by more
    than most trials' did is stopped there, which makes a search of one player count of
    slow bots affordable)."""
    played = [games] if every is None else [*range(every, games, every), games]
    return [(players, n) for players in counts for n in played]


def search(tunable: Sequence[Tunable], targets: Sequence[Target], ruleset: Any,
           summarise: Callable[[Any, int, int], dict[str, Any]], counts: Sequence[int],
           trials: int, storage: str, name: str, seed: int, games: int,
           every: int | None = None) -> dict[str, Any]:
    """Run (or go on with) the Optuna study ``name`` in ``storage`` until it holds
    ``trials`` finished trials; ``summarise(ruleset, players, n)`` plays the first ``n``
    of one player count's ``games`` and gives its summary block (a later call for more
    goes on from those). The trial reports its loss so far at each of :func:`steps`. The
    best numbers and the study's size.

    Trials are asked for and told one at a time, each proposed by a TPE sampler seeded
    from ``seed`` and the trial's number, so the search depends only on the study's
    history: an interrupted search (even killed) resumes as if it had never stopped. A
    trial the interruption left running is played again with its numbers (its games are
    the caller's to keep)."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.ERROR)
    study = optuna.create_study(direction="minimize", study_name=name, storage=storage,
                                load_if_exists=True,
                                sampler=optuna.samplers.TPESampler(seed=seed),
                                pruner=optuna.pruners.MedianPruner(n_startup_trials=3))
    if not study.trials:
        # the definitions as they are come first, then the smallest changes: each number
        # one step either way, alone; the sampler goes on from what these found
        for values in first_trials(tunable):
            study.enqueue_trial(values)
    states = optuna.trial.TrialState
    defaults = {t.key: t.default for t in tunable}
    plan = steps(counts, games, every)

    def objective(trial: Any) -> float:
        values = {t.key: trial.suggest_int(t.key, t.low, t.high) for t in tunable}
        changed = sum(1 for t in tunable if values[t.key] != t.default)
        trial_rules = with_values(ruleset, values)
        settled = 0.0  # the loss of the player counts played out
        for step, (players, played) in enumerate(plan):
            total = settled + loss(targets, [summarise(trial_rules, players, played)])
            if played == games:
                settled = total
            trial.report(total, step)
            # after the last step the trial is played out: nothing left to save
            if step < len(plan) - 1 and trial.should_prune():
                raise optuna.TrialPruned()
        return settled + CHANGE_COST * changed

    def finished() -> int:
        return sum(1 for t in study.get_trials(deepcopy=False)
                   if t.state in (states.COMPLETE, states.PRUNED))

    while finished() < trials:
        left = [t for t in study.get_trials(deepcopy=False) if t.state == states.RUNNING]
        if left:  # interrupted while it played: play it again, with the same numbers
            trial = optuna.trial.Trial(study, left[0]._trial_id)
        else:
            study.sampler = optuna.samplers.TPESampler(seed=seed * 7919 + len(study.trials))
            trial = study.ask()
        try:
            study.tell(trial, objective(trial))
        except optuna.TrialPruned:
            study.tell(trial, state=states.PRUNED)
    best = study.best_trial
    return {"best": dict(best.params), "loss": best.value, "trials": finished(),
            "changed": sorted(k for k, v in best.params.items() if v != defaults[k]),
            "history": [{"number": t.number, "state": t.state.name.lower(),
                         "loss": None if t.value is None else round(t.value, 6),
                         "values": dict(t.params)}
                        for t in study.get_trials(deepcopy=False)
                        if t.state in (states.COMPLETE, states.PRUNED)]}


def yaml_diff(text: str, values: dict[str, int], name: str) -> str:
    """``rules.yaml``'s text with ``values`` written in, as a unified diff (only the lines
    that hold them change)."""
    lines = text.splitlines(keepends=True)
    out = list(lines)
    for key, value in values.items():
        if key.startswith("scoring.") and key.count(".") == 2:
            part, minimum = key.split(".")[1:]
            inside = False
            for i, line in enumerate(out):
                if re.match(rf"^\s*{part}:", line):
                    inside = True
                elif inside and re.match(r"^\s*[a-z_]+:", line) and "{" not in line:
                    inside = False
                if inside and re.search(rf"\{{\s*min:\s*{minimum}\b", line):
                    out[i] = re.sub(r"points:\s*-?\d+", f"points: {value}", line)
                    break
        else:
            leaf = key.split(".")[-1]
            for i, line in enumerate(out):
                if re.match(rf"^\s*{leaf}:\s*-?\d+", line):
                    out[i] = re.sub(rf"({leaf}:\s*)-?\d+", rf"\g<1>{value}", line, count=1)
                    break
    return "".join(difflib.unified_diff(lines, out, f"a/{name}", f"b/{name}"))


def declared(path: Path) -> dict[str, list[int]] | None:
    """The ``tune:`` mapping of a rules file (already checked by the loader)."""
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return data.get("tune")
