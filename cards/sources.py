"""Where a version of the definitions comes from, for ``pnp diff OLD NEW`` and
``pnp build --since OLD``: a definitions folder, an earlier build folder, or a git revision.

* A **definitions folder** (with ``orbitus/`` or ``satellites/`` inside) is read as it is.
* An **earlier build folder** (a ``pnp build`` output, with ``.pnp-build.json``) keeps the
  definitions each game was built from in ``<game>/design.json``; they are made a folder
  again (:mod:`cards.snapshot`), so a build can be compared with long after its
  definitions changed.
* Anything else is a **git revision** (``v0.7.1``, ``HEAD~3``, a commit) of the definitions
  folder in use: the folder as it was committed then is read with ``git archive`` into a
  temporary folder. A revision git does not know is refused, naming it.

Every problem is one line (:class:`SourceError`, exit 2 for the commands).
"""

from __future__ import annotations

import io
import json
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import rules
from cards.files import DEFAULT_CARDS

BUILD_MANIFEST = ".pnp-build.json"
DESIGN_FILE = "design.json"
MAX_DESIGN_BYTES = 20_000_000
GIT_TIMEOUT_S = 60


class SourceError(Exception):
    """A version that cannot be read; one line saying why and what would work."""


@dataclass
class Source:
    """One version of the definitions, as a folder to load them from."""

    spec: str  # as the user gave it
    kind: str  # "folder", "build" or "git"
    folder: Path  # the definitions folder (maybe a temporary one)
    label: str  # how messages name it: the folder, "build output/", "v0.7.1 (git)"
    games: tuple[str, ...]  # the games it holds
    _temp: tempfile.TemporaryDirectory[str] | None = field(default=None, repr=False)

    def close(self) -> None:
        if self._temp is not None:
            self._temp.cleanup()
            self._temp = None

    def __enter__(self) -> Source:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def games_in(folder: Path) -> tuple[str, ...]:
    return tuple(g for g in rules.names("cards") if (folder / g).is_dir())


def _shown(path: Path) -> str:
    from cards.loader import display_path

    return display_path(path)


def open_source(spec: str, cards: Path | None = None) -> Source:
    """The version ``spec`` names; ``cards`` is the definitions folder in use (whose git
    repository a revision is looked up in)."""
    path = Path(spec)
    if spec and path.is_dir():
        if (path / BUILD_MANIFEST).is_file() or any(
                (path / g / DESIGN_FILE).is_file() for g in rules.names("cards")):
            return _from_build(spec, path)
        games = games_in(path)
        if not games:
            raise SourceError(f"{spec}: neither a definitions folder (no orbitus/ or "
                              f"satellites/ inside) nor a build folder (no {BUILD_MANIFEST})")
        return Source(spec, "folder", path.resolve(), _shown(path), games)
    if spec and path.exists():
        raise SourceError(f"{spec}: not a folder; give a definitions folder, a build folder "
                          f"or a git revision")
    return _from_git(spec, cards)


def _from_build(spec: str, path: Path) -> Source:
    from cards.snapshot import SnapshotError, materialise

    temp = tempfile.TemporaryDirectory(prefix="pnp-build-design-")
    games = []
    try:
        for game in rules.names("cards"):
            kept = path / game / DESIGN_FILE
            if not kept.is_file():
                continue
            if kept.stat().st_size > MAX_DESIGN_BYTES:
                raise SourceError(f"{_shown(kept)}: too large to be a kept design")
            try:
                data = json.loads(kept.read_text(encoding="utf-8"))
                materialise(data, Path(temp.name))
            except (ValueError, OSError, SnapshotError) as exc:
                raise SourceError(f"{_shown(kept)}: cannot be read as the definitions the "
                                  f"build was made from ({exc})") from None
            games.append(game)
        if not games:
            raise SourceError(f"{spec}: a build folder made before builds kept their "
                              f"definitions (no <game>/{DESIGN_FILE}); compare its "
                              f"definitions folder or a git revision instead")
    except BaseException:
        temp.cleanup()
        raise
    return Source(spec, "build", Path(temp.name), f"the build in {_shown(path)}",
                  tuple(games), temp)


def _git(args: list[str], where: Path) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", "-C", str(where), *args], capture_output=True,
                              timeout=GIT_TIMEOUT_S, check=False)
    except FileNotFoundError:
        raise SourceError("git is not installed, so no git revision can be read; give a "
                          "definitions folder or a build folder") from None
    except subprocess.TimeoutExpired:
        raise SourceError(f"git took more than {GIT_TIMEOUT_S} s; giving up") from None


def _from_git(spec: str, cards: Path | None) -> Source:
    folder = (cards or DEFAULT_CARDS).resolve()
    if not spec.strip() or spec.startswith("-"):
        raise SourceError(f"{spec!r}: not a definitions folder, build folder or git revision")
    top = _git(["rev-parse", "--show-toplevel"], folder)
    if top.returncode != 0:
        raise SourceError(f"{spec}: no such folder, and {_shown(folder)} is not in a git "
                          f"repository, so it is no git revision either")
    root = Path(top.stdout.decode().strip()).resolve()
    found = _git(["rev-parse", "--verify", "--quiet", f"{spec}^{{commit}}"], root)
    if found.returncode != 0:
        raise SourceError(f"{spec}: no such folder, and no revision {spec!r} in the git "
                          f"repository {root} (git tag, git log name them)")
    commit = found.stdout.decode().strip()
    relative = folder.relative_to(root).as_posix() if folder != root else "."
    archive = _git(["archive", "--format=tar", commit, "--", relative], root)
    if archive.returncode != 0:
        said = archive.stderr.decode(errors="replace").strip().splitlines()
        raise SourceError(f"{spec}: {relative} is not in the repository at {spec} "
                          f"({said[0] if said else 'git archive failed'})")
    temp = tempfile.TemporaryDirectory(prefix="pnp-git-")
    try:
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(temp.name, filter="data")
        where = Path(temp.name) / relative
        games = games_in(where)
        if not games:
            raise SourceError(f"{spec}: {relative} at {spec} holds no orbitus/ or satellites/ "
                              f"definitions")
    except BaseException:
        temp.cleanup()
        raise
    return Source(spec, "git", where, f"{spec} (git {commit[:10]})", games, temp)
