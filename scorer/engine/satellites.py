"""The Satellites rules engine: positions, whose turn, legal moves, applying them, the end.

Pure and self-contained (standard library plus the scorer's board types). The
rules are ``shared/rules/satellites.md``; where that page is silent this engine
decides, and every decision is listed in the README (section *Rules engines*):

* **Moving.** One unconnected satellite of the player to move goes 1 to
  *value* cells in a straight line (8 directions), jumping over anything, and
  ends on an empty cell. A move that ends with the satellite orthogonally next
  to an opponent satellite connects it: that is a *connection move* and must
  go exactly *value* cells. Any move that ends unconnected is a normal move.
* **Empty edge.** A move may make a connection only if, once it is made, at
  least one of the four edges (outer row or column) holds no satellite.
* **After every move**: no two connected satellites of one colour touch
  orthogonally, no group exceeds 6, and no group holds two former colonies.
* **Displacement.** The mover may end on a cell held by an *unconnected*
  opponent satellite when that cell touches (one of its 8 neighbours) a
  connected satellite of the mover, and the move is a connection move that
  leaves the mover in a group of 3 or more (it "could extend a colony"). The
  pushed satellite goes 1 or 2 cells from its cell in a straight line (8
  directions, jumping allowed) to a free cell (the mover's start cell counts as
  free) chosen by the mover; the position afterwards must obey every rule,
  and if the pushed satellite lands connected, that connection counts too.
* **Turns.** Red moves first, then the players alternate. A player with no
  legal move passes (and only then). A player whose 12 satellites are all
  connected is done; the other then makes exactly 3 moves in a row (a pass
  counts as one), after the move that completed the 12, whoever made it.
* **The end**: 23 connected satellites end the game at once; the 3 grace moves
  end it; it also ends when no connection can ever be made again (every edge
  holds a connected, locked satellite, so no edge can be empty again) and when
  neither player has a legal move.

Cells are indices ``row * size + column`` (row 0 is the north edge). A cell
holds ``0`` (empty), ``+value`` (red) or ``-value`` (blue).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from scorer.satellites.board import (
    SATELLITES_PER_COLOUR,
    Board,
    Satellite,
    cell_name,
    parse_cell,
)
from scorer.satellites.score import COLONY_MAX, COLONY_MIN, GAME_OVER_CONNECTED, GRACE_MOVES

if TYPE_CHECKING:
    import random

RED = 1
BLUE = -1
NAME = {RED: "red", BLUE: "blue"}
COLOUR_OF = {"red": RED, "blue": BLUE}
MAX_VALUE = 4
PUSH_REACH = 2  # a displaced satellite goes at most this many cells
EDGE_NAMES = ("north", "south", "west", "east")
# N, NE, E, SE, S, SW, W, NW as (row step, column step)
DIRECTIONS = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))

# why a game ended
END_23 = "23-connected"
END_GRACE = "grace-moves-used"
END_LOCKED = "no-connection-possible"
END_BLOCKED = "no-legal-moves"


# --- geometry ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Geometry:
    """Everything about a ``size`` x ``size`` board that never changes, precomputed."""

    size: int
    orth: tuple[tuple[int, ...], ...]  # orthogonal neighbours of each cell
    around: tuple[tuple[int, ...], ...]  # all 8 neighbours
    rays: tuple[tuple[tuple[int, ...], ...], ...]  # per cell, per direction: the next cells
    edges: tuple[tuple[int, ...], ...]  # per cell: the edges (0 N, 1 S, 2 W, 3 E) it lies on
    names: tuple[str, ...]

    def index(self, row: int, col: int) -> int | None:
        n = self.size
        return row * n + col if 0 <= row < n and 0 <= col < n else None

    def rc(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.size)


@lru_cache(maxsize=32)
def geometry(size: int) -> Geometry:
    """The (cached) geometry of a square board with ``size`` cells per side."""
    n = size
    reach = max(MAX_VALUE, PUSH_REACH)

    def inside(r: int, c: int) -> bool:
        return 0 <= r < n and 0 <= c < n

    orth, around, rays, edges, names = [], [], [], [], []
    for r in range(n):
        for c in range(n):
            orth.append(tuple(
                (r + dr) * n + c + dc
                for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
                if inside(r + dr, c + dc)
            ))
            around.append(tuple(
                (r + dr) * n + c + dc for dr, dc in DIRECTIONS if inside(r + dr, c + dc)
            ))
            rays.append(tuple(
                tuple(
                    (r + dr * k) * n + c + dc * k
                    for k in range(1, reach + 1)
                    if inside(r + dr * k, c + dc * k)
                )
                for dr, dc in DIRECTIONS
            ))
            edges.append(tuple(
                e for e, on in enumerate((r == 0, r == n - 1, c == 0, c == n - 1)) if on
            ))
            names.append(cell_name(r, c))
    return Geometry(n, tuple(orth), tuple(around), tuple(rays), tuple(edges), tuple(names))


def line_between(geo: Geometry, a: int, b: int) -> tuple[int, int] | None:
    """``(direction, distance)`` from ``a`` to ``b`` along one of the 8 lines, else ``None``."""
    (ra, ca), (rb, cb) = geo.rc(a), geo.rc(b)
    dr, dc = rb - ra, cb - ca
    if (dr == 0 and dc == 0) or (dr and dc and abs(dr) != abs(dc)):
        return None
    k = max(abs(dr), abs(dc))
    step = (dr // k, dc // k)
    return DIRECTIONS.index(step), k


# --- positions ----------------------------------------------------------------------------


class Analysis:
    """Connections, groups and edge counts of one position (computed once, then read)."""

    __slots__ = ("conn", "gid", "gsize", "members", "edge_count", "connected")

    def __init__(self, geo: Geometry, cells: tuple[int, ...] | list[int]) -> None:
        orth = geo.orth
        occupied = [i for i, s in enumerate(cells) if s]
        conn = [False] * len(cells)
        for i in occupied:
            s = cells[i]
            for u in orth[i]:
                if cells[u] * s < 0:
                    conn[i] = True
                    break
        gid = [-1] * len(cells)
        gsize: list[int] = []
        members: list[list[int]] = []
        for i in occupied:
            if conn[i] and gid[i] < 0:
                g = len(gsize)
                gid[i] = g
                stack, found = [i], []
                while stack:
                    a = stack.pop()
                    found.append(a)
                    sa = cells[a]
                    for u in orth[a]:
                        if gid[u] < 0 and cells[u] * sa < 0:
                            gid[u] = g
                            stack.append(u)
                found.sort()
                gsize.append(len(found))
                members.append(found)
        edge_count = [0, 0, 0, 0]
        connected = {RED: 0, BLUE: 0}
        for i in occupied:
            for e in geo.edges[i]:
                edge_count[e] += 1
            if conn[i]:
                connected[RED if cells[i] > 0 else BLUE] += 1
        self.conn = conn
        self.gid = gid
        self.gsize = gsize
        self.members = members
        self.edge_count = edge_count
        self.connected = connected

    @property
    def total_connected(self) -> int:
        return self.connected[RED] + self.connected[BLUE]


class Move(NamedTuple):
    """A move: ``frm`` -> ``to`` (cell indices), ``push`` where a displaced satellite goes.

    ``push`` is -1 for an ordinary move; the pass is ``Move(-1, -1, -1)``.
    """

    frm: int
    to: int
    push: int = -1

    @property
    def is_pass(self) -> bool:
        return self.frm < 0


PASS = Move(-1, -1, -1)


class State:
    """A position and whose turn it is, plus the grace-move count; immutable.

    ``finished`` is the colour that first had all its satellites connected (0:
    nobody yet), ``grace_left`` the moves the other player still has then.
    """

    __slots__ = ("geo", "cells", "to_move", "finished", "grace_left", "ended",
                 "_info", "_legal", "_end")

    def __init__(self, geo: Geometry, cells: tuple[int, ...], to_move: int = RED,
                 finished: int = 0, grace_left: int = 0, ended: str | None = None) -> None:
        self.geo = geo
        self.cells = cells
        self.to_move = to_move
        self.finished = finished
        self.grace_left = grace_left
        self.ended = ended  # an end decided by the last move (23, grace, locked edges)
        self._info: Analysis | None = None
        self._legal: list[Move] | None = None
        self._end: str | None | bool = False  # False: not computed yet

    @property
    def info(self) -> Analysis:
        if self._info is None:
            self._info = Analysis(self.geo, self.cells)
        return self._info

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move (without passes), in a stable order."""
        if self.ended is not None:
            return []
        if self._legal is None:
            self._legal = legal_moves(self.geo, self.cells, self.info, self.to_move)
        return self._legal

    @property
    def end_reason(self) -> str | None:
        """Why the game is over, or ``None`` while it goes on."""
        if self._end is False:
            self._end = self.ended
            if self._end is None and not self.finished and not self.legal_moves() \
                    and not legal_moves(self.geo, self.cells, self.info, -self.to_move):
                self._end = END_BLOCKED
        return self._end  # type: ignore[return-value]

    @property
    def over(self) -> bool:
        return self.end_reason is not None

    def after(self, move: Move) -> State:
        """The state after ``move``, which must be legal (not checked: see :func:`check`)."""
        cells = list(self.cells)
        mover = self.to_move
        if not move.is_pass:
            sat = cells[move.frm]
            cells[move.frm] = 0
            if move.push >= 0:
                cells[move.push] = cells[move.to]
            cells[move.to] = sat
        new_cells = tuple(cells)
        info = Analysis(self.geo, new_cells)
        finished, grace, ended = self.finished, self.grace_left, None
        to_move = -mover
        if info.total_connected >= GAME_OVER_CONNECTED:
            ended = END_23
        elif finished:
            grace -= 1  # only the grace player moves once a player is done
            to_move = mover
            if grace <= 0:
                ended = END_GRACE
        else:
            done = [c for c in (RED, BLUE) if info.connected[c] >= SATELLITES_PER_COLOUR]
            if done:
                finished, grace = done[0], GRACE_MOVES
                to_move = -done[0]
        if ended is None and edges_locked(self.geo, new_cells, info):
            ended = END_LOCKED
        state = State(self.geo, new_cells, to_move, finished, grace, ended)
        state._info = info
        return state

    def to_board(self) -> Board:
        """The position as the scorer's :class:`Board`."""
        n = self.geo.size
        return Board(tuple(
            tuple(_SATELLITE.get(s) for s in self.cells[r * n:(r + 1) * n]) for r in range(n)
        ))

    @property
    def grace_moves_left(self) -> int | None:
        """What the scorer calls ``grace_moves_left``: ``None`` while nobody is done."""
        return self.grace_left if self.finished else None

    def token(self, cell: int) -> str:
        """``'R3 on c1'`` for the satellite on ``cell``."""
        s = self.cells[cell]
        return f"{'R' if s > 0 else 'B'}{abs(s)} on {self.geo.names[cell]}"


