"""What a build is asked for (:class:`BuildOptions`) and what a build step is."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from generator.drawing import Text
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

    @property
    def bleed_mm(self) -> float:
        return BLEED_MM if self.bleed else 0.0


# A build step: a name for the progress bar and a function returning {relative path: bytes}
Step = tuple[str, Callable[[], dict[str, bytes]]]


def caption(page: tuple[float, float], text: str) -> Text:
    """The one-line caption at the top left of a sheet."""
    return Text(MARGIN_MM, MARGIN_MM + 2.6, text, 2.6, fill=CAPTION, cls="page-caption")
