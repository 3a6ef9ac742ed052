"""Orbitus in the simulator: the deal, what a bot may know, the greedy evaluation, the
determinisation for search, and the statistics of a finished game.

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

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from rules.orbitus import GAME
from rules.orbitus.actions import KIND_NAMES, PASS, PLACE, REMOVE, Action
from rules.orbitus.analysis import BITS, OPP, POP, Analysis, near_cells
from rules.orbitus.blocks import closed_loops
from rules.orbitus.engine import END_ROUND, Seating, State
from rules.orbitus.ruleset import Ruleset, Scoring
from rules.orbitus.view import View, sample_state

NAMES = ("P1", "P2", "P3", "P4", "P5", "P6")
KINDS = KIND_NAMES  # place, remove, discard, pass
STATION = (0, 0)


class OrbitusSim:
    """The simulator's adapter of Orbitus (see the module docstring)."""

    name = "orbitus"
    game = GAME
    kinds = KINDS

    # --- a game ----------------------------------------------------------------------------

    def player_counts(self, ruleset: Ruleset) -> tuple[int, ...]:
        return tuple(n for n in ruleset.player_counts
                     if GAME.min_players <= n <= GAME.max_players)

    def new_game(self, ruleset: Ruleset, players: int, seed: int) -> State:
        return GAME.new_game(ruleset, NAMES[:players], seed)

    def first_seat(self, ruleset: Ruleset) -> int:
        return 0  # the first listed player moves first (O-20)

    def public(self, state: State) -> Seating:
        """What every seat knows of the game from the start: the players, the station and
        the ruleset (the deck's composition, never its order)."""
        return state.game

    reward_scale = 4.0  # points of margin that make a position clearly better (search)

    def decided(self, state: State) -> bool:
        """Whether the game is over (the engine decides that after every action)."""
        return state.end is not None

    def may_end(self, action: Action) -> bool:
        return False

    def legal(self, state: State) -> Sequence[Action]:
        """The legal actions a bot is offered (a lazy sequence: reading one is cheap)."""
        return GAME.legal_actions(state)

    def random_action(self, turn: Any, rng: random.Random) -> Action:
        """A legal action, each equally likely."""
        legal = turn.legal
        if len(legal) == 1:
            return legal[0]
        return legal[rng.randrange(len(legal))]

    def kind(self, state: State, action: Action) -> int:
        """The number of the action's kind in :attr:`kinds`."""
        return action.kind

    def components(self, ruleset: Ruleset) -> dict[str, str]:
        """The score components of a seat's record, in report order, with their labels."""
        out = {f"planet:{t}": f"{t} planets" for t in ruleset.planet_types}
        out.update({"pirates": "pirates", "open_routes": "open routes",
                    "blocks": "closed blocks"})
        return out

    def card_centres(self, ruleset: Ruleset) -> dict[str, str]:
        """Each card's centre (planet type, pirate, void), for the card plot."""
        return {c.id: c.centre for c in ruleset.deck}

    def tally(self) -> dict[str, dict[str, int]]:
        """Empty counts of what happened to each card during a game."""
        return {"placed": {}, "removed": {}, "discarded": {}}

    def count(self, tally: dict[str, dict[str, int]], state: State, action: Action) -> None:
        kind = action.kind
        if kind == PASS:
            return
        which = tally[("placed", "removed", "discarded")[kind]]
        card = action.card if kind != REMOVE else state.board[action.cell].card
        which[card] = which.get(card, 0) + 1

    # --- search ----------------------------------------------------------------------------

    def determinise(self, match: Seating, view: View, rng: random.Random) -> State:
        """A full state consistent with ``view``: the unseen cards dealt at random."""
        return sample_state(view, match, rng)

    def values(self, state: State) -> tuple[int, ...]:
        """The score of every seat as the position stands (the search's evaluation)."""
        return state.score().totals

    # --- greedy ----------------------------------------------------------------------------

    def score_changes(self, match: Seating, view: View, legal: Sequence[Action],
                      state: State | None = None) -> list[tuple[int, Action]]:
        """``(change of my own score, action)`` for every legal action, in their order.
        A search that has a (determinised) state of its own passes it, so the table's
        analysis it already holds is not worked out again."""
        return Changes(match, view, None if state is None else state.info).of(legal)

    def best_actions(self, match: Seating, view: View, legal: Sequence[Action]) -> list[Action]:
        """The legal actions of the best change of my own score, in their order."""
        changes = self.score_changes(match, view, legal)
        best = max(value for value, _ in changes)
        return [action for value, action in changes if value == best]

    # --- statistics ------------------------------------------------------------------------

    def record(self, state: State, tally: dict[str, dict[str, int]],
               cut_short: bool) -> dict[str, Any]:
        """The statistics of a finished game: how it ended, every seat's score components,
        the cards (placed, removed, discarded; the seats whose systems hold them)."""
        result = state.score()
        seats = []
        owners: dict[str, list[int]] = {}
        index = {cell: k for k, cell in enumerate(state.board)}
        for player in result.players:
            blocks = Counter(b.size for b in player.closed_blocks)
            seat: dict[str, Any] = {f"planet:{g.type}": g.points for g in player.planets}
            seat.update({
                "pirates": player.pirate_points,
                "open_routes": player.open_route_points,
                "blocks": sum(b.points for b in player.closed_blocks),
                "planet_cards": {g.type: g.count for g in player.planets if g.count},
                "closed_blocks_by_size": {str(k): v for k, v in sorted(blocks.items())},
            })
            seats.append(seat)
            for cell in sorted(player.sectors, key=index.__getitem__):
                owners.setdefault(state.board[cell].card, []).append(player.seat)
        end = "turn-limit" if cut_short else (
            "quiet-round" if state.end == END_ROUND else "no-one-can-act")
        return {
            "end": end,
            "seats": seats,
            "cards": {**{k: dict(sorted(v.items())) for k, v in tally.items()},
                      "in_systems": dict(sorted(owners.items()))},
        }


