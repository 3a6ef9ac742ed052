"""The Orbitus rules engine: the seating, the deal, hands, turns, applying an action, the end.

Pure standard library. The rules are ``docs/rules/orbitus.md``; the engine's readings of
what the original rules leave open are numbered there (the deal O-73, open routes for the
closing rule O-36 and O-37, removals O-39 to O-43, discards O-44 and O-45, passing O-47,
drawing O-48, skipped turns O-49, the end O-50 and O-51). Which sides match, which
sectors form a system, which routes are open and which cells take a sector is decided by
:mod:`rules.orbitus.analysis`, the same analysis the scorer uses; the legal actions are
found by :mod:`rules.orbitus.legal`, the reason an action is illegal is
:mod:`rules.orbitus.why`.

A :class:`State` is immutable: :meth:`State.after` returns a new one. Sides are bit masks,
bit ``s`` for side ``s`` (0=N clockwise), so a card's six rotations and every matching
test are a few integer operations.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from rules.game import SetupError
from rules.hexgeo import Hex
from rules.orbitus.actions import DISCARD, PASS, PLACE, REMOVE, Action
from rules.orbitus.analysis import Analysis
from rules.orbitus.legal import Legal, actions, can_act
from rules.orbitus.ruleset import Card, Ruleset
from rules.orbitus.table import Sector, Table, cell_text

if TYPE_CHECKING:
    from rules.orbitus.score import Result

# the table sides carrying a route, by route mask (a sector's ``routes`` as the scorer reads it)
_SIDES_OF = tuple(frozenset(s for s in range(6) if mask >> s & 1) for mask in range(64))

END_ROUND = "quiet-round"  # the deck empty and a full round without a placement (O-50)
END_STUCK = "no-one-can-act"  # O-51


# --- one game: everything that never changes while it is played ------------------------------


@dataclass(frozen=True)
class Seating:
    """Who sits where in one game: the players in seat order, their start lines on the
    station's sides, the barriers, and the ruleset (O-15 to O-17; all that never changes
    while the game is played)."""

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


def seating(ruleset: Ruleset, players: Sequence[str], start_lines: dict[int, int] | None = None,
            barriers: Iterable[int] | None = None) -> Seating:
    """A :class:`Seating`; without ``start_lines`` the ruleset's table for the player count is
    used (O-15), and every side that is no one's start line is a barrier (O-17)."""
    if start_lines is None:
        setup = ruleset.setup_for(len(players))
        if setup is None:
            raise SetupError(f"{len(players)} player(s); Orbitus is played by 2 to 6")
        start_lines = setup.owners()
    others = frozenset(s for s in range(6) if s not in start_lines)
    return Seating(tuple(players), dict(start_lines),
                 others if barriers is None else frozenset(barriers) | others, ruleset)


def shuffled_deck(game: Seating, seed: int) -> list[str]:
    """The deck in the order ``random.Random(seed)`` shuffles it, top first (O-73)."""
    order = game.full_deck()
    random.Random(seed).shuffle(order)
    return order


def deal(game: Seating, order: Sequence[str], first: int = 0) -> State:
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
    game = seating(ruleset, players)
    return deal(game, shuffled_deck(game, seed))


# a sector as the analysis and the scorer read it, made once for each cell, card, turn, place
# in the order of the game and line (a Sector is immutable: every table of every position
# that has it shares it); with the cards it was made from, so another ruleset's is not taken
_SECTORS: dict[tuple[Hex, Placed, int, int], tuple[dict[str, Card], Sector]] = {}


class Placed(NamedTuple):
    card: str
    rot: int
    mask: int  # route sides on the table


def _sector(cards: dict[str, Card], cell: Hex, placed: Placed, order: int, line: int) -> Sector:
    """The sector a placed card makes on ``cell`` (kept in :data:`_SECTORS`)."""
    key = (cell, placed, order, line)
    found = _SECTORS.get(key)
    if found is None or found[0] is not cards:
        card = cards[placed.card]
        found = _SECTORS[key] = (cards, Sector(cell, _SIDES_OF[placed.mask], card.planet,
                                               card.pirate, placed.card, placed.rot, line,
                                               order))
    return found[1]


# --- the state ------------------------------------------------------------------------------------


