"""Reading input files safely, with one clear line for every problem (standard library
only, so the fast paths that never parse YAML can use it too).

:func:`read_bytes_safely` is the one way the tools read an input file: regular files only
(never a pipe, device or socket, which could block for ever), a size cap per kind of file,
link loops reported as loops, and optionally no path that leads outside a folder.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO


class DefinitionError(Exception):
    """One or more problems in definition files; ``problems`` holds one line each."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = list(problems)


class UnreadableInput(DefinitionError):
    """A file that could not be read at all (missing, not YAML, empty)."""


def display_path(path: Path) -> str:
    """A path as the user would recognise it: relative to the working dir when inside it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # pragma: no cover - different drive on Windows
        return str(path)
    return str(path) if rel.startswith("..") else rel


def inside(folder: Path, path: Path) -> Path:
    """``path`` if it stays inside ``folder`` once links are resolved; else a clear error."""
    try:
        resolved = path.resolve()
    except (RuntimeError, OSError):  # a link loop: reading the file reports it
        return path
    if not resolved.is_relative_to(folder.resolve()):
        raise UnreadableInput([
            f"{display_path(path)}: leads outside {display_path(folder)} (to {resolved}); "
            "definitions are read only from inside the folder you gave"
        ])
    return path


# --- reading files safely -------------------------------------------------------------------

# The largest file each kind of input may be. Each is hundreds of times what real use
# needs (the shipped sectors.yaml is 6 kB, the longest booklet text 15 kB, a 72-sector
# layout 4 kB), and small enough that reading a wrong file (a video, /dev/zero) stops at
# once with a clear line instead of filling the memory.
MAX_DEFINITION_BYTES = 4_000_000  # one definitions YAML file (cards/<game>/*.yaml, a deck)
MAX_TEXT_BYTES = 1_000_000  # one booklet or player-aid text (cards/<game>/text/*.md)

_KINDS = {stat.S_IFIFO: "a named pipe (FIFO)", stat.S_IFCHR: "a device",
          stat.S_IFBLK: "a device", stat.S_IFSOCK: "a socket"}


def _size_text(n: int) -> str:
    for unit, name in ((1_000_000, "MB"), (1000, "kB")):
        if n >= unit:
            return f"{n // unit:,} {name}" if n % unit == 0 else f"{n / unit:,.1f} {name}"
    return f"{n} bytes"


def read_bytes_safely(path: Path, what: str, max_bytes: int, folder: Path | None = None,
                      shown: str | None = None) -> bytes:
    """The bytes of a regular file, or :class:`UnreadableInput` with one clear line.

    Refused, each with its own line: a missing file, a folder, a named pipe, a device or a
    socket (reading those could block for ever or never end), a link that leads round in a
    loop, a file larger than ``max_bytes``, and (with ``folder``) a path that leads outside
    ``folder`` once links are followed. ``shown`` is how messages name the file (default:
    :func:`display_path`). Never blocks: the file is opened without waiting and checked
    again once open, so a file swapped for a pipe in between is refused too.
    """
    shown = display_path(path) if shown is None else shown
    if folder is not None:
        try:
            resolved = path.resolve(strict=False)
            inside = resolved.is_relative_to(folder.resolve(strict=False))
        except RuntimeError:  # a link loop (Python < 3.13 raises this from resolve)
            inside, resolved = True, path
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                inside, resolved = True, path  # reported as a loop below
            else:
                raise UnreadableInput([f"{shown}: cannot be read: {exc.strerror}"]) from None
        if not inside:
            raise UnreadableInput([
                f"{shown}: leads outside {display_path(folder)} (to {resolved}); files are "
                "read only from inside the folder you gave"])
    handle = open_regular(path, what, max_bytes, shown)
    try:
        data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise UnreadableInput([f"{shown}: cannot be read: {exc.strerror or exc}"]) from None
    finally:
        handle.close()
    if len(data) > max_bytes:  # it grew while being read
        raise UnreadableInput([
            f"{shown}: is more than the {_size_text(max_bytes)} allowed for "
            f"{what or 'this kind of file'}; is this the right file?"])
    return data


def open_regular(path: Path, what: str, max_bytes: int, shown: str | None = None) -> BinaryIO:
    """``path`` opened for reading in binary, once it is known to be a regular file of at
    most ``max_bytes`` (its size when opened); else :class:`UnreadableInput` with one line,
    as :func:`read_bytes_safely` says them. For files read a line at a time (a run's
    ``games.jsonl``); the caller closes it."""
    shown = display_path(path) if shown is None else shown
    expected = f"expected {what}" if what else "expected a file"
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        if path.is_symlink():
            raise UnreadableInput([f"{shown}: a link to a file that does not exist "
                                   f"({os.readlink(path)}); {expected}"]) from None
        raise UnreadableInput([f"{shown}: file not found; {expected}"]) from None
    except IsADirectoryError:
        raise UnreadableInput([f"{shown}: is a folder, not a file; {expected}"]) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnreadableInput([f"{shown}: is a link that leads round in a loop (a link to "
                                   f"itself, or links to each other); {expected}"]) from None
        if exc.errno == errno.ENXIO:  # a socket, or a pipe nobody writes to (some systems)
            raise UnreadableInput([f"{shown}: is not a regular file; {expected}"]) from None
        raise UnreadableInput([f"{shown}: cannot be read: {exc.strerror or exc}"]) from None
    try:
        info = os.fstat(fd)
        kind = stat.S_IFMT(info.st_mode)
        if kind == stat.S_IFDIR:
            raise UnreadableInput([f"{shown}: is a folder, not a file; {expected}"])
        if kind != stat.S_IFREG:
            name = _KINDS.get(kind, "not a regular file")
            raise UnreadableInput([f"{shown}: is {name}, not a regular file; {expected}"])
        if info.st_size > max_bytes:
            raise UnreadableInput([
                f"{shown}: is {_size_text(info.st_size)}, more than the {_size_text(max_bytes)} "
                f"allowed for {what or 'this kind of file'}; is this the right file?"])
        if hasattr(os, "O_NONBLOCK"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except OSError as exc:
        os.close(fd)
        raise UnreadableInput([f"{shown}: cannot be read: {exc.strerror or exc}"]) from None
    except BaseException:
        os.close(fd)
        raise


def read_head_safely(path: Path, size: int) -> bytes:
    """The first ``size`` bytes of a regular file of any size (to tell what it is), or
    :class:`UnreadableInput`; never blocks on a pipe or a device."""
    handle = open_regular(path, "", 1 << 62)
    try:
        return handle.read(size)
    except OSError as exc:
        raise UnreadableInput([f"{display_path(path)}: cannot be read: "
                               f"{exc.strerror or exc}"]) from None
    finally:
        handle.close()
