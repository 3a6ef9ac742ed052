"""Writing a build into its output folder: all or nothing, and nothing the tool did not write
is ever deleted or replaced.

What a build guarantees (docs/reliability.md says the same for users):

* **All or nothing.** The new files are written into a *staging folder* beside the output
  folder (``.NAME.pnp-new-ID`` in its parent folder), together with hard links to
  everything else the output folder holds (the user's own files, and outputs of earlier
  builds this build does not replace, such as PNGs of an earlier ``--png``). Then the two
  folders are swapped in one step: ``renameat2(RENAME_EXCHANGE)`` on Linux. Anyone looking
  at the output folder sees either the whole previous build or the whole new one, also if
  the build is killed, the disk fills up or a subfolder is read-only. Where that call is
  missing (other systems, some file systems) the swap is two renames; a build killed
  between them leaves the output folder missing for a moment, and the next build puts the
  new one in place before anything else.
* **Only the tool's files.** ``.pnp-build.json`` in the output folder lists every file
  builds wrote there (the *manifest*). A build replaces only files at the names it writes
  and deletes only files the manifest lists (a component no longer defined, a deleted
  text); anything else in the folder (``house-rules.pdf``, ``svg/my-logo.svg``, a
  subfolder of notes) is carried into the new folder untouched (same file, hard-linked).
  A link, a file where a folder must go or a folder where a file must go is refused with a
  clear line, and nothing is written through a link out of the output folder.
* **One build at a time.** A build takes a lock (``fcntl.flock`` on ``.NAME.pnp-lock``
  beside the folder) for the few milliseconds it switches over; a second build into the
  same folder waits for it (saying so), so both finish and the folder holds the later one.
* **Nothing left behind.** Staging folders and temporary files of a build that was
  killed are recognised and removed (or completed) by the next build.

When the output folder cannot be swapped (its parent folder is not writable, it is a
mount point or the current folder, it holds a mount point, hard links are not possible
there, or it holds more than ``MAX_CARRIED`` files of the user's), the build falls back to
replacing files in place, journaled: every new file is first written in full into a
hidden staging folder inside the output folder, then a journal is written, then the files
are renamed into place. A build interrupted during that last step leaves a mix until the
next build, which finishes the job first (the journal says what is left). The build says
when it takes this way.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import json
import os
import re
import secrets
import shutil
import stat
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath
from typing import Any

MANIFEST = ".pnp-build.json"  # in the output folder: the files builds wrote there
STAGING_MARK = ".pnp-build-staging"  # in a staging folder until it is the output folder
INPLACE_PREFIX = ".pnp-inplace-"  # journaled in-place staging, inside the output folder
JOURNAL = "journal.json"
BOOKKEEPING = (MANIFEST, STAGING_MARK)
MANIFEST_FORMAT = 1
LOCK_WAIT_SECONDS = 120.0
MAX_CARRIED = 20_000  # files of the user's carried into each build; beyond: in place

# temporary files of write_atomic (this and earlier versions): ".NAME.xxxxxxxx.tmp"
_TEMP_RE = re.compile(r"^\.(?P<name>.+)\.[a-z0-9_]{8}\.tmp$")

Report = Callable[[str], None]


class OutputError(Exception):
    """The build could not be written; ``lines`` say why (the folder is as it was)."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


# --- single files (pictures, init) ---------------------------------------------------------


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder and a rename; the
    folder must exist. On failure the temporary file is removed and ``path`` is as it was."""
    fd, tmp = _mkstemp(path.parent, path.name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _mkstemp(folder: Path, name: str) -> tuple[int, str]:
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    os.chmod(tmp, 0o666 & ~_umask())
    return fd, tmp


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


# --- the manifest ------------------------------------------------------------------------


def _safe_rel(rel: str) -> bool:
    path = PurePosixPath(rel)
    return bool(rel) and not path.is_absolute() and ".." not in path.parts \
        and "." not in path.parts and path.as_posix() == rel and "\\" not in rel \
        and not any(p in BOOKKEEPING for p in path.parts)


def read_manifest(folder: Path) -> set[str]:
    """The files the manifest of ``folder`` lists (empty when there is none, or it is not
    one this tool wrote: then nothing there counts as the tool's)."""
    try:
        raw = (folder / MANIFEST).read_bytes()
        data = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError):
        return set()
    if not isinstance(data, dict) or data.get("tool") != "pnp-build" \
            or not isinstance(data.get("files"), list):
        return set()
    return {f for f in data["files"] if isinstance(f, str) and _safe_rel(f)}


