"""The ``closer`` Satellites bot's end of the game (:mod:`sim.satellites_close`): plays of the
rollout policy from each move, shared seeds, the race that drops the worse moves, where
it applies, and a position of a game ``tactics:16`` lost on fresh seeds by refusing to
hand over the grace moves."""

from __future__ import annotations

import random

import pytest
from satellites_positions import bot_turn

import rules
import sim.satellites_close as close
from cards.ruleset_cache import load_ruleset
from rules.satellites.engine import apply, connects
from sim.bots import TacticalBot, make_bot, parse_spec
from sim.satellites import SIM as SATELLITES
from sim.satellites_close import (
    applies,
    closing_moves,
    handing_over,
    play_out,
    play_values,
    plays_for,
)
from sim.satellites_endgame import free
from sim.satellites_search import WIN, grace_best, outcome, sure_moves
from testkit.satellites_positions import (
    GAME_102,
    SEED2_GAME_21,
    SEED2_GAME_152,
    SEED4_GAME_10,
    position,
)

GREEDY = SATELLITES.rollout_moves


def test_a_play_from_a_finished_game_is_its_result():
    game = rules.get("satellites")
    state = position(SEED2_GAME_21, 1)
    after = apply(state, game.parse_action(state, "b4-d6+"))
    assert (after.finished, after.to_move, after.grace_left) == (1, 0, 3)
    # red's three grace moves, greedy's, then the board: a win for one side, the other's loss
    for seed in range(6):
        red = play_out(after, 0, random.Random(seed), GREEDY)
        assert red == -play_out(after, 1, random.Random(seed), GREEDY)
    ended = apply(after, game.parse_action(after, "i3-i2"))
    for _ in range(2):
        ended = apply(ended, next(iter(game.legal_actions(ended))))
    assert ended.ended == "grace-moves-used"
    won = 1 if game.result(ended).winners == (1,) else -1 if game.result(ended).winners else 0
    assert play_out(ended, 1, random.Random(0), GREEDY) == won


def test_a_play_where_nobody_can_move_is_the_board_as_it_stands():
    """Neither player able to move (S-41): the rules core lists no move at all, and the
    play ends there. Before, a play took the first of no moves: the seed-4 run of
    ``closer:16`` against greedy stopped in game 105 with an IndexError, which only that
    can raise in the plays."""
    state = position(SEED2_GAME_21, 1)
    assert play_out(state, 1, random.Random(0), lambda s: []) == -outcome(state)


