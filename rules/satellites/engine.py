"""The Satellites rules engine: immutable states, legal actions, applying them, the end.

The rules are ``docs/rules/satellites.md``; this module applies every rule of *Play* and
*End of the game* (S-15 to S-42) with the engine decisions S-56 to S-58. Each rule is
checked in one place:

* a **normal move** (S-17) ends on an empty cell with no opponent orthogonally next to
  it, so it connects nothing and no rule after the move can bite (S-19): the targets of
  a satellite are a precomputed reach mask of its cell and value, minus occupied cells
  and cells next to an opponent;
* everything else - a **connection move** (S-18) or a **displacement** (S-31) - is
  checked by :func:`_problem`, which says in one sentence which rule the position after
  the move breaks (S-22/S-23, S-18, S-33, S-24/S-25, S-29/S-30, S-28, S-35) or returns
  ``None``. The explaining path (:func:`check_written`, for records) and the fast paths
  (:func:`legal_actions`, :func:`random_action`) both call it; the fast paths first keep
  only candidates that land (or push) where an edge can be empty afterwards and, without
  a push, not next to a connected satellite of one colour (masks, in :func:`_moves`), and
  tell :func:`_problem` so;
* :func:`apply` moves, updates the connections (they only ever grow: S-21) and decides
  the end: the end count (S-37, S-38), the grace moves (S-39, S-40), every edge locked
  (S-42); :func:`end_reason` adds S-41, neither player able to move.

A state is a :class:`State` (a named tuple: immutable, cheap to make); actions are ints
(:mod:`rules.satellites.notation`). Seats: 0 is red, 1 is blue. All numbers come from the
state's :class:`~rules.satellites.ruleset.Ruleset`.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate
from typing import TYPE_CHECKING, Any, NamedTuple

from rules.game import IllegalAction, SetupError
from rules.satellites.analysis import (
    connected,
    edges_locked,
    empty_edge,
    group_masks,
    groups,
    join,
    locked_edges,
    masks,
    merged,
    plural,
    signed_cells,
    value_at,
)
from rules.satellites.notation import PASS, Written, action, move_text, parts
from rules.satellites.ruleset import COLOURS, Ruleset
from rules.satellites.score import Standing, standing
from rules.satellites.table import Table, column_name, setup_zones, table

if TYPE_CHECKING:
    import random

RED = 0  # seats
BLUE = 1
SEAT_OF = {"red": RED, "blue": BLUE}

# why a game ended
END_CONNECTED = "connected"  # S-37
END_GRACE = "grace-moves-used"  # S-39
END_LOCKED = "no-connection-possible"  # S-42
END_BLOCKED = "no-legal-moves"  # S-41

_NO = "no"  # what the fast paths get back from _problem instead of a sentence


class State(NamedTuple):
    """A position, whose turn it is and how the game stands; immutable.

    ``red``/``blue`` are masks of the cells each colour holds, ``vals[v]`` the mask of the
    cells holding a satellite of value ``v``, ``conn`` the connected satellites and
    ``groups`` the mask of each group (in reading order of their first cell; kept up to
    date move by move, since groups only ever grow and merge).
    ``finished`` is the seat that first had every satellite connected (None: nobody yet),
    ``grace_left`` the moves the other player still has then; ``ended`` is an end the last
    move decided (S-37, S-39, S-42; :func:`end_reason` also finds S-41).
    """

    table: Table
    ruleset: Ruleset
    red: int
    blue: int
    vals: tuple[int, ...]
    conn: int
    groups: tuple[int, ...]
    to_move: int
    finished: int | None
    grace_left: int
    ended: str | None
    players: tuple[str, str] = ("Red", "Blue")

    def __repr__(self) -> str:
        return (f"State({self.table.rows}x{self.table.cols}, {COLOURS[self.to_move]} to move, "
                f"finished={self.finished}, grace_left={self.grace_left}, ended={self.ended})")

    def __reduce__(self) -> tuple[object, tuple[Ruleset, bytes]]:
        return decode, (self.ruleset, encode(self))

    @property
    def cells(self) -> tuple[int, ...]:
        """The position as signed values per cell (``+v`` red, ``-v`` blue, ``0`` empty)."""
        return signed_cells(self.table, self.red, self.blue, self.vals)

    @property
    def grace_moves_left(self) -> int | None:
        """What the scorer calls ``grace_moves_left``: ``None`` while nobody is done."""
        return self.grace_left if self.finished is not None else None

    def token(self, cell: int) -> str:
        """``'R3 on c1'`` for the satellite on ``cell``."""
        return f"{_tok(self, cell)} on {self.table.names[cell]}"


_new = tuple.__new__


# --- making states ------------------------------------------------------------------------------


def start(ruleset: Ruleset, size: int, cells: Sequence[int], to_move: int | None = None,
          grace_left: int | None = None, players: tuple[str, str] = ("Red", "Blue")) -> State:
    """A state from a square position written as signed values per cell (the caller has
    checked it breaks no rule). ``to_move`` defaults to the ruleset's first player. If a
    colour has all its satellites connected, ``grace_left`` says how many grace moves the
    other player still has (default: all; 0 ends the game) and that player is to move."""
    tb = table(size)
    red, blue, vals = masks(cells, max(ruleset.max_value, max(map(abs, cells), default=0)))
    conn = connected(tb, red, blue)
    x = SEAT_OF[ruleset.first] if to_move is None else to_move
    finished, ended, grace = None, None, 0
    rc = (conn & red).bit_count()
    if conn.bit_count() >= ruleset.end_connected:
        ended = END_CONNECTED
    else:
        done = [s for s, n in ((RED, rc), (BLUE, (conn & blue).bit_count()))
                if n >= ruleset.colour(COLOURS[s]).count]
        if done:
            finished = done[0]
            grace = ruleset.grace_moves if grace_left is None else grace_left
            x = 1 - finished
            if grace <= 0:
                ended = END_GRACE
    if ended is None and edges_locked(tb, conn):
        ended = END_LOCKED
    return State(tb, ruleset, red, blue, vals, conn, tuple(group_masks(tb, red, blue, conn)), x,
                 finished, grace, ended, players)


def deal(ruleset: Ruleset, seed: int, players: tuple[str, str] = ("Red", "Blue")) -> State:
    """The start position of S-12, S-13 and S-56 for ``seed``: ``random.Random(seed)``
    shuffles red's satellites and lays them on red's start cells in order, then blue's."""
    import random

    size = ruleset.size
    tb = table(size)
    cells = [0] * (size * size)
    where: dict[int, str] = {}
    rng = random.Random(seed)
    zones = {colour: setup_zones(ruleset, colour) for colour in COLOURS}
    red_cells = set(zones["red"][0] + zones["red"][1])
    shared = sorted(red_cells & set(zones["blue"][0] + zones["blue"][1]))
    zone = ruleset.setup_zone_cells
    if shared:
        names = ", ".join(tb.names[r * size + c] for r, c in shared[:6])
        raise SetupError(
            f"red's and blue's start cells overlap on a {size} x {size} board with {zone} "
            f"central cells per edge ({names}); the rules page needs at least "
            f"{zone + 4} x {zone + 4} for {zone} central cells")
    inward_values = set(ruleset.inward_values)
    for colour in COLOURS:
        values = list(ruleset.colour(colour).satellites)
        starts, inward = zones[colour]
        if len(values) != len(starts):
            raise SetupError(
                f"{colour} has {len(values)} satellites but {len(starts)} start cells ({zone} "
                f"central cells on each of its edges); the deal needs one start cell per "
                f"satellite")
        rng.shuffle(values)
        sign = 1 if colour == "red" else -1
        for (row, col), (irow, icol), value in zip(starts, inward, values, strict=True):
            r, c = (irow, icol) if value in inward_values else (row, col)
            i = tb.index(r, c)
            if i is None or i in where:
                taken = f", already dealt to {where[i]}" if i is not None else ""
                shown = tb.names[i] if i is not None else (c, r)
                raise SetupError(
                    f"{colour}'s start cell {shown} does not work on a {size} x {size} "
                    f"board{taken}: the setup zones ({zone} central cells per edge, values "
                    f"{sorted(inward_values)} one cell inward) overlap or leave the board")
            where[i] = colour
            cells[i] = sign * value
    return start(ruleset, size, cells, players=players)


