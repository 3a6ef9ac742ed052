"""What the benchmark scripts share: finding the commands and timing them."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

MODULES = {
    "pnp-score": "scorer",
    "pnp-setup": "scorer.engine.setup_cli",
    "pnp-replay": "scorer.engine.replay_cli",
}


def command(name: str = "pnp-score") -> list[str]:
    """The installed command next to this interpreter, else ``python -m`` its module."""
    script = Path(sys.executable).with_name(name)
    return [str(script)] if script.exists() else [sys.executable, "-m", MODULES[name]]


def wall_ms(args: list[str], runs: int, cwd: Path | None = None,
            env: dict[str, str] | None = None,
            before: Callable[[], object] | None = None) -> list[float]:
    """Wall times (ms) of ``runs`` runs of a whole command, interpreter start included
    (``before`` runs, untimed, before each run: to empty a cache, say). A run that fails
    (exit code other than 0 or 1) stops the benchmark."""
    times = []
    for _ in range(runs):
        if before is not None:
            before()
        started = time.perf_counter()
        proc = subprocess.run(args, capture_output=True, check=False, cwd=cwd, env=env)
        times.append((time.perf_counter() - started) * 1000)
        if proc.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(args)} failed: {proc.stderr.decode()}")
    return times


def median_wall_ms(args: list[str], runs: int, cwd: Path | None = None,
                   env: dict[str, str] | None = None,
                   before: Callable[[], object] | None = None) -> float:
    return statistics.median(wall_ms(args, runs, cwd, env, before))


def best_of(fn: Callable[[], object], repeat: int = 3,
            clock: Callable[[], float] = time.perf_counter) -> float:
    """The fastest of ``repeat`` calls of ``fn``, in seconds of ``clock`` (wall time;
    ``time.process_time`` for the CPU time of this process, which other work on a shared
    machine skews less)."""
    times = []
    for _ in range(repeat):
        start = clock()
        fn()
        times.append(clock() - start)
    return min(times)
