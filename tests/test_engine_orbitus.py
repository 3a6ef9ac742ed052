"""The Orbitus engine rule by rule: for every rule a position where it bites and one where
it does not, checked both ways (the legal-action list and the reason ``check`` gives).

Positions are built from a handful of test cards (so the tests do not depend on the
shipped deck) on a station with one start line each (Anna N, Boris S, the other four
sides barriers) unless a test needs another.
"""

from __future__ import annotations

import pytest

from rules.game import IllegalAction, NotationError, SetupError
from rules.hexgeo import SIDE_INDEX
from rules.orbitus.actions import DISCARD, PASS, PASS_ACTION, PLACE, REMOVE, Action
from rules.orbitus.engine import END_ROUND, END_STUCK, Placed, Seating, State, deal, end_message
from rules.orbitus.notation import notation, parse_move
from rules.orbitus.ruleset import Band, Card, Ruleset, Scoring, mask_of, rotate_mask
from rules.orbitus.score import score
from rules.orbitus.why import check


def make_card(ident, sides, planet=None, pirate=False):
    return Card(ident, mask_of(sides), planet, pirate)


def Game(players, start, barriers, cards, hand_size, min_hand):  # noqa: N802 - the old name
    ruleset = Ruleset((), tuple(cards.values()), hand_size, min_hand, (), SCORING)
    return Seating(tuple(players), start, barriers, ruleset)


N, NE, SE, S, SW, NW = range(6)
CARDS = {c.id: c for c in (
    make_card("DEAD", [N], planet="ice"),            # a dead end
    make_card("LINE", [N, S], planet="lava"),        # straight through
    make_card("ARC", [N, NE]),                       # two neighbouring sides
    make_card("BEND", [S, NW]),                      # two sides one apart
    make_card("HUB", range(6), pirate=True),         # every side
)}
SCORING = Scoring((Band(1, None, 0),), -3, -1, (Band(3, None, 1),))


def game(players=("Anna", "Boris"), lines=None, min_hand=2, hand_size=4) -> Game:
    if lines is None:
        lines = {"Anna": ["N"], "Boris": ["S"]}
    start = {SIDE_INDEX[s]: players.index(p) for p, sides in lines.items() for s in sides}
    return Game(tuple(players), start, frozenset(s for s in range(6) if s not in start), CARDS,
                hand_size, min_hand)


def position(board=(), hands=None, deck=(), to_move=0, passed=None, limits=None, quiet=0,
             g=None) -> State:
    """A state: ``board`` as (card, cell, rot); hands default to one of each test card."""
    g = g or game()
    n = g.n
    hands = hands if hands is not None else [tuple(CARDS)] * n
    placed = {cell: Placed(card, rot, CARDS[card].masks[rot]) for card, cell, rot in board}
    return State(g, placed, tuple(deck), 0, tuple(tuple(h) for h in hands),
                 tuple(limits or [g.hand_size] * n), to_move, tuple(passed or [False] * n), quiet)


def place(card, cell, rot) -> Action:
    return Action(PLACE, card, cell, rot)


def remove(cell) -> Action:
    return Action(REMOVE, "", cell)


def play(state: State, *actions: Action) -> State:
    """The state after ``actions``, each checked to be legal first."""
    for action in actions:
        assert legal(state, action), notation(action)
        state = state.after(action)
    return state


def legal(state: State, action: Action) -> bool:
    """Whether ``action`` is legal, asking both the action list and ``check`` (they agree)."""
    listed = any(same(a, action) for a in state.legal_actions())
    try:
        check(state, action)
    except IllegalAction:
        assert not listed, f"{notation(action)} is listed but check refuses it"
        return False
    assert listed, f"check accepts {notation(action)} but it is not listed"
    return True


def same(a: Action, b: Action) -> bool:
    """The same action as the notation writes it (a removal names its cell, not its card)."""
    return notation(a) == notation(b)


def reason(state: State, action: Action) -> str:
    with pytest.raises(IllegalAction) as info:
        check(state, action)
    assert not legal(state, action)
    return info.value.reason


def valid(state: State) -> bool:
    return score(state.to_table(), SCORING).valid


# --- the cards ---------------------------------------------------------------------------------


