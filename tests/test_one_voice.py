"""Every command speaks with one voice, tried as a new user would: the installed commands in
a subprocess, the exact message and the exit code (issue 19 point 8, issue 26 point 8)."""

from __future__ import annotations

import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
TABLE = ROOT / "tests" / "fixtures" / "orbitus" / "two-players.yaml"
BREAKS_A_RULE = "players: [Anna, Boris]\nsectors:\n  - {at: [0, -1], routes: [S, N], pirate: yes}\n"
RECORD = "game: orbitus\nplayers: [Anna, Boris]\nseed: 42\nmoves: []\n"


def pnp(*args: str, cwd: Path | None = None, **kw) -> subprocess.CompletedProcess[str]:
    """``pnp ARGS`` (or an old name: ``pnp("-score", ...)`` runs ``pnp-score``)."""
    name = "pnp" + args[0] if args and args[0].startswith("-") and args[0][1:] in (
        "build", "score", "setup", "replay", "sim", "web") else None
    command = [str(BIN / name), *args[1:]] if name else [str(BIN / "pnp"), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, check=False,
                          cwd=cwd, **kw)


# --- misuse: one line on stderr and a pointer to --help, exit 2 -------------------------------


@pytest.mark.parametrize(("args", "line"), [
    (["score"], "pnp score: name the game: pnp score orbitus|satellites ... "
                "(see pnp score --help)"),
    (["setup"], "pnp setup: name the game: pnp setup orbitus|satellites ... "
                "(see pnp setup --help)"),
    ([], "pnp: name a command: build, score, setup, replay, sim, web, diff, playtest, sheet, "
         "completion (see pnp --help)"),
    (["build", "--pgae", "a4"], "pnp build: unrecognized arguments: --pgae a4; did you mean "
                                "--page? (see pnp build --help)"),
    (["build", "--page", "a5"], "pnp build: --page: invalid choice: 'a5' (choose from 'a4', "
                                "'letter') (see pnp build --help)"),
    (["build", "--gutter", "30"], "pnp build: --gutter: 30 is out of range (0 to 20 mm) "
                                  "(see pnp build --help)"),
    (["build", "init"], "pnp build init: the following arguments are required: DIR "
                        "(see pnp build init --help)"),
    (["build", "orbitu"], "pnp build: 'orbitu' is neither a game (orbitus, satellites, both) "
                          "nor init; did you mean orbitus? (see pnp build --help)"),
    (["score", "orbitus", str(TABLE), "--jsn"],
     "pnp score orbitus: unrecognized arguments: --jsn; did you mean --json? "
     "(see pnp score orbitus --help)"),
    (["score", "satelites", "b.txt"], "pnp score: unknown game 'satelites'; choose orbitus or "
                                      "satellites; did you mean satellites? "
                                      "(see pnp score --help)"),
    (["setup", "satellites", "--seed", "x"], "pnp setup satellites: --seed: 'x' is not a whole "
                                             "number (see pnp setup satellites --help)"),
    (["replay"], "pnp replay: the following arguments are required: FILE "
                 "(see pnp replay --help)"),
    (["sim", "orbitus", "--gmes", "3"], "pnp sim: unrecognized arguments: --gmes 3; did you "
                                        "mean --games? (see pnp sim --help)"),
    (["web", "--prot", "80"], "pnp web: unrecognized arguments: --prot 80; did you mean "
                              "--port? (see pnp web --help)"),
    (["completion", "tcsh"], "pnp completion: 'tcsh' is not a shell I know; name your shell: "
                             "pnp completion bash, zsh or fish (see pnp completion --help)"),
    (["scor"], "pnp: unknown command 'scor'; did you mean score? (see pnp --help)"),
])
def test_misuse_is_one_line_on_stderr_and_exit_2(args, line):
    done = pnp(*args)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", line + "\n")


def test_the_old_names_name_themselves():
    done = pnp("-build", "--pgae", "a4")
    assert (done.returncode, done.stderr) == (2, "pnp-build: unrecognized arguments: --pgae a4; "
                                                 "did you mean --page? (see pnp-build --help)\n")
    done = pnp("-score")
    assert (done.returncode, done.stderr) == (2, "pnp-score: name the game: pnp-score "
                                                 "orbitus|satellites ... (see pnp-score --help)\n")


@pytest.mark.parametrize("args", [
    ["--help"], ["build", "--help"], ["build", "init", "--help"], ["score", "--help"],
    ["score", "orbitus", "--help"], ["setup", "satellites", "--help"], ["replay", "--help"],
    ["sim", "--help"], ["sim", "orbitus", "--help"], ["web", "--help"],
    ["completion", "--help"],
])
def test_help_exits_0_on_stdout_naming_the_command_as_run(args):
    done = pnp(*args)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert done.stdout.startswith(f"usage: pnp {' '.join(a for a in args[:2] if a != '--help')}"
                                  .rstrip())
    assert "pnp-" not in done.stdout.replace("pnp-build.json", "").replace(
        "pnp-web.sqlite3", "") or args == ["--help"]  # pnp --help lists the old names


