"""Sector sheets as a person cuts them: every back alike, bleed where a cut may miss, crop
marks that continue the cut edges, and the printing note on every front sheet.

Pages are rendered by pdfium at 300 dpi and measured: backs are cut out along their cut
line and compared pixel for pixel, bleed is sampled outside each cut edge, crop marks are
checked against the hex edges they should continue.
"""

from __future__ import annotations

import math

import pytest
from PIL import ImageChops
from pixels import close, masked, open_pdf, pixel_mm, text_lines, window

from cards.definitions import load_orbitus
from generator.backends.pdf import render_pdf
from generator.drawing import Group, Polyline, walk
from generator.ink import ink_saving
from generator.options import BuildOptions
from generator.products.orbitus import sector_sheets
from rules.hexgeo import circumradius, corners, side_midpoint

DPI = 300.0
S = DPI / 25.4


@pytest.fixture(scope="module")
def defs():
    return load_orbitus()


def _centres(page, cls: str) -> list[tuple[float, float]]:
    return [g.translate for g in page.items if isinstance(g, Group) and g.cls == cls]


def _cut_out(doc, index: int, centre: tuple[float, float], flats: float):
    """The hex at ``centre`` cut out along its cut line (outside painted magenta)."""
    r = circumradius(flats)
    x0, y0 = centre[0] - r - 1.0, centre[1] - flats / 2.0 - 1.0
    w, h = int((2 * r + 2) * S), int((flats + 2) * S)
    img = window(doc, index, x0, y0, w, h, DPI)
    hexagon = [((cx - x0) * S, (cy - y0) * S) for cx, cy in corners(centre, flats)]
    return masked(img, hexagon)