def test_a_card_turned_k_steps_has_its_printed_routes_k_sides_clockwise():
    assert rotate_mask(0b000001, 1) == 0b000010  # N -> NE
    assert rotate_mask(0b100000, 1) == 0b000001  # NW -> N
    assert CARDS["ARC"].masks[3] == (1 << S) | (1 << SW)
    assert len(set(CARDS["HUB"].masks)) == 1 and len(set(CARDS["ARC"].masks)) == 6


# --- placing: where ----------------------------------------------------------------------------


def test_a_sector_goes_next_to_the_station_or_a_placed_sector():
    s = position()
    assert legal(s, place("DEAD", (0, -1), 3))
    assert "not next to the station or a placed sector" in reason(s, place("DEAD", (0, -3), 3))
    s = position([("LINE", (0, -1), 0)])
    assert legal(s, place("DEAD", (0, -2), 3))  # next to a sector


def test_not_on_the_station_nor_on_a_sector():
    s = position([("LINE", (0, -1), 0)])
    assert "[0, 0] is the station's cell" in reason(s, place("HUB", (0, 0), 0))
    assert reason(s, place("LINE", (0, -1), 0)) == "[0, -1] already holds LINE"


def test_the_card_must_be_in_the_players_hand():
    s = position(hands=[("LINE",), ("DEAD",)])
    assert legal(s, place("LINE", (0, -1), 0))
    why = reason(s, place("DEAD", (0, -1), 3))
    assert why == "DEAD is not in Anna's hand (Anna holds LINE; DEAD is in Boris's hand)"


# --- placing: matching -------------------------------------------------------------------------


def test_a_start_line_counts_as_a_route_side():
    s = position()
    assert legal(s, place("DEAD", (0, -1), 3))  # its route S on Anna's start line
    why = reason(s, place("DEAD", (0, -1), 0))  # route N, blank S on the start line
    assert why.startswith("DEAD turned r0 does not match on [0, -1]: its S side is blank but "
                          "faces Anna's start line on the station's N side")
    assert why.endswith("; DEAD fits there turned r3")


def test_a_barrier_counts_as_a_blank_side():
    s = position()
    assert legal(s, place("DEAD", (1, -1), 0))  # blank SW side on the NE barrier
    why = reason(s, place("DEAD", (1, -1), 4))  # route SW on the barrier
    assert "its SW side has a route but faces the barrier on the station's NE side" in why


def test_facing_sides_of_two_sectors_are_both_routes_or_both_blank():
    s = position([("LINE", (0, -1), 0)])  # a route N into [0, -2]
    assert legal(s, place("DEAD", (0, -2), 3))
    why = reason(s, place("DEAD", (0, -2), 0))
    assert "its S side is blank but LINE on [0, -1] has a route on its N side" in why
    s = position([("DEAD", (0, -1), 3)], to_move=1)  # blank N side towards [0, -2]
    assert legal(s, place("DEAD", (0, -2), 0))  # blank S side: matches (a neutral sector)
    why = reason(s, place("LINE", (0, -2), 0))
    assert "its S side has a route but DEAD on [0, -1] is blank on its N side" in why


def test_every_neighbour_must_match_not_just_one():
    # [1, -2] touches LINE on [1, -1] (route N into it) and DEAD on [0, -1] (blank NE side)
    s = position([("DEAD", (0, -1), 3), ("LINE", (1, -1), 0)], to_move=1)
    assert legal(s, place("ARC", (1, -2), 2))  # routes SE and S: S meets LINE, SW stays blank
    why = reason(s, place("ARC", (1, -2), 3))  # routes S and SW: SW meets DEAD's blank NE
    assert "its SW side has a route but DEAD on [0, -1] is blank on its NE side" in why


def test_a_sector_may_lie_in_any_of_its_six_rotations():
    s = position([("LINE", (0, -1), 0)])
    rots = {a.rot for a in s.legal_actions() if a.card == "HUB" and a.cell == (0, -2)}
    assert rots == set(range(6))
    rots = {a.rot for a in s.legal_actions() if a.card == "ARC" and a.cell == (0, -2)}
    assert rots == {2, 3}  # the two turns with a route on S


# --- placing: systems never meet ---------------------------------------------------------------


DEFAULT_2P = {"Anna": ["N", "NE", "SE"], "Boris": ["S", "SW", "NW"]}


