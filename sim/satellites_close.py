"""Satellites at the end of the game: a lead converted by sampled plays, for the ``closer`` bot.

What the ``deep`` bot still lost against greedy on fresh games (``docs/sim.md``, the fifth
look) was mostly a lead held at six free satellites and lost in the last few connections:
the bot moved its last one to three free satellites to and fro while greedy's random
quiet moves looked for a gaining connection and in the end found one, or it would not
connect its last satellite because a *perfect* opponent would win with the three grace
moves, which greedy then did not find. Both are judgements against an opponent that plays
perfectly, where the opponent met is fallible.

So once few satellites are free in all (:data:`FREE_LEAST` to :data:`FREE_MOST`, nobody
done), each move the tactics keep is judged by what becomes of it: :data:`PLAYS` plays
from the position after it to the end of the game (or :data:`PLIES` moves, or
:data:`QUIET_PLIES` moves in a row that connected nothing, then the board scored as it
stands: only connected satellites score, and they never move), both sides playing the
search's own rollout policy (greedy's move: the best change of its colonies, ties at
random; the adapter's ``rollout_moves``), the bot's model of play. A move's value is the
mean of its plays' results to the mover (+1 a win, 0 a draw, -1 a loss); the plays of
every move share their generators' seeds (common random numbers), so two moves are
compared on the same luck. The moves within :data:`CLOSE` of the best are left to the
search. Ending the game (a connection towards the end count, or the last satellite
connected and the grace moves handed over) and going on quietly are so weighed by how
often each keeps the lead against such play, not by what a perfect opponent could do.

The plays are the bot's cost, and two cuts make them cheaper (``docs/sim.md``, the ninth
look): a play ends after :data:`QUIET_PLIES` quiet moves in a row (the rollout's quiet
moves are drawn at random, so a play can otherwise wander for its :data:`PLIES` moves,
and only connected satellites score), and a
race whose first round saw no play connect anything (a stuck game, S-62) stops there with
every move alike.

The middle game is judged the same way with fewer plays (``docs/sim.md``, the eleventh
look): from :data:`FREE_MOST` + 1 to :data:`MID_MOST` free satellites, :data:`MID_PLAYS`
plays a move. Of the 33 games ``closer`` did not win against greedy on fresh seeds
(replayed), 20 were behind on the board at six free (16 of them already at ten), where
the search alone had chosen (``mcts`` on the evaluation, 16 iterations among some 30 to
50 moves), often a quiet move where the plays would connect.

Standard library only; deterministic for the bot's generator (each decision draws its
plays' seeds from it).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from rules.satellites import GAME
from rules.satellites.actions import PASS
from rules.satellites.engine import State, apply
from sim.satellites_endgame import free
from sim.satellites_search import WIN, outcome, reply_value

FREE_LEAST = 3  # free satellites in all from which the plays judge (fewer: solved exactly)
FREE_MOST = 6  # ... and up to which
PLAYS = 16  # plays from the position after each move
MID_MOST = 10  # the middle game: from FREE_MOST + 1 free up to this many, judged by plays too
MID_PLAYS = 8  # ... with this many plays from the position after each move
PLIES = 200  # moves a play goes at most before the board is scored as it stands
QUIET_PLIES = 50  # ... and moves in a row that connected nothing after which it is (0: never)
STUCK = True  # a race stops after its first round when no play connected a satellite
CLOSE = 0.0  # a move is kept when its mean result is within this of the best move's
HAND_OVER = True  # the moves that connect the mover's last satellite are judged by plays too


Policy = Callable[[State], Sequence[int]]
"""The rollout policy: the moves it chooses among in a position, one drawn at random (the
simulator adapter's greedy moves, ``sim.satellites.SatellitesSim.rollout_moves``)."""


def play_out(state: State, seat: int, rng: random.Random, policy: Policy,
             plies: int = PLIES) -> int:
    """How one play of the rollout ``policy`` from ``state`` ends for ``seat``: +1 won, 0
    drawn, -1 lost (the board scored as it stands after ``plies`` moves, after
    :data:`QUIET_PLIES` moves in a row that connected nothing, or when nobody can
    move)."""
    return play(state, seat, rng, policy, plies)[0]


def play(state: State, seat: int, rng: random.Random, policy: Policy,
         plies: int = PLIES) -> tuple[int, bool]:
    """:func:`play_out`'s result, and whether any move of the play connected a
    satellite."""
    conn = state.conn
    quiet = 0
    for _ in range(plies):
        if state.ended is not None:
            break
        if QUIET_PLIES and quiet >= QUIET_PLIES:
            break
        best = policy(state)
        if not best:
            break  # over: neither player can move (S-41)
        action = best[rng.randrange(len(best))] if len(best) > 1 else best[0]
        if action == PASS and GAME.is_over(state):
            break
        before = state.conn
        state = apply(state, action)
        quiet = quiet + 1 if state.conn == before else 0
    won = outcome(state)
    return (won if seat == 0 else -won), state.conn != conn


def applies(view: State) -> bool:
    """Whether the plays judge this position: nobody done, and from :data:`FREE_LEAST` to
    :data:`MID_MOST` satellites free in all."""
    return plays_for(view) > 0


def plays_for(view: State) -> int:
    """How many plays a move the plays judge in this position gets: :data:`PLAYS` at the
    end of the game (:data:`FREE_LEAST` to :data:`FREE_MOST` free), :data:`MID_PLAYS` in
    the middle game (up to :data:`MID_MOST` free), none otherwise or once somebody is
    done."""
    if view.finished is not None or view.ended is not None:
        return 0
    n = free(view)
    if FREE_LEAST <= n <= FREE_MOST:
        return PLAYS
    return MID_PLAYS if FREE_MOST < n <= MID_MOST else 0


def play_values(view: State, legal: Sequence[int], rng: random.Random, policy: Policy,
                plays: int | None = None) -> list[tuple[float, int]]:
    """``(mean result to the mover, move)`` of the moves of ``legal`` still in the race
    after :data:`PLAYS` plays: each move is played out from the position after it by the
    rollout policy, the k-th play of every move seeded alike (the seeds drawn from
    ``rng``), in rounds (successive halving): a quarter of the plays for every move, then
    the better half of the moves (all those as good as the last kept) another quarter,
    then the better half of those the last half. The moves dropped on the way are left
    out."""
    seat = view.to_move
    plays = PLAYS if plays is None else plays
    seeds = [rng.getrandbits(63) for _ in range(plays)]
    rounds = (plays // 4, plays // 4, plays - 2 * (plays // 4))
    totals = {a: 0 for a in legal}
    afters = {a: apply(view, a) for a in legal}
    racing = list(legal)
    done = 0
    for k, more in enumerate(rounds):
        connected = False
        for action in racing:
            for s in seeds[done:done + more]:
                won, moved = play(afters[action], seat, random.Random(s), policy)
                totals[action] += won
                connected = connected or moved
        done += more
        if STUCK and k == 0 and not connected \
                and len({totals[a] for a in racing}) == 1:
            break  # stuck: no play connected anything, every move alike
        if k < len(rounds) - 1 and len(racing) > 2:
            ranked = sorted(racing, key=lambda a: -totals[a])
            cut = totals[ranked[(len(ranked) + 1) // 2 - 1]]
            racing = [a for a in racing if totals[a] >= cut]
    return [(totals[a] / done, a) for a in racing]


def handing_over(view: State, legal: Sequence[int], kept: Sequence[int]) -> list[int]:
    """The moves of ``legal`` the tactics dropped that connect the mover's last satellite
    and hand the other player the grace moves (S-39): the tactics drop such a move when a
    perfect opponent's grace moves win or draw (:func:`sim.satellites_search.grace_best`);
    none when a move the tactics kept wins by force."""
    seat = view.to_move
    handing = [a for a in legal if a not in kept and apply(view, a).finished == seat]
    if not handing:
        return []
    for action in kept:
        after = apply(view, action)
        if (after.ended is not None or after.finished is not None) \
                and reply_value(after, seat) >= WIN:
            return []
    return handing


def closing_moves(view: State, legal: Sequence[int], kept: Sequence[int],
                  rng: random.Random, policy: Policy) -> list[int]:
    """Of ``kept`` (the moves the tactics keep of ``legal``) and the moves that hand over
    the grace moves (:func:`handing_over`), those whose plays end best for the mover
    (within :data:`CLOSE` of the best), when :func:`applies`; else ``kept``."""
    plays = plays_for(view)
    if not plays:
        return list(kept)
    candidates = list(kept) + (handing_over(view, legal, kept) if HAND_OVER else [])
    if len(candidates) <= 1:
        return candidates
    values = play_values(view, candidates, rng, policy, plays)
    best = max(v for v, _ in values)
    return [a for v, a in values if v >= best - CLOSE]
