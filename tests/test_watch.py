"""pnp-build --watch: rebuilds after a change, only what depends on it, survives bad input."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from cards.definitions import load_orbitus
from generator.build import BuildOptions
from generator.products.orbitus import steps as orbitus_steps
from generator.watch import FOLDER, Recorder, parts_changed, recording, watch

TIMEOUT = 60.0


class Watcher:
    """The watch loop in a thread, its messages collected."""

    def __init__(self, out: Path, cards: Path, games=("orbitus", "satellites")) -> None:
        self.lines: list[str] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=watch, args=(out, games, cards, BuildOptions()),
                                       kwargs={"interval": 0.05, "stop": self.stop,
                                               "report": self.lines.append}, daemon=True)

    def __enter__(self) -> Watcher:
        self.thread.start()
        self.wait_for("watching ")
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(TIMEOUT)
        assert not self.thread.is_alive()

    def wait_for(self, text: str, after: int = 0) -> int:
        """Wait until a line containing ``text`` appears at index >= ``after``; its index."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            for i in range(after, len(self.lines)):
                if text in self.lines[i]:
                    return i
            if not self.thread.is_alive():
                break
            time.sleep(0.02)
        raise AssertionError(f"no {text!r} within {TIMEOUT} s; got {self.lines}")


def _stamps(out: Path) -> dict[str, int]:
    return {p.relative_to(out).as_posix(): p.stat().st_mtime_ns
            for p in out.rglob("*") if p.is_file()}