def test_completion_help_says_how_to_install_it():
    done = pnp("completion", "--help")
    assert done.returncode == 0
    assert "pnp completion bash > ~/.local/share/bash-completion/completions/pnp" in done.stdout


def test_pnp_build_help_explains_what_it_did_before():
    text = " ".join(pnp("build", "--help").stdout.split())
    for words in ("orbitus/sectors.pdf", "calibration.pdf", "<game>/tts/", "pnp build init DIR",
                  "--page {a4,letter}", "(default: a4)", "--out DIR", "(default: output)",
                  "--cards DIR", "--game {orbitus,satellites,both}", "(default: both)",
                  "--lang LANG", "Default: en.", "--no-bleed", "--gutter MM", "Default 0",
                  "--fit", "--back-offset X,Y", "(default: 0,0)", "--svg-text {font,outline}",
                  "Default: font.", "--png", "--dpi DPI", "30 to 1200", "--tts", "--watch",
                  "-q, --quiet", "--json", "-h, --help", "exit codes:",
                  "0 built (or --watch stopped with Ctrl-C)", "1 a definition is wrong",
                  "OUT/.pnp-build.json", 'Print PDFs at 100 % (no "fit to page").'):
        assert words in text, words
    init = pnp("build", "init", "--help").stdout
    assert "--force" in init and "DIR" in init and "exit codes: 0 copied; 1 DIR" in init


# --- the same broken definitions folder: the same code from every command ---------------------


def _commands(cards: Path, tmp: Path) -> dict[str, tuple[list[str], str]]:
    (tmp / "game.yaml").write_text(RECORD, encoding="utf-8")
    return {
        "build": (["build", "--cards", str(cards), "--out", str(tmp / "kit"), "-q"],
                  "nothing was written"),
        "score": (["score", "orbitus", str(TABLE), "--cards", str(cards)],
                  "nothing was scored"),
        "setup": (["setup", "orbitus", "--players", "2", "--seed", "1", "--cards", str(cards)],
                  "nothing was dealt"),
        "replay": (["replay", str(tmp / "game.yaml"), "--cards", str(cards)],
                   "nothing was replayed"),
        "sim": (["sim", "orbitus", "--cards", str(cards), "--games", "1", "--out",
                 str(tmp / "sim")], "nothing was simulated"),
        "web": (["web", "--cards", str(cards), "--no-browser", "--port", "0", "--data",
                 str(tmp / "data")], "the server was not started"),
    }


@pytest.mark.parametrize(("old", "new", "problem", "code"), [
    ("hand_size: 4", "\thand_size: 4",
     "orbitus/rules.yaml:4:1: a tab character; YAML indents with spaces only (replace the tab "
     "with spaces)", 2),
    ("hand_size: 4", "hand_sise: 4",
     "orbitus/rules.yaml:4: hand_sise: unknown field 'hand_sise' (known fields: version, "
     "hand_size, min_hand, start_lines, scoring, tune); did you mean 'hand_size'?", 1),
])
def test_a_broken_definitions_folder_gets_the_same_code_from_every_command(
        cards_copy, tmp_path, old, new, problem, code):
    rules_file = cards_copy / "orbitus" / "rules.yaml"
    text = rules_file.read_text(encoding="utf-8")
    assert old in text
    rules_file.write_text(text.replace(old, new), encoding="utf-8")
    for name, (args, stopped) in _commands(Path("cards"), tmp_path).items():
        done = pnp(*args, cwd=tmp_path)
        lines = done.stderr.splitlines()
        assert (done.returncode, done.stdout) == (code, ""), (name, done.stderr)
        assert lines[0] == f"cards/{problem}" or lines[:1] == [f"cards/{problem}"], (name, lines)
        assert lines[-1] == f"pnp {name}{' orbitus' if name in ('score', 'setup') else ''}: " \
                            f"{len(lines) - 1} problem(s) in the definitions; {stopped}", lines
    assert not (tmp_path / "kit").exists() and not (tmp_path / "sim").exists()


