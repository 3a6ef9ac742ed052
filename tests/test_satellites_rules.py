"""The rules page, point by point, on small boards written out in the tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorer.satellites.board import Board, cell_name, column_name, parse_cell, read_input
from scorer.satellites.score import score

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "satellites"


def board(text: str) -> Board:
    return Board.from_tokens([line.split() for line in text.strip().splitlines()])


def fixture(name: str):
    t = read_input(FIXTURES / name)
    return score(t.board, t.grace_moves_left, t.problems)


def groups(result) -> dict[str, tuple]:
    return {g.label: (g.cell_names, g.red, g.blue, g.controller, g.crowned) for g in result.groups}


# --- connections and groups -----------------------------------------------------------


def test_only_orthogonal_different_colours_connect():
    r = score(board("""
        R1 B1 .  .  .
        .  .  B2 .  .
        .  R2 .  R3 R4
        .  .  .  .  .
        .  .  .  .  .
    """))
    # a1-b1 connect; c2 touches b1 and b3 only diagonally; d3 and e3 are both red
    assert groups(r) == {"a": (["a1", "b1"], 1, 1, None, False)}
    assert r.connected == {"red": 1, "blue": 1}


def test_a_group_is_the_whole_chain_of_connections():
    r = score(board("""
        R1 B1 R2 B2 .
        .  .  .  .  .
        .  .  .  .  .
        .  .  .  .  .
        .  .  .  .  .
    """))
    (g,) = r.groups
    assert g.cell_names == ["a1", "b1", "c1", "d1"]
    assert (g.size, g.colony, g.red, g.blue, g.controller) == (4, True, 3, 3, None)
    assert g.contested


def test_pair_is_not_a_colony_and_has_no_controller():
    r = fixture("pairs_no_colony.txt")
    assert [g.size for g in r.groups] == [2, 2, 2]
    assert all(not g.colony and g.controller is None and not g.contested for g in r.groups)
    assert r.colonies == {"red": 0, "blue": 0}
    assert r.winner is None and r.tiebreak
    assert r.decision == "neither player controls a colony, so the game is a draw"
    # the lone R2 (a10) and B3 (j10) are not connected
    assert r.connected == {"red": 3, "blue": 3}


def test_control_is_the_greater_total_not_the_greater_count():
    # two red satellites worth 2 against one blue worth 4: blue controls
    r = score(board("""
        R1 B4 R1 .  .
        .  .  .  .  .
        .  .  .  .  .
        .  .  .  .  .
        .  .  .  .  .
    """))
    (g,) = r.groups
    assert (g.red, g.blue, g.controller) == (2, 4, "blue")


def test_contested_colony():
    r = fixture("contested.txt")
    assert groups(r) == {
        "A": (["c3", "d3", "e3"], 3, 3, None, False),
        "B": (["h7", "i7", "h8"], 4, 3, "red", False),
    }
    assert r.groups[0].contested
    assert r.colonies == {"red": 1, "blue": 0}
    assert (r.winner, r.tiebreak) == ("red", False)


def test_crowned_colony():
    r = fixture("crowned.txt")
    a = r.groups[0]
    assert a.cell_names == ["e3", "e4", "d5", "e5", "f5", "e6"]
    assert (a.size, a.crowned, a.red, a.blue, a.controller) == (6, True, 5, 6, "blue")
    assert not r.groups[1].crowned and not r.groups[1].colony
    assert r.winner == "blue"
    assert r.valid


# --- winner and tie-break -------------------------------------------------------------


def test_tie_decided_by_the_lowest_controlled_colony():
    r = fixture("tie_lowest_colony.txt")
    assert groups(r) == {
        "A": (["c2", "d2", "c3"], 1, 3, "blue", False),
        "B": (["h2", "i2", "h3"], 4, 2, "red", False),
        "C": (["c8", "d8", "e8"], 5, 2, "red", False),
        "D": (["h8", "i8", "h9"], 2, 4, "blue", False),
    }
    assert r.colonies == {"red": 2, "blue": 2}
    assert r.lowest == {"red": 6, "blue": 4}
    assert (r.winner, r.tiebreak) == ("blue", True)


def test_tie_with_equal_lowest_colonies_is_a_draw():
    r = fixture("tie_draw.txt")
    assert r.colonies == {"red": 1, "blue": 1}
    assert r.lowest == {"red": 5, "blue": 5}
    assert (r.winner, r.tiebreak) == (None, True)


def test_lowest_counts_both_colours_in_the_colony():
    # red's colony: red 4 + blue 3 = 7; blue's colony: blue 4 + red 2 = 6 -> blue wins,
    # although red's own share (4) is the same as blue's (4)
    r = score(board("""
        R4 B1 .  .  .  .
        B2 .  .  .  .  .
        .  .  .  .  .  .
        .  .  .  B4 R1 .
        .  .  .  R1 .  .
        .  .  .  .  .  .
    """))
    assert [(g.controller, g.total) for g in r.groups] == [("red", 7), ("blue", 6)]
    assert (r.winner, r.tiebreak) == ("blue", True)


def test_more_colonies_wins_even_with_higher_totals():
    r = fixture("end_23_connected.txt")
    assert r.colonies == {"red": 2, "blue": 1}
    assert (r.winner, r.tiebreak) == ("red", False)


# --- end of the game ------------------------------------------------------------------


def test_23_connected_ends_the_game():
    r = fixture("end_23_connected.txt")
    assert r.connected == {"red": 12, "blue": 11}
    assert (r.end.connected, r.end.over, r.end.reason) == (23, True, "23-connected")
    crowned = [g.label for g in r.groups if g.crowned]
    assert crowned == ["A", "B", "C"]
    assert r.groups[2].contested


def test_22_connected_does_not_end_the_game():
    r = fixture("all_12_grace.yaml")
    assert r.end.connected == 22
    assert r.end.over is False


@pytest.mark.parametrize(("name", "grace", "over", "reason"), [
    ("all_12_grace.yaml", 2, False, None),
    ("all_12_grace_used.yaml", 0, True, "grace-moves-used"),
    ("all_12_grace_unknown.yaml", None, None, None),
])
def test_player_with_all_12_connected_gives_grace_moves(name, grace, over, reason):
    r = fixture(name)
    assert r.connected == {"red": 12, "blue": 10}
    assert r.end.finished == ("red",)
    assert r.end.grace_player == "blue"
    assert r.end.grace_moves_left == grace
    assert (r.end.over, r.end.reason) == (over, reason)
    assert r.valid


# --- violations -----------------------------------------------------------------------


def rules(result) -> list[tuple[str, str | None]]:
    return [(v.rule, v.cell) for v in result.violations]


def test_same_colour_connected_neighbours():
    r = fixture("violation_same_colour_adjacent.txt")
    assert rules(r) == [("same-colour-adjacent", "c3"), ("same-colour-adjacent", "d3")]
    assert r.violations[0].message == (
        "c3 and c4 are both connected red satellites and touch orthogonally; two connected "
        "satellites of one colour may never be adjacent"
    )


def test_unconnected_same_colour_neighbours_are_fine():
    r = score(board("""
        R1 R2 .  .  .
        .  .  .  .  .
        .  .  .  .  .
        .  .  .  .  .
        .  .  .  .  .
    """))
    assert r.valid


def test_group_of_more_than_six():
    r = fixture("violation_group_too_large.txt")
    assert rules(r) == [("group-too-large", "b5")]
    assert "has 7 satellites; a group may hold at most 6" in r.violations[0].message
    assert not r.groups[0].crowned


def test_more_than_three_of_a_value_and_twelve_of_a_colour():
    r = fixture("violation_too_many.txt")
    assert rules(r) == [("too-many-of-value", "j10"), ("too-many-of-colour", "j10")]
    assert r.violations[0].message == (
        "4 red satellites of value 4 (a7, c7, e7, j10); each player has only 3 of every value"
    )


def test_unknown_tokens_name_the_token_and_the_cell():
    r = fixture("violation_unknown_token.txt")
    assert rules(r) == [("unknown-token", "c2"), ("unknown-token", "e4"),
                        ("unknown-token", "e5")]
    assert r.violations[0].message == (
        "'R5' (line 3) is not a satellite: red satellites have values 1 to 4, so write "
        "R1, R2, R3 or R4"
    )
    assert r.violations[1].message == (
        "'X' (line 5) is not a token: write R1-R4 for a red satellite, B1-B4 for a blue one, "
        "or . for an empty cell"
    )
    # unknown tokens count as empty cells; the rest is still scored
    assert r.connected == {"red": 1, "blue": 1}


def test_ragged_rows():
    r = fixture("violation_ragged_rows.txt")
    assert rules(r) == [("ragged-rows", "f3"), ("ragged-rows", "g4")]
    assert r.violations[0].message.startswith("row 3 (line 4) has 5 cells but most rows have 6")


@pytest.mark.parametrize(("name", "rule", "message"), [
    ("violation_not_square.txt", "board-not-square",
     "the board has 6 rows of 7 cells; a Satellites board is square (as many rows as columns)"),
    ("violation_too_small.txt", "board-size",
     "the board has 4 rows of 4 cells; a Satellites board is square, from 5 x 5 to 26 x 26"),
    ("violation_too_big.txt", "board-size",
     "the board has 27 rows of 27 cells; a Satellites board is square, from 5 x 5 to 26 x 26"),
])
def test_board_shape(name, rule, message):
    r = fixture(name)
    assert [(v.rule, v.cell, v.message) for v in r.violations] == [(rule, None, message)]


def test_grace_moves_without_a_finished_player():
    r = fixture("violation_grace_without_finish.yaml")
    assert rules(r) == [("grace-moves", None)]


@pytest.mark.parametrize("size", [5, 26])
def test_smallest_and_largest_boards_are_valid(size):
    rows = [["."] * size for _ in range(size)]
    rows[0][0], rows[0][1] = "R1", "B1"
    r = score(Board.from_tokens(rows))
    assert r.valid and len(r.groups) == 1


# --- cell names -----------------------------------------------------------------------


def test_cell_names():
    assert cell_name(0, 0) == "a1"
    assert cell_name(9, 2) == "c10"
    assert column_name(25) == "z"
    assert column_name(26) == "aa"
    for r, c in [(0, 0), (25, 25), (3, 27), (99, 51)]:
        assert parse_cell(cell_name(r, c)) == (r, c)
    assert parse_cell("3c") is None


def test_long_cell_lists_are_shortened_in_messages():
    n = 8
    rows = [[("R" if (r + c) % 2 == 0 else "B") + "1" for c in range(n)] for r in range(n)]
    r = score(Board.from_tokens(rows))
    big = next(v for v in r.violations if v.rule == "group-too-large")
    assert big.message.startswith("group A (a1, b1, c1, d1, e1, f1, g1, h1 and 56 more) has 64 ")
    value = next(v for v in r.violations if v.rule == "too-many-of-value")
    assert value.message == ("32 red satellites of value 1 (a1, c1, e1, g1, b2, d2, f2, h2 and 24 "
                             "more); each player has only 3 of every value")
    assert value.cell == "g1"  # the 4th in reading order
