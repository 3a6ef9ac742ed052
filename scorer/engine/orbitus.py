"""The Orbitus rules engine: the deck, the deal, hands, turns, legal actions, the end.

Pure and self-contained (standard library, the hex geometry of :mod:`rules.hexgeo`
and, to hand a position to the scorer, its layout types). The rules are
``shared/rules/orbitus.md``; where that page is silent this engine decides, and
every decision is listed in the README (section *Rules engines*, Orbitus):

* **The deal.** The deck (every card of ``sectors.yaml`` as often as its
  ``count``, in file order) is shuffled with ``random.Random(seed)``; each
  player in seat order then takes ``hand_size`` cards from the top. The first
  player is P1 unless the record names another; play goes clockwise, which is
  seat order.
* **Open routes of a system** (for "no placement that leaves an opponent's
  system without an open route"): the route sides of its sectors that face an
  empty cell, and the player's start lines whose cell is still empty (a system
  with no sector yet can still grow there). The rule forbids the placement that
  takes an opponent's *last* open route; a system its owner has closed blocks
  no one.
* **Remove** takes any sector of the player's own system as long as every
  other sector of that system stays connected to one of the player's start
  lines (the last sector of a system may go). The hand limit drops by one but
  not below ``min_hand``; at ``min_hand`` removing is still allowed. A hand
  above its limit is not cut: the player simply draws nothing until it is
  below.
* **Discard** needs a card to draw: with the deck empty there is no discard.
  Discarded and removed sectors leave the game.
* **Pass** is allowed unless the player's previous turn was a pass.
* A player with no legal action at all is skipped (that turn counts as one
  without a placement; a skip is not a pass).
* **The end**: when the deck is empty and one full round (as many turns in a
  row as there are players, each begun with the deck empty) has gone by
  without a placement, or when no player can act.

Sides are bit masks, bit ``s`` for side ``s`` (0=N clockwise), so a card's six
rotations and every matching test are a few integer operations.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from rules.hexgeo import DIRECTIONS, SIDE_INDEX, SIDES, Hex

if TYPE_CHECKING:
    from cards.definitions import OrbitusDefinitions
    from scorer.orbitus.layout import Layout

STATION: Hex = (0, 0)
OPP = (3, 4, 5, 0, 1, 2)
POP = tuple(bin(m).count("1") for m in range(64))
ALL_SIDES = 63

PLACE, REMOVE, DISCARD, PASS = 0, 1, 2, 3
KIND_NAMES = ("place", "remove", "discard", "pass")

END_ROUND = "quiet-round"  # deck empty and a full round without a placement
END_STUCK = "no-one-can-act"


def rotate_mask(mask: int, rot: int) -> int:
    """Route sides after turning a card ``rot`` steps clockwise (as bit masks)."""
    rot %= 6
    return ((mask << rot) | (mask >> (6 - rot))) & ALL_SIDES


def mask_of(sides: Iterable[int]) -> int:
    out = 0
    for s in sides:
        out |= 1 << s
    return out


def sides_text(mask: int) -> str:
    return " ".join(SIDES[s] for s in range(6) if mask >> s & 1) or "none"


def cell_text(cell: Hex) -> str:
    return f"[{cell[0]}, {cell[1]}]"


def cell_short(cell: Hex) -> str:
    """A cell as the move notation writes it: ``0,-1``."""
    return f"{cell[0]},{cell[1]}"


# --- the game: everything that never changes during one game -----------------------------


@dataclass(frozen=True, slots=True)
class Card:
    """A card of the deck as printed (marker up) and its six rotations."""

    id: str
    routes: int  # printed route sides, bit mask
    masks: tuple[int, ...]  # route sides on the table for rot 0..5
    planet: str | None
    pirate: bool
    count: int
    # (cell, known sides, required sides) -> its placements there, filled as needed
    fits: dict[tuple[Hex, int, int], tuple[Action, ...]] = field(
        default_factory=dict, compare=False, repr=False)

    @property
    def centre(self) -> str:
        if self.planet is not None:
            return self.planet
        return "pirate" if self.pirate else "void"

    def describe(self) -> str:
        """``S07 (ice; N NE SW)``."""
        return f"{self.id} ({self.centre}; {sides_text(self.routes)})"


def make_card(ident: str, routes: Iterable[int], planet: str | None = None,
              pirate: bool = False, count: int = 1) -> Card:
    mask = mask_of(routes)
    return Card(ident, mask, tuple(rotate_mask(mask, k) for k in range(6)), planet, pirate,
                count)


class SetupError(Exception):
    """The definitions or the record do not give a game (too few cards, bad start lines)."""


@dataclass(frozen=True)
class Game:
    """The players, the station's sides, the deck's cards and the hand numbers."""

    players: tuple[str, ...]
    start_lines: dict[int, int]  # station side -> seat
    barriers: frozenset[int]
    cards: dict[str, Card]
    hand_size: int
    min_hand: int
    planet_types: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not 2 <= len(self.players) <= 6:
            raise SetupError(f"{len(self.players)} player(s); Orbitus is played by 2 to 6")
        for seat, name in enumerate(self.players):
            if seat not in self.start_lines.values():
                raise SetupError(f"{name} has no start line; every player needs at least one "
                                 f"side of the station")
        if not 1 <= self.min_hand <= self.hand_size:
            raise SetupError(f"min_hand {self.min_hand} must be from 1 to hand_size "
                             f"{self.hand_size}")

    @property
    def n(self) -> int:
        return len(self.players)

    def start_lines_of(self, seat: int) -> tuple[int, ...]:
        return tuple(sorted(s for s, p in self.start_lines.items() if p == seat))

    def full_deck(self) -> list[str]:
        """Every card of the deck, each as often as its count, in the deck file's order."""
        return [c.id for c in self.cards.values() for _ in range(c.count)]


