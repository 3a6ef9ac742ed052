"""Scoring a Satellites board: pure functions from a :class:`Board` to a :class:`Score`.

The rules (``shared/rules/satellites.md``) as implemented here:

* two satellites of different colours that are orthogonally adjacent are
  **connected**; a satellite with no such neighbour is unconnected;
* a **group** is a maximal set of satellites linked by connections; a group of
  3 or more is a **colony**, a colony of 6 is **crowned**;
* the colour with the greater total value in a colony is its **controller**;
  equal totals leave it contested (no controller);
* the player controlling more colonies wins; on equal counts the player who
  controls the colony with the lowest total value (both colours) wins; equal
  lowest totals, or no controlled colony at all, is a draw;
* 23 connected satellites end the game at once; the first player with all 12
  connected is done and the other has 3 grace moves.

Every item of the result says where on the board it came from (cells), so the
terminal summary, the JSON and the picture are all renderings of one
:class:`Score`.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorer.common import Violation
from scorer.satellites.board import (
    BLUE,
    COLOURS,
    COPIES_PER_VALUE,
    RED,
    SATELLITES_PER_COLOUR,
    VALUES,
    Board,
    Satellite,
    cell_name,
    column_name,
    parse_cell,
)

COLONY_MIN = 3
COLONY_MAX = 6  # a colony of this size is crowned and can grow no further
GAME_OVER_CONNECTED = 23
GRACE_MOVES = 3

Cell = tuple[int, int]  # (row, column), 0-based; row 0 is the north edge


@dataclass(frozen=True)
class Group:
    """Satellites linked by connections; ``label`` is A, B… for colonies, a, b… otherwise."""

    label: str
    cells: tuple[Cell, ...]  # in reading order
    red: int  # total value of the red satellites in the group
    blue: int

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def colony(self) -> bool:
        return self.size >= COLONY_MIN

    @property
    def crowned(self) -> bool:
        return self.size == COLONY_MAX

    @property
    def total(self) -> int:
        return self.red + self.blue

    @property
    def controller(self) -> str | None:
        """The colour with the greater total in a colony; ``None`` if contested or no colony."""
        if not self.colony or self.red == self.blue:
            return None
        return RED if self.red > self.blue else BLUE

    @property
    def contested(self) -> bool:
        return self.colony and self.red == self.blue

    @property
    def cell_names(self) -> list[str]:
        return [cell_name(r, c) for r, c in self.cells]


@dataclass(frozen=True)
class End:
    """The end-of-game state the board shows.

    ``over`` is ``None`` when it cannot be told from the board: a player has all
    12 connected but the input does not say how many grace moves are left.
    """

    connected: int  # both colours together
    over: bool | None
    reason: str | None  # "23-connected", "grace-moves-used" or None
    finished: tuple[str, ...]  # colours with all 12 satellites connected
    grace_player: str | None  # who makes the grace moves, while they matter
    grace_moves_left: int | None
    message: str


@dataclass(frozen=True)
class Score:
    board: Board
    satellites: dict[Cell, Satellite]
    connected_cells: frozenset[Cell]
    groups: tuple[Group, ...]
    connected: dict[str, int]  # connected satellites per colour
    colonies: dict[str, int]  # colonies controlled per colour
    lowest: dict[str, int | None]  # lowest total of a colony each colour controls
    lowest_label: dict[str, str | None]
    winner: str | None
    tiebreak: bool  # the colony counts were equal, so the tie-break was needed
    decision: str  # one sentence: how the winner (or the draw) was decided
    end: End
    violations: tuple[Violation, ...]
    # for each violation, every cell it concerns (the violation names the first one)
    violation_cells: tuple[tuple[Cell, ...], ...]

    @property
    def valid(self) -> bool:
        return not self.violations

    @property
    def group_of(self) -> dict[Cell, Group]:
        return {cell: g for g in self.groups for cell in g.cells}


def score(board: Board, grace_moves_left: int | None = None,
          problems: tuple[Violation, ...] = ()) -> Score:
    """Score ``board``; ``problems`` are the reader's board-level violations, kept first."""
    sats: dict[Cell, Satellite] = {(r, c): s for r, c, s in board.satellites()}
    links = _links(sats)
    connected_cells = frozenset(cell for cell, near in links.items() if near)
    groups = _groups(sats, links)

    connected = {colour: 0 for colour in COLOURS}
    for cell in connected_cells:
        connected[sats[cell].colour] += 1
    colonies = {colour: 0 for colour in COLOURS}
    lowest: dict[str, int | None] = {colour: None for colour in COLOURS}
    lowest_label: dict[str, str | None] = {colour: None for colour in COLOURS}
    for g in groups:
        owner = g.controller
        if owner is None:
            continue
        colonies[owner] += 1
        best = lowest[owner]
        if best is None or g.total < best:
            lowest[owner] = g.total
            lowest_label[owner] = g.label
    winner, tiebreak, decision = _winner(colonies, lowest, lowest_label)
    end = _end(connected, grace_moves_left)

    found: list[Finding] = [
        *((v, _named_cell(v)) for v in problems),
        *_count_violations(sats),
        *_adjacency_violations(sats, connected_cells),
        *_group_violations(groups),
        *_grace_violations(end, grace_moves_left),
    ]
    return Score(
        board=board,
        satellites=sats,
        connected_cells=connected_cells,
        groups=groups,
        connected=connected,
        colonies=colonies,
        lowest=lowest,
        lowest_label=lowest_label,
        winner=winner,
        tiebreak=tiebreak,
        decision=decision,
        end=end,
        violations=tuple(v for v, _ in found),
        violation_cells=tuple(cells for _, cells in found),
    )


