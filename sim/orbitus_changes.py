"""The change of what a seat's system is worth for every legal action of an Orbitus
position, worked out at once: the greedy bot's evaluation (the score itself) and the
search bots' (:mod:`sim.orbitus_eval`, a value of a system's future).

The greedy evaluation answers "how much does this action change my own score?" for every
legal action of a position without scoring the table once per action (a 3-player turn
has about 330 legal actions; a full score costs about 0.35 ms). It reads the one analysis
of the rules core (:class:`rules.orbitus.analysis.Analysis`) and the core's closed-block
finder, and works out the change per free cell once and per card and rotation with a few
integer operations:

* a sector joins my system only on a cell whose routes come from my system alone
  (``spot.seats == (me,)``); anywhere else my score does not change;
* joining adds its planet or pirate, its route sides facing empty cells, and takes away
  the open routes it closes; neutral zones it joins come along with their planets,
  pirates and open routes;
* closed blocks change only when the new sector joins two or more sectors (a new face of
  the route graph) or brings in a neutral zone; then the blocks of my system with the new
  sector are found by the core's :func:`~rules.orbitus.blocks.closed_loops`.

A test compares every value with the difference of two full scores of the rules core.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from rules.orbitus.actions import PLACE, REMOVE, Action
from rules.orbitus.analysis import BITS, OPP, POP, Analysis, near_cells
from rules.orbitus.blocks import closed_loops
from rules.orbitus.engine import Seating
from rules.orbitus.ruleset import Ruleset, Scoring

STATION = (0, 0)


_SIZES: dict[frozenset[tuple[Any, int]], tuple[int, ...]] = {}
_SIZES_KEPT = 4096  # systems remembered (a search meets the same ones again and again;
# some 4 kB each)


def block_sizes(edges: Mapping[Any, int]) -> tuple[int, ...]:
    """The sizes of the closed blocks of the route graph ``edges`` (as the core's
    :func:`~rules.orbitus.blocks.closed_loops` finds them), remembered: a search judges
    the same system, or the same system less one sector, in deal after deal."""
    key = frozenset(edges.items())
    found = _SIZES.get(key)
    if found is None:
        if len(_SIZES) >= _SIZES_KEPT:
            _SIZES.clear()
        found = _SIZES[key] = tuple(loop.size for loop in closed_loops(edges))
    return found


@lru_cache(maxsize=32)
def _planet_points(scoring: Scoring, most: int) -> tuple[int, ...]:
    """Points of a planet group of each size from 0 to ``most - 1``."""
    return tuple(scoring.planet_points(k) for k in range(most))


class Values(NamedTuple):
    """What each part of a system is worth to an evaluation: a planet group of each size
    (per planet type), a pirate, an open route, a closed block of each size. The real
    scoring (:func:`points`) makes :class:`Changes` the change of the score itself; the
    search bots' evaluation (:mod:`sim.orbitus_eval`) gives a system's future a value."""

    planets: Mapping[str, Sequence[float]]
    pirate: float
    open_route: float
    block: Callable[[int], float]


@lru_cache(maxsize=32)
def points(rules: Ruleset) -> Values:
    """The scoring tables themselves (O-54 to O-61)."""
    scoring = rules.scoring
    table = _planet_points(scoring, rules.deck_size + 2)
    return Values(dict.fromkeys(rules.planet_types, table), scoring.pirate, scoring.open_route,
                  scoring.block_points)


class Changes:
    """The change of one seat's own score (or of what ``values`` make of its system) for
    each legal action of a position, from what that seat sees (the table)."""

    def __init__(self, match: Seating, view: Any, info: Analysis | None = None,
                 values: Values | None = None) -> None:
        self.match = match
        self.seat = seat = view.seat
        rules = match.ruleset
        self.values = values = points(rules) if values is None else values
        self.cards = rules.cards
        self.board = view.board
        if info is None:
            info = Analysis(match.start_lines, match.n,
                            {c: p.mask for c, p in view.board.items()})
        self.info = info
        owner = info.owner
        self.mine = [i for i in range(len(owner)) if owner[i] == seat]
        self.planets = Counter(self._planets(self.mine))
        self.tables = values.planets
        self._blocks_now: float | None = None
        self._spots: dict[Any, tuple[int, float, Counter[str] | None]] = {}
        self._cells: dict[Any, float] = {}

    def _planets(self, nodes: Iterable[int]) -> Iterable[str]:
        cells, board, cards = self.info.cells, self.board, self.cards
        for i in nodes:
            planet = cards[board[cells[i]].card].planet
            if planet is not None:
                yield planet

    def _pirates(self, nodes: Iterable[int]) -> int:
        cells, board, cards = self.info.cells, self.board, self.cards
        return sum(1 for i in nodes if cards[board[cells[i]].card].pirate)

    def _blocks(self, edges: dict[Any, int]) -> float:
        block = self.values.block
        return sum(block(size) for size in block_sizes(edges))

    def _edges(self, nodes: Iterable[int]) -> dict[Any, int]:
        cells, joined = self.info.cells, self.info.joined
        return {cells[i]: joined[i] for i in nodes}

    def blocks_now(self) -> float:
        if self._blocks_now is None:
            self._blocks_now = self._blocks(self._edges(self.mine))
        return self._blocks_now

    def _spot(self, cell: Any) -> tuple[int, float, Counter[str] | None]:
        """``(known sides, change before the card's own part, planet counts after)``; the
        counts are None when a sector there does not join my system."""
        info, seat = self.info, self.seat
        spot = info.spot(cell)
        assert spot is not None
        if spot.seats != (seat,):
            return spot.known, 0, None
        around = near_cells(cell)
        joins = 0  # the sides towards sectors (the station is no sector)
        for s in BITS[spot.required]:
            if around[s] != STATION:
                joins |= 1 << s
        values = self.values
        if not spot.zones:
            change: float = -values.open_route * POP[joins]
            if POP[joins] >= 2:
                edges = self._edges(self.mine)
                self._join(edges, cell, joins)
                change += self._blocks(edges) - self.blocks_now()
            return spot.known, change, self.planets
        zone_nodes = [i for z in spot.zones for i in info.zones[z]]
        zone_planets = Counter(self._planets(zone_nodes))
        after = self.planets + zone_planets
        tables = self.tables
        change = sum(tables[t][after[t]] - tables[t][self.planets[t]] for t in zone_planets)
        change += values.pirate * self._pirates(zone_nodes)
        open_zones = sum(info.open_count[info.seats + z] for z in spot.zones)
        change += values.open_route * (open_zones - POP[joins])
        edges = self._edges([*self.mine, *zone_nodes])
        self._join(edges, cell, joins)
        change += self._blocks(edges) - self.blocks_now()
        return spot.known, change, after

    @staticmethod
    def _join(edges: dict[Any, int], cell: Any, joins: int) -> None:
        around = near_cells(cell)
        edges[cell] = joins
        for s in BITS[joins]:
            other = around[s]
            edges[other] = edges.get(other, 0) | 1 << OPP[s]

    def _removal(self, cell: Any) -> float:
        info, values = self.info, self.values
        i = info.index[cell]
        card = self.cards[self.board[cell].card]
        change: float = 0
        if card.planet is not None:
            k = self.planets[card.planet]
            table = self.tables[card.planet]
            change += table[k - 1] - table[k]
        elif card.pirate:
            change -= values.pirate
        joined = info.joined[i]
        change += values.open_route * (POP[joined] - POP[info.open_sides(i)])
        if POP[joined] >= 2:
            edges = self._edges(n for n in self.mine if n != i)
            for s in BITS[joined]:
                other = info.cells[info.near[6 * i + s]]
                edges[other] &= ~(1 << OPP[s])
            change += self._blocks(edges) - self.blocks_now()
        return change

    def of(self, legal: Sequence[Action]) -> list[tuple[float, Action]]:
        out: list[tuple[float, Action]] = []
        append = out.append
        spots, cells, cards = self._spots, self._cells, self.cards
        values = self.values
        route, pirate, tables = values.open_route, values.pirate, self.tables
        for action in legal:
            kind = action.kind
            if kind == PLACE:
                key = (action.cell, action.card)
                found = cells.get(key)
                if found is None:
                    spot = spots.get(action.cell)
                    if spot is None:
                        spot = spots[action.cell] = self._spot(action.cell)
                    known, change, counts = spot
                    card = cards[action.card]
                    if counts is None:
                        found = cells[key] = -1 << 30  # my score does not change
                    else:
                        if card.planet is not None:
                            k = counts[card.planet]
                            table = tables[card.planet]
                            change += table[k + 1] - table[k]
                        elif card.pirate:
                            change += pirate
                        found = cells[key] = change
                if found == -1 << 30:
                    append((0, action))
                else:
                    free = ~spots[action.cell][0] & 63
                    mask = cards[action.card].masks[action.rot]
                    append((found + route * POP[mask & free], action))
            elif kind == REMOVE:
                append((self._removal(action.cell), action))
            else:
                append((0, action))
        return out


