"""``pnp sim ladder GAME``: a round robin between bots of rising strength and their ratings.

Every pair of rungs plays ``games`` games head to head at one player count, the line-up
turning one seat every game (with more than two players the two bots alternate round the
table), each game from its own seed as in any run. A game's win goes to the bot of the
winning seat (a shared win is shared; a bot in several seats of one game wins for each).
From the points each rung took off each other the Bradley-Terry model gives ratings on
the Elo scale with 95 % intervals (:mod:`sim.rating`), the lowest rung at 0; and each
rung's win share against the rung below, with its interval (shared wins counted by their
per-game variance) and the one-sided test that it is above one half.

A pairing can stop as soon as it is decided (``decide``, ``pnp sim ladder --sprt``): its
games are fed in game order to Wald's sequential test of :mod:`sim.sprt` on the higher
rung's per-game share minus one half (H1: the higher rung wins ``effect`` more or less than
half; H0: within that), one by one after each game (the test's own minimum of 10 first;
games are played in batches of ``batch``), and the pairing ends at the game where the test
accepts either, or at ``games``; games of the last batch after that one are not counted.
A decided pairing keeps its interval and test in the table (worked out from the games it
played, as for a fixed number; after a sequential stop they are a little optimistic, the
decision's error rates are the test's ``alpha`` and ``beta``) and its ratings' intervals
widen with fewer games. The decision depends only on the games'
order, so it is the same on any number of cores.

Standard library only; the pairings' games can be played anywhere (``play`` is the
caller's: here, a process pool or Ray).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any

from sim.rating import bradley_terry
from sim.sprt import GOING, Sprt
from sim.stats import share_interval, share_test

Record = dict[str, Any]
Play = Callable[[tuple[str, str], Sequence[int]], Iterable[Record]]
DEFAULT_RUNGS = ("random", "greedy", "value", "mcts:16", "mcts:64")
DECIDE_BATCH = 10  # games played at a time by a pairing with a sequential test
HALF = Fraction(1, 2)


def pairings(rungs: Sequence[str]) -> list[tuple[int, int]]:
    """Every pair of rungs, lower first, in order."""
    return [(i, j) for i in range(len(rungs)) for j in range(i + 1, len(rungs))]


class Tally:
    """The points two bots took off each other, game by game."""

    def __init__(self) -> None:
        self.games = 0
        self.points = [Fraction(0), Fraction(0)]  # lower rung, higher rung
        self.squares = Fraction(0)  # of the higher rung's per-game share
        self.test: Sprt | None = None  # a sequential test that may end the pairing early
        self.most = 0  # the games the pairing may play

    @property
    def decision(self) -> str | None:
        """The sequential test's state (H0, H1 or continue), or None without one."""
        return None if self.test is None else self.test.state

    def add(self, record: Record, low: str, high: str) -> None:
        winners = record["winners"]
        bots = record["bots"]
        self.games += 1
        if not winners:
            share = [Fraction(1, 2), Fraction(1, 2)]  # a draw: half to each
        else:
            each = Fraction(1, len(winners))
            got = [sum((each for s in winners if bots[s] == name), Fraction(0))
                   for name in (low, high)]
            total = got[0] + got[1]
            share = [g / total for g in got] if total else [Fraction(1, 2)] * 2
        self.points[0] += share[0]
        self.points[1] += share[1]
        self.squares += share[1] * share[1]
        if self.test is not None:
            self.test.add(HALF, share[1])


def decide(test: Sprt | None, games: int) -> Tally:
    """An empty tally of a pairing of at most ``games`` games, ended early by ``test``."""
    tally = Tally()
    tally.test, tally.most = test, games
    return tally


def play_pairing(low: str, high: str, play: Play, games: int, test: Sprt | None = None,
                 batch: int = DECIDE_BATCH) -> Tally:
    """The tally of one pairing: ``games`` games, or (with ``test``) batches of ``batch``
    until the test decides; games of a batch after the decision are not counted."""
    tally = decide(test, games)
    if test is None:
        for record in play((low, high), range(games)):
            tally.add(record, low, high)
        return tally
    while tally.games < games and tally.decision == GOING:
        wanted = range(tally.games, min(games, tally.games + batch))
        got = {r["game"]: r for r in play((low, high), wanted)}
        for k in wanted:
            if tally.decision != GOING:
                break
            tally.add(got[k], low, high)
    return tally