def test_a_tab_in_a_layout_or_a_record_is_named(tmp_path):
    (tmp_path / "t.yaml").write_text("players: [A, B]\nsectors:\n\t- {at: [0, -1], card: S07}\n",
                                     encoding="utf-8")
    done = pnp("score", "orbitus", "t.yaml", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", "t.yaml:3:1: a tab character; YAML indents with spaces only (replace the tab "
               "with spaces)\n")
    (tmp_path / "r.yaml").write_text("game: orbitus\nplayers: [A, B]\nseed: 1\nmoves:\n"
                                     "  - pass\n  -\tpass\n  \t- pass\n", encoding="utf-8")
    done = pnp("replay", "r.yaml", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("r.yaml:6:4: a tab character; YAML indents with spaces only "
                           "(replace the tab with spaces)\n")


# --- everything printed is terminal-safe ------------------------------------------------------


ESCAPE = "\x1b[31mred\x1b]0;pwned\x07"


def test_a_photo_name_with_escape_sequences_and_a_forged_line(tmp_path):
    pytest.importorskip("cv2")
    name = f"{ESCAPE}\nWinner: Boris wins with 99 point(s).jpg"
    (tmp_path / name).write_bytes(b"not a photo")
    done = pnp("score", "orbitus", "--photo", name, "--players", "2", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert "\x1b" not in done.stderr and "\x07" not in done.stderr
    assert done.stderr.count("\n") == 1 and not any(
        line.startswith("Winner") for line in done.stderr.splitlines())
    assert done.stderr.startswith("pnp score orbitus: \\x1b[31mred\\x1b]0;pwned\\x07\\nWinner: "
                                  "Boris wins with 99 point(s).jpg: ")


def test_colour_codes_in_a_cards_path(tmp_path, cards_copy):
    folder = tmp_path / ESCAPE
    shutil.copytree(cards_copy, folder)
    done = pnp("setup", "orbitus", "--players", "2", "--seed", "5", "--cards", ESCAPE,
               cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout
    assert done.stdout.splitlines()[0].endswith(
        "(pnp setup orbitus --players 2 --seed 5 --cards \\x1b[31mred\\x1b]0;pwned\\x07)")
    for args in (["build", "--cards", ESCAPE + "x"],
                 ["score", "satellites", "b.txt", "--cards", ESCAPE + "x"],
                 ["sim", "orbitus", "--cards", ESCAPE + "x"]):
        done = pnp(*args, cwd=tmp_path)
        assert done.returncode == 2 and "\x1b" not in done.stderr, done.stderr
        assert "\\x1b[31mred\\x1b]0;pwned\\x07x" in done.stderr
        assert done.stderr.count("\n") == 1


# --- a stdout that is full or closed ----------------------------------------------------------


def test_a_full_stdout_is_one_line_and_exit_2():
    for args, prog in ((["score", "orbitus", str(TABLE)], "pnp score orbitus"),
                       (["score", "orbitus", str(TABLE), "--json"], "pnp score orbitus"),
                       (["setup", "satellites", "--seed", "1"], "pnp setup satellites"),
                       (["build", "--help"], "pnp build"), (["--help"], "pnp"),
                       (["--version"], "pnp")):
        with open("/dev/full", "w") as full:
            done = subprocess.run([str(BIN / "pnp"), *args], stdout=full, stderr=subprocess.PIPE,
                                  text=True, timeout=120, check=False)
        assert (done.returncode, done.stderr) == (
            2, f"{prog}: cannot write to standard output: No space left on device\n"), args


def test_a_closed_stdout_ends_quietly_with_the_commands_own_code(tmp_path):
    broken = tmp_path / "t.yaml"
    broken.write_text(BREAKS_A_RULE, encoding="utf-8")
    for args, code in ((["score", "orbitus", str(TABLE)], 0),
                       (["score", "orbitus", str(broken)], 1),
                       (["build", "--help"], 0), (["completion", "bash"], 0)):
        read, write = os.pipe()
        os.close(read)  # the reader has gone before anything is written (| head -c0)
        try:
            done = subprocess.run([str(BIN / "pnp"), *args], stdout=write,
                                  stderr=subprocess.PIPE, text=True, timeout=120, check=False)
        finally:
            os.close(write)
        assert (done.returncode, done.stderr) == (code, ""), args


def test_a_stdout_closed_before_the_command_starts_ends_quietly_too(tmp_path):
    # `pnp score ... >&-`: no file descriptor 1 at all, so Python has no sys.stdout
    broken = tmp_path / "t.yaml"
    broken.write_text(BREAKS_A_RULE, encoding="utf-8")
    for args, code in ((["score", "orbitus", str(TABLE)], 0),
                       (["score", "orbitus", str(broken), "--json"], 1),
                       (["setup", "satellites", "--seed", "1"], 0),
                       (["sim", "satellites", "--games", "2", "--out", str(tmp_path / "run")], 0),
                       (["build", "--help"], 0)):
        done = subprocess.run(["sh", "-c", 'exec "$0" "$@" >&-', str(BIN / "pnp"), *args],
                              stderr=subprocess.PIPE, text=True, timeout=120, check=False)
        assert (done.returncode, done.stderr) == (code, ""), args


def test_head_c1_reads_one_byte_and_the_command_exits_with_its_code(tmp_path):
    broken = tmp_path / "t.yaml"
    broken.write_text(BREAKS_A_RULE, encoding="utf-8")
    done = subprocess.run(["bash", "-c", f'"{BIN}/pnp" score orbitus "{broken}" | head -c1;'
                                         ' echo " ${PIPESTATUS[0]}"'],
                          capture_output=True, text=True, timeout=120, check=False)
    assert (done.stdout, done.stderr) == ("O 1\n", "")


# --- --watch notices a deleted output folder at once ------------------------------------------


def test_watch_builds_a_deleted_output_folder_again_at_once(cards_copy, tmp_path):
    out = tmp_path / "kit"
    child = subprocess.Popen([str(BIN / "pnp"), "build", "satellites", "--watch", "--cards",
                              str(cards_copy), "--out", str(out)], stderr=subprocess.PIPE,
                             text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines: list[str] = []
    arrived: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [arrived.put(line) for line in child.stderr],
                     daemon=True).start()

    def wait_for(text: str) -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                line = arrived.get(timeout=1)
            except queue.Empty:
                continue
            lines.append(line)
            if text in line:
                return
        raise AssertionError(f"no {text!r} in {lines}")

    try:
        wait_for("watching ")
        assert (out / "satellites" / "board.pdf").is_file()
        shutil.rmtree(out)
        wait_for("was deleted; building it again")
        wait_for("rebuilt satellites")
        wait_for("calibration.pdf (it was missing)")
        assert (out / "satellites" / "board.pdf").is_file()
        assert (out / "calibration.pdf").is_file()
        (out / "satellites" / "board.pdf").unlink()
        wait_for("1 file(s) deleted from")
        wait_for("rebuilt satellites")
        assert (out / "satellites" / "board.pdf").is_file()
        child.send_signal(signal.SIGINT)
        wait_for("stopped watching")
        assert child.wait(timeout=120) == 0
    finally:
        if child.poll() is None:
            child.kill()
    assert not any("Traceback" in line for line in lines)
    assert f"{out} was deleted; building it again\n" in lines


# --- one framework, the game lists from the rules registry ------------------------------------


def test_no_command_imports_typer_or_a_global_name():
    import sim.cli

    assert not hasattr(sim.cli, "PROG")
    for module in ("generator.cli", "pnp.cli", "pnp.common", "scorer.cli", "sim.cli",
                   "records.setup_cli", "records.replay_cli", "web.cli"):
        source = (ROOT / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8")
        assert "typer" not in source and "global " not in source, module
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert "typer" not in pyproject


def test_a_command_raising_a_type_error_runs_once(monkeypatch, capsys):
    import pnp.cli
    import scorer.cli

    calls = []

    def broken(args, prog):
        calls.append(args)
        raise TypeError("a bug inside the command")

    monkeypatch.setattr(scorer.cli, "main", broken)
    with pytest.raises(TypeError):
        pnp.cli.run_command("score", ["orbitus"], "pnp score")
    assert len(calls) == 1
    assert pnp.cli.main(["score", "orbitus"]) == 2
    assert len(calls) == 2
    assert capsys.readouterr().err.startswith("pnp: internal error (TypeError: a bug inside")


@pytest.fixture
def heaps_registered():
    from testkit import heaps

    heaps.register()
    yield
    heaps.unregister()


def test_the_game_lists_come_from_the_rules_registry(heaps_registered, capsys):
    """A third game (testkit's Heaps: rules, setup, records, simulator; no printables, no
    scorer) appears in the command lines of the layers it has, and only there."""
    from generator.cli import build_parser
    from pnp.cli import complete, main
    from sim.cli import build_parser as sim_parser

    game = next(a for a in build_parser("pnp build")._actions if "--game" in a.option_strings)
    assert list(game.choices) == ["orbitus", "satellites", "both"]
    assert list(sim_parser("pnp sim")._subparsers._group_actions[0].choices) == \
        ["orbitus", "satellites", "heaps", "compare", "ladder", "tune"]
    assert complete(["score", ""]) == ["orbitus", "satellites"]
    assert complete(["setup", ""]) == ["heaps", "orbitus", "satellites"]
    assert "heaps" not in complete(["build", ""])
    assert main(["score", "heaps", "x.txt"]) == 2
    assert capsys.readouterr().err == ("pnp score: unknown game 'heaps'; choose orbitus or "
                                       "satellites (see pnp score --help)\n")
    assert main(["build", "heaps"]) == 2
    assert capsys.readouterr().err == ("pnp build: 'heaps' is neither a game (orbitus, "
                                       "satellites, both) nor init (see pnp build --help)\n")
