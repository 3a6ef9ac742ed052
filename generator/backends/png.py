"""PNG backend: rasterises the PDF rendering with pdfium (a wheel, no system libraries)."""

from __future__ import annotations

import io
from collections.abc import Sequence

from generator.backends.pdf import render_pdf
from generator.drawing import Drawing


def pdf_to_pngs(pdf: bytes, dpi: float = 300.0) -> list[bytes]:
    """Every page of ``pdf`` as PNG bytes at ``dpi``."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    pages: list[bytes] = []
    try:
        for index in range(len(document)):
            page = document[index]
            bitmap = page.render(scale=dpi / 72.0)
            image = bitmap.to_pil()
            out = io.BytesIO()
            image.save(out, format="PNG", dpi=(dpi, dpi), optimize=False)
            pages.append(out.getvalue())
            page.close()
    finally:
        document.close()
    return pages


def render_png(drawing: Drawing | Sequence[Drawing], dpi: float = 300.0) -> list[bytes]:
    """A drawing (or pages) as PNG images via the PDF backend."""
    pages = [drawing] if isinstance(drawing, Drawing) else list(drawing)
    return pdf_to_pngs(render_pdf(pages), dpi)
