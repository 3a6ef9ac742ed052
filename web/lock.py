"""One server per data folder: a lock file that names the server holding it.

Two ``pnp web`` servers on one ``--data`` folder would each keep their own copy of every
game in memory and write over each other's moves. The server holds an exclusive lock on
``pnp-web.lock`` in the folder for as long as it runs (``fcntl.flock``; ``msvcrt`` on
Windows); the file says who holds it (process, machine, address, since when), so a second
server is refused with that sentence. The lock goes with the process: a server killed with
``kill -9`` leaves a file that the next one simply takes over.

``flock`` is reliable on a local disk; on a network share (NFS, SMB) it may not be, which
is one reason several machines need a real database server rather than one SQLite file
(docs/web.md, *Several server processes*).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
import time
from pathlib import Path
from typing import IO, Any

LOCK_NAME = "pnp-web.lock"


class FolderInUse(Exception):
    """Another server holds the data folder; the message names it."""


def _try_lock(handle: IO[str]) -> bool:
    if sys.platform == "win32":  # pragma: no cover - not run here
        import msvcrt

        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def holder_text(info: dict[str, Any]) -> str:
    """Who holds a lock, in words, from what its file says."""
    parts = [f"process {info.get('pid', '?')}" + (f" on {info['host']}" if info.get("host")
                                                   else "")]
    if info.get("url"):
        parts.append(f"serving {info['url']}")
    since = info.get("since")
    if isinstance(since, (int, float)):
        parts.append("since " + time.strftime("%Y-%m-%d %H:%M", time.localtime(since)))
    return ", ".join(parts)


class DataLock:
    """The lock of one data folder, held until :meth:`release` (or the process ends)."""

    def __init__(self, folder: Path, url: str | None = None) -> None:
        self.path = folder / LOCK_NAME
        self.handle: IO[str] | None = None
        try:
            handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - held open
        except OSError as exc:
            raise FolderInUse(f"cannot make the lock file {self.path} ({exc.strerror}); give "
                              f"a folder pnp web can write to with --data DIR") from None
        if not _try_lock(handle):
            handle.seek(0)
            try:
                info = json.loads(handle.read() or "{}")
            except ValueError:
                info = {}
            handle.close()
            who = holder_text(info) if isinstance(info, dict) else "another process"
            raise FolderInUse(f"the data folder {folder} is in use by another pnp web ({who}); "
                              f"two servers on one folder would overwrite each other's games: "
                              f"stop that one first, or give this one another folder with "
                              f"--data DIR")
        self.handle = handle
        self.write(url)

    def write(self, url: str | None) -> None:
        """Say in the lock file who holds it (``url``: the address this server serves)."""
        if self.handle is None:
            return
        info = {"pid": os.getpid(), "host": socket.gethostname(), "url": url,
                "since": time.time()}
        with contextlib.suppress(OSError):
            self.handle.seek(0)
            self.handle.truncate()
            self.handle.write(json.dumps(info))
            self.handle.flush()

    def release(self) -> None:
        if self.handle is not None:
            with contextlib.suppress(OSError):
                self.handle.close()  # closing the file lets the lock go
            self.handle = None

    def __del__(self) -> None:
        self.release()
