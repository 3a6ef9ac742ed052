"""The legal moves of a Satellites position: every one, how many, one at random, and the one
check of the rules after a move (S-17 to S-35) that the explaining path
(:mod:`rules.satellites.why`) shares.

Each rule is checked in one place:

* a **normal move** (S-17) ends on an empty cell with no opponent orthogonally next to
  it, so it connects nothing and no rule after the move can bite (S-19): the targets of
  a satellite are a precomputed reach mask of its cell and value, minus occupied cells
  and cells next to an opponent;
* everything else - a **connection move** (S-18) or a **displacement** (S-31) - is
  checked by :func:`problem`, which says which rule the position after the move breaks
  (S-22/S-23, S-18, S-33, S-24/S-25, S-29/S-30, S-28, S-35) or returns ``None``; the
  sentence is :class:`rules.satellites.why.Why`'s. The fast paths here
  (:func:`legal_actions`, :func:`random_action`) first keep only candidates that land (or
  push) where an edge can be empty afterwards and, without a push, not next to a
  connected satellite of one colour (masks, in :func:`_moves`), and tell :func:`problem`
  so.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from rules.satellites.actions import PASS
from rules.satellites.analysis import empty_edge, join, merged, value_at
from rules.satellites.ruleset import RED_SEAT

if TYPE_CHECKING:
    import random

    from rules.satellites.engine import State
    from rules.satellites.why import Why

NO = "no"  # what the fast paths get back from problem() instead of a sentence


def _moves(st: State, out: list[int] | None = None
           ) -> tuple[list[tuple[int, int, int]], int, list[int]]:
    """``(normal, count, checks)``: per unconnected satellite of the player to move with a
    normal move, its cell, the mask of its normal moves (all legal, S-17/S-19) and how many
    they are; how many normal moves there are in all; and every connection move or
    displacement that could be legal, as actions that :func:`problem` must still check
    (those that break S-22 or, without a push, S-24 are left out already). With ``out``,
    the normal moves are appended to it as actions instead (and not counted)."""
    tb, rs, red, blue, vals, conn, _, x = st[:8]
    own, opp = (red, blue) if x == RED_SEAT else (blue, red)
    occ = red | blue
    full = tb.full
    empty = full ^ occ
    spread = tb.spread
    near_opp = spread(opp)
    free = empty & ~near_opp
    movers = own & ~conn  # connected satellites never move (S-21)
    # S-22/S-23: a move may connect only if an edge is empty afterwards. Only the mover
    # leaves its cell, so the edges that can be empty after a move of the satellite on o
    # are those with no satellite, or with that one alone; the move must not land (or push)
    # on all of them.
    empty_edges = full  # the cells on every edge that is empty now
    connectors = 0  # the movers that may connect
    alone: dict[int, int] = {}  # a mover alone on an edge -> the cells on all such edges
    for edge in tb.edge_masks:
        on = occ & edge
        if not on:
            connectors = movers
            empty_edges &= edge
        elif not on & (on - 1) and on & movers:
            alone[on] = alone.get(on, full) & edge
            connectors |= on
    if connectors:
        mine = own & conn
        theirs = opp & conn
        # S-24: no landing next to a connected satellite of one's own, nor next to an
        # unconnected opponent that touches a connected one of its colour
        landing = empty & near_opp & ~spread(mine) & ~spread(opp & ~conn & spread(theirs))
        displaceable = opp & ~conn & tb.spread8(mine) if mine else 0  # S-31, S-32
        push_reach = tb.reach(rs.push_reach)
        exacts = tb.exacts(len(vals) - 1)
    normal: list[tuple[int, int, int]] = []
    count = 0
    checks: list[int] = []
    append = out.append if out is not None else None
    reaches = tb.reaches(len(vals) - 1)
    for v in range(1, len(vals)):
        m = movers & vals[v]
        if not m:
            continue
        reach = reaches[v]
        while m:
            low = m & -m
            o = low.bit_length() - 1
            m ^= low
            targets = reach[o] & free
            if append is None:
                if targets:
                    k = targets.bit_count()
                    normal.append((o, targets, k))
                    count += k
            else:
                base = (o << 20) - 1024
                while targets:
                    n = targets.bit_length()
                    append(base + (n << 10))
                    targets ^= 1 << (n - 1)
            if not low & connectors:
                continue
            allowed = ~(empty_edges & alone.get(low, full))
            exact = exacts[v][o]
            c = exact & landing & allowed
            while c:
                bit = c & -c
                checks.append(o << 20 | (bit.bit_length() - 1) << 10)
                c ^= bit
            d = exact & displaceable
            while d:
                bit = d & -d
                t = bit.bit_length() - 1
                d ^= bit
                pushes = push_reach[t] & (empty | low) & allowed  # S-34
                while pushes:
                    pb = pushes & -pushes
                    checks.append(o << 20 | t << 10 | pb.bit_length())
                    pushes ^= pb
    return normal, count, checks


class Legal(Sequence[int]):
    """The legal moves of one position, sorted: an immutable sequence that knows its length
    at once and finds any one move without turning the others into ints. It holds, per
    satellite that can move, the mask of its normal targets (as ``_moves`` found them), and
    the connection moves and displacements as codes; the index by cell is made when a move
    is first read, and a satellite's codes only when one of them is read."""

    __slots__ = ("_normal", "_loud", "_n", "_entries", "_ends", "_made")

    def __init__(self, normal: list[tuple[int, int, int]], count: int,
                 loud: Sequence[int] | None = None) -> None:
        # normal: (cell, mask of its normal targets, how many), ``count`` of them in all;
        # loud: the legal connection moves and displacements, sorted
        self._normal = normal
        self._loud = loud or ()
        self._n = count + len(loud) if loud else count
        self._entries: list[tuple[int, int, int, tuple[int, ...]]] | None = None
        self._ends: list[int] = []
        self._made: dict[int, list[int]] = {}

    def _index(self) -> list[tuple[int, int, int, tuple[int, ...]]]:
        """(cell, mask of the targets without a push, how many, the displacements) per
        satellite, sorted by its cell: every code starts with it, so the moves come out
        sorted."""
        entries = self._entries
        if entries is None:
            by_cell = {o: [o, m, k, ()] for o, m, k in self._normal}
            for c in self._loud:  # a connection move's target is never a normal target
                o = c >> 20
                entry = by_cell.setdefault(o, [o, 0, 0, ()])
                entry[2] += 1
                if c & 1023:
                    entry[3] = (*entry[3], c)
                else:
                    entry[1] |= 1 << (c >> 10 & 1023)
            entries = sorted([(o, m, k, p) for o, m, k, p in by_cell.values()])
            self._entries, self._ends = entries, list(accumulate([e[2] for e in entries]))
        return entries

    def _codes(self, e: int) -> list[int]:
        made = self._made.get(e)
        if made is None:
            o, mask, _, pushed = self._index()[e]
            base = (o << 20) - 1024
            made = []
            while mask:
                low = mask & -mask
                made.append(base + (low.bit_length() << 10))
                mask ^= low
            if pushed:
                made += pushed
                made.sort()
            self._made[e] = made
        return made

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, k: Any) -> Any:
        if isinstance(k, slice):
            return list(self)[k]
        n = self._n
        if k < 0:
            k += n
        if not 0 <= k < n:
            raise IndexError("legal move index out of range")
        self._index()
        e = bisect_right(self._ends, k)
        return self._codes(e)[k - (self._ends[e - 1] if e else 0)]

    def __iter__(self) -> Iterator[int]:
        for e in range(len(self._index())):
            yield from self._codes(e)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        raise TypeError("unhashable type: 'Legal'")

    def plus(self, codes: Iterable[int]) -> Legal:
        """These moves and ``codes`` (other moves of this position) together, sorted."""
        return Legal(self._normal, self._n - len(self._loud), sorted([*self._loud, *codes]))

    def __repr__(self) -> str:
        return f"Legal({list(self)!r})"


