"""Reading a Satellites board from a photo: which satellite stands on which cell.

The board's four corner markers fix its grid (a homography from the board's frame, mm
from the top-left corner of its cells, to the photo); every satellite carries a marker
with its colour and value, where markers.json says (on the lower rim, below the numeral),
so the satellite's centre follows from the marker's corners, and the cell it stands in
from that. A cell that does not look like the empty board there but
shows no satellite read is reported, never guessed; so are two satellites in one cell
and a satellite standing between cells.

Why markers on the tokens rather than recognising their colour and numeral: a marker is
read by comparing it with every code, and the codes of the eight satellites differ in at
least four of their sixteen bits in any turn, so a misread marker does not pass for
another satellite; a numeral half covered by a finger can. The same machinery reads the
Orbitus cards.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from generator.markers.plan import MarkerMap
from generator.markers.plan import satellites_map as marker_map
from photo import camera, printed_without
from photo.camera import TableCamera
from photo.detect import Codebook, Reading, read_all, read_at
from rules.satellites.table import cell_name as table_cell_name

STRONG = (0.8, 0.1)  # score and margin a marker read on its own needs
CORNER = (0.7, 0.06)  # ... a board corner (larger, always the same four)
BETWEEN = 0.3  # of a cell: a satellite further from its cell's centre stands between cells
PRESENT = 0.2  # the share of a cell's middle that must be dark for something to stand there
COLOURED = 0.15  # ... or of the disc a satellite covers that shows a player's colour
UNLIKE = 0.3  # the share of a free cell that is not the board as printed: something is there
# ... and if at least this share of it shows a player's colour, it is a satellite (its marker
# and face washed out by a lamp's streak, its coloured rim still there), searched for
SOME_COLOUR = 0.08
# ... but a blue satellite blurred until its ring is pale shows none: a cell unlike the board
# is searched for one where its corners beyond a satellite's disc (this far from the middle,
# mm: the disc's 13.5 mm radius, a satellite a little off its middle) are mostly the board;
# the satellites so read in the rendered photos leave at most 28 % of them unlike it, the
# cells under a hand or a cup mostly more
DISC_EDGE = 14.0
CLEAR_CORNERS = 0.4
# ... and a cell searched whose marker cannot be read is something larger than a satellite
# over the board (a cup), not a satellite unread, where its corners are that unlike the
# board other than by a lamp's reflection, or show this share of a player's colour (a red
# cup's handle across the cell): a satellite's colour stays inside its disc
CORNER_COLOUR = 0.1
OWN_COLOUR = 0.75  # of the cell's coloured pixels, the share of the satellite's colour
# a satellite whose marker is hazed by a lamp's reflection, read from its printed face: the
# face (grey, any turn, a few mm off the middle) matching this well, this far above every
# other satellite's, of the colour the cell shows, its marker reading best as that one's
FACE_LEVEL = 3.0  # px per mm the faces are compared at
FACE_SCORE, FACE_MARGIN = 0.5, 0.12
# ... inside the coloured rim only (mm from the middle): the numeral and the marker, which
# tell the satellites apart; the rim, the same for every satellite of a colour, is left out
FACE_INNER = 9.0
FACE_TURN = 5  # degrees between the turns tried
# ... or, where another face matches nearly as well (within FACE_MARGIN), when it is the
# nearer of the two where they differ (:meth:`SatellitesReader._duel`): over at least
# DUEL_PIXELS pixels where the two faces' light and shade (relative to DUEL_FLAT mm round)
# differ by DUEL_DIFF, the photo correlates with it DUEL[0] or better and DUEL[1] above the
# other. In the 20 rendered photos: B3 on h2 of photo 4 under a lamp's reflection, 0.32
# and 0.55 above B1; the two faces best matched that were not the satellite there (photo
# 13's B2 taken for B1, photo 17's R4 for R2, both washed out) 0.16 or less
DUEL_FLAT = 2.0
DUEL_DIFF = 1.0
DUEL_PIXELS = 150
DUEL = (0.25, 0.45)
BOARD_LEVEL = 2.0  # px per mm of the printed board compared with the photo
# a lamp's reflection: white, and brighter in every colour than the board's paper in this
# light (fitted over the whole board) by this factor
GLARE_ABOVE = 1.05
CLIPPED = 248.0  # ... or clipped (0-255, in its dimmest colour)
GLARE_CELL = 0.1  # the share of a cell under such light for it to lie under glare
# a satellite's coloured rim still shows under glare where its face and marker are washed
# out: a cell under glare with this share of its disc in a player's colour holds one (no
# empty cell under a reflection in the 20 rendered photos shows any, but under a red cup;
# B1 on j7 of photo 16, 98 % under the reflection, its marker all washed out, shows 2.4 %)
GLARE_COLOUR = 0.01
# an empty cell under a reflection looks unlike its print (a tinted cell washed white): it is
# the reflection, not something over the cell, when less than this share of the cell is
# unlike the print in any other way -- darker than the print in some colour (a hand, a
# cup's shade) or not white (skin); the empty cells under the reflections found in the
# rendered photos show at most 1 %, the cells by a hand still named 7 % or more. A satellite
# under a reflection is kept from this by its coloured rim (GLARE_COLOUR, asked first): its
# face can be as washed white as the board (B2 on h8 of rendered photo 3: 0.9 %)
BEYOND_REFLECTION = 0.03
DARKER = (0.1, 12.0)  # darker than the print: by this share of its white in this light,
# and at least this much (0-255)
# an arm or a hand as pale as the board in this light is not unlike it, but the board's
# printed grid lines do not show through it (:meth:`SatellitesReader._lines_gone`). Each
# cell's border is looked at in half edges (15 mm): across it, the darkest dip between
# sides LINE_SIDE mm away, searched LINE_SEARCH mm either side of where the camera puts
# the line (the camera is up to 2.5 mm off at a board's far side in the rendered photos),
# against the same dip in the print; LINE_ACROSS and LINE_ALONG mm apart are sampled
LINE_SEARCH = 3.0
LINE_SIDE = (0.6, 1.4)
LINE_ACROSS, LINE_ALONG = 0.25, 1.0
# the lines must show over the board for their absence to mean anything: their median dip
# this share of the print's or more (14 of the 20 rendered photos 0.29-0.96; the other six,
# blurred, 1.8-2.7 px/mm, 0.07-0.23: there the rule is not used -- a narrow margin)
LINES_SHOW = 0.25
# a half edge whose line dips less than this share of the board's median dip is gone, unless
# a lamp's reflection (found) lies over this share of it: a reflection washes lines out too
LINE_GONE = 0.3
LINE_GLARE = 0.3
# a cell with this many of its eight half edges gone, joined edge to edge to a cell named
# covered, lies under the same thing (photo 7 of the rendered set: the ten cells under the
# arm named so 6-8; the cells of the photos without an occluder 0-3 but under a lamp's
# reflection larger than the one found (photo 4) or in a blurred far corner (photo 13, at
# 1.8 px/mm), up to 6 -- none joined to a covered cell)
GONE_EDGES = 5
# ... and a cell next to those with some of its lines gone and something there that is not
# the board (a satellite's colour, or unlike the print) is partly under it
EDGE_GONE = 2
EDGE_UNLIKE = 0.1


@dataclass
class Token:
    cell: tuple[int, int]  # (row, column), 0-based, as everywhere (rules.satellites.table)
    colour: str
    value: int
    how: str
    corners: np.ndarray | None = None

    @property
    def text(self) -> str:
        return f"{self.colour[0].upper()}{self.value}"


@dataclass
class Finding:
    rule: str
    cell: tuple[int, int] | None
    message: str


@dataclass
class BoardReading:
    size: int
    cell_mm: float
    tokens: dict[tuple[int, int], Token] = field(default_factory=dict)
    unread: list[tuple[int, int]] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    homography: np.ndarray | None = None  # board mm (grid's top-left at 0, 0) -> photo px,
    # near the board's middle
    camera: TableCamera | None = None  # ... all over the board
    log: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # photos merged in that added nothing
    glare: list[tuple[int, int]] = field(default_factory=list)  # cells under a lamp's
    # reflection (found: drawn in the debug image)

    def grid(self) -> list[list[str]]:
        """Rows of the board as the transcribed text grid writes them ('.' empty)."""
        return [[self.tokens[(r, c)].text if (r, c) in self.tokens else "."
                 for c in range(self.size)] for r in range(self.size)]


def cell_name(cell: tuple[int, int]) -> str:
    """``(row, col) -> 'c3'``: the rules core's name of a cell (S-4)."""
    return table_cell_name(*cell)


