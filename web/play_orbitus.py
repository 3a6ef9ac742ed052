"""Orbitus in the browser's play mode: what each seat is sent, what it may do, records.

A seat is sent ``view_for(state, seat)`` (:mod:`rules.orbitus.view`): the table, its own
hand, the sizes of the other hands, the number of cards left in the deck, the cards out of
the game. A spectator gets the same without any hand. The score of the table (public) comes
with every view, as ``pnp-score`` would report that table. The seat to move also gets its
legal actions, grouped for the page (per card, the cells and rotations where it fits).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.game import IllegalAction
from rules.orbitus import GAME
from rules.orbitus.actions import DISCARD, PASS, PLACE, REMOVE, Action
from rules.orbitus.engine import Placed, State, end_message
from rules.orbitus.legal import fill_fits
from rules.orbitus.notation import parse_move
from rules.orbitus.ruleset import Ruleset
from rules.orbitus.score import PlayerScore
from rules.orbitus.view import view_for
from scorer.orbitus.report import finding_json, player_json, station_json, to_json
from web.wire import dumps

if TYPE_CHECKING:
    from web.adapters import Desk

NAME = "orbitus"
game = GAME
HIDES = True  # the hands and the deck's order


def seats_ok(ruleset: Ruleset, count: int) -> str | None:
    """Why ``count`` players cannot play with this ruleset (None: they can)."""
    if ruleset.setup_for(count) is None:
        counts = ", ".join(str(n) for n in ruleset.player_counts)
        return f"Orbitus is played by {counts} players with these definitions, not {count}"
    return None


def prepare(ruleset: Ruleset) -> None:
    """Work out at once what the rules core would otherwise work out as moves come: the
    table of the turns in which each card of the deck fits a free cell (a server that
    starts fresh then does not pay for it in its first thousands of moves)."""
    fill_fits(ruleset.cards.values())


def new(ruleset: Ruleset, names: list[str], seed: int) -> State:
    return GAME.new_game(ruleset, names, seed)


def action_data(action: Action) -> list[Any]:
    return [action.kind, action.card, action.cell[0], action.cell[1], action.rot]


def action_from(data: list[Any]) -> Action:
    kind, card, q, r, rot = data
    return Action(int(kind), str(card), (int(q), int(r)), int(rot))


def _owner(player: PlayerScore) -> dict[str, int]:
    """A system's part of the owner map: its cells as the page's keys, "q,r", to its seat."""
    seat = player.seat
    return {f"{q},{r}": seat for q, r in player.sectors}


MAX_KEPT = 8192  # entries of a cache of texts below before it starts again


def public(state: State) -> dict[str, Any]:
    """Everything every seat and spectator may see (no hand)."""
    view = view_for(state, 0).to_json()
    view.pop("hand")
    view["seat"] = None
    result = state.score()
    owner: dict[str, int] = {}
    for player in result.players:
        owner.update(_owner(player))
    view["score"] = to_json(result)
    view["owner"] = owner
    view["deck_size"] = len(state.deck)
    view["message"] = end_message(state)
    view["over"] = state.over
    view["to_move"] = -1 if state.over else state.to_move
    view["min_hand"] = state.game.min_hand
    return view


# --- the same as JSON text, put together from pieces kept ------------------------------------
# A move changes one sector and one system's score: the text of the rest (the game's seats and
# station, each sector's entry of the board, each system's part of the score and of the owner
# map) is made once and kept, not encoded again at every move.
# wire.dumps of the plain dict above is the definition: tests/test_web_messages.py checks
# that this text is it, byte for byte, at every position of whole games of 2 to 6 players.

_GAMES: dict[int, tuple[Any, str]] = {}  # id(seating) -> (the seating, the view's head)
_BOARD: dict[tuple[tuple[int, int], Placed], str] = {}  # a sector's entry of the board
# id(seating) -> (the seating, its last score's systems: (score, part's text, owner's))
_PART_TEXTS: dict[int, tuple[Any, list[tuple[PlayerScore, str, str]]]] = {}
_STATIONS: dict[int, tuple[Any, str]] = {}  # id(seating) -> (the seating, the station's text)


def _kept(cache: dict[Any, Any], key: Any, value: Any) -> Any:
    if len(cache) >= MAX_KEPT:  # a long-running server: start again rather than grow
        cache.clear()
    cache[key] = value
    return value


def _game_head(state: State) -> str:
    game = state.game
    found = _GAMES.get(id(game))
    if found is None or found[0] is not game:
        view = view_for(state, 0).to_json()
        head = (f'{{"seat":null,"players":{dumps(view["players"])},'
                f'"start_lines":{dumps(view["start_lines"])},'
                f'"barriers":{dumps(view["barriers"])},"board":[')
        found = _kept(_GAMES, id(game), (game, head))
    return str(found[1])


def _part_texts(state: State, players: tuple[PlayerScore, ...]
                ) -> list[tuple[PlayerScore, str, str]]:
    """Each system's part of the score's text and of the owner map's. A move leaves most
    systems' scores as they were (the same objects: ``State.score`` takes them over), so
    each game keeps the texts of its last score's systems, and only a system scored again
    is encoded. Kept as text only, per game, for its last score alone: the part's dict and
    lists of cells, and the scores the game has moved past, are not kept alive for the
    garbage collector to walk."""
    game = state.game
    found = _PART_TEXTS.get(id(game))
    last = found[1] if found is not None and found[0] is game else []
    parts = []
    for player in players:
        for kept in last:
            if kept[0] is player:
                parts.append(kept)
                break
        else:
            parts.append((player, dumps(player_json(player)), dumps(_owner(player))[1:-1]))
    _kept(_PART_TEXTS, id(game), (game, parts))
    return parts


def _station_text(state: State, table: Any) -> str:
    """The score's ``station`` entry, once per game: it never changes."""
    game = state.game
    found = _STATIONS.get(id(game))
    if found is None or found[0] is not game:
        found = _kept(_STATIONS, id(game), (game, dumps(station_json(table))))
    return str(found[1])


