"""The Satellites board: cells and their names, neighbours, lines, and the bit masks the
analysis and the engine work with.

A board has ``rows`` x ``cols`` cells (a game is played on a square one, S-3; the scorer
also reads what a player wrote down, which may be neither square nor the printed size).
Cell ``i`` is ``row * cols + col``, row 0 being the north edge and column 0 the west edge,
and it is bit ``i`` of a mask: a set of cells is one Python ``int``. Names follow S-4:
column letters (``a`` ... ``z``, then ``aa``), then the row number from 1.

Everything here is fixed for a board size and computed once (:func:`table` caches it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from rules.satellites.ruleset import Ruleset

# the 8 directions of S-10 as (row step, column step): N, NE, E, SE, S, SW, W, NW
DIRECTIONS = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
ORTHOGONAL = ((-1, 0), (0, -1), (0, 1), (1, 0))  # N, W, E, S: the order cells are listed in
EDGES = ("N", "S", "W", "E")
EDGE_NAMES = ("north", "south", "west", "east")


# --- names (S-4) ------------------------------------------------------------------------------


def column_name(col: int) -> str:
    """``0 -> 'a'``, ``25 -> 'z'``, ``26 -> 'aa'`` (spreadsheet style beyond z)."""
    name = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        name = chr(ord("a") + rest) + name
    return name


def cell_name(row: int, col: int) -> str:
    """The name players use for a cell: column letter then row number, e.g. ``c3``."""
    return f"{column_name(col)}{row + 1}"


_CELL = re.compile(r"^([a-z]+)([0-9]+)$")


def parse_cell(name: str) -> tuple[int, int] | None:
    """``'c3' -> (2, 2)`` as (row, column), 0-based; ``None`` if it is not a cell name."""
    match = _CELL.match(name)
    # the largest board has 26 columns and 26 rows; longer names are no cell (and a row
    # number of thousands of digits would not even turn into a number)
    if match is None or len(match.group(1)) > 3 or len(match.group(2)) > 4:
        return None
    col = 0
    for ch in match.group(1):
        col = col * 26 + (ord(ch) - ord("a") + 1)
    return int(match.group(2)) - 1, col - 1


# --- the table ----------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Table:
    """One board size, precomputed. Build it with :func:`table` (cached)."""

    rows: int
    cols: int
    names: tuple[str, ...]
    full: int  # every cell
    not_west: int  # every cell but the west column
    not_east: int
    edge_masks: tuple[int, int, int, int]  # N, S, W, E
    orth: tuple[tuple[int, ...], ...]  # per cell: its orthogonal neighbours (N, W, E, S)
    orth_mask: tuple[int, ...]
    around: tuple[tuple[int, ...], ...]  # per cell: its 8 neighbours (S-9)
    around_mask: tuple[int, ...]
    _reach: dict[int, tuple[int, ...]] = field(default_factory=dict, repr=False)
    _exact: dict[int, tuple[int, ...]] = field(default_factory=dict, repr=False)
    _rays: dict[int, tuple[tuple[tuple[int, ...], ...], ...]] = field(default_factory=dict,
                                                                      repr=False)
    _by_value: dict[tuple[str, int], tuple[tuple[int, ...], ...]] = field(default_factory=dict,
                                                                          repr=False)

    def __repr__(self) -> str:
        return f"Table({self.rows} x {self.cols})"

    @property
    def size(self) -> int:
        """Cells per side of a square board (the number of columns)."""
        return self.cols

    @property
    def square(self) -> bool:
        return self.rows == self.cols

    def index(self, row: int, col: int) -> int | None:
        """The cell at ``(row, col)``, or ``None`` off the board."""
        if 0 <= row < self.rows and 0 <= col < self.cols:
            return row * self.cols + col
        return None

    def rc(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.cols)

    def spread(self, mask: int) -> int:
        """The cells orthogonally next to any cell of ``mask`` (S-9)."""
        n = self.cols
        return ((mask << n) | (mask >> n) | ((mask & self.not_east) << 1)
                | ((mask & self.not_west) >> 1)) & self.full

    def spread8(self, mask: int) -> int:
        """The cells among the 8 neighbours of any cell of ``mask``, and ``mask`` itself."""
        n = self.cols
        h = mask | ((mask & self.not_east) << 1) | ((mask & self.not_west) >> 1)
        return (h | (h << n) | (h >> n)) & self.full

    def line(self, a: int, b: int) -> tuple[int, int] | None:
        """``(direction, distance)`` from ``a`` to ``b`` along one of the 8 lines of S-10
        (direction: an index into :data:`DIRECTIONS`), else ``None``."""
        (ra, ca), (rb, cb) = self.rc(a), self.rc(b)
        dr, dc = rb - ra, cb - ca
        if (dr == 0 and dc == 0) or (dr and dc and abs(dr) != abs(dc)):
            return None
        k = max(abs(dr), abs(dc))
        return DIRECTIONS.index((dr // k, dc // k)), k

    def rays(self, reach: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """Per cell, per direction: the cells 1 to ``reach`` steps away, nearest first."""
        found = self._rays.get(reach)
        if found is None:
            out = []
            for cell in range(self.rows * self.cols):
                r, c = self.rc(cell)
                out.append(tuple(
                    tuple(i for k in range(1, reach + 1)
                          if (i := self.index(r + dr * k, c + dc * k)) is not None)
                    for dr, dc in DIRECTIONS))
            found = self._rays[reach] = tuple(out)
        return found

    def reach(self, value: int) -> tuple[int, ...]:
        """Per cell: the cells 1 to ``value`` steps away along the 8 lines (jumping, S-16)."""
        found = self._reach.get(value)
        if found is None:
            found = self._reach[value] = tuple(
                _mask(t for ray in rays for t in ray) for rays in self.rays(value))
        return found

    def exact(self, value: int) -> tuple[int, ...]:
        """Per cell: the cells exactly ``value`` steps away along the 8 lines (S-18)."""
        found = self._exact.get(value)
        if found is None:
            found = self._exact[value] = tuple(
                _mask(ray[value - 1] for ray in rays if len(ray) >= value)
                for rays in self.rays(value))
        return found

    def reaches(self, top: int) -> tuple[tuple[int, ...], ...]:
        """:meth:`reach` of every value from 0 (nothing) to ``top``, indexed by value."""
        return self._every_value("reach", top)

    def exacts(self, top: int) -> tuple[tuple[int, ...], ...]:
        """:meth:`exact` of every value from 0 (nothing) to ``top``, indexed by value."""
        return self._every_value("exact", top)

    def _every_value(self, kind: str, top: int) -> tuple[tuple[int, ...], ...]:
        found = self._by_value.get((kind, top))
        if found is None:
            per_value = self.reach if kind == "reach" else self.exact
            found = self._by_value[(kind, top)] = ((0,) * (self.rows * self.cols),) + tuple(
                per_value(v) for v in range(1, top + 1))
        return found

    def cells_of(self, mask: int) -> list[int]:
        """The cells of ``mask``, in reading order."""
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out

    def list_names(self, cells: list[int] | tuple[int, ...], limit: int = 7) -> str:
        """``c1, d1, e1`` - or the first ``limit`` and how many more, so a sentence stays
        short."""
        names = [self.names[i] for i in cells]
        more = len(names) - limit
        return ", ".join(names[:limit]) + (f" and {more} more" if more > 0 else "")


def _mask(cells: object) -> int:
    out = 0
    for i in cells:  # type: ignore[attr-defined]
        out |= 1 << i
    return out


@lru_cache(maxsize=64)
def table(rows: int, cols: int | None = None) -> Table:
    """The (cached) table of a board of ``rows`` x ``cols`` cells (square if ``cols`` is
    not given)."""
    cols = rows if cols is None else cols
    n = rows * cols

    def at(r: int, c: int) -> int | None:
        return r * cols + c if 0 <= r < rows and 0 <= c < cols else None

    orth, around, names = [], [], []
    for r in range(rows):
        for c in range(cols):
            orth.append(tuple(i for dr, dc in ORTHOGONAL if (i := at(r + dr, c + dc)) is not None))
            around.append(tuple(i for dr, dc in DIRECTIONS
                                if (i := at(r + dr, c + dc)) is not None))
            names.append(cell_name(r, c))
    west = _mask(r * cols for r in range(rows))
    east = _mask(r * cols + cols - 1 for r in range(rows))
    full = (1 << n) - 1
    edges = (_mask(range(cols)), _mask(range((rows - 1) * cols, n)), west, east)
    return Table(rows, cols, tuple(names), full, full & ~west, full & ~east, edges,
                 tuple(orth), tuple(_mask(o) for o in orth), tuple(around),
                 tuple(_mask(a) for a in around))


# --- the setup zones (S-11, S-12, S-13) ---------------------------------------------------------


def setup_zones(ruleset: Ruleset, colour: str,
                size: int | None = None) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(start cells, inward cells) of one colour as ``(row, col)``, edge by edge in the
    colour's order, each edge west to east or north to south: the ``setup_zone_cells``
    central cells of the edge, and for each the cell one step inward (S-12, S-13)."""
    n = size or ruleset.size
    zone = ruleset.setup_zone_cells
    first = (n - zone) // 2
    span = range(first, first + zone)
    starts: list[tuple[int, int]] = []
    inward: list[tuple[int, int]] = []
    for edge in ruleset.colour(colour).edges:
        if edge == "N":
            starts += [(0, c) for c in span]
            inward += [(1, c) for c in span]
        elif edge == "S":
            starts += [(n - 1, c) for c in span]
            inward += [(n - 2, c) for c in span]
        elif edge == "W":
            starts += [(r, 0) for r in span]
            inward += [(r, 1) for r in span]
        else:
            starts += [(r, n - 1) for r in span]
            inward += [(r, n - 2) for r in span]
    return starts, inward
