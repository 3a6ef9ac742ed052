"""Speed and memory of the Orbitus scorer, against the budgets of issue 3.

1. A real game: ``pnp-score orbitus`` on the 72-card, six-player table
   tests/fixtures/orbitus/six-players-72.yaml, run as a subprocess (interpreter
   start included), table and --json output. Budget: under 200 ms wall.
2. Large legal tables of 10,000 and 40,000 inline sectors, grown by random
   matching placements (seeded, six players), written as a player would write
   them, one flow mapping per sector:
   a. the whole 10,000-sector command (subprocess) takes at most 1.5 x the time
      PyYAML's C loader needs just to read that file (``yaml.load`` with
      ``CSafeLoader``, in this process, interpreter start not counted);
   b. what comes after reading (checking, scoring, writing the report) grows
      linearly: 40,000 takes at most 4.5 x the time of 10,000 (measured in
      process, the same steps as the command, the file already read);
   c. the 40,000-sector command stays under 300 MB (its own peak resident memory).

Run: .venv/bin/python benchmarks/bench_orbitus_score.py [--runs N] [--seed S] [--sizes A,B]
(``--sizes 1000,4000`` for a quick look; the budgets are for the default 10,000 and 40,000).
Exits 1 when a budget is missed.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml
from timing import command, figure, wall_ms

from cards.ruleset_cache import load_ruleset
from testkit.grow import grow_table

ROOT = Path(__file__).resolve().parent.parent
GAME_72 = ROOT / "tests" / "fixtures" / "orbitus" / "six-players-72.yaml"
COMMAND_BUDGET_MS = 200.0
READ_RATIO = 1.5
LINEAR_RATIO = 4.5
MEMORY_BUDGET_MB = 300.0

try:
    from yaml import CSafeLoader as Loader
except ImportError:  # pragma: no cover
    sys.exit("PyYAML was built without its C loader; the benchmark compares against it")


def layout_text(layout: dict[str, Any]) -> str:
    """A layout as a person would type it: one flow mapping per sector."""
    lines = ["game: orbitus", f"players: [{', '.join(layout['players'])}]", "start_lines:"]
    for name, sides in layout["start_lines"].items():
        lines.append(f"  {name}: [{', '.join(sides)}]")
    lines.append(f"barriers: [{', '.join(layout['barriers'])}]")
    lines.append("sectors:")
    for e in layout["sectors"]:
        parts = [f"at: [{e['at'][0]}, {e['at'][1]}]", f"routes: [{', '.join(e['routes'])}]"]
        if "planet" in e:
            parts.append(f"planet: {e['planet']}")
        if e.get("pirate"):
            parts.append("pirate: true")
        lines.append("  - {" + ", ".join(parts) + "}")
    return "\n".join(lines) + "\n"


def read_ms(path: Path, runs: int, collect: bool = True) -> list[float]:
    """PyYAML's C loader reading the file, in this process (interpreter start not counted);
    ``collect=False`` with the cyclic garbage collector off, as the command runs."""
    times = []
    for _ in range(runs):
        gc.collect()
        if not collect:
            gc.disable()
        try:
            started = time.perf_counter()
            with path.open(encoding="utf-8") as handle:
                yaml.load(handle, Loader=Loader)
            times.append((time.perf_counter() - started) * 1000)
        finally:
            gc.enable()
    return times


AFTER_READ = """\
import gc, io, sys, time
from contextlib import redirect_stdout
from pathlib import Path
from cards.loader import load_yaml
from cards.ruleset import load_ruleset
from rules.orbitus.score import score
from scorer.orbitus.layout import deck_path, parse_layout
from scorer.orbitus.report import to_text
gc.disable()  # as the command does
doc = load_yaml(Path(sys.argv[1]), "an Orbitus layout")
started = time.perf_counter()
ruleset = load_ruleset("orbitus", None, deck_path(doc))
layout = parse_layout(doc, ruleset, "cards/orbitus/sectors.yaml")
del doc
result = score(layout, ruleset.scoring, layout.findings)
with redirect_stdout(io.StringIO()):
    sys.stdout.write(to_text(result))