def manifest_bytes(files: Iterable[str]) -> bytes:
    """The manifest listing ``files`` (deterministic: the same files give the same bytes)."""
    body = {"tool": "pnp-build", "format": MANIFEST_FORMAT,
            "about": "the files pnp-build wrote into this folder; it replaces and deletes "
                     "only these (delete this file and the next build keeps them all)",
            "files": sorted(files)}
    return (json.dumps(body, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


# --- the plan: what the new folder holds ------------------------------------------------


@dataclass
class Plan:
    """What one write does: the new files, the old tool files kept and the stale ones."""

    files: dict[str, bytes]
    old_manifest: set[str]
    kept: set[str] = field(default_factory=set)
    stale: set[str] = field(default_factory=set)

    @property
    def new_manifest(self) -> set[str]:
        return set(self.files) | self.kept


def plan_write(out: Path, files: dict[str, bytes], stale_if: Callable[[str], bool]) -> Plan:
    """Which old tool files stay and which go: an old file the manifest lists, that this
    build does not write and that ``stale_if`` says this build would have written, is
    stale (deleted); every other old tool file that still exists is kept."""
    old = read_manifest(out)
    plan = Plan(files, old)
    for rel in old:
        if rel in files:
            continue
        try:
            is_file = stat.S_ISREG(os.lstat(out / rel).st_mode)
        except OSError:
            continue  # deleted by the user: forget it
        if not is_file:
            continue  # no longer the tool's file: the user's now
        (plan.stale if stale_if(rel) else plan.kept).add(rel)
    return plan


def check_targets(out: Path, files: Iterable[str]) -> None:
    """Refuse (``OutputError``) a build that would have to write through a link or replace
    something that is not one of its files: every folder on the way to each file must be a
    real folder (or not exist), every file a regular file (or not exist)."""
    problems: list[str] = []
    seen: set[str] = set()
    for rel in sorted(files):
        parts = PurePosixPath(rel).parts
        for depth in range(1, len(parts) + 1):
            sub = "/".join(parts[:depth])
            if sub in seen:
                continue
            seen.add(sub)
            try:
                info = os.lstat(out / sub)
            except FileNotFoundError:
                break
            except OSError as exc:
                problems.append(f"{out / sub}: cannot be checked: {exc.strerror}")
                break
            last = depth == len(parts)
            if stat.S_ISLNK(info.st_mode):
                try:
                    target = os.readlink(out / sub)
                except OSError:
                    target = "?"
                problems.append(
                    f"{out / sub}: is a link (to {target}); pnp-build writes only inside "
                    f"{out} and never through links: remove the link or choose another --out")
                break
            if last and not stat.S_ISREG(info.st_mode):
                kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
                problems.append(f"{out / sub}: is {kind}, but the build writes a file there; "
                                "move it away or choose another --out")
            elif not last and not stat.S_ISDIR(info.st_mode):
                problems.append(f"{out / sub}: is a file, but the build needs a folder there; "
                                "move it away or choose another --out")
                break
    if problems:
        raise OutputError(problems + ["pnp-build: nothing was written"])


# --- the lock ----------------------------------------------------------------------------


try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: builds are not locked there
    fcntl = None  # type: ignore[assignment]


@contextlib.contextmanager
def locked(lock_path: Path, out: Path, info: Report,
           wait: float = LOCK_WAIT_SECONDS) -> Iterator[None]:
    """Hold the build lock of ``out`` (an exclusive ``flock`` on ``lock_path``, which exists
    only while a build holds it). A second build waits, saying so once, for at most ``wait``
    seconds, then gives up with an :class:`OutputError`."""
    if fcntl is None:  # pragma: no cover
        yield
        return
    deadline = time.monotonic() + wait
    announced = False
    while True:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_pid(fd)
            os.close(fd)
            if not announced:
                info(f"pnp-build: another build{holder} is writing into {out}; waiting for it "
                     "to finish")
                announced = True
            if time.monotonic() > deadline:
                raise OutputError([
                    f"pnp-build: another build{holder} has been writing into {out} for "
                    f"{wait:g} s; nothing was written (stop it, or try again later)"]) from None
            time.sleep(0.05)
            continue
        # the file may have been removed (and another made) by the build before us
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(lock_path))
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(lock_path)
        os.close(fd)


def _read_pid(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return f" (process {text})" if text.isdigit() else ""


# --- swapping two folders ------------------------------------------------------------------

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
_renameat2: Any = None


def _load_renameat2() -> Any:
    global _renameat2
    if _renameat2 is None:
        _renameat2 = False
        if sys.platform.startswith("linux"):
            try:
                libc = ctypes.CDLL(None, use_errno=True)
                fn = libc.renameat2
            except (OSError, AttributeError):
                return False
            fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                           ctypes.c_uint]
            fn.restype = ctypes.c_int
            _renameat2 = fn
    return _renameat2


def exchange(a: Path, b: Path) -> bool:
    """Swap two folders in one step (Linux ``renameat2(RENAME_EXCHANGE)``). False when the
    system or file system cannot; other failures raise ``OSError``."""
    if os.environ.get("PNP_NO_RENAME_EXCHANGE"):  # to test the fallback
        return False
    fn = _load_renameat2()
    if not fn:
        return False
    if fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))


