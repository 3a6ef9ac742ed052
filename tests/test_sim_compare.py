"""``pnp sim compare`` on records made by hand: paired per-game differences, McNemar,
the action shares per game, no row twice, and adjusted p-values; then the two real
changes of the issue found at 100 games."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from cards.ruleset_cache import load_ruleset
from sim.compare import compare_records, measures
from sim.play import Setup, adapter, play
from testkit.rulesets import planet_row

KINDS = ("place", "remove")


def record(game: int, winners: list[int], turns: int, actions: list[int],
           scores: tuple[int, int] = (0, 0), end: str = "quiet-round") -> dict:
    return {"players": 2, "game": game, "winners": winners, "scores": list(scores),
            "turns": turns, "actions": actions, "end": end, "seats": [{}, {}]}


def test_measures_of_one_game():
    m = measures(record(0, [0, 1], 10, [6, 4], (3, 3)), KINDS)
    assert m["seat:1"][1] == m["seat:2"][1] == 0.5  # a shared win: half each
    assert m["action:remove"] == ("share of actions: remove (per game)", Fraction(2, 5))
    assert m["score"][1] == 3 and m["length"][1] == 10 and m["draws"][1] == 0


def test_paired_rows_by_hand():
    a = [record(i, [i % 2], 40, [30, 10]) for i in range(10)]
    # B: seven games a turn shorter (one removal fewer), and seat 1 wins game 1 instead
    b = [record(i, [0] if i == 1 else [i % 2], 39 if i < 7 else 40,
                [30, 9] if i < 7 else [30, 10]) for i in range(10)]
    (block,) = compare_records(a, b, KINDS, correction="none")
    rows = {r["key"]: r for r in block["rows"]}
    assert block["games"] == 10
    length = rows["length"]
    assert length["difference"]["diff"] == -0.7
    assert length["pairs"] == {"up": 0, "down": 7, "same": 3}
    assert length["test"] == "paired t"
    # per game 30/40 = 0.75 against 30/39 in seven games; the removals' share is 1 minus
    # that, so its row says the same and is left out
    share = rows["action:place"]["difference"]["diff"]
    assert share == pytest.approx(round(7 * (30 / 39 - 30 / 40) / 10, 6))
    assert "action:remove" not in rows
    seat = rows["seat:1"]
    assert seat["mcnemar"] == {"only_a": 0, "only_b": 1, "p": 1.0}
    # no draws: seat 2's win share is 1 minus seat 1's, so its row is left out
    assert "seat:2" not in rows
    assert "draws" in rows and rows["draws"]["difference"]["diff"] == 0


def test_adjusted_p_values_and_a_primary_measure():
    a = [record(i, [i % 2], 40 + i % 3, [30, 10]) for i in range(30)]
    b = [record(i, [i % 2], 39 + i % 3 if i % 4 else 40 + i % 3, [30, 10]) for i in range(30)]
    (holm,) = compare_records(a, b, KINDS)
    (raw,) = compare_records(a, b, KINDS, correction="none")
    for x, y in zip(holm["rows"], raw["rows"], strict=True):
        assert x["p_adjusted"] >= y["p_adjusted"]
    (primary,) = compare_records(a, b, KINDS, primary="length")
    marked = [r["key"] for r in primary["rows"] if r["significant"]]
    assert marked == ["length"]
    assert all(r["p_adjusted"] is None for r in primary["rows"] if r["key"] != "length")


def test_independent_seeds_use_welch():
    a = [record(i, [i % 2], 40 + i, [30, 10]) for i in range(20)]
    b = [record(i, [i % 2], 40 + i, [30, 10]) for i in range(20)]
    (block,) = compare_records(a, b, KINDS, paired=False)
    row = next(r for r in block["rows"] if r["key"] == "length")
    assert row["test"] == "Welch" and row["difference"]["diff"] == 0
    assert "pairs" not in row


def test_the_issues_two_real_changes_are_found_at_100_games():
    """A lone planet -2 -> -1 (Orbitus, 3 players) raises the score; end_connected 23 ->
    22 (Satellites) shortens games: both significant after Holm's adjustment at 100 games
    of random play, where comparing the two runs as independent samples missed them."""
    orbitus = load_ruleset("orbitus")
    changed = planet_row(orbitus, 1, +1)
    a = [play(Setup("orbitus", orbitus, ("random",), 8, 1), 3, i) for i in range(100)]
    b = [play(Setup("orbitus", changed, ("random",), 8, 1), 3, i) for i in range(100)]
    (block,) = compare_records(a, b, adapter("orbitus").kinds)
    score = next(r for r in block["rows"] if r["key"] == "score")
    assert score["significant"] and score["difference"]["diff"] > 0
    assert score["pairs"]["down"] == 0 and score["pairs"]["up"] >= 90
    satellites = load_ruleset("satellites")
    shorter = dataclasses.replace(satellites, end_connected=22)
    a = [play(Setup("satellites", satellites, ("random",), 8, 1), 2, i) for i in range(100)]
    b = [play(Setup("satellites", shorter, ("random",), 8, 1), 2, i) for i in range(100)]
    (block,) = compare_records(a, b, adapter("satellites").kinds)
    length = next(r for r in block["rows"] if r["key"] == "length")
    assert length["significant"] and length["difference"]["diff"] < 0
    assert length["pairs"]["up"] == 0


# --- the sequential test --------------------------------------------------------------------


def test_sprt_on_pairs_stops_when_decided_and_resumes_the_same():
    from sim.sequential import MetricError, check_metric, run_sprt, value
    from sim.sprt import Sprt

    def pairs(games):
        # B one turn shorter in two games of three
        return [(record(i, [i % 2], 40 + i % 5, [30, 10]),
                 record(i, [i % 2], 40 + i % 5 - (i % 3 != 0), [30, 10])) for i in games]

    calls = []

    def play_pairs(games):
        calls.append(list(games))
        return pairs(games)

    found = run_sprt(Sprt(0.05, 0.05, 0.5), "length", 0, play_pairs, batch=8, most=500)
    assert found["decision"] == "H1" and found["direction"] == "B below A"
    assert found["pairs"] < found["fixed_pairs"] or found["pairs"] <= 16
    assert calls[0] == list(range(8))
    # a resumed run reads the pairs played before and reaches the same decision
    again = run_sprt(Sprt(0.05, 0.05, 0.5), "length", 0, play_pairs, batch=8, most=500,
                     earlier=pairs(range(found["pairs"])))
    assert again == found
    assert value(record(0, [0, 1], 10, [6, 4]), "seat-gap", 0) == 0  # half of a win: fair
    check_metric("component:blocks", 3, ["blocks"])
    with pytest.raises(MetricError, match="--metric seat:4: there are seats 1 to 3"):
        check_metric("seat:4", 3, [])
    with pytest.raises(MetricError, match="--metric speed: not a measure"):
        check_metric("speed", 3, [])


def test_sprt_decides_a_two_point_planet_row_in_fewer_games_than_a_fixed_test():
    """The group of three planets +2 -> +4, 3 players, random play: the SPRT on the mean
    score per player (effect 0.25 points, alpha 0.05, beta 0.1) decides sooner than a
    fixed-size test of the same error rates would need."""
    from sim.sequential import run_sprt
    from sim.sprt import Sprt

    orbitus = load_ruleset("orbitus")
    changed = planet_row(orbitus, 3, +2)
    sa = Setup("orbitus", orbitus, ("random",), 8, 7)
    sb = Setup("orbitus", changed, ("random",), 8, 7)

    def play_pairs(games):
        return [(play(sa, 3, i), play(sb, 3, i)) for i in games]

    found = run_sprt(Sprt(0.05, 0.1, 0.25), "score", 0, play_pairs, batch=10, most=2000)
    assert found["decision"] == "H1" and found["direction"] == "B above A"
    assert found["pairs"] < found["fixed_pairs"]
