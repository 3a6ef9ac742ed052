"""Why an Orbitus action is illegal, in one sentence naming the cards, cells, sides and
players involved (the replay prints it, the browser shows it).

:func:`check` returns a legal action and raises :class:`~rules.game.IllegalAction`
otherwise: a card not in the hand, a removal from someone else's system or one that cuts
the rest off (O-39), a placement that does not match (O-21 to O-23), joins two systems
(O-28) or closes someone else's system (O-37), a discard with an empty deck (O-45), a
second pass in a row (O-47). The legal actions are found by :mod:`rules.orbitus.legal`
from the same analysis.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from rules.game import IllegalAction
from rules.hexgeo import DIRECTIONS, SIDES, Hex
from rules.orbitus.actions import DISCARD, PASS, REMOVE, Action
from rules.orbitus.analysis import OPP, STATION_NODE, Spot
from rules.orbitus.engine import end_message
from rules.orbitus.table import STATION, cell_text

if TYPE_CHECKING:
    from rules.orbitus.engine import Seating, State

def _seat_list(game: Seating, seats: Iterable[int]) -> str:
    return " and ".join(f"{game.players[s]}'s" for s in seats)


def check(state: State, action: Action) -> Action:
    """``action`` if it is legal in ``state``; else :class:`IllegalAction` saying why."""
    game = state.game
    if state.end is not None:
        raise IllegalAction(f"the game is already over ({end_message(state)})")
    seat = state.to_move
    who = game.players[seat]
    kind = action.kind
    if kind == PASS:
        if state.passed[seat]:
            raise IllegalAction(f"{who} passed on their previous turn, and a player may not pass "
                              f"two turns in a row")
        return action
    if kind == DISCARD:
        _in_hand(state, action.card)
        if state.deck_left == 0:
            raise IllegalAction("the deck is empty, so there is no card to draw; a discard "
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
        raise IllegalAction(f"{ident} is not in {who}'s hand ({who} holds {held}; {ident} is "
                          f"{state.where_is(ident)})")


def _check_remove(state: State, action: Action) -> None:
    game, board, cell = state.game, state.board, action.cell
    where = cell_text(cell)
    if cell == STATION:
        raise IllegalAction(f"{where} is the station's cell; only sectors can be removed")
    placed = board.get(cell)
    if placed is None:
        raise IllegalAction(f"there is no sector on {where}")
    if action.card and action.card != placed.card:
        raise IllegalAction(f"the sector on {where} is {placed.card}, not {action.card}")
    info = state.info
    owner = state.owner(cell)
    label = f"{placed.card} on {where}"
    if owner != state.to_move:
        whose = "a neutral zone" if owner < 0 else f"{game.players[owner]}'s system"
        raise IllegalAction(f"{label} belongs to {whose}; a player removes sectors only from "
                          f"their own system")
    lost = [info.cells[i] for i in info.cut_off(state.to_move, info.index[cell])]
    if lost:
        shown = " ".join(cell_text(c) for c in lost[:8]) + (
            f" and {len(lost) - 8} more" if len(lost) > 8 else "")
        raise IllegalAction(f"removing {label} would cut {shown} off from the station; the rest "
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
        raise IllegalAction(f"{where} is the station's cell; sectors go around it")
    placed = state.board.get(cell)
    if placed is not None:
        raise IllegalAction(f"{where} already holds {placed.card}")
    info = state.info
    spot = info.spot(cell)
    if spot is None:
        raise IllegalAction(f"{where} is not next to the station or a placed sector; a sector goes "
                          f"in an empty cell next to one")
    card = game.cards[action.card]
    mask = card.masks[action.rot]
    name = f"{action.card} turned r{action.rot}"
    # the spot's sides say at once whether every side matches (each side facing something,
    # a route where it must be one); the sides that do not are worked out only to say so
    bad = mismatches(state, cell, mask) if mask & spot.known != spot.required else []
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
        raise IllegalAction(f"{name} does not match on {where}: {bad[0]}{more}; facing sides must "
                          f"both be routes or both be blank{hint}")
    if len(spot.seats) > 1:
        raise IllegalAction(f"on {where}, {action.card} would join {_seat_list(game, spot.seats)} "
                          f"systems{_through(state, spot)}; two systems never meet, so no "
                          f"sector may go there (rule O-28)")
    if spot.seats and spot.seats[0] != state.to_move \
            and info.open_after(spot, mask) <= 0:
        owner = game.players[spot.seats[0]]
        others = [k for k in range(6) if card.masks[k] & spot.known == spot.required
                  and info.open_after(spot, card.masks[k]) > 0]
        hint = ("; turned " + " or ".join(f"r{k}" for k in others) + " it leaves one open"
                if others else "")
        raise IllegalAction(f"{name} on {where} would leave {owner}'s system with no open route; "
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