# --- the moves of the player to move ------------------------------------------------------------


def _moves(st: State, out: list[int] | None = None
           ) -> tuple[list[tuple[int, int, int]], int, list[int]]:
    """``(normal, count, checks)``: per unconnected satellite of the player to move with a
    normal move, its cell, the mask of its normal moves (all legal, S-17/S-19) and how many
    they are; how many normal moves there are in all; and every connection move or
    displacement that could be legal, as actions that :func:`_problem` must still check
    (those that break S-22 or, without a push, S-24 are left out already). With ``out``,
    the normal moves are appended to it as actions instead (and not counted)."""
    tb, rs, red, blue, vals, conn, _, x = st[:8]
    own, opp = (red, blue) if x == RED else (blue, red)
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


def _tok(st: State, cell: int) -> str:
    return f"{'R' if st.red >> cell & 1 else 'B'}{value_at(st.vals, cell)}"


def _screened_ok(st: State, code: int) -> bool:
    """Whether a candidate of :func:`_moves` is legal."""
    return _problem(st, code >> 20, code >> 10 & 1023, (code & 1023) - 1, screened=True) is None


def _problem(st: State, o: int, t: int, p: int, k: int | None = None,
             explain: bool = False, screened: bool = False) -> str | None:
    """Why moving the satellite on ``o`` to ``t`` (``k`` cells; default: exactly its
    value), pushing the satellite there to ``p`` (-1: none), breaks a rule, or ``None``
    if the position afterwards obeys every rule. Without ``explain`` a failure is only
    :data:`_NO` (the fast paths need no sentence). ``screened``: the move is a candidate
    of :func:`_moves`, whose masks already keep S-22 and, without a push, S-24."""
    tb, rs, red, blue, vals, conn, groups, x = st[:8]
    own, opp = (red, blue) if x == RED else (blue, red)
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
    why = _Why(st, o, t, p, own2, opp2) if explain else None
    # S-22, S-23: a connection only while some edge is empty, after the move
    if not screened and not empty_edge(tb, own2 | opp2):
        return why.edge(conn2) if why else _NO
    # S-18, S-19: a move that ends connected goes exactly the satellite's value
    if k is not None and conn2 & bt and k != value_at(vals, o):
        return why.length(k) if why else _NO
    # S-33: a displacement leaves the mover connected in a colony, the pushed one not counted
    if bp:
        alone = orth[t] & opp
        if not alone:
            return why.landing(0) if why else _NO
        size = merged(groups, bt | alone).bit_count()
        if size < rs.colony_min:
            return why.landing(size) if why else _NO
    # S-24, S-25: no two connected satellites of one colour side by side
    spread = tb.spread
    if (bp or not screened) and ((spread(fresh & own2) & own2 & conn2)
                                 or (spread(fresh & opp2) & opp2 & conn2)):
        return why.touch(fresh, conn2) if why else _NO
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
                return why.merge(colonies) if why else _NO
        if g.bit_count() > rs.colony_max:
            return why.size(g) if why else _NO
    return None