def ladder(rungs: Sequence[str], play: Play, games: int,
           sequential: tuple[float, float, float] | None = None) -> dict[str, Any]:
    """Play every pairing and rate the rungs (see the module docstring); ``sequential``
    (alpha, beta, effect) ends each pairing when its sequential test decides."""
    if len(rungs) < 2:
        raise ValueError("a ladder needs at least two rungs")
    if len(set(rungs)) != len(rungs):
        raise ValueError("a rung is named twice")
    tallies: dict[tuple[int, int], Tally] = {}
    for i, j in pairings(rungs):
        test = None if sequential is None else Sprt(*sequential)
        tallies[(i, j)] = play_pairing(rungs[i], rungs[j], play, games, test)
    return rate(rungs, tallies)


def rate(rungs: Sequence[str], tallies: dict[tuple[int, int], Tally]) -> dict[str, Any]:
    """The ratings and the head-to-head table of played pairings."""
    n = len(rungs)
    wins = [[0.0] * n for _ in range(n)]
    for (i, j), t in tallies.items():
        wins[i][j] += float(t.points[0])
        wins[j][i] += float(t.points[1])
    found = bradley_terry(list(rungs), wins)
    ratings = [{"bot": r.name, "elo": round(r.elo, 1), "ci": [round(r.low, 1), round(r.high, 1)],
                "games": r.games, "points": round(r.score, 3)} for r in found.ratings]
    table = []
    for (i, j), t in sorted(tallies.items()):
        total, squares = float(t.points[1]), float(t.squares)
        low, high = share_interval(total, squares, t.games)
        z, p_two = share_test(total, squares, t.games, 0.5)
        p_one = p_two / 2 if z > 0 else 1 - p_two / 2  # above one half
        table.append({"low": rungs[i], "high": rungs[j], "games": t.games,
                      "high_share": round(total / t.games, 6) if t.games else 0.0,
                      "ci": [round(low, 6), round(high, 6)], "p_above_half": round(p_one, 6),
                      "adjacent": j == i + 1, "significant": p_one < 0.05,
                      **_decision(t)})
    steps = [row for row in table if row["adjacent"]]
    return {"rungs": list(rungs), "ratings": ratings, "prior": found.prior,
            "pairings": table, "each_rung_beats_the_one_below": all(r["significant"]
                                                                   for r in steps)}


def _decision(tally: Tally) -> dict[str, Any]:
    """A sequential pairing's decision and the most games it could have played."""
    if tally.test is None:
        return {}
    state = tally.decision
    said = {"H1": "above one half" if tally.test.direction > 0 else "below one half",
            "H0": "within the effect of one half"}.get(state or "", "undecided")
    return {"decision": said, "most": tally.most}


def terminal(result: dict[str, Any]) -> str:
    """The ladder in a few lines."""
    lines = ["rating (Elo scale, lowest rung 0; 95 % interval)"]
    for r in result["ratings"]:
        lines.append(f"  {r['bot']:<24} {r['elo']:>8.1f}  [{r['ci'][0]:.1f}, {r['ci'][1]:.1f}]"
                     f"  {r['games']} games")
    if result["prior"]:
        lines.append("  (a rung won or lost every game: one virtual draw per pairing keeps "
                     "the ratings finite)")
    lines.append("head to head (the higher rung's win share, 95 % interval, one-sided p)")
    for row in result["pairings"]:
        mark = "*" if row["significant"] else " "
        lines.append(f"  {mark} {row['high']} vs {row['low']}: {100 * row['high_share']:.1f} % "
                     f"[{100 * row['ci'][0]:.1f}, {100 * row['ci'][1]:.1f}] of {row['games']}, "
                     f"p = {row['p_above_half']:.3g}"
                     + (f" (sequential test: {row['decision']}, at most {row['most']})"
                        if "decision" in row else ""))
    verdict = "yes" if result["each_rung_beats_the_one_below"] else "no"
    lines.append(f"each rung beats the one below significantly: {verdict}")
    return "\n".join(lines) + "\n"
