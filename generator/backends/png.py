"""PNG backend: rasterises the PDF rendering with pdfium (a wheel, no system libraries)."""

from __future__ import annotations

import io
from collections.abc import Sequence

from generator.backends.pdf import render_pdf
from generator.drawing import Drawing

WHITE = (255, 255, 255, 255)
CLEAR = (255, 255, 255, 0)


def pdf_to_pngs(pdf: bytes, dpi: float = 300.0, transparent: bool = False) -> list[bytes]:
    """Every page of ``pdf`` as PNG bytes at ``dpi`` (each side is the page's size in inches
    times ``dpi``, rounded up). ``transparent``: what the page does not paint stays clear
    (RGBA) instead of white."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    pages: list[bytes] = []
    try:
        for index in range(len(document)):
            page = document[index]
            bitmap = page.render(scale=dpi / 72.0, fill_color=CLEAR if transparent else WHITE)
            image = bitmap.to_pil()
            out = io.BytesIO()
            image.save(out, format="PNG", dpi=(dpi, dpi), optimize=False)
            pages.append(out.getvalue())
            page.close()
    finally:
        document.close()
    return pages


def render_png(drawing: Drawing | Sequence[Drawing], dpi: float = 300.0,
               transparent: bool = False) -> list[bytes]:
    """A drawing (or pages) as PNG images via the PDF backend."""
    pages = [drawing] if isinstance(drawing, Drawing) else list(drawing)
    return pdf_to_pngs(render_pdf(pages), dpi, transparent)