def test_the_plays_share_their_seeds_and_the_race_keeps_the_better_half():
    """Eight plays a move: two for every move, two more for the better half, the last four
    for the better half of those; each total is the sum of plays seeded from the same
    draws of the bot's generator, whatever the move."""
    game = rules.get("satellites")
    state = position(SEED2_GAME_21, 1)
    legal = sure_moves(state, list(game.legal_actions(state)))
    assert len(legal) == 9
    seeds_rng = random.Random(5)
    seeds = [seeds_rng.getrandbits(63) for _ in range(8)]
    plays = {a: [play_out(apply(state, a), 1, random.Random(s), GREEDY) for s in seeds]
             for a in legal}

    def better_half(moves: list[int], upto: int) -> list[int]:
        totals = {a: sum(plays[a][:upto]) for a in moves}
        cut = sorted(totals.values(), reverse=True)[(len(moves) + 1) // 2 - 1]
        return [a for a in moves if totals[a] >= cut]

    racing = better_half(better_half(legal, 2), 4) if len(better_half(legal, 2)) > 2 \
        else better_half(legal, 2)
    got = play_values(state, legal, random.Random(5), GREEDY, plays=8)
    assert [a for _, a in got] == racing
    assert [v for v, _ in got] == [sum(plays[a]) / 8 for a in racing]
    assert 1 <= len(racing) < len(legal)


def test_the_plays_judge_from_three_to_ten_free_satellites_fewer_in_the_middle_game(
        monkeypatch):
    """16 plays a move from three to six free satellites, 8 from seven to ten, none with
    more free (the search alone) or fewer (solved exactly)."""
    game = rules.get("satellites")
    few = position(GAME_102, 0)  # two free: solved exactly, not played out
    assert free(few) == 2 and not applies(few) and plays_for(few) == 0
    legal = list(game.legal_actions(few))
    assert closing_moves(few, legal, legal[:3], random.Random(0), GREEDY) == legal[:3]
    many = game.new_game(load_ruleset("satellites"), ("R", "B"), 11)
    assert free(many) == 24 and not applies(many) and plays_for(many) == 0
    six = position(SEED2_GAME_152, 0)
    assert free(six) == 6 and applies(six) and plays_for(six) == 16
    state = position(SEED2_GAME_21, 1)
    assert free(state) == 5 and plays_for(state) == 16
    middle = position(SEED4_GAME_10, 0)
    assert free(middle) == 8 and applies(middle) and plays_for(middle) == 8
    monkeypatch.setattr(close, "MID_MOST", 7)  # eight free: above the middle game's band
    assert not applies(middle) and plays_for(middle) == 0


def test_closer_plays_the_middle_game_out_where_the_search_alone_shuffled(monkeypatch):
    """Seed-4 game 10, move 64: red (``closer:16``) behind with eight free. Before the
    middle game was played out, the bot chose among every move that does not lose at once
    by the search alone and mostly shuffled its R3 on b3 (b3-a4 in the game, lost 20
    moves later); now the plays keep the few moves that end best and it moves f9 on or
    connects c9. Played out 200 times with greedy's moves for both sides, b3-a4 wins 32,
    f9-e8 66."""
    game = rules.get("satellites")
    state = position(SEED4_GAME_10, 0)
    assert free(state) == 8 and outcome(state) == -1

    def chosen() -> list[str]:
        return [game.action_text(state, make_bot("closer:16").choose(bot_turn(state),
                                                                     random.Random(k)))
                for k in range(6)]
    assert chosen() == ["f9-e8", "f9-i9", "c9-c8+", "c9-c8+", "f9-d9", "c9-b8+"]
    text = {game.action_text(state, a): a for a in game.legal_actions(state)}
    won = {move: sum(play_out(apply(state, text[move]), 0, random.Random(k), GREEDY) > 0
                     for k in range(200)) for move in ("b3-a4", "f9-e8")}
    assert won == {"b3-a4": 32, "f9-e8": 66}
    monkeypatch.setattr(close, "MID_MOST", close.FREE_MOST)  # the search alone, as before
    assert chosen() == ["b3-b4", "b3-b4", "c9-d8", "b3-b1", "b3-d1", "c9-d8"]


def test_closer_hands_over_the_grace_moves_greedy_seldom_wins():
    """Seed-2 game 21, move 31: b4-d6+ connects blue's last satellite. A perfect red wins
    with the three grace moves, so ``tactics`` and ``deep`` never play it; played out with
    greedy's moves, red's grace moves win in about a quarter of the plays, and blue's
    going on quietly keeps the lead less often: ``closer`` plays it with six seeds of
    eight (b4-b6, the quiet move whose plays came nearest, with the other two)."""
    game = rules.get("satellites")
    state = position(SEED2_GAME_21, 1)
    legal = list(game.legal_actions(state))
    text = {game.action_text(state, a): a for a in legal}
    handing = handing_over(state, legal, sure_moves(state, legal))
    assert [game.action_text(state, a) for a in handing] == ["b4-d6+"]
    assert grace_best(apply(state, text["b4-d6+"])) == WIN  # red's, to red
    for spec in ("tactics:16", "deep:16"):
        chosen = {game.action_text(state, make_bot(spec).choose(bot_turn(state),
                                                                random.Random(k)))
                  for k in range(4)}
        assert "b4-d6+" not in chosen
    chosen = [game.action_text(state, make_bot("closer:16").choose(bot_turn(state),
                                                                    random.Random(k)))
              for k in range(8)]
    assert chosen == ["b4-d6+", "b4-d6+", "b4-b6", "b4-d6+", "b4-d6+", "b4-d6+", "b4-d6+",
                      "b4-b6"]


def test_closer_without_the_hand_over_keeps_to_the_tactics(monkeypatch):
    monkeypatch.setattr(close, "HAND_OVER", False)
    game = rules.get("satellites")
    state = position(SEED2_GAME_21, 1)
    kept = sure_moves(state, list(game.legal_actions(state)))
    for k in range(3):
        assert make_bot("closer:16").choose(bot_turn(state), random.Random(k)) in kept


@pytest.mark.parametrize("seed", [0, 1])
def test_closer_is_reproducible_for_a_seed(seed):
    state = position(SEED2_GAME_21, 1)
    again = {make_bot("closer:8").choose(bot_turn(state), random.Random(seed)) for _ in range(2)}
    assert len(again) == 1


def test_closer_is_named_and_budgeted_like_tactics():
    assert parse_spec("closer:16").text() == "closer:16"
    bot = make_bot("closer:16")
    assert isinstance(bot, TacticalBot) and not bot.deep and bot.close and bot.name == "closer"
    assert not make_bot("deep:16").close


def quiet_only(calls: list[int]):
    """A rollout policy that never connects (the quiet moves of the position, every one),
    counting its calls: a play with it goes on as in a game where nothing can connect."""
    game = rules.get("satellites")

    def policy(state):
        calls.append(1)
        return [a for a in game.legal_actions(state) if not connects(state, a)]
    return policy


def test_a_play_that_connects_nothing_for_a_while_is_the_board_as_it_stands(monkeypatch):
    """A play ends after :data:`QUIET_PLIES` moves in a row that connected nothing, scored
    as the board stands; a play of no connection at all would end the same after its 200
    moves (only connected satellites score, and they never move, S-21), at four times the
    cost."""
    assert 0 < close.QUIET_PLIES < close.PLIES
    state = position(SEED2_GAME_21, 1)
    calls: list[int] = []
    cut = [play_out(state, 1, random.Random(seed), quiet_only(calls)) for seed in range(3)]
    assert len(calls) == 3 * close.QUIET_PLIES
    monkeypatch.setattr(close, "QUIET_PLIES", 0)
    calls.clear()
    full = [play_out(state, 1, random.Random(seed), quiet_only(calls)) for seed in range(3)]
    assert len(calls) == 3 * close.PLIES
    assert cut == full == [-outcome(state)] * 3


def test_a_race_where_no_play_connects_stops_after_its_first_round(monkeypatch):
    """No play of any move connected a satellite (a stuck game, S-62): every move is
    alike after the first round, and the race stops there with every move kept, rather
    than play the other rounds to the same end."""
    game = rules.get("satellites")
    state = position(SEED2_GAME_21, 1)
    legal = [a for a in sure_moves(state, list(game.legal_actions(state)))
             if not connects(state, a)]
    assert len(legal) == 9
    calls: list[int] = []
    got = play_values(state, legal, random.Random(5), quiet_only(calls), plays=16)
    assert sorted(a for _, a in got) == sorted(legal)
    assert {v for v, _ in got} == {-outcome(state)}
    assert len(calls) == len(legal) * 4 * close.QUIET_PLIES  # the first round's 4 plays
    monkeypatch.setattr(close, "STUCK", False)
    calls.clear()
    play_values(state, legal, random.Random(5), quiet_only(calls), plays=16)
    assert len(calls) == len(legal) * 16 * close.QUIET_PLIES
