"""The pydantic model of a print-shop or virtual-table preset (``cards/presets/*.yaml``).

A preset says, as data, what one vendor asks for: the products it makes (shape, trim size,
bleed, safe zone, the pixel size of an upload), which product each of the games'
components goes on, the resolution and colour mode of the files, their type, names and
order, whether fronts and backs go together or apart, the largest file it takes, and
which components it cannot make (with the reason). :mod:`generator.presets` renders a
build from it and :mod:`generator.preflight` checks the build against it.

Lengths are in the preset's ``units`` (``in`` or ``mm``), as the vendor publishes them,
so a preset can be compared with the vendor's own page line by line.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator

from cards.models import Strict

MM_PER_IN = 25.4

# the components a preset can place, as ``game.component``
COMPONENTS: dict[str, str] = {
    "orbitus.sector": "every sector card (its back is the shared sector back)",
    "orbitus.station": "the station hex",
    "orbitus.start_marker": "the start-line markers (as many per seat as the most any "
                            "player count needs)",
    "orbitus.barrier_marker": "the barrier markers",
    "satellites.satellite": "the 24 satellite tokens",
    "satellites.track_marker": "the two tracker markers (connected and grace)",
    "satellites.board": "the board with its trackers",
}

# the shape each component is cut to (a product of another shape holds it on a card, its
# outline the line to cut along by hand)
COMPONENT_SHAPES: dict[str, str] = {
    "orbitus.sector": "hex", "orbitus.station": "hex", "orbitus.start_marker": "trapezoid",
    "orbitus.barrier_marker": "trapezoid", "satellites.satellite": "circle",
    "satellites.track_marker": "circle", "satellites.board": "rect",
}

_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
_PRODUCT_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
# the placeholders a file name may use
NAME_FIELDS = ("game", "product", "component", "name", "side", "preset")
_FIELD_RE = re.compile(r"\{([a-z_]+)\}")


def _check_name(value: str) -> str:
    if not _NAME_RE.match(value):
        raise ValueError(f"{value!r} is not a usable preset name; use lower-case letters, "
                         "digits, '.', '-' or '_' (e.g. thegamecrafter)")
    return value


def _check_pattern(value: str) -> str:
    unknown = [f for f in _FIELD_RE.findall(value) if f not in NAME_FIELDS]
    if unknown:
        raise ValueError(f"{{{unknown[0]}}} is not a placeholder a file name may use "
                         f"(known: {', '.join('{' + f + '}' for f in NAME_FIELDS)})")
    if value.startswith("/") or ".." in value.split("/") or "\\" in value:
        raise ValueError(f"{value!r}: a file name stays inside the build folder (no leading "
                         "'/', no '..', no '\\')")
    return value


PresetName = Annotated[str, AfterValidator(_check_name)]
NamePattern = Annotated[str, AfterValidator(_check_pattern)]
Length = Annotated[float, Field(gt=0, le=2000)]
Margin = Annotated[float, Field(ge=0, le=100)]


class Product(Strict):
    """One product of the vendor: what it is cut to, and what it wants uploaded."""

    title: str = Field(min_length=1, max_length=80, description="the vendor's name for it")
    shape: Literal["hex", "circle", "rect"] = Field(
        description="how the vendor cuts it: a hexagon, a circle or a rectangle")
    orientation: Literal["flat", "pointy"] = Field(
        "flat", description="a hexagon's orientation: flat (a flat side on top) or pointy")
    trim: tuple[Length, Length] | None = Field(
        None, description="width and height of the cut shape (a hexagon: across its corners "
                          "and across its flats, as it stands), in the preset's units; left "
                          "out: the component's own size (a shop that cuts to your file)")
    pad: Margin = Field(0, description="with no trim size: paper left round the component "
                                       "inside the cut, in the preset's units")
    bleed: Margin = Field(description="art past the cut line on every side, at least")
    safe: Margin = Field(description="how far inside the cut line text and important art "
                                     "must stay")
    pixels: tuple[Annotated[int, Field(ge=16, le=20000)],
                  Annotated[int, Field(ge=16, le=20000)]] | None = Field(
        None, description="the vendor's upload size in pixels (width, height) at the "
                          "preset's dpi, when it publishes one; the art is centred in it")
    source: str = Field(min_length=1, description="where the vendor publishes this size")


class Placement(Strict):
    """Which product one of the games' components goes on."""

    product: str = Field(min_length=1, description="a product of this preset")
    scale: Literal["exact", "fit"] = Field(
        "exact", description="exact: the component at 100 % (refused if it is larger than "
                             "the product; a smaller one has its art carried on to the "
                             "cut); fit: scaled to fill the product (same shape only)")


