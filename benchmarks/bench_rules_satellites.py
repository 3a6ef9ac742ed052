"""Speed of the Satellites rules core (rules/satellites) and of the commands built on it.

1. Random games: complete games from the deal (pnp-setup's, seeds 0, 1, 2 ...) to the end,
   every move drawn uniformly from the legal ones (the engine's ``random_game``), one
   process, one core. Figure: games per second (the issue's budget: at least 300) and
   moves per game.
2. Legal-move generation over every position of those games; a state carries no cache,
   so each position is worked out from its bit masks: the legal moves as the engine gives
   them (``legal_actions``: a lazy sorted sequence that knows its length and any one move;
   budget: at least 100,000 positions per second), the same with every move made an int
   (``list(...)``), and the count alone.
3. Applying moves (connections, groups, the end) and ``check_written()`` of a written
   move (the replay path, with reasons).
4. The size of a pickled state and of its byte encoding (the largest over every position).
5. Whole commands, interpreter start included (median of several runs, ruleset cache
   warm): ``pnp-score satellites`` on a 10 x 10 board (budget 120 ms), the same with the
   cache cold, ``pnp-setup satellites --seed 42`` and ``pnp-replay`` of the 104-move golden
   record.

In-process figures (1 to 4) are the best of three runs in CPU time of this process, so
that other work on a shared machine skews them less; the commands (5) are wall time.

Run: .venv/bin/python benchmarks/bench_rules_satellites.py [--runs N] [--games N]
"""

from __future__ import annotations

import argparse
import os
import pickle
import platform
import random
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import timing
from timing import command, figure, median_wall_ms

import rules
from rules.satellites.engine import State, action_text, apply, deal, random_game
from rules.satellites.legal import count_legal, legal_actions
from rules.satellites.notation import parse_move
from rules.satellites.why import check_written
from scorer.satellites.board import load_rules

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "tests" / "fixtures" / "records" / "satellites"
BOARD_10 = ROOT / "tests" / "fixtures" / "satellites" / "end_23_connected.txt"
POSITION_GAMES = 60  # the games whose positions the figures 2 to 4 use


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    """The least CPU time (seconds) of ``repeat`` calls of ``fn``."""
    return timing.best_of(fn, repeat, time.process_time)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15, help="runs of each whole command")
    parser.add_argument("--games", type=int, default=300, help="random games")
    args = parser.parse_args()
    ruleset = load_rules()
    game = rules.get("satellites")
    print(f"machine: {platform.machine()} {platform.processor() or ''}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}")

    # 1. random games ------------------------------------------------------------------------
    played: list[tuple[State, list[int]]] = []

    def play() -> None:
        played[:] = []
        for seed in range(args.games):
            start = deal(ruleset, seed)
            actions, _ = random_game(start, random.Random(seed))
            played.append((start, actions))

    seconds = best_of(play, repeat=3)
    moves = sum(len(a) for _, a in played)
    figure("Satellites complete random games, deal to end, one core (CPU time)",
           args.games / seconds, 300, unit="games/s", better="higher", indent="",
           note=f"{args.games} games, {moves / args.games:.1f} moves each, "
                f"{moves / seconds:,.0f} moves/s")

    # 2.-4. positions ---------------------------------------------------------------------------
    states: list[State] = []
    pairs = []
    for start, actions in played[:POSITION_GAMES]:
        state = start
        for action in actions:
            states.append(state)
            pairs.append((state, action))
            state = apply(state, action)
        states.append(state)
    legal_total = sum(len(legal_actions(s)) for s in states)
    # each position's moves made and dropped, as a game loop does (a list keeping 23,000
    # sequences alive would time the garbage collector walking them, not the engine)

    def generate() -> None:
        for s in states:
            legal_actions(s)

    def listed() -> None:
        for s in states:
            list(legal_actions(s))

    def counted() -> None:
        for s in states:
            count_legal(s)

    t_gen = best_of(generate)
    t_list = best_of(listed)

    def pick_one() -> None:
        for s in states:
            legal = legal_actions(s)
            if legal:
                legal[len(legal) // 2]

    t_pick = best_of(pick_one)
    t_count = best_of(counted)
    print(f"{len(states):,} positions of {len(played[:POSITION_GAMES])} of those games, "
          f"{legal_total / len(states):.0f} legal moves each on average:")
    figure("Satellites legal-move generation (the engine's sorted sequence, its length known)",
           len(states) / t_gen, 100_000, unit="positions/s", better="higher", indent="",
           note=f"{legal_total / len(states):.0f} legal moves each")
    figure("Satellites legal moves generated and one read from the middle (what a bot "
           "drawing a move does)", len(states) / t_pick, unit="positions/s", better="higher")
    figure("Satellites legal moves listed, every move made an int", len(states) / t_list,
           unit="positions/s", better="higher", note=f"{legal_total / t_list:,.0f} actions/s")
    figure("Satellites legal moves counted without listing them", len(states) / t_count,
           unit="positions/s", better="higher")

    def apply_all() -> None:
        for start, actions in played[:POSITION_GAMES]:
            state = start
            for action in actions:
                state = apply(state, action)

    n_actions = sum(len(a) for _, a in played[:POSITION_GAMES])
    figure("Satellites applying moves (connections, groups, the end)",
           n_actions / best_of(apply_all), unit="moves/s", better="higher", indent="")
    written = [(s, parse_move(action_text(s, a))) for s, a in pairs[::7]]
    t_check = best_of(lambda: [check_written(s, w) for s, w in written])
    figure("Satellites check_written() of a written move (the replay path)",
           len(written) / t_check, unit="moves/s", better="higher", indent="")
    pickled = max(len(pickle.dumps(s)) for s in states)
    encoded = max(len(game.encode(s)) for s in states)
    figure("Satellites largest pickled state", pickled, unit="bytes", indent="")
    figure("Satellites largest encoded state", encoded, unit="bytes", indent="")

    # 5. whole commands -----------------------------------------------------------------------
    warm_cache = Path(tempfile.mkdtemp(prefix="pnp-bench-cache-"))
    env = {**os.environ, "PNP_CACHE_DIR": str(warm_cache)}
    score = [*command("pnp-score"), "satellites", str(BOARD_10)]
    median_wall_ms(score, 1, env=env)  # fills the cache
    warm = median_wall_ms(score, args.runs, env=env)
    cold_cache = Path(tempfile.mkdtemp(prefix="pnp-bench-cold-"))
    cold_env = {**os.environ, "PNP_CACHE_DIR": str(cold_cache)}
    cold = median_wall_ms(score, max(3, args.runs // 3), env=cold_env,
                          before=lambda: shutil.rmtree(cold_cache, ignore_errors=True))
    figure("pnp-score satellites, 10 x 10 board, whole command, ruleset cache warm", warm,
           120, indent="", note=f"median of {args.runs}")
    figure("pnp-score satellites, 10 x 10 board, whole command, ruleset cache cold", cold,
           indent="", note=f"median of {max(3, args.runs // 3)}")
    setup = median_wall_ms([*command("pnp-setup"), "satellites", "--seed", "42"], args.runs,
                           env=env)
    figure("pnp-setup satellites --seed 42, whole command", setup, indent="")
    record = "random_game_seed27.yaml"
    replay = median_wall_ms([*command("pnp-replay"), record], args.runs, cwd=RECORDS, env=env)
    figure(f"pnp-replay of the 104-move Satellites record {record}, whole command", replay,
           indent="")
    shutil.rmtree(warm_cache, ignore_errors=True)
    shutil.rmtree(cold_cache, ignore_errors=True)


if __name__ == "__main__":
    main()
