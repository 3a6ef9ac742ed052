"""``pnp sim compare A B --sprt``: play A and B in pairs on the same seeds and stop as soon
as the sequential test (:mod:`sim.sprt`) decides.

The measure is one number per game (:func:`value`): ``seat-gap`` (the first seat's share of
the win minus a fair share), ``seat:N`` (seat N's share of the win), ``length`` (turns),
``score`` (mean score per player) or ``component:NAME`` (a score component per player).
Pairs are played in batches (a batch can run in worker processes or on Ray: the caller's
``play_pairs`` decides) but fed to the test in the order of their game numbers, so the
decision and the number of pairs it took are the same whatever ran where; pairs of a
batch played after the decision are kept in the runs' records but not counted.
Standard library only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any

from sim.sprt import GOING, H1, Sprt

Record = dict[str, Any]
PlayPairs = Callable[[Sequence[int]], Iterable[tuple[Record, Record]]]
METRICS = ("seat-gap", "seat:N", "length", "score", "component:NAME")


class MetricError(ValueError):
    """A measure the SPRT cannot follow (the message says which exist)."""


def check_metric(metric: str, players: int, components: Iterable[str]) -> None:
    """:class:`MetricError` unless ``metric`` names a measure of these games."""
    if metric in ("seat-gap", "length", "score"):
        return
    if metric.startswith("seat:"):
        seat = metric.removeprefix("seat:")
        if seat.isdigit() and 1 <= int(seat) <= players:
            return
        raise MetricError(f"--metric {metric}: there are seats 1 to {players}")
    if metric.startswith("component:"):
        name = metric.removeprefix("component:")
        names = list(components)
        if name in names:
            return
        raise MetricError(f"--metric {metric}: the components are {', '.join(names)}")
    raise MetricError(f"--metric {metric}: not a measure; one of seat-gap, seat:N, length, "
                      f"score, component:NAME")


def value(record: Record, metric: str, first_seat: int) -> Fraction:
    """The measure of one game."""
    players = record["players"]
    winners = record["winners"]
    share = Fraction(1, len(winners)) if winners else Fraction(0)
    if metric == "seat-gap":
        return (share if first_seat in winners else Fraction(0)) - Fraction(1, players)
    if metric.startswith("seat:"):
        return share if int(metric[5:]) - 1 in winners else Fraction(0)
    if metric == "length":
        return Fraction(record["turns"])
    if metric == "score":
        return Fraction(sum(record["scores"]), players)
    name = metric.removeprefix("component:")
    seats = record["seats"]
    return Fraction(sum(seat[name] for seat in seats), len(seats))


def run_sprt(sprt: Sprt, metric: str, first_seat: int, play_pairs: PlayPairs,
             batch: int, most: int, earlier: Iterable[tuple[Record, Record]] = ()
             ) -> dict[str, Any]:
    """Feed pairs to ``sprt`` in game order until it decides or ``most`` pairs are in:
    ``earlier`` pairs first (a resumed run), then batches of ``batch`` more from
    ``play_pairs``. The result in plain data."""
    done: dict[int, tuple[Record, Record]] = {ra["game"]: (ra, rb) for ra, rb in earlier}
    fed = 0
    while sprt.state == GOING and fed < most:
        while fed in done and sprt.state == GOING and fed < most:
            ra, rb = done[fed]
            sprt.add(value(ra, metric, first_seat), value(rb, metric, first_seat))
            fed += 1
        if sprt.state != GOING or fed >= most:
            break
        wanted = [i for i in range(fed, min(most, fed + batch)) if i not in done]
        for ra, rb in play_pairs(wanted):
            done[ra["game"]] = (ra, rb)
    return result(sprt, metric, fed, most)


def result(sprt: Sprt, metric: str, pairs: int, most: int) -> dict[str, Any]:
    """What the test found, in plain data (``compare.json``'s ``sprt``)."""
    low, high = sprt.bounds
    up, down = sprt.llrs
    p = sprt.pairs
    state = sprt.state
    decision = state if state != GOING else "undecided"
    mean = float(p.sum_d / p.n) if p.n else 0.0
    return {
        "metric": metric, "alpha": sprt.alpha, "beta": sprt.beta, "effect": sprt.effect,
        "decision": decision,
        "direction": ("B above A" if sprt.direction > 0 else "B below A")
        if state == H1 else None,
        "pairs": pairs, "most": most,
        "fixed_pairs": sprt.fixed_games(),
        "bounds": [round(low, 6), round(high, 6)],
        "llr": [round(up, 6) if abs(up) != float("inf") else None,
                round(down, 6) if abs(down) != float("inf") else None],
        "mean_difference": round(mean, 6), "sd": round(p.variance ** 0.5, 6),
    }
