"""The calibration back's scales read the whole claimed range, in labels a person
can read: every label signed, all on one side of its scale, at least 6 pt; the front's
arms reach the scales for any duplex error of up to 5 mm in both directions at once.

Measured on the rendered sheet: the arms' length in pixels on the front, the labels' text,
size and position on the back."""

from __future__ import annotations

import re

import pytest
from pixels import open_pdf, text_lines, window

from generator.backends.pdf import render_pdf
from generator.calibration import SCALE_AT, calibration_pages, crosshair_centres
from generator.options import BuildOptions
from generator.sheets import page_size

DPI = 300.0
S = DPI / 25.4
CLAIMED = 5.0


@pytest.fixture(scope="module")
def sheet():
    pages = calibration_pages(BuildOptions())
    return pages, open_pdf(render_pdf(pages))


def _arm(doc, centre) -> float:
    """Half-length (mm) of the front crosshair's horizontal arm at ``centre``, measured by
    walking right along it in a 300 dpi rendering until the paper is white."""
    x0, y0 = centre
    img = window(doc, 0, x0, y0 - 0.5, int(40 * S), int(1 * S), DPI).convert("L")
    row = int(0.5 * S)
    dark = [img.getpixel((x, row)) < 200 or img.getpixel((x, row - 1)) < 200
            for x in range(img.width)]
    end = max(i for i, d in enumerate(dark) if d)
    return end / S


def _scale_labels(doc, centre):
    """Labels near the back crosshair at ``centre`` (back page coordinates): the X scale's
    (below the centre) and the Y scale's (right of it), as (value text, line)."""
    cx, cy = centre
    found = {"x": [], "y": []}
    for line in text_lines(doc, 1):
        if not re.fullmatch(r"[−+]?\d+(\.\d)?", line.text):
            continue
        mx, my = (line.x0 + line.x1) / 2, (line.y0 + line.y1) / 2
        if abs(mx - cx) < 9 and SCALE_AT - 1 < my - cy < SCALE_AT + 6:
            found["x"].append(line)
        elif abs(my - cy) < 9 and SCALE_AT - 1 < mx - cx < SCALE_AT + 8:
            found["y"].append(line)
    return found


def _value(text: str) -> float:
    return float(text.replace("−", "-"))


def test_arms_reach_the_scales_for_any_error_up_to_five_mm(sheet):
    pages, doc = sheet
    for centre in crosshair_centres(page_size("a4")):
        arm = _arm(doc, centre)
        # an error (ex, ey) moves the arm across the scale by ex and along it by ey: the
        # arm still crosses the scale when it is longer than the scale's distance + ey
        assert arm - SCALE_AT >= CLAIMED, (centre, arm)


def test_labels_are_signed_readable_and_on_one_side(sheet):
    pages, doc = sheet
    w = page_size("a4")[0]
    for fx, fy in crosshair_centres(page_size("a4")):
        labels = _scale_labels(doc, (w - fx, fy))
        for axis in ("x", "y"):
            lines = labels[axis]
            values = sorted(_value(ln.text) for ln in lines)
            assert values and min(values) <= -CLAIMED and max(values) >= CLAIMED, (axis, values)
            for ln in lines:
                assert ln.size >= 6 * 25.4 / 72 - 0.01, (axis, ln)
                v = _value(ln.text)
                assert ln.text[0] in "−+" or v == 0, ln.text
            # one side: every X label below the ticks (their ends in a row: they read
            # upwards), every Y label to their right (their starts in a column)
            if axis == "x":
                assert all(ln.angle == -90 for ln in lines)
                tops = [ln.y0 for ln in lines]
                assert max(tops) - min(tops) < 0.3, tops
            else:
                starts = [ln.x0 for ln in lines if ln.text[0] in "−+"]
                assert max(starts) - min(starts) < 0.3, starts
