"""Speed of the Satellites rules engine.

1. Legal-move generation: every position of random games (30 deals, random legal moves
   to the end), all legal moves of the player to move listed (states carry no cache).
   Figure: positions per second.
2. Applying moves and detecting the end: whole random games, moves per second.
3. Explaining: check_written() of a written move (the path pnp-replay uses), moves per
   second.

The rules core's own benchmark, with the figures the issue asks for, is
bench_rules_satellites.py; this one keeps the figures of the first engine comparable.
4. The commands, interpreter start included (median of several runs):
   pnp-setup satellites --seed 42, pnp-replay of a 104-move record (seed: loads the card
   definitions) and of a record with a setup: board.

Run: .venv/bin/python benchmarks/bench_engine_satellites.py [--runs N]
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
from pathlib import Path

from timing import best_of, command, median_wall_ms

from rules.satellites.engine import (
    action_text,
    apply,
    check_written,
    deal,
    legal_actions,
    random_game,
)
from rules.satellites.notation import parse_move
from scorer.satellites.board import load_rules

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "tests" / "fixtures" / "records" / "satellites"
SEEDS = range(30)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    rules = load_rules()

    games = []
    for seed in SEEDS:
        start = deal(rules, seed)
        moves, _ = random_game(start, random.Random(seed))
        games.append((start, moves))
    states = []
    for start, moves in games:
        state = start
        for move in moves:
            states.append(state)
            state = apply(state, move)
    n_moves = sum(len(moves) for _, moves in games)
    legal_total = sum(len(legal_actions(s)) for s in states)

    def generate() -> None:
        for s in states:
            legal_actions(s)

    gen = best_of(generate)

    def play() -> None:
        for start, moves in games:
            state = start
            for move in moves:
                state = apply(state, move)

    applying = best_of(play)

    def whole() -> None:
        for seed in SEEDS:
            random_game(deal(rules, seed), random.Random(seed))

    full = best_of(whole, 1)

    written = [(s, parse_move(action_text(s, m))) for (start, moves) in games[:5]
               for s, m in zip(_walk(start, moves), moves, strict=True)]
    explain = best_of(lambda: [check_written(s, w) for s, w in written])

    print(f"Satellites engine on {platform.machine()}, Python {platform.python_version()}")
    print(f"  {len(states)} positions from {len(games)} random games "
          f"({n_moves} moves, {legal_total / len(states):.0f} legal moves per position)")
    print(f"  legal-move generation (full sorted list): {len(states) / gen:,.0f} positions/s "
          f"({gen / len(states) * 1e6:.0f} us each)")
    print(f"  applying moves with end detection: {n_moves / applying:,.0f} moves/s")
    print(f"  random games to the end: {len(games) / full:.1f} games/s "
          f"({n_moves / full:,.0f} moves/s, each legal move equally likely)")
    print(f"  check_written() of a written move (replay path): "
          f"{len(written) / explain:,.0f} moves/s")

    setup = command("pnp-setup")
    replay = command("pnp-replay")
    print(f"Commands, median of {runs} runs, interpreter start included:")
    print(f"  python -c pass: {median_wall_ms([sys.executable, '-c', 'pass'], runs):.0f} ms")
    print(f"  pnp-setup satellites --seed 42: "
          f"{median_wall_ms([*setup, 'satellites', '--seed', '42'], runs):.0f} ms")
    print(f"  pnp-replay random_game_seed27.yaml (104 moves, seed): "
          f"{median_wall_ms([*replay, str(RECORDS / 'random_game_seed27.yaml')], runs):.0f} ms")
    print(f"  pnp-replay displacement.yaml (setup board): "
          f"{median_wall_ms([*replay, str(RECORDS / 'displacement.yaml')], runs):.0f} ms")
    as_json = median_wall_ms([*replay, str(RECORDS / "random_game_seed27.yaml"), "--json"], runs)
    print(f"  pnp-replay random_game_seed27.yaml --json: {as_json:.0f} ms")


def _walk(start, moves):
    state = start
    for move in moves:
        yield state
        state = apply(state, move)


if __name__ == "__main__":
    main()
