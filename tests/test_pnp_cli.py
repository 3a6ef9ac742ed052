"""``pnp``: one front door with a subcommand per job, the old command names kept."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from pnp.cli import complete, main

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
TABLE = ROOT / "tests" / "fixtures" / "orbitus" / "two-players.yaml"


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / args[0]), *args[1:]], capture_output=True, text=True,
                          timeout=120, check=False, env=env)


def test_help_lists_every_subcommand(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in ("build", "score", "setup", "replay", "completion"):
        assert f"\n  {name} " in out
    assert main([]) == 2


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"pnp {version('orbitus-pnp')}\n"


def test_unknown_command_is_misuse_with_a_hint(capsys):
    assert main(["scor", "orbitus"]) == 2
    assert capsys.readouterr().err == ("pnp: unknown command 'scor'; did you mean score? "
                                       "(see pnp --help)\n")


@pytest.mark.parametrize("old", ["pnp-build", "pnp-score", "pnp-setup", "pnp-replay"])
def test_every_old_command_name_still_works(old):
    done = run(old, "--help")
    assert done.returncode == 0 and done.stdout.strip()


def test_a_subcommand_says_what_the_old_command_says(tmp_path):
    new = run("pnp", "score", "orbitus", str(TABLE), "--json")
    old = run("pnp-score", "orbitus", str(TABLE), "--json")
    assert new.returncode == old.returncode == 0 and new.stdout == old.stdout
    missing = run("pnp", "score", "orbitus", "nope.yaml")
    assert missing.returncode == 2 and missing.stderr.startswith("nope.yaml: ")
    deal = run("pnp", "setup", "orbitus", "--players", "2", "--seed", "5")
    assert deal.returncode == 0
    assert "(pnp setup orbitus --players 2 --seed 5)" in deal.stdout.splitlines()[0]


def test_build_takes_the_game_first_as_the_other_commands_do(tmp_path):
    done = run("pnp", "build", "satellites", "-q", "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "satellites" / "board.pdf").exists()
    assert not (tmp_path / "out" / "orbitus").exists()


def test_scoring_through_pnp_stays_lean(tmp_path):
    env = {**os.environ, "PNP_CACHE_DIR": str(tmp_path / "cache")}
    code = (
        "import sys, io, contextlib\n"
        "from pnp.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    code = main(['score', 'orbitus', {str(TABLE)!r}])\n"
        "heavy = ('pydantic', 'reportlab', 'svgwrite', 'pypdfium2', 'PIL', 'typer', "
        "'generator', 'click', 'rich')\n"
        "print(code, sorted({m.split('.')[0] for m in sys.modules} & set(heavy)))\n"
    )
    for _ in range(2):  # the first run fills the ruleset cache
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             cwd=ROOT, check=True, env=env).stdout
    assert out.strip() == "0 []"


def test_completion_words():
    assert {"--help", "--version", "build", "completion", "replay", "score", "setup"} <= \
        set(complete([""]))
    assert complete(["sc"]) == ["score"]
    assert complete(["score", ""]) == ["orbitus", "satellites"]
    assert "--json" in complete(["score", "orbitus", "--j"])
    assert "--cards" in complete(["replay", "--c"])
    assert {"--page", "--png"} <= set(complete(["build", "--p"]))
    assert "--force" in complete(["build", "init", "--"])
    assert complete(["completion", ""]) == ["bash", "zsh", "fish"]
    assert complete(["score", "orbitus", "--svg", ""]) == []  # a file: the shell's job


def test_bash_completion_in_a_real_shell():
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash here")
    script = run("pnp", "completion", "bash").stdout
    line = ('source /dev/stdin; COMP_WORDS=(pnp score or); COMP_CWORD=2; _pnp_complete; '
            'echo "${COMPREPLY[@]}"')
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run([bash, "-c", line], input=script, capture_output=True, text=True,
                          timeout=60, check=True, env=env)
    assert done.stdout.strip() == "orbitus"


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_other_shells_get_a_script_that_parses(shell):
    done = run("pnp", "completion", shell)
    assert done.returncode == 0 and "pnp __complete" in done.stdout
    found = shutil.which(shell)
    if found is not None:
        checked = subprocess.run([found, "-n"], input=done.stdout, capture_output=True,
                                 text=True, timeout=60, check=False)
        assert checked.returncode == 0, checked.stderr
    assert run("pnp", "completion", "tcsh").returncode == 2


def _options(*words: str) -> set[str]:
    return set(complete([*words, "-"]))


def test_every_subcommand_that_reports_a_result_has_json():
    for words in (("build",), ("score", "orbitus"), ("score", "satellites"),
                  ("setup", "orbitus"), ("setup", "satellites"), ("replay",)):
        assert "--json" in _options(*words), words


def test_the_same_option_means_the_same_everywhere():
    for words in (("build",), ("score", "orbitus"), ("score", "satellites"),
                  ("setup", "orbitus"), ("setup", "satellites"), ("replay",)):
        assert "--cards" in _options(*words), words
    for words in (("score", "orbitus"), ("score", "satellites"), ("setup", "orbitus"),
                  ("setup", "satellites"), ("replay",)):
        assert {"--svg", "--png"} <= _options(*words), words
        helptext = run("pnp", *words, "--help").stdout
        assert "--svg FILE" in helptext and "--png FILE" in helptext
        assert "--cards DIR" in helptext
    for words in (("setup", "orbitus"), ("setup", "satellites")):
        assert "--seed" in _options(*words)


def test_setup_satellites_json(capsys):
    assert main(["setup", "satellites", "--seed", "42", "--json"]) == 0
    import json

    deal = json.loads(capsys.readouterr().out)
    assert deal["seed"] == 42 and deal["size"] == 10 and deal["first"] == "red"
    assert len(deal["board"]) == 10 and all(len(row.split()) == 10 for row in deal["board"])
    assert [len(deal["satellites"][c]) for c in ("red", "blue")] == [12, 12]
    assert main(["setup", "satellites", "--seed", "42", "--json", "--record"]) == 2


def test_build_json_lists_what_was_written(tmp_path, capsys):
    import json

    assert main(["build", "satellites", "-q", "--out", str(tmp_path / "out")]) == 0
    (tmp_path / "out" / "mine.txt").write_text("keep me", encoding="utf-8")
    assert main(["build", "satellites", "--json", "--out", str(tmp_path / "out")]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == ["satellites"] and report["user_files_kept"] == 1
    assert report["files"]["satellites/board.pdf"] == \
        (tmp_path / "out" / "satellites" / "board.pdf").stat().st_size
    assert main(["build", "--json", "--watch"]) == 2
