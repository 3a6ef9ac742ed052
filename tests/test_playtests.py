"""The playtest log (web/playtests.py) and pnp playtest add|report|export."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest

from cards.design_cache import design
from design.playtest_cli import main
from web.playtests import Playtest, add, open_log, parse_minutes, playtests
from web.store import DB_NAME, StoreError

ROOT = Path(__file__).resolve().parent.parent
LAYOUT = ROOT / "tests" / "fixtures" / "orbitus" / "two-players.yaml"
RECORD = ROOT / "tests" / "fixtures" / "records" / "orbitus" / "random_game_3p_seed5.yaml"
BOARD = ROOT / "tests" / "fixtures" / "satellites" / "end_23_connected.txt"
UNFINISHED = ROOT / "tests" / "fixtures" / "satellites" / "contested.txt"
HASH = design("orbitus").hash


def _add(data: Path, *args: str) -> int:
    return main(["add", *args, "--data", str(data)])


def _rows(data: Path) -> list[Playtest]:
    store = open_log(data)
    try:
        return playtests(store)
    finally:
        store.close()


def test_scores_given_are_logged_with_the_design_in_use(tmp_path, capsys):
    assert _add(tmp_path, "orbitus", "--players", "Anna,Ben,Cleo", "--scores", "12,9,15",
                "--minutes", "1h05", "--date", "2024-05-01", "--notes", "first try") == 0
    (test,) = _rows(tmp_path)
    assert (test.game, test.design, test.played, test.players, test.seats, test.scores,
            test.winners, test.minutes, test.notes) == (
        "orbitus", HASH, "2024-05-01", ["Anna", "Ben", "Cleo"], ["P1", "P2", "P3"],
        [12, 9, 15], [2], 65, "first try")
    assert capsys.readouterr().err == (f"logged playtest 1: orbitus {HASH}, 2024-05-01: "
                                       f"Anna 12, Ben 9, Cleo 15; won by Cleo\n")


def test_equal_best_totals_share_the_win(tmp_path):
    assert _add(tmp_path, "orbitus", "--players", "A,B", "--scores", "7,7") == 0
    assert _rows(tmp_path)[0].winners == [0, 1]


def test_a_scored_layout_gives_scores_components_and_winner(tmp_path):
    assert _add(tmp_path, "orbitus", "--file", str(LAYOUT)) == 0
    (test,) = _rows(tmp_path)
    assert test.players == ["Anna", "Boris"] and test.scores == [-1, -9]
    assert test.winners == [0]
    assert test.components is not None
    assert test.components[1] == {"planet:ice": -2, "planet:lava": -2, "planet:jungle": 0,
                                  "planet:desert": 0, "planet:ocean": 0, "planet:gas": 0,
                                  "pirates": -3, "open_routes": -2, "blocks": 0}
    assert test.source_text == LAYOUT.read_text(encoding="utf-8")


def test_scores_that_do_not_add_up_to_the_layout_are_refused_with_the_reason(tmp_path,
                                                                             capsys):
    assert _add(tmp_path, "orbitus", "--file", str(LAYOUT), "--scores=-1,-8") == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"--scores: Boris (P2): -8 given, but {LAYOUT.relative_to(ROOT)} scores -9: planets "
        f"-4, pirates -3, open routes -2, closed blocks +0; correct the score or the file"
        if Path.cwd() == ROOT else err[0],
        "pnp playtest add: nothing was logged"]
    assert "-8 given, but" in err[0] and "scores -9: planets -4, pirates -3" in err[0]
    assert not _rows(tmp_path)


def test_a_record_gives_the_moves_played(tmp_path):
    assert _add(tmp_path, "orbitus", "--file", str(RECORD), "--scores", "0,0,-4") == 0
    (test,) = _rows(tmp_path)
    assert test.turns == 98 and test.winners == [0, 1]


def test_a_finished_satellites_board_gives_colonies_and_winner(tmp_path, capsys):
    from web.playtests import score_source

    scored = score_source("satellites", BOARD, None)
    assert _add(tmp_path, "satellites", "--players", "Rosa,Bruno", "--file", str(BOARD)) == 0
    (test,) = _rows(tmp_path)
    assert test.scores == scored.scores and test.winners == scored.winners
    assert test.seats == ["red", "blue"]
    assert test.components is not None and set(test.components[0]) == {
        "colonies", "crowns", "connected"}
    capsys.readouterr()
    assert _add(tmp_path, "satellites", "--players", "Rosa,Bruno", "--file",
                str(UNFINISHED)) == 1
    assert "the game is not over yet" in capsys.readouterr().err


def test_satellites_equal_colonies_need_the_winner_or_the_board(tmp_path, capsys):
    assert _add(tmp_path, "satellites", "--players", "Rosa,Bruno", "--scores", "2,2") == 1
    assert "the lowest-valued colony decides (rule S-47)" in capsys.readouterr().err
    assert _add(tmp_path, "satellites", "--players", "Rosa,Bruno", "--scores", "2,2",
                "--winner", "Bruno") == 0
    assert _rows(tmp_path)[0].winners == [1]


@pytest.mark.parametrize(("args", "message"), [
    (["orbitus", "--players", "A", "--scores", "3"],
     "--players: 1 players; the definitions have start lines for 2, 3, 4, 5, 6 players"),
    (["orbitus", "--players", "A,A", "--scores", "3,4"], "--players: 'A' is named twice"),
    (["orbitus", "--players", "A,B", "--scores", "3"], "--scores gives 1 score(s) for 2 players"),
    (["orbitus", "--players", "A,B"], "--scores: give each player's final score"),
    (["satellites", "--players", "A,B,C", "--scores", "1,2,3"], "Satellites has two players"),
    (["orbitus", "--players", "A,", "--scores", "1,2"], "a player's name is empty"),
    (["orbitus", "--players", "A,B", "--scores", "1,2", "--winner", "Zed"],
     "--winner 'Zed': not a player (A, B) or a seat (P1, P2), nor 'draw'"),
])
def test_bad_entries_are_refused_and_nothing_is_logged(tmp_path, capsys, args, message):
    assert _add(tmp_path, *args) == 1
    assert message in capsys.readouterr().err
    assert not _rows(tmp_path)


@pytest.mark.parametrize(("args", "message"), [
    (["orbitus", "--players", "A,B", "--scores", "1,x"], "'x' is not a whole number"),
    (["orbitus", "--players", "A,B", "--scores", "1,2", "--date", "2024-13-01"],
     "'2024-13-01' is not a date; write it as YYYY-MM-DD"),
    (["orbitus", "--players", "A,B", "--scores", "1,2", "--date", "2999-01-01"],
     "2999-01-01 is in the future"),
    (["orbitus", "--players", "A,B", "--scores", "1,2", "--minutes", "soon"],
     "'soon' is not a duration"),
    (["orbitus", "--players", "A,B", "--scores", "1,2", "--version", "xyz"],
     "'xyz' is not a design hash"),
    (["orbitus", "--file", "missing.yaml"], "missing.yaml: file not found"),
])
def test_bad_values_are_misuse_or_unreadable(tmp_path, capsys, args, message):
    assert _add(tmp_path, *args) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / DB_NAME).exists() or not _rows(tmp_path)


def test_durations():
    assert [parse_minutes(t) for t in ("45", "45m", "1h30", "1:30", "2h", "90 min")] == \
        [45, 45, 90, 90, 120, 90]
    with pytest.raises(ValueError, match="1 to 1440 minutes"):
        parse_minutes("0")


def test_a_damaged_database_is_reported_with_its_path_and_left_untouched(tmp_path, capsys):
    path = tmp_path / DB_NAME
    path.write_bytes(b"this is no database at all" * 100)
    before = path.read_bytes()
    assert _add(tmp_path, "orbitus", "--players", "A,B", "--scores", "1,2") == 2
    err = capsys.readouterr().err
    assert f"{path} is not an SQLite database" in err and "left untouched" in err
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [DB_NAME]


def test_a_database_damaged_inside_is_reported_and_left_untouched(tmp_path, capsys):
    assert _add(tmp_path, "orbitus", "--players", "A,B", "--scores", "1,2") == 0
    path = tmp_path / DB_NAME
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    data = bytearray(path.read_bytes())
    page = 4096
    for k in range(page * 2 + 100, min(len(data), page * 4)):  # scribble over table pages
        data[k] = 0xA5
    path.write_bytes(bytes(data))
    for extra in (tmp_path / (DB_NAME + "-wal"), tmp_path / (DB_NAME + "-shm")):
        extra.unlink(missing_ok=True)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="damaged|not a database"):
        open_log(tmp_path)
    assert path.read_bytes() == before


def test_writes_are_transactions(tmp_path):
    store = open_log(tmp_path)
    bad = Playtest("orbitus", HASH, "2024-05-01", ["A", "B"], ["P1", "P2"],
                   [1, object()], [1])  # type: ignore[list-item]  # fails mid-write
    try:
        with pytest.raises(TypeError):
            add(store, bad, {"snapshot": 1, "design": {}})  # the design row goes in first
        kept = store.db.execute("SELECT COUNT(*) FROM playtest_designs").fetchone()[0]
    finally:
        store.close()
    assert kept == 0  # the design row went back with the playtest that failed
    assert not _rows(tmp_path)


def test_export_csv_and_json(tmp_path, capsys):
    assert _add(tmp_path, "orbitus", "--players", "Anna,=cmd", "--scores", "3,4",
                "--notes", "=1+1") == 0
    capsys.readouterr()
    assert main(["export", "--data", str(tmp_path)]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0][:6] == ["id", "played", "game", "design", "version", "players"]
    assert rows[1][5:9] == ["Anna;=cmd", "P1;P2", "3;4", "=cmd"] and rows[1][-1] == "'=1+1"
    assert main(["export", "--format", "json", "--data", str(tmp_path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["playtests"][0]["scores"] == [3, 4]
    from jsonschema import Draft202012Validator

    schema = json.loads((ROOT / "docs" / "schemas" / "playtest-log.schema.json").read_text())
    assert not list(Draft202012Validator(schema).iter_errors(data))
    out = tmp_path / "log.json"
    assert main(["export", "--format", "json", "--out", str(out), "--data", str(tmp_path)]) == 0
    assert main(["export", "--out", str(out), "--data", str(tmp_path)]) == 1  # never over it
    assert json.loads(out.read_text())["playtests"][0]["players"] == ["Anna", "=cmd"]


def test_report_sets_people_beside_the_bots_and_flags_what_lies_outside(tmp_path, capsys):
    for scores in ("40,1,2", "35,0,1"):
        assert _add(tmp_path, "orbitus", "--players", "Anna,Ben,Cleo", "--scores",
                    scores) == 0
    capsys.readouterr()
    assert main(["report", "--data", str(tmp_path), "--sim-games", "40", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    (block,) = result["versions"]
    assert block["design"] == HASH and block["players"] == 3
    assert block["people"]["seats"][0]["rate"] == 1.0
    assert block["bots"]["games"] == 40
    assert any(f.startswith("P1 wins 100% of the people's games, outside the random bots' "
                            "95 % range") for f in block["flags"])
    assert any("P1 scores 37.5 on average, outside the range of 95 % of the random bots'"
               in f for f in block["flags"])
    assert "random bots" in result["caveat"] and "do not play like people" in result["caveat"]
    assert main(["report", "--data", str(tmp_path), "--sim-games", "40"]) == 0
    out = capsys.readouterr().out
    assert f"Orbitus {HASH}, 3 players: 2 game(s) played" in out
    assert "bots (random, 40 games)" in out and "do not play like people" in out


def test_report_of_an_older_version_simulates_its_kept_definitions(tmp_path, cards_copy,
                                                                   capsys):
    assert main(["add", "orbitus", "--players", "A,B", "--scores", "3,1", "--data",
                 str(tmp_path), "--cards", str(cards_copy)]) == 0
    rules = cards_copy / "orbitus" / "rules.yaml"
    rules.write_text(rules.read_text().replace("hand_size: 4", "hand_size: 5"))
    capsys.readouterr()
    assert main(["report", "--data", str(tmp_path), "--cards", str(cards_copy),
                 "--sim-games", "10", "--json"]) == 0
    (block,) = json.loads(capsys.readouterr().out)["versions"]
    assert block["design"] == HASH and block["bots"]["games"] == 10
    assert f"the definitions kept for {HASH}" in block["bots_note"]


def test_report_of_a_version_not_in_the_log(tmp_path, capsys):
    assert main(["report", "--data", str(tmp_path), "--version", "abcdef"]) == 1
    assert "no playtest of design abcdef" in capsys.readouterr().err


def test_a_file_of_another_design_is_refused_even_with_cards_given(tmp_path, capsys,
                                                                    monkeypatch):
    """A layout naming design X is not scored by other definitions and logged: the scores
    would be of another game, logged against one of two designs."""
    monkeypatch.setenv("PNP_NO_PROJECT", "1")
    other = tmp_path / "t.yaml"
    other.write_text(LAYOUT.read_text(encoding="utf-8").replace(
        "game: orbitus\n", "game: orbitus\ndesign: v0.7.2·3fa9c1\n"), encoding="utf-8")
    for given in ([], ["--cards", str(ROOT / "cards")]):
        assert _add(tmp_path, "orbitus", "--file", str(other), *given) == 2
        err = capsys.readouterr().err
        assert err.splitlines() == [
            f"{other}:6: design: the file was made with design v0.7.2·3fa9c1, but the "
            f"definitions in use (the shipped cards/) are design {design('orbitus').stamp}, "
            f"with which it would deal or score another game; pass --cards DIR: the "
            f"definitions of v0.7.2·3fa9c1 (a playtest is scored by the design it was played "
            f"with)", "pnp playtest add: nothing was logged"]
    assert not (tmp_path / DB_NAME).exists() or _rows(tmp_path) == []


def test_a_game_played_with_other_components_is_logged_with_their_design(tmp_path, capsys):
    assert _add(tmp_path, "orbitus", "--players", "A,B", "--scores", "4,2", "--version",
                "v0.7.1·ABC123") == 0
    (test,) = _rows(tmp_path)
    assert (test.design, test.version) == ("abc123", "0.7.1")  # as printed, hash and version
    err = capsys.readouterr().err
    assert "logged playtest 1: orbitus v0.7.1·abc123, " in err
    assert (f"note: design abc123 is not the definitions in use ({design('orbitus').stamp}), "
            f"so its definitions are not kept") in err
