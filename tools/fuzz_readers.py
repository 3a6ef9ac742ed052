"""Run the mutation fuzzer over every reader (see testkit/fuzzing.py and
testkit/fuzz_inputs.py) and print the counts.

    .venv/bin/python tools/fuzz_readers.py                 # 10,000 inputs per reader, seed 9
    .venv/bin/python tools/fuzz_readers.py --count 500 --seed 1 --reader layouts
    .venv/bin/python tools/fuzz_readers.py --reader photos --reader markers

The first four readers take a few minutes for 10,000 inputs each, cache entries and runs
about as long; photos and marker maps take most of an hour each or more (what one input
costs each reader: benchmarks/bench_fuzz.py).

Inputs that break the contract (a traceback, an "internal error", a hang, exit 2 with a
report, a problem line without its file) are saved in --keep (default fuzz-failures/) to be
replayed by hand. Exit code 0 when none did, 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from testkit.fuzz_inputs import KINDS, fuzz_any  # noqa: E402

READERS = ("definitions", "layouts", "boards", "records", *KINDS)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=10_000, help="inputs per reader")
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--reader", choices=READERS, action="append",
                        help="only this reader (repeatable); default: all eight")
    parser.add_argument("--keep", type=Path, default=Path("fuzz-failures"))
    args = parser.parse_args()
    os.environ.setdefault("PNP_CACHE_DIR", tempfile.mkdtemp(prefix="pnp-fuzz-cache-"))
    bad = 0
    with tempfile.TemporaryDirectory(prefix="pnp-fuzz-") as work:
        for kind in args.reader or READERS:
            started = time.perf_counter()

            def progress(n: int, kind: str = kind, started: float = started) -> None:
                if n % max(1, min(1000, args.count // 10)) == 0:
                    print(f"  {kind}: {n} inputs, {time.perf_counter() - started:.0f} s",
                          file=sys.stderr, flush=True)

            tally = fuzz_any(kind, args.count, args.seed, Path(work), args.keep, progress)
            took = time.perf_counter() - started
            print(f"{tally.line()}  {took:.0f} s", flush=True)
            for number, why in tally.failures[:10]:
                print(f"    input {number}: {why}", flush=True)
            bad += tally.bad
    print(f"seed {args.seed}: {'no' if not bad else bad} input(s) broke the contract")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
