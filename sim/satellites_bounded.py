"""Satellites against a bounded opponent: the ``wary`` bot's look, one who sees one move ahead.

The ``tactics`` and ``deep`` bots treat the opponent as perfect in their exact parts (the
grace moves are searched for the opponent's best sequence, every connection of the
opponent is a reply it may make). Against greedy, and against most people, that is too
careful where it matters most: in seed-2 games 8, 21 and 97 of ``--bots
tactics:16,greedy`` the bot, ahead, refused to connect its last satellite because a
perfect opponent would win or draw with the three grace moves; greedy found nothing in 7
to 10 of 10 plays of them, and the bot, shuffling instead, lost (``docs/sim.md``).

This module models the opponent as a **bounded player who sees one move ahead**, as people
mostly do:

* it surely plays a connection that **gains** (:func:`gaining`: it controls more colonies
  after it, or the game scored as it stands turns its way), and of those the one worst for
  the bot (a minimum over its gaining connections);
* with no such connection, it plays a quiet move it cannot tell from the others: its quiet
  moves are a **distribution**, each equally likely. Quiet moves change no colony, so at
  the end of the look the position stands as it is (:func:`static`); in the grace moves,
  where it moves again at once, the value is the **expectation** over its quiet moves of
  what its next grace move finds (:meth:`Bounded.grace`);
* once few satellites are free (:data:`REPLY_FREE`), the long quiet phases where a lead
  is lost to a zugzwang the opponent stumbles into (``docs/sim.md``), its quiet reply to
  each of the bot's moves is weighed too (:meth:`Bounded.quiet_replies`): the share of
  its quiet moves after which every move of the bot leaves it a gaining connection.

Values are expected outcomes for the bot, in [-1, 1]: a won game 1, a lost one -1, a draw
0, a grace sequence the mean over the opponent's quiet moves (so handing over the grace
moves at a 10 % risk of losing is worth about 0.8), an unfinished position the evaluation
squeezed into (-1, 1) (``tanh(worth / 3)``, :func:`sim.satellites_search.static`). The bot
keeps, of its moves, those within :data:`KEEP` of the best after the look
(:func:`wary_moves`), and its search chooses among them.

The bot's own grace moves are searched in full (:func:`sim.satellites_search.grace_best`):
it plays them itself. Standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.satellites.actions import PASS
from rules.satellites.engine import State, apply
from rules.satellites.legal import quiet_and_loud
from sim.satellites_endgame import free
from sim.satellites_eval import colonies
from sim.satellites_search import WIN, grace_best, outcome, static

LOOK = 3  # plies after the bot's move: the opponent's gaining connection, the bot's, its
KEEP = 0.05  # a move is kept when its value is within this much of the best move's
KEEP_REPLIES = 0.01  # the same once the opponent's quiet replies are weighed (a risk of 1/8)
SAMPLE = 24  # quiet moves weighed at each grace move of the opponent (evenly spread)
REPLY_FREE = 6  # free satellites in all, at most, for the opponent's quiet replies to be weighed
REPLIES = 8  # quiet replies of the opponent weighed after each of the bot's moves (evenly spread)
NODES = 20000  # positions a decision's look may visit (then it keeps the moves as they are)


class Spent(Exception):
    """The node budget of a decision is used up."""


def gaining(state: State) -> list[tuple[int, State]]:
    """The connection moves and displacements of the player to move that a player seeing
    one move ahead plays: after them it controls more colonies (S-43), or the game scored
    as it stands (S-46 to S-48) turns its way. Each with the position it leads to."""
    _, loud = quiet_and_loud(state)
    if not loud:
        return []
    mover = state.to_move
    sign = 1 if mover == 0 else -1
    mine = colonies(state, mover)
    standing = sign * outcome(state)
    out = []
    for action in loud:
        after = apply(state, action)
        if colonies(after, mover) > mine or sign * outcome(after) > standing:
            out.append((action, after))
    return out


def spread(moves: Sequence[int], most: int) -> list[int]:
    """At most ``most`` of ``moves``, evenly spaced (all of them when they are fewer): a
    deterministic sample of a distribution that weighs them alike."""
    n = len(moves)
    if n <= most:
        return list(moves)
    return [moves[k * n // most] for k in range(most)]


class Bounded:
    """One decision's look for the bot in seat ``seat`` against the bounded opponent; values
    to the bot, in [-1, 1]. :class:`Spent` is raised after ``most`` positions."""

    def __init__(self, seat: int, most: int = NODES, sample: int = SAMPLE) -> None:
        self.seat = seat
        self.most = most
        self.sample = sample
        self.nodes = 0
        self.memo: dict[tuple[int, int, int, int], float] = {}
        self.own_grace: dict[object, float] = {}

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > self.most:
            raise Spent

    def exact(self, state: State) -> float:
        """A finished game (or one scored as it stands), to the bot: 1, 0 or -1."""
        won = outcome(state)
        return float(won if self.seat == 0 else -won)

    def static(self, state: State) -> float:
        return static(state, self.seat)

    def value(self, state: State, left: int, replies: bool = False) -> float:
        """What ``state`` is worth to the bot, looked at ``left`` plies more: the end
        exactly, the grace moves by who makes them (the opponent: :meth:`grace`; the bot:
        its best sequence), the opponent's gaining connections (the worst for the bot), the
        bot's connections (the best, or the position as it stands). With ``replies``, an
        opponent with no gaining connection is followed one quiet move on
        (:meth:`quiet_replies`) rather than left as it stands."""
        self._count()
        if state.ended is not None:
            return self.exact(state)
        if state.finished is not None:
            if state.to_move == self.seat:  # the bot's own grace moves, played at its best
                best = grace_best(state, self.own_grace)
                return best / WIN
            return self.grace(state)
        if left <= 0:
            return self.static(state)
        if state.to_move != self.seat:
            gains = gaining(state)
            if not gains:  # a quiet move: the position as it stands, or weighed
                return self.quiet_replies(state) if replies else self.static(state)
            return min(self.value(after, left - 1) for _, after in gains)
        quiet, loud = quiet_and_loud(state)
        best = self.static(state) if quiet or not loud else -2.0
        for action in loud:
            best = max(best, self.value(apply(state, action), left - 1))
        return best

    def quiet_replies(self, state: State) -> float:
        """The opponent to move with no gaining connection: the mean over its quiet moves
        (:data:`REPLIES` of them, evenly spread) of the bot's answer to each
        (:meth:`answer`)."""
        quiet, _ = quiet_and_loud(state)
        if not quiet:
            return self.static(state)
        moves = spread(quiet, REPLIES)
        return sum(self.answer(apply(state, q)) for q in moves) / len(moves)

    def answer(self, state: State) -> float:
        """The bot to move after a quiet move of the opponent: the position as it stands if
        one of its quiet moves leaves the opponent no gaining connection; else (a zugzwang,
        or a threat it cannot parry quietly) the best of its moves, each judged by the
        opponent's gaining connection worst for the bot."""
        self._count()
        if state.ended is not None or state.finished is not None:
            return self.value(state, 0)
        quiet, loud = quiet_and_loud(state)
        if not quiet and not loud:
            return self.static(state)
        for action in quiet:
            self._count()
            if not gaining(apply(state, action)):
                return self.static(state)
        best = -2.0
        for action in loud:
            best = max(best, self.value(apply(state, action), 1))
        for action in quiet:
            best = max(best, self.value(apply(state, action), 1))
        return best

    def grace(self, state: State) -> float:
        """The expected outcome to the bot of the opponent's grace moves (S-39, S-40), the
        opponent to move: a gaining connection if it has one (the worst for the bot), else
        each of its quiet moves alike (:data:`SAMPLE` of them, evenly spread) and what its
        next grace move finds after it; on its last grace move a quiet move leaves the
        board to be scored as it stands."""
        if state.ended is not None:
            return self.exact(state)
        if state.to_move == self.seat:  # cannot happen in the grace moves; judged as is
            return self.static(state)
        key = (state.red, state.blue, state.conn, state.grace_left)
        got = self.memo.get(key)
        if got is not None:
            return got
        self._count()
        gains = gaining(state)
        if gains:
            value = min(self.grace(after) for _, after in gains)
        elif state.grace_left <= 1:
            value = self.exact(state)
        else:
            quiet, loud = quiet_and_loud(state)
            moves = spread(quiet, self.sample) if quiet else (list(loud) or [PASS])
            value = sum(self.grace(apply(state, a)) for a in moves) / len(moves)
        self.memo[key] = value
        return value


