"""The exact Satellites endgame (sim.satellites_endgame) and the tactics bot that follows it."""

from __future__ import annotations

import random

import pytest
from satellites_positions import bot_turn

import rules
import sim.satellites_endgame as endgame
from cards.ruleset_cache import load_ruleset
from sim.bots import make_bot
from testkit.satellites_positions import GAME_102, GAME_109, GAME_141, position


@pytest.fixture(autouse=True)
def _nothing_kept():
    endgame._SOLVED.clear()
    yield
    endgame._SOLVED.clear()


# A position of game 141's class (the same connected satellites), red's R1 on c5 and blue's
# B1 on f7: red to move wins by keeping blue's B1 from connecting until S-62 ends the game.
HELD = """
.  .  .  .  .  B4 R3 .  .  .
.  R4 .  .  .  .  B4 .  .  .
.  B2 R1 .  .  .  .  B3 R2 .
B1 R3 .  .  .  .  .  R2 .  .
.  .  R1 .  .  .  .  .  .  .
.  .  .  .  .  .  .  .  R4 B3
.  .  .  .  .  B1 .  .  B3 R2
R4 B1 .  .  .  .  .  .  .  B2
B4 R3 B2 R1 .  .  .  .  .  .
.  .  .  .  .  .  .  .  .  .
"""


def test_the_documented_endgames_are_solved_exactly():
    game = rules.get("satellites")
    lost = position(GAME_102, to_move=0)
    # blue forces its connection, and the win, in 12 moves: the game was lost at move 100
    assert endgame.solved(lost) == (-1, 12, 1)
    assert endgame.best_moves(lost, list(game.legal_actions(lost))) is None  # not won
    assert endgame.solved(position(GAME_109, to_move=0)) == (1, 7, -1)  # red forces it in 7
    drawn = position(GAME_141, to_move=1)
    assert endgame.solved(drawn) == (0, 3, 1)  # blue forces a draw in 3, no more
    assert sorted(game.action_text(drawn, a) for a in endgame.keeping_moves(
        drawn, list(game.legal_actions(drawn)))) == ["e5-f4", "e5-f5"]


@pytest.mark.parametrize("board", [GAME_102, GAME_109])
def test_every_solved_position_has_the_value_of_its_best_move(board):
    """Each position of a solved class is worth what the best of its moves leads to (the
    end as scored by the rules core, or the position reached); a forced value is reached
    through a position one move nearer; one nobody forces is the board's own (S-62)."""
    game = rules.get("satellites")
    root = position(board, to_move=0)
    endgame.solved(root)
    inside = [k for k in endgame._SOLVED if k[4] is None and endgame._SOLVED[k][2] ==
              endgame._SOLVED[endgame.key(root)][2]]
    checked = 0
    for k in inside:
        state = root._replace(red=k[0], blue=k[1], vals=k[2], to_move=k[3])
        if state.conn != root.conn:
            continue
        value, depth, stall = endgame._SOLVED[k]
        assert stall == endgame.board_value(state)
        legal = game.legal_actions(state)
        if not legal:
            assert value == stall  # over: nobody can move (S-41)
            continue
        sign = 1 if state.to_move == 0 else -1
        children = []
        for action in legal:
            after = game.apply(state, action)
            if after.ended is not None:
                children.append((endgame.board_value(after), 0, False))
            else:
                got = endgame.solved(after) or endgame._SOLVED[endgame.key(after)]
                children.append((got[0], got[1], after.conn == state.conn))
        assert value == sign * max(sign * v for v, _, _ in children)
        if value == stall:
            assert depth == 0
        else:
            assert depth >= 1
            mover_forces = (value > stall) == (state.to_move == 0)
            nearer = [d for v, d, same in children if v == value and (not same or d < depth)]
            if mover_forces:
                assert min(d if d else 0 for d in nearer) == depth - 1 or depth == 1
            else:  # every move of the other side keeps it forced, none lasts longer
                assert all(v == value and (not same or d <= depth - 1)
                           for v, d, same in children)
        checked += 1
    assert checked > 100


