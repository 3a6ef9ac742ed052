"""``pnp sim ladder``: the round robin's tally and ratings from games made by hand, and a
short real ladder."""

from __future__ import annotations

import math

import pytest

from cards.ruleset_cache import load_ruleset
from sim.ladder import ladder, pairings, terminal
from sim.play import Setup, play


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
