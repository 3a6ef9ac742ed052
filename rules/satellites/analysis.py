"""What a Satellites position shows: connections, groups, colonies, control, crowns, the
connected counts and the end. The one implementation, used by the scorer, the engine, the
replay, the booklet diagrams and the pictures.

A position is three things over a :class:`~rules.satellites.table.Table`: the mask of red
satellites, the mask of blue ones, and ``vals``, where ``vals[v]`` is the mask of the cells
holding a satellite of value ``v`` (either colour; ``vals[0]`` is 0). The rule numbers
come from the :class:`~rules.satellites.ruleset.Ruleset`.

The rules are ``docs/rules/satellites.md``; the numbers S-n below refer to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from rules.satellites.ruleset import BLUE, BLUE_SEAT, RED, RED_SEAT, Ruleset
from rules.satellites.table import Table, column_name

# --- building a position ------------------------------------------------------------------------


def masks(cells: Sequence[int], top: int | None = None) -> tuple[int, int, tuple[int, ...]]:
    """``(red, blue, vals)`` of cells written as signed values (``+v`` red, ``-v`` blue,
    ``0`` empty), cell ``i`` of the sequence being cell ``i`` of the board. ``top``: the
    highest value there may be (default: the highest on the board)."""
    red = blue = 0
    highest = max((abs(s) for s in cells), default=0) if top is None else top
    vals = [0] * (highest + 1)
    for i, s in enumerate(cells):
        if s > 0:
            red |= 1 << i
            vals[s] |= 1 << i
        elif s < 0:
            blue |= 1 << i
            vals[-s] |= 1 << i
    return red, blue, tuple(vals)


def signed_cells(tb: Table, red: int, blue: int, vals: Sequence[int]) -> tuple[int, ...]:
    """The position as signed values per cell (the inverse of :func:`masks`)."""
    out = [0] * (tb.rows * tb.cols)
    for v in range(1, len(vals)):
        m = vals[v]
        while m:
            low = m & -m
            i = low.bit_length() - 1
            out[i] = v if red & low else -v
            m ^= low
    return tuple(out)


def value_at(vals: Sequence[int], cell: int) -> int:
    """The value of the satellite on ``cell`` (0: empty)."""
    bit = 1 << cell
    for v in range(1, len(vals)):
        if vals[v] & bit:
            return v
    return 0


def value_sum(vals: Sequence[int], mask: int) -> int:
    """The total value of the satellites on the cells of ``mask``."""
    return sum(v * (vals[v] & mask).bit_count() for v in range(1, len(vals)))


# --- connections and groups (S-20, S-26) --------------------------------------------------------


def connected(tb: Table, red: int, blue: int) -> int:
    """The connected satellites: those orthogonally next to one of the other colour (S-20)."""
    return (red & tb.spread(blue)) | (blue & tb.spread(red))


def links(tb: Table, red: int, blue: int) -> list[tuple[int, int]]:
    """Every connection as a pair of cells (the west or north one first), in reading order."""
    out = []
    for a in tb.cells_of(connected(tb, red, blue)):
        other = blue if red >> a & 1 else red
        out.extend((a, b) for b in tb.orth[a] if b > a and other >> b & 1)
    return out


def group(tb: Table, seed: int, red: int, blue: int) -> int:
    """The group holding the cells of ``seed`` (one connected satellite, or several of
    one group): everything linked to them by connections (S-26)."""
    spread = tb.spread
    g = seed
    while True:
        grown = g | (spread(g & red) & blue) | (spread(g & blue) & red)
        if grown == g:
            return g
        g = grown


def merged(found: tuple[int, ...], linked: int) -> int:
    """The group the cells of ``linked`` (satellites just linked to one another) make with
    the groups ``found`` they touch."""
    for g in found:
        if g & linked:
            linked |= g
    return linked


def join(found: tuple[int, ...], linked: int) -> tuple[int, ...]:
    """The groups ``found`` (in reading order of their first cell) once the cells of
    ``linked`` (satellites just linked to one another) are connected: every group they
    touch merges with them (groups never split, S-21). The result is in reading order too."""
    rest = []
    for g in found:
        if g & linked:
            linked |= g
        else:
            rest.append(g)
    first = linked & -linked
    at = len(rest)
    for i, g in enumerate(rest):
        if g & -g > first:
            at = i
            break
    rest.insert(at, linked)
    return tuple(rest)


def group_masks(tb: Table, red: int, blue: int, conn: int | None = None) -> list[int]:
    """Every group, in reading order of its first cell."""
    left = connected(tb, red, blue) if conn is None else conn
    out = []
    while left:
        g = group(tb, left & -left, red, blue)
        out.append(g)
        left &= ~g
    return out


# --- colonies, control, crowns (S-27, S-28, S-43, S-44) -----------------------------------------


def controller(ruleset: Ruleset, size: int, red_total: int, blue_total: int) -> str | None:
    """Who controls a group: the colour with the greater total in a colony (S-43); nobody
    in a contested colony (S-44) or in a group that is no colony (S-45)."""
    if size < ruleset.colony_min or red_total == blue_total:
        return None
    return RED if red_total > blue_total else BLUE


@dataclass(frozen=True)
class Group:
    """One group as the scorer reports it; ``label`` is ``A``, ``B`` ... for colonies and
    ``a``, ``b`` ... for the others, by the group's place in reading order."""

    label: str
    cells: tuple[tuple[int, int], ...]  # (row, col), reading order
    names: tuple[str, ...]
    red: int  # total value of the red satellites in the group
    blue: int
    colony: bool
    crowned: bool
    controller: str | None
    mask: int

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def total(self) -> int:
        return self.red + self.blue

    @property
    def contested(self) -> bool:
        return self.colony and self.red == self.blue

    @property
    def cell_names(self) -> list[str]:
        return list(self.names)


