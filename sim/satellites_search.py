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

