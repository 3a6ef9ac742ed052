"""The Satellites engine of the rules core, rule by rule: for every rule a position where it
bites and one where it does not. Boards are written out as the scorer reads them (row 1 at
the top)."""

from __future__ import annotations

import pytest

from records.satellites_replay import board_of
from rules.game import IllegalAction, NotationError
from rules.satellites.actions import PASS
from rules.satellites.engine import (
    END_BLOCKED,
    END_CONNECTED,
    END_GRACE,
    END_LOCKED,
    END_STALLED,
    State,
    action_text,
    apply,
    deal,
    decode,
    encode,
    end_message,
    end_reason,
    is_over,
    start,
)
from rules.satellites.legal import legal_actions
from rules.satellites.notation import parse_move
from rules.satellites.ruleset import BLUE_SEAT, RED_SEAT
from rules.satellites.table import table
from rules.satellites.why import check_written
from scorer.satellites.board import Board, load_rules
from scorer.satellites.score import score

RULES = load_rules()


def pos(text: str, to_move: int = RED_SEAT, grace: int | None = None) -> State:
    board = Board.from_tokens([line.split() for line in text.strip().splitlines()])
    return start(RULES, board.width, board.cells(), to_move, grace)


def legal(state: State) -> set[str]:
    return {action_text(state, m) for m in legal_actions(state)}


def legal_from(state: State, cell: str) -> set[str]:
    return {m for m in legal(state) if m.startswith(cell + "-")}


def why(state: State, text: str) -> str | None:
    try:
        check_written(state, parse_move(text))
    except IllegalAction as exc:
        return exc.reason
    return None


def play(state: State, *moves: str) -> State:
    for text in moves:
        state = apply(state, check_written(state, parse_move(text)))
    return state


# --- moving: 8 directions, up to the value, jumping, never onto an occupied cell ----------------

LONE = """
    .  .  .  .  .  .  .
    .  .  .  .  .  .  .
    .  .  .  .  .  .  .
    .  .  .  R2 .  .  .
    .  .  .  .  .  .  .
    .  .  .  .  .  .  .
    .  .  .  .  .  .  .
"""


def test_a_satellite_moves_up_to_its_value_in_each_of_8_directions():
    s = pos(LONE)
    assert legal(s) == {
        "d4-d3", "d4-d2", "d4-e3", "d4-f2", "d4-e4", "d4-f4", "d4-e5", "d4-f6",
        "d4-d5", "d4-d6", "d4-c5", "d4-b6", "d4-c4", "d4-b4", "d4-c3", "d4-b2",
    }


def test_a_move_beyond_the_value_is_refused():
    s = pos(LONE)
    assert why(s, "d4-d2") is None
    assert why(s, "d4-d1") == "d4 to d1 is 3 cells, and R2 moves at most 2"
    assert why(s, "d4-a1") == "d4 to a1 is 3 cells, and R2 moves at most 2"


def test_a_move_off_the_lines_is_refused():
    s = pos(LONE)
    assert why(s, "d4-e6") == (
        "d4 to e6 is not a straight line; satellites move along a row, a column or a diagonal")
    assert why(s, "d4-d4") == "the move starts and ends on d4"
    assert why(s, "d4-h4") == "h4 is not on the board (columns a to g, rows 1 to 7)"
    assert why(s, "d0-d2") == "d0 is not on the board (columns a to g, rows 1 to 7)"


JUMP = """
    .  .  .  .  .  .  .
    .  .  .  R2 .  .  .
    .  .  .  R1 .  .  .
    .  .  .  R3 .  .  .
    .  .  .  .  .  .  .
    .  .  .  .  .  .  .
    .  .  .  .  .  .  .
"""


def test_a_satellite_jumps_over_others_but_never_ends_on_one():
    s = pos(JUMP)
    assert why(s, "d4-d1") is None  # over R1 and R2
    assert "d4-d1" in legal(s)
    assert why(s, "d4-d3") == "d3 is occupied by R1; a move never ends on an occupied cell"
    assert why(s, "d4-d2") == "d2 is occupied by R2; a move never ends on an occupied cell"
    assert not {"d4-d3", "d4-d2"} & legal(s)