def _along(corners: np.ndarray, x: float, y: float) -> np.ndarray:
    """The offset (x, y) of a marker in its satellite's frame, along the marker's own axes
    as its corners (board mm, the marker's order) lie: the marker's centre minus this is
    the satellite's (markers.json gives a rim marker's offset)."""
    u = corners[1] - corners[0]
    v = corners[3] - corners[0]
    return x * u / np.linalg.norm(u) + y * v / np.linalg.norm(v)


def _flat(gray: np.ndarray, sigma: float) -> np.ndarray:
    """Light and shade relative to the surroundings (``sigma`` px round): each pixel less
    the mean round it, over the spread round it."""
    mean = cv2.GaussianBlur(gray, (0, 0), sigma)
    d = gray - mean
    return (d / (np.sqrt(cv2.GaussianBlur(d * d, (0, 0), sigma)) + 2.0)).astype(np.float32)


def _half_edges(n: int, row: int, col: int) -> list[int]:
    """The indices (in :func:`_dips`' order) of the eight half edges round a cell of an
    ``n`` x ``n`` grid: its left and right edges (two halves each), its top and bottom."""
    def vertical(k: int, j: int) -> int:
        return k * 2 * n + j

    def horizontal(k: int, j: int) -> int:
        return (n + 1) * 2 * n + k * 2 * n + j

    return [vertical(col, 2 * row), vertical(col, 2 * row + 1), vertical(col + 1, 2 * row),
            vertical(col + 1, 2 * row + 1), horizontal(row, 2 * col),
            horizontal(row, 2 * col + 1), horizontal(row + 1, 2 * col),
            horizontal(row + 1, 2 * col + 1)]


def _dips(img: np.ndarray, to_px: Any, n: int, cell: float, mean: bool = False
          ) -> np.ndarray:
    """Along every half edge of an ``n`` x ``n`` grid of ``cell`` mm (the vertical lines'
    first, left to right, each top to bottom; then the horizontal ones), ``img`` sampled
    across the line (``to_px``: board mm -> ``img`` px) and averaged along it; of that
    profile, the deepest dip below its sides (``LINE_SIDE`` mm off), searched
    ``LINE_SEARCH`` mm either side, as a share of the sides' light (NaN where a tenth of the
    samples lie beyond ``img``). With ``mean``: the samples' mean instead (``img`` a map of
    the board, continued beyond its edge)."""
    reach = LINE_SEARCH + LINE_SIDE[1]
    across = np.arange(-reach, reach + 1e-6, LINE_ACROSS)
    along = np.arange(LINE_ALONG / 2, cell / 2, LINE_ALONG)
    t, a = np.meshgrid(across, along)  # (along, across)
    pts = []
    for vertical in (True, False):
        for k in range(n + 1):
            for j in range(2 * n):
                x, y = k * cell + t, j * cell / 2 + a
                pts.append(np.stack([x, y] if vertical else [y, x], axis=-1))
    grid = np.stack(pts)  # (half edges, along, across, 2)
    count = grid.shape[0]
    px = np.asarray(to_px(grid.reshape(-1, 2)), np.float32).reshape(count, -1, 2)
    if mean:  # a map of the board itself: its edge continued beyond it
        return cv2.remap(img, px[..., 0], px[..., 1], cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE).mean(axis=1)
    seen = cv2.remap(img, px[..., 0], px[..., 1], cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=-1.0)
    seen = seen.reshape(count, len(along), len(across))
    outside = (seen < 0).mean(axis=(1, 2)) > 0.1
    prof = seen.mean(axis=1)
    csum = np.concatenate([np.zeros((count, 1), np.float32), np.cumsum(prof, axis=1)], axis=1)
    lo, hi = (int(round(s / LINE_ACROSS)) for s in LINE_SIDE)
    best = np.zeros(count, np.float32)
    for c in range(hi, len(across) - hi):
        if abs(across[c]) > LINE_SEARCH + 1e-6:
            continue
        left = (csum[:, c - lo + 1] - csum[:, c - hi]) / (hi - lo + 1)
        right = (csum[:, c + hi + 1] - csum[:, c + lo]) / (hi - lo + 1)
        side = np.minimum(left, right)
        best = np.maximum(best, (side - prof[:, c]) / np.maximum(side, 8.0))
    return np.where(outside, np.nan, best)


def _apply(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), h)
    return p.reshape(-1, 2)