# --- connections and groups ----------------------------------------------------------


def _links(sats: dict[Cell, Satellite]) -> dict[Cell, list[Cell]]:
    """For every satellite, its connections: orthogonal neighbours of the other colour."""
    links: dict[Cell, list[Cell]] = {}
    for (r, c), sat in sats.items():
        near = []
        for cell in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)):
            other = sats.get(cell)
            if other is not None and other.colour != sat.colour:
                near.append(cell)
        links[(r, c)] = near
    return links


def _groups(sats: dict[Cell, Satellite], links: dict[Cell, list[Cell]]) -> tuple[Group, ...]:
    """Maximal sets linked by connections, in reading order of their first cell."""
    seen: set[Cell] = set()
    found: list[tuple[list[Cell], int, int]] = []
    for start in sorted(sats):
        if start in seen or not links[start]:
            continue
        seen.add(start)
        stack, cells = [start], []
        while stack:
            cell = stack.pop()
            cells.append(cell)
            for nxt in links[cell]:
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        cells.sort()
        red = sum(sats[cell].value for cell in cells if sats[cell].colour == RED)
        blue = sum(sats[cell].value for cell in cells if sats[cell].colour == BLUE)
        found.append((cells, red, blue))
    groups = []
    for index, (cells, red, blue) in enumerate(found):
        name = column_name(index).upper() if len(cells) >= COLONY_MIN else column_name(index)
        groups.append(Group(name, tuple(cells), red, blue))
    return tuple(groups)


# --- winner ------------------------------------------------------------------------


def _winner(colonies: dict[str, int], lowest: dict[str, int | None],
            label: dict[str, str | None]) -> tuple[str | None, bool, str]:
    red, blue = colonies[RED], colonies[BLUE]
    if red != blue:
        winner, loser = (RED, BLUE) if red > blue else (BLUE, RED)
        return (
            winner,
            False,
            f"{winner} controls more colonies, {colonies[winner]} to {colonies[loser]}",
        )
    if red == 0:
        return None, True, "neither player controls a colony, so the game is a draw"
    lr, lb = lowest[RED], lowest[BLUE]
    assert lr is not None and lb is not None  # both control at least one colony
    each = f"{red} {'colony' if red == 1 else 'colonies'} each"
    if lr == lb:
        return (
            None,
            True,
            f"{each}, and the lowest-valued colonies they control have the same total, {lr} "
            f"({label[RED]} for red, {label[BLUE]} for blue), so the game is a draw",
        )
    winner, loser = (RED, BLUE) if lr < lb else (BLUE, RED)
    return (
        winner,
        True,
        f"{each}; {winner} controls the lowest-valued colony, {label[winner]} with a total "
        f"of {lowest[winner]} ({loser}'s lowest: {label[loser]} with {lowest[loser]})",
    )


# --- end of the game ------------------------------------------------------------------


