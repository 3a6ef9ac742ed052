"""A physically rendered photo of a finished table, described: what Blender is asked to draw.

The pieces of a table (:func:`testkit.photo_synth.orbitus_pieces`,
:func:`testkit.photo_synth.satellites_pieces`: the same laying-out as the 2-D synthesiser, a
little off their cells as hands lay them)
become meshes here, in the table's frame (millimetres, x east, y south, z up off the table):

- every Orbitus sector is its hex cut line, triangulated finely, printed with the kit's own
  PNG (``pnp build --png``) and bent as card stock bends: flat, bowed (its edges lifted),
  domed (its middle lifted) or with one side lifted, the paper's length kept;
- the station, the start-line and barrier markers lie on the table flat;
- a Satellites board lies flat, each satellite a 2 mm thick disc on it;
- the table is wood or cloth (procedural, drawn by Blender), lit by the room (the world) and
  one or two lamps, one of them often placed where its reflection falls on a card;
- in a third of the photos a cup stands on the table, or a hand reaches over a few pieces;
- the camera is a phone's: a 4.2-4.7 mm lens on a 6.4 mm wide sensor (4:3), tilted 0-40
  degrees, any turn, at a distance that gives 1.6-4.5 px/mm on the table.

Every sampled point of a piece (its mesh's vertices, and a grid over its marker) is also
listed, so Blender can say by ray casting which of them the camera sees; the lens effects
(radial distortion, chromatic aberration, vignetting, noise, the phone's processing and
JPEG) are applied afterwards to the render (:mod:`testkit.render.lens`).

Everything is drawn from one seed: the same seed gives the same scene.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from rules import hexgeo

CARD_MM = 0.35  # card stock: how far a sector's face is above the table
TOKEN_MM = 2.0  # a satellite's thickness
BOARD_MM = 0.5
SENSOR_MM = 6.4  # a phone's main camera: 1/2.5" class sensor, 4:3
ASPECT = 0.75


@dataclass
class Mesh:
    """One piece as Blender draws it: vertices (table mm, z up), triangles, a texture
    coordinate per vertex, and the points whose visibility is asked for."""

    name: str  # unique in the scene
    kind: str  # "sector", "station", "token", "board", "other"
    texture: str  # the PNG's file name in the kit folder
    verts: list[list[float]]
    faces: list[list[int]]
    uvs: list[list[float]]
    thickness: float
    cut: bool = False  # alpha of the texture cuts the shape (markers, the board)
    samples: list[list[float]] = field(default_factory=list)  # its surface, table mm
    marker: list[list[float]] = field(default_factory=list)  # its marker's square
    cell: list[int] | None = None
    card: str = ""  # card ID, token name
    rot: int = 0
    curl: dict[str, float | str] = field(default_factory=dict)


@dataclass
class Lamp:
    position: list[float]  # table mm, z up
    radius: float  # mm (a disc facing down)
    power: float  # W
    colour: list[float]
    aimed_at: str = ""  # the piece whose face is meant to reflect it ("" : none)
    length: float = 0.0  # mm: a tube (its reflection a streak) rather than a disc
    turn: float = 0.0  # degrees: a tube's direction


@dataclass
class Occluder:
    kind: str  # "cup" or "hand"
    x: float
    y: float
    angle: float  # degrees: a hand's arm comes from this direction; a cup's handle
    height: float  # mm: a hand's palm above the table; a cup's height
    size: float  # mm: a cup's radius; a hand's length, wrist to fingertip
    colour: list[float]
    over: list[str] = field(default_factory=list)  # the pieces it was placed over


@dataclass
class CameraSpec:
    """A pinhole phone camera (the lens's distortion is applied afterwards)."""

    position: list[float]  # table mm, z up
    right: list[float]  # the image's x axis, table frame
    down: list[float]  # the image's y axis
    forward: list[float]  # the viewing direction
    focal_mm: float
    width: int  # the photo, px
    height: int
    overscan: float  # the render is this much larger each way (distortion pulls in its edges)
    tilt: float
    roll: float
    azimuth: float

    @property
    def fpx(self) -> float:
        return self.focal_mm / SENSOR_MM * self.width

    def render_size(self) -> tuple[int, int]:
        k = 1.0 + self.overscan
        return int(round(self.width * k / 2)) * 2, int(round(self.height * k / 2)) * 2

    def to_camera(self, pts: np.ndarray) -> np.ndarray:
        """Table mm -> normalised image coordinates (x right, y down, undistorted) and depth."""
        rel = np.asarray(pts, np.float64).reshape(-1, 3) - np.array(self.position)
        z = rel @ np.array(self.forward)
        x = rel @ np.array(self.right) / z
        y = rel @ np.array(self.down) / z
        return np.column_stack([x, y, z])


@dataclass
class LensSpec:
    """What the phone's optics and processing do to the picture (:mod:`testkit.render.lens`)."""

    k1: float  # radial distortion on normalised coordinates (negative: barrel)
    k2: float
    ca: float  # lateral chromatic aberration: red magnified 1 + ca, blue 1 - ca
    vignette: float  # light lost at the corners, share
    blur: float  # px, the lens's softness
    shot_noise: float  # variance per unit signal (linear, white = 1)
    read_noise: float  # sigma, linear
    denoise: float  # the phone's noise reduction, strength
    sharpen: float  # and its sharpening
    quality: int  # JPEG
    exposure: float  # stops relative to the auto exposure


@dataclass
class Table:
    kind: str  # "wood", "cloth" or "check"
    colour: list[float]
    colour2: list[float]
    scale: float  # pattern size, mm
    roughness: float
    seed: int


@dataclass
class Scene:
    game: str
    seed: int
    meshes: list[Mesh]
    camera: CameraSpec
    lens: LensSpec
    table: Table
    lamps: list[Lamp]
    world: list[float]  # the room's light: colour, strength in [3]
    occluders: list[Occluder]
    paper: dict[str, float]  # the cards' finish: roughness, clearcoat ...
    samples: int
    layout: dict[str, Any]
    conditions: dict[str, Any]
    kit: str = ""  # the folder of the kit's PNGs

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"), sort_keys=True)

    def summary(self) -> dict[str, Any]:
        """The scene without its meshes: what a benchmark line says about a photo."""
        doc = asdict(self)
        doc.pop("meshes")
        doc.pop("layout")
        return doc


# --- the pieces' shapes ---------------------------------------------------------------------


def hex_lattice(flats: float, n: int) -> tuple[np.ndarray, list[list[int]]]:
    """A flat-top hex (the cut line, ``flats`` across) in ``6 n^2`` triangles: its vertices
    (component frame, mm, y down) and triangles."""
    corners = np.array(hexgeo.corners((0.0, 0.0), flats))
    index: dict[tuple[int, int], int] = {}
    verts: list[tuple[float, float]] = []
    faces: list[list[int]] = []

    def vid(p: np.ndarray) -> int:
        key = (int(round(p[0] * 1000)), int(round(p[1] * 1000)))
        if key not in index:
            index[key] = len(verts)
            verts.append((float(p[0]), float(p[1])))
        return index[key]

    for k in range(6):
        a, b = corners[k], corners[(k + 1) % 6]
        grid = {}
        for i in range(n + 1):
            for j in range(i + 1):
                grid[i, j] = vid(a * (i - j) / n + b * j / n)
        for i in range(n):
            for j in range(i + 1):
                faces.append([grid[i, j], grid[i + 1, j], grid[i + 1, j + 1]])
                if j < i:
                    faces.append([grid[i, j], grid[i + 1, j + 1], grid[i, j + 1]])
    return np.array(verts), faces


def disc_lattice(radius: float, rings: int, segments: int) -> tuple[np.ndarray, list[list[int]]]:
    verts = [(0.0, 0.0)]
    for i in range(1, rings + 1):
        r = radius * i / rings
        turns = [2 * math.pi * s / segments for s in range(segments)]
        verts += [(r * math.cos(t), r * math.sin(t)) for t in turns]
    faces: list[list[int]] = []
    for s in range(segments):
        faces.append([0, 1 + s, 1 + (s + 1) % segments])
    for i in range(1, rings):
        a0, b0 = 1 + (i - 1) * segments, 1 + i * segments
        for s in range(segments):
            t = (s + 1) % segments
            faces.append([a0 + s, b0 + s, b0 + t])
            faces.append([a0 + s, b0 + t, a0 + t])
    return np.array(verts), faces


def rect_lattice(width: float, height: float, nx: int, ny: int) -> tuple[np.ndarray,
                                                                           list[list[int]]]:
    xs = np.linspace(-width / 2, width / 2, nx + 1)
    ys = np.linspace(-height / 2, height / 2, ny + 1)
    verts = [(float(x), float(y)) for y in ys for x in xs]
    faces: list[list[int]] = []
    for j in range(ny):
        for i in range(nx):
            a = j * (nx + 1) + i
            faces += [[a, a + 1, a + nx + 2], [a, a + nx + 2, a + nx + 1]]
    return np.array(verts), faces


def bend(local: np.ndarray, curl: dict[str, Any]) -> np.ndarray:
    """Component-frame points (mm) of a card bent as ``curl`` says, the paper's length kept:
    ``bow`` lifts both edges across ``angle`` by ``lift`` mm (it rests on its middle),
    ``dome`` lifts its middle (it rests on two edges), ``edge`` lifts the part beyond
    ``start`` mm from the centre; ``reach``: the card's half width (mm) the lift is reached
    at. Returns x, y, z (z up, 0 on the table)."""
    kind = curl.get("kind", "flat")
    out = np.column_stack([local, np.zeros(len(local))])
    lift = float(curl.get("lift", 0.0))
    if kind == "flat" or lift <= 0.0:
        return out
    a = math.radians(float(curl["angle"]))
    ca, sa = math.cos(a), math.sin(a)
    d = local[:, 0] * ca + local[:, 1] * sa
    e = -local[:, 0] * sa + local[:, 1] * ca
    reach = float(curl["reach"])
    if kind in ("bow", "dome"):
        radius = reach ** 2 / (2.0 * lift)
        d2 = radius * np.sin(d / radius)
        z = radius * (1.0 - np.cos(d / radius))
        if kind == "dome":
            z = lift - z
    else:  # "edge"
        start = float(curl.get("start", 0.0))
        radius = (reach - start) ** 2 / (2.0 * lift)
        s = np.maximum(d - start, 0.0)
        d2 = np.where(d > start, start + radius * np.sin(s / radius), d)
        z = radius * (1.0 - np.cos(s / radius))
    out[:, 0] = d2 * ca - e * sa
    out[:, 1] = d2 * sa + e * ca
    out[:, 2] = np.maximum(z, 0.0)
    return out


def place(pts: np.ndarray, x: float, y: float, rotate: float, z0: float) -> np.ndarray:
    """Component-frame points (x, y, z) onto the table: turned ``rotate`` degrees clockwise
    (y down), centred at (x, y), raised by ``z0``."""
    a = math.radians(rotate)
    ca, sa = math.cos(a), math.sin(a)
    out = np.empty_like(pts)
    out[:, 0] = x + pts[:, 0] * ca - pts[:, 1] * sa
    out[:, 1] = y + pts[:, 0] * sa + pts[:, 1] * ca
    out[:, 2] = pts[:, 2] + z0
    return out


def _square(corners: list[tuple[float, float]], n: int) -> np.ndarray:
    """An ``n`` x ``n`` grid of points inside a square given by its corners."""
    c = np.array(corners)
    t = (np.arange(n) + 0.5) / n
    uu, vv = np.meshgrid(t, t)
    uu, vv = uu.ravel()[:, None], vv.ravel()[:, None]
    return ((1 - uu) * (1 - vv) * c[0] + uu * (1 - vv) * c[1] + uu * vv * c[2]
            + (1 - uu) * vv * c[3])


class Kit:
    """The printed kit: the component PNGs and markers.json of one ``pnp build --png``."""

    def __init__(self, folder: Path, game: str) -> None:
        from PIL import Image

        from generator.markers.reading import from_json

        self.folder = folder / game / "png"
        self.map = from_json((folder / game / "markers.json").read_text(encoding="utf-8"),
                             "markers.json", game)
        self.sizes: dict[str, tuple[float, float]] = {}
        for png in sorted(self.folder.glob("*.png")):
            with Image.open(png) as img:
                dpi = float(img.info.get("dpi", (300.0, 300.0))[0])
                self.sizes[png.stem] = (img.size[0] * 25.4 / dpi, img.size[1] * 25.4 / dpi)

    def uv(self, sprite: str, local: np.ndarray) -> list[list[float]]:
        w, h = self.sizes[sprite]
        return [[float(x / w + 0.5), float(0.5 - y / h)] for x, y in local]

    def marker(self, kind: str, name: str) -> Any:
        for m in self.map.markers:
            if m.kind == kind and (kind == "station" or m.name == name):
                return m
        return None


def _inside_rim(local: np.ndarray, kind: str, flats: float, token: float) -> np.ndarray:
    """Which component-frame points lie more than 1.5 mm inside the piece's edge."""
    if kind == "token":
        return np.hypot(local[:, 0], local[:, 1]) <= token / 2.0 - 1.5
    apothem = flats / 2.0 - 1.5
    keep = np.ones(len(local), bool)
    for k in range(6):
        a = math.radians(30.0 + 60.0 * k)  # the normals of a flat-top hex's sides
        keep &= local[:, 0] * math.cos(a) + local[:, 1] * math.sin(a) <= apothem
    return keep


def piece_meshes(pieces: list[Any], kit: Kit, rng: random.Random,
                 curls: dict[int, dict[str, Any]]) -> list[Mesh]:
    """The meshes of ``pieces`` (:class:`testkit.photo_synth.Piece`); ``curls``: index -> curl."""
    mmap = kit.map
    out: list[Mesh] = []
    flats = mmap.hex_across_flats_mm
    hex_local, hex_faces = hex_lattice(flats, 8) if flats else (np.zeros((0, 2)), [])
    for i, p in enumerate(pieces):
        sprite = p.sprite
        curl: dict[str, Any] = {"kind": "flat"}
        cut = False
        if p.kind in ("sector", "station"):
            local, faces = hex_local, hex_faces
            curl = curls.get(i, curl)
            z0 = CARD_MM + rng.uniform(0.0, 0.25) if p.kind == "sector" else CARD_MM
            thick = CARD_MM
        elif p.kind == "token":
            local, faces = disc_lattice(mmap.token_mm / 2.0, 5, 40)
            z0, thick = BOARD_MM + TOKEN_MM, TOKEN_MM
        else:
            w, h = kit.sizes[sprite]
            n = 24 if p.kind == "board" else 1
            local, faces = rect_lattice(w, h, n, n)
            z0 = BOARD_MM if p.kind == "board" else CARD_MM + 0.3
            thick, cut = (BOARD_MM if p.kind == "board" else CARD_MM), True
        pts = place(bend(local, curl), p.x, p.y, p.rotate, z0)
        mesh = Mesh(f"{p.kind}-{i}", p.kind, f"{sprite}.png", pts.round(4).tolist(), faces,
                    kit.uv(sprite, local), thick, cut, curl=curl,
                    cell=list(p.cell) if p.cell is not None else None, card=p.name, rot=p.rot)
        if p.kind in ("sector", "station", "token"):
            # its face inside the rim (a neighbour laid a millimetre over its edge, or the
            # cut's edge itself, leaves a card fully visible)
            inner = _inside_rim(local, p.kind, flats, mmap.token_mm)
            mesh.samples = pts[inner].round(4).tolist()
            marker = kit.marker(p.kind, p.name)
            if marker is not None:
                sq = _square(marker.corners(), 6)
                mesh.marker = place(bend(sq, curl), p.x, p.y, p.rotate, z0).round(4).tolist()
        elif p.kind == "board":  # the corners' markers: the grid needs them in sight
            mesh.samples = pts[::7].round(4).tolist()
            corners = []
            for m in mmap.of_kind("board"):
                sq = _square(m.corners(), 4) + [mmap.margin_mm - kit.sizes[sprite][0] / 2,
                                                mmap.margin_mm - kit.sizes[sprite][1] / 2]
                corners += place(np.column_stack([sq, np.zeros(len(sq))]), p.x, p.y,
                                 p.rotate, z0).round(4).tolist()
            mesh.marker = corners
        out.append(mesh)
    return out


# --- the camera --------------------------------------------------------------------------


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


def aim(target: np.ndarray, tilt: float, azimuth: float, roll: float,
        distance: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A camera ``distance`` mm from ``target``, ``tilt`` degrees off looking straight down,
    from the direction ``azimuth`` (degrees clockwise from north), turned ``roll`` degrees
    about its axis: its position and right, down, forward axes (table frame, z up)."""
    t, a = math.radians(tilt), math.radians(azimuth)
    # north is -y on the table (y south)
    out = np.array([math.sin(t) * math.sin(a), -math.sin(t) * math.cos(a), math.cos(t)])
    position = target + distance * out
    forward = _unit(target - position)
    # with no roll, the image's top points away from the photographer (the far side)
    away = np.array([-math.sin(a), math.cos(a), 0.0])
    down0 = _unit(-(away - forward * (away @ forward)))
    right0 = np.cross(forward, down0)  # the table's frame (y south, z up) is left-handed
    r = math.radians(roll)
    right = math.cos(r) * right0 + math.sin(r) * down0
    down = -math.sin(r) * right0 + math.cos(r) * down0
    return position, right, down, forward


def frame_camera(points: np.ndarray, rng: random.Random, tilt: float, focal: float,
                 px_per_mm: float, fill: float, max_width: int) -> tuple[CameraSpec, float]:
    """The camera that sees ``points`` (table mm) ``fill`` of the frame wide (above 1: the
    table runs out of the frame), but no nearer than a phone is held (32-48 cm: a small
    table then fills less of the frame, and lies anywhere in it), at about ``px_per_mm``
    on the table; its photo's width follows (at most ``max_width``: the scale is then
    lower). Returns it and its scale."""
    centre = (points.min(0) + points.max(0)) / 2.0
    centre[2] = 0.0
    target = centre + np.array([rng.uniform(-15, 15), rng.uniform(-15, 15), 0.0])
    azimuth, roll = rng.uniform(0, 360), rng.choice((0.0, 90.0, 180.0, 270.0))
    roll += rng.uniform(-12, 12)
    half_w, half_h = SENSOR_MM / 2 / focal, SENSOR_MM * ASPECT / 2 / focal

    def spread(distance: float, at: np.ndarray | None = None) -> float:
        pos, right, down, fwd = aim(target if at is None else at, tilt, azimuth, roll,
                                    distance)
        rel = points - pos
        z = rel @ fwd
        return max(float(np.abs(rel @ right / z).max()) / half_w,
                   float(np.abs(rel @ down / z).max()) / half_h)

    lo, hi = 50.0, 20000.0
    for _ in range(60):
        mid = math.sqrt(lo * hi)
        if spread(mid) > fill:
            lo = mid
        else:
            hi = mid
    distance = hi
    nearest = rng.uniform(320.0, 480.0)
    if distance < nearest:
        distance = nearest
        spare = max(0.0, fill - spread(distance)) / fill
        a = rng.uniform(0, 2 * math.pi)
        shift = rng.uniform(0.0, spare) * distance * half_h * 0.9
        for _ in range(8):
            moved = target + shift * np.array([math.cos(a), math.sin(a), 0.0])
            if spread(distance, moved) <= fill:
                target = moved
                break
            shift /= 2
    pos, right, down, fwd = aim(target, tilt, azimuth, roll, distance)
    along = float(np.linalg.norm(target - pos))
    width = int(round(px_per_mm * along * SENSOR_MM / focal / 2)) * 2
    if width > max_width:
        width = max_width
        px_per_mm = width * focal / SENSOR_MM / along
    width = max(width, 640)
    height = int(round(width * ASPECT / 2)) * 2
    cam = CameraSpec(pos.round(3).tolist(), right.tolist(), down.tolist(), fwd.tolist(), focal,
                     width, height, 0.0, tilt, roll % 360, azimuth)
    return cam, width * focal / SENSOR_MM / along


# --- a whole scene ---------------------------------------------------------------------------

WOODS = ([0.36, 0.20, 0.09], [0.55, 0.34, 0.17], [0.22, 0.12, 0.06], [0.62, 0.47, 0.30],
         [0.45, 0.30, 0.20])
CLOTHS = ([0.08, 0.30, 0.12], [0.10, 0.14, 0.35], [0.45, 0.45, 0.47], [0.40, 0.08, 0.08],
          [0.75, 0.72, 0.62], [0.15, 0.15, 0.16])
SKINS = ([0.80, 0.57, 0.45], [0.62, 0.42, 0.30], [0.42, 0.26, 0.18], [0.90, 0.70, 0.58])


@dataclass
class Options:
    """What a scene may hold (the benchmark draws from these; a fixture fixes them)."""

    tilt: tuple[float, float] = (0.0, 40.0)
    px_per_mm: tuple[float, float] = (1.6, 4.5)
    max_width: int = 2400
    focal: tuple[float, float] = (4.2, 4.7)
    k1: tuple[float, float] = (-0.08, 0.02)
    glare_chance: float = 0.6  # a lamp placed so its reflection lies on a piece
    occluder_chance: float = 1 / 3
    occluder: str = ""  # "cup" or "hand": force one
    curl: tuple[float, float] = (0.0, 2.5)  # most cards: edges lifted up to this, mm
    curled: float = 0.1  # share of cards curled strongly (3-8 mm)
    out_of_frame_chance: float = 0.1  # the frame cuts the table
    samples: int = 10
    glare_on: str = ""  # the piece (card ID or cell "q,r") the aimed lamp must glare on
    glare_marker: bool = False  # ... on its marker
    lamps: int = 0  # 0: one or two
    tube_chance: float = 0.2  # the aimed lamp a tube (a fluorescent light: a streak)


def make_scene(game: str, layout: dict[str, Any], defs: Any, kit: Kit, seed: int,
               options: Options | None = None, view: int = 0) -> Scene:
    """The scene of ``layout`` (an Orbitus layout's mapping, or ``{"board": rows}``);
    ``view`` > 0: the same table (every piece where it lay, bent as it was) seen another
    time, through another camera, lamps and hands."""
    from testkit.photo_synth import orbitus_pieces, satellites_pieces

    opt = options or Options()
    rng = random.Random(seed)
    if game == "orbitus":
        pieces = orbitus_pieces(layout, defs, rng)
    else:
        pieces = satellites_pieces(layout["board"], defs, rng)
    curls: dict[int, dict[str, Any]] = {}
    for i, p in enumerate(pieces):
        if p.kind != "sector":
            continue
        strong = rng.random() < opt.curled
        lift = rng.uniform(3.0, 8.0) if strong else rng.uniform(*opt.curl)
        kind = rng.choice(("bow", "bow", "dome", "edge"))
        curls[i] = {"kind": kind, "angle": rng.uniform(0, 360), "lift": round(lift, 2),
                    "start": rng.uniform(-5.0, 12.0),
                    "reach": hexgeo.circumradius(defs.sectors.hex_across_flats_mm)}
    meshes = piece_meshes(pieces, kit, rng, curls)
    if view:
        rng = random.Random(seed * 7919 + view)
    table_pts = np.concatenate([np.array(m.verts) for m in meshes
                                if m.kind in ("sector", "station", "token", "board")])
    tilt = rng.uniform(*opt.tilt)
    focal = rng.uniform(*opt.focal)
    scale = rng.uniform(*opt.px_per_mm)
    fill = rng.uniform(0.8, 0.94)
    out_of_frame = rng.random() < opt.out_of_frame_chance
    if out_of_frame:
        fill = rng.uniform(1.1, 1.3)
    cam, scale = frame_camera(table_pts, rng, tilt, focal, scale, fill, opt.max_width)
    k1 = rng.uniform(*opt.k1)
    lens = LensSpec(k1=round(k1, 4), k2=round(rng.uniform(-0.3, 0.3) * abs(k1), 4),
                    ca=round(rng.uniform(0.0, 0.0015), 5),
                    vignette=round(rng.uniform(0.1, 0.45), 3),
                    blur=round(rng.uniform(0.3, 0.9), 2),
                    shot_noise=round(rng.uniform(0.0004, 0.004), 5),
                    read_noise=round(rng.uniform(0.002, 0.008), 4),
                    denoise=round(rng.uniform(0.3, 1.0), 2),
                    sharpen=round(rng.uniform(0.2, 0.8), 2),
                    quality=rng.randint(70, 95), exposure=round(rng.uniform(-0.4, 0.3), 2))
    # the render must hold what the distortion pulls into the frame's corners
    corner = math.hypot(SENSOR_MM / 2, SENSOR_MM * ASPECT / 2) / focal
    reach = corner
    for _ in range(20):  # r_u of the frame's corner: r_d = r_u (1 + k1 r_u^2 + k2 r_u^4)
        reach = corner / (1 + lens.k1 * reach ** 2 + lens.k2 * reach ** 4)
    cam.overscan = round(max(0.02, reach / corner - 1 + 0.03), 3)
    wood = rng.random() < 0.5
    kind = "wood" if wood else rng.choice(("cloth", "cloth", "check"))
    palette = WOODS if wood else CLOTHS
    c1 = list(rng.choice(palette))
    c2 = [min(1.0, v * rng.uniform(0.6, 1.4)) for v in (rng.choice(palette) if kind == "check"
                                                         else c1)]
    table = Table(kind, c1, c2, rng.uniform(60, 260) if wood else rng.uniform(1.0, 3.0),
                  rng.uniform(0.35, 0.7) if wood else 0.9, rng.randrange(10_000))
    if kind == "check":
        table.scale = rng.uniform(20.0, 60.0)
    world_strength = rng.uniform(0.3, 0.8)
    world = [rng.uniform(0.85, 1.0), rng.uniform(0.85, 0.95), rng.uniform(0.75, 0.95),
             world_strength]
    lamps = _lamps(meshes, cam, rng, opt, world_strength)
    occluders = _occluders(meshes, rng, opt, game)
    paper = {"roughness": round(rng.uniform(0.12, 0.4), 3),
             "clearcoat": round(rng.uniform(0.0, 0.6), 3),
             "clearcoat_roughness": round(rng.uniform(0.03, 0.15), 3),
             "specular": round(rng.uniform(0.4, 0.6), 3)}
    conditions = {"tilt": round(tilt, 1), "px_per_mm": round(scale, 2), "k1": lens.k1,
                  "focal_mm": round(focal, 2), "occluder": occluders[0].kind if occluders else "",
                  "out_of_frame": out_of_frame, "lamps": len(lamps),
                  "aimed": any(lamp.aimed_at for lamp in lamps),
                  "curled": sum(1 for c in curls.values() if float(c["lift"]) >= 3.0)}
    conditions["view"] = view
    return Scene(game, seed * 100 + view if view else seed, meshes, cam, lens, table, lamps,
                 world, occluders, paper, opt.samples, layout, conditions)


def _lamps(meshes: list[Mesh], cam: CameraSpec, rng: random.Random, opt: Options,
           world: float) -> list[Lamp]:
    """One or two lamps: one often where its mirror image, seen by the camera, lies on a
    piece (so its reflection falls on it); the other above the table anywhere."""
    pieces = [m for m in meshes if m.kind in ("sector", "token")]
    lamps: list[Lamp] = []
    count = opt.lamps or rng.choice((1, 1, 2))
    camera = np.array(cam.position)
    for k in range(count):
        height = rng.uniform(500.0, 1600.0)
        radius = rng.uniform(20.0, 150.0)
        aimed = ""
        if k == 0 and pieces and (opt.glare_on or rng.random() < opt.glare_chance):
            target = _target(pieces, opt.glare_on, rng)
            aimed = target.name
            pts = np.array(target.marker if (opt.glare_marker and target.marker) else
                           target.samples)
            p = pts[rng.randrange(len(pts))] if not opt.glare_marker else pts.mean(0)
            p = np.array([p[0], p[1], 0.0])
            # the mirror image of the lamp below the table lies on the line camera -> p
            t = height / camera[2]
            xy = p[:2] + (p[:2] - camera[:2]) * t
            position = [float(xy[0]), float(xy[1]), height]
        else:
            centre = np.array(cam.position[:2])
            position = [float(centre[0] + rng.uniform(-900, 900)),
                        float(centre[1] + rng.uniform(-900, 900)), height]
        distance = math.dist(position, [cam.position[0], cam.position[1], 0.0]) / 1000.0
        ratio = rng.uniform(1.5, 5.0) / count
        power = math.pi ** 2 * world * ratio * max(distance, height / 1000.0) ** 2
        warm = rng.uniform(0.0, 0.25)
        lamp = Lamp([round(v, 2) for v in position], round(radius, 1), round(power, 3),
                    [1.0, 1.0 - 0.3 * warm, 1.0 - 0.7 * warm], aimed)
        if k == 0 and rng.random() < opt.tube_chance:
            lamp.length, lamp.radius = round(rng.uniform(500.0, 1200.0), 1), 15.0
            lamp.turn = round(rng.uniform(0.0, 180.0), 1)
        lamps.append(lamp)
    return lamps


def _target(pieces: list[Mesh], wanted: str, rng: random.Random) -> Mesh:
    for m in pieces:
        if wanted and (m.card == wanted or (m.cell is not None
                                            and wanted == f"{m.cell[0]},{m.cell[1]}")):
            return m
    if wanted:
        raise ValueError(f"no piece {wanted!r} on the table to aim a lamp at")
    return rng.choice(pieces)


def _occluders(meshes: list[Mesh], rng: random.Random, opt: Options, game: str) -> list[Occluder]:
    """In ``occluder_chance`` of the scenes a cup on the table or a hand over a few pieces
    (never over the station or the board's corner markers: they fix the grid)."""
    if not opt.occluder and rng.random() >= opt.occluder_chance:
        return []
    kind = opt.occluder or rng.choice(("cup", "hand"))
    pieces = [m for m in meshes if m.kind in ("sector", "token")]
    if not pieces:
        return []
    centre = np.mean([np.mean(m.samples, axis=0) for m in pieces], axis=0)
    # pieces away from the middle (the station, a board's corners kept clear)
    def spot(m: Mesh) -> np.ndarray:
        return np.mean(m.samples, axis=0)

    if game == "orbitus":
        far = [m for m in pieces if m.cell is not None and hexgeo.distance(tuple(m.cell),
                                                                           (0, 0)) >= 2]
    else:
        far = [m for m in pieces if m.cell is not None and 1 <= m.cell[0] <= 8
               and 1 <= m.cell[1] <= 8]
    target = rng.choice(far or pieces)
    at = spot(target)
    if kind == "cup":
        return [Occluder("cup", float(at[0]), float(at[1]), rng.uniform(0, 360),
                         rng.uniform(80.0, 105.0), rng.uniform(36.0, 45.0),
                         list(rng.choice(([0.9, 0.9, 0.88], [0.7, 0.1, 0.1], [0.1, 0.2, 0.5],
                                          [0.2, 0.2, 0.2], [0.9, 0.8, 0.3]))), [target.name])]
    # a hand: the arm comes in from beyond the target, seen from the middle of the table
    away = math.degrees(math.atan2(at[1] - centre[1], at[0] - centre[0]))
    return [Occluder("hand", float(at[0]), float(at[1]), away + rng.uniform(-40, 40),
                     rng.uniform(8.0, 60.0), rng.uniform(170.0, 200.0), list(rng.choice(SKINS)),
                     [target.name])]
