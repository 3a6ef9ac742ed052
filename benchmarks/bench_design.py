"""Time the design-iteration commands on the shipped 72-sector deck against a copy with
three sectors changed (and one planet-scoring row):

- ``pnp diff OLD NEW --html PAGE``, the whole command: interpreter start, both versions
  loaded and validated, components compared, the three changed sectors drawn old and new
  with their changed regions found and outlined, the page written (budget 2 s);
- ``pnp build --since OLD``, the whole command, beside a full ``pnp build`` of the same
  definitions (the reprint kit must take no longer than the full build: its figure is the
  ratio, budget 1).

Run: .venv/bin/python benchmarks/bench_design.py [--runs N]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from timing import ROOT, figure, wall_ms

CHANGES = (
    ("orbitus/sectors.yaml", "{id: S05, routes: [SE, S, SW], planet: ice}",
     "{id: S05, routes: [N, S, SW], planet: ice}"),
    ("orbitus/sectors.yaml", "{id: S17, routes: [N, SE, S, SW], planet: lava}",
     "{id: S17, routes: [N, SE, SW, NW], planet: lava}"),
    ("orbitus/sectors.yaml", "{id: S40, routes: [N, S], planet: ocean}",
     "{id: S40, routes: [N, NE, S], planet: ocean}"),
    ("orbitus/rules.yaml", "{min: 6, points: 9}", "{min: 6, points: 10}"),
)


def pnp() -> list[str]:
    script = Path(sys.executable).with_name("pnp")
    return [str(script)] if script.exists() else [sys.executable, "-m", "pnp"]


def has(subcommand: str) -> bool:
    done = subprocess.run([*pnp(), subcommand, "--help"], capture_output=True, check=False)
    return done.returncode == 0


def changed_copy(folder: Path) -> Path:
    for game in ("orbitus", "satellites"):
        shutil.copytree(ROOT / "cards" / game, folder / game)
    for file, old, new in CHANGES:
        path = folder / file
        text = path.read_text(encoding="utf-8")
        assert old in text, old
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    diff = [*pnp(), "diff"] if has("diff") else [sys.executable, "-m", "design.diff_cli"]
    with tempfile.TemporaryDirectory() as tmp:
        new = changed_copy(Path(tmp) / "mine")
        old = ROOT / "cards"
        page = Path(tmp) / "diff.html"
        times = wall_ms([*diff, str(old), str(new), "--game", "orbitus", "--html", str(page)],
                        args.runs)
        figure("pnp diff of two 72-sector versions, three sectors changed, whole command with "
               "the page of pictures", statistics.median(times), 2000,
               note=f"median of {len(times)}; min {min(times):.0f}, max {max(times):.0f}")
        if not has("build") or "--since" not in subprocess.run(
                [*pnp(), "build", "--help"], capture_output=True, text=True,
                check=False).stdout:
            print("  pnp build --since is not wired in yet: the reprint figure is skipped")
            return
        full_out = Path(tmp) / "full"
        build = [*pnp(), "build", "--cards", str(new), "-q"]
        full = wall_ms([*build, "--out", str(full_out)], args.runs)
        since_out = Path(tmp) / "since"
        since = wall_ms([*build, "--since", str(old), "--out", str(since_out)], args.runs)
    ratio = statistics.median(since) / statistics.median(full)
    figure("pnp build --since (the reprint kit of three changed sectors and the sheets that "
           "print the scoring row), whole command", statistics.median(since),
           note=f"median of {len(since)}; a full build of the same definitions "
                f"{statistics.median(full):.0f} ms")
    figure("pnp build --since against a full pnp build, time ratio", ratio, 1.0, unit="",
           note="at most 1: a reprint is never slower than the kit")


if __name__ == "__main__":
    main()
