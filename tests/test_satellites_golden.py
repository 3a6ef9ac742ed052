"""Golden boards: each fixture's --json output and summary must match the files beside it.

The expected files were checked by hand against the rules page; the facts a
player relies on (winners, totals, controllers, violations) are also asserted
one by one in test_satellites_rules.py, so a golden file cannot silently
bless a wrong result. To rewrite the golden files after a deliberate change:
``SATELLITES_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_satellites_golden.py``
and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from scorer.satellites.cli import run

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "satellites"
BOARDS = sorted(p for p in FIXTURES.iterdir() if p.suffix in (".txt", ".yaml")
                and not p.name.endswith(".summary.txt"))
UPDATE = os.environ.get("SATELLITES_UPDATE_GOLDEN") == "1"


def _run(capsys, monkeypatch, *args: str) -> tuple[int, str]:
    monkeypatch.chdir(FIXTURES)
    code = run(list(args), prog="pnp-score satellites")
    out, err = capsys.readouterr()
    assert err == ""
    return code, out


def test_there_are_golden_boards():
    names = {p.stem for p in BOARDS}
    for case in ("tie_lowest_colony", "tie_draw", "crowned", "contested", "pairs_no_colony",
                 "end_23_connected", "all_12_grace", "violation_same_colour_adjacent",
                 "violation_group_too_large", "violation_too_many", "violation_unknown_token",
                 "violation_ragged_rows", "violation_not_square", "violation_too_small",
                 "violation_too_big", "violation_grace_without_finish"):
        assert case in names


@pytest.mark.parametrize("board", BOARDS, ids=lambda p: p.stem)
def test_json_matches_golden(board: Path, capsys, monkeypatch):
    code, out = _run(capsys, monkeypatch, board.name, "--json")
    got = json.loads(out)
    # the design of the definitions scored with: not pinned here (it changes with every
    # printed value of the shipped definitions; tests/test_design_version.py pins it)
    from cards.design_cache import design

    assert got.pop("design") == design("satellites").to_json()
    expected_file = board.with_suffix(".json")
    if UPDATE:
        expected_file.write_text(json.dumps(got, ensure_ascii=False, indent=2) + "\n",
                                 encoding="utf-8")
    expected = json.loads(expected_file.read_text(encoding="utf-8"))
    assert got == expected
    assert code == (0 if expected["valid"] else 1)


@pytest.mark.parametrize("board", BOARDS, ids=lambda p: p.stem)
def test_summary_matches_golden(board: Path, capsys, monkeypatch):
    code, out = _run(capsys, monkeypatch, board.name)
    expected_file = board.with_name(board.stem + ".summary.txt")
    if UPDATE:
        expected_file.write_text(out, encoding="utf-8")
    assert out == expected_file.read_text(encoding="utf-8")
    assert code in (0, 1)


@pytest.mark.parametrize("board", [b for b in BOARDS if b.stem.startswith("violation_")],
                         ids=lambda p: p.stem)
def test_lenient_exits_zero_but_still_reports(board: Path, capsys, monkeypatch):
    code, out = _run(capsys, monkeypatch, board.name, "--json", "--lenient")
    assert code == 0
    result = json.loads(out)
    assert result["valid"] is False
    assert result["violations"]


def test_json_has_exactly_the_issue_keys(capsys, monkeypatch):
    _, out = _run(capsys, monkeypatch, "tie_lowest_colony.txt", "--json")
    result = json.loads(out)
    for key in ("game", "size", "valid", "violations", "groups", "connected", "colonies",
                "winner", "tiebreak", "end"):
        assert key in result
    assert result["game"] == "satellites"
    assert result["size"] == 10
    assert set(result["connected"]) == {"red", "blue"}
    assert set(result["colonies"]) == {"red", "blue"}
    for group in result["groups"]:
        assert {"cells", "size", "colony", "red", "blue", "controller", "crowned"} <= set(group)
        assert group["controller"] in ("red", "blue", None)


def test_violation_json_shape(capsys, monkeypatch):
    _, out = _run(capsys, monkeypatch, "violation_unknown_token.txt", "--json")
    violations = json.loads(out)["violations"]
    assert [set(v) for v in violations] == [{"rule", "cell", "message"}] * 3
    assert [v["cell"] for v in violations] == ["c2", "e4", "e5"]
