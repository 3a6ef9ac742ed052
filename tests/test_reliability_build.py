"""pnp-build's output folder: all or nothing, only the tool's files, folders kept, one build
at a time.

Each test ends with the folder holding exactly the previous build or exactly the new one
(plus the user's own files, untouched), and a later build leaving no stray file behind.
"""

from __future__ import annotations

import errno
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import generator.output as output
from generator.build import BuildOptions, build, write_outputs
from generator.output import MANIFEST, OutputError, read_manifest

ROOT = Path(__file__).resolve().parent.parent
PROBE = ROOT / "tests" / "build_probe.py"
USER_FILES = {
    "notes.txt": b"my notes\n",
    "orbitus/rules-house-variant.pdf": b"%PDF-1.4 the house rules, not the tool's\n",
    "orbitus/svg/my-logo.svg": b"<svg xmlns='http://www.w3.org/2000/svg'/>\n",
    "photos/table.jpg": b"\xff\xd8\xff a photo",
}
BOOKKEEPING = (MANIFEST, output.STAGING_MARK)


def files_in(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (relative posix path -> bytes), bookkeeping left out."""
    found = {}
    for path in folder.rglob("*"):
        if path.is_file() and path.name not in BOOKKEEPING and \
                not path.relative_to(folder).as_posix().startswith(output.INPLACE_PREFIX):
            found[path.relative_to(folder).as_posix()] = path.read_bytes()
    return found


def strays(out: Path) -> list[str]:
    """Left-overs of a build: staging folders and the lock beside ``out``, temporary files
    and journals inside it."""
    beside = [p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.pnp")]
    inside = [p.relative_to(out).as_posix() for p in out.rglob("*")
              if p.name.endswith(".tmp") or p.name.startswith((".pnp-inplace", ".pnp-build-s"))]
    return beside + inside


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, dict[str, bytes], dict[str, bytes]]:
    """An A4 build in a folder, its files (the old set) and those of a Letter build (the
    new set)."""
    base = tmp_path_factory.mktemp("sets")
    old = build(base / "a4")
    new = build(base / "letter", opts=BuildOptions(page="letter"))
    assert old.keys() == new.keys() and all(old[k] != new[k] for k in old if k.endswith(".pdf"))
    return base / "a4", old, new


@pytest.fixture
def sets(built) -> tuple[dict[str, bytes], dict[str, bytes]]:
    return built[1], built[2]


def with_user_files(files: dict[str, bytes]) -> dict[str, bytes]:
    return {**files, **USER_FILES}


@pytest.fixture
def old_out(tmp_path, built) -> Path:
    """An output folder holding an A4 build (a copy of one, manifest included) and the
    user's own files."""
    out = tmp_path / "out"
    shutil.copytree(built[0], out)
    for rel, data in USER_FILES.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(data)
    return out


def assert_old_or_new(out: Path, sets) -> str:
    old, new = sets
    found = files_in(out)
    if found == with_user_files(old):
        return "old"
    if found == with_user_files(new):
        return "new"
    mixed_old = sum(1 for k in old if found.get(k) == old[k])
    mixed_new = sum(1 for k in new if found.get(k) == new[k])
    missing = sorted(set(USER_FILES) - set(found))
    raise AssertionError(f"a mix: {mixed_old} old, {mixed_new} new files, user files missing: "
                         f"{missing}, extra: {sorted(set(found) - set(old) - set(USER_FILES))}")


def cli(*args: str, env: dict[str, str] | None = None, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True,
                          text=True, timeout=300, env={**os.environ, **(env or {})}, **kw)


def start_probe(moment: str, sentinel: Path, *args: str,
                env: dict[str, str] | None = None) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, str(PROBE), moment, str(sentinel), "--", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **(env or {})}, cwd=ROOT)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if line.strip() != f"PAUSED {moment}":
        proc.kill()
        raise AssertionError(f"the build did not pause at {moment}: {line!r} "
                             f"{proc.communicate()[1]}")
    return proc


