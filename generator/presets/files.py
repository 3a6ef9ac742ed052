"""The two files every preset build writes beside the vendor's: what it holds and the preset
it follows (kept apart so the preflight reads them without the renderers)."""

from __future__ import annotations

from dataclasses import dataclass

MANIFEST = "manifest.csv"
PRESET_COPY = "preset.yaml"
MANIFEST_FIELDS = ("file", "page", "component", "name", "copies", "side", "product")


@dataclass(frozen=True)
class Row:
    """One line of ``manifest.csv`` (``line``: where it stands in the file, when read)."""

    file: str
    page: int
    component: str
    name: str
    copies: int
    side: str
    product: str
    line: int = 0
