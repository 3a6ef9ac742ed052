"""The Satellites engine: immutable states, the deal, applying a move, the end.

The rules are ``docs/rules/satellites.md``; with :mod:`rules.satellites.legal` (the legal
moves) and :mod:`rules.satellites.why` (why a move is illegal) this applies every rule of
*Play* and *End of the game* (S-15 to S-42) with the engine decisions S-56 to S-58.
:func:`apply` moves, updates the connections (they only ever grow: S-21) and decides the
end: the end count and the grace moves (S-37 to S-40,
:func:`~rules.satellites.analysis.end_after`), every edge locked (S-42), a game stuck
for ``stall_moves`` moves without a connection (S-62); :func:`end_reason` adds S-41,
neither player able to move.

A state is a :class:`State` (a named tuple: immutable, cheap to make); actions are ints
(:mod:`rules.satellites.actions`). Seats: 0 is red, 1 is blue
(:data:`~rules.satellites.ruleset.RED_SEAT`, ``COLOURS[seat]`` is the seat's colour). All
numbers come from the state's :class:`~rules.satellites.ruleset.Ruleset`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from rules.game import SetupError
from rules.satellites.actions import PASS, parts
from rules.satellites.analysis import (
    END_BLOCKED,
    END_CONNECTED,
    END_GRACE,
    END_LOCKED,
    END_STALLED,
    connected,
    edges_locked,
    end_after,
    group_masks,
    groups,
    join,
    locked_edges,
    masks,
    plural,
    signed_cells,
    value_at,
)
from rules.satellites.legal import has_move, random_action
from rules.satellites.notation import move_text
from rules.satellites.ruleset import COLOURS, RED_SEAT, SEAT_OF, Ruleset
from rules.satellites.score import Standing, standing
from rules.satellites.table import Table, column_name, setup_zones, table

if TYPE_CHECKING:
    import random

__all__ = ["END_BLOCKED", "END_CONNECTED", "END_GRACE", "END_LOCKED", "END_STALLED", "State",
           "apply",
           "deal", "decode", "encode", "end_message", "end_reason", "is_over", "start"]


class State(NamedTuple):
    """A position, whose turn it is and how the game stands; immutable.

    ``red``/``blue`` are masks of the cells each colour holds, ``vals[v]`` the mask of the
    cells holding a satellite of value ``v``, ``conn`` the connected satellites and
    ``groups`` the mask of each group (in reading order of their first cell; kept up to
    date move by move, since groups only ever grow and merge).
    ``finished`` is the seat that first had every satellite connected (None: nobody yet),
    ``grace_left`` the moves the other player still has then; ``ended`` is an end the last
    move decided (S-37, S-39, S-42, S-62; :func:`end_reason` also finds S-41); ``quiet``
    the moves in a row, passes included, that connected no satellite (S-62).
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
    quiet: int = 0

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

    def satellite(self, cell: int) -> str:
        """``'R3'`` for the satellite on ``cell``."""
        return f"{'R' if self.red >> cell & 1 else 'B'}{value_at(self.vals, cell)}"

    def token(self, cell: int) -> str:
        """``'R3 on c1'`` for the satellite on ``cell``."""
        return f"{self.satellite(cell)} on {self.table.names[cell]}"


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
    red_connected = (conn & red).bit_count()
    finished, grace, ended = end_after(ruleset, red_connected, conn.bit_count() - red_connected,
                                       grace=grace_left)
    x = SEAT_OF[ruleset.first] if to_move is None else to_move
    if finished is not None and ended != END_CONNECTED:
        x = 1 - finished  # the other player makes the grace moves
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


# --- applying a move and the end ---------------------------------------------------------------


def apply(st: State, code: int) -> State:
    """The state after ``code``, which must be legal (not checked here: see
    :func:`rules.satellites.why.check`)."""
    tb, rs, red, blue, vals, conn, groups, x, finished, grace, _, players, quiet = st
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
            if x == RED_SEAT:
                red ^= move
                blue ^= bt | bp
            else:
                blue ^= move
                red ^= bt | bp
        else:
            bp = 0
            vl[v] ^= move
            if x == RED_SEAT:
                red ^= move
            else:
                blue ^= move
        vals = tuple(vl)
        # the mover and any pushed satellite were unconnected, so connections only grow
        # (S-21), and only around the cells they land on; groups only merge
        own2, opp2 = (red, blue) if x == RED_SEAT else (blue, red)
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
    to_move, ended = 1 - x, None
    if linked or finished is not None:  # else nothing the end depends on changed
        red_connected = (conn & red).bit_count()
        was = finished
        finished, grace, ended = end_after(rs, red_connected, conn.bit_count() - red_connected,
                                           finished, grace)
        if finished is not None and ended != END_CONNECTED:
            # the grace player moves until the game ends (S-40)
            to_move = x if was is not None else 1 - finished
        if ended is None and linked and edges_locked(tb, conn):  # S-42, new connections only
            ended = END_LOCKED
    quiet = 0 if linked else quiet + 1
    if ended is None and quiet >= rs.stall_moves:  # S-62: a game that is stuck
        ended = END_STALLED
    return _new(State, (tb, rs, red, blue, vals, conn, groups, to_move, finished, grace, ended,
                        players, quiet))


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
    opp = st.blue if st.to_move == RED_SEAT else st.red
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
    if reason == END_STALLED:
        return (f"{plural(rs.stall_moves, 'move')} in a row connected no satellite, so the "
                f"game ends as the board stands (rule S-62)")
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

_FORMAT = 2  # 1: without the count of moves that connected nothing (read as 0)
_ENDS = (None, END_CONNECTED, END_GRACE, END_LOCKED, END_STALLED)


def encode(st: State) -> bytes:
    """The state in a few dozen bytes: a header, two bytes per satellite (cell, colour,
    value) and the players' names. :func:`decode` with the same ruleset restores it."""
    tb = st.table
    occ = st.red | st.blue
    sats = tb.cells_of(occ)
    out = bytearray((_FORMAT, tb.size, st.to_move,
                     0 if st.finished is None else st.finished + 1, st.grace_left,
                     _ENDS.index(st.ended)))
    out += st.quiet.to_bytes(2, "big")
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
        if fmt not in (1, _FORMAT) or to_move > 1 or finished > 2 or ended >= len(_ENDS) \
                or size < 1:
            raise ValueError("not a Satellites state")
        at = 6
        quiet = 0
        if fmt >= 2:
            quiet = int.from_bytes(data[6:8], "big")
            at = 8
        count = int.from_bytes(data[at:at + 2], "big")
        cells = [0] * (size * size)
        at += 2
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
                 (names[0], names[1]), quiet)