def move_values(view: State, legal: Sequence[int], most: int = NODES,
                look: int = LOOK) -> list[tuple[float, int]] | None:
    """``(value to the mover, move)`` for each of ``legal`` after the bounded look
    (:meth:`Bounded.value`, ``look`` plies after the move; the opponent's quiet replies
    weighed once at most :data:`REPLY_FREE` satellites are free in all), or None when the
    node budget ``most`` does not cover them all."""
    search = Bounded(view.to_move, most)
    replies = free(view) <= REPLY_FREE
    try:
        return [(search.value(apply(view, a), look, replies), a) for a in legal]
    except Spent:
        return None


def wary_moves(view: State, legal: Sequence[int], most: int = NODES) -> list[int] | None:
    """Of ``legal``, the moves whose value against the bounded opponent is within
    :data:`KEEP` of the best move's (:data:`KEEP_REPLIES` once the opponent's quiet replies
    are weighed, when a risk of one reply in :data:`REPLIES` is worth keeping apart); None
    when the look runs out of its budget (the bot then keeps what the ``tactics`` bot
    keeps)."""
    values = move_values(view, legal, most)
    if values is None:
        return None
    best = max(v for v, _ in values)
    keep = KEEP_REPLIES if free(view) <= REPLY_FREE else KEEP
    return [a for v, a in values if v >= best - keep]