def _score_text(state: State, result: Any, parts: list[tuple[PlayerScore, str, str]]) -> str:
    """``dumps(to_json(result, part))`` of a game's table, written from the kept parts
    without the dict: the same keys in the same order (a game's table has no file and no
    deck file: ``to_json`` writes both as empty)."""
    findings = result.findings
    violations = dumps([finding_json(f) for f in findings]) if findings else "[]"
    zones = result.neutral_zones
    return (f'{{"game":"orbitus","file":"","deck":"","valid":{"false" if findings else "true"},'
            f'"violations":{violations},"players":[{",".join(part for _, part, _ in parts)}],'
            f'"neutral":{dumps(result.neutral)},"neutral_zones":{dumps(zones)},'
            f'"winners":{dumps(result.winners)},"station":{_station_text(state, result.table)}}}')


def public_text(state: State) -> str:
    """``wire.dumps(public(state))``, byte for byte, made from the pieces kept."""
    board = []
    entries = _BOARD
    for cell, placed in state.board.items():
        entry = entries.get((cell, placed))
        if entry is None:
            entry = _kept(entries, (cell, placed),
                          dumps([cell[0], cell[1], placed.card, placed.rot]))
        board.append(entry)
    over = state.over
    middle = dumps({"hand_sizes": [len(h) for h in state.hands], "limits": list(state.limits),
                    "deck_left": state.deck_left, "out": list(state.out),
                    "to_move": -1 if over else state.to_move, "passed": list(state.passed),
                    "turn": state.turn, "end": state.end})
    result = state.score()
    parts = _part_texts(state, result.players)
    score = _score_text(state, result, parts)
    owner = ",".join(text for _, _, text in parts if text)
    tail = dumps({"deck_size": len(state.deck), "message": end_message(state), "over": over,
                  "min_hand": state.game.min_hand})
    return (f'{_game_head(state)}{",".join(board)}],{middle[1:-1]},"score":{score},'
            f'"owner":{{{owner}}},{tail[1:]}')


