"""Satellites in the definitions layer: its ``cards`` adapter (:func:`rules.adapter`).

Which files make its definitions (``cards/satellites/<role>.yaml``; without ``rules.yaml``
the rules page's numbers apply), how they are loaded and validated, the rules core's
``Ruleset`` they give, which part of that ruleset each file gives (see :mod:`cards.orbitus`)
and the model of its printed words. Importing it loads neither pydantic nor the loader.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from cards.files import SATELLITES_FILES
from rules.satellites.ruleset import Ruleset

if TYPE_CHECKING:
    from collections.abc import Mapping

    from cards.definitions import SatellitesDefinitions
    from cards.labels import SatellitesLabels
    from cards.loader import Document

FILES = SATELLITES_FILES
OPTIONAL: frozenset[str] = frozenset({"rules"})  # without it, the rules page's numbers apply
RULESET = Ruleset
PARTS: dict[str, tuple[str, ...]] = {
    "size": ("board",), "setup_zone_cells": ("board",), "inward_values": ("board",),
    "red": ("board", "satellites"), "blue": ("board", "satellites"),
    "colour": ("board", "satellites"), "values": ("satellites",),
    "max_value": ("satellites",), "total": ("satellites",),
    "colony_min": ("rules",), "colony_max": ("rules",), "end_connected": ("rules",),
    "grace_moves": ("rules",), "first": ("rules",), "push_reach": ("rules",),
    "stall_moves": ("rules",),
}


def load(folder: Path | None = None, deck_file: Path | None = None,
         documents: Mapping[str, Document] | None = None) -> SatellitesDefinitions:
    """The validated definitions (:func:`cards.definitions.load_satellites`; ``documents``:
    parsed files to use instead of the folder's, by role); Satellites has no deck file of
    its own to name."""
    from cards.definitions import load_satellites

    if deck_file is not None:
        raise ValueError("Satellites has no deck file; give the definitions folder only")
    return load_satellites(folder, documents)


def labels() -> type[SatellitesLabels]:
    """The model of ``cards/satellites/text/labels-<lang>.yaml``."""
    from cards.labels import SatellitesLabels

    return SatellitesLabels