def test_only_the_player_to_move_moves_and_red_starts():
    s = pos("""
        .  .  .  .  .
        .  R1 .  .  .
        .  .  .  .  .
        .  .  .  B1 .
        .  .  .  .  .
    """)
    assert s.to_move == RED_SEAT
    assert why(s, "d4-d5") == "B1 on d4 is blue, and it is red's turn"
    assert why(s, "a1-a2") == "there is no satellite on a1"
    s = play(s, "b2-b3")
    assert s.to_move == BLUE_SEAT
    assert why(s, "b3-b4") == "R1 on b3 is red, and it is blue's turn"
    assert play(s, "d4-d5").to_move == RED_SEAT


# --- connections: exactly the value, locked, only with an empty edge -------------------------

EXACT = """
    .  .  .  .  .  .  .
    .  .  .  .  .  .  .
    .  .  .  .  .  .  .
    .  .  .  .  B1 .  .
    .  R3 .  .  .  .  .
    .  .  .  B2 .  .  .
    .  .  .  .  .  .  .
"""


def test_a_connection_move_goes_exactly_the_value():
    s = pos(EXACT)
    # d5 touches B2 on d6 after 2 cells: a connection, but R3 must go exactly 3
    assert why(s, "b5-d5") == (
        "it ends next to B2 on d6, so R3 on d5 would connect, and a connection move goes "
        "exactly 3 cells (the satellite's value; rule S-19); this one goes 2")
    # e5 touches B1 on e4 after exactly 3 cells
    assert why(s, "b5-e5") is None
    assert why(s, "b5-e5+") is None
    # a move that ends unconnected may be shorter
    assert why(s, "b5-c5") is None
    assert legal_from(s, "b5") >= {"b5-c5", "b5-e5+"}
    assert "b5-d5" not in legal_from(s, "b5") and "b5-d5+" not in legal_from(s, "b5")


def test_the_plus_mark_is_checked():
    s = pos(EXACT)
    assert why(s, "b5-c5+") == (
        "the move is marked + (a connection), but R3 ends on c5 touching no blue satellite; "
        "write b5-c5")


def test_connected_satellites_are_locked():
    s = pos("""
        .  .  .  .  .  .
        .  .  .  .  .  .
        .  .  R2 B1 .  .
        .  .  .  .  .  .
        .  .  .  .  R1 .
        .  .  .  .  .  .
    """)
    assert why(s, "c3-c5") == (
        "R2 on c3 is connected (to B1 on d3); connected satellites are locked and never move")
    assert legal_from(s, "c3") == set()
    assert why(s, "e5-e6") is None  # the unconnected one moves


# every edge holds a satellite; the north edge only R3 on c1
EDGES = """
    .  .  R3 .  .  .
    .  .  .  .  R2 .
    B2 .  .  .  .  .
    .  .  .  B1 .  .
    .  .  .  .  .  B4
    .  R1 .  .  .  .
"""


def test_no_connection_while_every_edge_holds_a_satellite():
    s = pos(EDGES)
    assert why(s, "e2-e4") == (
        "R2 on e4 would connect to B1 on d4, but every edge (outer row or column) would still "
        "hold a satellite; until one edge is empty, no move may end next to an opponent's "
        "satellite (rule S-23)")
    assert not any(m.endswith("+") for m in legal_from(s, "e2"))


def test_the_move_that_empties_an_edge_may_connect():
    # R3 leaves the north edge empty and lands next to B1: the edge is empty once it is made
    s = pos(EDGES)
    assert why(s, "c1-c4") is None
    assert "c1-c4+" in legal(s)


def test_once_an_edge_is_empty_connections_are_allowed():
    s = play(pos(EDGES), "c1-c3", "f5-f6")  # north edge now empty
    assert why(s, "e2-e4") is None
    assert "e2-e4+" in legal(s)


