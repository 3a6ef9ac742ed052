"""``pnp sim compare``: what changed from run A to run B, game by game.

A and B are played on the same seeds unless ``--seed-b`` gives B its own: then game *i*
of A and game *i* of B share their deal and the line-up, and a change shows in the
*per-game differences* (:mod:`sim.paired`): a rule that shortens two games in three by a
turn is found in a hundred games, although game lengths vary by dozens of turns among
themselves. With independent seeds the same numbers are compared as two independent
means (Welch).

Every measure is a number per game (:func:`measures`): each seat's share of the win (a
game shared by *k* seats gives each 1/k), draws, the length, the mean score and each score
component per player, the share of each kind of action *in that game* (so a long game's
many moves do not count as many independent trials), how the game ended, and the game's
facts. A row that says the same as an earlier one (seat 2's win share in a 2-player game
without draws is 1 minus seat 1's) is left out. Seat rows also get McNemar's exact test of
who won outright.

The p-values of all rows are adjusted together (Holm by default, or Benjamini-Hochberg,
:mod:`sim.multiple`), so a star means the same whether a comparison has 3 rows or 60;
with ``primary`` one measure is the question and only its row is tested (at the stated
alpha, unadjusted), the others shown for reading. Standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from sim.multiple import adjust
from sim.paired import Pairs, mcnemar
from sim.stats import two_means

Measures = dict[str, tuple[str, Fraction]]  # key -> (label, value in this game)


def measures(record: dict[str, Any], kinds: Iterable[str]) -> Measures:
    """Every measure of one game (see the module docstring), by a stable key."""
    out: Measures = {}
    players = record["players"]
    winners = record["winners"]
    share = Fraction(1, len(winners)) if winners else Fraction(0)
    for seat in range(players):
        out[f"seat:{seat + 1}"] = (f"seat {seat + 1} win share",
                                   share if seat in winners else Fraction(0))
    out["draws"] = ("draws", Fraction(0 if winners else 1))
    out["length"] = ("game length (turns)", Fraction(record["turns"]))
    scores = record["scores"]
    out["score"] = ("score per player", Fraction(sum(scores), len(scores)))
    seats = record.get("seats", [])
    names = sorted({k for seat in seats for k, v in seat.items() if not isinstance(v, dict)})
    for name in names:
        total = sum(seat.get(name, 0) for seat in seats)
        out[f"component:{name}"] = (f"{name.replace('_', ' ')} per player",
                                    Fraction(total, len(seats)))
    turns = record["turns"]
    for kind, count in zip(kinds, record["actions"], strict=False):
        out[f"action:{kind}"] = (f"share of actions: {kind} (per game)",
                                 Fraction(count, turns) if turns else Fraction(0))
    out[f"end:{record['end']}"] = (f"ended: {record['end']}", Fraction(1))
    for key, value in sorted(record.get("facts", {}).items()):
        out[f"fact:{key}:{value}"] = (f"{key.replace('_', ' ')}: {value}", Fraction(1))
    return out


class Row:
    """One measure over all the games of a player count."""

    def __init__(self, key: str, label: str) -> None:
        self.key, self.label = key, label
        self.pairs = Pairs()
        self.only_a = self.only_b = 0  # seat rows: games won outright in A only, B only
        self.diffs: list[Fraction] = []  # to find rows that say the same as another
        self.same_as: list[str] = []  # the rows left out because they say the same

    def add(self, a: Fraction, b: Fraction, won_a: bool | None = None,
            won_b: bool | None = None) -> None:
        self.pairs.add(a, b)
        self.diffs.append(b - a)
        if won_a is not None and won_a != won_b:
            if won_a:
                self.only_a += 1
            else:
                self.only_b += 1


def _one_run(values: list[Fraction]) -> tuple[float, float, int]:
    n = len(values)
    if not n:
        return 0.0, 0.0, 0
    mean = sum(values, Fraction(0)) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else Fraction(0)
    return float(mean), float(var), n


def compare_records(a: Iterable[dict[str, Any]], b: Iterable[dict[str, Any]],
                    kinds: Iterable[str], paired: bool = True, correction: str = "holm",
                    alpha: float = 0.05, primary: str | None = None) -> list[dict[str, Any]]:
    """The rows of every player count the two runs share (see the module docstring).
    Games are matched by player count and number; a measure absent from a game (an end
    it did not have) is 0 there."""
    kinds = tuple(kinds)
    by_a = {(r["players"], r["game"]): r for r in a}
    by_b = {(r["players"], r["game"]): r for r in b}
    games: dict[int, list[tuple[dict[str, Any], dict[str, Any], Measures, Measures]]] = {}
    for key in sorted(set(by_a) & set(by_b)):
        ra, rb = by_a[key], by_b[key]
        games.setdefault(key[0], []).append((ra, rb, measures(ra, kinds), measures(rb, kinds)))
    out = []
    everything = []
    for players, found in sorted(games.items()):
        labels: dict[str, str] = {}
        for _, _, ma, mb in found:
            for k, (label, _) in (*ma.items(), *mb.items()):
                labels.setdefault(k, label)
        rows = []
        for k in sorted(labels, key=_order):
            row = Row(k, labels[k])
            va_all, vb_all = [], []
            for ra, rb, ma, mb in found:
                va = ma.get(k, ("", Fraction(0)))[1]
                vb = mb.get(k, ("", Fraction(0)))[1]
                if k.startswith("seat:"):
                    seat = int(k.split(":")[1]) - 1
                    row.add(va, vb, ra["winners"] == [seat], rb["winners"] == [seat])
                else:
                    row.add(va, vb)
                va_all.append(va)
                vb_all.append(vb)
            rows.append((row, va_all, vb_all))
        shown = []
        for row, va_all, vb_all in _distinct(rows):
            if paired:
                d = row.pairs.difference()
                test = "paired t"
            else:
                d = two_means(*_one_run(va_all), *_one_run(vb_all))
                test = "Welch"
            entry: dict[str, Any] = {"key": row.key, "label": row.label, "test": test,
                                     "kind": "proportion" if _is_share(row.key) else "mean",
                                     "difference": d.to_json()}
            if paired:
                entry["pairs"] = {"up": row.pairs.up, "down": row.pairs.down,
                                  "same": row.pairs.same}
                if row.key.startswith("seat:"):
                    entry["mcnemar"] = {"only_a": row.only_a, "only_b": row.only_b,
                                        "p": round(mcnemar(row.only_a, row.only_b), 6)}
            if row.same_as:
                entry["same_as"] = row.same_as
            shown.append(entry)
            everything.append(entry)
        out.append({"players": players, "games": len(found), "rows": shown})
    _judge(everything, correction, alpha, primary)
    return out


def _order(key: str) -> tuple[int, str]:
    rank = ("seat:", "draws", "length", "score", "component:", "action:", "end:", "fact:")
    for k, prefix in enumerate(rank):
        if key.startswith(prefix):
            return (k, key)
    return (len(rank), key)


def _is_share(key: str) -> bool:
    return key.startswith(("seat:", "draws", "action:", "end:", "fact:"))


def _distinct(rows: list[tuple[Row, list[Fraction], list[Fraction]]]
              ) -> list[tuple[Row, list[Fraction], list[Fraction]]]:
    """The rows without one that says the same as an earlier one: the same per-game
    differences, or their negatives (seat 2 of a 2-player game without draws); rows
    that never differ at all are kept (they say nothing changed)."""
    out = []
    seen: dict[tuple[Fraction, ...], Row] = {}
    for entry in rows:
        diffs = tuple(entry[0].diffs)
        if any(diffs):
            kept = seen.get(diffs) or seen.get(tuple(-d for d in diffs))
            if kept is not None:
                kept.same_as.append(entry[0].label)
                continue
        seen.setdefault(diffs, entry[0])
        out.append(entry)
    return out


def _judge(rows: list[dict[str, Any]], correction: str, alpha: float,
           primary: str | None) -> None:
    """Mark the significant rows: the primary measure's alone at ``alpha``, or every row
    with its p-value adjusted for the number of rows."""
    if primary is not None:
        for row in rows:
            d = row["difference"]
            row["primary"] = row["key"] == primary
            row["p_adjusted"] = d["p"] if row["primary"] else None
            row["significant"] = bool(row["primary"] and d["p"] < alpha)
        return
    adjusted = adjust([row["difference"]["p"] for row in rows], correction)
    for row, q in zip(rows, adjusted, strict=True):
        row["p_adjusted"] = round(q, 6)
        row["significant"] = q < alpha


def primary_keys() -> str:
    """The measures ``--primary`` can name, in words."""
    return ("seat:N (seat N's win share), draws, length, score, component:NAME (a score "
            "component), action:KIND (a kind of action's share), end:REASON")
