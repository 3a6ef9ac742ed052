"""Speed of the Orbitus rules core (rules/orbitus) and of the commands built on it.

1. Random games: complete games from the deal to the end, every action drawn uniformly
   from the legal ones (the engine's ``random_game``), one process, one core. Figure:
   games per second for 3 players with the default 72-card deck (the issue's budget:
   at least 50), and for 2 to 6 players.
2. Legal-action generation: every position of those games, each analysed from scratch
   (systems, neutral zones, open routes, free cells, removals) and its legal actions
   counted; also the same with every action built as an object (``list(...)``).
3. Applying actions (with the draw, skips and end detection) and ``check()`` of a written
   action (the replay path, with reasons).
4. The size of a pickled state (the largest over every position played) and of its byte
   encoding (``rules.get("orbitus").encode``). Budget: at most 10 KB pickled.
5. Whole commands, interpreter start included (median of several runs):
   ``pnp-score orbitus`` on the 72-sector six-player table with the ruleset cache warm
   (budget 120 ms) and cold (a new empty cache folder each run; budget 300 ms),
   ``pnp-setup orbitus --players 4 --seed 42`` and ``pnp-replay`` of the 98-action
   golden record.

Run: .venv/bin/python benchmarks/bench_rules_orbitus.py [--runs N] [--games N]
"""

from __future__ import annotations

import argparse
import os
import pickle
import platform
import random
import shutil
import tempfile
from pathlib import Path

from timing import best_of, command, figure, median_wall_ms

import rules
from cards.ruleset_cache import load_ruleset
from rules.orbitus.engine import State, new_game, random_game
from rules.orbitus.why import check

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "tests" / "fixtures" / "records" / "orbitus"
TABLE_72 = ROOT / "tests" / "fixtures" / "orbitus" / "six-players-72.yaml"
NAMES = ["Anna", "Boris", "Carla", "Dmitri", "Elena", "Fyodor"]


def fresh(s: State) -> State:
    """The same position with nothing worked out yet."""
    return State(s.game, s.board, s.deck, s.drawn, s.hands, s.limits, s.to_move, s.passed,
                 s.quiet, s.end, s.turn, s.skipped, s.out)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15, help="runs of each whole command")
    parser.add_argument("--games", type=int, default=200, help="random 3-player games")
    args = parser.parse_args()
    ruleset = load_ruleset("orbitus")
    game = rules.get("orbitus")
    print(f"machine: {platform.machine()} {platform.processor() or ''}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}")

    # 1. random games ------------------------------------------------------------------------
    def play(players: int, count: int) -> list[tuple[State, list]]:
        out = []
        for seed in range(count):
            start = new_game(ruleset, NAMES[:players], seed)
            actions, _ = random_game(start, random.Random(seed))
            out.append((start, actions))
        return out

    played: list[tuple[State, list]] = []

    def three() -> None:
        played[:] = play(3, args.games)

    seconds = best_of(three, repeat=3)
    lengths = [len(a) for _, a in played]
    figure("Orbitus complete random 3-player games, default deck, one core",
           args.games / seconds, 50, unit="games/s", better="higher", indent="",
           note=f"{args.games} games, {sum(lengths) / len(lengths):.1f} actions each on "
                f"average")
    for players in (2, 4, 5, 6):
        count = max(20, args.games // 4)
        seconds = best_of(lambda p=players, c=count: play(p, c), repeat=1)
        figure(f"Orbitus complete random {players}-player games, one core", count / seconds,
               unit="games/s", better="higher")

    # 2.-4. positions ---------------------------------------------------------------------------
    states: list[State] = []
    pairs = []
    for start, actions in played:
        state = start
        for action in actions:
            states.append(state)
            pairs.append((state, action))
            state = state.after(action)
        states.append(state)
    legal_total = sum(len(fresh(s).legal_actions()) for s in states)
    sectors = sum(len(s.board) for s in states) / len(states)
    t_count = best_of(lambda: [len(fresh(s).legal_actions()) for s in states])
    t_build = best_of(lambda: [list(fresh(s).legal_actions()) for s in states])
    print(f"{len(states):,} positions, {sectors:.1f} sectors on the table on average, "
          f"{legal_total / len(states):.0f} legal actions each on average:")
    figure("Orbitus legal-action generation, each position analysed from scratch, counted",
           len(states) / t_count, unit="positions/s", better="higher", indent="",
           note=f"{legal_total / len(states):.0f} legal actions each")
    figure("Orbitus legal-action generation with every action built",
           len(states) / t_build, unit="positions/s", better="higher",
           note=f"{legal_total / t_build:,.0f} actions/s")

    def apply_all() -> None:
        for start, actions in played:
            state = start
            for action in actions:
                state = state.after(action)

    n_actions = sum(len(a) for _, a in played)
    figure("Orbitus applying actions (the draw, skips, end detection)",
           n_actions / best_of(apply_all), unit="actions/s", better="higher", indent="")
    t_check = best_of(lambda: [check(fresh(s), a) for s, a in pairs])
    figure("Orbitus check() of a written action (the replay path)", len(pairs) / t_check,
           unit="actions/s", better="higher", indent="")
    largest = max(len(pickle.dumps(s)) for s in states)
    encoded = max(len(game.encode(s)) for s in states)
    figure("Orbitus largest pickled state", largest / 1000, 10, unit="KB", indent="")
    figure("Orbitus largest encoded state", encoded, unit="bytes", indent="")

    # 5. whole commands -----------------------------------------------------------------------
    warm_cache = Path(tempfile.mkdtemp(prefix="pnp-bench-cache-"))
    env = {**os.environ, "PNP_CACHE_DIR": str(warm_cache)}
    score = [*command("pnp-score"), "orbitus", str(TABLE_72)]
    median_wall_ms(score, 1, env=env)  # fills the cache
    warm = median_wall_ms(score, args.runs, env=env)
    cold_cache = Path(tempfile.mkdtemp(prefix="pnp-bench-cold-"))
    cold_env = {**os.environ, "PNP_CACHE_DIR": str(cold_cache)}
    cold = median_wall_ms(score, args.runs, env=cold_env,
                          before=lambda: shutil.rmtree(cold_cache, ignore_errors=True))
    figure("pnp-score orbitus, 72 sectors, 6 players, whole command, ruleset cache warm",
           warm, 120, indent="", note=f"median of {args.runs}")
    figure("pnp-score orbitus, 72 sectors, 6 players, whole command, ruleset cache cold",
           cold, 300, indent="", note=f"median of {args.runs}")
    setup = median_wall_ms([*command("pnp-setup"), "orbitus", "--players", "4", "--seed", "42"],
                           args.runs, env=env)
    figure("pnp-setup orbitus --players 4 --seed 42, whole command", setup, indent="")
    record = "random_game_3p_seed5.yaml"
    replay = median_wall_ms([*command("pnp-replay"), record], args.runs, cwd=RECORDS, env=env)
    figure(f"pnp-replay of the 98-action Orbitus record {record}, whole command", replay,
           indent="")
    shutil.rmtree(warm_cache, ignore_errors=True)


if __name__ == "__main__":
    main()
