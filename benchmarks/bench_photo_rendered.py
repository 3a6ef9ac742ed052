"""Reading physically rendered photos of finished tables (pnp-score --photo), per condition.

The photos are rendered by Blender (testkit/render: Cycles on the CPU) from the printed
kit's own pictures (pnp build --png) and markers.json: curled semi-gloss cards on a wood
or cloth table, one or two lamps (in most photos one placed so its reflection falls on a
card, sometimes a tube whose reflection is a streak), a phone camera (a 4.2-4.7 mm lens on
a 6.4 mm sensor, tilted 0-40 degrees, 1.6-4.5 px/mm on the table), radial lens distortion
(k1 -0.08 to 0.02), chromatic aberration, vignetting, sensor noise, the phone's noise
reduction and sharpening, JPEG, and in a third of the photos a cup or a hand over a few
pieces. The truth of each piece (fully visible, partly covered, hidden) comes from ray
casting in the rendered scene.

Each photo is read as pnp-score --photo reads it, and judged:

- a photo whose reading reports nothing, yet whose table or score is not the one
  photographed, is "wrong without a word" (the worst outcome; the goal is 0);
- fully visible pieces must be read right, partly covered ones read right or reported,
  hidden ones named by a finding; no piece read wrong.

The figures are given for every condition: glare, lens distortion, tilt, occlusion, the
pixels per mm on the piece, curl. Renders are slow (about a minute a photo on one core)
and are kept in the cache folder (``$PNP_CACHE_DIR/renders``, else
``~/.cache/orbitus-pnp/renders``), so a second run only reads.

    .venv/bin/python benchmarks/bench_photo_rendered.py                 # 30 + 15 photos
    .venv/bin/python benchmarks/bench_photo_rendered.py --game orbitus --only 4 --keep /tmp/p
    .venv/bin/python benchmarks/bench_photo_rendered.py --game orbitus --pairs --only 0,2,8

``--pairs`` photographs each table a second time (another camera, lamps and occluder; the
cards where they lay) and reads the two as ``pnp-score --photo A --photo B`` does: merged
cell by cell, judged against what either photo shows whole.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before NumPy is imported
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import figure  # noqa: E402

PIECE = {"orbitus": "card", "satellites": "satellite"}


@dataclass
class Photo:
    """One rendered photo read and judged."""

    index: int
    shot: Any  # testkit.render.shoot.Rendered
    outcome: Any  # testkit.photo_evaluate.Outcome
    seconds: float  # wall time, the least of the reads
    named_empty: int = 0  # cells named by a finding or unread where no piece lies
    cpu: float = 0.0  # CPU time of one read, the least of the reads


def make(game: str, photos: int, seed: int, samples: int, only: list[int] | None,
         cache: Path | None, view: int = 0) -> list[Any]:
    from cards.ruleset_cache import load_definitions
    from testkit.photo_evaluate import tables
    from testkit.render.scene import Kit, Options
    from testkit.render.shoot import build_kit, cache_root, kit_folder, shoot

    defs = load_definitions(game, None)
    root = cache or cache_root()
    kit = Kit(build_kit(kit_folder(root)), game)
    layouts = tables(game, defs, photos, seed)
    out = []
    for i in (only if only is not None else range(photos)):
        layout = layouts[i] if game == "orbitus" else {"board": layouts[i]}
        started = time.perf_counter()
        shot = shoot(game, layout, defs, kit, seed * 1000 + i,
                     f"{game}-{i}" + (f"-view{view}" if view else ""),
                     Options(samples=samples), root, view=view)
        took = time.perf_counter() - started
        if took > 30:  # rendered now (a cached render is developed in a few seconds)
            print(f"  rendered {game} photo {i}{f' (view {view})' if view else ''} "
                  f"({shot.width}x{shot.height}) in {took:.0f} s", flush=True)
        out.append((i, shot))
    return out


def read(game: str, shots: list[Any], repeats: int = 1) -> list[Photo]:
    """Each photo read ``repeats`` times in this process (one thread), the least wall and
    CPU time kept: on a loaded machine the CPU time is the figure to compare."""
    import cv2

    from cards.ruleset_cache import load_definitions
    from photo import marker_map, reader_for
    from testkit.photo_evaluate import outcome_of

    cv2.setNumThreads(1)
    defs = load_definitions(game, None)
    reader = reader_for(game, marker_map(game, defs), defs)
    if game == "orbitus":
        assert reader.art is not None  # the printed faces rendered once, before timing
    out = []
    for i, shot in shots:
        seconds = cpu = float("inf")
        for _ in range(max(1, repeats)):
            start, start_cpu = time.perf_counter(), time.process_time()
            reading, _ = reader.read_bytes(shot.jpeg, f"{shot.name}.jpg")
            seconds = min(seconds, time.perf_counter() - start)
            cpu = min(cpu, time.process_time() - start_cpu)
        pieces = {tuple(t.cell) for t in shot.pieces
                  if t.kind in ("sector", "token") and t.cell is not None}
        named = {tuple(f.cell) for f in reading.findings if f.cell is not None} | {
            tuple(c) for c in reading.unread}
        out.append(Photo(i, shot, outcome_of(game, shot.as_shot(), reading), seconds,
                         len(named - pieces), cpu))
    return out


# --- the report, per condition ------------------------------------------------------------


def _pieces(p: Photo) -> list[tuple[Any, Any]]:
    """(truth, verdict) of every piece of a photo."""
    truth = {tuple(t.cell): t for t in p.shot.pieces if t.kind in ("sector", "token")}
    return [(truth[v.cell], v) for v in p.outcome.verdicts]


def row(label: str, photos: list[Photo], keep: Callable[[Any, Photo], bool] | None = None) -> str:
    """One line of the table: the pieces of ``photos`` for which ``keep(truth, photo)``."""
    vis = vis_right = partly = partly_ok = hidden = hidden_ok = wrong = missed = 0
    for p in photos:
        for t, v in _pieces(p):
            if keep is not None and not keep(t, p):
                continue
            wrong += v.verdict == "wrong"
            missed += v.verdict == "missed"
            if v.state == "visible":
                vis += 1
                vis_right += v.verdict == "right"
            elif v.state == "partly":
                partly += 1
                partly_ok += v.verdict in ("right", "reported")
            else:
                hidden += 1
                hidden_ok += v.verdict in ("right", "reported")
    silent = str(sum(1 for p in photos if p.outcome.silent_wrong)) if keep is None else "-"
    share = f"{100.0 * vis_right / vis:6.2f} %" if vis else "      -"
    return (f"  {label:<30} {len(photos) if keep is None else '-':>4} {vis_right:>5}/{vis:<5} "
            f"{share} {partly_ok:>4}/{partly:<4} {hidden_ok:>3}/{hidden:<3} {wrong:>5} "
            f"{missed:>6} {silent:>6}")


def report(game: str, photos: list[Photo], seed: int, view: int = 0) -> bool:
    piece = PIECE[game]
    name = game + (" second shots alone" if view else "")
    print(f"\n{name}: {len(photos)} rendered photos (seed {seed}), "
          f"{sum(len(p.outcome.verdicts) for p in photos)} {piece}s")
    print(f"  {'condition':<30} {'pics':>4} {'visible read right':>19} "
          f"{'partly':>9} {'hidden':>7} {'wrong':>5} {'missed':>6} {'silent':>6}")
    print(row("all", photos))
    cond = [
        ("glare: a lamp aimed at a piece", lambda p: bool(p.shot.conditions["aimed"])),
        ("glare: a tube (a streak)",
         lambda p: any(lamp.get("length", 0) for lamp in p.shot.scene.get("lamps", []))),
        ("no lamp aimed", lambda p: not p.shot.conditions["aimed"]),
        ("barrel distortion k1 <= -0.04", lambda p: p.shot.conditions["k1"] <= -0.04),
        ("distortion -0.04 < k1 < 0", lambda p: -0.04 < p.shot.conditions["k1"] < 0),
        ("pincushion k1 >= 0", lambda p: p.shot.conditions["k1"] >= 0),
        ("tilt 0-15", lambda p: p.shot.conditions["tilt"] < 15),
        ("tilt 15-30", lambda p: 15 <= p.shot.conditions["tilt"] < 30),
        ("tilt 30-40", lambda p: p.shot.conditions["tilt"] >= 30),
        ("no occluder", lambda p: not p.shot.conditions["occluder"]),
        ("a cup", lambda p: p.shot.conditions["occluder"] == "cup"),
        ("a hand", lambda p: p.shot.conditions["occluder"] == "hand"),
        ("the frame cuts the table", lambda p: bool(p.shot.conditions["out_of_frame"])),
    ]
    for label, test in cond:
        chosen = [p for p in photos if test(p)]
        if chosen:
            print(row(label, chosen))
    per_piece = [
        ("piece under glare", lambda t, p: t.glare > 0.0),
        ("marker under glare", lambda t, p: t.marker_glare > 0.0),
        ("marker half washed or more", lambda t, p: t.marker_glare >= 0.5),
        ("piece < 2 px/mm", lambda t, p: t.px_per_mm < 2.0),
        ("piece 2-3 px/mm", lambda t, p: 2.0 <= t.px_per_mm < 3.0),
        ("piece 3-4 px/mm", lambda t, p: 3.0 <= t.px_per_mm < 4.0),
        ("piece >= 4 px/mm", lambda t, p: t.px_per_mm >= 4.0),
        ("card curled 3 mm or more", lambda t, p: t.lift >= 3.0),
        ("card curled 1-3 mm", lambda t, p: 1.0 <= t.lift < 3.0),
    ]
    for label, keep in per_piece:
        print(row(label, photos, keep))
    clear = [p for p in photos if not p.shot.conditions["occluder"]]
    print(f"  cells named (a finding or unread) where no {piece} lies, in the "
          f"{len(clear)} photos without an occluder: {sum(p.named_empty for p in clear)}"
          f" (with a hand or a cup: {sum(p.named_empty for p in photos if p not in clear)})")
    seconds = [p.seconds for p in photos]
    renders = [p.shot.render_seconds for p in photos if p.shot.render_seconds]
    sizes = [p.shot.width * p.shot.height / 1e6 for p in photos]
    cpu = [p.cpu for p in photos]
    print(f"  reading time per photo: median {statistics.median(seconds):.2f} s, slowest "
          f"{max(seconds):.2f} s (photos {min(sizes):.1f}-{max(sizes):.1f} MP); CPU time "
          f"median {statistics.median(cpu):.2f} s, slowest {max(cpu):.2f} s")
    if renders:
        print(f"  Blender render per photo (one thread, nice 10): median "
              f"{statistics.median(renders):.0f} s, slowest {max(renders):.0f} s")
    silent = [p for p in photos if p.outcome.silent_wrong]
    vis = vis_right = wrong = 0
    for p in photos:
        for t, v in _pieces(p):
            wrong += v.verdict == "wrong"
            if v.state == "visible" and t.px_per_mm >= 2.0:
                vis += 1
                vis_right += v.verdict == "right"
    n = len(photos)
    ok = figure(f"rendered {name}: photos scored wrong without a word ({n} photos)",
                len(silent), 1, unit="")
    ok &= figure(f"rendered {name}: fully visible {piece}s read right at >= 2 px/mm "
                 f"({n} photos)", 100.0 * vis_right / max(vis, 1), 99.0, unit="%",
                 better="higher", note=f"{vis_right}/{vis}")
    ok &= figure(f"rendered {name}: {piece}s read wrong ({n} photos)", wrong, 1, unit="")
    missed = sum(v.verdict == "missed" for p in photos for v in p.outcome.verdicts)
    near = sum(v.by_neighbour for p in photos for v in p.outcome.verdicts)
    print(f"  {piece}s partly or wholly hidden counted as reported though no finding names "
          f"their own cell (a covered cell next to them, or the photo's edge over the table, "
          f"is named): {near}")
    ok &= figure(f"rendered {name}: {piece}s neither read nor reported ({n} photos)", missed, 1,
                 unit="", note=f"besides, {near} partly or wholly hidden counted as reported "
                 f"through a named cell next to them or the photo's edge, their own cell not "
                 f"named")
    figure(f"rendered {name}: cells named where no {piece} lies, photos without an "
           f"occluder ({len(clear)} photos)", sum(p.named_empty for p in clear), unit="",
           note="a finding or unread")
    figure(f"rendered {name}: reading one photo (median)", statistics.median(seconds),
           unit="s")
    figure(f"rendered {name}: reading one photo (slowest)", max(seconds), unit="s")
    figure(f"rendered {name}: reading one photo, CPU time (median)", statistics.median(cpu),
           unit="s")
    figure(f"rendered {name}: reading one photo, CPU time (slowest)", max(cpu), unit="s")
    if renders:
        figure(f"rendered {name}: rendering one photo with Blender (median)",
               statistics.median(renders), unit="s", note="one thread")
    for p in photos:
        if not p.outcome.ok:
            c = p.shot.conditions
            print(f"  photo {p.index} ({c['width']}x{c['height']}, {c['px_per_mm']:.1f} px/mm, "
                  f"tilt {c['tilt']:.0f}, k1 {c['k1']:+.3f}, {c['occluder'] or 'no occluder'}"
                  f"{', lamp aimed' if c['aimed'] else ''}"
                  f"{', SILENT' if p.outcome.silent_wrong else ''}): "
                  + p.outcome.problems())
    return ok


# --- two photos of each table, merged cell by cell --------------------------------------


@dataclass
class Pair:
    """Two photos of one table (two cameras, lamps, hands) read each on its own, merged."""

    index: int
    shots: tuple[Any, Any]  # testkit.render.shoot.Rendered, view 0 and view 1
    outcome: Any  # the merge judged: a piece fully visible in either photo must be read
    seconds: float  # both photos read and merged
    merge_cpu: float  # CPU seconds of the merge alone (the photos' evidence asked for in it)
    best_px: dict[tuple[int, int], float]  # px/mm of each piece in the photo seeing it best


def read_pairs(game: str, first: list[Any], second: list[Any]) -> list[Pair]:
    """Each table's two photos read as ``pnp-score --photo A --photo B`` reads them and
    judged: a piece counts as visible when either photo shows all of it."""
    from dataclasses import replace

    import cv2

    from cards.ruleset_cache import load_definitions
    from photo import marker_map, reader_for
    from photo.merge import evidence_of, merge
    from testkit.photo_evaluate import outcome_of

    cv2.setNumThreads(1)
    defs = load_definitions(game, None)
    reader = reader_for(game, marker_map(game, defs), defs)
    out = []
    for (i, a), (j, b) in zip(first, second, strict=True):
        assert i == j
        names = [f"{a.name}.jpg", f"{b.name}.jpg"]
        start = time.perf_counter()
        read = [reader.read_bytes(s.jpeg, n) for s, n in zip((a, b), names, strict=True)]
        readings = [r for r, _ in read]
        cpu = time.process_time()
        merged = merge(game, readings, names,
                       evidence_of(reader, readings, [w for _, w in read]))
        cpu = time.process_time() - cpu
        seconds = time.perf_counter() - start
        least: dict[Any, Any] = {}
        best_px: dict[tuple[int, int], float] = {}
        for s in (a, b):
            for seen in s.as_shot().seen:
                key = (seen.piece.kind, seen.piece.cell)
                if key not in least or seen.covered < least[key].covered:
                    least[key] = seen
            for t in s.pieces:
                if t.cell is not None and t.kind in ("sector", "token") and t.unseen == 0.0:
                    cell = (t.cell[0], t.cell[1])
                    best_px[cell] = max(best_px.get(cell, 0.0), t.px_per_mm)
        both = replace(a.as_shot(), seen=list(least.values()))
        out.append(Pair(i, (a, b), outcome_of(game, both, merged), seconds, cpu, best_px))
    return out


def report_pairs(game: str, pairs: list[Pair], seed: int) -> bool:
    piece = PIECE[game]
    vis = vis_right = vis2 = vis2_right = wrong = missed = partly = partly_ok = 0
    for p in pairs:
        for v in p.outcome.verdicts:
            wrong += v.verdict == "wrong"
            missed += v.verdict == "missed"
            if v.state == "visible":
                vis += 1
                vis_right += v.verdict == "right"
                if p.best_px.get(v.cell, 0.0) >= 2.0:
                    vis2 += 1
                    vis2_right += v.verdict == "right"
            else:
                partly += 1
                partly_ok += v.verdict in ("right", "reported")
    silent = [p for p in pairs if p.outcome.silent_wrong]
    n = len(pairs)
    print(f"\n{game}: {n} pairs of rendered photos (seed {seed}; the second photo of each "
          f"table another camera, lamps and occluder), "
          f"{sum(len(p.outcome.verdicts) for p in pairs)} {piece}s")
    print(f"  not fully visible in either photo: {partly_ok}/{partly} read right or reported; "
          f"neither read nor reported: {missed}")
    ok = figure(f"rendered {game} pairs: photos scored wrong without a word ({n} pairs)",
                len(silent), 1, unit="")
    ok &= figure(f"rendered {game} pairs: {piece}s fully visible in either photo read right "
                 f"({n} pairs)", 100.0 * vis_right / max(vis, 1), 99.9, unit="%",
                 better="higher", note=f"{vis_right}/{vis}")
    figure(f"rendered {game} pairs: {piece}s fully visible in either photo at >= 2 px/mm "
           f"there, read right ({n} pairs)", 100.0 * vis2_right / max(vis2, 1), unit="%",
           better="higher", note=f"{vis2_right}/{vis2}")
    ok &= figure(f"rendered {game} pairs: {piece}s read wrong ({n} pairs)", wrong, 1, unit="")
    seconds = [p.seconds for p in pairs]
    figure(f"rendered {game} pairs: reading two photos and merging (median)",
           statistics.median(seconds), unit="s")
    merging = [p.merge_cpu for p in pairs]
    figure(f"rendered {game} pairs: merging, CPU time (slowest)", max(merging), unit="s",
           note=f"median {statistics.median(merging):.3f} s; the photos' evidence is asked "
                f"for only where a card is left unread")
    for p in pairs:
        if not p.outcome.ok:
            c0, c1 = p.shots[0].conditions, p.shots[1].conditions
            print(f"  pair {p.index} ({c0['px_per_mm']:.1f} and {c1['px_per_mm']:.1f} px/mm"
                  f"{', SILENT' if p.outcome.silent_wrong else ''}): "
                  + p.outcome.problems())
    return ok


def _indices(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected photo indices such as 4 or 0,2,8, not "
                                         f"{text!r}") from None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=("orbitus", "satellites", "both"), default="both")
    parser.add_argument("--photos", type=int, default=0,
                        help="photos per game (default 30 Orbitus, 15 Satellites)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--samples", type=int, default=10, help="Cycles samples per pixel")
    parser.add_argument("--only", type=_indices,
                        help="these photos only (their indices: 4, or 0,2,8)")
    parser.add_argument("--repeats", type=int, default=1,
                        help="read each photo this many times, the least time kept")
    parser.add_argument("--keep", type=Path, help="write the photos and their truth here")
    parser.add_argument("--cache", type=Path, help="where renders are kept")
    parser.add_argument("--pairs", action="store_true",
                        help="two photos of each table (another camera, lamps, occluder), "
                             "read and merged as --photo A --photo B")
    parser.add_argument("--second-alone", action="store_true",
                        help="read each table's second photo (the one --pairs adds) on its "
                             "own, as a set of single photos the reader was not tuned on")
    args = parser.parse_args()
    from testkit.render.shoot import RenderError

    good = True
    for game in (("orbitus", "satellites") if args.game == "both" else (args.game,)):
        count = args.photos or (30 if game == "orbitus" else 15)
        try:
            shots = make(game, count, args.seed, args.samples, args.only, args.cache,
                         view=1 if args.second_alone else 0)
            second = (make(game, count, args.seed, args.samples, args.only, args.cache, view=1)
                      if args.pairs else [])
        except RenderError as exc:
            print(f"bench_photo_rendered: {exc}", file=sys.stderr)
            return 2
        if args.keep is not None:
            for _, shot in shots + second:
                shot.save(args.keep)
        if args.pairs:
            good &= report_pairs(game, read_pairs(game, shots, second), args.seed)
        else:
            good &= report(game, read(game, shots, args.repeats), args.seed,
                           1 if args.second_alone else 0)
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
