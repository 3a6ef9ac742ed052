"""Reading an Orbitus table from a photo: which card lies on which cell, turned how.

1. Every dark square of the photo is read as a marker (:mod:`photo.detect`).
2. The station's marker fixes the table's origin, scale and orientation. One model of the
   camera (:mod:`photo.camera`: a homography and the lens's radial distortion) is fitted
   to every marker read with certainty, taken by their distance from the station (not
   by which cards touch which), so it stays exact at the table's edge however the lens
   bends the picture; a card whose marker the model cannot explain (pushed off its cell,
   lifted or curled) is left out of the fit and its residual kept.
3. Every marker read with certainty puts its card on its cell and rotation by that model,
   on its own: no card is placed because a neighbour was read.
4. Every other cell of the table's part of the photo is looked at on its own: its card's
   marker read where the model says it must be, in each of the six rotations; else the
   cell compared with the printed face of every card in every rotation (rendered from
   the definitions), the marker deciding between the cards the art allows; where a
   lamp's reflection washes the marker out, the face alone decides, if it leaves no
   doubt. A cell that looks like a card but is not read is reported.
5. Every card is then compared with its face pixel by pixel: the glare on it is found
   (and drawn), and whatever lies over it (a hand, a cup, its shadow) names the cells
   beyond that edge where a card may lie unseen; so do cells at the photo's edge.
6. What remains uncertain is reported, never guessed: a card seen but not read, a part of
   the table covered or out of the photo, two cards on one cell, a card between cells or
   between rotations, no station.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from generator.markers.plan import MarkerMap
from generator.markers.plan import orbitus_map as marker_map
from photo import camera, printed_without
from photo.art import lowest
from photo.camera import TableCamera
from photo.detect import Codebook, Reading, fit_shape, read_all, read_at
from rules import hexgeo
from rules.hexgeo import Hex

if TYPE_CHECKING:
    from photo.table import TableLook

# a marker read with this score and margin over the next code, within these millimetres
# and degrees of a cell and rotation, is certain on its own
STRONG = (0.8, 0.1)
# a marker below certainty that still says a card lies on a cell nothing else names
# (score, margin over every other code): the cell is reported, never read from it
MARKED = (0.7, 0.05)
EXACT_MM, EXACT_DEG = 6.0, 8.0
OUTLIER = 2.5  # mm: a card's marker this far from where the model puts it is not fitted
PERSPECTIVE = 3  # markers (the station's and cards') from which the perspective is fitted
RADIAL = 12  # ... and from which the lens's distortion (if they spread over the photo)
NEAR = 0.2  # of the hex size: a marker's card further from any cell's centre is "between"
TURN_TOLERANCE = 12.0  # degrees: further from a rotation is "between rotations"
# where the marker alone is not certain, the printed art decides together with it
ART_CARD = 0.68  # the art a card needs to be read from art and marker together
ART_ALLOWS = 0.05  # the cards whose art is this near the best are the candidates
MARKER_MIN = 0.62  # the marker's score for the card chosen, where the art says it is
MARKER_MARGIN = 0.1  # ... over the other candidates' codes
ART_VERIFY = 0.6  # the art a card read at its place by its marker needs to agree
UNREAD_ART = 0.78  # a cell that looks this much like a card but is not read: reported
GAIN_CARD = 0.5  # ... if its light and shade are at least this share of the cards' read
WEDGE = 0.75  # a wedge of the hex (centre to side) that looks like the card's
GUIDED = 0.5  # a cell must look this much like a card for its marker to be looked for
CURLED_ART = 0.7  # a card's marker off its free cell by up to NEAR is placed if its face is there
GLARE_WASHED = 0.3  # a card this much under glare: its face only needs not to contradict
ART_VERIFY_GLARE = 0.45  # ... its marker read where the camera puts it
PAPER_CARD = 0.6  # a cell this much the cards' paper (or glare) is a card, if it looks like one
PAPER_FULL = 0.85  # ... this much, if it looks a little like one
PAPER_ART = 0.6  # a cell PAPER_CARD the cards' paper that looks this much like a card is one
WASHED_OUT = 0.8  # a cell next to the cards this much washed out by glare: a card may lie there
GAIN_GLARE = 0.3  # the light and shade a card under glare needs to be read by art and marker
MARKER_SEEN = 0.7  # a card's marker that reads this well where one must be: a card is there
MARKER_FACE = 0.2  # ... if that card's face, turned as its marker, is there this much
# a card under glare, its marker washed out: read from its face alone when
GLARE_SHARE = 0.04  # ... at least this share of its face is washed out (else not glare)
ALONE_ART = 0.8  # its face (where not washed out) matches this well
ALONE_MARGIN = 0.12  # ... this much better than any other card or rotation
ALONE_SEEN = 0.45  # ... over at least this share of the face
ALONE_MARKER = 0.1  # ... and the marker's unwashed part does not read as another code
# ... or, of the faces within ALONE_MARGIN (at most DUEL_RIVALS of them), it matches the
DUEL_RIVALS = 12  # photo better where the two differ: over at least DUEL_PX pixels shown
DUEL_PX = 60  # (at photo.art.LEVEL px/mm: about 27 mm^2) and nearer by DUEL_RATIO
DUEL_RATIO = 0.7
COVERED_SIDE = 0.3  # of a side's band: something lies over the card there
LIFTED_MM = 1.0  # a marker's shape this far (rms) from a flat card's: lifted or curled
# a card read whose marker (its shape fitted to the photo, detect.fit_shape), seen through
# the camera model, is this many pixels longer one way than the other is lifted or curled
# off the table (flat cards' differ by their noise: up to 1.16 px on the rendered photos'
# 20-34 px markers, 1.75 px on the first 30 2-D synthetic photos' but a partly covered
# one's 3.9 px; the curled cards' of curled-cards.jpg 1.95-3.1 px)
LIFTED_PX = 1.8
LIFTED_ROUGH = 1.8  # px: a marker whose corners as found differ less is flat without a fit
# (the curled cards' differ by 1.96-5.0 px as found; the fit costs 10-20 ms a marker: at
# 1.2 px a 12 MP photo of the 72 cards fitted 20 markers and its slowest read took 1.7 s)
LIFTED_SIDE = 20.0  # px: a smaller marker's corners are too coarse to tell (flat 16-20 px
# markers of the barrel photo, at 1.6-2.3 px/mm, differ by up to 1.5 px)
FRAME_SEEN = 0.5  # a cell less than this much in the photo may hold a card beyond its edge
FRAME_CUT = 0.9  # a cell found empty, less than this much in the photo, whose part shown
CUT_ART, CUT_PAPER = 0.6, 0.5  # ... looks this much like a card's face and is this much paper
CUT_FACE = 0.7  # ... or looks this much like one, with a card's light and shade (GAIN_CARD),
# whatever its paper (S60 of the rendered second shot of table 19: 65 % in the photo, its
# marker beyond the edge, face 0.72, light and shade 0.99, paper 0.40)
COARSE_PX = 12.0  # px a side a card's marker has there: below it (1.33 px/mm), a free cell
# cannot be checked (the rendered cards neither read nor reported lay under 2 px/mm; at
# 1.6 px/mm, 14.7 px markers, 24 of 25 cards were read and the 25th reported)
COARSE_DOUBT = 15.0  # px (1.67 px/mm): a cell found empty where a card's marker would be
PAPER_DOUBT = 0.55  # ... smaller, yet this much of it the cards' paper, is named too coarse
GAIN_DOUBT = 0.4  # ... if it shows this much of a card's light and shade (a bare table: 0.03)
STRANGE_COLOUR = 2e-4  # a colour this rare on the table and on the cards is something else
OCCLUDED = 0.3  # ... and this much of a free cell in it: something lies over the cell
TABLE_UNLIKE = 0.2  # a free cell next to one covered, this much unlike the table (as the
# photo's free table shows it there, photo.table): covered too (empty cells of the rendered
# photos away from a hand or cup: 0.00-0.14, at most 0.28)
STRANGE_PART = 0.2  # ... and a cell this much so holds part of such a thing
STRANGE_CELL = 0.5  # a free cell next to a card this much unlike the table, not by being
# whiter (photo.table: not a reflection, not paper): something lies over it (the cups of the
# rendered second shots of tables 17 and 27: 0.61 and 0.57; the empty cells next to cards
# of the 35 rendered photos without an occluder: at most 0.32, though a lamp's reflection
# on the table makes some 0.99 unlike it)
SMOOTH_CELL = 0.5  # a free cell next to a card this much smoother than the table's grain or
# weave (photo.table: a hand's or cup's even shading on wood): something lies over it
SMOOTH_PART = 0.3  # ... and a cell this much so holds part of such a thing
ENCLOSED_CELLS = 1.5  # a hole in what covers the table this many cells' area at most: the
# occluder's (a cup's mouth: S20 of rendered photo 24, one cell); a larger ring is a pattern
# of the table (photo 77 of the 2-D set: five empty cells inside a printed shape)
TABLE_SMOOTH = 0.4  # a free cell next to one covered this much so: covered too (the
# shadow of a hand on a rendered cloth, 0.31, is not)
RAISED_MM = (2.0, 4.0, 6.0, 8.0, 10.0, 12.0)  # a card lifted off the table is looked for on
# the planes this far above it (the camera's pose says where each lies in the photo)
RAISED_LOOK = 0.3  # a free cell unaccounted for whose face matches this, lying flat, ...
RAISED_UNLIKE = 0.2  # ... and this much of it unlike the table (something lies there), ...
RAISED_PAPER = 0.3  # ... and this much the cards' paper (a card's face is mostly paper), ...
RAISED_ART = 0.8  # ... and a card's face this well on one of those planes, ...
RAISED_BETTER = 0.2  # ... by this much better than on the table's plane: reported unread


@dataclass
class Placed:
    """A card read on the table."""

    cell: Hex
    card: str
    rot: int
    how: str  # "marker", "marker at its place", "art and marker", "art under glare",
    # "photos together" (photo.merge: the marker in one photo, the face in either)
    corners: np.ndarray | None = None  # its marker in the photo (working px)
    score: float = 0.0
    source: int = 0  # the reading it came from (its id), for a marker read on its own
    residual: float = 0.0  # mm: its marker's shape against a flat card's (lifted, curled)
    glare: float = 0.0  # the share of its face under glare
    lifted: bool = False  # its marker's shape says it does not lie flat (curled, lifted)


@dataclass
class Evidence:
    """What one photo shows of one cell, under that photo's final camera: kept apart from
    any decision, so that another photo's evidence of the same cell can be weighed with it
    (:mod:`photo.merge`). Both photos share the table's frame (the station fixes it), so a
    rotation means the same turn in both."""

    looks: np.ndarray  # every face's score there (cards x 6, the order of photo.art.names)
    marks: np.ndarray  # each card's own code read where its marker would lie (cards x 6)
    other: float  # the best score of a code no card carries (the station's), -1 if none
    gain: float  # the light and shade of its best face, against the cards read in the photo
    glare: float  # the share of the hex washed out by a lamp's reflection
    scale: float  # pixels per mm there
    cards: list[str] = field(default_factory=list)  # the cards of the rows (photo.art.names)
    # the marker squares found anywhere in the photo (read_all: score 0.5 or more) that put
    # their card on this cell (within NEAR of its centre, TURN_TOLERANCE of a rotation),
    # found where they lie: a card lifted or curled shows its marker off where the camera
    # puts the table's plane; each (card's row, rotation, score, margin over other codes)
    found: list[tuple[int, int, float, float]] = field(default_factory=list)


@dataclass
class Finding:
    rule: str
    cell: Hex | None
    message: str


@dataclass
class TableReading:
    """What the photo shows, in the photo's working pixels."""

    placed: dict[Hex, Placed] = field(default_factory=dict)
    unread: list[Hex] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    homography: np.ndarray | None = None  # table mm -> working px, near the station
    camera: TableCamera | None = None  # table mm -> working px, the whole table
    station: np.ndarray | None = None  # the station marker's corners
    flats: float = 50.0
    glare: dict[Hex, np.ndarray] = field(default_factory=dict)  # cells under glare: outline px
    # merged photos (photo.merge.shown_in): where another photo of the table lay under glare
    glare_elsewhere: dict[Hex, np.ndarray] = field(default_factory=dict)
    covered: dict[Hex, Hex] = field(default_factory=dict)  # a cell covered -> the card it is seen
    # over
    log: list[dict[str, Any]] = field(default_factory=list)  # every cell decided, and why
    notes: list[str] = field(default_factory=list)  # photos merged in that added nothing

    @property
    def complete(self) -> bool:
        """Every card seen is read and nothing else is reported."""
        return not self.unread and not self.findings

    @property
    def lifted(self) -> list[Hex]:
        """The cells of the cards read that do not lie flat (curled or lifted off the
        table: :func:`_anisotropy`): read all the same, and named so the player can check
        them and flatten them."""
        return sorted(c for c, p in self.placed.items() if p.lifted)


