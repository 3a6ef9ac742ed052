"""The calibration sheet: is the printer at 100 %, and where does it put the backs?

Page 1 (front) carries two 100 mm rulers and five numbered crosshairs F1-F5
with long thin arms. Page 2 (back) carries, behind each of them, a crosshair
B1-B5 and two small scales. Held against a lamp, the front's arms show
through the back; where they cross the back's scales is the printer's duplex
error, read directly as the ``--back-offset X,Y`` that cancels it:

- the back is drawn as it is seen when looking at the back of the sheet
  (x to the right, y down); a long-edge flip puts back point (x, y) behind
  front point (page width - x, y);
- if the printer lands the back (dx, dy) away from there, a tick labelled v
  sits at v + dx, so the front's arm (at 0) meets the tick v = -dx, and
  moving the backs by -dx is exactly that reading.

The whole back page is shifted by the current ``--back-offset``, as every
duplex back is, so a reprint after the correction reads 0, 0.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.backends.pdf import render_pdf
from generator.drawing import (
    CAP_HEIGHT,
    Circle,
    Drawing,
    Group,
    Item,
    Polyline,
    Style,
    Text,
    fit_size,
    text_centred,
)
from generator.sheets import MARGIN_MM, page_size

if TYPE_CHECKING:
    from generator.options import BuildOptions, Step

INK = "#1d1d1f"
BACK_INK = "#b3261e"
GREY = "#555555"
RULER_MM = 100
SCALE_MM = 6  # a back scale reads -6 .. +6 mm (the sheet promises -5 .. +5)
SCALE_AT = 10.0  # distance of a back scale from its crosshair's centre
# half-length of a front crosshair's arms: past the far end of a scale by its whole range,
# so an arm crosses its scale for any duplex error up to SCALE_MM in both directions at once
ARM_MM = SCALE_AT + SCALE_MM + 3.0
LABEL_MM = 2.2  # 6.2 pt
THIN = Style(stroke=INK, width=0.12)


def crosshair_centres(page: tuple[float, float]) -> list[tuple[float, float]]:
    """F1 in the middle, F2-F5 towards the corners (front page coordinates, mm)."""
    w, h = page
    return [(w / 2, h / 2 + 10.0), (40.0, 75.0), (w - 40.0, 75.0), (40.0, h - 45.0),
            (w - 40.0, h - 45.0)]


def _ruler(x0: float, y0: float, vertical: bool) -> list[Item]:
    """A 100 mm ruler from (x0, y0), ticks every mm, numbers every 10 mm."""
    items: list[Item] = []
    for mm_ in range(RULER_MM + 1):
        length = 5.0 if mm_ % 10 == 0 else 3.2 if mm_ % 5 == 0 else 1.8
        if vertical:
            y = y0 + mm_
            items.append(Polyline(((x0, y), (x0 + length, y)), THIN))
            if mm_ % 10 == 0:
                items.append(Text(x0 + 6.2, y + 0.8, str(mm_), 2.2, fill=INK))
        else:
            x = x0 + mm_
            items.append(Polyline(((x, y0), (x, y0 + length)), THIN))
            if mm_ % 10 == 0:
                items.append(text_centred(x, y0 + 7.4, str(mm_), 2.2, fill=INK))
    if vertical:
        items.append(Polyline(((x0, y0), (x0, y0 + RULER_MM)), THIN))
    else:
        items.append(Polyline(((x0, y0), (x0 + RULER_MM, y0)), THIN))
    return items


def _front_crosshair(c: tuple[float, float], label: str) -> list[Item]:
    x, y = c
    s = Style(stroke=INK, width=0.15)
    return [
        Polyline(((x - ARM_MM, y), (x + ARM_MM, y)), s, cls="front-arm"),
        Polyline(((x, y - ARM_MM), (x, y + ARM_MM)), s, cls="front-arm"),
        Circle(x, y, 2.5, s),
        Text(x - ARM_MM, y - 2.0, label, 2.6, fill=INK, bold=True, cls="crosshair-label"),
    ]


def _signed(v: float) -> str:
    """A scale value as labelled: −2, 0, +4 (a real minus sign)."""
    return "0" if v == 0 else f"{'+' if v > 0 else '−'}{abs(v):g}"


def _back_crosshair(c: tuple[float, float], label: str) -> list[Item]:
    """Crosshair and scales behind a front crosshair (back page coordinates)."""
    x, y = c
    s = Style(stroke=BACK_INK, width=0.15)
    items: list[Item] = [
        Polyline(((x - 4.0, y), (x + 4.0, y)), s),
        Polyline(((x, y - 4.0), (x, y + 4.0)), s),
        Circle(x, y, 2.5, s),
        Text(x - 9.0, y - 2.0, label, 2.6, fill=BACK_INK, bold=True, cls="crosshair-label"),
    ]
    # X scale: a row of ticks below the centre, crossed by the front's vertical arm; every
    # 0.5 mm a tick, every whole mm a longer one, every 2 mm a signed label below the row
    # (turned to read upwards, so labels 2 mm apart have room), minus to the left
    sy = y + SCALE_AT
    for half in range(-2 * SCALE_MM, 2 * SCALE_MM + 1):
        v = half / 2
        length = 2.4 if half % 4 == 0 else 1.6 if half % 2 == 0 else 0.9
        items.append(Polyline(((x + v, sy - length / 2), (x + v, sy + length / 2)), s))
        if half % 4 == 0:
            items.append(Text(x + v + LABEL_MM * CAP_HEIGHT / 2, sy + 1.8, _signed(v),
                              LABEL_MM, fill=BACK_INK, anchor="end", rotate=-90.0,
                              cls="scale-label x"))
    items.append(Polyline(((x - SCALE_MM, sy), (x + SCALE_MM, sy)), s))
    items.append(text_centred(x - SCALE_MM - 2.4, sy, "X", 2.6, fill=BACK_INK, bold=True))
    # Y scale: a column of ticks right of the centre, crossed by the front's horizontal arm;
    # labels to its right, minus above
    sx = x + SCALE_AT
    for half in range(-2 * SCALE_MM, 2 * SCALE_MM + 1):
        v = half / 2
        length = 2.4 if half % 4 == 0 else 1.6 if half % 2 == 0 else 0.9
        items.append(Polyline(((sx - length / 2, y + v), (sx + length / 2, y + v)), s))
        if half % 4 == 0:
            items.append(Text(sx + 1.8, y + v + LABEL_MM * CAP_HEIGHT / 2, _signed(v),
                              LABEL_MM, fill=BACK_INK, cls="scale-label y"))
    items.append(Polyline(((sx, y - SCALE_MM), (sx, y + SCALE_MM)), s))
    items.append(text_centred(sx, y - SCALE_MM - 2.4, "Y", 2.6, fill=BACK_INK, bold=True))
    return items


def calibration_pages(opts: BuildOptions, words: Any = None) -> list[Drawing]:
    """Front and back of the calibration sheet; ``words``: the Orbitus labels of the kit
    (its ``calibration`` texts; default English)."""
    from cards.labels import default_labels, fill

    said = (words or default_labels("orbitus")).calibration
    page = page_size(opts.page)
    w, h = page
    centres = crosshair_centres(page)
    front = Drawing(w, h, title="Calibration, front")
    text_w = w - 2 * MARGIN_MM - 10
    front.add(Text(MARGIN_MM + 5, MARGIN_MM + 8, said.front_title,
                   fit_size(said.front_title, 5.0, text_w, bold=True), fill=INK, bold=True))
    for i, line in enumerate(said.front_lines):
        front.add(Text(MARGIN_MM + 5, MARGIN_MM + 15 + 4.2 * i, line,
                       fit_size(line, 2.9, text_w), fill=GREY))
    ruler_y = MARGIN_MM + 44.0
    front.extend(_ruler((w - RULER_MM) / 2, ruler_y, vertical=False))
    front.add(text_centred(w / 2, ruler_y - 3.0, said.ruler, 2.6, fill=INK, bold=True))
    ruler_x = MARGIN_MM + 8.0
    top = centres[0][1] - RULER_MM / 2
    front.extend(_ruler(ruler_x, top, vertical=True))
    front.add(Text(ruler_x, top - 3.0, said.ruler, 2.6, fill=INK, bold=True))
    for i, c in enumerate(centres, start=1):
        front.extend(_front_crosshair(c, f"F{i}"))

    dx, dy = opts.back_offset
    back_items: list[Item] = [
        Text(MARGIN_MM + 5, MARGIN_MM + 8, said.back_title,
             fit_size(said.back_title, 5.0, text_w, bold=True), fill=BACK_INK, bold=True),
    ]
    for i, line in enumerate(said.back_lines):
        back_items.append(Text(MARGIN_MM + 5, MARGIN_MM + 15 + 4.2 * i, line,
                               fit_size(line, 2.9, text_w), fill=GREY))
    # as the option is typed: a dot before the decimals, whatever the language
    note = fill(said.offset_note, x=f"{dx:.1f}", y=f"{dy:.1f}")
    back_items.append(Text(MARGIN_MM + 5, MARGIN_MM + 15 + 4.2 * len(said.back_lines) + 2.0,
                           note, fit_size(note, 2.9, text_w, bold=True), fill=BACK_INK,
                           bold=True, cls="offset-note"))
    for i, (x, y) in enumerate(centres, start=1):
        back_items.extend(_back_crosshair((w - x, y), f"B{i}"))
    back = Drawing(w, h, [Group(tuple(back_items), (dx, dy), cls="calibration-back")],
                   "Calibration, back")
    return [front, back]


def calibration_step(opts: BuildOptions, cards: Path | None = None) -> Step:
    """The calibration sheet in the kit's language (its words are the Orbitus labels')."""

    def step() -> dict[str, bytes]:
        from cards.labels import load_labels

        words = load_labels(cards, "orbitus", opts.lang)
        return {"calibration.pdf": render_pdf(calibration_pages(opts, words),
                                              "Calibration sheet",
                                              "rulers and duplex crosshairs")}

    return ("Calibration", step)
