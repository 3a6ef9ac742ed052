"""Issue 20, point 10: the seats and the planet types stay apart for players with a
colour-vision deficiency.

The colours are read back from rendered components (the sectors' planet discs, the
start-line markers), then seen through the Machado et al. (2009) simulations of
protanopia, deuteranopia and tritanopia, and in greyscale; every pair must stay a CIEDE2000
distance apart (the symbols and seat glyphs carry the rest)."""

from __future__ import annotations

import io
import math
from collections import Counter
from statistics import median

import pytest
from PIL import Image

from cards.definitions import load_orbitus, load_satellites
from generator import colour_vision as cv
from generator.backends.png import render_png
from generator.export_png import components

DPI = 100.0
PX_MM = DPI / 25.4
APART = 12.0  # CIEDE2000 between any two seats or planet types, in each deficiency
APART_GREY = 6.0  # ... and in greyscale (a black-and-white print)


def _image(drawing) -> Image.Image:
    return Image.open(io.BytesIO(render_png([drawing], DPI, True)[0])).convert("RGBA")


def _ring(img: Image.Image, cx: float, cy: float, r: float) -> cv.RGB:
    """The median colour of the pixels on a circle of radius ``r`` px about (cx, cy)."""
    px = [img.getpixel((round(cx + r * math.cos(a)), round(cy + r * math.sin(a))))
          for a in (2 * math.pi * k / 90 for k in range(90))]
    return tuple(median(p[i] for p in px) / 255.0 for i in range(3))  # type: ignore[return-value]


def planet_colours() -> dict[str, cv.RGB]:
    """Each planet type's colour as printed: the disc of a sector with that planet, read
    between its symbol and its rim."""
    defs = load_orbitus()
    drawings = components("orbitus", defs)
    flats = defs.sectors.hex_across_flats_mm
    hub = 9.0 * flats / 50.0  # the planet disc's radius (generator.components.orbitus)
    out: dict[str, cv.RGB] = {}
    for sector in defs.sectors.sectors:
        if sector.centre != "planet" or sector.planet in out:
            continue
        drawing = drawings[f"sector-{sector.id}"]
        img = _image(drawing)
        out[sector.planet] = _ring(img, img.width / 2, img.height / 2, 0.88 * hub * PX_MM)
    assert set(out) == {p.id for p in defs.planets.planet_types}
    return out


def seat_colours() -> dict[str, cv.RGB]:
    """Each seat's colour as printed: the most common colour of its start-line marker."""
    defs = load_orbitus()
    drawings = components("orbitus", defs)
    out: dict[str, cv.RGB] = {}
    for seat in range(1, 7):
        img = _image(drawings[f"start-marker-P{seat}"])
        raw = img.tobytes()
        counts = Counter(raw[i:i + 3] for i in range(0, len(raw), 4) if raw[i + 3] == 255)
        out[f"P{seat}"] = tuple(c / 255.0 for c in counts.most_common(1)[0][0])  # type: ignore
    return out


def _problems(colours: dict[str, cv.RGB]) -> list[str]:
    found = cv.close_pairs(colours, APART, cv.VIEWS[:4])
    found += cv.close_pairs(colours, APART_GREY, ("greyscale",))
    return [str(p) for p in found]


def test_the_printed_planet_colours_stay_apart_for_every_colour_vision():
    problems = _problems(planet_colours())
    assert not problems, "planet types that merge: " + "; ".join(problems)


def test_the_printed_seat_colours_stay_apart_for_every_colour_vision():
    problems = _problems(seat_colours())
    assert not problems, "seats that merge: " + "; ".join(problems)


def test_the_satellites_colours_stay_apart_under_each_deficiency():
    board = load_satellites().board
    colours = {"red": cv.parse_hex(board.red.colour), "blue": cv.parse_hex(board.blue.colour)}
    assert not cv.close_pairs(colours, APART, cv.VIEWS[:4])


def test_the_check_names_the_pairs_the_old_palettes_merged():
    """The palettes before issue 20: lava, jungle and desert merge under deuteranopia,
    ocean and gas giant under protanopia; the seats P1, P3, P4 (and P6) turn olive."""
    old_planets = {"ice": "#8fd3f4", "lava": "#e4572e", "jungle": "#3fa34d",
                   "desert": "#e9b949", "ocean": "#2e6fd8", "gas": "#9b5de5"}
    old_seats = {f"P{k + 1}": c for k, c in enumerate(
        ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"])}
    planets = _problems({k: cv.parse_hex(v) for k, v in old_planets.items()})
    assert "ocean and gas" in planets[0] and "(protanopia)" in planets[0], planets
    assert any("lava and jungle" in p and "deuteranopia" in p for p in planets), planets
    seats = " ".join(_problems({k: cv.parse_hex(v) for k, v in old_seats.items()}))
    for pair in ("P1 and P3", "P1 and P6", "P3 and P4"):
        assert pair in seats, (pair, seats)


@pytest.mark.parametrize("lab_a,lab_b,expected", [
    # Sharma, Wu and Dalal (2005), table 1, pairs 1, 2, 7 and 17
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
])
def test_ciede2000_matches_the_published_test_data(lab_a, lab_b, expected):
    assert cv.delta_e(lab_a, lab_b) == pytest.approx(expected, abs=1e-4)


def test_the_machado_matrices_keep_grey_and_merge_red_and_green_for_protanopes():
    grey = (0.5, 0.5, 0.5)
    for view in ("protanopia", "deuteranopia", "tritanopia"):
        sim = cv.simulate(grey, view)
        assert all(abs(c - 0.5) < 0.01 for c in sim), (view, sim)  # rows sum to 1
    red, green = cv.parse_hex("#d62728"), cv.parse_hex("#2ca02c")
    normal = cv.delta_e(cv.lab(red), cv.lab(green))
    seen = cv.delta_e(cv.lab(cv.simulate(red, "protanopia")),
                      cv.lab(cv.simulate(green, "protanopia")))
    assert normal > 60 and seen < normal / 2.5
