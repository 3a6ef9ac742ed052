"""The Satellites printables as a person cuts and uses them: tokens with a visible cut line
and real bleed, tokens that fit the board they are printed with (--fit), markers for both
trackers, a score pad with a draw box and cut lines. Rendered at 300 dpi and measured."""

from __future__ import annotations

import math

import pytest
from PIL import Image, ImageChops
from pixels import close, contrast, open_pdf, pixel_mm, text_lines, window

from cards.definitions import load_satellites
from generator.backends.pdf import render_pdf
from generator.components import satellites as sat
from generator.components.pads import satellites_pad
from generator.drawing import Drawing, Group, Rect, walk
from generator.options import BuildOptions
from generator.products.satellites import board_pages, token_sheet
from generator.sheets import page_size

DPI = 300.0
S = DPI / 25.4


@pytest.fixture(scope="module")
def defs():
    return load_satellites()


def _groups(page, prefix: str) -> list[Group]:
    return [g for g in page.items if isinstance(g, Group) and (g.cls or "").startswith(prefix)]


def _page_image(page):
    doc = open_pdf(render_pdf([page]))
    return window(doc, 0, 0.0, 0.0, int(page.width * S), int(page.height * S), DPI)


@pytest.fixture(scope="module")
def tokens(defs):
    pages = token_sheet(defs, BuildOptions())
    return pages, _page_image(pages[0])


def _at(c, r, angle):
    a = math.radians(angle)
    return (c[0] + r * math.cos(a), c[1] + r * math.sin(a))


def test_token_bleed_is_three_mm_of_the_token_edge_colour(defs, tokens):
    """2.6 mm outside the cut circle is the colour 0.7 mm inside it, for red and
    blue (blue had white paper beyond a ring that stopped at the cut)."""
    pages, img = tokens
    r = defs.satellites.diameter_mm / 2
    groups = _groups(pages[0], "satellite")
    assert len(groups) == 24
    for g in groups:
        for angle in range(5, 360, 30):  # off the cut line's dashes' start
            inside = pixel_mm(img, (0, 0), _at(g.translate, r - 0.7, angle))
            outside = pixel_mm(img, (0, 0), _at(g.translate, r + 2.6, angle))
            assert close(inside, outside, 10), (g.cls, angle, inside, outside)


def _strongest(img, c, radius, angle, ref):
    """The pixel within 0.12 mm of ``radius`` (along the ray) that contrasts most with
    ``ref``."""
    best = 1.0
    for dr in (-0.12, -0.06, 0.0, 0.06, 0.12):
        best = max(best, contrast(pixel_mm(img, (0, 0), _at(c, radius + dr, angle)), ref))
    return best


