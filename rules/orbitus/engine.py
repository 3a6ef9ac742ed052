"""The Orbitus rules engine: the deal, hands, turns, legal actions, applying them, the end.

Pure standard library. The rules are ``docs/rules/orbitus.md``; the engine's readings of
what the original rules leave open are numbered there (the deal O-73, open routes for the
closing rule O-36 and O-37, removals O-39 to O-43, discards O-44 and O-45, passing O-47,
drawing O-48, skipped turns O-49, the end O-50 and O-51). Which sides match, which
sectors form a system, which routes are open and which cells take a sector is decided by
:mod:`rules.orbitus.analysis`, the same analysis the scorer uses.

A :class:`State` is immutable: :meth:`State.after` returns a new one. Sides are bit masks,
bit ``s`` for side ``s`` (0=N clockwise), so a card's six rotations and every matching
test are a few integer operations.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from rules.game import IllegalAction, SetupError
from rules.hexgeo import DIRECTIONS, SIDES, Hex
from rules.orbitus.actions import DISCARD, PASS, PASS_ACTION, PLACE, REMOVE, Action
from rules.orbitus.analysis import (
    ALL_SIDES,
    OPP,
    POP,
    STATION_NODE,
    Analysis,
    Spot,
)
from rules.orbitus.ruleset import Card, Ruleset
from rules.orbitus.table import STATION, Sector, Table, cell_text

if TYPE_CHECKING:
    from rules.orbitus.score import Result

END_ROUND = "quiet-round"  # the deck empty and a full round without a placement (O-50)
END_STUCK = "no-one-can-act"  # O-51

IllegalMove = IllegalAction  # the name the engine's callers have always used


# --- one game: everything that never changes while it is played ------------------------------


@dataclass(frozen=True)
class Match:
    """The players, the station's sides and the ruleset of one game."""

    players: tuple[str, ...]
    start_lines: dict[int, int]  # station side -> seat
    barriers: frozenset[int]
    ruleset: Ruleset

    def __post_init__(self) -> None:
        if not 2 <= len(self.players) <= 6:
            raise SetupError(f"{len(self.players)} player(s); Orbitus is played by 2 to 6")
        for seat, name in enumerate(self.players):
            if seat not in self.start_lines.values():
                raise SetupError(f"{name} has no start line; every player needs at least one "
                                 f"side of the station")
        rules = self.ruleset
        if not 1 <= rules.min_hand <= rules.hand_size:
            raise SetupError(f"min_hand {rules.min_hand} must be from 1 to hand_size "
                             f"{rules.hand_size}")

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def cards(self) -> dict[str, Card]:
        return self.ruleset.cards

    @property
    def hand_size(self) -> int:
        return self.ruleset.hand_size

    @property
    def min_hand(self) -> int:
        return self.ruleset.min_hand

    @property
    def planet_types(self) -> tuple[str, ...]:
        return self.ruleset.planet_types

    def start_lines_of(self, seat: int) -> tuple[int, ...]:
        return tuple(sorted(s for s, p in self.start_lines.items() if p == seat))

    def full_deck(self) -> list[str]:
        """Every card of the deck, each as often as its count, in the deck file's order."""
        return self.ruleset.full_deck()


def match(ruleset: Ruleset, players: Sequence[str], start_lines: dict[int, int] | None = None,
          barriers: Iterable[int] | None = None) -> Match:
    """A :class:`Match`; without ``start_lines`` the ruleset's table for the player count is
    used (O-15), and every side that is no one's start line is a barrier (O-17)."""
    if start_lines is None:
        setup = ruleset.setup_for(len(players))
        if setup is None:
            raise SetupError(f"{len(players)} player(s); Orbitus is played by 2 to 6")
        start_lines = setup.owners()
    others = frozenset(s for s in range(6) if s not in start_lines)
    return Match(tuple(players), dict(start_lines),
                 others if barriers is None else frozenset(barriers) | others, ruleset)


def shuffled_deck(game: Match, seed: int) -> list[str]:
    """The deck in the order ``random.Random(seed)`` shuffles it, top first (O-73)."""
    order = game.full_deck()
    random.Random(seed).shuffle(order)
    return order


