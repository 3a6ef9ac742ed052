"""``pnp sim tune``: tunable numbers, targets, the search with its stored study, the diff."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cards.ruleset_cache import load_ruleset
from sim.tune import (
    TuneError,
    current,
    first_trials,
    loss,
    parse_target,
    search,
    steps,
    tunables,
    with_values,
    yaml_diff,
)

ROOT = Path(__file__).resolve().parent.parent


def test_targets_are_read_or_refused():
    gap = parse_target("seat-gap<2%")
    assert (gap.measure, gap.low, gap.high) == ("seat-gap", None, 0.02)
    length = parse_target("length 25..40 turns")
    assert (length.low, length.high) == (25, 40)
    assert length.miss(30) == 0 and length.miss(44) == pytest.approx(4 / 40)
    with pytest.raises(TuneError, match="cannot be read; e.g."):
        parse_target("fun>9000")
    with pytest.raises(TuneError, match="seat-gap is a share; write it with %"):
        parse_target("seat-gap<2")
    with pytest.raises(TuneError, match="the range runs backwards"):
        parse_target("length 40..25")


def test_a_search_tries_the_smallest_changes_first():
    found = tunables({"scoring.open_route": [-2, 0], "hand_size": [4, 6]},
                     load_ruleset("orbitus"), "rules.yaml")
    assert first_trials(found) == [
        {"scoring.open_route": -1, "hand_size": 4},
        {"scoring.open_route": -2, "hand_size": 4}, {"scoring.open_route": 0, "hand_size": 4},
        {"scoring.open_route": -1, "hand_size": 5}]  # 3 lies below the declared range


def test_numbers_are_changed_in_the_ruleset():
    rules = load_ruleset("orbitus")
    changed = with_values(rules, {"scoring.open_route": 0, "scoring.planet_groups.1": -1,
                                  "hand_size": 5})
    assert current(changed, "scoring.open_route") == 0
    assert current(changed, "scoring.planet_groups.1") == -1
    assert current(changed, "scoring.planet_groups.3") == current(rules, "scoring.planet_groups.3")
    assert changed.hand_size == 5 and rules.hand_size == 4
    with pytest.raises(TuneError, match=r"\[-2000, 0\] goes beyond what the definitions allow "
                                         r"\(-1000 to 1000\)"):
        tunables({"scoring.pirate": [-2000, 0]}, rules, "rules.yaml")
    with pytest.raises(TuneError, match="declares nothing to tune"):
        tunables(None, rules, "rules.yaml")


def test_the_loader_refuses_a_number_that_cannot_be_tuned(tmp_path):
    from cards.loader import DefinitionError

    cards = tmp_path / "cards"
    shutil.copytree(ROOT / "cards", cards)
    rules = cards / "orbitus" / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    assert "\ntune:\n" in text  # the shipped file declares what may be tuned
    rules.write_text(text.replace("\ntune:\n", "\ntune:\n  deck_size: [10, 20]\n"),
                     encoding="utf-8")
    with pytest.raises(DefinitionError) as caught:
        load_ruleset("orbitus", cards)
    assert "'deck_size' is not a number that can be tuned" in "\n".join(caught.value.problems)


def test_a_small_search_resumes_from_its_study_and_writes_a_diff(tmp_path):
    from sim.play import Setup, adapter, play
    from sim.summary import Summary

    rules = load_ruleset("satellites")
    sim = adapter("satellites")
    found = tunables({"end_connected": [18, 23]}, rules, "rules.yaml")
    target = parse_target("length 150..250 turns")

    def summarise(ruleset, players, played=30):
        setup = Setup("satellites", ruleset, ("random",), 8, 3)
        summary = Summary({"game": "satellites", "first_seat": 0, "kinds": list(sim.kinds),
                           "_order": [], "_labels": {}})
        for i in range(played):
            summary.add(play(setup, players, i))
        return summary.to_json()["by_players"][0]

    storage = f"sqlite:///{tmp_path / 'study.db'}"
    first = search(found, [target], rules, summarise, (2,), 4, storage, "t", 1, 30)
    assert first["trials"] == 4
    # the definitions as they are first, then the one-step change (23 is the range's top)
    assert [h["values"] for h in first["history"][:2]] == [{"end_connected": 23},
                                                            {"end_connected": 22}]
    again = search(found, [target], rules, summarise, (2,), 6, storage, "t", 1, 30)
    assert again["trials"] == 6  # the four before were kept
    assert again["loss"] <= first["loss"]
    assert loss([target], [summarise(with_values(rules, again["best"]), 2)]) <= \
        loss([target], [summarise(rules, 2)])
    text = (ROOT / "cards" / "satellites" / "rules.yaml").read_text(encoding="utf-8")
    diff = yaml_diff(text, {"end_connected": 20}, "rules.yaml")
    assert "-end_connected: 23" in diff and "+end_connected: 20" in diff
    orbitus = (ROOT / "cards" / "orbitus" / "rules.yaml").read_text(encoding="utf-8")
    diff = yaml_diff(orbitus, {"scoring.planet_groups.1": -1, "scoring.open_route": 0},
                     "rules.yaml")
    assert "+    - {min: 1, max: 1, points: -1}" in diff
    assert "+  open_route: 0" in diff


def test_a_trial_reports_after_every_n_games_and_a_losing_one_is_pruned_early(tmp_path):
    assert steps((5,), 300, None) == [(5, 300)]
    assert steps((5,), 300, 100) == [(5, 100), (5, 200), (5, 300)]
    assert steps((3, 4), 250, 100) == [(3, 100), (3, 200), (3, 250), (4, 100), (4, 200),
                                       (4, 250)]
    rules = load_ruleset("satellites")
    grace = rules.grace_moves
    found = tunables({"end_connected": [22, 24], "grace_moves": [grace - 1, grace + 1]},
                     rules, "rules.yaml")
    target = parse_target("length 0..100 turns")
    calls: list[tuple[int, int, int]] = []

    def summarise(ruleset, players, played):
        # a made-up game: the length grows with end_connected and falls with grace_moves
        calls.append((ruleset.end_connected, ruleset.grace_moves, played))
        length = 100 + 40 * (ruleset.end_connected - 20) + 120 * (grace - ruleset.grace_moves)
        return {"players": players, "length": {"mean": length}}

    storage = f"sqlite:///{tmp_path / 'study.db'}"
    found_best = search(found, [target], rules, summarise, (2,), 5, storage, "t", 1, 30,
                        every=10)
    # the five first trials: as they are (miss 1.2), end_connected 22 (0.8) and 24 (1.6)
    # played out (the pruner waits for three); grace_moves one down misses by 2.4 after its
    # first 10 games, more than the median 1.2 of the trials played out, and is stopped
    # there; one up meets the target (0 + 0.1 for the changed number)
    assert [(h["state"], h["loss"]) for h in found_best["history"]] == [
        ("complete", 1.2), ("complete", 0.9), ("complete", 1.7), ("pruned", 2.4),
        ("complete", 0.1)]
    assert calls == [(23, grace, 10), (23, grace, 20), (23, grace, 30),
                     (22, grace, 10), (22, grace, 20), (22, grace, 30),
                     (24, grace, 10), (24, grace, 20), (24, grace, 30),
                     (23, grace - 1, 10),
                     (23, grace + 1, 10), (23, grace + 1, 20), (23, grace + 1, 30)]
    assert found_best["best"] == {"end_connected": 23, "grace_moves": grace + 1}


def test_the_command_prunes_in_steps_and_keeps_the_numbers_without_playing_them_twice(
        tmp_path, capsys):
    pytest.importorskip("optuna")
    import json

    from sim.cli import main

    out = tmp_path / "tune"
    code = main(["tune", "satellites", "--target", "draws<100%", "--trials", "4", "--games",
                 "20", "--prune-every", "10", "--evidence", "12", "--jobs", "1", "--json",
                 "--out", str(out)])
    result = json.loads(capsys.readouterr().out)
    assert code == 0
    # every trial meets the target, so a changed number only costs: the proposal is to keep
    assert result["changed"] == [] and result["best"] == result["original"]
    assert [h["loss"] for h in result["history"]] == [0.0, 0.1, 0.1, 0.1]
    assert result["command"].endswith("--seed 1 --prune-every 10")
    # each trial played its 20 games in two steps of 10, into one run of its own
    for trial in (out / "trials").iterdir():
        assert len((trial / "games.jsonl").read_text().splitlines()) == 20
    # the evidence of keeping the numbers: the original's 12 fresh games, not played again
    assert (out / "evidence" / "a").is_dir() and not (out / "evidence" / "b").exists()
    (block,) = result["evidence"]["by_players"]
    assert result["evidence"]["games"] == 12
    assert all(row["difference"]["diff"] == 0 for row in block["rows"])
