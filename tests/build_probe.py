"""Run ``pnp-build`` with a pause at one moment of writing, for the tests to kill it there.

    python tests/build_probe.py MOMENT SENTINEL -- PNP-BUILD-ARGS...

At MOMENT the build prints ``PAUSED MOMENT`` on stdout and waits until the file SENTINEL
exists (the test either kills it with SIGKILL meanwhile, or creates SENTINEL to let it go
on). Moments:

* ``locked``: the lock is held, nothing written yet;
* ``staged-N``: after the N-th new file is written into the staging folder;
* ``journaled``: every file is staged and flushed, the journal written; the renames are
  next;
* ``renamed-N``: after the N-th file (or new folder) is renamed into place;
* ``new-folder``: a folder that did not exist is staged whole beside its place, the rename
  into place is next.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path


def main() -> None:
    moment, sentinel = sys.argv[1], Path(sys.argv[2])
    args = sys.argv[sys.argv.index("--") + 1:]

    def pause(name: str) -> None:
        if name != moment:
            return
        sys.stdout.write(f"PAUSED {name}\n")
        sys.stdout.flush()
        deadline = time.monotonic() + 120
        while not sentinel.exists() and time.monotonic() < deadline:
            time.sleep(0.01)

    import generator.output as output

    staged = [0]
    original_place = output._place_file

    def place_file(root: Path, rel: str, data: bytes, sync: bool, owner: object) -> None:
        original_place(root, rel, data, sync, owner)  # type: ignore[arg-type]
        staged[0] += 1
        pause(f"staged-{staged[0]}")

    output._place_file = place_file

    original_finish = output._finish_in_place

    def finish(out: Path, stage: Path) -> None:
        if (stage / output.JOURNAL).exists():
            pause("journaled")
        original_finish(out, stage)

    output._finish_in_place = finish

    renamed = [0]
    original_replace = os.replace
    original_rename = os.rename

    def replace(src: object, dst: object) -> None:
        original_replace(src, dst)  # type: ignore[arg-type]
        staged = output.INPLACE_PREFIX in str(src) or ".pnp-stage-" in str(src)
        if staged and Path(str(src)).name != output.MANIFEST:
            renamed[0] += 1
            pause(f"renamed-{renamed[0]}")

    def rename(src: object, dst: object) -> None:
        if ".pnp-new-" in str(src):
            pause("new-folder")
        original_rename(src, dst)  # type: ignore[arg-type]

    os.replace = replace  # type: ignore[assignment]
    os.rename = rename  # type: ignore[assignment]

    original_recover = output.recover

    def recover(out: Path, info: object) -> None:
        pause("locked")
        original_recover(out, info)  # type: ignore[arg-type]

    output.recover = recover

    from generator.cli import main as build

    sys.exit(build(list(args), "pnp-build"))


if __name__ == "__main__":
    main()
