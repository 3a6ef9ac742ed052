"""The printed faces of the components, as pictures to compare a photo with.

Where a marker is too small or too blurred to read on its own, the reader compares the
photo of a cell with the printed face of every card in each rotation: the routes, the
planet's colour and the marker together say which card it is. The faces are rendered
from the same drawings that print (pdfium, via the PDF backend) and kept in the user's
cache folder (:mod:`cards.cache`), named by a hash of those drawings, so they are rendered
once per deck.
"""

from __future__ import annotations

import hashlib
import io
import math
from typing import Any

import cv2
import numpy as np

from rules import hexgeo

LEVEL = 1.5  # px per mm of the faces compared (routes, planets, where the marker is)
BLUR = 1.0  # px at LEVEL: what both sides are blurred with, so small shifts do not matter
INSET_MM = 2.5  # the outer rim of a card is left out (cut edges, neighbours, jitter)
FLAT_MM = 4.0  # the reach of "relative to its surroundings" when glare is taken out
DUEL_DIFF = 2.0  # two faces differ at a pixel where their flattened colours differ this much
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


def _fingerprint(game: str, defs: Any, names: list[str],
                 level: float) -> tuple[str, dict[str, tuple[int, int, int]]]:
    """A hash of the drawings themselves (any change of the definitions or of the art's code
    that changes what prints changes it), and the shape each face has at ``level``."""
    from generator.export_png import components

    drawings = components(game, defs)
    digest = hashlib.sha256(f"{CACHE_FORMAT}:{game}:{level}".encode())
    shapes = {}
    for name in names:
        digest.update(name.encode())
        digest.update(repr(drawings[name]).encode())
        d = drawings[name]
        shapes[name] = (round(d.height * level), round(d.width * level), 3)
    return digest.hexdigest()[:32], shapes


CACHE_KIND = "faces"
CACHE_KEEP = 8  # decks whose faces are kept (each a few MB)
MAX_CACHE_BYTES = 64_000_000  # the shipped deck's faces are about 1 MB


def _from_cache(game: str, key: str, names: list[str],
                shapes: dict[str, tuple[int, int, int]]) -> dict[str, np.ndarray] | None:
    """The faces kept for ``key``, or None: a miss, or an entry that fails a check (its
    checksum, then every face of the size its drawing has: one line on stderr says so)."""
    import zipfile

    from cards.cache import entry_path, note, read_entry

    payload = read_entry(f"{CACHE_KIND}-{game}", key, "npz", MAX_CACHE_BYTES)
    if payload is None:
        return None
    try:
        with zipfile.ZipFile(io.BytesIO(payload)) as archive:  # sizes known before reading
            sizes = {i.filename: i.file_size for i in archive.infolist()}
        wanted = {f"f{i}.npy": int(np.prod(shapes[n])) for i, n in enumerate(names)}
        if set(sizes) == set(wanted) and all(wanted[f] <= sizes[f] <= wanted[f] + 4096
                                             for f in wanted):
            with np.load(io.BytesIO(payload), allow_pickle=False) as data:
                out = {n: data[f"f{i}"] for i, n in enumerate(names)}
            if all(a.dtype == np.uint8 and a.shape == shapes[n] for n, a in out.items()):
                return out
    except Exception:  # noqa: BLE001 - whatever the archive holds, it is only a miss
        pass
    from cards.cache import cache_folder

    folder = cache_folder()
    if folder is not None:
        note(entry_path(folder, f"{CACHE_KIND}-{game}", key, "npz"),
             "its faces are not those of the drawings")
    return None


