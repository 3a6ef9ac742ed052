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


def test_the_web_load_ends_when_the_server_drops_its_seats(modules):
    """bench_web's seats against a server that closes every connection once all four are
    in: the run ends at once with one counted error per seat (it once waited forever for a
    game whose seats had failed, and minutes for a seat whose cancellation was lost)."""
    pytest.importorskip("websockets")
    import asyncio

    import bench_web
    from websockets.asyncio.server import serve

    async def run() -> tuple[dict, float]:
        joined: list[object] = []
        everyone = asyncio.Event()

        async def handler(ws) -> None:  # a state no seat moves on, then the close
            await ws.send('{"type":"state","status":"active","legal":null}')
            joined.append(ws)
            if len(joined) == 4:
                everyone.set()
            await everyone.wait()
            await asyncio.sleep(0.2)
            await ws.close(1011, "gone")

        async with serve(handler, "127.0.0.1", 0) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            start = asyncio.get_running_loop().time()
            out = await asyncio.wait_for(
                bench_web.play(port, [["a", "b", "c", "d"]], 5, 0, 1, 0), 30)
            return out, asyncio.get_running_loop().time() - start

    out, took = asyncio.run(run())
    assert out["times"] == []
    assert out["errors"] == ["a seat failed: ConnectionClosedError: received 1011 (internal "
                             "error) gone; then sent 1011 (internal error) gone"] * 4
    assert took < 10


@pytest.mark.parametrize(("args", "said"), [
    (["--gap", "11"], "--gap is a number of milliseconds, 0 or more, and goes with "
                      "--in-process"),
    (["--in-process", "10", "--gap", "-1"], "--gap is a number of milliseconds, 0 or more"),
    (["--think-sweep", "0.5,soon"], "--think-sweep: '0.5,soon' is not a list of seconds "
                                    "(e.g. 0.001,0.05,0.2,0.5,1)"),
    (["--think-sweep", "0.5,0"], "--think-sweep: every think time is a number of seconds "
                                 "above 0"),
    (["--busy-think", "-1"], "--busy-think is a number of seconds, 0 (not run) or more"),
    (["--busy-runs", "0"], "--busy-runs is a whole number of runs, 1 or more"),
])
def test_the_web_benchmark_refuses_a_wrong_gap_or_think_sweep_before_it_starts(args, said):
    import subprocess

    done = subprocess.run([sys.executable, str(BENCH / "bench_web.py"), *args],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2
    assert said in done.stderr
    assert done.stdout == ""


def test_the_web_benchmark_times_moves_after_a_gap_in_process(capsys):
    """--in-process with --gap sleeps before each move and says so in the figure's note."""
    sys.path.insert(0, str(BENCH))
    try:
        import bench_web

        bench_web.bench_move(8, per_game=4, gap=0.002)
    finally:
        sys.path.remove(str(BENCH))
    out = capsys.readouterr().out
    assert "over 8 moves of the first 4 moves of games from their start" in out
    assert "; 2 ms asleep before each move, not timed;" in out


def test_the_web_benchmarks_memory_walk_times_a_walk_after_a_sleep_and_at_once():
    """The machine's figure beside the light load: nanoseconds a step of the walk, after a
    sleep and right after that walk; both are Python steps (tens of nanoseconds or more)."""
    sys.path.insert(0, str(BENCH))
    try:
        import bench_web

        slept, warm = bench_web.memory_walk(kb=16, gap=0.001, rounds=3)
    finally:
        sys.path.remove(str(BENCH))
    assert 1 < warm < 100_000 and 1 < slept < 100_000
