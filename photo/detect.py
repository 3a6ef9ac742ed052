"""Finding the printed markers in a photo and reading their codes.

OpenCV's ArUco detector finds the dark squares (its accepted markers and the candidates
it rejected alike: in a coarse or blurred photo it often finds the square but cannot
read its bits). Each square is then read here, by a model of how a marker looks once
photographed: the patch inside the square is compared with every code of the map, in
each of its four turns, blurred as much as a phone blurs it, by normalised
cross-correlation. A reading carries its score and its margin over the best *other*
code, so the caller decides what is certain enough.

The same reader also reads a marker where it is only *expected* (:func:`read_at`): the
table's grid says where each card's marker must lie, so a marker too small for the
square finder is still read there.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from generator.markers.codes import MODULES, modules

SAMPLES = 4  # samples per module in a read patch
PATCH = (MODULES + 2) * SAMPLES  # the square with one module of quiet zone all round
SIGMAS = (0.0, 0.3, 0.5, 0.7)  # photo blur in modules the templates allow for
QUIET_SEEN = 0.6  # of the 0.7 module quiet zone, what alignment relies on
_CANON = np.float32([[0, 0], [MODULES, 0], [MODULES, MODULES], [0, MODULES]])


@dataclass
class Reading:
    """A marker read in the photo: its ID, the corners of its black square in the
    marker's own order (top-left, top-right, bottom-right, bottom-left; image px), the
    correlation of the best code and the margin over the best other code."""

    id: int
    corners: np.ndarray
    score: float
    margin: float

    @property
    def centre(self) -> np.ndarray:
        return self.corners.mean(axis=0)

    @property
    def side(self) -> float:
        return float(np.mean([np.linalg.norm(self.corners[i] - self.corners[(i + 1) % 4])
                              for i in range(4)]))


def _patch_matrix(corners: np.ndarray, samples: int = SAMPLES) -> np.ndarray:
    """Patch px -> image px for a square whose corners are ``corners``."""
    hm = cv2.getPerspectiveTransform(_CANON, np.float32(corners))
    s = np.array([[1 / samples, 0, -1 + 0.5 / samples], [0, 1 / samples, -1 + 0.5 / samples],
                  [0, 0, 1]])
    return hm @ s


def sample(gray: np.ndarray, corners: np.ndarray, samples: int = SAMPLES) -> np.ndarray:
    """The square with one module of quiet zone, ``samples`` px per module (float32)."""
    size = (MODULES + 2) * samples
    return cv2.warpPerspective(gray, _patch_matrix(corners, samples), (size, size),
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE).astype(np.float32)


def _ideal(marker_id: int, fine: int) -> np.ndarray:
    """The printed marker with its quiet zone, ``fine`` px per module (float32, 1 white).
    Each module repeated ``fine`` times each way: what a nearest-neighbour resize gives,
    five times faster (:func:`fit_shape` makes up to 59 stretched markers from it for each
    marker it fits)."""
    img = np.ones((MODULES + 2, MODULES + 2), np.float32)
    img[1:-1, 1:-1] = np.array(modules(marker_id), np.float32)
    return np.repeat(np.repeat(img, fine, axis=0), fine, axis=1)


def _mask(lo: float, hi: float) -> np.ndarray:
    c = -1 + (np.arange(PATCH) + 0.5) / SAMPLES
    inside = (c >= lo) & (c <= hi)
    return (inside[:, None] & inside[None, :]).ravel()


MASK = _mask(0.0, float(MODULES))  # the black square: the border and the bits


class Codebook:
    """Templates of the given marker IDs, four turns each, at a few blurs."""

    def __init__(self, ids: Sequence[int]) -> None:
        self.ids = list(ids)
        fine = 16
        rows: list[np.ndarray] = []
        keys: list[tuple[int, int]] = []
        for n, marker_id in enumerate(self.ids):
            hi = _ideal(marker_id, fine)
            for turn in range(4):
                turned = np.rot90(hi, -turn).copy()  # the marker turned clockwise
                for sigma in SIGMAS:
                    img = cv2.GaussianBlur(turned, (0, 0), sigma * fine) if sigma else turned
                    small = cv2.resize(img, (PATCH, PATCH), interpolation=cv2.INTER_AREA)
                    rows.append(small.ravel()[MASK])
                    keys.append((n, turn))
        t = np.array(rows, np.float32)
        t -= t.mean(axis=1, keepdims=True)
        t /= np.linalg.norm(t, axis=1, keepdims=True)
        self.templates = t
        self.keys = np.array(keys)

    def scores(self, patch: np.ndarray) -> np.ndarray:
        """Correlation of ``patch`` with every (code, turn): an array ids x 4 (the best over
        the blurs)."""
        v = patch.ravel()[MASK].astype(np.float32)
        v = v - v.mean()
        norm = float(np.linalg.norm(v))
        if norm < 1e-3:
            return np.full((len(self.ids), 4), -1.0, np.float32)
        s = self.templates @ (v / norm)
        return _best_blur(s.reshape(len(self.ids), 4, len(SIGMAS)))

    def scores_many(self, patches: Sequence[np.ndarray]) -> np.ndarray:
        """:meth:`scores` of many patches at once (patches x ids x 4): one matrix product,
        so the templates are read from memory once rather than once per patch (a photo's
        squares are some 300-700; the scores agree with :meth:`scores` to the last few bits
        of a float32)."""
        if not patches:
            return np.zeros((0, len(self.ids), 4), np.float32)
        v = np.stack([p.ravel()[MASK] for p in patches]).astype(np.float32)
        v -= v.mean(axis=1, keepdims=True)
        norm = np.sqrt(np.einsum("ij,ij->i", v, v))
        plain = norm < 1e-3  # a patch of one grey: no code at all
        v /= np.where(plain, 1.0, norm)[:, None]
        s = v @ self.templates.T
        out = _best_blur(s.reshape(len(patches), len(self.ids), 4, len(SIGMAS)))
        out[plain] = -1.0
        return out

    def masked_scores(self, patch: np.ndarray, keep: np.ndarray) -> np.ndarray:
        """:meth:`scores` over the pixels ``keep`` of the patch only (where a lamp's
        reflection has not washed the marker out): ids x 4."""
        w = (keep.ravel()[MASK]).astype(np.float32)
        n = float(w.sum())
        if n < 16:
            return np.full((len(self.ids), 4), -1.0, np.float32)
        v = patch.ravel()[MASK].astype(np.float32)
        t = self.templates
        s_t, s_tt, s_tv = t @ w, (t * t) @ w, t @ (w * v)
        s_v, s_vv = float(w @ v), float(w @ (v * v))
        num = s_tv - s_t * s_v / n
        den = np.sqrt(np.maximum(s_tt - s_t * s_t / n, 1e-9) * max(s_vv - s_v * s_v / n, 1e-9))
        return _best_blur((num / den).reshape(len(self.ids), 4, len(SIGMAS)))


def _best_blur(s: np.ndarray) -> np.ndarray:
    """``s.max(axis=-1)`` (the best over the blurs), without NumPy's slow reduction over a
    short last axis."""
    best = s[..., 0]
    for k in range(1, s.shape[-1]):
        best = np.maximum(best, s[..., k])
    return best


def flatten(patch: np.ndarray) -> np.ndarray:
    """A marker's patch (as :func:`sample` gives it) with the light's slope across it taken
    out: a plane fitted to its quiet zone (the white ring round the black square, white
    whatever the code) is subtracted, so a lamp's reflection brightening one side of the
    marker does not read as another code. Clipped pixels stay as they are (see
    :meth:`Codebook.masked_scores`)."""
    n = patch.shape[0]
    c = -1 + (np.arange(n) + 0.5) / SAMPLES  # module coordinates, the square 0-MODULES
    yy, xx = np.meshgrid(c, c, indexing="ij")
    ring = ((xx < -0.2) | (xx > MODULES + 0.2) | (yy < -0.2) | (yy > MODULES + 0.2))
    a = np.column_stack([xx[ring], yy[ring], np.ones(int(ring.sum()))])
    coef, *_ = np.linalg.lstsq(a, patch[ring].astype(np.float64), rcond=None)
    plane = coef[0] * xx + coef[1] * yy + coef[2]
    return (patch - plane + float(coef[2]) + float(coef[0] + coef[1]) * MODULES / 2).astype(
        np.float32)


def best_of(scores: np.ndarray, ids: Sequence[int]) -> tuple[int, int, float, float]:
    """(marker ID, turn, score, margin over the best other ID) of a score table."""
    (n,), (turn,), (best,), (second,) = _best_of_many(scores[None])
    return ids[int(n)], int(turn), float(best), float(best) - float(second)


def _best_of_many(scores: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                               np.ndarray]:
    """:func:`best_of` of many score tables (tables x ids x turns) at once: each one's best
    code's index and turn, its score, and the best score of any other code (-1: none)."""
    count, n_ids, n_turns = scores.shape
    at = np.argmax(scores.reshape(count, n_ids * n_turns), axis=1)
    n, turn = at // n_turns, at % n_turns
    rows = np.arange(count)
    best = scores[rows, n, turn]
    per_id = np.array(_best_blur(scores))  # each code's best turn (a copy: changed below)
    per_id[rows, n] = -np.inf
    second = per_id.max(axis=1) if n_ids > 1 else np.full(count, -1.0, np.float32)
    return n, turn, best, second