class PresetFile(Strict):
    """A vendor's requirements (``cards/presets/NAME.yaml``)."""

    name: PresetName = Field(description="what --preset calls it (the file's own name)")
    vendor: str = Field(min_length=1, max_length=80)
    kind: Literal["print", "virtual-table"] = Field(
        "print", description="print: files for a print shop; virtual-table: a kit to import "
                             "into an online table")
    format: Literal["png-per-face", "pdf-per-component", "pdf-deck",
                    "playingcards-io", "screentop"] = Field(
        description="png-per-face: one image per distinct face, fronts and backs apart; "
                    "pdf-per-component: one PDF per component, each face on its own page at "
                    "trim + bleed, its back after it; pdf-deck: one PDF per component in "
                    "the vendor's page order with a page for every copy; playingcards-io "
                    "and screentop: the import kits of those tables")
    description: str = ""
    sources: list[str] = Field(min_length=1, description="the vendor pages this preset "
                                                         "follows")
    units: Literal["in", "mm"] = Field(description="the unit of every length below")
    dpi: Annotated[int, Field(ge=72, le=1200)] = Field(
        300, description="resolution of every image, and the least any raster may have")
    colour: Literal["rgb", "cmyk"] = Field(
        "rgb", description="rgb, or cmyk: PDF/X-1a with an output intent (PDF formats)")
    max_ink: Annotated[int, Field(ge=100, le=400)] = Field(
        300, description="the most ink (C+M+Y+K, in %) the vendor allows (cmyk)")
    page_order: Literal["front-back", "back-front"] = Field(
        "front-back", description="PDF formats: which side of a card comes first")
    naming: NamePattern = Field(
        "{game}/{name}-{side}.png",
        description="every file's path in the build folder, from the placeholders "
                    "{game} {product} {component} {name} {side} {preset}")
    max_file_mb: Annotated[float, Field(gt=0, le=10000)] | None = Field(
        None, description="the largest file the vendor takes, in MB (1,000,000 bytes); left "
                          "out where the vendor states none")
    products: dict[Annotated[str, Field(pattern=_PRODUCT_RE.pattern)], Product] = Field(
        default_factory=dict)
    components: dict[Literal[tuple(COMPONENTS)], Placement] = Field(  # type: ignore[valid-type]
        default_factory=dict, description="which product each component goes on")
    leave_out: dict[Literal[tuple(COMPONENTS)], str] = Field(  # type: ignore[valid-type]
        default_factory=dict,
        description="components this vendor cannot make, each with the reason")

    @model_validator(mode="after")
    def _consistent(self) -> PresetFile:
        for key, placed in self.components.items():
            if placed.product not in self.products:
                known = ", ".join(self.products) or "none"
                raise ValueError(f"{key}: product {placed.product!r} is not one of this "
                                 f"preset's products ({known})")
            if key in self.leave_out:
                raise ValueError(f"{key} is both placed and left out; say one")
        missing = [c for c in COMPONENTS if c not in self.components and c not in
                   self.leave_out]
        if missing and self.kind == "print":
            raise ValueError(f"{', '.join(missing)}: neither placed nor left out; give each a "
                             "product under components, or a reason under leave_out")
        virtual = self.format in ("playingcards-io", "screentop")
        if virtual != (self.kind == "virtual-table"):
            wanted = "virtual-table" if virtual else "print"
            raise ValueError(f"format {self.format} goes with kind: {wanted}")
        if self.colour == "cmyk" and not self.format.startswith("pdf"):
            raise ValueError(f"colour cmyk needs a PDF format (PNG has no CMYK), not "
                             f"{self.format}")
        for key, product in self.products.items():
            if product.trim is None and product.pixels is not None:
                raise ValueError(f"product {key}: pixels need a trim size to go with them")
        return self

    def mm(self, value: float) -> float:
        """A length of this preset in millimetres."""
        return value * MM_PER_IN if self.units == "in" else value
