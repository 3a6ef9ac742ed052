"""What the command-line framework costs: the reason every command is argparse.

1. Importing the framework alone, ``python -X importtime -c "import M"`` in a fresh
   interpreter (the cumulative time of ``M``), for argparse (the standard library, what
   every command uses) and, if it is installed, typer (what ``pnp build`` used before
   issue 19; with click and rich it is ~70 ms, more than half of the 120 ms budget of a
   whole ``pnp score``, so the scorers could never use it).
2. Whole commands through the front door ``pnp``, interpreter start included, the ruleset
   cache warm: ``pnp score orbitus`` and ``pnp score satellites`` (budget 120 ms each, as
   in issues 4 and 14), ``pnp --help`` and ``pnp build --help`` (its parser built, no
   build).

Run: .venv/bin/python benchmarks/bench_cli.py [--runs N]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import re
import statistics
import subprocess
import sys
from pathlib import Path

from timing import figure, wall_ms

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "tests" / "fixtures" / "orbitus" / "two-players.yaml"
BOARD = ROOT / "tests" / "fixtures" / "satellites" / "end_23_connected.txt"
SCORE_BUDGET_MS = 120.0


def import_ms(module: str, runs: int) -> list[float]:
    """The cumulative import time of ``module`` (ms) in ``runs`` fresh interpreters."""
    times = []
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"],
                              capture_output=True, text=True, check=True)
        line = next(ln for ln in reversed(done.stderr.splitlines())
                    if re.search(rf"\|\s+{re.escape(module)}$", ln))
        times.append(int(line.split("|")[1]) / 1000)
    return times


def line(label: str, times: list[float], budget: float | None = None) -> None:
    figure(label, statistics.median(times), budget,
           note=f"median of {len(times)}, min {min(times):.1f}, max {max(times):.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15, help="runs per figure (default 15)")
    runs = max(1, parser.parse_args().runs)

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}")
    print("importing the framework alone (python -X importtime, cumulative):")
    line("import argparse (the commands' framework)", import_ms("argparse", runs))
    if importlib.util.find_spec("typer") is not None:
        line("import typer (pnp build's framework before issue 19)", import_ms("typer", runs))
    else:
        print("  typer: not installed (no command uses it any more)")
    pnp = str(Path(sys.executable).with_name("pnp"))
    if not Path(pnp).exists():
        raise SystemExit("pnp is not installed next to this interpreter: pip install -e .")
    print("whole commands through pnp, interpreter start included (wall time):")
    wall_ms([pnp, "score", "orbitus", str(TABLE)], 1)  # the ruleset caches warm from here
    wall_ms([pnp, "score", "satellites", str(BOARD)], 1)
    line("pnp score orbitus, 2-player table, whole command",
         wall_ms([pnp, "score", "orbitus", str(TABLE)], runs), SCORE_BUDGET_MS)
    line("pnp score satellites, 10 x 10 board, whole command",
         wall_ms([pnp, "score", "satellites", str(BOARD)], runs), SCORE_BUDGET_MS)
    line("pnp --help, whole command", wall_ms([pnp, "--help"], runs))
    line("pnp build --help, whole command", wall_ms([pnp, "build", "--help"], runs))


if __name__ == "__main__":
    main()