def test_a_connection_that_fills_the_last_empty_edge_is_refused():
    # the north edge is empty; R2 would land on it (d1) next to B1 on d2
    s = pos("""
        .  .  .  .  .  .
        .  .  .  B1 .  .
        B2 .  .  .  .  R2
        .  .  .  .  .  .
        .  .  .  .  .  B4
        .  R1 .  .  .  .
    """)
    assert why(s, "f3-d1") is not None
    assert "every edge (outer row or column) would still hold a satellite" in why(s, "f3-d1")
    assert why(s, "f3-f2") is None  # not connected: a normal move anywhere


# --- connected satellites of one colour never touch ---------------------------------------------

SAME = """
    .  .  .  .  .  .  .
    .  .  .  .  .  .  .
    .  .  R2 B1 .  .  .
    .  B3 .  .  .  .  .
    .  .  .  .  .  .  .
    .  .  R2 .  .  .  .
    .  .  .  .  .  .  .
"""


def test_a_connected_satellite_never_lands_next_to_a_connected_one_of_its_colour():
    s = pos(SAME)
    # R2 from c6 to c4 connects to B3 on b4 and touches R2 on c3, connected to B1
    assert why(s, "c6-c4") == (
        "R2 on c4 and R2 on c3 would both be connected and touch; two connected satellites of "
        "one colour may never be orthogonally adjacent")
    assert "c6-c4+" not in legal(s)


def test_it_may_land_next_to_an_unconnected_one_of_its_colour():
    s = pos(SAME.replace("B1", ". "))  # c3 is no longer connected
    assert why(s, "c6-c4") is None


def test_a_newly_connected_opponent_may_not_touch_a_connected_satellite_of_its_colour():
    # R2 from f5 to d5 (2 cells) connects B1 on d4, which touches B2 on e4, connected to R3
    # on f4; R2 itself starts unconnected (f4 above it is red)
    s = pos("""
        .  .  .  .  .  .  .
        .  .  .  .  .  .  .
        .  .  .  .  .  .  .
        .  .  .  B1 B2 R3 .
        .  .  .  .  .  R2 .
        .  .  .  .  .  .  .
        .  .  .  .  .  .  .
    """)
    assert why(s, "f5-d5") == (
        "B1 on d4 and B2 on e4 would both be connected and touch; two connected satellites of "
        "one colour may never be orthogonally adjacent")
    s2 = pos("""
        .  .  .  .  .  .  .
        .  .  .  .  .  .  .
        .  .  .  .  .  .  .
        .  .  .  B1 B2 .  .
        .  .  .  .  .  R2 .
        .  .  .  .  .  .  .
        .  .  .  .  .  .  .
    """)
    assert why(s2, "f5-d5") is None  # B2 is not connected: nothing touches


# --- groups: never more than 6, colonies never merge --------------------------------------------


def test_a_group_may_grow_to_6_but_not_to_7():
    # the colony c3-c4-c5 (B1 R1 B1) and the pair e4-e5 (R2 B2); B3 from d7 lands on d4
    # between R1 and R2
    six = pos("""
        .  .  .  .  .  .  .
        .  .  .  .  .  .  .
        .  .  B1 .  .  .  .
        .  .  R1 .  R2 .  .
        .  .  B1 .  B2 .  .
        .  .  .  .  .  .  .
        .  .  .  B3 .  .  .
    """, to_move=BLUE_SEAT)
    assert why(six, "d7-d4") is None  # 3 + 2 + 1 = 6: a crowned colony
    (colony,) = score(board_of(play(six, "d7-d4"))).groups
    assert colony.size == 6 and colony.crowned
    seven = pos("""
        .  .  .  .  .  .  .
        .  .  R3 .  .  .  .
        .  .  B1 .  .  .  .
        .  .  R1 .  R2 .  .
        .  .  B1 .  B2 .  .
        .  .  .  .  .  .  .
        .  .  .  B3 .  .  .
    """, to_move=BLUE_SEAT)
    assert why(seven, "d7-d4") == (
        "it would make a group of 7 (c2, c3, c4, d4, e4, c5, e5); a group holds at most 6 "
        "satellites")
    assert "d7-d4+" not in legal(seven)


