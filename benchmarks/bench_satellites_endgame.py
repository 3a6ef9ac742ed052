"""How long the ``tactics`` bot's exact Satellites endgame takes to solve, and what it finds.

The positions are those of docs/sim.md: the first position with at most two (``--three``:
three) free satellites of the seed-1 games 102, 109 and 141 (127 with ``--three``) that
``tactics:16`` did not win against greedy (``pnp sim satellites --bots tactics:16,greedy
--games 200 --jobs 1 --seed 1``). Each is solved from nothing kept; the figure is the CPU
time of the solve (process time, so a loaded machine slows it less than the wall time),
the note the positions solved and the value found (red's side: +1 red wins, 0 a draw, -1
blue wins; in how many moves the connection that decides it can be forced, 0 when the
side ahead holds its lead until S-62). No budget: the bot solves only two free satellites,
which takes well under a second.

Run: .venv/bin/python benchmarks/bench_satellites_endgame.py [--three]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # testkit: the positions

from timing import figure  # noqa: E402

import sim.satellites_endgame as endgame  # noqa: E402
from testkit.satellites_positions import TWO_FREE, position  # noqa: E402

THREE_FREE = {
    "seed-1 game 102 after move 64": (0, """
        .  .  .  .  .  .  .  .  .  .
        .  .  .  .  B4 R1 .  .  .  .
        .  .  .  .  R3 .  .  .  B2 B3
        .  B1 R1 .  B3 .  R4 B1 R2 .
        .  .  .  B4 R2 .  .  R4 B1 .
        .  .  .  .  R1 .  .  .  .  .
        .  .  .  .  R3 B4 .  R3 B2 .
        .  .  .  R4 B2 .  .  .  .  .
        .  B3 .  .  R2 .  .  .  .  .
        .  .  .  .  .  .  .  .  .  ."""),
    "seed-1 game 109 after move 151": (1, """
        .  .  .  .  .  .  .  .  .  .
        B2 .  .  .  .  B3 .  .  .  .
        .  .  .  .  .  R1 B4 R1 B1 .
        .  R3 .  .  .  .  .  .  R4 .
        .  B4 R2 .  B3 R3 B1 B1 .  .
        .  .  .  B2 .  .  R3 B2 R4 .
        .  .  .  R4 B3 R2 .  .  .  .
        .  .  .  .  .  B4 .  .  .  .
        .  .  .  .  .  R1 .  .  R2 .
        .  .  .  .  .  .  .  .  .  ."""),
    "seed-1 game 127 after move 465": (1, """
        .  .  .  .  .  .  B3 R4 .  .
        .  R1 B3 .  .  B1 R2 .  .  .
        .  B4 R1 .  .  .  B3 R2 .  .
        .  .  B2 R3 .  .  .  .  .  .
        .  B1 .  .  .  .  R3 .  .  .
        .  .  .  .  .  .  .  .  .  .
        .  .  .  B1 .  .  .  .  .  .
        .  .  .  B4 .  .  .  .  .  .
        B2 R4 .  R2 B4 .  .  .  .  .
        R1 .  R4 B2 R3 .  .  .  .  ."""),
}


VALUES = {1: "red wins", 0: "a draw", -1: "blue wins"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--three", action="store_true",
                        help="also the positions with three free satellites (about a "
                             "minute of CPU)")
    args = parser.parse_args()
    endgame.MOST_KEPT = 1 << 30  # nothing forgotten: the note counts every position solved
    positions = dict(TWO_FREE)
    if args.three:
        endgame.FREE_MOST = 3
        positions.update(THREE_FREE)
    for label, (to_move, text) in positions.items():
        state = position(text, to_move)
        endgame._SOLVED.clear()
        started = time.process_time()
        got = endgame.solved(state)
        spent = time.process_time() - started
        assert got is not None
        value, depth, _ = got
        free = endgame.free(state)
        figure(f"Satellites endgame solved exactly (tactics bot), {label}, {free} free "
               f"satellites, CPU time", spent, unit="s",
               note=f"{len(endgame._SOLVED):,} positions; {VALUES[value]}, "
                    f"{f'forced in {depth} moves' if depth else 'held until S-62'}")


if __name__ == "__main__":
    main()
