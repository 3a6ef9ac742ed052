"""What the benchmark scripts share: finding the commands, timing them, reporting figures.

Every figure a script measures goes through :func:`figure`, which prints it and, when the
environment variable ``PNP_BENCH_FIGURES`` names a file, appends it there as one JSON line
(the script and its arguments, so the table in docs/benchmarks.md can say which command
reproduces it; ``benchmarks/run_all.py`` collects them).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Literal

ROOT = Path(__file__).resolve().parent.parent
FIGURES_ENV = "PNP_BENCH_FIGURES"

MODULES = {
    "pnp-score": "scorer",
    "pnp-setup": "records.setup_cli",
    "pnp-replay": "records.replay_cli",
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


def shown(value: float, unit: str) -> str:
    """A figure as the table shows it: whole numbers from 10 up, with thousands separated
    (shares in per cent keep their decimals: 99.77 % is not 100 %)."""
    if float(value).is_integer() and abs(value) < 10:
        number = f"{int(value)}"
    elif unit == "%" and not float(value).is_integer():  # 99.77 % is not 100 %
        number = f"{value:.2f}" if abs(value) >= 99 else f"{value:.1f}"
    elif abs(value) >= 10:
        number = f"{value:,.0f}"
    elif abs(value) >= 1:
        number = f"{value:.1f}"
    elif abs(value) >= 0.01:
        number = f"{value:.2f}"
    else:
        number = f"{value:.2g}"
    return f"{number} {unit}" if unit else number


def figure(label: str, value: float, budget: float | None = None, *, unit: str = "ms",
           better: Literal["lower", "higher"] = "lower", note: str = "",
           indent: str = "  ") -> bool:
    """Report one figure: print ``label: value unit (note) [budget ...: ok]`` and, when
    ``$PNP_BENCH_FIGURES`` names a file, append it there as a JSON line. ``budget`` is in
    ``unit``: a ceiling (``better="lower"``, times and sizes) or a floor (rates). Returns
    whether the figure is within its budget (``True`` without one)."""
    ok = budget is None or (value < budget if better == "lower" else value >= budget)
    limit = None
    if budget is not None:
        limit = f"{'<' if better == 'lower' else '≥'} {shown(budget, unit)}"
    line = f"{indent}{label}: {shown(value, unit)}"
    if note:
        line += f" ({note})"
    if limit is not None:
        line += f" [budget {limit}: {'ok' if ok else 'OVER BUDGET'}]"
    print(line, flush=True)
    target = os.environ.get(FIGURES_ENV)
    if target:
        script = Path(sys.argv[0]).resolve()
        try:
            script_name = script.relative_to(ROOT).as_posix()
        except ValueError:
            script_name = script.name
        record = {"script": script_name, "args": sys.argv[1:], "label": label,
                  "value": value, "unit": unit, "shown": shown(value, unit), "note": note,
                  "budget": limit, "ok": ok if budget is not None else None}
        with open(target, "a", encoding="utf-8") as out:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return ok