def test_no_sector_may_join_two_systems():
    g = game(lines=DEFAULT_2P)
    # Anna's BEND on [1, 0] (her SE start line) and Boris's ARC on [0, 1] (his S start line)
    # both send a route into [1, 1]
    s = position([("BEND", (1, 0), 0), ("BEND", (0, 1), 3)], g=g)
    assert valid(s)
    why = reason(s, place("ARC", (1, 1), 5))  # routes N and NW: it would join both
    assert why == ("on [1, 1], ARC would join Anna's and Boris's systems (Anna's BEND on [1, 0] "
                   "to the N; Boris's BEND on [0, 1] to the NW); two systems never meet, so no "
                   "sector may go there (rule O-28)")
    assert not [a for a in s.legal_actions() if a.cell == (1, 1)]
    assert legal(s, place("DEAD", (1, -1), 4))  # Anna's NE start line is hers to grow


def test_a_sector_on_an_opponents_start_line_joins_that_system_and_may_not_join_two():
    g = game(lines=DEFAULT_2P)
    # Anna's ARC on [1, 0] turned so its routes are NW (her start line) and SW (into [0, 1],
    # the cell on Boris's S start line)
    s = position([("ARC", (1, 0), 4)], to_move=1, g=g)
    assert valid(s)
    why = reason(s, place("ARC", (0, 1), 0))
    assert "would join Anna's and Boris's systems" in why
    assert "Boris's start line to the N" in why
    # a cell that touches only Boris's start line is his to grow
    assert legal(s, place("DEAD", (-1, 1), 1))


def test_a_placement_takes_a_neutral_zone_into_the_system_it_joins():
    # Anna's LINE on [0, -1] leads into [0, -2]; a neutral ARC on [1, -2] sends its NW route
    # into [0, -2] too. A sector on [0, -2] with routes S and SE joins them.
    board = [("LINE", (0, -1), 0), ("ARC", (1, -2), 5)]
    s = position(board)
    assert valid(s)
    assert score(s.to_table(), SCORING).neutral == ((1, -2),)
    after = play(s, place("ARC", (0, -2), 2))
    result = score(after.to_table(), SCORING)
    assert result.valid and result.neutral == ()
    assert set(result.players[0].sectors) == {(0, -1), (0, -2), (1, -2)}
    # Boris may make the same placement into Anna's system
    assert legal(position(board, to_move=1), place("ARC", (0, -2), 2))


# --- placing: no closing an opponent's system ---------------------------------------------------


def test_a_placement_may_not_take_an_opponents_last_open_route():
    s = position([("LINE", (0, -1), 0)], to_move=1)  # Anna's only open route: N of [0, -1]
    why = reason(s, place("DEAD", (0, -2), 3))
    assert why == ("DEAD turned r3 on [0, -2] would leave Anna's system with no open route; a "
                   "player may close only their own system (rule O-37)")
    assert legal(s, place("LINE", (0, -2), 0))  # into Anna's system, still open
    assert legal(s, place("ARC", (0, -2), 2))


def test_a_player_may_close_their_own_system():
    s = position([("LINE", (0, -1), 0)], to_move=0)
    closed = play(s, place("DEAD", (0, -2), 3))
    assert closed.info.open_count[0] == 0 and valid(closed)


def test_closing_is_allowed_while_the_opponent_has_another_open_route():
    g = game(lines={"Anna": ["N", "NE"], "Boris": ["S"]})
    s = position([("LINE", (0, -1), 0)], to_move=1, g=g)  # Anna's NE start line is free
    assert legal(s, place("DEAD", (0, -2), 3))


def test_an_empty_start_line_is_an_open_route_of_its_system():
    s = position(to_move=1)  # Anna has no sector: her N start line is her only way out
    assert "would leave Anna's system with no open route" in reason(
        s, place("DEAD", (0, -1), 3))
    assert legal(s, place("LINE", (0, -1), 0))
    g = game(lines={"Anna": ["N", "NE"], "Boris": ["S"]})
    assert legal(position(to_move=1, g=g), place("DEAD", (0, -1), 3))


def test_a_system_its_owner_closed_blocks_no_one():
    s = position([("DEAD", (0, -1), 3)], to_move=1)  # Anna closed her system herself
    assert s.info.open_count[0] == 0
    assert legal(s, place("LINE", (0, 1), 0))
    assert legal(s, place("DEAD", (0, 1), 0))  # Boris may close his own