def _apply(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), h)
    return p.reshape(-1, 2)


def _affine(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """The affine map (as a 3 x 3 homography) that takes ``src`` to ``dst`` best (least
    squares): what a small square tells of the grid near it, without the perspective its
    few pixels cannot say."""
    a = np.column_stack([src, np.ones(len(src))])
    m, *_ = np.linalg.lstsq(a, dst, rcond=None)
    return np.vstack([m.T, [0.0, 0.0, 1.0]])


def _turned(points: list[tuple[float, float]], centre: tuple[float, float],
            turn_deg: float) -> np.ndarray:
    """Component-frame points on the table, the component's centre at ``centre`` and
    turned ``turn_deg`` clockwise."""
    a = math.radians(turn_deg)
    ca, sa = math.cos(a), math.sin(a)
    return np.array([(centre[0] + x * ca - y * sa, centre[1] + x * sa + y * ca)
                     for x, y in points])


def _colours(pixels: np.ndarray) -> np.ndarray:
    """The share of ``pixels`` (n x 3, BGR) in each of 32 x 32 bins of chromaticity (the
    blue and red shares of each pixel's light: the same under brighter or dimmer light),
    with a last bin for pixels too dark to have a colour (shadows)."""
    p = pixels.astype(np.float32)
    total = p.sum(axis=1)
    dark = total < 90.0
    b = np.clip((p[:, 0] / np.maximum(total, 1.0) * 64).astype(np.int32), 0, 31)
    r = np.clip((p[:, 2] / np.maximum(total, 1.0) * 64).astype(np.int32), 0, 31)
    idx = np.where(dark, 1024, b * 32 + r)
    return np.bincount(idx, minlength=1025).astype(np.float64) / max(len(pixels), 1)


def _smooth(hist: np.ndarray) -> np.ndarray:
    """A colour histogram spread over each bin's neighbours (light of another colour moves a
    colour a bin); the dark bin is always known."""
    h = hist[:1024].reshape(32, 32)
    for axis in range(2):
        h = h + np.roll(h, 1, axis) + np.roll(h, -1, axis)
    return np.append(h.ravel() / 9.0, 1.0)


def where(cell: Hex) -> str:
    return f"[{cell[0]}, {cell[1]}]"


def covered_finding(cell: Hex, why: str) -> Finding:
    """The finding of a cell a card could lie on unseen: ``why`` it is covered, then what to
    do about it (every ``photo-covered`` finding ends alike)."""
    return Finding("photo-covered", cell,
                   f"{why}, so a card there could not be seen; take it away and photograph "
                   f"again, or write that cell into the layout by hand")


def cover(out: TableReading, cell: Hex, why: str) -> None:
    """Name ``cell`` covered in ``out``: what lies over it is its own finding."""
    out.covered[cell] = cell
    out.findings.append(covered_finding(cell, why))


def free_next(out: TableReading) -> dict[Hex, Hex]:
    """The free cells next to a card read or seen (or the station) that no finding names
    yet, each with the first such card it lies next to (cells in sorted order): where a card
    could lie that the photo has not accounted for."""
    seen = set(out.placed) | set(out.unread)
    named = {f.cell for f in out.findings if f.cell is not None}
    free: dict[Hex, Hex] = {}
    for cell in sorted(seen | {(0, 0)}):
        for _, n in hexgeo.neighbours(cell):
            if n not in seen and n != (0, 0) and n not in named and n not in free:
                free[n] = cell
    return free


def _rigid_residual(seen: np.ndarray, ideal: np.ndarray) -> float:
    """RMS distance (mm) left between a marker's corners as seen (on the table plane) and
    as printed, once the best turn and shift of the whole card is allowed for: a card
    lying flat leaves a fraction of a millimetre, one lifted off the table (curled, bent,
    on top of another) shows its marker foreshortened and leaves more."""
    a, b = seen - seen.mean(0), ideal - ideal.mean(0)
    u, _, vt = np.linalg.svd(b.T @ a)
    r = u @ vt
    return float(np.sqrt(((a - b @ r) ** 2).sum(axis=1).mean()))


def _anisotropy(seen: np.ndarray, ideal: np.ndarray) -> float:
    """How much longer (as a share of its side) a marker is one way than the other, as seen
    on the table plane (``seen``) against as printed (``ideal``): the singular values of
    the affine map between the two. A card lying flat shows its marker square (the camera
    model explains the perspective and the lens), one curled or lifted shows it tilted,
    foreshortened across the curl; a uniform error of scale (the corners found a little
    inside the dark square) does not count."""
    a = np.column_stack([ideal - ideal.mean(0), np.ones(len(ideal))])
    m, *_ = np.linalg.lstsq(a, seen - seen.mean(0), rcond=None)
    s = np.linalg.svd(m[:2].T, compute_uv=False)
    return float(s[0] - s[1])


@dataclass
class _Pose:
    reading: Reading
    cell: Hex
    rot: int
    off: float  # mm from the cell's centre
    turn_off: float  # degrees from the rotation
    centre: tuple[float, float] = (0.0, 0.0)  # the card's centre on the table, mm

    @property
    def strong(self) -> bool:
        return self.reading.score >= STRONG[0] and self.reading.margin >= STRONG[1]

    @property
    def exact(self) -> bool:
        return self.off <= EXACT_MM and abs(self.turn_off) <= EXACT_DEG


@dataclass
class _View:
    """A place of the table as the art is compared there, under one camera: the camera
    round it, the photo's patch, which of its pixels lie in the photo, and its scores
    against every face (each computed once per camera, when first needed)."""

    h: np.ndarray
    patch: np.ndarray
    inside: np.ndarray | None = None
    looks: np.ndarray | None = None


class OrbitusReader:
    """Reads photos against one Orbitus marker map (and, where markers alone are not
    enough, the printed art of the definitions' cards)."""

    def __init__(self, mmap: MarkerMap, defs: Any = None) -> None:
        self.map = mmap
        self.defs = defs
        self.flats = mmap.hex_across_flats_mm
        self.book = Codebook([m.id for m in mmap.markers])
        self.sectors = {m.id: m for m in mmap.of_kind("sector")}
        self.station = next(iter(mmap.of_kind("station")), None)
        self.card_marker = {m.name: m for m in self.sectors.values()}
        self.template = next(iter(self.sectors.values()), None)  # placement of every card
        self._art: Any = None
        self._gain = 0.0
        self._paper = 255.0
        self._papers: list[tuple[tuple[float, float], float]] = []
        self._paper_bgr: np.ndarray | None = None
        # the views (:class:`_View`) of one photo under one camera: a cell's patch and its
        # scores are wanted by several steps, and comparing one costs a few milliseconds
        self._views: dict[tuple[float, float], _View] = {}
        self._views_of: tuple[np.ndarray, TableCamera] | None = None
        # the table seen from above and learned (:meth:`_follow`), for the photo being read
        self._look: TableLook | None = None

    @property
    def art(self) -> Any:
        """The printed faces (rendered on first use, then cached on disk)."""
        if self._art is None and self.defs is not None:
            from photo.art import HexArt

            self._art = HexArt.for_orbitus(self.defs)
        return self._art

    # --- geometry ----------------------------------------------------------------------

    def pose(self, reading: Reading, cam: TableCamera) -> _Pose | None:
        """Where the card whose marker is ``reading`` lies (None: not a card's marker, or
        a square of the wrong size to be one)."""
        return self.poses([reading], cam)[0]

    def poses(self, readings: list[Reading], cam: TableCamera) -> list[_Pose | None]:
        """:meth:`pose` of many readings at once (the model is tried many times)."""
        mine = [r for r in readings if r.id in self.sectors]
        out: dict[int, _Pose | None] = {}
        if mine:
            markers = [self.sectors[r.id] for r in mine]
            t = cam.unproject(np.concatenate([r.corners for r in mine]))
            t = t.reshape(len(mine), 4, 2)
            side = np.linalg.norm(t - np.roll(t, -1, axis=1), axis=2).mean(axis=1)
            size = np.array([m.size for m in markers])
            up = (t[:, 0] + t[:, 1]) / 2 - (t[:, 3] + t[:, 2]) / 2
            angle = np.degrees(np.arctan2(up[:, 0], -up[:, 1]))  # clockwise from north
            turn = angle - np.array([m.rotate for m in markers])
            steps = np.round(turn / 60.0)
            rot = steps.astype(int) % 6
            turn_off = (turn - 60.0 * steps + 180.0) % 360.0 - 180.0
            a = np.radians(turn)
            mx, my = np.array([m.x for m in markers]), np.array([m.y for m in markers])
            mc = t.mean(axis=1)
            cx = mc[:, 0] - (mx * np.cos(a) - my * np.sin(a))
            cy = mc[:, 1] - (mx * np.sin(a) + my * np.cos(a))
            for k, r in enumerate(mine):
                if not 0.75 * size[k] <= side[k] <= 1.3 * size[k]:
                    out[id(r)] = None
                    continue
                cell = hexgeo.pixel_to_hex((float(cx[k]), float(cy[k])), self.flats)
                ideal = hexgeo.centre(cell, self.flats)
                out[id(r)] = _Pose(r, cell, int(rot[k]),
                                   math.hypot(float(cx[k]) - ideal[0], float(cy[k]) - ideal[1]),
                                   float(turn_off[k]), (float(cx[k]), float(cy[k])))
        return [out.get(id(r)) for r in readings]

    def marker_corners(self, card: str | None, cell: Hex, rot: int) -> np.ndarray:
        """Where the marker of a card lying on ``cell`` turned ``rot`` is on the table."""
        marker = self.card_marker[card] if card is not None else self.template
        return _turned(marker.corners(), hexgeo.centre(cell, self.flats), 60.0 * rot)

    def _fit_camera(self, pairs: list[tuple[np.ndarray, np.ndarray]], shape: tuple[int, ...],
                    start: TableCamera | None,
                    radial: bool = True) -> tuple[TableCamera, list[int]]:
        """The camera of markers' corners (table mm, photo px), the first (the station's)
        always kept, the others dropped while one lies more than ``OUTLIER`` mm from where
        the model puts it (a card pushed off its cell, or lifted, must not bend the model
        for the rest); with its kept pairs' indices."""
        hgt, wid = shape[:2]
        kept = list(range(len(pairs)))
        while True:
            src = np.concatenate([pairs[i][0] for i in kept]).astype(np.float64)
            dst = np.concatenate([pairs[i][1] for i in kept]).astype(np.float64)
            cam = camera.fit(src, dst, wid, hgt, radial=radial and len(kept) >= RADIAL,
                             affine=len(kept) < PERSPECTIVE, start=start)
            if len(kept) <= 4:
                return cam, kept
            errors = [float(np.linalg.norm(cam.unproject(pairs[i][1]).mean(axis=0)
                                           - pairs[i][0].mean(axis=0))) for i in kept[1:]]
            limit = max(OUTLIER, 3.0 * float(np.median(errors)))
            bad = {kept[1 + j] for j, e in enumerate(errors) if e > limit}
            if not bad:
                return cam, kept
            kept = [i for i in kept if i not in bad]
            start = cam

    def _camera(self, station: tuple[np.ndarray, np.ndarray], strong: list[Reading],
                shape: tuple[int, ...]) -> TableCamera:
        """The camera, fitted to the station's marker, then to every card's marker read
        with certainty, taken by their distance from the station: each round admits the
        markers one cell further out that the model so far puts near a cell, and the
        model is fitted again to all of them (which card touches which plays no part)."""
        hgt, wid = shape[:2]
        cam = camera.fit(station[0], station[1], wid, hgt, radial=False, affine=True)
        reach = 1.6 * self.flats
        for _ in range(16):
            chosen: dict[Hex, _Pose] = {}
            farthest = 0.0
            for p in self.poses(strong, cam):
                if p is None or p.cell == (0, 0):
                    continue
                d = math.hypot(*p.centre)
                farthest = max(farthest, d)
                if d > reach or p.off > 0.3 * self.flats or abs(p.turn_off) > 20.0:
                    continue
                if p.cell not in chosen or chosen[p.cell].reading.score < p.reading.score:
                    chosen[p.cell] = p
            pairs = [station] + [(self.marker_corners(self.sectors[p.reading.id].name, p.cell,
                                                      p.rot), p.reading.corners)
                                 for p in chosen.values()]
            cam, _ = self._fit_camera(pairs, shape, cam, radial=False)
            if reach > farthest + self.flats:
                break
            reach += self.flats
        return cam

    def _local(self, cam: TableCamera, centre: tuple[float, float]) -> tuple[np.ndarray, float]:
        """The camera round a cell (as a homography) and its pixels per mm there."""
        return cam.local(centre, 0.6 * self.flats), cam.scale_at(centre)

    def _view(self, bgr: np.ndarray, cam: TableCamera, centre: tuple[float, float]) -> _View:
        """The view of the table round ``centre`` (mm) under ``cam`` (made once)."""
        of = self._views_of
        if of is None or of[0] is not bgr or of[1] is not cam:
            self._views = {}
            self._views_of = (bgr, cam)
        view = self._views.get(centre)
        if view is None:
            h, scale = self._local(cam, centre)
            view = _View(h, self.art.patch(bgr, h, centre, scale))
            self._views[centre] = view
        return view

    def _looks(self, bgr: np.ndarray, cam: TableCamera, centre: tuple[float, float]
               ) -> tuple[_View, np.ndarray]:
        """The view round ``centre`` and its scores against every face (cards x 6)."""
        view = self._view(bgr, cam, centre)
        if view.looks is None:
            view.looks = self.art.scores(view.patch)
        return view, view.looks

    def _in_frame(self, bgr: np.ndarray, cam: TableCamera, centre: tuple[float, float]
                ) -> np.ndarray:
        """Which pixels of the view round ``centre`` lie inside the photo."""
        view = self._view(bgr, cam, centre)
        if view.inside is None:
            view.inside = self.art.in_frame(bgr.shape, view.h, centre)
        return view.inside

    def _compare_all(self, bgr: np.ndarray, cam: TableCamera, cells: list[Hex]) -> None:
        """The scores of every cell of ``cells`` computed at once (one matrix product
        instead of one per cell: the faces are read from memory once)."""
        views = [self._view(bgr, cam, hexgeo.centre(c, self.flats)) for c in cells]
        todo = [v for v in views if v.looks is None]
        if todo:
            for v, looks in zip(todo, self.art.scores_many([v.patch for v in todo]),
                                strict=True):
                v.looks = looks

    def _frame_share(self, cam: TableCamera, cell: Hex, shape: tuple[int, ...]) -> float:
        """The share of a cell's hex that lies inside the photo."""
        hgt, wid = shape[:2]
        c = hexgeo.centre(cell, self.flats)
        pts = [c]
        for k in (0.35, 0.7, 0.95):
            pts += [(c[0] + (x - c[0]) * k, c[1] + (y - c[1]) * k)
                    for x, y in hexgeo.corners(c, self.flats)]
            pts += [hexgeo.side_midpoint(c, self.flats * k, s) for s in range(6)]
        px = cam.project(np.array(pts))
        inside = (px[:, 0] >= 1) & (px[:, 0] <= wid - 2) & (px[:, 1] >= 1) & (px[:, 1] <= hgt - 2)
        return float(inside.mean())

    # --- the whole reading -------------------------------------------------------------------

    def sizes(self) -> dict[int, float]:
        """The printed side of every marker, mm."""
        return {m.id: m.size for m in self.map.markers}

    @staticmethod
    def draw(bgr: np.ndarray, reading: TableReading) -> np.ndarray:
        """The debug image: ``reading`` drawn over the photo (:func:`draw`)."""
        return draw(bgr, reading)

    def read_bytes(self, data: bytes, source: str) -> tuple[TableReading, Any]:
        """Read a photo file's bytes (at the resolution it reads best at); returns the
        reading and the :class:`photo.working.Working` photo it was made on."""
        from photo.working import look

        work = look(data, source, self.book, self.sizes())
        reading = self.read(work.bgr, work.readings, work.gray)
        work.gray = None  # not kept with the photo: the debug image needs colour only
        return reading, work

    def evidence_of(self, work: Any, reading: TableReading
                    ) -> Callable[[Hex], Evidence | None]:
        """What the photo ``work`` (a :class:`photo.working.Working`, read as ``reading``)
        shows of a cell, asked cell by
        cell after the reading (:class:`Evidence`; None where the photo shows too little of
        the cell, or nothing was placed in it): its faces compared and its marker read
        where the final camera puts it in each rotation, as :meth:`_decide` does, but no
        decision taken. Another photo of the table weighs it (:func:`photo.merge.merge`)."""
        cam = reading.camera
        bgr = work.bgr
        state: dict[str, Any] = {}

        def look(cell: Hex) -> Evidence | None:
            if cam is None or self.art is None or \
                    self._frame_share(cam, cell, bgr.shape) < FRAME_SEEN:
                return None
            if not state:  # this photo's paper and light and shade, from its cards read
                state["gray"] = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
                state["gain"] = self._typical_gain(bgr, cam, reading)
                state["paper"] = self._paper_level(bgr, cam, reading)
                state["papers"], state["paper_bgr"] = self._papers, self._paper_bgr
                state["found"] = self._found(work.readings, cam, reading)
            self._gain, self._paper = state["gain"], state["paper"]
            self._papers, self._paper_bgr = state["papers"], state["paper_bgr"]
            seen = self._evidence(bgr, state["gray"], cam, cell)
            seen.found = state["found"].get(cell, [])
            return seen

        return look

    def _found(self, readings: list[Reading], cam: TableCamera, reading: TableReading
               ) -> dict[Hex, list[tuple[int, int, float, float]]]:
        """The marker squares of the photo (``readings``) not placed that put a card on a
        cell, by cell (:attr:`Evidence.found`)."""
        placed = {id(p.corners) for p in reading.placed.values() if p.corners is not None}
        mine = [r for r in readings if r.id in self.sectors and r.score >= 0.5
                and id(r.corners) not in placed]
        out: dict[Hex, list[tuple[int, int, float, float]]] = {}
        names = self.art.names
        for r, p in zip(mine, self.poses(mine, cam), strict=True):
            if p is None or p.off > NEAR * self.flats or abs(p.turn_off) > TURN_TOLERANCE:
                continue
            out.setdefault(p.cell, []).append(
                (names.index(self.sectors[r.id].name), p.rot, r.score, r.margin))
        return out

    def _evidence(self, bgr: np.ndarray, gray: np.ndarray, cam: TableCamera,
                  cell: Hex) -> Evidence:
        art = self.art
        centre = hexgeo.centre(cell, self.flats)
        view, looks = self._looks(bgr, cam, centre)
        inside = self._in_frame(bgr, cam, centre)
        hot = art.bright(view.patch, self._paper_at(cell), inside)
        washed = float(hot.sum()) / float(art.mask.sum())
        if washed >= GLARE_SHARE:  # compared where the reflection is not, as _decide does
            looks = np.maximum(looks, art.masked_scores(view.patch, art.mask & ~hot))
        marks, _ = self._marks(gray, cam, cell, washed, True)
        rows = [self.book.ids.index(self.card_marker[name].id) for name in art.names]
        i, k = np.unravel_index(int(np.argmax(looks)), looks.shape)
        gain = art.gain(view.patch, int(i), int(k))
        if washed >= GLARE_SHARE:
            gain = max(gain, art.gain(view.patch, int(i), int(k), art.mask & ~hot))
        return Evidence(np.asarray(looks, np.float32), marks[rows, :],
                        float(np.delete(marks, rows, axis=0).max(initial=-1.0)),
                        gain / self._gain if self._gain > 0 else 0.0, washed,
                        cam.scale_at(centre), art.names)

    def read(self, bgr: np.ndarray, readings: list[Reading] | None = None,
             gray: np.ndarray | None = None) -> TableReading:
        """Read the table in ``bgr`` (``readings``: its markers, when already read;
        ``gray``: ``bgr`` in grey, when already made)."""
        if gray is None:
            gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
        out = TableReading(flats=self.flats)
        if self.station is None or not self.sectors:
            which = "station.yaml" if self.station is None else "sectors.yaml"
            out.findings.append(Finding("photo-no-markers", None, f"the deck was printed "
                                        f"without markers (markers: false in {which})"))
            return out
        if readings is None:
            readings = read_all(gray, self.book)
        stations = [r for r in readings if r.id == self.station.id and r.score >= STRONG[0]
                    and r.margin >= STRONG[1] * 0.6]
        if not stations:
            out.findings.append(Finding(
                "photo-no-station", None,
                "the station's marker is not visible or cannot be read in the photo (covered, "
                "out of the frame, or too small: photos of the table at under 0.9 px per mm "
                "do not show it readably); the station fixes where every cell is, so no "
                "card was placed and none of the table could be checked (photograph the "
                "whole table with the station uncovered, close enough)"))
            return out
        st = max(stations, key=lambda r: r.score)
        out.station = st.corners
        station = (np.array(self.station.corners()), st.corners)
        cands = [r for r in readings if r.id in self.sectors and r.score >= 0.5]
        strong = [r for r in cands if r.score >= STRONG[0] and r.margin >= STRONG[1]]
        # 1: one camera for the whole table, from every marker read with certainty
        cam = self._camera(station, strong, bgr.shape)
        used: set[int] = set()
        # 2: every card whose marker is certain, on its own
        self._place_markers(cam, strong, out, used)
        cam = self._refit(station, out, bgr.shape, cam)
        self._recheck(cam, out, used)
        # 3: every other cell of the table's part of the photo, on its own
        if self.art is not None:
            self._gain = self._typical_gain(bgr, cam, out)
            self._paper = self._paper_level(bgr, cam, out)
            todo = self._footprint(cam, bgr.shape, [*out.placed, (0, 0)], set(out.placed))
            looked = set(todo) | set(out.placed)
            self._compare_all(bgr, cam, todo + sorted(c for c, p in out.placed.items()
                                                      if p.how == "marker"))
            # cells found empty while no card was read or seen next to them: looked at
            # again (as any cell next to a card) once a card is read or seen next to them,
            # whichever was looked at first
            lonely: dict[Hex, dict[str, Any]] = {}
            again: set[Hex] = set()
            while todo:
                cell = todo.pop(0)
                alone = not any(n in out.placed or n in out.unread or n == (0, 0)
                                for _, n in hexgeo.neighbours(cell))
                unread = len(out.unread)
                found = self._decide(bgr, gray, cam, cell, out, alone, cell in again)
                if found is not None:
                    out.placed[cell] = found
                elif alone and len(out.unread) == unread:
                    lonely[cell] = out.log[-1]
                if found is not None or len(out.unread) > unread:  # a card: look round it
                    more = self._footprint(cam, bgr.shape, [cell], looked)
                    looked |= set(more)
                    self._compare_all(bgr, cam, more)
                    near = [n for _, n in hexgeo.neighbours(cell) if n in lonely]
                    for n in near:
                        lonely.pop(n)["how"] = "looked at again"
                    again |= set(near)
                    todo = near + todo + more
            self._verify_art(bgr, gray, cam, out, used)
        cam = self._refit(station, out, bgr.shape, cam)
        self._leftovers(cands, used, cam, out, bgr)
        self._marked(cands, used, cam, out, bgr)
        self._lifted(gray, cam, out)
        # 4: glare, what lies over the table, and the photo's edge
        self._look = None
        if self.art is not None:
            over = self._explain(bgr, cam, out)
            self._occluded(bgr, cam, out, over)
        self._frame(cam, bgr.shape, out)
        self._coarse(cam, bgr.shape, out, bgr)
        if self.art is not None:
            self._raised(bgr, cam, out)
        self._views, self._views_of, self._look = {}, None, None  # the photo's patches are not kept
        if self.art is not None:
            self.art.forget()
        out.camera = cam
        out.homography = cam.local((0.0, 0.0), 2.0 * self.flats)
        return out

    def _place_markers(self, cam: TableCamera, strong: list[Reading], out: TableReading,
                       used: set[int]) -> None:
        """Each marker read with certainty that the camera puts exactly on a cell and
        rotation places its card there (the best reading where two claim one cell)."""
        poses = [p for p in self.poses(strong, cam) if p is not None]
        for p in sorted(poses, key=lambda p: -p.reading.score):
            if not p.exact or p.cell == (0, 0) or p.cell in out.placed:
                continue
            name = self.sectors[p.reading.id].name
            seen = cam.unproject(p.reading.corners)
            residual = _rigid_residual(seen, self.marker_corners(name, p.cell, p.rot))
            out.placed[p.cell] = Placed(p.cell, name, p.rot, "marker", p.reading.corners,
                                        p.reading.score, id(p.reading), residual)
            used.add(id(p.reading))

    def _refit(self, station: tuple[np.ndarray, np.ndarray], out: TableReading,
               shape: tuple[int, ...], cam: TableCamera) -> TableCamera:
        """The camera fitted again to every card placed with its marker's corners (a card
        read at its place has its marker aligned there too)."""
        pairs = [station] + [(self.marker_corners(p.card, p.cell, p.rot), p.corners)
                             for p in out.placed.values() if p.corners is not None
                             and p.residual <= LIFTED_MM]
        if len(pairs) < 3:
            return cam
        new, _ = self._fit_camera(pairs, shape, cam)
        return new

    def _lifted(self, gray: np.ndarray, cam: TableCamera, out: TableReading) -> None:
        """Every card read with its marker's corners, its marker's shape (fitted to the
        photo with its shape free, :func:`photo.detect.fit_shape`: the corners as found
        are stretched by the blur) under the final camera: longer one way than the other
        by ``LIFTED_PX`` pixels or more (and its corners as found by ``LIFTED_ROUGH``), the
        card is curled or lifted (it is read all the same); so is a card placed though its
        marker lies off its cell (:meth:`_leftovers`: its face is on the cell, its marker
        higher)."""
        for cell, p in out.placed.items():
            if p.corners is None or p.lifted:
                continue
            ideal = self.marker_corners(p.card, cell, p.rot)
            side = float(np.linalg.norm(ideal[1] - ideal[0])) * cam.scale_at(
                hexgeo.centre(cell, self.flats))
            if side < LIFTED_SIDE or _anisotropy(cam.unproject(p.corners),
                                                 ideal) * side < LIFTED_ROUGH:
                continue
            shape = fit_shape(gray, p.corners, self.card_marker[p.card].id)
            if shape is not None:
                p.lifted = _anisotropy(cam.unproject(shape), ideal) * side >= LIFTED_PX

    def _recheck(self, cam: TableCamera, out: TableReading, used: set[int]) -> None:
        """Every card placed by its marker, looked at again with the final camera: one
        whose marker no longer lies exactly on its cell is taken off (and reported with
        the leftovers: between cells, between rotations)."""
        mine = [(cell, p) for cell, p in out.placed.items()
                if p.how == "marker" and p.corners is not None]
        again = self.poses([Reading(self.card_marker[p.card].id, p.corners, p.score, 1.0)
                            for _, p in mine], cam)
        for (cell, p), pose in zip(mine, again, strict=True):
            if pose is None or pose.cell != cell or not pose.exact:
                del out.placed[cell]
                used.discard(p.source)

    def _footprint(self, cam: TableCamera, shape: tuple[int, ...], around: list[Hex],
                   skip: set[Hex]) -> list[Hex]:
        """The cells of the photo up to two cells from any of ``around`` (the cards read,
        the station), but ``skip``, nearest the station first: each is looked at on its
        own, whether or not a card next to it was read (a card is read or seen two cells
        beyond one unread, and the cells round it are looked at in turn)."""
        cells = set()
        for c in around:
            for dq in range(-2, 3):
                for dr in range(max(-2, -dq - 2), min(2, -dq + 2) + 1):
                    cell = (c[0] + dq, c[1] + dr)
                    if cell != (0, 0) and cell not in skip:
                        cells.add(cell)
        cells = {c for c in cells if self._frame_share(cam, c, shape) >= 0.3}
        return sorted(cells, key=lambda c: (hexgeo.distance(c, (0, 0)), c))

    def _decide(self, bgr: np.ndarray, gray: np.ndarray, cam: TableCamera, cell: Hex,
                out: TableReading, alone: bool = False, again: bool = False) -> Placed | None:
        """What lies on ``cell`` when no marker put a card there with certainty: its marker
        read where the camera says it must be, else the printed art and that marker
        together, else (under glare) the art alone if it leaves no doubt; a card seen but
        not read is added to ``out.unread``. A cell ``alone`` (no card read or seen next
        to it, nor the station) needs its whole face to look like a card to be reported:
        a cluttered table far from the cards has patches that look like part of one. A
        cell looked at ``again`` (found empty while alone, a card since read or seen next to
        it) is reported only by its face, as a whole or in three wedges, not by its paper or
        a lamp's reflection: an empty cell beside a card under glare can show both (two of
        photo 6 of the rendered set did)."""
        entry: dict[str, Any] = {"cell": cell}
        out.log.append(entry)
        art = self.art
        centre = hexgeo.centre(cell, self.flats)
        view, looks = self._looks(bgr, cam, centre)  # cards x 6
        patch = view.patch
        paper = self._paper_at(cell)
        inside = self._in_frame(bgr, cam, centre)
        hot = art.bright(patch, paper, inside)
        washed = float(hot.sum()) / float(art.mask.sum())
        entry["glare"] = washed
        if washed >= GLARE_SHARE and not alone:  # compared where the reflection is not
            looks = np.maximum(looks, art.masked_scores(patch, art.mask & ~hot))
        i0, k0 = np.unravel_index(int(np.argmax(looks)), looks.shape)
        presence = float(looks[i0, k0])
        entry["art"] = presence
        if presence < 0.4:  # nothing here looks like any card: no marker to look for either
            entry["paper"] = self._paper_share(patch, hot, inside)
            # ... or a lamp's reflection hides it whole, or most of it and the cards' paper
            # the rest (as a card under glare, below, whose face shows less)
            if not alone and not again and (
                    washed >= WASHED_OUT or washed >= GLARE_SHARE and presence >= 0.3
                    and self._paper_share(patch, hot, inside) >= PAPER_FULL):
                entry["how"] = "unread"
                out.unread.append(cell)
                return None
            entry["how"] = "empty"
            return None
        ids = self.book.ids
        marks, fines = self._marks(gray, cam, cell, washed, presence >= GUIDED)
        n, rot = np.unravel_index(int(np.argmax(marks)), marks.shape)
        best = float(marks[n, rot])
        rest = marks.copy()
        rest[n, rot] = -1.0
        margin = best - float(rest.max())
        entry.update(guided_id=ids[int(n)], guided_rot=int(rot), guided=best,
                     guided_margin=margin)
        gain = art.gain(patch, int(i0), int(k0))
        if washed >= GLARE_SHARE and not alone:  # the light and shade where it is not washed
            gain = max(gain, art.gain(patch, int(i0), int(k0), art.mask & ~hot))
        gain = gain / self._gain if self._gain > 0 else 0.0
        entry["gain"] = gain
        if ids[int(n)] in self.sectors and best >= STRONG[0] and margin >= STRONG[1]:
            # certain where the camera puts it, if the card's art is there too
            name = self.sectors[ids[int(n)]].name
            j = art.names.index(name)
            agree = float(looks[j, int(rot)])
            entry["guided_art"] = agree
            # under glare the face cannot say much: it must only not be another card's
            washed_out = washed >= GLARE_WASHED
            if (gain >= GAIN_CARD and agree >= ART_VERIFY and agree >= presence - 0.1) or (
                    washed_out and agree >= ART_VERIFY_GLARE and agree >= presence - 0.2):
                entry.update(how="marker at its place", card=name, rot=int(rot))
                return Placed(cell, name, int(rot), "marker at its place", fines[int(rot)],
                              best, glare=washed)
        # the cards the art allows (near its best), and the marker decides between them:
        # it must read well for one of them and clearly better than for the others (a
        # covered marker reads as noise, about as well for any code)
        rows = [ids.index(self.card_marker[name].id) for name in art.names]
        marker_of = marks[rows, :]  # cards x 6: each card's own code where it would be
        allowed = looks >= presence - ART_ALLOWS
        mark = np.where(allowed, marker_of, -9.0)
        i, k = np.unravel_index(int(np.argmax(mark)), mark.shape)
        rest = mark.copy()
        rest[i, k] = -9.0
        m_margin = float(mark[i, k]) - float(rest.max()) if allowed.sum() > 1 else 1.0
        entry.update(art_card=art.names[int(i)], art_rot=int(k), art_score=float(looks[i, k]),
                     art_marker=float(marker_of[i, k]), marker_margin=m_margin,
                     allowed=int(allowed.sum()))
        # under glare the print shows less light and shade than the cards read elsewhere
        enough_gain = GAIN_GLARE if washed >= GLARE_SHARE else GAIN_CARD
        if gain >= enough_gain and looks[i, k] >= ART_CARD and marker_of[i, k] >= MARKER_MIN \
                and m_margin >= MARKER_MARGIN:
            entry.update(how="art and marker", card=art.names[int(i)], rot=int(k))
            return Placed(cell, art.names[int(i)], int(k), "art and marker", fines[int(k)],
                          float(marker_of[i, k]), glare=washed)
        if washed >= GLARE_SHARE and not alone:
            clipped = art.clipped(patch)
            entry["clipped"] = float(clipped.sum()) / float(art.mask.sum())
            flat = art.flat_scores(patch, art.mask & ~clipped)
            found = self._alone(gray, cam, cell, flat, entry["clipped"], gain, entry,
                                patch, art.mask & ~clipped)
            if found is not None:
                return found
        # a card seen but not read: it looks like one as a whole, or (partly covered) in
        # at least half of its wedges, and shows a card's light and shade
        wedges = art.wedges(patch, int(i0), int(k0))
        entry["wedges"] = wedges.tolist()
        seen = presence >= UNREAD_ART or (int((wedges >= WEDGE).sum()) >= 3 and not alone)
        seen = seen and gain >= GAIN_CARD
        # or: its paper fills the cell, under a lamp's reflection where it is washed out
        # (the art cannot say much there), or a card's marker reads where one must be with
        # the light and shade of a card (as much as the glare leaves where there is glare)
        # and its face not contradicting it (a square of clutter can read as a code)
        paper = self._paper_share(patch, hot, inside)
        entry["paper"] = paper
        marker_there = (best >= MARKER_SEEN and margin >= STRONG[1] and gain >= enough_gain
                        and ids[int(n)] in self.sectors and float(looks[
                            art.names.index(self.sectors[ids[int(n)]].name), int(rot)])
                        >= MARKER_FACE)
        # or: its paper fills the cell and it looks like a card, with a card's light and
        # shade (a card too coarse or blurred for its marker, or curled: its face warped)
        paper_card = presence >= PAPER_ART and paper >= PAPER_CARD and gain >= GAIN_CARD
        paper_there = paper_card or washed >= GLARE_SHARE and (
            (presence >= 0.45 and paper >= PAPER_CARD) or (presence >= 0.3 and paper >= PAPER_FULL))
        if not alone and not again and not seen and (
                (presence >= 0.45 and marker_there) or paper_there):
            seen = True
        if seen:
            entry["how"] = "unread"
            entry["face"] = (int(i0), int(k0))
            out.unread.append(cell)
        else:
            entry["how"] = "empty"
        return None

    def _marks(self, gray: np.ndarray, cam: TableCamera, cell: Hex, washed: float,
               look: bool) -> tuple[np.ndarray, list[np.ndarray | None]]:
        """Every code's score for the marker of a card on ``cell`` in each of its six
        rotations, where the camera puts it (codes x 6; -1 where it would be under 5 px a
        side or outside the photo, or everywhere when not ``look``), and the marker's
        image per rotation. Under a lamp's reflection (``washed``) the reflection's slope
        across the marker is taken out too."""
        marks = np.full((len(self.book.ids), 6), -1.0, np.float32)
        fines: list[np.ndarray | None] = [None] * 6
        for rot in range(6 if look else 0):
            corners = cam.project(self.marker_corners(None, cell, rot))
            if float(np.linalg.norm(corners[1] - corners[0])) < 5.0 or \
                    not self._inside(gray, corners):
                continue
            fine, scores = read_at(gray, corners, self.book, turn=0)
            marks[:, rot] = scores[:, 0]
            if washed >= GLARE_SHARE:
                marks[:, rot] = np.maximum(marks[:, rot], self._flat_marker(gray, corners))
            fines[rot] = fine
        return marks, fines

    def _flat_marker(self, gray: np.ndarray, corners: np.ndarray) -> np.ndarray:
        """Every code's score (ids) of the marker at ``corners`` (its own order) once the
        light's slope across it is taken out and its clipped pixels left aside
        (:func:`photo.detect.flatten`)."""
        from photo.detect import flatten, sample

        patch = sample(gray, corners)
        keep = cv2.erode((patch < 246).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        return self.book.masked_scores(flatten(patch), keep)[:, 0]

    def _alone(self, gray: np.ndarray, cam: TableCamera, cell: Hex, looks: np.ndarray,
               washed: float, gain: float, entry: dict[str, Any], patch: np.ndarray,
               keep: np.ndarray) -> Placed | None:
        """A card under glare read from its printed face: where its face (compared only
        where the lamp's reflection is not, ``keep``) matches one card in one rotation, far
        better than any other or, of the faces nearly as good, better where the two differ
        (:meth:`_duels`), over enough of the hex, and its marker's unwashed part reads as
        that card's code and no other's (or is washed out whole)."""
        from photo.detect import sample

        art = self.art
        i, k = np.unravel_index(int(np.argmax(looks)), looks.shape)
        score = float(looks[i, k])
        rest = looks.copy()
        rest[i, k] = -9.0
        margin = score - float(rest.max())
        name = art.names[int(i)]
        corners = cam.project(self.marker_corners(name, cell, int(k)))
        square = sample(gray, corners)
        hot = cv2.dilate((square >= 246).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        codes = self._flat_marker(gray, corners)
        own = codes[self.book.ids.index(self.card_marker[name].id)]
        others = float(np.delete(codes, self.book.ids.index(self.card_marker[name].id)).max())
        marker_seen = 1.0 - float(hot.mean())
        entry.update(alone_card=name, alone_rot=int(k), alone_art=score, alone_margin=margin,
                     alone_marker=float(own), alone_other=others, marker_seen=marker_seen)
        marker_ok = marker_seen < 0.25 or own >= others + ALONE_MARKER
        if score >= ALONE_ART and 1.0 - washed >= ALONE_SEEN and gain >= GAIN_CARD \
                and marker_ok and (margin >= ALONE_MARGIN
                                   or self._duels(patch, keep, looks, (int(i), int(k)), entry)):
            entry.update(how="art under glare", card=name, rot=int(k))
            return Placed(cell, name, int(k), "art under glare", None, score, glare=washed)
        return None

    def _duels(self, patch: np.ndarray, keep: np.ndarray, looks: np.ndarray,
               best: tuple[int, int], entry: dict[str, Any]) -> bool:
        """Whether the face ``best`` (card, rotation) beats every other face within
        ``ALONE_MARGIN`` of it where the two differ: the photo shows at least ``DUEL_PX``
        of those pixels (not washed out) and is much nearer ``best`` there. Faces sharing
        most of their routes match a half-washed card about as well as a whole; where they
        differ (a route one has and the other not) the photo says which it is, if it shows
        that part."""
        art = self.art
        score = float(looks[best])
        rivals = [(int(j), int(r)) for j, r in zip(*np.nonzero(looks >= score - ALONE_MARGIN),
                                                   strict=True) if (int(j), int(r)) != best]
        if len(rivals) > DUEL_RIVALS:
            entry["duel"] = f"{len(rivals)} rivals"
            return False
        worst = 0.0
        for rival in rivals:
            n, own, other = art.duel(patch, keep, best, rival)
            if n < DUEL_PX or own > DUEL_RATIO * other:
                entry["duel"] = (f"lost to {art.names[rival[0]]} turned {rival[1]}: {n} px, "
                                 f"{own:.2f} against {other:.2f}")
                return False
            worst = max(worst, own / max(other, 1e-6))
        entry["duel"] = f"won against {len(rivals)} (worst ratio {worst:.2f})"
        return True

    def _typical_gain(self, bgr: np.ndarray, cam: TableCamera, out: TableReading) -> float:
        """How strongly cards read here show their art (light and shade), for telling a
        card from a faint texture of the table: the median over a few cards read."""
        art = self.art
        gains = []
        for p in list(out.placed.values())[:8]:
            patch = self._patch(bgr, cam, p.cell)
            gains.append(art.gain(patch, art.names.index(p.card), p.rot))
        return float(np.median(gains)) if gains else 0.0

    def _paper_level(self, bgr: np.ndarray, cam: TableCamera, out: TableReading) -> float:
        """How bright the cards' paper is in this photo (0-255), card by card: the 75th
        percentile of each card read (kept for :meth:`_paper_at`); the upper quartile of
        them is returned."""
        art = self.art
        self._papers = []
        colours = []
        for p in out.placed.values():
            if p.how != "marker":
                continue
            patch = self._patch(bgr, cam, p.cell)
            gray = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)[art.mask]
            self._papers.append((hexgeo.centre(p.cell, self.flats),
                                 float(np.percentile(gray, 75))))
            face = art.face(art.names.index(p.card), p.rot)
            paper = art.mask & (lowest(face) >= 225)  # where the card is bare paper
            if paper.sum() > 100:
                colours.append(np.median(patch[paper].astype(np.float32), axis=0))
        self._paper_bgr = np.median(np.stack(colours), axis=0) if colours else None
        levels = [level for _, level in self._papers]
        return float(np.percentile(levels, 75)) if levels else 230.0

    def _paper_share(self, patch: np.ndarray, hot: np.ndarray, inside: np.ndarray) -> float:
        """The share of a cell's hex that is the cards' paper (its colour as the cards read
        show it, lighter or darker) or washed out by glare (of the part ``inside`` the
        photo: beyond its edge nothing is seen)."""
        art = self.art
        if self._paper_bgr is None:
            return 0.0
        p = patch.astype(np.float32)
        total = p[..., 0] + p[..., 1] + p[..., 2] + 1.0  # as p.sum(axis=2), faster
        ref = self._paper_bgr
        ref_total = float(ref.sum())
        chroma = (np.abs(p[..., 0] / total - ref[0] / ref_total)
                  + np.abs(p[..., 2] / total - ref[2] / ref_total))
        light = total >= 0.55 * ref_total
        like = (((chroma <= 0.04) & light) | hot) & inside
        return float(like[art.mask].mean())

    def _paper_at(self, cell: Hex) -> float:
        """The paper's brightness near ``cell``: the light is not the same all over the
        table (a lamp brightens one side): the brightest of the three cards read nearest."""
        if not self._papers:
            return self._paper
        c = hexgeo.centre(cell, self.flats)
        near = sorted(self._papers, key=lambda cl: math.dist(cl[0], c))[:3]
        return max(level for _, level in near)

    def _verify_art(self, bgr: np.ndarray, gray: np.ndarray, cam: TableCamera,
                    out: TableReading, used: set[int]) -> None:
        """Every card placed by its marker alone must show its printed face there too: a
        square of a cluttered background next to the table can read as a card's code with
        certainty (one in 9,478 cards of the benchmark did, a card read twice). A card
        whose face is not there is taken off and its cell looked at as any free cell (a
        partly covered card is then read from art and marker, or reported unread)."""
        for cell, p in sorted(out.placed.items()):
            if p.how != "marker":
                continue
            if self._shows(bgr, cam, hexgeo.centre(cell, self.flats), p.card, p.rot):
                continue
            del out.placed[cell]
            used.discard(p.source)
            found = self._decide(bgr, gray, cam, cell, out)
            if found is not None:
                out.placed[cell] = found

    def _looks_like(self, bgr: np.ndarray | None, cam: TableCamera, p: _Pose) -> bool:
        """Whether the photo shows the card of ``p`` where its marker puts it (its art, not
        a square of the background that happens to read as its code)."""
        if self.art is None or bgr is None:
            return True
        return self._shows(bgr, cam, p.centre, self.sectors[p.reading.id].name, p.rot)

    def _shows(self, bgr: np.ndarray, cam: TableCamera, centre: tuple[float, float],
               card: str, rot: int, enough: float = ART_VERIFY) -> bool:
        """Whether the photo shows ``card`` turned ``rot`` at ``centre`` (table mm), where
        it is not under glare (its face matching at least ``enough``)."""
        art = self.art
        view, looks = self._looks(bgr, cam, centre)
        patch = view.patch
        index = art.names.index(card)
        if float(looks[index, rot]) >= enough:
            return enough == ART_VERIFY or float(looks[index, rot]) >= float(looks.max()) - 0.02
        hot = art.bright(patch, self._paper_at(hexgeo.pixel_to_hex(centre, self.flats)),
                         self._in_frame(bgr, cam, centre))
        if hot.sum() < GLARE_SHARE * art.mask.sum():
            return False
        return float(art.masked_scores(patch, art.mask & ~hot)[index, rot]) >= enough

    def _leftovers(self, cands: list[Reading], used: set[int], cam: TableCamera,
                   out: TableReading, bgr: np.ndarray | None = None) -> None:
        """Certain markers that were not placed: a card on a cell already read, between
        cells, between rotations, on the station, or lying apart from the table. Each must
        show its card's art where it lies (a square of a cluttered background can read as
        a code); a card already placed elsewhere is that card read twice."""
        placed_cards = {p.card for p in out.placed.values()}
        free = [r for r in cands if id(r) not in used and r.score >= STRONG[0]
                and r.margin >= STRONG[1]]
        for r, p in zip(free, self.poses(free, cam), strict=True):
            if p is None or not p.strong or p.off > 0.45 * self.flats:
                continue  # not a card's marker for certain, or far off any cell
            name = self.sectors[r.id].name
            there = out.placed.get(p.cell)
            if name in placed_cards and self._copies(name) <= 1:
                continue  # the card is read on its cell; one copy cannot lie twice
            if there is None and not self._looks_like(bgr, cam, p):
                continue  # no card there: a square that reads as a code
            if p.cell in out.unread:
                out.unread.remove(p.cell)  # said more precisely below
            if p.cell == (0, 0):
                out.findings.append(Finding("photo-on-station", p.cell, f"card {name} lies "
                                            f"on the station; a card cannot lie there"))
            elif p.off > NEAR * self.flats:
                out.findings.append(Finding(
                    "photo-between-cells", p.cell,
                    f"card {name} lies between cells, {p.off:.0f} mm from the centre of "
                    f"{where(p.cell)}, the nearest; push it onto its cell and photograph "
                    f"again, or write it into the layout by hand"))
            elif abs(p.turn_off) > TURN_TOLERANCE:
                out.findings.append(Finding(
                    "photo-between-rotations", p.cell,
                    f"card {name} on {where(p.cell)} is turned {abs(p.turn_off):.0f} degrees "
                    f"off its nearest rotation; straighten it and photograph again"))
            elif there is not None:
                out.findings.append(Finding(
                    "photo-cell-twice", p.cell,
                    f"two cards' markers on {where(p.cell)}: {there.card} and {name}; only "
                    f"one card can lie on a cell (is one lying on top of the other?)"))
            elif p.exact:  # a card apart from the table (the rules allow it: it is neutral)
                out.placed[p.cell] = Placed(p.cell, name, p.rot, "marker", r.corners,
                                            r.score, id(r))
                used.add(id(r))
            elif self.art is not None and bgr is not None and self._shows(
                    bgr, cam, hexgeo.centre(p.cell, self.flats), name, p.rot, CURLED_ART):
                # off its cell by a few millimetres, yet its face lies on the cell: a card
                # curled or bent up off the table (its marker seen higher than the table)
                seen = cam.unproject(r.corners)
                residual = _rigid_residual(seen, self.marker_corners(name, p.cell, p.rot))
                out.placed[p.cell] = Placed(p.cell, name, p.rot, "marker", r.corners, r.score,
                                            id(r), max(residual, LIFTED_MM + 0.01),
                                            lifted=True)
                used.add(id(r))
            else:  # near a free cell but not flat on it (on top of a neighbour?): not placed
                out.findings.append(Finding(
                    "photo-between-cells", p.cell,
                    f"card {name} lies {p.off:.0f} mm off the centre of {where(p.cell)} "
                    f"(cards lying flat on their cells are within {EXACT_MM:.0f} mm), so it "
                    f"was not placed; push it onto its cell and photograph again, or write "
                    f"it into the layout by hand"))

    def _marked(self, cands: list[Reading], used: set[int], cam: TableCamera,
                out: TableReading, bgr: np.ndarray | None) -> None:
        """Cells neither read nor reported where a marker not read with certainty (score
        MARKED[0], margin MARKED[1]) puts its card exactly, and the card's face shows there:
        a card lies on the cell, so it is reported unread rather than left out. This finds
        cards that no neighbour leads to (beyond a cup whose cells were not seen as
        covered: the second photo of rendered table 17, S17 and S18 beyond it, 0.85 / 0.07
        and 0.74 / 0.14) without reading them on a code that is not certain. A card lifted or
        curled off the table shows its marker higher, off its cell's centre by more than a
        flat card's (``EXACT_MM``): within ``NEAR`` of the cell and ``TURN_TOLERANCE`` of a
        rotation, its face shown where the marker puts it, it is reported too (second shots
        of rendered tables 25 and 13: S35 lifted 7 mm, 0.79 / 0.12, 8.1 mm off; S54 curled,
        0.75 / 0.13, 6.1 mm off)."""
        named = set(out.placed) | set(out.unread) | {(0, 0)} | {
            f.cell for f in out.findings if f.cell is not None}
        loose = [r for r in cands if id(r) not in used and r.score >= MARKED[0]
                 and r.margin >= MARKED[1]]
        for r, p in zip(loose, self.poses(loose, cam), strict=True):
            if p is None or p.cell in named:
                continue
            if not p.exact and (p.off > NEAR * self.flats or abs(p.turn_off) > TURN_TOLERANCE):
                continue  # far off any one cell and rotation: not said to lie on this one
            if not self._looks_like(bgr, cam, p):
                continue  # a square of the background that reads as a code
            out.unread.append(p.cell)
            named.add(p.cell)
            out.log.append({"cell": p.cell, "how": "unread", "marker": round(r.score, 2),
                            "why": "a marker not read with certainty, the card's face there"
                            + ("" if p.exact else f" ({p.off:.0f} mm off: lifted or curled)")})

    def _explain(self, bgr: np.ndarray, cam: TableCamera, out: TableReading) -> np.ndarray:
        """Every card read or seen, compared with its face pixel by pixel: the glare on it
        (kept for the debug image), and whatever lies over its edges: the cell beyond such
        an edge, if no card was read there, may hold a card nobody can see, and is
        reported (``photo-covered``). Returns the photo's colours (B, G, R rows) where
        something lies over a card's edge: the occluder itself, its colour learned where it
        was found (:meth:`_follow` follows it over the table by likeness to it)."""
        art = self.art
        faces: dict[Hex, tuple[int, int]] = {
            c: (art.names.index(p.card), p.rot) for c, p in out.placed.items()}
        for e in out.log:
            if e.get("how") == "unread" and "face" in e:
                faces[e["cell"]] = e["face"]
        blocked = set(out.placed) | set(out.unread) | {(0, 0)} | {
            f.cell for f in out.findings if f.cell is not None}
        edges: list[np.ndarray] = []
        for cell, (index, rot) in sorted(faces.items()):
            centre = hexgeo.centre(cell, self.flats)
            patch = self._patch(bgr, cam, cell)
            paper = self._paper_at(cell)
            hot = art.bright(patch, paper, self._in_frame(bgr, cam, centre))
            glare, other, _ = art.explain(patch, index, rot, hot, paper)
            share = float(glare.sum()) / float(art.mask.sum())
            if cell in out.placed:
                out.placed[cell].glare = share
            if share >= GLARE_SHARE:
                out.glare[cell] = self._outline(glare, cam, centre)
            for side, band in enumerate(art.sides()):
                if float((other & band).sum()) < COVERED_SIDE * float(band.sum()):
                    continue
                edges.append(patch[(other & band).astype(bool)].reshape(-1, 3))
                beyond = hexgeo.neighbour(cell, side)
                if beyond not in blocked and beyond not in out.covered:
                    out.covered[beyond] = cell
        for beyond, over in sorted(out.covered.items()):
            out.findings.append(covered_finding(
                beyond, f"something lies over the table at {where(beyond)} (it covers the "
                f"edge of the card on {where(over)})"))
        return np.concatenate(edges) if edges else np.zeros((0, 3), np.uint8)

    def _occluded(self, bgr: np.ndarray, cam: TableCamera, out: TableReading,
                  over: np.ndarray) -> None:
        """Every free cell next to one found covered (:meth:`_explain`) that showed no card:
        if much of it is a colour neither of the table (as most of the free cells show it)
        nor of any card read, the hand, cup or shadow over its neighbour lies over it too,
        and a card may lie under it (``photo-covered``). Then the occluder is followed
        over the table (:meth:`_follow`). Things beside the table that lie over no card are
        left alone. ``over``: the colours found over the cards' edges (:meth:`_explain`)."""
        if not out.covered:  # nothing over a card's edge: only a thing unlike the table
            self._follow(bgr, cam, out, over)  # in a way no reflection is, next to the cards
            return
        art = self.art
        empty = [e["cell"] for e in out.log if e.get("how") == "empty"]
        hists: dict[Hex, np.ndarray] = {}
        for cell in empty:
            inside = self._in_photo(cam, cell, bgr.shape) & art.mask
            if inside.sum() >= 0.5 * art.mask.sum():
                hists[cell] = _colours(self._patch(bgr, cam, cell)[inside])
        if len(empty) >= 4 and hists:
            cards = np.zeros(1025)
            for cell in out.placed:
                cards += _colours(self._patch(bgr, cam, cell)[art.mask])
            cards = _smooth(cards / max(len(out.placed), 1))
            # the table as most free cells show it (a hand covers a few cells, not most)
            table = _smooth(np.median(np.stack(list(hists.values())), axis=0))
            todo = sorted({n for c in out.covered for _, n in hexgeo.neighbours(c)}
                          & set(hists))
            named = {f.cell for f in out.findings if f.cell is not None}
            done: set[Hex] = set()
            while todo:
                cell = todo.pop(0)
                if cell in done or cell in named or cell in out.placed or cell in out.unread:
                    continue
                done.add(cell)
                strange = float(hists[cell][(table + cards) < STRANGE_COLOUR].sum())
                if strange < OCCLUDED:
                    continue
                cover(
                    out, cell, f"something lies over the table at {where(cell)} ({strange:.0%} "
                    f"of that cell is neither the table nor a card)")
        self._follow(bgr, cam, out, over)

    def _follow(self, bgr: np.ndarray, cam: TableCamera, out: TableReading,
                over: np.ndarray) -> None:
        """The occluder followed over the table, cell by cell from the cells found covered:
        the table's own appearance is learned from the photo's free table (:mod:`photo.table`:
        its colour, and for a patterned cloth its pattern, so a hand the colour of a checked
        cloth's cream squares is found where the cloth would be blue), and every free cell
        next to one covered, ``TABLE_UNLIKE`` or more of it unlike the table there (or,
        where the table has a grain or weave, ``TABLE_SMOOTH`` of it smooth: a hand the
        wood's colour), is covered too (``photo-covered``): a card under it, or partly
        under it and not read, could not be seen. What is unlike the table includes what
        is like the occluder's own colour, learned from ``over`` (the photo's colours
        where it lies over the cards' edges, :meth:`_explain`; :func:`photo.table.occluder`):
        a pale hand on a plain grey table is nearer its own colour than the table's though
        within the tolerance every table gets. A free cell the occluder's region encloses
        is covered too (:meth:`_enclosed`). It is followed on only where what is
        unlike the table shares its colours with the cell it was reached from (one hand, one
        cup: a pattern of the table, a mat or a box beside the cards, is another thing); a
        cell whose colours are the cards' instead is a card beside or partly under it,
        named but not followed from. Only cells within the table's reach are named: no
        further from the station than one cell beyond the farthest card read or seen (a
        hand's arm reaches on to the photo's edge)."""
        from photo import table

        cards = set(out.placed) | set(out.unread)
        if not cards:
            return
        reach = max(hexgeo.distance(c, (0, 0)) for c in cards) + 1
        cells = [(q, r) for q in range(-reach, reach + 1) for r in range(-reach, reach + 1)
                 if hexgeo.distance((q, r), (0, 0)) <= reach]
        centres = np.array([hexgeo.centre(c, self.flats) for c in cells])
        low, high = centres.min(axis=0) - self.flats, centres.max(axis=0) + self.flats
        look = table.view(bgr, cam, (float(low[0]), float(low[1])),
                          (float(high[0]), float(high[1])))
        named = {f.cell for f in out.findings if f.cell is not None}
        taken = cards | named | {(0, 0)}
        mask = np.zeros(look.seen.shape, np.uint8)
        for cell in taken:  # the cards (a little beyond their cells: they overhang) and
            # whatever was found over the table are not the free table
            outline = hexgeo.corners(hexgeo.centre(cell, self.flats), self.flats * 1.15)
            cv2.fillPoly(mask, [np.round(np.array([look.pixel(p) for p in outline])
                                         ).astype(np.int32)], 1)
        table.learn(look, look.seen & (mask == 0))
        self._look = look
        # the occluder's own colour, learned where it lies over the cards' edges: over the
        # free table, what is nearer that colour than the table's is the occluder too (a
        # hand's pale skin on a plain grey table, 4 % of a cell unlike the table by a
        # threshold made for every table, yet 13 of the grey's tight spreads from it)
        model = table.occluder(look, over)
        if model is not None:
            look.unlike = look.unlike | table.like_occluder(look, *model)
        within = set(cells)
        # a free cell next to a card, mostly unlike the table in a way a lamp's reflection
        # or white paper is not (a cup or hand whose colour is near the table's, over no
        # card's edge the faces showed): something lies over it, unless such things lie
        # elsewhere on the free table apart from it (shapes printed on the table: one thing
        # over the table is believed, not one of many)
        strange_at: dict[Hex, float] = {}
        smooth_at: dict[Hex, float] = {}
        for cell in cells:
            if cell not in taken:
                outline = np.array(hexgeo.corners(hexgeo.centre(cell, self.flats), self.flats))
                if look.share_unlike(outline)[1] >= FRAME_SEEN:
                    strange_at[cell] = look.share_strange_or_dim(outline)
                    smooth_at[cell] = look.share_smooth(outline)
        # a thing unlike the table in colour, or (where the table has a grain or weave) in
        # its smoothness: each believed only if no such thing lies apart from it
        for at, whole, share, what in (
                (strange_at, STRANGE_CELL, STRANGE_PART,
                 "neither the table, nor a lamp's reflection on it, nor a card"),
                (smooth_at, SMOOTH_CELL, SMOOTH_PART,
                 "smooth where the table shows its grain or weave")):
            part = {c for c, v in at.items() if v >= share}
            for cell in sorted(free_next(out)):
                if cell in taken or at.get(cell, 0.0) < whole:
                    continue
                found = at[cell]
                joined, edge = {cell}, [cell]
                while edge:  # the cells the thing over this one spreads over
                    here = edge.pop()
                    for _, n in hexgeo.neighbours(here):
                        if n in part and n not in joined:
                            joined.add(n)
                            edge.append(n)
                if part - joined:
                    continue  # such things lie apart from it too: a table printed or cluttered
                taken.add(cell)
                cover(
                    out, cell, f"something lies over the table at {where(cell)} ({found:.0%} of "
                    f"that cell is {what})")
        start = {n: c for c in sorted(out.covered) for _, n in hexgeo.neighbours(c)}
        came = {n: c for n, c in sorted(start.items(), reverse=True) if n in within}
        todo = sorted(came)
        done: set[Hex] = set()
        colours_of: dict[Hex, np.ndarray | None] = {}
        seen_cards = [look.colours_unlike(np.array(hexgeo.corners(
            hexgeo.centre(c, self.flats), self.flats)), whole=True) for c in sorted(out.placed)]
        shown = [c for c in seen_cards if c is not None]
        cards = np.mean(shown, axis=0) if shown else None  # the cards' colours as read here
        while todo:
            cell = todo.pop(0)
            if cell in done or cell in taken:
                continue
            done.add(cell)
            outline = np.array(hexgeo.corners(hexgeo.centre(cell, self.flats), self.flats))
            unlike, seen = look.share_unlike(outline)
            smooth = look.share_smooth(outline) if unlike < TABLE_UNLIKE else 0.0
            if seen < FRAME_SEEN or unlike < TABLE_UNLIKE and smooth < TABLE_SMOOTH:
                continue
            why = (f"{unlike:.0%} of it unlike the table there" if unlike >= TABLE_UNLIKE
                   else f"{smooth:.0%} of it smooth where the table shows its grain")
            colours = look.colours_unlike(outline)
            origin = came[cell]
            if origin not in colours_of:
                colours_of[origin] = look.colours_unlike(np.array(hexgeo.corners(
                    hexgeo.centre(origin, self.flats), self.flats)))
            follow = table.same_thing(colours, colours_of[origin])
            if not follow and not (colours is not None and table.same_thing(colours, cards)):
                continue  # another thing than the one followed (a pattern of the table)
            # the thing followed lies over it, or a card unread beside it or under it
            # (named, but what lies beyond a card is not followed from it)
            colours_of[cell] = colours
            taken.add(cell)
            cover(
                out, cell, f"{where(cell)} is not the bare table ({why}) and no card was read on "
                f"it: whatever lies over {where(came[cell])} reaches it")
            for _, n in hexgeo.neighbours(cell) if follow else ():
                if n in within and n not in came:
                    came[n] = cell
                    todo.append(n)
            todo.sort()
        self._enclosed(look, out, [c for c in cells if c not in taken],
                       set(out.placed) | set(out.unread))

    def _enclosed(self, look: TableLook, out: TableReading, free: list[Hex],
                  cards: set[Hex]) -> None:
        """The free cells the occluder found encloses: what lies wholly inside a cup's rim or
        a hand's outline (the coffee in a cup, a palm's shading) may show the table's own
        colour, yet is the occluder. Its region is what is unlike the table off the cards,
        joined to the cells named covered; a free cell ``TABLE_UNLIKE`` or more of whose
        pixels that region encloses (they cannot be reached from the photo's edge without
        crossing it) is covered too (``photo-covered``), named on its own cell rather than
        through the covered cells round it."""
        from photo import table

        covered = [c for c in sorted(out.covered) if c not in cards]
        if not covered or not free:
            return
        hexes = {c: np.array(hexgeo.corners(hexgeo.centre(c, self.flats), self.flats))
                 for c in [*covered, *free, *cards, (0, 0)]}
        off_cards = np.ones(look.seen.shape, np.uint8)
        on_covered = np.zeros(look.seen.shape, np.uint8)
        for c, outline in hexes.items():
            pts = np.round(np.array([look.pixel(p) for p in (
                outline if c in covered or c in free else hexgeo.corners(
                    hexgeo.centre(c, self.flats), self.flats * 1.15))])).astype(np.int32)
            if c in covered:
                cv2.fillPoly(on_covered, [pts], 1)
            elif c not in free:
                cv2.fillPoly(off_cards, [pts], 0)
        cell_px = math.sqrt(3.0) / 2.0 * (self.flats / table.STEP) ** 2  # a hex, view px
        inside = table.enclosed(look.unlike & (off_cards > 0), on_covered > 0,
                                ENCLOSED_CELLS * cell_px)
        for cell in free:
            share = look.share_of(inside, hexes[cell])
            if share < TABLE_UNLIKE:
                continue
            cover(
                out, cell, f"{where(cell)} lies inside what covers the cells round it ({share:.0%} "
                f"of it enclosed by it) and no card was read on it")

    def _in_photo(self, cam: TableCamera, cell: Hex, shape: tuple[int, ...]) -> np.ndarray:
        """Which pixels of a cell's patch (as :meth:`photo.art.HexArt.patch` makes it) lie
        inside the photo."""
        from photo.art import LEVEL

        n = self.art.size
        c = (n - 1) / 2.0
        centre = hexgeo.centre(cell, self.flats)
        yy, xx = np.mgrid[0:n, 0:n].astype(np.float64)
        table = np.column_stack([(xx.ravel() - c) / LEVEL + centre[0],
                                 (yy.ravel() - c) / LEVEL + centre[1]])
        px = cam.project(table)
        hgt, wid = shape[:2]
        ok = (px[:, 0] >= 0) & (px[:, 0] <= wid - 1) & (px[:, 1] >= 0) & (px[:, 1] <= hgt - 1)
        return ok.reshape(n, n)

    def _patch(self, bgr: np.ndarray, cam: TableCamera, cell: Hex) -> np.ndarray:
        return self._view(bgr, cam, hexgeo.centre(cell, self.flats)).patch

    def _outline(self, mask: np.ndarray, cam: TableCamera,
                 centre: tuple[float, float]) -> np.ndarray:
        """A patch mask's largest region as a polygon in the photo (working px)."""
        from photo.art import LEVEL

        contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL,
                                       cv2.CHAIN_APPROX_SIMPLE)
        if not contours:
            return np.zeros((0, 2))
        big = max(contours, key=cv2.contourArea).reshape(-1, 2).astype(np.float64)
        c = (self.art.size - 1) / 2.0
        table = (big - c) / LEVEL + np.array(centre)
        return cam.project(table)

    def _frame(self, cam: TableCamera, shape: tuple[int, ...], out: TableReading) -> None:
        """The photo's edge over the table: a free cell next to a card read or seen that
        lies mostly outside the photo may hold a card beyond it (``photo-out-of-frame``);
        so may a cell looked at and found empty that the edge cuts (less than
        ``FRAME_CUT`` of it in the photo) if the part shown looks like a card's face and
        paper (``CUT_ART``, ``CUT_PAPER``), or much like a card's face with its light and
        shade (``CUT_FACE``, ``GAIN_CARD``): a card cut by the edge shows too little of
        itself to be seen as one."""
        beyond = {n: cell for n, cell in free_next(out).items()
                  if self._frame_share(cam, n, shape) < FRAME_SEEN}
        named = {f.cell for f in out.findings if f.cell is not None}
        cut: dict[Hex, float] = {}
        for e in out.log:
            cell = e["cell"]
            if e.get("how") != "empty" or cell in beyond or cell in named \
                    or cell in out.placed or cell in out.unread:
                continue
            art, paper = e.get("art", 0.0), e.get("paper", 0.0)
            if art < CUT_ART or paper < CUT_PAPER and (art < CUT_FACE
                                                       or e.get("gain", 0.0) < GAIN_CARD):
                continue
            share = self._frame_share(cam, cell, shape)
            if share < FRAME_CUT:
                cut[cell] = share
        for n, cell in sorted(beyond.items()):
            out.findings.append(Finding(
                "photo-out-of-frame", n,
                f"the photo ends at {where(n)}, next to {where(cell)}: a card there would lie "
                f"outside it; photograph the whole table, or write that cell into the "
                f"layout by hand"))
        for n, share in sorted(cut.items()):
            out.findings.append(Finding(
                "photo-out-of-frame", n,
                f"the photo ends across {where(n)} ({share:.0%} of it in the photo, and that "
                f"part looks like a card): a card there would lie partly outside it and "
                f"cannot be read; photograph the whole table, or write that cell into the "
                f"layout by hand"))

    def _raised(self, bgr: np.ndarray, cam: TableCamera, out: TableReading) -> None:
        """A card lifted off the table: a free cell next to a card read or seen that nothing
        else accounts for (found empty, named by no finding), whose face matches a card's
        somewhat (``RAISED_LOOK``), which is partly unlike the table as learned from the
        free table (``RAISED_UNLIKE``: something lies there) and partly the cards' paper
        (``RAISED_PAPER``: a card's face is mostly paper), is looked at again on the
        planes ``RAISED_MM`` above the table, where the fitted camera's pose puts each (a
        card lifted or curled up shows displaced toward the camera and larger: its
        parallax). Where a card's face matches on one of them as a card's face must for a
        card seen (``RAISED_ART``, with a card's light and shade), and by ``RAISED_BETTER``
        more than on the table's plane, the cell is reported unread: a card lies there,
        lifted (which card is not said: faces sharing most routes match a warped card about
        as well). A pattern printed on a flat table has no parallax: it does not match
        better raised. The second shot of rendered table 11: S60 on [-3, 3], lifted 7 mm on
        a grey table of the paper's colour, its face 0.37 on the table's plane, 0.90 on the
        plane 6 mm above it (S60 turned 1, as it lies)."""
        look = self._look
        if cam.up is None or look is None:
            return
        named = {f.cell for f in out.findings if f.cell is not None}
        last = {e["cell"]: e for e in out.log}
        todo: dict[Hex, tuple[float, float]] = {}
        for n in free_next(out):
            if n not in named and last.get(n, {}).get("how") == "empty" and \
                    last[n].get("art", 0.0) >= RAISED_LOOK:
                unlike, _ = look.share_unlike(np.array(hexgeo.corners(
                    hexgeo.centre(n, self.flats), self.flats)))
                if unlike >= RAISED_UNLIKE:
                    todo[n] = (unlike, 0.0)
        art = self.art
        for n in list(todo):
            centre = hexgeo.centre(n, self.flats)
            view = self._view(bgr, cam, centre)
            inside = self._in_frame(bgr, cam, centre)
            paper = self._paper_share(view.patch, art.bright(view.patch, self._paper_at(n),
                                                             inside), inside)
            if paper < RAISED_PAPER:
                del todo[n]
            else:
                todo[n] = (todo[n][0], paper)
        if not todo:
            return
        planes = [c for c in (cam.raised(mm) for mm in RAISED_MM) if c is not None]
        for cell, (unlike, paper) in todo.items():
            centre = hexgeo.centre(cell, self.flats)
            patches = []
            for raised in planes:
                h, scale = self._local(raised, centre)
                patches.append(art.patch(bgr, h, centre, scale))
            looks = art.scores_many(patches)  # planes x cards x 6
            z, i, k = np.unravel_index(int(np.argmax(looks)), looks.shape)
            score = float(looks[z, i, k])
            flat = float(last[cell]["art"])
            gain = art.gain(patches[int(z)], int(i), int(k))
            gain = gain / self._gain if self._gain > 0 else 0.0
            entry = {"cell": cell, "unlike": unlike, "paper": paper, "raised_mm": RAISED_MM[int(z)],
                     "raised_card": art.names[int(i)], "raised_rot": int(k),
                     "raised_art": score, "raised_gain": gain}
            if score < RAISED_ART or score < flat + RAISED_BETTER or gain < GAIN_CARD:
                entry["how"] = "empty"
                out.log.append(entry)
                continue
            entry.update(how="unread", why=f"its face shows {RAISED_MM[int(z)]:.0f} mm above "
                         f"the table: a card lifted off it")
            out.log.append(entry)
            out.unread.append(cell)

    def _coarse(self, cam: TableCamera, shape: tuple[int, ...], out: TableReading,
                bgr: np.ndarray | None = None) -> None:
        """The photo too coarse to check a cell: every free cell next to a card read or seen
        (or the station) that lies in the photo, where a card's marker would be less than
        ``COARSE_PX`` pixels a side, is named (``photo-too-coarse``): a card there could be
        neither read nor seen, and as the table is connected to the station, any card
        further out lies beyond such a cell. So is every cell looked at and found empty
        where the marker would be under ``COARSE_DOUBT`` pixels, if its hex is mostly the
        cards' paper (``PAPER_DOUBT``) with some of a card's light and shade
        (``GAIN_DOUBT``): at that size a card's face is too blurred to tell it from the
        paper of an empty stretch of table, so the cell is not called empty."""
        if self.template is None:
            return
        coarse: dict[Hex, float] = {}
        for n in free_next(out):
            if self._frame_share(cam, n, shape) < FRAME_SEEN:
                continue
            side = self.template.size * cam.scale_at(hexgeo.centre(n, self.flats))
            if side < COARSE_PX:
                coarse[n] = side
        doubt: dict[Hex, tuple[float, float]] = {}
        if self.art is not None and bgr is not None:
            named = {f.cell for f in out.findings if f.cell is not None}
            for e in out.log:
                cell = e["cell"]
                if e.get("how") != "empty" or cell in coarse or cell in named \
                        or cell in out.placed or cell in out.unread:
                    continue
                centre = hexgeo.centre(cell, self.flats)
                side = self.template.size * cam.scale_at(centre)
                if side >= COARSE_DOUBT:
                    continue
                view, looks = self._looks(bgr, cam, centre)
                inside = self._in_frame(bgr, cam, centre)
                hot = self.art.bright(view.patch, self._paper_at(cell), inside)
                paper = self._paper_share(view.patch, hot, inside)
                if paper < PAPER_DOUBT:
                    continue
                i, k = np.unravel_index(int(np.argmax(looks)), looks.shape)
                gain = self.art.gain(view.patch, int(i), int(k)) / self._gain \
                    if self._gain > 0 else 0.0
                if gain >= GAIN_DOUBT:
                    doubt[cell] = (side, paper)
        for n, side in sorted(coarse.items()):
            out.findings.append(Finding(
                "photo-too-coarse", n,
                f"the photo is too coarse at {where(n)} to tell whether a card lies there (a "
                f"card's marker would be {side:.1f} px a side; at least {COARSE_PX:.0f} are "
                f"needed); photograph the table closer or with more pixels, or write that "
                f"cell into the layout by hand"))
        for n, (side, paper) in sorted(doubt.items()):
            out.findings.append(Finding(
                "photo-too-coarse", n,
                f"the photo is too coarse at {where(n)} to tell whether a card lies there "
                f"({paper:.0%} of the cell is the cards' paper, but a card's marker would be "
                f"only {side:.1f} px a side, too blurred to read, and its face too blurred to "
                f"tell from the table); photograph the table closer or with more pixels, or "
                f"write that cell into the layout by hand"))

    def _copies(self, card: str) -> int:
        """How many copies of ``card`` the deck holds (1 without definitions)."""
        if self.defs is None:
            return 1
        found = self.defs.sectors.by_id().get(card)
        return found.count if found is not None else 1

    @staticmethod
    def _inside(gray: np.ndarray, corners: np.ndarray) -> bool:
        hgt, wid = gray.shape[:2]
        return bool(np.all(corners[:, 0] > 2) and np.all(corners[:, 0] < wid - 3)
                    and np.all(corners[:, 1] > 2) and np.all(corners[:, 1] < hgt - 3))


def draw(bgr: np.ndarray, reading: TableReading) -> np.ndarray:
    """The debug image of a reading (see :mod:`photo.debug`)."""
    from photo import debug

    img, k = debug.scaled(bgr)
    size = max(0.4, min(1.2, img.shape[1] / 2600.0))
    if reading.camera is None:
        debug.legend(img, [("station not found: nothing could be placed", debug.RED)], size)
        return img
    cam = reading.camera.scaled(k)
    flats = reading.flats

    def outline(cell: Hex, shrink: float = 0.0) -> np.ndarray:
        c = hexgeo.centre(cell, flats)
        corners = hexgeo.corners(c, flats - shrink)
        pts = []  # each side in four pieces: the lens bends straight edges
        for i in range(6):
            (x0, y0), (x1, y1) = corners[i], corners[(i + 1) % 6]
            pts += [(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t) for t in (0.0, 0.25, 0.5, 0.75)]
        return cam.project(np.array(pts))

    scale = cam.scale_at((0.0, 0.0))  # px/mm
    text = max(0.3, min(1.0, scale * flats / 160.0))
    width = max(1, int(round(scale * 0.8)))
    debug._poly(img, outline((0, 0), 1.0), debug.WHITE, width + 1)
    debug._text(img, "station", tuple(outline((0, 0)).mean(0)), text, debug.WHITE)
    for pts in reading.glare.values():
        if len(pts) >= 3:
            debug._hatch(img, pts * k, debug.YELLOW, max(3, int(scale * 2)))
            debug._poly(img, pts * k, debug.YELLOW, width)
    for pts in reading.glare_elsewhere.values():  # not in this photo: outlined only
        if len(pts) >= 3:
            debug._poly(img, pts * k, debug.YELLOW, width)
    for cell, p in reading.placed.items():
        colour = debug.COLOURS.get(p.how, debug.GREEN)
        pts = outline(cell, 1.5)
        debug._poly(img, pts, colour, width + 1)
        if p.corners is not None:
            debug._poly(img, p.corners * k, colour, width)
        c = pts.mean(0)
        debug._text(img, p.card, (c[0], c[1] - 9 * text * 1.6), text, debug.WHITE)
        label = f"[{cell[0]},{cell[1]}] {hexgeo.SIDES[p.rot]}"
        debug._text(img, label, (c[0], c[1] + 9 * text * 1.6), text * 0.8, colour)
        if p.lifted:  # a line inside its outline: a word here would crowd the labels
            debug._poly(img, outline(cell, 5.0), debug.PINK, width + 1)
    for cell in reading.unread:
        pts = outline(cell, 1.5)
        debug._hatch(img, pts, debug.RED, max(4, int(scale * 4)))
        debug._poly(img, pts, debug.RED, width + 2)
        c = pts.mean(0)
        debug._text(img, "?", (c[0], c[1] - 12 * text), text * 2.4, debug.WHITE)
        debug._text(img, f"[{cell[0]},{cell[1]}] unread", (c[0], c[1] + 14 * text), text * 0.8,
                    debug.WHITE)
    for f in reading.findings:
        if f.cell is None or f.rule == "photo-unread":
            continue
        pts = outline(f.cell, 4.0)
        if f.rule in ("photo-covered", "photo-out-of-frame"):
            debug._hatch(img, pts, debug.ORANGE, max(4, int(scale * 4)))
        debug._poly(img, pts, debug.ORANGE, width + 2)
        c = pts.mean(0)
        debug._text(img, f.rule.removeprefix("photo-"), (c[0], c[1] + 30 * text), text * 0.8,
                    debug.ORANGE)
    debug.legend(img, legend(reading), size)
    return img


def legend(reading: TableReading) -> list[tuple[str, tuple[int, int, int]]]:
    """The debug image's legend: a line (and its colour) for each kind of thing drawn."""
    from photo import debug

    counts: dict[str, int] = {}
    for p in reading.placed.values():
        counts[p.how] = counts.get(p.how, 0) + 1
    words = {"marker": "by their marker",
             "marker at its place": "by the marker where the camera puts it",
             "art and marker": "by art and marker together",
             "art under glare": "by their printed face (marker under glare)",
             "photos together": "by the photos together (marker and face)"}
    lines = [(f"{n} card(s) read {words.get(how, how)}", debug.COLOURS.get(how, debug.GREEN))
             for how, n in counts.items()]
    if reading.unread:
        lines.append((f"{len(reading.unread)} card(s) seen but not read (red ?)", debug.RED))
    if reading.glare:
        lines.append((f"glare on {len(reading.glare)} card(s) (yellow)", debug.YELLOW))
    if reading.glare_elsewhere:
        lines.append((f"glare on {len(reading.glare_elsewhere)} card(s) in the other photo(s) "
                      f"(yellow outline)", debug.YELLOW))
    lifted = len(reading.lifted)
    if lifted:
        lines.append((f"{lifted} card(s) not lying flat (pink inner outline)", debug.PINK))
    others = [f for f in reading.findings if f.cell is not None and f.rule != "photo-unread"]
    if others:
        lines.append((f"{len(others)} other problem(s) (orange)", debug.ORANGE))
    return lines


def markers_missing(mmap: MarkerMap) -> str | None:
    """Why no table can be read against ``mmap`` (the deck printed without markers), or
    None: the reader needs the station's marker and the cards'."""
    return printed_without(mmap, (("station", "station.yaml"), ("sector", "sectors.yaml")),
                           "the deck")


def map_mismatch(mmap: MarkerMap, defs: Any) -> str | None:
    """Why ``mmap`` (a ``--markers`` file) cannot be read with the deck of ``defs``, or None:
    the reader compares a photographed cell with the art of every card of the definitions,
    then with that card's marker, so each card of the deck needs one in the map (a map of
    a build of other definitions lacks them)."""
    named = {m.name for m in mmap.of_kind("sector")}
    missing = [s.id for s in defs.sectors.sectors if s.id not in named]
    if not missing:
        return None
    listed = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5
                                       else "")
    return (f"{len(missing)} sector(s) of the definitions have no marker in it ({listed}); "
            "expected the markers.json of a build of these definitions (or give the --cards "
            "it was built from)")


READER = OrbitusReader  # the game's photo adapter (photo.reader_for)
__all__ = ["READER", "OrbitusReader", "map_mismatch", "marker_map", "markers_missing"]