_SATELLITE: dict[int, Satellite | None] = {0: None}
for _v in range(1, MAX_VALUE + 1):
    _SATELLITE[_v] = Satellite("red", _v)
    _SATELLITE[-_v] = Satellite("blue", _v)


def from_board(board: Board, to_move: int = RED, grace_left: int | None = None) -> State:
    """A state from a square scorer board (the caller has checked that it is valid).

    If a colour has all its satellites connected, ``grace_left`` says how many
    grace moves the other player still has (0 ends the game); the player to
    move is then the other one.
    """
    geo = geometry(board.width)
    cells = tuple(
        0 if s is None else (s.value if s.colour == "red" else -s.value)
        for row in board.rows for s in row
    )
    info = Analysis(geo, cells)
    finished, ended = 0, None
    done = [c for c in (RED, BLUE) if info.connected[c] >= SATELLITES_PER_COLOUR]
    grace = 0
    if info.total_connected >= GAME_OVER_CONNECTED:
        ended = END_23
    elif done:
        finished = done[0]
        grace = GRACE_MOVES if grace_left is None else grace_left
        to_move = -finished
        if grace <= 0:
            ended = END_GRACE
    if ended is None and edges_locked(geo, cells, info):
        ended = END_LOCKED
    state = State(geo, cells, to_move, finished, grace, ended)
    state._info = info
    return state


