"""Real layouts in tests/fixtures/orbitus/ scored through the command, against the expected
scores next to them (``NAME.expected.yaml`` worked out by hand; ``NAME.expected.json`` a
snapshot of the whole JSON)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from scorer.orbitus.cli import run

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "orbitus"
LAYOUTS = sorted(p for p in FIXTURES.glob("*.yaml") if not p.name.endswith(".expected.yaml"))


def score(path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
          ) -> tuple[int, dict[str, Any]]:
    monkeypatch.chdir(path.parent)
    code = run([path.name, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_every_layout_has_an_expectation():
    for path in LAYOUTS:
        stem = path.name[:-len(".yaml")]
        assert (FIXTURES / f"{stem}.expected.yaml").exists() or (
            FIXTURES / f"{stem}.expected.json").exists(), path.name


@pytest.mark.parametrize("path", [p for p in LAYOUTS
                                  if (FIXTURES / f"{p.stem}.expected.yaml").exists()],
                         ids=lambda p: p.stem)
def test_hand_worked_scores(path, monkeypatch, capsys):
    expected = yaml.safe_load((FIXTURES / f"{path.stem}.expected.yaml").read_text("utf-8"))
    code, out = score(path, monkeypatch, capsys)
    assert code == (0 if expected["valid"] else 1)
    assert out["valid"] is expected["valid"]
    assert [v["rule"] for v in out["violations"]] == expected["violations"]
    assert out["neutral"] == expected["neutral"]
    assert out["winners"] == expected["winners"]
    assert [p["name"] for p in out["players"]] == list(expected["players"])
    for p in out["players"]:
        want = expected["players"][p["name"]]
        assert len(p["sectors"]) == want["sectors"]
        planets = {t: [g["count"], g["points"]] for t, g in p["planets"].items() if g["count"]}
        assert planets == want["planets"]
        assert [p["pirates"]["count"], p["pirates"]["points"]] == want["pirates"]
        assert [p["open_routes"]["count"], p["open_routes"]["points"]] == want["open_routes"]
        assert [[b["size"], b["points"]] for b in p["closed_blocks"]] == want["closed_blocks"]
        assert p["total"] == want["total"]


@pytest.mark.parametrize("path", [p for p in LAYOUTS
                                  if (FIXTURES / f"{p.stem}.expected.json").exists()],
                         ids=lambda p: p.stem)
def test_snapshots(path, monkeypatch, capsys):
    expected = json.loads((FIXTURES / f"{path.stem}.expected.json").read_text("utf-8"))
    code, out = score(path, monkeypatch, capsys)
    assert code == (0 if expected["valid"] else 1)
    from cards.design_cache import design

    assert out.pop("design") == design("orbitus").to_json()  # pinned elsewhere: it moves
    assert out == expected
