"""What the tests of design versions share: a copy of the shipped definitions with their
texts, and a checked edit of one of its files."""

from __future__ import annotations

import shutil
from pathlib import Path

CARDS = Path(__file__).resolve().parent.parent / "cards"


def copy_cards(dest: Path) -> Path:
    """Both games' definitions and texts, copied into ``dest``."""
    for game in ("orbitus", "satellites"):
        shutil.copytree(CARDS / game, dest / game, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def edit(path: Path, old: str, new: str) -> None:
    """Replace the first ``old`` in ``path`` by ``new``; ``old`` must be there."""
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