class State:
    """A moment of the game, immutable: the table, the deck, the hands and whose turn it is.

    ``deck`` is the whole order the game was dealt from, ``drawn`` how many cards have come
    off its top; ``passed[seat]`` whether that player's previous turn was a pass; ``quiet``
    the turns in a row, begun with the deck empty, without a placement; ``skipped`` the
    players skipped just before this turn (O-49); ``out`` the cards that left the game.
    """

    __slots__ = ("game", "board", "deck", "drawn", "hands", "limits", "to_move", "passed",
                 "quiet", "end", "turn", "skipped", "out", "_info", "_legal", "_score", "_before",
                 "_carry")

    def __init__(self, game: Seating, board: dict[Hex, Placed], deck: tuple[str, ...],
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
        self._score: Result | None = None
        # the score of the position one action earlier, and the cell that action changed
        # (None: none), while this state's own score is not worked out (State.score)
        self._before: tuple[Result, Hex | None] | None = None
        # the analysis of the position one action earlier and the sector that action placed
        # (cell, route sides), while this state's own analysis is not worked out (State.info)
        self._carry: tuple[Analysis, Hex, int] | None = None

    def __getstate__(self) -> tuple[Any, ...]:  # what is worked out again is not pickled
        return (self.game, self.board, self.deck, self.drawn, self.hands, self.limits,
                self.to_move, self.passed, self.quiet, self.end, self.turn, self.skipped,
                self.out)

    def __setstate__(self, data: tuple[Any, ...]) -> None:
        State.__init__(self, *data)

    @property
    def info(self) -> Analysis:
        """The analysis of the table (systems, zones, open routes, free cells): where the
        position one action earlier was analysed and that action placed a sector, made from
        that analysis (:meth:`Analysis.placed`: the same analysis, less work); otherwise
        from the table."""
        info = self._info
        if info is None:
            carry = self._carry
            if carry is not None:
                info = carry[0].placed(carry[1], carry[2])
                self._carry = None
            else:
                info = Analysis(self.game.start_lines, self.game.n,
                                {c: p.mask for c, p in self.board.items()})
            self._info = info
        return info

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

    def forget(self) -> None:
        """Drop what this state has worked out (its analysis, legal actions and score), each
        worked out again if asked for: a kept history of states then holds its positions,
        not every position's analysis (memory, and the garbage collector's work)."""
        self._info = None
        self._legal = None
        self._score = None
        self._before = None
        self._carry = None

    # legal actions ----------------------------------------------------------------------

    def legal_actions(self) -> Legal:
        """Every legal action of the player to move, in a stable order (placements by cell,
        card and rotation, then removals, discards, the pass); none once the game is over
        (:mod:`rules.orbitus.legal`)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = Legal() if self.end is not None else actions(self, self.to_move)
        return legal

    # applying an action -----------------------------------------------------------------

    def after(self, action: Action) -> State:
        """The state after ``action``, which must be legal (see :func:`rules.orbitus.why.check`)."""
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
            placed = board[action.cell] = Placed(action.card, action.rot,
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
        if self._score is not None:  # its score is worked out from this one's (State.score)
            state._before = (self._score, action.cell if kind in (PLACE, REMOVE) else None)
        info = self._info
        if info is not None:  # its analysis: this one's (State.info)
            if kind == PLACE:
                state._carry = (info, action.cell, placed.mask)
            elif kind != REMOVE:  # a discard or a pass leaves the table as it was
                state._info = info
        return state._settle()

    def _settle(self) -> State:
        """Decide the end, and skip players with no legal action, before the next turn."""
        n = self.game.n
        if self.deck_left == 0 and self.quiet >= n:
            self.end = END_ROUND
            return self
        if can_act(self, self.to_move):
            return self
        if not any(can_act(self, s) for s in range(n)):
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
            probe._before = self._before
            probe._carry = self._carry
            if self.deck_left == 0 and quiet >= n:
                probe.end = END_ROUND
                return probe
            if can_act(probe, seat):
                return probe

    # views --------------------------------------------------------------------------------

    def to_table(self, lines: dict[Hex, int] | None = None) -> Table:
        """The table as the analysis and the scorer read it (sectors in the order they were
        placed; ``lines`` gives each the record line that placed it)."""
        game = self.game
        cards = game.cards
        line_of = (lines or {}).get
        if len(_SECTORS) > 100_000:  # a very long simulation: start again rather than grow
            _SECTORS.clear()
        sectors = {cell: _sector(cards, cell, placed, order, line_of(cell, 0))
                   for order, (cell, placed) in enumerate(self.board.items())}
        return Table(game.players, dict(game.start_lines), game.barriers, sectors,
                     game.planet_types)

    def _table(self) -> Table:
        """:meth:`to_table` for the score: where the position one action earlier was scored
        and that action placed a sector (at the end of the board's order) or left the
        table as it was (a discard, a pass), that table with the one sector added, or that
        table itself; otherwise (a removal renumbers the order) made again."""
        before = self._before
        if before is not None:
            old, cell = before[0].table, before[1]
            sectors, board = old.sectors, self.board
            if cell is None:
                if len(sectors) == len(board):
                    return old
            elif len(board) == len(sectors) + 1 and cell not in sectors:
                placed = board.get(cell)
                if placed is not None:
                    return Table(old.players, old.start_lines, old.barriers,
                                 {**sectors, cell: _sector(self.game.cards, cell, placed,
                                                           len(sectors), 0)},
                                 old.planet_types)
        return self.to_table()

    def score(self) -> Result:
        """The scores of the position as it stands (the scorer's result; worked out once per
        state, which does not change once settled). When the position one action earlier
        was scored, a system the action did not touch keeps its score from there
        (:func:`rules.orbitus.score.score`'s ``before``: the same result, less work)."""
        from rules.orbitus.score import score

        found = self._score
        if found is None:
            found = self._score = score(self._table(), self.game.ruleset.scoring,
                                        info=self.info, before=self._before)
            self._before = None
        return found

    def describe(self) -> str:
        """The whole position in a few lines: the table in the order it was laid (``q,r
        CARD rN``), every system with what each part of it scores (one line each, so a
        change of score shows which part changed), every hand with its limit, the deck, the
        cards out of the game."""
        game = self.game
        table = " ".join(f"{q},{r}:{p.card}r{p.rot}" for (q, r), p in self.board.items())
        lines = [f"table: {table or '(empty)'}"]
        lines += [player.line() for player in self.score().players]
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
