"""Pictures of a drawing written to the files a user named (``--svg``/``--png``), each
file atomically, a file that cannot be written turned into one clear line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from cards.safe_text import printable
from pnp.common import fail

if TYPE_CHECKING:
    from generator.drawing import Drawing


def write_picture(drawing: Drawing, svg: Path | None, png: Path | None, dpi: float = 150) -> None:
    """Write the picture of a scored table as SVG and/or PNG, each file atomically.

    Each carries the tool's mark (:func:`pnp.common.mark_picture`), so the next picture
    written to that name may replace it. Raises :class:`PictureError` naming the file (as
    the user gave it) that could not be written; its temporary file is removed, and the
    file itself is left as it was."""
    from generator.output import write_atomic
    from pnp.common import mark_picture

    if svg is not None:
        from generator.backends.svg import render_svg

        _write_one(write_atomic, svg, mark_picture(render_svg(drawing)))
    if png is not None:
        from generator.backends.png import render_png

        _write_one(write_atomic, png, mark_picture(render_png(drawing, dpi)[0]))


class PictureError(Exception):
    """A picture file that could not be written: ``path`` as given, ``reason`` in words."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = path, reason


def _write_one(write: Callable[[Path, bytes], None], path: Path, data: bytes) -> None:
    try:
        write(path, data)
    except OSError as exc:
        raise PictureError(path, exc.strerror or str(exc)) from None


def save_picture(prog: str, drawing: Drawing, svg: Path | None, png: Path | None) -> int | None:
    """:func:`write_picture`, with a file that cannot be written turned into one clear
    line; returns the exit code to stop with, or None when both files were written."""
    try:
        write_picture(drawing, svg, png)
    except PictureError as exc:
        return fail(f"{prog}: cannot write the picture {printable(str(exc.path))}: "
                    f"{exc.reason}")
    return None
