"""Time the mutation fuzzer's readers (testkit/fuzzing.py, testkit/fuzz_inputs.py): how long
one input takes each, and so how long the long run of 10,000 inputs a reader takes.

Figures (issue 26): the time of one input of each of the eight readers (the definitions,
layouts, boards, records, photos, marker maps, cache entries and a run's games.jsonl),
the mean over a slice of inputs after the reader is set up (a mutated photo is
often refused at once, or read in full: the mean is what a long run costs) (its photos, its kit, its
runs made), with the count of inputs that broke the contract in the note (it must be 0).
The long run itself is tools/fuzz_readers.py (10,000 inputs a reader; photos and marker
maps take most of an hour each).
Run: .venv/bin/python benchmarks/bench_fuzz.py [--inputs N] [--reader KIND ...]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from timing import ROOT, figure

sys.path.insert(0, str(ROOT))

from testkit.fuzz_inputs import KINDS, fuzz_any  # noqa: E402

READERS = ("definitions", "layouts", "boards", "records", *KINDS)
COSTLY = {"photos": 0.2, "markers": 0.4}  # these readers run this share of --inputs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inputs", type=int, default=500,
                        help="inputs a reader (photos a fifth, marker maps two fifths)")
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--reader", choices=READERS, action="append")
    args = parser.parse_args()
    os.environ["PNP_CACHE_DIR"] = tempfile.mkdtemp(prefix="pnp-bench-fuzz-cache-")
    for kind in args.reader or READERS:
        count = max(5, round(args.inputs * COSTLY.get(kind, 1.0)))
        stamps: list[float] = []

        def stamp(_n: int, stamps: list[float] = stamps) -> None:
            stamps.append(time.perf_counter())

        with tempfile.TemporaryDirectory(prefix="pnp-bench-fuzz-") as work:
            tally = fuzz_any(kind, count, args.seed, Path(work), progress=stamp)
        each = [b - a for a, b in zip(stamps, stamps[1:], strict=False)]
        mean = statistics.fmean(each) if each else 0.0
        median = statistics.median(each) if each else 0.0
        figure(f"fuzz reader {kind}, one input (mean)", mean * 1000,
               note=f"{len(each)} inputs after the first, seed {args.seed}, median "
                    f"{median * 1000:,.0f} ms; 10,000 inputs take about "
                    f"{10_000 * mean / 60:,.0f} min; {tally.bad} broke the contract")

if __name__ == "__main__":
    main()