# --- kill -9 --------------------------------------------------------------------------------

BEFORE_JOURNAL = ["locked", "staged-1", "staged-8"]
AFTER_JOURNAL = ["journaled", "renamed-1", "renamed-6"]


@pytest.mark.parametrize("moment", BEFORE_JOURNAL + AFTER_JOURNAL)
def test_kill_9_leaves_the_old_set_or_one_the_next_build_completes(old_out, sets, tmp_path,
                                                                   moment):
    """Killed before the journal, nothing was replaced; killed after it (during the renames,
    a few milliseconds), the next build first completes the interrupted one from the
    journal, then does its own."""
    proc = start_probe(moment, tmp_path / "never", "--out", str(old_out), "--page", "letter",
                       "-q")
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)
    if moment in BEFORE_JOURNAL or moment == "journaled":
        assert assert_old_or_new(old_out, sets) == "old"
    messages: list[str] = []  # what the next build does first, with the lock held
    output.recover(old_out, messages.append)
    assert assert_old_or_new(old_out, sets) == ("old" if moment in BEFORE_JOURNAL else "new")
    assert messages == ([] if moment in BEFORE_JOURNAL else
                        [f"pnp-build: completed an interrupted build in {old_out}"])
    # an A4 build after it: the old set again, and nothing left behind
    build(old_out)
    assert assert_old_or_new(old_out, sets) == "old"
    assert strays(old_out) == []
    assert read_manifest(old_out) == set(sets[0])