class _Why:
    """The sentences of :func:`_problem`, about the position after one move."""

    def __init__(self, st: State, o: int, t: int, p: int, own2: int, opp2: int) -> None:
        self.st, self.t, self.p = st, t, p
        self.own2, self.opp2 = own2, opp2
        self.red2 = own2 if st.to_move == RED else opp2
        self.values = {t: value_at(st.vals, o)}
        if p >= 0:
            self.values[p] = value_at(st.vals, t)
        self.mover = f"{self.tok(t)} on {st.table.names[t]}"

    def tok(self, i: int) -> str:
        value = self.values.get(i) or value_at(self.st.vals, i)
        return f"{'R' if self.red2 >> i & 1 else 'B'}{value}"

    def touching(self, i: int) -> str:
        other = self.opp2 if self.own2 >> i & 1 else self.own2
        tb = self.st.table
        return " and ".join(f"{self.tok(u)} on {tb.names[u]}" for u in tb.orth[i]
                            if other >> u & 1)

    def edge(self, conn2: int) -> str:
        t, p = self.t, self.p
        i = t if conn2 >> t & 1 else p
        who = self.mover if i == t else f"the pushed {self.tok(p)} on {self.st.table.names[p]}"
        return (f"{who} would connect to {self.touching(i)}, but every edge (outer row or "
                f"column) would still hold a satellite; until one edge is empty, no move may "
                f"end next to an opponent's satellite (rule S-23)")

    def length(self, k: int) -> str:
        v = self.values[self.t]
        return (f"it ends next to {self.touching(self.t)}, so {self.mover} would connect, and "
                f"a connection move goes exactly {v} cells (the satellite's value; rule S-19); "
                f"this one goes {k}")

    def landing(self, size: int) -> str:
        if not size:
            return (f"a displacement must connect the moving satellite where it lands, but "
                    f"{self.mover} would touch no {COLOURS[1 - self.st.to_move]} satellite "
                    f"there (the pushed one does not count; rule S-33)")
        return (f"a displacement must leave the moving satellite in a group of "
                f"{self.st.ruleset.colony_min} or more (it is allowed only where it could "
                f"extend a colony: rule S-33); {self.mover} would be in a group of {size}, not "
                f"counting the pushed satellite")

    def touch(self, fresh: int, conn2: int) -> str:
        tb = self.st.table
        for i in tb.cells_of(fresh):
            mine = self.own2 if self.own2 >> i & 1 else self.opp2
            for u in tb.orth[i]:
                if mine >> u & 1 and conn2 >> u & 1 and (not fresh >> u & 1 or u > i):
                    return (f"{self.tok(i)} on {tb.names[i]} and {self.tok(u)} on "
                            f"{tb.names[u]} would both be connected and touch; two connected "
                            f"satellites of one colour may never be orthogonally adjacent")
        raise AssertionError("no two connected satellites of one colour touch")

    def merge(self, colonies: list[int]) -> str:
        tb = self.st.table
        first, second = (tb.list_names(tb.cells_of(h))
                         for h in sorted(colonies, key=lambda h: h & -h)[:2])
        return (f"it would join the colonies on {first} and on {second}; two colonies may "
                f"never merge")

    def size(self, g: int) -> str:
        tb = self.st.table
        return (f"it would make a group of {g.bit_count()} ({tb.list_names(tb.cells_of(g))}); "
                f"a group holds at most {self.st.ruleset.colony_max} satellites")


