"""Score a parsed Orbitus table: a pure function from a :class:`Layout` to a :class:`Result`.

The result is a breakdown: every item (a planet group, a pirate, an open route,
a closed block) names the cells it comes from, so the table view, the JSON and
the picture are all renderings of this one result.

What is checked here (the rest is checked while reading the layout):
- matching: facing sides of two sectors, of a sector and a start line (a route
  side) or a barrier (a blank side), must both be routes or both blank;
- two systems meeting: a sector reachable from two players' start lines.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.hexgeo import DIRECTIONS, SIDES, Hex
from scorer.orbitus.blocks import loops_of
from scorer.orbitus.definitions import Scoring
from scorer.orbitus.layout import Finding, Layout, Sector, cell_text


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


@dataclass(frozen=True, slots=True)
class Result:
    layout: Layout
    players: tuple[PlayerScore, ...]
    neutral_zones: tuple[tuple[Hex, ...], ...]
    findings: tuple[Finding, ...]

    @property
    def valid(self) -> bool:
        return not self.findings

    @property
    def neutral(self) -> tuple[Hex, ...]:
        return tuple(sorted(c for zone in self.neutral_zones for c in zone))

    @property
    def winners(self) -> tuple[str, ...]:
        if not self.players:
            return ()
        best = max(p.total for p in self.players)
        return tuple(p.name for p in self.players if p.total == best)


STATION_NODE = -2  # in ``Table.near``: across this side lies the station
EMPTY = -1  # in ``Table.near``: across this side lies an empty cell

_BITS = {frozenset(s for s in range(6) if m >> s & 1): m for m in range(64)}


@dataclass(frozen=True, slots=True)
class Table:
    """The sectors numbered in the order of their cells, neighbours looked up once.

    ``near[6 * i + s]`` is the sector across side ``s`` of sector ``i`` (or EMPTY or
    STATION_NODE), ``routes[i]`` its route sides as a bitmask, ``joined[i]`` the sides
    across which its route meets a neighbour's route. Every step after this one works
    on lists, which keeps scoring linear in the number of sectors; numbering by cell
    keeps neighbours near each other in memory, which matters on large tables.
    """

    cells: list[Hex]
    sectors: list[Sector]
    near: list[int]
    routes: list[int]
    joined: list[int]
    around: list[int]  # the sector across each side of the station, or EMPTY


def _table(layout: Layout) -> Table:
    cells = sorted(layout.sectors)
    sectors = [layout.sectors[c] for c in cells]
    index = {c: i for i, c in enumerate(cells)}
    routes = [_BITS[s.routes] for s in sectors]
    near = [EMPTY] * (6 * len(cells))
    joined = [0] * len(cells)
    lookup = index.get
    for i, (q, r) in enumerate(cells):
        base = 6 * i
        mask = routes[i]
        for side in range(6):
            dq, dr = DIRECTIONS[side]
            j = lookup((q + dq, r + dr), EMPTY)
            if j == EMPTY and q + dq == 0 and r + dr == 0:
                j = STATION_NODE
            near[base + side] = j
            if j >= 0 and mask >> side & 1 and routes[j] >> (side + 3) % 6 & 1:
                joined[i] |= 1 << side
    around = [lookup(d, EMPTY) for d in DIRECTIONS]
    return Table(cells, sectors, near, routes, joined, around)


def _matching(layout: Layout, table: Table) -> list[Finding]:
    found: list[Finding] = []
    names = layout.players
    near, routes, sectors = table.near, table.routes, table.sectors
    for i, sector in enumerate(sectors):
        mask = routes[i]
        for side in range(6):
            j = near[6 * i + side]
            if j == EMPTY or j >= 0 and sectors[j].order > sector.order:
                continue  # each pair of sectors once, reported at the one listed later
            facing = (side + 3) % 6
            route = bool(mask >> side & 1)
            if j == STATION_NODE:
                if facing in layout.start_lines and not route:
                    owner = names[layout.start_lines[facing]]
                    found.append(Finding(
                        "match-start-line", sector.cell,
                        f"{sector.label} has no route on its {SIDES[side]} side, which faces "
                        f"{owner}'s start line on the station's {SIDES[facing]} side; a start "
                        f"line counts as a route, so that side must carry one",
                        sector.line))
                elif facing not in layout.start_lines and route:
                    found.append(Finding(
                        "match-barrier", sector.cell,
                        f"{sector.label} has a route on its {SIDES[side]} side, which faces the "
                        f"barrier on the station's {SIDES[facing]} side; a barrier counts as a "
                        f"blank side, so that side must be blank",
                        sector.line))
                continue
            other = routes[j] >> facing & 1
            if route != bool(other):
                mine = "a route" if route else "no route"
                theirs = "a route" if other else "no route"
                found.append(Finding(
                    "match-sector", sector.cell,
                    f"{sector.label} has {mine} on its {SIDES[side]} side, but "
                    f"{sectors[j].label} has {theirs} on its {SIDES[facing]} side facing it; "
                    f"facing sides must both be routes or both be blank",
                    sector.line))
    return found


def _systems(layout: Layout, table: Table) -> tuple[list[int], list[Finding]]:
    """Which seat's system each sector belongs to (-1: none), found breadth first from
    every start line at once, so a sector two systems reach goes to the nearer one; and
    every place where two systems are joined."""
    owner = [-1] * len(table.cells)
    near, joined = table.near, table.joined
    queue: list[int] = []
    for side, seat in sorted(layout.start_lines.items(), key=lambda item: (item[1], item[0])):
        i = table.around[side]
        if i >= 0 and table.routes[i] >> (side + 3) % 6 & 1 and owner[i] < 0:
            owner[i] = seat
            queue.append(i)
    head = 0
    while head < len(queue):
        i = queue[head]
        head += 1
        seat = owner[i]
        mask = joined[i]
        base = 6 * i
        for side in range(6):
            if mask >> side & 1:
                j = near[base + side]
                if owner[j] < 0:
                    owner[j] = seat
                    queue.append(j)
    found: list[Finding] = []
    names = layout.players
    sectors = table.sectors
    for i in queue:
        mask = joined[i]
        for side in range(3):  # each joined pair once
            if mask >> side & 1:
                j = near[6 * i + side]
                if owner[j] != owner[i]:
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
    return owner, found


def _zones(nodes: list[int], table: Table) -> list[tuple[Hex, ...]]:
    """Groups of the given sectors joined by routes, each sorted, in order of first cell."""
    cells, near, joined = table.cells, table.near, table.joined
    left = bytearray(len(cells))
    for i in nodes:
        left[i] = 1
    zones: list[tuple[Hex, ...]] = []
    for start in sorted(nodes, key=cells.__getitem__):
        if not left[start]:
            continue
        left[start] = 0
        zone = [start]
        stack = [start]
        while stack:
            i = stack.pop()
            mask = joined[i]
            for side in range(6):
                if mask >> side & 1:
                    j = near[6 * i + side]
                    if left[j]:
                        left[j] = 0
                        zone.append(j)
                        stack.append(j)
        zones.append(tuple(sorted(cells[i] for i in zone)))
    return zones


def score(layout: Layout, scoring: Scoring) -> Result:
    """Score every player's system and list every violation on the table."""
    table = _table(layout)
    owner, meeting = _systems(layout, table)
    findings = [*layout.findings, *_matching(layout, table), *meeting]
    findings.sort(key=lambda f: (f.line if f.line is not None else 0))

    cells, sectors, near, routes, joined = (table.cells, table.sectors, table.near,
                                            table.routes, table.joined)
    members: list[list[int]] = [[] for _ in layout.players]
    neutral: list[int] = []
    for i, seat in enumerate(owner):
        (members[seat] if seat >= 0 else neutral).append(i)
    own = [0] * len(cells)  # joined sides towards the same system (all of them, legally)
    players: list[PlayerScore] = []
    for seat, name in enumerate(layout.players):
        nodes = members[seat]  # in cell order, as the sectors are numbered
        planets: dict[str, list[Hex]] = {t: [] for t in layout.planet_types}
        pirates: list[Hex] = []
        open_routes: list[OpenRoute] = []
        for i in nodes:
            sector = sectors[i]
            if sector.planet is not None:
                planets.setdefault(sector.planet, []).append(sector.cell)
            elif sector.pirate:
                pirates.append(sector.cell)
            mask = routes[i]
            base = 6 * i
            edges = joined[i]
            for side in range(6):
                if mask >> side & 1:
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
            start_lines=layout.start_lines_of(seat),
            sectors=tuple(cells[i] for i in nodes),
            planets=tuple(
                PlanetGroup(t, tuple(c), scoring.planet_points(len(c)) if c else 0)
                for t, c in planets.items()
            ),
            pirates=tuple(pirates),
            pirate_points=scoring.pirate * len(pirates),
            open_routes=tuple(open_routes),
            open_route_points=scoring.open_route * len(open_routes),
            closed_blocks=blocks,
        ))
    return Result(layout, tuple(players), tuple(_zones(neutral, table)), tuple(findings))
