"""What a phone does to the light Blender rendered: lens, sensor, processing, JPEG; and the
truth of the photo made: which share of each piece (and of its marker) the camera saw, in
the frame, and how much of it lay under glare.

The render is a pinhole camera's, a little larger than the photo (:attr:`CameraSpec.overscan`).
Here, in order:

1. exposure: the pieces' paper, as the render shows it, is brought to a light grey (a
   phone's auto exposure), so a lamp's reflection on glossy card is far above it and clips;
2. radial distortion (``k1``, ``k2`` on normalised image coordinates, Brown's model: negative
   ``k1`` is barrel distortion) and lateral chromatic aberration (red magnified, blue
   shrunk), by resampling the render;
3. vignetting, the lens's softness;
4. sensor noise (shot noise growing with the light, and read noise), in linear light;
5. the phone's processing: the sRGB curve, noise reduction, sharpening, JPEG.

The truth of each sampled point: seen by the camera (Blender's ray casting), inside the
photo after distortion, and under glare when the light reflected off glossy surfaces there
alone is more than a quarter of the paper's white.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from testkit.render.scene import Scene

GLARE = 0.25  # of the paper's white: reflected light this strong is glare
WASHED = 0.6  # ... and this strong washes the print out (the routes no darker than the paper)
PAPER = 0.72  # where the exposure puts the pieces' paper (linear, before the sRGB curve)


def undistort_radius(rd: np.ndarray, k1: float, k2: float) -> np.ndarray:
    """r_u with r_u (1 + k1 r_u^2 + k2 r_u^4) = r_d (Newton's method)."""
    ru = rd.copy()
    for _ in range(8):
        f = ru * (1 + k1 * ru ** 2 + k2 * ru ** 4) - rd
        df = 1 + 3 * k1 * ru ** 2 + 5 * k2 * ru ** 4
        ru = ru - f / df
    return ru


def distort(xy: np.ndarray, k1: float, k2: float) -> np.ndarray:
    """Normalised undistorted image coordinates -> distorted ones."""
    r2 = (xy ** 2).sum(axis=1, keepdims=True)
    return xy * (1 + k1 * r2 + k2 * r2 ** 2)


def project(scene: Scene, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Table mm -> (photo px after distortion, render px of the pinhole, in front)."""
    cam = scene.camera
    xyz = cam.to_camera(pts)
    xy = xyz[:, :2]
    front = xyz[:, 2] > 1.0
    fpx = cam.fpx
    rw, rh = cam.render_size()
    render = np.column_stack([xy[:, 0] * fpx + rw / 2 - 0.5, xy[:, 1] * fpx + rh / 2 - 0.5])
    d = distort(xy, scene.lens.k1, scene.lens.k2)
    photo = np.column_stack([d[:, 0] * fpx + cam.width / 2 - 0.5,
                             d[:, 1] * fpx + cam.height / 2 - 0.5])
    return photo, render, front


def _lum(img: np.ndarray) -> np.ndarray:
    return 0.0722 * img[..., 0] + 0.7152 * img[..., 1] + 0.2126 * img[..., 2]  # BGR


def _at(img: np.ndarray, px: np.ndarray) -> np.ndarray:
    h, w = img.shape[:2]
    x = np.clip(np.round(px[:, 0]).astype(int), 0, w - 1)
    y = np.clip(np.round(px[:, 1]).astype(int), 0, h - 1)
    return img[y, x]


@dataclass
class PieceTruth:
    """One piece as the photo shows it."""

    name: str
    kind: str
    cell: list[int] | None
    card: str
    rot: int
    covered: float  # share of its face not seen (covered, or out of the photo)
    marker_covered: float
    glare: float  # share of its face seen under glare
    marker_glare: float
    px_per_mm: float
    lift: float  # mm: how far its curl lifts it
    out_of_frame: float  # share of its face outside the photo
    washed: float = 0.0  # share of its face whose print the glare washes out
    marker_washed: float = 0.0

    @property
    def unseen(self) -> float:
        """The share of its print the photo does not show: covered, outside the photo, or
        washed out by glare (what a reader can be asked to read is the rest)."""
        return round(1.0 - (1.0 - self.covered) * (1.0 - self.washed), 4)

    @property
    def state(self) -> str:
        return "visible" if self.unseen == 0.0 else ("hidden" if self.unseen >= 1.0
                                                     else "partly")


def develop(scene: Scene, render: np.ndarray, glossy: np.ndarray,
            seen: dict[str, dict[str, str]]) -> tuple[bytes, list[PieceTruth], dict[str, Any]]:
    """The phone's JPEG of a render, and the truth of every piece (see the module)."""
    cam, lens = scene.camera, scene.lens
    rng = np.random.default_rng(scene.seed)
    rh, rw = render.shape[:2]
    meshes = [m for m in scene.meshes if m.name in seen]
    # 1. exposure from the paper of the pieces the camera sees
    values = []
    for m in meshes:
        pts = np.array(m.samples if m.samples else m.marker)
        bits = seen[m.name]["samples" if m.samples else "marker"]
        ok = np.frombuffer(bits.encode(), np.uint8) == ord("1")
        if ok.any():
            _, rpx, _ = project(scene, pts[ok])
            values.append(_lum(_at(render, rpx)))
    lum = np.concatenate(values) if values else _lum(render).ravel()
    white = float(np.percentile(lum, 75)) or 1.0
    gain = PAPER / white * 2.0 ** lens.exposure
    # 2. distortion and chromatic aberration: where each photo pixel's light comes from
    fpx = cam.fpx
    xs = (np.arange(cam.width, dtype=np.float32) + 0.5 - cam.width / 2) / fpx
    ys = (np.arange(cam.height, dtype=np.float32) + 0.5 - cam.height / 2) / fpx
    xd, yd = np.meshgrid(xs, ys)
    rd = np.sqrt(xd ** 2 + yd ** 2)
    photo = np.empty((cam.height, cam.width, 3), np.float32)
    for ch, k in ((0, 1.0 - lens.ca), (1, 1.0), (2, 1.0 + lens.ca)):  # B, G, R
        r_src = rd / k
        ru = undistort_radius(r_src, lens.k1, lens.k2)
        ratio = np.where(rd > 1e-9, ru / np.maximum(rd, 1e-9), 1.0 / k)
        mx = (xd * ratio * fpx + rw / 2 - 0.5).astype(np.float32)
        my = (yd * ratio * fpx + rh / 2 - 0.5).astype(np.float32)
        photo[..., ch] = cv2.remap(render[..., ch], mx, my, cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REFLECT)
    photo *= gain
    # 3. vignetting and the lens's softness
    corner = math.hypot(cam.width, cam.height) / 2 / fpx
    photo *= (1.0 - lens.vignette * (rd / corner) ** 2)[..., None]
    photo = cv2.GaussianBlur(photo, (0, 0), lens.blur)
    # 4. sensor noise, in linear light
    var = lens.shot_noise * np.maximum(photo, 0.0) + lens.read_noise ** 2
    photo = photo + rng.standard_normal(photo.shape, dtype=np.float32) * np.sqrt(var)
    # 5. the phone's processing
    srgb = np.where(photo <= 0.0031308, 12.92 * photo,
                    1.055 * np.power(np.clip(photo, 0.0031308, None), 1 / 2.4) - 0.055)
    img = np.clip(srgb * 255.0 + 0.5, 0, 255).astype(np.uint8)
    strength = 2.0 + 6.0 * lens.denoise
    img = cv2.fastNlMeansDenoisingColored(img, None, strength, strength, 5, 11)
    soft = cv2.GaussianBlur(img, (0, 0), 1.2)
    img = cv2.addWeighted(img, 1.0 + lens.sharpen, soft, -lens.sharpen, 0)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(lens.quality)])
    assert ok
    # the truth
    glare_img = _lum(glossy) * gain
    truths = []
    margin = 1.0
    for m in meshes:
        if m.kind not in ("sector", "token", "station", "board"):
            continue
        parts = {}
        for key in ("samples", "marker"):
            pts = np.array(getattr(m, key))
            if not len(pts):
                parts[key] = (1.0, 0.0, 0.0, 0.0)
                continue
            bits = np.frombuffer(seen[m.name][key].encode(), np.uint8) == ord("1")
            ppx, rpx, front = project(scene, pts)
            inside = front & (ppx[:, 0] >= margin) & (ppx[:, 0] <= cam.width - 1 - margin) & \
                (ppx[:, 1] >= margin) & (ppx[:, 1] <= cam.height - 1 - margin)
            ok = bits & inside
            light = _at(glare_img, rpx)
            glare = ok & (light > GLARE)
            washed = ok & (light > WASHED)
            n = len(pts)
            parts[key] = (round(1.0 - ok.sum() / n, 4), round(glare.sum() / n, 4),
                          round(1.0 - inside.sum() / n, 4),
                          round(washed.sum() / max(int(ok.sum()), 1), 4))
        centre = np.mean(np.array(m.samples or m.marker), axis=0)
        probe = np.array([centre, centre + [10.0, 0, 0], centre + [0, 10.0, 0]])
        ppx, _, _ = project(scene, probe)
        scale = math.sqrt(abs(np.cross(ppx[1] - ppx[0], ppx[2] - ppx[0]))) / 10.0
        truths.append(PieceTruth(m.name, m.kind, m.cell, m.card, m.rot, parts["samples"][0],
                                 parts["marker"][0], parts["samples"][1], parts["marker"][1],
                                 round(scale, 3), float(m.curl.get("lift", 0.0))
                                 if m.curl.get("kind", "flat") != "flat" else 0.0,
                                 parts["samples"][2], parts["samples"][3],
                                 parts["marker"][3]))
    info = {"exposure_gain": gain, "white": white}
    return buf.tobytes(), truths, info
