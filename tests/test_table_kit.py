"""Issue 20, points 9 and 11-13: the kit as it lies on the table.

- 9: a satellite's value dominates the token (a numeral at least 8 mm tall, the pips on
  both sides), its photo code small on the rim below; the diagrams draw no codes.
- 11: ``--ink-saver`` prints the sector backs and the station light (the backs still
  identical: tests/test_cutting.py); the build says how much ink every sheet takes.
- 12: ``--fold`` puts every back at its front's mirror place about the fold line.
- 13: nothing prints nearer the paper's edge than 6 mm (many lasers print nothing in the
  outer 5 mm); the orientation triangle keeps off the north route; the player aids come
  2-up on half the paper and on poker-size cards; the station and the board look like
  game pieces (a title, art), the seats tell apart by shape as well as by colour.
"""

from __future__ import annotations

import math

import pytest
from pixels import open_pdf, page_image, text_lines

from cards.definitions import load_orbitus, load_satellites
from generator import aid_sizes
from generator.build import BuildOptions, build
from generator.components import diagrams
from generator.components import orbitus as orb
from generator.components import satellites as sat
from generator.drawing import CAP_HEIGHT, Group, Text
from generator.ink import pdf_ink
from generator.markers.codes import MODULES
from generator.markers.plan import QUIET, TOKEN_MARKER_SHARE, token_marker
from generator.sheets import page_size
from rules import hexgeo
from testkit.commands import run_build

EDGE_MM = 6.0


def _walk(items, at=(0.0, 0.0), rotate=0.0, scale=1.0):
    """Every item with the transform of the groups it lies in."""
    for item in items:
        if isinstance(item, Group):
            a = math.radians(rotate)
            tx, ty = item.translate
            x = at[0] + scale * (tx * math.cos(a) - ty * math.sin(a))
            y = at[1] + scale * (tx * math.sin(a) + ty * math.cos(a))
            yield from _walk(item.items, (x, y), rotate + item.rotate, scale * item.scale)
        else:
            yield item, at, rotate, scale


def _classes(items) -> list[str]:
    return [getattr(i, "cls", None) or "" for i, *_ in _walk(items)]


# --- 13: nothing within 6 mm of the paper's edge --------------------------------------------


@pytest.fixture(scope="module")
def kits(tmp_path_factory) -> dict[str, dict[str, bytes]]:
    def kit(name: str, games=("orbitus", "satellites"), **opts) -> dict[str, bytes]:
        return build(tmp_path_factory.mktemp(name), games=games, opts=BuildOptions(**opts))

    return {
        "a4": kit("a4", lang="ru"),
        "letter": kit("letter", page="letter", lang="it"),
        "fold": kit("fold", games=("orbitus",), fold=True),
        "fit": kit("fit", games=("satellites",), fit=True),
        "ink": kit("ink", games=("orbitus",), ink_saver=True),
    }


def test_nothing_prints_within_6_mm_of_the_paper_edge(kits):
    dpi = 36.0
    band = int(EDGE_MM / 25.4 * dpi)  # whole pixels inside the outer 6 mm
    near: list[str] = []
    for kit, files in kits.items():
        for name, data in sorted(files.items()):
            if not name.endswith(".pdf"):
                continue
            doc = open_pdf(data)
            for k in range(len(doc)):
                img = page_image(doc, k, dpi).convert("L")
                w, h = img.size
                for box in ((0, 0, w, band), (0, h - band, w, h), (0, 0, band, h),
                            (w - band, 0, w, h)):
                    darkest = img.crop(box).getextrema()[0]
                    if darkest < 200:
                        near.append(f"{kit} {name} page {k + 1}: {darkest} at {box}")
    assert not near, "\n".join(near)


def test_the_crop_marks_are_still_there(kits):
    """... not left out: the sector sheet's marks reach into the margin beyond 6 mm."""
    doc = open_pdf(kits["a4"]["orbitus/sectors.pdf"])
    img = page_image(doc, 0, 100.0).convert("L")
    w, _ = img.size
    inner = int(EDGE_MM / 25.4 * 100) + 1
    strip = img.crop((0, 0, inner + int(4 / 25.4 * 100), img.height))
    assert strip.getextrema()[0] < 120  # something dark between 6 and 10 mm: the marks
    assert img.crop((0, 0, inner - 1, img.height)).getextrema()[0] >= 200


# --- 13: the orientation triangle, the station, the board, the seats ------------------------


def test_the_orientation_triangle_keeps_off_the_north_route():
    defs = load_orbitus()
    flats = defs.sectors.hex_across_flats_mm
    north = next(s for s in defs.sectors.sectors if 0 in s.route_sides)
    items = orb.sector_items(north, defs, flats)
    triangle = next(i for i, *_ in _walk(items) if getattr(i, "cls", "") ==
                    "orientation-marker")
    routes = [i for i, *_ in _walk(items) if getattr(i, "cls", "") == "route"]
    top = hexgeo.side_midpoint((0.0, 0.0), flats, 0)
    route = next(r for r in routes if math.dist(r.points[-1], top) < 1.0)
    half = route.style.width / 2.0
    # every corner of the triangle is clear of the route's band, and near the top side
    assert all(abs(x - top[0]) > half + 0.5 for x, _ in triangle.points), triangle.points
    assert all(y < -flats / 2.0 + 8.0 for _, y in triangle.points)


