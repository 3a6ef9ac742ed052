"""Synthetic photos of finished tables: the photo reader's test and benchmark data.

A table is laid out from the rendered components themselves (the same drawings that
print, rasterised by pdfium), in millimetres on the table plane, then photographed by a
random pinhole camera: tilted up to 35 degrees, turned any way, 2-8 px/mm at the table's
centre, Gaussian blur up to 1.5 px, sensor noise, uneven light and a colour cast, JPEG
quality 60-95, over a cluttered background, with a few cards partly covered by
"fingers", pens and coins. Everything is drawn from one seed, so a photo can be made
again.

The truth comes with each photo: every piece with what it is (cell, card, rotation;
token colour and value), how much of it and of its marker is covered, and the camera's
homography (table mm to image pixels).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from generator.markers.plan import MarkerMap
from photo import marker_map
from rules import hexgeo

# --- what lies on the table -----------------------------------------------------------


@dataclass(frozen=True)
class Piece:
    """A component lying on the table: its sprite, its centre (mm) and turn (degrees
    clockwise), and what a correct reading says about it."""

    sprite: str
    x: float
    y: float
    rotate: float
    kind: str  # "sector", "station", "token", "board", "other"
    cell: tuple[int, int] | None = None  # sectors: axial [q, r]; tokens: (row, col)
    name: str = ""  # card ID, or token such as "R3"
    rot: int = 0  # sectors: where the orientation marker points, 0-5


@dataclass
class Seen:
    """One piece as photographed: the share of it (and of its marker) that is covered or
    outside the photo (0: fully visible)."""

    piece: Piece
    covered: float
    marker_covered: float


@dataclass
class Shot:
    """A synthetic photo with its truth."""

    jpeg: bytes
    width: int
    height: int
    seen: list[Seen]
    homography: np.ndarray  # table mm -> image px
    camera: dict[str, float]
    layout: dict[str, Any] = field(default_factory=dict)  # the source layout / board
    beyond: set[tuple[int, int]] = field(default_factory=set)  # pieces mostly outside it

    def visible(self, kind: str) -> list[Seen]:
        return [s for s in self.seen if s.piece.kind == kind and s.covered == 0.0]


def orbitus_pieces(layout: dict[str, Any], defs: Any, rng: random.Random,
                   jitter: float = 0.8, turn: float = 1.5) -> list[Piece]:
    """The station, its start-line and barrier markers, and every deck card of ``layout``
    (the layout file's mapping), each a little off its ideal place, as hands lay them."""
    flats = defs.sectors.hex_across_flats_mm
    pieces = [Piece("station", 0.0, 0.0, 0.0, "station", (0, 0), "station")]
    players = layout.get("players", [])
    start_lines = layout.get("start_lines")
    if start_lines is None:
        setup = defs.ruleset.setup_for(len(players))
        start_lines = {players[i]: [hexgeo.SIDES[s] for s in sides]
                       for i, sides in enumerate(setup.start_lines)}
    used: set[int] = set()
    depth = 8.0 * flats / 50.0
    for seat, name in enumerate(players):
        sides = start_lines.get(name, [])
        for side in [sides] if isinstance(sides, str) else sides:
            s = hexgeo.side_index(side)
            used.add(s)
            pieces.append(_side_piece(f"start-marker-P{seat + 1}", s, flats, depth))
    for s in range(6):
        if s not in used and rng.random() < 0.5:  # barriers: some tables use them
            pieces.append(_side_piece("barrier-marker", s, flats, depth))
    for entry in layout["sectors"]:
        q, r = entry["at"]
        rot = entry.get("rot", 0)
        rot = hexgeo.side_index(rot) if isinstance(rot, str) else int(rot)
        x, y = hexgeo.centre((q, r), flats)
        pieces.append(Piece(f"sector-{entry['card']}", x + rng.uniform(-jitter, jitter),
                            y + rng.uniform(-jitter, jitter),
                            60.0 * rot + rng.uniform(-turn, turn), "sector", (q, r),
                            entry["card"], rot))
    return pieces


def _side_piece(sprite: str, side: int, flats: float, depth: float) -> Piece:
    """A start-line or barrier marker lying inside the station along ``side``."""
    mx, my = hexgeo.side_midpoint((0.0, 0.0), flats, side)
    k = (flats / 2.0 - depth / 2.0 - 0.4) / (flats / 2.0)
    return Piece(sprite, mx * k, my * k, 60.0 * side, "other")


def satellites_pieces(grid: list[list[str]], defs: Any, rng: random.Random,
                      jitter: float = 2.5) -> list[Piece]:
    """The board (its drawing's top-left corner at the table's origin) and a token on every
    cell of ``grid`` (rows of '.', 'R3', 'B1' ...), each a little off-centre, turned any
    way."""
    from generator.components.board_geometry import board_geometry

    geo = board_geometry(defs)
    pieces = [Piece("board", geo.width / 2.0, geo.height / 2.0, 0.0, "board")]
    for row, line in enumerate(grid):
        for col, token in enumerate(line):
            if token == ".":
                continue
            colour = "red" if token[0].upper() == "R" else "blue"
            value = int(token[1:])
            cx, cy = geo.cell_centre(row, col)
            pieces.append(Piece(f"satellite-{colour}-{value}", cx + rng.uniform(-jitter, jitter),
                                cy + rng.uniform(-jitter, jitter), rng.uniform(0.0, 360.0),
                                "token", (row, col), f"{colour[0].upper()}{value}"))
    return pieces


# --- the components as images -----------------------------------------------------------


@dataclass
class Sprite:
    rgba: np.ndarray  # h x w x 4, uint8
    level: float  # px per mm


class Sprites:
    """Every component of a game rasterised at a few resolutions (px/mm), made on first
    use and kept: the closest level at or above what a photo needs is used."""

    LEVELS = (3.0, 6.0, 12.0)

    def __init__(self, game: str, defs: Any) -> None:
        self.game = game
        self.defs = defs
        self.map: MarkerMap = marker_map(game, defs)
        self._cache: dict[float, dict[str, Sprite]] = {}

    def level_for(self, scale: float) -> float:
        for level in self.LEVELS:
            if level >= scale * 1.15:
                return level
        return self.LEVELS[-1]

    def at(self, level: float) -> dict[str, Sprite]:
        if level not in self._cache:
            self._cache[level] = self._render(level)
        return self._cache[level]

    def _render(self, level: float) -> dict[str, Sprite]:
        from photo.art import render

        return {name: Sprite(canvas, level)
                for name, canvas in render(self.game, self.defs, level).items()}


# --- the camera ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Camera:
    scale: float  # px per mm at the table's centre
    tilt: float  # degrees off looking straight down
    azimuth: float  # direction of the tilt, degrees
    roll: float  # in-plane turn, degrees
    blur: float  # Gaussian sigma, px
    noise: float  # sensor noise sigma, of 255
    quality: int  # JPEG
    light: float  # strength of the uneven light, 0-1
    margin: float  # background round the table, share of the photo's size

    def as_dict(self) -> dict[str, float]:
        return {k: float(getattr(self, k)) for k in self.__dataclass_fields__}


def random_camera(rng: random.Random, scale: tuple[float, float] = (2.0, 8.0),
                  max_tilt: float = 35.0, max_blur: float = 1.5) -> Camera:
    return Camera(scale=rng.uniform(*scale), tilt=rng.uniform(0.0, max_tilt),
                  azimuth=rng.uniform(0.0, 360.0), roll=rng.uniform(0.0, 360.0),
                  blur=rng.uniform(0.0, max_blur), noise=rng.uniform(1.0, 6.0),
                  quality=rng.randint(60, 95), light=rng.uniform(0.0, 0.6),
                  margin=rng.uniform(0.04, 0.2))


def _rot(axis: str, deg: float) -> np.ndarray:
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    if axis == "x":
        return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    if axis == "y":
        return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def camera_homography(cam: Camera, centre: tuple[float, float], focal: float) -> np.ndarray:
    """Table mm -> image px (principal point at 0, 0) of a pinhole camera ``focal`` px that
    looks at ``centre`` from ``focal / scale`` mm away, tilted and rolled as ``cam`` says.

    Table frame: x east, y south, z into the table; the camera looks along its own +z."""
    distance = focal / cam.scale
    # the camera's axes in the table frame: tilt about a horizontal axis, then roll
    r = _rot("z", cam.azimuth) @ _rot("x", cam.tilt) @ _rot("z", -cam.azimuth) @ _rot("z",
                                                                                    cam.roll)
    view = r @ np.array([0.0, 0.0, 1.0])
    c = np.array([centre[0], centre[1], 0.0]) - distance * view
    rt = r.T
    t = -rt @ c
    k = np.diag([focal, focal, 1.0])
    h = k @ np.column_stack([rt[:, 0], rt[:, 1], t])
    return h / h[2, 2]


def _project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.column_stack([pts, np.ones(len(pts))]) @ h.T
    return p[:, :2] / p[:, 2:3]


# --- the photo -------------------------------------------------------------------------------


def _piece_matrix(piece: Piece, sprite: Sprite) -> np.ndarray:
    """Sprite px -> table mm."""
    h, w = sprite.rgba.shape[:2]
    k = 1.0 / sprite.level
    # sprite px (centres at integers) -> mm relative to the sprite's centre
    s = np.array([[k, 0, 0.5 * k - w * k / 2.0], [0, k, 0.5 * k - h * k / 2.0], [0, 0, 1]])
    a = math.radians(piece.rotate)
    rot = np.array([[math.cos(a), -math.sin(a), piece.x], [math.sin(a), math.cos(a), piece.y],
                    [0, 0, 1]])
    return rot @ s


def _piece_outline(piece: Piece, sprite: Sprite) -> np.ndarray:
    h, w = sprite.rgba.shape[:2]
    m = _piece_matrix(piece, sprite)
    return _project(m, np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5],
                                 [-0.5, h - 0.5]]))