def game_from_definitions(models: OrbitusDefinitions, players: Sequence[str],
                          start_lines: dict[int, int] | None = None,
                          barriers: Iterable[int] | None = None) -> Game:
    """A :class:`Game` from the definitions loaded by :func:`cards.definitions.load_orbitus`.

    Without ``start_lines`` the rules' default table for the player count is used.
    """
    rules = models.rules
    if start_lines is None:
        setup = next((s for s in rules.start_lines if s.players == len(players)), None)
        if setup is None:
            raise SetupError(f"{len(players)} player(s); Orbitus is played by 2 to 6")
        start_lines = {SIDE_INDEX[side]: seat for seat, sides in enumerate(setup.start_lines)
                       for side in sides}
    cards = {s.id: make_card(s.id, s.route_sides, s.planet, s.pirate, s.count)
             for s in models.sectors.sectors}
    return Game(
        players=tuple(players),
        start_lines=dict(start_lines),
        barriers=frozenset(s for s in range(6) if s not in start_lines)
        if barriers is None else frozenset(barriers) | frozenset(
            s for s in range(6) if s not in start_lines),
        cards=cards,
        hand_size=rules.hand_size,
        min_hand=rules.min_hand,
        planet_types=tuple(p.id for p in models.planets.planet_types),
    )


def shuffled_deck(game: Game, seed: int) -> list[str]:
    """The deck in the order ``random.Random(seed)`` shuffles it, top first."""
    order = game.full_deck()
    random.Random(seed).shuffle(order)
    return order


def deal(game: Game, order: Sequence[str], first: int = 0) -> State:
    """The start of a game whose deck lies in ``order`` (top first): each player in seat
    order takes ``hand_size`` cards from the top; ``first`` moves first."""
    need = game.n * game.hand_size
    if len(order) < need:
        raise SetupError(f"the deck holds {len(order)} card(s), and {game.n} players need "
                         f"{need} to be dealt {game.hand_size} each")
    hands = tuple(tuple(order[i * game.hand_size:(i + 1) * game.hand_size])
                  for i in range(game.n))
    return State(game, {}, tuple(order), need, hands, (game.hand_size,) * game.n, first,
                 (False,) * game.n, 0)


# --- actions ------------------------------------------------------------------------------


class Action(NamedTuple):
    """One action: ``kind`` (PLACE, REMOVE, DISCARD, PASS), the card, the cell, the rotation."""

    kind: int
    card: str = ""
    cell: Hex = STATION
    rot: int = 0


PASS_ACTION = Action(PASS)
_new = tuple.__new__  # builds an Action without the Python-level __new__ (many per position)


def notation(action: Action) -> str:
    """The action as the record writes it: ``place S07 @0,-1 r2``, ``remove 1,-2``,
    ``discard S12``, ``pass``."""
    if action.kind == PLACE:
        return f"place {action.card} @{cell_short(action.cell)} r{action.rot}"
    if action.kind == REMOVE:
        return f"remove {cell_short(action.cell)}"
    if action.kind == DISCARD:
        return f"discard {action.card}"
    return "pass"


class Placed(NamedTuple):
    card: str
    rot: int
    mask: int  # route sides on the table


# --- one position analysed ----------------------------------------------------------------


_ring: dict[Hex, int] = {d: side for side, d in enumerate(DIRECTIONS)}  # cell -> station side
_BITS = tuple(tuple(i for i in range(6) if m >> i & 1) for m in range(64))
_NEAR: dict[Hex, tuple[Hex, ...]] = {}


def _bits(mask: int) -> tuple[int, ...]:
    """The numbers of the bits set in ``mask``, in order."""
    if mask < 64:
        return _BITS[mask]
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def _near(cell: Hex) -> tuple[Hex, ...]:
    """The six neighbours of ``cell``, N first, clockwise (cached)."""
    found = _NEAR.get(cell)
    if found is None:
        q, r = cell
        found = _NEAR[cell] = tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)
    return found