def deal(game: Match, order: Sequence[str], first: int = 0) -> State:
    """The start of a game whose deck lies in ``order`` (top first): each player in seat
    order takes ``hand_size`` cards from the top; ``first`` moves first (O-73, O-20)."""
    size = game.hand_size
    need = game.n * size
    if len(order) < need:
        raise SetupError(f"the deck holds {len(order)} card(s), and {game.n} players need "
                         f"{need} to be dealt {size} each")
    hands = tuple(tuple(order[i * size:(i + 1) * size]) for i in range(game.n))
    return State(game, {}, tuple(order), need, hands, (size,) * game.n, first,
                 (False,) * game.n, 0)


def new_game(ruleset: Ruleset, players: Sequence[str], seed: int) -> State:
    """The deal of ``pnp-setup orbitus --seed SEED`` for these players (default start
    lines, the first listed plays first)."""
    game = match(ruleset, players)
    return deal(game, shuffled_deck(game, seed))


class Placed(NamedTuple):
    card: str
    rot: int
    mask: int  # route sides on the table


# The rotations in which a card fits a free cell, by (its printed routes, the sides facing
# something, the sides of those that must carry a route): at most 64 x 64 x 64 keys.
_ROTS: dict[tuple[int, int, int], tuple[int, ...]] = {}


def fitting(card: Card, known: int, required: int) -> tuple[int, ...]:
    """The rotations in which ``card`` matches a cell whose ``known`` sides face something,
    ``required`` of them routes."""
    key = (card.routes, known, required)
    found = _ROTS.get(key)
    if found is None:
        masks = card.masks
        found = _ROTS[key] = tuple(k for k in range(6) if masks[k] & known == required)
    return found


class Legal(Sequence[Action]):
    """The legal actions of one position: an immutable sequence whose placements are made
    into :class:`Action` objects only when read, so choosing one of 200 actions at random
    (``legal[k]``) does not build the other 199."""

    __slots__ = ("_groups", "_ends", "_placements", "_rest")

    def __init__(self) -> None:
        self._groups: list[tuple[Hex, str, tuple[int, ...]]] = []  # cell, card, rotations
        self._ends: list[int] = []  # placements up to and including each group
        self._placements = 0
        self._rest: list[Action] = []  # removals, discards, the pass

    def _add(self, cell: Hex, card: str, rots: tuple[int, ...]) -> None:
        self._groups.append((cell, card, rots))
        self._placements += len(rots)
        self._ends.append(self._placements)

    def __len__(self) -> int:
        return self._placements + len(self._rest)

    def __getitem__(self, k: Any) -> Any:
        if isinstance(k, slice):
            return list(self)[k]
        if k < 0:
            k += len(self)
        if not 0 <= k < len(self):
            raise IndexError("legal action index out of range")
        if k >= self._placements:
            return self._rest[k - self._placements]
        g = bisect_right(self._ends, k)
        cell, card, rots = self._groups[g]
        first = self._ends[g] - len(rots)
        return _new(Action, (PLACE, card, cell, rots[k - first]))

    def __iter__(self) -> Iterator[Action]:
        for cell, card, rots in self._groups:
            for rot in rots:
                yield _new(Action, (PLACE, card, cell, rot))
        yield from self._rest

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    def __hash__(self) -> int:  # mutable while it is built; never a key
        raise TypeError("unhashable type: 'Legal'")

    def __repr__(self) -> str:
        return f"Legal({list(self)!r})"


_new = tuple.__new__  # builds an Action without the Python-level __new__


# --- the state ------------------------------------------------------------------------------------


