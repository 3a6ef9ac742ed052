"""Shared test fixtures."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "cards"


@pytest.fixture
def cards_copy(tmp_path: Path) -> Path:
    """A writable copy of the shipped definitions folder (YAML only)."""
    dest = tmp_path / "cards"
    for game in ("orbitus", "satellites"):
        (dest / game).mkdir(parents=True)
        for f in (CARDS / game).glob("*.yaml"):
            shutil.copy(f, dest / game / f.name)
    shutil.copytree(CARDS / "schema", dest / "schema")
    return dest