def _background(rng: random.Random, width: int, height: int) -> np.ndarray:
    """A cluttered table top: a base colour with a soft texture, then papers, pens, coins,
    scribbles and printed letters in random colours."""
    nrng = np.random.default_rng(rng.randrange(2**32))
    base = np.array([rng.randint(20, 235) for _ in range(3)], np.float32)
    cell = rng.choice((16, 48, 128))
    small = nrng.normal(0.0, 1.0, (max(2, height // cell), max(2, width // cell), 1))
    tint = np.array([rng.uniform(0.7, 1.0) for _ in range(3)], np.float32)
    texture = cv2.resize(small.astype(np.float32), (width, height),
                         interpolation=cv2.INTER_CUBIC)[..., None] * tint
    img = np.clip(base + texture * rng.uniform(4.0, 22.0), 0, 255).astype(np.uint8)
    if rng.random() < 0.5:  # wood-like grain
        grain = (np.sin(np.linspace(0, rng.uniform(20, 90), width))[None, :] * 12).astype(
            np.float32)
        img = np.clip(img.astype(np.float32) + grain[..., None], 0, 255).astype(np.uint8)
    size = max(width, height)
    for _ in range(rng.randint(8, 30)):
        colour = tuple(int(v) for v in (rng.randint(0, 255), rng.randint(0, 255),
                                        rng.randint(0, 255)))
        x, y = rng.randrange(width), rng.randrange(height)
        kind = rng.random()
        if kind < 0.3:
            w, h = rng.uniform(0.03, 0.25) * size, rng.uniform(0.03, 0.25) * size
            box = cv2.boxPoints(((x, y), (w, h), rng.uniform(0, 180))).astype(np.int32)
            cv2.fillPoly(img, [box], colour, cv2.LINE_AA)
        elif kind < 0.5:
            cv2.circle(img, (x, y), int(rng.uniform(0.01, 0.08) * size), colour, -1,
                       cv2.LINE_AA)
        elif kind < 0.75:
            pts = np.array([[x + rng.uniform(-0.2, 0.2) * size, y + rng.uniform(-0.2, 0.2) * size]
                            for _ in range(rng.randint(2, 6))], np.int32)
            cv2.polylines(img, [pts], False, colour, max(1, int(rng.uniform(0.002, 0.01) * size)),
                          cv2.LINE_AA)
        else:
            text = "".join(rng.choice("ABCDEFGHKMNPRSTXYZ0123456789 ") for _ in range(8))
            cv2.putText(img, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, size / 900.0, colour,
                        max(1, int(size / 400)), cv2.LINE_AA)
    return img


def _occluder(rng: random.Random, piece: Piece, reach: float) -> tuple[np.ndarray, tuple[int, ...]]:
    """A finger, a pen or a coin (table mm polygon and colour) over part of ``piece``."""
    kind = rng.random()
    ang = rng.uniform(0, 2 * math.pi)
    off = rng.uniform(0.35, 0.95) * reach
    cx, cy = piece.x + off * math.cos(ang), piece.y + off * math.sin(ang)
    if kind < 0.45:  # a finger: a long rounded shape coming in from outside
        length, width = rng.uniform(1.2, 2.5) * reach, rng.uniform(0.3, 0.45) * reach
        colour = (rng.randint(150, 230), rng.randint(110, 180), rng.randint(80, 150))
    elif kind < 0.75:  # a pen
        length, width = rng.uniform(2.5, 4.0) * reach, rng.uniform(0.12, 0.2) * reach
        colour = (rng.randint(0, 255), rng.randint(0, 255), rng.randint(0, 255))
    else:  # a coin
        length = width = rng.uniform(0.45, 0.8) * reach
        colour = (rng.randint(120, 200),) * 3
    theta = rng.uniform(0, 2 * math.pi)
    t = np.linspace(0, 2 * math.pi, 40, endpoint=False)
    # a stadium: an ellipse-ish outline, long axis along theta, placed to reach over cx, cy
    ex, ey = length / 2 * np.cos(t), width / 2 * np.sin(t)
    ex = np.sign(ex) * np.minimum(np.abs(ex) + width / 2, length / 2) if length > width else ex
    px = cx + ex * math.cos(theta) - ey * math.sin(theta) + math.cos(theta) * length * 0.3
    py = cy + ex * math.sin(theta) + ey * math.cos(theta) + math.sin(theta) * length * 0.3
    return np.column_stack([px, py]), colour


MAX_PIXELS = 48e6  # a 48-megapixel phone: larger tables at 8 px/mm are taken at less


def photograph(pieces: list[Piece], sprites: Sprites, cam: Camera, rng: random.Random,
               covers: int = 0, size: tuple[int, int] | None = None,
               focal_share: float = 0.9) -> Shot:
    """The JPEG photo of ``pieces`` through ``cam``, ``covers`` of the sectors or tokens
    partly covered; ``size`` fixes the photo's pixels (the scale is then chosen so the
    table fills it, ``cam.scale`` ignored). A photo that would have more than
    ``MAX_PIXELS`` is taken at the scale that gives that many (no phone has more)."""
    from dataclasses import replace

    level = sprites.level_for(cam.scale * 1.3)
    sheet = sprites.at(level)
    outlines = [(_piece_outline(p, sheet[p.sprite])) for p in pieces]
    allpts = np.concatenate(outlines)
    centre = tuple((allpts.min(0) + allpts.max(0)) / 2.0)
    if size is None:
        trial = camera_homography(replace(cam, scale=1.0), centre,
                                  focal_share * float(np.ptp(allpts, axis=0).max()) * 1.4)
        span = np.ptp(_project(trial, allpts), axis=0) / (1 - 2 * cam.margin)
        pixels = float(span[0] * span[1]) * cam.scale ** 2
        if pixels > MAX_PIXELS:
            cam = replace(cam, scale=cam.scale * math.sqrt(MAX_PIXELS / pixels))
    else:
        # a first guess at the scale, refined once so the table fills the photo
        cam = _fit_scale(cam, allpts, centre, size)
    level = sprites.level_for(cam.scale * 1.3)
    sheet = sprites.at(level)
    extent = float(np.ptp(allpts, axis=0).max())
    focal = focal_share * extent * cam.scale * 1.4
    h = camera_homography(cam, centre, focal)
    img_pts = _project(h, allpts)
    lo, hi = img_pts.min(0), img_pts.max(0)
    span = hi - lo
    if size is None:
        width = int(math.ceil(span[0] / (1 - 2 * cam.margin)))
        height = int(math.ceil(span[1] / (1 - 2 * cam.margin)))
    else:
        width, height = size
    shift = np.array([[1, 0, (width - span[0]) / 2 - lo[0]], [0, 1, (height - span[1]) / 2 - lo[1]],
                      [0, 0, 1]])
    h = shift @ h
    img = _background(rng, width, height)
    covered = np.zeros((height, width), np.uint8)
    masks: list[tuple[np.ndarray, tuple[int, int, int, int]]] = []
    marker_masks: list[tuple[np.ndarray, tuple[int, int, int, int]] | None] = []
    for piece in pieces:
        sprite = sheet[piece.sprite]
        m = h @ _piece_matrix(piece, sprite)
        mask, box = _paste(img, sprite.rgba, m)
        masks.append((mask, box))
        marker_masks.append(_marker_mask(piece, sprites.map, h, width, height))
    candidates = [i for i, p in enumerate(pieces) if p.kind in ("sector", "token")]
    reach = (sprites.map.hex_across_flats_mm / 2.0 if sprites.game == "orbitus"
             else sprites.map.token_mm / 2.0)
    keep_clear = [_project(h, np.array(m)) for m in _kept_clear(pieces, sprites.map)]
    for i in rng.sample(candidates, min(covers, len(candidates))):
        for _ in range(20):  # the station and the board's corners stay in sight
            poly, colour = _occluder(rng, pieces[i], reach)
            img_poly = _project(h, poly)
            if not any(_overlap(img_poly, k) for k in keep_clear):
                break
        else:
            continue
        pts = _project(h, poly).astype(np.float32)
        cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], colour, cv2.LINE_AA, shift=4)
        cv2.fillPoly(covered, [np.round(pts * 16).astype(np.int32)], 255, cv2.LINE_8, shift=4)
    seen: list[Seen] = []
    for piece, (mask, box), mmask in zip(pieces, masks, marker_masks, strict=True):
        seen.append(Seen(piece, _share(mask, box, covered, width, height),
                         _share(mmask[0], mmask[1], covered, width, height) if mmask else 0.0))
    img = _camera_effects(img, cam, rng)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(cam.quality)])
    assert ok
    return Shot(buf.tobytes(), width, height, seen, h, cam.as_dict())


