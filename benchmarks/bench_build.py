"""Time the full default build (both games, A4): as a whole command (``pnp build``, what
a designer waits for: interpreter start, imports and the build; budget 1 s), then inside
one process.

Interpreter start and imports are excluded: the modules are imported first,
then each build is timed from loading the definitions to the last file written.
The write phase (the files staged and flushed, then renamed into place: see
generator/output.py) is also timed alone, into a new folder and into a folder that
already holds a build and a few files of the user's; and the renames of an in-place
build alone (a Letter build over an A4 one), the only moment someone looking into the
folder could see some files new and some old.
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

from timing import figure, wall_ms

from generator.backends import svg as svg_backend
from generator.build import GAMES, BuildOptions, build, write_outputs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    fresh, again, write_new, write_again = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        build(Path(tmp) / "first", opts=BuildOptions())  # registers fonts, loads schemas
        first = time.perf_counter() - started
        same = Path(tmp) / "same"
        build(same, opts=BuildOptions())
        for name in ("notes.txt", "orbitus/house-rules.pdf", "orbitus/svg/my-logo.svg"):
            (same / name).write_bytes(b"the user's own file\n")
        for i in range(args.runs):
            svg_backend._RENDERED.clear()
            started = time.perf_counter()
            files = build(Path(tmp) / f"run{i}", opts=BuildOptions())
            fresh.append(time.perf_counter() - started)
            svg_backend._RENDERED.clear()
            started = time.perf_counter()
            build(same, opts=BuildOptions())
            again.append(time.perf_counter() - started)
            started = time.perf_counter()
            write_outputs(Path(tmp) / f"write{i}", files, GAMES)
            write_new.append(time.perf_counter() - started)
            started = time.perf_counter()
            write_outputs(same, files, GAMES)
            write_again.append(time.perf_counter() - started)
    size = sum(len(v) for v in files.values())
    whole_new, whole_again = whole_command(args.runs)

    def line(label: str, times: list[float], budget: float | None = None) -> None:
        figure(label, statistics.median(times) * 1000, budget,
               note=f"median of {len(times)}; min {min(times) * 1000:.0f}, "
                    f"max {max(times) * 1000:.0f}")

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}")
    print(f"full default build (both games, A4, {len(files)} files, {size / 1e6:.1f} MB), "
          f"as a whole command:")
    line("pnp build, whole command, over the previous build in the folder", whole_again,
         1000)
    line("pnp build, whole command, into a new folder", whole_new, 1000)
    print("in one process, imports excluded:")
    figure("full default build, first in the process (fonts parsed)", first * 1000)
    line("full default build into a new folder", fresh)
    line("full default build into a folder holding the previous build and 3 files of the "
         "user's", again)
    line("build write phase alone (staged, flushed, renamed into place), into a new "
         "folder", write_new)
    line("build write phase alone, over the previous build", write_again)
    renames = renames_alone(args.runs)
    line("the renames of an in-place build alone (Letter over A4: "
         f"{renames[1]} files change), the moment a look into the folder can see a mix",
         renames[0])


def renames_alone(runs: int) -> tuple[list[float], int]:
    """Times (s) of the renames that put a staged Letter build over an A4 one (the journal
    written, every file flushed already), and how many files they replace."""
    import generator.output as output

    a4 = build(Path(tempfile.mkdtemp()) / "a4", opts=BuildOptions())
    letter = build(Path(tempfile.mkdtemp()) / "letter", opts=BuildOptions(page="letter"))
    changed = sum(1 for rel in letter if letter[rel] != a4[rel])
    times: list[float] = []
    real = output._apply_journal

    def timed(out: Path, stage: Path, replace: list[str], delete: list[str]) -> None:
        started = time.perf_counter()
        real(out, stage, replace, delete)
        times.append(time.perf_counter() - started)

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "kit"
        output._apply_journal = timed  # type: ignore[assignment]
        try:
            for i in range(runs * 2):
                write_outputs(out, a4 if i % 2 else letter, GAMES)
        finally:
            output._apply_journal = real  # type: ignore[assignment]
    return times, changed


def whole_command(runs: int) -> tuple[list[float], list[float]]:
    """Wall times (s) of ``pnp build -q`` into a new folder each time, and into one folder
    again and again (a designer rebuilding after an edit)."""
    import sys

    pnp = Path(sys.executable).with_name("pnp")
    base = [str(pnp), "build"] if pnp.exists() else [sys.executable, "-m", "pnp", "build"]
    with tempfile.TemporaryDirectory() as tmp:
        fresh = [wall_ms([*base, "--out", str(Path(tmp) / f"new{i}"), "-q"], 1)[0] / 1000
                 for i in range(runs)]
        wall_ms([*base, "--out", str(Path(tmp) / "same"), "-q"], 1)
        again = [t / 1000 for t in wall_ms([*base, "--out", str(Path(tmp) / "same"), "-q"],
                                          runs)]
    return fresh, again


if __name__ == "__main__":
    main()
