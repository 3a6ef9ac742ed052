"""Random legal Orbitus tables, grown by random matching placements (tests and benchmarks).

Starting from the station with a player count's default start lines, each step
picks a random empty cell next to the station or a placed sector and lays a
sector there whose sides match every neighbour (a start line counts as a route,
a barrier as blank). A placement whose routes would join two players' systems
(directly, or through a neutral zone) is skipped, as the rules forbid it. Sides
facing empty cells are chosen at random, so systems grow loops, dead ends and
neutral zones. Seeded, so the same arguments give the same table.
"""

from __future__ import annotations

import random
from typing import Any

from rules.hexgeo import DIRECTIONS, SIDES, Hex
from rules.orbitus.analysis import BITS, facing
from rules.orbitus.ruleset import Card, StartLines
from rules.orbitus.table import STATION


class _Components:
    """Union-find over placed sectors, remembering which seats' start lines each touches."""

    def __init__(self) -> None:
        self.parent: dict[Hex, Hex] = {}
        self.seats: dict[Hex, frozenset[int]] = {}

    def find(self, cell: Hex) -> Hex:
        root = cell
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[cell] != root:
            self.parent[cell], cell = root, self.parent[cell]
        return root

    def add(self, cell: Hex, seats: frozenset[int], joined: list[Hex]) -> None:
        self.parent[cell] = cell
        self.seats[cell] = seats
        for other in joined:
            a, b = self.find(cell), self.find(other)
            if a != b:
                self.parent[b] = a
                self.seats[a] = self.seats[a] | self.seats.pop(b)


def grow_table(
    seed: int,
    sectors: int,
    players: int = 2,
    setup: StartLines | None = None,
    deck: dict[str, Card] | None = None,
    route_chance: float = 0.55,
    planet_types: tuple[str, ...] | None = None,
) -> dict[str, Any]:
    """A layout (as the YAML file's mapping) with up to ``sectors`` sectors.

    With ``deck`` the sectors are cards of that deck (each used at most ``count``
    times, turned to fit); without it they are inline sectors with random centres
    (planets of ``planet_types``). ``setup`` and ``planet_types`` default to the
    shipped definitions. Growth stops early when no empty cell can take a sector.
    """
    rng = random.Random(seed)
    if setup is None or planet_types is None:
        from cards.ruleset_cache import load_ruleset
        from rules.orbitus.ruleset import Ruleset

        shipped = load_ruleset("orbitus")
        assert isinstance(shipped, Ruleset)
        setup = setup or shipped.setup_for(players)
        planet_types = planet_types or shipped.planet_types
    assert setup is not None
    start: dict[int, int] = setup.owners()
    routes: dict[Hex, int] = {}
    comps = _Components()
    entries: list[dict[str, Any]] = []
    frontier: list[Hex] = [d for d in DIRECTIONS]
    in_frontier: set[Hex] = set(frontier)
    left = {c.id: c.count for c in deck.values()} if deck else {}
    cards = sorted(left)
    tries = 0
    while frontier and len(entries) < sectors and tries < sectors * 20 + 1000:
        tries += 1
        i = rng.randrange(len(frontier))
        cell = frontier[i]
        q, r = cell
        known, required = facing(cell, routes, start)
        # the seats this placement would join, through its required routes
        seats: set[int] = set()
        joined: list[Hex] = []
        for side in BITS[required]:
            dq, dr = DIRECTIONS[side]
            near = (q + dq, r + dr)
            if near == STATION:
                seats.add(start[(side + 3) % 6])
            else:
                joined.append(near)
                seats |= comps.seats[comps.find(near)]
        if len(seats) > 1:
            frontier[i] = frontier[-1]
            frontier.pop()
            in_frontier.discard(cell)
            continue
        chosen = _choose(rng, known, required, deck, cards, left, route_chance)
        if chosen is None:
            continue  # no card fits here now; the cell stays in the frontier
        table_routes, entry = chosen
        if deck is None:
            centre = rng.random()
            if centre < 0.6:
                entry["planet"] = planet_types[rng.randrange(len(planet_types))]
            elif centre < 0.72:
                entry["pirate"] = True
        entry = {"at": [q, r], **entry}
        entries.append(entry)
        routes[cell] = table_routes
        comps.add(cell, frozenset(seats), joined)
        frontier[i] = frontier[-1]
        frontier.pop()
        in_frontier.discard(cell)
        for dq, dr in DIRECTIONS:
            near = (q + dq, r + dr)
            if near != STATION and near not in routes and near not in in_frontier:
                in_frontier.add(near)
                frontier.append(near)
    names = ["Anna", "Boris", "Carla", "Dmitri", "Elena", "Fyodor"][:players]
    return {
        "game": "orbitus",
        "players": names,
        "start_lines": {
            names[seat]: [SIDES[s] for s in sides] for seat, sides in enumerate(setup.start_lines)
        },
        "barriers": [SIDES[s] for s in range(6) if s not in start],
        "sectors": entries,
    }


def _choose(
    rng: random.Random,
    known: int,
    required: int,
    deck: dict[str, Card] | None,
    cards: list[str],
    left: dict[str, int],
    route_chance: float,
) -> tuple[int, dict[str, Any]] | None:
    """Route sides that match (``known`` sides as ``required``, the others at random), with
    the layout entry that writes them; None when no card of the deck fits."""
    if deck is None:
        mask = 0
        for s in range(6):
            drawn = rng.random() < route_chance  # drawn for every side: seeds give old tables
            if (required >> s & 1) if known >> s & 1 else drawn:
                mask |= 1 << s
        return mask, {"routes": [SIDES[s] for s in BITS[mask]]}
    for _ in range(60):
        ident = cards[rng.randrange(len(cards))]
        if not left[ident]:
            continue
        rot = rng.randrange(6)
        masks = deck[ident].masks
        for k in range(6):
            turn = (rot + k) % 6
            if masks[turn] & known == required:
                left[ident] -= 1
                return masks[turn], {"card": ident, "rot": turn}
    return None