ALIGN = 8  # samples per module when aligning
REACH = 1.0  # modules the alignment may move the square
TURNS = (0.0,)  # degrees it may turn it (the square's own sides are good to a degree or two)
SCALES = (1.0,)  # and scale it


def _aligner(marker_id: int, turn: int, turn_deg: float, scale: float) -> np.ndarray:
    """The marker ``marker_id`` (turned ``turn`` quarters clockwise), then turned a further
    ``turn_deg`` degrees and scaled about its centre, ``ALIGN`` samples per module over the
    square and the inner ``QUIET_SEEN`` of its quiet zone; slightly blurred."""
    fine = ALIGN
    big = 4
    hi = np.rot90(_ideal(marker_id, fine * big), -turn)
    n = int(round((MODULES + 2 * QUIET_SEEN) * fine))
    c_hi = (hi.shape[0] - 1) / 2.0
    c = (n - 1) / 2.0
    # output px -> hi-res px: about the centres, turned back and unscaled
    m = cv2.getRotationMatrix2D((c, c), turn_deg, big / scale)
    m[:, 2] += c_hi - c
    img = cv2.warpAffine(hi, m, (n, n), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=1.0)
    return cv2.GaussianBlur(img, (0, 0), 0.35 * fine)


_ALIGNERS: dict[tuple[int, int], list[tuple[float, float, np.ndarray]]] = {}