print((time.perf_counter() - started) * 1000, result.valid)
"""


def after_read_ms(path: Path, runs: int) -> list[float]:
    """The command's steps after reading the file (as in scorer.orbitus.cli), each run in a
    fresh process like the command itself, the clock started once the file is read."""
    times = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", AFTER_READ, str(path)], capture_output=True,
                             text=True, check=True).stdout.split()
        if out[1] != "True":
            raise SystemExit(f"{path.name}: the grown table is not valid")
        times.append(float(out[0]))
    return times


def max_rss_mb(path: Path) -> float:
    """Peak resident memory of the whole command on ``path``.

    Read in the command's own process at its end: its ``ru_maxrss`` (what the issue
    names), unless Linux's VmHWM is there, which is the same peak but not inflated by
    the size of this (parent) process at the fork, as ``ru_maxrss`` is on Linux.
    """
    code = (
        "import io, resource, sys\n"
        "from contextlib import redirect_stdout\n"
        "from scorer.cli import main\n"
        "with redirect_stdout(io.StringIO()):\n"
        f"    main(['orbitus', {str(path)!r}])\n"
        "kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "try:\n"
        "    with open('/proc/self/status') as f:\n"
        "        kb = next(int(x.split()[1]) for x in f if x.startswith('VmHWM:'))\n"
        "except (OSError, StopIteration):\n"
        "    pass\n"
        "print(kb)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    return int(out.split()[-1]) / 1024.0  # kilobytes on Linux


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="repetitions per figure (median)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the grown tables")
    parser.add_argument("--sizes", default="10000,40000",
                        help="the two grown tables, small and large (default 10000,40000)")
    args = parser.parse_args()
    runs = max(1, args.runs)
    small_size, big_size = (int(n) for n in args.sizes.split(","))
    failed = False

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()} ({platform.python_implementation()}), "
          f"PyYAML {yaml.__version__} with its C loader")
    start = statistics.median(wall_ms([sys.executable, "-c", "pass"], runs * 2))
    figure("interpreter start alone (python -c pass)", start, indent="")

    # 1. a real game
    cmd = command()
    table = statistics.median(wall_ms([*cmd, "orbitus", str(GAME_72)], runs * 2))
    as_json = statistics.median(wall_ms([*cmd, "orbitus", str(GAME_72), "--json"], runs * 2))
    print("pnp-score orbitus, 72 sectors, 6 players, whole command:")
    failed |= not figure("pnp-score orbitus, 72 sectors, 6 players, whole command", table,
                         COMMAND_BUDGET_MS)
    failed |= not figure("pnp-score orbitus, 72 sectors, 6 players, whole command, --json",
                         as_json, COMMAND_BUDGET_MS)
    with tempfile.TemporaryDirectory() as tmp:  # pydantic, the drawing code and a backend
        for kind in ("svg", "png"):
            picture = Path(tmp) / f"table.{kind}"
            drawn = statistics.median(wall_ms([*cmd, "orbitus", str(GAME_72), f"--{kind}",
                                               str(picture)], max(1, runs // 2)))
            figure(f"pnp-score orbitus, 72 sectors, 6 players, whole command, --{kind}", drawn)

    # 2. large grown tables
    setup = load_ruleset("orbitus").setup_for(6)
    with tempfile.TemporaryDirectory() as tmp:
        files: dict[int, Path] = {}
        for size in (small_size, big_size):
            started = time.perf_counter()
            layout = grow_table(args.seed, size, 6, setup=setup)
            if len(layout["sectors"]) != size:
                raise SystemExit(f"the grown table stopped at {len(layout['sectors'])} sectors")
            path = Path(tmp) / f"grown-{size}.yaml"
            path.write_text(layout_text(layout), encoding="utf-8")
            files[size] = path
            print(f"grew {size:,} sectors in {time.perf_counter() - started:.1f} s "
                  f"({path.stat().st_size / 1e6:.1f} MB of YAML)")

        small, n = files[small_size], f"{small_size:,}"
        read = statistics.median(read_ms(small, runs))
        whole = statistics.median(wall_ms([*cmd, "orbitus", str(small)], runs))
        print(f"{n} sectors:")
        figure(f"pnp-score orbitus, {n} sectors, whole command", whole)
        figure(f"PyYAML's C loader reading the {n}-sector layout", read)
        failed |= not figure(f"pnp-score orbitus, {n} sectors, against the C loader reading "
                             f"the file", whole / read, READ_RATIO, unit="×")
        quiet = statistics.median(read_ms(small, runs, collect=False))
        figure(f"PyYAML's C loader reading the {n}-sector layout, garbage collector off "
               f"(as the command runs)", quiet)
        figure(f"pnp-score orbitus, {n} sectors, against the C loader with the garbage "
               f"collector off", whole / quiet, unit="×")

        after = {size: statistics.median(after_read_ms(path, runs)) for size, path in
                 files.items()}
        m = f"{big_size:,}"
        print("after reading (checks, scoring, report):")
        figure(f"Orbitus scoring after reading, {n} sectors", after[small_size])
        figure(f"Orbitus scoring after reading, {m} sectors", after[big_size])
        failed |= not figure(f"Orbitus scoring after reading, {m} against {n} sectors",
                             after[big_size] / after[small_size], LINEAR_RATIO, unit="×",
                             note=f"{big_size / small_size:g} times the sectors")

        big_read = statistics.median(read_ms(files[big_size], max(1, runs // 2)))
        big_whole = statistics.median(wall_ms([*cmd, "orbitus", str(files[big_size])],
                                              max(1, runs // 2)))
        print(f"{m} sectors:")
        figure(f"pnp-score orbitus, {m} sectors, whole command", big_whole)
        figure(f"PyYAML's C loader reading the {m}-sector layout", big_read)

        memory = max_rss_mb(files[big_size])
        failed |= not figure(f"pnp-score orbitus, {m} sectors, peak memory", memory,
                             MEMORY_BUDGET_MB, unit="MB", note="VmHWM of the command")
    return 1 if failed else 0

if __name__ == "__main__":
    sys.exit(main())