class Spot(NamedTuple):
    """An empty cell next to the station or a sector, and what a sector there must do."""

    cell: Hex
    known: int  # sides that face the station or a sector
    required: int  # of those, the sides that must carry a route
    seats: tuple[int, ...]  # systems a sector here joins (sorted; more than one: no sector fits)
    zones: tuple[int, ...]  # neutral zones (component numbers) a sector here takes in


class Analysis:
    """Components (systems and neutral zones), their open routes and the free cells of one
    position, computed once."""

    __slots__ = ("comp", "comp_seat", "comp_open", "comp_cells", "joined", "seat_open",
                 "spots", "_spot_at")

    def __init__(self, game: Game, board: dict[Hex, Placed]) -> None:
        joined: dict[Hex, int] = {}
        get = board.get
        for cell, placed in board.items():
            mask = placed.mask
            j = 0
            near = _near(cell)
            for s in _BITS[mask]:
                other = get(near[s])
                if other is not None and other.mask >> OPP[s] & 1:
                    j |= 1 << s
            joined[cell] = j
        comp: dict[Hex, int] = {}
        comp_cells: list[list[Hex]] = []
        comp_open: list[int] = []
        for start in board:
            if start in comp:
                continue
            c = len(comp_cells)
            comp[start] = c
            cells = [start]
            stack = [start]
            opened = 0
            while stack:
                cell = stack.pop()
                j = joined[cell]
                opened += POP[board[cell].mask & ~j]
                near = _near(cell)
                for s in _BITS[j]:
                    other = near[s]
                    if other not in comp:
                        comp[other] = c
                        cells.append(other)
                        stack.append(other)
            comp_cells.append(cells)
            comp_open.append(opened)
        comp_seat = [-1] * len(comp_cells)
        seat_open = [0] * game.n
        for d, (dq, dr) in enumerate(DIRECTIONS):
            placed = get((dq, dr))
            if placed is None:
                if d in game.start_lines:
                    seat_open[game.start_lines[d]] += 1
                continue
            if placed.mask >> OPP[d] & 1:
                comp_open[comp[(dq, dr)]] -= 1  # the side on the station is not open
                if d in game.start_lines:
                    comp_seat[comp[(dq, dr)]] = game.start_lines[d]
        for c, seat in enumerate(comp_seat):
            if seat >= 0:
                seat_open[seat] += comp_open[c]
        self.comp = comp
        self.comp_seat = comp_seat
        self.comp_open = comp_open
        self.comp_cells = comp_cells
        self.joined = joined
        self.seat_open = seat_open
        self.spots = self._spots(game, board)
        self._spot_at: dict[Hex, Spot] | None = None

    def _spots(self, game: Game, board: dict[Hex, Placed]) -> list[Spot]:
        # built from the placed side: each sector side facing an empty cell tells that cell
        # what it must match, so every side of every sector is looked at once
        comp, comp_seat = self.comp, self.comp_seat
        seen: dict[Hex, list[int]] = {}  # cell -> [known, required, seat bits, zone bits]
        for d, cell in enumerate(DIRECTIONS):
            if cell not in board:
                side = OPP[d]
                if d in game.start_lines:
                    seen[cell] = [1 << side, 1 << side, 1 << game.start_lines[d], 0]
                else:
                    seen[cell] = [1 << side, 0, 0, 0]
        for cell, placed in board.items():
            mask = placed.mask
            c = comp[cell]
            seat = comp_seat[c]
            for s, other in enumerate(_near(cell)):
                if other in board or other == STATION:
                    continue
                entry = seen.get(other)
                if entry is None:
                    entry = seen[other] = [0, 0, 0, 0]
                bit = 1 << OPP[s]
                entry[0] |= bit
                if mask >> s & 1:
                    entry[1] |= bit
                    if seat >= 0:
                        entry[2] |= 1 << seat
                    else:
                        entry[3] |= 1 << c
        bits = _BITS
        return [_new(Spot, (cell, e[0], e[1], bits[e[2]], bits[e[3]] if e[3] < 64
                            else _bits(e[3])))
                for cell, e in sorted(seen.items())]

    def spot(self, cell: Hex) -> Spot | None:
        if self._spot_at is None:
            self._spot_at = {s.cell: s for s in self.spots}
        return self._spot_at.get(cell)

    def system(self, seat: int) -> list[Hex]:
        """The cells of ``seat``'s system, sorted."""
        return sorted(c for k, cells in enumerate(self.comp_cells) if self.comp_seat[k] == seat
                      for c in cells)

    def owner(self, cell: Hex) -> int:
        """The seat whose system holds the sector on ``cell`` (-1: a neutral zone)."""
        return self.comp_seat[self.comp[cell]]

    def open_after(self, spot: Spot, mask: int) -> int:
        """Open routes of the system a sector with route sides ``mask`` joins on ``spot``."""
        seat = spot.seats[0]
        return (self.seat_open[seat] + sum(self.comp_open[z] for z in spot.zones)
                - POP[spot.required] + POP[mask & ~spot.known & ALL_SIDES])


