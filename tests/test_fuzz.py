"""The fast slice of the mutation fuzzer (testkit/fuzzing.py) over every reader; the long
run (10,000 inputs per reader) is tools/fuzz_readers.py."""

from __future__ import annotations

import pytest

from testkit.fuzzing import fuzz

SLICE = {"definitions": 40, "layouts": 150, "boards": 150, "records": 100}


@pytest.mark.parametrize("kind", sorted(SLICE))
def test_no_input_gets_a_traceback_an_internal_error_or_a_hang(kind, tmp_path):
    tally = fuzz(kind, SLICE[kind], seed=2024, work=tmp_path)
    assert tally.inputs == SLICE[kind]
    assert tally.bad == 0, tally.failures[:5]
    # the mutations reach past the first checks: some inputs are still scored or loaded
    assert len(tally.codes) >= 2, tally.codes
