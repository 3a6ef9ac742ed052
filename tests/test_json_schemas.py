"""The published JSON Schemas of the tools' output (docs/schemas/) hold for real output.

Every fixture, golden record and deal is run through the command with --json and validated
against its schema; the broken layouts below and the violation fixtures together make every
rule code of the schemas' enums appear, so an enum lists exactly the codes a scorer
reports. The schemas are the files tools/make_json_schemas.py writes, and a report with a
key too many, a key missing or an unknown code is refused (a schema that accepts anything
would pass the rest)."""

from __future__ import annotations

import copy
import importlib.util
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from records.replay_cli import main as replay_main
from records.setup_cli import main as setup_main
from scorer.cli import main as score_main

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "docs" / "schemas"
FIXTURES = ROOT / "tests" / "fixtures"
ORBITUS_LAYOUTS = sorted(p for p in (FIXTURES / "orbitus").glob("*.yaml")
                         if not p.name.endswith(".expected.yaml"))
SATELLITES_BOARDS = sorted(p for p in (FIXTURES / "satellites").iterdir()
                           if p.suffix in (".txt", ".yaml") and not p.name.endswith(".summary.txt"))
RECORDS = {game: sorted((FIXTURES / "records" / game).glob("*.yaml"))
           for game in ("orbitus", "satellites")}


def _generator() -> Any:
    spec = importlib.util.spec_from_file_location("make_json_schemas",
                                                  ROOT / "tools" / "make_json_schemas.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GENERATOR = _generator()


def schema(name: str) -> dict[str, Any]:
    return json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))


def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(schema(name))


def errors(name: str, report: dict[str, Any]) -> list[str]:
    return [f"{e.json_path}: {e.message[:300]}" for e in validator(name).iter_errors(report)]


def run_json(main: Any, args: list[str], capsys: pytest.CaptureFixture[str]
             ) -> tuple[int, dict[str, Any] | None]:
    code = main(args)
    out, _ = capsys.readouterr()
    return code, (json.loads(out) if code != 2 else None)


# --- the files ---------------------------------------------------------------------------------


def test_the_schema_files_are_what_the_generator_writes():
    made = GENERATOR.schemas()
    assert sorted(made) == sorted(p.name for p in SCHEMAS.glob("*.schema.json"))
    for name, content in made.items():
        assert (SCHEMAS / name).read_text(encoding="utf-8") == GENERATOR.text(content), (
            f"{name} is out of date: run .venv/bin/python tools/make_json_schemas.py")


@pytest.mark.parametrize("path", sorted(SCHEMAS.glob("*.schema.json")), ids=lambda p: p.name)
def test_each_schema_is_a_valid_draft_2020_12_schema(path):
    Draft202012Validator.check_schema(json.loads(path.read_text(encoding="utf-8")))


def test_every_page_names_its_schemas_and_the_json_page_lists_them_all():
    page = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
    for path in SCHEMAS.glob("*.schema.json"):
        assert f"schemas/{path.name}" in page, path.name


@pytest.mark.parametrize("game", ["orbitus", "satellites"])
def test_the_rule_codes_are_those_of_the_rules_page(game):
    """The enum of violation codes and the violation table of docs/rules/<game>.md agree."""
    enum = schema(f"score-{game}")["$defs"]["violation"]["properties"]["rule"]["enum"]
    page = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    section = page.split("The violation codes and the rules they enforce:")[1]
    table = re.findall(r"^\| `([a-z-]+)` \|", section.split("\n\n")[1], flags=re.MULTILINE)
    assert sorted(enum) == sorted(table)


# --- Orbitus -----------------------------------------------------------------------------------

BROKEN_LAYOUTS = [
    # match-sector, station-cell, unknown-card, unknown-planet, bad-at, bad-rot
    """\
    players: [Anna, Boris]
    sectors:
      - {at: [0, -1], routes: [S, N], planet: ice}
      - {at: [0, -2], routes: [NE]}
      - {at: [0, 0], card: S04}
      - {at: [3, 3], card: Q1}
      - {at: [5, 5], routes: [N], planet: mars}
      - {at: [1.5, 0], card: S04}
      - {at: [7, 7], card: S13, rot: 9}
    """,
    # match-start-line, cell-taken, too-many-copies, unknown-direction, sector-format,
    # unknown-field
    """\
    players: [Anna, Boris]
    colour: red
    sectors:
      - {at: [-1, 1], card: S01, rot: 3}
      - {at: [4, 4], card: S04}
      - {at: [4, 4], card: S13}
      - {at: [6, 4], card: S04, rot: 1}
      - {at: [8, 4], routes: [NNE]}
      - {at: [10, 3], card: S05, routes: [N]}
    """,
    # match-barrier
    """\
    players: [Anna, Boris, Carla, Dmitri]
    sectors:
      - {at: [1, 0], routes: [NW, S]}
    """,
    # two-systems
    """\
    players: [Anna, Boris]
    start_lines: {Anna: N, Boris: NE}
    sectors:
      - {at: [0, -1], routes: [S, SE]}
      - {at: [1, -1], routes: [SW, NW]}
    """,
    # unknown-player, no-start-line
    """\
    players: [Anna, Boris]
    start_lines:
      Anna: [N, NE, SE]
      Bors: [S, SW, NW]
    sectors: []
    """,
    # side-twice, players-format
    """\
    players: [Anna, Boris, Anna]
    start_lines: {Anna: [N, NE], Boris: [NE, S]}
    sectors: []
    """,
    # player-count
    """\
    players: [Anna]
    sectors: []
    """,
    # start-lines-format
    """\
    players: [Anna, Boris]
    start_lines: [N]
    sectors: []
    """,
]


