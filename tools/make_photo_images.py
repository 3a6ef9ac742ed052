"""Write the pictures the manual's "Scoring from a photo" page (docs/photo.md) shows, and print the
score text it quotes:

- ``docs/images/photo-table.jpg``: a synthetic photo of the golden two-player table
  (``tests/fixtures/orbitus/two-players.yaml``), tilted, turned, on a cluttered table;
- ``docs/images/photo-table-debug.jpg``: what ``--debug-image`` draws on it;
- ``docs/images/photo-unread.jpg``: part of the debug image of the same table with a
  finger over one card's marker (the card is reported, not guessed);
- ``docs/images/photo-board-debug.jpg``: the debug image of a Satellites board;
- ``docs/images/photo-glare.jpg`` and ``photo-glare-debug.jpg``: a physically rendered
  photo (``tests/fixtures/photo-rendered/glare-on-a-card.jpg``, made by Blender:
  testkit/render) with a lamp's reflection over a card, and what ``--debug-image`` draws
  on it (the glare outlined in yellow);
- ``docs/images/photo-board-glare-debug.jpg``: the debug image of a rendered Satellites
  photo (``tests/fixtures/photo-rendered/satellites-lamp-on-the-rims.jpg``) with a lamp's
  reflection over four satellites: the cells under it outlined in yellow, two satellites
  read from their face, two reported unread.

Everything else comes from the synthetic photo generator (testkit/photo_synth.py) with fixed
seeds, so the same code makes the same pictures; each is kept under 400 KB. Run from the
project folder: ``.venv/bin/python tools/make_photo_images.py``.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import io  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
import yaml  # noqa: E402
from PIL import Image  # noqa: E402

from cards.definitions import load_orbitus, load_satellites  # noqa: E402
from generator.markers.plan import orbitus_map, satellites_map  # noqa: E402
from photo import orbitus as orbitus_reader  # noqa: E402
from photo import satellites as satellites_reader  # noqa: E402
from testkit.photo_synth import (  # noqa: E402
    Camera,
    Sprites,
    orbitus_pieces,
    photograph,
    satellites_shot,
)

OUT = ROOT / "docs" / "images"
LIMIT = 400_000
CAMERA = Camera(scale=4.0, tilt=24.0, azimuth=120.0, roll=-17.0, blur=0.6, noise=3.0,
                quality=85, light=0.45, margin=0.06)


def _save_jpeg(bgr: np.ndarray, name: str, width: int = 1200) -> None:
    image = Image.fromarray(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))
    if image.width > width:
        image = image.resize((width, round(image.height * width / image.width)),
                             Image.Resampling.LANCZOS)
    quality = 85
    while True:
        data = io.BytesIO()
        image.save(data, format="JPEG", quality=quality, optimize=True)
        if data.tell() <= LIMIT or quality <= 50:
            break
        quality -= 8
    (OUT / name).write_bytes(data.getvalue())
    print(f"wrote docs/images/{name}: {image.width} x {image.height} px, "
          f"{data.tell() / 1000:.0f} KB")


def _print_score(jpeg: bytes) -> None:
    """What docs/photo.md quotes: the command on the full-size photo (in a scratch folder)."""
    import contextlib
    import tempfile

    from scorer.cli import main as score

    with tempfile.TemporaryDirectory() as tmp:
        here = os.getcwd()
        os.chdir(tmp)
        try:
            Path("table.jpg").write_bytes(jpeg)
            text = io.StringIO()
            with contextlib.redirect_stdout(text):
                code = score(["orbitus", "--photo", "table.jpg", "--players", "Anna,Boris",
                              "--layout-out", "read.yaml", "--debug-image", "read.jpg"])
            print(f"--- pnp-score output (exit {code}):")
            print(text.getvalue())
            print("--- read.yaml:")
            print(Path("read.yaml").read_text())
        finally:
            os.chdir(here)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    defs = load_orbitus()
    sprites = Sprites("orbitus", defs)
    layout = yaml.safe_load((ROOT / "tests/fixtures/orbitus/two-players.yaml").read_text())
    reader = orbitus_reader.OrbitusReader(orbitus_map(defs), defs)

    rng = random.Random(11)
    shot = photograph(orbitus_pieces(layout, defs, rng), sprites, CAMERA, rng, 0)
    photo = cv2.imdecode(np.frombuffer(shot.jpeg, np.uint8), cv2.IMREAD_COLOR)
    _save_jpeg(photo, "photo-table.jpg")
    reading, work = reader.read_bytes(shot.jpeg, "table.jpg")
    assert len(reading.placed) == len(layout["sectors"]) and not reading.unread
    _save_jpeg(orbitus_reader.draw(work.bgr, reading), "photo-table-debug.jpg")
    _print_score(shot.jpeg)

    # the same table, a finger over one card's marker
    for seed in range(100):
        rng = random.Random(seed)
        covered = photograph(orbitus_pieces(layout, defs, rng), sprites, CAMERA, rng, 2)
        hidden = [s for s in covered.seen if s.piece.kind == "sector" and s.marker_covered > 0.7]
        if hidden:
            break
    reading, work = reader.read_bytes(covered.jpeg, "table.jpg")
    cell = hidden[0].piece.cell
    assert cell in reading.unread, (cell, reading.unread)
    debug = orbitus_reader.draw(work.bgr, reading)
    from rules import hexgeo

    k = debug.shape[1] / work.bgr.shape[1]
    middle = hexgeo.centre(cell, reading.flats)
    centre = reading.camera.project(np.array([middle]))[0] * k
    scale = reading.camera.scale_at(middle) * k  # px per mm
    half = int(1.6 * reading.flats * scale)  # the card and its neighbours
    x0, y0 = max(0, int(centre[0]) - half), max(0, int(centre[1]) - half)
    crop = debug[y0:y0 + 2 * half, x0:x0 + 2 * half]
    _save_jpeg(crop, "photo-unread.jpg", width=600)
    print(f"unread card: {hidden[0].piece.name} at {list(cell)}")

    sdefs = load_satellites()
    board = [line.split("#")[0].split() for line in
             (ROOT / "tests/fixtures/satellites/crowned.txt").read_text().splitlines()]
    grid = [[t.upper() for t in row] for row in board if row]
    sshot = satellites_shot(grid, sdefs, Sprites("satellites", sdefs), 3, covers=1,
                            camera=CAMERA)
    sreader = satellites_reader.SatellitesReader(satellites_map(sdefs), sdefs)
    sreading, swork = sreader.read_bytes(sshot.jpeg, "board.jpg")
    _save_jpeg(satellites_reader.draw(swork.bgr, sreading), "photo-board-debug.jpg")

    # a rendered photo with a lamp's reflection over a card (tests/fixtures/photo-rendered)
    glare = (ROOT / "tests/fixtures/photo-rendered/glare-on-a-card.jpg").read_bytes()
    reading, work = reader.read_bytes(glare, "glare.jpg")
    _save_jpeg(cv2.imdecode(np.frombuffer(glare, np.uint8), cv2.IMREAD_COLOR), "photo-glare.jpg")
    _save_jpeg(orbitus_reader.draw(work.bgr, reading), "photo-glare-debug.jpg")
    print(f"glare photo: {len(reading.placed)} read, unread {reading.unread}, glare on "
          f"{sorted(reading.glare)}, findings {[(f.rule, f.cell) for f in reading.findings]}")

    # a rendered Satellites photo, a lamp's reflection over four satellites
    rims = (ROOT / "tests/fixtures/photo-rendered/satellites-lamp-on-the-rims.jpg").read_bytes()
    sreading, swork = sreader.read_bytes(rims, "rims.jpg")
    _save_jpeg(satellites_reader.draw(swork.bgr, sreading), "photo-board-glare-debug.jpg")
    print(f"satellites glare photo: {len(sreading.tokens)} read, unread "
          f"{[satellites_reader.cell_name(c) for c in sorted(sreading.unread)]}, glare on "
          f"{len(sreading.glare)} cells")


if __name__ == "__main__":
    main()