def legal_actions(st: State) -> Legal:
    """Every legal move of the player to move, sorted (no pass; empty once the game is
    over), as a lazy :class:`Legal` sequence."""
    if st.ended is not None:
        return Legal([], 0)
    normal, count, checks = _moves(st)
    if not checks:
        return Legal(normal, count)
    return Legal(normal, count, sorted([c for c in checks if _screened_ok(st, c)]))


def quiet_and_loud(st: State) -> tuple[Legal, list[int]]:
    """The legal moves in two parts: the normal moves, which connect nothing (S-17) and so
    change no score (a lazy :class:`Legal`, never made into ints here), and the connection
    moves and displacements (as ints, sorted). Bots that weigh moves look only at the
    second part."""
    if st.ended is not None:
        return Legal([], 0), []
    normal, count, checks = _moves(st)
    return Legal(normal, count), sorted(c for c in checks if _screened_ok(st, c))


def count_legal(st: State) -> int:
    """How many legal moves the player to move has (no pass), without listing them."""
    if st.ended is not None:
        return 0
    _, count, checks = _moves(st)
    return count + sum(1 for c in checks if _screened_ok(st, c))


def has_move(st: State) -> bool:
    """Whether the player to move has a legal move (other than a pass)."""
    normal, _, checks = _moves(st)
    return bool(normal) or any(_screened_ok(st, c) for c in checks)