def groups(tb: Table, red: int, blue: int, vals: Sequence[int], ruleset: Ruleset,
           conn: int | None = None, found: Sequence[int] | None = None) -> tuple[Group, ...]:
    """Every group of the position with its totals, colony, crown and controller
    (``found``: the mask of every group in reading order, as an engine state keeps them;
    default: worked out from the connections)."""
    out = []
    for index, g in enumerate(group_masks(tb, red, blue, conn) if found is None else found):
        cells = tb.cells_of(g)
        size = len(cells)
        r, b = value_sum(vals, g & red), value_sum(vals, g & blue)
        colony = size >= ruleset.colony_min
        label = column_name(index).upper() if colony else column_name(index)
        out.append(Group(label, tuple(tb.rc(i) for i in cells),
                         tuple(tb.names[i] for i in cells), r, b, colony,
                         size == ruleset.colony_max, controller(ruleset, size, r, b), g))
    return tuple(out)


# --- edges and the end (S-22, S-37, S-39, S-42) -------------------------------------------------


def empty_edge(tb: Table, occupied: int) -> bool:
    """Some edge holds no satellite, so a connection may be made (S-22)."""
    e = tb.edge_masks
    return not (occupied & e[0] and occupied & e[1] and occupied & e[2] and occupied & e[3])


def edges_locked(tb: Table, conn: int) -> bool:
    """Every edge holds a connected satellite: no edge can ever be empty again (S-42)."""
    e = tb.edge_masks
    return bool(conn & e[0] and conn & e[1] and conn & e[2] and conn & e[3])


def locked_edges(tb: Table, conn: int) -> list[tuple[str, int]]:
    """``(edge name, cell)`` of the first connected satellite on each edge, for messages."""
    from rules.satellites.table import EDGE_NAMES

    return [(name, (conn & m & -(conn & m)).bit_length() - 1)
            for name, m in zip(EDGE_NAMES, tb.edge_masks, strict=True) if conn & m]


# why a game ended (the engine's codes; the scorer words the first as ``23-connected``)
END_CONNECTED = "connected"  # S-37
END_GRACE = "grace-moves-used"  # S-39
END_LOCKED = "no-connection-possible"  # S-42
END_BLOCKED = "no-legal-moves"  # S-41
END_STALLED = "stalled"  # S-62: stall_moves moves in a row connected nothing


class Ending(NamedTuple):
    """How the end count and the grace moves stand (S-37 to S-40): ``finished`` the seat
    that first had every satellite connected (``None``: nobody yet), ``grace_left`` the
    moves the other player still has then, ``ended`` :data:`END_CONNECTED`,
    :data:`END_GRACE` or ``None``."""

    finished: int | None
    grace_left: int
    ended: str | None


def end_after(ruleset: Ruleset, red_connected: int, blue_connected: int,
              finished: int | None = None, grace_left: int = 0,
              grace: int | None = None) -> Ending:
    """The end count and the grace moves once ``red_connected`` and ``blue_connected``
    satellites are connected: the one place they are decided (the engine after every move
    and for a position set up, the scorer for a board).

    ``finished`` and ``grace_left`` are how they stood before the move just made: with a
    seat finished, that move was one of the grace moves (S-40: the other player moves no
    more, and a pass counts). ``grace``: the grace moves a player who is done only now
    leaves the other (default all of them; a position set up in the middle of the grace
    moves says how many are left). The end count ends the game at once, grace moves or not
    (S-37, S-38); a player with every satellite connected is done, red first if both are
    (S-39)."""
    if red_connected + blue_connected >= ruleset.end_connected:
        return Ending(finished, grace_left, END_CONNECTED)
    if finished is not None:
        grace_left -= 1
        return Ending(finished, grace_left, END_GRACE if grace_left <= 0 else None)
    if red_connected >= ruleset.red.count:
        finished = RED_SEAT
    elif blue_connected >= ruleset.blue.count:
        finished = BLUE_SEAT
    else:
        return Ending(None, grace_left, None)
    left = ruleset.grace_moves if grace is None else grace
    return Ending(finished, left, END_GRACE if left <= 0 else None)


def finished_colours(ruleset: Ruleset, red_connected: int, blue_connected: int) -> tuple[str, ...]:
    """The colours with every satellite connected (S-39), red first."""
    return tuple(c for c, n in ((RED, red_connected), (BLUE, blue_connected))
                 if n >= ruleset.colour(c).count)


def connected_reason(ruleset: Ruleset) -> str:
    """The scorer's code for the end of S-37 (``23-connected`` by default)."""
    return f"{ruleset.end_connected}-connected"


def per_player(ruleset: Ruleset) -> str:
    """How many satellites each player has, for sentences ("12")."""
    if ruleset.red.count == ruleset.blue.count:
        return str(ruleset.red.count)
    return f"{ruleset.red.count} (red) or {ruleset.blue.count} (blue)"


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else many or word + 's'}"


def ordinal(n: int) -> str:
    """``13 -> '13th'``, ``21 -> '21st'``."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def spoken_list(items: Iterable[object], last: str = "or") -> str:
    """``0, 1, 2 or 3``."""
    words = [str(i) for i in items]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {last} {words[-1]}"
