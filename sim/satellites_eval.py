"""What a Satellites position is worth to each colour: the search bots' evaluation.

The game is decided by colonies controlled, then by the tie-break (the cheapest colony
anyone controls wins). A position is worth, to red, the colonies red controls minus those
blue controls, where

* a crowned colony (it can grow no further, so its controller is settled) counts 1 and
  one that can still grow less, the less the smaller its controller's value margin
  (:func:`held`: a satellite added may turn it; with ``risk``, the ``tactics`` bot's
  evaluation, :func:`at_risk` judges the margin against the other colour's unconnected
  satellites instead);
* a pair counts :data:`PAIR` for the colour with more value in it (the start of a colony);
* while the colonies are level, whoever would win the tie-break gets :data:`TIE_BREAK`
  (half of it while they are one apart);
* a player who has every satellite connected loses :data:`GRACE_RISK` for each grace
  move the other still has (moves in a row, unanswered);
* with ``risk`` (the ``tactics`` bot), each unconnected satellite counts
  :data:`MATERIAL` for its colour: the player who runs out of free satellites first can
  neither answer the other's free ones nor connect its last without handing over the
  grace moves (most games the bot lost to greedy ended so, ``docs/sim.md``).

Blue's worth is the negative. The one-ply values of the legal moves (the order in which
the search tries them, and what the ``value`` bot plays) add, for a move that connects
nothing, a small term for what it prepares: how many connection moves that would gain a
colony it leaves the mover next turn, against those the opponent has (:func:`threats`),
so quiet moves are no longer chosen at random. Standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rules.satellites.actions import PASS
from rules.satellites.analysis import controller, value_sum
from rules.satellites.engine import State, apply
from rules.satellites.legal import quiet_and_loud
from rules.satellites.ruleset import COLOURS

PAIR = 0.3  # a pair, for the colour with more value in it
TIE_BREAK = 0.5  # the colour that would win the tie-break while the colonies are level
THREAT = 0.05  # each gaining connection a quiet move leaves its mover (or denies)
GRACE_RISK = 0.4  # what each grace move the other player still has may cost the one done
MATERIAL = 0.15  # each unconnected satellite, for its colour (risk: the tactics bot)


def held(margin: int, room: int) -> float:
    """How surely a colony with this value margin and room for this many more satellites
    stays with its controller: 1 for a crowned one; less the smaller the margin against
    what the room could bring (4 a satellite at most)."""
    if room <= 0:
        return 1.0
    return 0.5 + 0.5 * math.tanh(margin / (1.5 * min(room, 2)))


def free_values(state: State) -> tuple[list[int], list[int]]:
    """The values of each colour's unconnected satellites (red's, blue's), highest first:
    what can still join a colony and turn it."""
    loose = ~state.conn
    red, blue = state.red & loose, state.blue & loose
    vals = state.vals
    out: tuple[list[int], list[int]] = ([], [])
    for v in range(len(vals) - 1, 0, -1):
        out[0].extend([v] * (vals[v] & red).bit_count())
        out[1].extend([v] * (vals[v] & blue).bit_count())
    return out


def at_risk(margin: int, room: int, against: Sequence[int]) -> float:
    """How surely a colony with this value margin and room for this many more satellites
    stays with its controller, when the other colour's unconnected satellites have the
    values ``against`` (highest first): 1 when even the largest of them, as many as there
    is room for, cannot level it; else less, the smaller the margin against the largest
    one (a margin of 3 falls to a single 4)."""
    if room <= 0 or sum(against[:room]) < margin:
        return 1.0
    return 0.5 + 0.5 * math.tanh((margin - against[0] + 0.5) / 1.5)


def group_worth(state: State, g: int, risk: bool = False,
                free: tuple[list[int], list[int]] | None = None) -> float:
    """What one group is worth to red (negative: to blue), the tie-break left out; with
    ``risk`` a colony that can still grow is judged by :func:`at_risk` against the other
    colour's unconnected satellites (``free``: :func:`free_values`, found if not given),
    else by :func:`held`."""
    rules = state.ruleset
    vals = state.vals
    size = g.bit_count()
    r, b = value_sum(vals, g & state.red), value_sum(vals, g & state.blue)
    if r == b:
        return 0.0
    side = 1.0 if r > b else -1.0
    if size >= rules.colony_min:
        # a colony that can still grow may still be turned by what joins it
        if size >= rules.colony_max:
            return side
        if risk:
            if free is None:
                free = free_values(state)
            return side * at_risk(abs(r - b), rules.colony_max - size, free[1 if r > b else 0])
        return side * held(abs(r - b), rules.colony_max - size)
    if size == rules.colony_min - 1:
        return side * PAIR
    return 0.0


def worth(state: State, risk: bool = False) -> float:
    """What the position is worth to red (blue's worth is its negative); ``risk``: colonies
    judged by :func:`at_risk`."""
    rules = state.ruleset
    vals, red, blue = state.vals, state.red, state.blue
    score = 0.0
    colonies = [0, 0]
    lowest: list[int | None] = [None, None]
    free = free_values(state) if risk else None
    for g in state.groups:
        score += group_worth(state, g, risk, free)
        if g.bit_count() >= rules.colony_min:
            r, b = value_sum(vals, g & red), value_sum(vals, g & blue)
            if r != b:
                k = 0 if r > b else 1
                colonies[k] += 1
                if lowest[k] is None or r + b < lowest[k]:  # type: ignore[operator]
                    lowest[k] = r + b
    if state.finished is not None and state.ended is None:
        # the other player's grace moves come in a row: set up and connect, unanswered
        score += GRACE_RISK * state.grace_left * (-1.0 if state.finished == 0 else 1.0)
    score += tie_break(colonies, lowest)
    if risk:
        loose = ~state.conn
        score += MATERIAL * ((red & loose).bit_count() - (blue & loose).bit_count())
    return score


def tie_break(colonies: Sequence[int], lowest: Sequence[int | None]) -> float:
    """Red's share of the tie-break (S-47): whoever holds the cheapest colony gets
    :data:`TIE_BREAK` while the colonies are level, half that when they are one apart
    (one colony can level them)."""
    low_r, low_b = lowest
    if low_r is None and low_b is None:
        return 0.0
    if low_b is None or (low_r is not None and low_r < low_b):
        sign = 1.0
    elif low_r is None or low_b < low_r:
        sign = -1.0
    else:
        return 0.0
    gap = abs(colonies[0] - colonies[1])
    return sign * (TIE_BREAK if gap == 0 else TIE_BREAK / 2 if gap == 1 else 0.0)


def colonies(state: State, seat: int) -> int:
    """The colonies ``seat`` controls (``GAME.scores(state)[seat]``, read from the groups
    the state keeps up to date, each decided by the rules core's ``controller``; a test
    checks it against the scorer)."""
    colour = COLOURS[seat]
    rules, vals, red, blue = state.ruleset, state.vals, state.red, state.blue
    return sum(1 for g in state.groups
               if controller(rules, g.bit_count(), value_sum(vals, g & red),
                             value_sum(vals, g & blue)) == colour)


def changed_groups(before: State, after: State, action: int) -> tuple[list[int], list[int]]:
    """The groups a move makes and those of before it swallows: the satellites that move
    were unconnected (connected ones never move), so only the groups holding the cells
    they land on are new, and connections only grow."""
    landed = 1 << (action >> 10 & 1023)
    push = (action & 1023) - 1
    if push >= 0:
        landed |= 1 << push
    new = [g for g in after.groups if g & landed]
    region = 0
    for g in new:
        region |= g
    return new, [g for g in before.groups if g & region]


def change(before: State, after: State, action: int, risk: bool = False) -> float:
    """How much a move changes red's worth, the tie-break left out."""
    new, gone = changed_groups(before, after, action)
    return (sum(group_worth(after, g, risk) for g in new)
            - sum(group_worth(before, g, risk) for g in gone))


def position_values(state: State, risk: bool = False) -> tuple[float, float]:
    """Each seat's worth (red, blue)."""
    w = worth(state, risk)
    return (w, -w)


def gains(state: State, risk: bool = False) -> int:
    """How many of the player to move's connection moves would raise its worth (the
    tie-break left out)."""
    _, loud = quiet_and_loud(state)
    if not loud:
        return 0
    sign = 1.0 if state.to_move == 0 else -1.0
    return sum(1 for a in loud if sign * change(state, apply(state, a), a, risk) > 1e-9)


def threats(state: State, action: int, risk: bool = False) -> int:
    """What a quiet move prepares: the gaining connections the mover would have if it
    moved again, minus those the opponent has now."""
    after = apply(state, action)
    mine = gains(after._replace(to_move=state.to_move), risk)
    theirs = gains(after, risk)
    return mine - theirs


def action_values(view: State, legal: Sequence[int], quiet_terms: bool = True,
                  risk: bool = False) -> list[tuple[float, int]]:
    """``(worth to the mover after the move, move)`` for every legal move; quiet moves
    (which change no group) get the small :func:`threats` term when ``quiet_terms``."""
    sign = 1.0 if view.to_move == 0 else -1.0
    base = sign * worth(view, risk)
    opp = view.blue if view.to_move == 0 else view.red
    orth = view.table.orth_mask
    out = []
    for action in legal:
        if action == PASS:
            out.append((base, action))
            continue
        quiet = action & 1023 == 0 and not orth[action >> 10 & 1023] & opp
        if quiet:
            out.append((base + (THREAT * threats(view, action, risk) if quiet_terms else 0.0),
                        action))
        else:
            out.append((sign * worth(apply(view, action), risk), action))
    return out


def still_legal(state: Any, action: Any) -> bool:
    """Nothing is hidden: an action found legal on a path is legal on it in every deal."""
    return True
