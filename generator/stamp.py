"""The design stamp: ``v0.7.2·3fa9c1`` (or the hash alone) in small type on every printed
component, in the footer of every booklet and pad, so a card on the table says which
version of the design it belongs to (:mod:`cards.design`).

Components call :func:`stamp_items` where their safe area has room outside the art. When
two versions are compared (``pnp diff``, ``pnp build --since``) the stamps are left out
(:func:`stamps_off`): every component of a new version carries a new stamp, which is no
change of the component.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Literal

from generator.drawing import Item, Text

STAMP_CLASS = "design-stamp"
STAMP_INK = "#6b6b6b"
STAMP_SIZE_MM = 1.5  # small type: about 4 pt
_ON: ContextVar[bool] = ContextVar("design_stamps", default=True)


@contextmanager
def stamps_off() -> Iterator[None]:
    """Draw without stamps inside the ``with`` block (to compare two versions)."""
    token = _ON.set(False)
    try:
        yield
    finally:
        _ON.reset(token)


def stamp_text(defs: Any) -> str | None:
    """The stamp of validated definitions, or None while stamps are off."""
    if not _ON.get():
        return None
    design = getattr(defs, "design", None)
    return None if design is None else str(design.stamp)


def stamp_items(defs: Any, x: float, y: float, size: float = STAMP_SIZE_MM,
                anchor: Literal["start", "middle", "end"] = "middle", fill: str = STAMP_INK,
                rotate: float = 0.0) -> list[Item]:
    """The stamp as one line of small type with its baseline at ``(x, y)``; nothing while
    stamps are off."""
    text = stamp_text(defs)
    if text is None:
        return []
    return [Text(x, y, text, size, fill=fill, anchor=anchor, rotate=rotate, cls=STAMP_CLASS)]
