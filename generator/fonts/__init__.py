"""The embedded font (DejaVu Sans, covers Latin and Cyrillic), shipped with its licence.

reportlab's built-in PDF fonts have no Cyrillic; the TTF files here are
registered once and embedded (subset) in every PDF, so every machine builds
the same file.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

FONT_DIR = Path(__file__).resolve().parent
REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"
FILES = {REGULAR: FONT_DIR / "DejaVuSans.ttf", BOLD: FONT_DIR / "DejaVuSans-Bold.ttf"}
SVG_FAMILY = "'DejaVu Sans', Verdana, Arial, sans-serif"


@cache
def register() -> None:
    """Register both faces with reportlab (idempotent)."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for name, path in FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(path)))


def font_name(bold: bool) -> str:
    return BOLD if bold else REGULAR


def string_width(text: str, size: float, bold: bool = False) -> float:
    """Width of ``text`` at em size ``size`` (same unit as ``size``)."""
    from reportlab.pdfbase import pdfmetrics

    register()
    return float(pdfmetrics.stringWidth(text, font_name(bold), size))
