"""A run's ``games.jsonl``: one game record a line, each sealed with a checksum, and read
back line by line when the run is resumed.

Every line the simulator writes ends with ``"check": "..."``, a SHA-256 of the line's own
text and of the run it belongs to (its game, definitions, player counts, games, bots,
budget and seed), so a line damaged on the disk, edited by hand, cut off by an
interruption or copied from another run is told from a game of this run. :func:`read`
hands on every game of the run once, in the order of the file, and says of every other
line where it is (``FILE:LINE``) and what is wrong with it; :func:`rewrite` then leaves
the file holding only those games (the other lines moved to ``games.rejected.jsonl``
beside it, nothing lost), so the resumed run appends to a clean file and never writes a
game twice.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

REJECTED_FILE = "games.rejected.jsonl"
MAX_LINE_BYTES = 256_000  # a game record is 0.3-2.5 kB
LINE_BYTES_PER_GAME = 64_000  # games.jsonl may hold at most this much per game planned
CHECK = "check"


def run_key(identity: dict[str, Any], fields: Iterable[str]) -> str:
    """What binds a line to its run: a hash of the run's identity (``fields`` of it)."""
    text = json.dumps({k: identity.get(k) for k in fields}, sort_keys=True,
                      separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _digest(body: str, key: str) -> str:
    return hashlib.sha256(f"{key}\0{body}".encode()).hexdigest()[:16]


def seal(record: dict[str, Any], key: str) -> str:
    """The line of ``record`` (with its newline), sealed for the run ``key``."""
    body = json.dumps(record, separators=(",", ":"))
    return f'{body[:-1]},"{CHECK}":"{_digest(body, key)}"}}\n'


def unseal(raw: bytes, key: str) -> dict[str, Any] | str:
    """The record of one line (its newline included), or why it is not one of this run."""
    if not raw.endswith(b"\n"):
        return "cut off (the run was interrupted while writing it)"
    try:
        record = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return "not UTF-8 text"
    except RecursionError:
        return "nested too deeply to be a game record"
    except ValueError as exc:
        return f"not JSON ({str(exc).split(':')[0]})"
    if not isinstance(record, dict):
        return "not a game record (a JSON object)"
    check = record.pop(CHECK, None)
    if check is None:
        return "a game record without its check (written by hand, or by an earlier version)"
    try:
        body = json.dumps(record, separators=(",", ":"))
    except (ValueError, RecursionError):  # pragma: no cover - what json read, it writes
        return "not a game record"
    if check != _digest(body, key):
        return "damaged or edited, or a game of another run (its check does not match)"
    return record


@dataclass
class Reading:
    """What :func:`read` found: the games of the run, the lines that are not, and which
    lines to keep."""

    games: int = 0
    problems: list[tuple[int, str]] = field(default_factory=list)  # (line, why)
    good: set[int] = field(default_factory=set)
    lines: int = 0

    @property
    def clean(self) -> bool:
        return not self.problems


def read(path: Path, key: str, planned: int, fits: Callable[[dict[str, Any]], str | None],
         each: Callable[[dict[str, Any]], None] = lambda record: None) -> Reading:
    """Hand every game of the run in ``path`` to ``each`` once (in little memory, a line at
    a time): a sealed line of this run (``key``) that ``fits`` (None, or why not: a player
    count or game number the run does not have) and whose game came no earlier in the
    file. ``planned``: the games of the run (the file may hold
    :data:`LINE_BYTES_PER_GAME` bytes for each). Raises
    :class:`cards.reading.UnreadableInput` for a file that cannot be read at all (a named
    pipe, a device, a file of gigabytes)."""
    from cards.reading import open_regular

    cap = max(1_000_000, planned * LINE_BYTES_PER_GAME)
    found = Reading()
    seen: dict[tuple[Any, Any], int] = {}
    with open_regular(path, "the games of a run (games.jsonl)", cap) as handle:
        number = 0
        for number, raw in _numbered(handle):
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                while raw and not raw.endswith(b"\n"):  # the rest of that line
                    raw = handle.readline(MAX_LINE_BYTES + 1)
                found.problems.append((number, f"longer than {MAX_LINE_BYTES:,} bytes, far "
                                               "more than a game record"))
                continue
            record = unseal(raw, key)
            if isinstance(record, str):
                found.problems.append((number, record))
                continue
            why = fits(record)
            if why is not None:
                found.problems.append((number, why))
                continue
            game = (record.get("players"), record.get("game"))
            if game in seen:
                found.problems.append((number, f"the same game as line {seen[game]} (game "
                                               f"{game[1]} of {game[0]} players)"))
                continue
            seen[game] = number
            each(record)
            found.games += 1
            found.good.add(number)
        found.lines = number
    return found


def _numbered(handle: IO[bytes]) -> Iterator[tuple[int, bytes]]:
    """The lines of ``handle`` with their numbers (from 1), each read with at most
    :data:`MAX_LINE_BYTES` + 1 bytes (the rest of a longer line is the caller's to skip:
    reading on from ``handle`` continues where the last line stopped)."""
    number = 0
    while True:
        raw = handle.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        number += 1
        yield number, raw


def rewrite(path: Path, reading: Reading) -> None:
    """Leave ``path`` holding only the lines :func:`read` kept (through a temporary file
    and a rename); the others are appended to ``games.rejected.jsonl`` beside it."""
    from cards.reading import open_regular

    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    rejected = path.with_name(REJECTED_FILE)
    try:
        with open_regular(path, "", 1 << 62) as source, open(temp, "wb") as kept, \
                open(rejected, "ab") as aside:
            for number, raw in _numbered(source):
                if number in reading.good:
                    kept.write(raw)
                    continue
                while raw and not raw.endswith(b"\n"):
                    aside.write(raw)
                    raw = source.readline(MAX_LINE_BYTES + 1)
                aside.write(raw if raw.endswith(b"\n") else raw + b"\n")
            kept.flush()
            os.fsync(kept.fileno())
        os.replace(temp, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temp)
