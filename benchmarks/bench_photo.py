"""Accuracy and speed of reading a finished table from a photo (pnp-score --photo).

Accuracy: N synthetic photos per game (the golden tables or boards first, then random
legal tables of 20-72 sectors of the deck with 2-6 players, and boards from random
games), each through a random camera: tilt up to 35 degrees, any in-plane turn, 2-8
px/mm at the table's centre (photos kept to 48 megapixels), Gaussian blur up to 1.5
px, sensor noise, uneven light and a colour cast, JPEG quality 60-95, a cluttered
background, and in 3 of 5 photos one to three cards or satellites partly covered by
a finger, a pen or a coin. Every photo is read and judged against what was laid out:

- every fully visible card read on the right cell with the right card and rotation;
- partly covered ones read right or reported unread, never read wrong;
- nothing read where nothing lies, no empty cell reported;
- the read layout scores exactly as the source layout (photos read completely).

Speed: a 12-megapixel photo (4000 x 3000) of the 72-sector golden table
(tests/fixtures/orbitus/six-players-72.yaml) through five random cameras, each read
five times on one core (OpenCV and BLAS limited to one thread); the figure is the
whole read from the JPEG's bytes to the layout (decoding, markers, grid, art).

    .venv/bin/python benchmarks/bench_photo.py                 # 200 photos, 100 pairs per game
    .venv/bin/python benchmarks/bench_photo.py --photos 20 --jobs 2
    .venv/bin/python benchmarks/bench_photo.py --game orbitus --only 17   # one photo again
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before NumPy is imported
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import figure  # noqa: E402

_BENCH = None


def _worker(job: tuple[str, int, int, int, bool]) -> object:
    global _BENCH
    import cv2

    from testkit.photo_evaluate import Bench

    game, seed, count, index, pair = job
    cv2.setNumThreads(1)
    if _BENCH is None or (_BENCH.game, _BENCH.seed, len(_BENCH.tables)) != (game, seed, count):
        _BENCH = Bench(game, seed, count)  # --pairs N after --photos M: N tables, not M
    return _BENCH.pair(index) if pair else _BENCH.case(index)


def _run(work: list[tuple[str, int, int, int, bool]], jobs: int) -> tuple[list[object], float]:
    """The cases of ``work`` (:func:`_worker`'s arguments), in ``jobs`` processes, and the
    seconds they took."""
    from multiprocessing import get_context

    start = time.perf_counter()
    if jobs > 1:
        with get_context("fork").Pool(jobs) as pool:
            cases = list(pool.imap(_worker, work))
    else:
        cases = [_worker(w) for w in work]
    return cases, time.perf_counter() - start


def accuracy(game: str, photos: int, seed: int, jobs: int, only: int | None) -> bool:
    indices = [only] if only is not None else list(range(photos))
    cases, took = _run([(game, seed, photos, i, False) for i in indices], jobs)
    return report(game, cases, took, seed)


def report(game: str, cases: list, took: float, seed: int) -> bool:  # type: ignore[type-arg]
    piece = "card" if game == "orbitus" else "satellite"
    visible = sum(c.outcome.visible for c in cases)
    visible_read = sum(c.outcome.visible_read for c in cases)
    partly = sum(c.outcome.partly for c in cases)
    partly_read = sum(c.outcome.partly_read for c in cases)
    partly_unread = sum(c.outcome.partly_unread for c in cases)
    wrong = sum(len(c.outcome.wrong) for c in cases)
    missed = sum(len(c.outcome.missed) for c in cases)
    phantom = sum(len(c.outcome.phantom) for c in cases)
    false_unread = sum(len(c.outcome.false_unread) for c in cases)
    complete = [c for c in cases if c.outcome.complete]
    equal = sum(1 for c in complete if c.outcome.scores_equal)
    ok = sum(1 for c in cases if c.outcome.ok)
    seconds = [c.seconds for c in cases]
    print(f"\n{game}: {len(cases)} synthetic photos (seed {seed}), "
          f"{sum(c.pieces for c in cases)} {piece}s, made and read in {took:.0f} s")
    print(f"  fully visible {piece}s read right     {visible_read}/{visible} "
          f"({100.0 * visible_read / max(visible, 1):.2f} %)")
    print(f"  partly covered: read right / unread  {partly_read} / {partly_unread} of {partly}"
          f" (read wrong: {wrong})")
    print(f"  read wrong (any {piece})              {wrong}")
    print(f"  neither read nor reported            {missed}")
    print(f"  read where none lies                 {phantom}")
    print(f"  reported where none lies             {false_unread}")
    print(f"  photos read completely               {len(complete)}; their scores equal to "
          f"the source's: {equal}/{len(complete)}")
    print(f"  photos judged right in every point   {ok}/{len(cases)}")
    print(f"  reading time per photo               median {statistics.median(seconds):.2f} s, "
          f"90th pct {sorted(seconds)[int(0.9 * (len(seconds) - 1))]:.2f} s, "
          f"max {max(seconds):.2f} s (sizes {min(c.size[0] * c.size[1] for c in cases) / 1e6:.1f}"
          f"-{max(c.size[0] * c.size[1] for c in cases) / 1e6:.1f} MP)")
    figure(f"{game}: fully visible {piece}s read right ({len(cases)} photos)",
           100.0 * visible_read / max(visible, 1), 100.0, unit="%", better="higher",
           note=f"{visible_read}/{visible}")
    figure(f"{game}: {piece}s read wrong or where none lies ({len(cases)} photos)",
           wrong + phantom, 1, unit="",
           note=f"partly covered {partly}: {partly_read} read right, {partly_unread} unread")
    figure(f"{game}: {piece}s neither read nor reported ({len(cases)} photos)", missed, 1,
           unit="")
    if complete:
        figure(f"{game}: photos read completely and scored as the source",
               100.0 * equal / len(complete), 100.0, unit="%", better="higher",
               note=f"{equal}/{len(complete)}")
    for c in cases:
        if not c.outcome.ok:
            cam = c.camera
            print(f"  photo {c.index} (scale {cam['scale']:.1f} px/mm, tilt {cam['tilt']:.0f}, "
                  f"blur {cam['blur']:.2f}, JPEG {cam['quality']:.0f}): "
                  + c.outcome.problems())
    return ok == len(cases)


def pairs(game: str, count: int, seed: int, jobs: int) -> bool:
    """Two photos of each of ``count`` tables (other cameras, other fingers), merged cell
    by cell: the share of the pieces fully visible in either photo read right."""
    cases, took = _run([(game, seed, count, i, True) for i in range(count)], jobs)
    piece = "card" if game == "orbitus" else "satellite"
    visible = sum(c.outcome.visible for c in cases)
    right = sum(c.outcome.visible_read for c in cases)
    wrong = sum(len(c.outcome.wrong) for c in cases)
    silent = sum(1 for c in cases if c.outcome.silent_wrong)
    print(f"\n{game}: {count} pairs of synthetic photos of one table, merged, in {took:.0f} s")
    print(f"  {piece}s fully visible in either photo read right  {right}/{visible} "
          f"({100.0 * right / max(visible, 1):.2f} %); read wrong {wrong}; pairs wrong "
          f"without a word {silent}")
    ok = figure(f"{game}: two photos merged, {piece}s visible in either read right "
                f"({count} pairs)", 100.0 * right / max(visible, 1), 99.9, unit="%",
                better="higher", note=f"{right}/{visible}")
    ok &= figure(f"{game}: two photos merged, pairs scored wrong without a word ({count} pairs)",
                 silent, 1, unit="", note=f"{wrong} {piece}s read wrong")
    for c in cases:
        if not c.outcome.ok:
            print(f"  pair {c.index}: " + "; ".join(c.outcome.wrong + c.outcome.missed
                                                     + c.outcome.phantom))
    return ok


def speed(repeats: int, cameras: int) -> None:
    import random

    import cv2
    import yaml

    from cards.ruleset_cache import load_definitions
    from generator.markers.plan import orbitus_map
    from photo.orbitus import OrbitusReader
    from testkit.photo_synth import Sprites, orbitus_shot, random_camera

    cv2.setNumThreads(1)
    root = Path(__file__).resolve().parent.parent
    layout = yaml.safe_load((root / "tests/fixtures/orbitus/six-players-72.yaml").read_text())
    defs = load_definitions("orbitus", None)
    sprites = Sprites("orbitus", defs)
    reader = OrbitusReader(orbitus_map(defs), defs)
    assert reader.art is not None  # the printed faces: rendered once, then kept in the cache
    print(f"\nspeed: a 4000 x 3000 (12 MP) photo of the 72-sector table, {cameras} cameras, "
          f"each read {repeats} times on one core")
    times, cpu = [], []
    for k in range(cameras):
        rng = random.Random(1000 + k)
        shot = orbitus_shot(layout, defs, sprites, 1000 + k, covers=0, size=(4000, 3000),
                            camera=random_camera(rng))
        runs, used = [], []
        for _ in range(repeats):
            start, start_cpu = time.perf_counter(), time.process_time()
            reading, _ = reader.read_bytes(shot.jpeg, "table.jpg")
            runs.append(time.perf_counter() - start)
            used.append(time.process_time() - start_cpu)
        times += runs
        cpu += used
        print(f"  camera {k}: {shot.camera['scale']:.1f} px/mm, tilt {shot.camera['tilt']:.0f}, "
              f"{len(shot.jpeg) // 1024} KB JPEG: {len(reading.placed)}/72 read, "
              f"median {statistics.median(runs):.2f} s, max {max(runs):.2f} s "
              f"(CPU median {statistics.median(used):.2f} s)")
    figure("a 12 MP photo of the 72-sector table read, one core (median)",
           statistics.median(times), 1.5, unit="s",
           note=f"{cameras} cameras x {repeats} reads")
    figure("a 12 MP photo of the 72-sector table read, one core (slowest)",
           max(times), 1.5, unit="s")
    figure("a 12 MP photo of the 72-sector table read, CPU time (median)",
           statistics.median(cpu), unit="s", note=f"slowest {max(cpu):.2f} s; the figure "
           f"to compare on a machine shared with other work")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=("orbitus", "satellites", "both"), default="both")
    parser.add_argument("--photos", type=int, default=200, help="photos per game")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes making and reading photos (timings are only honest "
                             "with 1)")
    parser.add_argument("--only", type=int, help="read one photo again (its index)")
    parser.add_argument("--no-speed", action="store_true", help="skip the 12 MP speed figure")
    parser.add_argument("--speed-only", action="store_true")
    parser.add_argument("--cameras", type=int, default=5, help="cameras of the speed figure")
    parser.add_argument("--repeats", type=int, default=5, help="reads of each camera's photo")
    parser.add_argument("--pairs", type=int, default=100,
                        help="tables photographed twice and merged, per game (0: none)")
    args = parser.parse_args()
    good = True
    if not args.speed_only:
        for game in (("orbitus", "satellites") if args.game == "both" else (args.game,)):
            good &= accuracy(game, args.photos, args.seed, args.jobs, args.only)
            if args.pairs and args.only is None:
                good &= pairs(game, args.pairs, args.seed, args.jobs)
    if not args.no_speed and args.only is None:
        speed(args.repeats, args.cameras)
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
