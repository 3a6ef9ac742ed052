"""Satellites endgames solved exactly: the ``tactics`` bot's play once few satellites are free.

Most games the ``tactics`` bot did not win against greedy were decided in a long quiet
phase with one or two satellites free in all (``docs/sim.md``): game 102 of the seed-1
run, red's R1 against blue's B3 with 22 satellites connected, red ahead on the board and
unable to connect; greedy, moving its B3 at random, found the connection 386 moves later.
Such a position has few successors (each free satellite on one of some 75 empty cells,
about 11,000 positions for two of them), so it is solved here, with the rules core's own
legal moves, moves and end (:mod:`rules.satellites`) and its scoring of the board
(``standing_of``, S-46 to S-48); nothing of a rule is written a second time.

**How.** Connections only ever grow (S-21), so the positions with the same connected
satellites (and the same grace moves) form a *class*; a move either stays in its class (a
normal move, a pass) or leaves it for good (a connection, a displacement, a grace move,
the end). A class is solved after the classes its moves leave for, by retrograde
analysis: for each threshold (red at least a draw, red a win) the side that needs a
connection to get there tries to force one of the exits that gives it, the other to stay
in the class (Zermelo's attractor, level by level, so each position also knows in how
many moves the connection can be forced); play that stays in a class for ever ends by
S-62 and is scored as the board stands, which is the class's own value (the board's
groups do not change while nothing connects).

**The stall count.** The solution leaves out S-62's count of moves without a connection;
a forced connection that would need more moves than the count has left is not trusted
(:func:`best_moves` gives ``None`` and the bot searches as before).

Values are from red's side: +1 red wins, 0 a draw, -1 blue wins. Solved positions are kept
(:data:`MOST_KEPT` at most, then forgotten): a game's later moves look them up. What is
kept changes only the time a move takes, never the move. Standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.satellites import GAME
from rules.satellites.engine import END_STALLED, State, apply, standing_of
from rules.satellites.ruleset import COLOURS

FREE_MOST = 2  # free satellites in all (both colours), at most, for a position to be solved
MOST_KEPT = 100_000  # solved positions kept before they are forgotten

Key = tuple[int, int, tuple[int, ...], int, "int | None", int]
Solved = tuple[int, int, int]  # value (red's side), moves to force it (0: held), the class's value

_SOLVED: dict[Key, Solved] = {}


def key(state: State) -> Key:
    """What a position is, S-62's count left out (the connections follow from the cells)."""
    return (state.red, state.blue, state.vals, state.to_move, state.finished,
            state.grace_left)


def free(state: State) -> int:
    """How many satellites of both colours are not connected."""
    return ((state.red | state.blue) & ~state.conn).bit_count()


def board_value(state: State) -> int:
    """Who wins were the game scored now (S-46 to S-48, the rules core's standing), from
    red's side."""
    winner = standing_of(state).winner
    return 0 if winner is None else (1 if winner == COLOURS[0] else -1)


def _child(state: State, action: int) -> State:
    after = apply(state, action)
    if after.ended == END_STALLED:  # the count is left out of the solution (see above)
        after = apply(state._replace(quiet=0), action)
    return after


def _value_of(state: State) -> int:
    """The solved value of a position a move leaves its class for."""
    if state.ended is not None:
        return board_value(state)
    got = _SOLVED.get(key(state))
    if got is None:
        _solve(state)
        got = _SOLVED[key(state)]
    return got[0]


def _solve(root: State) -> None:
    """Solve ``root``'s class: every position its normal moves and passes reach."""
    root = root._replace(quiet=0)
    kind = (root.conn, root.finished, root.grace_left)
    index = {key(root): 0}
    states = [root]
    movers: list[int] = []
    inside: list[list[int]] = []  # per position: the positions of the class its moves reach
    exits: list[list[int]] = []  # per position: the values of the moves that leave the class
    done: list[bool] = []  # the game is over (S-41, neither player can move)
    k = 0
    while k < len(states):
        state = states[k]
        k += 1
        movers.append(state.to_move)
        here: list[int] = []
        away: list[int] = []
        legal = GAME.legal_actions(state)
        done.append(not legal)
        for action in legal:
            after = _child(state, action)
            if after.ended is None and (after.conn, after.finished, after.grace_left) == kind:
                at = key(after)
                j = index.get(at)
                if j is None:
                    j = index[at] = len(states)
                    states.append(after)
                here.append(j)
            else:
                away.append(_value_of(after))
        inside.append(here)
        exits.append(away)
    stall = board_value(root)  # the class's value: play that stays in it ends by S-62
    n = len(states)
    before: list[list[int]] = [[] for _ in range(n)]
    for i, here in enumerate(inside):
        for j in here:
            before[j].append(i)
    levels: dict[int, list[int]] = {}
    for threshold in (0, 1):
        levels[threshold] = _attractor(threshold, stall, movers, inside, exits, done, before)
    if len(_SOLVED) + n > MOST_KEPT:
        _SOLVED.clear()
    for i, state in enumerate(states):
        at_least_draw = (levels[0][i] > 0) == (stall < 0)
        win = (levels[1][i] > 0) == (stall < 1)
        value = -1 + at_least_draw + win
        if value > stall:
            depth = levels[value][i]
        elif value < stall:
            depth = levels[value + 1][i]
        else:
            depth = 0
        _SOLVED[key(state)] = (value, depth, stall)


