"""Sheet layouts as data: where each component lands on a printed page.

- :func:`honeycomb_slots` packs flat-top hexes so neighbours share their cut
  lines (fewer pages, fewer cuts); :func:`hex_crop_marks` draws the marks
  outside the bleed where cut lines meet the edge of the packing.
- :func:`grid_slots` packs boxes (tokens, markers) in rows with room for bleed.
- :func:`mirror_x` is where a back goes so that a long-edge duplex print puts
  it exactly behind its front.
- :func:`fit_page` scales a drawing larger than the printable area onto one page
  (:mod:`generator.tiling` splits a board across pages at 100 % instead).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from generator.drawing import (
    Drawing,
    Group,
    Item,
    Polyline,
    Style,
    Text,
)
from rules import hexgeo

MM_PER_PT = 25.4 / 72.0
PAGE_SIZES_MM: dict[str, tuple[float, float]] = {
    # exactly the PDF point sizes (A4 595x842 pt, Letter 612x792 pt) in mm
    "a4": (595 * MM_PER_PT, 842 * MM_PER_PT),
    "letter": (612 * MM_PER_PT, 792 * MM_PER_PT),
}
MARGIN_MM = 6.5  # nothing prints nearer the paper's edge (many lasers leave 5 mm blank)
BLEED_MM = 3.0
MARK_GAP_MM = 0.5  # crop marks start this far outside the bleed
MARK_LEN_MM = 2.0
MARK_STYLE = Style(stroke="#000000", width=0.2)

Point = tuple[float, float]


def page_size(name: str) -> tuple[float, float]:
    return PAGE_SIZES_MM[name]


def mirror_x(point: Point, page_width: float) -> Point:
    """Where the back of a component at ``point`` goes for long-edge duplex printing."""
    return (page_width - point[0], point[1])


# --- honeycomb packing of hexes ----------------------------------------------------


@dataclass(frozen=True)
class HexSheet:
    """Centres (mm, page coordinates) of the hexes on one sheet, in reading order."""

    centres: tuple[Point, ...]
    across_flats: float
    bleed: float
    gutter: float = 0.0


def _column_centres(cols: int, rows_even: int, rows_odd: int, pitch: float) -> list[Point]:
    """Centres of a honeycomb whose cells are ``pitch`` across flats (the hex plus the
    gutter), in columns, each odd column half a cell lower."""
    r = hexgeo.circumradius(pitch)
    out: list[Point] = []
    for c in range(cols):
        n = rows_even if c % 2 == 0 else rows_odd
        for k in range(n):
            out.append((r + 1.5 * r * c, pitch / 2.0 + (pitch / 2.0 if c % 2 else 0.0) + pitch * k))
    return out


def _extent(centres: Sequence[Point], flats: float, bleed: float,
            gutter: float = 0.0) -> tuple[float, float, float, float]:
    """Bounding box of the hexes with their bleed and crop marks."""
    xs: list[float] = []
    ys: list[float] = []
    for x, y in centres:
        for px, py in offset_hex((x, y), flats, bleed):
            xs.append(px)
            ys.append(py)
    for (x0, y0), (x1, y1) in _mark_segments(centres, flats, bleed, gutter):
        xs += [x0, x1]
        ys += [y0, y1]
    return min(xs), min(ys), max(xs), max(ys)


def offset_hex(centre: Point, flats: float, grow: float) -> list[Point]:
    """The corners of a hex grown by ``grow`` mm on every side."""
    return hexgeo.corners(centre, flats + 2 * grow)


def honeycomb_slots(page: tuple[float, float], flats: float, bleed: float,
                    gutter: float = 0.0) -> HexSheet:
    """The largest honeycomb of hexes (with bleed and crop marks) that fits inside the margins,
    centred on the page. ``gutter`` 0: neighbours share their cut lines; otherwise the hexes
    stand ``gutter`` mm apart, each with its own bleed and crop marks."""
    pw, ph = page[0] - 2 * MARGIN_MM, page[1] - 2 * MARGIN_MM
    pitch = flats + gutter
    r = hexgeo.circumradius(pitch)
    best: list[Point] = []
    best_box = (0.0, 0.0, 0.0, 0.0)
    max_cols = int(pw // (1.5 * r)) + 1
    max_rows = int(ph // pitch) + 1
    for cols in range(1, max_cols + 1):
        for rows_even in range(1, max_rows + 1):
            for rows_odd in (rows_even, rows_even - 1):
                if cols > 1 and rows_odd < 1:
                    continue
                if cols * rows_even <= len(best) - cols:
                    continue
                centres = _column_centres(cols, rows_even, rows_odd, pitch)
                if len(centres) <= len(best):
                    continue
                box = _extent(centres, flats, bleed, gutter)
                if box[2] - box[0] <= pw + 1e-6 and box[3] - box[1] <= ph + 1e-6:
                    best, best_box = centres, box
    if not best:
        raise ValueError(
            f"a hex {flats:g} mm across flats does not fit on a page of "
            f"{page[0]:.0f}x{page[1]:.0f} mm with {MARGIN_MM:g} mm margins"
        )
    dx = (page[0] - (best_box[2] - best_box[0])) / 2.0 - best_box[0]
    dy = (page[1] - (best_box[3] - best_box[1])) / 2.0 - best_box[1]
    return HexSheet(tuple((x + dx, y + dy) for x, y in best), flats, bleed, gutter)


def _key(p: Point) -> tuple[int, int]:
    return (round(p[0] * 100), round(p[1] * 100))


_NORMALS = tuple((math.cos(math.radians(a)), math.sin(math.radians(a)))
                 for a in (-90, -30, 30, 90, 150, 210))


def _ray_entry(p0: Point, u: Point, centre: Point, flats: float, pad: float) -> float:
    """How far along the ray ``p0 + t u`` (t >= 0) it enters the flat-top hex at ``centre``
    grown by ``pad`` on every side; ``inf`` if it never does."""
    t_in, t_out = 0.0, math.inf
    h = flats / 2.0 + pad
    for nx, ny in _NORMALS:
        a = nx * (p0[0] - centre[0]) + ny * (p0[1] - centre[1])  # where p0 lies
        b = nx * u[0] + ny * u[1]  # how the ray moves against this side
        if abs(b) < 1e-12:
            if a > h:
                return math.inf
            continue
        t = (h - a) / b
        if b > 0:
            t_out = min(t_out, t)
        else:
            t_in = max(t_in, t)
        if t_in > t_out:
            return math.inf
    return t_in


def _mark_segments(centres: Sequence[Point], flats: float, bleed: float,
                   gutter: float = 0.0) -> list[tuple[Point, Point]]:
    """Crop marks: short lines that continue the cut edges past their ends, outside the bleed.

    Shared edges (``gutter`` 0): at every corner on the outline of the packing, each cut
    edge ending there whose line runs on into empty paper is continued (two marks at a
    corner of one hex, the shared cut line at a corner of two). With a gutter every hex is
    cut on its own, so each of its edges is continued at both ends, as far as the gap to the
    neighbouring hexes allows (a mark never comes within 0.5 mm of another card)."""
    return list(_marks(tuple(centres), flats, bleed, gutter))


@lru_cache(maxsize=64)
def _marks(centres: tuple[Point, ...], flats: float, bleed: float,
           gutter: float) -> tuple[tuple[Point, Point], ...]:
    start = bleed / math.sin(math.radians(60)) + MARK_GAP_MM if bleed else MARK_GAP_MM + 0.4
    end = start + MARK_LEN_MM
    r = hexgeo.circumradius(flats)
    corner_count: dict[tuple[int, int], int] = {}
    for c in centres:
        for corner in hexgeo.corners(c, flats):
            k = _key(corner)
            corner_count[k] = corner_count.get(k, 0) + 1
    segments: list[tuple[Point, Point]] = []
    seen: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    reach = 2 * r + end + 1.0
    for c in centres:
        pts = hexgeo.corners(c, flats)
        for i, corner in enumerate(pts):
            if corner_count[_key(corner)] >= 3:
                continue  # inside the packing: every edge there is shared
            near = [o for o in centres if math.dist(o, corner) < reach]
            for other in (pts[i - 1], pts[(i + 1) % 6]):
                length = math.dist(corner, other)
                u = ((corner[0] - other[0]) / length, (corner[1] - other[1]) / length)
                key = (_key(corner), (round(u[0] * 1000), round(u[1] * 1000)))
                if key in seen:
                    continue
                # as far as the line runs clear of every card (0.5 mm), the corner's own too
                p0 = (corner[0] + u[0] * start, corner[1] + u[1] * start)
                stop = min([end] + [start + _ray_entry(p0, u, o, flats, 0.5) for o in near])
                if stop - start < 0.9:
                    continue
                seen.add(key)
                segments.append(((corner[0] + u[0] * start, corner[1] + u[1] * start),
                                 (corner[0] + u[0] * stop, corner[1] + u[1] * stop)))
    return tuple(segments)


def hex_crop_marks(centres: Sequence[Point], flats: float, bleed: float,
                   gutter: float = 0.0) -> list[Item]:
    return [Polyline(seg, MARK_STYLE, cls="crop-mark")
            for seg in _mark_segments(centres, flats, bleed, gutter)]


# --- grid packing of boxes (tokens, markers) ------------------------------------------


def grid_slots(page: tuple[float, float], box: tuple[float, float], gap: float,
               extra: float = 0.0,
               area: tuple[float, float, float, float] | None = None) -> list[Point]:
    """Centres of boxes ``box`` (w, h) in rows, ``gap`` apart, centred in ``area``.

    ``area`` is ``(x, y, w, h)`` on the page (default: inside the margins); ``extra`` is
    room needed outside each box (bleed and marks) at the area's edge.
    """
    ax, ay, aw, ah = area or (MARGIN_MM, MARGIN_MM, page[0] - 2 * MARGIN_MM,
                              page[1] - 2 * MARGIN_MM)
    pw, ph = aw - 2 * extra, ah - 2 * extra
    w, h = box
    cols = max(0, int((pw + gap) // (w + gap)))
    rows = max(0, int((ph + gap) // (h + gap)))
    if cols == 0 or rows == 0:
        raise ValueError(f"a component of {w:.0f}x{h:.0f} mm does not fit on the page")
    used_w = cols * w + (cols - 1) * gap
    used_h = rows * h + (rows - 1) * gap
    x0 = ax + (aw - used_w) / 2.0 + w / 2.0
    y0 = ay + (ah - used_h) / 2.0 + h / 2.0
    return [(x0 + c * (w + gap), y0 + r * (h + gap)) for r in range(rows) for c in range(cols)]


def box_crop_marks(centre: Point, box: tuple[float, float], bleed: float) -> list[Item]:
    """Corner crop marks for a rectangular box, outside its bleed."""
    cx, cy = centre
    w, h = box
    out: list[Item] = []
    start = bleed + MARK_GAP_MM
    for sx in (-1, 1):
        for sy in (-1, 1):
            x, y = cx + sx * w / 2, cy + sy * h / 2
            out.append(Polyline(((x + sx * start, y), (x + sx * (start + MARK_LEN_MM), y)),
                                MARK_STYLE, cls="crop-mark"))
            out.append(Polyline(((x, y + sy * start), (x, y + sy * (start + MARK_LEN_MM))),
                                MARK_STYLE, cls="crop-mark"))
    return out


# --- one drawing scaled onto one page ------------------------------------------------


def fit_scale(size: tuple[float, float], page: tuple[float, float]) -> float:
    """The scale (at most 1) at which a drawing of ``size`` fits one page with its caption."""
    printable = (page[0] - 2 * MARGIN_MM, page[1] - 2 * MARGIN_MM - 4.0)
    return min(1.0, printable[0] / size[0], printable[1] / size[1])


def fit_page(drawing: Drawing, page: tuple[float, float], caption: str) -> Drawing:
    """``drawing`` scaled down (never up) onto one page, centred, under a one-line
    ``caption`` (which should say the scale: see :func:`fit_scale`)."""
    printable = (page[0] - 2 * MARGIN_MM, page[1] - 2 * MARGIN_MM - 4.0)
    scale = fit_scale((drawing.width, drawing.height), page)
    x = (page[0] - drawing.width * scale) / 2.0
    y = MARGIN_MM + 4.0 + (printable[1] - drawing.height * scale) / 2.0
    return Drawing(page[0], page[1], [
        Group(tuple(drawing.items), (x, y), scale=scale),
        Text(MARGIN_MM, MARGIN_MM + 2.6, caption, 2.6, fill="#444444", cls="page-caption"),
    ], drawing.title)


def hex_obstacles(centres: Sequence[Point], flats: float, bleed: float,
                  gutter: float = 0.0) -> list[tuple[float, float, float, float]]:
    """Bounding boxes of the hexes (with bleed) and crop marks on a sheet."""
    r = hexgeo.circumradius(flats) + bleed / math.sin(math.radians(60))
    half = flats / 2.0 + bleed
    boxes = [(x - r, y - half, x + r, y + half) for x, y in centres]
    for (x0, y0), (x1, y1) in _mark_segments(centres, flats, bleed, gutter):
        boxes.append((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
    return boxes


def caption_lines(page: tuple[float, float], lines: Sequence[str],
                  obstacles: Sequence[tuple[float, float, float, float]],
                  size: float = 2.4, min_size: float = 6.0 * MM_PER_PT, top_only: bool = False
                  ) -> list[Item]:
    """Caption lines in the widest free stretch along the page's bottom or top margin (the
    bottom first; ``top_only``: the top), only as wide as that space (smaller text if
    needed, not below ``min_size``); none if there is no room at all."""
    from generator.drawing import fit_size

    line_h = size * 1.3
    height = line_h * len(lines)
    best: tuple[float, float, float] | None = None  # (size, x, top)
    for top in (MARGIN_MM,) if top_only else (page[1] - MARGIN_MM - height, MARGIN_MM):
        blocked = sorted((bx0, bx1) for bx0, by0, bx1, by1 in obstacles
                         if by1 > top - 0.5 and by0 < top + height + 0.5)
        x = MARGIN_MM
        spans: list[tuple[float, float]] = []
        for bx0, bx1 in blocked:
            if bx0 - 1.0 > x:
                spans.append((x, bx0 - 1.0))
            x = max(x, bx1 + 1.0)
        if page[0] - MARGIN_MM > x:
            spans.append((x, page[0] - MARGIN_MM))
        for x0, x1 in spans:
            if x1 - x0 <= 10:
                continue
            fitted = min(fit_size(line, size, x1 - x0) for line in lines)
            if fitted >= min_size and (best is None or fitted > best[0] + 1e-9):
                best = (fitted, x0, top)
    if best is None:
        return []
    fitted, x0, top = best
    return [Text(x0, top + line_h * (i + 1) - size * 0.3, line, fitted, fill="#444444",
                 cls="page-caption") for i, line in enumerate(lines)]