# --- applying a move and the end ---------------------------------------------------------------


def apply(st: State, code: int) -> State:
    """The state after ``code``, which must be legal (not checked: see :func:`check`)."""
    tb, rs, red, blue, vals, conn, groups, x, finished, grace, _, players = st
    linked = False  # whether the move made a connection
    if code != PASS:
        o, t = code >> 20, code >> 10 & 1023
        p = (code & 1023) - 1
        bo, bt = 1 << o, 1 << t
        move = bo | bt
        vl = list(vals)
        v = 1
        while not vl[v] & bo:
            v += 1
        orth = tb.orth_mask
        if p >= 0:
            bp = 1 << p
            w = 1
            while not vl[w] & bt:
                w += 1
            vl[w] ^= bt | bp
            vl[v] ^= move
            if x == RED:
                red ^= move
                blue ^= bt | bp
            else:
                blue ^= move
                red ^= bt | bp
        else:
            bp = 0
            vl[v] ^= move
            if x == RED:
                red ^= move
            else:
                blue ^= move
        vals = tuple(vl)
        # the mover and any pushed satellite were unconnected, so connections only grow
        # (S-21), and only around the cells they land on; groups only merge
        own2, opp2 = (red, blue) if x == RED else (blue, red)
        near = orth[t] & opp2
        if near:
            conn |= bt | near
            groups = join(groups, bt | near)
            linked = True
        if bp:
            near = orth[p] & own2
            if near:
                conn |= bp | near
                groups = join(groups, bp | near)
                linked = True
    total = conn.bit_count()
    to_move, ended = 1 - x, None
    if total >= rs.end_connected:  # S-37, S-38
        ended = END_CONNECTED
    elif finished is not None:  # S-39, S-40: only the grace player moves, a pass counts
        grace -= 1
        to_move = x
        if grace <= 0:
            ended = END_GRACE
    else:
        rc = (conn & red).bit_count()
        if rc >= rs.red.count:
            finished = RED
        elif total - rc >= rs.blue.count:
            finished = BLUE
        if finished is not None:
            grace = rs.grace_moves
            to_move = 1 - finished
            if grace <= 0:
                ended = END_GRACE
    if ended is None and linked and edges_locked(tb, conn):  # S-42, only new connections
        ended = END_LOCKED
    return _new(State, (tb, rs, red, blue, vals, conn, groups, to_move, finished, grace, ended,
                        players))


