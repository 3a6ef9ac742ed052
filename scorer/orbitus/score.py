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

from collections import deque
from dataclasses import dataclass

from cards.hexgeo import DIRECTIONS, SIDES, Hex
from scorer.orbitus.blocks import closed_loops
from scorer.orbitus.definitions import Scoring
from scorer.orbitus.layout import STATION, Finding, Layout, Sector, cell_text


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


def _edge_masks(sectors: dict[Hex, Sector]) -> dict[Hex, int]:
    """For every sector, the sides across which its route meets a neighbour's route."""
    masks: dict[Hex, int] = {}
    for cell, sector in sectors.items():
        q, r = cell
        mask = 0
        for side in sector.routes:
            dq, dr = DIRECTIONS[side]
            other = sectors.get((q + dq, r + dr))
            if other is not None and (side + 3) % 6 in other.routes:
                mask |= 1 << side
        masks[cell] = mask
    return masks


def _matching(layout: Layout) -> list[Finding]:
    found: list[Finding] = []
    sectors = layout.sectors
    names = layout.players
    for cell, sector in sectors.items():
        q, r = cell
        for side in range(6):
            dq, dr = DIRECTIONS[side]
            near = (q + dq, r + dr)
            facing = (side + 3) % 6
            route = side in sector.routes
            mine = f"{'a route' if route else 'no route'} on its {SIDES[side]} side"
            if near == STATION:
                if facing in layout.start_lines and not route:
                    owner = names[layout.start_lines[facing]]
                    found.append(Finding(
                        "match-start-line", cell,
                        f"{sector.label} has no route on its {SIDES[side]} side, which faces "
                        f"{owner}'s start line on the station's {SIDES[facing]} side; a start "
                        f"line counts as a route, so that side must carry one",
                        sector.line))
                elif facing not in layout.start_lines and route:
                    found.append(Finding(
                        "match-barrier", cell,
                        f"{sector.label} has a route on its {SIDES[side]} side, which faces the "
                        f"barrier on the station's {SIDES[facing]} side; a barrier counts as a "
                        f"blank side, so that side must be blank",
                        sector.line))
                continue
            other = sectors.get(near)
            if other is None or other.order > sector.order:
                continue  # each pair once, reported at the sector listed later
            if route != (facing in other.routes):
                theirs = "a route" if facing in other.routes else "no route"
                found.append(Finding(
                    "match-sector", cell,
                    f"{sector.label} has {mine}, but {other.label} has {theirs} on its "
                    f"{SIDES[facing]} side facing it; facing sides must both be routes or "
                    f"both be blank",
                    sector.line))
    return found


def _systems(layout: Layout, masks: dict[Hex, int]) -> tuple[dict[Hex, int], list[Finding]]:
    """Which seat's system each sector belongs to (breadth first from every start line at
    once, so a sector two systems reach goes to the nearer one), and where systems meet."""
    owner: dict[Hex, int] = {}
    queue: deque[Hex] = deque()
    for side, seat in sorted(layout.start_lines.items(), key=lambda item: (item[1], item[0])):
        cell = DIRECTIONS[side]
        sector = layout.sectors.get(cell)
        if sector is not None and (side + 3) % 6 in sector.routes and cell not in owner:
            owner[cell] = seat
            queue.append(cell)
    while queue:
        cell = queue.popleft()
        seat = owner[cell]
        mask = masks[cell]
        q, r = cell
        for side in range(6):
            if mask >> side & 1:
                dq, dr = DIRECTIONS[side]
                near = (q + dq, r + dr)
                if near not in owner:
                    owner[near] = seat
                    queue.append(near)
    found: list[Finding] = []
    names = layout.players
    for cell, seat in owner.items():
        mask = masks[cell]
        q, r = cell
        for side in range(3):  # each joined pair once
            if mask >> side & 1:
                dq, dr = DIRECTIONS[side]
                near = (q + dq, r + dr)
                if owner[near] != seat:
                    a, b = layout.sectors[cell], layout.sectors[near]
                    if a.order > b.order:
                        a, b = b, a
                    where = SIDES[side] if a.cell == cell else SIDES[(side + 3) % 6]
                    found.append(Finding(
                        "two-systems", b.cell,
                        f"{a.label} in {names[owner[a.cell]]}'s system and {b.label} in "
                        f"{names[owner[b.cell]]}'s system are joined by routes across the "
                        f"{where} side of {cell_text(a.cell)}; a sector reachable from two "
                        f"players' start lines is illegal",
                        b.line))
    return owner, found


def _zones(cells: set[Hex], masks: dict[Hex, int]) -> list[tuple[Hex, ...]]:
    """Groups of the given cells joined by routes, each sorted, in order of first cell."""
    zones: list[tuple[Hex, ...]] = []
    left = set(cells)
    for start in sorted(cells):
        if start not in left:
            continue
        left.discard(start)
        zone = [start]
        stack = [start]
        while stack:
            q, r = stack.pop()
            mask = masks[(q, r)]
            for side in range(6):
                if mask >> side & 1:
                    dq, dr = DIRECTIONS[side]
                    near = (q + dq, r + dr)
                    if near in left:
                        left.discard(near)
                        zone.append(near)
                        stack.append(near)
        zones.append(tuple(sorted(zone)))
    return zones


def score(layout: Layout, scoring: Scoring) -> Result:
    """Score every player's system and list every violation on the table."""
    sectors = layout.sectors
    masks = _edge_masks(sectors)
    owner, meeting = _systems(layout, masks)
    findings = [*layout.findings, *_matching(layout), *meeting]
    findings.sort(key=lambda f: (f.line if f.line is not None else 0))

    members: list[list[Hex]] = [[] for _ in layout.players]
    for cell, seat in owner.items():
        members[seat].append(cell)
    players: list[PlayerScore] = []
    for seat, name in enumerate(layout.players):
        cells = sorted(members[seat])
        planets: dict[str, list[Hex]] = {t: [] for t in layout.planet_types}
        pirates: list[Hex] = []
        open_routes: list[OpenRoute] = []
        own_edges: dict[Hex, int] = {}
        for cell in cells:
            sector = sectors[cell]
            if sector.planet is not None:
                planets.setdefault(sector.planet, []).append(cell)
            elif sector.pirate:
                pirates.append(cell)
            q, r = cell
            mask = 0
            for side in sector.routes:
                dq, dr = DIRECTIONS[side]
                near = (q + dq, r + dr)
                if near == STATION:
                    continue
                if near not in sectors:
                    open_routes.append(OpenRoute(cell, side))
                elif masks[cell] >> side & 1 and owner[near] == seat:
                    mask |= 1 << side
            own_edges[cell] = mask
        blocks = tuple(
            ClosedBlock(loop.sectors, scoring.block_points(loop.size))
            for loop in closed_loops(own_edges)
        )
        players.append(PlayerScore(
            name=name,
            seat=seat,
            start_lines=layout.start_lines_of(seat),
            sectors=tuple(cells),
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
    neutral = set(sectors) - owner.keys()
    return Result(layout, tuple(players), tuple(_zones(neutral, masks)), tuple(findings))