def test_open_routes_of_a_neutral_zone_taken_in_count_for_the_system():
    # Anna's only open route meets [0, -2]; so does the NW route of a neutral ARC on [1, -2],
    # whose N route is open too. Boris's ARC (routes S and SE) on [0, -2] closes Anna's old
    # end but brings the zone in with its open N route: legal.
    s = position([("LINE", (0, -1), 0), ("ARC", (1, -2), 5)], to_move=1)
    after = play(s, place("ARC", (0, -2), 2))
    assert after.info.open_count[0] == 1
    # with a dead end in the zone instead (route NW only), the same placement closes Anna
    s = position([("LINE", (0, -1), 0), ("DEAD", (1, -2), 5)], to_move=1)
    assert valid(s)
    assert "would leave Anna's system with no open route" in reason(
        s, place("ARC", (0, -2), 2))


# --- removing ----------------------------------------------------------------------------------


def test_a_player_removes_only_from_their_own_system():
    board = [("LINE", (0, -1), 0), ("LINE", (0, 1), 0), ("DEAD", (1, -1), 0)]
    s = position(board)
    assert valid(s)
    assert legal(s, remove((0, -1)))
    assert reason(s, remove((0, 1))) == ("LINE on [0, 1] belongs to Boris's system; a player "
                                         "removes sectors only from their own system")
    assert "belongs to a neutral zone" in reason(s, remove((1, -1)))
    assert reason(s, remove((2, 2))) == "there is no sector on [2, 2]"
    assert "station's cell" in reason(s, remove((0, 0)))


def test_a_removal_that_names_its_card_must_name_the_card_on_that_cell():
    s = position([("LINE", (0, -1), 0)])
    assert check(s, Action(REMOVE, "LINE", (0, -1)))
    with pytest.raises(IllegalAction, match=r"^the sector on \[0, -1\] is LINE, not DEAD$"):
        check(s, Action(REMOVE, "DEAD", (0, -1)))


def test_a_removal_must_leave_the_rest_of_the_system_connected_to_the_station():
    s = position([("LINE", (0, -1), 0), ("LINE", (0, -2), 0), ("LINE", (0, -3), 0)])
    assert reason(s, remove((0, -1))) == ("removing LINE on [0, -1] would cut [0, -3] [0, -2] "
                                          "off from the station; the rest of the system must "
                                          "stay connected to it (rule O-39)")
    assert "would cut [0, -3] off" in reason(s, remove((0, -2)))
    assert legal(s, remove((0, -3)))
    assert [a.cell for a in s.legal_actions() if a.kind == REMOVE] == [(0, -3)]


def test_a_removal_may_keep_the_rest_connected_through_another_start_line():
    g = game(lines=DEFAULT_2P)
    # Anna's [0, -1] (routes S, SE) and [1, -1] (routes SW, NW) each sit on a start line of
    # hers and are joined: either may go
    s = position([("ARC", (0, -1), 2), ("ARC", (1, -1), 4)], g=g)
    assert valid(s) and len(score(s.to_table(), SCORING).players[0].sectors) == 2
    assert legal(s, remove((0, -1))) and legal(s, remove((1, -1)))


def test_in_a_loop_only_the_sectors_that_hold_others_to_the_station_must_stay():
    # a triangle [0, -1], [0, -2], [1, -2] hanging from Anna's N start line, and a tail
    # [0, -3] on [0, -2]: [0, -1] holds everything, [0, -2] holds the tail
    cards = {**CARDS, **{c.id: c for c in (
        make_card("A3", [N, NE, S]), make_card("B3", [N, SE, S]), make_card("C2", [SW, NW]))}}
    g = Game(("Anna", "Boris"), {N: 0, S: 1}, frozenset({NE, SE, SW, NW}), cards, 4, 2)
    board = {(0, -1): "A3", (0, -2): "B3", (1, -2): "C2", (0, -3): "DEAD"}
    rots = {(0, -3): 3}
    placed = {c: Placed(k, rots.get(c, 0), cards[k].masks[rots.get(c, 0)])
              for c, k in board.items()}
    s = State(g, placed, (), 0, ((), ()), (4, 4), 0, (False, False), 0)
    result = score(s.to_table(), SCORING)
    assert result.valid and len(result.players[0].closed_blocks) == 1
    assert [a.cell for a in s.legal_actions() if a.kind == REMOVE] == [(0, -3), (1, -2)]
    assert "would cut [0, -3] off" in reason(s, remove((0, -2)))
    assert "would cut [0, -3] [0, -2] [1, -2] off" in reason(s, remove((0, -1)))


