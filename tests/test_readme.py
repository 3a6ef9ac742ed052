"""The README is a front door: short, its Quick start what CI runs, its links alive, and
nothing in the repository points outside it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
CI = (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def quick_start() -> list[str]:
    section = README.split("## Quick start", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, flags=re.DOTALL)
    assert block is not None, "the Quick start has no sh block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_the_readme_fits_on_a_screen_or_two():
    assert len(README.splitlines()) <= 150


def test_quick_start_builds_the_kit_and_runs_what_ci_runs():
    build, tests = quick_start()
    assert build.endswith("pnp build") and "pip install -q -e ." in build
    assert "python -m pytest" in tests and "ruff check ." in tests
    assert tests in CI, "the Quick start's test command and .ci/run differ"
    assert "mkdocs build --strict" in CI
    install = (ROOT / "docs" / "install.md").read_text(encoding="utf-8")
    development = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    assert build in install and tests in install and tests in development


def test_quick_start_says_how_to_reach_pnp():
    section = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert "`. .venv/bin/activate`" in section and "`.venv/bin/pnp`" in section
    assert "command not found" in section


def readme_commands() -> list[tuple[str, list[str]]]:
    """Every ``pnp ...`` line of the README's sh blocks and every ``$ pnp ...`` line of its
    text blocks, with the output the text block shows after it."""
    found: list[tuple[str, list[str]]] = []
    for kind, body in re.findall(r"```(sh|text)\n(.*?)```", README, flags=re.DOTALL):
        lines = body.splitlines()
        if kind == "sh":
            found += [(line, []) for line in lines if line.startswith("pnp ")]
        elif lines and lines[0].startswith("$ pnp "):
            found.append((lines[0][2:], lines[1:]))
    return found


def _shown(line: str, output: list[str]) -> bool:
    """A line of a README output block is in the real output (``…`` cuts a long line)."""
    if "…" in line:
        return any(out.startswith(line.split("…", 1)[0]) for out in output)
    return line in output


def test_the_readmes_pnp_lines_run_as_written_in_an_activated_environment(tmp_path):
    """Each line as a user types it after ``. .venv/bin/activate`` (in a folder of their own
    where tests/ is the repository's): it runs (exit 0) and prints what the README shows.
    The simulation plays 5 games per player count instead of the README's 1000 (minutes)."""
    commands = readme_commands()
    assert {line.split()[1] for line, _ in commands} >= {"build", "score", "setup", "sim",
                                                       "replay"}
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    activate = Path(sys.executable).parent / "activate"
    assert activate.is_file(), "the tests run from a virtual environment"
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if Path(p).resolve() != Path(sys.executable).parent.resolve())
    if shutil.which("pnp", path=env["PATH"]) is None:  # as the README warns
        missing = subprocess.run(["bash", "-c", "pnp --version"], cwd=tmp_path, env=env,
                                 capture_output=True, text=True, timeout=60, check=False)
        assert missing.returncode == 127 and "command not found" in missing.stderr
    for line, shown in commands:
        typed = re.sub(r"--games \d+", "--games 5", line) if " sim " in f" {line} " else line
        done = subprocess.run(["bash", "-c", f". {activate} && {typed}"], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=600, check=False)
        assert done.returncode in (0, 1) if shown else done.returncode == 0, (line, done.stderr)
        output = done.stdout.splitlines()
        for expected in shown:
            if expected.strip() not in ("", "..."):
                assert _shown(expected, output), (line, expected, done.stdout)
    assert (tmp_path / "kit-ru" / "orbitus" / "sectors.pdf").is_file()
    assert (tmp_path / "game.yaml").read_text(encoding="utf-8").startswith(
        "# Satellites game record")


def test_every_link_of_the_readme_leads_to_a_file_of_the_repository():
    targets = re.findall(r"\]\(([^)\s]+)\)", README) + re.findall(r'src="([^"]+)"', README)
    assert len(targets) >= 20
    for target in targets:
        assert not target.startswith(("/", "http:", "file:")), target
        path = target.split("#", 1)[0]
        assert (ROOT / path).exists(), target
        assert (ROOT / path).resolve().is_relative_to(ROOT), target
    for page in ("docs/index.md", "docs/rules/orbitus.md", "docs/rules/satellites.md",
                 "docs/engines.md", "docs/score-orbitus.md", "docs/json.md"):
        assert f"]({page})" in README, page


def test_every_docs_page_is_in_the_manual():
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in (ROOT / "docs").rglob("*.md"):
        assert page.relative_to(ROOT / "docs").as_posix() in nav, page


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                    reason="not a git checkout")
def test_nothing_in_the_repository_points_outside_it():
    outside = "|".join((r"\.\./" + "shared", "/" + "work" + "/"))
    found = subprocess.run(["git", "grep", "-n", "-E", outside, "--", ".", ":!.ci"], cwd=ROOT,
                           capture_output=True, text=True, check=False)
    assert found.returncode == 1, found.stdout  # 1: no line matches


def test_the_quick_start_build_finds_an_output_folder_it_may_write() -> None:
    """The Quick start's ``pnp build`` writes into ``output/`` of a fresh clone: that folder
    holds nothing of the repository's (a file there is one the tool did not write, and
    ``pnp build`` rightly refuses such a folder)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    tracked = subprocess.run(["git", "ls-files", "output"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.split()
    assert tracked == []
