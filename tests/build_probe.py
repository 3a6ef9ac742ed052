"""Run ``pnp-build`` with a pause at one moment of writing, for the tests to kill it there.

    python tests/build_probe.py MOMENT SENTINEL -- PNP-BUILD-ARGS...

At MOMENT the build prints ``PAUSED MOMENT`` on stdout and waits until the file SENTINEL
exists (the test either kills it with SIGKILL meanwhile, or creates SENTINEL to let it go
on). Moments:

* ``staged-N``: after the N-th new file is written into the staging folder;
* ``before-swap``: everything is staged and linked, the switch-over is next;
* ``after-swap``: the folders are swapped, the old one not yet renamed or removed;
* ``between-renames``: the fallback switch-over (no RENAME_EXCHANGE): the old folder is
  renamed away, the new one not yet in its place;
* ``cleaning``: the previous build's folder is being removed;
* ``locked``: the lock is held, nothing written yet.
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

    def place_file(root: Path, rel: str, data: bytes, sync: bool, same_as: Path | None) -> None:
        original_place(root, rel, data, sync, same_as)
        if ".pnp-new-" in str(root) and not rel.startswith(".pnp"):
            staged[0] += 1
            pause(f"staged-{staged[0]}")

    output._place_file = place_file

    original_exchange = output.exchange

    def exchange(a: Path, b: Path) -> bool:
        pause("before-swap")
        if moment == "between-renames":
            return False
        done = original_exchange(a, b)
        if done:
            pause("after-swap")
        return done

    output.exchange = exchange

    original_rename = os.rename

    def rename(src: object, dst: object) -> None:
        original_rename(src, dst)  # type: ignore[arg-type]
        if ".pnp-old-" in str(dst) and moment == "between-renames":
            pause("between-renames")

    os.rename = rename  # type: ignore[assignment]

    original_clean = output._clean_old_tree

    def clean(old: Path, out: Path, info: object = None) -> None:
        pause("cleaning")
        original_clean(old, out, info)  # type: ignore[arg-type]

    output._clean_old_tree = clean

    original_recover = output.recover

    def recover(out: Path, info: object) -> None:
        pause("locked")
        original_recover(out, info)  # type: ignore[arg-type]

    output.recover = recover

    from generator.cli import main as build

    sys.exit(build(list(args), "pnp-build"))


if __name__ == "__main__":
    main()
