"""Records, layouts and boards keep their definitions (issue 23, 1a), and every command takes
its definitions folder from pnp.toml (1b)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cards.design_cache import design
from pnp.cli import main as pnp

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "cards"
LAYOUT = ROOT / "tests" / "fixtures" / "orbitus" / "two-players.yaml"
BOARD = ROOT / "tests" / "fixtures" / "satellites" / "all_12_grace.yaml"


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with its own definitions (``mine/``, one rule number changed) to work in."""
    mine = tmp_path / "mine"
    for game in ("orbitus", "satellites"):
        shutil.copytree(CARDS / game, mine / game)
    rules = mine / "orbitus" / "rules.yaml"
    rules.write_text("version: 0.7.2\n" + rules.read_text(encoding="utf-8")
                     .replace("hand_size: 4", "hand_size: 5"), encoding="utf-8")
    sat = mine / "satellites" / "rules.yaml"
    sat.write_text(sat.read_text(encoding="utf-8").replace("grace_moves: 3", "grace_moves: 2"),
                   encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PNP_NO_PROJECT", raising=False)
    return tmp_path


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = pnp(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_a_record_names_its_definitions_and_design(work, capsys):
    code, out, _ = _run(["setup", "orbitus", "--players", "3", "--seed", "5", "--record",
                         "--cards", "mine"], capsys)
    assert code == 0
    stamp = design("orbitus", work / "mine").stamp
    assert stamp.startswith("v0.7.2·")
    assert "\ngame: orbitus\ncards: mine\ndesign: " in out
    assert f"\ndesign: {stamp}\n" in out
    code, out, _ = _run(["setup", "satellites", "--seed", "5", "--record"], capsys)
    assert "# definitions: the shipped cards/\n" in out
    assert f"design: {design('satellites').stamp}\n" in out


def test_replaying_with_other_definitions_is_refused_naming_both(work, capsys):
    _, record, _ = _run(["setup", "orbitus", "--players", "3", "--seed", "5", "--record",
                         "--cards", "mine"], capsys)
    (work / "game.yaml").write_text(record.replace("cards: mine\n", ""), encoding="utf-8")
    code, out, err = _run(["replay", "game.yaml"], capsys)  # the shipped cards/: another deal
    mine, shipped = design("orbitus", work / "mine"), design("orbitus")
    assert code == 2 and out == ""
    assert err.startswith(f"game.yaml:12: design: the file was made with design {mine.stamp}, "
                          f"but the definitions in use (the shipped cards/) are design "
                          f"{shipped.stamp}")
    code, out, err = _run(["replay", "game.yaml", "--cards", "mine"], capsys)
    assert code == 0 and err == ""
    code, out, err = _run(["replay", "game.yaml", "--cards", str(CARDS)], capsys)
    assert code == 0  # on purpose: replayed, and said
    assert f"pnp replay: note: game.yaml:12: the file was made with design {mine.stamp}" in err


def test_the_record_s_own_folder_is_used_and_a_record_without_design_is_not_checked(
        work, capsys):
    _, record, _ = _run(["setup", "orbitus", "--players", "3", "--seed", "5", "--record",
                         "--cards", "mine"], capsys)
    (work / "game.yaml").write_text(record, encoding="utf-8")
    code, out, _ = _run(["replay", "game.yaml", "--json"], capsys)
    assert code == 0
    assert json.loads(out)["design"] == design("orbitus", work / "mine").to_json()
    bare = "\n".join(line for line in record.split("\n") if not line.startswith(
        ("cards:", "design:")))
    (work / "old.yaml").write_text(bare, encoding="utf-8")
    assert _run(["replay", "old.yaml"], capsys)[0] == 0  # no claim, nothing to refuse


def test_a_project_file_s_folder_is_no_choice_on_purpose(work, capsys):
    (work / "pnp.toml").write_text('cards = "mine"\n')
    _, record, _ = _run(["setup", "orbitus", "--players", "3", "--seed", "5", "--record",
                         "--cards", str(CARDS)], capsys)
    (work / "game.yaml").write_text(record, encoding="utf-8")
    code, _, err = _run(["replay", "game.yaml"], capsys)
    assert code == 2 and "the definitions in use (mine) are design v0.7.2·" in err
    code, _, err = _run(["replay", "game.yaml", "-v"], capsys)
    assert "pnp replay: project file pnp.toml; definitions mine" in err


def test_a_layout_naming_another_design_is_refused_unless_on_purpose(work, capsys):
    text = LAYOUT.read_text(encoding="utf-8").replace(
        "game: orbitus\n", f"game: orbitus\ndesign: {design('orbitus', work / 'mine').stamp}\n")
    (work / "table.yaml").write_text(text, encoding="utf-8")
    code, out, err = _run(["score", "orbitus", "table.yaml"], capsys)
    assert code == 2 and out == "" and "table.yaml:6: design: the file was made with" in err
    code, out, err = _run(["score", "orbitus", "table.yaml", "--cards", "mine", "--json"],
                          capsys)
    assert code == 0 and json.loads(out)["design"]["version"] == "0.7.2"
    code, out, err = _run(["score", "orbitus", "table.yaml", "--cards", str(CARDS)], capsys)
    assert code == 0 and "pnp score orbitus: note: table.yaml:6: the file was made" in err
    (work / "table.yaml").write_text(text.replace("design: v0.7.2·", "design: v0.7.2-"),
                                     encoding="utf-8")
    code, _, err = _run(["score", "orbitus", "table.yaml"], capsys)
    assert code == 2 and "is not a design; write the stamp printed on the components" in err


def test_a_satellites_board_file_names_its_definitions(work, capsys):
    text = BOARD.read_text(encoding="utf-8").replace("game: satellites\n",
                                                      "game: satellites\ncards: mine\n")
    (work / "board.yaml").write_text(text.replace("grace_moves_left: 2",
                                                  "grace_moves_left: 1"), encoding="utf-8")
    code, out, err = _run(["score", "satellites", "board.yaml", "--json"], capsys)
    assert code == 0, err  # mine has 2 grace moves: the board's folder was read
    assert json.loads(out)["design"] == design("satellites", work / "mine").to_json()
    (work / "far.yaml").write_text(text.replace("cards: mine", "cards: ../x"), encoding="utf-8")
    code, _, err = _run(["score", "satellites", "far.yaml"], capsys)
    assert code == 2 and "far.yaml:3: cards: '../x' lies outside the board file's folder" in err
    stamp = design("satellites", work / "mine").stamp
    named = BOARD.read_text(encoding="utf-8").replace(
        "game: satellites\n", f"game: satellites\ndesign: {stamp}\n")
    (work / "named.yaml").write_text(named, encoding="utf-8")
    code, _, err = _run(["score", "satellites", "named.yaml"], capsys)
    assert code == 2 and "named.yaml:3: design: the file was made with design" in err


def test_every_command_takes_the_project_s_folder(work, capsys):
    (work / "pnp.toml").write_text('cards = "mine"\n[defaults]\nout = "kit"\nplayers = 4\n')
    code, out, err = _run(["setup", "orbitus", "--seed", "3", "--json"], capsys)
    assert code == 0 and len(json.loads(out)["players"]) == 4  # players from the project
    assert json.loads(out)["hand_size"] == 5  # mine's rules
    code, _, err = _run(["build", "satellites", "-q", "-v"], capsys)
    assert code == 0 and (work / "kit" / "satellites" / "board.pdf").is_file()
    assert "pnp build: project file pnp.toml; definitions mine" in err
    code, out, _ = _run(["score", "orbitus", str(LAYOUT), "--json"], capsys)
    assert json.loads(out)["design"]["version"] == "0.7.2"
    code, out, _ = _run(["setup", "orbitus", "--players", "2", "--seed", "3", "--json",
                         "--cards", str(CARDS)], capsys)
    assert json.loads(out)["hand_size"] == 4  # the command line wins


def test_a_wrong_project_file_stops_every_command_with_its_line(work, capsys):
    (work / "pnp.toml").write_text('cards = "mine"\n[defaults]\npage = "a3"\n')
    for args in (["build", "-q"], ["score", "orbitus", str(LAYOUT)], ["diff", "HEAD"],
                 ["setup", "satellites"]):
        code, out, err = _run(args, capsys)
        assert code == 2 and out == ""
        assert err.splitlines()[0] == "pnp.toml:3: page: expected a4 or letter, got 'a3'"


def test_sim_runs_name_the_design(work, capsys):
    code, out, _ = _run(["sim", "satellites", "--games", "2", "--jobs", "1", "--json", "-q",
                         "--cards", "mine", "--out", "run"], capsys)
    assert code == 0
    assert json.loads(out)["design"] == design("satellites", work / "mine").to_json()
    assert json.loads((work / "run" / "run.json").read_text())["design"]["hash"] == \
        design("satellites", work / "mine").hash