class State:
    """A moment of the game, immutable: the table, the deck, the hands and whose turn it is.

    ``deck`` is the whole order the game was dealt from, ``drawn`` how many cards have come
    off its top; ``passed[seat]`` whether that player's previous turn was a pass; ``quiet``
    the turns in a row, begun with the deck empty, without a placement; ``skipped`` the
    players skipped just before this turn (O-49); ``out`` the cards that left the game.
    """

    __slots__ = ("game", "board", "deck", "drawn", "hands", "limits", "to_move", "passed",
                 "quiet", "end", "turn", "skipped", "out", "_info", "_legal")

    def __init__(self, game: Match, board: dict[Hex, Placed], deck: tuple[str, ...],
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
        self.skipped = skipped
        self.out = out
        self._info: Analysis | None = None
        self._legal: Legal | None = None

    def __getstate__(self) -> tuple[Any, ...]:  # what is worked out again is not pickled
        return (self.game, self.board, self.deck, self.drawn, self.hands, self.limits,
                self.to_move, self.passed, self.quiet, self.end, self.turn, self.skipped,
                self.out)

    def __setstate__(self, data: tuple[Any, ...]) -> None:
        State.__init__(self, *data)

    @property
    def info(self) -> Analysis:
        """The analysis of the table (systems, zones, open routes, free cells)."""
        if self._info is None:
            self._info = Analysis(self.game.start_lines, self.game.n,
                                  {c: p.mask for c, p in self.board.items()})
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

    def owner(self, cell: Hex) -> int:
        """The seat whose system holds the sector on ``cell`` (-1: a neutral zone)."""
        info = self.info
        return info.owner[info.index[cell]]

    def system(self, seat: int) -> list[Hex]:
        """The cells of ``seat``'s system, sorted."""
        info = self.info
        return [info.cells[i] for i in info.system(seat)]

    # legal actions ----------------------------------------------------------------------

    def placements(self, seat: int | None = None, cards: Iterable[str] | None = None,
                   only: Hex | None = None) -> Legal:
        """Every legal placement of ``seat`` (default: the player to move), of ``cards``
        (default: the distinct cards of the hand), on cell ``only`` if given."""
        out = Legal()
        self._place(out, self.to_move if seat is None else seat, cards, only)
        return out

    def _place(self, out: Legal, seat: int, cards: Iterable[str] | None, only: Hex | None,
               first: bool = False) -> bool:
        """Add the placements to ``out`` (with ``first``: stop at the first one found and say
        whether there was one)."""
        info = self.info
        ids = sorted(set(self.hands[seat] if cards is None else cards))
        table = self.game.cards
        hand = [table[ident] for ident in ids]
        spots = info.spots if only is None else [s for s in info.spots if s.cell == only]
        counts = info.open_count
        n = self.game.n
        add = out._add
        rots_of = _ROTS.get
        for spot in spots:
            seats = spot.seats
            if len(seats) > 1:
                continue
            cell, known, required = spot.cell, spot.known, spot.required
            guard = 1
            if seats and seats[0] != seat:
                # the opponent's open routes left when this cell is filled, before the new
                # sector's own sides facing empty cells are counted (O-35, O-36)
                guard = (counts[seats[0]] + sum(counts[n + z] for z in spot.zones)
                         - POP[required])
            for card in hand:
                rots = rots_of((card.routes, known, required))
                if rots is None:
                    rots = fitting(card, known, required)
                if not rots:
                    continue
                if guard <= 0:
                    free = ALL_SIDES & ~known
                    masks = card.masks
                    rots = tuple(k for k in rots if guard + POP[masks[k] & free] > 0)
                    if not rots:
                        continue
                if first:
                    return True
                add(cell, card.id, rots)
        return False

    def removals(self, seat: int | None = None) -> list[Action]:
        seat = self.to_move if seat is None else seat
        info = self.info
        board = self.board
        return [Action(REMOVE, board[info.cells[i]].card, info.cells[i])
                for i in info.removable(seat)]

    def legal_actions(self) -> Legal:
        """Every legal action of the player to move, in a stable order (placements by cell,
        card and rotation, then removals, discards, the pass); none once the game is over."""
        if self._legal is None:
            self._legal = Legal() if self.end is not None else self._actions(self.to_move)
        return self._legal

    def _actions(self, seat: int) -> Legal:
        out = self.placements(seat)
        rest = out._rest
        rest.extend(self.removals(seat))
        if self.deck_left > 0:
            rest.extend(Action(DISCARD, c) for c in sorted(set(self.hands[seat])))
        if not self.passed[seat]:
            rest.append(PASS_ACTION)
        return out

    def can_act(self, seat: int) -> bool:
        """Whether ``seat`` would have a legal action if it were their turn now."""
        if not self.passed[seat] or (self.deck_left > 0 and self.hands[seat]):
            return True
        if self.info.roots(seat):
            return True  # a system with a sector always has one that can be removed
        return self._place(Legal(), seat, None, None, first=True)

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
        state = State(game, board, self.deck, drawn, tuple(hands), tuple(limits),
                      (seat + 1) % game.n, tuple(passed), quiet, None, self.turn + 1, (), out)
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

    def to_table(self, lines: dict[Hex, int] | None = None) -> Table:
        """The table as the analysis and the scorer read it (sectors in the order they were
        placed; ``lines`` gives each the record line that placed it)."""
        game = self.game
        cards = game.cards
        sectors = {}
        for order, (cell, placed) in enumerate(self.board.items()):
            card = cards[placed.card]
            sectors[cell] = Sector(cell, frozenset(s for s in range(6) if placed.mask >> s & 1),
                                   card.planet, card.pirate, placed.card, placed.rot,
                                   (lines or {}).get(cell, 0), order)
        return Table(game.players, dict(game.start_lines), game.barriers, sectors,
                     game.planet_types)

    def score(self) -> Result:
        """The scores of the position as it stands (the scorer's result)."""
        from rules.orbitus.score import score

        return score(self.to_table(), self.game.ruleset.scoring)

    def describe(self) -> str:
        """The whole position in a few lines: the table in the order it was laid (``q,r
        CARD rN``), every hand with its limit, the deck, the cards out of the game."""
        game = self.game
        table = " ".join(f"{q},{r}:{p.card}r{p.rot}" for (q, r), p in self.board.items())
        lines = [f"table: {table or '(empty)'}"]
        for seat, name in enumerate(game.players):
            notes = [f"limit {self.limits[seat]}"]
            if self.passed[seat]:
                notes.append("passed last turn")
            lines.append(f"hand {name}: {' '.join(self.hands[seat]) or '-'} "
                         f"({', '.join(notes)})")
        lines.append(f"deck: {self.deck_left} left; out of the game: "
                     f"{' '.join(self.out) or '-'}")
        return "\n".join(lines)

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


# --- checking one action, with the reason when it is not legal ------------------------------


def _seat_list(game: Match, seats: Iterable[int]) -> str:
    return " and ".join(f"{game.players[s]}'s" for s in seats)


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
                              "draws one in its place (rule O-45)")
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
    owner = state.owner(cell)
    label = f"{placed.card} on {where}"
    if owner != state.to_move:
        whose = "a neutral zone" if owner < 0 else f"{game.players[owner]}'s system"
        raise IllegalMove(f"{label} belongs to {whose}; a player removes sectors only from "
                          f"their own system")
    lost = [info.cells[i] for i in info.cut_off(state.to_move, info.index[cell])]
    if lost:
        shown = " ".join(cell_text(c) for c in lost[:8]) + (
            f" and {len(lost) - 8} more" if len(lost) > 8 else "")
        raise IllegalMove(f"removing {label} would cut {shown} off from the station; the rest "
                          f"of the system must stay connected to it (rule O-39)")