def edges_locked(geo: Geometry, cells: tuple[int, ...], info: Analysis) -> bool:
    """Every edge holds a connected satellite: no edge can ever be empty again."""
    locked = [False, False, False, False]
    for i, s in enumerate(cells):
        if s and info.conn[i]:
            for e in geo.edges[i]:
                locked[e] = True
    return all(locked)


def locked_edge_cells(geo: Geometry, cells: tuple[int, ...], info: Analysis) -> dict[str, int]:
    """Edge name -> a connected satellite on it (the first in reading order), for messages."""
    found: dict[int, int] = {}
    for i, s in enumerate(cells):
        if s and info.conn[i]:
            for e in geo.edges[i]:
                found.setdefault(e, i)
    return {EDGE_NAMES[e]: found[e] for e in sorted(found)}


# --- legal moves (the fast path) -------------------------------------------------------------


def legal_moves(geo: Geometry, cells: tuple[int, ...], info: Analysis, x: int) -> list[Move]:
    """Every legal move of colour ``x`` (+1 red, -1 blue), satellites in reading order."""
    out: list[Move] = []
    append = out.append
    conn, gid, gsize = info.conn, info.gid, info.gsize
    orth, rays, around, edges = geo.orth, geo.rays, geo.around, geo.edges
    counts = info.edge_count
    for o, s in enumerate(cells):
        if s * x <= 0 or conn[o]:
            continue
        v = s if s > 0 else -s
        eo = edges[o]
        for ray in rays[o]:
            k = 0
            for t in ray:
                k += 1
                if k > v:
                    break
                occ = cells[t]
                if occ:
                    if k == v and occ * x < 0 and not conn[t]:
                        for a in around[t]:
                            if cells[a] * x > 0 and conn[a]:
                                out.extend(_displacements(geo, cells, info, x, o, t))
                                break
                    continue
                touches = False
                for u in orth[t]:
                    if cells[u] * x < 0:
                        touches = True
                        break
                if not touches:
                    append(Move(o, t))
                    continue
                if k != v:
                    continue
                # a connection move: the empty edge, same-colour neighbours, group limits
                et = edges[t]
                free = False
                for e in range(4):
                    m = counts[e]
                    if e in eo:
                        m -= 1
                    if e in et:
                        m += 1
                    if m == 0:
                        free = True
                        break
                if not free:
                    continue
                size, colonies, seen, ok = 1, 0, [], True
                for u in orth[t]:
                    c = cells[u]
                    if c == 0 or u == o:
                        continue
                    if c * x > 0:
                        if conn[u]:
                            ok = False
                            break
                    elif conn[u]:
                        g = gid[u]
                        if g not in seen:
                            seen.append(g)
                            m = gsize[g]
                            size += m
                            if m >= COLONY_MIN:
                                colonies += 1
                    else:
                        size += 1
                        for w in orth[u]:
                            if cells[w] * c > 0 and conn[w]:
                                ok = False
                                break
                        if not ok:
                            break
                if ok and size <= COLONY_MAX and colonies <= 1:
                    append(Move(o, t))
    return out


