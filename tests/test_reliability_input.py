"""Hostile input: every reader answers with a clear line (file, line, what is wrong), never a
traceback, an "internal error" or a hang."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from cards.definitions import load_orbitus, load_satellites
from cards.loader import (
    MAX_DEFINITION_BYTES,
    Ambiguous,
    DefinitionError,
    UnreadableInput,
    parse_yaml,
    read_bytes_safely,
)
from records.replay_cli import main as replay_main
from records.setup_cli import main as setup_main
from scorer.cli import main as score_main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
LAYOUT = (FIXTURES / "orbitus" / "two-players.yaml").read_text(encoding="utf-8")
RECORD = (FIXTURES / "records" / "orbitus" / "opening_seed42.yaml").read_text(encoding="utf-8")


def run(main, args, capsys) -> tuple[int, str, str]:
    code = main(args)
    out = capsys.readouterr()
    assert "Traceback" not in out.err and "internal error" not in out.err, out.err
    return code, out.out, out.err


def parse(text: str):
    return parse_yaml(text, Path("f.yaml"), "a test file").data


# --- only plain YAML ------------------------------------------------------------------------

REFUSED = [
    ("!!timestamp x", "x: !!timestamp x: 'x' is not a date"),
    ("!!binary x", "x: the YAML tag !!binary is not accepted here; write plain text, numbers, "
                   "true or false, lists and mappings"),
    ("!!bool maybe", "x: !!bool maybe: 'maybe' is not true or false"),
    ("!!int x", "x: !!int x: 'x' is not a whole number"),
    ("!!float x", "x: !!float x: 'x' is not a number"),
    ("!!set {a, b}", "x: the YAML tag !!set is not accepted here; write a plain mapping"),
    ("!!omap [a: 1]", "x: the YAML tag !!omap is not accepted here; write a plain list"),
    ("!!python/name:os.system", "x: the YAML tag !!python/name:os.system is not accepted "
                                "here; write plain text, numbers, true or false, lists and "
                                "mappings"),
    ("!custom 5", "x: the YAML tag !custom is not accepted here; write plain text, numbers, "
                  "true or false, lists and mappings"),
    ("!!null q", "x: !!null q: 'q' is not null"),
    (".inf", "x: .inf is not a finite number; write an ordinary number (e.g. 12 or 0.5)"),
    ("-.inf", "x: -.inf is not a finite number; write an ordinary number (e.g. 12 or 0.5)"),
    (".NaN", "x: .NaN is not a finite number; write an ordinary number (e.g. 12 or 0.5)"),
    ("1.0e+999", "x: 1.0e+999 is too large to be a number here"),
    ("1" * 5000, "x: a number of 5000 digits (111111111111111111111111111111…) is no real "
                 "value here; numbers have at most 30 digits"),
]


@pytest.mark.parametrize(("value", "message"), REFUSED, ids=[r[0][:20] for r in REFUSED])
def test_typed_and_tagged_values_are_refused_with_their_line(value, message):
    with pytest.raises(DefinitionError) as caught:
        parse(f"a: 1\nx: {value}\n")
    assert caught.value.problems == [f"f.yaml:2: {message}"]


def test_a_merge_key_is_refused():
    with pytest.raises(DefinitionError) as caught:
        parse("base: &b {a: 1}\nc:\n  <<: *b\n")
    assert caught.value.problems == [
        "f.yaml:3: c: merge keys (<<) are not accepted; write the fields out"]


@pytest.mark.parametrize(("text", "value"), [
    ("x: 2001-02-30", "2001-02-30"), ("x: 07", "07"), ("x: no", "no"), ("x: On", "On"),
    ("x: 1_000", "1_000"), ("x: 0b101", "0b101"), ("x: 1:30", "1:30"),
])
def test_words_yaml_readers_disagree_about_are_text_with_a_reason(text, value):
    got = parse(text)["x"]
    assert type(got) is Ambiguous and got == value and got.why


@pytest.mark.parametrize(("text", "value"), [
    ("x: 12", 12), ("x: -3", -3), ("x: 0x1f", 31), ("x: 1.5", 1.5), ("x: 1.5e+3", 1500.0),
    ("x: true", True), ("x: False", False), ("x: ~", None), ("x: 'no'", "no"), ("x: '07'", "07"),
    ("x: 1e3", "1e3"), ("x: 08", "08"),
])
def test_plain_values_read_as_before(text, value):
    got = parse(text)["x"]
    assert got == value and type(got) is type(value)


def test_the_why_of_each_kind():
    assert parse("x: no")["x"].why == (
        "no means false to YAML 1.1 readers (PyYAML) and is text to YAML 1.2 readers "
        "(editors); write false for true/false, or 'no' in quotes for text")
    assert parse("x: 010")["x"].why == (
        "010 starts with a zero, so YAML 1.1 readers (PyYAML) take it for the octal number 8 "
        "and YAML 1.2 readers (editors) for 10; write 10, or '010' in quotes for text")
    assert parse("x: 07")["x"].why == (
        "07 is the number 7 to YAML readers, so a leading zero is lost; write 7 for the "
        "number, or '07' in quotes for text")


# --- the definitions: text stays text, numbers must be numbers -----------------------------


def _edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def test_ids_and_names_stay_text_whatever_they_look_like(cards_copy):
    _edit(cards_copy / "orbitus/sectors.yaml", "{id: S01,", "{id: 07,")
    _edit(cards_copy / "orbitus/planets.yaml", "{id: gas,    name: Gas giant,",
          "{id: no, name: 2024,")
    _edit(cards_copy / "orbitus/sectors.yaml", "planet: gas}", "planet: no}", -1)
    defs = load_orbitus(cards_copy)
    assert defs.sectors.sectors[0].id == "07"
    gas = defs.planets.planet_types[-1]
    assert (gas.id, gas.name) == ("no", "2024")
    assert "no" in defs.ruleset.planet_types


@pytest.mark.parametrize(("file", "old", "new", "line", "message"), [
    ("satellites/board.yaml", "size: 10", "size: 2001-02-30", 5,
     "size: 2001-02-30 is a date to YAML 1.1 readers (PyYAML) and text to YAML 1.2 readers "
     "(editors); write '2001-02-30' in quotes for text"),
    ("satellites/board.yaml", "cell_mm: 30", "cell_mm: .inf", 6,
     "cell_mm: .inf is not a finite number; write an ordinary number (e.g. 12 or 0.5)"),
    ("satellites/satellites.yaml", "diameter_mm: 25", "diameter_mm: .nan", 4,
     "diameter_mm: .nan is not a finite number; write an ordinary number (e.g. 12 or 0.5)"),
    ("satellites/board.yaml", "cell_mm: 30", "cell_mm: 1e999", 6,
     "cell_mm: '1e999' is not a finite number; write an ordinary number (e.g. 12 or 0.5)"),
    ("satellites/satellites.yaml", "{colour: red, value: 1, count: 3}",
     "{colour: red, value: 1, count: 03}", 6,
     "satellites entry red 1: count: 03 is the number 3 to YAML readers, so a leading zero is "
     "lost; write 3 for the number, or '03' in quotes for text"),
])
def test_satellites_numbers_must_be_plain_finite_numbers(cards_copy, file, old, new, line,
                                                         message):
    _edit(cards_copy / file, old, new)
    with pytest.raises(DefinitionError) as caught:
        load_satellites(cards_copy)
    assert caught.value.problems == [f"{cards_copy / file}:{line}: {message}"] or \
        caught.value.problems == [f"{os.path.relpath(cards_copy / file)}:{line}: {message}"]


@pytest.mark.parametrize(("old", "new", "message"), [
    ("hex_across_flats_mm: 50", "hex_across_flats_mm: .inf",
     "hex_across_flats_mm: .inf is not a finite number; write an ordinary number (e.g. 12 or "
     "0.5)"),
    ("{id: S01, routes: [N], planet: ice}", "{id: S01, routes: [N], pirate: yes}",
     "sector S01: pirate: yes means true to YAML 1.1 readers (PyYAML) and is text to YAML 1.2 "
     "readers (editors); write true for true/false, or 'yes' in quotes for text"),
])
def test_orbitus_numbers_and_flags_must_be_plain(cards_copy, old, new, message):
    _edit(cards_copy / "orbitus/sectors.yaml", old, new)
    with pytest.raises(DefinitionError) as caught:
        load_orbitus(cards_copy)
    [problem] = caught.value.problems
    assert problem.endswith(message) and re.match(r".*sectors\.yaml:\d+: ", problem)


def test_pnp_build_reports_a_typed_value_without_a_traceback(cards_copy, tmp_path):
    _edit(cards_copy / "orbitus/sectors.yaml", "hex_across_flats_mm: 50",
          "hex_across_flats_mm: !!binary eA==")
    done = subprocess.run([sys.executable, "-m", "generator", "--cards", str(cards_copy),
                           "--out", str(tmp_path / "out"), "-q"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"{cards_copy}/orbitus/sectors.yaml:29: hex_across_flats_mm: the YAML tag !!binary is "
        "not accepted here; write plain text, numbers, true or false, lists and mappings",
        "pnp-build: 1 problem(s) in the definitions; nothing was written"]
    assert not (tmp_path / "out").exists()


# --- the scorers' and the replay's own readers ------------------------------------------------


def test_layout_with_typed_values(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("t.yaml").write_text(LAYOUT.replace("players: [Anna, Boris]",
                                             "players: [Anna, Boris]\nwhen: !!timestamp x"))
    code, out, err = run(score_main, ["orbitus", "t.yaml"], capsys)
    assert (code, out, err) == (2, "", "t.yaml:7: when: !!timestamp x: 'x' is not a date\n")


def test_layout_names_and_cards_that_look_like_other_things(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("t.yaml").write_text(LAYOUT.replace("players: [Anna, Boris]", "players: [no, 07]"))
    code, out, _ = run(score_main, ["orbitus", "t.yaml", "--json"], capsys)
    assert code == 0
    import json

    assert json.loads(out)["winners"] == ["no"]
    assert [p["name"] for p in json.loads(out)["players"]] == ["no", "07"]


def test_layout_pirate_yes_says_why(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("t.yaml").write_text("players: [Anna, Boris]\nsectors:\n"
                              "  - {at: [0, -1], routes: [S, N], pirate: yes}\n")
    code, out, _ = run(score_main, ["orbitus", "t.yaml"], capsys)
    assert code == 1
    assert ("t.yaml:3: sector-format: sector at [0, -1]: pirate: expected true or false, got "
            "yes (yes means true to YAML 1.1 readers (PyYAML) and is text to YAML 1.2 readers "
            "(editors); write true for true/false, or 'yes' in quotes for text), so it was "
            "read as false") in out


def test_satellites_board_yaml_with_a_typed_value(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    grid = (FIXTURES / "satellites" / "all_12_grace.yaml").read_text(encoding="utf-8")
    Path("b.yaml").write_text(grid.replace("grace_moves_left: 2", "grace_moves_left: !!int x")
                              if "grace_moves_left: 2" in grid else
                              grid + "grace_moves_left: !!int x\n")
    code, out, err = run(score_main, ["satellites", "b.yaml"], capsys)
    assert code == 2 and out == ""
    assert re.fullmatch(r"b\.yaml:\d+: grace_moves_left: !!int x: 'x' is not a whole number\n",
                        err)


def test_record_with_a_typed_value(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("r.yaml").write_text(RECORD.replace("seed: 42", "seed: !!float x"))
    code, out, err = run(replay_main, ["r.yaml"], capsys)
    assert (code, out) == (2, "")
    assert err == "r.yaml:5: seed: !!float x: 'x' is not a number\n"


# --- numbers too long for Python's int() -----------------------------------------------------


def test_huge_numbers_in_moves_and_rotations(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    digits = "9" * 5000
    Path("r.yaml").write_text(RECORD.replace("place S50 @0,-1 r3", f"place S50 @0,{digits} r3"))
    code, out, err = run(replay_main, ["r.yaml"], capsys)
    assert code == 2 and out == ""
    assert err.startswith("r.yaml:7: move 1: 'place S50 @0,9999")
    assert "…' is not a placement: write place CARD @Q,R rN" in err
    Path("r.yaml").write_text(RECORD.replace("place S50 @0,-1 r3", f"place S50 @0,-1 r{digits}"))
    code, out, err = run(replay_main, ["r.yaml"], capsys)
    assert code == 2 and "is not a rotation; write r0-r5" in err
    sat = "game: satellites\nseed: 42\nmoves:\n  - c1-c" + digits + "\n"
    Path("s.yaml").write_text(sat)
    code, out, err = run(replay_main, ["s.yaml"], capsys)
    assert code == 2 and "is not a move" in err
    Path("t.yaml").write_text("players: [Anna, Boris]\nsectors:\n"
                              "  - {at: [0, -1], card: S44, rot: \"²\"}\n")
    code, out, _ = run(score_main, ["orbitus", "t.yaml"], capsys)
    assert code == 1 and "rot: '²' is not a direction" in out


# --- file names that are not UTF-8 ------------------------------------------------------------


@pytest.mark.parametrize("args", [["orbitus"], ["orbitus", "--json"], ["satellites"]])
def test_a_file_name_that_is_not_utf8_in_a_strict_locale(tmp_path, args):
    source = FIXTURES / ("orbitus/two-players.yaml" if args[0] == "orbitus"
                         else "satellites/contested.txt")
    name = os.fsencode(tmp_path) + b"/t\xff" + source.suffix.encode()
    with open(name, "wb") as handle:
        handle.write(source.read_bytes())
    done = subprocess.run([sys.executable, "-m", "scorer", *args, name], capture_output=True,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8:strict",
                               "LC_ALL": "C.UTF-8"}, timeout=60)
    assert done.returncode in (0, 1), done.stderr
    assert b"internal error" not in done.stderr
    assert b"t\\xff" in done.stdout or b"t\\udcff" in done.stdout


# --- what is not a regular file, or too large -------------------------------------------------


def test_read_bytes_safely_refuses_what_is_not_a_regular_file(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    big = tmp_path / "big.yaml"
    with open(big, "wb") as handle:
        handle.truncate(MAX_DEFINITION_BYTES + 1)
    (tmp_path / "inner").mkdir()
    outside = tmp_path / "secret.yaml"
    outside.write_text("a: 1")
    (tmp_path / "inner" / "link.yaml").symlink_to(outside)
    cases = {
        fifo: f"{fifo}: is a named pipe (FIFO), not a regular file; expected a thing",
        Path("/dev/zero"): "/dev/zero: is a device, not a regular file; expected a thing",
        loop: f"{loop}: is a link that leads round in a loop (a link to itself, or links to "
              "each other); expected a thing",
        big: f"{big}: is 4.0 MB, more than the 4 MB allowed for a thing; is this the right "
             "file?",
        tmp_path / "nope.yaml": f"{tmp_path / 'nope.yaml'}: file not found; expected a thing",
        tmp_path: f"{tmp_path}: is a folder, not a file; expected a thing",
    }
    for path, message in cases.items():
        with pytest.raises(UnreadableInput) as caught:
            read_bytes_safely(path, "a thing", MAX_DEFINITION_BYTES, shown=str(path))
        assert caught.value.problems == [message]
    with pytest.raises(UnreadableInput) as caught:
        read_bytes_safely(tmp_path / "inner" / "link.yaml", "a thing", 100,
                          folder=tmp_path / "inner", shown="link.yaml")
    assert caught.value.problems == [
        f"link.yaml: leads outside {tmp_path / 'inner'} (to {outside}); files are read only "
        "from inside the folder you gave"]


def _finishes(target, timeout: float = 20.0) -> None:
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), "hung"


def test_a_fifo_blocks_no_command(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    os.mkfifo("pipe.yaml")
    results = []
    for main, args in ((score_main, ["orbitus", "pipe.yaml"]),
                       (score_main, ["satellites", "pipe.yaml"]),
                       (replay_main, ["pipe.yaml"])):
        _finishes(lambda main=main, args=args: results.append(main(args)))
    err = capsys.readouterr().err.splitlines()
    assert results == [2, 2, 2]
    assert all(line.startswith("pipe.yaml: is a named pipe (FIFO), not a regular file")
               for line in err), err


def test_a_fifo_among_the_definitions(cards_copy, tmp_path):
    (cards_copy / "orbitus" / "planets.yaml").unlink()
    os.mkfifo(cards_copy / "orbitus" / "planets.yaml")
    (cards_copy / "satellites" / "board.yaml").unlink()
    (cards_copy / "satellites" / "board.yaml").symlink_to("board.yaml")
    done = subprocess.run([sys.executable, "-m", "generator", "--cards", str(cards_copy),
                           "--out", str(tmp_path / "out"), "-q"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2  # files that cannot be read at all
    assert done.stderr.splitlines() == [
        f"{cards_copy}/orbitus/planets.yaml: is a named pipe (FIFO), not a regular file; "
        "expected the Orbitus planet types",
        f"{cards_copy}/satellites/board.yaml: is a link that leads round in a loop (a link to "
        "itself, or links to each other); expected the Satellites board",
        "pnp-build: 2 problem(s) in the definitions; nothing was written"]


def test_devices_and_huge_files_are_refused_at_once(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with open("huge.yaml", "wb") as handle:
        handle.truncate(2_000_000_000)
    for args in (["orbitus", "/dev/zero"], ["orbitus", "/dev/urandom"], ["satellites",
                                                                          "/dev/zero"]):
        _finishes(lambda args=args: score_main(args))
    _finishes(lambda: replay_main(["/dev/zero"]))
    _finishes(lambda: score_main(["orbitus", "huge.yaml"]))
    err = capsys.readouterr().err.splitlines()
    assert err[:4] == [
        "/dev/zero: is a device, not a regular file; expected an Orbitus layout",
        "/dev/urandom: is a device, not a regular file; expected an Orbitus layout",
        "/dev/zero: is a device, not a regular file; expected a Satellites board (a text grid, "
        "or YAML with game: satellites and board: |)",
        "/dev/zero: is a device, not a regular file; expected a game record (YAML with game:, "
        "the start, and moves:)"]
    assert err[4] == ("huge.yaml: is 2,000 MB, more than the 4 MB allowed for an Orbitus "
                      "layout; is this the right file?")


def test_booklet_texts_are_read_safely(cards_copy, tmp_path):
    text = cards_copy / "orbitus" / "text"
    text.mkdir()
    os.mkfifo(text / "rules-en.md")
    done = subprocess.run([sys.executable, "-m", "generator", "--cards", str(cards_copy),
                           "--out", str(tmp_path / "out"), "--game", "orbitus", "-q"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2  # a text that cannot be read at all
    assert (f"{text}/rules-en.md: is a named pipe (FIFO), not a regular file; expected the "
            "orbitus text rules-en.md") in done.stderr.splitlines()[0]


# --- control characters never reach the terminal raw ------------------------------------------


def test_names_with_control_characters_are_escaped_and_flagged(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("t.yaml").write_text(LAYOUT.replace(
        "players: [Anna, Boris]",
        'players: ["Anna\\e[2J", "Boris\\nWinner: Boris wins with 99 point(s)"]'))
    code, out, _ = run(score_main, ["orbitus", "t.yaml"], capsys)
    assert code == 1
    assert "\x1b" not in out
    assert not any(line.startswith("Winner: Boris wins with 99") for line in out.splitlines())
    assert "Anna\\x1b[2J (start lines: N NE SE)" in out
    assert ("players-format: players: entry 2 (Boris\\nWinner: Boris wins with 99 point(s)) "
            "holds a control character (shown escaped); a name is plain text on one line") in out


def test_terminal_output_of_every_report_is_escaped(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("t.yaml").write_text("players: [Anna, Boris]\nsectors:\n"
                              '  - {at: [0, -1], routes: [S], planet: "x\\e]0;pwned\\a\\u009b"}\n')
    code, out, _ = run(score_main, ["orbitus", "t.yaml"], capsys)
    assert code == 1
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", out)
    code, out, _ = run(score_main, ["orbitus", "t.yaml", "--json"], capsys)
    import json

    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", out)
    assert "x\x1b]0;pwned\x07\x9b" in json.loads(out)["players"][0]["planets"]


def test_setup_refuses_names_with_control_characters(capsys):
    code = setup_main(["orbitus", "--names", "Anna,Bo\x1bb", "--seed", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "\x1b" not in err and "holds a control character" in err


def test_satellites_record_names_with_control_characters(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("r.yaml").write_text('game: satellites\nseed: 42\nplayers: {red: "A\\nB", blue: C}\n'
                              "moves: []\n")
    code, out, err = run(replay_main, ["r.yaml"], capsys)
    assert (code, out) == (2, "")
    assert err == ("r.yaml:3: players: 'A\\\\nB' holds a control character; a name is plain "
                   "text on one line\n")


# --- card ids with spaces, line separators in the text ------------------------------------------


def test_a_card_id_with_a_space_is_quoted(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("t.yaml").write_text('players: [Anna, Boris]\nsectors:\n'
                              '  - {at: [0, -1], card: " S44"}\n')
    code, out, _ = run(score_main, ["orbitus", "t.yaml"], capsys)
    assert code == 1
    assert "card ' S44' is not in the deck (cards/orbitus/sectors.yaml), so it was left out " \
           "of the score; did you mean S44?" in out


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_a_line_separator_is_refused_with_its_line(tmp_path, monkeypatch, capsys, separator):
    monkeypatch.chdir(tmp_path)
    grid = (FIXTURES / "satellites" / "contested.txt").read_text(encoding="utf-8").split("\n")
    grid[3] = grid[3].replace(" ", separator, 1)
    Path("b.txt").write_text("\n".join(grid), encoding="utf-8")
    code, out, err = run(score_main, ["satellites", "b.txt"], capsys)
    assert (code, out) == (2, "")
    assert err.startswith("b.txt:4: holds the invisible character U+")
    assert err.endswith("which some programs take for a line break and others do not (so "
                        "line numbers would disagree); delete it\n")
    Path("t.yaml").write_text(LAYOUT.replace("game: orbitus", f"game: orbitus  # {separator}"))
    code, out, err = run(score_main, ["orbitus", "t.yaml"], capsys)
    assert (code, out) == (2, "") and err.startswith("t.yaml:5: holds the invisible character")


def test_split_lines_keeps_separators_inside_lines():
    from cards.safe_text import split_lines

    assert split_lines("a\u2028b\x0cc\r\nd\re\n") == ["a\u2028b\x0cc", "d", "e"]


def test_init_refuses_an_empty_folder_name(tmp_path):
    done = subprocess.run([sys.executable, "-m", "generator", "init", ""], capture_output=True,
                          text=True, cwd=tmp_path, timeout=60)
    assert done.returncode == 2
    assert done.stderr == ("pnp-build init: DIR is empty; give the folder to fill (write . for "
                           "the current folder if you mean it)\n")
    assert list(tmp_path.iterdir()) == []
