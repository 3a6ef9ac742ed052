"""Orbitus behind the :class:`rules.game.Game` interface (``rules.get("orbitus")``)."""

from __future__ import annotations

import json
import sys
from array import array
from collections.abc import Iterable, Sequence

from rules.game import Outcome
from rules.orbitus.actions import REMOVE, Action
from rules.orbitus.engine import Placed, Seating, State, new_game, seating
from rules.orbitus.notation import Written, notation, parse_move
from rules.orbitus.ruleset import Card, Ruleset
from rules.orbitus.view import View, view_for
from rules.orbitus.why import check

_ENDS = (None, "quiet-round", "no-one-can-act")
_OFFSET = 32768  # cells are stored as q + _OFFSET, r + _OFFSET
# id(deck) -> the deck, each card's number, and the numbers of the shuffled decks met
_NUMBERS: dict[int, tuple[Sequence[Card], dict[str, int], dict[tuple[str, ...], array[int]]]] \
    = {}
MAX_ORDERS = 4096  # shuffled decks kept per ruleset (one per game being played)
_HEAD = json.JSONEncoder(separators=(",", ":")).encode  # made once, not at every call


def _numbers(deck: Sequence[Card]) -> tuple[dict[str, int], dict[tuple[str, ...], array[int]]]:
    """Each card's number in its ruleset's deck, and the numbers of each shuffled deck met
    (worked out once per deck and per game: a server encodes the state of every move, and
    a game's deck order never changes)."""
    found = _NUMBERS.get(id(deck))
    if found is None or found[0] is not deck:
        if len(_NUMBERS) >= 64:  # many rulesets (a tuning run): start again
            _NUMBERS.clear()
        found = _NUMBERS[id(deck)] = (deck, {c.id: i for i, c in enumerate(deck)}, {})
    return found[1], found[2]


_SEATING: dict[int, tuple[Seating, str]] = {}  # id(game) -> the game, its part of the head


def _ints(values: Iterable[int]) -> str:
    """A list of whole numbers (or booleans, as 0 and 1) as compact JSON: [1,0,2]."""
    return f"[{','.join(str(int(v)) for v in values)}]"


def winners_of(totals: Sequence[int]) -> tuple[int, ...]:
    """The seats with the highest total: they share the win (O-64)."""
    best = max(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == best)


class Orbitus:
    """The game object (stateless): every method reads or makes immutable states."""

    name = "orbitus"
    min_players = 2
    max_players = 6
    hidden_information = True  # the hands and the order of the deck

    def new_game(self, ruleset: Ruleset, players: Sequence[str], seed: int) -> State:
        return new_game(ruleset, players, seed)

    def players(self, state: State) -> tuple[str, ...]:
        return state.game.players

    def legal_actions(self, state: State) -> Sequence[Action]:
        return state.legal_actions()

    def apply(self, state: State, action: Action) -> State:
        return state.after(action)

    def check(self, state: State, action: Action) -> Action:
        return check(state, action)

    def current_player(self, state: State) -> int:
        return -1 if state.over else state.to_move

    def is_over(self, state: State) -> bool:
        return state.over

    def scores(self, state: State) -> tuple[int, ...]:
        return state.score().totals

    def result(self, state: State) -> Outcome:
        result = state.score()
        totals = result.totals
        best = max(totals)
        winners = winners_of(totals)
        names = " and ".join(state.game.players[s] for s in winners)
        verb = "wins" if len(winners) == 1 else "share the win"
        return Outcome(winners, totals, f"{names} {verb} with {best} point(s)")

    def view_for(self, state: State, seat: int) -> View:
        return view_for(state, seat)

    def action_text(self, state: State, action: Action) -> str:
        return notation(action)

    def parse_action(self, state: State, text: str) -> Action:
        """The legal action ``text`` writes (as ``legal_actions`` lists it); raises
        ``NotationError`` or ``IllegalAction``."""
        return self.checked(state, parse_move(text))

    def checked(self, state: State, written: Written) -> Action:
        """The legal action a move read by ``parse_move`` writes (``parse_action`` without
        reading the text again); raises ``IllegalAction``."""
        action = check(state, written.action())
        if action.kind == REMOVE:  # the notation may leave out the card on the cell
            action = action._replace(card=state.board[action.cell].card)
        return action

    def encode(self, state: State) -> bytes:
        """The state as bytes: a JSON header (players, station, counters) and the cards as
        16-bit little-endian numbers (deck order, hands, cards out, the table)."""
        game = state.game
        ids, orders = _numbers(game.ruleset.deck)
        # the JSON list [players, start lines, barriers, drawn, to move, passed, quiet, turn,
        # end, skipped, limits, hand sizes, deck, out, board]: its first three are the
        # game's (written once per game), the rest whole numbers and lists of them
        seats = _SEATING.get(id(game))
        if seats is None or seats[0] is not game:
            if len(_SEATING) >= MAX_ORDERS:
                _SEATING.clear()
            seats = _SEATING[id(game)] = (game, _HEAD([
                list(game.players), sorted(game.start_lines.items()),
                sorted(game.barriers)])[:-1])
        head = (f"{seats[1]},{state.drawn},{state.to_move},{_ints(state.passed)},"
                f"{state.quiet},{state.turn},{_ENDS.index(state.end)},{_ints(state.skipped)},"
                f"{_ints(state.limits)},{_ints([len(h) for h in state.hands])},"
                f"{len(state.deck)},{len(state.out)},{len(state.board)}]").encode()
        deck = orders.get(state.deck)
        if deck is None:
            if len(orders) >= MAX_ORDERS:
                orders.clear()
            deck = orders[state.deck] = array("H", [ids[c] for c in state.deck])
        rest = [ids[c] for hand in state.hands for c in hand]
        rest += [ids[c] for c in state.out]
        for (q, r), placed in state.board.items():
            rest += (q + _OFFSET, r + _OFFSET, ids[placed.card], placed.rot)
        body = deck + array("H", rest)
        if sys.byteorder != "little":
            body.byteswap()
        return len(head).to_bytes(4, "little") + head + body.tobytes()

    def decode(self, ruleset: Ruleset, data: bytes) -> State:
        size = int.from_bytes(data[:4], "little")
        (players, lines, barriers, drawn, to_move, passed, quiet, turn, end, skipped, limits,
         hands_n, deck_n, out_n, board_n) = json.loads(data[4:4 + size])
        body = array("H")
        body.frombytes(data[4 + size:])
        if sys.byteorder != "little":
            body.byteswap()
        ids = [c.id for c in ruleset.deck]
        values = iter(body)
        game = seating(ruleset, players, {int(s): int(p) for s, p in lines}, barriers)
        deck = tuple(ids[next(values)] for _ in range(deck_n))
        hands = tuple(tuple(ids[next(values)] for _ in range(n)) for n in hands_n)
        out = tuple(ids[next(values)] for _ in range(out_n))
        board = {}
        for _ in range(board_n):
            q, r, card, rot = (next(values) for _ in range(4))
            ident = ids[card]
            board[(q - _OFFSET, r - _OFFSET)] = Placed(ident, rot, game.cards[ident].masks[rot])
        return State(game, board, deck, drawn, hands, tuple(limits), to_move,
                     tuple(bool(p) for p in passed), quiet, _ENDS[end], turn, tuple(skipped),
                     out)


    def describe(self, state: State) -> str:
        return state.describe()


GAME = Orbitus()
