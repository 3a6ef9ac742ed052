"""Golden playthroughs: every golden game record replayed step by step (the position after
every move, who moves next, their legal actions, the running scores) and compared with the
text kept beside it (``NAME.playthrough.txt``). A change in any rule shows up here as a
readable diff of the positions it changes.

After a deliberate change of the rules, rewrite them with
``PNP_UPDATE_GOLDENS=1 .venv/bin/python -m pytest tests/test_playthroughs.py`` and read the
diff before committing it.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from records.playthrough import playthrough
from records.record import RecordError, read_record, replay

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "records"
RECORDS = sorted(FIXTURES.glob("orbitus/*.yaml")) + sorted(FIXTURES.glob("satellites/*.yaml"))


def text_of(path: Path) -> str:
    shown = f"{path.parent.name}/{path.name}"
    try:
        replayed = replay(read_record(path, shown))
    except RecordError as exc:
        return (f"# playthrough of {shown}: the record cannot be replayed\n"
                + "".join(f"{line}\n" for line in exc.problems))
    return playthrough(replayed, shown)


@pytest.mark.parametrize("path", RECORDS, ids=[f"{p.parent.name}/{p.stem}" for p in RECORDS])
def test_playthrough(path: Path):
    golden = path.with_name(path.stem + ".playthrough.txt")
    text = text_of(path)
    if os.environ.get("PNP_UPDATE_GOLDENS"):
        golden.write_text(text, encoding="utf-8")
    assert golden.exists(), f"{golden.name} is missing; run with PNP_UPDATE_GOLDENS=1"
    expected = golden.read_text(encoding="utf-8")
    if text != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), text.splitlines(True),
                                            golden.name, "now", n=2))
        pytest.fail(f"the playthrough of {path.name} changed:\n{diff[:6000]}")


def test_every_golden_record_has_a_playthrough():
    assert RECORDS
    for path in RECORDS:
        assert path.with_name(path.stem + ".playthrough.txt").exists(), path.name


@pytest.mark.parametrize("path", [FIXTURES / "orbitus" / "removal.yaml",
                                  FIXTURES / "satellites" / "displacement.yaml"],
                         ids=lambda p: p.parent.name)
def test_a_playthrough_is_the_same_twice(path: Path):
    assert text_of(path) == text_of(path)
