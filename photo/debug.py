"""The debug image: the photo with what was read drawn over it.

Each card read is outlined (green: its marker read on its own; teal: read where the grid
says its marker is; blue: art and marker together) and labelled with its ID, cell and
rotation (a card not lying flat has a second, pink outline inside its own); the station
is outlined in white; a cell where a card is seen but not read is
filled with red hatching and a question mark; cells a finding names (between cells, two
cards on one cell ...) are outlined in orange. A legend at the top says what each colour
means and how many of each there are.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

GREEN = (60, 200, 60)
TEAL = (200, 190, 40)
BLUE = (230, 120, 40)
RED = (40, 40, 230)
ORANGE = (0, 150, 255)
YELLOW = (40, 230, 250)
PURPLE = (200, 80, 170)
PINK = (180, 60, 255)  # a card not lying flat
WHITE = (255, 255, 255)
BLACK = (0, 0, 0)
MAX_SIDE = 2400
COLOURS = {"marker": GREEN, "marker at its place": TEAL, "art and marker": BLUE,
           "art under glare": PURPLE, "photos together": BLUE}


def _text(img: np.ndarray, text: str, at: tuple[float, float], size: float,
          colour: tuple[int, int, int], centred: bool = True) -> None:
    """Text with a dark outline, readable on any background (ASCII only)."""
    text = text.encode("ascii", "replace").decode("ascii")
    font = cv2.FONT_HERSHEY_SIMPLEX
    thick = max(1, int(round(size * 2)))
    (w, h), _ = cv2.getTextSize(text, font, size, thick)
    x, y = at
    if centred:
        x, y = x - w / 2, y + h / 2
    org = (int(round(x)), int(round(y)))
    cv2.putText(img, text, org, font, size, BLACK, thick + 3, cv2.LINE_AA)
    cv2.putText(img, text, org, font, size, colour, thick, cv2.LINE_AA)


def _poly(img: np.ndarray, pts: np.ndarray, colour: tuple[int, int, int], width: int) -> None:
    cv2.polylines(img, [np.round(pts * 16).astype(np.int32)], True, colour, width, cv2.LINE_AA,
                  shift=4)


def _hatch(img: np.ndarray, pts: np.ndarray, colour: tuple[int, int, int], step: int) -> None:
    """Diagonal hatching inside the polygon ``pts``."""
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(pts).astype(np.int32)], 255)
    x0, y0 = np.floor(pts.min(0)).astype(int)
    x1, y1 = np.ceil(pts.max(0)).astype(int)
    lines = np.zeros_like(img)
    for k in range(x0 - (y1 - y0), x1 + 1, step):
        cv2.line(lines, (k, y1), (k + (y1 - y0), y0), colour, max(1, step // 4), cv2.LINE_AA)
    sel = (mask > 0) & (lines.sum(axis=2) > 0)
    img[sel] = (0.55 * img[sel] + 0.45 * lines[sel]).astype(np.uint8)


def legend(img: np.ndarray, lines: Sequence[tuple[str, tuple[int, int, int]]],
           size: float) -> None:
    size = max(size, img.shape[1] / 1500.0)
    pad = int(10 * size / 0.6)
    step = int(28 * size / 0.6)
    width = int(max(cv2.getTextSize(t, cv2.FONT_HERSHEY_SIMPLEX, size, 2)[0][0]
                    for t, _ in lines)) + 2 * pad
    height = step * len(lines) + pad
    box = img[0:height, 0:width]
    box[:] = (box * 0.3).astype(np.uint8)
    for i, (text, colour) in enumerate(lines):
        _text(img, text, (pad, pad + step * i + step * 0.55), size, colour, centred=False)


def scaled(bgr: np.ndarray) -> tuple[np.ndarray, float]:
    """The photo no larger than ``MAX_SIDE`` a side, and the factor it was scaled by."""
    h, w = bgr.shape[:2]
    k = min(1.0, MAX_SIDE / max(h, w))
    if k < 1.0:
        return cv2.resize(bgr, (int(round(w * k)), int(round(h * k))),
                          interpolation=cv2.INTER_AREA), k
    return bgr.copy(), 1.0


def encode(img: np.ndarray, name: str) -> bytes:
    """PNG, or JPEG when ``name`` ends in .jpg/.jpeg, carrying the mark of a picture this
    tool wrote (:func:`pnp.common.mark_picture`: only such a file is ever replaced)."""
    from pnp.common import mark_picture

    lower = name.lower()
    if lower.endswith((".jpg", ".jpeg")):
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 88])
    else:
        ok, buf = cv2.imencode(".png", img, [cv2.IMWRITE_PNG_COMPRESSION, 6])
    if not ok:  # pragma: no cover - OpenCV encodes any 8-bit BGR image
        raise ValueError("the debug image could not be encoded")
    return mark_picture(buf.tobytes())
