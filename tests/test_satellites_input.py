"""Reading the input: both forms, every unreadable file, and command misuse (exit 2)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from scorer.satellites.cli import run

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "satellites"
WHAT = "a Satellites board (a text grid, or YAML with game: satellites and board: |)"

GRID = """\
.  .  .  .  .
.  R1 B2 .  .
.  B1 .  .  .
.  .  .  .  .
.  .  .  .  .
"""


def score_file(tmp_path: Path, monkeypatch, capsys, name: str, content: str | bytes,
               *args: str) -> tuple[int, str, str]:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    code = run([name, *args])
    out, err = capsys.readouterr()
    return code, out, err


def as_json(tmp_path, monkeypatch, capsys, name, content) -> dict:
    code, out, err = score_file(tmp_path, monkeypatch, capsys, name, content, "--json")
    assert err == ""
    return json.loads(out)


# --- the two forms --------------------------------------------------------------------


def test_text_grid(tmp_path, monkeypatch, capsys):
    result = as_json(tmp_path, monkeypatch, capsys, "b.txt", GRID)
    assert result["valid"] and result["size"] == 5
    assert result["groups"][0]["cells"] == ["b2", "c2", "b3"]
    assert result["groups"][0]["controller"] == "blue"


def test_lower_case_tokens_comments_and_blank_lines(tmp_path, monkeypatch, capsys):
    rows = GRID.lower().splitlines()
    rows[1] += "  # the red one"
    text = "# my game\n\n" + "\n".join(rows[:3]) + "\n\n" + "\n".join(rows[3:]) + "\n\n"
    assert as_json(tmp_path, monkeypatch, capsys, "b.txt", text) == as_json(
        tmp_path, monkeypatch, capsys, "c.txt", GRID)


def test_yaml_form_scores_the_same_board(tmp_path, monkeypatch, capsys):
    yaml_text = "game: satellites\nboard: |\n" + "".join("  " + ln + "\n" for ln in
                                                          GRID.splitlines())
    assert as_json(tmp_path, monkeypatch, capsys, "b.yaml", yaml_text) == as_json(
        tmp_path, monkeypatch, capsys, "b.txt", GRID)


def test_yaml_detected_by_content_whatever_the_name(tmp_path, monkeypatch, capsys):
    yaml_text = "game: satellites\ngrace_moves_left: 3\nboard: |\n" + "".join(
        "  " + ln + "\n" for ln in GRID.splitlines())
    # grace_moves_left without a finished player is the one violation: it was read as YAML
    result = as_json(tmp_path, monkeypatch, capsys, "game.board", yaml_text)
    assert [v["rule"] for v in result["violations"]] == ["grace-moves"]


def test_yaml_board_as_a_list_of_rows(tmp_path, monkeypatch, capsys):
    rows = "".join(f'  - "{ln}"\n' for ln in GRID.splitlines())
    result = as_json(tmp_path, monkeypatch, capsys, "b.yaml", "game: satellites\nboard:\n" + rows)
    assert result["groups"][0]["cells"] == ["b2", "c2", "b3"]


def test_yaml_unknown_token_names_the_file_line(tmp_path, monkeypatch, capsys):
    text = ("game: satellites\n# a comment\nboard: |\n  . . . . .\n  . R9 . . .\n"
            "  . . . . .\n  . . . . .\n  . . . . .\n")
    result = as_json(tmp_path, monkeypatch, capsys, "b.yaml", text)
    (v,) = result["violations"]
    assert v["cell"] == "b2"
    assert v["message"].startswith("'R9' (line 5) is not a satellite")


def test_utf8_bom_and_crlf_are_fine(tmp_path, monkeypatch, capsys):
    data = ("\ufeff" + GRID.replace("\n", "\r\n")).encode("utf-8")
    code, out, err = score_file(tmp_path, monkeypatch, capsys, "b.txt", data, "--json")
    assert (code, err) == (0, "")
    assert json.loads(out)["groups"][0]["size"] == 3


def test_standard_input(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(GRID.encode())))
    assert run(["-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["groups"][0]["red"] == 1


def test_summary_names_the_file_and_marks_validity(tmp_path, monkeypatch, capsys):
    code, out, err = score_file(tmp_path, monkeypatch, capsys, "b.txt", GRID)
    assert code == 0 and err == ""
    assert out.splitlines()[0] == "Satellites: b.txt, 5 x 5 board, valid"
    assert "  A  colony  size 3  red  1  blue  3  total  4  controlled by blue" in out
    assert "\x1b[" not in out  # no colour codes when not writing to a terminal


def test_summary_colours_only_when_asked():
    from scorer.satellites.board import read_string
    from scorer.satellites.report import summary
    from scorer.satellites.score import score

    t = read_string(GRID)
    result = score(t.board)
    assert "\x1b[31mR1\x1b[0m" in summary(result, "b", colour=True)
    assert "\x1b[" not in summary(result, "b", colour=False)


# --- unreadable input: exit 2, one clear line each, nothing on stdout -------------------


UNREADABLE = [
    ("empty.txt", "", f"empty.txt: no board rows found; expected {WHAT}"),
    ("comments.txt", "# nothing yet\n\n", f"comments.txt: no board rows found; expected {WHAT}"),
    ("binary.txt", b"\x7fELF\x02\x01\x01\x00\x00\x00",
     f"binary.txt: a binary file, not text; expected {WHAT}"),
    ("latin1.txt", "R1 B1 è\n".encode("latin-1"),
     "latin1.txt: not UTF-8 text (byte 6); save the file as UTF-8 text"),
    ("empty.yaml", "", f"empty.yaml:1: the file is empty; expected {WHAT}"),
    ("syntax.yaml", "game: satellites\nboard: [\n",
     "syntax.yaml:3: YAML syntax error: did not find expected node content"),
    ("list.yaml", "- R1\n- B1\n",
     "list.yaml:1: expected a mapping (game: satellites, board: |), got a list"),
    ("orbitus.yaml", "game: orbitus\nboard: R1\n",
     "orbitus.yaml:1: game: 'orbitus' is not satellites (score Orbitus tables with "
     "pnp-score orbitus)"),
    ("nogame.yaml", "board: |\n  R1\n", "nogame.yaml:1: game: is required; write game: satellites"),
    ("noboard.yaml", "game: satellites\n",
     "noboard.yaml:1: board: is required; write board: | and the grid below it"),
    ("number.yaml", "game: satellites\nboard: 42\n",
     "number.yaml:2: board: expected the grid as text (board: | and then one row per line), "
     "got a number (42)"),
    ("mapping.yaml", "game: satellites\nboard: {a1: R1}\n",
     "mapping.yaml:2: board: expected the grid as text (board: | and then one row per line), "
     "got a mapping"),
    ("unknown.yaml", "game: satellites\nboard: R1\ncolour: red\n",
     "unknown.yaml:3: unknown field 'colour' (known fields: game, cards, design, board, "
     "grace_moves_left)"),
    ("grace5.yaml", "game: satellites\ngrace_moves_left: 5\nboard: R1\n",
     "grace5.yaml:2: grace_moves_left: must be 0, 1, 2 or 3 (the moves the other player still "
     "has), got 5"),
    ("gracetext.yaml", "game: satellites\ngrace_moves_left: two\nboard: R1\n",
     "gracetext.yaml:2: grace_moves_left: must be 0, 1, 2 or 3 (the moves the other player "
     "still has), got 'two'"),
    ("gracebool.yaml", "game: satellites\ngrace_moves_left: true\nboard: R1\n",
     "gracebool.yaml:2: grace_moves_left: must be 0, 1, 2 or 3 (the moves the other player "
     "still has), got True"),
    ("folded.yaml", "game: satellites\nboard: >\n  R1 B1\n  . .\n",
     "folded.yaml:2: board: write the grid as a literal block (board: |), not folded "
     "(board: >), so each row stays on its own line"),
    ("duplicate.yaml", "game: satellites\ngame: satellites\nboard: R1\n",
     "duplicate.yaml:2: game: duplicate key (first given on line 1)"),
    ("alias.yaml", "game: satellites\nrow: &r R1 B1\nboard: *r\n",
     "alias.yaml:3: YAML alias *r is not allowed in a board file; write the value out"),
    ("laughs.yaml", "game: satellites\na: &a [x, x, x, x, x, x, x, x, x, x]\n"
     + "".join(f"{k}: &{k} [{', '.join(['*' + p] * 10)}]\n"
               for p, k in zip("abcdefgh", "bcdefghi", strict=True))
     + "board: R1\n",
     "laughs.yaml:3: YAML alias *a is not allowed in a board file; write the value out"),
    ("deep.yaml", "game: satellites\nx: " + "[" * 5000 + "]" * 5000 + "\nboard: R1\n",
     "deep.yaml:2: YAML syntax error: exceeded maximum nesting depth"),
    ("blank.yaml", "game: satellites\nboard: ''\n",
     f"blank.yaml:2: board: no board rows found; expected {WHAT}"),
    ("huge.txt", "\n".join(" ".join(["."] * 150) for _ in range(3)) + "\n",
     "huge.txt: 3 rows, the longest with 150 cells, is far too large for a Satellites board "
     "(at most 26 x 26)"),
]


@pytest.mark.parametrize(("name", "content", "message"), UNREADABLE,
                         ids=[u[0] for u in UNREADABLE])
def test_unreadable_input(tmp_path, monkeypatch, capsys, name, content, message):
    code, out, err = score_file(tmp_path, monkeypatch, capsys, name, content, "--json")
    assert code == 2
    assert out == ""
    assert err.splitlines()[0] == message
    assert "Traceback" not in err


def test_missing_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert run(["nothing.txt"]) == 2
    assert capsys.readouterr().err == f"nothing.txt: file not found; expected {WHAT}\n"


def test_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "boards").mkdir()
    assert run(["boards"]) == 2
    assert capsys.readouterr().err == f"boards: is a folder, not a file; expected {WHAT}\n"


def test_too_large_file(tmp_path, monkeypatch, capsys):
    code, out, err = score_file(tmp_path, monkeypatch, capsys, "big.txt", ". " * 600_000)
    assert code == 2
    assert err.startswith("big.txt: larger than 1000 kB")


# --- command misuse -------------------------------------------------------------------


def test_help_explains_every_option(capsys):
    code = run(["--help"], prog="pnp-score satellites")
    out = capsys.readouterr().out
    assert code == 0
    for option in ("FILE", "--json", "--svg", "--png", "--lenient", "exit codes"):
        assert option in out
    assert "R1-R4" in out and "grace_moves_left" in out


@pytest.mark.parametrize(("args", "message"), [
    ([], "the following arguments are required: FILE (or --photo PHOTO)"),
    (["a.txt", "--bogus"], "unrecognized arguments: --bogus"),
    (["a.txt", "--lenent"], "unrecognized arguments: --lenent; did you mean --lenient?"),
    (["a.txt", "--svg"], "--svg: expected one argument"),
    (["a.txt", "b.txt"], "unrecognized arguments: b.txt"),
])
def test_misuse_is_one_line_pointing_to_help(capsys, args, message):
    assert run(args, prog="pnp-score satellites") == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"pnp-score satellites: {message} (see pnp-score satellites --help)\n"


def test_picture_path_that_is_a_folder(tmp_path, monkeypatch, capsys):
    (tmp_path / "pics").mkdir()
    code, out, err = score_file(tmp_path, monkeypatch, capsys, "b.txt", GRID, "--svg", "pics")
    assert code == 2
    assert err == ("pnp-score satellites: --svg pics: is a folder; give a file name, "
                   "e.g. pics/board.svg\n")


# --- the installed command, end to end --------------------------------------------------


def _command(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "scorer", "satellites", *args], cwd=ROOT,
                          input=stdin, capture_output=True, timeout=60, check=False)


def test_command_exit_codes_end_to_end():
    ok = _command(str(FIXTURES / "tie_lowest_colony.txt"))
    bad = _command(str(FIXTURES / "violation_group_too_large.txt"))
    lenient = _command(str(FIXTURES / "violation_group_too_large.txt"), "--lenient")
    missing = _command("tests/fixtures/satellites/nope.txt")
    assert (ok.returncode, bad.returncode, lenient.returncode, missing.returncode) == (0, 1, 0, 2)
    assert b"NOT VALID" in bad.stdout and b"NOT VALID" in lenient.stdout
    assert missing.stderr == (b"tests/fixtures/satellites/nope.txt: file not found; expected "
                              + WHAT.encode() + b"\n")


def test_no_traceback_on_a_closed_pipe():
    proc = subprocess.run(
        f"{sys.executable} -m scorer satellites {FIXTURES / 'violation_too_big.txt'} | head -1",
        shell=True, cwd=ROOT, capture_output=True, timeout=60, check=False)
    assert b"Traceback" not in proc.stderr
    assert proc.stdout.startswith(b"Satellites: ")


@pytest.mark.parametrize("data", [b"", b"\x00\x01\x02", b"\xff\xfe", b"game: [", b"{", b"- -",
                                  b"R1 B1\n" * 3, b"\t\n\t", "Ω Ж ✓\n".encode()])
def test_never_a_traceback(data):
    proc = _command("-", "--json", stdin=data)
    assert proc.returncode in (1, 2)
    assert b"Traceback" not in proc.stderr
    if proc.returncode == 2:
        assert proc.stdout == b"" and proc.stderr.startswith(b"<stdin>")
