"""Time the print-shop preset builds and their preflight, as a designer waits for them.

Figures (issue 24): the whole command ``pnp build --preset thegamecrafter`` for both games
(interpreter start, definitions, 98 PNGs at 300 dpi, the atomic write; budget 3 s), the
preflight of that folder (``pnp build --preflight DIR``, a whole command too; budget 1 s),
and, inside one process, each shipped preset's build in memory (for comparison).
Run: .venv/bin/python benchmarks/bench_presets.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from timing import ROOT, figure, wall_ms


def build_command() -> list[str]:
    """The installed ``pnp-build`` next to this interpreter, else ``python -m generator``."""
    script = Path(sys.executable).with_name("pnp-build")
    return [str(script)] if script.exists() else [sys.executable, "-m", "generator"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    build_cmd = build_command()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "kit"
        run_build = [*build_cmd, "--preset", "thegamecrafter", "--out", str(out), "-q"]
        run_check = [*build_cmd, "--preflight", str(out / "thegamecrafter")]
        times = wall_ms(run_build, args.runs, cwd=ROOT)
        figure("preset build, The Game Crafter, both games, whole command",
               statistics.median(times), 3000,
               note=f"median of {len(times)}, min {min(times):.0f}; 98 PNGs at 300 dpi and "
                    "the preflight that ends the build")
        times = wall_ms(run_check, args.runs, cwd=ROOT)
        figure("preflight of that folder, whole command", statistics.median(times), 1000,
               note=f"median of {len(times)}, min {min(times):.0f}")
        from generator.presets.run import make

        for name in ("thegamecrafter", "makeplayingcards", "drivethrucards", "printshop",
                     "playingcards-io", "screentop"):
            runs = []
            for _ in range(max(1, args.runs // 2)):
                started = time.perf_counter()
                _, result = make(name, ("orbitus", "satellites"))
                runs.append((time.perf_counter() - started) * 1000)
            size = sum(len(b) for b in result.files.values()) / 1e6
            figure(f"preset {name}, in memory", statistics.median(runs),
                   note=f"median of {len(runs)}; {len(result.files)} files, {size:.1f} MB")


if __name__ == "__main__":
    main()
