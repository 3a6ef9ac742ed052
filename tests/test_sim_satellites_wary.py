"""The ``wary`` Satellites bot's look against a bounded opponent
(:mod:`sim.satellites_bounded`): its values worked out by hand on a tiny position, and its
move in a position of a game ``tactics:16`` lost on fresh seeds."""

from __future__ import annotations

import random

import pytest
from satellites_positions import bot_turn

import rules
from rules.satellites.engine import State, apply
from rules.satellites.legal import quiet_and_loud
from sim.bots import TacticalBot, make_bot, parse_spec
from sim.satellites_bounded import Bounded, gaining, spread, wary_moves
from sim.satellites_search import WIN, grace_best, static
from testkit.satellites_positions import SEED2_GAME_8, position


def tiny(**at: str) -> State:
    """A board holding only the satellites given (cell name: token), blue to move."""
    cells = ["."] * 100
    for name, token in at.items():
        cells[(int(name[1:]) - 1) * 10 + ord(name[0]) - ord("a")] = token
    return position("\n".join(" ".join(cells[r * 10:r * 10 + 10]) for r in range(10)), 1)


def texts(state: State, moves) -> set[str]:
    game = rules.get("satellites")
    return {game.action_text(state, a) for a in moves}


# red's R2 on e5 and blue's B1 on f5 are a pair; blue's B4 is free. Blue gains when its B4
# lands, exactly 4 cells on, orthogonally next to R2 (d5, e4 or e6): the colony R2 B1 B4 is
# blue's, 5 against 2. Red has nothing to move: as if red were done and blue had grace moves.
def test_the_opponent_gains_only_by_a_connection_that_wins_it_a_colony():
    state = tiny(e5="R2", f5="B1", h5="B4")
    assert texts(state, (a for a, _ in gaining(state))) == {"h5-d5+"}
    assert gaining(tiny(e5="R2", f5="B1", h2="B4")) == []


def test_the_last_grace_move_takes_a_gaining_connection_else_the_board_is_scored():
    bot = Bounded(0)
    # a gaining connection is surely played: red, with no colony, loses
    assert bot.value(tiny(e5="R2", f5="B1", h5="B4")._replace(finished=0, grace_left=1),
                     3) == -1.0
    # none: the board is scored as it stands, no colony either side, a draw
    assert bot.value(tiny(e5="R2", f5="B1", h2="B4")._replace(finished=0, grace_left=1),
                     3) == 0.0


def test_two_grace_moves_weigh_the_quiet_first_moves_alike():
    """From h2 the B4 has 18 quiet moves (h1; h3-h6; i2, j2; d2-g2; i1; g1; i3, j4; g3, f4
    and d6 over R2), none a connection. From 4 of them a connection of exactly 4 gains
    (h1-d5+, h5-d5+, i2-e6+, e2-e6+); from the other 14 none, and the board is scored a
    draw. So red, done, expects 4/18 of a loss."""
    state = tiny(e5="R2", f5="B1", h2="B4")._replace(finished=0, grace_left=2)
    quiet, loud = quiet_and_loud(state)
    assert (len(quiet), loud) == (18, [])
    set_up = {m for m in texts(state, quiet)
              if gaining(apply(state, rules.get("satellites").parse_action(state, m)))}
    assert set_up == {"h2-h1", "h2-h5", "h2-i2", "h2-e2"}
    assert Bounded(0).value(state, 3) == pytest.approx(-4 / 18)
    # a perfect blue sets the connection up and wins: the exact grace search says so
    assert grace_best(state) == WIN
    # weighed on 9 evenly spread quiet moves, the estimate is of those 9
    assert spread(list(range(18)), 9) == [0, 2, 4, 6, 8, 10, 12, 14, 16]


def test_a_quiet_opponent_leaves_the_position_as_it_stands():
    # blue to move, no gaining connection: the look stops at the evaluation
    state = tiny(e5="R2", f5="B1", h2="B4")
    assert Bounded(0).value(state, 3) == static(state, 0)
    # with one: the worst for red of blue's gaining connections, then red's best answer
    state = tiny(e5="R2", f5="B1", h5="B4")
    after = apply(state, rules.get("satellites").parse_action(state, "h5-d5+"))
    assert Bounded(0).value(state, 1) == static(after, 0)


def test_wary_hands_over_the_grace_moves_tactics_refused_in_a_fresh_seed_loss():
    """Seed-2 game 8, move 464: red (tactics:16) shuffled its last free satellite, R4 on f3,
    rather than connect it with f3-b3+, after which a perfect blue wins with its three grace
    moves; greedy won the game ten moves later. Against a blue who sees one move ahead,
    none of the grace moves finds a gain: ``wary`` connects."""
    game = rules.get("satellites")
    state = position(SEED2_GAME_8, 0)
    move = game.parse_action(state, "f3-b3+")
    after = apply(state, move)
    assert (after.finished, after.grace_left, after.to_move) == (0, 3, 1)
    assert grace_best(after) == WIN  # a perfect blue wins
    assert Bounded(0).value(after, 3) == 1.0  # a blue seeing one move ahead never gains
    assert wary_moves(state, list(game.legal_actions(state))) == [move]
    tactics = {make_bot("tactics:16").choose(bot_turn(state), random.Random(k))
               for k in range(4)}
    assert move not in tactics
    assert {make_bot("wary:16").choose(bot_turn(state), random.Random(k))
            for k in range(8)} == {move}


def test_wary_is_named_and_budgeted_like_tactics():
    assert parse_spec("wary:16").text() == "wary:16"
    bot = make_bot("wary:16")
    assert isinstance(bot, TacticalBot) and bot.wary and bot.name == "wary"