def end_reason(st: State) -> str | None:
    """Why the game is over, or ``None`` while it goes on."""
    if st.ended is not None:
        return st.ended
    if st.finished is None and not has_move(st) \
            and not has_move(st._replace(to_move=1 - st.to_move)):
        return END_BLOCKED  # S-41
    return None


def is_over(st: State) -> bool:
    return end_reason(st) is not None


def standing_of(st: State) -> Standing:
    """Who controls how many colonies and who would win now (S-46 to S-48)."""
    return standing(groups(st.table, st.red, st.blue, st.vals, st.ruleset, st.conn))


def connects(st: State, code: int) -> bool:
    """Whether the move ends with the mover connected (a legal displacement always does)."""
    if code == PASS:
        return False
    o, t, p = parts(code)
    if p >= 0:
        return True
    opp = st.blue if st.to_move == RED else st.red
    return bool(st.table.orth_mask[t] & opp)


def action_text(st: State, code: int) -> str:
    """The move as the engine writes it, ``+`` on every move that connects (S-60)."""
    return move_text(st.table, code, connects(st, code))


def end_message(st: State) -> str:
    """One sentence on the state of the game: why it is over, or who is to move."""
    reason = end_reason(st)
    rs = st.ruleset
    if reason == END_CONNECTED:
        return (f"{st.conn.bit_count()} satellites are connected, and the game ends at once at "
                f"{rs.end_connected}")
    if reason == END_GRACE:
        assert st.finished is not None
        done = COLOURS[st.finished]
        return (f"{done} has all {rs.colour(done).count} satellites connected and "
                f"{COLOURS[1 - st.finished]} has made its {plural(rs.grace_moves, 'grace move')}")
    if reason == END_LOCKED:
        where = ", ".join(f"{edge} {st.token(i)}" for edge, i in locked_edges(st.table, st.conn))
        return (f"every edge holds a connected satellite ({where}), so no edge can be empty "
                f"again, no connection can be made and the score cannot change")
    if reason == END_BLOCKED:
        return "neither player has a legal move"
    who = COLOURS[st.to_move]
    if st.finished is not None:
        done = COLOURS[st.finished]
        return (f"{done} has all {rs.colour(done).count} satellites connected; {who} to move, "
                f"{plural(st.grace_left, 'grace move')} left")
    if not has_move(st):
        return f"{who} to move, and {who} has no legal move, so {who} must pass"
    return f"{who} to move"


def describe(st: State) -> str:
    """The whole position in a few lines: the board (``R3``, ``B1``, ``.``; column letters
    above, row numbers before), the connected satellites, and the grace moves once a
    player has every satellite connected."""
    tb, rs = st.table, st.ruleset
    cells = st.cells
    width = len(str(tb.rows))
    lines = [" " * (width + 2) + " ".join(column_name(c).ljust(2) for c in range(tb.cols))
             .rstrip()]
    for r in range(tb.rows):
        row = cells[r * tb.cols:(r + 1) * tb.cols]
        lines.append(f"{r + 1:>{width}}  " + " ".join(
            (f"{'R' if s > 0 else 'B'}{abs(s)}" if s else ".").ljust(2) for s in row).rstrip())
    red = (st.conn & st.red).bit_count()
    lines.append(f"connected: red {red}, blue {st.conn.bit_count() - red}, "
                 f"{st.conn.bit_count()} in all (the game ends at {rs.end_connected})")
    if st.finished is not None:
        done = COLOURS[st.finished]
        lines.append(f"{done} has all {rs.colour(done).count} connected; "
                     f"{COLOURS[1 - st.finished]} has {plural(st.grace_left, 'grace move')} "
                     f"left")
    return "\n".join(lines)


# --- the explaining path: a written move checked rule by rule ---------------------------------


