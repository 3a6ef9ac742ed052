"""PDF backend: renders page drawings with reportlab, fonts embedded, byte-for-byte stable."""

from __future__ import annotations

import io
from collections.abc import Sequence

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import FILL_NON_ZERO, Canvas

from generator import fonts
from generator.drawing import (
    Circle,
    Drawing,
    Group,
    Item,
    Path,
    Polygon,
    Polyline,
    Rect,
    Style,
    Text,
)
from generator.glyphs import as_paths, needs_paths

_CAPS = {"butt": 0, "round": 1, "square": 2}
_JOINS = {"miter": 0, "round": 1, "bevel": 2}


def render_pdf(pages: Sequence[Drawing], title: str = "", subject: str = "") -> bytes:
    """A PDF with one page per drawing; each page is the drawing's size in mm."""
    fonts.register()
    buffer = io.BytesIO()
    first = pages[0]
    canvas = Canvas(
        buffer,
        pagesize=(first.width * mm, first.height * mm),
        invariant=True,
        pageCompression=1,
        initialFontName=fonts.REGULAR,  # no reference to an unembedded Helvetica
        initialFontSize=10,
    )
    canvas.setTitle(title)
    canvas.setSubject(subject)
    canvas.setAuthor("orbitus-pnp")
    canvas.setCreator("orbitus-pnp pnp-build")
    canvas.setProducer("orbitus-pnp (reportlab)")
    for page in pages:
        canvas.setPageSize((page.width * mm, page.height * mm))
        canvas.saveState()
        # mm units, origin top-left, y down: the drawing description's own coordinates
        canvas.translate(0, page.height * mm)
        canvas.scale(mm, -mm)
        for item in page.items:
            _draw(canvas, item)
        canvas.restoreState()
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _apply(canvas: Canvas, style: Style) -> tuple[bool, bool]:
    fill = style.fill is not None
    stroke = style.stroke is not None and style.width > 0
    if fill:
        canvas.setFillColor(HexColor(style.fill))
        if style.opacity < 1:
            canvas.setFillAlpha(style.opacity)
    if stroke:
        canvas.setStrokeColor(HexColor(style.stroke))
        canvas.setLineWidth(style.width)
        canvas.setLineCap(_CAPS[style.cap])
        canvas.setLineJoin(_JOINS[style.join])
        if style.dash:
            canvas.setDash(list(style.dash), 0)
        if style.opacity < 1:
            canvas.setStrokeAlpha(style.opacity)
    return fill, stroke


def _path(canvas: Canvas, item: Polygon | Polyline | Circle | Rect | Path):  # noqa: ANN202
    path = canvas.beginPath()
    if isinstance(item, Path):
        x, y = 0.0, 0.0
        for cmd in item.commands:
            op, *v = cmd
            if op == "M":
                x, y = float(v[0]), float(v[1])
                path.moveTo(x, y)
            elif op == "L":
                x, y = float(v[0]), float(v[1])
                path.lineTo(x, y)
            elif op == "Q":  # a quadratic curve as the cubic that draws it exactly
                cx, cy, ex, ey = (float(n) for n in v)
                path.curveTo(x + 2 / 3 * (cx - x), y + 2 / 3 * (cy - y),
                             ex + 2 / 3 * (cx - ex), ey + 2 / 3 * (cy - ey), ex, ey)
                x, y = ex, ey
            elif op == "C":
                path.curveTo(*(float(n) for n in v))
                x, y = float(v[4]), float(v[5])
            else:
                path.close()
        return path
    if isinstance(item, Circle):
        path.circle(item.cx, item.cy, item.r)
    elif isinstance(item, Rect):
        if item.rx > 0:
            path.roundRect(item.x, item.y, item.w, item.h, item.rx)
        else:
            path.rect(item.x, item.y, item.w, item.h)
    else:
        (x0, y0), *rest = item.points
        path.moveTo(x0, y0)
        for x, y in rest:
            path.lineTo(x, y)
        if isinstance(item, Polygon):
            path.close()
    return path


def _draw(canvas: Canvas, item: Item) -> None:
    if isinstance(item, Group):
        canvas.saveState()
        tx, ty = item.translate
        if tx or ty:
            canvas.translate(tx, ty)
        if item.rotate:
            canvas.rotate(item.rotate)  # y is down, so a positive angle turns clockwise
        if item.scale != 1:
            canvas.scale(item.scale, item.scale)
        if item.clip is not None:
            canvas.clipPath(_path(canvas, item.clip), stroke=0, fill=0)
        for child in item.items:
            _draw(canvas, child)
        canvas.restoreState()
        return
    if isinstance(item, Text):
        if not item.text:
            return
        if needs_paths(item):  # pictographs are drawn as the font's outlines
            _draw(canvas, as_paths(item))
            return
        canvas.saveState()
        canvas.setFillColor(HexColor(item.fill))
        canvas.translate(item.x, item.y)
        if item.rotate:
            canvas.rotate(item.rotate)
        canvas.scale(1, -1)
        canvas.setFont(fonts.font_name(item.bold), item.size)
        if item.anchor == "middle":
            canvas.drawCentredString(0, 0, item.text)
        elif item.anchor == "end":
            canvas.drawRightString(0, 0, item.text)
        else:
            canvas.drawString(0, 0, item.text)
        canvas.restoreState()
        return
    canvas.saveState()
    fill, stroke = _apply(canvas, item.style)
    if fill and isinstance(item, Polyline):
        fill = False
    if fill or stroke:
        canvas.drawPath(_path(canvas, item), fill=int(fill), stroke=int(stroke),
                        fillMode=FILL_NON_ZERO if isinstance(item, Path) else None)
    canvas.restoreState()