def test_two_pairs_may_join_but_two_colonies_never_merge():
    pairs = pos("""
        .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .
        .  .  R1 .  R2 .  .  .
        .  .  B1 .  B2 .  .  .
        .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .
        .  .  .  B4 .  .  .  .
    """, to_move=BLUE_SEAT)
    assert why(pairs, "d8-d4") is None  # two pairs and the mover: a colony of 5
    colonies = pos("""
        .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .
        .  .  R1 .  R2 .  .  .
        .  .  B1 .  B2 .  .  .
        .  .  R3 .  R4 .  .  .
        .  .  .  .  .  .  .  .
        .  .  .  B4 .  .  .  .
    """, to_move=BLUE_SEAT)
    assert why(colonies, "d8-d4") == (
        "it would join the colonies on c4, c5, c6 and on e4, e5, e6; two colonies may never "
        "merge")
    assert "d8-d4+" not in legal(colonies)


# --- displacement ---------------------------------------------------------------------------

# R2 on d5 and B3 on d6 are a connected pair; B1 on e6 is unconnected (it touches only
# blue) and sits diagonally next to R2; R3 on h6 is exactly 3 cells from e6.
DISPLACE = """
    .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .
    .  .  .  R2 .  .  .  .
    .  .  .  B3 B1 .  .  R3
    .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .
"""
PUSHES = {"e5", "e4", "f5", "g4", "f6", "g6", "f7", "g8", "e7", "e8", "d7", "c8", "c6", "c4"}


def test_displacement_pushes_the_satellite_up_to_2_cells_and_takes_its_place():
    s = pos(DISPLACE)
    options = {m for m in legal(s) if ">" in m}
    assert options == {f"h6-e6>{p}+" for p in PUSHES}
    after = play(s, "h6-e6>e8")
    board = board_of(after).to_text().split("\n")
    assert board[5].split() == [".", ".", ".", "B3", "R3", ".", ".", "."]
    assert board[7].split()[4] == "B1"
    result = score(board_of(after))
    assert result.valid
    assert [g.cell_names for g in result.groups] == [["d5", "d6", "e6"]]


def test_displacement_without_a_push_lists_where_the_satellite_may_go():
    reason = why(pos(DISPLACE), "h6-e6")
    assert reason == (
        "e6 is occupied by B1: to displace it, write where it goes, h6-e6>CELL with CELL one "
        "of c4, e4, g4, e5, f5, c6, f6, g6, d7, e7, f7, c8, e8, g8")
    assert set(reason.split("one of ")[1].split(", ")) == PUSHES


def test_the_push_goes_at_most_2_cells_in_a_straight_line_to_a_free_cell():
    s = pos(DISPLACE)
    assert why(s, "h6-e6>e3") == "e6 to e3 is 3 cells; the displaced B1 goes at most 2"
    assert why(s, "h6-e6>f8") == (
        "e6 to f8 is not a straight line; the displaced B1 goes along a row, a column or a "
        "diagonal")
    assert why(s, "h6-e6>d5") == "the displaced B1 cannot go to d5: it is occupied by R2"
    assert why(s, "h6-e6>c6") is None  # over B3: pushes jump like moves


def test_the_push_may_go_to_the_cell_the_mover_left():
    s = pos("""
        .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .
        .  .  .  R2 .  .  .  .
        .  .  .  B3 B1 .  .  .
        .  .  .  .  .  .  .  .
        .  .  .  .  .  .  R2 .
    """)
    # R2 from g8 to e6 (2 cells diagonally); B1 is pushed 2 cells back to g8, just left
    assert why(s, "g8-e6>g8") is None
    assert "g8-e6>g8+" in legal(s)