# --- writing a build -------------------------------------------------------------------------


@dataclass
class Result:
    """What a write did: ``mode`` is ``"swap"`` or ``"in place"`` (and why)."""

    written: int
    kept: int
    deleted: int
    mode: str
    carried: int = 0  # the user's own files carried over


def write_build(out_dir: Path, files: dict[str, bytes], stale_if: Callable[[str], bool],
                info: Report | None = None) -> Result:
    """Make ``out_dir`` hold ``files`` (relative posix path -> bytes), all or nothing.

    ``stale_if(rel)`` tells whether an old tool file this build does not write would have
    been written by it if it still existed (a component no longer defined): those are
    deleted. Raises :class:`OutputError` with the lines to show; the output folder is then
    as it was.
    """
    for rel in files:
        if not _safe_rel(rel):
            raise ValueError(f"not a relative path inside the output folder: {rel!r}")
    out = _real_folder(out_dir)
    shown = str(out_dir)

    def as_given(line: str) -> str:  # messages name the folder as the user gave it
        return line.replace(str(out), shown) if shown != str(out) else line

    def say(line: str) -> None:
        if info is not None:
            info(as_given(line))

    try:
        return _write_build(out, files, stale_if, say)
    except OutputError as exc:
        raise OutputError([as_given(line) for line in exc.lines]) from None


def _write_build(out: Path, files: dict[str, bytes], stale_if: Callable[[str], bool],
                 info: Report) -> Result:
    parent = out.parent
    lock_path, swappable = _lock_place(out)
    with locked(lock_path, out, info):
        recover(out, info)
        _make_folder(out)
        check_targets(out, files)
        plan = plan_write(out, files, stale_if)
        why_not = _why_not_swap(out, parent) if swappable else (
            f"its parent folder {parent} is not writable")
        if why_not is None:
            try:
                return _swap(out, plan, info)
            except _CannotCarry as exc:
                why_not = str(exc)
        info(f"pnp-build: writing into {out} file by file, journaled ({why_not}); an "
             "interrupted build is completed by the next one")
        return _in_place(out, plan, why_not)


