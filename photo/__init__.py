"""Reading a finished table from one photo, through the markers printed on the components.

The marker plan (which marker is which component, and where: :mod:`generator.markers`) is
the printables'; a photo is read against the plan a build wrote. Everything here looks at
pixels and needs the optional extra: ``pip install 'orbitus-pnp[photo]'`` (OpenCV and NumPy).

Each game's reader is its ``photo`` adapter (:func:`rules.adapter`, by convention
``photo.<game>``): ``READER(mmap, defs)`` the reader class, ``marker_map(defs)`` the
markers its definitions print, ``markers_missing(mmap)`` why nothing can be read against a
map (printed without markers), or None; and, where a reader takes something from both, its
``map_mismatch(mmap, defs)``: why a map given by hand does not fit the definitions (Orbitus:
a card of the deck without its marker), or None.
"""

from __future__ import annotations

import os
from typing import Any

import rules

# the reader multiplies many small matrices: BLAS threads only wait for each other there
# (and fight other work for the cores); set before NumPy is first imported
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")


def reader_for(game: str, mmap: Any, defs: Any) -> Any:
    """The photo reader of ``game`` (its adapter's ``READER``, e.g.
    :class:`photo.orbitus.OrbitusReader`) against the marker map ``mmap``; it imports
    OpenCV."""
    return rules.adapter(game, "photo").READER(mmap, defs)


def marker_map(game: str, defs: Any) -> Any:
    """The :class:`~generator.markers.plan.MarkerMap` of what ``defs`` print for ``game``."""
    return rules.adapter(game, "photo").marker_map(defs)


def markers_missing(game: str, mmap: Any) -> str | None:
    """Why nothing of ``game`` can be read against ``mmap`` (printed without markers), or
    None."""
    found: str | None = rules.adapter(game, "photo").markers_missing(mmap)
    return found


def map_mismatch(game: str, mmap: Any, defs: Any) -> str | None:
    """Why a marker map given by hand (``--markers``) cannot be read with the definitions
    ``defs`` (the game's reader says, where it takes something from both: Orbitus, the
    deck's cards), or None."""
    check = getattr(rules.adapter(game, "photo"), "map_mismatch", None)
    found: str | None = check(mmap, defs) if check is not None else None
    return found


def printed_without(mmap: Any, needs: tuple[tuple[str, str], ...], what: str) -> str | None:
    """Why nothing can be read against ``mmap``: ``what`` (the deck, the game) was printed
    without the markers of a kind the reader ``needs`` (kind, the definitions file that turns
    them on: the first missing is named); None when every kind is there."""
    for kind, file in needs:
        if not mmap.of_kind(kind):
            return (f"{what} was printed without markers (markers: false in {file}); reprint "
                    f"with markers: true to score from photos")
    return None


def can_read() -> bool:
    """Whether the optional extra that reads photos (OpenCV and NumPy) is installed."""
    try:
        import cv2  # noqa: F401
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True
