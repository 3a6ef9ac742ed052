"""Two photos' evidence of one cell weighed together (photo.merge.together): the marker in
one photo names the card, the printed face in either agrees, no photo contradicts. The
adversarial cases are the cards whose faces share most routes (S63 and S69, S02 and S09
differ by one route): their faces match a photo about equally, so only a marker may tell
them apart, and a marker that does not do so clearly reads nothing."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from photo.merge import together
from photo.orbitus import Evidence

CARDS = ["S02", "S09", "S63", "S69", "S70"]


def _seen(faces: dict[tuple[str, int], float] | None = None,
          marks: dict[tuple[str, int], float] | None = None, *, other: float = -1.0,
          gain: float = 0.9, floor: float = 0.1, noise: float = 0.3) -> Evidence:
    """One photo's evidence of a cell: every face scores ``floor`` and every code ``noise``
    (a marker too blurred or washed out reads about as well for any code) but those given."""
    looks = np.full((len(CARDS), 6), floor, np.float32)
    codes = np.full((len(CARDS), 6), noise, np.float32)
    for (card, rot), score in (faces or {}).items():
        looks[CARDS.index(card), rot] = score
    for (card, rot), score in (marks or {}).items():
        codes[CARDS.index(card), rot] = score
    return Evidence(looks, codes, other, gain, 0.0, 2.0, CARDS)


def _read(*seen: Evidence | None) -> tuple[str, int] | None:
    found = together(list(seen))
    return None if found is None else (CARDS[found[0]], found[1])


# S63 and S69 share most routes: a photo matches both faces nearly as well
TWINS = {("S63", 2): 0.80, ("S69", 2): 0.79}


def test_the_marker_in_one_photo_tells_apart_faces_the_other_cannot():
    """The face in A allows S63 and S69 (0.01 apart); B's marker reads S69's code where the
    camera puts it, 0.15 over every other code: S69."""
    a = _seen(TWINS)
    b = _seen({("S69", 2): 0.5}, {("S69", 2): 0.70, ("S63", 2): 0.55})
    assert _read(a, b) == ("S69", 2)
    assert _read(b, a) == ("S69", 2)  # the order of the photos does not matter


def test_a_marker_not_clearly_better_than_its_twin_reads_nothing():
    a = _seen(TWINS)
    b = _seen({}, {("S69", 2): 0.66, ("S63", 2): 0.60})  # 0.06 apart: under the margin
    assert _read(a, b) is None


def test_a_marker_too_weak_reads_nothing_however_clear_the_face():
    a = _seen({("S02", 1): 0.95}, {("S02", 1): 0.58}, noise=0.2)  # under MARKER_MIN
    assert _read(a, _seen()) is None


def test_the_face_alone_never_decides():
    """S02's face in both photos, far above any other: no marker names it, nothing read."""
    assert _read(_seen({("S02", 1): 0.9}), _seen({("S02", 1): 0.85})) is None


def test_two_photos_whose_markers_name_twins_read_nothing():
    """S02 and S09 differ by one route; A's marker reads S02, B's S09, each clearly: the
    photos disagree, nothing is read."""
    faces = {("S02", 1): 0.78, ("S09", 1): 0.77}
    a = _seen(faces, {("S02", 1): 0.72})
    b = _seen(faces, {("S09", 1): 0.72})
    assert _read(a, b) is None
    assert _read(a, _seen(faces)) == ("S02", 1)  # either alone would have read


def test_a_marker_turned_otherwise_than_the_face_reads_nothing():
    """The face says S63 turned 2, B's marker S63 turned 5: the rotation is the table's in
    both photos (the station fixes it), so they disagree."""
    a = _seen({("S63", 2): 0.80})
    b = _seen({}, {("S63", 5): 0.75})
    assert _read(a, b) is None


