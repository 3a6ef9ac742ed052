"""The fast slice of the mutation fuzzer (testkit/fuzzing.py, testkit/fuzz_inputs.py) over
every reader; the long run (10,000 inputs per reader) is tools/fuzz_readers.py."""

from __future__ import annotations

import pytest

from testkit.fuzz_inputs import fuzz_any

# a few seconds each (benchmarks/bench_fuzz.py: photos cost most, then marker maps)
SLICE = {"definitions": 40, "layouts": 150, "boards": 150, "records": 100,
         "photos": 6, "markers": 12, "caches": 120, "games": 100}
# the outcomes a slice must reach (a marker map mutated is nearly always refused; the long
# run reaches exit 0 in one input of ten)
REACHED = {"photos": {"2"}, "markers": {"2"}, "caches": {"0", "refused"},
           "games": {"0"}}


@pytest.mark.parametrize("kind", sorted(SLICE))
def test_no_input_gets_a_traceback_an_internal_error_or_a_hang(kind, tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    tally = fuzz_any(kind, SLICE[kind], seed=2024, work=tmp_path)
    assert tally.inputs == SLICE[kind]
    assert tally.bad == 0, tally.failures[:5]
    if kind in REACHED:
        assert REACHED[kind] <= set(tally.codes), tally.codes
    else:  # some inputs are still scored or loaded
        assert len(tally.codes) >= 2, tally.codes


def test_the_fuzzer_finds_a_cache_that_believes_its_entries(tmp_path, monkeypatch):
    """The caches reader fails a cache without its checks (as it was before issue 26)."""
    from cards import cache

    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "check", lambda data, kind, key: None)
    tally = fuzz_any("caches", 60, seed=2024, work=tmp_path)
    assert tally.bad > 0, tally.codes


def test_the_fuzzer_finds_a_resume_that_keeps_edited_games(tmp_path, monkeypatch):
    """The games reader fails a resume that takes any line that parses for a game."""
    import json

    from sim import games_file

    def trusting(raw: bytes, key: str) -> dict | str:
        try:
            record = json.loads(raw)
        except ValueError:
            return "not JSON"
        if not isinstance(record, dict):
            return "not a game record"
        record.pop(games_file.CHECK, None)
        return record

    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(games_file, "unseal", trusting)
    tally = fuzz_any("games", 60, seed=2024, work=tmp_path)
    assert tally.bad > 0, tally.codes
