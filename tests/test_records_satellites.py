"""pnp-replay and pnp-setup for Satellites: what they print, their options, and every kind
of bad record, each refused with one clear line naming file and line, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from records.replay_cli import main as replay_main
from records.setup_cli import main as setup_main
from scorer.satellites.board import read_string
from scorer.satellites.score import score

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "fixtures" / "records" / "satellites"
VENV_BIN = Path(sys.executable).parent


@pytest.fixture(autouse=True)
def _plain(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")


def run_replay(args, capsys):
    code = replay_main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def run_setup(args, capsys):
    code = setup_main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def record(tmp_path: Path, text: str, name: str = "game.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


OPENING = (GOLDEN / "opening_seed42.yaml").read_text(encoding="utf-8")


# --- what a replay prints ------------------------------------------------------------------


def test_an_illegal_move_is_named_with_number_line_reason_and_what_was_legal(capsys,
                                                                           monkeypatch):
    monkeypatch.chdir(GOLDEN)
    code, out, err = run_replay(["edge_not_empty.yaml"], capsys)
    assert code == 1 and err == ""
    assert out.splitlines()[:5] == [
        "Replay: edge_not_empty.yaml (satellites, red Anna, blue Ben), start: seed 42 "
        "(10 x 10 board)",
        "ILLEGAL: move 6 (blue, line 12): a7-e3",
        "  B4 on e3 would connect to R1 on e2, but every edge (outer row or column) would still "
        "hold a satellite; until one edge is empty, no move may end next to an opponent's "
        "satellite (rule S-23)",
        "  Legal there for B4 on a7 (11): a7-a3, a7-a4, a7-a5, a7-a6, a7-b6, a7-b7, a7-c7, "
        "a7-e7, a7-b8, a7-a9, a7-a10",
        "The position before move 6 (all 5 moves before it legal):",
    ]
    # then the scorer's summary of that position
    assert "Satellites: edge_not_empty.yaml, before move 6, 10 x 10 board, valid" in out
    assert out.rstrip().endswith("Valid: no rule is broken.")


def test_a_legal_record_prints_the_final_score(capsys, monkeypatch):
    monkeypatch.chdir(GOLDEN)
    code, out, _ = run_replay(["grace_moves.yaml"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[1:3] == [
        "4 moves replayed, all legal",
        "Game over after move 4 (line 21): red has all 12 satellites connected and blue has "
        "made its 3 grace moves",
    ]
    assert "Winner: red" in out
    assert ("Colonies controlled: red 5 (lowest total 3, colony A), blue 1 (lowest total 7, "
            "colony F)") in out


def test_json_is_the_scorers_object_plus_the_replay(capsys, monkeypatch):
    monkeypatch.chdir(GOLDEN)
    code, out, _ = run_replay(["--json", "displacement_without_push.yaml"], capsys)
    assert code == 1
    data = json.loads(out)
    assert data["game"] == "satellites" and data["valid"] is True
    replay = data["replay"]
    assert list(replay) == ["file", "game", "players", "start", "moves", "played", "over",
                            "message", "illegal"]
    assert replay["illegal"]["legal_of"] == "R3 on h6 onto e6"
    assert replay["illegal"]["legal"][:3] == ["h6-e6>c4+", "h6-e6>e4+", "h6-e6>e5+"]
    assert replay["illegal"]["legal_count"] == 13 == len(replay["illegal"]["legal"])


def test_lenient_exits_0_but_still_reports(capsys, monkeypatch):
    monkeypatch.chdir(GOLDEN)
    code, out, _ = run_replay(["--lenient", "locked_satellite.yaml"], capsys)
    assert code == 0
    assert "ILLEGAL: move 9 (red, line 15): g5-g7" in out


def test_until_replays_only_the_first_moves(capsys, monkeypatch):
    monkeypatch.chdir(GOLDEN)
    code, out, _ = run_replay(["--until", "2", "--json", "edge_not_empty.yaml"], capsys)
    assert code == 0
    replay = json.loads(out)["replay"]
    assert (replay["played"], replay["moves"], replay["illegal"]) == (2, 7, None)
    code, out, _ = run_replay(["--until", "2", "edge_not_empty.yaml"], capsys)
    assert "Replaying only the first 2 of 7 moves (--until 2)" in out
    assert "The game goes on after move 2 (line 8): red to move" in out


def test_legal_lists_every_move_in_the_position_reached(capsys, monkeypatch):
    monkeypatch.chdir(GOLDEN)
    code, out, _ = run_replay(["--legal", "opening_seed42.yaml"], capsys)
    last = out.splitlines()[-1]
    assert last.startswith("Legal moves for red (78): d2-c1, d2-d1, d2-e1, d2-b2+,")
    code, out, _ = run_replay(["--legal", "--json", "grace_moves.yaml"], capsys)
    assert json.loads(out)["replay"]["legal_now"] == {
        "player": "nobody (the game is over)", "moves": []}


def test_pictures_of_the_position_reached(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(GOLDEN)
    svg, png = tmp_path / "final.svg", tmp_path / "final.png"
    code, _, err = run_replay(["displacement.yaml", "--svg", svg, "--png", png], capsys)
    assert code == 0 and err == ""
    text = svg.read_text(encoding="utf-8")
    assert text.startswith("<?xml") and "Satellites: displacement.yaml, after move 3" in text
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_standard_input(capsys, monkeypatch):
    import io

    data = OPENING.encode("utf-8")
    monkeypatch.setattr(sys, "stdin", type("In", (), {"buffer": io.BytesIO(data)})())
    code, out, _ = run_replay(["-"], capsys)
    assert code == 0 and out.startswith("Replay: <stdin> (satellites, red Anna, blue Ben)")


def test_several_moves_per_entry_and_spaces_inside_a_move(tmp_path, capsys):
    path = record(tmp_path, "game: satellites\nseed: 42\nmoves:\n  - c1 - c4, a4-d7\n"
                            "  - f1-f4 a6-e6; g1-g5\n")
    code, out, _ = run_replay(["--json", path], capsys)
    replay = json.loads(out)["replay"]
    assert (code, replay["played"], replay["moves"]) == (0, 5, 5)


def test_the_start_position_alone(tmp_path, capsys):
    path = record(tmp_path, "game: satellites\nseed: 3\nmoves:\n")
    code, out, _ = run_replay([path], capsys)
    assert code == 0
    assert "No moves recorded: the start position" in out
    assert "The game goes on at the start: red to move" in out


def test_first_blue(tmp_path, capsys):
    path = record(tmp_path, "game: satellites\nseed: 42\nfirst: blue\nmoves: [a4-d7, c1-c4]\n")
    code, out, _ = run_replay(["--json", path], capsys)
    assert code == 0 and json.loads(out)["replay"]["played"] == 2


RED_DONE = """\
game: satellites
grace_moves_left: 2
setup: |
  .  .  .  .  .  .  .  .  .  .
  .  R1 B1 R1 .  R2 B2 R2 .  .
  .  .  .  .  .  .  .  .  .  .
  .  R3 B3 R3 .  R4 B4 R4 .  .
  .  .  .  .  .  .  .  .  .  .
  .  R1 B2 R2 .  R3 B1 .  .  B3
  B2 .  .  .  .  .  .  .  .  .
  .  .  .  .  .  .  .  .  .  B4
  B1 .  .  .  R4 .  .  .  .  .
  .  .  B3 .  B4 .  .  .  .  .
