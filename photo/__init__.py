"""Reading a finished table from one photo, through the markers printed on the components.

The marker plan (which marker is which component, and where: :mod:`generator.markers`) is
the printables'; a photo is read against the plan a build wrote. Everything here looks at
pixels and needs the optional extra: ``pip install 'orbitus-pnp[photo]'`` (OpenCV and NumPy).
"""

from __future__ import annotations

import os
from typing import Any

# the reader multiplies many small matrices: BLAS threads only wait for each other there
# (and fight other work for the cores); set before NumPy is first imported
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")


def reader_for(game: str, mmap: Any, defs: Any) -> Any:
    """The photo reader of ``game`` (:class:`photo.orbitus.OrbitusReader` or
    :class:`photo.satellites.SatellitesReader`) against the marker map ``mmap``; it imports
    OpenCV."""
    if game == "orbitus":
        from photo.orbitus import OrbitusReader

        return OrbitusReader(mmap, defs)
    from photo.satellites import SatellitesReader

    return SatellitesReader(mmap, defs)


def can_read() -> bool:
    """Whether the optional extra that reads photos (OpenCV and NumPy) is installed."""
    try:
        import cv2  # noqa: F401
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True