def _roots(game: Game, board: dict[Hex, Placed], seat: int) -> list[Hex]:
    """The sectors on ``seat``'s start lines."""
    out = []
    for d in game.start_lines_of(seat):
        cell = DIRECTIONS[d]
        placed = board.get(cell)
        if placed is not None and placed.mask >> OPP[d] & 1:
            out.append(cell)
    return out


def removable(game: Game, board: dict[Hex, Placed], info: Analysis, seat: int) -> list[Hex]:
    """The sectors of ``seat``'s system whose removal leaves the rest of the system connected
    to the station: every sector of the system but its cut vertices (seen from the station),
    found with one depth-first search."""
    roots = _roots(game, board, seat)
    if not roots:
        return []
    joined = info.joined
    root: Hex = STATION

    def near(cell: Hex) -> list[Hex]:
        if cell == root:
            return roots
        q, r = cell
        j = joined[cell]
        out = [(q + DIRECTIONS[s][0], r + DIRECTIONS[s][1]) for s in range(6) if j >> s & 1]
        if cell in _ring and _ring[cell] in game.start_lines \
                and game.start_lines[_ring[cell]] == seat:
            out.append(root)
        return out

    disc: dict[Hex, int] = {root: 0}
    low: dict[Hex, int] = {root: 0}
    parent: dict[Hex, Hex | None] = {root: None}
    cut: set[Hex] = set()
    counter = 1
    stack: list[tuple[Hex, list[Hex], int]] = [(root, roots, 0)]
    while stack:
        v, ws, i = stack[-1]
        if i < len(ws):
            stack[-1] = (v, ws, i + 1)
            w = ws[i]
            if w not in disc:
                disc[w] = low[w] = counter
                counter += 1
                parent[w] = v
                stack.append((w, near(w), 0))
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
    return sorted(c for c in disc if c != root and c not in cut)


def cut_off(game: Game, board: dict[Hex, Placed], info: Analysis, seat: int,
            gone: Hex) -> list[Hex]:
    """The sectors of ``seat``'s system no longer connected to the station without ``gone``."""
    system = info.system(seat)
    reached = {c for c in _roots(game, board, seat) if c != gone}
    stack = list(reached)
    while stack:
        q, r = stack.pop()
        j = info.joined[(q, r)]
        for s in range(6):
            if j >> s & 1:
                other = (q + DIRECTIONS[s][0], r + DIRECTIONS[s][1])
                if other != gone and other not in reached:
                    reached.add(other)
                    stack.append(other)
    return [c for c in system if c != gone and c not in reached]


# --- the state ----------------------------------------------------------------------------


