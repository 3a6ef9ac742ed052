"""What both scorers share: violations, exit codes, JSON and picture output."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # rendering code is imported only when a picture is asked for
    from generator.drawing import Drawing

EXIT_OK = 0
EXIT_VIOLATIONS = 1
EXIT_UNREADABLE = 2


@dataclass(frozen=True)
class Violation:
    """One broken rule: which rule, where on the table, and a plain sentence."""

    rule: str
    cell: Any
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "cell": self.cell, "message": self.message}


def dump_json(obj: Any) -> str:
    """JSON as the scorers print it: UTF-8 text, stable key order as built, indented."""
    return json.dumps(obj, ensure_ascii=False, indent=2) + "\n"


def write_picture(drawing: Drawing, svg: Path | None, png: Path | None, dpi: float = 150) -> None:
    """Write the picture of a scored table as SVG and/or PNG, each file atomically."""
    from generator.output import write_atomic

    if svg is not None:
        from generator.backends.svg import render_svg

        write_atomic(svg, render_svg(drawing))
    if png is not None:
        from generator.backends.png import render_png

        write_atomic(png, render_png(drawing, dpi)[0])


def fail(message: str, code: int = EXIT_UNREADABLE) -> int:
    """Print an error line to stderr and return the exit code to use."""
    sys.stderr.write(message.rstrip("\n") + "\n")
    return code
