"""``pnp-sim``: statistics against published values, the greedy evaluation against the rules
core's scorer, bots that see only their view, reproducible runs across --jobs and Ray,
resume, the report and compare, bad input."""

from __future__ import annotations

import gc
import json
import math
import os
import random
import shlex
import signal
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

import rules
from cards.ruleset_cache import load_ruleset
from rules.orbitus.actions import PLACE, REMOVE
from rules.orbitus.engine import Placed, State, new_game
from rules.orbitus.view import view_for
from sim import run as simrun
from sim.bots import BOTS, GreedyBot, RandomBot, TacticalBot, Turn
from sim.cli import main
from sim.orbitus import SIM as ORBITUS
from sim.orbitus import Changes
from sim.play import Setup, game_seed, lineup, play
from sim.search import MctsBot
from sim.stats import Spread, score_test, two_means, two_proportions, wilson

ROOT = Path(__file__).resolve().parent.parent
HAS_SATELLITES = hasattr(__import__("rules.satellites", fromlist=["x"]), "GAME")


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset("orbitus")


def sim(args: list[str], capsys) -> tuple[int, str, str]:
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


# --- statistics against known values ----------------------------------------------------------


@pytest.mark.parametrize(("x", "n", "low", "high"), [
    # R. G. Newcombe (1998), Statistics in Medicine 17, 857-872, table II, method 3 (Wilson)
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_interval_matches_newcombes_examples(x, n, low, high):
    got = wilson(x, n)
    assert round(got[0], 4) == low and round(got[1], 4) == high


def test_difference_of_proportions_matches_newcombe_and_the_z_test():
    # Newcombe (1998), Statistics in Medicine 17, 873-890, table II, method 10:
    # 56/70 - 48/80 -> 0.0524 to 0.3339; 9/10 - 3/10 -> 0.1705 to 0.8090
    d = two_proportions(48, 80, 56, 70)
    assert round(d.diff, 4) == 0.2
    assert (round(d.low, 4), round(d.high, 4)) == (0.0524, 0.3339)
    # the pooled two-proportion z-test (statsmodels' proportions_ztest gives the same:
    # z = 2.6502, p = 0.008045)
    assert round(d.z, 4) == 2.6502 and round(d.p, 6) == 0.008045
    assert d.significant
    d = two_proportions(3, 10, 9, 10)
    assert (round(d.low, 4), round(d.high, 4)) == (0.1705, 0.8090)
    same = two_proportions(50, 100, 50, 100)
    assert same.diff == 0 and same.p == 1.0 and not same.significant


def test_score_test_agrees_with_the_wilson_interval():
    # 540 first-seat wins of 1000 two-player games: z = 0.04 / sqrt(0.25 / 1000) = 2.5298
    z, p = score_test(540, 1000, 0.5)
    assert round(z, 4) == 2.5298 and round(p, 4) == 0.0114
    for wins in range(440, 561, 5):
        low, high = wilson(wins, 1000)
        assert (score_test(wins, 1000, 0.5)[1] < 0.05) == (not low <= 0.5 <= high)


def test_chi_square_tail_and_the_seats_test():
    from sim.stats import chi_square_sf, seats_test

    # the 5 % critical values of the chi-square distribution (any table): df 1: 3.841,
    # df 2: 5.991, df 4: 9.488, df 5: 11.070; and the 1 % value for df 3: 11.345
    for x, df, p in [(3.841459, 1, 0.05), (5.991465, 2, 0.05), (9.487729, 4, 0.05),
                     (11.070498, 5, 0.05), (11.344867, 3, 0.01)]:
        assert math.isclose(chi_square_sf(x, df), p, rel_tol=1e-5)
    assert chi_square_sf(0, 3) == 1.0 and chi_square_sf(500, 2) < 1e-100
    # 100 games per seat expected of 400: 120, 80, 100, 100 -> 4 + 4 = 8.0, df 3
    stat, df, p = seats_test([120, 80, 100, 100], 400)
    assert (stat, df) == (8.0, 3) and math.isclose(p, 0.0460, abs_tol=5e-5)


def test_difference_of_means_and_histograms():
    d = two_means(10.0, 4.0, 100, 11.0, 9.0, 100)
    se = math.sqrt(0.04 + 0.09)
    assert d.diff == 1.0 and math.isclose(d.z, 1 / se)
    assert math.isclose(d.high - d.low, 2 * 1.959963984540054 * se)
    s = Spread.of([1, 2, 2, 3, 10])
    assert s.n == 5 and s.mean == 3.6 and s.quantile(0.5) == 2 and s.quantile(0.95) == 10
    assert math.isclose(s.variance, sum((v - 3.6) ** 2 for v in [1, 2, 2, 3, 10]) / 4)


def test_the_first_player_is_tested_on_the_games_not_drawn():
    from sim.summary import Summary

    header = {"first_seat": 0, "kinds": ["move", "pass"], "_order": [], "_labels": {}}
    summary = Summary(header)
    for k, winners in enumerate([[0]] * 40 + [[1]] * 40 + [[]] * 20):
        summary.add({"players": 2, "game": k, "bots": ["random", "random"],
                     "winners": winners, "scores": [1, 1], "turns": 10, "actions": [9, 1],
                     "end": "x"})
    block = summary.to_json()["by_players"][0]
    first = block["first_player"]
    assert (first["decided_games"], first["rate"], first["p"]) == (80, 0.5, 1.0)
    assert block["seats"][0]["rate"] == 0.4 and block["draws"]["rate"] == 0.2
    assert first["ci"] == [round(x, 6) for x in wilson(40, 80)]


# --- seeds and line-ups -----------------------------------------------------------------------


def test_game_seed_depends_on_the_run_seed_player_count_and_game_only():
    assert game_seed(1, 3, 5) == game_seed(1, 3, 5)
    assert len({game_seed(1, 3, 5), game_seed(2, 3, 5), game_seed(1, 4, 5),
                game_seed(1, 3, 6)}) == 4
    assert game_seed(1, 3, 5) == 6178700845134826872  # the same on every machine and Python
    assert game_seed(7, 2, 0) < 2 ** 63


def test_lineup_turns_one_seat_every_game():
    bots = ("greedy", "random")
    assert [lineup(bots, 2, i) for i in range(3)] == [
        ("greedy", "random"), ("random", "greedy"), ("greedy", "random")]
    assert lineup(("mcts",), 4, 9) == ("mcts",) * 4


# --- the greedy evaluation against the scorer -------------------------------------------------


def test_greedy_score_changes_equal_the_difference_of_two_full_scores(ruleset):
    """Every placement and removal of positions of random games: the incremental change of
    the mover's own score equals scoring the table before and after with the rules core."""
    checked = 0
    for seed in range(6):
        for n in (2, 3, 4, 6):
            state = new_game(ruleset, ["A", "B", "C", "D", "E", "F"][:n], seed)
            rng = random.Random(seed)
            turn = 0
            while not state.over:
                legal = state.legal_actions()
                if turn % 5 == 0:
                    seat = state.to_move
                    before = state.score().totals[seat]
                    changes = Changes(state.game, view_for(state, seat)).of(legal)
                    assert [a for _, a in changes] == list(legal)
                    sample = changes[::max(1, len(changes) // 12)]
                    sample += [c for c in changes if c[1].kind == REMOVE]
                    for change, action in sample:
                        if action.kind not in (PLACE, REMOVE):
                            assert change == 0
                            continue
                        board = dict(state.board)
                        if action.kind == PLACE:
                            mask = state.game.cards[action.card].masks[action.rot]
                            board[action.cell] = Placed(action.card, action.rot, mask)
                        else:
                            del board[action.cell]
                        after = State(state.game, board, state.deck, state.drawn,
                                      state.hands, state.limits, seat, state.passed, 0)
                        assert change == after.score().totals[seat] - before, action
                        checked += 1
                state = state.after(legal[rng.randrange(len(legal))])
                turn += 1
    assert checked > 2000


# --- what a bot may see -----------------------------------------------------------------------


class Peeker:
    """A bot that tries to read another seat's hand."""

    name = "peeker"

    def choose(self, turn: Turn, rng: random.Random):
        other = (turn.seat + 1) % len(turn.view.hand_sizes)
        return turn.view.hands[other][0]


class DeckPeeker:
    name = "deck-peeker"

    def choose(self, turn: Turn, rng: random.Random):
        return turn.view.deck[turn.view.deck_size - turn.view.deck_left]


def _turn(ruleset, players=3, seed=4, moves=10):
    state = new_game(ruleset, ["A", "B", "C"][:players], seed)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = state.legal_actions()
        state = state.after(legal[rng.randrange(len(legal))])
    seat = state.to_move
    turn = Turn(seat, rules.get("orbitus").view_for(state, seat), state.legal_actions(),
                ORBITUS.public(state), ORBITUS)
    return state, turn


@pytest.mark.parametrize("bot", [Peeker(), DeckPeeker()])
def test_a_bot_that_reads_another_hand_or_the_deck_fails(ruleset, bot):
    _, turn = _turn(ruleset)
    with pytest.raises(AttributeError):
        bot.choose(turn, random.Random(1))


def test_nothing_a_bot_gets_leads_to_the_state_or_hidden_cards(ruleset):
    """Everything reachable from a Turn (following the objects' own data, not modules,
    classes or functions) holds no State, no other hand and not the deck order."""
    state, turn = _turn(ruleset)
    hidden = {tuple(h) for s, h in enumerate(state.hands) if s != turn.seat}
    deck_order = state.deck
    seen: set[int] = set()
    stack: list[object] = [turn]
    skip = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType,
            types.MethodType, types.CodeType)
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen.add(id(obj))
        assert not isinstance(obj, State)
        if isinstance(obj, tuple):
            assert not any(obj == h for h in hidden) or obj == turn.view.hand
            assert obj != deck_order
        stack.extend(gc.get_referents(obj))
    assert turn.view.hand == state.hands[turn.seat]
    assert len(seen) > 100


def test_bots_choose_legal_actions_from_the_view_alone(ruleset):
    _, turn = _turn(ruleset, players=2, moves=6)
    legal = list(turn.legal)
    for bot in (RandomBot(), GreedyBot(), MctsBot(budget=8), TacticalBot(MctsBot(budget=8))):
        assert bot.choose(turn, random.Random(3)) in legal
    assert set(BOTS) == {"random", "greedy", "value", "mcts", "tactics", "deep", "wary",
                         "closer"}


def test_greedy_beats_random_clearly(ruleset):
    setup = Setup("orbitus", ruleset, ("greedy", "random"), 8, 3)
    greedy = 0.0
    for index in range(16):
        record = play(setup, 2, index)
        for seat in record["winners"]:
            if record["bots"][seat] == "greedy":
                greedy += 1 / len(record["winners"])
    assert greedy >= 13


def test_the_same_game_is_played_on_every_machine(ruleset):
    """Game 0 of the 3-player games of run seed 1, pinned: a change in dealing, seeding
    or a bot's choices shows here (and makes earlier runs impossible to resume)."""
    record = play(Setup("orbitus", ruleset, ("random",), 8, 1), 3, 0)
    assert (record["scores"], record["turns"], record["actions"], record["winners"]) == (
        [-5, -3, -19], 75, [71, 2, 1, 1], [1])
    record = play(Setup("orbitus", ruleset, ("greedy", "random"), 8, 1), 3, 0)
    assert record["bots"] == ["greedy", "random", "greedy"]
    assert (record["scores"], record["turns"], record["winners"]) == ([0, -28, 0], 77, [0, 2])


def test_a_record_holds_the_scores_and_their_components(ruleset):
    record = play(Setup("orbitus", ruleset, ("random",), 8, 1), 3, 0)
    assert record["players"] == 3 and record["game"] == 0
    assert record["seed"] == game_seed(1, 3, 0)
    assert len(record["seats"]) == 3 and record["end"] == "quiet-round"
    for seat, total in zip(record["seats"], record["scores"], strict=True):
        assert sum(v for k, v in seat.items() if not isinstance(v, dict)) == total
    assert sum(record["actions"]) == record["turns"]
    placed = sum(record["cards"]["placed"].values())
    assert placed == record["actions"][PLACE]


# --- the command ------------------------------------------------------------------------------


def test_same_seed_gives_byte_identical_json_whatever_jobs_is(tmp_path, capsys):
    outs = []
    for jobs in ("1", "2"):
        code, out, err = sim(["orbitus", "--players", "2,3", "--games", "24", "--seed", "5",
                              "--bots", "random,greedy", "--jobs", jobs,
                              "--out", str(tmp_path / jobs), "--json"], capsys)
        assert code == 0, err
        outs.append(out)
    assert outs[0] == outs[1]
    assert (tmp_path / "1" / "report.json").read_bytes() == \
        (tmp_path / "2" / "report.json").read_bytes()
    lines = [sorted((tmp_path / j / "games.jsonl").read_text().splitlines()) for j in "12"]
    assert lines[0] == lines[1] and len(lines[0]) == 48
    summary = json.loads(outs[0])
    assert [b["players"] for b in summary["by_players"]] == [2, 3]
    for block in summary["by_players"]:
        assert math.isclose(sum(s["rate"] for s in block["seats"]) + block["draws"]["rate"],
                            1, abs_tol=1e-5)


def test_a_local_ray_run_gives_the_process_pool_results(tmp_path, capsys):
    if os.environ.get("CI"):
        import ray
    else:
        ray = pytest.importorskip("ray")
    args = ["orbitus", "--players", "3", "--games", "16", "--seed", "9", "--json"]
    code, pooled, err = sim([*args, "--jobs", "2", "--out", str(tmp_path / "pool")], capsys)
    assert code == 0, err
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        code, on_ray, err = sim([*args, "--ray", "auto", "--out", str(tmp_path / "ray")],
                                capsys)
    finally:
        ray.shutdown()
    assert code == 0, err
    assert on_ray == pooled
    assert (tmp_path / "ray" / "report.json").read_bytes() == \
        (tmp_path / "pool" / "report.json").read_bytes()


def test_resume_finishes_an_interrupted_run_with_the_same_result(tmp_path, capsys):
    args = ["orbitus", "--players", "2", "--games", "20", "--seed", "3", "--jobs", "1",
            "--json"]
    code, whole, _ = sim([*args, "--out", str(tmp_path / "whole")], capsys)
    assert code == 0
    # an interruption after 7 games, the 8th line cut off half-way
    cut = tmp_path / "cut"
    cut.mkdir()
    (cut / "run.json").write_bytes((tmp_path / "whole" / "run.json").read_bytes())
    lines = (tmp_path / "whole" / "games.jsonl").read_text().splitlines(keepends=True)
    (cut / "games.jsonl").write_text("".join(lines[:7]) + lines[7][:40])
    code, out, err = sim([*args, "--out", str(cut)], capsys)
    assert code == 2
    assert err == (f"pnp-sim: {cut} holds an unfinished run (7 of 20 games); continue it "
                   f"with --resume, or choose another --out\n")
    code, resumed, err = sim([*args, "--out", str(cut), "--resume"], capsys)
    assert code == 0, err
    assert resumed == whole
    assert sorted((cut / "games.jsonl").read_text().splitlines()) == \
        sorted(line.rstrip("\n") for line in lines)


def test_resume_refuses_other_options(tmp_path, capsys):
    out = str(tmp_path / "run")
    assert sim(["orbitus", "--players", "2", "--games", "4", "--out", out], capsys)[0] == 0
    code, _, err = sim(["orbitus", "--players", "2", "--games", "6", "--seed", "2",
                        "--out", out, "--resume"], capsys)
    assert code == 2
    assert err == (f"pnp-sim: --resume: the options differ from the run in {out} (games 4 "
                   f"then, 6 now; seed 1 then, 2 now); give the same options, or another "
                   f"--out to start a new run\n")
    code, _, err = sim(["orbitus", "--out", str(tmp_path / "none"), "--resume"], capsys)
    assert code == 2 and "holds no run of pnp-sim to continue" in err


def test_a_folder_with_someone_elses_report_is_not_overwritten(tmp_path, capsys):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "report.html").write_text("my own notes")
    code, _, err = sim(["orbitus", "--players", "2", "--games", "2", "--out", str(out)],
                       capsys)
    assert code == 2
    assert err == (f"pnp-sim: {out} holds report.html, which pnp-sim did not write; choose "
                   f"another --out (nothing is overwritten)\n")
    assert (out / "report.html").read_text() == "my own notes"
    assert sorted(p.name for p in out.iterdir()) == ["report.html"]


def test_ctrl_c_keeps_the_finished_games_and_prints_a_resume_hint(tmp_path, capsys,
                                                                   monkeypatch):
    real = simrun.play_many
    calls = []

    def interrupted(setup, batch):
        calls.append(batch)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(setup, batch)

    monkeypatch.setattr(simrun, "play_many", interrupted)
    out = tmp_path / "my run"  # a space: the hint must quote it
    args = ["orbitus", "--players", "2", "--games", "40", "--jobs", "1", "--out", str(out),
            "--json"]
    code, _, err = sim(args, capsys)
    assert code == 130
    kept = (out / "games.jsonl").read_text().splitlines()
    assert len(kept) == len(calls[0]) + len(calls[1]) > 0
    assert err.splitlines() == [
        f"pnp-sim: interrupted after {len(kept)} of 40 games; the finished games are kept in "
        f"{out / 'games.jsonl'}",
        f"pnp-sim: continue with: pnp-sim orbitus --players 2 --games 40 --jobs 1 --out "
        f"'{out}' --json --resume"]
    # pasted into a shell, the hint is the same command line with --resume: every option
    # (--json too) kept
    hint = err.splitlines()[1].split("continue with: ", 1)[1]
    assert shlex.split(hint) == ["pnp-sim", *args, "--resume"]
    monkeypatch.setattr(simrun, "play_many", real)
    code, text, err = sim(shlex.split(hint)[1:], capsys)
    assert code == 0, err
    assert json.loads(text)["by_players"][0]["games"] == 40
    assert len((out / "games.jsonl").read_text().splitlines()) == 40


def test_the_resume_hint_names_the_command_as_it_was_started(tmp_path, capsys, monkeypatch):
    def interrupted(setup, batch):
        raise KeyboardInterrupt

    monkeypatch.setattr(simrun, "play_many", interrupted)
    monkeypatch.chdir(tmp_path)
    code = main(["satellites", "--games", "5", "--bots", "mcts:8,value+never-displace",
                 "--jobs", "1"], prog="pnp sim")
    err = capsys.readouterr().err
    assert code == 130
    assert err.splitlines()[-1] == ("pnp sim: continue with: pnp sim satellites --games 5 "
                                    "--bots mcts:8,value+never-displace --jobs 1 --out "
                                    "output/sim/satellites --resume")


def test_ctrl_c_on_a_real_process_pool(tmp_path):
    out = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from sim.cli import main; "
                             "sys.exit(main(sys.argv[1:]))", "orbitus", "--players", "4",
                             "--games", "2000", "--jobs", "2", "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path)
    games = out / "games.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not games.exists() or not games.stat().st_size):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert stderr.splitlines()[-1].endswith(f"--out {out} --resume")
    kept = games.read_text().splitlines()
    assert 0 < len(kept) < 2000
    assert all(json.loads(line)["players"] == 4 for line in kept)


def test_terminal_report_and_html_with_plots(tmp_path, capsys):
    out = tmp_path / "run"
    code, text, err = sim(["orbitus", "--players", "3", "--games", "30", "--jobs", "1",
                           "--out", str(out)], capsys)
    assert code == 0, err
    lines = text.splitlines()
    assert lines[0] == "Orbitus from cards/ (shipped): bots random, seed 1"
    assert "3 players, 30 games" in lines
    assert any(line.startswith("  first player (seat 1) wins ") for line in lines)
    assert any(line.startswith("  planet type that pays least: ") for line in lines)
    assert any(line.startswith("  actions: place ") for line in lines)
    page = (out / "report.html").read_text()
    for name in ("win-rates", "score-components", "game-length", "actions", "cards"):
        png = out / "plots" / f"{name}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f'src="plots/{name}.png"' in page
    assert "pnp-sim orbitus --players 3 --games 30 --bots random --seed 1" in page
    report = json.loads((out / "report.json").read_text())
    block = report["by_players"][0]
    assert block["games"] == 30 and len(block["cards"]) == 72
    assert block["first_player"]["fair"] == round(1 / 3, 6)
    assert set(block["components"]) >= {"planet:ice", "pirates", "open_routes", "blocks"}


def test_the_report_without_matplotlib_says_how_to_get_plots(tmp_path, capsys, monkeypatch):
    from sim import plots

    monkeypatch.setattr(plots, "available", lambda: False)
    out = tmp_path / "run"
    code, text, _ = sim(["orbitus", "--players", "2", "--games", "4", "--out", str(out)],
                        capsys)
    assert code == 0
    assert "pip install -e '.[sim]'" in text
    assert "pip install -e &#x27;.[sim]&#x27;" in (out / "report.html").read_text()
    assert not (out / "plots").exists()


def test_compare_flags_a_significant_change(tmp_path, capsys, cards_copy):
    rules_file = cards_copy / "orbitus" / "rules.yaml"
    text = rules_file.read_text()
    assert "  pirate: -3 " in text
    rules_file.write_text(text.replace("  pirate: -3 ", "  pirate: -9 "))
    out = tmp_path / "cmp"
    code, text, err = sim(["compare", str(ROOT / "cards"), str(cards_copy), "--game",
                           "orbitus", "--players", "2", "--games", "60", "--jobs", "2",
                           "--out", str(out), "--json"], capsys)
    assert code == 0, err
    result = json.loads(text)
    rows = {r["label"]: r for r in result["by_players"][0]["rows"]}
    # only the pirates changed, so the score changes exactly as they do, game by game: one
    # row says it, naming the other
    score = rows["score per player"]
    assert score["significant"] and score["difference"]["diff"] < 0
    assert score["same_as"] == ["pirates per player"]
    assert score["pairs"]["up"] == 0 and score["pairs"]["down"] > 20
    assert "pirates per player" not in rows
    # the same seeds: the game lengths and actions do not depend on the scoring
    assert rows["game length (turns)"]["difference"]["diff"] == 0
    assert not rows["seat 1 win share"]["significant"]
    assert (out / "compare.html").exists() and (out / "plots" / "compare-2p.png").exists()
    assert (out / "a" / "games.jsonl").exists() and (out / "b" / "games.jsonl").exists()


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "message"), [
    (["orbitus", "--games", "0"],
     "pnp-sim orbitus: --games: 0 is too small (at least 1); e.g. --games 1000 "
     "(see pnp-sim orbitus --help)"),
    (["orbitus", "--bots", "random,knight"],
     "pnp-sim orbitus: --bots random,knight: 'knight' is not a bot; the bots are random, "
     "greedy, value, mcts, tactics, deep, wary, closer (see pnp-sim orbitus --help)"),
    (["orbitus", "--bots", "random,gready"],
     "pnp-sim orbitus: --bots random,gready: 'gready' is not a bot; the bots are random, "
     "greedy, value, mcts, tactics, deep, wary, closer; did you mean greedy? (see pnp-sim "
     "orbitus --help)"),
    (["orbitus", "--players", "7"],
     "pnp-sim orbitus: --players 7: Orbitus is played by 2 to 6 players, not 7 "
     "(see pnp-sim orbitus --help)"),
    (["orbitus", "--players", "two"],
     "pnp-sim orbitus: --players two: give player counts such as 3, 2-6 or 2,3,4 "
     "(see pnp-sim orbitus --help)"),
    (["orbitus", "--budget", "-1"],
     "pnp-sim orbitus: --budget: -1 is too small (at least 1); e.g. --budget 64 "
     "(see pnp-sim orbitus --help)"),
    (["orbitus", "--jobs", "x"], "pnp-sim orbitus: --jobs: 'x' is not a whole number; e.g. "
                                 "--jobs 2 (see pnp-sim orbitus --help)"),
    (["chess"], "pnp-sim: {orbitus,satellites,compare,ladder,tune}: invalid choice: 'chess' "
                "(choose from 'orbitus', 'satellites', 'compare', 'ladder', 'tune') "
                "(see pnp-sim --help)"),
    (["orbitus", "--bots", "mcts:0"],
     "pnp-sim orbitus: --bots mcts:0: 'mcts:0': a budget of 0 iterations; give at least 1, "
     "e.g. mcts:64 (see pnp-sim orbitus --help)"),
    (["orbitus", "--bots", "mcts:fast"],
     "pnp-sim orbitus: --bots mcts:fast: 'mcts:fast': 'fast' is neither a number of "
     "iterations nor a time; e.g. mcts:64, mcts:200ms or mcts:64/200ms "
     "(see pnp-sim orbitus --help)"),
    (["satellites", "--bots", "tactics:0,greedy"],
     "pnp-sim satellites: --bots tactics:0,greedy: 'tactics:0': a budget of 0 iterations; "
     "give at least 1, e.g. mcts:64 (see pnp-sim satellites --help)"),
    (["orbitus", "--bots", "tactics:16,greedy"],
     "pnp-sim: --bots tactics:16: tactics plays only Satellites; Orbitus has no tactics, "
     "use mcts"),
    (["orbitus", "--bots", "greedy,deep:16"],
     "pnp-sim: --bots deep:16: deep plays only Satellites; Orbitus has no tactics, use mcts"),
    (["satellites", "--bots", "never-place-ice"],
     "pnp-sim: --bots value+never-place-ice: 'never-place-ice' is not a restriction of "
     "Satellites; its restrictions are never-displace; did you mean never-displace?"),
    (["orbitus", "--think", "0ms"],
     "pnp-sim orbitus: --think 0ms: '0ms': a thinking time must be above 0; e.g. 200ms "
     "(see pnp-sim orbitus --help)"),
    (["ladder", "orbitus", "--rungs", "greedy"],
     "pnp-sim ladder: --rungs greedy: a ladder needs at least two bots "
     "(see pnp-sim ladder --help)"),
    (["ladder", "orbitus", "--effect", "0.2"],
     "pnp-sim ladder: --effect belongs to the sequential test: add --sprt, or leave "
     "--effect out (see pnp-sim ladder --help)"),
    (["ladder", "orbitus", "--sprt", "--alpha", "0.5", "--beta", "0.5"],
     "pnp-sim ladder: --alpha 0.5 and --beta 0.5 must add up to less than 1 "
     "(see pnp-sim ladder --help)"),
    (["tune", "orbitus", "--target", "fun>9000"],
     "pnp-sim tune: --target 'fun>9000': cannot be read; e.g. \"seat-gap<2%\", \"length "
     "25..40 turns\", \"draws<5%\"; the measures are seat-gap, first-seat, draws, length, "
     "score (see pnp-sim tune --help)"),
    (["tune", "orbitus", "--target", "first-seat<21%", "--prune-every", "5"],
     "pnp-sim tune: --prune-every: 5 is too small (at least 10); e.g. --prune-every 100 "
     "(see pnp-sim tune --help)"),
    (["tune", "orbitus", "--target", "first-seat<21%", "--games", "100", "--prune-every",
      "100"],
     "pnp-sim tune: --prune-every 100: must be fewer than the 100 games a trial plays per "
     "player count (--games), or it never prunes (see pnp-sim tune --help)"),
    (["compare", "a", "b", "--game", "orbitus", "--sprt"],
     "pnp-sim compare: --sprt needs --effect: the change worth finding in the metric's "
     "unit, e.g. --effect 0.05 for 5 points of a win share, --effect 0.25 for a quarter "
     "point of score (see pnp-sim compare --help)"),
    (["compare", "a", "b", "--game", "orbitus", "--sprt", "--effect", "0"],
     "pnp-sim compare: --effect: 0 must be above 0; e.g. --effect 0.25 "
     "(see pnp-sim compare --help)"),
    (["compare", "a", "b", "--game", "orbitus", "--alpha", "2"],
     "pnp-sim compare: --alpha: 2 must lie between 0 and 1; e.g. --alpha 0.05 "
     "(see pnp-sim compare --help)"),
    (["compare", "a", "b", "--game", "orbitus", "--primary", "fun"],
     "pnp-sim compare: --primary fun: not a measure; one of seat:N (seat N's win share), "
     "draws, length, score, component:NAME (a score component), action:KIND (a kind of "
     "action's share), end:REASON (see pnp-sim compare --help)"),
    (["compare", "a", "b", "--game", "orbitus", "--effect", "0.2"],
     "pnp-sim compare: --effect belongs to the sequential test: add --sprt, or leave "
     "--effect out (see pnp-sim compare --help)"),
    (["orbitus", "--cards", "no-such-folder"],
     "pnp-sim: no-such-folder: no such folder (expected a definitions folder with orbitus/ "
     "inside, like the shipped cards/)"),
])
def test_bad_options_give_one_line_and_exit_2(tmp_path, capsys, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    code, out, err = sim(args, capsys)
    assert (code, out) == (2, "")
    assert err == message + "\n"
    assert not (tmp_path / "output").exists()


def test_broken_definitions_give_pnp_builds_lines_and_exit_1(tmp_path, capsys, cards_copy,
                                                            monkeypatch):
    rules_file = cards_copy / "orbitus" / "rules.yaml"
    rules_file.write_text(rules_file.read_text().replace("hand_size: 4", "hand_size: -4"))
    build = subprocess.run([str(Path(sys.executable).with_name("pnp-build")), "--cards",
                            "cards", "--game", "orbitus", "--out", "built"],
                           capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert build.returncode == 1
    problems = build.stderr.splitlines()[:-1]
    assert problems == ["cards/orbitus/rules.yaml:4: hand_size: must be at least 1, got -4"]
    monkeypatch.chdir(tmp_path)
    code, out, err = sim(["orbitus", "--cards", "cards"], capsys)
    assert (code, out) == (1, "")
    assert err.splitlines() == [*problems, "pnp-sim: 1 problem(s) in the definitions; "
                                           "nothing was simulated"]
    assert not (tmp_path / "output").exists()


def test_ray_without_ray_installed_says_how_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    code, out, err = sim(["orbitus", "--players", "2", "--games", "2", "--ray", "auto",
                          "--out", str(tmp_path / "r")], capsys)
    assert (code, out) == (2, "")
    assert err == ("pnp-sim: --ray needs Ray, which is not installed: pip install -e "
                   "'.[cluster]' (or pip install ray)\n")


def test_ray_address_where_nothing_listens_fails_at_once(tmp_path, capsys):
    pytest.importorskip("ray")
    import socket

    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = time.monotonic()
    code, out, err = sim(["orbitus", "--players", "2", "--games", "2", "--ray",
                          f"127.0.0.1:{port}", "--out", str(tmp_path / "r")], capsys)
    assert (code, out) == (2, "")
    assert err.startswith(f"pnp-sim: --ray 127.0.0.1:{port}: cannot reach the Ray cluster: "
                          f"nothing answers at 127.0.0.1:{port}")
    assert time.monotonic() - started < 30


def test_a_ray_cluster_that_refuses_says_how_to_give_the_token(tmp_path, capsys, monkeypatch):
    """Something answers at the address but Ray cannot connect: with token authentication
    Ray raises only "Failed to connect" and logs InvalidAuthToken (seen against a real
    token-authenticated head, Ray 2.60); the message names the token and how to pass it."""
    ray = pytest.importorskip("ray")
    import socket

    def refused(*args, **kwargs):
        raise ConnectionError("Failed to connect to Ray cluster at 127.0.0.1:1")

    monkeypatch.setattr(ray, "init", refused)
    with socket.socket() as server:  # something listens, as a Ray head would
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        code, out, err = sim(["orbitus", "--players", "2", "--games", "2", "--ray",
                              f"127.0.0.1:{port}", "--out", str(tmp_path / "r")], capsys)
    assert (code, out) == (2, "")
    assert "the cluster answers but refused the connection: if it uses token " \
           "authentication (Ray's default from 2.61 on), give its token: RAY_AUTH_MODE=token " \
           "and RAY_AUTH_TOKEN=THE-TOKEN (or RAY_AUTH_TOKEN_PATH=FILE)" in err


def test_help_explains_the_options(capsys):
    assert main(["orbitus", "--help"]) == 0
    text = capsys.readouterr().out
    for option in ("--cards", "--players", "--games", "--bots", "--budget", "--seed",
                   "--jobs", "--ray", "--out", "--resume", "--json"):
        assert option in text


def test_pnp_sim_names_itself_as_started(tmp_path, capsys):
    from pnp.cli import main as pnp

    assert pnp(["sim", "orbitus", "--games", "0"]) == 2
    assert capsys.readouterr().err == ("pnp sim orbitus: --games: 0 is too small (at least 1); "
                                       "e.g. --games 1000 (see pnp sim orbitus --help)\n")
    out = tmp_path / "o"
    assert pnp(["sim", "orbitus", "--players", "2", "--games", "2", "--out", str(out)]) == 0
    capsys.readouterr()
    report = json.loads((out / "report.json").read_text())
    assert report["command"] == "pnp-sim orbitus --players 2 --games 2 --bots random --seed 1"


def test_the_installed_command_runs(tmp_path):
    exe = Path(sys.executable).with_name("pnp-sim")
    done = subprocess.run([str(exe), "orbitus", "--players", "2", "--games", "3", "--json",
                           "--out", str(tmp_path / "o")], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["by_players"][0]["games"] == 3


# --- Satellites -------------------------------------------------------------------------------


@pytest.mark.skipif(not HAS_SATELLITES, reason="the Satellites rules core has not landed")
def test_satellites_greedy_counts_colonies_as_the_scorer_does():
    from sim.satellites import SIM as SATELLITES
    from sim.satellites import colonies

    game = rules.get("satellites")
    ruleset = load_ruleset("satellites")
    checked = 0
    for seed in range(4):
        state = game.new_game(ruleset, ("R", "B"), seed)
        rng = random.Random(seed)
        turn = 0
        while not game.is_over(state):
            legal = game.legal_actions(state)
            seat = state.to_move
            turn += 1
            assert colonies(state, seat) == game.scores(state)[seat]
            changes = SATELLITES.score_changes(None, state, legal)
            best = max(v for v, _ in changes)
            assert SATELLITES.best_actions(None, state, legal) == \
                [a for v, a in changes if v == best]
            for change, action in changes if turn % 3 == 0 else []:
                after = game.apply(state, action)
                assert change == game.scores(after)[seat] - game.scores(state)[seat]
                checked += 1
            state = game.apply(state, legal[rng.randrange(len(legal))])
    assert checked > 2_000


@pytest.mark.skipif(not HAS_SATELLITES, reason="the Satellites rules core has not landed")
def test_satellites_random_loop_plays_the_games_of_the_generic_loop():
    setup = Setup("satellites", load_ruleset("satellites"), ("random",), 8, 4)
    for index in range(12):
        assert play(setup, 2, index) == play(setup, 2, index, fast=False)


@pytest.mark.skipif(not HAS_SATELLITES, reason="the Satellites rules core has not landed")
def test_satellites_run_reports_colonies_and_decisions(tmp_path, capsys):
    code, text, err = sim(["satellites", "--games", "40", "--bots", "random,greedy",
                           "--jobs", "2", "--out", str(tmp_path / "s"), "--json"], capsys)
    assert code == 0, err
    block = json.loads(text)["by_players"][0]
    assert block["players"] == 2 and block["games"] == 40
    assert {"colonies", "crowns", "connected"} <= set(block["components"])
    assert sum(block["facts"]["decided_by"].values()) == 40
    assert sum(block["ends"].values()) == 40
    assert set(block["actions"]) == {"normal", "connection", "displacement", "pass"}