def test_the_station_looks_like_a_game_piece():
    defs = load_orbitus()
    items = orb.station_items(defs, defs.sectors.hex_across_flats_mm)
    classes = _classes(items)
    assert sum("station-art" in c for c in classes) >= 10  # orbits and stars
    texts = [i.text for i, *_ in _walk(items) if isinstance(i, Text)]
    assert defs.station.name in texts  # its name, not a navy hex


def test_the_board_looks_like_a_game_piece():
    defs = load_satellites()
    geo, items = sat.board_items(defs)
    classes = _classes(items)
    assert classes.count("board-frame") == 4  # the tinted frame, the corners left white
    assert "board-title" in classes and classes.count("board-art") >= 3
    title = next(i for i, *_ in _walk(items) if getattr(i, "cls", "") == "board-title")
    assert title.text == "SATELLITES"
    # the corner squares, where the photo markers sit, stay white: no frame over them
    lab = geo.label
    for item, *_ in _walk(items):
        if getattr(item, "cls", "") == "board-frame":
            for cx, cy in ((lab / 2, lab / 2), (geo.width - lab / 2, lab / 2)):
                assert not (item.x <= cx <= item.x + item.w and item.y <= cy <= item.y + item.h)
    # the booklets' miniature draws the plain board
    _, mini = sat.board_items(defs, size=5, zones=False, trackers=False, miniature=True)
    assert "board-frame" not in _classes(mini)


def test_every_seat_has_a_shape_of_its_own():
    defs = load_orbitus()
    flats = defs.sectors.hex_across_flats_mm
    shapes = []
    for seat in range(6):
        glyphs = [c for c in _classes(orb.start_marker_items(defs, seat, flats))
                  if c.startswith("seat-glyph")]
        assert len(glyphs) == 1, (seat, glyphs)
        shapes.append(glyphs[0])
    assert len(set(shapes)) == 6, shapes


# --- 13: the player aids 2-up and at card size ----------------------------------------------


@pytest.mark.parametrize("kit", ["a4", "letter"])
def test_the_aid_2_up_on_half_the_paper(kits, kit):
    paper = page_size("a4" if kit == "a4" else "letter")
    lang = "ru" if kit == "a4" else "it"
    for game in ("orbitus", "satellites"):
        doc = open_pdf(kits[kit][f"{game}/player-aid-{lang}-2up.pdf"])
        assert len(doc) == 1
        w, h = doc[0].get_size()
        assert (round(w), round(h)) == (round(max(paper) / 25.4 * 72),
                                        round(min(paper) / 25.4 * 72))  # landscape
        lines = text_lines(doc, 0)
        mid = max(paper) / 2.0  # mm
        left = [ln for ln in lines if ln.x1 < mid]
        right = [ln for ln in lines if ln.x0 > mid]
        assert len(left) > 20 and len(right) > 20  # an A5 page on each half
        over = [ln.text for ln in lines if ln.x0 < mid < ln.x1]
        assert all(len(t) < 60 for t in over), over  # only the fold's own note crosses it
    half = aid_sizes.half_page(page_size("a4"))
    assert (round(half[0], 1), round(half[1])) == (148.5, 210)  # A5