class State:
    """A moment of the game, immutable: the table, the deck, the hands and whose turn it is.

    ``deck`` is the whole order the game was dealt from, ``drawn`` how many cards have
    come off its top; ``passed[seat]`` whether that player's previous turn was a pass;
    ``quiet`` the turns in a row, begun with the deck empty, without a placement.
    """

    __slots__ = ("game", "board", "deck", "drawn", "hands", "limits", "to_move", "passed",
                 "quiet", "end", "turn", "skipped", "out", "_info", "_legal")

    def __init__(self, game: Game, board: dict[Hex, Placed], deck: tuple[str, ...],
                 drawn: int, hands: tuple[tuple[str, ...], ...], limits: tuple[int, ...],
                 to_move: int, passed: tuple[bool, ...], quiet: int, end: str | None = None,
                 turn: int = 0, skipped: tuple[int, ...] = (),
                 out: tuple[str, ...] = ()) -> None:
        self.game = game
        self.board = board
        self.deck = deck
        self.drawn = drawn
        self.hands = hands
        self.limits = limits
        self.to_move = to_move
        self.passed = passed
        self.quiet = quiet
        self.end = end
        self.turn = turn
        self.skipped = skipped  # players skipped (no legal action) just before this turn
        self.out = out  # cards that left the game (discarded or removed), in order
        self._info: Analysis | None = None
        self._legal: list[Action] | None = None

    @property
    def info(self) -> Analysis:
        if self._info is None:
            self._info = Analysis(self.game, self.board)
        return self._info

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def deck_left(self) -> int:
        return len(self.deck) - self.drawn

    @property
    def player(self) -> str:
        return self.game.players[self.to_move]

    # legal actions ----------------------------------------------------------------------

    def placements(self, seat: int | None = None, cards: Iterable[str] | None = None,
                   only: Hex | None = None) -> list[Action]:
        """Every legal placement of ``seat`` (default: the player to move), of ``cards``
        (default: the distinct cards of the hand), on cell ``only`` if given."""
        seat = self.to_move if seat is None else seat
        info = self.info
        ids = sorted(set(self.hands[seat] if cards is None else cards))
        table = self.game.cards
        rotations = [(ident, table[ident].masks, table[ident].fits) for ident in ids]
        out: list[Action] = []
        seat_open, comp_open = info.seat_open, info.comp_open
        spots = info.spots if only is None else [s for s in info.spots if s.cell == only]
        for spot in spots:
            seats = spot.seats
            if len(seats) > 1:
                continue
            known, required = spot.known, spot.required
            guard = -1
            free = ALL_SIDES & ~known
            if seats and seats[0] != seat:
                guard = (seat_open[seats[0]] + sum(comp_open[z] for z in spot.zones)
                         - POP[required])
            cell = spot.cell
            key = (cell, known, required)
            for ident, masks, fits in rotations:
                acts = fits.get(key)
                if acts is None:
                    acts = fits[key] = tuple(_new(Action, (PLACE, ident, cell, k))
                                             for k in range(6) if masks[k] & known == required)
                if guard < 0:
                    out.extend(acts)
                else:
                    out.extend(a for a in acts if guard + POP[masks[a.rot] & free] > 0)
        return out

    def removals(self, seat: int | None = None) -> list[Action]:
        seat = self.to_move if seat is None else seat
        return [Action(REMOVE, self.board[c].card, c)
                for c in removable(self.game, self.board, self.info, seat)]

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move, in a stable order (placements by cell,
        card and rotation, then removals, discards, the pass); none once the game is over."""
        if self.end is not None:
            return []
        if self._legal is None:
            self._legal = self._actions(self.to_move)
        return self._legal

    def _actions(self, seat: int) -> list[Action]:
        out = self.placements(seat)
        out.extend(self.removals(seat))
        if self.deck_left > 0:
            out.extend(Action(DISCARD, c) for c in sorted(set(self.hands[seat])))
        if not self.passed[seat]:
            out.append(PASS_ACTION)
        return out

    def can_act(self, seat: int) -> bool:
        """Whether ``seat`` would have a legal action if it were their turn now."""
        if not self.passed[seat] or (self.deck_left > 0 and self.hands[seat]):
            return True
        if _roots(self.game, self.board, seat):
            return True  # a system with a sector always has one that can be removed
        return bool(self.placements(seat))

    # applying an action -----------------------------------------------------------------

    def after(self, action: Action) -> State:
        """The state after ``action``, which must be legal (see :func:`check`)."""
        game = self.game
        seat = self.to_move
        board = self.board
        hands = list(self.hands)
        limits = list(self.limits)
        passed = list(self.passed)
        drawn = self.drawn
        out = self.out
        deck_empty = self.deck_left == 0
        kind = action.kind
        if kind == PLACE:
            board = dict(board)
            board[action.cell] = Placed(action.card, action.rot,
                                        game.cards[action.card].masks[action.rot])
            hands[seat] = _without(hands[seat], action.card)
        elif kind == REMOVE:
            board = dict(board)
            out = (*out, board.pop(action.cell).card)
            limits[seat] = max(game.min_hand, limits[seat] - 1)
        elif kind == DISCARD:
            hands[seat] = (*_without(hands[seat], action.card), self.deck[drawn])
            out = (*out, action.card)
            drawn += 1
        passed[seat] = kind == PASS
        missing = limits[seat] - len(hands[seat])
        if missing > 0 and drawn < len(self.deck):
            take = self.deck[drawn:drawn + missing]
            hands[seat] = (*hands[seat], *take)
            drawn += len(take)
        quiet = 0 if kind == PLACE else (self.quiet + 1 if deck_empty else 0)
        n = game.n
        state = State(game, board, self.deck, drawn, tuple(hands), tuple(limits),
                      (seat + 1) % n, tuple(passed), quiet, None, self.turn + 1, (), out)
        return state._settle()

    def _settle(self) -> State:
        """Decide the end, and skip players with no legal action, before the next turn."""
        n = self.game.n
        if self.deck_left == 0 and self.quiet >= n:
            self.end = END_ROUND
            return self
        if self.can_act(self.to_move):
            return self
        if not any(self.can_act(s) for s in range(n)):
            self.end = END_STUCK
            return self
        skipped = []
        passed = list(self.passed)
        seat, quiet = self.to_move, self.quiet
        while True:
            skipped.append(seat)
            passed[seat] = False
            quiet += 1 if self.deck_left == 0 else 0
            seat = (seat + 1) % n
            probe = State(self.game, self.board, self.deck, self.drawn, self.hands,
                          self.limits, seat, tuple(passed), quiet, None, self.turn,
                          tuple(skipped), self.out)
            probe._info = self._info
            if self.deck_left == 0 and quiet >= n:
                probe.end = END_ROUND
                return probe
            if probe.can_act(seat):
                return probe

    # views --------------------------------------------------------------------------------

    def to_layout(self, source: str, lines: dict[Hex, int] | None = None,
                  deck_file: str = "") -> Layout:
        """The table as the scorer's :class:`~scorer.orbitus.layout.Layout` (sectors in the
        order they were placed; ``lines`` gives each the record line that placed it)."""
        from scorer.orbitus.layout import Layout, Sector

        game = self.game
        sectors = {}
        for order, (cell, placed) in enumerate(self.board.items()):
            card = game.cards[placed.card]
            sectors[cell] = Sector(cell, frozenset(s for s in range(6) if placed.mask >> s & 1),
                                   card.planet, card.pirate, placed.card, placed.rot,
                                   (lines or {}).get(cell, 0), order)
        return Layout(source, game.players, dict(game.start_lines), game.barriers, sectors,
                      game.planet_types, (), deck_file)

    def where_is(self, ident: str) -> str:
        """Where the copies of a card are now, in words (for messages)."""
        places = [f"on the table at {cell_text(c)}" for c, p in self.board.items()
                  if p.card == ident]
        places += [f"in {self.game.players[s]}'s hand" for s, h in enumerate(self.hands)
                   if ident in h]
        if ident in self.out:
            places.append("out of the game")
        if ident in self.deck[self.drawn:]:
            places.append("still in the deck")
        return ", ".join(places) if places else "not in this game's deck"


def _without(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1:]


# --- the notation ----------------------------------------------------------------------------


class NotationError(ValueError):
    """A move written in a way that cannot be read (not a question of the rules)."""


@dataclass(frozen=True)
class Written:
    """An action as written at the table (the card as written, not yet looked up)."""

    text: str
    kind: int
    card: str = ""
    cell: Hex | None = None
    rot: int | None = None  # None: not written (0)
    player: str | None = None  # "Anna: pass" names who makes the move


NOTATION_HELP = ("write place CARD @Q,R rN (place S07 @0,-1 r2, or place S07 at 0,-1 rot SE), "
                 "remove Q,R, discard CARD or pass")
_ID = r"([A-Za-z0-9][A-Za-z0-9_-]*)"
_CELL = r"[\[(]?\s*([-+]?[0-9]+)\s*,\s*([-+]?[0-9]+)\s*[\])]?"
_AT = r"(?:\s*@\s*|\s+at\s+)"
_PLACE_RE = re.compile(rf"^place\s+{_ID}{_AT}{_CELL}(?:\s*(?:rot|r)\s*=?\s*([0-9]+|[a-z]+))?$",
                       re.IGNORECASE)
_REMOVE_RE = re.compile(rf"^remove\s+(?:{_ID}{_AT}|@\s*|at\s+)?{_CELL}$", re.IGNORECASE)
_DISCARD_RE = re.compile(rf"^discard\s+{_ID}$", re.IGNORECASE)
_WHO_RE = re.compile(r"^([^:]+?)\s*:\s*(.*)$", re.DOTALL)
_LONG_NUMBER = re.compile(r"[0-9]{10,}")


def parse_move(text: str, player: str | None = None) -> Written:
    """Read one action as written at the table; raise :class:`NotationError` if unreadable.

    ``NAME: ACTION`` (or ``player``) names who makes it; the engine checks it is their turn.
    """
    body = " ".join(text.split())
    who = _WHO_RE.match(body)
    if who is not None:
        if player is not None:
            raise NotationError(f"{_quoted(text)}: the player is named twice")
        player, body = who.group(1).strip(), who.group(2).strip()
    word = body.split(" ", 1)[0].lower() if body else ""
    long_number = _LONG_NUMBER.search(body)
    if long_number is not None and word in ("place", "remove"):
        raise NotationError(f"{_quoted(text)}: {_quoted(long_number.group())} has "
                            f"{len(long_number.group())} digits; cells and rotations are "
                            f"numbers of a few digits, e.g. @0,-1 r2")
    if word == "pass" and body.lower() == "pass":
        return Written(text, PASS, player=player)
    if word == "place":
        m = _PLACE_RE.match(body)
        if m is not None:
            rot = None if m.group(4) is None else _rotation(m.group(4), text)
            return Written(text, PLACE, m.group(1), (int(m.group(2)), int(m.group(3))), rot,
                           player)
        raise NotationError(f"{_quoted(text)} is not a placement: write place CARD @Q,R rN, e.g. "
                            f"place S07 @0,-1 r2 (or place S07 at 0,-1 rot 2; the rotation is "
                            f"0-5 or the direction the card's marker points to, N NE SE S SW "
                            f"NW)")
    if word == "remove":
        m = _REMOVE_RE.match(body)
        if m is not None:
            return Written(text, REMOVE, m.group(1) or "", (int(m.group(2)), int(m.group(3))),
                           player=player)
        raise NotationError(f"{_quoted(text)} is not a removal: write remove Q,R (the cell, e.g. "
                            f"remove 1,-2), or remove CARD @Q,R")
    if word == "discard":
        m = _DISCARD_RE.match(body)
        if m is not None:
            return Written(text, DISCARD, m.group(1), player=player)
        raise NotationError(f"{_quoted(text)} is not a discard: write discard CARD, e.g. "
                            f"discard S12")
    raise NotationError(f"{_quoted(text)} is not a move: {NOTATION_HELP}")


def _rotation(value: str, text: str) -> int:
    if value.lower() == "ot":
        raise NotationError(f"{_quoted(text)}: the rotation after rot is missing; write rot 0-5 "
                            f"or the direction the card's marker points to (rot SE)")
    if value.isdigit():
        if len(value) <= 2 and int(value) <= 5:
            return int(value)
    elif value.upper() in SIDE_INDEX:
        return SIDE_INDEX[value.upper()]
    raise NotationError(f"{_quoted(text)}: r{value} is not a rotation; write r0-r5 (60-degree "
                        f"steps clockwise) or the direction the card's marker points to "
                        f"(rot N, NE, SE, S, SW or NW)")


def _quoted(text: str) -> str:
    short = text if len(text) <= 40 else text[:40] + "…"
    return repr(short)


# --- checking one action -------------------------------------------------------------------


class IllegalMove(Exception):
    """An action the rules do not allow here; ``reason`` says why in one sentence."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _seat_list(game: Game, seats: Iterable[int]) -> str:
    names = [f"{game.players[s]}'s" for s in seats]
    return " and ".join(names)