def test_kill_9_while_a_new_folder_is_staged_leaves_no_folder(tmp_path, sets):
    out = tmp_path / "kit"
    proc = start_probe("new-folder", tmp_path / "never", "--out", str(out), "-q")
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)
    assert not out.exists()  # not half a folder: none
    build(out)
    assert files_in(out) == sets[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kit"]


@pytest.mark.parametrize("seed", range(2))
def test_kill_9_at_a_random_moment(old_out, sets, seed):
    """The real command, killed after a random delay (anywhere from loading to the end)."""
    delay = random.Random(seed).uniform(0.3, 2.0)
    proc = subprocess.Popen([sys.executable, "-m", "generator", "--out", str(old_out),
                             "--page", "letter", "-q"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)
    output.recover(old_out, lambda line: None)
    assert assert_old_or_new(old_out, sets) in ("old", "new")
    build(old_out)
    assert assert_old_or_new(old_out, sets) == "old"
    assert strays(old_out) == []


# --- a full disk ----------------------------------------------------------------------------


def test_a_full_disk_leaves_the_old_set_and_names_the_file(old_out, sets, monkeypatch):
    written = [0]
    real_write = os.write

    def full(fd: int, data) -> int:
        written[0] += len(data)
        if written[0] > 400_000:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(output.os, "write", full)
    _, new = sets
    with pytest.raises(OutputError) as caught:
        write_outputs(old_out, new, ("orbitus", "satellites"))
    first, second = caught.value.lines
    assert first.startswith(f"pnp-build: cannot write {old_out}/") and \
        first.endswith(": No space left on device")
    assert (old_out / first.split(f"{old_out}/")[1].split(":")[0]).parent.exists()
    assert second == f"pnp-build: {old_out} was left as it was (nothing of this build was written)"
    monkeypatch.undo()
    assert assert_old_or_new(old_out, sets) == "old"
    assert strays(old_out) == []


@pytest.fixture
def small_disk(tmp_path):
    """A 1.6 MB tmpfs (room for one build, not two); skipped where mounting is not allowed."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1600k", "tmpfs", str(mount)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_really_full_tmpfs(small_disk, sets):
    out = small_disk / "out"
    first = cli("--out", str(out), "-q")
    assert first.returncode == 0, first.stderr
    (out / "notes.txt").write_bytes(b"my notes\n")
    full = cli("--out", str(out), "--page", "letter", "-q")
    assert full.returncode == 2
    lines = full.stderr.splitlines()
    assert lines[0].startswith(f"pnp-build: cannot write {out}/")
    assert lines[0].endswith("No space left on device")
    assert lines[-1] == f"pnp-build: {out} was left as it was (nothing of this build was written)"
    old, _ = sets
    assert files_in(out) == {**old, "notes.txt": b"my notes\n"}
    assert strays(out) == []
    # with room again (the user's file moved away, a larger disk), the build goes through
    subprocess.run(["mount", "-o", "remount,size=4m", str(small_disk)], check=True)
    again = cli("--out", str(out), "--page", "letter", "-q")
    assert again.returncode == 0, again.stderr
    assert files_in(out) == {**sets[1], "notes.txt": b"my notes\n"}
    assert strays(out) == []


# --- concurrent builds ------------------------------------------------------------------------


def test_two_builds_at_once_end_with_one_whole_set(old_out, sets):
    procs = [subprocess.Popen([sys.executable, "-m", "generator", "--out", str(old_out),
                               *extra, "-q"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for extra in ([], ["--page", "letter"])]
    results = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], results
    assert assert_old_or_new(old_out, sets) in ("old", "new")
    assert strays(old_out) == []


def test_a_second_build_waits_for_the_first_and_says_so(old_out, sets, tmp_path):
    go = tmp_path / "go"
    first = start_probe("staged-1", go, "--out", str(old_out), "--page", "letter", "-q")
    second = subprocess.Popen([sys.executable, "-m", "generator", "--out", str(old_out), "-q"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert second.stderr is not None
    line = second.stderr.readline()
    assert line.startswith("pnp-build: another build (process ")
    assert line.rstrip().endswith(f"is writing into {old_out}; waiting for it to finish")
    assert assert_old_or_new(old_out, sets) == "old"  # the first holds the lock, staging
    go.touch()
    assert first.wait(120) == 0
    assert second.wait(300) == 0, second.stderr.read()
    assert assert_old_or_new(old_out, sets) == "old"  # the second (A4) came last
    assert strays(old_out) == []


def test_a_lock_held_too_long_is_a_clear_refusal(old_out, monkeypatch):
    import fcntl

    lock = old_out.parent / f".{old_out.name}.pnp-lock"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.write(fd, b"4242\n")
    messages: list[str] = []
    real = output.locked

    def short(lock_path, out, info, wait=output.LOCK_WAIT_SECONDS):
        return real(lock_path, out, info, wait=0.3)

    monkeypatch.setattr(output, "locked", short)
    try:
        with pytest.raises(OutputError) as caught:
            write_outputs(old_out, {"x.pdf": b"x"}, (), info=messages.append)
    finally:
        os.close(fd)
    assert messages == [f"pnp-build: another build (process 4242) is writing into {old_out}; "
                        "waiting for it to finish"]
    assert caught.value.lines == [
        f"pnp-build: another build (process 4242) has been writing into {old_out} for 0.3 s; "
        "nothing was written (stop it, or try again later)"]
    assert not (old_out / "x.pdf").exists()


# --- read-only folders, links, the user's files ---------------------------------------------


def test_a_read_only_subfolder_gets_the_whole_new_set(old_out, sets):
    svg = old_out / "orbitus" / "svg"
    svg.chmod(0o555)
    try:
        build(old_out, opts=BuildOptions(page="letter"))
        assert assert_old_or_new(old_out, sets) == "new"
        assert (svg.stat().st_mode & 0o777) == 0o555  # the folder keeps the user's mode
        build(old_out)
        assert assert_old_or_new(old_out, sets) == "old"
        assert strays(old_out) == []
    finally:
        svg.chmod(0o755)


# root ignores folder permissions; without these capabilities it obeys them like anyone
NO_OVERRIDE = ["setpriv", "--inh-caps=-dac_override,-dac_read_search,-fowner",
               "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"]


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None,
                    reason="needs root and setpriv to drop the permission override")
def test_a_read_only_subfolder_where_permissions_count(tmp_path, sets):
    """The build runs without root's permission override: a folder the user made read-only
    cannot take the new files, so the build says so and replaces nothing (the folder is
    kept as it is, mode and all)."""
    out = tmp_path / "out"

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([*NO_OVERRIDE, sys.executable, "-m", "generator", *args],
                              capture_output=True, text=True, timeout=300)

    assert run("--out", str(out), "-q").returncode == 0
    (out / "orbitus" / "notes").mkdir()
    (out / "orbitus" / "notes" / "mine.txt").write_bytes(b"mine")
    (out / "orbitus" / "notes").chmod(0o555)
    (out / "orbitus").chmod(0o555)  # where the Orbitus PDFs are
    try:
        done = run("--out", str(out), "--page", "letter", "-q")
        assert done.returncode == 2
        assert done.stderr.splitlines() == [
            f"pnp-build: cannot write {out}/orbitus: the folder is read-only (make it "
            "writable, or choose another --out)",
            f"pnp-build: {out} was left as it was (nothing of this build was written)"]
        assert files_in(out) == {**sets[0], "orbitus/notes/mine.txt": b"mine"}
        assert strays(out) == []
        assert ((out / "orbitus").stat().st_mode & 0o777) == 0o555
        (out / "orbitus").chmod(0o755)  # made writable again: the build goes through
        done = run("--out", str(out), "--page", "letter", "-q")
        assert done.returncode == 0, done.stderr
        assert files_in(out) == {**sets[1], "orbitus/notes/mine.txt": b"mine"}
        assert ((out / "orbitus" / "notes").stat().st_mode & 0o777) == 0o555
    finally:
        for path in (out / "orbitus", out / "orbitus" / "notes"):
            path.chmod(0o755)


def test_the_users_files_survive_every_build(old_out, sets, cards_copy):
    import re

    before = {rel: (old_out / rel).stat().st_ino for rel in USER_FILES}
    assert cli("--out", str(old_out), "--page", "letter", "-q").returncode == 0
    assert {rel: (old_out / rel).stat().st_ino for rel in USER_FILES} == before  # same files
    # a sector no longer defined: its SVG (the tool's) goes, the user's logo stays
    path = cards_copy / "orbitus" / "sectors.yaml"
    path.write_text(re.sub(r"  - \{id: S72,.*\n", "", path.read_text(encoding="utf-8")),
                    encoding="utf-8")
    assert cli("--out", str(old_out), "--cards", str(cards_copy), "--game", "orbitus",
               "-q").returncode == 0
    assert not (old_out / "orbitus/svg/sector-S72.svg").exists()
    for rel, data in USER_FILES.items():
        assert (old_out / rel).read_bytes() == data
    assert (old_out / "satellites/board.pdf").read_bytes() == sets[1]["satellites/board.pdf"]


def test_a_file_saved_by_the_user_during_the_build_is_kept(old_out, tmp_path):
    go = tmp_path / "go"
    proc = start_probe("journaled", go, "--out", str(old_out), "--page", "letter", "-q")
    # the build is about to rename its files into place; the user's editor saves
    (old_out / "notes.txt").write_bytes(b"saved during the build\n")
    (old_out / "orbitus" / "late.txt").write_bytes(b"made during the build\n")
    go.touch()
    assert proc.wait(120) == 0
    assert (old_out / "notes.txt").read_bytes() == b"saved during the build\n"
    assert (old_out / "orbitus" / "late.txt").read_bytes() == b"made during the build\n"
    assert strays(old_out) == []


def test_a_link_out_of_the_output_folder_is_refused(old_out, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "precious.txt").write_bytes(b"keep me")
    shutil.rmtree(old_out / "orbitus" / "svg")
    (old_out / "orbitus" / "svg").symlink_to(elsewhere)
    before = files_in(old_out)
    done = cli("--out", str(old_out), "-q")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"{old_out}/orbitus/svg: is a link (to {elsewhere}); pnp-build writes only inside "
        f"{old_out} and never through links: remove the link or choose another --out",
        "pnp-build: nothing was written"]
    assert sorted(p.name for p in elsewhere.iterdir()) == ["precious.txt"]
    assert files_in(old_out) == before
    assert strays(old_out) == []


def test_a_folder_where_a_file_goes_is_refused(old_out):
    (old_out / "calibration.pdf").unlink()
    (old_out / "calibration.pdf").mkdir()
    done = cli("--out", str(old_out), "-q")
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] == (
        f"{old_out}/calibration.pdf: is a folder, but the build writes a file there; move it "
        "away or choose another --out")


def test_only_files_the_manifest_lists_are_ever_deleted(tmp_path):
    out = tmp_path / "out"
    write_outputs(out, {"g/svg/a.svg": b"<svg/>", "g/svg/b.svg": b"<svg/>"}, ("g",))
    (out / "g/svg/mine.svg").write_bytes(b"the user's")
    write_outputs(out, {"g/svg/a.svg": b"<svg/>"}, ("g",))  # b is no longer made
    assert sorted(p.name for p in (out / "g/svg").iterdir()) == ["a.svg", "mine.svg"]
    # without the manifest nothing there counts as the tool's: the folder is refused
    (out / MANIFEST).unlink()
    with pytest.raises(OutputError) as caught:
        write_outputs(out, {"g/svg/c.svg": b"<svg/>"}, ("g",))
    assert caught.value.lines == [
        f"pnp-build: --out {out}: holds 2 file(s) pnp-build did not write (g/svg/a.svg, "
        f"g/svg/mine.svg) and no {MANIFEST} that lists its own; give the kit a new or empty "
        "folder (nothing was written)"]
    assert sorted(p.name for p in (out / "g/svg").iterdir()) == ["a.svg", "mine.svg"]


def test_a_build_by_an_earlier_version_without_a_manifest_is_replaced(built, tmp_path, sets):
    """A folder without a manifest whose every file is at a name the build writes (a build
    of a version before manifests) is the tool's; with a file of anyone else's in it, it is
    refused."""
    out = tmp_path / "old"
    shutil.copytree(built[0], out)
    (out / MANIFEST).unlink()
    build(out, opts=BuildOptions(page="letter"))
    assert files_in(out) == sets[1]
    assert read_manifest(out) == set(sets[1])
    (out / MANIFEST).unlink()
    (out / "notes.txt").write_bytes(b"my notes\n")
    with pytest.raises(OutputError) as caught:
        build(out)
    assert "holds 1 file(s) pnp-build did not write (notes.txt)" in caught.value.lines[0]
    assert files_in(out) == {**sets[1], "notes.txt": b"my notes\n"}


def test_left_over_temporary_files_of_earlier_versions_are_removed(old_out):
    stale = old_out / "orbitus" / ".sectors.pdf.k2j4h5g6.tmp"
    stale.write_bytes(b"half a PDF")
    (old_out / "orbitus" / ".my.tmp").write_bytes(b"the user's")
    assert cli("--out", str(old_out), "-q").returncode == 0
    assert not stale.exists()
    assert (old_out / "orbitus" / ".my.tmp").exists()


def test_a_journal_left_by_a_killed_build_is_carried_out_by_the_next(old_out, sets,
                                                                     monkeypatch):
    old, new = sets
    monkeypatch.setattr(output, "_finish_in_place", lambda out, stage: None)
    write_outputs(old_out, new, ("orbitus", "satellites"))  # killed after the journal
    assert list(old_out.parent.glob(".out.pnp-stage-*/journal.json"))
    assert assert_old_or_new(old_out, sets) == "old"
    monkeypatch.undo()
    messages: list[str] = []
    write_outputs(old_out, old, ("orbitus", "satellites"), info=messages.append)
    assert messages == [f"pnp-build: completed an interrupted build in {old_out}"]
    assert assert_old_or_new(old_out, sets) == "old"
    assert strays(old_out) == []


def test_a_read_only_folder_is_refused_before_anything_is_staged(old_out, sets,
                                                                 monkeypatch):
    real_access = os.access
    orbitus = old_out / "orbitus"

    def access(path, mode, **kw) -> bool:
        return False if Path(path) == orbitus else real_access(path, mode, **kw)

    monkeypatch.setattr(output.os, "access", access)
    with pytest.raises(OutputError) as caught:
        write_outputs(old_out, sets[1], ("orbitus", "satellites"))
    assert caught.value.lines == [
        f"pnp-build: cannot write {orbitus}: the folder is read-only (make it writable, or "
        "choose another --out)",
        f"pnp-build: {old_out} was left as it was (nothing of this build was written)"]
    monkeypatch.undo()
    assert assert_old_or_new(old_out, sets) == "old"
    assert strays(old_out) == []


# --- folders are kept: owner, mode, ACLs, attributes, a shell inside -------------------------

ROOT_TOOLS = os.geteuid() == 0 and all(shutil.which(t) for t in
                                       ("setfacl", "getfacl", "setfattr", "getfattr",
                                        "setpriv"))


def folder_facts(path: Path) -> tuple:
    """Owner, group, mode, inode, ACL (access and default) and extended attributes."""
    info = path.stat()
    acl = subprocess.run(["getfacl", "-p", "--omit-header", str(path)], capture_output=True,
                         text=True, check=True).stdout
    attrs = subprocess.run(["getfattr", "-d", "--absolute-names", str(path)],
                           capture_output=True, text=True, check=True).stdout
    return (info.st_uid, info.st_gid, info.st_mode & 0o7777, info.st_ino, acl,
            attrs.split("\n", 1)[-1])


@pytest.mark.skipif(not ROOT_TOOLS, reason="needs root, acl, attr and setpriv")
def test_root_building_into_another_users_folder_keeps_every_folder_as_it_was(old_out, sets):
    """sudo pnp build --out ~anna/kit: the folders stay Anna's (owner, group, mode, ACLs,
    extended attributes, the same folders), every file the build makes is hers too, and
    she can still write in every folder."""
    anna = (1234, 1234)
    for path in [old_out, *[p for p in old_out.rglob("*")]]:
        os.lchown(path, *anna)
    (old_out / "orbitus").chmod(0o2775)  # setgid, group-writable: shared with her group
    subprocess.run(["setfacl", "-m", "u:4321:rwx", "-d", "-m", "u:4321:rwx",
                    str(old_out / "orbitus" / "svg")], check=True)
    subprocess.run(["setfattr", "-n", "user.project", "-v", "autumn fair",
                    str(old_out / "satellites")], check=True)
    folders = [old_out, *sorted(p for p in old_out.rglob("*") if p.is_dir())]
    before = {p: folder_facts(p) for p in folders}
    done = cli("--out", str(old_out), "--page", "letter", "-q")
    assert done.returncode == 0, done.stderr
    assert assert_old_or_new(old_out, sets) == "new"
    assert {p: folder_facts(p) for p in folders} == before
    assert {(p.stat().st_uid, p.stat().st_gid) for p in old_out.rglob("*")} == {anna}
    for folder in folders:  # Anna, without root, can still write in each of them
        probe = subprocess.run(["setpriv", "--reuid", "1234", "--regid", "1234",
                                "--clear-groups", "touch", "anna-was-here"], cwd=folder,
                               capture_output=True, text=True)
        assert probe.returncode == 0, (folder, probe.stderr)


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give a folder to another user")
def test_root_making_a_new_kit_in_a_users_folder_gives_it_to_that_user(tmp_path):
    home = tmp_path / "anna"
    home.mkdir()
    os.chown(home, 1234, 1234)
    done = cli("--out", str(home / "kits" / "autumn"), "--game", "satellites", "-q")
    assert done.returncode == 0, done.stderr
    owners = {(p.stat().st_uid, p.stat().st_gid) for p in [home / "kits", *home.rglob("*")]}
    assert owners == {(1234, 1234)}


def test_a_shell_inside_the_output_folder_stays_in_a_live_folder(old_out, sets):
    """A terminal open in output/orbitus (or a file manager showing it) is still in that
    folder after a build: the folder is the same one, not a deleted copy."""
    inside = old_out / "orbitus"
    shell = subprocess.Popen(["sleep", "300"], cwd=inside)
    try:
        before = os.stat(f"/proc/{shell.pid}/cwd")
        done = cli("--out", str(old_out), "--page", "letter", "-q")
        assert done.returncode == 0, done.stderr
        assert os.readlink(f"/proc/{shell.pid}/cwd") == str(inside)  # no " (deleted)"
        assert os.stat(f"/proc/{shell.pid}/cwd").st_ino == before.st_ino == inside.stat().st_ino
        listed = subprocess.run(["ls"], cwd=f"/proc/{shell.pid}/cwd", capture_output=True,
                                text=True, check=True).stdout.split()
        assert "sectors.pdf" in listed
    finally:
        shell.kill()
        shell.wait()
    assert assert_old_or_new(old_out, sets) == "new"


def test_the_root_folder_and_the_home_folder_are_refused(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "thesis.pdf").write_bytes(b"%PDF-1.4 years of work")
    for given, line in [
        ("/", "pnp-build: --out /: is the root folder of the system; give the kit a folder "
              "of its own (e.g. --out kit); nothing was written"),
        (str(home), f"pnp-build: --out {home}: is your home folder; give the kit a folder of "
                    "its own (e.g. --out ~/kit); nothing was written"),
    ]:
        done = cli("--out", given, "--game", "satellites", "-q", env={"HOME": str(home)})
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr.splitlines() == [line]
    assert sorted(p.name for p in home.iterdir()) == ["thesis.pdf"]
    assert not Path("/satellites").exists() and not Path("/.pnp-build.json").exists()


def test_a_folder_of_someone_elses_files_is_refused(tmp_path):
    """--out ~/Documents by mistake: a folder that holds files no build wrote (and no
    manifest) is not a kit's folder; nothing is written into it."""
    docs = tmp_path / "Documents"
    (docs / "taxes").mkdir(parents=True)
    for name in ("letter.odt", "taxes/2025.pdf", "calibration.pdf", "todo.txt"):
        (docs / name).write_bytes(b"mine")
    before = files_in(docs)
    done = cli("--out", str(docs), "-q")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [
        f"pnp-build: --out {docs}: holds 3 file(s) pnp-build did not write (letter.odt, "
        f"taxes/2025.pdf, todo.txt) and no {MANIFEST} that lists its own; give the kit a new "
        "or empty folder (nothing was written)"]
    assert files_in(docs) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Documents"]
    # an empty folder of the user's is fine, and is kept (not replaced)
    empty = tmp_path / "kit"
    empty.mkdir()
    inode = empty.stat().st_ino
    assert cli("--out", str(empty), "--game", "satellites", "-q").returncode == 0
    assert empty.stat().st_ino == inode and (empty / "satellites" / "board.pdf").is_file()


# --- --watch ----------------------------------------------------------------------------------


def test_watch_reports_a_date_and_carries_on_then_remakes_deleted_outputs(cards_copy, tmp_path):
    from generator.watch import watch

    out = tmp_path / "out"
    lines: list[str] = []
    stop = threading.Event()
    thread = threading.Thread(target=watch, args=(out, ("satellites",), cards_copy,
                                                  BuildOptions()),
                              kwargs={"interval": 0.05, "stop": stop, "report": lines.append},
                              daemon=True)

    def wait_for(text: str, after: int) -> int:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            for i in range(after, len(lines)):
                if text in lines[i]:
                    return i
            time.sleep(0.02)
        raise AssertionError(f"no {text!r}: {lines}")

    thread.start()
    try:
        wait_for("watching ", 0)
        board = cards_copy / "satellites" / "board.yaml"
        good = board.read_text(encoding="utf-8")
        mark = len(lines)
        board.write_text(good.replace("size: 10", "size: 2001-02-30"), encoding="utf-8")
        i = wait_for("problem(s) in the satellites definitions", mark)
        assert any("board.yaml" in line and "2001-02-30 is a date" in line
                   for line in lines[mark:i])
        assert thread.is_alive()
        # the output folder deleted by hand; one save remakes every missing file
        shutil.rmtree(out)
        mark = len(lines)
        board.write_text(good + "# saved again\n", encoding="utf-8")
        wait_for("rebuilt satellites", mark)
        wait_for("rebuilt calibration.pdf (it was missing)", mark)
        assert (out / "satellites/board.pdf").is_file()
        assert (out / "satellites/tokens.pdf").is_file()
        assert (out / "calibration.pdf").is_file()
        assert read_manifest(out) == {p.relative_to(out).as_posix() for p in out.rglob("*")
                                      if p.is_file() and p.name != MANIFEST}
    finally:
        stop.set()
        thread.join(60)


def test_the_staged_build_is_flushed_once_or_file_by_file(tmp_path, monkeypatch):
    """One syncfs makes the staged build durable before the switch-over; where there is none,
    every file and folder is flushed in turn; a write that fails on its way to the disk stops
    the build with the old folder untouched."""
    import ctypes
    import errno as errnos

    import generator.output as output
    from generator.build import build
    from generator.options import BuildOptions

    out = tmp_path / "out"
    calls: list[int] = []

    def syncfs(fd: int) -> int:
        calls.append(fd)
        return 0

    monkeypatch.setattr(output, "_load_syncfs", lambda: syncfs)
    first = build(out, games=("satellites",))
    assert len(calls) == 1

    flushed: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(output, "_load_syncfs", lambda: False)
    monkeypatch.setattr(output.os, "fsync", lambda fd: (flushed.append(fd), real_fsync(fd)))
    written = build(out, games=("satellites",), opts=BuildOptions(page="letter"))
    changed = [rel for rel in written if written[rel] != first[rel]]
    assert changed and len(flushed) >= len(changed) + 2  # each file, the folders, the journal
    before = (out / "satellites" / "board.pdf").read_bytes()

    def failing(fd: int) -> int:
        ctypes.set_errno(errnos.EIO)
        return -1

    monkeypatch.setattr(output, "_load_syncfs", lambda: failing)
    with pytest.raises(output.OutputError) as info:
        build(out, games=("satellites",))
    assert "Input/output error" in "\n".join(info.value.lines)
    assert (out / "satellites" / "board.pdf").read_bytes() == before


def test_an_unchanged_file_is_kept_not_written_again(tmp_path):
    """A rebuild leaves the previous build's file as it is when its bytes are the same
    (nothing new is written); a changed file, or one the user edited, is written anew."""
    from generator.build import build
    from generator.options import BuildOptions

    out = tmp_path / "out"
    build(out, games=("satellites",))
    board, pad = out / "satellites" / "board.pdf", out / "satellites" / "score-pad.pdf"
    svg = out / "satellites" / "svg" / "board.svg"
    before = {p: p.stat().st_ino for p in (board, pad, svg)}
    svg.write_bytes(svg.read_bytes() + b"<!-- mine -->")  # edited in place
    build(out, games=("satellites",))
    assert pad.stat().st_ino == before[pad] and board.stat().st_ino == before[board]
    assert svg.stat().st_ino != before[svg] and not svg.read_bytes().endswith(b"-->")
    build(out, games=("satellites",), opts=BuildOptions(page="letter"))
    assert board.stat().st_ino != before[board]  # other bytes: a new file
    assert not [p for p in tmp_path.iterdir() if p.name != "out"]