def test_no_displacement_of_a_connected_satellite():
    s = pos(DISPLACE.replace("B1 .  .  R3", "B1 R1 .  R3"))
    assert why(s, "h6-e6>e8") == (
        "e6 is occupied by B1, which is connected; a move never ends on an occupied cell, and "
        "only an unconnected satellite can be displaced")


def test_no_displacement_away_from_the_movers_connected_satellites():
    s = pos(DISPLACE.replace("R2", ". "))
    assert why(s, "h6-e6>e8") == (
        "e6 is occupied by B1; a move never ends on an occupied cell, and B1 cannot be "
        "displaced because e6 is not next to a connected red satellite")


def test_a_displacement_is_a_connection_move_of_exactly_the_value():
    s = pos(DISPLACE.replace("B1 .  .  R3", "B1 .  R3 ."))
    assert why(s, "g6-e6>e8") == (
        "e6 is occupied by B1; a displacement is a connection move and goes exactly 3 cells "
        "(R3's value), this one goes 2")


def test_a_displacement_must_extend_a_colony():
    # on e6 the mover would only pair with B4 on e7: a group of 2, no colony
    s = pos("""
        .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .
        .  .  B3 R2 .  .  .  .
        .  .  .  .  B1 .  .  R3
        .  .  .  .  B4 .  .  .
        .  .  .  .  .  .  .  .
    """)
    assert why(s, "h6-e6>g4") == (
        "a displacement must leave the moving satellite in a group of 3 or more (it is allowed "
        "only where it could extend a colony: rule S-33); R3 on e6 would be in a group of 2, not "
        "counting the pushed satellite")
    assert not any(">" in m for m in legal(s))


def test_the_pushed_satellite_does_not_count_towards_the_colony():
    # on e6 the mover touches no blue satellite; pushed to e5 or d6, B1 would touch it and
    # R2, but that does not make the displacement legal
    alone = pos("""
        .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .
        .  .  B3 R2 .  .  .  .
        .  .  .  .  B1 .  .  R3
        .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .
    """)
    assert why(alone, "h6-e6>e5") == (
        "a displacement must connect the moving satellite where it lands, but R3 on e6 would "
        "touch no blue satellite there (the pushed one does not count; rule S-33)")
    assert not any(">" in m for m in legal(alone))


def test_a_push_that_would_break_a_rule_is_not_an_option():
    # pushed to f5, B1 would touch R4 on f4 and become connected next to B2 on g5, which
    # is connected to R1 on h5
    s = pos("""
        .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  R3
        .  .  .  .  .  R4 .  .
        .  .  .  R2 .  .  B2 R1
        .  .  .  B3 B1 .  .  .
        .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .
    """)
    assert why(s, "h3-e6>e8") is None
    assert why(s, "h3-e6>f5") == (
        "B1 on f5 and B2 on g5 would both be connected and touch; two connected satellites of "
        "one colour may never be orthogonally adjacent")
    assert "h3-e6>e8+" in legal(s)
    assert "h3-e6>f5+" not in legal(s)


# --- the end of the game -----------------------------------------------------------------------

# 11 connected pairs (22 connected); red R4 on a9 and blue B4 on j10 are unconnected
TWENTY_TWO = """
    .  .  .  .  .  .  .  .  .  .
    .  R1 B1 .  R2 B2 .  R3 B3 .
    .  .  .  .  .  .  .  .  .  .
    .  R4 B4 .  R1 B1 .  R2 B2 .
    .  .  .  .  .  .  .  .  .  .
    .  R3 B3 .  R4 B4 .  R1 B1 .
    .  .  .  .  .  .  .  .  .  .
    R2 B2 .  R3 B3 .  .  .  .  .
    R4 .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .  B4
"""


def test_23_connected_end_the_game_at_once():
    s = pos(TWENTY_TWO)
    assert not is_over(s)
    after = play(s, "a9-e9")  # joins the pair d8-e8: 23 connected
    assert end_reason(after) == END_CONNECTED
    assert legal_actions(after) == []
    assert why(after, "j10-j9") == (
        "the game is already over (23 satellites are connected, and the game ends at once at "
        "23)")
    result = score(board_of(after), after.grace_moves_left)
    assert result.end.over is True and result.valid


