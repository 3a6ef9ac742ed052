"""Satellites tactics: the exact end of a game a few moves ahead, for the ``tactics`` bot.

Satellites has nothing hidden (a seat's view is the whole state), so what a move leads to
can be searched exactly. Most of a game is quiet manoeuvring, where only the evaluation
(:mod:`sim.satellites_eval`) can judge; but some of the games the ``mcts`` bot lost
against greedy were lost at the end, to moves a short exact search sees (a replay of
the lost games, ``docs/sim.md``):

* the **grace moves** (S-39, S-40): once a player has every satellite connected, the
  other moves three times in a row. Those moves are searched in full (every move, quiet
  ones too: a quiet move sets up the connection of the next), down to the end of the
  game, so the player who is done knows what the other can still do, and the other finds
  the best sequence;
* the **replies that end the game** (S-37, the 23rd connection; or a reply that makes the
  other player done): after each move of the bot, every connection move and displacement
  of the opponent is played out and scored as it stands, the end exactly;
* a **move that wins at once** is always played.

:func:`sure_moves` keeps, of the legal moves, those the ``tactics`` bot
(:class:`sim.bots.TacticalBot`) lets ``mcts`` choose among: the moves that win by force
if there are any, else those that do not lose by force (:func:`reply_value`: a finished
game is worth ±:data:`WIN`, 0 a draw, anything else the evaluation, with colonies judged
against what could still turn them). Standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import chain
from typing import Any

from rules.satellites.actions import PASS
from rules.satellites.analysis import controller, value_sum
from rules.satellites.engine import State, apply
from rules.satellites.legal import quiet_and_loud
from sim.satellites_eval import worth

WIN = 100.0  # a won game (a lost one is -WIN, a draw 0)
SCALE = 3.0  # the evaluation is squeezed into (-1, 1) by tanh(worth / SCALE): below a win


def outcome(state: State) -> int:
    """+1 if red would win were the game to end now, -1 blue, 0 a draw (S-46 to S-48)."""
    rules, vals, red, blue = state.ruleset, state.vals, state.red, state.blue
    colonies = [0, 0]
    lowest = [1 << 30, 1 << 30]
    for g in state.groups:
        size = g.bit_count()
        if size < rules.colony_min:
            continue
        r, b = value_sum(vals, g & red), value_sum(vals, g & blue)
        owner = controller(rules, size, r, b)
        if owner is None:
            continue
        k = 0 if owner == "red" else 1
        colonies[k] += 1
        lowest[k] = min(lowest[k], r + b)
    if colonies[0] != colonies[1]:
        return 1 if colonies[0] > colonies[1] else -1
    if lowest[0] == lowest[1]:
        return 0  # no colony, or the same lowest total: a draw
    return 1 if lowest[0] < lowest[1] else -1


def exact(state: State, seat: int) -> float:
    """What a finished game (or one scored as it stands) is worth to ``seat``."""
    won = outcome(state)
    return WIN * (won if seat == 0 else -won)


def static(state: State, seat: int) -> float:
    """What an unfinished position is worth to ``seat`` by the evaluation, in (-1, 1)."""
    w = math.tanh(worth(state, risk=True) / SCALE)
    return w if seat == 0 else -w


def grace_best(state: State, memo: dict[Any, float] | None = None,
               mover: int | None = None) -> float:
    """The best the player making the grace moves (``mover``, default: the player to move)
    can reach, to that player: every sequence of its remaining grace moves, down to the
    end of the game (S-37, S-39; the move that ends it by the count hands the turn on)."""
    if memo is None:
        memo = {}
    if mover is None:
        mover = state.to_move
    if state.ended is not None:
        return exact(state, mover)
    key = (state.red, state.blue, state.grace_left)
    got = memo.get(key)
    if got is not None:
        return got
    quiet, loud = quiet_and_loud(state)
    # the last grace move: a quiet move changes nothing, the board is scored as it stands
    best = exact(state, mover) if (quiet or not loud) and state.grace_left <= 1 else -2 * WIN
    for action in loud:
        best = max(best, grace_best(apply(state, action), memo, mover))
        if best >= WIN:
            break
    if state.grace_left > 1 and best < WIN:
        for action in (quiet if (quiet or loud) else [PASS]):
            best = max(best, grace_best(apply(state, action), memo, mover))
            if best >= WIN:
                break
    memo[key] = best
    return best


def after(state: State, seat: int, deep: bool) -> float:
    """What ``state`` is worth to ``seat`` when it is reached by a move: exact once the game
    is over or in the grace moves (searched to the end only when ``deep``), else the
    evaluation."""
    if state.ended is not None:
        return exact(state, seat)
    if state.finished is not None:
        if not deep:
            return static(state, seat)
        best = grace_best(state)
        return best if state.to_move == seat else -best
    return static(state, seat)


def reply_value(state: State, seat: int) -> float:
    """What the position after a move of ``seat`` is worth to it, the opponent answering
    with the best of its connection moves and displacements or a quiet move (which
    changes nothing: the position as it stands)."""
    if state.ended is not None or state.finished is not None:
        return after(state, seat, deep=True)
    value = static(state, seat)
    _, loud = quiet_and_loud(state)
    for action in loud:
        value = min(value, after(apply(state, action), seat, deep=False))
        if value <= -WIN:
            break
    return value


def sure_moves(view: State, legal: Sequence[int]) -> list[int]:
    """The moves a search should choose among: a move that wins by force alone (the
    game ends won at once, in the grace moves, or whatever the opponent answers at once),
    else every move that does not lose by force the same way (all of them if each
    does); in the grace moves, the moves of the best sequence."""
    seat = view.to_move
    values = [(reply_value(apply(view, a), seat), a) for a in legal]
    best = max(v for v, _ in values)
    if best >= WIN or view.finished is not None:
        return [a for v, a in values if v >= best]
    kept = [a for v, a in values if v > -WIN]
    return kept or list(legal)



# --- a deeper look: alpha-beta with the connections searched on ----------------------------

QUIESCE = 4  # plies of connections (and displacements) searched on after the full-width ones
KEEP = 0.05  # a move is kept when its value is within this much of the best move's
DEEP_NODES = 2000  # the nodes a decision's deeper look may search (else it keeps every move)


class Spent(Exception):
    """The node budget of a decision is used up."""


class Deep:
    """One decision's alpha-beta search, values from red's side (red maximises, blue
    minimises, whoever is to move: so the grace moves, where one player moves several times
    in a row, need no sign turned): ``depth`` full-width plies (every legal move), then
    quiescence: the connections and displacements of the side to move, which may instead
    stop with a quiet move (the position as it stands, :func:`static`), :data:`QUIESCE`
    plies deep. A finished game is exact (:func:`exact`); a position in the grace moves is
    judged by the evaluation, as :func:`after` judges it unsearched. :class:`Spent` is
    raised after ``most`` nodes."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.nodes = 0

    def _enter(self, state: State) -> float | None:
        """Count a node; the value of a position not searched on (over, or in the grace
        moves), else None."""
        self.nodes += 1
        if self.nodes > self.most:
            raise Spent
        if state.ended is not None:
            return exact(state, 0)
        if state.finished is not None:
            return static(state, 0)
        return None

    def quiesce(self, state: State, alpha: float, beta: float, left: int,
                stand: float | None = None) -> float:
        """The value of ``state`` with only connections and displacements searched on
        (``stand``: its evaluation, when known)."""
        got = self._enter(state)
        if got is not None:
            return got
        if stand is None:
            stand = static(state, 0)
        quiet, loud = quiet_and_loud(state)
        if left <= 0 or not loud:
            return stand
        red = state.to_move == 0
        if quiet:  # the side to move may keep the position as it stands
            if red:
                if stand >= beta:
                    return stand
                alpha = max(alpha, stand)
            elif stand <= alpha:
                return stand
            else:
                beta = min(beta, stand)
            best = stand
        else:
            best = -2 * WIN if red else 2 * WIN
        for child, evaluated in self.ordered(state, loud, red):
            best, alpha, beta = _backed_up(
                red, self.quiesce(child, alpha, beta, left - 1, evaluated), best, alpha, beta)
            if alpha >= beta:
                break
        return best

    def ordered(self, state: State, loud: Sequence[int],
                red: bool) -> list[tuple[State, float]]:
        """The positions the connections and displacements lead to, with their
        evaluation, the best for the mover first (equal ones: red's last listed first,
        blue's first)."""
        children = [apply(state, a) for a in loud]
        scored = sorted(((static(c, 0), k) for k, c in enumerate(children)), reverse=red)
        return [(children[k], v) for v, k in scored]

    def value(self, state: State, depth: int, alpha: float, beta: float) -> float:
        """The value of ``state`` searched ``depth`` full-width plies, then quiescence;
        fail-soft (a value at or below ``alpha`` is an upper bound, at or above ``beta``
        a lower one)."""
        if depth <= 0:
            return self.quiesce(state, alpha, beta, QUIESCE)
        got = self._enter(state)
        if got is not None:
            return got
        quiet, loud = quiet_and_loud(state)
        red = state.to_move == 0
        moves = chain((c for c, _ in self.ordered(state, loud, red)),
                      (apply(state, a) for a in (quiet or ([] if loud else [PASS]))))
        best = -2 * WIN if red else 2 * WIN
        for child in moves:
            best, alpha, beta = _backed_up(
                red, self.value(child, depth - 1, alpha, beta), best, alpha, beta)
            if alpha >= beta:
                break
        return best