def _displacements(geo: Geometry, cells: tuple[int, ...], info: Analysis, x: int,
                   o: int, t: int) -> list[Move]:
    """The legal pushes when the satellite on ``o`` displaces the one on ``t`` (rare: slow path)."""
    out: list[Move] = []
    # quick test first: on t (the pushed satellite gone) the mover needs opponents around it
    # making a group of 3 or more; most candidates fail here without building a position
    size, seen = 1, []
    for u in geo.orth[t]:
        if cells[u] * x < 0:
            if not info.conn[u]:
                size += 1
            elif info.gid[u] not in seen:
                seen.append(info.gid[u])
                size += info.gsize[info.gid[u]]
    if size < COLONY_MIN or _landing_problem(geo, cells, x, o, t) is not None:
        return out
    for ray in geo.rays[t]:
        for p in ray[:PUSH_REACH]:
            if cells[p] == 0 or p == o:
                after = _moved(cells, o, t, p)
                if _after_problem(geo, cells, info, after, x, o, t, p, abs(cells[o])) is None:
                    out.append(Move(o, t, p))
    return out


def _moved(cells: tuple[int, ...], o: int, t: int, p: int) -> list[int]:
    after = list(cells)
    sat = after[o]
    after[o] = 0
    if p >= 0:
        after[p] = after[t]
    after[t] = sat
    return after


