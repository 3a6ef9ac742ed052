"""The Satellites rules core behind the Game interface: the deal of pnp-setup, notation and
byte encoding that round-trip, passes, results, uniform random moves, and groups kept move
by move that match the analysis. (That importing and playing it loads only the standard
library is tested for both games in test_rules_core.py.)"""

from __future__ import annotations

import pickle
import random
from collections import Counter

import pytest

import rules
from rules.game import IllegalAction, NotationError
from rules.satellites import PASS
from rules.satellites.analysis import connected, group_masks
from rules.satellites.engine import END_CONNECTED, END_GRACE, apply, deal, random_game, start
from rules.satellites.legal import legal_actions, random_action
from scorer.satellites.board import Board, load_rules

RULES = load_rules()
GAME = rules.get("satellites")


def pos(text: str, to_move: int = 0):
    board = Board.from_tokens([line.split() for line in text.strip().splitlines()])
    return start(RULES, board.width, board.cells(), to_move)


def test_the_game_object_deals_as_pnp_setup_does(capsys):
    from records.setup_cli import main

    assert main(["satellites", "--seed", "42"]) == 0
    rows = [line.split("#")[0].split() for line in capsys.readouterr().out.splitlines()
            if not line.startswith("#")]
    state = GAME.new_game(RULES, ["Anna", "Ben"], 42)
    assert Board.from_tokens(rows).cells() == list(state.cells)
    assert GAME.players(state) == ("Anna", "Ben") and GAME.current_player(state) == 0
    assert GAME.view_for(state, 1) is state  # perfect information
    with pytest.raises(rules.SetupError):
        GAME.new_game(RULES, ["Anna"], 42)


def test_a_whole_game_through_the_interface():
    state = GAME.new_game(RULES, ["Anna", "Ben"], 5)
    rng = random.Random(5)
    sizes = []
    while not GAME.is_over(state):
        legal = GAME.legal_actions(state)
        assert legal == sorted(legal) and len(set(legal)) == len(legal)
        action = legal[rng.randrange(len(legal))]
        text = GAME.action_text(state, action)
        assert GAME.parse_action(state, text) == action
        assert GAME.check(state, action) == action
        state = GAME.apply(state, action)
        data = GAME.encode(state)
        assert GAME.decode(RULES, data) == state
        sizes.append((len(data), len(pickle.dumps(state))))
        assert pickle.loads(pickle.dumps(state)) == state
    assert max(n for n, _ in sizes) <= 80 and max(n for _, n in sizes) <= 600
    assert GAME.legal_actions(state) == []
    outcome = GAME.result(state)
    assert outcome.scores == GAME.scores(state)
    red, blue = outcome.scores
    if red != blue:
        assert outcome.winners == ((0,) if red > blue else (1,))
    assert outcome.reason.endswith(("to 0", "to 1", "to 2", "to 3", "to 4", ")", "draw"))


def test_no_winner_while_the_game_goes_on_and_reasons_in_the_scorers_words():
    state = pos("""
        .  .  .  .  .
        .  R1 B1 R1 .
        .  .  .  .  .
        .  .  .  .  .
        .  .  .  .  B2
    """)
    outcome = GAME.result(state)
    assert outcome.scores == (1, 0) and outcome.winners == ()
    assert outcome.reason == "red controls more colonies, 1 to 0"


def test_a_player_without_a_move_has_exactly_the_pass():
    stuck = pos("""
        .  .  .  .  .
        .  .  .  .  .
        .  .  R1 .  .
        .  .  B1 .  .
        B2 .  .  .  .
    """)
    assert GAME.legal_actions(stuck) == [PASS]
    assert GAME.action_text(stuck, PASS) == "pass"
    assert GAME.parse_action(stuck, "pass") == PASS
    after = GAME.apply(stuck, PASS)
    assert GAME.current_player(after) == 1 and PASS not in GAME.legal_actions(after)
    with pytest.raises(IllegalAction, match="blue may pass only with no legal move"):
        GAME.parse_action(after, "pass")
    with pytest.raises(NotationError):
        GAME.parse_action(after, "a5 to b5")


def test_decode_refuses_what_encode_did_not_write():
    data = GAME.encode(GAME.new_game(RULES, ["Anna", "Ben"], 1))
    for bad in (b"", b"\x07" + data[1:], data[:-1], data + b"x"):
        with pytest.raises(ValueError):
            GAME.decode(RULES, bad)


# R3 on h3 may displace B1 on e6 (a colony with R2 and B3); pushed to f5 or g4, B1 would
# touch B2, which is connected: candidates the random draw must check and drop
MIXED = """
    .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  R3
    .  .  .  .  .  R4 .  .
    .  .  .  R2 .  .  B2 R1
    .  .  .  B3 B1 .  .  .
    .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .
"""


def test_random_moves_are_uniform_over_the_legal_ones():
    from rules.satellites.legal import _moves, problem

    state = pos(MIXED)
    legal = legal_actions(state)
    _, _, checks = _moves(state)
    dropped = [c for c in checks if problem(state, c >> 20, c >> 10 & 1023, (c & 1023) - 1)]
    assert len(dropped) == 2 and len(checks) == 14 and len(legal) == 39
    rng = random.Random(11)
    per_move = 400
    counts = Counter(random_action(state, rng) for _ in range(per_move * len(legal)))
    assert set(counts) == set(legal)
    # every legal move 400 times on average: within 5 standard deviations (about 100)
    assert all(abs(n - per_move) <= 100 for n in counts.values()), sorted(counts.values())


def test_groups_kept_move_by_move_are_the_analysis_groups():
    for seed in range(6):
        state = deal(RULES, seed)
        rng = random.Random(seed)
        while state.ended is None:
            action = random_action(state, rng)
            if action == PASS and not legal_actions(state._replace(to_move=1 - state.to_move)):
                break
            state = apply(state, action)
            tb = state.table
            assert state.conn == connected(tb, state.red, state.blue)
            assert list(state.groups) == group_masks(tb, state.red, state.blue)


def test_random_games_end_by_the_end_count_or_the_grace_moves():
    ends = Counter()
    for seed in range(10):
        _, final = random_game(deal(RULES, seed), random.Random(seed))
        ends[final.ended] += 1
    assert set(ends) <= {END_CONNECTED, END_GRACE} and sum(ends.values()) == 10
