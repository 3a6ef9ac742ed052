"""Speed of the Satellites scorer, against the budgets of issues 4 and 14.

1. The whole command, ``pnp-score satellites`` on a 10 x 10 board, interpreter
   start included, the ruleset cache warm: run as a subprocess several times (text
   grid and YAML form, and --json). Budget: under 120 ms wall.
2. Scoring a full 26 x 26 board (every cell holds a satellite) inside one
   process, imports excluded. Budget: under 20 ms.

Run: .venv/bin/python benchmarks/bench_satellites_score.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

from timing import command, figure, wall_ms

from scorer.satellites.board import Board, load_rules, read_string
from scorer.satellites.report import summary, to_json
from scorer.satellites.score import score

ROOT = Path(__file__).resolve().parent.parent
BOARD_10 = ROOT / "tests" / "fixtures" / "satellites" / "end_23_connected.txt"
YAML_10 = ROOT / "tests" / "fixtures" / "satellites" / "all_12_grace.yaml"
COMMAND_BUDGET_MS = 120.0
SCORE_BUDGET_MS = 20.0


def full_board(n: int = 26) -> Board:
    """Every cell filled, colours in a checkerboard, values cycling 1-4 (one giant group)."""
    rows = []
    for r in range(n):
        row = []
        for c in range(n):
            colour = "R" if (r + c) % 2 == 0 else "B"
            row.append(f"{colour}{(r * n + c) % 4 + 1}")
        rows.append(row)
    return Board.from_tokens(rows)


def in_process_ms(fn: object, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append((time.perf_counter() - started) * 1000)
    return times


def line(label: str, times: list[float], budget: float | None = None) -> None:
    figure(label, statistics.median(times), budget,
           note=f"median of {len(times)}, min {min(times):.2f}, max {max(times):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=20, help="runs per figure (default 20)")
    args = parser.parse_args()
    runs = max(1, args.runs)

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()} ({platform.python_implementation()})")
    cmd = command()
    print(f"command: {' '.join(Path(c).name if i == 0 else c for i, c in enumerate(cmd))}")
    print()
    wall_ms([*cmd, "satellites", str(BOARD_10)], 1)  # the ruleset cache is warm from here
    print("whole command, interpreter start included (subprocess, wall time):")
    line("interpreter start alone (python -c pass)",
         wall_ms([sys.executable, "-c", "pass"], runs))
    line("pnp-score satellites, 10 x 10 text grid, summary, whole command",
         wall_ms([*cmd, "satellites", str(BOARD_10)], runs), COMMAND_BUDGET_MS)
    line("pnp-score satellites, 10 x 10 text grid, --json, whole command",
         wall_ms([*cmd, "satellites", str(BOARD_10), "--json"], runs), COMMAND_BUDGET_MS)
    line("pnp-score satellites, 10 x 10 YAML board, summary, whole command",
         wall_ms([*cmd, "satellites", str(YAML_10)], runs), COMMAND_BUDGET_MS)
    with tempfile.TemporaryDirectory() as tmp:
        line("pnp-score satellites, 10 x 10 text grid, --png, whole command",
             wall_ms([*cmd, "satellites", str(BOARD_10), "--png", str(Path(tmp) / "b.png")],
                     max(1, runs // 4)))

    board = full_board()
    text = board.to_text()
    rules = load_rules()
    score(board, ruleset=rules)  # warm up
    print()
    print("in one process, full 26x26 board (676 satellites), imports excluded:")
    line("Satellites scoring of a full 26 x 26 board, in one process",
         in_process_ms(lambda: score(board, ruleset=rules), runs * 5), SCORE_BUDGET_MS)
    line("Satellites reading the 26 x 26 grid text and scoring it",
         in_process_ms(lambda: score(read_string(text, ruleset=rules).board, ruleset=rules),
                       runs * 5))
    result = score(board, ruleset=rules)
    line("Satellites summary of the 26 x 26 board",
         in_process_ms(lambda: summary(result, "bench"), runs * 5))
    line("Satellites JSON object of the 26 x 26 board",
         in_process_ms(lambda: to_json(result), runs * 5))


if __name__ == "__main__":
    main()