def check_written(st: State, written: Written) -> int:
    """The legal action ``written`` names in ``st``, or :class:`IllegalAction` saying why."""
    tb = st.table
    rs = st.ruleset
    x = st.to_move
    who = COLOURS[x]
    if is_over(st):
        raise IllegalAction(f"the game is already over ({end_message(st)})")
    if written.is_pass:
        moves = legal_actions(st)
        if moves:
            raise IllegalAction(f"{who} may pass only with no legal move (rule S-36), and {who} "
                                f"has {plural(len(moves), 'legal move')}")
        return PASS
    assert written.frm is not None and written.to is not None
    places = []
    for rc in (written.frm, written.to, written.push):
        if rc is None:
            places.append(-1)
            continue
        i = tb.index(*rc)
        if i is None:
            raise IllegalAction(f"{column_name(rc[1])}{rc[0] + 1} is not on the board (columns "
                                f"a to {column_name(tb.cols - 1)}, rows 1 to {tb.rows})")
        places.append(i)
    o, t, p = places
    name_o, name_t = tb.names[o], tb.names[t]
    own, opp = (st.red, st.blue) if x == RED else (st.blue, st.red)
    if not (own | opp) >> o & 1:
        raise IllegalAction(f"there is no satellite on {name_o}")
    if opp >> o & 1:
        if st.finished == 1 - x:
            other = COLOURS[1 - x]
            raise IllegalAction(
                f"{other} has all {rs.colour(other).count} satellites connected and moves no "
                f"more (rule S-40); {who} is making its grace moves ({st.grace_left} left)")
        raise IllegalAction(f"{st.token(o)} is {COLOURS[1 - x]}, and it is {who}'s turn")
    if st.conn >> o & 1:
        raise IllegalAction(f"{st.token(o)} is connected (to {_touching(st, o)}); connected "
                            f"satellites are locked and never move")
    line = tb.line(o, t)
    if line is None:
        if o == t:
            raise IllegalAction(f"the move starts and ends on {name_o}")
        raise IllegalAction(f"{name_o} to {name_t} is not a straight line; satellites move "
                            f"along a row, a column or a diagonal")
    v = value_at(st.vals, o)
    k = line[1]
    if k > v:
        raise IllegalAction(f"{name_o} to {name_t} is {k} cells, and {_tok(st, o)} moves at "
                            f"most {v}")
    occupied = (own | opp) >> t & 1
    if not occupied and p >= 0:
        raise IllegalAction(f"{name_t} is empty, so there is nothing to push away; write "
                            f"{name_o}-{name_t}")
    if occupied:
        _check_displacement(st, o, t, p, k, v)
    problem = _problem(st, o, t, p, k, explain=True)
    if problem is not None:
        raise IllegalAction(problem)
    code = action(o, t, p)
    if written.plus and not connects(st, code):
        raise IllegalAction(f"the move is marked + (a connection), but {_tok(st, o)} ends on "
                            f"{name_t} touching no {COLOURS[1 - x]} satellite; write "
                            f"{name_o}-{name_t}")
    return code


def check(st: State, code: int) -> int:
    """``code`` if it is legal in ``st``, else :class:`IllegalAction` saying why."""
    if code == PASS:
        return check_written(st, Written("pass", None))
    o, t, p = parts(code)
    tb = st.table
    return check_written(st, Written(move_text(tb, code), tb.rc(o), tb.rc(t),
                                     tb.rc(p) if p >= 0 else None))


def pushes(st: State, o: int, t: int) -> list[int]:
    """The legal displacements of the satellite on ``t`` by the one on ``o`` (S-34)."""
    tb = st.table
    free = tb.full & ~(st.red | st.blue) | 1 << o
    return [action(o, t, p) for p in tb.cells_of(tb.reach(st.ruleset.push_reach)[t] & free)
            if _problem(st, o, t, p) is None]


def _check_displacement(st: State, o: int, t: int, p: int, k: int, v: int) -> None:
    """S-31 to S-34 for a move onto an occupied cell, before the position after it."""
    tb, x = st.table, st.to_move
    own = st.red if x == RED else st.blue
    name_t = tb.names[t]
    held = f"{name_t} is occupied by {_tok(st, t)}"
    if own >> t & 1:
        raise IllegalAction(f"{held}; a move never ends on an occupied cell")
    if st.conn >> t & 1:
        raise IllegalAction(f"{held}, which is connected; a move never ends on an occupied "
                            f"cell, and only an unconnected satellite can be displaced")
    if not tb.around_mask[t] & own & st.conn:
        raise IllegalAction(f"{held}; a move never ends on an occupied cell, and {_tok(st, t)} "
                            f"cannot be displaced because {name_t} is not next to a connected "
                            f"{COLOURS[x]} satellite")
    if k != v:
        raise IllegalAction(f"{held}; a displacement is a connection move and goes exactly {v} "
                            f"cells ({_tok(st, o)}'s value), this one goes {k}")
    if p < 0:
        options = pushes(st, o, t)
        if options:
            shown = ", ".join(tb.names[parts(c)[2]] for c in options)
            raise IllegalAction(f"{held}: to displace it, write where it goes, "
                                f"{tb.names[o]}-{name_t}>CELL with CELL one of {shown}")
        raise IllegalAction(f"{held}, and no push of it leaves a legal position")
    line = tb.line(t, p)
    pushed = _tok(st, t)
    if line is None:
        raise IllegalAction(f"{name_t} to {tb.names[p]} is not a straight line; the displaced "
                            f"{pushed} goes along a row, a column or a diagonal")
    if line[1] > st.ruleset.push_reach:
        raise IllegalAction(f"{name_t} to {tb.names[p]} is {line[1]} cells; the displaced "
                            f"{pushed} goes at most {st.ruleset.push_reach}")
    if (st.red | st.blue) >> p & 1 and p != o:
        raise IllegalAction(f"the displaced {pushed} cannot go to {tb.names[p]}: it is "
                            f"occupied by {_tok(st, p)}")


