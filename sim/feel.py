"""How a game feels, from the bots' own evaluations: the measures Ludii's evaluation code
names (lead changes, drama, decisiveness, branching factor over time) and a kingmaking
index, per game; :class:`Feel` folds them over the games of a run.

A game's *trace* is the worth of every seat after every move, as the game's evaluation
gives it (``sim.position_values``: a seat's value minus the best of the others'); the
*leader* after a move is the seat of the greatest worth (none while two share it).

* **lead changes**: how often the leader changed (a new leader after a shared lead counts);
* **drama**: how far behind the eventual winner ever was (the largest gap between the
  best other seat's worth and the winner's), and the share of moves it was behind;
* **decisiveness**: the share of the game played before the eventual winner took the lead
  for good (0: it led from the first move; 1: only at the end);
* **branching**: the mean number of legal actions in each tenth of the game;
* **kingmaking** (3 players or more): a position where the player to move can no longer
  win but has a move that changes who would win. Judged on the scores as they stand
  after each of its legal actions (so late in the game, when the scores are close to
  final: Orbitus once the deck is empty): the mover is below the best other after every
  action, and the winners are not the same after all of them.

Standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

DECILES = 10


def leader(worth: Sequence[float]) -> int | None:
    best = max(worth)
    top = [s for s, w in enumerate(worth) if w == best]
    return top[0] if len(top) == 1 else None


def lead_changes(trace: Sequence[Sequence[float]]) -> int:
    """How often the leader changed over the game."""
    changes = 0
    last: int | None = None
    for worth in trace:
        now = leader(worth)
        if now is not None and last is not None and now != last:
            changes += 1
        if now is not None:
            last = now
    return changes


def drama(trace: Sequence[Sequence[float]], winner: int) -> tuple[float, float]:
    """``(largest deficit, share of moves behind)`` of the eventual ``winner``."""
    if not trace:
        return (0.0, 0.0)
    deficits = [max(w for s, w in enumerate(worth) if s != winner) - worth[winner]
                for worth in trace]
    behind = sum(1 for d in deficits if d > 0)
    return (max(0.0, max(deficits)), behind / len(trace))


def decisiveness(trace: Sequence[Sequence[float]], winner: int) -> float:
    """The share of the game before the eventual ``winner`` led for good."""
    n = len(trace)
    if not n:
        return 0.0
    last_not_leading = -1
    for k, worth in enumerate(trace):
        if leader(worth) != winner:
            last_not_leading = k
    return (last_not_leading + 1) / n


def branching(counts: Sequence[int]) -> list[float | None]:
    """The mean number of legal actions in each tenth of the game (None for a tenth
    without a move: a game of fewer than ten moves)."""
    n = len(counts)
    out: list[float | None] = []
    for d in range(DECILES):
        part = counts[d * n // DECILES:(d + 1) * n // DECILES]
        out.append(round(sum(part) / len(part), 3) if part else None)
    return out


def kingmaker(mover: int, outcomes: Sequence[Sequence[float]]) -> bool:
    """Whether the player to move is a kingmaker: ``outcomes`` are the scores after each
    of its legal actions; it wins after none of them, and who wins is not the same after
    all of them."""
    if len(outcomes) < 2 or len(outcomes[0]) < 3:
        return False
    winners = set()
    for scores in outcomes:
        best = max(scores)
        if scores[mover] >= best:
            return False  # it can still win (or share the win)
        winners.add(tuple(s for s, v in enumerate(scores) if v == best))
    return len(winners) > 1


def of_game(trace: Sequence[Sequence[float]], counts: Sequence[int], winners: Sequence[int],
            kingmaking: bool | None) -> dict[str, Any]:
    """The feel of one game (a record's ``feel``)."""
    out: dict[str, Any] = {"lead_changes": lead_changes(trace),
                           "branching": branching(counts), "kingmaking": kingmaking}
    if len(winners) == 1:
        deficit, behind = drama(trace, winners[0])
        out.update(drama=round(deficit, 4), behind=round(behind, 4),
                   decisiveness=round(decisiveness(trace, winners[0]), 4))
    return out


class Feel:
    """The feel of the games of one player count, added up."""

    def __init__(self) -> None:
        self.games = 0
        self.lead_changes = 0
        self.decided = 0  # games with one winner (drama and decisiveness are theirs)
        self.drama = 0.0
        self.behind = 0.0
        self.decisiveness = 0.0
        self.branching = [0.0] * DECILES
        self.branched = [0] * DECILES  # games with a move in each tenth
        self.kingmaking = 0
        self.kingmaking_games = 0

    def add(self, feel: dict[str, Any]) -> None:
        self.games += 1
        self.lead_changes += feel["lead_changes"]
        if "drama" in feel:
            self.decided += 1
            self.drama += feel["drama"]
            self.behind += feel["behind"]
            self.decisiveness += feel["decisiveness"]
        for k, b in enumerate(feel["branching"]):
            if b is not None:
                self.branching[k] += b
                self.branched[k] += 1
        if feel["kingmaking"] is not None:
            self.kingmaking_games += 1
            self.kingmaking += bool(feel["kingmaking"])

    def summary(self) -> dict[str, Any]:
        n, d = self.games, self.decided
        return {
            "games": n,
            "lead_changes": round(self.lead_changes / n, 4) if n else 0.0,
            "drama": round(self.drama / d, 4) if d else None,
            "behind": round(self.behind / d, 4) if d else None,
            "decisiveness": round(self.decisiveness / d, 4) if d else None,
            "branching": [round(b / k, 2) if k else None
                          for b, k in zip(self.branching, self.branched, strict=True)],
            "kingmaking": round(self.kingmaking / self.kingmaking_games, 4)
            if self.kingmaking_games else None,
        }
