"""PNG export: every distinct component (the same set as the SVGs) as its own image.

The components are rendered through the PDF backend into one multi-page PDF
(one page per component, each the component's own size) and rasterised by
pdfium, so a PNG shows exactly what prints. Outside the component's shape
the image is transparent, ready for virtual tabletops and slides.
"""

from __future__ import annotations

from typing import Any

from generator.backends.pdf import render_pdf
from generator.backends.png import pdf_to_pngs
from generator.drawing import Drawing

DEFAULT_DPI = 300.0
MIN_DPI = 30.0
MAX_DPI = 1200.0


def components(game: str, defs: Any, words: Any = None) -> dict[str, Drawing]:
    from generator.products import product

    drawings: dict[str, Drawing] = product(game).components(defs, words)
    return drawings


def component_pngs(game: str, defs: Any, dpi: float = DEFAULT_DPI,
                   words: Any = None) -> dict[str, bytes]:
    """``{"<game>/png/<name>.png": bytes}`` for every distinct component of ``game``, its
    words those of ``words`` (the kit's labels; default English)."""
    drawings = components(game, defs, words)
    names = list(drawings)
    pdf = render_pdf([drawings[n] for n in names], f"{game} components", "PNG export")
    images = pdf_to_pngs(pdf, dpi, transparent=True)
    return {f"{game}/png/{name}.png": image for name, image in zip(names, images, strict=True)}