# --- the rules, one reason at a time (the explaining path) ------------------------------------


def _after_problem(geo: Geometry, before: tuple[int, ...], info: Analysis, after: list[int],
                   x: int, o: int, t: int, p: int, k: int) -> str | None:
    """Why the position ``after`` (the mover gone ``k`` cells from ``o`` to ``t``, a pushed
    satellite now on ``p``, -1 if none) breaks a rule, or ``None`` if it is legal."""
    names = geo.names
    new = Analysis(geo, after)
    v = abs(after[t])
    mover = f"{_tok(after[t])} on {names[t]}"
    fresh = [i for i, s in enumerate(after) if s and new.conn[i] and (
        i in (t, p) or not info.conn[i])]
    if fresh and not any(n == 0 for n in new.edge_count):
        i = t if new.conn[t] else p
        who = mover if i == t else f"the pushed {_tok(after[p])} on {names[p]}"
        return (f"{who} would connect to {_touching(geo, after, i)}, but every edge (outer row "
                f"or column) would still hold a satellite; until one edge is empty, no move may "
                f"end next to an opponent's satellite")
    if new.conn[t] and k != v:
        return (f"it ends next to {_touching(geo, after, t)}, so {mover} would connect, and a "
                f"connection move goes exactly {v} cells (the satellite's value); this one "
                f"goes {k}")
    if p >= 0:
        problem = _landing_problem(geo, before, x, o, t)
        if problem is not None:
            return problem
    fresh_set = set(fresh)
    for i in fresh:
        for u in geo.orth[i]:
            if after[u] * after[i] > 0 and new.conn[u] and (u not in fresh_set or u > i):
                return (f"{_tok(after[i])} on {names[i]} and {_tok(after[u])} on {names[u]} "
                        f"would both be connected and touch; two connected satellites of one "
                        f"colour may never be orthogonally adjacent")
    for g, cells_g in enumerate(new.members):
        if not any(i in fresh_set for i in cells_g):
            continue
        old = sorted({info.gid[i] for i in cells_g if info.conn[i] and i not in (t, p)})
        colonies = [info.members[h] for h in old if info.gsize[h] >= COLONY_MIN]
        if len(colonies) > 1:
            return (f"it would join the colonies on {_cells(geo, colonies[0])} and on "
                    f"{_cells(geo, colonies[1])}; two colonies may never merge")
        if new.gsize[g] > COLONY_MAX:
            return (f"it would make a group of {new.gsize[g]} ({_cells(geo, cells_g)}); a group "
                    f"holds at most {COLONY_MAX} satellites")
    return None


