"""The user's cache folder and the entries in it: each checked on every read, never trusted,
never fatal (standard library only).

The tools keep work they can do again in one folder (``$PNP_CACHE_DIR``, else
``$XDG_CACHE_HOME/orbitus-pnp``, else ``~/.cache/orbitus-pnp``): validated rulesets
(:mod:`cards.ruleset_cache`), the rendered faces the photo reader compares with
(:mod:`photo.art`). Every entry is one file, ``KIND-KEY.SUFFIX``, that starts with a header
line of its own::

    orbitus-pnp cache entry 2 ruleset-orbitus 3f2a... 1834 9c1e...

(the mark, the format, the kind, the key, the payload's length and a SHA-256 of the
format, kind, key and payload together), then the payload. :func:`read_entry` gives the
payload back only when every part holds: the file is a regular file of at most the size
its kind allows, the header is this format's, the entry is the one asked for (an entry
copied to another entry's name fails: the key is in the checksum) and the checksum
matches. Anything else is a miss; an entry that exists but fails is named in one line on
stderr (``FILE: note: ...; not used, made again``) and the caller makes it again, which
replaces it. The checksum finds damage, edits, truncation and mix-ups, not a deliberate
forgery by someone who can write into the folder (they could change the code as well).

Eviction (:func:`write_entry` keeps the newest entries of each kind) removes only files
that carry the mark: a folder of the user's given as ``PNP_CACHE_DIR`` loses nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import time
from pathlib import Path

MARK = b"orbitus-pnp cache entry"
FORMAT = 2
MAX_HEADER = 512
STALE_TEMP_SECONDS = 600.0  # a temporary entry older than this was left by a killed write


def cache_folder() -> Path | None:
    """Where the tools keep their cache, or None when there is no usable place."""
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


def entry_path(folder: Path, kind: str, key: str, suffix: str) -> Path:
    return folder / f"{kind}-{key}.{suffix}"


def _digest(kind: str, key: str, payload: bytes) -> str:
    digest = hashlib.sha256(f"{FORMAT}\0{kind}\0{key}\0{len(payload)}\0".encode())
    digest.update(payload)
    return digest.hexdigest()


def _header(kind: str, key: str, payload: bytes) -> bytes:
    return (MARK + f" {FORMAT} {kind} {key} {len(payload)} {_digest(kind, key, payload)}\n"
            .encode("ascii"))


def note(path: Path, why: str) -> None:
    """The one line said about an entry that exists but is not used."""
    from cards.safe_text import printable

    line = f"{printable(str(path))}: note: {why}; not used, made again\n"
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.write(line)
        sys.stderr.flush()


def read_entry(kind: str, key: str, suffix: str, max_bytes: int,
               folder: Path | None = None) -> bytes | None:
    """The payload of the entry ``kind``/``key``, or None (a miss). An entry that is there
    but fails a check gets one line on stderr (:func:`note`)."""
    from cards.reading import UnreadableInput, read_bytes_safely

    folder = cache_folder() if folder is None else folder
    if folder is None:
        return None
    path = entry_path(folder, kind, key, suffix)
    if not os.path.lexists(path):
        return None
    try:
        data = read_bytes_safely(path, "a cache entry", max_bytes + MAX_HEADER)
    except UnreadableInput as exc:
        note(path, exc.problems[0].removeprefix(f"{path}: ").split("; expected")[0]
             .split("; is this")[0])
        return None
    why = check(data, kind, key)
    if why is not None:
        note(path, why)
        return None
    return data[data.index(b"\n") + 1:]


def check(data: bytes, kind: str, key: str) -> str | None:
    """Why the bytes of an entry are not the entry ``kind``/``key`` (or None: they are)."""
    end = data.find(b"\n", 0, MAX_HEADER)
    if not data.startswith(MARK) or end < 0:
        return "not a cache entry of this tool (no header)"
    try:
        fields = data[len(MARK):end].decode("ascii").split()
    except UnicodeDecodeError:
        return "a damaged header"
    if len(fields) != 5:
        return "a damaged header"
    form, got_kind, got_key, length, digest = fields
    if form != str(FORMAT):
        return f"an entry of another format ({form[:10]}; this version reads {FORMAT})"
    if (got_kind, got_key) != (kind, key):
        return "the entry of other definitions (its key is not its name's)"
    payload = data[end + 1:]
    if not length.isdigit() or int(length[:20]) != len(payload):
        return "cut short or grown (its length is not the header's)"
    if digest != _digest(kind, key, payload):
        return "damaged (its checksum does not match its content)"
    return None


def write_entry(kind: str, key: str, suffix: str, payload: bytes, keep: int,
                folder: Path | None = None) -> None:
    """Write the entry (a temporary file, then a rename) and keep only the ``keep`` newest
    entries of ``kind``; never fails the caller (a cache that cannot be written is only
    slower)."""
    folder = cache_folder() if folder is None else folder
    if folder is None:
        return
    target = entry_path(folder, kind, key, suffix)
    temp = folder / f".{target.name}.{os.getpid()}.tmp"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(temp, "xb") as handle:
            handle.write(_header(kind, key, payload))
            handle.write(payload)
        os.replace(temp, target)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        return
    evict(folder, kind, keep)


def is_entry(path: Path) -> bool:
    """Whether ``path`` is a regular file that starts with this tool's mark."""
    from cards.reading import UnreadableInput, read_head_safely

    try:
        return read_head_safely(path, len(MARK)) == MARK
    except UnreadableInput:
        return False


def evict(folder: Path, kind: str, keep: int) -> None:
    """Remove all but the ``keep`` newest entries of ``kind`` (by the time they were
    written), and temporary entries a killed write left; only files that carry the
    cache's mark are ever removed."""
    prefix = f"{kind}-"
    try:
        names = os.listdir(folder)
    except OSError:
        return
    entries: list[tuple[float, Path]] = []
    now = time.time()
    for name in names:
        path = folder / name
        temp = name.startswith(f".{prefix}") and name.endswith(".tmp")
        if not (name.startswith(prefix) or temp):
            continue
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if temp:
            if now - info.st_mtime > STALE_TEMP_SECONDS and is_entry(path):
                with contextlib.suppress(OSError):
                    path.unlink()
            continue
        if is_entry(path):
            entries.append((info.st_mtime, path))
    entries.sort()
    for _, path in entries[:max(0, len(entries) - keep)]:
        with contextlib.suppress(OSError):
            path.unlink()