def test_the_hand_limit_drops_by_one_per_removal_but_never_below_the_minimum():
    s = position([("LINE", (0, -1), 0), ("LINE", (0, -2), 0)], deck=("HUB",) * 5)
    s = play(s, remove((0, -2)))
    assert s.limits == (3, 4)
    assert s.out == ("LINE",) and (0, -2) not in s.board
    s = play(s, PASS_ACTION, remove((0, -1)))  # the last sector of the system may go
    assert s.limits == (2, 4) and (0, -1) not in s.board
    s = play(s, place("LINE", (0, 1), 0), place("DEAD", (0, -1), 3), PASS_ACTION,
             remove((0, -1)))
    assert s.limits == (2, 4)  # at the minimum it stays
    assert s.out == ("LINE", "LINE", "DEAD")
    assert "DEAD" not in s.hands[0] and "DEAD" not in s.deck[s.drawn:]


def test_a_removed_cell_can_be_filled_again():
    s = position([("LINE", (0, -1), 0), ("LINE", (0, -2), 0)], deck=("HUB",) * 4)
    s = play(s, remove((0, -2)), PASS_ACTION)
    assert legal(s, place("DEAD", (0, -2), 3))


# --- discarding, passing, drawing ----------------------------------------------------------------


def test_a_discard_draws_the_top_card_and_the_discarded_card_leaves_the_game():
    s = position(hands=[("DEAD", "LINE"), ("ARC",)], deck=("HUB", "ARC"))
    after = s.after(Action(DISCARD, "DEAD"))
    assert after.hands[0][:2] == ("LINE", "HUB")
    assert after.out == ("DEAD",)
    assert reason(s, Action(DISCARD, "ARC")).startswith("ARC is not in Anna's hand")


def test_no_discard_once_the_deck_is_empty():
    s = position(hands=[("DEAD",), ("ARC",)], deck=())
    assert reason(s, Action(DISCARD, "DEAD")) == (
        "the deck is empty, so there is no card to draw; a discard draws one in its place "
        "(rule O-45)")
    assert not [a for a in s.legal_actions() if a.kind == DISCARD]


def test_no_player_passes_two_turns_in_a_row():
    s = position(deck=("HUB",) * 8)
    assert legal(s, PASS_ACTION)  # even with placements available
    s = play(s, PASS_ACTION, PASS_ACTION)
    assert reason(s, PASS_ACTION) == ("Anna passed on their previous turn, and a player may not "
                                      "pass two turns in a row")
    s = play(s, place("LINE", (0, -1), 0), place("LINE", (0, 1), 0))
    assert legal(s, PASS_ACTION)  # a turn with another action in between


def test_after_an_action_the_player_draws_up_to_the_hand_limit_while_the_deck_lasts():
    s = position(hands=[("DEAD", "LINE", "ARC", "BEND"), ("HUB",)], deck=("HUB", "ARC"))
    s = play(s, place("LINE", (0, -1), 0))
    assert s.hands[0] == ("DEAD", "ARC", "BEND", "HUB") and s.deck_left == 1
    s = play(s, PASS_ACTION)  # Boris holds 1 of 4: he draws the last card
    assert s.hands[1] == ("HUB", "ARC") and s.deck_left == 0
    s = play(s, place("DEAD", (0, -2), 3))
    assert len(s.hands[0]) == 3  # nothing left to draw


def test_a_hand_above_its_limit_draws_nothing_until_it_is_below():
    s = position([("LINE", (0, -1), 0), ("LINE", (0, -2), 0)],
                 hands=[("DEAD", "ARC", "BEND", "HUB"), ("LINE",) * 4], deck=("HUB",) * 6)
    s = play(s, remove((0, -2)), PASS_ACTION)
    assert s.limits[0] == 3 and len(s.hands[0]) == 4  # nothing taken away
    s = play(s, place("ARC", (0, -2), 2))
    assert len(s.hands[0]) == 3 and s.deck_left == 6  # at the limit: no draw
    s = play(s, place("LINE", (0, 1), 0))
    assert s.deck_left == 5
    s = play(s, place("DEAD", (1, -2), 5))
    assert len(s.hands[0]) == 3 and s.deck_left == 4  # 2 held, one drawn back up to 3


