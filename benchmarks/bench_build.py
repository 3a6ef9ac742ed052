"""Time the full default build (both games, A4) inside one process.

Interpreter start and imports are excluded: the modules are imported first,
then each build is timed from loading the definitions to the last file written.
The SVG backend remembers documents it rendered (for --watch); that memory is
cleared before every timed build, so each figure is a whole build's work, as a
fresh pnp-build does it.
Run: .venv/bin/python benchmarks/bench_build.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path

from generator.backends import svg as svg_backend
from generator.build import BuildOptions, build


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        build(Path(tmp) / "first", opts=BuildOptions())  # registers fonts, loads schemas
        first = time.perf_counter() - started
        for i in range(args.runs):
            svg_backend._RENDERED.clear()
            started = time.perf_counter()
            files = build(Path(tmp) / f"run{i}", opts=BuildOptions())
            times.append(time.perf_counter() - started)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}")
    print(f"full default build (both games, A4, {len(files)} files)")
    print(f"  first build in the process (fonts parsed): {first * 1000:.0f} ms")
    print(f"  next {args.runs} builds:")
    print(f"  median {statistics.median(times) * 1000:.0f} ms, "
          f"min {min(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
