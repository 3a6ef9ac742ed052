"""Golden Satellites game records: every record in tests/fixtures/records/satellites/ is
replayed with pnp-replay --json and compared with the outcome written beside it
(NAME.expected.json): the exit code, how far the replay got, the first illegal move with its
line and reason, and the position reached (board, groups, connected, winner, end). The
Orbitus records have their own test (test_records_orbitus_golden.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from records.replay_cli import main

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "records"
RECORDS = sorted(FIXTURES.glob("satellites/*.yaml"))


def outcome(path: Path, capsys) -> dict:
    """What pnp-replay says about a record, reduced to what the golden files fix."""
    code = main(["--json", path.name])
    out, err = capsys.readouterr()
    if code == 2:
        assert out == ""
        return {"exit": 2, "stderr": err.splitlines()}
    assert err == ""
    data = json.loads(out)
    replay = data["replay"]
    illegal = replay["illegal"]
    if illegal is not None:
        illegal = {k: illegal[k] for k in
                   ("move", "line", "player", "text", "reason", "legal_of", "legal_count")}
    return {
        "exit": code,
        "moves": replay["moves"],
        "played": replay["played"],
        "over": replay["over"],
        "message": replay["message"],
        "illegal": illegal,
        "board": board_of(path),
        "groups": [f"{' '.join(g['cells'])}: red {g['red']}, blue {g['blue']}, "
                   f"{g['controller'] or ('contested' if g['contested'] else 'no colony')}"
                   for g in data["groups"]],
        "connected": data["connected"],
        "colonies": data["colonies"],
        "winner": data["winner"],
        "tiebreak": data["tiebreak"],
        "end": {"over": data["end"]["over"], "reason": data["end"]["reason"]},
        "valid": data["valid"],
    }


def board_of(path: Path) -> list[str]:
    from records.record import read_record, replay
    from records.satellites_replay import board_of as board

    result = replay(read_record(Path(path.name)))
    return [line for line in board(result.state).to_text().splitlines()]


def test_there_are_golden_records_for_every_case_the_issue_names():
    names = {p.stem for p in RECORDS}
    assert {"displacement", "edge_not_empty", "opening_seed42", "grace_moves",
            "end_23_connected", "colony_merge"} <= names
    assert all(p.with_suffix(".expected.json").exists() for p in RECORDS)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_record(path: Path, capsys, monkeypatch):
    monkeypatch.chdir(path.parent)
    monkeypatch.setenv("NO_COLOR", "1")
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    assert outcome(path, capsys) == expected