class SatellitesReader:
    """Reads photos against one Satellites marker map."""

    def __init__(self, mmap: MarkerMap, defs: Any = None) -> None:
        self.map = mmap
        self.defs = defs
        self.book = Codebook([m.id for m in mmap.markers])
        self.tokens = {m.id: m for m in mmap.of_kind("token")}
        self.corners = {m.id: m for m in mmap.of_kind("board")}
        self.n = mmap.board_size
        self.cell = mmap.cell_mm
        self._shape: tuple[int, ...] = (0, 0)
        self._face: np.ndarray | None = None
        # where the board is not as printed, its reflection, its pixels only washed toward
        # white (:meth:`_strange`), and the photo and camera they were found for: the
        # objects themselves, held, not their id() (a freed photo's id is soon another's)
        self._strange_of: tuple[np.ndarray, TableCamera, np.ndarray, np.ndarray,
                                np.ndarray] | None = None
        self._turned: dict[str, list[np.ndarray]] | None = None  # faces, every FACE_TURN
        self._print_dips: np.ndarray | None = None  # the print's dip at each half edge
        self._flat_turned: dict[str, list[np.ndarray]] | None = None  # ... flattened

    def sizes(self) -> dict[int, float]:
        return {m.id: m.size for m in self.map.markers}

    @staticmethod
    def draw(bgr: np.ndarray, reading: BoardReading) -> np.ndarray:
        """The debug image: ``reading`` drawn over the photo (:func:`draw`)."""
        return draw(bgr, reading)

    def read_bytes(self, data: bytes, source: str) -> tuple[BoardReading, Any]:
        from photo.working import look

        work = look(data, source, self.book, self.sizes())
        return self.read(work.bgr, work.readings), work

    def read(self, bgr: np.ndarray, readings: list[Reading] | None = None) -> BoardReading:
        gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
        out = BoardReading(self.n, self.cell)
        self._shape = bgr.shape
        if not self.tokens or not self.corners:
            which = "satellites.yaml" if not self.tokens else "board.yaml"
            out.findings.append(Finding("photo-no-markers", None, f"the game was printed "
                                        f"without markers (markers: false in {which})"))
            return out
        if readings is None:
            readings = read_all(gray, self.book)
        strong = [r for r in readings if r.id in self.tokens and r.score >= STRONG[0]
                  and r.margin >= STRONG[1]]
        corners = []
        for marker_id in self.corners:  # the three best readings of each corner at most
            mine = sorted((r for r in readings if r.id == marker_id and r.score >= CORNER[0]
                           and r.margin >= CORNER[1]), key=lambda r: -r.score)
            corners += mine[:3]
        h, seen = self._corners_fit(corners, strong)
        if h is None:
            found = len({r.id for r in corners})
            out.findings.append(Finding(
                "photo-no-board", None,
                f"the board's corners cannot be found in the photo ({found} of its 4 corner "
                f"markers read, and at least 2 that agree with the satellites are needed to "
                f"know where the cells are); photograph the whole board, flat, with its "
                f"corners uncovered"))
            return out
        pairs = [(np.array(self.corners[i].corners()), r.corners) for i, r in seen.items()]
        h = self._grow(h, pairs, strong, seen)
        out.camera = h
        mid = self.n * self.cell / 2.0
        out.homography = h.local((mid, mid), mid)
        for r in strong:
            self._place(r, h, out)
        self._look_closer(bgr, gray, h, out)
        return out

    def _grow(self, h: TableCamera, pairs: list[tuple[np.ndarray, np.ndarray]],
              strong: list[Reading], seen: dict[int, Reading]) -> TableCamera:
        """The corner markers are small for a board this size (and the far ones may not be
        read at all): the satellites standing in their cells, a few mm off the middle each,
        pin the grid down, taken nearest the corners read first and the grid fitted again
        as they come, so each is placed where the grid is already known well."""
        anchors = np.array([r.centre for r in seen.values()])
        order = sorted(strong, key=lambda r: float(np.min(np.linalg.norm(anchors - r.centre,
                                                                          axis=1))))
        taken: list[tuple[np.ndarray, np.ndarray]] = []
        for _ in range(3):
            taken = []
            for r in order:
                p = self._pose(r, h)
                if p is None or p[1] > 0.25 * self.cell:
                    continue
                taken.append((np.array([self._cell_centre(p[0])]), r.centre[None]))
                if len(taken) % 4 == 0:
                    h = self._fit(pairs + taken)
            if len(taken) >= 4:
                h = self._fit(pairs + taken)
        return h

    def _corners_fit(self, corners: list[Reading], strong: list[Reading]
                     ) -> tuple[TableCamera | None, dict[int, Reading]]:
        """The grid from the corner markers read: every set of two to four of them (one
        reading per corner) is tried, and the one that the most corner markers and
        satellites agree with wins (a misread corner, or a square read as one, fits
        nothing). None when no set of at least two corners has satellites agreeing."""
        from itertools import combinations

        best: tuple[int, TableCamera, dict[int, Reading]] | None = None
        for k in (4, 3, 2):
            for group in combinations(corners, k):
                if len({r.id for r in group}) < k:
                    continue
                pairs = [(np.array(self.corners[r.id].corners()), r.corners) for r in group]
                h = self._fit(pairs)
                if abs(float(np.linalg.det(h.h))) < 1e-12:
                    continue
                agree = [r for r in corners if float(np.abs(
                    h.unproject(r.corners) - np.array(self.corners[r.id].corners())).max())
                    <= 0.3 * self.corners[r.id].size]
                if len({r.id for r in agree}) < k:
                    continue
                tokens = sum(1 for r in strong if (p := self._pose(r, h)) is not None
                             and p[1] <= 0.25 * self.cell)
                score = 10 * len({r.id for r in agree}) + tokens
                if best is None or score > best[0]:
                    best = (score, h, {r.id: r for r in agree})
            if best is not None and best[0] >= 10 * k:
                break  # a larger set agreeing beats any smaller one
        if best is None or (len(best[2]) < 3 and best[0] - 10 * len(best[2]) < 3):
            return None, {}
        return best[1], best[2]

    def _fit(self, pairs: list[tuple[np.ndarray, np.ndarray]]) -> TableCamera:
        """The camera (board mm -> photo px, :mod:`photo.camera`); from two corner markers
        alone an affine map (their few pixels cannot say the perspective), from many points
        with the lens's distortion too."""
        src = np.concatenate([p[0] for p in pairs]).astype(np.float64)
        dst = np.concatenate([p[1] for p in pairs]).astype(np.float64)
        hgt, wid = self._shape[:2]
        return camera.fit(src, dst, wid, hgt, radial=len(src) >= 24, affine=len(src) <= 8)

    def _cell_centre(self, cell: tuple[int, int]) -> tuple[float, float]:
        """The middle of ``cell`` (row, col) in the board's frame: (x, y) mm."""
        return ((cell[1] + 0.5) * self.cell, (cell[0] + 0.5) * self.cell)

    def _pose(self, r: Reading, h: TableCamera) -> tuple[tuple[int, int], float] | None:
        """The cell a satellite's marker stands in and its distance from the cell's
        centre (mm); None for a square of the wrong size or off the board."""
        marker = self.tokens[r.id]
        t = h.unproject(r.corners)
        side = float(np.mean([np.linalg.norm(t[i] - t[(i + 1) % 4]) for i in range(4)]))
        if not 0.75 * marker.size <= side <= 1.3 * marker.size:
            return None
        x, y = t.mean(axis=0) - _along(t, marker.x, marker.y)  # the satellite's centre
        col, row = int(math.floor(x / self.cell)), int(math.floor(y / self.cell))
        if not (0 <= col < self.n and 0 <= row < self.n):
            return None
        cx, cy = self._cell_centre((row, col))
        return (row, col), max(abs(x - cx), abs(y - cy))

    def _place(self, r: Reading, h: TableCamera, out: BoardReading) -> None:
        pose = self._pose(r, h)
        if pose is None:
            return
        cell, off = pose
        marker = self.tokens[r.id]
        token = Token(cell, marker.colour, marker.value, "marker", r.corners)
        where = cell_name(cell)
        if off > BETWEEN * self.cell:
            out.findings.append(Finding(
                "photo-between-cells", cell,
                f"satellite {token.text} stands between cells, {off:.0f} mm off the middle "
                f"of {where}, the nearest; push it into its cell and photograph again"))
            return
        there = out.tokens.get(cell)
        if there is not None:
            out.findings.append(Finding(
                "photo-cell-twice", cell,
                f"two satellites in {where}: {there.text} and {token.text}; a cell holds one "
                f"satellite"))
            return
        out.tokens[cell] = token

    def _look_closer(self, bgr: np.ndarray, gray: np.ndarray, h: TableCamera,
                     out: BoardReading) -> None:
        """Every cell without a satellite read: where its middle is dark as a marker is (the
        empty board has nothing dark in the middle of a cell), a satellite's marker is
        searched for in every turn; what still cannot be read is reported. The cells under
        a lamp's reflection are found first (``out.glare``)."""
        shares = {(row, col): self._glare_share(bgr, h, (row, col))
                  for row in range(self.n) for col in range(self.n)}
        out.glare = [cell for cell, share in shares.items() if share >= GLARE_CELL]
        for row in range(self.n):
            for col in range(self.n):
                cell = (row, col)
                if cell in out.tokens or any(f.cell == cell for f in out.findings):
                    continue
                dark = self._dark(gray, h, cell)
                coloured = self._coloured(bgr, h, cell)
                glare = shares[cell]
                entry: dict[str, Any] = {"cell": cell, "dark": dark, "coloured": coloured,
                                         "glare": glare}
                out.log.append(entry)
                # under a lamp's reflection a satellite's coloured rim is all that is left
                # of it; the cell looks like the printed board, white
                rim = glare >= GLARE_CELL and coloured >= GLARE_COLOUR
                if dark < PRESENT and coloured < COLOURED:
                    unlike = self._unlike(bgr, h, cell)
                    entry["unlike"] = unlike
                    if unlike >= UNLIKE and glare >= GLARE_CELL and not rim:
                        # a reflection washing the print out (a tinted cell gone white) is
                        # the empty board, unless something else is unlike it too
                        beyond = self._beyond_reflection(bgr, h, cell)
                        entry["beyond_reflection"] = beyond
                        if beyond < BEYOND_REFLECTION:
                            continue
                    if unlike >= UNLIKE and coloured < SOME_COLOUR and not rim:
                        # not the board, and no player's colour shows: a hand, a cup -- or
                        # a blue satellite blurred until its thin ring is no longer blue
                        # enough, read only when its marker and its face agree
                        blurred = self._blurred_token(bgr, gray, h, cell, entry)
                        if blurred is not None:
                            out.tokens[cell] = blurred
                            continue
                        out.findings.append(Finding(
                            "photo-covered", cell,
                            f"{cell_name(cell)} cannot be seen: {unlike:.0%} of the cell "
                            f"looks neither like the board as printed nor like a satellite "
                            f"(a hand or a cup over it, or a satellite too blurred or small "
                            f"in the photo to tell); take away what covers it, or photograph "
                            f"the board closer, and try again"))
                        continue
                    if unlike < UNLIKE and not rim:
                        continue
                colours = self._colour_shares(bgr, h, cell)
                found = self._search(gray, h, cell, entry)
                if found is None and "overall" in entry:
                    found = self._by_face(bgr, h, cell, entry, colours)
                if found is not None:
                    out.tokens[cell] = found
                    continue
                # dark or a player's colour, but over the cell's corners too, beyond a
                # satellite's disc: something larger than a satellite stands there (a cup,
                # red or dark inside, a hand's shade), over the board and perhaps over a
                # satellite, not a satellite unread
                corners = self._corners(bgr, h, cell)
                tinted = self._coloured(bgr, h, cell, beyond=DISC_EDGE)
                entry.update(corners_unlike=corners, corners_coloured=tinted)
                if corners > CLEAR_CORNERS or tinted >= CORNER_COLOUR:
                    out.findings.append(Finding(
                        "photo-covered", cell,
                        f"{cell_name(cell)} cannot be seen: something larger than a "
                        f"satellite stands over it ({corners:.0%} of the cell around a "
                        f"satellite's disc is not the board either) and no satellite's marker "
                        f"can be read there (a cup, a hand, perhaps over a satellite); take "
                        f"away what covers it and try again"))
                    continue
                out.unread.append(cell)
        self._follow_lines(bgr, gray, h, out)

    def _follow_lines(self, bgr: np.ndarray, gray: np.ndarray, h: TableCamera,
                      out: BoardReading) -> None:
        """An arm or a hand as pale as the board in this light (photo 7 of the rendered set)
        is not unlike the board, so only the cells at its edge, or under its shade, are named
        covered; under it the board's printed grid lines are gone (:meth:`_lines_gone`). From
        every cell named covered, the cells joined to it edge to edge whose lines are mostly
        gone (``GONE_EDGES`` of eight half edges) are named covered too, and so are the cells
        next to those with some lines gone (``EDGE_GONE``) and something there that is not
        the board (a player's colour, ``SOME_COLOUR``, or ``EDGE_UNLIKE`` unlike the print):
        a satellite partly under the arm. Nothing is followed where the photo shows no lines
        (``LINES_SHOW``: too blurred) or from nothing named covered."""
        covered = {f.cell for f in out.findings if f.rule == "photo-covered" and f.cell}
        if not covered:
            return
        gone = self._lines_gone(gray, h)
        if gone is None:
            return
        named = set(out.tokens) | {f.cell for f in out.findings if f.cell} | set(out.unread)
        region, todo = set(covered), sorted(covered)
        while todo:
            row, col = todo.pop()
            for nb in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                if nb in gone and nb not in region and gone[nb] >= GONE_EDGES:
                    region.add(nb)
                    todo.append(nb)
        for cell in sorted(region - named):
            out.log.append({"cell": cell, "lines_gone": gone[cell]})
            out.findings.append(Finding(
                "photo-covered", cell,
                f"{cell_name(cell)} cannot be seen: the board's printed lines round it do not "
                f"show ({gone[cell]} of its 8 half edges), as under the cell next to it that "
                f"is covered (a hand or an arm as pale as the board over it, perhaps over a "
                f"satellite); take away what covers it and try again"))
        named |= region
        rim = {(r + dr, c + dc) for r, c in region
               for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))} - named
        for cell in sorted(c for c in rim if c in gone and gone[c] >= EDGE_GONE):
            coloured = self._coloured(bgr, h, cell)
            unlike = self._unlike(bgr, h, cell)
            out.log.append({"cell": cell, "lines_gone": gone[cell], "coloured": coloured,
                            "unlike": unlike})
            if coloured < SOME_COLOUR and unlike < EDGE_UNLIKE:
                continue
            out.findings.append(Finding(
                "photo-covered", cell,
                f"{cell_name(cell)} cannot be seen whole: {gone[cell]} of the 8 half edges "
                f"of its printed lines do not show, next to cells covered (a hand or an arm "
                f"as pale as the board), and something other than the board lies there "
                f"(perhaps a satellite partly under it); take away what covers it and try "
                f"again"))

    def _lines_gone(self, gray: np.ndarray, h: TableCamera) -> dict[tuple[int, int], int] | None:
        """Of each cell, how many of its eight half edges (15 mm of its border) show no
        printed grid line where the print has one: the line's dip across the half edge
        (:func:`_dips`) under ``LINE_GONE`` of the board's median, the print's dip taken as
        its measure; half edges under a lamp's reflection (``LINE_GLARE``) or beyond the
        photo count as shown. None when the lines do not show over the board
        (``LINES_SHOW``)."""
        face = self._board()
        if face is None or self._strange_of is None:
            return None
        if self._print_dips is None:
            m = self.map.margin_mm
            printed = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(np.float32)
            self._print_dips = _dips(printed, lambda p: (p + m) * BOARD_LEVEL - 0.5, self.n,
                                     self.cell)
        photo = _dips(gray.astype(np.float32), h.project, self.n, self.cell)
        glare = _dips(self._strange_of[3].astype(np.float32), lambda p: p * BOARD_LEVEL - 0.5,
                      self.n, self.cell, mean=True)
        ratio = photo / np.maximum(self._print_dips, 0.05)
        shown = ~np.isnan(ratio) & (glare < LINE_GLARE)
        if not shown.any():
            return None
        median = float(np.median(ratio[shown]))
        if median < LINES_SHOW:
            return None
        gone = shown & (np.nan_to_num(ratio, nan=1.0) < LINE_GONE * median)
        n = self.n
        out = {}
        for row in range(n):
            for col in range(n):
                out[(row, col)] = int(sum(gone[i] for i in _half_edges(n, row, col)))
        return out

    def _blurred_token(self, bgr: np.ndarray, gray: np.ndarray, h: TableCamera,
                       cell: tuple[int, int], entry: dict[str, Any]) -> Token | None:
        """A satellite in a cell that looks neither like the board nor like a satellite's
        colour: a blue satellite's face is white but for its numeral, its pips and a thin
        ring, which blur pales below a player's colour (B1 on j7 of rendered photo 18,
        B2 on d4 of photo 19, at 2.0-2.1 px/mm: 7.6 % and 2 % of the disc). Its marker is
        searched (:meth:`_search`), and the satellite read only when two things say the
        same, each sure of it on its own: the marker, certain (``STRONG``) of one
        satellite, and the printed face (:meth:`_by_face`: ``FACE_SCORE`` and
        ``FACE_MARGIN`` above every other satellite, the cell's colour its own). A hand
        or a cup has neither; either one alone leaves the cell named covered. Nor is a
        cell searched whose corners, beyond any satellite's disc, are unlike the board too
        (``CLEAR_CORNERS``): a hand or a cup spreads over them, a satellite does not."""
        corners = self._corners(bgr, h, cell)
        entry["corners_unlike"] = corners
        if corners > CLEAR_CORNERS:
            return None
        found = self._search(gray, h, cell, entry)
        if found is None:
            return None
        # blur can pale a blue satellite's ring to no colour at all, which then does not
        # veto (the grey face tells red from blue: a red face is dark); the other colour does
        shares = self._colour_shares(bgr, h, cell) or {"red": 1.0, "blue": 1.0}
        face = self._by_face(bgr, h, cell, entry, shares)
        if face is None or face.text != found.text:
            return None
        return Token(cell, found.colour, found.value, "marker and face", found.corners)

    def _board(self) -> np.ndarray | None:
        """The board as printed (BGR, ``BOARD_LEVEL`` px per mm, the drawing's top-left
        corner at 0, 0), rendered once and kept in the cache folder."""
        if self._face is None and self.defs is not None:
            from photo.art import faces

            self._face = faces("satellites", self.defs, ["board"], BOARD_LEVEL)["board"]
        return self._face

    def _unlike(self, bgr: np.ndarray, h: TableCamera, cell: tuple[int, int]) -> float:
        """The share of a cell that is not the board as it is printed there, in this light
        (:meth:`_strange`)."""
        far = self._strange(bgr, h)
        if far is None:
            return 0.0
        lv = BOARD_LEVEL
        x0, y0 = int(round(cell[1] * self.cell * lv)), int(round(cell[0] * self.cell * lv))
        n = int(round(self.cell * lv))
        return float(far[y0:y0 + n, x0:x0 + n].mean())

    def _corners(self, bgr: np.ndarray, h: TableCamera, cell: tuple[int, int]) -> float:
        """The share of a cell's corners, beyond any satellite's disc (``DISC_EDGE`` mm or
        more from its middle), that is unlike the board as printed other than by being
        washed toward white (:meth:`_strange`: a lamp's reflection is not something over
        the board)."""
        far = self._strange(bgr, h)
        if far is None or self._strange_of is None:
            return 0.0
        lv = BOARD_LEVEL
        x0, y0 = int(round(cell[1] * self.cell * lv)), int(round(cell[0] * self.cell * lv))
        n = int(round(self.cell * lv))
        part = (slice(y0, y0 + n), slice(x0, x0 + n))
        c = (n - 1) / 2.0
        yy, xx = np.mgrid[0:n, 0:n]
        away = np.hypot(xx - c, yy - c) >= DISC_EDGE * lv
        return float((far[part] & ~self._strange_of[4][part])[away].mean())

    def _beyond_reflection(self, bgr: np.ndarray, h: TableCamera, cell: tuple[int, int]
                           ) -> float:
        """The share of a cell that is unlike the board as printed other than by being
        washed toward white (:meth:`_strange`): what a lamp's reflection cannot explain."""
        far = self._strange(bgr, h)
        if far is None or self._strange_of is None:
            return 1.0
        washed = self._strange_of[4]
        lv = BOARD_LEVEL
        x0, y0 = int(round(cell[1] * self.cell * lv)), int(round(cell[0] * self.cell * lv))
        n = int(round(self.cell * lv))
        part = (slice(y0, y0 + n), slice(x0, x0 + n))
        return float((far[part] & ~washed[part]).mean())

    def _glare_share(self, bgr: np.ndarray, h: TableCamera, cell: tuple[int, int]) -> float:
        """The share of a cell under a lamp's reflection: white, brighter than the board's
        paper can be in this light (:meth:`_strange`)."""
        if self._strange(bgr, h) is None or self._strange_of is None:
            return 0.0
        glare = self._strange_of[3]
        lv = BOARD_LEVEL
        x0, y0 = int(round(cell[1] * self.cell * lv)), int(round(cell[0] * self.cell * lv))
        n = int(round(self.cell * lv))
        return float(glare[y0:y0 + n, x0:x0 + n].mean())

    def _strange(self, bgr: np.ndarray, h: TableCamera) -> np.ndarray | None:
        """Where the board's grid, as photographed, is not the board as printed: the photo
        of the grid (``BOARD_LEVEL`` px per mm) against the print, after fitting the light
        over the whole board (per colour, a gain that changes smoothly across it and an
        offset, robustly: the satellites, and a hand or a cup over part of the board, do
        not bend it). Made once per photo, with where a lamp's reflection lies (white, and
        brighter in every colour than the paper in this light, or clipped), kept for
        :meth:`_glare_share`."""
        if self._strange_of is not None and self._strange_of[0] is bgr \
                and self._strange_of[1] is h:
            return self._strange_of[2]
        face = self._board()
        if face is None:
            return None
        lv = BOARD_LEVEL
        n = int(round(self.n * self.cell * lv))
        yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
        table = np.column_stack([(xx.ravel() + 0.5) / lv, (yy.ravel() + 0.5) / lv])
        px = h.project(table).astype(np.float32).reshape(n, n, 2)
        photo = cv2.remap(bgr, px[..., 0], px[..., 1], cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        m = int(round(self.map.margin_mm * lv))
        printed = face[m:m + n, m:m + n].astype(np.float32)
        photo = cv2.GaussianBlur(photo, (0, 0), 1.0)
        printed = cv2.GaussianBlur(printed, (0, 0), 1.0)
        u, v = (xx.ravel() / n - 0.5), (yy.ravel() / n - 0.5)
        far = np.zeros(n * n, bool)
        darker = np.zeros(n * n, bool)  # darker than the print in some colour
        white = np.zeros((n * n, 3), np.float32)  # the paper's white in this light
        every = np.arange(0, n * n, 7)  # a sample of the pixels is plenty for the fit
        for ch in range(3):
            x, y = printed[..., ch].ravel(), photo[..., ch].ravel()
            design = np.column_stack([x, x * u, x * v, x * u * u, x * u * v, x * v * v,
                                      np.ones_like(x)])
            sel = every
            coef = np.zeros(design.shape[1], np.float32)
            for _ in range(4):
                coef, *_ = np.linalg.lstsq(design[sel], y[sel], rcond=None)
                r = y - design @ coef
                spread = max(2.5 * 1.48 * float(np.median(np.abs(r[every]))), 8.0)
                sel = every[np.abs(r[every]) <= spread]
            gain = float(np.median(design[every, :6] @ coef[:6] / np.maximum(x[every], 1.0)))
            far |= np.abs(r) > max(0.25 * 255 * abs(gain), 30.0)
            darker |= r < -max(DARKER[0] * 255 * abs(gain), DARKER[1])
            white[:, ch] = np.column_stack([np.full_like(x, 255.0), 255.0 * u, 255.0 * v,
                                            255.0 * u * u, 255.0 * u * v, 255.0 * v * v,
                                            np.ones_like(x)]) @ coef
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
        mask = cv2.morphologyEx(far.reshape(n, n).astype(np.uint8), cv2.MORPH_OPEN,
                                k).astype(bool)
        seen = photo.reshape(-1, 3)
        low, high = seen.min(axis=1), seen.max(axis=1)
        # clipped counts too, unless the board's paper in this light is itself near
        # clipping (the median over the board: a large reflection bends the fit near it)
        paper = float(np.median(white.min(axis=1)))
        clipped = (low >= CLIPPED) & (paper * GLARE_ABOVE < CLIPPED)
        glare = (((seen >= GLARE_ABOVE * white).all(axis=1) | clipped)
                 & (high - low <= 0.18 * high))
        glare = cv2.morphologyEx(glare.reshape(n, n).astype(np.uint8), cv2.MORPH_OPEN,
                                 k).astype(bool)
        # washed toward white: nowhere darker than the print, and white (a reflection's
        # light, not skin or a satellite's colour)
        washed = (~darker & (high - low <= 0.18 * high)).reshape(n, n)
        self._strange_of = (bgr, h, mask, glare, washed)
        return mask

    def _cell_warp(self, h: TableCamera, cell: tuple[int, int], lv: float) -> np.ndarray:
        """Patch px (``lv`` px per mm, the top-left corner of ``cell`` (row, col) at 0, 0)
        -> photo px."""
        x0, y0 = cell[1] * self.cell, cell[0] * self.cell  # (row, col) -> (x, y) mm
        m = np.array([[1 / lv, 0, x0 + 0.5 / lv], [0, 1 / lv, y0 + 0.5 / lv], [0, 0, 1]])
        return h.local((x0 + self.cell / 2, y0 + self.cell / 2), self.cell) @ m

    def _dark(self, gray: np.ndarray, h: TableCamera, cell: tuple[int, int]) -> float:
        """The share of a cell's middle (where a satellite's marker is) that is dark
        against the cell's own light parts."""
        lv = 2.0  # px per mm
        n = int(round(self.cell * lv))
        patch = cv2.warpPerspective(gray, self._cell_warp(h, cell, lv), (n, n),
                                    flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                    borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        c = (n - 1) / 2.0
        yy, xx = np.mgrid[0:n, 0:n]
        middle = np.hypot(xx - c, yy - c) <= 6.0 * lv * self.cell / 30.0
        white = float(np.percentile(patch, 90))
        return float((patch[middle] < 0.45 * white).mean()) if white > 0 else 0.0

    def _coloured(self, bgr: np.ndarray, h: TableCamera, cell: tuple[int, int],
                  beyond: float = 0.0) -> float:
        """The share of the disc a satellite covers in a cell that shows a player's colour
        (a red token's face, a blue token's ring): the empty board there is pale. With
        ``beyond`` (mm): the share of the cell that far from its middle or further."""
        if not self._hues:
            return 0.0
        lv = 2.0
        n = int(round(self.cell * lv))
        patch = cv2.warpPerspective(bgr, self._cell_warp(h, cell, lv), (n, n),
                                    flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                    borderMode=cv2.BORDER_REPLICATE)
        hsv = cv2.cvtColor(patch, cv2.COLOR_BGR2HSV).astype(np.float32)
        c = (n - 1) / 2.0
        yy, xx = np.mgrid[0:n, 0:n]
        away = np.hypot(xx - c, yy - c)
        disc = away >= beyond * lv if beyond > 0.0 else away <= 12.0 * lv * self.cell / 30.0
        hue, sat, val = hsv[..., 0][disc] * 2.0, hsv[..., 1][disc] / 255.0, hsv[..., 2][disc]
        strong = (sat >= 0.45) & (val >= 40)
        near = np.zeros(len(hue), bool)
        for target in self._hues:
            near |= np.abs((hue - target + 180.0) % 360.0 - 180.0) <= 18.0
        return float((strong & near).mean())

    @property
    def _hues(self) -> list[float]:
        """The hues (degrees) of the players' colours, from the definitions."""
        if self.defs is None:
            return []
        out = []
        for look in (self.defs.board.red, self.defs.board.blue):
            r, g, b = (int(look.colour[i:i + 2], 16) for i in (1, 3, 5))
            pixel = np.uint8([[[b, g, r]]])
            out.append(float(cv2.cvtColor(pixel, cv2.COLOR_BGR2HSV)[0, 0, 0]) * 2.0)
        return out

    def _faces_turned(self) -> dict[str, list[np.ndarray]]:
        """Every satellite's printed face (grey, ``FACE_LEVEL`` px per mm) in every turn,
        by its marker's name (``R1``)."""
        if self._turned is None:
            from photo.art import faces

            names = {f"{m.colour[0].upper()}{m.value}": f"satellite-{m.colour}-{m.value}"
                     for m in self.tokens.values()}
            printed = faces("satellites", self.defs, sorted(names.values()), FACE_LEVEL)
            self._turned = {}
            for short, name in names.items():
                g = cv2.cvtColor(printed[name], cv2.COLOR_BGR2GRAY).astype(np.float32)
                n = g.shape[0]
                c = (n - 1) / 2.0
                self._turned[short] = [
                    cv2.warpAffine(g, cv2.getRotationMatrix2D((c, c), -t, 1.0), (n, n),
                                   flags=cv2.INTER_LINEAR, borderValue=255)
                    for t in range(0, 360, FACE_TURN)]
        return self._turned

    def _by_face(self, bgr: np.ndarray, h: TableCamera, cell: tuple[int, int],
                 entry: dict[str, Any], colours: dict[str, float]) -> Token | None:
        """A satellite whose marker could not be read, read from its printed face (its
        numeral, its marker's pattern, as a whole): every satellite's face in every turn
        is matched over the cell (a few mm off its middle allowed), in grey, inside its
        coloured rim (``FACE_INNER``); read when the best matches ``FACE_SCORE`` and
        ``FACE_MARGIN`` above every other satellite, the cell shows its colour
        (``OWN_COLOUR`` of its coloured pixels) and the marker searched in the cell
        (:meth:`_search`) reads best as its code of all the satellites' -- unless the cell
        lies under a lamp's reflection (``entry["glare"]``, found): there the marker is
        washed out and its best code says nothing. Otherwise None: the cell is reported."""
        if self.defs is None:
            return None
        turned = self._faces_turned()
        n = next(iter(turned.values()))[0].shape[0]
        margin = 4.0  # mm round the cell: a satellite a little off its middle
        lv = FACE_LEVEL
        x0, y0 = cell[1] * self.cell - margin, cell[0] * self.cell - margin
        size = int(round((self.cell + 2 * margin) * lv))
        if size <= n:
            return None
        m = np.array([[1 / lv, 0, x0 + 0.5 / lv], [0, 1 / lv, y0 + 0.5 / lv], [0, 0, 1]])
        warp = h.local(self._cell_centre(cell), self.cell) @ m
        patch = cv2.warpPerspective(bgr, warp, (size, size),
                                    flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                    borderMode=cv2.BORDER_REPLICATE)
        gray = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
        c = (n - 1) / 2.0
        yy, xx = np.mgrid[0:n, 0:n]
        disc = (np.hypot(xx - c, yy - c) <= FACE_INNER * lv).astype(np.uint8)
        scores: dict[str, float] = {}
        poses: dict[str, tuple[int, int, int]] = {}  # the best turn and place of each face
        for short, faces in turned.items():
            scores[short] = -2.0
            for k, t in enumerate(faces):
                r = cv2.matchTemplate(gray, t, cv2.TM_CCOEFF_NORMED, mask=disc)
                at = int(np.argmax(r))
                if float(r.flat[at]) > scores[short]:
                    scores[short] = float(r.flat[at])
                    poses[short] = (k, at % r.shape[1], at // r.shape[1])
        ranked = sorted(scores, key=lambda k: -scores[k])
        best, second = ranked[0], ranked[1]
        by_code = {f"{t.colour[0].upper()}{t.value}": entry["overall"][self.book.ids.index(i)]
                   for i, t in self.tokens.items()}
        marker_best = max(by_code, key=lambda k: by_code[k])
        token = next(t for t in self.tokens.values()
                     if f"{t.colour[0].upper()}{t.value}" == best)
        own = colours.get(token.colour, 0.0)
        washed = entry.get("glare", 0.0) >= GLARE_CELL
        entry.update(face=best, face_score=scores[best],
                     face_margin=scores[best] - scores[second], face_marker=marker_best,
                     face_colour=own)
        if scores[best] < FACE_SCORE or own < OWN_COLOUR or not (marker_best == best or
                                                                 washed):
            return None
        if scores[best] - scores[second] >= FACE_MARGIN:
            return Token(cell, token.colour, token.value, "face", None)
        # faces nearly as good: the best is read only if it is the nearer where the two
        # differ, against every one of them
        rivals = [k for k in ranked[1:] if scores[best] - scores[k] < FACE_MARGIN]
        duels = [(k, *self._duel(gray, disc.astype(bool), (best, poses[best]),
                                 (k, poses[k]))) for k in rivals]
        entry["face_duels"] = [(k, n, round(a, 3), round(b, 3)) for k, n, a, b in duels]
        if all(n >= DUEL_PIXELS and a >= DUEL[0] and a - b >= DUEL[1]
               for _, n, a, b in duels):
            return Token(cell, token.colour, token.value, "face", None)
        return None

    def _duel(self, gray: np.ndarray, disc: np.ndarray, a: tuple[str, tuple[int, int, int]],
              b: tuple[str, tuple[int, int, int]]) -> tuple[int, float, float]:
        """Two satellites' faces that match a cell (``gray``, :meth:`_by_face`'s patch)
        about as well, each at its best turn and place (``(name, (turn, x, y))``), compared
        only where they differ (a numeral's strokes, the pips, the marker's squares) by
        their light and shade relative to the surroundings (``DUEL_FLAT`` mm round: a lamp's
        reflection adds light that changes slowly across the face, and this takes it out):
        how many pixels differ, and the photo's correlation with each face there."""
        flat = self._faces_flat()
        n = disc.shape[0]
        fa, fb = flat[a[0]][a[1][0]], flat[b[0]][b[1][0]]
        photo = _flat(gray, DUEL_FLAT * FACE_LEVEL)
        (xa, ya), (xb, yb) = a[1][1:], b[1][1:]
        full = gray.shape
        one = np.full(full, np.nan, np.float32)
        two = np.full(full, np.nan, np.float32)
        one[ya:ya + n, xa:xa + n] = np.where(disc, fa, np.nan)
        two[yb:yb + n, xb:xb + n] = np.where(disc, fb, np.nan)
        differ = ~np.isnan(one) & ~np.isnan(two)
        differ[differ] = np.abs(one[differ] - two[differ]) >= DUEL_DIFF
        count = int(differ.sum())
        if count < 2:
            return count, 0.0, 0.0
        seen = photo[differ]

        def corr(face: np.ndarray) -> float:
            x, y = seen - seen.mean(), face[differ] - face[differ].mean()
            den = float(np.sqrt((x * x).sum() * (y * y).sum()))
            return float((x * y).sum()) / den if den > 0 else 0.0

        return count, corr(one), corr(two)

    def _faces_flat(self) -> dict[str, list[np.ndarray]]:
        """:meth:`_faces_turned`, each as light and shade relative to its surroundings
        (:func:`_flat`), for :meth:`_duel`."""
        if self._flat_turned is None:
            self._flat_turned = {short: [_flat(t, DUEL_FLAT * FACE_LEVEL) for t in faces]
                                 for short, faces in self._faces_turned().items()}
        return self._flat_turned

    def _colour_shares(self, bgr: np.ndarray, h: TableCamera, cell: tuple[int, int]
                       ) -> dict[str, float]:
        """Of the pixels of a cell that show a player's colour (strongly saturated, near
        its hue), the share of each colour (``red``, ``blue``); empty when none does."""
        if not self._hues:
            return {}
        lv = 2.0
        n = int(round(self.cell * lv))
        patch = cv2.warpPerspective(bgr, self._cell_warp(h, cell, lv), (n, n),
                                    flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                    borderMode=cv2.BORDER_REPLICATE)
        hsv = cv2.cvtColor(patch, cv2.COLOR_BGR2HSV).astype(np.float32).reshape(-1, 3)
        hue, sat, val = hsv[:, 0] * 2.0, hsv[:, 1] / 255.0, hsv[:, 2]
        strong = (sat >= 0.45) & (val >= 40)
        counts = [int((strong & (np.abs((hue - target + 180.0) % 360.0 - 180.0) <= 18.0)).sum())
                  for target in self._hues]
        total = sum(counts)
        if total == 0:
            return {}
        return {"red": counts[0] / total, "blue": counts[1] / total}

    def _search(self, gray: np.ndarray, h: TableCamera, cell: tuple[int, int],
                entry: dict[str, Any]) -> Token | None:
        """A satellite's marker in ``cell``, turned any way and a little off the middle (every
        3 mm and 10 degrees); each code's best score over the cell is kept in ``entry``
        (``overall``, as the codebook's ids) for :meth:`_by_face`."""
        first = next(iter(self.tokens.values()))
        size, ox, oy = first.size, first.x, first.y  # a marker off the centre turns with it
        cx, cy = self._cell_centre(cell)
        best: tuple[float, float, int, np.ndarray] | None = None
        ids = self.book.ids
        overall = np.full(len(ids), -1.0)  # each code's best score over every pose tried
        for dx in (-3.0, 0.0, 3.0):
            for dy in (-3.0, 0.0, 3.0):
                for turn in range(0, 360 if ox or oy else 90, 10):
                    a = math.radians(turn)
                    half = size / 2
                    mx = cx + dx + ox * math.cos(a) - oy * math.sin(a)
                    my = cy + dy + ox * math.sin(a) + oy * math.cos(a)
                    pts = np.array([(mx + u * math.cos(a) - v * math.sin(a),
                                     my + u * math.sin(a) + v * math.cos(a))
                                    for u, v in ((-half, -half), (half, -half), (half, half),
                                                 (-half, half))])
                    corners = h.project(pts)
                    _, scores = read_at(gray, corners, self.book, turn=None)
                    overall = np.maximum(overall, scores.max(axis=1))
                    n, k = np.unravel_index(int(np.argmax(scores)), scores.shape)
                    s = float(scores[n, k])
                    if best is None or s > best[0]:
                        rest = np.delete(scores, n, axis=0)
                        best = (s, s - float(rest.max()), ids[int(n)], corners)
        if best is None:
            return None
        score, margin, marker_id, corners = best
        entry.update(search=score, search_margin=margin, search_id=marker_id,
                     overall=[float(x) for x in overall])
        if marker_id in self.tokens and score >= STRONG[0] and margin >= STRONG[1]:
            m = self.tokens[marker_id]
            return Token(cell, m.colour, m.value, "marker in its cell", corners)
        return None


def draw(bgr: np.ndarray, reading: BoardReading) -> np.ndarray:
    """The debug image of a board reading (see :mod:`photo.debug`)."""
    from photo import debug

    img, k = debug.scaled(bgr)
    size = max(0.4, min(1.2, img.shape[1] / 2600.0))
    if reading.camera is None:
        debug.legend(img, [("board corners not found: nothing could be placed", debug.RED)],
                         size)
        return img
    cam = reading.camera.scaled(k)
    n, c = reading.size, reading.cell_mm
    along = np.linspace(0.0, n * c, 4 * n + 1)  # grid lines in pieces: the lens bends them
    for i in range(n + 1):
        for line in (np.column_stack([np.full_like(along, i * c), along]),
                     np.column_stack([along, np.full_like(along, i * c)])):
            pts = np.round(cam.project(line) * 16).astype(np.int32)
            cv2.polylines(img, [pts], False, debug.WHITE, 1, cv2.LINE_AA, shift=4)

    def square(cell: tuple[int, int], inset: float) -> np.ndarray:
        x, y = cell[1] * c, cell[0] * c  # (row, col) -> (x, y) mm
        return cam.project(np.array([(x + inset, y + inset), (x + c - inset, y + inset),
                                     (x + c - inset, y + c - inset), (x + inset, y + c - inset)]))

    scale = float(np.linalg.norm(square((0, 0), 0)[1] - square((0, 0), 0)[0])) / c
    text = max(0.3, min(1.0, scale * c / 120.0))
    width = max(1, int(round(scale * 0.8)))
    for cell, t in reading.tokens.items():
        colour = {"marker": debug.GREEN, "face": debug.PURPLE}.get(t.how, debug.TEAL)
        pts = square(cell, 1.5)
        debug._poly(img, pts, colour, width + 1)
        top, bottom = (pts[0] + pts[1]) / 2, (pts[2] + pts[3]) / 2
        m = pts.mean(0)
        # above and below the satellite, clear of its marker
        debug._text(img, t.text, tuple(m + 0.78 * (top - m)), text, debug.WHITE)
        debug._text(img, cell_name(cell), tuple(m + 0.78 * (bottom - m)), text * 0.8, colour)
    for cell in reading.unread:
        pts = square(cell, 1.5)
        debug._hatch(img, pts, debug.RED, max(4, int(scale * 3)))
        debug._poly(img, pts, debug.RED, width + 2)
        m = pts.mean(0)
        debug._text(img, "?", (m[0], m[1]), text * 2.2, debug.WHITE)
    for f in reading.findings:
        if f.cell is None:
            continue
        pts = square(f.cell, 4.0)
        debug._poly(img, pts, debug.ORANGE, width + 2)
    for cell in reading.glare:  # just inside the cell's edge, clear of the other outlines
        debug._poly(img, square(cell, 0.4), debug.YELLOW, width)
    lines = [(f"{sum(t.how == 'marker' for t in reading.tokens.values())} satellite(s) read "
              f"by their marker", debug.GREEN)]
    closer = sum(t.how in ("marker in its cell", "marker and face")
                 for t in reading.tokens.values())
    if closer:
        lines.append((f"{closer} read by a closer look in their cell", debug.TEAL))
    face = sum(t.how == "face" for t in reading.tokens.values())
    if face:
        lines.append((f"{face} read by their printed face (marker hazed)", debug.PURPLE))
    if reading.unread:
        lines.append((f"{len(reading.unread)} cell(s) with something not read (red ?)",
                      debug.RED))
    if reading.glare:
        lines.append((f"a lamp's reflection on {len(reading.glare)} cell(s) (yellow)",
                      debug.YELLOW))
    if any(f.cell is not None for f in reading.findings):
        lines.append(("other problems (orange)", debug.ORANGE))
    debug.legend(img, lines, size)
    return img


def markers_missing(mmap: MarkerMap) -> str | None:
    """Why no board can be read against ``mmap`` (printed without markers), or None: the
    reader needs the satellites' markers and the board's corners."""
    return printed_without(mmap, (("token", "satellites.yaml"), ("board", "board.yaml")),
                           "the game")


READER = SatellitesReader  # the game's photo adapter (photo.reader_for)
__all__ = ["READER", "SatellitesReader", "cell_name", "marker_map", "markers_missing"]
