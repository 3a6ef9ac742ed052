"""Orbitus in the definitions layer: its ``cards`` adapter (:func:`rules.adapter`).

Which files make its definitions (``cards/orbitus/<role>.yaml``), how they are loaded and
validated, the rules core's ``Ruleset`` they give, which part of that ruleset each file
gives (``pnp build --watch`` rebuilds a step that read ``ruleset.hand_size`` when
``rules.yaml`` changes, and only then; a name not listed, a method that reads several
parts, counts as reading every part), and the model of its printed words. Importing it
loads neither pydantic nor the loader: the scorers' fast path reads only ``FILES``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from cards.files import ORBITUS_FILES
from rules.orbitus.ruleset import Ruleset

if TYPE_CHECKING:
    from collections.abc import Mapping

    from cards.definitions import OrbitusDefinitions
    from cards.labels import OrbitusLabels
    from cards.loader import Document

FILES = ORBITUS_FILES
OPTIONAL: frozenset[str] = frozenset()  # every file must be there
RULESET = Ruleset
PARTS: dict[str, tuple[str, ...]] = {
    "planet_types": ("planets",),
    "deck": ("sectors",), "cards": ("sectors",), "deck_size": ("sectors",),
    "full_deck": ("sectors",), "marker_counts": ("rules",),
    "hand_size": ("rules",), "min_hand": ("rules",), "start_lines": ("rules",),
    "scoring": ("rules",), "setup_for": ("rules",), "player_counts": ("rules",),
}


def load(folder: Path | None = None, deck_file: Path | None = None,
         documents: Mapping[str, Document] | None = None) -> OrbitusDefinitions:
    """The validated definitions (:func:`cards.definitions.load_orbitus`; ``documents``:
    parsed files to use instead of the folder's, by role)."""
    from cards.definitions import load_orbitus

    return load_orbitus(folder, deck_file, documents)


def labels() -> type[OrbitusLabels]:
    """The model of ``cards/orbitus/text/labels-<lang>.yaml``."""
    from cards.labels import OrbitusLabels

    return OrbitusLabels
