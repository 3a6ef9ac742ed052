"""Time a ``pnp-build --watch`` rebuild after one sector of the deck is edited.

The watch is driven in process, as the command drives it: a first build of Orbitus from
a copy of the shipped definitions, then, for each run, one sector's routes changed in
``sectors.yaml`` and the game rebuilt (only the steps that read the deck: the sector
sheets, the SVGs, the booklet and the player aid; the station sheet and the score pad
stay). Wall time and the process's CPU time are both printed (on a busy machine the
CPU time is the steadier figure).
Run: .venv/bin/python benchmarks/bench_watch.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from timing import figure

from cards.definitions import DEFAULT_CARDS
from generator.options import BuildOptions
from generator.watch import EVERYTHING, GameState, rebuild_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cards = Path(tmp) / "cards"
        shutil.copytree(DEFAULT_CARDS, cards, ignore=shutil.ignore_patterns("__pycache__",
                                                                            "*.py"))
        out = Path(tmp) / "out"
        opts = BuildOptions(out_root=out.resolve())
        state = GameState()
        problems: list[str] = []
        rebuild_game("orbitus", cards, opts, state, {EVERYTHING}, out, problems.append)
        deck = cards / "orbitus" / "sectors.yaml"
        text = deck.read_text(encoding="utf-8")
        edits = ("{id: S72, routes: [N, NE, SE, S, SW, NW]}", "{id: S72, routes: [N, S]}")
        walls, cpus, written = [], [], []
        for i in range(args.runs):
            deck.write_text(text.replace(edits[0], edits[1]) if i % 2 == 0 else text,
                            encoding="utf-8")
            started, cpu = time.perf_counter(), time.process_time()
            files = rebuild_game("orbitus", cards, opts, state, {"sectors"}, out,
                                 problems.append)
            walls.append(time.perf_counter() - started)
            cpus.append(time.process_time() - cpu)
            written = files or []
        assert not problems, problems
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}")
    print(f"--watch rebuild after one sector's routes change ({len(written)} files rewritten)")
    for clock, times in (("wall time", walls), ("CPU time", cpus)):
        figure(f"--watch rebuild after one sector's routes change, {clock}",
               statistics.median(times) * 1000, 300,
               note=f"median of {len(times)}, min {min(times) * 1000:.0f}; "
                    f"{len(written)} files rewritten")

if __name__ == "__main__":
    main()
