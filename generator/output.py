"""Writing a build into its output folder: all or nothing, nothing of the user's touched.

What a build guarantees (docs/reliability.md says the same for users):

* **Folders are kept.** A folder that exists is never replaced, re-created or swapped: it
  keeps its owner, group, mode, ACLs and extended attributes, and a shell or a viewer
  inside it stays in it. Only files are replaced, one rename each.
* **All or nothing.** Every new file is first written in full into a hidden staging
  folder inside the output folder (``.pnp-inplace-ID``) and flushed to the disk; then a
  journal is written; only then are the files renamed into place. A build stopped before
  the journal (killed, a full disk, a read-only folder) has replaced nothing; one stopped
  during the renames is completed from the journal by the next build before it does
  anything else. A file the build would write with the bytes it already holds is left as
  it is. An output folder that does not exist yet is staged beside its place
  (``.NAME.pnp-new-ID``) and renamed into place in one step.
* **Only the tool's files.** ``.pnp-build.json`` in the output folder (the *manifest*)
  lists every file builds wrote there. A build replaces only files at the names it writes
  and deletes only files the manifest lists (a component no longer defined, a deleted
  text); anything else in the folder (``house-rules.pdf``, ``svg/my-logo.svg``, a
  subfolder of notes) stays untouched. A build writes into an existing folder only when
  the manifest is there, or when every file in the folder is at a name the build writes
  (an earlier version's build); never into ``/`` or the home folder. A link, a file where
  a folder must go or a folder where a file must go is refused with a clear line, and
  nothing is written through a link out of the output folder.
* **One build at a time.** A build takes a lock (``fcntl.flock`` on ``.NAME.pnp-lock``
  beside the folder) while it writes; a second build into the same folder waits for it
  (saying so), so both finish and the folder holds the later one.
* **Nothing left behind.** Staging folders and temporary files of a build that was
  killed are recognised and removed (or completed) by the next build.
* **Run as root** (``sudo pnp build --out ~user/kit``), every file and folder a build
  makes belongs to the owner of the folder it is made in, so the user can still change
  and delete them.
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
STAGING_MARK = ".pnp-build-staging"  # in a new folder's staging folder until it is in place
INPLACE_PREFIX = ".pnp-inplace-"  # the journaled staging folder, inside the output folder
JOURNAL = "journal.json"
BOOKKEEPING = (MANIFEST, STAGING_MARK)
MANIFEST_FORMAT = 1
LOCK_WAIT_SECONDS = 120.0
SHOWN_FOREIGN = 3  # files of the user's a refusal names

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


def has_manifest(folder: Path) -> bool:
    """Whether ``folder`` holds a manifest this tool wrote (one listing no file counts)."""
    try:
        data = json.loads((folder / MANIFEST).read_bytes().decode("utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("tool") == "pnp-build" \
        and isinstance(data.get("files"), list)


def manifest_bytes(files: Iterable[str]) -> bytes:
    """The manifest listing ``files`` (deterministic: the same files give the same bytes)."""
    body = {"tool": "pnp-build", "format": MANIFEST_FORMAT,
            "about": "the files pnp-build wrote into this folder; it replaces and deletes "
                     "only these, and leaves everything else here as it is",
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


# --- writing a build -------------------------------------------------------------------------


@dataclass
class Result:
    """What a write did: ``mode`` is ``"new folder"`` (the folder did not exist: made whole
    in one step) or ``"in place"`` (files replaced in the folder, journaled)."""

    written: int
    kept: int
    deleted: int
    mode: str
    carried: int = 0  # the user's own files in the folder, left as they were
    unchanged: int = 0  # files the build writes that already held these bytes


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
        refuse_folder(out, shown)
        return _write_build(out, files, stale_if, say)
    except OutputError as exc:
        raise OutputError([as_given(line) for line in exc.lines]) from None


def refuse_folder(out: Path, shown: str | None = None) -> None:
    """:class:`OutputError` for a folder no build may write into: the root folder and the
    home folder (a kit there would mix with everything else, and a build's bookkeeping
    would sit among the user's files)."""
    shown = str(out) if shown is None else shown
    if out == Path(out.anchor):
        raise OutputError([f"pnp-build: --out {shown}: is the root folder of the system; give "
                           "the kit a folder of its own (e.g. --out kit); nothing was written"])
    try:
        home = Path.home().resolve()
    except (RuntimeError, KeyError, OSError):
        return
    if out == home:
        raise OutputError([f"pnp-build: --out {shown}: is your home folder; give the kit a "
                           "folder of its own (e.g. --out ~/kit); nothing was written"])


def _write_build(out: Path, files: dict[str, bytes], stale_if: Callable[[str], bool],
                 info: Report) -> Result:
    lock_path = _lock_place(out)
    with locked(lock_path, out, info):
        recover(out, info)
        if not out.exists():
            return _new_folder(out, files)
        check_targets(out, files)
        _check_foreign(out, files)
        plan = plan_write(out, files, stale_if)
        return _in_place(out, plan)


def _real_folder(out_dir: Path) -> Path:
    """The output folder's real path (a link to it followed: the user gave it), with its
    parent folder made if missing."""
    path = Path(os.path.abspath(out_dir))
    try:
        if path.is_symlink():
            path = path.resolve(strict=True)
        if path.exists() and not path.is_dir():
            raise OutputError([f"pnp-build: --out {out_dir}: is a file, expected a folder"])
        if path != path.parent and not path.parent.exists():
            _make_folders(path.parent)
    except (OSError, RuntimeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise OutputError([f"pnp-build: cannot use the output folder {out_dir}: {reason}; "
                           "nothing was written"]) from None
    return path


def _make_folders(path: Path) -> None:
    """``mkdir -p``, each folder made given its parent's owner (see :func:`_own`)."""
    missing = []
    probe = path
    while not probe.exists():
        missing.append(probe)
        probe = probe.parent
    for folder in reversed(missing):
        os.mkdir(folder)
        _own(folder, folder.parent)


def _lock_place(out: Path) -> Path:
    """Where the lock file goes: beside ``out``, or inside it when its parent is not
    writable."""
    if out.parent != out and os.access(out.parent, os.W_OK | os.X_OK):
        return out.parent / f".{out.name}.pnp-lock"
    with contextlib.suppress(OSError):
        out.mkdir(exist_ok=True)
    return out / ".pnp-build.lock"


def _owner(folder: Path) -> tuple[int, int] | None:
    """The owner and group new entries in ``folder`` get: when the build runs as root, the
    folder's own (so a user's folder stays the user's to change); else None (the
    system's default: the user running the build)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return None
    try:
        info = os.stat(folder)
    except OSError:
        return None
    return (info.st_uid, info.st_gid) if (info.st_uid, info.st_gid) != (0, 0) else None


def _own(path: Path, folder: Path, owner: tuple[int, int] | None = None) -> None:
    """Give ``path`` (just made) the owner of ``folder`` where the build runs as root."""
    owner = owner or _owner(folder)
    if owner is not None:
        with contextlib.suppress(OSError):
            os.lchown(path, *owner)


def _check_foreign(out: Path, files: dict[str, bytes]) -> None:
    """Refuse an existing folder without a manifest that holds files this build does not
    write: the user's folder (Documents, a photo folder), not an earlier build's."""
    if has_manifest(out):
        return
    foreign = sorted(rel for rel in _walk_files(out)
                     if rel not in files and not _stale_temp(rel, set(files)))
    count = len(foreign)
    if count:
        names = ", ".join(foreign[:SHOWN_FOREIGN]) + (
            f" and {count - SHOWN_FOREIGN} more" if count > SHOWN_FOREIGN else "")
        raise OutputError([
            f"pnp-build: --out {out}: holds {count} file(s) pnp-build did not write ({names}) "
            f"and no {MANIFEST} that lists its own; give the kit a new or empty folder "
            "(nothing was written)"])


def _walk_files(out: Path) -> Iterator[str]:
    """Every entry of ``out`` that is not a folder (files, links ...), relative posix, the
    bookkeeping of builds left out; links to folders are not followed."""
    stack = [""]
    while stack:
        rel = stack.pop()
        try:
            with os.scandir(out / rel if rel else out) as entries:
                items = sorted(entries, key=lambda e: e.name)
        except OSError:
            continue
        for entry in items:
            sub = f"{rel}/{entry.name}" if rel else entry.name
            if not rel and (entry.name in BOOKKEEPING or entry.name.startswith(INPLACE_PREFIX)
                            or entry.name == ".pnp-build.lock"):
                continue
            if entry.is_dir(follow_symlinks=False):
                stack.append(sub)
            else:
                yield sub


# --- a folder that does not exist yet: staged beside it, renamed into place ----------------


def _staging_names(out: Path) -> tuple[str, str]:
    return f".{out.name}.pnp-new-", f".{out.name}.pnp-old-"


def _new_folder(out: Path, files: dict[str, bytes]) -> Result:
    new_prefix, _ = _staging_names(out)
    staging = out.parent / f"{new_prefix}{secrets.token_hex(6)}"
    owner = _owner(out.parent)
    try:
        os.mkdir(staging)
        (staging / STAGING_MARK).write_bytes(b"")
        made = _write_files(staging, files, sync=False, owner=owner)
        _write_file(staging / MANIFEST, manifest_bytes(files), sync=False, owner=owner)
        _sync_staging(staging, [*files, MANIFEST], made | {"."})
        os.rename(staging, out)  # the switch-over: one step
    except OSError as exc:
        _remove_tree(staging)
        if exc.errno in (errno.EEXIST, errno.ENOTEMPTY) and out.exists():
            raise OutputError([f"pnp-build: {out} was made by someone else while the build "
                               "ran; nothing was written (build again)"]) from None
        raise OutputError(_write_failure(out, staging, exc)) from None
    except BaseException:
        _remove_tree(staging)
        raise
    _own(out, out.parent, owner)
    _drop_mark(out)
    _fsync_dir(out.parent)
    return Result(len(files), 0, 0, "new folder")


def _drop_mark(out: Path) -> None:
    """Remove the staging mark from a new output folder."""
    with contextlib.suppress(OSError):
        (out / STAGING_MARK).unlink()


def _write_failure(out: Path, staging: Path, exc: OSError) -> list[str]:
    """The lines for a write that failed: the file named as it would have been in ``out``
    (not by its place in ``staging``)."""
    name = exc.filename
    shown = str(name) if name else "a file"
    if name and str(name).startswith(str(staging)):
        rel = Path(str(name)).relative_to(staging).as_posix()
        shown = str(out / rel) if rel != "." else str(out)
    return [f"pnp-build: cannot write {shown}: {exc.strerror or exc}",
            f"pnp-build: {out} was left as it was (nothing of this build was written)"]


def _write_file(path: Path, data: bytes, sync: bool = True,
                owner: tuple[int, int] | None = None) -> None:
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
        if owner is not None:
            with contextlib.suppress(OSError):
                os.fchown(fd, *owner)
    except OSError as exc:
        exc.filename = str(path)
        raise
    finally:
        os.close(fd)


def _write_files(root: Path, files: dict[str, bytes], sync: bool = True,
                 owner: tuple[int, int] | None = None,
                 owners: Callable[[str], tuple[int, int] | None] | None = None) -> set[str]:
    """Write every file under ``root`` (each flushed to the disk with ``sync``); returns the
    folders made (relative, posix). Each entry made is given ``owner`` (or
    ``owners(rel)``: the owner of the folder it will sit in) when the build runs as root."""
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
                who = owners(sub) if owners is not None else owner
                if who is not None:
                    with contextlib.suppress(OSError):
                        os.lchown(root / sub, *who)
        _place_file(root, rel, files[rel], sync, owners(rel) if owners is not None else owner)
    return made


def _place_file(root: Path, rel: str, data: bytes, sync: bool,
                owner: tuple[int, int] | None) -> None:
    """One file of a build into ``root`` (a staging folder)."""
    _write_file(root / rel, data, sync, owner)


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


def _stale_temp(rel: str, known: set[str]) -> bool:
    """A temporary file of an interrupted atomic write of one of the tool's files."""
    path = PurePosixPath(rel)
    found = _TEMP_RE.match(path.name)
    if found is None:
        return False
    return (path.parent / found.group("name")).as_posix().removeprefix("./") in known


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


# --- an existing folder: in place, journaled ----------------------------------------------


def _in_place(out: Path, plan: Plan) -> Result:
    """Stage the files that change, write the journal, then rename them into place (the
    folders of ``out`` are never replaced: they keep owner, mode, ACLs and attributes)."""
    changed = {rel: data for rel, data in plan.files.items()
               if not (rel in plan.old_manifest and _same_bytes(out / rel, data))}
    temps = _stale_temps(out, plan.old_manifest | set(plan.files))
    carried = sum(1 for rel in _walk_files(out) if rel not in plan.new_manifest
                  and rel not in temps)
    unchanged = len(plan.files) - len(changed)
    manifest = manifest_bytes(plan.new_manifest)
    if not changed and not plan.stale and not temps and _same_bytes(out / MANIFEST, manifest):
        return Result(0, len(plan.kept), 0, "in place", carried, unchanged)
    _check_writable(out, [*changed, *plan.stale, *temps, MANIFEST])
    place = _stage_place(out)
    stage = place / f"{_stage_prefix(out, place)}{secrets.token_hex(6)}"
    owners = _owners_in(out)
    try:
        os.mkdir(stage, 0o700)
        os.mkdir(stage / "files")
        made = _write_files(stage / "files", changed, sync=False, owners=owners)
        _write_file(stage / MANIFEST, manifest, sync=False, owner=owners(MANIFEST))
        _sync_staging(stage / "files", list(changed), made | {"."})
        _hold_old(out, stage / "replaced", [*changed, *plan.stale])
        _write_file(stage / JOURNAL, json.dumps(
            {"replace": sorted(changed), "delete": sorted(plan.stale),
             "temporary": sorted(temps)}).encode("utf-8"))
        _fsync_dir(stage)
    except OSError as exc:
        _remove_tree(stage)
        raise OutputError(_write_failure(out, stage / "files", exc)) from None
    except BaseException:
        _remove_tree(stage)
        raise
    _finish_in_place(out, stage)
    return Result(len(changed), len(plan.kept), len(plan.stale), "in place", carried,
                  unchanged)


def _stage_place(out: Path) -> Path:
    """Where the files are staged: beside the output folder (so nothing half-made ever
    shows inside it, to a viewer or a sync client), or inside it when its parent is not
    writable or lies on another file system (the output folder is a mount point)."""
    parent = out.parent
    try:
        if parent != out and _writable(parent) and os.stat(parent).st_dev == os.stat(out).st_dev:
            return parent
    except OSError:
        pass
    return out


def _stage_prefix(out: Path, place: Path) -> str:
    """The name a staging folder in ``place`` starts with."""
    return f".{out.name}.pnp-stage-" if place != out else INPLACE_PREFIX


def _hold_old(out: Path, held: Path, rels: Iterable[str]) -> None:
    """A second name (a hard link in the staging folder) for each file the renames will
    replace or delete, so that freeing their space (slow on a disk that discards freed
    blocks) happens afterwards, when the staging folder is removed, not between two
    renames. Where hard links cannot be made, nothing is held."""
    for rel in rels:
        try:
            if not stat.S_ISREG(os.lstat(out / rel).st_mode):
                continue
            (held / rel).parent.mkdir(parents=True, exist_ok=True)
            os.link(out / rel, held / rel, follow_symlinks=False)
        except (OSError, NotImplementedError):
            continue


def _owners_in(out: Path) -> Callable[[str], tuple[int, int] | None]:
    """For each entry of a build (relative posix), the owner it gets when the build runs
    as root: that of the nearest folder of ``out`` that exists on its way."""
    cache: dict[str, tuple[int, int] | None] = {}

    def owner(rel: str) -> tuple[int, int] | None:
        parent = PurePosixPath(rel).parent.as_posix()
        while parent != "." and not (out / parent).is_dir():
            parent = PurePosixPath(parent).parent.as_posix()
        if parent not in cache:
            cache[parent] = _owner(out / parent if parent != "." else out)
        return cache[parent]

    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return lambda rel: None
    return owner


def _stale_temps(out: Path, known: set[str]) -> list[str]:
    """Temporary files of interrupted atomic writes (this and earlier versions) beside the
    tool's files, to remove."""
    found = []
    for folder in sorted({PurePosixPath(rel).parent.as_posix() for rel in known}):
        here = out if folder == "." else out / folder
        try:
            names = sorted(os.listdir(here))
        except OSError:
            continue
        for name in names:
            rel = name if folder == "." else f"{folder}/{name}"
            if _stale_temp(rel, known):
                found.append(rel)
    return found


def _check_writable(out: Path, rels: Iterable[str]) -> None:
    """Before anything is staged: every folder a file is renamed into or deleted from can
    take it, and lies on the output folder's file system (else the build stops here, with
    nothing replaced)."""
    device = os.stat(out).st_dev
    folders = {PurePosixPath(rel).parent.as_posix() for rel in rels} | {"."}
    for sub in sorted(folders):
        probe = out if sub == "." else out / sub
        while not probe.exists():
            probe = probe.parent
        try:
            info = os.stat(probe)
        except OSError as exc:
            raise OutputError([f"pnp-build: cannot write {probe}: {exc.strerror or exc}",
                               f"pnp-build: {out} was left as it was (nothing of this build "
                               "was written)"]) from None
        if info.st_dev != device:
            raise OutputError([f"pnp-build: {probe} is on another file system (a mount point "
                               f"inside {out}); the build writes only into folders of the "
                               "output folder's own; choose another --out (nothing was "
                               "written)"])
        if not _writable(probe):
            raise OutputError([f"pnp-build: cannot write {probe}: the folder is read-only "
                               "(make it writable, or choose another --out)",
                               f"pnp-build: {out} was left as it was (nothing of this build "
                               "was written)"])


def _writable(folder: Path) -> bool:
    if os.access in os.supports_effective_ids:
        return os.access(folder, os.W_OK | os.X_OK, effective_ids=True)
    return os.access(folder, os.W_OK | os.X_OK)


def _finish_in_place(out: Path, stage: Path) -> None:
    """Carry out a journal: rename each staged file into place (a folder the output folder
    does not have yet moves in whole), delete the stale files, then the manifest; run again
    by the next build if this one is interrupted."""
    try:
        journal = json.loads((stage / JOURNAL).read_text(encoding="utf-8"))
        replace = [r for r in journal.get("replace", []) if _safe_rel(r)]
        delete = [r for r in [*journal.get("delete", []), *journal.get("temporary", [])]
                  if _safe_rel(r)]
    except (OSError, ValueError, AttributeError, TypeError):
        _remove_tree(stage)  # no journal: the build never got that far
        return
    _apply_journal(out, stage, replace, delete)
    _remove_tree(stage)


def _apply_journal(out: Path, stage: Path, replace: list[str], delete: list[str]) -> None:
    """The switch-over itself: each staged file renamed into place, the stale files
    deleted, the manifest last (the only moment files new and old sit side by side)."""
    problems: list[str] = []
    for rel in sorted(replace):
        source = stage / "files" / rel
        if not os.path.lexists(source):
            continue  # moved already (alone, or with a folder that moved in whole)
        try:
            os.replace(*_move(out, stage / "files", rel))
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


def _move(out: Path, staged: Path, rel: str) -> tuple[Path, Path]:
    """What to rename for ``rel``: the topmost of its folders that ``out`` does not have
    (moved in whole, with everything staged inside it), else the file itself."""
    parts = PurePosixPath(rel).parts
    for depth in range(1, len(parts)):
        sub = "/".join(parts[:depth])
        if not os.path.lexists(out / sub):
            return staged / sub, out / sub
    return staged / rel, out / rel


# --- recovery: what a killed build left --------------------------------------------------


def recover(out: Path, info: Report) -> None:
    """Finish or undo what an interrupted build left (call with the lock held): a staging
    folder of a new output folder that never took its place is removed; an in-place
    journal is carried out (its files renamed into place); a staging folder without a
    journal is removed. Folders left by an interrupted switch-over of an earlier version
    (which swapped whole folders) are left where they are, with a line saying so: they
    may hold files of the user's."""
    new_prefix, old_prefix = _staging_names(out)
    beside = _stage_prefix(out, out.parent)
    try:
        siblings = sorted(p for p in out.parent.iterdir()
                          if p.name.startswith((new_prefix, old_prefix, beside)))
    except OSError:
        siblings = []
    stages = [p for p in siblings if p.name.startswith(beside) and p.is_dir()
              and not p.is_symlink()]
    for path in siblings:
        if path in stages:
            continue
        if path.name.startswith(new_prefix) and (path / STAGING_MARK).exists() \
                and not path.is_symlink():
            _remove_tree(path)
        else:
            info(f"pnp-build: {path} is left from an interrupted build of an earlier version; "
                 "move anything of yours out of it, then delete it")
    _drop_mark(out)
    try:
        stages += sorted(p for p in out.iterdir() if p.name.startswith(INPLACE_PREFIX))
    except OSError:
        pass
    for stage in stages:
        if (stage / JOURNAL).exists():
            info(f"pnp-build: completed an interrupted build in {out}")
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
