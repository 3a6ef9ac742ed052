"""Game-feel measures from traces and positions built by hand, and from real games."""

from __future__ import annotations

import pytest

from cards.ruleset_cache import load_ruleset
from sim.feel import (
    Feel,
    branching,
    decisiveness,
    drama,
    kingmaker,
    lead_changes,
    of_game,
)
from sim.play import Setup, play
from sim.summary import Summary

# three seats' worth after each of six moves: seat 0 leads, seat 1 takes over (move 3),
# a shared lead (move 4: no leader), seat 1 again, then seat 0 for good
TRACE = [(1, 0, 0), (2, 1, 0), (0, 3, 1), (2, 2, 0), (1, 3, 0), (4, 1, 0)]


def test_lead_changes_drama_and_decisiveness_by_hand():
    # leaders 0, 0, 1, -, 1, 0: 0 -> 1 and 1 -> 0
    assert lead_changes(TRACE) == 2
    # seat 0 wins: behind by 3 after move 3 and by 2 after move 5 (2 of 6 moves behind)
    assert drama(TRACE, 0) == (3.0, pytest.approx(2 / 6))
    # it leads for good from the sixth move: five of six moves were played before
    assert decisiveness(TRACE, 0) == pytest.approx(5 / 6)
    assert decisiveness([(1, 0)] * 4, 0) == 0.0
    assert branching(list(range(20))) == [0.5, 2.5, 4.5, 6.5, 8.5, 10.5, 12.5, 14.5, 16.5,
                                          18.5]


def test_a_kingmaker_built_by_hand():
    # seat 0 to move, 2 points against 5 and 4: its three moves leave it behind whatever
    # it does, and decide between seat 1 (alone), seat 2 (alone) or both
    assert kingmaker(0, [(2, 5, 4), (2, 4, 5), (1, 5, 5)])
    # one of its moves lets it share the win: not a kingmaker, it still plays to win
    assert not kingmaker(0, [(5, 5, 4), (2, 4, 5)])
    # every move leaves the same winner: nothing to make
    assert not kingmaker(0, [(2, 5, 4), (3, 5, 1)])
    assert not kingmaker(0, [(0, 1)])  # two players: no third to crown


def test_feel_of_a_game_and_of_many():
    one = of_game(TRACE, [10] * 6, [0], True)
    tenths = [None, 10.0, None, 10.0, 10.0, None, 10.0, None, 10.0, 10.0]  # 6 moves
    assert one == {"lead_changes": 2, "branching": tenths, "kingmaking": True,
                   "drama": 3.0, "behind": round(2 / 6, 4), "decisiveness": round(5 / 6, 4)}
    shared = of_game(TRACE, [4] * 6, [0, 1], False)
    assert "drama" not in shared  # a shared win has no single winner to follow
    feel = Feel()
    feel.add(one)
    feel.add(shared)
    got = feel.summary()
    assert got["lead_changes"] == 2 and got["kingmaking"] == 0.5
    assert got["drama"] == 3.0 and got["branching"][:2] == [None, 7.0]


def test_real_games_record_their_feel():
    ruleset = load_ruleset("orbitus")
    setup = Setup("orbitus", ruleset, ("value", "greedy", "random"), 8, 1, feel=True)
    records = [play(setup, 3, i) for i in range(3)]
    plain = play(Setup("orbitus", ruleset, ("value", "greedy", "random"), 8, 1), 3, 0)
    assert "feel" not in plain
    assert {k: v for k, v in records[0].items() if k != "feel"} == plain  # same game
    for r in records:
        assert r["feel"]["kingmaking"] in (True, False)
        assert len(r["feel"]["branching"]) == 10 and r["feel"]["branching"][0] > 10
    summary = Summary({"game": "orbitus", "first_seat": 0, "kinds": ["place", "remove",
                       "discard", "pass"], "_order": [], "_labels": {}})
    for r in records:
        summary.add(r)
    block = summary.to_json()["by_players"][0]
    assert block["feel"]["games"] == 3
