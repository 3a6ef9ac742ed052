"""The one analysis of an Orbitus table: matching, systems, neutral zones, open routes, the
free cells and what a sector there must do, and the sectors a player may remove.

The scorer (every table, legal or not), the engine (positions of a game), the booklet
diagrams and the pictures all read a table through :class:`Analysis`; nobody else decides
which sides match, which sectors form a system or which routes are open.

Sectors are numbered in the order of their cells and their neighbours looked up once:
``near[6 * i + s]`` is the sector across side ``s`` of sector ``i`` (or :data:`EMPTY`, or
:data:`STATION_NODE` when the station lies there); ``routes[i]`` is its route sides as a
bit mask and ``joined[i]`` the sides across which its route meets a neighbour's route.
Everything after that works on lists, which keeps the analysis linear in the number of
sectors (a 40,000-sector table is analysed in well under a second). A game's next position
is analysed from the one before (:meth:`Analysis.placed`: the sector placed and its six
neighbours' sides worked out, the rest taken over renumbered), with the same result.

The rules it applies are those of ``docs/rules/orbitus.md``: matching (a start line counts
as a route, a barrier as blank; O-21 to O-23), systems grown from the start lines (O-25,
O-26), systems never meeting (O-27, O-28; on a broken table the nearer system takes a
sector, O-69), neutral zones (O-29, O-30), open routes (O-24, O-57), the open routes the
closing rule counts (O-36) and removals that keep a system connected (O-38, O-39).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping
from operator import itemgetter
from typing import NamedTuple, Protocol

from rules.hexgeo import DIRECTIONS, Hex

STATION_NODE = -2  # in ``near``: across this side lies the station
EMPTY = -1  # in ``near``: across this side lies an empty cell
OPP = (3, 4, 5, 0, 1, 2)
POP = tuple(bin(m).count("1") for m in range(64))
BITS = tuple(tuple(i for i in range(6) if m >> i & 1) for m in range(64))
ALL_SIDES = 63

_NEAR: dict[Hex, tuple[Hex, ...]] = {}


def near_cells(cell: Hex) -> tuple[Hex, ...]:
    """The six neighbours of ``cell``, N first, clockwise (cached)."""
    found = _NEAR.get(cell)
    if found is None:
        q, r = cell
        found = _NEAR[cell] = tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)
        if len(_NEAR) > 500_000:  # a very long simulation: start again rather than grow
            _NEAR.clear()
    return found


def _bits(mask: int) -> tuple[int, ...]:
    """The numbers of the bits set in ``mask``, in order (any size of mask)."""
    if mask < 64:
        return BITS[mask]
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def facing(cell: Hex, masks: Mapping[Hex, int], start_lines: Mapping[int, int]) -> tuple[int,
                                                                                          int]:
    """What a sector on the empty ``cell`` must match (O-21, O-22): ``(known, required)``,
    the sides that face the station or a sector, and of those the sides that must carry a
    route (facing a route or a start line)."""
    known = required = 0
    for s, other in enumerate(near_cells(cell)):
        if other == (0, 0):
            route = OPP[s] in start_lines
        else:
            theirs = masks.get(other)
            if theirs is None:
                continue
            route = bool(theirs >> OPP[s] & 1)
        known |= 1 << s
        if route:
            required |= 1 << s
    return known, required


class Indexed(Protocol):
    """Whole numbers read by index (a list, or one that looks each up when read)."""

    def __getitem__(self, i: int, /) -> int: ...


class Spot(NamedTuple):
    """An empty cell next to the station or a sector, and what a sector there must do."""

    cell: Hex
    known: int  # sides that face the station or a sector
    required: int  # of those, the sides that must carry a route
    seats: tuple[int, ...]  # systems a sector here joins (more than one: no sector fits)
    zones: tuple[int, ...]  # neutral zones (numbers into ``zones``) a sector here takes in


class Mismatch(NamedTuple):
    """A side of a sector (or of a sector someone wants to place) that does not match."""

    side: int  # the side of the sector, 0=N clockwise
    route: bool  # whether the sector carries a route on that side
    other: int  # the sector across (a number), or STATION_NODE
    other_route: bool  # whether the other side is a route (a start line counts as one)


_new = tuple.__new__
_CELL = itemgetter(0)  # a Spot's cell, its sort key


class Analysis:
    """One table analysed (see the module docstring). Built from the station's start lines
    (side -> seat), the number of seats and the sectors' route masks by cell; the parts
    only some readers need (zones, open routes, free cells, removals) are worked out when
    first asked for."""

    __slots__ = ("start_lines", "seats", "cells", "index", "routes", "near", "joined",
                 "facing_empty", "around", "owner", "_reached", "empties", "_zone_of",
                 "_zones", "_open", "_spots", "_spot_at", "_meets", "_matched")

    def __init__(self, start_lines: Mapping[int, int], seats: int,
                 masks: Mapping[Hex, int]) -> None:
        self.start_lines = start_lines
        self.seats = seats
        cells = sorted(masks)
        self.cells = cells
        index = {c: i for i, c in enumerate(cells)}
        self.index = index
        routes = [masks[c] for c in cells]
        self.routes = routes
        near = [EMPTY] * (6 * len(cells))
        joined = [0] * len(cells)
        empties: list[int] = []  # 6 * i + side for every side that faces an empty cell
        facing_empty: list[Hex] = []  # and that empty cell
        lookup = index.get
        around_of = _NEAR.get
        for i, cell in enumerate(cells):
            base = 6 * i
            mask = routes[i]
            j_mask = 0
            found = around_of(cell)
            for side, other in enumerate(near_cells(cell) if found is None else found):
                j = lookup(other, EMPTY)
                if j == EMPTY:
                    if other == (0, 0):
                        j = STATION_NODE
                    else:
                        empties.append(base + side)
                        facing_empty.append(other)
                        continue
                near[base + side] = j
                if j >= 0 and mask >> side & 1 and routes[j] >> OPP[side] & 1:
                    j_mask |= 1 << side
            joined[i] = j_mask
        self.near = near
        self.joined = joined
        self.empties = empties
        self.facing_empty = facing_empty
        self.around = [lookup(d, EMPTY) for d in DIRECTIONS]
        self.owner, reached = self._systems()
        self._reached: list[int] | None = reached
        self._meets: list[tuple[int, int, int]] | None = None
        self._matched = False  # known that every two facing sides match (table_mismatches)
        self._zone_of: list[int] | None = None
        self._zones: list[list[int]] | None = None
        self._open: list[int] | None = None
        self._spots: list[Spot] | None = None
        self._spot_at: dict[Hex, Spot] | None = None

    # --- systems (O-26, O-69) -------------------------------------------------------------

    def _systems(self) -> tuple[list[int], list[int]]:
        """Which seat's system each sector belongs to (-1: none), found breadth first from
        every start line at once, seats in order, so a sector two systems reach goes to the
        nearer one; and the sectors in the order they were reached."""
        owner = [-1] * len(self.cells)
        routes = self.routes
        queue: list[int] = []
        for side, seat in sorted(self.start_lines.items(), key=lambda item: (item[1], item[0])):
            i = self.around[side]
            if i >= 0 and routes[i] >> OPP[side] & 1 and owner[i] < 0:
                owner[i] = seat
                queue.append(i)
        return owner, self._spread(owner, queue)

    def _spread(self, mark: list[int], queue: list[int]) -> list[int]:
        """Grow from the sectors in ``queue`` over joined routes, breadth first: every
        sector reached (``mark`` below 0 until then) takes the mark of the sector it was
        reached from. Returns ``queue``, now every sector reached, in order."""
        near, joined = self.near, self.joined
        head = 0
        while head < len(queue):
            i = queue[head]
            head += 1
            m = mark[i]
            base = 6 * i
            for side in BITS[joined[i]]:
                j = near[base + side]
                if mark[j] < 0:
                    mark[j] = m
                    queue.append(j)
        return queue

    @property
    def reached(self) -> list[int]:
        """The sectors of the systems in the order the breadth-first search reached them
        (worked out again for an analysis carried from the position before)."""
        if self._reached is None:
            self._reached = self._systems()[1]
        return self._reached

    def meetings(self) -> list[tuple[int, int, int]]:
        """Every place where two systems are joined by routes: ``(i, side, j)``, sector ``i``
        joined across ``side`` to sector ``j`` of another system (each pair once)."""
        if self._meets is None:
            owner, near, joined = self.owner, self.near, self.joined
            out = []
            for i in self.reached:
                mask = joined[i] & 7  # N, NE, SE: each joined pair once
                for side in BITS[mask]:
                    j = near[6 * i + side]
                    if owner[j] != owner[i]:
                        out.append((i, side, j))
            self._meets = out
        return list(self._meets)

    def system(self, seat: int) -> list[int]:
        """The sectors of ``seat``'s system, in cell order."""
        owner = self.owner
        return [i for i in range(len(owner)) if owner[i] == seat]

    # --- the same table with one sector more (a position of a game from the one before) ---

    def placed(self, cell: Hex, mask: int) -> Analysis:
        """The analysis of this table with a sector of route sides ``mask`` placed on the
        empty ``cell``: the same as ``Analysis(start_lines, seats, masks)`` of the table with
        it, made from this one. A sector placed changes only its own cell and its six
        neighbours' sides, the system or zone it joins and the free cells around it; every
        other sector keeps what it faces and whose it is, renumbered (the sectors after
        ``cell`` move one place up). A sector that joins two systems, or a table whose
        systems already meet, is analysed from scratch."""
        cells, index, routes = self.cells, self.index, self.routes
        n = len(cells)
        p = bisect_left(cells, cell)
        if p < n and cells[p] == cell:
            raise ValueError(f"{cell} already holds a sector")
        around_cell = near_cells(cell)
        parent = [STATION_NODE if o == (0, 0) else index.get(o, EMPTY) for o in around_cell]
        owner_before = self.owner
        zone_before = self.zone_of
        seat_set: set[int] = set()
        touched: set[int] = set()  # the zones (numbers before) the sector is joined to
        j_mask = 0
        for s, j in enumerate(parent):
            if not mask >> s & 1:
                continue
            if j >= 0:
                if routes[j] >> OPP[s] & 1:
                    j_mask |= 1 << s
                    if owner_before[j] >= 0:
                        seat_set.add(owner_before[j])
                    else:
                        touched.add(zone_before[j])
            elif j == STATION_NODE and OPP[s] in self.start_lines:
                seat_set.add(self.start_lines[OPP[s]])
        if len(seat_set) > 1 or self.meetings():
            masks = {c: routes[i] for i, c in enumerate(cells)}
            masks[cell] = mask
            return Analysis(self.start_lines, self.seats, masks)
        seat = next(iter(seat_set)) if seat_set else -1

        new = Analysis.__new__(Analysis)
        new.start_lines, new.seats = self.start_lines, self.seats
        # every sector number from p on one place up; -1 and -2 (EMPTY, STATION_NODE) kept
        shift = [*range(p), *range(p + 1, n + 1), STATION_NODE, EMPTY]
        moved = shift.__getitem__
        new.cells = cells = [*cells[:p], cell, *cells[p:]]
        new.index = dict(zip(cells, range(n + 1), strict=True))
        new.routes = [*routes[:p], mask, *routes[p:]]
        near = list(map(moved, self.near))
        mine = [j if j < 0 else shift[j] for j in parent]
        near[6 * p:6 * p] = mine
        joined = [*self.joined[:p], j_mask, *self.joined[p:]]
        for s, j in enumerate(mine):
            if j >= 0:
                near[6 * j + OPP[s]] = p
                if j_mask >> s & 1:
                    joined[j] |= 1 << OPP[s]
        new.near, new.joined = near, joined
        # the sides facing an empty cell: less the neighbours' sides facing this cell, and
        # this sector's own, in the order of sector and side
        empties, facing = self.empties.copy(), self.facing_empty.copy()
        for at in sorted((bisect_left(empties, 6 * j + OPP[s]) for s, j in enumerate(parent)
                          if j >= 0), reverse=True):
            del empties[at], facing[at]
        start = 6 * p
        k = bisect_left(empties, start)
        empties[k:] = [start + s for s, j in enumerate(mine) if j == EMPTY] + \
            [e + 6 for e in empties[k:]]
        facing[k:k] = [around_cell[s] for s, j in enumerate(mine) if j == EMPTY]
        new.empties, new.facing_empty = empties, facing
        around = [shift[i] for i in self.around]
        for s, j in enumerate(mine):
            if j == STATION_NODE:
                around[OPP[s]] = p
        new.around = around
        # systems and zones: the sector takes the one system it joins, with every zone it is
        # joined to; joined to none, it and the zones it is joined to are one zone
        zones = [list(map(moved, z)) for z in self.zones]
        owner = [*owner_before[:p], seat, *owner_before[p:]]
        if touched or seat < 0:
            merged = sorted([p, *(i for z in touched for i in zones[z])]) if seat < 0 else []
            if seat >= 0:
                for z in touched:
                    for i in zones[z]:
                        owner[i] = seat
            kept = [z for z in range(len(zones)) if z not in touched]
            at = bisect_left(kept, merged[0], key=lambda z: zones[z][0]) if merged \
                else len(kept)
            zmap = [-1] * len(zones)  # zone number before -> after (-1: taken in)
            for number, z in enumerate(kept):
                zmap[z] = number + (number >= at)
            for z in touched:
                zmap[z] = at if merged else -1
            zones = [*(zones[z] for z in kept[:at]), *([merged] if merged else ()),
                     *(zones[z] for z in kept[at:])]
            # each sector's zone renumbered (index -1 of the list: no zone, -1 again)
            zone_of = list(map([*zmap, -1].__getitem__, zone_before))
            zone_of.insert(p, at if merged else -1)
        else:
            zmap = list(range(len(zones)))
            zone_of = [*zone_before[:p], -1, *zone_before[p:]]
        new.owner, new._zones, new._zone_of = owner, zones, zone_of
        new._reached = None  # the search's order: worked out again if asked for
        new._meets = []  # one system joined at most: no two meet (checked above)
        # every two facing sides matched before, and the new sector matches its neighbours
        lines = self.start_lines
        new._matched = self._matched and all(
            j == EMPTY or (mask >> s & 1) == (routes[j] >> OPP[s] & 1 if j >= 0
                                              else OPP[s] in lines)
            for s, j in enumerate(parent))
        new._open = None if self._open is None else self._carried_open(
            parent, mine, mask, seat, zmap, zone_of[p], len(zones))
        new._spot_at = None
        new._spots = None if self._spots is None else new._carried_spots(
            self._spots, cell, zmap, seat, mask, mine, zone_of[p])
        return new

    def _carried_open(self, parent: list[int], mine: list[int], mask: int, seat: int,
                      zmap: list[int], zone: int, zones: int) -> list[int]:
        """The open routes per system and zone after a sector with route sides ``mask`` was
        placed (``parent``, ``mine``: its neighbours' numbers before and after), from those
        before: less the routes and start lines that faced its cell, the zones renumbered
        (``zmap``; -1: taken in by ``seat``'s system), plus its own open routes (in
        ``seat``'s system, or in zone number ``zone``)."""
        seats, routes, owner, zone_of = self.seats, self.routes, self.owner, self.zone_of
        before = list(self.open_count)
        for s, j in enumerate(parent):
            if j >= 0:
                if routes[j] >> OPP[s] & 1:  # an open route of the neighbour's, now closed
                    before[owner[j] if owner[j] >= 0 else seats + zone_of[j]] -= 1
            elif j == STATION_NODE and OPP[s] in self.start_lines:  # its start line too
                before[self.start_lines[OPP[s]]] -= 1
        counts = [*before[:seats], *[0] * zones]
        for z, count in enumerate(before[seats:]):
            counts[seat if zmap[z] < 0 else seats + zmap[z]] += count
        own = POP[mask & sum(1 << s for s, j in enumerate(mine) if j == EMPTY)]
        counts[seat if seat >= 0 else seats + zone] += own
        return counts

    def _carried_spots(self, before: list[Spot], cell: Hex, zmap: list[int], seat: int,
                       mask: int, mine: list[int], zone: int) -> list[Spot]:
        """The free cells after a sector with route sides ``mask`` was placed on ``cell``
        (``mine``: its neighbours' numbers; it is in ``seat``'s system, or in zone number
        ``zone``), from those ``before``: the zones renumbered (``zmap``: a zone's number
        before -> after, -1 when ``seat``'s system took it in), and its empty neighbours
        facing it too."""
        spots = before.copy()
        at = bisect_left(spots, cell, key=_CELL)
        if at < len(spots) and spots[at][0] == cell:
            del spots[at]
        # the first zone whose number changed: the zones before it keep theirs
        changed = next((z for z, now in enumerate(zmap) if now != z), None)
        if changed is not None:
            renumbered: dict[tuple[int, ...], tuple[int, ...] | None] = {}  # None: the same
            for k, spot in enumerate(spots):
                zones = spot[4]
                if not zones or zones[-1] < changed:  # a spot's zones are in order
                    continue
                if zones in renumbered:
                    now = renumbered[zones]
                else:
                    mapped = [zmap[z] for z in zones]
                    now = renumbered[zones] = None if mapped == list(zones) else \
                        tuple(sorted({z for z in mapped if z >= 0}))
                    if -1 in mapped:  # a zone the system took in: the seat instead
                        renumbered[zones] = now = (-1, *now)
                if now is None:
                    continue
                if now and now[0] == -1:
                    spots[k] = _new(Spot, (spot[0], spot[1], spot[2],
                                           tuple(sorted({*spot[3], seat})), now[1:]))
                else:
                    spots[k] = _new(Spot, (*spot[:4], now))
        # each empty neighbour now faces the new sector too: a side more that faces
        # something, a route there if the sector has one, and then its system or zone
        for s, other in enumerate(near_cells(cell)):
            if mine[s] != EMPTY:
                continue
            bit = 1 << OPP[s]
            route = mask >> s & 1
            at = bisect_left(spots, other, key=_CELL)
            if at < len(spots) and spots[at][0] == other:
                _, known, required, seats, zones = spots[at]
                if route:
                    if seat >= 0:
                        if seat not in seats:
                            seats = tuple(sorted((*seats, seat)))
                    elif zone not in zones:
                        zones = tuple(sorted((*zones, zone)))
                spots[at] = _new(Spot, (other, known | bit, required | (bit if route else 0),
                                        seats, zones))
            else:
                spots.insert(at, _new(Spot, (
                    other, bit, bit if route else 0, (seat,) if route and seat >= 0 else (),
                    (zone,) if route and seat < 0 else ())))
        return spots

    # --- neutral zones (O-29, O-30) -------------------------------------------------------

    @property
    def zones(self) -> list[list[int]]:
        """The neutral zones: sectors in no system joined by routes, each in cell order, the
        zones in order of their first cell."""
        if self._zones is None:
            self._find_zones()
        assert self._zones is not None
        return self._zones

    @property
    def zone_of(self) -> list[int]:
        """For each sector its neutral zone's number, or -1 for a sector in a system."""
        if self._zone_of is None:
            self._find_zones()
        assert self._zone_of is not None
        return self._zone_of

    def _find_zones(self) -> None:
        owner = self.owner
        zone_of = [-1] * len(owner)
        zones: list[list[int]] = []
        for start in range(len(owner)):
            if owner[start] >= 0 or zone_of[start] >= 0:
                continue
            # a sector joined to a system is in it: a neutral sector reaches only neutral ones
            zone_of[start] = len(zones)
            zones.append(sorted(self._spread(zone_of, [start])))
        self._zone_of, self._zones = zone_of, zones

    # --- open routes (O-24, O-36, O-57) ---------------------------------------------------

    def open_sides(self, i: int) -> int:
        """The route sides of sector ``i`` that face an empty cell (its open routes)."""
        base = 6 * i
        mask = self.routes[i]
        out = 0
        near = self.near
        for side in BITS[mask]:
            if near[base + side] == EMPTY:
                out |= 1 << side
        return out

    @property
    def open_count(self) -> list[int]:
        """Open routes per system (seats first, ``seats`` of them) then per neutral zone; a
        system's count includes its owner's start lines whose cell is still empty (O-36)."""
        if self._open is None:
            counts = [0] * (self.seats + len(self.zones))
            owner, routes, seats = self.owner, self.routes, self.seats
            zone_of = self.zone_of if -1 in owner else None
            for k in self.empties:
                i, side = divmod(k, 6)
                if routes[i] >> side & 1:
                    seat = owner[i]
                    if seat >= 0:
                        counts[seat] += 1
                    else:
                        assert zone_of is not None
                        counts[seats + zone_of[i]] += 1
            for side, seat in self.start_lines.items():
                if self.around[side] == EMPTY:
                    counts[seat] += 1
            self._open = counts
        return self._open

    # --- free cells (O-32) ----------------------------------------------------------------

    @property
    def spots(self) -> list[Spot]:
        """Every empty cell next to the station or a sector, in cell order, with the sides a
        sector there must match and the systems and zones it would join."""
        if self._spots is None:
            self._spots = self._find_spots()
        return self._spots

    def _find_spots(self) -> list[Spot]:
        # built from the placed side: each sector side facing an empty cell tells that cell
        # what it must match, so every side of every sector is looked at once
        seen: dict[Hex, list[int]] = {}  # cell -> [known, required, seat bits, zone bits]
        for d, cell in enumerate(DIRECTIONS):
            if self.around[d] == EMPTY:
                side = OPP[d]
                if d in self.start_lines:
                    seen[cell] = [1 << side, 1 << side, 1 << self.start_lines[d], 0]
                else:
                    seen[cell] = [1 << side, 0, 0, 0]
        owner, routes = self.owner, self.routes
        zone_of = self.zone_of if -1 in owner else None
        for k, other in zip(self.empties, self.facing_empty, strict=True):
            i, s = divmod(k, 6)
            entry = seen.get(other)
            if entry is None:
                entry = seen[other] = [0, 0, 0, 0]
            bit = 1 << OPP[s]
            entry[0] |= bit
            if routes[i] >> s & 1:
                entry[1] |= bit
                seat = owner[i]
                if seat >= 0:
                    entry[2] |= 1 << seat
                else:
                    assert zone_of is not None
                    entry[3] |= 1 << zone_of[i]
        return [_new(Spot, (cell, e[0], e[1], BITS[e[2]] if e[2] < 64 else _bits(e[2]),
                            BITS[e[3]] if e[3] < 64 else _bits(e[3])))
                for cell, e in sorted(seen.items())]

    def spot(self, cell: Hex) -> Spot | None:
        if self._spot_at is None:
            self._spot_at = {s.cell: s for s in self.spots}
        return self._spot_at.get(cell)

    def open_after(self, spot: Spot, mask: int) -> int:
        """Open routes of the system a sector with route sides ``mask`` joins on ``spot``
        (its one seat), counted as the closing rule counts them (O-35, O-36)."""
        counts = self.open_count
        seats = self.seats
        return (counts[spot.seats[0]] + sum(counts[seats + z] for z in spot.zones)
                - POP[spot.required] + POP[mask & ~spot.known & ALL_SIDES])

    # --- matching (O-21 to O-23) ----------------------------------------------------------

    def station_route(self, side: int) -> bool:
        """Whether the station's ``side`` counts as a route (a start line) or blank."""
        return side in self.start_lines

    def mismatches(self, cell: Hex, mask: int) -> list[Mismatch]:
        """The sides on which a sector with route sides ``mask`` on ``cell`` does not match
        its neighbours (placed sectors and the station)."""
        masks = {c: self.routes[i] for i, c in enumerate(self.cells)}
        known, required = facing(cell, masks, self.start_lines)
        out = []
        around = near_cells(cell)
        for s in BITS[known & (mask ^ required)]:
            other = around[s]
            j = STATION_NODE if other == (0, 0) else self.index[other]
            out.append(Mismatch(s, bool(mask >> s & 1), j, bool(required >> s & 1)))
        return out

    def table_mismatches(self, order: Indexed) -> list[tuple[int, Mismatch]]:
        """Every place where two facing sides of the table do not match, each pair once,
        reported at the sector listed later (``order[i]``: when sector ``i`` was listed), in
        the order of the sectors and their sides. Two sectors that do not match have a
        route facing a blank side, so only the route sides not joined to a route are looked
        at (on a legal table, the open routes), and the sides facing the station. None, at
        once, where that is known (this analysis found none before, or was carried from one
        that had none with a sector that matches its neighbours)."""
        if self._matched:
            return []
        found: list[tuple[int, int, int, bool, bool]] = []  # at, side, other, route, other's
        near, routes, joined = self.near, self.routes, self.joined
        for i in range(len(routes)):
            unjoined = routes[i] & ~joined[i]
            if not unjoined:
                continue
            base = 6 * i
            for side in BITS[unjoined]:
                j = near[base + side]
                if j >= 0:  # a route facing a sector's blank side
                    if order[j] <= order[i]:
                        found.append((i, side, j, True, False))
                    if order[i] <= order[j]:
                        found.append((j, OPP[side], i, False, True))
        start_lines = self.start_lines
        for d, i in enumerate(self.around):  # the sectors next to the station
            if i >= 0:
                side = OPP[d]  # the sector's side facing the station's side d
                route, line = bool(routes[i] >> side & 1), d in start_lines
                if route != line:
                    found.append((i, side, STATION_NODE, route, line))
        found.sort()
        self._matched = not found
        return [(i, _new(Mismatch, (side, route, j, other)))
                for i, side, j, route, other in found]

    # --- removals (O-38, O-39) ------------------------------------------------------------

    def roots(self, seat: int) -> list[int]:
        """The sectors on ``seat``'s start lines (joined to them by a route)."""
        out = []
        for d in sorted(s for s, p in self.start_lines.items() if p == seat):
            i = self.around[d]
            if i >= 0 and self.routes[i] >> OPP[d] & 1:
                out.append(i)
        return out

    def removable(self, seat: int) -> list[int]:
        """The sectors of ``seat``'s system whose removal leaves the rest of the system
        connected to the station: every sector of the system but its cut vertices (seen from
        the station), found with one depth-first search. In cell order."""
        roots = self.roots(seat)
        if not roots:
            return []
        near, joined = self.near, self.joined
        root = -1  # the station
        around = {i: d for d, i in enumerate(self.around) if i >= 0}

        def neighbours(v: int) -> list[int]:
            if v == root:
                return roots
            base = 6 * v
            out = [near[base + s] for s in BITS[joined[v]]]
            d = around.get(v)
            if d is not None and self.start_lines.get(d) == seat and self.routes[v] >> OPP[d] & 1:
                out.append(root)
            return out

        disc: dict[int, int] = {root: 0}
        low: dict[int, int] = {root: 0}
        parent: dict[int, int | None] = {root: None}
        cut: set[int] = set()
        counter = 1
        stack: list[tuple[int, list[int], int]] = [(root, roots, 0)]
        while stack:
            v, ws, k = stack[-1]
            if k < len(ws):
                stack[-1] = (v, ws, k + 1)
                w = ws[k]
                if w not in disc:
                    disc[w] = low[w] = counter
                    counter += 1
                    parent[w] = v
                    stack.append((w, neighbours(w), 0))
                elif w != parent[v] and disc[w] < low[v]:
                    low[v] = disc[w]
                continue
            stack.pop()
            if stack:
                p = stack[-1][0]
                if low[v] < low[p]:
                    low[p] = low[v]
                if p != root and low[v] >= disc[p]:
                    cut.add(p)
        return sorted(v for v in disc if v != root and v not in cut)

    def cut_off(self, seat: int, gone: int) -> list[int]:
        """The sectors of ``seat``'s system no longer connected to the station without the
        sector ``gone``, in cell order."""
        reached = {i for i in self.roots(seat) if i != gone}
        stack = list(reached)
        near, joined = self.near, self.joined
        while stack:
            i = stack.pop()
            base = 6 * i
            for s in BITS[joined[i]]:
                j = near[base + s]
                if j != gone and j not in reached:
                    reached.add(j)
                    stack.append(j)
        return [i for i in self.system(seat) if i != gone and i not in reached]


def analyse(start_lines: Mapping[int, int], seats: int,
            sectors: Iterable[tuple[Hex, int]]) -> Analysis:
    """An :class:`Analysis` of sectors given as ``(cell, route mask)`` pairs."""
    return Analysis(start_lines, seats, dict(sectors))