def _landing_problem(geo: Geometry, cells: tuple[int, ...], x: int, o: int,
                     t: int) -> str | None:
    """A displacement must extend a colony where the mover lands: on ``t``, the pushed
    satellite not counted, the mover is connected in a group of 3 or more."""
    mid = _moved(cells, o, t, -1)  # the mover on t, the pushed satellite off the board
    info = Analysis(geo, mid)
    mover = f"{_tok(mid[t])} on {geo.names[t]}"
    if not info.conn[t]:
        return (f"a displacement must connect the moving satellite where it lands, but {mover} "
                f"would touch no {NAME[-x]} satellite there (the pushed one does not count)")
    size = info.gsize[info.gid[t]]
    if size < COLONY_MIN:
        return (f"a displacement must leave the moving satellite in a group of {COLONY_MIN} or "
                f"more (it is allowed only where it could extend a colony); {mover} would be in "
                f"a group of {size}, not counting the pushed satellite")
    return None


def _tok(s: int) -> str:
    return f"{'R' if s > 0 else 'B'}{abs(s)}"


def _touching(geo: Geometry, cells: list[int] | tuple[int, ...], t: int) -> str:
    near = [u for u in geo.orth[t] if cells[u] * cells[t] < 0]
    return " and ".join(f"{_tok(cells[u])} on {geo.names[u]}" for u in near)


def _cells(geo: Geometry, cells: list[int]) -> str:
    names = [geo.names[i] for i in cells]
    return ", ".join(names[:7]) + (f" and {len(names) - 7} more" if len(names) > 7 else "")


# --- the notation -------------------------------------------------------------------------


class NotationError(ValueError):
    """A move written in a way that cannot be read (not a question of the rules)."""


@dataclass(frozen=True)
class Written:
    """A move as written: cells as (row, column), possibly off the board; ``pass``."""

    text: str
    frm: tuple[int, int] | None  # None: a pass
    to: tuple[int, int] | None = None
    push: tuple[int, int] | None = None
    plus: bool = False  # marked as a connection with a trailing +

    @property
    def is_pass(self) -> bool:
        return self.frm is None


_MOVE = re.compile(r"^([a-z]+[0-9]+)-([a-z]+[0-9]+)(?:>([a-z]+[0-9]+))?(\+)?$")
NOTATION_HELP = (
    "write FROM-TO (c1-c4), a trailing + for a connection move (c1-c4+), FROM-TO>CELL for a "
    "displacement that pushes the satellite on TO to CELL (d5-d6>d8), or pass"
)


def parse_move(text: str) -> Written:
    """Read one move as written at the table; raise :class:`NotationError` if unreadable."""
    compact = re.sub(r"\s+", "", text).lower().replace("\u2013", "-").replace("\u2014", "-")
    if compact == "pass":
        return Written(text, None)
    match = _MOVE.match(compact)
    if match is None:
        raise NotationError(f"{_quoted(text)} is not a move: {NOTATION_HELP}")
    frm, to, push = (parse_cell(g) if g else None for g in match.groups()[:3])
    if frm is None or to is None or (match.group(3) and push is None):
        raise NotationError(f"{_quoted(text)} is not a move: {NOTATION_HELP}")
    return Written(text, frm, to, push, bool(match.group(4)))


def _quoted(text: str) -> str:
    short = text if len(text) <= 24 else text[:24] + "…"
    return repr(short)


def notation(geo: Geometry, move: Move, cells: tuple[int, ...] | None = None) -> str:
    """The move as written: ``c1-c4``, ``d5-d6>d8``, ``pass``; with ``cells`` (the position
    before the move) a ``+`` is added when the moving satellite ends connected."""
    if move.is_pass:
        return "pass"
    text = f"{geo.names[move.frm]}-{geo.names[move.to]}"
    if move.push >= 0:
        text += f">{geo.names[move.push]}"
    if cells is not None and _connects(geo, cells, move):
        text += "+"
    return text


