"""Golden Orbitus game records: every record in tests/fixtures/records/orbitus/ is replayed
with pnp-replay --json and compared with the outcome written beside it (NAME.expected.json):
the exit code, how far the replay got, the first illegal move with its line and reason, the
table reached (every sector as the notation writes it), each player's total, the hands and
hand limits, and the scorer's verdict."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from records.replay_cli import main

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "records" / "orbitus"
RECORDS = sorted(FIXTURES.glob("*.yaml"))


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
    position = data["position"]
    return {
        "exit": code,
        "moves": replay["moves"],
        "played": replay["played"],
        "over": replay["over"],
        "message": replay["message"],
        "illegal": illegal,
        "table": table_of(path),
        "players": [f"{p['name']}: {p['total']} ({len(p['sectors'])} sectors, "
                    f"{p['open_routes']['count']} open routes, "
                    f"{len(p['closed_blocks'])} closed blocks)" for p in data["players"]],
        "neutral": len(data["neutral"]),
        "winners": data["winners"],
        "valid": data["valid"],
        "position": {k: position[k] for k in ("to_move", "deck_left", "hands", "hand_limits",
                                              "passed_last_turn", "out_of_game")},
    }


def table_of(path: Path) -> list[str]:
    """The sectors on the table in the order they were placed: ``S07 @0,-1 r2``."""
    from records.record import read_record, replay

    state = replay(read_record(Path(path.name))).state
    return [f"{p.card} @{q},{r} r{p.rot}" for (q, r), p in state.board.items()]


def test_there_are_golden_records_for_every_case_the_issue_names():
    names = {p.stem for p in RECORDS}
    assert {"removal", "forbidden_closing", "removal_cuts_system", "systems_meet",
            "close_own_system", "end_quiet_round", "pass_twice"} <= names
    assert any(n.startswith("random_game_") for n in names)
    assert all(p.with_suffix(".expected.json").exists() for p in RECORDS)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_golden_record(path: Path, capsys, monkeypatch):
    monkeypatch.chdir(path.parent)
    monkeypatch.setenv("NO_COLOR", "1")
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    assert outcome(path, capsys) == expected


if __name__ == "__main__":  # rewrite the expected outcomes (then read every diff by hand)
    import os

    class _Capture:
        def readouterr(self):
            out, err = sys.stdout.getvalue(), sys.stderr.getvalue()
            sys.stdout.seek(0)
            sys.stdout.truncate()
            sys.stderr.seek(0)
            sys.stderr.truncate()
            return out, err

    import io

    os.environ["NO_COLOR"] = "1"
    os.chdir(FIXTURES)
    for record in RECORDS:
        real_out, real_err = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = io.StringIO(), io.StringIO()
        try:
            found = outcome(record, _Capture())
        finally:
            sys.stdout, sys.stderr = real_out, real_err
        record.with_suffix(".expected.json").write_text(
            json.dumps(found, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        print(f"{record.name}: exit {found['exit']}")