def test_a_clear_face_of_another_card_in_one_photo_contradicts_a_certain_marker():
    """B reads S69's marker with certainty (0.9, 0.2 over the rest) and its face agrees
    there (0.65), but A shows S02's face clearly (0.85) and S69's poorly: nothing read."""
    a = _seen({("S02", 0): 0.85, ("S69", 2): 0.5})
    b = _seen({("S69", 2): 0.65}, {("S69", 2): 0.90})
    assert _read(a, b) is None
    assert _read(_seen(), b) == ("S69", 2)  # without A's face against it: read


def test_a_code_no_card_carries_reading_nearly_as_well_reads_nothing():
    """The station's code reads 0.66 where S69's reads 0.70: the square is no clear card's."""
    a = _seen(TWINS)
    assert _read(a, _seen({}, {("S69", 2): 0.70}, other=0.66)) is None
    assert _read(a, _seen({}, {("S69", 2): 0.70}, other=0.55)) == ("S69", 2)


@pytest.mark.parametrize("gain", [0.2, 0.49])
def test_a_face_without_a_cards_light_and_shade_says_nothing(gain):
    """A faint texture of the table can correlate with a face: below a card's light and
    shade the face neither agrees nor contradicts."""
    a = _seen(TWINS, gain=gain)
    b = _seen({}, {("S69", 2): 0.70, ("S63", 2): 0.55})
    assert _read(a, b) is None


def test_a_photo_that_shows_too_little_of_the_cell_adds_nothing():
    a = _seen(TWINS, {("S69", 2): 0.70})
    assert _read(a, None) == ("S69", 2)
    assert _read(None, None) is None


def test_a_marker_square_found_off_the_cell_names_its_card_as_a_marker_does():
    """A lifted card's marker is found where it lies, not where the camera puts the
    table's plane: the square S69 turned 2 (0.79, 0.13 over every other code) names it
    as a marker read there would, and with the same margin: 0.05 names nothing."""
    a = _seen(TWINS)
    found = _seen()
    found.found = [(CARDS.index("S69"), 2, 0.79, 0.13)]
    assert _read(a, found) == ("S69", 2)
    found.found = [(CARDS.index("S69"), 2, 0.79, 0.05)]
    assert _read(a, found) is None


def test_a_marker_square_and_a_marker_naming_twins_read_nothing():
    a = _seen(TWINS, {("S63", 2): 0.70})
    b = _seen()
    b.found = [(CARDS.index("S69"), 2, 0.75, 0.13)]
    assert _read(a, b) is None


def _table(placed: dict[tuple[int, int], str], unread: list[tuple[int, int]]) -> Any:
    from photo.orbitus import Placed, TableReading

    reading = TableReading(placed={c: Placed(c, card, 2, "marker") for c, card in placed.items()},
                           unread=list(unread))
    reading.camera = object()  # placed: the station was read (no glare to map through it)
    return reading


def test_the_merge_places_what_the_evidence_reads_and_never_a_card_twice():
    """[2, 0] is seen but not read in the first photo and out of the second's view: the
    evidence there reads S63 turned 2, so the merge places it (``photos together``); were
    it S69, read on [1, 0] already, the cell stays unread rather than S69 read twice."""
    from photo.merge import merge

    def asked(card: str) -> Any:
        return lambda cell: _seen(TWINS, {(card, 2): 0.75}) if cell == (2, 0) else None

    a, b = _table({(1, 0): "S69"}, [(2, 0)]), _table({(1, 0): "S69"}, [])
    merged = merge("orbitus", [a, b], ["a.jpg", "b.jpg"], [asked("S63"), lambda cell: None])
    assert {c: (p.card, p.rot, p.how) for c, p in merged.placed.items()} == {
        (1, 0): ("S69", 2, "marker"), (2, 0): ("S63", 2, "photos together")}
    assert merged.unread == []
    merged = merge("orbitus", [a, b], ["a.jpg", "b.jpg"], [asked("S69"), lambda cell: None])
    assert sorted(merged.placed) == [(1, 0)] and merged.unread == [(2, 0)]
    # without evidence (a reader that keeps none) the cell stays unread, as before
    assert merge("orbitus", [a, b], ["a.jpg", "b.jpg"]).unread == [(2, 0)]