def test_22_connected_do_not_end_the_game():
    after = play(pos(TWENTY_TWO), "a9-a10")
    assert not is_over(after) and after.to_move == BLUE_SEAT


# red: 11 connected (five R-B-R chains and a pair), R4 on i9 unconnected; blue: 6 connected
ELEVEN = """
    .  .  .  .  .  .  .  .  .  .
    .  R1 B1 R1 .  R2 B2 R2 .  .
    .  .  .  .  .  .  .  .  .  .
    .  R3 B3 R3 .  R4 B4 R4 .  .
    .  .  .  .  .  .  .  .  .  .
    .  R1 B2 R2 .  R3 B1 .  .  B3
    B2 .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .  B4
    B1 .  .  .  .  .  .  .  R4 .
    .  .  B3 .  B4 .  .  .  .  .
"""


def test_a_player_with_all_12_connected_is_done_and_the_other_gets_3_grace_moves():
    s = play(pos(ELEVEN), "i9-e9")  # R4 connects to B4 on e10: red has all 12 connected
    assert (s.finished, s.to_move, s.grace_left) == (RED_SEAT, BLUE_SEAT, 3)
    assert not is_over(s)
    assert why(s, "a9-a10") is None  # blue moves
    assert why(s, "e9-e8") == (
        "red has all 12 satellites connected and moves no more (rule S-40); blue is making its "
        "grace moves (3 left)")
    s = play(s, "a9-a10")
    assert (s.to_move, s.grace_left, is_over(s)) == (BLUE_SEAT, 2, False)
    s = play(s, "a10-a9")
    assert (s.to_move, s.grace_left, is_over(s)) == (BLUE_SEAT, 1, False)
    assert end_message(s) == (
        "red has all 12 satellites connected; blue to move, 1 grace move left")
    s = play(s, "a9-a10")
    assert end_reason(s) == END_GRACE
    assert why(s, "a10-a9") == (
        "the game is already over (red has all 12 satellites connected and blue has made its 3 "
        "grace moves)")
    result = score(board_of(s), s.grace_moves_left)
    assert (result.end.over, result.end.reason) == (True, "grace-moves-used")


def test_grace_moves_after_the_opponent_completes_the_12():
    # blue to move; R4 on f9 is red's last unconnected satellite, B4 on j10 goes next to it
    s = pos(ELEVEN.replace("B1 .  .  .  .  .  .  .  R4 .", "B1 .  .  .  .  R4 .  .  .  .")
            .replace(".  .  B3 .  B4 .  .  .  .  .", ".  .  B3 .  .  .  .  .  .  B4"),
            to_move=BLUE_SEAT)
    assert s.finished is None
    s = play(s, "j10-f10")  # 4 cells west, under R4: red's 12th connection, made by blue
    assert (s.finished, s.to_move, s.grace_left) == (RED_SEAT, BLUE_SEAT, 3)
    s = play(s, "a9-a10", "a10-a9")
    assert (s.to_move, s.grace_left, is_over(s)) == (BLUE_SEAT, 1, False)
    assert end_reason(play(s, "a9-a10")) == END_GRACE