def random_action(st: State, rng: random.Random) -> int:
    """A legal move of the player to move, each equally likely; :data:`PASS` if there is
    none. Normal moves are counted by mask; a connection or displacement is drawn among
    the candidates and checked only when drawn (an illegal one is dropped and the draw
    repeated, which keeps every legal move equally likely)."""
    normal, n_normal, checks = _moves(st)
    below = rng._randbelow  # type: ignore[attr-defined]
    while True:
        total = n_normal + len(checks)
        if not total:
            return PASS
        r = below(total)
        if r < n_normal:
            for o, m, n in normal:
                if r < n:
                    for _ in range(r):
                        m &= m - 1
                    return o << 20 | ((m & -m).bit_length() - 1) << 10
                r -= n
        r -= n_normal
        c = checks[r]
        if _screened_ok(st, c):
            return c
        checks[r] = checks[-1]
        checks.pop()


# --- the rules after a move, one reason at a time -------------------------------------------


def _screened_ok(st: State, code: int) -> bool:
    """Whether a candidate of :func:`_moves` is legal."""
    return problem(st, code >> 20, code >> 10 & 1023, (code & 1023) - 1, screened=True) is None


def problem(st: State, o: int, t: int, p: int, k: int | None = None,
            explain: type[Why] | None = None, screened: bool = False) -> str | None:
    """Why moving the satellite on ``o`` to ``t`` (``k`` cells; default: exactly its
    value), pushing the satellite there to ``p`` (-1: none), breaks a rule, or ``None``
    if the position afterwards obeys every rule. Without ``explain`` (the class that words
    the reasons) a failure is only :data:`NO` (the fast paths need no sentence).
    ``screened``: the move is a candidate of :func:`_moves`, whose masks already keep S-22
    and, without a push, S-24."""
    tb, rs, red, blue, vals, conn, groups, x = st[:8]
    own, opp = (red, blue) if x == RED_SEAT else (blue, red)
    bo, bt = 1 << o, 1 << t
    own2 = (own ^ bo) | bt
    bp = 1 << p if p >= 0 else 0
    opp2 = (opp ^ bt) | bp if bp else opp
    orth = tb.orth_mask
    # the mover and the pushed satellite were unconnected (S-21): the connections after
    # the move are the old ones and those around the cells they land on
    near_t = orth[t] & opp2
    near_p = orth[p] & own2 if bp else 0
    conn2 = conn
    if near_t:
        conn2 |= bt | near_t
    if near_p:
        conn2 |= bp | near_p
    fresh = conn2 & ~conn
    if not fresh and not bp:
        return None  # a move that connects nothing breaks no rule (S-19)
    why = explain(st, o, t, p, own2, opp2) if explain else None
    # S-22, S-23: a connection only while some edge is empty, after the move
    if not screened and not empty_edge(tb, own2 | opp2):
        return why.edge(conn2) if why else NO
    # S-18, S-19: a move that ends connected goes exactly the satellite's value
    if k is not None and conn2 & bt and k != value_at(vals, o):
        return why.length(k) if why else NO
    # S-33: a displacement leaves the mover connected in a colony, the pushed one not counted
    if bp:
        alone = orth[t] & opp
        if not alone:
            return why.landing(0) if why else NO
        size = merged(groups, bt | alone).bit_count()
        if size < rs.colony_min:
            return why.landing(size) if why else NO
    # S-24, S-25: no two connected satellites of one colour side by side
    spread = tb.spread
    if (bp or not screened) and ((spread(fresh & own2) & own2 & conn2)
                                 or (spread(fresh & opp2) & opp2 & conn2)):
        return why.touch(fresh, conn2) if why else NO
    # S-28, S-29, S-30: the groups the move makes
    if near_p:
        after = join(join(groups, bt | near_t) if near_t else groups, bp | near_p)
        made = sorted((g for g in after if g & fresh), key=lambda g: g & -g)
    else:
        made = [merged(groups, bt | near_t)] if near_t else []
    least = rs.colony_min
    for g in made:
        if (g & conn).bit_count() >= 2 * least:
            colonies = [h for h in groups if h & g and h.bit_count() >= least]
            if len(colonies) > 1:
                return why.merge(colonies) if why else NO
        if g.bit_count() > rs.colony_max:
            return why.size(g) if why else NO
    return None
