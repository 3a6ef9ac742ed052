"""The photos of golden tables that the tests and the manual's pictures share: the README's
two-player Orbitus table and the crowned Satellites board, taken by a calm camera, and the
seeds whose finger over the pieces leaves exactly one cell seen but not read (every other
piece read right; tests/test_web_photo.py checks it)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from testkit.photo_evaluate import Bench
from testkit.photo_synth import Camera, Piece, orbitus_pieces, photograph, satellites_shot

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"
TWO: dict[str, Any] = yaml.safe_load((FIXTURES / "orbitus" / "two-players.yaml").read_text())
CROWNED = FIXTURES / "satellites" / "crowned.txt"
CALM = Camera(scale=3.2, tilt=18.0, azimuth=40.0, roll=75.0, blur=0.7, noise=3.0, quality=82,
              light=0.3, margin=0.08)

# seeds whose photo (one card or satellite covered by a finger) leaves exactly one cell
# seen but not read, and that cell
ORBITUS_COVERED, ORBITUS_UNREAD = 0, [1, -1]
SATELLITES_COVERED, SATELLITES_UNREAD = 3, [7, 7]  # [row, col]: h8


def orbitus_shot(bench: Bench, layout: dict[str, Any], seed: int, camera: Camera = CALM,
                 covers: int = 0,
                 change: Callable[[list[Piece]], list[Piece]] | None = None) -> bytes:
    """The JPEG photo of ``layout``'s sectors laid out by ``seed`` (``change``: what to do to
    the pieces first), ``covers`` of them under a finger."""
    rng = random.Random(seed)
    pieces = orbitus_pieces(layout, bench.defs, rng)
    if change is not None:
        pieces = change(pieces)
    return photograph(pieces, bench.sprites, camera, rng, covers).jpeg


def orbitus_photo(bench: Bench, seed: int = 1, covers: int = 0) -> bytes:
    """The two-player table photographed calmly (``covers``: pieces under a finger)."""
    if not covers:
        return orbitus_shot(bench, TWO, seed)
    rng = random.Random(seed)
    return photograph(orbitus_pieces(TWO, bench.defs, rng), bench.sprites, CALM, rng,
                      covers).jpeg


def crowned_grid() -> list[list[str]]:
    """The crowned board's rows of tokens (``.`` empty), upper case."""
    rows = [line.split("#")[0].split() for line in CROWNED.read_text().splitlines()]
    return [[t.upper() for t in r] for r in rows if r]


def satellites_photo(bench: Bench, seed: int = 5, covers: int = 0) -> bytes:
    """The crowned board photographed calmly (``covers``: satellites under a finger)."""
    return satellites_shot(crowned_grid(), bench.defs, bench.sprites, seed, covers=covers,
                           camera=CALM).jpeg
