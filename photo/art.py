"""The printed faces of the components, as pictures to compare a photo with.

Where a marker is too small or too blurred to read on its own, the reader compares the
photo of a cell with the printed face of every card in each rotation: the routes, the
planet's colour and the marker together say which card it is. The faces are rendered
from the same drawings that print (pdfium, via the PDF backend) and kept in the user's
cache folder, named by a hash of those drawings, so they are rendered once per deck.
"""

from __future__ import annotations

import hashlib
import io
import math
import os
from typing import Any

import cv2
import numpy as np

from rules import hexgeo

LEVEL = 1.5  # px per mm of the faces compared (routes, planets, where the marker is)
BLUR = 1.0  # px at LEVEL: what both sides are blurred with, so small shifts do not matter
INSET_MM = 2.5  # the outer rim of a card is left out (cut edges, neighbours, jitter)
CACHE_FORMAT = 1


def render(game: str, defs: Any, level: float,
           names: list[str] | None = None) -> dict[str, np.ndarray]:
    """Every component of ``game`` (or those in ``names``) as RGBA pixels at ``level`` px/mm,
    each exactly its drawing's size (pdfium renders the PDF that prints)."""
    import pypdfium2 as pdfium

    from generator.backends.pdf import render_pdf
    from generator.export_png import components

    drawings = components(game, defs)
    wanted = [n for n in drawings if names is None or n in names]
    pdf = render_pdf([drawings[n] for n in wanted])
    doc = pdfium.PdfDocument(pdf)
    out: dict[str, np.ndarray] = {}
    try:
        for i, name in enumerate(wanted):
            page = doc[i]
            d = drawings[name]
            bitmap = page.render(scale=level * 25.4 / 72.0, fill_color=(255, 255, 255, 0))
            rgba = np.array(bitmap.to_pil().convert("RGBA"))
            w, h = round(d.width * level), round(d.height * level)
            canvas = np.zeros((h, w, 4), np.uint8)
            hh, ww = min(h, rgba.shape[0]), min(w, rgba.shape[1])
            canvas[:hh, :ww] = rgba[:hh, :ww]
            out[name] = canvas
            page.close()
    finally:
        doc.close()
    return out


def _fingerprint(game: str, defs: Any, names: list[str], level: float) -> str:
    """A hash of the drawings themselves: any change of the definitions or of the art's
    code that changes what prints changes it."""
    from generator.export_png import components

    drawings = components(game, defs)
    digest = hashlib.sha256(f"{CACHE_FORMAT}:{game}:{level}".encode())
    for name in names:
        digest.update(name.encode())
        digest.update(repr(drawings[name]).encode())
    return digest.hexdigest()[:32]


def _cache_folder() -> Any:
    from cards.ruleset_cache import cache_folder

    return cache_folder()


def faces(game: str, defs: Any, names: list[str],
          level: float = LEVEL) -> dict[str, np.ndarray]:
    """The faces of ``names`` at ``level`` px/mm (BGR, white outside the shape), from the
    cache when they were rendered before."""
    key = _fingerprint(game, defs, names, level)
    folder = _cache_folder()
    path = folder / f"faces-{game}-{key}.npz" if folder is not None else None
    if path is not None and path.is_file():
        try:
            with np.load(path) as data:
                if list(data.files) == [f"f{i}" for i in range(len(names))]:
                    return {n: data[f"f{i}"] for i, n in enumerate(names)}
        except (OSError, ValueError, EOFError):
            pass
    rgba = render(game, defs, level, names)
    out: dict[str, np.ndarray] = {}
    for name in names:
        img = rgba[name].astype(np.float32)
        alpha = img[..., 3:4] / 255.0
        rgb = img[..., :3] * alpha + 255.0 * (1 - alpha)
        out[name] = np.clip(rgb[..., ::-1] + 0.5, 0, 255).astype(np.uint8)
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            buf = io.BytesIO()
            np.savez_compressed(buf, **{f"f{i}": out[n] for i, n in enumerate(names)})
            temp = path.with_suffix(f".{os.getpid()}.tmp")
            temp.write_bytes(buf.getvalue())
            os.replace(temp, path)
        except OSError:
            pass
    return out


