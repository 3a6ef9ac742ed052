"""Test helpers that look at printables as a printer makes them: pages rendered by pdfium
at a given resolution, windows cut out at exact millimetre positions, text read back
with its position and size.

``window`` renders a rectangle of a page given in millimetres (top-left origin, as the
drawing description uses) with the page's sub-pixel phase kept, so two components drawn
at different places of a page come out pixel for pixel alike when they are alike.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as raw
from PIL import Image, ImageDraw

MM_PER_PT = 25.4 / 72.0
Point = tuple[float, float]


def open_pdf(data: bytes | str) -> pdfium.PdfDocument:
    return pdfium.PdfDocument(data)


def page_image(doc: pdfium.PdfDocument, index: int, dpi: float) -> Image.Image:
    """A whole page as an RGB image on white."""
    return doc[index].render(scale=dpi / 72.0).to_pil().convert("RGB")


def window(doc: pdfium.PdfDocument, index: int, x_mm: float, y_mm: float, w_px: int,
           h_px: int, dpi: float = 300.0) -> Image.Image:
    """``w_px`` x ``h_px`` pixels of page ``index`` whose top-left corner is the page point
    (``x_mm``, ``y_mm``), rendered on white at ``dpi``."""
    page = doc[index]
    bitmap = pdfium.PdfBitmap.new_native(w_px, h_px, raw.FPDFBitmap_BGR)
    bitmap.fill_rect((255, 255, 255, 255), 0, 0, w_px, h_px)
    k = dpi / 72.0
    s = dpi / 25.4
    matrix = raw.FS_MATRIX(k, 0, 0, k, -x_mm * s, -y_mm * s)
    clip = raw.FS_RECTF(0, 0, w_px, h_px)
    raw.FPDF_RenderPageBitmapWithMatrix(bitmap, page, matrix, clip, raw.FPDF_ANNOT)
    return bitmap.to_pil().convert("RGB")


def masked(image: Image.Image, polygon_px: Sequence[Point]) -> Image.Image:
    """``image`` with everything outside ``polygon_px`` painted magenta."""
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).polygon([tuple(p) for p in polygon_px], fill=255)
    out = Image.new("RGB", image.size, (255, 0, 255))
    out.paste(image, (0, 0), mask)
    return out


def pixel_mm(image: Image.Image, origin_mm: Point, point_mm: Point,
             dpi: float = 300.0) -> tuple[int, int, int]:
    """The colour of ``image`` (rendered with its top-left at ``origin_mm``) at a page
    point in mm."""
    s = dpi / 25.4
    x = int(math.floor((point_mm[0] - origin_mm[0]) * s))
    y = int(math.floor((point_mm[1] - origin_mm[1]) * s))
    return image.getpixel((x, y))  # type: ignore[return-value]


def luminance(rgb: Sequence[int]) -> float:
    """Relative luminance (WCAG) of an sRGB colour given as 0-255 values."""

    def lin(c: float) -> float:
        c /= 255.0
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(v) for v in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Sequence[int], b: Sequence[int]) -> float:
    """WCAG contrast ratio of two colours (1 = none, 21 = black on white)."""
    la, lb = luminance(a), luminance(b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


def close(a: Sequence[int], b: Sequence[int], tol: int = 12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a[:3], b[:3], strict=True))


@dataclass(frozen=True)
class Line:
    """One line of text read back from a PDF page: its text, size (mm), box (mm, top-left
    origin) and the direction it reads in (degrees, 0 = left to right, 90 = top to
    bottom, -90 = bottom to top)."""

    text: str
    size: float
    x0: float
    y0: float
    x1: float
    y1: float
    angle: float = 0.0


def text_lines(doc: pdfium.PdfDocument, index: int) -> list[Line]:
    """The page's text as lines: characters of one size and direction on one baseline, in
    reading order, split where a gap wider than a few ems opens (columns). Sizes in mm."""
    page = doc[index]
    height_pt = page.get_height()
    tp = page.get_textpage()
    chars = []  # (angle, baseline, along, size, box, ch)
    for i in range(tp.count_chars()):
        ch = chr(raw.FPDFText_GetUnicode(tp, i))
        if ch in "\r\n\ufffe\x02":
            continue
        matrix = raw.FS_MATRIX()
        raw.FPDFText_GetMatrix(tp, i, matrix)
        scale = math.hypot(matrix.c, matrix.d) or 1.0
        size = raw.FPDFText_GetFontSize(tp, i) * scale * MM_PER_PT
        # reading direction on the page, y down
        angle = round(math.degrees(math.atan2(-matrix.b, matrix.a)))
        ux, uy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        ox, oy = _origin(tp, i)
        x, y = ox * MM_PER_PT, (height_pt - oy) * MM_PER_PT
        left, bottom, right, top = tp.get_charbox(i, loose=False)
        box = (left * MM_PER_PT, (height_pt - top) * MM_PER_PT, right * MM_PER_PT,
               (height_pt - bottom) * MM_PER_PT)
        if ch.isspace() and chars:  # pdfium's own word gaps carry no font: take the last
            angle, size = chars[-1][0], chars[-1][3]
            ux, uy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        chars.append((angle, round(x * -uy + y * ux, 1), x * ux + y * uy, size, box, ch))
    tp.close()
    chars.sort(key=lambda c: (c[0], c[1], c[2]))
    lines: list[Line] = []
    current: list = []

    def close_line() -> None:
        if not current:
            return
        text = "".join(c[5] for c in current).strip()
        if text:
            boxes = [c[4] for c in current if c[5].strip()] or [current[0][4]]
            lines.append(Line(text, round(max(c[3] for c in current), 2),
                              min(b[0] for b in boxes), min(b[1] for b in boxes),
                              max(b[2] for b in boxes), max(b[3] for b in boxes),
                              float(current[0][0])))
        current.clear()

    for c in chars:
        if current:
            prev = current[-1]
            gap = c[2] - prev[2]
            if (c[0], c[1]) != (prev[0], prev[1]) or abs(c[3] - prev[3]) > 0.05 or \
                    gap > 2.0 * c[3]:
                close_line()
        current.append(c)
    close_line()
    lines.sort(key=lambda ln: (round(ln.y1, 1), ln.x0))
    return lines


def _origin(tp: pdfium.PdfTextPage, index: int) -> tuple[float, float]:
    import ctypes

    x, y = ctypes.c_double(), ctypes.c_double()
    raw.FPDFText_GetCharOrigin(tp, index, x, y)
    return x.value, y.value