def _real_folder(out_dir: Path) -> Path:
    """The output folder's real path (a link to it followed: the user gave it), with its
    parent folder made if missing."""
    path = Path(os.path.abspath(out_dir))
    try:
        if path.is_symlink():
            path = path.resolve(strict=True)
        if path.exists() and not path.is_dir():
            raise OutputError([f"pnp-build: --out {out_dir}: is a file, expected a folder"])
        path.parent.mkdir(parents=True, exist_ok=True)
    except (OSError, RuntimeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise OutputError([f"pnp-build: cannot use the output folder {out_dir}: {reason}; "
                           "nothing was written"]) from None
    return path


def _make_folder(out: Path) -> None:
    try:
        out.mkdir(exist_ok=True)
    except OSError as exc:
        raise OutputError([f"pnp-build: cannot make the output folder {out}: "
                           f"{exc.strerror or exc}; nothing was written"]) from None


def _lock_place(out: Path) -> tuple[Path, bool]:
    """Where the lock file goes (beside ``out``, or inside it when its parent is not
    writable), and whether the parent is writable (needed to swap)."""
    beside = out.parent / f".{out.name}.pnp-lock"
    if out.parent != out and os.access(out.parent, os.W_OK | os.X_OK):
        return beside, True
    with contextlib.suppress(OSError):
        out.mkdir(exist_ok=True)
    return out / ".pnp-build.lock", False


def _why_not_swap(out: Path, parent: Path) -> str | None:
    if parent == out:
        return "it is the root folder"
    try:
        if os.stat(out).st_dev != os.stat(parent).st_dev:
            return "it is a mount point"
    except OSError as exc:
        return exc.strerror or str(exc)
    try:
        here = Path.cwd().resolve()
    except OSError:
        here = None
    if here is not None and (here == out or out in here.parents):
        return "it is the current folder (or holds it), which a swap would pull away"
    return None


class _CannotCarry(Exception):
    """The output folder holds something a staging folder cannot take over by hard link."""


def _staging_names(out: Path) -> tuple[str, str]:
    return f".{out.name}.pnp-new-", f".{out.name}.pnp-old-"


def _swap(out: Path, plan: Plan, info: Report) -> Result:
    new_prefix, old_prefix = _staging_names(out)
    ident = secrets.token_hex(6)
    staging = out.parent / f"{new_prefix}{ident}"
    old = out.parent / f"{old_prefix}{ident}"
    try:
        os.mkdir(staging, 0o700)
        (staging / STAGING_MARK).write_bytes(b"")
        made = _write_files(staging, plan.files, sync=False, same_as=out,
                            ours=plan.old_manifest)
        carried = _carry(out, staging, plan, made)
        _write_file(staging / MANIFEST, manifest_bytes(plan.new_manifest), sync=False)
        _copy_modes(out, staging, made)
        _sync_staging(staging, [*plan.files, MANIFEST], made | {"."})
    except _CannotCarry:
        _remove_tree(staging)
        raise
    except OSError as exc:
        _remove_tree(staging)
        raise OutputError(_write_failure(out, staging, exc)) from None
    except BaseException:
        _remove_tree(staging)
        raise
    # the switch-over: after this line the new build is the output folder
    try:
        if exchange(staging, out):
            os.rename(staging, old)
        else:
            os.rename(out, old)
            os.rename(staging, out)
    except OSError as exc:
        if not out.exists() and old.exists():
            os.rename(old, out)  # the second rename failed: put the old folder back
        _remove_tree(staging)
        raise _CannotCarry(f"the folder cannot be swapped: {exc.strerror or exc}") from None
    _drop_mark(out)
    _fsync_dir(out.parent)
    _clean_old_tree(old, out, info)
    return Result(len(plan.files), len(plan.kept), len(plan.stale), "swap", carried)


def _drop_mark(out: Path) -> None:
    """Remove the staging mark from the output folder, also from one the user made
    read-only (its permissions are put back)."""
    mark = out / STAGING_MARK
    try:
        mark.unlink()
    except FileNotFoundError:
        return
    except PermissionError:
        with contextlib.suppress(OSError):
            mode = stat.S_IMODE(os.stat(out).st_mode)
            os.chmod(out, mode | stat.S_IWUSR | stat.S_IXUSR)
            try:
                mark.unlink()
            finally:
                os.chmod(out, mode)
    except OSError:
        pass


def _write_failure(out: Path, staging: Path, exc: OSError) -> list[str]:
    name = exc.filename
    shown = str(name) if name else "a file"
    if name and str(name).startswith(str(staging)):
        rel = Path(str(name)).relative_to(staging).as_posix()
        shown = str(out / rel)
    return [f"pnp-build: cannot write {shown}: {exc.strerror or exc}",
            f"pnp-build: {out} was left as it was (nothing of this build was written)"]


def _write_file(path: Path, data: bytes, sync: bool = True) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0),
                     0o666)
    except OSError as exc:
        exc.filename = str(path)
        raise
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if sync:
            os.fsync(fd)
    except OSError as exc:
        exc.filename = str(path)
        raise
    finally:
        os.close(fd)