def check(state: State, action: Action) -> Action:
    """``action`` if it is legal in ``state``; else :class:`IllegalMove` saying why."""
    game = state.game
    if state.end is not None:
        raise IllegalMove(f"the game is already over ({end_message(state)})")
    seat = state.to_move
    who = game.players[seat]
    kind = action.kind
    if kind == PASS:
        if state.passed[seat]:
            raise IllegalMove(f"{who} passed on their previous turn, and a player may not pass "
                              f"two turns in a row")
        return action
    if kind == DISCARD:
        _in_hand(state, action.card)
        if state.deck_left == 0:
            raise IllegalMove("the deck is empty, so there is no card to draw; a discard "
                              "draws one in its place")
        return action
    if kind == REMOVE:
        _check_remove(state, action)
        return action
    _in_hand(state, action.card)
    _check_place(state, action)
    return action


def _in_hand(state: State, ident: str) -> None:
    hand = state.hands[state.to_move]
    if ident not in hand:
        who = state.player
        held = " ".join(hand) if hand else "nothing"
        raise IllegalMove(f"{ident} is not in {who}'s hand ({who} holds {held}; {ident} is "
                          f"{state.where_is(ident)})")


def _check_remove(state: State, action: Action) -> None:
    game, board, cell = state.game, state.board, action.cell
    where = cell_text(cell)
    if cell == STATION:
        raise IllegalMove(f"{where} is the station's cell; only sectors can be removed")
    placed = board.get(cell)
    if placed is None:
        raise IllegalMove(f"there is no sector on {where}")
    if action.card and action.card != placed.card:
        raise IllegalMove(f"the sector on {where} is {placed.card}, not {action.card}")
    info = state.info
    owner = info.owner(cell)
    label = f"{placed.card} on {where}"
    if owner != state.to_move:
        whose = "a neutral zone" if owner < 0 else f"{game.players[owner]}'s system"
        raise IllegalMove(f"{label} belongs to {whose}; a player removes sectors only from "
                          f"their own system")
    lost = cut_off(game, board, info, state.to_move, cell)
    if lost:
        shown = " ".join(cell_text(c) for c in lost[:8]) + (
            f" and {len(lost) - 8} more" if len(lost) > 8 else "")
        raise IllegalMove(f"removing {label} would cut {shown} off from the station; the rest "
                          f"of the system must stay connected to it")