def test_the_end_count_and_the_grace_moves_are_decided_in_one_place():
    """end_after (S-37 to S-40), which the engine's moves, its set-up positions and the
    scorer all ask: 23 connected end the game at once, even during the grace moves; a
    player with all 12 connected leaves the other 3 grace moves; each grace move uses one,
    and the last ends the game."""
    from rules.satellites.analysis import Ending, end_after

    assert end_after(RULES, 11, 11) == Ending(None, 0, None)
    assert end_after(RULES, 10, 12) == Ending(BLUE_SEAT, 3, None)
    assert end_after(RULES, 12, 10) == Ending(RED_SEAT, 3, None)
    assert end_after(RULES, 12, 11) == Ending(None, 0, END_CONNECTED)
    # red done, blue's grace moves: each one counts, the last ends the game
    assert end_after(RULES, 12, 10, RED_SEAT, 3) == Ending(RED_SEAT, 2, None)
    assert end_after(RULES, 12, 10, RED_SEAT, 1) == Ending(RED_SEAT, 0, END_GRACE)
    # a grace move that connects the 23rd: the end count, the grace moves as they were
    assert end_after(RULES, 12, 11, RED_SEAT, 2) == Ending(RED_SEAT, 2, END_CONNECTED)
    # a position set up in the middle of the grace moves, or at their end
    assert end_after(RULES, 12, 5, grace=1) == Ending(RED_SEAT, 1, None)
    assert end_after(RULES, 12, 5, grace=0) == Ending(RED_SEAT, 0, END_GRACE)


# --- passing, and games nobody can continue ------------------------------------------------

STUCK = """
    .  .  .  .  .
    .  .  .  .  .
    .  .  R1 .  .
    .  .  B1 .  .
    B2 .  .  .  .
"""


def test_a_player_with_no_legal_move_passes_and_only_then():
    s = pos(STUCK)  # red's only satellite is connected
    assert legal_actions(s) == [] and not is_over(s)
    assert end_message(s) == "red to move, and red has no legal move, so red must pass"
    assert check_written(s, parse_move("pass")) == PASS
    s = play(s, "pass")
    assert s.to_move == BLUE_SEAT
    assert why(s, "pass") == ("blue may pass only with no legal move (rule S-36), and blue has "
                              "5 legal moves")


def test_the_game_ends_when_neither_player_can_move():
    s = pos(STUCK.replace("B2", ". "))
    assert end_reason(s) == END_BLOCKED
    assert end_message(s) == "neither player has a legal move"


def test_a_pass_is_a_grace_move():
    # the turn logic alone: red is done (as if all 12 were connected) and blue, whose only
    # satellite is locked, has no legal move during its grace moves
    grace = pos("""
        .  .  .  .  .
        .  .  .  .  .
        .  .  R1 .  .
        .  .  B1 .  .
        .  .  .  .  .
    """)._replace(to_move=BLUE_SEAT, finished=RED_SEAT, grace_left=3)
    assert legal_actions(grace) == [] and not is_over(grace)  # blue must pass, not the end
    after = play(grace, "pass")
    assert (after.to_move, after.grace_left) == (BLUE_SEAT, 2)
    assert end_reason(play(after, "pass", "pass")) == END_GRACE


def test_every_edge_holding_a_connected_satellite_ends_the_game():
    # only from a given position: in play the last connection always leaves an edge empty
    locked = pos("""
        R1 B1 .  .  .
        .  .  .  .  .
        .  .  R2 .  .
        .  .  .  .  B2
        .  .  .  .  R3
    """)
    assert end_reason(locked) == END_LOCKED
    assert end_message(locked) == (
        "every edge holds a connected satellite (north R1 on a1, south R3 on e5, west R1 on a1, "
        "east B2 on e4), so no "
        "edge can be empty again, no connection can be made and the score cannot change")
    open_edge = pos("""
        R1 B1 .  .  .
        .  .  .  .  .
        .  .  R2 .  .
        .  .  .  .  .
        .  .  .  .  .
    """)
    assert not is_over(open_edge)


# --- a game that is stuck (S-62) -----------------------------------------------------------

# red's R1 on c1 and blue's B1 on c5 can only wander: no move connects for a long while
WANDER = """
    .  .  R1 .  .
    .  .  .  .  .
    .  .  .  .  .
    .  .  .  .  .
    .  .  B1 .  .
"""


