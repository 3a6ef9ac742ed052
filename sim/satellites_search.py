"""Satellites tactics: the exact end of a game a few moves ahead, for the ``ab`` bot.

Satellites has nothing hidden (a seat's view is the whole state), so what a move leads to
can be searched exactly. Most of a game is quiet manoeuvring, where only the evaluation
(:mod:`sim.satellites_eval`) can judge; but the games the ``mcts`` bot lost against
greedy were lost at the end, to moves a short exact search sees (a replay of the lost
games, ``docs/sim.md``):

* the **grace moves** (S-39, S-40): once a player has every satellite connected, the
  other moves three times in a row. Those moves are searched in full (every move, quiet
  ones too: a quiet move sets up the connection of the next), down to the end of the
  game, so the player who is done knows what the other can still do, and the other finds
  the best sequence;
* the **replies that end the game** (S-37, the 23rd connection; or a reply that makes the
  other player done): after each move of the bot, every connection move and displacement
  of the opponent is played out and scored as it stands, the end exactly;
* a **move that wins at once** is always played.

:func:`move_values` gives every legal move its value to the mover after these replies: a
finished game is worth ±:data:`WIN` (0 a draw), anything else the evaluation. The ``ab``
bot (:class:`sim.bots.TacticalBot`) searches with ``mcts`` only among the moves within
:data:`MARGIN` of the best (a forced win alone is played at once). Standard library
only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rules.satellites.actions import PASS
from rules.satellites.analysis import controller, value_sum
from rules.satellites.engine import State, apply
from rules.satellites.legal import quiet_and_loud
from sim.satellites import SatellitesSim
from sim.satellites_eval import THREAT, action_values, position_values, threats, worth

WIN = 100.0  # a won game (a lost one is -WIN, a draw 0)
SCALE = 3.0  # the evaluation is squeezed into (-1, 1) by tanh(worth / SCALE): below a win
MARGIN = 0.15  # the moves searched further: those within this much of the best


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


def grace_best(state: State, memo: dict[Any, float] | None = None) -> float:
    """The best the player making the grace moves can reach (to that player): every
    sequence of its remaining grace moves, down to the end of the game (S-37, S-39)."""
    if memo is None:
        memo = {}
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
        best = max(best, grace_best(apply(state, action), memo))
        if best >= WIN:
            break
    if state.grace_left > 1 and best < WIN:
        for action in (quiet if (quiet or loud) else [PASS]):
            best = max(best, grace_best(apply(state, action), memo))
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


def move_values(view: State, legal: Sequence[int]) -> list[tuple[float, int]]:
    """``(value to the mover, move)`` for every legal move (:func:`reply_value`), a quiet
    move also given the small term of what it prepares (:func:`threats`)."""
    seat = view.to_move
    opp = view.blue if seat == 0 else view.red
    orth = view.table.orth_mask
    out = []
    for action in legal:
        reached = apply(view, action)
        value = reply_value(reached, seat)
        quiet = action != PASS and action & 1023 == 0 and not orth[action >> 10 & 1023] & opp
        if quiet and abs(value) < WIN:
            value += THREAT * threats(view, action, risk=True) / SCALE
        out.append((value, action))
    return out


def candidates(view: State, legal: Sequence[int]) -> list[int]:
    """The moves worth searching further: those within :data:`MARGIN` of the best value
    (a won game: only the moves that win it), in the order of ``legal``."""
    values = move_values(view, legal)
    best = max(v for v, _ in values)
    floor = best if best >= WIN else best - MARGIN
    return [a for v, a in values if v >= floor]


# --- alpha-beta ------------------------------------------------------------------------------


class OutOfNodes(Exception):
    """The search reached its cap of positions (the deepening keeps the last finished
    depth)."""


class Search:
    """Negamax alpha-beta over every legal move to a depth, the leaves searched on through
    the connection moves and displacements (a quiet move is the standing pat: the
    position as it is), a finished game scored exactly. The player making grace moves
    moves again at once (S-40), so a node's value is always for the player to move there.
    ``nodes`` counts the positions reached."""

    def __init__(self, quiescence: int = 2, cap: int = 1 << 62) -> None:
        self.nodes = 0
        self.quiescence = quiescence
        self.cap = cap  # positions at most: past it the search gives up (:class:`OutOfNodes`)

    def value(self, state: State, depth: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.nodes > self.cap:
            raise OutOfNodes
        if state.ended is not None:
            return exact(state, state.to_move)
        if depth <= 0:
            return self.quiesce(state, alpha, beta, self.quiescence)
        best = -2 * WIN
        for action in self.ordered(state):
            child = apply(state, action)
            if child.to_move == state.to_move and child.ended is None:
                v = self.value(child, depth - 1, alpha, beta)
            else:
                v = -self.value(child, depth - 1, -beta, -alpha)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best

    def ordered(self, state: State) -> list[int]:
        quiet, loud = quiet_and_loud(state)
        if not quiet and not loud:
            return [PASS]
        return [*loud, *quiet]

    def quiesce(self, state: State, alpha: float, beta: float, left: int) -> float:
        seat = state.to_move
        stand = static(state, seat)
        if left <= 0 or stand >= beta:
            return stand
        best = stand
        if stand > alpha:
            alpha = stand
        _, loud = quiet_and_loud(state)
        for action in loud:
            self.nodes += 1
            child = apply(state, action)
            if child.ended is not None:
                v = exact(child, seat)
            elif child.to_move == seat:
                v = self.quiesce(child, alpha, beta, left - 1)
            else:
                v = -self.quiesce(child, -beta, -alpha, left - 1)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best


def best_moves(view: State, legal: Sequence[int], nodes: int,
               rng: Any) -> tuple[list[int], int, float]:
    """The moves of the best value by alpha-beta (:class:`Search`), deepened one ply at a
    time while the positions searched stay within ``nodes`` (the depth reached and the
    best value are returned too). Equal values keep the moves' order in ``legal``,
    shuffled by ``rng`` (so a game's seed decides among them)."""
    order = list(legal)
    rng.shuffle(order)
    search = Search(cap=nodes)
    chosen = order
    value = 0.0
    depth = 0
    spent = 0
    while True:
        depth += 1
        search.nodes = spent
        values = []
        seat = view.to_move
        floor = -2 * WIN  # below the best value so far: only a bound is needed
        try:
            for action in order:
                child = apply(view, action)
                if child.to_move == seat and child.ended is None:
                    v = search.value(child, depth - 1, floor, 2 * WIN)
                else:
                    v = -search.value(child, depth - 1, -2 * WIN, -floor)
                values.append((v, action))
                floor = max(floor, v - 1e-9)
        except OutOfNodes:
            return chosen, depth - 1, value
        best = max(v for v, _ in values)
        chosen = [a for v, a in values if v == best]
        spent = search.nodes
        value = best
        if abs(best) >= WIN or depth >= 8:
            return chosen, depth, value
        # the next ply costs about the branching factor times this one
        order = [a for _, a in sorted(values, key=lambda va: -va[0])]


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


class TacticalSim(SatellitesSim):
    """The adapter the ``tactics`` bot searches with: Satellites with the evaluation that
    judges a colony against the satellites that could still turn it
    (:func:`sim.satellites_eval.at_risk`)."""

    def action_values(self, public: None, view: State, legal: Sequence[int],
                      state: State | None = None) -> list[tuple[float, int]]:
        return action_values(view, list(legal), quiet_terms=state is None, risk=True)

    def position_values(self, state: State) -> tuple[float, float]:
        return position_values(state, risk=True)


TACTICAL = TacticalSim()