def _write_files(root: Path, files: dict[str, bytes], sync: bool = True,
                 same_as: Path | None = None, ours: set[str] | None = None) -> set[str]:
    """Write every file under ``root`` (each flushed to the disk with ``sync``); returns the
    folders made (relative, posix). With ``same_as`` (the output folder), a file an earlier
    build wrote there (listed in ``ours``) with exactly these bytes is hard-linked instead
    of written again: an unchanged rebuild writes nothing new, and removing the old folder
    afterwards frees no data (on a disk mounted with ``discard`` every freed file costs a
    few milliseconds)."""
    made: set[str] = set()
    for rel in sorted(files):
        parent = PurePosixPath(rel).parent
        chain = [p.as_posix() for p in reversed(parent.parents)][1:] + (
            [parent.as_posix()] if parent.as_posix() != "." else [])
        for sub in chain:
            if sub not in made:
                try:
                    os.mkdir(root / sub)
                except FileExistsError:
                    pass
                except OSError as exc:
                    exc.filename = str(root / sub)
                    raise
                made.add(sub)
        _place_file(root, rel, files[rel], sync, same_as if ours and rel in ours else None)
    return made


def _place_file(root: Path, rel: str, data: bytes, sync: bool, same_as: Path | None) -> None:
    """One file of a build into ``root``: linked from ``same_as`` when the file there holds
    the same bytes, else written."""
    if same_as is not None and _same_bytes(same_as / rel, data):
        try:
            os.link(same_as / rel, root / rel, follow_symlinks=False)
            return
        except OSError:
            pass  # no hard links here: write it
    _write_file(root / rel, data, sync)


def _same_bytes(path: Path, data: bytes) -> bool:
    """Whether ``path`` is a regular file (not a link) holding exactly ``data``."""
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size != len(data):
            return False
        with open(path, "rb") as handle:
            return handle.read(len(data) + 1) == data
    except OSError:
        return False


_syncfs: Any = None


def _load_syncfs() -> Any:
    global _syncfs
    if _syncfs is None:
        _syncfs = False
        if sys.platform.startswith("linux"):
            try:
                fn = ctypes.CDLL(None, use_errno=True).syncfs
            except (OSError, AttributeError):
                return False
            fn.argtypes = [ctypes.c_int]
            fn.restype = ctypes.c_int
            _syncfs = fn
    return _syncfs


def _sync_staging(staging: Path, files: Iterable[str], folders: Iterable[str]) -> None:
    """Make everything written into the staging folder durable before the switch-over: one
    ``syncfs`` of its file system (Linux: the whole build flushed at once, instead of a
    wait for the disk after every one of a hundred files), else every file and folder
    flushed in turn. A write that failed on its way to the disk is raised here."""
    syncfs = _load_syncfs()
    if syncfs:
        fd = os.open(staging, os.O_RDONLY)
        try:
            if syncfs(fd) == 0:
                return
            err = ctypes.get_errno()
            if err not in (errno.ENOSYS, errno.EINVAL):
                raise OSError(err, os.strerror(err), str(staging))
        finally:
            os.close(fd)
    for rel in files:
        fd = os.open(staging / rel, os.O_RDONLY)
        try:
            os.fsync(fd)
        except OSError as exc:
            exc.filename = str(staging / rel)
            raise
        finally:
            os.close(fd)
    _fsync_dirs(folders, staging)


