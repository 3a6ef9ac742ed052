"""The ``deep`` Satellites bot's alpha-beta look (:mod:`sim.satellites_search`): the same
values as a plain minimax without pruning, the moves it keeps, and a position of a game
``tactics:16`` lost on fresh seeds."""

from __future__ import annotations

import random

import pytest
from satellites_positions import bot_turn

import rules
from rules.satellites.actions import PASS
from rules.satellites.engine import State, apply
from rules.satellites.legal import quiet_and_loud
from sim.bots import TacticalBot, make_bot, parse_spec
from sim.satellites import SIM as SATELLITES
from sim.satellites_search import KEEP, QUIESCE, Deep, deep_moves, exact, static
from testkit.satellites_positions import GAME_102, GAME_109, GAME_141, SEED2_GAME_152, position


def plain(state: State, depth: int, left: int = QUIESCE) -> float:
    """Minimax from red's side with nothing pruned: ``depth`` plies of every move, then the
    connections of the side to move, which may stand on the position as it is when it has
    a quiet move: what :class:`Deep` is to compute, written the slow way."""
    if state.ended is not None:
        return exact(state, 0)
    if state.finished is not None:
        return static(state, 0)
    quiet, loud = quiet_and_loud(state)
    pick = max if state.to_move == 0 else min
    if depth > 0:
        moves = list(loud) + list(quiet) or [PASS]
        return pick(plain(apply(state, a), depth - 1, left) for a in moves)
    stand = static(state, 0)
    if left <= 0 or not loud:
        return stand
    values = [plain(apply(state, a), 0, left - 1) for a in loud]
    return pick(values + [stand]) if quiet else pick(values)


def _positions() -> list[tuple[str, State]]:
    game = rules.get("satellites")
    out = [(name, position(text, to_move)) for name, text, to_move in
           (("102", GAME_102, 0), ("109", GAME_109, 0), ("141", GAME_141, 1),
            ("152", SEED2_GAME_152, 0))]
    # a few moves on, with connections to search on: the first loud move, each side
    for name, state in list(out[:3]):
        for _ in range(2):
            _, loud = quiet_and_loud(state)
            if state.ended is not None or not loud:
                break
            state = game.apply(state, loud[0])
        out.append((name + "+", state))
    return out


@pytest.mark.parametrize(("name", "state"), _positions())
@pytest.mark.parametrize("depth", [0, 1])
def test_the_alpha_beta_values_equal_a_plain_minimax(name, state, depth):
    want = plain(state, depth)
    assert Deep(10**9).value(state, depth, -1000.0, 1000.0) == pytest.approx(want)
    # a narrow window around it still finds it; one above or below gives a bound
    assert Deep(10**9).value(state, depth, want - 0.01, want + 0.01) == pytest.approx(want)
    assert Deep(10**9).value(state, depth, want + 0.5, want + 1.0) <= want + 0.5
    assert Deep(10**9).value(state, depth, want - 1.0, want - 0.5) >= want - 0.5


@pytest.mark.parametrize(("name", "state"), _positions())
def test_the_moves_kept_are_those_within_keep_of_the_best_by_plain_minimax(name, state):
    game = rules.get("satellites")
    legal = list(game.legal_actions(state))
    sign = 1 if state.to_move == 0 else -1
    values = {}
    for a in legal:
        child = apply(state, a)
        if child.ended is not None or child.finished is not None:
            continue  # judged exactly, as the tactics' own look judges them
        values[a] = sign * plain(child, 0)
    legal = [a for a in legal if a in values]
    best = max(values.values())
    assert deep_moves(state, legal, 10**9) == [a for a in legal if values[a] >= best - KEEP]


def test_a_spent_budget_keeps_every_move():
    state = position(SEED2_GAME_152, 0)
    legal = list(rules.get("satellites").legal_actions(state))
    assert deep_moves(state, legal, 5) == legal
    assert len(deep_moves(state, legal)) < len(legal)


def test_deep_parries_the_connection_tactics_left_open_in_a_fresh_seed_loss():
    """Seed-2 game 152, move 518: tactics:16 plays a quiet move (d5-e4 in the game, j2-j1 or
    j2-j3 with other seeds) and greedy's B3 joins red's colony at e1 with b1-e1+; ``deep``
    displaces blue's B3 with its R1 (h1-g2>...), after which greedy has no gaining move."""
    game = rules.get("satellites")
    state = position(SEED2_GAME_152, 0)
    text = {game.action_text(state, a): a for a in game.legal_actions(state)}

    def greedy_after(move: str) -> list[str]:
        after = apply(state, text[move])
        return [game.action_text(after, a)
                for a in SATELLITES.best_actions(None, after, list(game.legal_actions(after)))
                if a in quiet_and_loud(after)[1]]

    old = {game.action_text(state, make_bot("tactics:16").choose(bot_turn(state),
                                                                  random.Random(k)))
           for k in range(8)}
    assert old == {"d5-e4", "j2-j1", "j2-j3"}
    assert all(greedy_after(move) == ["b1-e1+"] for move in old)
    new = {game.action_text(state, make_bot("deep:16").choose(bot_turn(state),
                                                               random.Random(k)))
           for k in range(8)}
    assert new == {"h1-g2>h1+", "h1-g2>h3+", "h1-g2>i4+"}
    assert all(greedy_after(move) == [] for move in new)


def test_deep_is_named_and_budgeted_like_tactics():
    assert parse_spec("deep:16").text() == "deep:16"
    bot = make_bot("deep:16")
    assert isinstance(bot, TacticalBot) and bot.deep and bot.name == "deep"
    assert make_bot("tactics:16").name == "tactics"