def private(state: State, seat: int) -> dict[str, Any]:
    """What only ``seat`` may see: its own hand."""
    return {"hand": list(state.hands[seat])}  # view_for's hand, without a copy of the table


_KEYS: dict[tuple[int, int], str] = {}  # a cell as the page's keys write it, "q,r"
# the turns of a placement as the page's lists, one list per set of turns (at most 63),
# shared by every position's message: made and encoded, never changed
_TURNS: dict[tuple[int, ...], list[int]] = {}


def legal(state: State) -> dict[str, Any]:
    """The legal actions of the player to move, grouped for the page (per card, the cells
    and the turns where it fits: read from the rules core's groups of placements, without
    an action made for each)."""
    place: dict[str, dict[str, list[int]]] = {}
    remove: list[list[int]] = []
    discard: list[str] = []
    can_pass = False
    found = state.legal_actions()
    keys, turns = _KEYS, _TURNS
    for cell, card, rots in found.placement_groups():  # one group per (cell, card)
        try:  # the card seen before, the cell's key and the turns' list made before
            place[card][keys[cell]] = turns[rots]
        except KeyError:
            key = keys.get(cell)
            if key is None:
                key = keys[cell] = f"{cell[0]},{cell[1]}"
            listed = turns.get(rots)
            if listed is None:
                listed = turns[rots] = list(rots)
            place.setdefault(card, {})[key] = listed
    for action in found.others():
        kind = action.kind
        if kind == REMOVE:
            remove.append(list(action.cell))
        elif kind == DISCARD:
            discard.append(action.card)
        else:
            can_pass = True
    return {"place": place, "remove": remove, "discard": discard, "pass": can_pass}


def parse(state: State, seat: int, text: str) -> Action:
    """The legal action ``seat`` wrote; :class:`~rules.game.NotationError` if it cannot be
    read, :class:`~rules.game.IllegalAction` with the engine's reason if the rules forbid
    it (``GAME.parse_action``, the text read once). A card the seat does not hold, or a
    move written for another player, is refused before the engine is asked: the engine's
    sentence says where the card is (another hand, the deck), which is not this seat's to
    know."""
    written = parse_move(text)  # who wrote it and which card: this seat's own to check
    if written.player is not None and written.player != state.game.players[seat]:
        raise IllegalAction(f"this seat plays {state.game.players[seat]}, not "
                            f"{written.player}")
    action = written.action()
    if action.kind in (PLACE, DISCARD) and action.card not in state.hands[seat]:
        held = " ".join(state.hands[seat]) or "nothing"
        raise IllegalAction(f"{action.card} is not in your hand (you hold {held})")
    return GAME.checked(state, written)  # GAME.parse_action, the text read once


def reveals(before: State, after: State) -> bool:
    """Whether a card came off the deck between two states (a move taken back across it
    would let a seat see a card before its time)."""
    return after.drawn != before.drawn


def text(state: State, action: Action) -> str:
    return GAME.action_text(state, action)


def record(start: State, actions: list[Action], seed: int, note: str) -> str:
    from records.orbitus_replay import record_text

    return record_text(start, actions, seed=seed, note=note)


def full(state: State) -> dict[str, Any]:
    """A finished game's position with every hand (the replay viewer)."""
    view = public(state)
    view["hands"] = [list(h) for h in state.hands]
    return view


def page_extras(desk: Desk, view: dict[str, Any]) -> dict[str, Any]:
    """The station of the view's game drawn (its start lines and barriers)."""
    from web.orbitus_table import station_picture

    lines = {int(side): seat for side, seat in view["start_lines"].items()}
    return {"station_svg": station_picture(desk, lines, frozenset(view["barriers"]))}


__all__ = ["DISCARD", "PASS", "PLACE", "REMOVE"]
