"""The table's own appearance, learned from the photo's free table: what an empty stretch of
it looks like at every point, so that something lying over it (a hand, a cup) is found
even where its colour is one of the table's.

The photo is seen from above (rectified onto the table plane by the camera model,
:mod:`photo.camera`, at ``STEP`` mm a pixel) and each pixel described by its colour's
chromaticity (the blue and red shares of its light: the same in brighter or dimmer
light). A patterned cloth repeats itself: the shortest shifts that map the free table
onto itself (the peaks of its autocorrelation) give its lattice, a checked cloth's
diagonal, a striped one's across the stripes. The table is then predicted at every point
from every free point at the same place in the pattern (their median, and how much they
spread there); a plain table (wood, felt: no repeat) is predicted by its one colour. A
pixel unlike its prediction is *not the table*: a hand the colour of a checked cloth's
cream squares lies, at the blue squares' places, where the cloth would be blue. Where the
table has a grain (wood), a pixel far smoother than the free table there, in the photo's
fine detail or in the view's broad detail (stripes a few millimetres wide), is *smooth*:
a hand of the wood's own colour and light.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from photo.camera import TableCamera

STEP = 2.0  # mm of the table a pixel of the view from above
DARK = 90.0  # a pixel whose B + G + R is below this has no colour to tell (a shadow)
PERIOD_MIN, PERIOD_MAX = 20.0, 300.0  # mm: the repeats of a pattern looked for
REPEAT = 0.5  # a shift that maps the free table this well onto itself is a repeat
PHASES = 20  # bins of the pattern's place along each of its two lattice vectors
UNLIKE = 0.05  # a chromaticity this far (blue + red shares) from the prediction: not table
SPREAD = 3.0  # ... and this many times the spread of the free table at that place
WHITE = np.array([1.0 / 3.0, 1.0 / 3.0])  # the chromaticity of white light
WHITER = 0.03  # a colour this near the line from the table's to white's: the table, whiter
GRAIN_SIGMA = 1.5  # px of the photo: the detail finer than this is a table's grain or weave
GRAIN_SPAN = 121  # view pixels (242 mm) over which the free table's grain is averaged
GRAIN_BLOB = 150  # view pixels (600 mm^2): a smooth patch smaller than this is no hand
CLIPPED = 250.0  # a colour this bright is at the photo's white: any grain there is lost
GRAIN_TRUST = 0.03  # ... of the free table so at most, or smoothness is not used
GRAIN_AREA = 3  # view pixels a side over which the grain is judged
BROAD_SIGMA = 1.5  # view pixels (3 mm): the detail of the view's own light finer than this is
# a table's broad grain (wood's stripes a few mm wide, which a hand's skin does not show)
BROAD_AREA = 5  # view pixels a side (10 mm, more than a stripe) over which it is averaged
BROAD_ONE_WAY = 0.3  # the free table's light must change mostly across one direction (the
# coherence of its gradients): wood's stripes (the rendered woods 0.53-0.97), not a
# speckled print with flat shapes on it (photos 14 and 19 of the 2-D set: 0.08, 0.11)
BROAD_LEVEL = 0.02  # the free table's broad grain (its median) at least this, or it has
# none to tell by: the rendered test photos' woods show 0.030-0.070, their plain cloths
# 0.002-0.007 and the cream-and-blue check 0.018 (a check is left to its colour anyway)
SMOOTH = 0.4  # a pixel whose grain is under this share of the free table's there: smooth
DIMMER = 0.8  # a colour the table's toward white, below this share of its light: no lamp's
COLOURS = 8  # bins of each chromaticity share (0-0.5) for telling one thing over the table
SAME = 0.3  # ... from another: two cells' colours unlike the table this much in common
OCCLUDER_PIXELS = 50  # pixels over the cards' edges needed to learn the occluder's colour
OCCLUDER_APART = 6.0  # ... those this many of the table's spreads from its colour are it
OCCLUDER_SHARE = 0.3  # ... if they are this share of those pixels (else: a shadow, glare)
OCCLUDER_SEPARATE = 2.0  # its colour this many of its and the table's spreads from the table's
OCCLUDER_NEAR = 3.0  # a pixel within this many of the occluder's own spreads of its colour


@dataclass
class TableLook:
    """The table as the photo shows it from above: ``chroma`` (h x w x 2) at ``STEP`` mm a
    pixel from ``origin`` (mm), which pixels show the table with a colour (``seen``), and
    which of them are unlike the table there (``unlike``, once :func:`learn` has run)."""

    chroma: np.ndarray
    seen: np.ndarray
    origin: tuple[float, float]
    unlike: np.ndarray | None = None
    # of those, the ones whose colour is the table's moved toward white (a lamp's reflection
    # on the table, or white paper: neither tells a hand or cup from the table)
    whiter: np.ndarray | None = None
    lattice: np.ndarray | None = None  # 2 x 2 (rows: the repeats, mm), None on a plain table
    # the photo's fine detail (grey levels' mean departure from their surroundings, about
    # a pixel of the photo wide) over each pixel of the view: wood's grain, a cloth's weave
    grain: np.ndarray | None = None
    # the view's own detail a few mm across (its light's departure from a Gaussian of
    # ``BROAD_SIGMA`` view pixels, a share of the light there): wood's broad grain
    broad: np.ndarray | None = None
    # of the seen pixels, those far smoother than the free table at that place, in its
    # fine or its broad grain (once :func:`learn` has run): a hand's or a cup's even
    # shading where the table has grain
    smooth: np.ndarray | None = None
    # the share of the free table smooth in small patches: noise on a table with no grain
    # to speak of (a plain cloth), where smoothness tells nothing (then none is smooth)
    speckle: float = 1.0
    shown: np.ndarray | None = None  # which pixels lie in the photo at all (seen or dark)
    light: np.ndarray | None = None  # each pixel's B + G + R
    clipped: np.ndarray | None = None  # pixels a colour of which is at the photo's white
    # of the pixels unlike the table, those whose colour is the table's toward white but
    # that are darker than the table there: no lamp's light, which only adds (a dark brown
    # over a red cloth), once :func:`learn` has run
    dimmer: np.ndarray | None = None
    # the table's colour predicted at each pixel and how far the free table spreads about
    # it there (chromaticity, summed over both shares), once :func:`learn` has run
    expected: np.ndarray | None = None
    spread: np.ndarray | None = None

    def pixel(self, xy: tuple[float, float]) -> tuple[float, float]:
        return ((xy[0] - self.origin[0]) / STEP, (xy[1] - self.origin[1]) / STEP)

    def share_unlike(self, outline: np.ndarray) -> tuple[float, float]:
        """Of the table inside ``outline`` (a polygon, table mm): the share unlike the table
        and the share seen at all (in the photo, with a colour)."""
        unlike, seen, inside = self._within(outline)
        if not seen.any():
            return 0.0, 0.0
        return (float(unlike.sum()) / float(seen.sum()),
                float(seen.sum()) / float(max(inside.sum(), 1)))

    def share_strange(self, outline: np.ndarray) -> float:
        """Of the table seen inside ``outline``: the share unlike the table in a way neither
        a lamp's reflection nor white paper is (not merely the table's colour whiter)."""
        unlike, seen, _ = self._within(outline)
        if not seen.any():
            return 0.0
        assert self.whiter is not None
        x0, y0, x1, y1 = self._box(outline)
        return float((unlike & ~self.whiter[y0:y1, x0:x1]).sum()) / float(seen.sum())

    def share_smooth(self, outline: np.ndarray) -> float:
        """Of the table seen inside ``outline``: the share far smoother than the free table
        there (no grain, no weave: see :func:`learn`)."""
        unlike, seen, inside = self._within(outline)
        if not seen.any() or self.smooth is None:
            return 0.0
        x0, y0, x1, y1 = self._box(outline)
        return float((self.smooth[y0:y1, x0:x1] & seen).sum()) / float(seen.sum())

    def share_strange_or_dim(self, outline: np.ndarray) -> float:
        """As :meth:`share_strange`, counting also what looks like the table's colour toward
        white but is darker than the table there (a lamp's reflection only adds light)."""
        unlike, seen, _ = self._within(outline)
        if not seen.any() or self.dimmer is None:
            return 0.0
        assert self.whiter is not None
        x0, y0, x1, y1 = self._box(outline)
        lit = self.whiter[y0:y1, x0:x1] & ~self.dimmer[y0:y1, x0:x1]
        return float((unlike & ~lit).sum()) / float(seen.sum())

    def share_of(self, pixels: np.ndarray, outline: np.ndarray) -> float:
        """Of the photo inside ``outline``: the share of ``pixels`` (a mask of the view)."""
        _, _, inside = self._within(outline)
        if self.shown is None or not inside.any():
            return 0.0
        x0, y0, x1, y1 = self._box(outline)
        shown = self.shown[y0:y1, x0:x1] & inside
        return float((pixels[y0:y1, x0:x1] & shown).sum()) / float(max(shown.sum(), 1))

    def share_dark(self, outline: np.ndarray) -> float:
        """Of the photo inside ``outline``: the share too dark to show a colour (below
        ``DARK``: a shadow, or a dark thing over the table)."""
        _, seen, inside = self._within(outline)
        if self.shown is None or not inside.any():
            return 0.0
        x0, y0, x1, y1 = self._box(outline)
        shown = self.shown[y0:y1, x0:x1] & inside
        return float((shown & ~seen).sum()) / float(max(shown.sum(), 1))

    def colours_unlike(self, outline: np.ndarray, whole: bool = False) -> np.ndarray | None:
        """The colours (chromaticity, ``COLOURS`` x ``COLOURS`` bins, shares) of what is
        unlike the table inside ``outline`` (``whole``: of all it shows); None where too
        little of it is (a twentieth)."""
        unlike, seen, _ = self._within(outline)
        if whole:
            unlike = seen
        if unlike.sum() < max(10, 0.05 * seen.sum()):
            return None
        x0, y0, x1, y1 = self._box(outline)
        values = self.chroma[y0:y1, x0:x1][unlike]
        idx = np.clip((values * 2.0 * COLOURS).astype(np.int32), 0, COLOURS - 1)
        counts = np.bincount(idx[:, 0] * COLOURS + idx[:, 1], minlength=COLOURS * COLOURS)
        return counts.astype(np.float64) / float(len(values))

    def _box(self, outline: np.ndarray) -> tuple[int, int, int, int]:
        pts = np.array([self.pixel((float(x), float(y))) for x, y in outline])
        x0, y0 = np.floor(pts.min(axis=0)).astype(int)
        x1, y1 = np.ceil(pts.max(axis=0)).astype(int) + 1
        hgt, wid = self.seen.shape
        return max(int(x0), 0), max(int(y0), 0), min(int(x1), wid), min(int(y1), hgt)

    def _within(self, outline: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The pixels unlike the table, seen, and inside ``outline`` (over its box)."""
        assert self.unlike is not None
        x0, y0, x1, y1 = self._box(outline)
        if x1 <= x0 or y1 <= y0:
            empty = np.zeros((0, 0), bool)
            return empty, empty, empty
        pts = np.array([self.pixel((float(x), float(y))) for x, y in outline])
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(mask, [np.round(pts - (x0, y0)).astype(np.int32)], 1)
        inside = mask > 0
        seen = self.seen[y0:y1, x0:x1] & inside
        return self.unlike[y0:y1, x0:x1] & seen, seen, inside


def same_thing(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    """Whether two cells' colours unlike the table (:meth:`TableLook.colours_unlike`) can be
    one thing over both (a hand, a cup and its shadow): a ``SAME`` share of them in common;
    a cell with too little unlike the table to say (None) is no evidence against it."""
    if a is None or b is None:
        return True
    return float(np.minimum(a, b).sum()) >= SAME


def view(bgr: np.ndarray, cam: TableCamera, lo: tuple[float, float],
         hi: tuple[float, float]) -> TableLook:
    """The photo seen from above over the table from ``lo`` to ``hi`` (mm)."""
    xs = np.arange(lo[0], hi[0], STEP)
    ys = np.arange(lo[1], hi[1], STEP)
    gx, gy = np.meshgrid(xs, ys)
    px = cam.project(np.column_stack([gx.ravel(), gy.ravel()])).astype(np.float32)
    mx = px[:, 0].reshape(gx.shape)
    my = px[:, 1].reshape(gx.shape)
    hgt, wid = bgr.shape[:2]
    inside = (mx >= 0) & (mx <= wid - 1) & (my >= 0) & (my <= hgt - 1)
    # the photo's pixels averaged over about a view pixel first (no aliasing)
    k = max(1, int(round(cam.scale_at(((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2)) * STEP)))
    soft = cv2.blur(bgr, (k, k)) if k > 1 else bgr
    top = cv2.remap(soft, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    p = top.astype(np.float32)
    total = p.sum(axis=2)
    chroma = np.stack([p[..., 0], p[..., 2]], axis=2) / np.maximum(total, 1.0)[..., None]
    return TableLook(chroma, inside & (total >= DARK), (float(lo[0]), float(lo[1])),
                     grain=_grain(bgr, mx, my, inside, k), shown=inside, light=total,
                     clipped=p.max(axis=2) >= CLIPPED, broad=_broad(total))


def _broad(light: np.ndarray) -> np.ndarray:
    """The view's detail a few millimetres across: each pixel's light's departure from a
    Gaussian of ``BROAD_SIGMA`` view pixels round it, averaged over ``BROAD_AREA`` pixels
    (more than a stripe of wood: its flat tops depart little), as a share of the light
    there (a lamp's light or a shadow scales it)."""
    band = cv2.absdiff(light, cv2.GaussianBlur(light, (0, 0), BROAD_SIGMA))
    band = cv2.blur(band, (BROAD_AREA, BROAD_AREA))
    return band / np.maximum(cv2.GaussianBlur(light, (0, 0), 4.0 * BROAD_SIGMA), 1.0)


def _one_way(light: np.ndarray, free: np.ndarray) -> float:
    """How much the free table's light changes across one direction rather than every way
    (the coherence of its gradients over the free table, 0-1): wood's stripes near 1,
    speckle near 0."""
    soft = cv2.GaussianBlur(light.astype(np.float32), (0, 0), 1.0)
    gx = cv2.Sobel(soft, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(soft, cv2.CV_32F, 0, 1)
    keep = cv2.erode(free.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    xx, yy = float((gx[keep] ** 2).sum()), float((gy[keep] ** 2).sum())
    xy = float((gx[keep] * gy[keep]).sum())
    return math.sqrt((xx - yy) ** 2 + 4.0 * xy * xy) / max(xx + yy, 1e-9)


def _striped(look: TableLook, free: np.ndarray) -> bool:
    """Whether the free table's light changes mostly across one direction (wood's stripes),
    so that its broad grain can tell a hand of its own colour."""
    return look.light is not None and _one_way(look.light, free) >= BROAD_ONE_WAY


def _off_edge(look: TableLook) -> np.ndarray:
    """The view's pixels far enough inside the photo for its broad detail to be the
    table's (near the photo's edge the Gaussians mix in what lies beyond it)."""
    assert look.shown is not None
    reach = int(round(4.0 * BROAD_SIGMA)) + BROAD_AREA
    return cv2.erode(look.shown.astype(np.uint8),
                     np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)).astype(bool)


def _grain(bgr: np.ndarray, mx: np.ndarray, my: np.ndarray, inside: np.ndarray,
           k: int) -> np.ndarray:
    """The photo's fine detail seen from above: each grey level's departure from its
    surroundings (a Gaussian of ``GRAIN_SIGMA`` px), averaged over a view pixel (``k`` px
    of the photo). Made only over the part of the photo the view covers."""
    hgt, wid = bgr.shape[:2]
    if not inside.any():
        return np.zeros(mx.shape, np.float32)
    x0 = max(int(np.floor(mx[inside].min())) - k - 4, 0)
    y0 = max(int(np.floor(my[inside].min())) - k - 4, 0)
    x1 = min(int(np.ceil(mx[inside].max())) + k + 5, wid)
    y1 = min(int(np.ceil(my[inside].max())) + k + 5, hgt)
    grey = cv2.cvtColor(bgr[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY).astype(np.float32)
    detail = cv2.absdiff(grey, cv2.GaussianBlur(grey, (0, 0), GRAIN_SIGMA))
    if k > 1:
        detail = cv2.blur(detail, (k, k))
    return cv2.remap(detail, mx - x0, my - y0, cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT)


def _repeats(values: np.ndarray, free: np.ndarray) -> np.ndarray | None:
    """The pattern's lattice (two shifts, mm, as rows) from the autocorrelation of the free
    table's chromaticity, or None when it does not repeat itself (a plain table); a
    pattern repeating one way only (stripes) gets a second shift far along them."""
    hgt, wid = free.shape
    fh, fw = cv2.getOptimalDFTSize(2 * hgt), cv2.getOptimalDFTSize(2 * wid)
    w = free.astype(np.float64)
    count = np.fft.irfft2(np.abs(np.fft.rfft2(w, (fh, fw))) ** 2, (fh, fw))
    corr = np.zeros((fh, fw))
    power = 0.0
    for c in range(values.shape[2]):
        v = np.where(free, values[..., c] - values[..., c][free].mean(), 0.0)
        corr += np.fft.irfft2(np.abs(np.fft.rfft2(v, (fh, fw))) ** 2, (fh, fw))
        power += float((v ** 2).sum())
    if power <= 0.0:
        return None
    enough = count >= 0.25 * count[0, 0]  # shifts over which enough free table overlaps
    norm = np.where(enough, corr / np.maximum(count, 1.0), 0.0) / (power / free.sum())
    norm = np.fft.fftshift(norm).astype(np.float32)
    cy, cx = fh // 2, fw // 2
    yy, xx = np.mgrid[0:fh, 0:fw]
    dist = np.hypot(yy - cy, xx - cx) * STEP
    peaks = (norm == cv2.dilate(norm, np.ones((5, 5), np.uint8))) \
        & (norm >= REPEAT) & (dist >= PERIOD_MIN) & (dist <= PERIOD_MAX)
    found = sorted(((float(dist[y, x]), (x - cx) * STEP, (y - cy) * STEP)
                    for y, x in zip(*np.nonzero(peaks), strict=True)))
    if not found:
        return None
    first = np.array(found[0][1:])
    for _, dx, dy in found[1:]:
        second = np.array([dx, dy])
        if abs(first[0] * second[1] - first[1] * second[0]) >= 0.5 * np.linalg.norm(
                first) * np.linalg.norm(second):  # not along the first (30 degrees or more)
            return np.vstack([first, second])
    across = np.array([-first[1], first[0]]) / np.linalg.norm(first) * 1e4  # stripes
    return np.vstack([first, across])


def _whiter(chroma: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Whether each colour (chromaticity, last axis the two shares) is the table's there
    moved toward white: white light added to the table's colour moves its chromaticity
    straight toward white's (1/3, 1/3), so it lies along that line (not behind the table's
    colour) and within ``WHITER`` of it."""
    toward = WHITE - table
    along = ((chroma - table) * toward).sum(axis=-1) / np.maximum(
        (toward ** 2).sum(axis=-1), 1e-6)
    off = np.abs(chroma - table - along[..., None] * toward).sum(axis=-1)
    result: np.ndarray = (along > 0.0) & (off < WHITER)
    return result


def _median_by_place(values: np.ndarray, starts: np.ndarray, bins: int) -> np.ndarray:
    """The median of ``values`` (sorted by their place in the table's pattern, ``starts``
    where each place begins) at each of the ``bins`` places; 0 where fewer than 5 show."""
    out = np.zeros(bins, np.float32)
    for b in range(bins):
        group = values[starts[b]:starts[b + 1]]
        if len(group) >= 5:
            out[b] = float(np.median(group))
    return out


def learn(look: TableLook, free: np.ndarray) -> TableLook:
    """The table predicted at every pixel of ``look`` from its ``free`` pixels (those that
    show the table: no card, nothing found over it), and each seen pixel judged like or
    unlike it (kept in ``look.unlike``)."""
    chroma = look.chroma
    free = free & look.seen
    hgt, wid = free.shape
    lattice = _repeats(chroma, free) if free.sum() >= 400 else None
    if lattice is None:
        phase = np.zeros((hgt, wid), np.int32)
        bins = 1
    else:
        yy, xx = np.mgrid[0:hgt, 0:wid].astype(np.float64)
        pos = np.stack([xx.ravel() * STEP, yy.ravel() * STEP], axis=1)
        frac = (pos @ np.linalg.inv(lattice)) % 1.0
        idx = np.minimum((frac * PHASES).astype(np.int32), PHASES - 1)
        phase = (idx[:, 0] * PHASES + idx[:, 1]).reshape(hgt, wid)
        bins = PHASES * PHASES
    flat = phase[free]
    predicted = np.zeros((bins, 2))
    spread = np.full(bins, 1.0)
    order = np.argsort(flat, kind="stable")
    starts = np.searchsorted(flat[order], np.arange(bins + 1))
    values = chroma[free][order]
    for b in range(bins):
        group = values[starts[b]:starts[b + 1]]
        if len(group) >= 5:
            predicted[b] = np.median(group, axis=0)
            spread[b] = float(np.median(np.abs(group - predicted[b]).sum(axis=1)))
    expected = predicted[phase]
    far = np.abs(chroma - expected).sum(axis=2)
    look.unlike = look.seen & (far > UNLIKE) & (far > SPREAD * spread[phase])
    look.expected, look.spread = expected, spread[phase]
    look.whiter = look.unlike & _whiter(chroma, expected)
    if look.light is not None:  # the free table's light at each place of its pattern
        bright = _median_by_place(look.light[free][order], starts, bins)
        look.dimmer = look.whiter & (look.light < DIMMER * bright[phase])
    look.lattice = lattice
    checked = lattice is not None and float(np.linalg.norm(lattice[1])) <= PERIOD_MAX
    if look.grain is not None:
        # a table without grain or weave to tell by, or with a pattern repeating both ways
        # (its grain is predicted only as well as its repeat is found: colour tells such a
        # cloth); wood's grain, a repeat one way only (stripes), is judged
        fine, look.speckle = _smoother(look, look.grain, free, phase, order, starts, bins)
        trusted = look.speckle <= GRAIN_TRUST and not checked
        look.smooth = fine if trusted else np.zeros(free.shape, bool)
        # the broad grain, where the free table shows stripes (a flat shape on a speckled
        # print is no hand) and enough of it to tell by, away from the photo's edge
        if look.broad is not None and not checked and free.any() and \
                float(np.median(look.broad[free])) >= BROAD_LEVEL and _striped(look, free):
            broad, share = _smoother(look, look.broad, free, phase, order, starts, bins)
            if share <= GRAIN_TRUST:
                look.smooth = look.smooth | (broad & _off_edge(look))
    return look


def _smoother(look: TableLook, grain: np.ndarray, free: np.ndarray, phase: np.ndarray,
              order: np.ndarray, starts: np.ndarray, bins: int) -> tuple[np.ndarray, float]:
    """The seen pixels far smoother in ``grain`` (the photo's fine detail, or the view's
    broad detail) than the free table at that place of its pattern, and the share of the
    free table smooth so in small patches (noise on a table with no such grain)."""
    assert look.whiter is not None
    typical = _median_by_place(grain[free][order], starts, bins)
    level = float(np.median(grain[free])) if free.any() else 0.0
    # the grain as the free table shows it round each place (a table further off or
    # out of focus shows less of it), at that place of its pattern
    span = (GRAIN_SPAN, GRAIN_SPAN)
    weight = cv2.blur(free.astype(np.float32), span)
    around = cv2.blur(np.where(free, grain, 0.0).astype(np.float32), span) / \
        np.maximum(weight, 1e-3)
    expected_grain = typical[phase] * around / max(level, 1e-3)
    # judged over a few pixels (noise alone, on a table without grain, is seldom smooth
    # there) and where not whiter nor at the photo's white (a lamp's reflection loses the
    # grain too)
    near = cv2.blur(grain, (GRAIN_AREA, GRAIN_AREA))
    smooth = look.seen & ~look.whiter & (weight > 0.05) & (near < SMOOTH * expected_grain)
    if look.clipped is not None:  # a reflection at the photo's white (no grain left)
        smooth &= ~cv2.dilate(look.clipped.astype(np.uint8),
                              np.ones((GRAIN_AREA, GRAIN_AREA), np.uint8)).astype(bool)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        smooth.astype(np.uint8), connectivity=8)
    small = (stats[:, cv2.CC_STAT_AREA] < GRAIN_BLOB)[labels] & smooth
    return smooth, float(small[free].mean()) if free.any() else 1.0


def occluder(look: TableLook, colours: np.ndarray) -> tuple[np.ndarray, float] | None:
    """The colour of what was found lying over the cards' edges (``colours``: B, G, R rows
    of the photo there), as a chromaticity and its spread, when it can be told from the
    table's: None where too little of it is unlike the table (a thing the table's colour,
    its shadow, a reflection), or where the table's own colour spreads as far."""
    assert look.expected is not None and look.spread is not None and look.unlike is not None
    free = look.seen & ~look.unlike
    if len(colours) < OCCLUDER_PIXELS or not free.any():
        return None
    p = colours.astype(np.float32)
    total = p.sum(axis=1)
    p = p[total >= DARK]
    if len(p) < OCCLUDER_PIXELS:
        return None
    chroma = np.stack([p[:, 0], p[:, 2]], axis=1) / p.sum(axis=1)[:, None]
    table = np.median(look.expected[free], axis=0)
    spread = float(np.median(look.spread[free]))
    far = np.abs(chroma - table).sum(axis=1)
    apart = chroma[(far > OCCLUDER_APART * spread) & ~_whiter(chroma, table)]
    if len(apart) < OCCLUDER_SHARE * len(chroma):
        return None
    colour = np.median(apart, axis=0)
    own = float(np.median(np.abs(apart - colour).sum(axis=1)))
    if float(np.abs(colour - table).sum()) < OCCLUDER_SEPARATE * (own + spread):
        return None
    return colour, own


def like_occluder(look: TableLook, colour: np.ndarray, own: float) -> np.ndarray:
    """The seen pixels nearer the occluder's colour (:func:`occluder`) than the table's
    there, within ``OCCLUDER_NEAR`` of its spreads of it and unlike the table by more
    than ``SPREAD`` of the free table's spreads at that place: the occluder over the
    free table, found by likeness to itself, not only by unlikeness to the table."""
    assert look.expected is not None and look.spread is not None
    to_it = np.abs(look.chroma - colour).sum(axis=2)
    to_table = np.abs(look.chroma - look.expected).sum(axis=2)
    return look.seen & (to_it < to_table) & (to_it <= OCCLUDER_NEAR * max(own, 1e-3)) \
        & (to_table > SPREAD * look.spread)


def enclosed(region: np.ndarray, start: np.ndarray, largest: float) -> np.ndarray:
    """What the parts of ``region`` touching ``start`` (8-connected) enclose: the pixels
    not in them that cannot be reached from the view's edge without crossing them, in
    holes of at most ``largest`` pixels (a cup's mouth, a hand's curl; a larger ring is a
    pattern of the table, or the occluder and the cards round a gap)."""
    count, labels = cv2.connectedComponents(region.astype(np.uint8), connectivity=8)
    if count <= 1:
        return np.zeros(region.shape, bool)
    touching = np.unique(labels[start & region])
    keep = np.isin(labels, touching[touching > 0])
    hgt, wid = keep.shape
    outside = np.zeros((hgt + 2, wid + 2), np.uint8)
    outside[1:-1, 1:-1] = keep
    flood = np.zeros((hgt + 4, wid + 4), np.uint8)
    cv2.floodFill(outside, flood, (0, 0), 2, flags=4)
    holes = (outside[1:-1, 1:-1] == 0).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(holes, connectivity=4)
    small = stats[:, cv2.CC_STAT_AREA] <= largest
    small[0] = False
    return small[labels]