def mismatches(state: State, cell: Hex, mask: int) -> list[str]:
    """Every side on which route sides ``mask`` on ``cell`` do not match a neighbour."""
    game, board = state.game, state.board
    out = []
    q, r = cell
    for s in range(6):
        other = (q + DIRECTIONS[s][0], r + DIRECTIONS[s][1])
        mine = bool(mask >> s & 1)
        facing = SIDES[OPP[s]]
        if other == STATION:
            line = OPP[s] in game.start_lines
            if line and not mine:
                owner = game.players[game.start_lines[OPP[s]]]
                out.append(f"its {SIDES[s]} side is blank but faces {owner}'s start line on the "
                           f"station's {facing} side (a start line counts as a route)")
            elif not line and mine:
                out.append(f"its {SIDES[s]} side has a route but faces the barrier on the "
                           f"station's {facing} side (a barrier counts as blank)")
            continue
        placed = board.get(other)
        if placed is None:
            continue
        theirs = bool(placed.mask >> OPP[s] & 1)
        if mine != theirs:
            has = ("has a route", "is blank")
            out.append(f"its {SIDES[s]} side {has[not mine]} but {placed.card} on "
                       f"{cell_text(other)} {has[not theirs]} on its {facing} side")
    return out


def _check_place(state: State, action: Action) -> None:
    game, cell = state.game, action.cell
    where = cell_text(cell)
    if cell == STATION:
        raise IllegalMove(f"{where} is the station's cell; sectors go around it")
    placed = state.board.get(cell)
    if placed is not None:
        raise IllegalMove(f"{where} already holds {placed.card}")
    info = state.info
    spot = info.spot(cell)
    if spot is None:
        raise IllegalMove(f"{where} is not next to the station or a placed sector; a sector goes "
                          f"in an empty cell next to one")
    card = game.cards[action.card]
    mask = card.masks[action.rot]
    name = f"{action.card} turned r{action.rot}"
    bad = mismatches(state, cell, mask)
    if bad:
        fits = [k for k in range(6) if card.masks[k] & spot.known == spot.required]
        more = f" (and {len(bad) - 1} more side{'s' if len(bad) > 2 else ''})" if len(bad) > 1 \
            else ""
        if fits and len(spot.seats) <= 1:
            hint = f"; {action.card} fits there turned " + " or ".join(f"r{k}" for k in fits)
        elif fits:
            hint = ""
        else:
            hint = f"; {action.card} fits there in no rotation"
        raise IllegalMove(f"{name} does not match on {where}: {bad[0]}{more}; facing sides must "
                          f"both be routes or both be blank{hint}")
    if len(spot.seats) > 1:
        raise IllegalMove(f"on {where}, {action.card} would join {_seat_list(game, spot.seats)} "
                          f"systems{_through(state, spot)}; two systems never meet, so no "
                          f"sector may go there")
    if spot.seats and spot.seats[0] != state.to_move \
            and info.open_after(spot, mask) <= 0:
        owner = game.players[spot.seats[0]]
        others = [k for k in range(6) if card.masks[k] & spot.known == spot.required
                  and info.open_after(spot, card.masks[k]) > 0]
        hint = ("; turned " + " or ".join(f"r{k}" for k in others) + " it leaves one open"
                if others else "")
        raise IllegalMove(f"{name} on {where} would leave {owner}'s system with no open route; "
                          f"a player may close only their own system{hint}")


