"""Time the print-shop preset builds and their preflight, as a designer waits for them.

Figures (issue 24): the whole command ``pnp build --preset thegamecrafter`` for both games
(interpreter start, definitions, 98 PNGs at 300 dpi, the atomic write; budget 3 s), the
preflight of that folder (``pnp build --preflight DIR``, a whole command too; budget 1 s),
and, inside one process, each shipped preset's build in memory (for comparison).
Until ``pnp build`` takes ``--preset`` the commands run the same code through ``python -c``.
Run: .venv/bin/python benchmarks/bench_presets.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import ROOT, command, figure, wall_ms

BUILD = ("import sys; from pathlib import Path; from generator.presets.run import make, write; "
         "p, r = make(sys.argv[1], ('orbitus', 'satellites')); write(Path(sys.argv[2]), p, r)")
CHECK = ("import sys; from pathlib import Path; from generator.preflight import check_folder; "
         "code, text = check_folder(Path(sys.argv[1])); print(text); sys.exit(code)")


def has_preset_option() -> bool:
    args = command("pnp-build") if Path(sys.executable).with_name("pnp-build").exists() \
        else [sys.executable, "-m", "generator"]
    out = subprocess.run([*args, "--help"], capture_output=True, text=True, check=False)
    return "--preset" in out.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    cli = has_preset_option()
    build_cmd = [str(Path(sys.executable).with_name("pnp-build"))] if cli else None
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "kit"
        if build_cmd is not None:
            run_build = [*build_cmd, "--preset", "thegamecrafter", "--out", str(out), "-q"]
            run_check = [*build_cmd, "--preflight", str(out / "thegamecrafter")]
        else:
            run_build = [sys.executable, "-c", BUILD, "thegamecrafter", str(out)]
            run_check = [sys.executable, "-c", CHECK, str(out / "thegamecrafter")]
        how = "pnp build" if cli else "python -c (the same functions)"
        times = wall_ms(run_build, args.runs, cwd=ROOT)
        figure("preset build, The Game Crafter, both games, whole command",
               statistics.median(times), 3000,
               note=f"{how}; median of {len(times)}, min {min(times):.0f}; 98 PNGs at 300 dpi")
        times = wall_ms(run_check, args.runs, cwd=ROOT)
        figure("preflight of that folder, whole command", statistics.median(times), 1000,
               note=f"{how}; median of {len(times)}, min {min(times):.0f}")
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