# --- turns and the end ---------------------------------------------------------------------------


def test_play_goes_clockwise_in_seat_order_from_the_first_player():
    g = game(players=("Anna", "Boris", "Carla"),
             lines={"Anna": ["N"], "Boris": ["SE"], "Carla": ["SW"]})
    s = deal(g, ["HUB"] * 20, first=1)
    order = []
    for _ in range(6):
        order.append(s.player)
        s = play(s, PASS_ACTION if not s.passed[s.to_move] else Action(DISCARD, "HUB"))
    assert order == ["Boris", "Carla", "Anna", "Boris", "Carla", "Anna"]


def test_the_deal_gives_each_player_the_hand_size_in_seat_order_from_the_top():
    g = game(hand_size=3)
    deck = ["DEAD", "LINE", "ARC", "BEND", "HUB", "DEAD", "LINE"]
    s = deal(g, deck)
    assert s.hands == (("DEAD", "LINE", "ARC"), ("BEND", "HUB", "DEAD"))
    assert s.deck_left == 1 and s.limits == (3, 3) and s.to_move == 0
    with pytest.raises(SetupError, match="the deck holds 5 card"):
        deal(g, deck[:5])


def test_the_game_ends_after_a_full_round_without_a_placement_once_the_deck_is_empty():
    s = position(hands=[("LINE", "DEAD"), ("LINE", "DEAD")], deck=())
    s = play(s, PASS_ACTION)
    assert not s.over and s.quiet == 1
    s = play(s, place("LINE", (0, 1), 0))  # a placement starts the count again
    assert s.quiet == 0
    s = play(s, place("LINE", (0, -1), 0), PASS_ACTION)
    assert not s.over
    s = play(s, remove((0, -1)))
    assert s.over and s.end == END_ROUND
    assert end_message(s) == ("the deck is empty and a full round (2 turns) went by without a "
                              "sector placed")
    assert s.legal_actions() == []
    assert reason(s, PASS_ACTION).startswith("the game is already over")


def test_turns_begun_with_cards_in_the_deck_do_not_count_towards_the_end():
    s = position(hands=[("LINE",), ("LINE",)], deck=("DEAD",), limits=[1, 1])
    s = play(s, Action(DISCARD, "LINE"))  # Anna draws the last card: the deck is empty now
    assert s.deck_left == 0 and s.quiet == 0
    s = play(s, PASS_ACTION)
    assert not s.over and s.quiet == 1
    s = play(s, PASS_ACTION)
    assert s.over and s.end == END_ROUND


def test_a_player_with_no_legal_action_is_skipped():
    # Boris passed last turn, holds nothing, has no system, and the deck is empty
    s = position(hands=[("LINE", "DEAD"), ()], deck=(), passed=[False, True])
    s = play(s, place("LINE", (0, -1), 0))
    assert s.to_move == 0 and s.skipped == (1,)
    assert end_message(s) == ("Anna to move, 0 cards left in the deck (Boris could not act and "
                              "was skipped)")
    assert s.quiet == 1  # the skipped turn had no placement
    s = play(s, PASS_ACTION)
    assert s.over and s.end == END_ROUND


def test_the_game_ends_when_no_player_can_act():
    s = position(hands=[(), ()], deck=(), passed=[False, True])
    s = play(s, PASS_ACTION)  # Anna's pass: now neither can act
    assert s.end == END_STUCK and end_message(s) == "no player can act"


def test_the_game_goes_on_while_someone_can_act():
    s = position(hands=[(), ()], deck=(), passed=[False, False])
    s = play(s, PASS_ACTION)
    assert not s.over and s.player == "Boris"


def test_a_game_needs_two_to_six_players_each_with_a_start_line():
    with pytest.raises(SetupError, match="Orbitus is played by 2 to 6"):
        game(players=("Anna",), lines={"Anna": ["N"]})
    with pytest.raises(SetupError, match="Boris has no start line"):
        game(lines={"Anna": ["N", "S"]})


