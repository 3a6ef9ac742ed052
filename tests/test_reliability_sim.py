"""pnp sim --resume after games.jsonl was damaged, edited by hand, doubled or replaced by a
pipe: every finished game of the run kept once, every other line named with its line and
moved aside (nothing lost), no game written twice, never an internal error or a hang; and
every number option of pnp sim bounded, the limit in the message."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim import run as simrun
from sim.cli import main

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["satellites", "--games", "30", "--seed", "3", "--jobs", "1", "--json"]


def sim(args: list[str], capsys) -> tuple[int, str, str]:
    code = main(args)
    out = capsys.readouterr()
    assert "internal error" not in out.err and "Traceback" not in out.err, out.err
    return code, out.out, out.err


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> tuple[Path, str]:
    """A finished run of 30 Satellites games, and its JSON report."""
    out = tmp_path_factory.mktemp("whole") / "run"
    code = main([*ARGS, "--out", str(out)])
    assert code == 0
    return out, (out / "report.json").read_text()


def copy_run(whole: Path, to: Path, lines: list[bytes]) -> Path:
    to.mkdir()
    (to / "run.json").write_bytes((whole / "run.json").read_bytes())
    (to / "games.jsonl").write_bytes(b"".join(lines))
    return to / "games.jsonl"


def games_in(path: Path) -> list[tuple[int, int]]:
    return [(r["players"], r["game"]) for r in map(json.loads, path.read_bytes().splitlines())]


def played(monkeypatch) -> list[tuple[int, int]]:
    """The games the run plays (the others came from games.jsonl)."""
    calls: list[tuple[int, int]] = []
    real = simrun.play_many

    def counting(setup, batch):
        calls.extend(batch)
        return real(setup, batch)

    monkeypatch.setattr(simrun, "play_many", counting)
    return calls


def test_a_damaged_line_is_named_and_every_later_game_is_kept(whole, tmp_path, capsys,
                                                              monkeypatch):
    source, report = whole
    lines = (source / "games.jsonl").read_bytes().splitlines(keepends=True)
    damaged = list(lines)
    damaged[4] = damaged[4].replace(b'"winners":[', b'"winners":[0,', 1)  # edited by hand
    damaged[9] = damaged[9][:50] + b"\x00\xff" + damaged[9][52:]  # a flipped block
    damaged[11] = b"\n"  # an empty line
    games = copy_run(source, tmp_path / "run", damaged)
    calls = played(monkeypatch)
    code, out, err = sim([*ARGS, "--out", str(tmp_path / "run"), "--resume"], capsys)
    assert code == 0, err
    assert sorted(calls) == [(2, 4), (2, 9), (2, 11)]  # only the damaged games played again
    assert err.splitlines() == [
        f"{games}:5: damaged or edited, or a game of another run (its check does not match); "
        "left out, that game is played again",
        f"{games}:10: not UTF-8 text; left out, that game is played again",
        f"{games}:12: not JSON (Expecting value); left out, that game is played again",
        f"pnp-sim: kept 27 finished game(s) of {games}; the 3 line(s) left out are in "
        f"{games.with_name('games.rejected.jsonl')}",
    ]
    assert (tmp_path / "run" / "report.json").read_text() == report
    assert sorted(games_in(games)) == sorted(games_in(source / "games.jsonl"))  # once each
    assert games.with_name("games.rejected.jsonl").read_bytes() == \
        damaged[4] + damaged[9] + damaged[11]


def test_a_doubled_file_keeps_each_game_once(whole, tmp_path, capsys):
    source, report = whole
    lines = (source / "games.jsonl").read_bytes().splitlines(keepends=True)
    games = copy_run(source, tmp_path / "run", lines[:10] + lines[:10])  # cat >> by mistake
    code, _, err = sim([*ARGS, "--out", str(tmp_path / "run"), "--resume"], capsys)
    assert code == 0, err
    assert err.splitlines()[0] == (f"{games}:11: the same game as line 1 (game 0 of 2 "
                                   "players); left out, that game is played again")
    assert len(err.splitlines()) == 11
    assert sorted(games_in(games)) == sorted(games_in(source / "games.jsonl"))
    assert (tmp_path / "run" / "report.json").read_text() == report


HAND_EDITED = [b"{}\n", b"[]\n", b'{"players": "x", "game": 1}\n', b"[" * 50_000 + b"\n",
               b'{"players": 2, "game": 1e999}\n', b"null\n", b'"a text"\n',
               b'{"players": 2, "game": 0, "check": 5}\n', b"\x1b[2J\n", b"x" * 300_000 + b"\n",
               b'{"players": 9, "game": -1, "check": "0123456789abcdef"}\n']


def test_a_hand_edited_file_gives_no_internal_error(whole, tmp_path, capsys):
    source, report = whole
    lines = (source / "games.jsonl").read_bytes().splitlines(keepends=True)
    games = copy_run(source, tmp_path / "run", lines[:5] + HAND_EDITED + lines[5:20])
    code, _, err = sim([*ARGS, "--out", str(tmp_path / "run"), "--resume"], capsys)
    assert code == 0, err
    named = [line.split(": ", 1)[0] for line in err.splitlines()[:-1]]
    assert named == [f"{games}:{n}" for n in range(6, 6 + len(HAND_EDITED))]
    assert "longer than 256,000 bytes" in err and "\x1b" not in err
    assert sorted(games_in(games)) == sorted(games_in(source / "games.jsonl"))
    assert (tmp_path / "run" / "report.json").read_text() == report


def test_a_game_of_another_run_is_not_taken_for_one_of_this_run(whole, tmp_path, capsys):
    source, report = whole
    other = tmp_path / "other"
    assert main([*ARGS[:2], "10", "--seed", "4", "--jobs", "1", "--out", str(other)]) == 0
    capsys.readouterr()
    lines = (source / "games.jsonl").read_bytes().splitlines(keepends=True)
    theirs = other.joinpath("games.jsonl").read_bytes().splitlines(keepends=True)
    assert json.loads(theirs[3])["game"] == 3
    games = copy_run(source, tmp_path / "run", lines[:3] + theirs[3:4] + lines[4:])
    code, _, err = sim([*ARGS, "--out", str(tmp_path / "run"), "--resume"], capsys)
    assert code == 0, err
    assert err.splitlines()[0] == (f"{games}:4: damaged or edited, or a game of another run "
                                   "(its check does not match); left out, that game is "
                                   "played again")
    assert (tmp_path / "run" / "report.json").read_text() == report


def test_a_named_pipe_as_games_jsonl_is_refused_at_once(whole, tmp_path):
    source, _ = whole
    out = tmp_path / "run"
    out.mkdir()
    (out / "run.json").write_bytes((source / "run.json").read_bytes())
    os.mkfifo(out / "games.jsonl")
    for extra in (["--resume"], []):
        done = subprocess.run([sys.executable, "-m", "pnp", "sim", *ARGS, "--out", str(out),
                               *extra], capture_output=True, text=True, timeout=60, cwd=ROOT)
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr == (f"pnp sim: {out}/games.jsonl: is a named pipe (FIFO), not a "
                               "regular file; expected the games of a run (games.jsonl)\n")


@pytest.mark.parametrize(("option", "value", "message"), [
    ("--games", "1000000000", "--games: 1,000,000,000 is too large (at most 200,000; run more "
                              "with other --seed values); e.g. --games 1000"),
    ("--budget", "1000000000000", "--budget: 1,000,000,000,000 is too large (at most 10,000; "
                                  "a game would take hours); e.g. --budget 64"),
    ("--jobs", "1000000", "--jobs: 1,000,000 is too large (at most 256); e.g. --jobs 2"),
    ("--seed", "9" * 40, "--seed: '" + "9" * 40 + "' is not a whole number; e.g. --seed 1"),
    ("--seed", str(2 ** 63), f"--seed: {2 ** 63:,} is too large (at most {2 ** 63 - 1:,}); "
                             "e.g. --seed 1"),
    ("--players", "2-100000000", "--players 2-100000000: Orbitus is played by 2 to 6 players, "
                                 "not 100000000"),
])
def test_every_number_option_is_bounded_with_the_limit_in_the_message(option, value, message):
    game = "orbitus"
    done = subprocess.run([sys.executable, "-m", "pnp", "sim", game, option, value, "--out",
                           "/nonexistent/x"], capture_output=True, text=True, timeout=60,
                          cwd=ROOT)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"pnp sim orbitus: {message} (see pnp sim orbitus --help)\n"