def _same(a, b, cell: int = 1) -> bool:
    """Alike to the pixel: no channel of any pixel differs by more than 2 of 255 (pdfium's
    anti-aliasing rounds the same edge a level apart at different places of a page).
    ``cell`` > 1: alike within 5 levels in every square of that many pixels (a screen of
    0.22 mm lines lands a pixel's phase apart at different places of a page, as on any
    printer's raster; what the eye sees is its mean; a neighbour's bleed differs by tens)."""
    if cell > 1:
        size = (a.width // cell, a.height // cell)
        a, b = a.reduce(cell).resize(size), b.reduce(cell).resize(size)
    return max(hi for _, hi in ImageChops.difference(a, b).getextrema()) <= (5 if cell > 1
                                                                            else 2)


@pytest.mark.parametrize("paper,gutter,light", [("a4", 0.0, False), ("letter", 0.0, False),
                                                ("a4", 6.0, False), ("a4", 0.0, True)])
def test_every_cut_back_is_pixel_identical(defs, paper, gutter, light):
    """Cut out along its cut line, no back differs from another by one pixel
    (a neighbour's bleed painted over a frame made hidden hands readable); the light backs
    of --ink-saver (issue 20, point 11) as well, their screen included."""
    if light:
        defs = ink_saving(defs)
    pages = sector_sheets(defs, BuildOptions(page=paper, gutter=gutter, ink_saver=light))
    drawn = {g.items for page in pages[1::2] for g in page.items
             if isinstance(g, Group) and g.cls == "sector-back"}
    assert len(drawn) == 1  # and drawn alike: one description for every back
    doc = open_pdf(render_pdf(pages))
    flats = defs.sectors.hex_across_flats_mm
    looks: list[tuple[object, list[str]]] = []
    count = 0
    for n in range(1, len(pages), 2):
        for c in _centres(pages[n], "sector-back"):
            back = _cut_out(doc, n, c, flats)
            where = f"page {n + 1} at {c[0]:.1f},{c[1]:.1f} mm"
            for look, seen in looks:
                if _same(look, back, 12 if light else 1):  # light: 1 mm squares
                    seen.append(where)
                    break
            else:
                looks.append((back, [where]))
            count += 1
    assert count == defs.sectors.deck_size
    assert len(looks) == 1, f"{len(looks)} different backs, e.g. " + "; ".join(
        seen[0] for _, seen in looks)


def test_gutter_gives_every_hex_its_own_bleed(defs):
    """With --gutter 6 every cut edge has 3 mm of its own art beyond it, routes
    included: 2.5 mm outside each side's midpoint shows what 0.6 mm inside does."""
    pages = sector_sheets(defs, BuildOptions(gutter=6.0))
    doc = open_pdf(render_pdf(pages[:1]))
    flats = defs.sectors.hex_across_flats_mm
    r = circumradius(flats)
    img = window(doc, 0, 0.0, 0.0, int(pages[0].width * S), int(pages[0].height * S), DPI)
    centres = _centres(pages[0], "sector")
    assert len(centres) >= 12
    bad = []
    for c in centres:
        for side in range(6):
            mx, my = side_midpoint(c, flats, side)
            ux, uy = (mx - c[0]) / (flats / 2), (my - c[1]) / (flats / 2)
            # 2 mm along the side from its midpoint: on a route band, off its dashed core
            vx, vy = -uy * 2.0, ux * 2.0
            inside = pixel_mm(img, (0, 0), (mx - 0.6 * ux + vx, my - 0.6 * uy + vy))
            outside = pixel_mm(img, (0, 0), (mx + 2.5 * ux + vx, my + 2.5 * uy + vy))
            if not close(inside, outside, 10):
                bad.append((round(c[0]), round(c[1]), side, inside, outside))
    assert not bad, bad[:5]
    # and the hexes stand apart by the gutter: no two cut lines closer than 6 mm
    gaps = [math.dist(a, b) - flats for i, a in enumerate(centres) for b in centres[i + 1:]
            if math.dist(a, b) < 2 * r]
    assert gaps and min(gaps) == pytest.approx(6.0, abs=0.01)


def test_shared_edges_have_no_bleed_between_neighbours(defs):
    """Without a gutter, the default honeycomb still shares cut lines (the docs say
    which layout suits which cutter)."""
    pages = sector_sheets(defs, BuildOptions())
    centres = _centres(pages[0], "sector")
    flats = defs.sectors.hex_across_flats_mm
    nearest = min(math.dist(a, b) for i, a in enumerate(centres) for b in centres[i + 1:])
    assert nearest == pytest.approx(flats, abs=1e-6)


def _edges(centres, flats):
    out = []
    for c in centres:
        pts = corners(c, flats)
        out += [(pts[i], pts[(i + 1) % 6]) for i in range(6)]
    return out


def _inside(p, c, flats, pad=0.0):
    r = circumradius(flats)
    dx, dy = abs(p[0] - c[0]), abs(p[1] - c[1])
    return dy <= flats / 2 + pad and math.sqrt(3) * dx + dy <= math.sqrt(3) * r + 2 * pad


def _on_extension(mark, edge) -> bool:
    """Whether both ends of ``mark`` lie on the line of ``edge``, beyond one of its ends."""
    (ax, ay), (bx, by) = edge
    length = math.dist(edge[0], edge[1])
    ux, uy = (bx - ax) / length, (by - ay) / length
    ts = []
    for px, py in mark:
        if abs((px - ax) * uy - (py - ay) * ux) > 0.01:
            return False
        ts.append((px - ax) * ux + (py - ay) * uy)
    return all(t > length + 0.3 for t in ts) or all(t < -0.3 for t in ts)


@pytest.mark.parametrize("paper,gutter", [("a4", 0.0), ("letter", 0.0), ("a4", 6.0)])
def test_crop_marks_continue_the_cut_edges(defs, paper, gutter):
    """Every crop mark lies on the line of a cut edge, past its end and outside
    every hex; every free end of an outer cut edge has its mark; and each mark is printed
    (dark pixels at its middle in the 300 dpi rendering)."""
    pages = sector_sheets(defs, BuildOptions(page=paper, gutter=gutter))
    flats = defs.sectors.hex_across_flats_mm
    doc = open_pdf(render_pdf(pages[:1]))
    img = window(doc, 0, 0.0, 0.0, int(pages[0].width * S), int(pages[0].height * S), DPI)
    centres = _centres(pages[0], "sector")
    edges = _edges(centres, flats)
    marks = [m.points for m in walk(pages[0].items)
             if isinstance(m, Polyline) and m.cls == "crop-mark"]
    assert marks
    for mark in marks:
        assert any(_on_extension(mark, e) for e in edges), f"{mark} continues no cut edge"
        for p in mark:
            assert not any(_inside(p, c, flats, 0.3) for c in centres), f"{mark} on a card"
        mid = ((mark[0][0] + mark[1][0]) / 2, (mark[0][1] + mark[1][1]) / 2)
        assert sum(pixel_mm(img, (0, 0), mid)) < 3 * 120, f"mark at {mid} not printed"
    # every end of a cut edge on the outline of the packing whose extension runs free
    covered = 0
    for a, b in edges:
        for end, other in ((b, a), (a, b)):
            length = math.dist(a, b)
            ux, uy = (end[0] - other[0]) / length, (end[1] - other[1]) / length
            probe = [(end[0] + ux * t, end[1] + uy * t) for t in (0.5, 2.0, 4.0, 6.0)]
            if any(_inside(p, c, flats) for p in probe for c in centres):
                continue
            assert any(_on_extension(m, (other, end)) for m in marks), (
                f"the cut edge {other} -> {end} has no mark continuing it")
            covered += 1
    assert covered >= len(marks) / 2


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_front_sheet_says_how_to_print(defs, paper):
    """The 'print at 100 %, two-sided, flip on the long edge' note on every front
    sheet, A4 and Letter, clear of the cards."""
    pages = sector_sheets(defs, BuildOptions(page=paper))
    doc = open_pdf(render_pdf(pages))
    for n in range(0, len(pages), 2):
        text = " ".join(line.text for line in text_lines(doc, n))
        assert "100 %" in text and "two-sided" in text and "long edge" in text, (paper, n)