def test_orbitus_reports_of_every_fixture_and_every_violation(tmp_path, capsys):
    seen: set[str] = set()
    layouts = list(ORBITUS_LAYOUTS)
    for i, text in enumerate(BROKEN_LAYOUTS):
        path = tmp_path / f"broken-{i}.yaml"
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        layouts.append(path)
    for path in layouts:
        code, report = run_json(score_main, ["orbitus", str(path), "--json"], capsys)
        assert code in (0, 1) and report is not None, path.name
        assert errors("score-orbitus", report) == [], path.name
        assert report["valid"] is (code == 0)
        seen |= {v["rule"] for v in report["violations"]}
    enum = schema("score-orbitus")["$defs"]["violation"]["properties"]["rule"]["enum"]
    assert seen == set(enum)


def test_a_report_that_breaks_the_schema_is_refused(capsys):
    code, report = run_json(score_main, ["orbitus", str(FIXTURES / "orbitus" / "two-players.yaml"),
                                         "--json"], capsys)
    assert code == 0 and report is not None and errors("score-orbitus", report) == []
    extra = copy.deepcopy(report) | {"comment": "a key the scorer never writes"}
    assert errors("score-orbitus", extra)
    missing = copy.deepcopy(report)
    del missing["players"][0]["total"]
    assert errors("score-orbitus", missing)
    code_wrong = copy.deepcopy(report)
    code_wrong["violations"] = [{"rule": "no-such-rule", "cell": None, "message": "x",
                                 "line": None}]
    assert errors("score-orbitus", code_wrong)
    side_wrong = copy.deepcopy(report)
    side_wrong["players"][0]["start_lines"] = ["NNE"]
    assert errors("score-orbitus", side_wrong)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_orbitus_deals(players, capsys):
    code, report = run_json(setup_main, ["orbitus", "--players", str(players), "--seed", "42",
                                         "--json"], capsys)
    assert code == 0 and report is not None
    assert errors("setup-orbitus", report) == []
    assert errors("setup-orbitus", report | {"seat": 1})
    named = run_json(setup_main, ["orbitus", "--names", "Anna,Boris", "--seed",
                                  str(2**63 - 1), "--json"], capsys)[1]
    assert named is not None and errors("setup-orbitus", named) == []


@pytest.mark.parametrize("seed", ["0", "42", str(2**63 - 1)])
def test_satellites_deals(seed, capsys):
    code, report = run_json(setup_main, ["satellites", "--seed", seed, "--json"], capsys)
    assert code == 0 and report is not None
    assert errors("setup-satellites", report) == []
    assert len(report["board"]) == report["size"]
    assert errors("setup-satellites", report | {"board": ["X1 . ."]})


def test_build_reports(tmp_path):
    out = tmp_path / "kit"

    def build() -> dict[str, Any]:
        done = subprocess.run([str(Path(sys.executable).parent / "pnp"), "build", "satellites",
                               "--json", "--out", str(out)], capture_output=True, text=True,
                              timeout=300, check=False)
        assert done.returncode == 0, done.stderr
        report: dict[str, Any] = json.loads(done.stdout)
        assert errors("build", report) == [], report
        return report

    first = build()
    assert "satellites/board.pdf" in first["files"] and first["user_files_kept"] == 0
    assert first["mode"] == "new folder"
    (out / "notes.txt").write_text("mine\n", encoding="utf-8")
    again = build()
    assert (again["user_files_kept"], again["mode"]) == (1, "in place")
    assert errors("build", first | {"mode": "sideways"})


# --- Satellites --------------------------------------------------------------------------------


def test_satellites_reports_of_every_fixture_and_every_violation(monkeypatch, capsys):
    monkeypatch.chdir(FIXTURES / "satellites")
    seen: set[str] = set()
    for path in SATELLITES_BOARDS:
        code, report = run_json(score_main, ["satellites", path.name, "--json"], capsys)
        assert code in (0, 1) and report is not None, path.name
        assert errors("score-satellites", report) == [], path.name
        seen |= {v["rule"] for v in report["violations"]}
    enum = schema("score-satellites")["$defs"]["violation"]["properties"]["rule"]["enum"]
    assert seen == set(enum)
    report = json.loads((FIXTURES / "satellites" / "contested.json").read_text(encoding="utf-8"))
    assert errors("score-satellites", report) == []  # the golden file itself
    report["groups"][0]["controller"] = "green"
    assert errors("score-satellites", report)


