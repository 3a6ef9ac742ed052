"""The bots that build: the evaluations against a full recount, bots by name and their
mistakes, restricted play, reproducible search, and that every new bot sees only its view."""

from __future__ import annotations

import random

import pytest
from satellites_positions import bot_turn

import rules
from cards.ruleset_cache import load_ruleset
from rules.orbitus.actions import DISCARD, PASS, PLACE, REMOVE
from rules.orbitus.engine import Placed, State, new_game
from rules.orbitus.view import View, view_for
from sim.bots import BotError, Turn, make_bot, parse_spec
from sim.orbitus import SIM as ORBITUS
from sim.orbitus_eval import action_values, system_value, values_of
from sim.satellites import SIM as SATELLITES
from sim.search import MctsBot
from testkit.satellites_positions import position

NEW_BOTS = ("value", "mcts:8", "mcts:8x2", "mcts:4/50ms", "value+never-remove",
            "mcts:6+never-place-ice", "never-pass", "tactics:8", "deep:8", "wary:8",
            "closer:8")


@pytest.fixture(scope="module")
def orbitus_rules():
    return load_ruleset("orbitus")


def _position(ruleset, players=3, seed=4, moves=24) -> State:
    state = new_game(ruleset, ["A", "B", "C", "D", "E", "F"][:players], seed)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = state.legal_actions()
        state = state.after(legal[rng.randrange(len(legal))])
    return state


class Guarded:
    """A seat's view that refuses everything a View does not hold (another hand, the
    deck, the state), so a bot that reaches for it fails."""

    def __init__(self, view: View) -> None:
        object.__setattr__(self, "_view", view)

    def __getattr__(self, name: str):
        if name in ("hands", "deck", "drawn", "state", "game"):
            raise AttributeError(f"a bot may not read {name!r}")
        return getattr(object.__getattribute__(self, "_view"), name)


@pytest.mark.parametrize("spec", NEW_BOTS)
def test_every_new_bot_plays_from_the_view_alone(orbitus_rules, spec):
    state = _position(orbitus_rules)
    seat = state.to_move
    view = view_for(state, seat)
    legal = list(state.legal_actions())
    turn = Turn(seat, Guarded(view), legal, ORBITUS.public(state), ORBITUS)
    assert make_bot(spec).choose(turn, random.Random(5)) in legal


@pytest.mark.parametrize("players", [2, 4])
def test_the_search_plays_a_legal_move_from_the_view_alone_at_every_player_count(
        orbitus_rules, players):
    # 2 players: leaves judged after the answer, the own next move and its answer; 4: as
    # they are (3 players: the test above)
    for seed in range(3):
        state = _position(orbitus_rules, players, seed, moves=10 + 15 * seed)
        seat = state.to_move
        legal = list(state.legal_actions())
        turn = Turn(seat, Guarded(view_for(state, seat)), legal, ORBITUS.public(state),
                    ORBITUS)
        assert MctsBot(budget=6).choose(turn, random.Random(seed)) in legal


def test_a_guarded_view_stops_a_bot_that_reads_another_hand(orbitus_rules):
    state = _position(orbitus_rules)
    view = Guarded(view_for(state, state.to_move))
    with pytest.raises(AttributeError, match="a bot may not read 'hands'"):
        view.hands  # noqa: B018
    assert view.hand == state.hands[state.to_move]