# --- the notation ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text, kind, card, cell, rot, player", [
    ("place S07 @0,-1 r2", PLACE, "S07", (0, -1), 2, None),
    ("place S07 at 0,-1 rot 2", PLACE, "S07", (0, -1), 2, None),
    ("PLACE S07 at [0, -1] rot SE", PLACE, "S07", (0, -1), 2, None),
    ("place S07 @ (3,-12) r NW", PLACE, "S07", (3, -12), 5, None),
    ("place S07 @0,-1", PLACE, "S07", (0, -1), None, None),
    ("remove 1,-2", REMOVE, "", (1, -2), None, None),
    ("remove @1,-2", REMOVE, "", (1, -2), None, None),
    ("remove S07 at 1,-2", REMOVE, "S07", (1, -2), None, None),
    ("discard S12", DISCARD, "S12", None, None, None),
    ("pass", PASS, "", None, None, None),
    ("Anna: pass", PASS, "", None, None, "Anna"),
    ("Anna Maria :  place S01  @ 1,-1  r 5", PLACE, "S01", (1, -1), 5, "Anna Maria"),
])
def test_the_notation_reads_what_a_person_writes(text, kind, card, cell, rot, player):
    w = parse_move(text)
    assert (w.kind, w.card, w.cell, w.rot, w.player) == (kind, card, cell, rot, player)


@pytest.mark.parametrize("text, message", [
    ("place S07 0,-1", "'place S07 0,-1' is not a placement: write place CARD @Q,R rN"),
    ("place S07 @0,-1 r6", "'place S07 @0,-1 r6': r6 is not a rotation; write r0-r5"),
    ("place S07 @0,-1 rot", "the rotation after rot is missing"),
    ("remove", "'remove' is not a removal: write remove Q,R"),
    ("discard", "'discard' is not a discard: write discard CARD"),
    ("jump 1,1", "'jump 1,1' is not a move: write place CARD @Q,R rN"),
    ("pass twice", "'pass twice' is not a move"),
    ("", "'' is not a move"),
])
def test_unreadable_moves_are_refused_with_the_notation_to_use(text, message):
    with pytest.raises(NotationError) as info:
        parse_move(text)
    assert message in str(info.value)


def test_the_engines_notation_reads_back_as_the_same_action():
    s = position([("LINE", (0, -1), 0), ("LINE", (0, -2), 0)], deck=("HUB",))
    actions = s.legal_actions()
    assert {a.kind for a in actions} == {PLACE, REMOVE, DISCARD, PASS}
    for a in actions:
        w = parse_move(notation(a))
        back = Action(w.kind, w.card, w.cell or (0, 0), w.rot or 0)
        assert check(s, back) == back and same(back, a)


def test_the_table_of_fitting_turns_filled_at_once_holds_what_each_lookup_would_make():
    """A server fills the table when it starts (fill_fits); every entry is the one the
    table makes when first asked, and a key it left out is still made when asked."""
    from cards.ruleset_cache import load_ruleset
    from rules.orbitus import legal

    cards = load_ruleset("orbitus").cards.values()
    held = legal.fill_fits(cards)
    routes = {card.routes for card in cards}
    filled = {key: rots for key, rots in legal._ROTS.items() if key >> 12 in routes}
    assert len(filled) == len(routes) * 3 ** 6 and held >= len(filled)
    fresh = legal._Fits()
    assert all(fresh[key] == rots for key, rots in filled.items())
    # one worked by hand: routes N+S (bits 0 and 3), the N and NE sides facing sectors, N a
    # route: turned 0 or 3 steps (a route N, none NE)
    assert legal._ROTS[0b001001 << 12 | 0b000011 << 6 | 0b000001] == (0, 3)
    assert legal._ROTS[0b111111 << 12 | 0 << 6 | 1] == ()  # required outside known: none
    # the rows the placements read by index hold the same entries, and a card whose routes
    # no card of the deck has (a designer's new card) gets its row when first asked for
    assert all(legal._ROWS[key >> 12][key & 0xFFF] == rots for key, rots in filled.items())
    new = next(r for r in range(64) if r not in routes)
    assert new not in legal._ROWS
    row = legal._row(new)
    assert legal._ROWS[new] is row and len(row) == 1 << 12
    assert all(row[known << 6 | req] == fresh[new << 12 | known << 6 | req]
               for known in range(64) for req in range(64) if req & ~known == 0)
