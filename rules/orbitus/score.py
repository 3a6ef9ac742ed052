"""Score an Orbitus table: a pure function from a :class:`~rules.orbitus.table.Table` and
the scoring tables to a :class:`Result`.

The result is a breakdown: every item (a planet group, a pirate, an open route, a closed
block) names the cells it comes from, so the scorer's table view, its JSON, the pictures,
the engine's running scores and the simulator's statistics are all readings of this one
result. Scoring follows ``docs/rules/orbitus.md`` O-52 to O-64; a table that breaks a rule
is still scored, and every violation found is listed (O-66).

What is checked here (the rest is checked while reading a layout):
- matching: facing sides of two sectors, of a sector and a start line (a route side) or a
  barrier (a blank side), must both be routes or both blank (O-21 to O-23);
- two systems meeting: a sector reachable from two players' start lines (O-27).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

from rules.hexgeo import SIDES, Hex
from rules.orbitus.analysis import BITS, EMPTY, OPP, STATION_NODE, Analysis, near_cells
from rules.orbitus.blocks import loops_of
from rules.orbitus.ruleset import Scoring
from rules.orbitus.table import Finding, Sector, Table, cell_text


@dataclass(frozen=True, slots=True)
class PlanetGroup:
    type: str
    sectors: tuple[Hex, ...]
    points: int

    @property
    def count(self) -> int:
        return len(self.sectors)


@dataclass(frozen=True, slots=True)
class OpenRoute:
    """A route side of a system sector that faces an empty cell."""

    cell: Hex
    side: int


@dataclass(frozen=True, slots=True)
class ClosedBlock:
    sectors: tuple[Hex, ...]  # the enclosing loop, clockwise on the table
    points: int

    @property
    def size(self) -> int:
        return len(self.sectors)


@dataclass(frozen=True, slots=True)
class PlayerScore:
    name: str
    seat: int
    start_lines: tuple[int, ...]
    sectors: tuple[Hex, ...]
    planets: tuple[PlanetGroup, ...]
    pirates: tuple[Hex, ...]
    pirate_points: int
    open_routes: tuple[OpenRoute, ...]
    open_route_points: int
    closed_blocks: tuple[ClosedBlock, ...]

    @property
    def total(self) -> int:
        return (
            sum(g.points for g in self.planets)
            + self.pirate_points
            + self.open_route_points
            + sum(b.points for b in self.closed_blocks)
        )

    def line(self) -> str:
        """The system and what each part of it scores, in one line (what there is of it):
        ``system Anna: 5 sectors; planets ice × 2 -1; open routes × 3 +3; closed block of 6
        from [0, -1] +3; total 5``."""
        n = len(self.sectors)
        parts = [f"{n} sector{'s' * (n != 1)}"]
        planets = [f"{g.type} × {g.count} {_points(g.points)}" for g in self.planets if g.count]
        if planets:
            parts.append("planets " + ", ".join(planets))
        if self.pirates:
            parts.append(f"pirates × {len(self.pirates)} {_points(self.pirate_points)}")
        if self.open_routes:
            parts.append(f"open routes × {len(self.open_routes)} "
                         f"{_points(self.open_route_points)}")
        parts += [f"closed block of {b.size} from {cell_text(b.sectors[0])} {_points(b.points)}"
                  for b in self.closed_blocks]
        return f"system {self.name}: {'; '.join(parts)}; total {self.total}"


def _points(points: int) -> str:
    return f"{points:+d}" if points else "0"


@dataclass(frozen=True, slots=True)
class Result:
    table: Table
    players: tuple[PlayerScore, ...]
    neutral_zones: tuple[tuple[Hex, ...], ...]
    findings: tuple[Finding, ...]

    @property
    def valid(self) -> bool:
        return not self.findings

    @property
    def layout(self) -> Table:
        """The scored table (the scorer's word for it)."""
        return self.table

    @property
    def neutral(self) -> tuple[Hex, ...]:
        return tuple(sorted(chain.from_iterable(self.neutral_zones)))

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(p.total for p in self.players)

    @property
    def winners(self) -> tuple[str, ...]:
        """The players with the highest total (equal totals share the win, O-64)."""
        if not self.players:
            return ()
        totals = [p.total for p in self.players]  # each worked out once
        best = max(totals)
        return tuple(p.name for p, total in zip(self.players, totals, strict=True)
                     if total == best)


Before = tuple["Result", "Hex | None"]  # a game's score one action earlier, the cell changed


def _unchanged(before: Before | None, info: Analysis,
               seats: int) -> list[PlayerScore | None]:
    """For each seat, its score of the position before if no sector on or next to the
    changed cell is in its system now (a candidate: its sectors are compared too)."""
    if before is None:
        return [None] * seats
    result, cell = before
    if len(result.players) != seats:
        return [None] * seats
    kept: list[PlayerScore | None] = list(result.players)
    if cell is not None:
        index, owner = info.index, info.owner
        for other in (cell, *near_cells(cell)):
            i = index.get(other)
            if i is not None and owner[i] >= 0:
                kept[owner[i]] = None
    return kept


_MASK = {frozenset(s for s in range(6) if m >> s & 1): m for m in range(64)}


def analyse_table(table: Table) -> tuple[Analysis, list[Sector]]:
    """The analysis of a table, and its sectors numbered as the analysis numbers them."""
    masks = {cell: _MASK[s.routes] for cell, s in table.sectors.items()}
    info = Analysis(table.start_lines, len(table.players), masks)
    return info, [table.sectors[c] for c in info.cells]


class _Numbered:
    """A table's sectors by the analysis's numbers, each looked up when read: a move's
    score reads only the sectors of the systems it scores again (and those of a mismatch
    or a meeting), not a list of every sector made at each move."""

    __slots__ = ("cells", "sectors")

    def __init__(self, sectors: dict[Hex, Sector], cells: list[Hex]) -> None:
        self.sectors, self.cells = sectors, cells

    def __getitem__(self, i: int) -> Sector:
        return self.sectors[self.cells[i]]


class _Orders:
    """When each sector (by the analysis's number) was listed, read when asked."""

    __slots__ = ("sectors",)

    def __init__(self, sectors: list[Sector] | _Numbered) -> None:
        self.sectors = sectors

    def __getitem__(self, i: int) -> int:
        return self.sectors[i].order


def _matching(table: Table, info: Analysis, sectors: list[Sector] | _Numbered
              ) -> list[Finding]:
    found: list[Finding] = []
    names = table.players
    for i, bad in info.table_mismatches(_Orders(sectors)):
        sector = sectors[i]
        side, facing = bad.side, OPP[bad.side]
        if bad.other == STATION_NODE:
            if bad.other_route:
                owner = names[table.start_lines[facing]]
                found.append(Finding(
                    "match-start-line", sector.cell,
                    f"{sector.label} has no route on its {SIDES[side]} side, which faces "
                    f"{owner}'s start line on the station's {SIDES[facing]} side; a start "
                    f"line counts as a route, so that side must carry one",
                    sector.line))
            else:
                found.append(Finding(
                    "match-barrier", sector.cell,
                    f"{sector.label} has a route on its {SIDES[side]} side, which faces the "
                    f"barrier on the station's {SIDES[facing]} side; a barrier counts as a "
                    f"blank side, so that side must be blank",
                    sector.line))
            continue
        mine = "a route" if bad.route else "no route"
        theirs = "a route" if bad.other_route else "no route"
        found.append(Finding(
            "match-sector", sector.cell,
            f"{sector.label} has {mine} on its {SIDES[side]} side, but "
            f"{sectors[bad.other].label} has {theirs} on its {SIDES[facing]} side facing it; "
            f"facing sides must both be routes or both be blank",
            sector.line))
    return found


def _meetings(table: Table, info: Analysis, sectors: list[Sector] | _Numbered
              ) -> list[Finding]:
    found: list[Finding] = []
    names, owner = table.players, info.owner
    for i, side, j in info.meetings():
        a, b = (i, j) if sectors[i].order < sectors[j].order else (j, i)
        where = SIDES[side] if a == i else SIDES[(side + 3) % 6]
        first, second = sectors[a], sectors[b]
        found.append(Finding(
            "two-systems", second.cell,
            f"{first.label} in {names[owner[a]]}'s system and {second.label} in "
            f"{names[owner[b]]}'s system are joined by routes across the "
            f"{where} side of {cell_text(first.cell)}; a sector reachable from two "
            f"players' start lines is illegal",
            second.line))
    return found


def score(table: Table, scoring: Scoring, findings: Sequence[Finding] = (),
          info: Analysis | None = None, before: Before | None = None) -> Result:
    """Score every player's system and list every violation on the table (``findings``:
    those found while reading it, kept in line order with the rest). ``info``: the table's
    analysis when the caller has it already (an engine's state analyses its own board: the
    same start lines, seats and route masks), so it is not worked out twice.

    ``before``: the result of the position one action earlier in a game and the one cell
    whose sector was placed or removed since (None: the table is unchanged). A system with
    the same sectors as before, none of them on or next to that cell, scores as it did
    (its planets, pirates, open routes and closed blocks are read from its own sectors and
    the cells around them), so its :class:`PlayerScore` is taken over rather than worked
    out again; every other part is worked out as without ``before``."""
    sectors: list[Sector] | _Numbered
    if info is None:
        info, sectors = analyse_table(table)
    else:
        sectors = _Numbered(table.sectors, info.cells)
    found = [*findings, *_matching(table, info, sectors), *_meetings(table, info, sectors)]
    found.sort(key=lambda f: (f.line if f.line is not None else 0))

    cells, near, routes, joined, owner = (info.cells, info.near, info.routes, info.joined,
                                          info.owner)
    members: list[list[int]] = [[] for _ in table.players]
    for i, seat in enumerate(owner):
        if seat >= 0:
            members[seat].append(i)
    own = [0] * len(cells)  # joined sides towards the same system (all of them, legally)
    players: list[PlayerScore] = []
    kept = _unchanged(before, info, len(table.players))
    for seat, name in enumerate(table.players):
        nodes = members[seat]  # in cell order, as the sectors are numbered
        if kept[seat] is not None:
            old = kept[seat]
            assert old is not None
            if old.name == name and old.sectors == tuple(cells[i] for i in nodes):
                players.append(old)
                continue
        planets: dict[str, list[Hex]] = {t: [] for t in table.planet_types}
        pirates: list[Hex] = []
        open_routes: list[OpenRoute] = []
        for i in nodes:
            sector = sectors[i]
            if sector.planet is not None:
                planets.setdefault(sector.planet, []).append(sector.cell)
            elif sector.pirate:
                pirates.append(sector.cell)
            base = 6 * i
            edges = joined[i]
            for side in BITS[routes[i]]:
                j = near[base + side]
                if j == EMPTY:
                    open_routes.append(OpenRoute(sector.cell, side))
                elif j >= 0 and owner[j] != seat:
                    edges &= ~(1 << side)
            own[i] = edges
        blocks = tuple(
            ClosedBlock(loop.sectors, scoring.block_points(loop.size))
            for loop in loops_of(nodes, cells, near, own)
        )
        players.append(PlayerScore(
            name=name,
            seat=seat,
            start_lines=table.start_lines_of(seat),
            sectors=tuple(cells[i] for i in nodes),
            planets=tuple(
                PlanetGroup(t, tuple(c), scoring.planet_points(len(c)))
                for t, c in planets.items()
            ),
            pirates=tuple(pirates),
            pirate_points=scoring.pirate * len(pirates),
            open_routes=tuple(open_routes),
            open_route_points=scoring.open_route * len(open_routes),
            closed_blocks=blocks,
        ))
    zones = tuple(tuple(cells[i] for i in zone) for zone in info.zones)
    return Result(table, tuple(players), zones, tuple(found))