# --- replays -----------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["orbitus", "satellites"])
def test_replays_of_every_golden_record(game, monkeypatch, capsys):
    monkeypatch.chdir(FIXTURES / "records" / game)
    checked = 0
    for path in RECORDS[game]:
        for extra in ([], ["--legal"], ["--until", "1"]):
            code, report = run_json(replay_main, ["--json", *extra, path.name], capsys)
            if report is None:  # an unreadable record: no JSON at all
                continue
            assert errors(f"replay-{game}", report) == [], (path.name, extra)
            assert report["replay"]["game"] == game
            assert ("legal_now" in report["replay"]) is ("--legal" in extra)
            checked += 1
    assert checked >= 3 * (len(RECORDS[game]) - 3)


def test_the_replay_schemas_extend_the_scorers_schemas():
    """A replay's object is the scorer's plus replay (and position): the shared parts are
    the same in both files."""
    for game, added in (("orbitus", {"position", "replay"}), ("satellites", {"replay"})):
        score, replay = schema(f"score-{game}"), schema(f"replay-{game}")
        assert replay["$defs"] == score["$defs"]
        assert set(replay["properties"]) == set(score["properties"]) | added
        for key, value in score["properties"].items():
            assert replay["properties"][key] == value, key


# --- the simulator -----------------------------------------------------------------------------


def test_simulator_reports(tmp_path, capsys, cards_copy):
    from sim.cli import main as sim_main

    runs = {
        "orbitus": ["orbitus", "--players", "2,3", "--games", "3", "--bots", "random,mcts",
                    "--budget", "2"],
        "satellites": ["satellites", "--games", "6", "--bots", "random,greedy"],
    }
    for game, args in runs.items():
        out = tmp_path / game
        code, report = run_json(sim_main, [*args, "--jobs", "1", "--json", "--out", str(out)],
                                capsys)
        assert code == 0 and report is not None
        assert errors("sim-report", report) == [], game
        assert json.loads((out / "report.json").read_text(encoding="utf-8")) == report
        assert ("cards" in report["by_players"][0]) is (game == "orbitus")
        broken = copy.deepcopy(report)
        broken["by_players"][0]["seats"][0]["rate"] = 1.5
        assert errors("sim-report", broken)
    rules_file = cards_copy / "satellites" / "rules.yaml"
    text = rules_file.read_text(encoding="utf-8")
    assert "end_connected: 23" in text
    rules_file.write_text(text.replace("end_connected: 23", "end_connected: 21"),
                          encoding="utf-8")
    out = tmp_path / "compare"
    code, result = run_json(sim_main, ["compare", str(ROOT / "cards"), str(cards_copy),
                                       "--game", "satellites", "--games", "6", "--jobs", "1",
                                       "--json", "--out", str(out)], capsys)
    assert code == 0 and result is not None
    assert errors("sim-compare", result) == []
    assert result["by_players"][0]["rows"]
    assert json.loads((out / "compare.json").read_text(encoding="utf-8")) == result
    assert errors("sim-compare", result | {"winner": "b"})


def test_sequential_tests_ladders_and_tunings(tmp_path, capsys, cards_copy):
    from sim.cli import main as sim_main

    rules_file = cards_copy / "orbitus" / "rules.yaml"
    text = rules_file.read_text(encoding="utf-8")
    rules_file.write_text(text.replace("{min: 3, max: 3, points: 2}",
                                       "{min: 3, max: 3, points: 4}"), encoding="utf-8")
    code, result = run_json(sim_main, ["compare", str(ROOT / "cards"), str(cards_copy),
                                       "--game", "orbitus", "--players", "3", "--sprt",
                                       "--metric", "score", "--effect", "0.25", "--games",
                                       "60", "--jobs", "1", "--json", "--out",
                                       str(tmp_path / "sprt")], capsys)
    assert code == 0 and result is not None
    assert errors("sim-sprt", result) == []
    assert errors("sim-sprt", result | {"sprt": result["sprt"] | {"decision": "maybe"}})
    code, result = run_json(sim_main, ["compare", str(ROOT / "cards"), str(cards_copy),
                                       "--game", "orbitus", "--players", "2", "--seed-b", "5",
                                       "--primary", "score", "--games", "6", "--jobs", "1",
                                       "--json", "--out", str(tmp_path / "cmp")], capsys)
    assert code == 0 and result is not None
    assert errors("sim-compare", result) == []
    assert result["paired"] is False and result["correction"] == "primary"
    code, result = run_json(sim_main, ["ladder", "satellites", "--rungs", "random,greedy",
                                       "--games", "4", "--jobs", "1", "--json", "--out",
                                       str(tmp_path / "ladder")], capsys)
    assert code == 0 and result is not None
    assert errors("sim-ladder", result) == []
    pytest.importorskip("optuna")
    code, result = run_json(sim_main, ["tune", "satellites", "--target", "length 300..330",
                                       "--trials", "3", "--games", "6", "--evidence", "10",
                                       "--jobs", "1", "--json", "--out",
                                       str(tmp_path / "tune")], capsys)
    assert code == 0 and result is not None
    assert errors("sim-tune", result) == []