def test_the_evaluation_of_every_action_equals_a_recount(orbitus_rules):
    """The incremental value change of each placement and removal equals the system's
    value counted again on the table after the action, for every seat the action touches."""
    checked = 0
    for seed in range(4):
        for players in (2, 3, 5):
            state = _position(orbitus_rules, players, seed, moves=8 + 9 * seed)
            seat = state.to_move
            view = view_for(state, seat)
            match = state.game
            legal = list(state.legal_actions())
            got = dict((a, v) for v, a in action_values(match, view, legal))
            values = values_of(view, match)
            before = [system_value(match, state.board, state.info, s, values)
                      for s in range(players)]
            for action in legal[::max(1, len(legal) // 40)] + [a for a in legal
                                                                if a.kind == REMOVE]:
                if action.kind in (DISCARD, PASS):
                    continue
                board = dict(state.board)
                if action.kind == PLACE:
                    mask = match.cards[action.card].masks[action.rot]
                    board[action.cell] = Placed(action.card, action.rot, mask)
                else:
                    del board[action.cell]
                after = State(match, board, state.deck, state.drawn, state.hands, state.limits,
                              state.to_move, state.passed, state.quiet)
                now = [system_value(match, board, after.info, s, values) for s in range(players)]
                changes = [now[s] - before[s] for s in range(players)]
                # harm done to another seat counts a quarter: they will remove it
                others = [before[s] + (c if c >= 0 else 0.25 * c)
                          for s, c in enumerate(changes) if s != seat]
                assert got[action] == pytest.approx(now[seat] - max(others)), action
                checked += 1
    assert checked > 200


@pytest.mark.parametrize(("text", "message"), [
    ("chess", "'chess' is not a bot; the bots are random, greedy, value, mcts, tactics, deep, "
              "wary, closer, and the restrictions never-remove"),
    ("mcts:0", "'mcts:0': a budget of 0 iterations; give at least 1, e.g. mcts:64"),
    ("greedy:8", "'greedy:8': only mcts, tactics, deep, wary and closer take a budget (greedy "
                 "has none)"),
    ("mcts:fast", "'mcts:fast': 'fast' is neither a number of iterations nor a time; e.g. "
                  "mcts:64, mcts:200ms or mcts:64/200ms"),
    ("mcts:0ms", "'0ms': a thinking time must be above 0; e.g. 200ms"),
    ("mcts:4x8", "'mcts:4x8': 8 trees need at least 8 iterations"),
    ("value+never-fly", "'never-fly' is not a restriction; the restrictions are never-remove"),
])
def test_bot_names_that_cannot_be_read(text, message):
    with pytest.raises(BotError) as caught:
        parse_spec(text, ["never-remove"])
    assert str(caught.value) == message


def test_bot_names_round_trip():
    for text in ("random", "mcts:64", "mcts:200ms", "mcts:64/200ms", "mcts:256x4",
                 "value+never-remove", "mcts:16+never-place-ice"):
        assert parse_spec(text).text() == text
    assert parse_spec("never-remove").text() == "value+never-remove"


def test_restricted_bots_never_take_the_forbidden_action(orbitus_rules):
    state = _position(orbitus_rules, players=2, seed=1, moves=30)
    view = view_for(state, state.to_move)
    legal = list(state.legal_actions())
    assert any(a.kind == REMOVE for a in legal)
    for restriction, bad in (("never-remove", lambda a: a.kind == REMOVE),
                             ("never-pass", lambda a: a.kind == PASS),
                             ("never-discard", lambda a: a.kind == DISCARD)):
        bot = make_bot(f"value+{restriction}")
        for k in range(20):
            turn = Turn(state.to_move, view, legal, ORBITUS.public(state), ORBITUS)
            assert not bad(bot.choose(turn, random.Random(k)))
    ice = [a for a in legal if a.kind == PLACE and orbitus_rules.cards[a.card].centre == "ice"]
    others = [a for a in legal if a not in ice]
    turn = Turn(state.to_move, view, ice + others, ORBITUS.public(state), ORBITUS)
    assert make_bot("never-place-ice").choose(turn, random.Random(2)) not in ice
    only_pass = [a for a in legal if a.kind == PASS]
    turn = Turn(state.to_move, view, only_pass, ORBITUS.public(state), ORBITUS)
    assert make_bot("never-pass").choose(turn, random.Random(2)).kind == PASS  # nothing else


def test_a_search_is_reproducible_and_its_trees_may_run_anywhere(orbitus_rules):
    import multiprocessing

    from sim import search

    state = _position(orbitus_rules, players=3, seed=2, moves=12)
    turn = Turn(state.to_move, view_for(state, state.to_move), list(state.legal_actions()),
                ORBITUS.public(state), ORBITUS)
    bot = MctsBot(budget=24, trees=3)
    here = [bot.choose(turn, random.Random(k)) for k in range(3)]
    assert here == [bot.choose(turn, random.Random(k)) for k in range(3)]
    context = multiprocessing.get_context("fork")
    with context.Pool(2) as pool:
        search.use_pool(pool)
        try:
            pooled = [bot.choose(turn, random.Random(k)) for k in range(3)]
        finally:
            search.use_pool(None)
    assert pooled == here


def test_a_search_leaf_is_judged_after_the_replies_and_the_searchers_next_move(
        orbitus_rules, monkeypatch):
    """From a leaf of a 2-player search the other answers, the searching seat makes its
    next move and the other answers that, each by its best one-ply value in the deal; then
    the searcher is to move again."""
    from rules.orbitus import GAME
    from sim.orbitus_eval import replies

    played: list = []
    real = GAME.apply
    monkeypatch.setattr(GAME, "apply", lambda s, a: played.append((s, a)) or real(s, a))
    state = _position(orbitus_rules, players=2, seed=3, moves=20)
    seat = 1 - state.to_move  # the seat whose move reached this leaf
    after = replies(state.game, state, seat, random.Random(1))
    assert [s.to_move for s, _ in played] == [1 - seat, seat, 1 - seat]
    assert after.end is None and after.to_move == seat
    for before, action in played:
        values = action_values(before.game, view_for(before, before.to_move),
                               list(before.legal_actions()), before.info)
        assert dict((a, v) for v, a in values)[action] == max(v for v, _ in values)
    played.clear()
    assert replies(state.game, after, seat, random.Random(1)).to_move == seat
    assert [s.to_move for s, _ in played] == [seat, 1 - seat]
    # with three players only the others answer (an own move would double a game's time)
    played.clear()
    state = _position(orbitus_rules, players=3, seed=3, moves=20)
    seat = (state.to_move - 1) % 3
    assert replies(state.game, state, seat, random.Random(1)).to_move == seat
    assert [s.to_move for s, _ in played] == [(seat + 1) % 3, (seat + 2) % 3]
    # with four or more the leaf is judged as it is (n - 1 answers a leaf cost too much)
    played.clear()
    state = _position(orbitus_rules, players=4, seed=3, moves=20)
    assert replies(state.game, state, (state.to_move - 1) % 4, random.Random(1)) is state
    assert played == []


def test_search_rewards_count_from_the_decision_s_own_worth(orbitus_rules):
    """The worth a search's rewards start from is the position's public worth, the same in
    every deal of the hidden cards (so a lead of many points no longer flattens every
    action's reward towards 1)."""
    from sim.search import Tree, ranked
    from sim.search import action_values as ranking

    state = _position(orbitus_rules, players=2, seed=5, moves=30)
    seat = state.to_move
    view = view_for(state, seat)
    turn = Turn(seat, Guarded(view), list(state.legal_actions()), ORBITUS.public(state),
                ORBITUS)
    worth = ORBITUS.position_values(state)
    for k in range(3):
        rng = random.Random(k)
        tree = Tree(turn, ranked(ranking(ORBITUS, turn.public, view, turn.legal), rng), rng)
        tree.run(4, None)
        assert tree.origin == pytest.approx(worth)
        assert sum(child.visits for child in tree.root.children.values()) == 4


def test_satellites_bots_choose_legal_moves():
    ruleset = load_ruleset("satellites")
    game = rules.get("satellites")
    state = game.new_game(ruleset, ("R", "B"), 3)
    rng = random.Random(1)
    for _ in range(40):
        legal = game.legal_actions(state)
        state = game.apply(state, legal[rng.randrange(len(legal))])
    legal = list(game.legal_actions(state))
    for spec in ("value", "mcts:8", "value+never-displace", "tactics:8", "deep:8",
                 "closer:8"):
        turn = Turn(state.to_move, game.view_for(state, state.to_move), SATELLITES.legal(state),
                    None, SATELLITES)
        assert make_bot(spec).choose(turn, random.Random(4)) in legal


# --- the tactics bot (Satellites) --------------------------------------------------------------

# Game 191 of `pnp sim satellites --bots mcts:16,greedy --seed 1`, after move 45: blue (the
# search) to move with 11 of 12 satellites connected. Its one unconnected satellite, B1 on
# e6, connects on d7 or f5; either makes blue done, and red then moves three times in a
# row (S-39, S-40): R4 d5-h5, h5-h8, h8-d8+ wins for red. mcts:16 played e6-d7+ and lost.
GRACE_TRAP = """
.  .  .  .  .  .  .  .  .  .
.  .  B4 R2 .  .  .  .  .  .
.  .  R4 B3 .  B4 .  .  .  .
.  .  B2 R3 .  R1 B3 R3 B2 .
.  .  .  R4 .  .  .  .  .  .
.  .  B1 .  B1 .  .  .  .  .
R2 B1 R1 .  .  .  B3 R3 B2 .
.  .  .  .  .  B4 R4 .  .  .
.  .  .  .  .  R2 .  R1 .  .
.  .  .  .  .  .  .  .  .  .
"""


def test_tactics_avoids_the_connection_that_hands_over_a_won_grace_sequence():
    from sim.satellites_search import WIN, grace_best

    game = rules.get("satellites")
    state = position(GRACE_TRAP, to_move=1)
    text = {game.action_text(state, a): a for a in game.legal_actions(state)}
    assert sorted(text) == ["e6-d7+", "e6-e7", "e6-f5+", "e6-f6", "e6-f7"]
    for losing in ("e6-d7+", "e6-f5+"):
        after = game.apply(state, text[losing])
        assert (after.finished, after.to_move, after.grace_left) == (1, 0, 3)
        assert grace_best(after) == WIN  # red's three grace moves win
    # the old search walks into it, whatever its seed
    assert {game.action_text(state, make_bot("mcts:16").choose(bot_turn(state), random.Random(k)))
            for k in range(4)} == {"e6-d7+"}
    chosen = {game.action_text(state, make_bot("tactics:16").choose(bot_turn(state),
                                                                     random.Random(k)))
              for k in range(4)}
    assert chosen and chosen <= {"e6-e7", "e6-f6", "e6-f7"}


def test_tactics_finds_the_grace_sequence_that_wins():
    """Red, with the three grace moves of the position above, must move R4 twice without
    connecting and then connect on d8: the exact search finds it, move by move."""
    game = rules.get("satellites")
    state = game.apply(position(GRACE_TRAP, to_move=1), game.parse_action(
        position(GRACE_TRAP, to_move=1), "e6-d7"))
    bot = make_bot("tactics:4")
    for _ in range(3):
        state = game.apply(state, bot.choose(bot_turn(state), random.Random(1)))
    assert state.ended == "grace-moves-used" or state.ended is not None
    assert game.result(state).winners == (0,)


@pytest.mark.parametrize("spec", ["tactics:6", "deep:6", "wary:6"])
def test_tactics_is_reproducible_and_always_moves_legally(spec):
    game = rules.get("satellites")
    state = game.new_game(load_ruleset("satellites"), ("R", "B"), 11)
    bot = make_bot(spec)
    rng = random.Random(2)
    for ply in range(160):
        if game.is_over(state):
            break
        legal = list(game.legal_actions(state))
        turn = bot_turn(state)
        if ply % 10 == 0:
            again = [bot.choose(bot_turn(state), random.Random(ply)) for _ in range(2)]
            assert again[0] == again[1]
        action = bot.choose(turn, rng) if state.to_move == 0 else legal[rng.randrange(
            len(legal))]
        assert action in legal
        state = game.apply(state, action)


def test_tactics_takes_only_the_budgets_mcts_takes():
    assert parse_spec("tactics:16").text() == "tactics:16"
    assert parse_spec("tactics").text() == "tactics"
    with pytest.raises(BotError, match="'tactics:0': a budget of 0 iterations"):
        parse_spec("tactics:0")


def test_a_colony_is_judged_against_the_satellites_that_could_turn_it():
    import math

    from sim.satellites_eval import at_risk, free_values

    assert at_risk(5, 1, [4, 4, 1]) == 1.0  # one more satellite, at most a 4: held
    assert at_risk(6, 2, [4, 1]) == 1.0  # 4 + 1 cannot level 6
    assert at_risk(5, 2, [4, 1]) < 1.0  # but levels 5: contested
    assert at_risk(3, 1, [4]) == pytest.approx(0.5 + 0.5 * math.tanh(-0.5 / 1.5))  # a 4 turns it
    assert at_risk(2, 2, [1, 1]) == pytest.approx(0.5 + 0.5 * math.tanh(1.5 / 1.5))  # level
    assert at_risk(9, 0, [4, 4]) == 1.0  # crowned
    assert at_risk(1, 3, []) == 1.0  # nothing left to join
    state = position(GRACE_TRAP, to_move=1)
    assert free_values(state) == ([4, 1], [1])  # red R4 d5 and R1 h9, blue B1 e6


# Game 28 of `pnp sim satellites --bots tactics:16,greedy --seed 1`, before move 35: red (the
# tactics bot) leads by the board with 18 satellites connected; its free satellites are R4
# f8 and R1 j9, blue's a 4, two 3s and a 2. Without the material term the bot connected R4
# f8-j8+ (a pair) and was left with the R1 alone: it moved it to and fro for 40 moves, while
# greedy's free satellites connected four times and won the tie-break.
OUT_OF_SATELLITES = """
.  .  .  .  .  .  R4 .  R3 .
.  R3 .  .  .  .  B3 R2 B4 .
.  B1 .  .  .  .  B4 B1 .  .
.  .  .  .  .  .  .  .  B1 R2
.  .  .  .  .  .  .  .  R4 .
B3 .  .  .  .  .  .  .  .  .
.  B2 .  .  .  .  .  .  .  .
B3 .  .  B2 R1 R4 .  .  B2 .
.  .  .  R2 .  .  R1 B4 R3 R1
.  .  .  .  .  .  .  .  .  .
"""


def test_the_tactics_evaluation_counts_each_free_satellite_for_its_colour(monkeypatch):
    import sim.satellites_eval as evaluation

    state = position(OUT_OF_SATELLITES, to_move=0)
    assert evaluation.free_values(state) == ([4, 1], [4, 3, 3, 2])
    with_material = evaluation.worth(state, risk=True)
    plain = evaluation.worth(state)
    monkeypatch.setattr(evaluation, "MATERIAL", 0.0)
    assert with_material == pytest.approx(evaluation.worth(state, risk=True) + 0.15 * (2 - 4))
    assert evaluation.worth(state) == plain  # the value and mcts bots' evaluation: unchanged


def test_tactics_keeps_a_free_satellite_that_it_gave_away_before(monkeypatch):
    import sim.satellites_eval as evaluation

    game = rules.get("satellites")
    state = position(OUT_OF_SATELLITES, to_move=0)

    def choices() -> list[str]:
        return [game.action_text(state, make_bot("tactics:16").choose(bot_turn(state),
                                                                      random.Random(k)))
                for k in range(8)]

    now = choices()
    assert not [move for move in now if move.endswith("+")]  # R4 stays free
    monkeypatch.setattr(evaluation, "MATERIAL", 0.0)
    assert choices().count("f8-j8+") == 6  # the bot before the material term