def _aligners(marker_id: int, turn: int) -> list[tuple[float, float, np.ndarray]]:
    key = (marker_id, turn)
    if key not in _ALIGNERS:
        _ALIGNERS[key] = [(t, k, _aligner(marker_id, turn, t, k)) for t in TURNS for k in SCALES]
    return _ALIGNERS[key]


def _marker_area(gray: np.ndarray, corners: np.ndarray,
                 reach: float) -> tuple[np.ndarray, np.ndarray]:
    """The photo around the marker whose black square has ``corners``, straightened at
    ``ALIGN`` pixels a module: the square, its quiet zone and ``reach`` modules more on
    every side (as float32 for template matching), and the square's homography."""
    fine = ALIGN
    size = int(round((MODULES + 2 * QUIET_SEEN + 2 * reach) * fine))
    hm = cv2.getPerspectiveTransform(_CANON, np.float32(corners))
    o = -QUIET_SEEN - reach + 0.5 / fine
    s = np.array([[1 / fine, 0, o], [0, 1 / fine, o], [0, 0, 1]])
    area = cv2.warpPerspective(gray, hm @ s, (size, size),
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    return area, hm


def refine(gray: np.ndarray, corners: np.ndarray, marker_id: int,
           turn: int = 0) -> np.ndarray | None:
    """``corners`` moved (up to a module), turned and scaled a little so the photo meets
    the marker ``marker_id`` (turned ``turn`` quarters clockwise from ``corners``' order)
    best, by normalised template matching; None when nothing there looks like it."""
    fine = ALIGN
    area, hm = _marker_area(gray, corners, REACH)
    best: tuple[float, float, float, float, float] | None = None
    for turn_deg, scale, template in _aligners(marker_id, turn):
        res = cv2.matchTemplate(area, template, cv2.TM_CCOEFF_NORMED)
        _, peak, _, (x, y) = cv2.minMaxLoc(res)
        if best is None or peak > best[0]:
            best = (float(peak), x + _subpixel(res, x, y, 1), y + _subpixel(res, x, y, 0),
                    turn_deg, scale)
    if best is None or best[0] < 0.3:
        return None
    _, x, y, turn_deg, scale = best
    # the template's centre lands at (x, y) + its own centre: the square's centre, modules
    half = MODULES / 2.0
    n = int(round((MODULES + 2 * QUIET_SEEN) * fine))
    cu = (x + (n - 1) / 2.0 + 0.5) / fine - QUIET_SEEN - REACH
    cv = (y + (n - 1) / 2.0 + 0.5) / fine - QUIET_SEEN - REACH
    a = math.radians(turn_deg)
    pts = [(cu + scale * (pu * math.cos(a) - pv * math.sin(a)),
            cv + scale * (pu * math.sin(a) + pv * math.cos(a)))
           for pu, pv in ((-half, -half), (half, -half), (half, half), (-half, half))]
    out = cv2.perspectiveTransform(np.array(pts, np.float64).reshape(-1, 1, 2), hm)
    return out.reshape(-1, 2).astype(np.float32)


SHAPE_STEPS = (0.04, 0.015, 0.005)  # the stretch searched, coarse to fine (share of a side)
SHAPE_REACH = 0.5  # modules the shape fit may move the square


def _stretched(marker_id: int, a: float, b: float) -> np.ndarray:
    """The marker ``marker_id`` as :func:`_aligner` makes it, stretched about its centre by
    ``[[1 + a, b], [b, 1 - a]]`` (longer one way than the other, its area kept)."""
    key = (marker_id, round(a, 4), round(b, 4))
    if key not in _STRETCHED:
        fine, big = ALIGN, 4
        hi = _ideal(marker_id, fine * big)
        n = int(round((MODULES + 2 * QUIET_SEEN) * fine))
        c_hi, c = (hi.shape[0] - 1) / 2.0, (n - 1) / 2.0
        back = np.linalg.inv(np.array([[1 + a, b], [b, 1 - a]])) * big  # output px -> hi-res
        m = np.column_stack([back, np.array([c_hi, c_hi]) - back @ np.array([c, c])])
        img = cv2.warpAffine(hi, m, (n, n), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                             borderMode=cv2.BORDER_CONSTANT, borderValue=1.0)
        if len(_STRETCHED) > 20_000:
            _STRETCHED.clear()
        _STRETCHED[key] = cv2.GaussianBlur(img, (0, 0), 0.35 * fine)
    return _STRETCHED[key]


_STRETCHED: dict[tuple[int, float, float], np.ndarray] = {}


def fit_shape(gray: np.ndarray, corners: np.ndarray, marker_id: int) -> np.ndarray | None:
    """The corners of the marker ``marker_id`` (``corners`` in its own order, its top-left
    first) fitted to the photo with its shape free: the printed pattern, stretched any way
    about its centre, matched to the photo there (normalised template matching over the
    whole marker, coarse to fine). The square finder's corners, and :func:`refine`, which
    only moves, turns and scales them, leave a flat marker up to 10 % longer one way than
    the other (the blurred 2-D synthetic photos); matched with its shape free, it comes
    out square within its noise, and a marker really foreshortened (its card curled)
    keeps its shape. None when nothing there looks like the marker."""
    fine = ALIGN
    area, hm = _marker_area(gray, corners, SHAPE_REACH)
    best: tuple[float, float, float, float, float] | None = None
    for step in SHAPE_STEPS:
        a0, b0 = (0.0, 0.0) if best is None else (best[3], best[4])
        span = (-2, -1, 0, 1, 2) if step > 0.01 else (-1, 0, 1)
        for da in span:
            for db in span:
                a, b = a0 + da * step, b0 + db * step
                res = cv2.matchTemplate(area, _stretched(marker_id, a, b),
                                        cv2.TM_CCOEFF_NORMED)
                _, peak, _, (x, y) = cv2.minMaxLoc(res)
                if best is None or peak > best[0]:
                    best = (float(peak), x + _subpixel(res, x, y, 1),
                            y + _subpixel(res, x, y, 0), a, b)
    if best is None or best[0] < 0.3:
        return None
    _, x, y, a, b = best
    half = MODULES / 2.0
    n = int(round((MODULES + 2 * QUIET_SEEN) * fine))
    centre = np.array([(x + (n - 1) / 2.0 + 0.5) / fine - QUIET_SEEN - SHAPE_REACH,
                       (y + (n - 1) / 2.0 + 0.5) / fine - QUIET_SEEN - SHAPE_REACH])
    stretch = np.array([[1 + a, b], [b, 1 - a]])
    pts = [centre + stretch @ np.array(p)
           for p in ((-half, -half), (half, -half), (half, half), (-half, half))]
    out = cv2.perspectiveTransform(np.array(pts, np.float64).reshape(-1, 1, 2), hm)
    return out.reshape(-1, 2)


def _subpixel(res: np.ndarray, x: int, y: int, axis: int) -> float:
    """Parabolic refinement of a correlation peak along one axis."""
    if axis == 1:
        if x <= 0 or x >= res.shape[1] - 1:
            return 0.0
        a, b, c = res[y, x - 1], res[y, x], res[y, x + 1]
    else:
        if y <= 0 or y >= res.shape[0] - 1:
            return 0.0
        a, b, c = res[y - 1, x], res[y, x], res[y + 1, x]
    den = a - 2 * b + c
    return float(0.5 * (a - c) / den) if abs(den) > 1e-9 else 0.0


def read_square(gray: np.ndarray, corners: np.ndarray, book: Codebook) -> Reading | None:
    """Read the marker whose black square has ``corners`` (any order round the square):
    a first reading where the square finder put it, then aligned to the code it reads
    as, and read again there."""
    return read_squares(gray, [corners], book)[0]


def read_squares(gray: np.ndarray, quads: Sequence[np.ndarray],
                 book: Codebook) -> list[Reading | None]:
    """:func:`read_square` of every square of ``quads``, each read against every code in
    one matrix product per step (first where the square finder put them, then where
    they are aligned); None for a square that reads as no marker."""
    first = _best_of_many(book.scores_many([sample(gray, q) for q in quads]))
    out: list[Reading | None] = [None] * len(quads)
    aligned: list[tuple[int, np.ndarray]] = []
    for k, (q, n, turn, score, second) in enumerate(zip(quads, *first, strict=True)):
        if score < 0.45:  # nothing like a marker: a letter, a pip, a square of the background
            continue
        fine = refine(gray, q, book.ids[int(n)], int(turn))
        if fine is None:
            # turn t: the marker's own top-left corner is at our corner index t
            out[k] = Reading(book.ids[int(n)], np.roll(q, -int(turn), axis=0), float(score),
                             float(score) - float(second))
        else:
            aligned.append((k, fine))
    again = _best_of_many(book.scores_many([sample(gray, q) for _, q in aligned]))
    for (k, q), n, turn, score, second in zip(aligned, *again, strict=True):
        out[k] = Reading(book.ids[int(n)], np.roll(q, -int(turn), axis=0), float(score),
                         float(score) - float(second))
    return out


def detector(max_side: int) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.minMarkerPerimeterRate = 4 * 9.0 / max_side  # squares from 9 px a side
    params.maxMarkerPerimeterRate = 4.0
    params.adaptiveThreshWinSizeMin = 7  # two thresholdings, 7 and 21 px: every marker of
    params.adaptiveThreshWinSizeMax = 21  # 9 px and more is found in one of them, at 3/4
    params.adaptiveThreshWinSizeStep = 14  # of the time three (3, 13, 23) took
    params.polygonalApproxAccuracyRate = 0.06
    params.minCornerDistanceRate = 0.1
    params.minDistanceToBorder = 1
    params.minMarkerDistanceRate = 0.01  # keep a square and the quiet zone round it both
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_1000)
    return cv2.aruco.ArucoDetector(dictionary, params)