def test_tactics_keeps_a_won_endgame_it_gave_away_before(monkeypatch):
    """HELD is won for red, who is to move. The bot before the exact endgame gave it away
    in 7 of 8 seeds (after its move blue forces a draw); now it keeps it in all 8, and a
    perfect blue then cannot force its connection."""
    game = rules.get("satellites")
    state = position(HELD, to_move=0)
    assert endgame.solved(state) == (1, 0, 1)

    def choices() -> list[int]:
        return [make_bot("tactics:16").choose(bot_turn(state), random.Random(k))
                for k in range(8)]

    def judged(actions: list[int]) -> list[tuple[str, int]]:
        return [(game.action_text(state, a), endgame.solved(game.apply(state, a))[0])
                for a in actions]

    monkeypatch.setattr(endgame, "FREE_MOST", 0)  # the bot before the exact endgame
    old = choices()
    monkeypatch.setattr(endgame, "FREE_MOST", 2)
    before, now = judged(old), judged(choices())
    assert [value for _, value in before].count(0) == 7
    assert before[0][0] == "c5-d5"
    assert [value for _, value in now] == [1] * 8
    # after the old bot's c5-d5, blue forces a draw: both sides playing the exact moves
    drawn = game.apply(state, game.parse_action(state, "c5-d5"))
    for _ in range(20):
        if game.is_over(drawn):
            break
        drawn = game.apply(drawn, endgame.keeping_moves(drawn, list(game.legal_actions(
            drawn)))[0])
    assert game.is_over(drawn) and game.result(drawn).winners == ()


def test_a_forced_connection_the_stall_count_could_cut_short_is_not_trusted():
    game = rules.get("satellites")
    state = position(GAME_109, to_move=0)
    legal = list(game.legal_actions(state))
    assert sorted(game.action_text(state, a) for a in endgame.best_moves(state, legal)) == [
        "i9-g7", "i9-g9", "i9-h10", "i9-h8"]
    assert endgame.best_moves(state._replace(quiet=993), legal) is not None
    # from 994 the 6 quiet moves before the connection would end the game first (S-62)
    assert endgame.best_moves(state._replace(quiet=994), legal) is None
    # the exact play wins it in 7 moves whatever greedy answers
    for seed in range(3):
        bot, greedy, rng = make_bot("tactics:4"), make_bot("greedy"), random.Random(seed)
        now = state
        moves = 0
        while not game.is_over(now):
            chooser = bot if now.to_move == 0 else greedy
            now = game.apply(now, chooser.choose(bot_turn(now), rng))
            moves += 1
        assert game.result(now).winners == (0,) and moves == 7


def test_what_is_kept_changes_no_move(monkeypatch):
    game = rules.get("satellites")
    state = position(GAME_141, to_move=1)
    legal = list(game.legal_actions(state))
    cold = endgame.keeping_moves(state, legal)
    warm = endgame.keeping_moves(state, legal)
    endgame._SOLVED.clear()
    monkeypatch.setattr(endgame, "MOST_KEPT", 300)  # forgotten again and again while solving
    assert endgame.keeping_moves(state, legal) == cold == warm
    assert endgame.solved(position(HELD, to_move=0)) == (1, 0, 1)


def test_games_with_the_exact_endgame_do_not_depend_on_what_was_kept(monkeypatch, tmp_path,
                                                                      capsys):
    """Games 5, 10 and 11 of `--bots tactics:2,value --seed 1` reach won positions the bot
    solves (2, 1 and 22 of its moves): each game is the same played alone or after the
    others (solutions kept), and a run is the same with --jobs 1 and 2."""
    import json

    from sim.cli import main
    from sim.play import Setup, play

    setup = Setup("satellites", load_ruleset("satellites"), ("tactics:2", "value"), 8, 1)
    used: list[int] = []
    followed = endgame.best_moves

    def counted(view, legal):
        got = followed(view, legal)
        if got is not None:
            used.append(1)
        return got

    monkeypatch.setattr(endgame, "best_moves", counted)
    alone = []
    for index in (5, 10, 11):
        endgame._SOLVED.clear()
        used.clear()
        alone.append(play(setup, 2, index))
        assert len(used) == {5: 2, 10: 1, 11: 22}[index]
    assert [play(setup, 2, index) for index in (11, 10, 5)] == alone[::-1]  # kept: the same
    reports = []
    for jobs in ("1", "2"):
        assert main(["satellites", "--bots", "tactics:2,value", "--games", "12", "--seed", "1",
                     "--jobs", jobs, "--out", str(tmp_path / jobs), "--json"]) == 0
        reports.append(json.loads(capsys.readouterr().out))
        records = {record["game"]: record for record in map(json.loads, (
            tmp_path / jobs / "games.jsonl").read_text().splitlines())}
        for record in records.values():
            del record["check"]  # the run's checksum of the line
        assert [records[index] for index in (5, 10, 11)] == alone
    assert reports[0] == reports[1]