def _end(connected: dict[str, int], grace: int | None) -> End:
    total = connected[RED] + connected[BLUE]
    finished = tuple(c for c in COLOURS if connected[c] >= SATELLITES_PER_COLOUR)
    if total >= GAME_OVER_CONNECTED:
        return End(
            total, True, "23-connected", finished, None, grace,
            f"game over: {total} satellites are connected (the game ends at once at "
            f"{GAME_OVER_CONNECTED})",
        )
    if finished:
        done = finished[0]
        other = BLUE if done == RED else RED
        head = f"{done} has all {SATELLITES_PER_COLOUR} satellites connected and is done"
        if grace is None:
            return End(
                total, None, None, finished, other, None,
                f"{head}; {other} makes {GRACE_MOVES} grace moves, then the game ends "
                f"(grace_moves_left is not given, so whether they are used up is not known)",
            )
        if grace == 0:
            return End(
                total, True, "grace-moves-used", finished, other, 0,
                f"game over: {head}, and {other} has made all {GRACE_MOVES} grace moves",
            )
        moves = "move" if grace == 1 else "moves"
        return End(
            total, False, None, finished, other, grace,
            f"{head}; {other} has {grace} grace {moves} left",
        )
    return End(
        total, False, None, (), None, grace,
        f"the game goes on: {total} satellites connected; it ends at "
        f"{GAME_OVER_CONNECTED}, or {GRACE_MOVES} moves after a player has all "
        f"{SATELLITES_PER_COLOUR} connected",
    )


# --- validity -----------------------------------------------------------------------


Finding = tuple[Violation, tuple[Cell, ...]]


def _list_cells(cells: tuple[Cell, ...] | list[Cell], limit: int = 8) -> str:
    """``a1, b1, c1`` - or the first ``limit`` and how many more, so a message stays short."""
    names = [cell_name(*cell) for cell in cells[:limit]]
    more = len(cells) - limit
    return ", ".join(names) + (f" and {more} more" if more > 0 else "")


def _named_cell(v: Violation) -> tuple[Cell, ...]:
    cell = parse_cell(v.cell) if isinstance(v.cell, str) else None
    return () if cell is None else (cell,)


def _count_violations(sats: dict[Cell, Satellite]) -> list[Finding]:
    out: list[Finding] = []
    for colour in COLOURS:
        mine = sorted(cell for cell, s in sats.items() if s.colour == colour)
        for value in VALUES:
            cells = [cell for cell in mine if sats[cell].value == value]
            if len(cells) > COPIES_PER_VALUE:
                names = _list_cells(cells)
                out.append((
                    Violation(
                        "too-many-of-value",
                        cell_name(*cells[COPIES_PER_VALUE]),
                        f"{len(cells)} {colour} satellites of value {value} ({names}); each "
                        f"player has only {COPIES_PER_VALUE} of every value",
                    ),
                    tuple(cells),
                ))
        if len(mine) > SATELLITES_PER_COLOUR:
            out.append((
                Violation(
                    "too-many-of-colour",
                    cell_name(*mine[SATELLITES_PER_COLOUR]),
                    f"{len(mine)} {colour} satellites on the board; each player has only "
                    f"{SATELLITES_PER_COLOUR} (the one at {cell_name(*mine[SATELLITES_PER_COLOUR])}"
                    f" is the 13th in reading order)",
                ),
                tuple(mine[SATELLITES_PER_COLOUR:]),
            ))
    return out


def _adjacency_violations(sats: dict[Cell, Satellite],
                          connected: frozenset[Cell]) -> list[Finding]:
    out: list[Finding] = []
    for cell in sorted(connected):
        r, c = cell
        sat = sats[cell]
        for other in ((r, c + 1), (r + 1, c)):
            near = sats.get(other)
            if near is not None and near.colour == sat.colour and other in connected:
                a, b = cell_name(*cell), cell_name(*other)
                out.append((
                    Violation(
                        "same-colour-adjacent",
                        a,
                        f"{a} and {b} are both connected {sat.colour} satellites and touch "
                        f"orthogonally; two connected satellites of one colour may never be "
                        f"adjacent",
                    ),
                    (cell, other),
                ))
    return out


def _group_violations(groups: tuple[Group, ...]) -> list[Finding]:
    return [
        (Violation(
            "group-too-large",
            g.cell_names[0],
            f"group {g.label} ({_list_cells(g.cells)}) has {g.size} satellites; a group "
            f"may hold at most {COLONY_MAX} (colonies never merge or grow past {COLONY_MAX})",
        ), g.cells)
        for g in groups
        if g.size > COLONY_MAX
    ]


def _grace_violations(end: End, grace: int | None) -> list[Finding]:
    if grace is None or end.finished:
        return []
    return [
        (Violation(
            "grace-moves",
            None,
            f"grace_moves_left is {grace}, but no player has all {SATELLITES_PER_COLOUR} "
            f"satellites connected, so there are no grace moves yet; leave grace_moves_left "
            f"out until a player has all {SATELLITES_PER_COLOUR} connected",
        ), ())
    ]
