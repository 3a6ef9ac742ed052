"""One model of the camera for the whole table: where every point of the table is in the photo.

A phone's picture of a flat table is a perspective (a homography from the table, in mm,
to the picture) bent by the lens: barrel or pincushion distortion, radial about the
picture's centre, ``r_d = r_u (1 + k1 r_u^2 + k2 r_u^4)`` with ``r`` measured in half
diagonals of the photo. :func:`fit` finds the nine numbers and the two from every marker
corner whose place on the table is known (the station's, and every card's on its cell),
by least squares (Levenberg-Marquardt), so a card at the table's edge is placed by the
same model as one beside the station, however far the lens bends it.

What the model cannot explain is the per-marker *residual*: a card pushed off its cell
leaves a residual of a few millimetres, a card lifted or curled off the table one of its
marker's shape (the rest of the table lies flat, so it does not fit).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

PRIOR = (0.12, 0.04)  # the distortion's spread phones' pictures have (k1, k2, half diagonals)
BENT_PX = 0.15  # the distortion is kept only where it takes the residual down by more
BENT_F = 20.0  # ... and by more than chance would (an F statistic well past p = 1e-6)


def _dehom(p: np.ndarray) -> np.ndarray:
    return p[:, :2] / p[:, 2:3]


def distort(xy: np.ndarray, k1: float, k2: float) -> np.ndarray:
    r2 = (xy ** 2).sum(axis=1, keepdims=True)
    return xy * (1.0 + k1 * r2 + k2 * r2 * r2)


def undistort(xy: np.ndarray, k1: float, k2: float) -> np.ndarray:
    """The inverse of :func:`distort` (Newton's method on the radius)."""
    if k1 == 0.0 and k2 == 0.0:
        return xy.copy()
    rd = np.sqrt((xy ** 2).sum(axis=1))
    ru = rd.copy()
    for _ in range(10):
        f = ru * (1 + k1 * ru ** 2 + k2 * ru ** 4) - rd
        ru -= f / (1 + 3 * k1 * ru ** 2 + 5 * k2 * ru ** 4)
    ratio = np.where(rd > 1e-12, ru / np.maximum(rd, 1e-12), 1.0)
    return xy * ratio[:, None]


@dataclass
class TableCamera:
    """Table mm -> photo px: the homography ``h`` onto the undistorted picture (in half
    diagonals from the centre), then the lens's distortion ``k1``, ``k2``."""

    h: np.ndarray
    k1: float
    k2: float
    centre: tuple[float, float]  # the picture's centre, px
    norm: float  # its half diagonal, px
    # the picture of the table's normal toward the camera, in ``h``'s scale (``h``'s third
    # column moves by it per mm a plane is raised); None when no camera's pose was fitted
    up: np.ndarray | None = None

    @classmethod
    def from_homography(cls, hpx: np.ndarray, width: int, height: int) -> TableCamera:
        """A camera without distortion whose picture is ``hpx`` (table mm -> px)."""
        centre, norm = _frame(width, height)
        to_n = np.array([[1 / norm, 0, -centre[0] / norm], [0, 1 / norm, -centre[1] / norm],
                         [0, 0, 1]])
        return cls(to_n @ hpx, 0.0, 0.0, centre, norm)

    def project(self, pts: np.ndarray) -> np.ndarray:
        """Table mm (n x 2) -> photo px."""
        p = np.asarray(pts, np.float64).reshape(-1, 2)
        u = _dehom(np.column_stack([p, np.ones(len(p))]) @ self.h.T)
        d = distort(u, self.k1, self.k2)
        return d * self.norm + np.array(self.centre)

    def unproject(self, px: np.ndarray) -> np.ndarray:
        """Photo px (n x 2) -> table mm."""
        p = (np.asarray(px, np.float64).reshape(-1, 2) - np.array(self.centre)) / self.norm
        u = undistort(p, self.k1, self.k2)
        return _dehom(np.column_stack([u, np.ones(len(u))]) @ np.linalg.inv(self.h).T)

    def local(self, centre: tuple[float, float], half: float) -> np.ndarray:
        """The homography (table mm -> px) that agrees with the camera at the four corners
        of the square ``half`` mm round ``centre``: the camera there, as warps need it."""
        cx, cy = centre
        src = np.array([(cx - half, cy - half), (cx + half, cy - half), (cx + half, cy + half),
                        (cx - half, cy + half)], np.float64)
        return cv2.getPerspectiveTransform(src.astype(np.float32),
                                           self.project(src).astype(np.float32)).astype(np.float64)

    def scale_at(self, centre: tuple[float, float]) -> float:
        """Photo px per table mm at ``centre`` (the larger of the two directions)."""
        pts = self.project(np.array([centre, (centre[0] + 5.0, centre[1]),
                                     (centre[0], centre[1] + 5.0)]))
        return float(max(np.linalg.norm(pts[1] - pts[0]), np.linalg.norm(pts[2] - pts[0])) / 5.0)

    def scaled(self, k: float) -> TableCamera:
        """The same camera for the photo scaled by ``k`` (a smaller debug image)."""
        return TableCamera(self.h, self.k1, self.k2, (self.centre[0] * k, self.centre[1] * k),
                           self.norm * k, self.up)

    def raised(self, mm: float) -> TableCamera | None:
        """The same camera seeing the plane ``mm`` above the table (a card lifted off it
        appears displaced toward the camera's view of it and larger); None without a
        fitted pose."""
        if self.up is None:
            return None
        h = self.h.copy()
        h[:, 2] += mm * self.up
        return TableCamera(h, self.k1, self.k2, self.centre, self.norm, self.up)


def _frame(width: int, height: int) -> tuple[tuple[float, float], float]:
    return ((width - 1) / 2.0, (height - 1) / 2.0), math.hypot(width, height) / 2.0


def _homography(src: np.ndarray, dst: np.ndarray, affine: bool) -> np.ndarray:
    if affine or len(src) < 5:
        a = np.column_stack([src, np.ones(len(src))])
        m, *_ = np.linalg.lstsq(a, dst, rcond=None)
        return np.vstack([m.T, [0.0, 0.0, 1.0]])
    h, _ = cv2.findHomography(src, dst, 0)
    if h is None:
        return _homography(src, dst, True)
    return h / h[2, 2]


FOCAL = 0.72  # a phone's main camera: its focal length, in long sides of the photo
FOCAL_SPREAD = 0.6  # ... known to within this share (a crop, another lens, a scan)


CENTRED = 0.3  # the optical centre is near the picture's middle (half diagonals), unless cropped


def _pose_up(theta: np.ndarray) -> np.ndarray:
    """The picture of the table's normal toward the camera (``K`` times it) for the pose
    ``theta`` of :func:`_pose_h`: the table's x right and y down make ``r1 x r2`` point
    into the table, so its opposite points up."""
    r, _ = cv2.Rodrigues(theta[0:3].reshape(3, 1))
    f = math.exp(float(theta[6]))
    k = np.array([[f, 0.0, theta[7]], [0.0, f, theta[8]], [0.0, 0.0, 1.0]])
    return -(k @ r[:, 2])


def _pose_h(theta: np.ndarray) -> np.ndarray:
    """The homography (table mm -> normalised picture) of a camera turned ``theta[0:3]``
    (a rotation vector), at ``theta[3:6]`` (mm), ``exp(theta[6])`` focal length and
    ``theta[7:9]`` optical centre (in half diagonals from the picture's middle)."""
    r, _ = cv2.Rodrigues(theta[0:3].reshape(3, 1))
    f = math.exp(float(theta[6]))
    k = np.array([[f, 0.0, theta[7]], [0.0, f, theta[8]], [0.0, 0.0, 1.0]])
    return k @ np.column_stack([r[:, 0], r[:, 1], theta[3:6]])


def fit(src: np.ndarray, dst: np.ndarray, width: int, height: int, radial: bool = True,
        affine: bool = False, start: TableCamera | None = None) -> TableCamera:
    """The camera that takes the table points ``src`` (mm) to the photo points ``dst``
    (px) best: a phone's camera (square pixels, the optical centre in the middle of the
    picture, a focal length near a phone's) at some distance and angle to the table, and
    with ``radial`` the lens's distortion too; both the focal length and the distortion
    are held near what phones have unless the points say otherwise (points all near the
    middle cannot tell them). ``affine``: an affine map, for one marker or a few close
    together, whose perspective is noise."""
    centre, norm = _frame(width, height)
    src = np.asarray(src, np.float64).reshape(-1, 2)
    dstn = (np.asarray(dst, np.float64).reshape(-1, 2) - np.array(centre)) / norm
    k1, k2 = (start.k1, start.k2) if (start is not None and radial) else (0.0, 0.0)
    if affine or len(src) < 8:
        return TableCamera(_homography(src, undistort(dstn, k1, k2), True), k1, k2, centre,
                           norm)
    f0 = FOCAL * max(width, height) / norm
    obj = np.column_stack([src, np.zeros(len(src))]).astype(np.float64)
    k = np.array([[f0, 0, 0], [0, f0, 0], [0, 0, 1.0]])
    ok, rvec, tvec = cv2.solvePnP(obj, undistort(dstn, k1, k2).astype(np.float64), k, None,
                                  flags=cv2.SOLVEPNP_SQPNP)
    if not ok:
        return TableCamera(_homography(src, undistort(dstn, k1, k2), False), k1, k2, centre,
                           norm)
    srch = np.column_stack([src, np.ones(len(src))])

    def residual(theta: np.ndarray) -> np.ndarray:
        u = _dehom(srch @ _pose_h(theta).T)
        d = distort(u, theta[9], theta[10]) if bent else u
        r = ((d - dstn) * norm).ravel()  # px
        prior = [(theta[6] - math.log(f0)) / FOCAL_SPREAD, theta[7] / CENTRED,
                 theta[8] / CENTRED]
        if bent:
            prior += [theta[9] / PRIOR[0], theta[10] / PRIOR[1]]
        return np.concatenate([r, prior])

    bent = False
    theta = np.concatenate([rvec.ravel(), tvec.ravel(), [math.log(f0), 0.0, 0.0, 0.0, 0.0]])
    flat = _levenberg_marquardt(residual, theta, 9)
    cam = TableCamera(_pose_h(flat), 0.0, 0.0, centre, norm, _pose_up(flat))
    if not radial:
        return cam
    # the lens's distortion only where the points say so: it must explain what the
    # perspective alone cannot (a marker or two off by a pixel is not a bent lens)
    bent = True
    start_k = flat.copy()
    start_k[9:11] = (k1, k2)
    curved = _levenberg_marquardt(residual, start_k, 11)
    rms_flat = _rms(residual, flat, len(src))
    rms_bent = _rms(residual, curved, len(src))
    if _bends(rms_flat, rms_bent, len(src)):
        return TableCamera(_pose_h(curved), float(curved[9]), float(curved[10]), centre, norm,
                           _pose_up(curved))
    return cam


def _bends(rms_flat: float, rms_bent: float, n: int) -> bool:
    """Whether the lens's distortion explains the ``n`` points better than chance would:
    it must take the residual down by more than ``BENT_PX`` pixels and by more than two
    more free numbers (k1, k2) fitted to ``2 n`` coordinates would by chance (an F test of
    the two fits, at ``BENT_F``). A few points near the middle cannot pass it; hundreds
    of marker corners over the photo pass it at a fraction of a pixel, as a wide phone
    lens's barrel distortion does (the 72-card table at k1 -0.08: 1.94 px -> 1.61 px over
    232 corners)."""
    if rms_bent <= 0.0 or rms_flat - rms_bent <= BENT_PX:
        return False
    # the sum of squares saved per added number, over what is left per free coordinate
    # (both sums are the mean square times the number of points, which cancels)
    free = max(1, 2 * n - 11)  # 2 n coordinates, 11 numbers fitted
    return (rms_flat ** 2 - rms_bent ** 2) / 2.0 * free / rms_bent ** 2 > BENT_F


def _rms(residual: object, theta: np.ndarray, n: int) -> float:
    """The points' RMS distance (px) from where ``theta`` puts them."""
    r = residual(theta)[:2 * n]  # type: ignore[operator]
    return float(np.sqrt((r * r).mean() * 2.0))


def _levenberg_marquardt(residual: object, theta: np.ndarray, used: int,
                         rounds: int = 25) -> np.ndarray:
    """Least squares on the first ``used`` numbers of ``theta`` (numeric derivatives)."""
    fn = residual  # type: ignore[assignment]
    lam = 1e-3
    res = fn(theta)  # type: ignore[operator]
    cost = float(res @ res)
    for _ in range(rounds):
        jac = np.empty((len(res), used))
        for i in range(used):
            step = 1e-6 * max(1.0, abs(theta[i]))
            trial = theta.copy()
            trial[i] += step
            jac[:, i] = (fn(trial) - res) / step  # type: ignore[operator]
        jtj = jac.T @ jac
        g = jac.T @ res
        improved = done = False
        for _ in range(8):
            try:
                delta = np.linalg.solve(jtj + lam * np.diag(np.diag(jtj) + 1e-12), -g)
            except np.linalg.LinAlgError:
                lam *= 10
                continue
            trial = theta.copy()
            trial[:used] += delta
            r2 = fn(trial)  # type: ignore[operator]
            c2 = float(r2 @ r2)
            if c2 < cost:
                done = cost - c2 < 1e-9 * max(cost, 1.0)
                theta, res, cost, lam, improved = trial, r2, c2, lam / 3, True
                break
            lam *= 10
        if not improved or done:
            break
    return theta
