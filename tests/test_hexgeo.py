"""Hex geometry: flat-top axial hexes, sides N..NW clockwise, rotation clockwise."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import hexgeo

cells = st.tuples(st.integers(-60, 60), st.integers(-60, 60))
sides = st.integers(0, 5)
steps = st.integers(-12, 12)
flats = st.floats(5.0, 120.0)


def test_directions_match_rules_page():
    assert hexgeo.DIRECTIONS == ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
    # N is straight up, S straight down, and the others at the flat-top angles
    for side, name in enumerate(hexgeo.SIDES):
        x, y = hexgeo.centre(hexgeo.DIRECTIONS[side], 50.0)
        angle = math.degrees(math.atan2(x, -y)) % 360
        assert angle == pytest.approx(60 * side), name


def test_card_rotation_rule():
    # a route printed on side i lies on table side (i + k) % 6
    assert hexgeo.rotate_sides({0}, 2) == {2}
    assert hexgeo.rotate_sides({4, 5}, 3) == {1, 2}
    assert hexgeo.parse_rotation("SE") == 2
    assert hexgeo.parse_rotation(5) == 5
    for bad in (6, -1, "up", 1.5, True):
        with pytest.raises(ValueError):
            hexgeo.parse_rotation(bad)


@given(cells, sides)
def test_neighbour_is_one_step_and_faces_back(cell, side):
    other = hexgeo.neighbour(cell, side)
    assert hexgeo.distance(cell, other) == 1
    assert hexgeo.side_towards(cell, other) == side
    assert hexgeo.neighbour(other, hexgeo.opposite(side)) == cell


@given(cells, sides, flats)
def test_adjacent_hexes_share_a_side(cell, side, f):
    other = hexgeo.neighbour(cell, side)
    a = hexgeo.side_midpoint(hexgeo.centre(cell, f), f, side)
    b = hexgeo.side_midpoint(hexgeo.centre(other, f), f, hexgeo.opposite(side))
    assert a == pytest.approx(b, abs=1e-6)
    ca = hexgeo.corners(hexgeo.centre(cell, f), f)
    cb = hexgeo.corners(hexgeo.centre(other, f), f)
    shared = {(round(x, 6), round(y, 6)) for x, y in ca} & {(round(x, 6), round(y, 6))
                                                             for x, y in cb}
    assert len(shared) == 2
    i, j = hexgeo.side_corners(side)
    assert {(round(ca[i][0], 6), round(ca[i][1], 6)), (round(ca[j][0], 6),
                                                        round(ca[j][1], 6))} == shared


@given(cells, flats)
def test_corners_and_midpoints_sizes(cell, f):
    c = hexgeo.centre(cell, f)
    r = hexgeo.circumradius(f)
    for x, y in hexgeo.corners(c, f):
        assert math.hypot(x - c[0], y - c[1]) == pytest.approx(r)
    for side in range(6):
        x, y = hexgeo.side_midpoint(c, f, side)
        assert math.hypot(x - c[0], y - c[1]) == pytest.approx(f / 2)
    # across flats: N midpoint to S midpoint
    n = hexgeo.side_midpoint(c, f, 0)
    s = hexgeo.side_midpoint(c, f, 3)
    assert s[1] - n[1] == pytest.approx(f)
    assert hexgeo.pixel_to_hex(c, f) == cell


@given(cells, sides, steps)
def test_rotation_turns_cells_and_sides_together(cell, side, k):
    turned = hexgeo.rotate_cell(cell, k)
    assert hexgeo.distance(turned, (0, 0)) == hexgeo.distance(cell, (0, 0))
    assert hexgeo.rotate_cell(hexgeo.neighbour(cell, side), k) == hexgeo.neighbour(
        turned, (side + k) % 6)
    assert hexgeo.rotate_cell(cell, k + 6) == turned
    assert hexgeo.rotate_cell(hexgeo.rotate_cell(cell, k), -k) == cell


@given(cells, flats)
def test_rotating_a_cell_rotates_its_centre_clockwise(cell, f):
    x, y = hexgeo.centre(cell, f)
    tx, ty = hexgeo.centre(hexgeo.rotate_cell(cell, 1), f)
    # clockwise by 60 degrees with y down
    a = math.radians(60)
    assert tx == pytest.approx(x * math.cos(a) - y * math.sin(a), abs=1e-6)
    assert ty == pytest.approx(x * math.sin(a) + y * math.cos(a), abs=1e-6)