def squares(gray: np.ndarray) -> list[np.ndarray]:
    """Every dark square the ArUco detector finds, read or not (corners, image px)."""
    det = detector(max(gray.shape))
    corners, ids, rejected = det.detectMarkers(gray)
    out = [np.asarray(c, np.float32).reshape(4, 2) for c in corners]
    out += [np.asarray(c, np.float32).reshape(4, 2) for c in rejected]
    return [q if _area(q) > 0 else q[::-1].copy() for q in out]


def _area(q: np.ndarray) -> float:
    """Twice the signed area; positive when the corners run clockwise on the image."""
    x, y = q[:, 0], q[:, 1]
    return float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


def read_all(gray: np.ndarray, book: Codebook, min_score: float = 0.5,
             quads: list[np.ndarray] | None = None) -> list[Reading]:
    """Every square of the photo (or ``quads``, squares already found) read against
    ``book``; overlapping readings of one square keep the best."""
    found = squares(gray) if quads is None else quads
    readings = [r for r in read_squares(gray, found, book)
                if r is not None and r.score >= min_score]
    readings.sort(key=lambda r: -r.score)
    kept: list[Reading] = []
    centres = np.zeros((0, 2))
    sides = np.zeros(0)
    for r in readings:
        c, side = r.centre, r.side
        if len(kept) and np.any(np.hypot(*(centres - c).T) <= 0.5 * np.minimum(sides, side)):
            continue
        kept.append(r)
        centres = np.vstack([centres, c])
        sides = np.append(sides, side)
    return kept


def read_at(gray: np.ndarray, corners: np.ndarray, book: Codebook,
            turn: int | None = 0) -> tuple[np.ndarray, np.ndarray]:
    """Read a marker where it is expected: ``corners`` in the marker's own order. Returns
    the (refined) corners and the score table (ids x 4; with ``turn`` given only that
    turn counts, the others are -1)."""
    scores = book.scores(sample(gray, corners))
    if turn is None:
        n, t = np.unravel_index(int(np.argmax(scores)), scores.shape)
    else:
        n, t = int(np.argmax(scores[:, turn])), turn
    fine = refine(gray, corners, book.ids[int(n)], int(t))
    if fine is not None:
        corners = fine
        scores = book.scores(sample(gray, corners))
    if turn is not None:
        keep = scores[:, turn].copy()
        scores[:] = -1.0
        scores[:, turn] = keep
    return corners, scores
