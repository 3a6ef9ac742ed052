"""PDF backend: renders page drawings with reportlab, fonts embedded, byte-for-byte stable."""

from __future__ import annotations

import io
from collections.abc import Sequence

from reportlab.lib.colors import CMYKColor, HexColor
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


# (x, y, w, h) in mm in a page's own coordinates (top-left origin), for TrimBox/BleedBox
Box = tuple[float, float, float, float]


def render_pdf(pages: Sequence[Drawing], title: str = "", subject: str = "", *,
               boxes: Sequence[tuple[Box, Box] | None] | None = None,
               cmyk: bool = False, max_ink: float = 3.0) -> bytes:
    """A PDF with one page per drawing; each page is the drawing's size in mm.

    Every PDF asks viewers not to scale it when printing (``/PrintScaling /None``: a
    "fit to page" default would print the sheets at 96-98 %). ``boxes``: per page,
    ``(trim, bleed)`` boxes (print-shop pages) or None. ``cmyk``: every colour as device
    CMYK and no transparency (the content of a PDF/X-1a file, :mod:`generator.pdf_boxes`
    adds the output intent)."""
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
        enforceColorSpace="cmyk" if cmyk else None,
    )
    canvas._pnp_cmyk = max_ink if cmyk else None  # type: ignore[attr-defined]  # for _colour
    from reportlab.pdfbase.pdfdoc import PDFName

    canvas.setViewerPreference("PrintScaling", PDFName("None"))
    canvas.setTitle(title)
    canvas.setSubject(subject)
    canvas.setAuthor("orbitus-pnp")
    canvas.setCreator("orbitus-pnp pnp-build")
    canvas.setProducer("orbitus-pnp (reportlab)")
    for n, page in enumerate(pages):
        canvas.setPageSize((page.width * mm, page.height * mm))
        box = boxes[n] if boxes is not None else None
        canvas.setTrimBox(_pdf_box(box[0], page.height) if box else None)
        canvas.setBleedBox(_pdf_box(box[1], page.height) if box else None)
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


def _pdf_box(box: Box, page_height: float) -> tuple[float, float, float, float]:
    x, y, w, h = box
    return (round(x * mm, 3), round((page_height - y - h) * mm, 3), round((x + w) * mm, 3),
            round((page_height - y) * mm, 3))


def _colour(canvas: Canvas, hex_colour: str, opacity: float = 1.0) -> HexColor | CMYKColor:
    """The colour as the page takes it: RGB, or (CMYK pages) device CMYK by the plain
    formula, a translucent colour flattened onto white paper (PDF/X-1a has no
    transparency)."""
    colour = HexColor(hex_colour)
    max_ink = getattr(canvas, "_pnp_cmyk", None)
    if max_ink is None:
        return colour
    from generator.cmyk import cmyk_of

    return CMYKColor(*cmyk_of(hex_colour, opacity, max_ink))


def _apply(canvas: Canvas, style: Style) -> tuple[bool, bool]:
    fill = style.fill is not None
    stroke = style.stroke is not None and style.width > 0
    flat = getattr(canvas, "_pnp_cmyk", None) is not None
    if fill:
        canvas.setFillColor(_colour(canvas, style.fill, style.opacity))
        if style.opacity < 1 and not flat:
            canvas.setFillAlpha(style.opacity)
    if stroke:
        canvas.setStrokeColor(_colour(canvas, style.stroke, style.opacity))
        canvas.setLineWidth(style.width)
        canvas.setLineCap(_CAPS[style.cap])
        canvas.setLineJoin(_JOINS[style.join])
        if style.dash:
            canvas.setDash(list(style.dash), 0)
        if style.opacity < 1 and not flat:
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
        canvas.setFillColor(_colour(canvas, item.fill))
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