def _edit(path: Path, old: str, new: str) -> None:
    """Replace ``old`` by ``new`` and add a comment line, so the size changes too (a coarse
    file system clock cannot hide the change)."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1) + "# edited\n", encoding="utf-8")


def test_a_planet_change_rebuilds_the_orbitus_sheets_only(cards_copy, tmp_path):
    out = tmp_path / "out"
    with Watcher(out, cards_copy) as w:
        before = _stamps(out)
        assert {"orbitus/sectors.pdf", "orbitus/station.pdf", "satellites/board.pdf",
                "calibration.pdf"} <= before.keys()
        old_sectors = (out / "orbitus/sectors.pdf").read_bytes()
        mark = len(w.lines)
        _edit(cards_copy / "orbitus" / "planets.yaml", '"#86cdf5"', '"#7fc3e4"')
        i = w.wait_for("rebuilt orbitus", mark)
        assert "orbitus/planets.yaml" in w.lines[w.wait_for("changed:", mark)]
        after = _stamps(out)
        assert (out / "orbitus/sectors.pdf").read_bytes() != old_sectors
        assert after["orbitus/sectors.pdf"] != before["orbitus/sectors.pdf"]
        # the station sheet shows no planet, but it carries the design stamp (the hash of
        # every Orbitus definition), which changed; Satellites is another game
        assert after["orbitus/station.pdf"] != before["orbitus/station.pdf"]
        for rel in ("satellites/board.pdf", "satellites/tokens.pdf", "calibration.pdf"):
            assert after[rel] == before[rel], rel
        assert "orbitus/sectors.pdf" in w.lines[i] and "station.pdf" in w.lines[i]


def test_a_board_change_rebuilds_satellites_only(cards_copy, tmp_path):
    out = tmp_path / "out"
    with Watcher(out, cards_copy) as w:
        before = _stamps(out)
        mark = len(w.lines)
        path = cards_copy / "satellites" / "board.yaml"
        text = path.read_text(encoding="utf-8")
        assert 'grid: "#3a3a3a"' in text
        path.write_text(text.replace('grid: "#3a3a3a"', 'grid: "#3a3a3b"'), encoding="utf-8")
        w.wait_for("rebuilt satellites", mark)
        after = _stamps(out)
        assert after["satellites/board.pdf"] != before["satellites/board.pdf"]
        assert all(after[k] == before[k] for k in before if k.startswith("orbitus/"))
        assert not any("rebuilt orbitus" in line for line in w.lines[mark:])


def test_a_broken_definition_is_reported_and_the_watch_goes_on(cards_copy, tmp_path):
    out = tmp_path / "out"
    station = cards_copy / "orbitus" / "station.yaml"
    good = station.read_text(encoding="utf-8")
    with Watcher(out, cards_copy, games=("orbitus",)) as w:
        before = (out / "orbitus/station.pdf").read_bytes()
        mark = len(w.lines)
        station.write_text(good + "\nbogus: 1\n", encoding="utf-8")
        i = w.wait_for("problem(s) in the orbitus definitions", mark)
        assert any("station.yaml" in line and "bogus" in line for line in w.lines[mark:i])
        assert "still watching" in w.lines[i]
        assert (out / "orbitus/station.pdf").read_bytes() == before
        assert w.thread.is_alive()
        # fixed, with a real change: the station sheet is rebuilt with it
        mark = len(w.lines)
        station.write_text(good.replace("name_en: Orbitus", "name_en: Orbitus Prime"),
                           encoding="utf-8")
        w.wait_for("rebuilt orbitus", mark)
        assert (out / "orbitus/station.pdf").read_bytes() != before


def test_changes_made_while_broken_are_not_lost(cards_copy, tmp_path):
    out = tmp_path / "out"
    with Watcher(out, cards_copy, games=("orbitus",)) as w:
        sectors_before = (out / "orbitus/sectors.pdf").read_bytes()
        mark = len(w.lines)
        _edit(cards_copy / "orbitus" / "planets.yaml", '"#86cdf5"', '"#7fc3e4"')
        _edit(cards_copy / "orbitus" / "rules.yaml", "hand_size:", "hand_sizee:")  # broken
        w.wait_for("problem(s)", mark)
        mark = len(w.lines)
        _edit(cards_copy / "orbitus" / "rules.yaml", "hand_sizee:", "hand_size:")
        w.wait_for("rebuilt orbitus", mark)
        assert (out / "orbitus/sectors.pdf").read_bytes() != sectors_before


def test_output_inside_the_definitions_folder_does_not_retrigger(cards_copy):
    out = cards_copy / "output"
    with Watcher(out, cards_copy, games=("satellites",)) as w:
        time.sleep(1.0)  # twenty polls
        assert not any(line.startswith("changed:") for line in w.lines), w.lines
        mark = len(w.lines)
        _edit(cards_copy / "satellites" / "trackers.yaml", "\n", "\n")
        w.wait_for("rebuilt satellites", mark)
        time.sleep(1.0)
        assert sum(line.startswith("changed:") for line in w.lines) == 1, w.lines


def _reads(stamped: bool) -> tuple[dict[str, set[str]], set[str]]:
    from generator.stamp import stamps_off

    recorder = Recorder()
    steps = dict(orbitus_steps(recording(load_orbitus(), recorder), BuildOptions()))
    reads = {}
    for name, step in steps.items():
        recorder.current = set()
        if stamped:
            step()
        else:
            with stamps_off():
                step()
        reads[name] = recorder.current
    return reads, recorder.listing


def test_recorded_reads_follow_the_steps():
    reads, listing = _reads(stamped=False)
    assert listing == set()
    assert reads["Orbitus sectors"] == {"planets", "sectors", "folder"}  # folder: its note
    assert "planets" not in reads["Orbitus station"]
    assert {"sectors", "station", "rules"} <= reads["Orbitus station"]


def test_a_stamped_sheet_depends_on_every_definition():
    # the design stamp printed on every component is the hash of all the definitions
    # (cards/design.py): any printed value changed changes every sheet that carries it
    reads, _ = _reads(stamped=True)
    every = {"planets", "sectors", "station", "rules", "folder"}
    assert reads["Orbitus sectors"] == every and reads["Orbitus station"] == every


def test_changed_files_map_to_parts():
    games = ("orbitus", "satellites")
    assert parts_changed(["orbitus/planets.yaml"], games) == {"orbitus": {"planets"}}
    assert parts_changed(["satellites/board.yaml", "satellites/trackers.yaml"], games) == {
        "satellites": {"board", "trackers"}}
    assert parts_changed(["orbitus/text/rules-en.md"], games) == {"orbitus": {FOLDER}}
    assert parts_changed(["notes.txt"], games) == {"orbitus": {FOLDER},
                                                   "satellites": {FOLDER}}
    assert parts_changed(["satellites/board.yaml"], ("orbitus",)) == {}


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_ctrl_c_stops_the_watch_with_exit_code_0(cards_copy, tmp_path):
    command = [sys.executable, "-m", "generator", "--watch", "--cards", str(cards_copy),
               "--out", str(tmp_path / "out"), "--game", "satellites"]
    child = subprocess.Popen(command, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        deadline = time.monotonic() + TIMEOUT
        lines = []
        while time.monotonic() < deadline:
            line = child.stderr.readline()
            lines.append(line)
            if "watching" in line or not line:
                break
        assert any("watching" in line for line in lines), lines
        child.send_signal(signal.SIGINT)
        rest = child.communicate(timeout=TIMEOUT)[1]
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 0
    assert "stopped watching" in rest and "Traceback" not in rest
