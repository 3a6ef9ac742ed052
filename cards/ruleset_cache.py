"""The cache of validated rulesets: definitions folder -> ``Ruleset`` without pydantic.

Importing pydantic and validating costs about 150 ms, too much for a scorer that must
answer at once, so :func:`load_ruleset` keeps the validated ruleset in a cache entry
(:mod:`cards.cache`: the user's cache folder, a header with the tool's mark and a
checksum) named by a hash of every definition file the ruleset comes from and of the code
that validates them. A hit means these exact files passed this exact validation before;
the entry's content is checked again on every read (its checksum, then its shape: every
number within what the definitions allow, every list no longer than theirs), and anything
else (a miss, a damaged, edited, misplaced or stale entry, no cache folder) takes the
validated path again (:func:`cards.definitions.load_definitions`) and writes the entry
anew. The cache is safe to delete at any time.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cards import cache as _cache
from cards.files import definitions_of
from cards.reading import MAX_DEFINITION_BYTES
from rules.orbitus import ruleset as orb
from rules.satellites import ruleset as sat

if TYPE_CHECKING:
    from cards.definitions import OrbitusDefinitions, SatellitesDefinitions

CACHE_FORMAT = 2  # of the ruleset in an entry (the entry's own format: cards.cache.FORMAT)
CACHE_KEEP = 64  # entries kept; older ones are removed when a new one is written
MAX_ENTRY_BYTES = 4_000_000  # a ruleset entry of the shipped Orbitus deck is about 5 kB
# what a ruleset from the cache may hold at most (the definitions' own limits allow far
# less: 300 cards, scores of 1,000 points): a forged entry cannot make a command hang
MAX_NUMBER = 100_000
MAX_ITEMS = 1_000
MAX_TEXT = 200
MAX_DEPTH = 6
_CODE = ("models.py", "definitions.py", "files.py", "loader.py", "reading.py", "ruleset.py",
         "ruleset_cache.py", "cache.py")


def cache_folder() -> Path | None:
    """Where validated rulesets are kept (:func:`cards.cache.cache_folder`)."""
    return _cache.cache_folder()


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


def _kind(game: str) -> str:
    return f"ruleset-{game}"


def _cached(game: str, key: str) -> orb.Ruleset | sat.Ruleset | None:
    """The ruleset the entry of ``key`` holds, or None: a miss, or an entry that fails a
    check (named in one line on stderr)."""
    payload = _cache.read_entry(_kind(game), key, "json", MAX_ENTRY_BYTES)
    if payload is None:
        return None
    why = "its content is not a ruleset of this version"
    try:
        data = json.loads(payload.decode("utf-8"))
        if isinstance(data, dict) and data.get("format") == CACHE_FORMAT \
                and data.get("game") == game and _plausible(data.get("ruleset")):
            found: orb.Ruleset | sat.Ruleset = definitions_of(game).RULESET.from_data(
                data["ruleset"])
            return found
    except RecursionError:
        why = "its content is nested too deeply"
    except Exception:  # noqa: BLE001 - any shape from_data cannot take is a miss
        pass
    folder = cache_folder()
    if folder is not None:
        _cache.note(_cache.entry_path(folder, _kind(game), key, "json"), why)
    return None


def _plausible(data: object, depth: int = 0) -> bool:
    """Whether ``data`` is within what any ruleset the definitions allow can hold: numbers
    of at most :data:`MAX_NUMBER`, lists of at most :data:`MAX_ITEMS`, short texts."""
    if depth > MAX_DEPTH:
        return False
    if isinstance(data, dict):
        return len(data) <= MAX_ITEMS and all(
            isinstance(k, str) and len(k) <= MAX_TEXT and _plausible(v, depth + 1)
            for k, v in data.items())
    if isinstance(data, list):
        return len(data) <= MAX_ITEMS and all(_plausible(v, depth + 1) for v in data)
    if isinstance(data, bool) or data is None:
        return True
    if isinstance(data, int):
        return -MAX_NUMBER <= data <= MAX_NUMBER
    if isinstance(data, float):
        return -MAX_NUMBER <= data <= MAX_NUMBER  # NaN fails both
    return isinstance(data, str) and len(data) <= MAX_TEXT


def _store(game: str, key: str, data: dict[str, Any]) -> None:
    """Write one entry; never fails the caller."""
    payload = json.dumps({"format": CACHE_FORMAT, "game": game, "ruleset": data},
                         separators=(",", ":")).encode("utf-8")
    _cache.write_entry(_kind(game), key, "json", payload, CACHE_KEEP)


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
    key = source.key() if source is not None else None
    if key is not None:
        found = _cached(game, key)
        if found is not None:
            return found
    ruleset: orb.Ruleset | sat.Ruleset = load_definitions(game, folder, deck_file).ruleset
    if key is not None:
        _store(game, key, ruleset.to_data())
    return ruleset


def load_definitions(game: str, folder: Path | None = None,
                     deck_file: Path | None = None) -> OrbitusDefinitions | SatellitesDefinitions:
    """The validated models of ``game`` (the slow, authoritative path: it imports pydantic,
    so it is imported only here, when a cache misses or the models themselves are needed)."""
    defs: OrbitusDefinitions | SatellitesDefinitions = definitions_of(game).load(folder,
                                                                                deck_file)
    return defs