def _carry(out: Path, staging: Path, plan: Plan, made: set[str]) -> int:
    """Hard-link into ``staging`` everything of ``out`` that stays: the user's entries and
    the old tool files kept. Folders are made anew (their modes copied afterwards)."""
    known = plan.old_manifest | set(plan.files)
    device = os.stat(out).st_dev
    count = 0

    def walk(rel: str) -> None:
        nonlocal count
        here = out / rel if rel else out
        with os.scandir(here) as entries:
            items = sorted(entries, key=lambda e: e.name)
        for entry in items:
            sub = f"{rel}/{entry.name}" if rel else entry.name
            if not rel and (entry.name in BOOKKEEPING or entry.name.startswith(INPLACE_PREFIX)
                            or entry.name == ".pnp-build.lock"):
                continue
            if sub in plan.files or sub in plan.stale or _stale_temp(sub, known):
                continue
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISDIR(info.st_mode):
                if info.st_dev != device:
                    raise _CannotCarry(f"{out / sub} is a mount point")
                if sub not in made:
                    os.mkdir(staging / sub)
                    made.add(sub)
                walk(sub)
                continue
            if sub not in plan.kept:
                count += 1
                if count > MAX_CARRIED:
                    raise _CannotCarry(f"it holds more than {MAX_CARRIED} files of your own")
            try:
                os.link(out / sub, staging / sub, follow_symlinks=False)
            except NotImplementedError:  # pragma: no cover - Windows
                raise _CannotCarry("links cannot be hard-linked here") from None
            except OSError as exc:
                if exc.errno in (errno.EPERM, errno.EXDEV, errno.EMLINK, errno.ENOTSUP,
                                 errno.EOPNOTSUPP, errno.EACCES):
                    raise _CannotCarry(f"{out / sub} cannot be hard-linked "
                                       f"({exc.strerror})") from None
                raise

    walk("")
    return count


def _stale_temp(rel: str, known: set[str]) -> bool:
    """A temporary file of an interrupted atomic write of one of the tool's files."""
    path = PurePosixPath(rel)
    found = _TEMP_RE.match(path.name)
    if found is None:
        return False
    return (path.parent / found.group("name")).as_posix().removeprefix("./") in known


def _copy_modes(out: Path, staging: Path, made: set[str]) -> None:
    """Give each folder of the new tree the permissions of the folder it replaces (deepest
    first, so a read-only folder is filled before it is made read-only)."""
    for sub in sorted(made | {""}, key=lambda s: -s.count("/") - (1 if s else 0)):
        try:
            mode = stat.S_IMODE(os.stat(out / sub if sub else out).st_mode)
        except OSError:
            continue  # a folder the old build did not have: as made
        os.chmod(staging / sub if sub else staging, mode)


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _fsync_dirs(subs: Iterable[str], root: Path) -> None:
    for sub in subs:
        _fsync_dir(root / sub if sub != "." else root)