class HexArt:
    """The faces of the sectors, to compare a photographed cell with (all six rotations).

    Every face is the hex centred in a square of ``size`` px at ``LEVEL`` px/mm; the
    comparison is a normalised cross-correlation over the hex (its rim left out), each
    colour channel normalised on its own, so the light's colour and strength do not
    matter."""

    def __init__(self, names: list[str], images: dict[str, np.ndarray], flats: float) -> None:
        self.names = names
        self.flats = flats
        r = hexgeo.circumradius(flats)
        self.size = int(math.ceil(2 * r * LEVEL)) | 1
        self.mask = self._hex_mask()
        c = (self.size - 1) / 2.0
        yy, xx = np.mgrid[0:self.size, 0:self.size]
        angle = np.degrees(np.arctan2(xx - c, -(yy - c)))  # clockwise from north
        self._wedges = [self.mask & (np.abs((angle - 60.0 * k + 180.0) % 360.0 - 180.0) <= 30.0)
                        for k in range(6)]
        rows = []
        self._faces: list[np.ndarray] = []
        for name in names:
            face = self._centred(images[name])
            for rot in range(6):  # the card turned rot x 60 degrees clockwise
                m = cv2.getRotationMatrix2D((c, c), -60.0 * rot, 1.0)
                turned = cv2.warpAffine(face, m, (self.size, self.size), flags=cv2.INTER_LINEAR,
                                        borderMode=cv2.BORDER_CONSTANT,
                                        borderValue=(255, 255, 255))
                rows.append(self._vector(turned))
                self._faces.append(cv2.GaussianBlur(turned.astype(np.float32), (0, 0), BLUR))
        self.templates = np.array(rows, np.float32)

    @classmethod
    def for_orbitus(cls, defs: Any) -> HexArt:
        names = [s.id for s in defs.sectors.sectors]
        images = faces("orbitus", defs, [f"sector-{n}" for n in names])
        return cls(names, {n: images[f"sector-{n}"] for n in names},
                   defs.sectors.hex_across_flats_mm)

    def _hex_mask(self) -> np.ndarray:
        c = (self.size - 1) / 2.0
        pts = np.array(hexgeo.corners((0.0, 0.0), self.flats - 2 * INSET_MM)) * LEVEL + c
        mask = np.zeros((self.size, self.size), np.uint8)
        cv2.fillPoly(mask, [np.round(pts * 16).astype(np.int32)], 1, cv2.LINE_8, shift=4)
        return mask.astype(bool)

    def _centred(self, img: np.ndarray) -> np.ndarray:
        """A component image (the hex centred in its drawing) cut to the square."""
        h, w = img.shape[:2]
        cx, cy = (w - 1) / 2.0, (h - 1) / 2.0
        c = (self.size - 1) / 2.0
        m = np.float32([[1, 0, cx - c], [0, 1, cy - c]])
        return cv2.warpAffine(img, m, (self.size, self.size),
                              flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=(255, 255, 255))

    def _vector(self, img: np.ndarray) -> np.ndarray:
        """Blurred, each channel normalised over the mask, as one unit vector."""
        f = cv2.GaussianBlur(img.astype(np.float32), (0, 0), BLUR)
        parts = []
        for ch in range(3):
            v = f[..., ch][self.mask]
            v = v - v.mean()
            parts.append(v / (np.linalg.norm(v) + 1e-6))
        out = np.concatenate(parts)
        return out / (np.linalg.norm(out) + 1e-9)

    def patch(self, bgr: np.ndarray, h: np.ndarray, centre: tuple[float, float],
              local_scale: float) -> np.ndarray:
        """The photo round a cell's centre (table mm), as the faces are: ``LEVEL`` px/mm,
        north up. ``h``: table mm -> photo px; ``local_scale``: photo px per mm there."""
        k = max(1, int(math.ceil(local_scale / LEVEL)))
        n = self.size * k
        c = (n - 1) / 2.0
        lv = LEVEL * k
        m = np.array([[1 / lv, 0, centre[0] - c / lv], [0, 1 / lv, centre[1] - c / lv],
                      [0, 0, 1]])
        out = cv2.warpPerspective(bgr, h @ m, (n, n),
                                  flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                  borderMode=cv2.BORDER_CONSTANT, borderValue=(255, 255, 255))
        if k > 1:
            out = cv2.resize(out, (self.size, self.size), interpolation=cv2.INTER_AREA)
        return out

    def scores(self, patch: np.ndarray) -> np.ndarray:
        """Correlation of a photographed cell with every face in every rotation: an array
        faces x 6 (rotation r: the card turned r x 60 degrees clockwise)."""
        return (self.templates @ self._vector(patch)).reshape(len(self.names), 6)

    def gain(self, patch: np.ndarray, index: int, rot: int) -> float:
        """How strongly the photo's light and dark follow face ``index`` turned ``rot``: the
        slope of photo against face (both 0-255), averaged over the colour channels. A
        card photographed has its routes dark and its background light, a faint texture of
        the table that merely correlates has a small slope."""
        f = cv2.GaussianBlur(patch.astype(np.float32), (0, 0), BLUR)[self.mask]
        t = self._faces[index * 6 + rot][self.mask]
        slopes = []
        for ch in range(3):
            x = t[:, ch] - t[:, ch].mean()
            var = float((x * x).sum())
            slopes.append(float((x * (f[:, ch] - f[:, ch].mean())).sum()) / var if var else 0.0)
        return float(np.mean(slopes))

    def wedges(self, patch: np.ndarray, index: int, rot: int) -> np.ndarray:
        """Correlation of the photo with face ``index`` turned ``rot`` in each of the six
        wedges of the hex (from the centre to each side): a card partly covered still
        matches in the wedges left visible; an empty cell, plain or cluttered, in few."""
        f = cv2.GaussianBlur(patch.astype(np.float32), (0, 0), BLUR)
        t = self._faces[index * 6 + rot]
        out = np.zeros(6, np.float32)
        for k, region in enumerate(self._wedges):
            parts = []
            for ch in range(3):
                x, y = t[..., ch][region], f[..., ch][region]
                x, y = x - x.mean(), y - y.mean()
                nx, ny = float(np.linalg.norm(x)), float(np.linalg.norm(y))
                if nx < 1e-3 or ny < 1e-3:
                    parts.append(0.0)
                else:
                    parts.append(float(x @ y) / (nx * ny))
            out[k] = float(np.mean(parts))
        return out
