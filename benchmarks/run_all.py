"""Run the benchmark scripts and write every figure into the table of docs/benchmarks.md.

Each ``benchmarks/bench_*.py`` reports its figures through ``timing.figure``; this script
runs them one after the other (their own output passes through, so the progress shows),
collects the figures, and prints the table: what, figure, budget, when and on what it was
measured, and the command that reproduces it.

With ``--write`` the figures of the scripts that ran replace theirs in
``benchmarks/figures.json`` (the other scripts' stay, with their own dates) and the table
between the markers of ``docs/benchmarks.md`` is made anew from that file. ``--quick``
runs every script with small settings to see that they work; its figures are not
comparable and are never written. ``--table`` only remakes the page's table from the file.

``--only bench_x --args "..."`` runs one script with arguments of its own (some of its
figures, or a long one taken alone); ``--write`` then replaces only the figures it measured.

Run: .venv/bin/python benchmarks/run_all.py [--quick] [--only bench_x ...] [--args ARGS]
[--write | --table]
The machine should be quiet: the figures are wall and CPU times.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from timing import FIGURES_ENV, ROOT

HERE = Path(__file__).resolve().parent
FIGURES = HERE / "figures.json"
PAGE = ROOT / "docs" / "benchmarks.md"
START, END = "<!-- figures:start -->", "<!-- figures:end -->"

# Small settings for --quick: each script runs in seconds.
QUICK = {
    "bench_balance.py": ["--quick"],
    "bench_bot_think.py": ["--games", "1", "--budgets", "8", "--players", "2"],
    "bench_build.py": ["--runs", "1"],
    "bench_cli.py": ["--runs", "2"],
    "bench_design.py": ["--runs", "1"],
    "bench_export.py": ["--runs", "1", "--dpi", "50"],
    "bench_fuzz.py": ["--inputs", "25"],
    "bench_photo.py": ["--photos", "3", "--cameras", "1", "--repeats", "1", "--pairs", "2"],
    "bench_photo_rendered.py": ["--photos", "2"],
    "bench_presets.py": ["--runs", "1"],
    "bench_orbitus_score.py": ["--runs", "1", "--sizes", "500,2000"],
    "bench_rules_orbitus.py": ["--runs", "1", "--games", "8"],
    "bench_rules_satellites.py": ["--runs", "1", "--games", "8"],
    "bench_satellites_bots.py": ["--bots", "deep:4", "--games", "9"],
    "bench_satellites_score.py": ["--runs", "2"],
    "bench_sim.py": ["--quick", "--only", "1,3,5"],
    "bench_watch.py": ["--runs", "1"],
    "bench_web.py": ["--games", "4", "--moves", "10", "--think", "0.1", "--ramp", "8",
                     "--busy-runs", "1"],
}

# Settings of a full run that differ from a script's defaults (and change no figure: the
# photo benchmark's accuracy half makes and reads its photos in two processes; its speed
# figure is taken on one core after them).
FULL = {
    "bench_photo.py": ["--jobs", "2"],
}


def scripts() -> list[Path]:
    return sorted(HERE.glob("bench_*.py"))


def machine() -> str:
    """The machine in a line: architecture, CPU model, cores, memory, Python, load."""
    model = platform.processor() or ""
    memory = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            model = next((line.split(":", 1)[1].strip() for line in info
                          if line.startswith("model name")), model)
        with open("/proc/meminfo", encoding="utf-8") as info:
            kb = next(int(line.split()[1]) for line in info if line.startswith("MemTotal:"))
            memory = f", {kb / 2**20:.0f} GiB"
    except (OSError, StopIteration, ValueError):
        pass
    load = ""
    if hasattr(os, "getloadavg"):
        load = f", load average {os.getloadavg()[0]:.1f} at the start"
    return (f"{platform.machine()}{f' ({model})' if model else ''}, {os.cpu_count()} cores"
            f"{memory}, Python {platform.python_version()}{load}")


def run(script: Path, args: list[str]) -> tuple[int, list[dict[str, Any]]]:
    """Run one script; its exit code and the figures it reported."""
    with tempfile.TemporaryDirectory() as tmp:
        sink = Path(tmp) / "figures.jsonl"
        sink.touch()
        env = {**os.environ, FIGURES_ENV: str(sink)}
        print(f"\n$ python benchmarks/{script.name} {' '.join(args)}".rstrip(), flush=True)
        code = subprocess.run([sys.executable, str(script), *args], env=env, cwd=ROOT,
                              check=False).returncode
        lines = sink.read_text(encoding="utf-8").splitlines()
    return code, [json.loads(line) for line in lines if line.strip()]


def command(entry: dict[str, Any]) -> str:
    return " ".join([".venv/bin/python", entry["script"], *entry["args"]])


def cell(text: str) -> str:
    return text.replace("|", "\\|")


def table(entries: list[dict[str, Any]]) -> str:
    """The Markdown table of every figure, in the order of the scripts and their output."""
    order = {path.name: i for i, path in enumerate(scripts())}
    rows = sorted(enumerate(entries),
                  key=lambda pair: (order.get(Path(pair[1]["script"]).name, 99), pair[0]))
    out = ["| what | figure | budget | measured | command |", "|---|---|---|---|---|"]
    for _, e in rows:
        shown = f"**{e['shown']}**" + (f" ({e['note']})" if e.get("note") else "")
        budget = e.get("budget") or "—"
        if e.get("ok") is False:
            budget += " (over)"
        out.append(f"| {cell(e['label'])} | {cell(shown)} | {cell(budget)} | "
                   f"{e['measured']}{' ¹' if e.get('provisional') else ''} | "
                   f"`{command(e)}` |")
    machines = sorted({e["machine"] for e in entries})
    notes = ["", "Measured on: " + "; ".join(machines) + "."]
    if any(e.get("provisional") for e in entries):
        notes.append("¹ provisional: taken while other work shared the machine; run the "
                     "command on a quiet machine for a figure to rely on.")
    return "\n".join(out + notes)


def write_page(entries: list[dict[str, Any]]) -> None:
    text = PAGE.read_text(encoding="utf-8")
    if START not in text or END not in text:
        raise SystemExit(f"{PAGE.relative_to(ROOT)}: the markers {START} and {END} are missing")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    PAGE.write_text(f"{head}{START}\n{table(entries)}\n{END}{tail}", encoding="utf-8")


def load() -> list[dict[str, Any]]:
    if not FIGURES.exists():
        return []
    data: list[dict[str, Any]] = json.loads(FIGURES.read_text(encoding="utf-8"))
    return data


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="small settings, to see that every script works (never written)")
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="run only this script (bench_build or bench_build.py); repeatable")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true",
                      help="keep the figures in benchmarks/figures.json and remake the table "
                           "of docs/benchmarks.md")
    mode.add_argument("--table", action="store_true",
                      help="only remake the table of docs/benchmarks.md from figures.json")
    parser.add_argument("--provisional", action="store_true",
                        help="mark the figures as taken on a busy machine")
    parser.add_argument("--args", metavar="ARGS",
                        help="run the one --only script with these arguments (e.g. \"--only "
                             "6\"); --write then replaces only the figures it measured (by "
                             "label) and keeps the script's others")
    args = parser.parse_args()
    if args.quick and args.write:
        parser.error("--quick figures are not comparable, so they are never written")
    if args.args is not None and (len(args.only) != 1 or args.quick):
        parser.error("--args belongs to one script: give exactly one --only, without --quick")
    if args.table:
        write_page(load())
        print(f"wrote the table of {PAGE.relative_to(ROOT)} from "
              f"{FIGURES.relative_to(ROOT)}")
        return 0

    chosen = scripts()
    if args.only:
        wanted = {name if name.endswith(".py") else f"{name}.py" for name in args.only}
        unknown = wanted - {p.name for p in chosen}
        if unknown:
            parser.error(f"no such benchmark: {', '.join(sorted(unknown))} (there are: "
                         f"{', '.join(p.name for p in chosen)})")
        chosen = [p for p in chosen if p.name in wanted]

    today = datetime.date.today().isoformat()
    where = machine()
    print(f"machine: {where}")
    fresh: list[dict[str, Any]] = []
    failed: list[str] = []
    for script in chosen:
        own = shlex.split(args.args) if args.args is not None else FULL.get(script.name, [])
        code, figures = run(script, QUICK.get(script.name, []) if args.quick else own)
        if code not in (0, 1) or not figures:  # 1: a script's budget missed, still figures
            failed.append(f"{script.name} (exit {code}, {len(figures)} figures)")
        for f in figures:
            f["measured"] = today
            f["machine"] = where
            if args.provisional:
                f["provisional"] = True
        fresh.extend(figures)

    print("\n" + table(fresh) if fresh else "\nno figures")
    if args.write:
        ran = {f"benchmarks/{p.name}" for p in chosen}
        if args.args is None:  # a whole script's figures replace all of its earlier ones
            kept = [e for e in load() if e["script"] not in ran]
        else:  # some of a script's figures replace those of the same label
            measured = {(f["script"], f["label"]) for f in fresh}
            kept = [e for e in load() if (e["script"], e["label"]) not in measured]
        FIGURES.write_text(json.dumps(kept + fresh, indent=1, ensure_ascii=False) + "\n",
                           encoding="utf-8")
        write_page(kept + fresh)
        print(f"\nwrote {FIGURES.relative_to(ROOT)} and the table of "
              f"{PAGE.relative_to(ROOT)}")
    over = [e["label"] for e in fresh if e.get("ok") is False]
    if over:
        print("over budget: " + "; ".join(over))
    if failed:
        print("failed: " + "; ".join(failed), file=sys.stderr)
        return 2
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
