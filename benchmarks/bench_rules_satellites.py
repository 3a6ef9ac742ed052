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
from timing import command, median_wall_ms

import rules
from rules.satellites.engine import (
    State,
    action_text,
    apply,
    check_written,
    count_legal,
    deal,
    legal_actions,
    random_game,
)
from rules.satellites.notation import parse_move
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
    print(f"random games, uniform random legal moves, deal to end: "
          f"{args.games / seconds:,.1f} games/s (one core; {moves / args.games:.1f} moves per "
          f"game, {moves / seconds:,.0f} moves/s) [budget >= 300 games/s]")

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
    t_gen = best_of(lambda: [legal_actions(s) for s in states])
    t_list = best_of(lambda: [list(legal_actions(s)) for s in states])
    t_count = best_of(lambda: [count_legal(s) for s in states])
    print(f"{len(states):,} positions of {len(played[:POSITION_GAMES])} of those games, "
          f"{legal_total / len(states):.0f} legal moves each on average")
    print(f"legal-move generation (the engine's sorted sequence, its length and any move): "
          f"{len(states) / t_gen:,.0f} positions/s [budget >= 100,000]; with every move made "
          f"an int: {len(states) / t_list:,.0f} positions/s ({legal_total / t_list:,.0f} "
          f"actions/s); counting them only: {len(states) / t_count:,.0f} positions/s")

    def apply_all() -> None:
        for start, actions in played[:POSITION_GAMES]:
            state = start
            for action in actions:
                state = apply(state, action)

    n_actions = sum(len(a) for _, a in played[:POSITION_GAMES])
    print(f"applying moves (connections, groups, the end): "
          f"{n_actions / best_of(apply_all):,.0f} moves/s")
    written = [(s, parse_move(action_text(s, a))) for s, a in pairs[::7]]
    t_check = best_of(lambda: [check_written(s, w) for s, w in written])
    print(f"check_written() of a written move (the replay path): "
          f"{len(written) / t_check:,.0f} moves/s")
    pickled = max(len(pickle.dumps(s)) for s in states)
    encoded = max(len(game.encode(s)) for s in states)
    print(f"largest pickled state: {pickled} bytes; largest encoding: {encoded} bytes")

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
    print(f"pnp-score satellites, 10 x 10 board: {warm:.0f} ms with the ruleset cache warm "
          f"[budget < 120], {cold:.0f} ms cold (median of {args.runs})")
    setup = median_wall_ms([*command("pnp-setup"), "satellites", "--seed", "42"], args.runs,
                           env=env)
    print(f"pnp-setup satellites --seed 42: {setup:.0f} ms")
    record = "random_game_seed27.yaml"
    replay = median_wall_ms([*command("pnp-replay"), record], args.runs, cwd=RECORDS, env=env)
    print(f"pnp-replay {record} (104 moves): {replay:.0f} ms")
    shutil.rmtree(warm_cache, ignore_errors=True)
    shutil.rmtree(cold_cache, ignore_errors=True)


if __name__ == "__main__":
    main()