moves: [a9-a10, a10-a9]
"""


def test_a_setup_in_the_middle_of_the_grace_moves(tmp_path, capsys, monkeypatch):
    # red has all 12 connected (R4 on e9 touches B4 on e10); blue has 2 grace moves left
    monkeypatch.chdir(tmp_path)
    code, out, err = run_replay(["--json", record(tmp_path, RED_DONE)], capsys)
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["replay"]["over"] is True and data["end"]["reason"] == "grace-moves-used"
    # a third move is one too many
    record(tmp_path, RED_DONE.replace("a10-a9]", "a10-a9, a9-a10]"))
    code, out, _ = run_replay(["game.yaml"], capsys)
    assert code == 1 and "ILLEGAL: move 3 (blue, line 14): a9-a10" in out
    # without grace_moves_left the record says too little
    record(tmp_path, RED_DONE.replace("grace_moves_left: 2\n", ""))
    code, out, err = run_replay(["game.yaml"], capsys)
    assert (code, out) == (2, "")
    assert err == ("game.yaml:2: setup: red has all 12 satellites connected; add "
                   "grace_moves_left: (0-3, the moves blue still has)\n")
    # red does not move first: it is done
    record(tmp_path, RED_DONE.replace("grace_moves_left: 2\n", "grace_moves_left: 2\nfirst: red\n"))
    code, out, err = run_replay(["game.yaml"], capsys)
    assert code == 2
    assert err == ("game.yaml:3: first: red has all 12 satellites connected and moves no "
                   "more; only blue moves\n")


# --- records that cannot be replayed: exit 2, one line each ------------------------------


BAD = [
    ("game: satellites\nseed: 42\nmoves:\n  - c1c4\n",
     "game.yaml:4: move 1: 'c1c4' is not a move: write FROM-TO (c1-c4), a trailing + for a "
     "connection move (c1-c4+), FROM-TO>CELL for a displacement that pushes the satellite on "
     "TO to CELL (d5-d6>d8), or pass"),
    ("game: satellites\nseed: 42\nmoves:\n  - c1-c4\n  -\n",
     "game.yaml:5: moves: entry 2: expected a move such as c1-c4 or pass, got an empty entry"),
    ("game: satellites\nseed: 42\nmoves: c1-c4\n",
     "game.yaml:3: moves: expected a list, one move per line starting with '- ', got str "
     "'c1-c4'"),
    ("game: satellites\nseed: 42\nmoves:\n  - {c1: c4}\n",
     "game.yaml:4: moves: entry 1: expected a move such as c1-c4 or pass, got a mapping"),
    ("game: satellites\nseed: -1\n",
     "game.yaml:2: seed: must be a whole number from 0 to 9223372036854775807 (the N of "
     "pnp-setup satellites --seed N), got -1"),
    ("game: satellites\nseed: '42'\n",
     "game.yaml:2: seed: must be a whole number from 0 to 9223372036854775807 (the N of "
     "pnp-setup satellites --seed N), got '42'"),
    ("game: satellites\nmoves: []\n",
     "game.yaml:1: the start is missing: write seed: N (the deal of pnp-setup satellites "
     "--seed N) or setup: | and the board"),
    ("game: satellites\nseed: 1\ngrace_moves_left: 2\n",
     "game.yaml:3: grace_moves_left: only goes with a setup: board in which a player has all "
     "12 satellites connected"),
    ("game: satellites\nseed: 1\nplayers: Anna\n",
     "game.yaml:3: players: write {red: NAME, blue: NAME} or [RED'S NAME, BLUE'S NAME], got "
     "str 'Anna'"),
    ("game: satellites\nseed: 1\nplayers: {red: Anna, green: Ben}\n",
     "game.yaml:3: players: write {red: NAME, blue: NAME} or [RED'S NAME, BLUE'S NAME], got a "
     "mapping"),
    ("game: satellites\nseed: 1\nfirst: 1\n",
     "game.yaml:3: first: must be red or blue (who makes the first move), got 1"),
    ("game: satellites\nsetup: 5\n",
     "game.yaml:2: setup: expected the board as text (setup: | and then one row per line, as "
     "pnp-score satellites reads it), got a number (5)"),
    ("game: satellites\nsetup: >\n  . . . . .\n",
     "game.yaml:2: setup: write the board as a literal block (setup: |), not folded "
     "(setup: >), so each row stays on its own line"),
    ("game: satellites\nsetup: |\n  . . . .\n  . . . .\n  . . . .\n  . . . .\n",
     "game.yaml:2: setup: board: the board has 4 rows of 4 cells; a Satellites board is "
     "square, from 5 x 5 to 26 x 26"),
    ("game: satellites\ngrace_moves_left: 1\nsetup: |\n" + "  . . . . .\n" * 5,
     "game.yaml:3: setup: the start position breaks a rule: board: grace_moves_left is 1, but "
     "no player has all 12 satellites connected, so there are no grace moves yet; leave "
     "grace_moves_left out until a player has all 12 connected"),
    ("game: satellites\nseed: 1\nsize: 8\n",
     "game.yaml:3: unknown field 'size' (a satellites record has: game, players, moves, note, "
     "seed, setup, first, grace_moves_left, cards, design)"),
    ("game: chess\n",
     "game.yaml:1: game: 'chess' is not a game this tool knows; write satellites or orbitus"),
    ("seed: 1\n",
     "game.yaml:1: game: is required; write game: satellites or game: orbitus"),
    ("- c1-c4\n",
     "game.yaml:1: expected a mapping with game:, the start and moves:, got a list"),
    ("game: satellites\nseed: [1\n",
     "game.yaml:3: YAML syntax error: did not find expected ',' or ']'"),
    ("# nothing\n",
     "game.yaml:1: the file is empty; expected a game record (YAML with game:, the start, and "
     "moves:)"),
    ("game: satellites\nseed: 1\nseed: 2\n",
     "game.yaml:3: seed: duplicate key (first given on line 2)"),
    ("a: &x [1, 2]\nb: [*x, *x]\ngame: satellites\n",
     "game.yaml:1: b[0]: YAML aliases (*name) of lists or mappings are not accepted; write the "
     "value out"),
]


@pytest.mark.parametrize("text, message", BAD, ids=range(len(BAD)))
def test_a_bad_record_is_refused_with_one_line(tmp_path, capsys, monkeypatch, text, message):
    monkeypatch.chdir(tmp_path)
    record(tmp_path, text)
    code, out, err = run_replay(["game.yaml"], capsys)
    assert (code, out) == (2, "")
    assert err.splitlines()[0] == message


def test_unreadable_files(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bin.yaml").write_bytes(b"game: satellites\x00\n")
    (tmp_path / "latin.yaml").write_bytes(b"game: satellites # caf\xe9\n")
    (tmp_path / "big.yaml").write_bytes(b"#" * 2_000_001)
    (tmp_path / "folder").mkdir()
    cases = {
        "missing.yaml": "missing.yaml: file not found; expected a game record (YAML with "
                        "game:, the start, and moves:)",
        "folder": "folder: is a folder, not a file; expected a game record (YAML with game:, "
                  "the start, and moves:)",
        "bin.yaml": "bin.yaml: a binary file, not text; expected a game record (YAML with "
                    "game:, the start, and moves:)",
        "latin.yaml": "latin.yaml: not UTF-8 text (byte 22); save the file as UTF-8 text",
        "big.yaml": "big.yaml: larger than 2 MB; a game record is a page of text, is this the "
                    "right file?",
    }
    for name, message in cases.items():
        code, out, err = run_replay([name], capsys)
        assert (code, out, err) == (2, "", message + "\n"), name


def test_command_misuse(tmp_path, capsys):
    assert run_replay([], capsys)[0] == 2
    assert run_replay(["a.yaml", "--until", "x"], capsys)[0] == 2
    code, _, err = run_replay([GOLDEN / "opening_seed42.yaml", "--svg", tmp_path], capsys)
    assert code == 2 and "--svg" in err and "give a file name" in err
    code, _, err = run_replay([GOLDEN / "opening_seed42.yaml", "--cards", tmp_path / "x"],
                              capsys)
    assert code == 2 and "not a folder" in err
    code, out, _ = run_replay(["--help"], capsys)
    assert code == 0 and "d5-d6>d8" in out


MOVE_TEXT = st.text(alphabet="abcdefghijk0123456789-+>, ;pas\u2013\t", max_size=14)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(moves=st.lists(st.one_of(MOVE_TEXT, st.integers(), st.none()), max_size=6))
def test_no_record_ever_gets_a_traceback(tmp_path_factory, capsys, moves):
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / "fuzz.yaml"
    path.write_text(json.dumps({"game": "satellites", "seed": 42, "moves": moves}),
                    encoding="utf-8")
    code, out, err = run_replay([path], capsys)
    assert code in (0, 1, 2)
    assert "internal error" not in err and "Traceback" not in err
    if code == 2:
        assert out == "" and err.count("\n") >= 1
        assert all(": move " in line or ": moves: " in line or ": moves[" in line
                   for line in err.splitlines())


# --- pnp-setup ------------------------------------------------------------------------------


def test_setup_prints_a_board_the_scorer_reads(capsys):
    code, out, err = run_setup(["satellites", "--seed", "42"], capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[:4] == [
        "# Satellites start position: seed 42, 10 x 10 board (pnp-setup satellites --seed 42)",
        "# red moves first",
        "# a  b  c  d  e  f  g  h  i  j",
        "  .  .  R3 .  .  R3 R4 R3 .  .   # 1",
    ]
    result = score(read_string(out, "setup").board)
    assert result.valid and result.board.width == 10
    assert result.connected == {"red": 0, "blue": 0}
    assert run_setup(["satellites", "--seed", "42"], capsys)[1] == out  # same seed, same deal


def test_setup_record_starts_a_game_that_replays(tmp_path, capsys):
    code, out, _ = run_setup(["satellites", "--seed", "42", "--record"], capsys)
    assert code == 0
    path = record(tmp_path, out + "  - c1-c4\n")
    code, out, err = run_replay(["--json", path], capsys)
    assert (code, err) == (0, "")
    assert json.loads(out)["replay"]["played"] == 1


def test_setup_without_a_seed_chooses_and_prints_one(capsys):
    code, out, _ = run_setup(["satellites"], capsys)
    first = out.splitlines()[0]
    assert code == 0 and "(chosen at random)" in first
    seed = first.split("seed ")[1].split(" ")[0]
    assert run_setup(["satellites", "--seed", seed], capsys)[1].splitlines()[2:] == \
        out.splitlines()[2:]


def test_setup_pictures(tmp_path, capsys):
    svg, png = tmp_path / "start.svg", tmp_path / "start.png"
    code, _, err = run_setup(["satellites", "--seed", "5", "--svg", svg, "--png", png], capsys)
    assert (code, err) == (0, "")
    text = svg.read_text(encoding="utf-8")
    assert "Satellites start position: seed 5" in text
    assert text.count('class="satellite red"') == 12 and text.count('class="satellite blue"') == 12
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_setup_follows_the_definitions(cards_copy, capsys):
    board = cards_copy / "satellites" / "board.yaml"
    board.write_text(board.read_text(encoding="utf-8").replace("size: 10", "size: 12"),
                     encoding="utf-8")
    code, out, _ = run_setup(["satellites", "--seed", "1", "--cards", cards_copy], capsys)
    assert code == 0 and "12 x 12 board" in out
    grid = score(read_string(out, "setup").board)
    assert grid.board.width == 12 and grid.valid
    # the rows of red's north edge: the 6 central cells are d-i on 12 x 12
    north = [out.splitlines()[3].split("#")[0].split(), out.splitlines()[4].split("#")[0].split()]
    assert [c for c in range(12) if north[0][c] != "." or north[1][c] != "."] == \
        list(range(3, 9))


def test_setup_refuses_definitions_that_give_no_deal(cards_copy, capsys):
    board = cards_copy / "satellites" / "board.yaml"
    text = board.read_text(encoding="utf-8")
    board.write_text(text.replace("setup_zone_cells: 6", "setup_zone_cells: 4"), encoding="utf-8")
    code, out, err = run_setup(["satellites", "--seed", "1", "--cards", cards_copy], capsys)
    assert (code, out) == (1, "")
    # the definitions refuse it already when they are loaded, with file and line
    lines = err.splitlines()
    assert lines[0].endswith("satellites.yaml:5: satellites: red has 12 satellites but 8 start "
                             "cells (setup_zone_cells 4 on each of its 2 edges in "
                             "satellites/board.yaml); the deal puts one satellite on every "
                             "start cell (docs/rules/satellites.md S-12)")
    assert lines[-1] == "pnp-setup satellites: 2 problem(s) in the definitions; nothing was dealt"


def test_the_deal_refuses_overlapping_zones():
    # the definitions loader refuses such a board already; the deal checks again
    import dataclasses

    from rules.game import SetupError
    from rules.satellites.engine import deal
    from scorer.satellites.board import load_rules

    small = dataclasses.replace(load_rules(), size=8)
    with pytest.raises(SetupError) as exc:
        deal(small, 1)
    assert str(exc.value) == (
        "red's and blue's start cells overlap on a 8 x 8 board with 6 central cells per edge "
        "(b2, g2, b7, g7); the rules page needs at least 10 x 10 for 6 central cells")


def test_setup_misuse(capsys, tmp_path):
    assert run_setup([], capsys)[0] == 2
    code, _, err = run_setup(["chess"], capsys)
    assert code == 2 and err == ("pnp-setup: unknown game 'chess'; choose orbitus or satellites "
                                 "(see pnp-setup --help)\n")
    code, _, err = run_setup(["satellites", "--seed", "-3"], capsys)
    assert code == 2 and "-3 is out of range" in err
    code, _, err = run_setup(["satellites", "--seed", "x"], capsys)
    assert code == 2 and "'x' is not a whole number" in err
    code, _, err = run_setup(["satellites", "--png", tmp_path], capsys)
    assert code == 2 and "--png" in err
    assert run_setup(["satellites", "--help"], capsys)[0] == 0


@pytest.mark.parametrize("command", ["pnp-setup", "pnp-replay"])
def test_the_installed_commands_run(command, tmp_path):
    script = VENV_BIN / command
    if not script.exists():
        pytest.skip(f"{command} is not installed next to this Python")
    path = record(tmp_path, OPENING)
    args = ["satellites", "--seed", "42"] if command == "pnp-setup" else [str(path)]
    done = subprocess.run([str(script), *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == ""