def _touching(st: State, cell: int) -> str:
    other = st.blue if st.red >> cell & 1 else st.red
    return " and ".join(st.token(u) for u in st.table.orth[cell] if other >> u & 1)


# --- playing whole games ------------------------------------------------------------------------


def random_game(st: State, rng: random.Random,
                max_moves: int = 100_000) -> tuple[list[int], State]:
    """Play uniformly random legal moves from ``st`` until the game ends (or ``max_moves``);
    return the actions played and the final state."""
    played: list[int] = []
    while st.ended is None and len(played) < max_moves:
        code = random_action(st, rng)
        if code == PASS and st.finished is None \
                and not has_move(st._replace(to_move=1 - st.to_move)):
            break  # S-41: neither player can move
        played.append(code)
        st = apply(st, code)
    return played, st


# --- a compact byte form ------------------------------------------------------------------------

_FORMAT = 1
_ENDS = (None, END_CONNECTED, END_GRACE, END_LOCKED)


def encode(st: State) -> bytes:
    """The state in a few dozen bytes: a header, two bytes per satellite (cell, colour,
    value) and the players' names. :func:`decode` with the same ruleset restores it."""
    tb = st.table
    occ = st.red | st.blue
    sats = tb.cells_of(occ)
    out = bytearray((_FORMAT, tb.size, st.to_move,
                     0 if st.finished is None else st.finished + 1, st.grace_left,
                     _ENDS.index(st.ended)))
    out += len(sats).to_bytes(2, "big")
    for i in sats:
        out += (i | (st.red >> i & 1) << 10 | value_at(st.vals, i) << 11).to_bytes(2, "big")
    for name in st.players:
        raw = name.encode("utf-8")
        out += len(raw).to_bytes(2, "big") + raw
    return bytes(out)


def decode(ruleset: Ruleset, data: bytes) -> State:
    """The state :func:`encode` wrote; ``ValueError`` if ``data`` is not such a state."""
    try:
        fmt, size, to_move, finished, grace, ended = data[:6]
        if fmt != _FORMAT or to_move > 1 or finished > 2 or ended >= len(_ENDS) or size < 1:
            raise ValueError("not a Satellites state")
        count = int.from_bytes(data[6:8], "big")
        cells = [0] * (size * size)
        at = 8
        for _ in range(count):
            word = int.from_bytes(data[at:at + 2], "big")
            at += 2
            cell, value = word & 1023, word >> 11
            if cell >= size * size or not value:
                raise ValueError("a satellite off the board")
            cells[cell] = value if word >> 10 & 1 else -value
        names = []
        for _ in range(2):
            n = int.from_bytes(data[at:at + 2], "big")
            names.append(data[at + 2:at + 2 + n].decode("utf-8"))
            at += 2 + n
        if at != len(data):
            raise ValueError("trailing bytes")
    except (IndexError, UnicodeDecodeError) as exc:
        raise ValueError(f"not a Satellites state ({exc})") from None
    tb = table(size)
    red, blue, vals = masks(cells, max(ruleset.max_value, max(map(abs, cells), default=0)))
    conn = connected(tb, red, blue)
    return State(tb, ruleset, red, blue, vals, conn, tuple(group_masks(tb, red, blue, conn)),
                 to_move, None if finished == 0 else finished - 1, grace, _ENDS[ended],
                 (names[0], names[1]))