def _kept_clear(pieces: list[Piece], mmap: MarkerMap) -> list[list[tuple[float, float]]]:
    """Table polygons no occluder may cover: the station's marker with its surroundings,
    the board's corner markers (what a player keeps in sight when photographing)."""
    out = []
    for p in pieces:
        if p.kind == "station":
            out.append([(p.x + x, p.y + y) for x, y in hexgeo.corners((0, 0), 50.0 * 0.6)])
        elif p.kind == "board":  # its drawing's top-left corner is the table's origin
            for m in mmap.of_kind("board"):
                x0 = y0 = mmap.margin_mm
                h = m.size
                out.append([(x0 + m.x - h, y0 + m.y - h), (x0 + m.x + h, y0 + m.y - h),
                            (x0 + m.x + h, y0 + m.y + h), (x0 + m.x - h, y0 + m.y + h)])
    return out


def _overlap(a: np.ndarray, b: np.ndarray) -> bool:
    pa, pb = np.asarray(a, np.float32), np.asarray(b, np.float32)
    inter, _ = cv2.intersectConvexConvex(cv2.convexHull(pa), cv2.convexHull(pb))
    return bool(inter > 0)


def _fit_scale(cam: Camera, pts: np.ndarray, centre: tuple[float, float],
               size: tuple[int, int]) -> Camera:
    from dataclasses import replace

    trial = replace(cam, scale=1.0)
    extent = float(np.ptp(pts, axis=0).max())
    h = camera_homography(trial, centre, 0.9 * extent * 1.4)
    span = np.ptp(_project(h, pts), axis=0)
    k = min(size[0] * (1 - 2 * cam.margin) / span[0], size[1] * (1 - 2 * cam.margin) / span[1])
    return replace(cam, scale=k)