def faces(game: str, defs: Any, names: list[str],
          level: float = LEVEL) -> dict[str, np.ndarray]:
    """The faces of ``names`` at ``level`` px/mm (BGR, white outside the shape), from the
    cache when they were rendered before (:mod:`cards.cache`: checked on every read)."""
    key, shapes = _fingerprint(game, defs, names, level)
    cached = _from_cache(game, key, names, shapes)
    if cached is not None:
        return cached
    rgba = render(game, defs, level, names)
    out: dict[str, np.ndarray] = {}
    for name in names:
        img = rgba[name].astype(np.float32)
        alpha = img[..., 3:4] / 255.0
        rgb = img[..., :3] * alpha + 255.0 * (1 - alpha)
        out[name] = np.clip(rgb[..., ::-1] + 0.5, 0, 255).astype(np.uint8)
    from cards.cache import write_entry

    buf = io.BytesIO()
    np.savez_compressed(buf, **{f"f{i}": out[n] for i, n in enumerate(names)})
    write_entry(f"{CACHE_KIND}-{game}", key, "npz", buf.getvalue(), CACHE_KEEP)
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
        self._flat_faces: np.ndarray | None = None
        self._raw_faces: tuple[np.ndarray, np.ndarray] | None = None
        self._masked_faces: np.ndarray | None = None
        self._span = [np.percentile(f[self.mask], 95, axis=0) - np.percentile(f[self.mask], 5,
                                                                               axis=0)
                      for f in self._faces]  # each face's range of light, per channel
        self._sides: list[np.ndarray] | None = None
        # each photographed patch blurred once, whichever comparisons it goes through
        self._blurs: dict[int, tuple[np.ndarray, np.ndarray]] = {}

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

    def _blurred(self, patch: np.ndarray) -> np.ndarray:
        """A photographed patch blurred as the faces are (float32), made once per patch
        (kept until :meth:`forget`; the caller must not change it)."""
        hit = self._blurs.get(id(patch))
        if hit is not None and hit[0] is patch:
            return hit[1]
        f = cv2.GaussianBlur(patch.astype(np.float32), (0, 0), BLUR)
        if len(self._blurs) >= 1024:
            self._blurs.clear()
        self._blurs[id(patch)] = (patch, f)
        return f

    def forget(self) -> None:
        """Let go of the patches of the photo read (:meth:`_blurred`)."""
        self._blurs.clear()

    def _vector(self, img: np.ndarray, blurred: np.ndarray | None = None) -> np.ndarray:
        """Blurred, each channel normalised over the mask, as one unit vector."""
        f = cv2.GaussianBlur(img.astype(np.float32), (0, 0), BLUR) if blurred is None \
            else blurred
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

    def in_frame(self, shape: tuple[int, ...], h: np.ndarray, centre: tuple[float, float]
                 ) -> np.ndarray:
        """Which pixels of :meth:`patch` round ``centre`` lie inside the photo (``shape``):
        the rest is the white :meth:`patch` fills in, neither a card nor glare."""
        c = (self.size - 1) / 2.0
        u = (np.arange(self.size, dtype=np.float64) - c) / LEVEL
        xs, ys = np.meshgrid(centre[0] + u, centre[1] + u)
        pts = h @ np.stack([xs.ravel(), ys.ravel(), np.ones(xs.size)])
        x, y = pts[0] / pts[2], pts[1] / pts[2]
        inside = (x >= 0) & (y >= 0) & (x <= shape[1] - 1) & (y <= shape[0] - 1) & (pts[2] > 0)
        return inside.reshape(self.size, self.size)

    def scores(self, patch: np.ndarray) -> np.ndarray:
        """Correlation of a photographed cell with every face in every rotation: an array
        faces x 6 (rotation r: the card turned r x 60 degrees clockwise)."""
        return (self.templates @ self._vector(patch, self._blurred(patch))).reshape(
            len(self.names), 6)

    def scores_many(self, patches: list[np.ndarray]) -> np.ndarray:
        """:meth:`scores` of many patches at once (patches x faces x 6): one matrix product,
        so the faces are read from memory once rather than once per patch (the scores
        agree with :meth:`scores` to the last few bits of a float32)."""
        vectors = np.stack([self._vector(p, self._blurred(p)) for p in patches])
        return (vectors @ self.templates.T).reshape(len(patches), len(self.names), 6)

    def gain(self, patch: np.ndarray, index: int, rot: int,
             keep: np.ndarray | None = None) -> float:
        """How strongly the photo's light and dark follow face ``index`` turned ``rot``: the
        slope of photo against face (both 0-255), averaged over the colour channels. A
        card photographed has its routes dark and its background light, a faint texture of
        the table that merely correlates has a small slope."""
        m = self.mask if keep is None or keep.sum() < 50 else keep
        f = self._blurred(patch)[m]
        t = self._faces[index * 6 + rot][m]
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
        f = self._blurred(patch)
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

    # --- what the photo shows of a card: glare, something over it -----------------------

    def face(self, index: int, rot: int) -> np.ndarray:
        """Face ``index`` turned ``rot``, blurred as compared (float32 BGR, 0-255)."""
        return self._faces[index * 6 + rot]

    def _raw(self) -> tuple[np.ndarray, np.ndarray]:
        """The blurred faces, each channel's pixels inside the hex, and their squares
        (cards x 6, 3, pixels): what masked comparisons sum over."""
        if self._raw_faces is None:
            raw = self._hex_faces()
            self._raw_faces = (raw, raw * raw)
        return self._raw_faces

    def _hex_faces(self) -> np.ndarray:
        """The blurred faces' pixels inside the hex (cards x 6, 3, pixels), made once."""
        if self._masked_faces is None:
            self._masked_faces = np.stack([f[self.mask].T for f in self._faces]).astype(
                np.float32)
        return self._masked_faces

    def _flat(self, img: np.ndarray) -> np.ndarray:
        """Each channel's light and shade relative to its surroundings (4 mm round): a lamp's
        reflection adds light that changes slowly across a card, and this takes it out
        (the routes, the planet and the marker stay)."""
        f = img.astype(np.float32)
        mean = cv2.GaussianBlur(f, (0, 0), FLAT_MM * LEVEL)
        d = f - mean
        spread = np.sqrt(cv2.GaussianBlur(d * d, (0, 0), FLAT_MM * LEVEL)) + 6.0
        return d / spread

    def flat_scores(self, patch: np.ndarray, keep: np.ndarray) -> np.ndarray:
        """:meth:`masked_scores` of the light and shade relative to their surroundings
        (:meth:`_flat`), over ``keep`` (the pixels not clipped white): a card under a
        lamp's reflection, compared by what the reflection leaves of its print."""
        if self._flat_faces is None:
            self._flat_faces = np.stack([self._flat(f)[self.mask].T
                                         for f in self._faces]).astype(np.float32)
        w = keep[self.mask].astype(np.float32)
        n = float(w.sum())
        if n < 50:
            return np.zeros((len(self.names), 6), np.float32)
        raw = self._flat_faces
        f = self._flat(self._blurred(patch))[self.mask]
        return self._weighted(f, raw, raw * raw, w)

    def duel(self, patch: np.ndarray, keep: np.ndarray, a: tuple[int, int],
             b: tuple[int, int]) -> tuple[int, float, float]:
        """Two faces (index, rot) that match a patch about as well, compared only where
        they differ (a route one has and the other not, another planet), of the pixels
        ``keep`` (not washed out), by their light and shade relative to the surroundings
        (:meth:`_flat`, as :meth:`flat_scores`): how many such pixels the photo shows, and
        how far the photo is from each face there (mean absolute difference). Call after
        :meth:`flat_scores` (whose faces it uses)."""
        assert self._flat_faces is not None
        fa = self._flat_faces[a[0] * 6 + a[1]]  # 3 x pixels
        fb = self._flat_faces[b[0] * 6 + b[1]]
        sel = (np.abs(fa - fb).sum(axis=0) >= DUEL_DIFF) & keep[self.mask]
        n = int(sel.sum())
        if n == 0:
            return 0, 0.0, 0.0
        f = self._flat(self._blurred(patch))[self.mask][sel].T  # 3 x chosen pixels
        return (n, float(np.abs(f - fa[:, sel]).mean()), float(np.abs(f - fb[:, sel]).mean()))

    def _weighted(self, f: np.ndarray, raw: np.ndarray, raw2: np.ndarray,
                  w: np.ndarray) -> np.ndarray:
        """The correlation, weighted by ``w`` (pixels), of the photo's pixels ``f`` with
        every face in every rotation (``raw``, and ``raw2`` its squares), the three colours
        averaged: faces x 6."""
        n = float(w.sum())
        total = np.zeros(raw.shape[0], np.float64)
        for ch in range(3):
            v = f[:, ch]
            t, t2 = raw[:, ch, :], raw2[:, ch, :]
            s_t, s_tt, s_tv = t @ w, t2 @ w, t @ (w * v)
            s_v, s_vv = float(w @ v), float(w @ (v * v))
            num = s_tv - s_t * s_v / n
            den = np.sqrt(np.maximum(s_tt - s_t * s_t / n, 1e-6) * max(s_vv - s_v * s_v / n,
                                                                          1e-6))
            total += num / den
        return (total / 3.0).reshape(len(self.names), 6).astype(np.float32)

    def clipped(self, patch: np.ndarray) -> np.ndarray:
        """Where the photo is white beyond what it can record (the lamp's reflection at its
        brightest): nothing of the print is left there. Grown by a millimetre."""
        low = lowest(patch)
        hot = (low >= 246).astype(np.uint8)
        return cv2.dilate(hot, _disc(int(round(LEVEL)))).astype(bool) & self.mask

    def masked_scores(self, patch: np.ndarray, keep: np.ndarray) -> np.ndarray:
        """:meth:`scores` over the pixels ``keep`` (a mask of the patch) only: a card half
        under glare compared on the half that is not."""
        w = keep[self.mask].astype(np.float32)
        n = float(w.sum())
        if n < 50:
            return np.zeros((len(self.names), 6), np.float32)
        raw, raw2 = self._raw()
        f = self._blurred(patch)[self.mask]
        return self._weighted(f, raw, raw2, w)

    def bright(self, patch: np.ndarray, paper: float, inside: np.ndarray | None = None
               ) -> np.ndarray:
        """Where the photo is brighter than the cards' paper can be (``paper``: its
        brightness, 0-255, in this light): a lamp's reflection, whatever card lies there.
        Grown by a millimetre, inside the hex (and ``inside`` the photo, if given)."""
        gray = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
        low = lowest(patch).astype(np.float32)
        high = highest(patch).astype(np.float32)
        white = high - low <= 0.12 * np.maximum(high, 1.0)  # a lamp's light is white
        hot = ((gray >= min(250.0, max(paper * 1.1 + 4.0, 236.0))) & white) | (low >= 248.0)
        hot = cv2.dilate(hot.astype(np.uint8), _disc(int(round(LEVEL * 1.0))))
        hot = hot.astype(bool) & self.mask
        return hot if inside is None else hot & inside

    def explain(self, patch: np.ndarray, index: int, rot: int, hot: np.ndarray | None = None,
                paper: float = 230.0) -> tuple[np.ndarray, np.ndarray, float]:
        """The photo against face ``index`` turned ``rot``, pixel by pixel, after fitting the
        light (a gain and an offset per channel): where it is much brighter than the face
        in every channel and white (glare, with ``hot``; ``paper``: how bright the paper is
        in this photo, 0-255), and where it is something else altogether
        over an area larger than a route's width (something lying over the card, its
        shadow, a neighbour on top). Returns the two masks and how well the rest fits
        (the median residual, as a share of the face's range)."""
        # worked on the hex's pixels only (what every mask below keeps), in their order
        mask = self.mask
        f = self._blurred(patch)[mask]  # pixels x 3
        t = self._hex_faces()[index * 6 + rot]  # 3 x pixels
        m = np.ones(len(f), bool) if hot is None else ~hot[mask]
        if m.sum() < 50:
            m = np.ones(len(f), bool)
        res = np.zeros(f.shape, np.float32)
        for ch in range(3):
            x, y = t[ch], np.ascontiguousarray(f[:, ch])
            sel = m
            gain, off = 1.0, 0.0
            for _ in range(3):  # least squares, then again without what fits worst: a
                xs, ys = x[sel], y[sel]  # hand over a third of the card must not bend it
                mx, my = float(xs.mean()), float(ys.mean())
                dx = xs - mx
                vx = float((dx * dx).mean())
                gain = float((dx * (ys - my)).mean()) / vx if vx > 1e-6 else 0.0
                off = my - gain * mx
                r = y - (gain * x + off)
                size = np.abs(r)
                spread = max(2.5 * 1.48 * float(np.median(size[sel][::5])), 6.0)
                nxt = m & (size <= spread)
                if np.count_nonzero(nxt) < 50:
                    break
                sel = nxt
            span = max(abs(gain) * self._span[index * 6 + rot][ch], 20.0)
            res[:, ch] = r / span
        # glare is the lamp's own light: nearly as bright as the paper or more, and white
        low, high = lowest(f), highest(f)
        whitish = (low >= 0.8 * paper) & (high - low <= 0.18 * np.maximum(high, 1.0))
        glare = np.zeros(mask.shape, bool)
        glare[mask] = (lowest(res) > 0.25) & whitish
        if hot is not None:
            glare |= hot
        off_face = np.zeros(mask.shape, np.uint8)
        off_face[mask] = (highest(np.abs(res)) > 0.3) & ~glare[mask]
        k = _disc(int(round(LEVEL * 2.5)))
        other = cv2.morphologyEx(off_face, cv2.MORPH_OPEN, k).astype(bool)
        rest = ~glare[mask] & ~other[mask]
        fit = float(np.median(np.abs(res[rest]))) if rest.any() else 1.0
        return glare, other, fit

    def sides(self) -> list[np.ndarray]:
        """Bands along the six sides (N, NE, ... NW) of the hex, 2.5-12 mm inside it: what
        lies over a card's edge lies over its neighbour's cell too."""
        if self._sides is None:
            c = (self.size - 1) / 2.0
            yy, xx = np.mgrid[0:self.size, 0:self.size]
            x, y = (xx - c) / LEVEL, (yy - c) / LEVEL
            apothem = self.flats / 2.0
            out = []
            for s in range(6):
                a = math.radians(60.0 * s)
                d = x * math.sin(a) - y * math.cos(a)
                out.append(self.mask & (d >= apothem - 12.0) & (d <= apothem - INSET_MM))
            self._sides = out
        return self._sides


def lowest(a: np.ndarray) -> np.ndarray:
    """The least of the three colours of each pixel (the last axis): what ``a.min(-1)``
    gives, without NumPy's slow reduction over an axis of three."""
    return np.minimum(np.minimum(a[..., 0], a[..., 1]), a[..., 2])


def highest(a: np.ndarray) -> np.ndarray:
    """The greatest of the three colours of each pixel (see :func:`lowest`)."""
    return np.maximum(np.maximum(a[..., 0], a[..., 1]), a[..., 2])


def _disc(radius: int) -> np.ndarray:
    r = max(1, radius)
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