def test_cut_circle_stands_out_on_red_and_blue(defs, tokens):
    """Along the whole cut circle the line contrasts at least 3:1 with the token
    colour next to it (grey on red and on the blue ring was about 1.1:1)."""
    pages, img = tokens
    r = defs.satellites.diameter_mm / 2
    for g in _groups(pages[0], "satellite"):
        ratios = []
        for angle in range(0, 360, 6):
            ref = pixel_mm(img, (0, 0), _at(g.translate, r + 1.0, angle))
            ratios.append(_strongest(img, g.translate, r, angle, ref))
        ratios.sort()
        assert ratios[len(ratios) // 2] >= 3.0, (g.cls, ratios[:5])


def test_nothing_inside_a_token_looks_like_a_cut_line(defs, tokens):
    """Between the numeral's pips and the cut line no thin ring contrasts 3:1
    with the token colour on both sides (the white ring on red did)."""
    pages, img = tokens
    r = defs.satellites.diameter_mm / 2
    step = 0.05
    groups = _groups(pages[0], "satellite")
    assert len(groups) == 24
    looked = [0] * len(groups)  # profile points compared, per token
    for n, g in enumerate(groups):
        for angle in (20, 160, 200, 340):  # clear of the pips below the numeral
            profile = [pixel_mm(img, (0, 0), _at(g.translate, r - 3.0 + k * step, angle))
                       for k in range(int(2.6 / step))]
            for k in range(12, len(profile) - 12):
                a, b = profile[k - 12], profile[k + 12]  # 0.6 mm either side
                if close(a, b, 20):
                    looked[n] += 1
                    assert contrast(profile[k], a) < 3.0, (g.cls, angle, k)
    # the check ran on every token: on each, at least 15 of its 112 profile points have
    # one colour on both sides to compare with (about 20 on a blue ring, 66 on red)
    assert min(looked) >= 15, looked


def _disc_width(img, centre, radius) -> float:
    """Width in mm of the token's coloured disc along the row through ``centre``: from a
    point 0.9 of the way out on either side, outwards to white paper."""
    y = int(centre[1] * S)
    left = int((centre[0] - 0.9 * radius) * S)
    right = int((centre[0] + 0.9 * radius) * S)
    while left > 0 and sum(img.getpixel((left - 1, y))) < 740:
        left -= 1
    while right < img.width - 1 and sum(img.getpixel((right + 1, y))) < 740:
        right += 1
    return (right - left + 1) / S


def test_fit_scales_the_tokens_with_the_board_and_says_so(defs):
    """With --fit the tokens are printed at the board's scale (a 25 mm token on
    a 30 mm cell stays 5/6 of a cell) and both sheets say the scale."""
    opts = BuildOptions(fit=True, bleed=False)
    board = board_pages(defs, opts)
    assert len(board) == 1
    scale = next(g.scale for g in board[0].items if isinstance(g, Group) and g.scale != 1)
    assert scale < 0.8
    pages = token_sheet(defs, opts)
    img = _page_image(pages[0])
    radius = defs.satellites.diameter_mm * scale / 2
    widths = [_disc_width(img, g.translate, radius) for g in _groups(pages[0], "satellite")]
    cell = defs.board.cell_mm * scale
    for w in widths:
        assert w == pytest.approx(defs.satellites.diameter_mm * scale, abs=0.4)  # + cut line
        assert w < cell
    percent = f"{scale * 100:.0f} %"
    for drawing in (board[0], pages[0]):
        text = " ".join(line.text for line in text_lines(open_pdf(render_pdf([drawing])), 0))
        assert percent in text, (drawing.title, text[:200])


def test_markers_for_both_tracks_fit_their_boxes(defs, tokens):
    """The token page carries a marker for the connected-satellites track and one
    for the grace track, each no larger than a track box, printed (coloured pixels)."""
    pages, img = tokens
    geo = sat.board_geometry(defs)
    box = sat.track_box(defs, geo.size, geo.cell)
    for kind in ("connected", "grace"):
        markers = _groups(pages[0], f"track-marker {kind}")
        assert len(markers) >= 1, kind
        for m in markers:
            circles = [i for i in walk(m.items) if getattr(i, "cls", None) == "cut-circle"]
            assert circles and 2 * circles[0].r <= box
            edge = (m.translate[0] + 0.8 * circles[0].r, m.translate[1])
            assert sum(pixel_mm(img, (0, 0), edge)) < 600


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_score_pad_has_a_draw_box_and_cut_lines(defs, paper):
    """Every game on the pad has a Draw tick box, and dashed cut lines run through
    the gaps between the games (dark pixels along the middle of every gap). With a row per
    colony, four games fit a sheet."""
    page = satellites_pad(defs, page_size(paper))[0]
    games = _groups(page, "pad-game")
    assert len(games) >= 4
    draws = [i for g in games for i in walk(g.items)
             if isinstance(i, Rect) and i.cls == "tick-box draw"]
    assert len(draws) == len(games)
    lines = text_lines(open_pdf(render_pdf([page])), 0)
    assert sum(1 for ln in lines if ln.text == "Draw" and ln.size >= 2.47) == len(games)
    img = _page_image(page)
    xs = sorted({round(g.translate[0], 3) for g in games})
    ys = sorted({round(g.translate[1], 3) for g in games})
    rects = [i for i in walk(games[0].items) if isinstance(i, Rect)]
    block_w = max(i.x + i.w for i in rects)
    block_h = max(i.y + i.h for i in rects)

    def dark(x: float, y: float) -> bool:
        return sum(img.getpixel((int(x * S), int(y * S)))) < 600

    # the vertical gap between the two columns of games and each gap between rows
    mid_x = (xs[0] + block_w + xs[1]) / 2.0
    ticks = [dark(mid_x, ys[0] + k * 0.2) for k in range(int((ys[-1] - ys[0]) / 0.2))]
    assert sum(ticks) / len(ticks) > 0.25
    for a, b in zip(ys, ys[1:], strict=False):
        mid_y = (a + block_h + b) / 2.0
        ticks = [dark(xs[0] + k * 0.2, mid_y) for k in range(int((xs[1] + block_w - xs[0])
                                                                  / 0.2))]
        assert sum(ticks) / len(ticks) > 0.25, mid_y


def _board_window(doc, index, x, y, w, h, dpi):
    return window(doc, index, x, y, max(1, round(w * dpi / 25.4)), max(1, round(h * dpi / 25.4)),
                  dpi)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_assembled_board_is_the_board_without_strips(defs, paper):
    """Cut every piece out of its page along its visible part (what shows once the
    flaps are glued under), lay it where it belongs: the board appears exactly as drawn,
    with no grey strip anywhere (each piece compared with the board rendered alone)."""
    from generator.products.satellites import tiled_board

    dpi = 100.0
    tiled, pages = tiled_board(defs, page_size(paper))
    geo, items = sat.board_items(defs, trackers=False)
    reference = open_pdf(render_pdf([Drawing(geo.width, geo.height, items)]))
    doc = open_pdf(render_pdf(pages))
    seen = set()
    for n, page in enumerate(pages):
        for g in page.items:
            if not (isinstance(g, Group) and (g.cls or "").startswith("piece ")):
                continue
            piece = next(p for p in tiled.pieces if p.name == g.cls.split()[1])
            seen.add(piece.name)
            vx0, vy0, vx1, vy1 = piece.visible
            ox, oy = piece.origin
            w, h = vx1 - vx0, vy1 - vy0
            want = _board_window(reference, 0, vx0, vy0, w, h, dpi)
            if g.rotate:
                # turned a quarter clockwise: board (x, y) -> page (tx - (y - oy), ty + (x - ox))
                px = g.translate[0] - (vy1 - oy)
                py = g.translate[1] + (vx0 - ox)
                got = _board_window(doc, n, px, py, h, w, dpi).transpose(
                    Image.Transpose.ROTATE_90)
            else:
                px, py = g.translate[0] + vx0 - ox, g.translate[1] + vy0 - oy
                got = _board_window(doc, n, px, py, w, h, dpi)
            assert got.size == want.size
            diff = ImageChops.difference(got, want).convert("L")
            hist = diff.histogram()
            off = sum(hist[7:]) / (diff.width * diff.height)
            assert off < 0.01, (paper, piece.name, off)
    assert seen == {p.name for p in tiled.pieces}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_board_pages_are_well_filled(defs, paper):
    """No board page is mostly blank: at least 40 % of its 10 mm squares carry
    print (the last two pages of the old split were about 75 % empty), and A4 needs at
    most 3 pages."""
    pages = board_pages(defs, BuildOptions(page=paper))
    if paper == "a4":
        assert len(pages) <= 3
    doc = open_pdf(render_pdf(pages))
    for n, page in enumerate(pages):
        img = window(doc, n, 0, 0, int(page.width), int(page.height), 25.4).convert("L")
        used = total = 0
        for y in range(0, img.height - 9, 10):
            for x in range(0, img.width - 9, 10):
                total += 1
                used += img.crop((x, y, x + 10, y + 10)).getextrema()[0] < 245
        assert used / total >= 0.40, (paper, n + 1, used / total)