def _connects(geo: Geometry, cells: tuple[int, ...], move: Move) -> bool:
    s = cells[move.frm]
    if move.push >= 0:
        return True  # a legal displacement always connects
    return any(cells[u] * s < 0 for u in geo.orth[move.to] if u != move.frm)


class IllegalMove(Exception):
    """A move the rules do not allow here; ``reason`` says why in one sentence."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def check(state: State, written: Written) -> Move:
    """The legal move ``written`` names in ``state``, or :class:`IllegalMove` saying why."""
    geo, cells = state.geo, state.cells
    who = NAME[state.to_move]
    if state.over:
        raise IllegalMove(f"the game is already over ({end_message(state)})")
    if written.is_pass:
        moves = state.legal_moves()
        if moves:
            raise IllegalMove(f"{who} may pass only with no legal move, and {who} has "
                              f"{len(moves)} legal move{'s' if len(moves) != 1 else ''}")
        return PASS
    assert written.frm is not None and written.to is not None
    places = []
    for rc in (written.frm, written.to, written.push):
        if rc is None:
            places.append(-1)
            continue
        i = geo.index(*rc)
        if i is None:
            last = geo.names[-1]
            raise IllegalMove(f"{cell_name(*rc)} is not on the board (columns a to {last[0]}, "
                              f"rows 1 to {geo.size})")
        places.append(i)
    o, t, p = places
    name_o, name_t = geo.names[o], geo.names[t]
    s = cells[o]
    x = state.to_move
    if s == 0:
        raise IllegalMove(f"there is no satellite on {name_o}")
    if s * x < 0 and state.finished == -x:
        left = state.grace_left
        raise IllegalMove(f"{NAME[-x]} has all {SATELLITES_PER_COLOUR} satellites connected and "
                          f"moves no more; {who} is making its grace moves ({left} left)")
    if s * x < 0:
        raise IllegalMove(f"{state.token(o)} is {NAME[-x]}, and it is {who}'s turn")
    info = state.info
    if info.conn[o]:
        raise IllegalMove(f"{state.token(o)} is connected (to {_touching(geo, cells, o)}); "
                          f"connected satellites are locked and never move")
    line = line_between(geo, o, t)
    if line is None:
        if o == t:
            raise IllegalMove(f"the move starts and ends on {name_o}")
        raise IllegalMove(f"{name_o} to {name_t} is not a straight line; satellites move along "
                          f"a row, a column or a diagonal")
    v = abs(s)
    k = line[1]
    if k > v:
        raise IllegalMove(f"{name_o} to {name_t} is {k} cells, and {_tok(s)} moves at most {v}")
    occ = cells[t]
    if occ == 0 and p >= 0:
        raise IllegalMove(f"{name_t} is empty, so there is nothing to push away; write "
                          f"{name_o}-{name_t}")
    if occ:
        _check_displacement(state, o, t, p, k, v)
    after = _moved(cells, o, t, p)
    problem = _after_problem(geo, cells, info, after, x, o, t, p, k)
    if problem is not None:
        raise IllegalMove(problem)
    move = Move(o, t, p)
    if written.plus and not _connects(geo, cells, move):
        raise IllegalMove(f"the move is marked + (a connection), but {_tok(s)} ends on {name_t} "
                          f"touching no {NAME[-x]} satellite; write {name_o}-{name_t}")
    return move


def _check_displacement(state: State, o: int, t: int, p: int, k: int, v: int) -> None:
    geo, cells, info, x = state.geo, state.cells, state.info, state.to_move
    name_t = geo.names[t]
    held = f"{name_t} is occupied by {_tok(cells[t])}"
    if cells[t] * x > 0:
        raise IllegalMove(f"{held}; a move never ends on an occupied cell")
    if info.conn[t]:
        raise IllegalMove(f"{held}, which is connected; a move never ends on an occupied cell, "
                          f"and only an unconnected satellite can be displaced")
    if not any(cells[a] * x > 0 and info.conn[a] for a in geo.around[t]):
        raise IllegalMove(f"{held}; a move never ends on an occupied cell, and {_tok(cells[t])} "
                          f"cannot be displaced because {name_t} is not next to a connected "
                          f"{NAME[x]} satellite")
    if k != v:
        raise IllegalMove(f"{held}; a displacement is a connection move and goes exactly {v} "
                          f"cells ({_tok(cells[o])}'s value), this one goes {k}")
    if p < 0:
        options = _displacements(geo, cells, info, x, o, t)
        if options:
            shown = ", ".join(geo.names[m.push] for m in sorted(options))
            raise IllegalMove(f"{held}: to displace it, write where it goes, "
                              f"{geo.names[o]}-{name_t}>CELL with CELL one of {shown}")
        raise IllegalMove(f"{held}, and no push of it leaves a legal position")
    line = line_between(geo, t, p)
    pushed = _tok(cells[t])
    if line is None:
        raise IllegalMove(f"{name_t} to {geo.names[p]} is not a straight line; the displaced "
                          f"{pushed} goes along a row, a column or a diagonal")
    if line[1] > PUSH_REACH:
        raise IllegalMove(f"{name_t} to {geo.names[p]} is {line[1]} cells; the displaced "
                          f"{pushed} goes at most {PUSH_REACH}")
    if cells[p] != 0 and p != o:
        raise IllegalMove(f"the displaced {pushed} cannot go to {geo.names[p]}: it is occupied "
                          f"by {_tok(cells[p])}")


# --- the end ----------------------------------------------------------------------------------


def end_message(state: State) -> str:
    """One sentence on the state of the game: why it is over, or who is to move."""
    reason = state.end_reason
    info = state.info
    if reason == END_23:
        return (f"{info.total_connected} satellites are connected, and the game ends at once "
                f"at {GAME_OVER_CONNECTED}")
    if reason == END_GRACE:
        done = NAME[state.finished]
        return (f"{done} has all {SATELLITES_PER_COLOUR} satellites connected and "
                f"{NAME[-state.finished]} has made its {GRACE_MOVES} grace moves")
    if reason == END_LOCKED:
        cells = locked_edge_cells(state.geo, state.cells, info)
        where = ", ".join(f"{edge} {state.token(i)}" for edge, i in cells.items())
        return (f"every edge holds a connected satellite ({where}), so no edge can be empty "
                f"again, no connection can be made and the score cannot change")
    if reason == END_BLOCKED:
        return "neither player has a legal move"
    who = NAME[state.to_move]
    if state.finished:
        left = state.grace_left
        return (f"{NAME[state.finished]} has all {SATELLITES_PER_COLOUR} satellites connected; "
                f"{who} to move, {left} grace move{'s' if left != 1 else ''} left")
    if not state.legal_moves():
        return f"{who} to move, and {who} has no legal move, so {who} must pass"
    return f"{who} to move"


# --- playing many games ---------------------------------------------------------------------


def random_game(state: State, rng: random.Random, max_moves: int = 5000,
                connect_bias: float = 0.0) -> tuple[list[Move], State]:
    """Play random legal moves from ``state`` until the game ends (or ``max_moves``).

    ``rng`` is a :class:`random.Random`. With ``connect_bias`` > 0 a connecting
    move, when there is one, is chosen with that probability (games end sooner).
    """
    moves: list[Move] = []
    while not state.over and len(moves) < max_moves:
        legal = state.legal_moves()
        if not legal:
            move = PASS
        else:
            move = legal[rng.randrange(len(legal))]
            if connect_bias and rng.random() < connect_bias:
                joining = [m for m in legal if _connects(state.geo, state.cells, m)]
                if joining:
                    move = joining[rng.randrange(len(joining))]
        moves.append(move)
        state = state.after(move)
    return moves, state
