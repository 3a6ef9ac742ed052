"""Ratings from head-to-head results: the Bradley-Terry model on the Elo scale, with
intervals (``pnp sim ladder``).

Each player *i* has a strength ``g_i``; *i* beats *j* with probability ``g_i / (g_i +
g_j)``. A drawn or shared game counts half a win to each side (the usual Elo practice).
The strengths are the maximum-likelihood fit, found by Hunter's MM algorithm (2004);
the ratings are ``400 log10(g_i)``, shifted so that the anchor (the first player, the
lowest rung of a ladder) is 0. The interval of each rating comes from the inverse of the
Fisher information of ``log g`` with the anchor held fixed, so it is the uncertainty of
the rating *relative to the anchor*. Two ratings 400 apart mean the stronger wins 10 of
11 games.

When a player won (or lost) every game it played, the fit runs off to infinity; then
one virtual draw is added to every pairing that was played (a small prior, said in the
result) so that every rating stays finite. Standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from sim.stats import Z95

ELO = 400 / math.log(10)  # Elo points per unit of log-strength


@dataclass(frozen=True)
class Rating:
    name: str
    elo: float
    se: float
    low: float
    high: float
    games: int
    score: float  # points won (a draw counts 1/2)


@dataclass(frozen=True)
class Ratings:
    ratings: tuple[Rating, ...]
    prior: bool  # whether virtual draws were added (a player won or lost every game)

    def by_name(self) -> dict[str, Rating]:
        return {r.name: r for r in self.ratings}


def expected(elo_a: float, elo_b: float) -> float:
    """The share of the games A wins against B at these ratings."""
    return 1 / (1 + 10 ** ((elo_b - elo_a) / 400))


def _needs_prior(names: Sequence[str], games: list[list[float]],
                 wins: list[list[float]]) -> bool:
    n = len(names)
    for i in range(n):
        played = sum(games[i][j] for j in range(n) if j != i)
        won = sum(wins[i][j] for j in range(n) if j != i)
        if played > 0 and (won <= 0 or won >= played):
            return True
    return False


def bradley_terry(names: Sequence[str], wins: Sequence[Sequence[float]],
                  z: float = Z95) -> Ratings:
    """Ratings of ``names`` from ``wins[i][j]``: the points *i* took from its games
    against *j* (a draw 1/2 to each). ``wins[i][j] + wins[j][i]`` is the number of games
    between them. The first name is the anchor (rating 0)."""
    n = len(names)
    if n < 2:
        raise ValueError("ratings need at least two players")
    w = [[float(wins[i][j]) if i != j else 0.0 for j in range(n)] for i in range(n)]
    games = [[w[i][j] + w[j][i] for j in range(n)] for i in range(n)]
    _check_connected(names, games)
    prior = _needs_prior(names, games, w)
    if prior:
        for i in range(n):
            for j in range(n):
                if i != j and games[i][j] > 0:
                    w[i][j] += 0.5
        games = [[w[i][j] + w[j][i] for j in range(n)] for i in range(n)]
    total = [sum(w[i]) for i in range(n)]
    g = [1.0] * n
    for _ in range(100_000):
        new = []
        for i in range(n):
            denominator = sum(games[i][j] / (g[i] + g[j]) for j in range(n)
                              if j != i and games[i][j] > 0)
            new.append(total[i] / denominator if denominator > 0 else g[i])
        scale = new[0]
        new = [x / scale for x in new]
        change = max(abs(math.log(a) - math.log(b)) for a, b in zip(new, g, strict=True))
        g = new
        if change < 1e-13:
            break
    theta = [math.log(x) for x in g]
    ses = _standard_errors(theta, games)
    out = []
    for i, name in enumerate(names):
        elo = ELO * (theta[i] - theta[0])
        se = ELO * ses[i]
        played = int(round(sum(float(wins[i][j]) + float(wins[j][i]) for j in range(n)
                               if j != i)))
        score = sum(float(wins[i][j]) for j in range(n) if j != i)
        out.append(Rating(name, elo, se, elo - z * se, elo + z * se, played, score))
    return Ratings(tuple(out), prior)


def _check_connected(names: Sequence[str], games: list[list[float]]) -> None:
    n = len(names)
    seen = {0}
    todo = [0]
    while todo:
        i = todo.pop()
        for j in range(n):
            if j not in seen and games[i][j] > 0:
                seen.add(j)
                todo.append(j)
    if len(seen) < n:
        alone = ", ".join(names[i] for i in range(n) if i not in seen)
        raise ValueError(f"{alone} played no games linking them to {names[0]}; their "
                         f"ratings cannot be compared")


def _standard_errors(theta: list[float], games: list[list[float]]) -> list[float]:
    """The standard error of each log-strength with the first one held at 0: the square
    roots of the diagonal of the inverse Fisher information (the anchor's row and column
    left out)."""
    n = len(theta)
    info = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j and games[i][j] > 0:
                p = 1 / (1 + math.exp(theta[j] - theta[i]))
                v = games[i][j] * p * (1 - p)
                info[i][i] += v
                info[i][j] -= v
    sub = [row[1:] for row in info[1:]]
    inverse = _invert(sub)
    return [0.0] + [math.sqrt(max(0.0, inverse[k][k])) for k in range(n - 1)]


def _invert(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a small symmetric positive-definite matrix (Gauss-Jordan)."""
    n = len(matrix)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-300:
            raise ValueError("the results do not determine the ratings")
        a[col], a[pivot] = a[pivot], a[col]
        p = a[col][col]
        a[col] = [x / p for x in a[col]]
        for r in range(n):
            if r != col and a[r][col] != 0:
                f = a[r][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
    return [row[n:] for row in a]
