"""Time the opt-in exports of the default definitions (both games) inside one process.

Each figure is one export step run alone (definitions already loaded, fonts
registered): render + rasterise + PNG-encode, in memory. A plain build
(PDFs, SVGs, calibration) is timed alongside for comparison, and so is a
whole ``--png --tts`` build written to disk.
Run: .venv/bin/python benchmarks/bench_export.py [--runs N] [--dpi D]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from timing import figure

from cards.definitions import load_orbitus, load_satellites
from generator.build import BuildOptions, build, common_steps, game_steps
from generator.export_png import component_pngs
from generator.products import product


def timed(fn: Callable[[], dict[str, bytes]], runs: int) -> tuple[list[float], dict[str, bytes]]:
    times: list[float] = []
    out: dict[str, bytes] = {}
    for _ in range(runs):
        started = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - started)
    return times, out


def line(label: str, times: list[float], files: dict[str, bytes]) -> None:
    size = sum(len(b) for b in files.values()) / 1e6
    figure(label, statistics.median(times) * 1000,
           note=f"median of {len(times)}, min {min(times) * 1000:.0f}, "
                f"max {max(times) * 1000:.0f}; {len(files)} files, {size:.1f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dpi", type=float, default=300.0)
    args = parser.parse_args()
    defs = {"orbitus": load_orbitus(), "satellites": load_satellites()}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve()
        build(root / "warm")  # fonts parsed, schemas loaded
        print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
              f"{platform.python_version()}; {args.runs} runs each")

        def plain() -> dict[str, bytes]:
            files: dict[str, bytes] = {}
            for game, d in defs.items():
                for _, step in game_steps(game, d, BuildOptions()):
                    files.update(step())
            for _, step in common_steps(BuildOptions()):
                files.update(step())
            return files

        line("plain build (every PDF and SVG, calibration), in memory", *timed(plain, args.runs))
        for game, d in defs.items():
            line(f"{game.capitalize()} PNG of every component at {args.dpi:g} dpi",
                 *timed(lambda g=game, x=d: component_pngs(g, x, args.dpi), args.runs))
        for game, d in defs.items():
            line(f"{game.capitalize()} Tabletop Simulator export",
                 *timed(lambda g=game, x=d: product(g).tts_files(x, root), args.runs))
        whole: list[float] = []
        for i in range(args.runs):
            out = root / f"whole{i}"
            started = time.perf_counter()
            files = build(out, opts=BuildOptions(png_dpi=args.dpi, tts=True,
                                                 out_root=out.resolve()))
            whole.append(time.perf_counter() - started)
        line(f"whole build with --png --tts ({args.dpi:g} dpi), written to disk", whole, files)


if __name__ == "__main__":
    main()