def test_the_aid_on_poker_size_cards(kits):
    paper = page_size("a4")
    cols, rows, x0, y0 = aid_sizes.card_grid(paper)
    assert (cols, rows) == (3, 3) and aid_sizes.CARD_MM == (63.5, 88.9)
    assert min(x0, y0) - 2.5 >= EDGE_MM  # the marks outside the grid stay in the margin
    for game in ("orbitus", "satellites"):
        doc = open_pdf(kits["a4"][f"{game}/player-aid-ru-cards.pdf"])
        lines = [ln for k in range(len(doc)) for ln in text_lines(doc, k)]
        numbers = sorted({ln.text for ln in lines if " / " in ln.text and
                          ln.text.replace(" / ", "").isdigit()})
        total = int(numbers[0].split(" / ")[1])
        assert numbers == [f"{n} / {total}" for n in range(1, total + 1)], numbers
        assert 3 <= total <= 9
        # every line lies inside one card, 3 mm or more from its cut, at 6 pt or more
        cw, ch = aid_sizes.CARD_MM
        for ln in lines:
            c, r = int((ln.x0 - x0) // cw), int((ln.y0 - y0) // ch)
            assert 0 <= c < cols and 0 <= r < rows, ln.text
            left, top = x0 + c * cw, y0 + r * ch
            assert left + 3.0 - 0.3 <= ln.x0 and ln.x1 <= left + cw - 3.0 + 0.3, ln.text
            assert top + 3.0 - 0.3 <= ln.y0 and ln.y1 <= top + ch - 3.0 + 0.3, ln.text
            assert ln.size >= 6.0 * 25.4 / 72.0 - 0.01, ln.text
        # every card reads on its own: none opens in the middle of a sentence
        for k in range(len(doc)):
            tops: dict[tuple[int, int], object] = {}
            for ln in text_lines(doc, k):
                if len(ln.text) < 4:  # a diagram's coordinates
                    continue
                slot = (int((ln.x0 - x0) // cw), int((ln.y0 - y0) // ch))
                if slot not in tops or ln.y0 < tops[slot].y0 - 0.5 or (
                        abs(ln.y0 - tops[slot].y0) <= 0.5 and ln.x0 < tops[slot].x0):
                    tops[slot] = ln
            opened = [ln.text for ln in tops.values() if ln.text[:1].islower()]
            assert not opened, (game, k, opened)


# --- 9: the satellites' tokens --------------------------------------------------------------


def test_a_token_s_value_dominates_and_its_code_keeps_to_the_rim():
    defs = load_satellites()
    d = defs.satellites.diameter_mm
    for colour in ("red", "blue"):
        for value in (1, 2, 3, 4):
            items = sat.satellite_token(defs, colour, value)
            numeral = next(i for i, *_ in _walk(items) if getattr(i, "cls", "") ==
                           "satellite-value")
            cap = numeral.size * CAP_HEIGHT
            assert numeral.text == str(value) and cap >= 8.0  # 8 mm tall or more
            pips = [i for i, *_ in _walk(items) if getattr(i, "cls", "") == "pip"]
            assert len(pips) == 2 * value  # the value again on both sides
            assert {p.cx > 0 for p in pips} == {True, False}
            marker = token_marker(colour, value, d)
            assert marker.size <= TOKEN_MARKER_SHARE * d + 1e-9 <= 0.30 * d + 1e-9
            quiet = QUIET * marker.size / MODULES
            numeral_bottom = numeral.y + 0.1
            assert marker.y - marker.size / 2 - quiet >= numeral_bottom  # below the numeral
            assert marker.y > 0 and math.hypot(marker.size / 2, marker.y + marker.size / 2
                                               ) < d / 2  # on the lower rim, inside
            # without a marker (markers: false) the numeral takes the middle
            bare = sat.satellite_token(defs, colour, value, fiducial=False)
            assert "fiducial" not in _classes(bare)


def test_the_diagrams_draw_no_photo_codes():
    sdefs, odefs = load_satellites(), load_orbitus()
    for art in (diagrams.colony(sdefs), diagrams.satellites_setup(sdefs),
                diagrams.closed_blocks(odefs), diagrams.setups(odefs),
                diagrams.open_routes(odefs)):
        assert "fiducial" not in _classes(art.items)


# --- 11 and 12: --ink-saver and --fold ------------------------------------------------------


def test_ink_saver_backs_take_far_less_ink_and_stay_identical(kits, tmp_path):
    plain = pdf_ink(kits["a4"]["orbitus/sectors.pdf"])  # at 100 dpi: a hairline its width
    light = pdf_ink(kits["ink"]["orbitus/sectors.pdf"])
    assert len(plain) == len(light)
    backs_plain, backs_light = plain[1::2], light[1::2]
    assert max(backs_light) <= 0.5 * min(backs_plain), (backs_plain, backs_light)
    fronts_plain, fronts_light = plain[0::2], light[0::2]
    assert max(fronts_light) < min(fronts_plain), (fronts_plain, fronts_light)
    station_plain = pdf_ink(kits["a4"]["orbitus/station.pdf"])[0]
    station_light = pdf_ink(kits["ink"]["orbitus/station.pdf"])[0]
    assert station_light < station_plain
    # the summary says it
    ran = run_build(["orbitus", "--ink-saver", "--out", str(tmp_path / "k")])
    assert ran.exit_code == 0
    assert "ink:" in ran.output and "orbitus/sectors.pdf" in ran.output


def test_fold_puts_every_back_behind_its_front():
    from generator.products.orbitus import fold_sheets

    defs = load_orbitus()
    page = page_size("a4")
    sheets = fold_sheets(defs, BuildOptions(fold=True))
    copies = sum(s.count for s in defs.sectors.sectors)
    fronts = [[g for g in d.items if isinstance(g, Group) and g.cls == "sector"]
              for d in sheets]
    assert sum(len(f) for f in fronts) == copies and len(sheets) == math.ceil(copies / 6)
    for d, front in zip(sheets, fronts, strict=True):
        backs = [g for g in d.items if isinstance(g, Group) and g.cls == "sector-back"]
        fold = page[1] / 2.0
        assert sorted((round(g.translate[0], 3), round(2 * fold - g.translate[1], 3))
                      for g in backs) == sorted((round(g.translate[0], 3),
                                                 round(g.translate[1], 3)) for g in front)
        assert all(g.rotate == 180.0 for g in backs)  # upright once folded over
        assert all(g.translate[1] < fold for g in front)
        assert [i for i in d.items if getattr(i, "cls", "") == "fold-line"]
