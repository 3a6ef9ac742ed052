"""``pnp sim ladder``: the round robin's tally and ratings from games made by hand, and a
short real ladder."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from cards.ruleset_cache import load_ruleset
from sim.ladder import ladder, pairings, play_pairing, terminal
from sim.play import Setup, play
from sim.sprt import Sprt


def test_a_ladder_from_a_fixed_table_of_results():
    # shares that a 4 : 2 : 1 model predicts exactly: b takes 2/3 from a, c 2/3 from b,
    # c 4/5 from a; so b is 400 log10(2) and c 400 log10(4) above a
    results = {("a", "b"): [1, 1, 0] * 10, ("b", "c"): [1, 1, 0] * 10,
               ("a", "c"): [1, 1, 1, 1, 0] * 8}

    def fake(bots, games):
        return [{"winners": [1 if high_won else 0], "bots": [bots[0], bots[1]], "game": k}
                for k, high_won in enumerate(results[tuple(bots)])]

    found = ladder(["a", "b", "c"], fake, 0)
    elo = {r["bot"]: r["elo"] for r in found["ratings"]}
    assert elo["a"] == 0
    assert elo["b"] == pytest.approx(400 * math.log10(2), abs=0.1)
    assert elo["c"] == pytest.approx(400 * math.log10(4), abs=0.1)
    assert [(r["low"], r["high"]) for r in found["pairings"]] == [("a", "b"), ("a", "c"),
                                                                  ("b", "c")]
    assert found["pairings"][0]["high_share"] == pytest.approx(2 / 3, abs=1e-6)
    assert "each rung beats the one below significantly: yes" in terminal(found)
    assert pairings(["x", "y", "z"]) == [(0, 1), (0, 2), (1, 2)]
    with pytest.raises(ValueError, match="a rung is named twice"):
        ladder(["a", "a"], fake, 1)


def _fixed(results):
    """A pairing's games from a list of who won (1: the higher rung), and the game
    numbers it was asked for."""
    asked: list[list[int]] = []

    def fake(bots, games):
        asked.append(list(games))
        return [{"winners": [results[k]], "bots": [bots[0], bots[1]], "game": k}
                for k in games]

    return fake, asked


def test_a_pairing_won_every_game_stops_at_the_first_look():
    # no spread at all: the test's log-likelihood ratio is infinite as soon as it may
    # decide (10 games; 10 of 10 has chance 1/1024 at one half)
    fake, asked = _fixed([1] * 100)
    tally = play_pairing("a", "b", fake, 100, Sprt(0.05, 0.05, 0.1))
    assert (tally.games, tally.decision, tally.test.direction) == (10, "H1", 1)
    assert asked == [list(range(10))]


def test_an_even_pairing_is_decided_even_where_the_hand_computation_says():
    # shares 1, 0, 1, 0, ...: after an even number n of games the mean difference is 0 and
    # the sample variance (n / 4) / (n - 1), so each side's ratio is
    # n * 0.1 * (0 - 0.1) / (2 * variance) = -0.02 (n - 1), below log(0.05 / 0.975) =
    # -2.9704 first at n = 150 (-2.980; at 148, -2.940; at 149 the mean is 1/298 and the
    # upper side's ratio -2.761)
    results = [1, 0] * 100
    fake, asked = _fixed(results)
    tally = play_pairing("a", "b", fake, 200, Sprt(0.05, 0.05, 0.1))
    assert (tally.games, tally.decision) == (150, "H0")
    assert tally.test.llrs[0] == pytest.approx(-0.02 * 149)
    assert asked[-1] == list(range(140, 150))  # played 10 at a time
    fake, _ = _fixed(results)
    capped = play_pairing("a", "b", fake, 100, Sprt(0.05, 0.05, 0.1))
    assert (capped.games, capped.decision) == (100, "continue")
    found = ladder(["a", "b"], _fixed(results)[0], 100, sequential=(0.05, 0.05, 0.1))
    (row,) = found["pairings"]
    assert (row["decision"], row["most"], row["games"]) == ("undecided", 100, 100)
    assert "(sequential test: undecided, at most 100)" in terminal(found)
    found = ladder(["a", "b"], _fixed([1] * 30)[0], 30, sequential=(0.05, 0.05, 0.1))
    assert found["pairings"][0]["decision"] == "above one half"
    assert found["pairings"][0]["games"] == 10
    # decided inside a batch: 9 wins and a loss (differences from one half: mean 0.4,
    # sample variance 0.1, upper ratio 10 * 0.1 * (0.8 - 0.1) / 0.2 = 3.5, below
    # log(0.95 / 0.025) = 3.6376), then a win (mean 4.5/11, variance 1/11, ratio
    # 1.1 * (9/11 - 0.1) * 11/2 = 4.345): decided at game 11, checked game by game
    fake, asked = _fixed([1] * 9 + [0] + [1] * 40)
    tally = play_pairing("a", "b", fake, 50, Sprt(0.05, 0.05, 0.1))
    assert (tally.games, tally.decision) == (11, "H1")
    assert tally.test.llrs[0] == pytest.approx(4.345)
    assert asked == [list(range(10)), list(range(10, 20))]


def test_a_short_real_ladder():
    ruleset = load_ruleset("orbitus")

    def real(bots, games):
        setup = Setup("orbitus", ruleset, tuple(bots), 8, 1)
        return [play(setup, 2, i) for i in games]

    found = ladder(["random", "greedy"], real, 12)
    greedy = found["pairings"][0]
    assert greedy["games"] == 12 and greedy["high_share"] > 0.7
    assert found["ratings"][1]["elo"] > 0


def test_a_search_rung_is_reproducible_and_plays_whole_games():
    """A ladder with the search bot gives the same games and ratings when played again
    from the same seed (its leaves are judged after value-bot replies in its own deals)."""
    ruleset = load_ruleset("orbitus")

    def real(bots, games):
        setup = Setup("orbitus", ruleset, tuple(bots), 8, 3)
        return [play(setup, 2, i) for i in games]

    first = ladder(["value", "mcts:2"], real, 2)
    assert first == ladder(["value", "mcts:2"], real, 2)
    (pairing,) = first["pairings"]
    assert pairing["games"] == 2 and (pairing["low"], pairing["high"]) == ("value", "mcts:2")


def test_a_sequential_ladder_command_stops_each_pairing_when_decided(tmp_path, capsys):
    """``pnp sim ladder --sprt``: the pairings end where their tests decide, the same games
    on one core or two, and a resumed ladder plays nothing more and says the same."""
    import json

    from sim.cli import main

    args = ["ladder", "orbitus", "--rungs", "random,greedy,value", "--games", "40", "--sprt",
            "--json", "-q"]
    assert main([*args, "--jobs", "1", "--out", str(tmp_path / "one")]) == 0
    one = json.loads(capsys.readouterr().out)
    assert one["sprt"] == {"alpha": 0.05, "beta": 0.05, "effect": 0.1}
    assert [(r["high"], r["low"], r["games"], r["decision"]) for r in one["pairings"]] == [
        ("greedy", "random", 10, "above one half"), ("value", "random", 10, "above one half"),
        ("value", "greedy", 15, "above one half")]
    assert one["each_rung_beats_the_one_below"] is True
    from jsonschema import Draft202012Validator

    schema = json.loads((Path(__file__).resolve().parent.parent / "docs" / "schemas"
                         / "sim-ladder.schema.json").read_text(encoding="utf-8"))
    assert list(Draft202012Validator(schema).iter_errors(one)) == []
    assert main([*args, "--jobs", "2", "--out", str(tmp_path / "two")]) == 0
    assert json.loads(capsys.readouterr().out) == one
    games = (tmp_path / "one" / "pairing-2-3" / "games.jsonl").read_text(encoding="utf-8")
    assert main([*args, "--jobs", "1", "--out", str(tmp_path / "one"), "--resume"]) == 0
    assert json.loads(capsys.readouterr().out) == one
    assert (tmp_path / "one" / "pairing-2-3" / "games.jsonl").read_text(
        encoding="utf-8") == games
    assert "sequential test" in (tmp_path / "one" / "ladder.html").read_text(encoding="utf-8")