def _backed_up(red: bool, v: float, best: float, alpha: float,
               beta: float) -> tuple[float, float, float]:
    """A child's value ``v`` taken into its parent's best and window: red maximises
    (raising ``alpha``), blue minimises (lowering ``beta``)."""
    if red:
        return max(best, v), max(alpha, v), beta
    return min(best, v), alpha, min(beta, v)


def deep_moves(view: State, legal: Sequence[int], most: int = DEEP_NODES,
               depths: Sequence[int] = (1,)) -> list[int]:
    """Of ``legal`` (the moves :func:`sure_moves` keeps), those whose value to the mover
    after a deeper look is within :data:`KEEP` of the best move's: each move is played and
    the position after it searched by :class:`Deep` (``depth`` - 1 full-width plies, then
    the connections of both sides), by iterative deepening over ``depths`` while the node
    budget ``most`` lasts; the last depth searched to the end decides (none: every move of
    ``legal`` is kept). A move that ends the game or starts the grace moves is judged
    exactly, as :func:`reply_value` judges it.

    At the default, one ply (the move, then both sides' connections four plies deep, each
    side free to stop with a quiet move), this drops the moves after which the opponent
    wins material by a chain of connections the one-reply look of :func:`sure_moves` does
    not follow; deeper looks cost too much for a game's hundreds of moves
    (``docs/sim.md``)."""
    seat = view.to_move
    search = Deep(most)
    kept = list(legal)
    children = [(a, apply(view, a)) for a in legal]
    for depth in depths:
        values: list[tuple[float, int]] = []
        best = -3 * WIN
        try:
            for action, child in children:
                if child.finished is not None or child.ended is not None:
                    v = after(child, seat, deep=True)
                elif seat == 0:  # only whether a move comes within KEEP of the best counts
                    v = search.value(child, depth - 1, best - KEEP, 2 * WIN)
                else:
                    v = -search.value(child, depth - 1, -2 * WIN, KEEP - best)
                values.append((v, action))
                best = max(best, v)
        except Spent:
            break
        kept = [a for v, a in values if v >= best - KEEP]
        rank = {a: v for v, a in values}
        children.sort(key=lambda c: -rank[c[0]])  # the next depth tries the best first
    return kept
