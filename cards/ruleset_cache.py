"""The cache of validated rulesets: definitions folder -> ``Ruleset`` without pydantic.

Importing pydantic and validating costs about 150 ms, too much for a scorer that must
answer at once, so :func:`load_ruleset` keeps the validated ruleset in a cache: a JSON
file in the user's cache folder (``$PNP_CACHE_DIR``, else ``$XDG_CACHE_HOME/orbitus-pnp``,
else ``~/.cache/orbitus-pnp``) named by a hash of every definition file the ruleset comes
from and of the code that validates them. A hit means these exact files passed this exact
validation before; anything else (a miss, an unreadable or stale entry, no cache folder)
takes the validated path again (:func:`cards.definitions.load_definitions`). The cache is
safe to delete at any time.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import rules
from cards.files import definitions_of
from cards.reading import MAX_DEFINITION_BYTES
from rules.orbitus import ruleset as orb
from rules.satellites import ruleset as sat

if TYPE_CHECKING:
    from cards.definitions import OrbitusDefinitions, SatellitesDefinitions

CACHE_FORMAT = 1
CACHE_KEEP = 64  # entries kept; older ones are removed when a new one is written
_CODE = ("models.py", "definitions.py", "files.py", "loader.py", "reading.py", "ruleset.py",
         "ruleset_cache.py")


def cache_folder() -> Path | None:
    """Where validated rulesets are kept, or None when there is no usable place."""
    given = os.environ.get("PNP_CACHE_DIR")
    if given:
        return Path(given)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg) / "orbitus-pnp"
    try:
        return Path.home() / ".cache" / "orbitus-pnp"
    except (RuntimeError, KeyError):  # no home folder known
        return None


@dataclass(frozen=True)
class Source:
    """The definition files one ruleset is made of, role -> path, and their bytes."""

    game: str
    files: dict[str, Path]
    contents: dict[str, bytes]

    def key(self) -> str:
        digest = hashlib.sha256(f"{CACHE_FORMAT}:{self.game}".encode())
        here = Path(__file__).resolve().parent
        for name in _CODE:
            digest.update((here / name).read_bytes())
        for role in sorted(self.contents):
            digest.update(f"\0{role}\0{len(self.contents[role])}\0".encode())
            digest.update(self.contents[role])
        return digest.hexdigest()[:40]


def _read_all(game: str, files: dict[str, Path], root: Path) -> Source | None:
    """The bytes of every file, or None when one cannot be read as plainly as the validated
    path would read it (that path then reports the problem): not a regular file, too large,
    or a link that leads out of the folder it was found in."""
    from cards.reading import UnreadableInput, read_bytes_safely

    contents: dict[str, bytes] = {}
    optional = definitions_of(game).OPTIONAL
    for role, path in files.items():
        home = root if path.parent == root / game else path.parent.resolve()
        if role in optional and not path.exists() and not path.is_symlink():
            contents[role] = b"\0missing"  # an optional file that is not there
            continue
        try:
            contents[role] = read_bytes_safely(path, "", MAX_DEFINITION_BYTES, folder=home)
        except UnreadableInput:
            return None
    return Source(game, files, contents)


def _cached(folder: Path, key: str, game: str) -> dict[str, Any] | None:
    try:
        with (folder / f"{game}-{key}.json").open(encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT \
            or not isinstance(data.get("ruleset"), dict):
        return None
    found: dict[str, Any] = data["ruleset"]
    return found


def _store(folder: Path, key: str, game: str, data: dict[str, Any]) -> None:
    store_entry(folder, f"{game}-{key}", {"format": CACHE_FORMAT, "game": game, "ruleset": data},
                lambda p: p.name.split("-")[0] in rules.names("cards"))


def store_entry(folder: Path, stem: str, payload: dict[str, Any],
                family: Callable[[Path], bool]) -> None:
    """Write one cache entry ``stem.json`` (through a temporary file and a rename) and keep
    only the :data:`CACHE_KEEP` newest entries of its ``family``; never fails the caller."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"{stem}.json"
        temp = folder / f".{stem}.{os.getpid()}.tmp"
        temp.write_text(json.dumps(payload, separators=(",", ":")), encoding="utf-8")
        os.replace(temp, target)
        entries = sorted((p for p in folder.glob("*-*.json") if family(p)),
                         key=lambda p: p.stat().st_mtime)
        for old in entries[:-CACHE_KEEP]:
            old.unlink(missing_ok=True)
    except OSError:
        pass


def load_ruleset(game: str, folder: Path | None = None,
                 deck_file: Path | None = None) -> orb.Ruleset | sat.Ruleset:
    """The validated ruleset of ``game`` from a definitions folder (default: the shipped
    ``cards/``); for Orbitus, ``deck_file`` is a deck a layout or record names, whose own
    folder supplies the other files it holds.

    Raises :class:`cards.loader.DefinitionError` (or ``UnreadableInput``) with one line per
    problem, exactly as the validated path reports them.
    """
    from cards.files import DEFAULT_CARDS, game_files

    root = (folder or DEFAULT_CARDS).resolve()
    files = game_files(game, root, deck_file)
    source = _read_all(game, files, root)
    where = cache_folder() if source is not None else None
    key = source.key() if source is not None else ""
    if where is not None:
        data = _cached(where, key, game)
        if data is not None:
            try:
                return definitions_of(game).RULESET.from_data(data)  # type: ignore[no-any-return]
            except (KeyError, TypeError, ValueError):
                pass  # an entry of another shape: validate again and replace it
    ruleset: orb.Ruleset | sat.Ruleset = load_definitions(game, folder, deck_file).ruleset
    if where is not None:
        _store(where, key, game, ruleset.to_data())
    return ruleset


def load_definitions(game: str, folder: Path | None = None,
                     deck_file: Path | None = None) -> OrbitusDefinitions | SatellitesDefinitions:
    """The validated models of ``game`` (the slow, authoritative path: it imports pydantic,
    so it is imported only here, when a cache misses or the models themselves are needed)."""
    defs: OrbitusDefinitions | SatellitesDefinitions = definitions_of(game).load(folder,
                                                                                deck_file)
    return defs