def _through(state: State, spot: Spot) -> str:
    """How a cell touches the systems and zones a sector there would join, in words."""
    game, board, info = state.game, state.board, state.info
    parts = []
    q, r = spot.cell
    for s in range(6):
        if not spot.required >> s & 1:
            continue
        other = (q + DIRECTIONS[s][0], r + DIRECTIONS[s][1])
        if other == STATION:
            owner = game.players[game.start_lines[OPP[s]]]
            parts.append(f"{owner}'s start line to the {SIDES[s]}")
            continue
        c = info.comp[other]
        seat = info.comp_seat[c]
        if seat >= 0:
            parts.append(f"{game.players[seat]}'s {board[other].card} on {cell_text(other)} to "
                         f"the {SIDES[s]}")
    for z in spot.zones:
        zone = sorted(info.comp_cells[z])
        parts.append(f"the neutral zone at {' '.join(cell_text(c) for c in zone[:4])}"
                     + (" …" if len(zone) > 4 else ""))
    return " (" + "; ".join(parts) + ")" if parts else ""


# --- the end ---------------------------------------------------------------------------------


def end_message(state: State) -> str:
    """One sentence: why the game is over, or whose turn it is and what they hold."""
    game = state.game
    if state.end == END_ROUND:
        return (f"the deck is empty and a full round ({game.n} turns) went by without a "
                f"sector placed")
    if state.end == END_STUCK:
        return "no player can act"
    who = state.player
    deck = f"{state.deck_left} card{'s' if state.deck_left != 1 else ''} left in the deck"
    skipped = ""
    if state.skipped:
        names = " and ".join(game.players[s] for s in state.skipped)
        skipped = f" ({names} could not act and {'was' if len(state.skipped) == 1 else 'were'} " \
                  f"skipped)"
    return f"{who} to move, {deck}{skipped}"


# --- playing many games ---------------------------------------------------------------------


def random_game(state: State, rng: random.Random, max_turns: int = 10_000,
                by_kind: bool = False) -> tuple[list[Action], State]:
    """Play random legal actions from ``state`` until the game ends (or ``max_turns``).

    Each action is drawn uniformly from the legal ones; with ``by_kind`` the kind of
    action (place, remove, discard, pass) is drawn first, uniformly among the kinds
    that are legal, so removals and discards come up as often as placements.
    """
    actions: list[Action] = []
    while state.end is None and len(actions) < max_turns:
        legal = state.legal_actions()
        if by_kind:
            kinds = sorted({a.kind for a in legal})
            kind = kinds[rng.randrange(len(kinds))]
            legal = [a for a in legal if a.kind == kind]
        action = legal[rng.randrange(len(legal))]
        actions.append(action)
        state = state.after(action)
    return actions, state
