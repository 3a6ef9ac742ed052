"""Reading an Orbitus table from a photo: which card lies on which cell, turned how.

1. Every dark square of the photo is read as a marker (:mod:`photo.detect`).
2. The station's marker fixes the table's origin, scale and orientation: a first
   homography from the table plane (mm, the station at (0, 0)) to the photo.
3. Cards whose markers read with certainty are laid on the grid outwards from the
   station: each marker's pose gives its card's centre and turn, snapped to the nearest
   cell and rotation, and the homography is fitted again to all of them, so it stays
   exact far from the station too.
4. Every free cell next to the station or a card is then looked at where its card's
   marker must be, in each of the six rotations, and read there; what still cannot be
   read with certainty is compared with the printed art of every card (rendered from
   the definitions), and the marker decides between the cards the art allows.
5. What remains uncertain is reported, never guessed: a card seen but not read, two
   cards on one cell, a card between cells or between rotations, no station.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from generator.markers.plan import MarkerMap
from generator.markers.plan import orbitus_map as marker_map
from photo import printed_without
from photo.detect import Codebook, Reading, read_all, read_at
from rules import hexgeo
from rules.hexgeo import Hex

# a marker read with this score and margin over the next code, within these millimetres
# and degrees of a cell and rotation, is certain on its own
STRONG = (0.8, 0.1)
EXACT_MM, EXACT_DEG = 6.0, 8.0
OUTLIER = 3.5  # mm: a card's marker this far from where the others put it is not fitted
PERSPECTIVE = 10  # markers (the station's and cards') from which the grid's perspective is fitted
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


@dataclass
class Placed:
    """A card read on the table."""

    cell: Hex
    card: str
    rot: int
    how: str  # "marker", "marker at its place", "art and marker"
    corners: np.ndarray | None = None  # its marker in the photo (working px)
    score: float = 0.0
    source: int = 0  # the reading it came from (its id), for a marker read on its own


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
    homography: np.ndarray | None = None  # table mm -> working px
    station: np.ndarray | None = None  # the station marker's corners
    flats: float = 50.0
    log: list[dict[str, Any]] = field(default_factory=list)  # every cell decided, and why


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

    @property
    def art(self) -> Any:
        """The printed faces (rendered on first use, then cached on disk)."""
        if self._art is None and self.defs is not None:
            from photo.art import HexArt

            self._art = HexArt.for_orbitus(self.defs)
        return self._art

    # --- geometry ----------------------------------------------------------------------

    def pose(self, reading: Reading, h: np.ndarray) -> _Pose | None:
        """Where the card whose marker is ``reading`` lies (None: not a card's marker, or
        a square of the wrong size to be one)."""
        return self.poses([reading], h)[0]

    def poses(self, readings: list[Reading], h: np.ndarray) -> list[_Pose | None]:
        """:meth:`pose` of many readings at once (the grid is tried many times)."""
        mine = [r for r in readings if r.id in self.sectors]
        out: dict[int, _Pose | None] = {}
        if mine:
            markers = [self.sectors[r.id] for r in mine]
            t = _apply(np.linalg.inv(h), np.concatenate([r.corners for r in mine]))
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

    @staticmethod
    def _fit(pairs: list[tuple[np.ndarray, np.ndarray]], affine: bool = False) -> np.ndarray:
        """The homography (table mm -> photo px) of markers' corners, the first (the
        station's) always kept, the others dropped while one lies more than ``OUTLIER``
        mm from where the rest put it: a card pushed off its cell must not bend the
        grid for its neighbours."""
        kept = list(pairs)
        while True:
            src = np.concatenate([p[0] for p in kept]).astype(np.float64)
            dst = np.concatenate([p[1] for p in kept]).astype(np.float64)
            if len(kept) < PERSPECTIVE or affine:  # a few small squares close together:
                return _affine(src, dst)  # the perspective they say is noise
            h, _ = cv2.findHomography(src, dst, 0)
            if h is None or len(kept) <= 4:
                return h
            inv = np.linalg.inv(h)
            errors = [float(np.linalg.norm(_apply(inv, p[1]).mean(axis=0) - p[0].mean(axis=0)))
                      for p in kept[1:]]
            worst = int(np.argmax(errors))
            if errors[worst] <= OUTLIER:
                return h
            del kept[worst + 1]

    def _pairs(self, station: tuple[np.ndarray, np.ndarray],
               placed: dict[Hex, Placed]) -> list[tuple[np.ndarray, np.ndarray]]:
        return [station] + [(self.marker_corners(p.card, p.cell, p.rot), p.corners)
                            for p in placed.values() if p.corners is not None]

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
        return self.read(work.bgr, work.readings), work

    def read(self, bgr: np.ndarray, readings: list[Reading] | None = None) -> TableReading:
        """Read the table in ``bgr`` (``readings``: its markers, when already read)."""
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
                "the station's marker is not visible or cannot be read in the photo; the "
                "station fixes where every cell is, so no card was placed (photograph the "
                "whole table with the station uncovered)"))
            return out
        st = max(stations, key=lambda r: r.score)
        out.station = st.corners
        station = (np.array(self.station.corners()), st.corners)
        h = self._fit([station])
        cands = [r for r in readings if r.id in self.sectors and r.score >= 0.5]
        h = self._bootstrap(h, station, cands)
        used: set[int] = set()
        # A: the cards whose markers read with certainty, ring by ring from the station
        while True:
            frontier = self._frontier(out.placed, set())
            poses = [p for p in self.poses([r for r in cands if id(r) not in used], h) if p]
            added = 0
            for cell in sorted(frontier, key=lambda c: math.hypot(*hexgeo.centre(c, self.flats))):
                found = self._certain(cell, poses, used)
                if found is not None:
                    out.placed[cell] = found
                    added += 1
            if not added:
                break
            h = self._refit(h, self._pairs(station, out.placed), cands)
        # B: every free cell next to the table, looked at closely, once the grid is exact
        self._gain = self._typical_gain(bgr, h, out) if self.defs is not None else 0.0
        decided: set[Hex] = set()
        todo = sorted(self._frontier(out.placed, decided))
        poses = [p for p in self.poses([r for r in cands if id(r) not in used], h) if p]
        while todo:
            cell = todo.pop(0)
            if cell in decided or cell in out.placed:
                continue
            decided.add(cell)
            unread = len(out.unread)
            found = self._certain(cell, poses, used) or self._decide(bgr, gray, h, cell, out)
            if found is not None or len(out.unread) > unread:  # a card: look round it too
                todo += sorted(self._frontier({cell: found}, decided | set(out.placed)))
            if found is not None:
                out.placed[cell] = found
                if len(out.placed) % 6 == 0:
                    h = self._refit(h, self._pairs(station, out.placed), cands)
                    poses = [p for p in self.poses([r for r in cands if id(r) not in used], h)
                             if p]
        h = self._refit(h, self._pairs(station, out.placed), cands)
        self._recheck(h, out, used)
        self._verify_art(bgr, gray, h, out, used)
        self._leftovers(cands, used, h, out, bgr)
        out.homography = h
        return out

    def _refit(self, h: np.ndarray, pairs: list[tuple[np.ndarray, np.ndarray]],
               cands: list[Reading]) -> np.ndarray:
        """The grid fitted again to the cards placed, kept only if it puts at least as many
        certain cards exactly on cells as the grid before (cards crowded near the station
        can suggest a perspective the rest of the table does not have)."""
        new = self._fit(pairs)
        if new is None:
            return h
        strong = [r for r in cands if r.score >= STRONG[0] and r.margin >= STRONG[1]]

        def agreeing(trial: np.ndarray) -> int:
            return sum(1 for p in self.poses(strong, trial) if p is not None and p.exact)

        return new if agreeing(new) >= agreeing(h) else h

    def _recheck(self, h: np.ndarray, out: TableReading, used: set[int]) -> None:
        """Every card placed by its marker, looked at again with the final grid: one whose
        marker no longer lies exactly on its cell is taken off (and reported with the
        leftovers: between cells, between rotations)."""
        for cell, p in list(out.placed.items()):
            if p.how != "marker" or p.corners is None:
                continue
            marker = self.card_marker[p.card]
            pose = self.pose(Reading(marker.id, p.corners, p.score, 1.0), h)
            if pose is None or pose.cell != cell or not pose.exact:
                del out.placed[cell]
                used.discard(p.source)

    def _verify_art(self, bgr: np.ndarray, gray: np.ndarray, h: np.ndarray,
                    out: TableReading, used: set[int]) -> None:
        """Every card placed by its marker alone must show its printed face there too: a
        square of a cluttered background next to the table can read as a card's code with
        certainty (one in 9,478 cards of the benchmark did, a card read twice). A card
        whose face is not there is taken off and its cell looked at as any free cell (a
        partly covered card is then read from art and marker, or reported unread)."""
        if self.art is None:
            return
        for cell, p in sorted(out.placed.items()):
            if p.how != "marker":
                continue
            if self._shows(bgr, h, hexgeo.centre(cell, self.flats), p.card, p.rot):
                continue
            del out.placed[cell]
            used.discard(p.source)
            found = self._decide(bgr, gray, h, cell, out)
            if found is not None:
                out.placed[cell] = found

    def _certain(self, cell: Hex, poses: list[_Pose], used: set[int]) -> Placed | None:
        """The card on ``cell`` if a marker read with certainty puts it there exactly."""
        here = [p for p in poses if p.cell == cell and id(p.reading) not in used
                and p.strong and p.exact]
        if not here:
            return None
        p = max(here, key=lambda p: p.reading.score)
        used.add(id(p.reading))
        return Placed(cell, self.sectors[p.reading.id].name, p.rot, "marker", p.reading.corners,
                      p.reading.score, id(p.reading))

    def _typical_gain(self, bgr: np.ndarray, h: np.ndarray, out: TableReading) -> float:
        """How strongly cards read here show their art (light and shade), for telling a
        card from a faint texture of the table: the median over a few cards read."""
        art = self.art
        gains = []
        for p in list(out.placed.values())[:8]:
            centre = hexgeo.centre(p.cell, self.flats)
            patch = art.patch(bgr, h, centre, self._local_scale(h, centre))
            gains.append(art.gain(patch, art.names.index(p.card), p.rot))
        return float(np.median(gains)) if gains else 0.0

    def _bootstrap(self, h: np.ndarray, station: tuple[np.ndarray, np.ndarray],
                   cands: list[Reading]) -> np.ndarray:
        """The station's marker alone gives the grid only roughly (a small square, a few
        pixels in a coarse photo): fit it again to the certain cards round the station,
        which even a rough grid places on the right cell, widening the ring twice.

        In a coarse, tilted photo the station's square can be a few degrees and percent
        off (an affine map from 4 corners a few pixels apart), too much even for its first
        ring. So the grid is also fitted to the station and each pair of certain cards near
        it, each card on the cell the rough grid puts it, and the fit that puts the most
        certain cards exactly on cells within four rings is kept: a card put on a wrong
        cell makes a fit few others agree with."""
        strong = [r for r in cands if r.score >= STRONG[0] and r.margin >= STRONG[1]]

        def agreeing(trial: np.ndarray) -> int:
            return len({p.cell for p in self.poses(strong, trial) if p is not None
                        and p.exact and 0 < hexgeo.distance(p.cell, (0, 0)) <= 4})

        best = (agreeing(h), h)
        near = [(r, p) for r, p in zip(strong, self.poses(strong, h), strict=True)
                if p is not None and p.cell != (0, 0) and p.off <= 0.4 * self.flats
                and abs(p.turn_off) <= 20.0]
        near.sort(key=lambda rp: math.hypot(*hexgeo.centre(rp[1].cell, self.flats)))
        near = near[:10]
        for i, (ri, pi) in enumerate(near):
            for rj, pj in near[i + 1:]:
                if pi.cell == pj.cell:
                    continue
                trial = self._fit([station,
                                   (self.marker_corners(self.sectors[ri.id].name, pi.cell,
                                                        pi.rot), ri.corners),
                                   (self.marker_corners(self.sectors[rj.id].name, pj.cell,
                                                        pj.rot), rj.corners)], affine=True)
                count = agreeing(trial)
                if count > best[0]:
                    best = (count, trial)
        h = best[1]
        for reach, near, turn in ((1, 0.35, 20.0), (2, NEAR, TURN_TOLERANCE),
                                  (3, NEAR, TURN_TOLERANCE)):
            pairs = [station]
            seen: set[Hex] = set()
            ordered = sorted(cands, key=lambda r: -r.score)
            for r, p in zip(ordered, self.poses(ordered, h), strict=True):
                if p is None or not p.strong or p.cell in seen or p.cell == (0, 0):
                    continue
                if hexgeo.distance(p.cell, (0, 0)) > reach or p.off > near * self.flats \
                        or abs(p.turn_off) > turn:
                    continue
                seen.add(p.cell)
                pairs.append((self.marker_corners(self.sectors[r.id].name, p.cell, p.rot),
                              r.corners))
            if len(pairs) >= 3:
                h = self._fit(pairs)
        return h

    def _frontier(self, placed: dict[Hex, Any], decided: set[Hex]) -> set[Hex]:
        """The free cells next to the station or to ``placed`` cells."""
        cells: set[Hex] = set()
        for c in [(0, 0), *placed]:
            for _, n in hexgeo.neighbours(c):
                if n != (0, 0) and n not in placed and n not in decided:
                    cells.add(n)
        return cells

    def _decide(self, bgr: np.ndarray, gray: np.ndarray, h: np.ndarray, cell: Hex,
                out: TableReading) -> Placed | None:
        """What lies on ``cell`` when no marker put a card there with certainty: its marker
        read where the grid says it must be, else the printed art and that marker together;
        a card seen but not read is added to ``out.unread``."""
        entry: dict[str, Any] = {"cell": cell}
        out.log.append(entry)
        art = self.art
        if art is None:
            return None
        centre = hexgeo.centre(cell, self.flats)
        patch = art.patch(bgr, h, centre, self._local_scale(h, centre))
        looks = art.scores(patch)  # cards x 6
        i0, k0 = np.unravel_index(int(np.argmax(looks)), looks.shape)
        presence = float(looks[i0, k0])
        entry["art"] = presence
        if presence < 0.4:  # nothing here looks like any card: no marker to look for either
            entry["how"] = "empty"
            return None
        ids = self.book.ids
        marks = np.full((len(ids), 6), -1.0, np.float32)
        fines: list[np.ndarray | None] = [None] * 6
        for rot in range(6):
            corners = _apply(h, self.marker_corners(None, cell, rot))
            if float(np.linalg.norm(corners[1] - corners[0])) < 5.0 or \
                    not self._inside(gray, corners):
                continue
            fine, scores = read_at(gray, corners, self.book, turn=0)
            marks[:, rot] = scores[:, 0]
            fines[rot] = fine
        n, rot = np.unravel_index(int(np.argmax(marks)), marks.shape)
        best = float(marks[n, rot])
        rest = marks.copy()
        rest[n, rot] = -1.0
        margin = best - float(rest.max())
        entry.update(guided_id=ids[int(n)], guided_rot=int(rot), guided=best,
                     guided_margin=margin)
        gain = art.gain(patch, int(i0), int(k0)) / self._gain if self._gain > 0 else 0.0
        entry["gain"] = gain
        if ids[int(n)] in self.sectors and best >= STRONG[0] and margin >= STRONG[1]:
            # certain where the grid puts it, if the card's art is there too
            name = self.sectors[ids[int(n)]].name
            j = art.names.index(name)
            agree = float(looks[j, int(rot)])
            entry["guided_art"] = agree
            if gain >= GAIN_CARD and agree >= ART_VERIFY and agree >= presence - 0.1:
                entry.update(how="marker at its place", card=name, rot=int(rot))
                return Placed(cell, name, int(rot), "marker at its place", fines[int(rot)],
                              best)
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
        if gain >= GAIN_CARD and looks[i, k] >= ART_CARD and marker_of[i, k] >= MARKER_MIN \
                and m_margin >= MARKER_MARGIN:
            entry.update(how="art and marker", card=art.names[int(i)], rot=int(k))
            return Placed(cell, art.names[int(i)], int(k), "art and marker", fines[int(k)],
                          float(marker_of[i, k]))
        # a card seen but not read: it looks like one as a whole, or (partly covered) in
        # at least half of its wedges, and shows a card's light and shade
        wedges = art.wedges(patch, int(i0), int(k0))
        entry["wedges"] = wedges.tolist()
        seen = presence >= UNREAD_ART or int((wedges >= WEDGE).sum()) >= 3
        if seen and gain >= GAIN_CARD:
            entry["how"] = "unread"
            out.unread.append(cell)
        else:
            entry["how"] = "empty"
        return None

    @staticmethod
    def _local_scale(h: np.ndarray, centre: tuple[float, float]) -> float:
        pts = _apply(h, np.array([centre, (centre[0] + 10.0, centre[1]),
                                  (centre[0], centre[1] + 10.0)]))
        return float(max(np.linalg.norm(pts[1] - pts[0]), np.linalg.norm(pts[2] - pts[0]))
                     / 10.0)

    def _looks_like(self, bgr: np.ndarray | None, h: np.ndarray, p: _Pose) -> bool:
        """Whether the photo shows the card of ``p`` where its marker puts it (its art, not
        a square of the background that happens to read as its code)."""
        if self.art is None or bgr is None:
            return True
        return self._shows(bgr, h, p.centre, self.sectors[p.reading.id].name, p.rot)

    def _shows(self, bgr: np.ndarray, h: np.ndarray, centre: tuple[float, float],
               card: str, rot: int) -> bool:
        """Whether the photo shows ``card`` turned ``rot`` at ``centre`` (table mm)."""
        art = self.art
        patch = art.patch(bgr, h, centre, self._local_scale(h, centre))
        return float(art.scores(patch)[art.names.index(card), rot]) >= ART_VERIFY

    def _leftovers(self, cands: list[Reading], used: set[int], h: np.ndarray,
                   out: TableReading, bgr: np.ndarray | None = None) -> None:
        """Certain markers that were not placed: a card on a cell already read, between
        cells, between rotations, on the station, or lying apart from the table. Each must
        show its card's art where it lies (a square of a cluttered background can read as
        a code); a card already placed elsewhere is that card read twice."""
        placed_cards = {p.card for p in out.placed.values()}
        for r in cands:
            if id(r) in used:
                continue
            p = self.pose(r, h)
            if p is None or not p.strong or p.off > 0.45 * self.flats:
                continue  # not a card's marker for certain, or far off any cell
            name = self.sectors[r.id].name
            where = f"[{p.cell[0]}, {p.cell[1]}]"
            there = out.placed.get(p.cell)
            if name in placed_cards and self._copies(name) <= 1:
                continue  # the card is read on its cell; one copy cannot lie twice
            if there is None and not self._looks_like(bgr, h, p):
                continue  # no card there: a square that reads as a code
            if p.cell == (0, 0):
                out.findings.append(Finding("photo-on-station", p.cell, f"card {name} lies "
                                            f"on the station; a card cannot lie there"))
            elif p.off > NEAR * self.flats:
                out.findings.append(Finding(
                    "photo-between-cells", p.cell,
                    f"card {name} lies between cells, {p.off:.0f} mm from the centre of "
                    f"{where}, the nearest; push it onto its cell and photograph again, or "
                    f"write it into the layout by hand"))
            elif abs(p.turn_off) > TURN_TOLERANCE:
                out.findings.append(Finding(
                    "photo-between-rotations", p.cell,
                    f"card {name} on {where} is turned {abs(p.turn_off):.0f} degrees off its "
                    f"nearest rotation; straighten it and photograph again"))
            elif there is not None:
                out.findings.append(Finding(
                    "photo-cell-twice", p.cell,
                    f"two cards' markers on {where}: {there.card} and {name}; only one card "
                    f"can lie on a cell (is one lying on top of the other?)"))
            elif p.exact:  # a card apart from the table (the rules allow it: it is neutral)
                out.placed[p.cell] = Placed(p.cell, name, p.rot, "marker", r.corners,
                                            r.score, id(r))
                used.add(id(r))
            else:  # near a free cell but not flat on it (on top of a neighbour?): not placed
                out.findings.append(Finding(
                    "photo-between-cells", p.cell,
                    f"card {name} lies {p.off:.0f} mm off the centre of {where} (cards lying "
                    f"flat on their cells are within {EXACT_MM:.0f} mm), so it was not placed; "
                    f"push it onto its cell and photograph again, or write it into the layout "
                    f"by hand"))

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
    h = reading.homography
    size = max(0.4, min(1.2, img.shape[1] / 2600.0))
    if h is None:
        debug.legend(img, [("station not found: nothing could be placed", debug.RED)], size)
        return img
    hs = np.diag([k, k, 1.0]) @ h
    flats = reading.flats

    def outline(cell: Hex, shrink: float = 0.0) -> np.ndarray:
        return _apply(hs, np.array(hexgeo.corners(hexgeo.centre(cell, flats), flats - shrink)))

    scale = float(np.linalg.norm(outline((0, 0))[0] - outline((0, 0))[3])) / flats  # px/mm
    text = max(0.3, min(1.0, scale * flats / 160.0))
    width = max(1, int(round(scale * 0.8)))
    debug._poly(img, outline((0, 0), 1.0), debug.WHITE, width + 1)
    debug._text(img, "station", tuple(outline((0, 0)).mean(0)), text, debug.WHITE)
    for cell, p in reading.placed.items():
        colour = debug.COLOURS.get(p.how, debug.GREEN)
        pts = outline(cell, 1.5)
        debug._poly(img, pts, colour, width + 1)
        if p.corners is not None:
            debug._poly(img, p.corners * k, colour, width)
        c = pts.mean(0)
        debug._text(img, p.card, (c[0], c[1] - 9 * text * 1.6), text, debug.WHITE)
        debug._text(img, f"[{cell[0]},{cell[1]}] {hexgeo.SIDES[p.rot]}",
                    (c[0], c[1] + 9 * text * 1.6), text * 0.8, colour)
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
        debug._poly(img, pts, debug.ORANGE, width + 2)
        c = pts.mean(0)
        debug._text(img, f.rule.removeprefix("photo-"), (c[0], c[1] + 30 * text), text * 0.8,
                    debug.ORANGE)
    counts: dict[str, int] = {}
    for p in reading.placed.values():
        counts[p.how] = counts.get(p.how, 0) + 1
    lines = [(f"{n} card(s) read by their marker" if how == "marker" else
              f"{n} card(s) read by the marker where the grid puts it"
              if how == "marker at its place" else
              f"{n} card(s) read by art and marker together", debug.COLOURS.get(how, debug.GREEN))
             for how, n in counts.items()]
    if reading.unread:
        lines.append((f"{len(reading.unread)} card(s) seen but not read (red ?)", debug.RED))
    others = [f for f in reading.findings if f.cell is not None and f.rule != "photo-unread"]
    if others:
        lines.append((f"{len(others)} other problem(s) (orange)", debug.ORANGE))
    debug.legend(img, lines, size)
    return img


def markers_missing(mmap: MarkerMap) -> str | None:
    """Why no table can be read against ``mmap`` (the deck printed without markers), or
    None: the reader needs the station's marker and the cards'."""
    return printed_without(mmap, (("station", "station.yaml"), ("sector", "sectors.yaml")),
                           "the deck")


READER = OrbitusReader  # the game's photo adapter (photo.reader_for)
__all__ = ["READER", "OrbitusReader", "marker_map", "markers_missing"]
