"""What a build is asked for (:class:`BuildOptions`) and what a build step is."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from generator.drawing import Group, Text
from generator.fit import LEADING, fit_lines
from generator.sheets import BLEED_MM, MARGIN_MM

CAPTION = "#444444"


@dataclass(frozen=True)
class BuildOptions:
    page: str = "a4"
    bleed: bool = True
    gutter: float = 0.0  # mm between sector hexes (0: neighbours share their cut lines)
    fit: bool = False
    # (x, y) mm added to every duplex back (sector backs, calibration back): printer compensation
    back_offset: tuple[float, float] = (0.0, 0.0)
    lang: str = "en"  # the kit's language: labels-<lang>.yaml, rules-<lang>.md, ...
    svg_text: str = "font"  # "font": SVG text names DejaVu Sans; "outline": drawn as paths
    png_dpi: float | None = None  # also write <game>/png/*.png at this resolution
    tts: bool = False  # also write the Tabletop Simulator export, <game>/tts/
    out_root: Path | None = None  # absolute output folder (for the TTS file:/// URLs)
    ink_saver: bool = False  # light sector backs and station (generator.ink.ink_saving)
    fold: bool = False  # sector sheets for single-sided printers: fold and glue
    tts_base_url: str | None = None  # where the output folder is uploaded: TTS images by URL

    @property
    def bleed_mm(self) -> float:
        return BLEED_MM if self.bleed else 0.0


# A build step: a name for the progress bar and a function returning {relative path: bytes}
Step = tuple[str, Callable[[], dict[str, bytes]]]


CAPTION_SIZE = 2.6  # mm (7.4 pt)


def caption(page: tuple[float, float], text: str) -> Group:
    """The caption at the top left of a sheet, inside the margins: on one line if it fits,
    else wrapped onto up to three (then smaller, never below the 6 pt floor)."""
    fitted = fit_lines(text, CAPTION_SIZE, page[0] - 2 * MARGIN_MM, max_lines=3,
                       what="the sheet's caption")
    lead = fitted.size * LEADING
    return Group(tuple(Text(MARGIN_MM, MARGIN_MM + fitted.size + k * lead, line, fitted.size,
                            fill=CAPTION, cls="page-caption")
                       for k, line in enumerate(fitted.lines)), cls="page-caption")


def caption_height(page: tuple[float, float], text: str) -> float:
    """How much of the page's top :func:`caption` takes, from the margin down (mm)."""
    fitted = fit_lines(text, CAPTION_SIZE, page[0] - 2 * MARGIN_MM, max_lines=3,
                       what="the sheet's caption")
    return fitted.size * (1.0 + LEADING * (len(fitted.lines) - 1)) + 0.6 * fitted.size