def _attractor(threshold: int, stall: int, movers: Sequence[int], inside: Sequence[list[int]],
               exits: Sequence[list[int]], done: Sequence[bool],
               before: Sequence[list[int]]) -> list[int]:
    """For each position of a class, in how many moves the side that must leave the class
    to decide "red gets at least ``threshold``" can force a move out that decides it its
    way (0: it cannot). Red must leave when staying gives less (``stall`` < threshold),
    else blue."""
    attacker = 0 if stall < threshold else 1

    def wins(value: int) -> bool:
        return value >= threshold if attacker == 0 else value < threshold

    n = len(movers)
    level = [0] * n
    left = [0] * n  # the defender's moves that do not yet lead into the attractor
    frontier: list[int] = []
    for i in range(n):
        if done[i]:
            continue  # over as the board stands: the class's value, which the attacker lacks
        if movers[i] == attacker:
            if any(wins(v) for v in exits[i]):
                level[i] = 1
                frontier.append(i)
        elif all(wins(v) for v in exits[i]):
            left[i] = len(inside[i])
            if not left[i]:
                level[i] = 1
                frontier.append(i)
        else:
            left[i] = -1  # a move out that the defender takes: never forced
    at = 0
    while at < len(frontier):
        j = frontier[at]
        at += 1
        for i in before[j]:
            if level[i]:
                continue
            if movers[i] == attacker:
                level[i] = level[j] + 1
                frontier.append(i)
            elif left[i] > 0:
                left[i] -= 1
                if not left[i]:
                    level[i] = level[j] + 1
                    frontier.append(i)
    return level


def solved(state: State) -> Solved | None:
    """``(value, moves to force it, the class's value)`` of a position with at most
    :data:`FREE_MOST` free satellites and nobody done, solved if need be; else None."""
    if state.ended is not None or state.finished is not None or free(state) > FREE_MOST:
        return None
    got = _SOLVED.get(key(state))
    if got is None:
        _solve(state)
        got = _SOLVED[key(state)]
    return got


def keeping_moves(view: State, legal: Sequence[int]) -> list[int] | None:
    """The moves that keep the solved value of the position (when the player to move
    forces a connection to get it, those that force it soonest), or None when the
    position is not solved here (too many free satellites, a player done) or its forced
    connection could be cut short by S-62's count."""
    got = solved(view)
    if got is None:
        return None
    value, depth, stall = got
    if depth and view.quiet + depth > view.ruleset.stall_moves:
        return None
    forcing = value > stall if view.to_move == 0 else value < stall
    kind = (view.conn, view.finished, view.grace_left)
    best: list[tuple[int, int]] = []
    for action in legal:
        after = _child(view, action)
        if after.ended is not None:
            if board_value(after) == value:
                best.append((0, action))
            continue
        if _value_of(after) != value:
            continue
        if (after.conn, after.finished, after.grace_left) != kind:
            best.append((0, action))  # a connection that keeps the value
            continue
        steps = _SOLVED[key(after)][1]
        if forcing and not steps < depth:
            continue  # only moves that bring the forced connection nearer
        best.append((steps if forcing else 0, action))
    fastest = min(steps for steps, _ in best)  # a solved position has a move that keeps it
    return [action for steps, action in best if steps == fastest]


def best_moves(view: State, legal: Sequence[int]) -> list[int] | None:
    """The ``tactics`` bot's moves in a position solved here that is won for the player to
    move: those that keep it won (:func:`keeping_moves`). None anywhere else, and the bot
    plays as it would without this module: the position is not solved here, or it is not
    won (a draw or a loss: against a fallible opponent the search's choice may do better
    than any exact one), or S-62's count could cut its forced connection short.

    So the bot's game changes only from a won position on, and is then won: against the
    same opponent and seeds it never does worse than without this module."""
    got = solved(view)
    if got is None or got[0] != (1 if view.to_move == 0 else -1):
        return None
    return keeping_moves(view, legal)
