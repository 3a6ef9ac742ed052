"""How many cards the curl note names on the 2-D synthetic photos of bench_photo.py (whose
cards all lie flat: every one named is a false note), and which.

    .venv/bin/python benchmarks/bench_curl.py --photos 30
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before NumPy is imported
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import figure  # noqa: E402


def main() -> int:
    import cv2

    from testkit.photo_evaluate import Bench

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photos", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    bench = Bench("orbitus", args.seed, args.photos)  # the tables bench_photo.py makes
    named = cards = photos = 0
    for index in range(args.photos):
        shot = bench.shot(index)
        reading, _ = bench.reader.read_bytes(shot.jpeg, f"photo-{index}.jpg")
        cards += len(reading.placed)
        covered = {tuple(s.piece.cell) for s in shot.seen
                   if s.piece.kind == "sector" and s.covered > 0}
        if reading.lifted:
            photos += 1
            named += len(reading.lifted)
            print(f"  photo {index}: " + ", ".join(
                f"{list(c)}{' (partly covered)' if c in covered else ''}"
                for c in reading.lifted))
    print(f"orbitus: {args.photos} synthetic photos (seed {args.seed}), {cards} cards read, "
          f"{named} named as not lying flat in {photos} photos (all lie flat)")
    figure("flat cards named as not lying flat (curl note)", 100.0 * named / max(cards, 1),
           unit="%", indent="",
           note=f"{named} of {cards} cards in {photos} of {args.photos} synthetic photos")
    return 0


if __name__ == "__main__":
    sys.exit(main())