def test_moves_that_connect_nothing_end_the_game_at_the_count():
    import dataclasses

    rules = dataclasses.replace(RULES, stall_moves=4)
    board = Board.from_tokens([line.split() for line in WANDER.strip().splitlines()])
    s = start(rules, board.width, board.cells())
    s = play(s, "c1-b1", "c5-b5", "b1-a1")
    assert (s.quiet, end_reason(s)) == (3, None)
    s = play(s, "b5-a5")
    assert (s.quiet, end_reason(s)) == (4, END_STALLED)
    assert end_message(s) == ("4 moves in a row connected no satellite, so the game ends as "
                              "the board stands (rule S-62)")
    assert why(s, "a1-b1").startswith("the game is already over (4 moves in a row")


def test_a_connection_starts_the_count_again():
    import dataclasses

    rules = dataclasses.replace(RULES, stall_moves=3)
    board = Board.from_tokens([line.split() for line in WANDER.strip().splitlines()])
    s = start(rules, board.width, board.cells())
    s = play(s, "c1-c2", "c5-c4")  # blue lands below nothing yet: two quiet moves
    assert s.quiet == 2 and not is_over(s)
    s = play(s, "c2-c3")  # red ends next to blue: a connection, the count starts again
    assert s.conn and s.quiet == 0 and s.ended is None
    assert end_reason(s) == END_BLOCKED  # both satellites locked now: S-41, not S-62


def test_the_count_travels_with_the_state():
    s = play(deal(RULES, 42), "c1-c2")
    assert s.quiet == 1
    again = decode(RULES, encode(s))
    assert again == s and again.quiet == 1
    old = encode(s)
    format_1 = bytes([1]) + old[1:6] + old[8:]  # before S-62: no count, read as 0
    assert decode(RULES, format_1) == s._replace(quiet=0)


def test_the_stuck_random_game_of_the_issue_now_ends():
    """Game 11,222 of a random run seeded 1 stopped connecting at move 733 with 22
    connected: every colony within reach of the two free satellites is crowned. It used
    to run into the simulator's 100,000-move limit; now S-62 ends it 1,000 moves later."""
    import random

    from rules.satellites.legal import random_action
    from sim.play import game_seed

    seed = game_seed(1, 2, 11222)
    s = deal(RULES, seed)
    rngs = [random.Random(seed * 8 + k + 1) for k in range(2)]
    moves = 0
    while s.ended is None and moves < 5000:
        s = apply(s, random_action(s, rngs[s.to_move]))
        moves += 1
    assert (end_reason(s), moves, s.conn.bit_count()) == (END_STALLED, 733 + 1000, 22)


# --- the notation ------------------------------------------------------------------------------


@pytest.mark.parametrize("text, parts", [
    ("c1-c4", ((0, 2), (3, 2), None, False)),
    ("C1-C4+", ((0, 2), (3, 2), None, True)),
    (" d5 - d6 > d8 ", ((4, 3), (5, 3), (7, 3), False)),
    ("d5-d6>d8+", ((4, 3), (5, 3), (7, 3), True)),
    ("j10\u2013j7", ((9, 9), (6, 9), None, False)),
])
def test_notation_reads_moves(text, parts):
    w = parse_move(text)
    assert (w.frm, w.to, w.push, w.plus) == parts


@pytest.mark.parametrize("text", ["c1c4", "c1-", "c1-c4>", "c1-c4++", "1c-4c", "move", "c1-c4-c5",
                                  ""])
def test_notation_refuses_what_is_not_a_move(text):
    with pytest.raises(NotationError) as exc:
        parse_move(text)
    assert "is not a move: write FROM-TO (c1-c4)" in str(exc.value)


def test_pass_is_a_move_word():
    assert parse_move("pass").is_pass and parse_move(" PASS ").is_pass


def test_notation_round_trips_every_legal_move():
    s = pos(DISPLACE)
    for move in legal_actions(s):
        text = action_text(s, move)
        assert check_written(s, parse_move(text)) == move


def test_geometry_names_cells_like_the_scorer():
    geo = table(10)
    assert geo.names[0] == "a1" and geo.names[9] == "j1" and geo.names[99] == "j10"
    assert geo.index(2, 3) == 23 and geo.index(10, 0) is None