def _clean_old_tree(old: Path, out: Path, info: Report | None = None) -> None:
    """Remove the previous output folder after a swap. Its tool files go; an entry of the
    user's that the new folder holds as the same file goes too; one that differs (saved by
    the user while the build ran) or is missing there is moved into the new folder. If
    one cannot be moved, the old folder stays (and the next build tries again). A file at a
    name the new build wrote is the tool's in either folder (also when the old folder has
    no manifest: a build of an earlier version)."""
    known = read_manifest(old) | read_manifest(out)
    failed: list[str] = []

    def walk(rel: str) -> None:
        here = old / rel if rel else old
        try:
            with os.scandir(here) as entries:
                items = list(entries)
        except OSError:
            return
        for entry in items:
            sub = f"{rel}/{entry.name}" if rel else entry.name
            if not rel and (entry.name in BOOKKEEPING or entry.name.startswith(INPLACE_PREFIX)
                            or entry.name == ".pnp-build.lock"):
                continue
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISDIR(info.st_mode):
                walk(sub)
                continue
            if sub in known or _stale_temp(sub, known):
                continue
            try:
                there = os.lstat(out / sub)
            except FileNotFoundError:
                there = None
            except OSError:
                continue
            if there is not None and os.path.samestat(there, info):
                continue
            try:
                if there is not None and stat.S_ISDIR(there.st_mode):
                    raise IsADirectoryError(errno.EISDIR, "a folder is in its place")
                _make_parents(out, sub, old)
                os.replace(old / sub, out / sub)
            except OSError as exc:
                failed.append(f"{sub} ({exc.strerror or exc})")

    walk("")
    if failed:
        (info or (lambda _m: None))(
            f"pnp-build: {len(failed)} file(s) of yours in the previous build's folder could "
            f"not be moved into {out}: {', '.join(failed[:3])}; they stay in {old} (the next "
            "build tries again)")
        return
    _remove_tree(old)


def _make_parents(out: Path, rel: str, like: Path) -> None:
    parent = PurePosixPath(rel).parent
    if parent.as_posix() == ".":
        return
    for p in [*reversed(parent.parents), parent][1:]:
        target = out / p.as_posix()
        if not target.exists():
            os.mkdir(target)
            with contextlib.suppress(OSError):
                os.chmod(target, stat.S_IMODE(os.stat(like / p.as_posix()).st_mode))


def _remove_tree(path: Path) -> None:
    """Remove a folder the tool made, even where its folders were made read-only."""

    def retry(func: Callable[..., Any], name: str, _exc: Any) -> None:
        with contextlib.suppress(OSError):
            os.chmod(os.path.dirname(name), stat.S_IRWXU)
            if func in (os.rmdir, os.unlink, os.remove):
                func(name)
            else:  # os.scandir / os.open of an unreadable folder
                os.chmod(name, stat.S_IRWXU)
                shutil.rmtree(name, ignore_errors=True)

    if path.is_symlink() or not path.exists():
        with contextlib.suppress(OSError):
            path.unlink()
        return
    if sys.version_info >= (3, 12):  # pragma: no cover - depends on the Python
        shutil.rmtree(path, onexc=retry)
    else:
        shutil.rmtree(path, onerror=retry)


# --- in place, journaled (when the folder cannot be swapped) -------------------------------


def _in_place(out: Path, plan: Plan, why: str) -> Result:
    stage = out / f"{INPLACE_PREFIX}{secrets.token_hex(6)}"
    try:
        os.mkdir(stage, 0o700)
        os.mkdir(stage / "files")
        _write_files(stage / "files", plan.files)
        _write_file(stage / MANIFEST, manifest_bytes(plan.new_manifest))
        _check_writable(out, plan)
        _write_file(stage / JOURNAL, json.dumps(
            {"replace": sorted(plan.files), "delete": sorted(plan.stale)}).encode("utf-8"))
    except OSError as exc:
        _remove_tree(stage)
        lines = _write_failure(out, stage / "files", exc)
        raise OutputError(lines) from None
    except BaseException:
        _remove_tree(stage)
        raise
    _finish_in_place(out, stage)
    return Result(len(plan.files), len(plan.kept), len(plan.stale), f"in place ({why})")


def _check_writable(out: Path, plan: Plan) -> None:
    """Before the journal is written: every folder a file goes into can take it (else the
    build stops here, with nothing replaced)."""
    folders = {PurePosixPath(rel).parent.as_posix() for rel in [*plan.files, *plan.stale]}
    for sub in sorted(folders):
        target = out if sub == "." else out / sub
        probe = target
        while not probe.exists():
            probe = probe.parent
        if not os.access(probe, os.W_OK | os.X_OK):
            raise OSError(errno.EACCES, "the folder is read-only", str(probe))