def mismatches(state: State, cell: Hex, mask: int) -> list[str]:
    """Every side on which route sides ``mask`` on ``cell`` do not match a neighbour, in
    words."""
    game, info = state.game, state.info
    out = []
    has = ("has a route", "is blank")
    for bad in info.mismatches(cell, mask):
        s, facing = bad.side, SIDES[OPP[bad.side]]
        if bad.other == STATION_NODE:
            if bad.other_route:
                owner = game.players[game.start_lines[OPP[s]]]
                out.append(f"its {SIDES[s]} side is blank but faces {owner}'s start line on the "
                           f"station's {facing} side (a start line counts as a route)")
            else:
                out.append(f"its {SIDES[s]} side has a route but faces the barrier on the "
                           f"station's {facing} side (a barrier counts as blank)")
            continue
        other = info.cells[bad.other]
        out.append(f"its {SIDES[s]} side {has[not bad.route]} but {state.board[other].card} on "
                   f"{cell_text(other)} {has[not bad.other_route]} on its {facing} side")
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
                          f"sector may go there (rule O-28)")
    if spot.seats and spot.seats[0] != state.to_move \
            and info.open_after(spot, mask) <= 0:
        owner = game.players[spot.seats[0]]
        others = [k for k in range(6) if card.masks[k] & spot.known == spot.required
                  and info.open_after(spot, card.masks[k]) > 0]
        hint = ("; turned " + " or ".join(f"r{k}" for k in others) + " it leaves one open"
                if others else "")
        raise IllegalMove(f"{name} on {where} would leave {owner}'s system with no open route; "
                          f"a player may close only their own system (rule O-37){hint}")


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
        seat = state.owner(other)
        if seat >= 0:
            parts.append(f"{game.players[seat]}'s {board[other].card} on {cell_text(other)} to "
                         f"the {SIDES[s]}")
    for z in spot.zones:
        zone = [info.cells[i] for i in info.zones[z]]
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
