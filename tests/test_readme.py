"""The README is a front door: short, its Quick start what CI runs, its links alive, and
nothing in the repository points outside it."""

from __future__ import annotations

import re
import shutil
import subprocess
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