# --- the greedy evaluation ------------------------------------------------------------------


@lru_cache(maxsize=32)
def _planet_points(scoring: Scoring, most: int) -> tuple[int, ...]:
    """Points of a planet group of each size from 0 to ``most - 1``."""
    return tuple(scoring.planet_points(k) for k in range(most))


class Changes:
    """The change of one seat's own score for each legal action of a position, from what
    that seat sees (the table)."""

    def __init__(self, match: Seating, view: View, info: Analysis | None = None) -> None:
        self.match = match
        self.seat = seat = view.seat
        rules = match.ruleset
        self.scoring = rules.scoring
        self.cards = rules.cards
        self.board = view.board
        if info is None:
            info = Analysis(match.start_lines, match.n,
                            {c: p.mask for c, p in view.board.items()})
        self.info = info
        owner = info.owner
        self.mine = [i for i in range(len(owner)) if owner[i] == seat]
        self.planets = Counter(self._planets(self.mine))
        self.points = _planet_points(self.scoring, rules.deck_size + 2)
        self._blocks_now: int | None = None
        self._spots: dict[Any, tuple[int, int, Counter[str] | None]] = {}
        self._cells: dict[Any, int] = {}

    def _planets(self, nodes: Iterable[int]) -> Iterable[str]:
        cells, board, cards = self.info.cells, self.board, self.cards
        for i in nodes:
            planet = cards[board[cells[i]].card].planet
            if planet is not None:
                yield planet

    def _pirates(self, nodes: Iterable[int]) -> int:
        cells, board, cards = self.info.cells, self.board, self.cards
        return sum(1 for i in nodes if cards[board[cells[i]].card].pirate)

    def _blocks(self, edges: dict[Any, int]) -> int:
        block = self.scoring.block_points
        return sum(block(loop.size) for loop in closed_loops(edges))

    def _edges(self, nodes: Iterable[int]) -> dict[Any, int]:
        cells, joined = self.info.cells, self.info.joined
        return {cells[i]: joined[i] for i in nodes}

    def blocks_now(self) -> int:
        if self._blocks_now is None:
            self._blocks_now = self._blocks(self._edges(self.mine))
        return self._blocks_now

    def _spot(self, cell: Any) -> tuple[int, int, Counter[str] | None]:
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
        scoring = self.scoring
        if not spot.zones:
            change = -scoring.open_route * POP[joins]
            if POP[joins] >= 2:
                edges = self._edges(self.mine)
                self._join(edges, cell, joins)
                change += self._blocks(edges) - self.blocks_now()
            return spot.known, change, self.planets
        zone_nodes = [i for z in spot.zones for i in info.zones[z]]
        zone_planets = Counter(self._planets(zone_nodes))
        after = self.planets + zone_planets
        points = self.points
        change = sum(points[after[t]] - points[self.planets[t]] for t in zone_planets)
        change += scoring.pirate * self._pirates(zone_nodes)
        open_zones = sum(info.open_count[info.seats + z] for z in spot.zones)
        change += scoring.open_route * (open_zones - POP[joins])
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

    def _removal(self, cell: Any) -> int:
        info, scoring = self.info, self.scoring
        i = info.index[cell]
        card = self.cards[self.board[cell].card]
        change = 0
        if card.planet is not None:
            k = self.planets[card.planet]
            change += self.points[k - 1] - self.points[k]
        elif card.pirate:
            change -= scoring.pirate
        joined = info.joined[i]
        change += scoring.open_route * (POP[joined] - POP[info.open_sides(i)])
        if POP[joined] >= 2:
            edges = self._edges(n for n in self.mine if n != i)
            for s in BITS[joined]:
                other = info.cells[info.near[6 * i + s]]
                edges[other] &= ~(1 << OPP[s])
            change += self._blocks(edges) - self.blocks_now()
        return change

    def of(self, legal: Sequence[Action]) -> list[tuple[int, Action]]:
        out: list[tuple[int, Action]] = []
        append = out.append
        spots, cells, cards = self._spots, self._cells, self.cards
        scoring = self.scoring
        route, pirate, points = scoring.open_route, scoring.pirate, self.points
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
                            change += points[k + 1] - points[k]
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


SIM = OrbitusSim()
__all__ = ["SIM", "Changes", "OrbitusSim"]