def _finish_in_place(out: Path, stage: Path) -> None:
    """Carry out a journal: rename each staged file into place, delete the stale ones, then
    the manifest; run again by the next build if this one is interrupted."""
    try:
        journal = json.loads((stage / JOURNAL).read_text(encoding="utf-8"))
        replace = [r for r in journal.get("replace", []) if _safe_rel(r)]
        delete = [r for r in journal.get("delete", []) if _safe_rel(r)]
    except (OSError, ValueError, AttributeError):
        _remove_tree(stage)  # no journal: the build never got that far
        return
    problems: list[str] = []
    for rel in replace:
        source = stage / "files" / rel
        if not source.exists():
            continue  # moved already
        try:
            for p in [*reversed(PurePosixPath(rel).parents)][1:]:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(out / p.as_posix())
            os.replace(source, out / rel)
        except OSError as exc:
            problems.append(f"pnp-build: cannot replace {out / rel}: {exc.strerror or exc}")
    for rel in delete:
        with contextlib.suppress(FileNotFoundError):
            if stat.S_ISREG(os.lstat(out / rel).st_mode):
                os.unlink(out / rel)
    if problems:
        raise OutputError(problems + [
            f"pnp-build: the build in {out} is incomplete; the next build completes it"])
    with contextlib.suppress(FileNotFoundError):
        os.replace(stage / MANIFEST, out / MANIFEST)
    _remove_tree(stage)


# --- recovery: what a killed build left --------------------------------------------------


def recover(out: Path, info: Report) -> None:
    """Finish or undo what an interrupted build left (call with the lock held): a staging
    folder beside ``out`` that never became the output folder is removed; the previous
    output folder left after a swap is cleaned as the swap would have; if ``out`` itself is
    missing (killed between the two renames of the fallback), the new folder (or else the
    old one) is put in its place; an in-place journal is carried out."""
    new_prefix, old_prefix = _staging_names(out)
    try:
        siblings = sorted(p for p in out.parent.iterdir()
                          if p.name.startswith((new_prefix, old_prefix)))
    except OSError:
        siblings = []
    news = {p.name[len(new_prefix):]: p for p in siblings if p.name.startswith(new_prefix)}
    olds = {p.name[len(old_prefix):]: p for p in siblings if p.name.startswith(old_prefix)}
    if not out.exists():
        for ident, path in news.items():
            if (path / STAGING_MARK).exists():
                os.rename(path, out)
                news.pop(ident)
                info(f"pnp-build: completed the switch-over of an interrupted build in {out}")
                break
        else:
            if olds:
                ident, path = next(iter(olds.items()))
                os.rename(path, out)
                olds.pop(ident)
    _drop_mark(out)
    for path in news.values():
        if path.is_dir() and not path.is_symlink() and not (path / STAGING_MARK).exists():
            _clean_old_tree(path, out, info)  # swapped, then killed before it was renamed
        else:
            _remove_tree(path)
    for path in olds.values():
        if path.is_dir() and not path.is_symlink():
            _clean_old_tree(path, out, info)
    try:
        stages = [p for p in out.iterdir() if p.name.startswith(INPLACE_PREFIX)]
    except OSError:
        stages = []
    for stage in stages:
        _finish_in_place(out, stage)


# --- the families of a build ------------------------------------------------------------------


def family_stale_if(files: Iterable[str], games: Iterable[str],
                    families: Iterable[str]) -> Callable[[str], bool]:
    """``stale_if`` for a build that writes ``files``: an old file is stale when it belongs
    to a family (``<game>/svg/*.svg``, ...) of which this build wrote a member (a family is
    always written whole, so a member not written is no longer defined)."""
    written = list(files)
    patterns = [f"{game}/{family}" for game in games for family in families]
    active = [p for p in patterns if any(fnmatchcase(rel, p) for rel in written)]

    def stale(rel: str) -> bool:
        return any(fnmatchcase(rel, p) for p in active)

    return stale
