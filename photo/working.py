"""The photo at the resolution it is read at, and the markers read in it.

A phone photo has 12-50 megapixels; the markers read well at about 3.5 px per mm of
the table, and everything after finding them costs in proportion to the pixels. So the
photo is first decoded small (JPEG can be decoded at a half, quarter or eighth of its
size almost for free) and its markers read; their size says how many pixels a millimetre
has, and the photo is brought to about 3.5 px/mm: scaled down when it has more, decoded
again at full size when the first look had too few.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from photo.detect import Codebook, Reading, read_all, squares
from photo.image import decode, header

TARGET = 3.5  # px per mm a photo with more is brought down to
ENOUGH = 2.2  # px per mm below which a smaller first look is read again larger
AGAIN = 2.8  # px per mm that second look is brought down to (if it has more)
FIRST_SIDE = 1600  # the long side of the first look, px (at least)


@dataclass
class Working:
    """The photo as read: BGR pixels, the markers read in them, and the scale from the
    file's full size to these pixels (0.5: half the size)."""

    bgr: np.ndarray
    readings: list[Reading]
    scale: float
    width: int  # the file's full size
    height: int
    px_per_mm: float  # estimated from the markers read (0: none read)
    gray: np.ndarray | None = None  # ``bgr`` in grey, when the markers were read in it


def _px_per_mm(readings: list[Reading], sizes: dict[int, float]) -> float:
    """Pixels per mm from the markers read with certainty (their printed size is known).
    Small squares that happen to read as a code (a letter, a pip) are many in a sharp
    photo; the markers are the largest of what reads, hence the upper quartile."""
    ratios = [r.side / sizes[r.id] for r in readings
              if r.id in sizes and r.score >= 0.85 and r.margin >= 0.1]
    return float(np.percentile(ratios, 75)) if ratios else 0.0


def _resize(bgr: np.ndarray, k: float) -> np.ndarray:
    h, w = bgr.shape[:2]
    return cv2.resize(bgr, (max(1, int(round(w * k))), max(1, int(round(h * k)))),
                      interpolation=cv2.INTER_AREA)


def _scaled(readings: list[Reading], k: float) -> list[Reading]:
    return [Reading(r.id, r.corners * k, r.score, r.margin) for r in readings]


def look(data: bytes, source: str, book: Codebook, sizes: dict[int, float]) -> Working:
    """Decode and read ``data`` at the resolution it reads best at (see the module)."""
    _, width, height = header(data, source)
    long_side = max(width, height)
    reduce = 1
    while reduce < 8 and long_side // (reduce * 2) >= FIRST_SIDE:
        reduce *= 2
    photo = decode(data, source, reduce)
    bgr = photo.bgr
    scale = bgr.shape[1] / _upright_width(width, height, bgr)
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    quads = squares(gray)
    readings = read_all(gray, book, quads=quads)
    ppm = _px_per_mm(readings, sizes)
    if ppm and ppm >= ENOUGH:
        if ppm > TARGET * 1.3:  # more than needed: read the rest smaller
            k = TARGET / ppm
            bgr = _resize(bgr, k)
            readings = _scaled(readings, k)
            scale *= k
            ppm *= k
            return Working(bgr, readings, scale, width, height, ppm)
        return Working(bgr, readings, scale, width, height, ppm, gray)
    if photo.reduced == 1 and bgr.shape[1] >= _upright_width(width, height, bgr):
        return Working(bgr, readings, scale, width, height, ppm, gray)
    # too coarse a first look: decoded again, as large as the target needs (at most full)
    again = 1
    if ppm:
        full_ppm = ppm / scale
        while again < photo.reduced // 2 and full_ppm / (again * 2) >= AGAIN:
            again *= 2
    second = decode(data, source, again)
    full = second.bgr
    fscale = full.shape[1] / _upright_width(width, height, full)
    if ppm and ppm / scale * fscale > AGAIN * 1.15:
        k = AGAIN / (ppm / scale * fscale)
        full = _resize(full, k)
        fscale *= k
    # the squares of the first look read again where the photo has more pixels: finding
    # them is the costly part, and a square too coarse to read was found all the same
    k = fscale / scale
    gray = cv2.cvtColor(full, cv2.COLOR_BGR2GRAY)
    readings = read_all(gray, book, quads=[q * k for q in quads])
    return Working(full, readings, fscale, width, height, _px_per_mm(readings, sizes), gray)


def _upright_width(width: int, height: int, bgr: np.ndarray) -> int:
    """The file's full width as the decoded pixels stand (EXIF may have turned them)."""
    h, w = bgr.shape[:2]
    return width if (w >= h) == (width >= height) else height
