"""The benchmark scripts share one way to report a figure, and docs/benchmarks.md shows the
figures run_all.py last kept (the scripts themselves are run by hand, not by the tests:
speed is measured on a quiet machine, not asserted)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks"


@pytest.fixture(scope="module")
def modules():
    sys.path.insert(0, str(BENCH))
    try:
        import run_all
        import timing

        yield timing, run_all
    finally:
        sys.path.remove(str(BENCH))


def test_a_figure_is_printed_and_kept_as_a_json_line(modules, tmp_path, monkeypatch, capsys):
    timing, _ = modules
    sink = tmp_path / "figures.jsonl"
    monkeypatch.setenv(timing.FIGURES_ENV, str(sink))
    monkeypatch.setattr(sys, "argv", [str(BENCH / "bench_build.py"), "--runs", "3"])
    assert timing.figure("a build", 1234.4, 1000, note="median of 3") is False
    assert timing.figure("games", 70.2, 50, unit="games/s", better="higher", indent="")
    assert capsys.readouterr().out == (
        "  a build: 1,234 ms (median of 3) [budget < 1,000 ms: OVER BUDGET]\n"
        "games: 70 games/s [budget ≥ 50 games/s: ok]\n")
    first, second = (json.loads(line) for line in sink.read_text().splitlines())
    assert first == {"script": "benchmarks/bench_build.py", "args": ["--runs", "3"],
                     "label": "a build", "value": 1234.4, "unit": "ms", "shown": "1,234 ms",
                     "note": "median of 3", "budget": "< 1,000 ms", "ok": False}
    assert second["ok"] is True and second["budget"] == "≥ 50 games/s"
    monkeypatch.delenv(timing.FIGURES_ENV)
    timing.figure("no file", 0.0043, unit="s")
    assert capsys.readouterr().out == "  no file: 0.0043 s\n"


def test_every_script_reports_through_figure():
    for script in sorted(BENCH.glob("bench_*.py")):
        text = script.read_text(encoding="utf-8")
        assert "figure(" in text and "from timing import" in text, script.name


def test_the_page_shows_the_figures_kept(modules):
    _, run_all = modules
    page = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    kept = run_all.table(run_all.load())
    assert f"{run_all.START}\n{kept}\n{run_all.END}" in page, (
        "docs/benchmarks.md is out of date: .venv/bin/python benchmarks/run_all.py --table")
    for entry in run_all.load():
        assert (BENCH / Path(entry["script"]).name).exists(), entry["script"]
