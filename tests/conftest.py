"""Shared test fixtures."""

from __future__ import annotations

import os
import shutil
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "cards"
if str(ROOT) not in sys.path:  # testkit/ (kits for the tests) is not installed with the package
    sys.path.insert(0, str(ROOT))

# The tests that press Ctrl-C on a child process (`pnp build --watch`, `pnp sim` on a process
# pool) need the child to hear it. A shell starting the suite in the background (`cmd &`
# without job control, as a CI script may) hands it SIGINT ignored, and an ignored signal
# stays ignored in every child: their Ctrl-C would then do nothing. Catching it here (as
# an interactive Python would) gives each child the default disposition again.
if sys.platform != "win32" and signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True, scope="session")
def _own_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The tests keep validated rulesets in a cache folder of their own (commands started
    by the tests inherit it), never in the user's."""
    before = os.environ.get("PNP_CACHE_DIR")
    os.environ["PNP_CACHE_DIR"] = str(tmp_path_factory.mktemp("pnp-cache"))
    yield
    if before is None:
        os.environ.pop("PNP_CACHE_DIR", None)
    else:
        os.environ["PNP_CACHE_DIR"] = before


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