def _paste(img: np.ndarray, rgba: np.ndarray,
           m: np.ndarray) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """Warp ``rgba`` into ``img`` by ``m`` (sprite px -> image px), alpha-blended; returns the
    piece's coverage mask in its box (x0, y0, x1, y1)."""
    hs, ws = rgba.shape[:2]
    corners = _project(m, np.array([[-0.5, -0.5], [ws - 0.5, -0.5], [ws - 0.5, hs - 0.5],
                                    [-0.5, hs - 0.5]]))
    x0, y0 = np.floor(corners.min(0)).astype(int) - 1
    x1, y1 = np.ceil(corners.max(0)).astype(int) + 2
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, img.shape[1]), min(y1, img.shape[0])
    if x1 <= x0 or y1 <= y0:
        return np.zeros((0, 0), np.uint8), (0, 0, 0, 0)
    local = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]]) @ m
    warped = cv2.warpPerspective(rgba, local, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    alpha = warped[..., 3:4].astype(np.float32) / 255.0
    region = img[y0:y1, x0:x1].astype(np.float32)
    rgb = warped[..., 2::-1].astype(np.float32)  # RGBA -> BGR, as OpenCV keeps images
    img[y0:y1, x0:x1] = np.clip(region * (1 - alpha) + rgb * alpha + 0.5, 0, 255).astype(np.uint8)
    return (warped[..., 3] > 127).astype(np.uint8), (x0, y0, x1, y1)


def _marker_mask(piece: Piece, mmap: MarkerMap, h: np.ndarray, width: int,
                 height: int) -> tuple[np.ndarray, tuple[int, int, int, int]] | None:
    """Where the piece's marker lies in the photo (its black square)."""
    marker = None
    for m in mmap.markers:
        if (piece.kind == "sector" and m.kind == "sector" and m.name == piece.name) or \
           (piece.kind == "token" and m.kind == "token" and m.name == piece.name) or \
           (piece.kind == "station" and m.kind == "station"):
            marker = m
            break
    if marker is None:
        return None
    a = math.radians(piece.rotate)
    pts = np.array([(piece.x + x * math.cos(a) - y * math.sin(a),
                     piece.y + x * math.sin(a) + y * math.cos(a)) for x, y in marker.corners()])
    img_pts = _project(h, pts)
    x0, y0 = np.floor(img_pts.min(0)).astype(int)
    x1, y1 = np.ceil(img_pts.max(0)).astype(int) + 1
    mask = np.zeros((max(1, y1 - y0), max(1, x1 - x0)), np.uint8)
    cv2.fillPoly(mask, [np.round((img_pts - [x0, y0]) * 16).astype(np.int32)], 1, cv2.LINE_8,
                 shift=4)
    return mask, (x0, y0, x1, y1)


def _share(mask: np.ndarray, box: tuple[int, int, int, int], covered: np.ndarray, width: int,
           height: int) -> float:
    """The share of ``mask`` that is covered or outside the photo."""
    x0, y0, x1, y1 = box
    total = int(mask.sum())
    if total == 0:
        return 1.0
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    if cx1 <= cx0 or cy1 <= cy0:
        return 1.0
    inside = mask[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
    free = int((inside * (covered[cy0:cy1, cx0:cx1] == 0)).sum())
    return round(1.0 - free / total, 4)


def _camera_effects(img: np.ndarray, cam: Camera, rng: random.Random) -> np.ndarray:
    """Uneven light and a colour cast, blur, then sensor noise (in place where it can)."""
    height, width = img.shape[:2]
    nrng = np.random.default_rng(rng.randrange(2**32))
    # light: a gradient across the photo and a soft falloff from a random bright spot
    yy, xx = np.mgrid[0:height:16, 0:width:16].astype(np.float32)
    ang = rng.uniform(0, 2 * math.pi)
    grad = (xx * math.cos(ang) + yy * math.sin(ang)) / max(width, height)
    grad -= grad.mean()
    sx, sy = rng.uniform(0, width), rng.uniform(0, height)
    spot = np.exp(-((xx - sx) ** 2 + (yy - sy) ** 2) / (2 * (0.5 * max(width, height)) ** 2))
    light = 1.0 + cam.light * (grad * 1.2 + (spot - spot.mean()) * 0.8)
    light = cv2.resize(light.astype(np.float32), (width, height), interpolation=cv2.INTER_LINEAR)
    cast = np.array([rng.uniform(0.85, 1.1), rng.uniform(0.9, 1.05), rng.uniform(0.85, 1.15)],
                    np.float32) * rng.uniform(0.8, 1.1)
    out = img.astype(np.float32)
    out *= light[..., None]
    out *= cast
    if cam.blur > 0.05:
        out = cv2.GaussianBlur(out, (0, 0), cam.blur)
    out += nrng.normal(0.0, cam.noise, out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


# --- whole photos of real layouts --------------------------------------------------------------


def orbitus_shot(layout: dict[str, Any], defs: Any, sprites: Sprites, seed: int,
                 covers: int | None = None, size: tuple[int, int] | None = None,
                 camera: Camera | None = None) -> Shot:
    rng = random.Random(seed)
    pieces = orbitus_pieces(layout, defs, rng)
    cam = camera or random_camera(rng)
    n = covers if covers is not None else rng.choice((0, 0, 1, 2, 3))
    shot = photograph(pieces, sprites, cam, rng, n, size)
    shot.layout = layout
    return shot


def satellites_shot(grid: list[list[str]], defs: Any, sprites: Sprites, seed: int,
                    covers: int | None = None, size: tuple[int, int] | None = None,
                    camera: Camera | None = None) -> Shot:
    rng = random.Random(seed)
    pieces = satellites_pieces(grid, defs, rng)
    cam = camera or random_camera(rng)
    n = covers if covers is not None else rng.choice((0, 0, 1, 2, 3))
    shot = photograph(pieces, sprites, cam, rng, n, size)
    shot.layout = {"board": grid}
    return shot


# --- the tables photographed: golden tables and random legal ones --------------------------


def orbitus_layouts(defs: Any, count: int, seed: int,
                    golden: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """``count`` layouts: the golden tables first (if given), then random legal tables of
    20-72 sectors of the deck, 2-6 players, grown from ``seed`` on."""
    from testkit.grow import grow_table

    out = list(golden or [])[:count]
    rng = random.Random(seed)
    cards = defs.ruleset.cards
    while len(out) < count:
        players = rng.randint(2, 6)
        size = rng.randint(20, 72)
        layout = grow_table(rng.randrange(2**31), size, players,
                            setup=defs.ruleset.setup_for(players), deck=cards)
        if len(layout["sectors"]) >= 20:
            out.append(layout)
    return out



def satellites_grids(defs: Any, count: int, seed: int) -> list[list[list[str]]]:
    """``count`` boards from games: a random deal played on by random legal moves for a
    random number of moves (the deal itself, the middle of a game, a finished game)."""
    from rules.satellites.engine import apply, deal, is_over
    from rules.satellites.legal import random_action

    rng = random.Random(seed)
    out = []
    for _ in range(count):
        state = deal(defs.ruleset, rng.randrange(2**31))
        play = random.Random(rng.randrange(2**31))
        for _ in range(rng.choice((0, 10, 40, 80, 200))):
            if is_over(state):
                break
            state = apply(state, random_action(state, play))
        n = state.table.size
        cells = state.cells  # + value red, - value blue, 0 empty; row by row
        out.append([["." if v == 0 else f"{'R' if v > 0 else 'B'}{abs(v)}"
                     for v in cells[r * n:(r + 1) * n]] for r in range(n)])
    return out
