"""PNG backend: rasterises the PDF rendering with pdfium (a wheel, no system libraries)."""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence

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



def pdf_to_images(pdf: bytes, sizes: Sequence[tuple[int, int]]) -> Iterator[object]:
    """Every page of ``pdf`` in turn as a PIL image of exactly the size given for it in
    pixels (rendered at the scale that gives that size, never a pixel more from
    rounding), white under what the page does not paint. One page at a time: a caller
    can encode each while the next renders (pdfium itself is not thread-safe)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        for index, (w, h) in enumerate(sizes):
            page = document[index]
            scale = min((w - 1e-3) / page.get_width(), (h - 1e-3) / page.get_height())
            image = page.render(scale=scale, fill_color=WHITE, rev_byteorder=True).to_pil()
            page.close()
            if image.size != (w, h):  # a page not of the size given: shown, not hidden
                raise ValueError(f"page {index + 1} renders at {image.size[0]} x "
                                 f"{image.size[1]} px, not {w} x {h}")
            yield image
    finally:
        document.close()
