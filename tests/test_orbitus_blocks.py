"""Closed blocks as bounded faces of a route graph drawn at the hex centres.

The graph is given directly (cells and the pairs joined by routes), so each
shape of the rules page and the issue is tested on its own, then random graphs
are checked against Euler's formula and, for graphs where every two adjacent
cells are joined, against an independent count of triangles and holes.
"""

from __future__ import annotations

from collections.abc import Iterable

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.hexgeo import DIRECTIONS, Hex, distance, neighbours, side_towards
from rules.orbitus.blocks import closed_loops


def graph(edges: Iterable[tuple[Hex, Hex]], cells: Iterable[Hex] = ()) -> dict[Hex, int]:
    masks: dict[Hex, int] = {c: 0 for c in cells}
    for a, b in edges:
        masks[a] = masks.get(a, 0) | 1 << side_towards(a, b)
        masks[b] = masks.get(b, 0) | 1 << side_towards(b, a)
    return masks


def cycle(cells: list[Hex]) -> list[tuple[Hex, Hex]]:
    return [(cells[i], cells[(i + 1) % len(cells)]) for i in range(len(cells))]


def ring(centre: Hex, radius: int) -> list[Hex]:
    """The cells at ``radius`` from ``centre``, in order around it."""
    q, r = centre[0] + DIRECTIONS[4][0] * radius, centre[1] + DIRECTIONS[4][1] * radius
    out = []
    for side in range(6):
        for _ in range(radius):
            out.append((q, r))
            q, r = q + DIRECTIONS[side][0], r + DIRECTIONS[side][1]
    return out


def induced(cells: Iterable[Hex]) -> dict[Hex, int]:
    """Every two adjacent cells joined."""
    cells = set(cells)
    return {c: sum(1 << s for s, n in neighbours(c) if n in cells) for c in cells}


def sizes(masks: dict[Hex, int]) -> list[int]:
    return sorted(loop.size for loop in closed_loops(masks))


def test_triangle_around_a_corner_is_one_block_of_3():
    loops = closed_loops(graph(cycle([(0, 0), (1, 0), (0, 1)])))
    assert [loop.sectors for loop in loops] == [((0, 0), (1, 0), (0, 1))]


def test_ring_of_six_around_an_empty_cell_is_one_block_of_6():
    cells = ring((0, 0), 1)
    loops = closed_loops(graph(cycle(cells)))
    assert len(loops) == 1
    assert loops[0].size == 6
    assert set(loops[0].sectors) == set(cells)
    # listed clockwise on the table from the smallest cell
    assert loops[0].sectors == ((-1, 0), (0, -1), (1, -1), (1, 0), (0, 1), (-1, 1))


def test_ring_with_a_seventh_sector_joined_to_all_six_is_six_blocks_of_3():
    cells = ring((0, 0), 1)
    edges = cycle(cells) + [((0, 0), c) for c in cells]
    loops = closed_loops(graph(edges))
    assert [loop.size for loop in loops] == [3] * 6
    assert all((0, 0) in loop.sectors for loop in loops)


def test_dead_end_inside_a_ring_is_not_part_of_the_block():
    cells = ring((0, 0), 1)
    loops = closed_loops(graph(cycle(cells) + [((0, 0), (0, -1))]))
    assert [loop.size for loop in loops] == [6]
    assert (0, 0) not in loops[0].sectors


def test_dead_end_tree_inside_a_big_ring():
    outer = ring((0, 0), 3)
    tree = [((0, -3), (0, -2)), ((0, -2), (0, -1)), ((0, -1), (0, 0)), ((0, -1), (1, -1)),
            ((0, 0), (-1, 1))]
    assert sizes(graph(cycle(outer) + tree)) == [18]


def test_dead_ends_sticking_out_of_a_ring_change_nothing():
    cells = ring((0, 0), 1)
    spikes = [((0, -1), (0, -2)), ((0, -2), (0, -3)), ((1, 0), (2, 0))]
    assert sizes(graph(cycle(cells) + spikes)) == [6]


def test_two_rings_sharing_an_edge_are_two_blocks_of_6():
    a = ring((0, 0), 1)
    b = ring((2, -1), 1)
    assert set(a) & set(b) == {(1, -1), (1, 0)}
    loops = closed_loops(graph(cycle(a) + cycle(b)))
    assert [loop.size for loop in loops] == [6, 6]
    assert {frozenset(loop.sectors) for loop in loops} == {frozenset(a), frozenset(b)}


def test_two_rings_sharing_one_sector_are_two_blocks():
    a = ring((0, 0), 1)
    b = ring((2, -2), 1)
    assert set(a) & set(b) == {(1, -1)}
    assert sizes(graph(cycle(a) + cycle(b))) == [6, 6]


def test_ring_with_a_triangle_hanging_inward_from_one_sector():
    outer = ring((0, 0), 3)
    assert (1, -3) in outer and distance((1, -2), (0, 0)) == 2
    triangle = cycle([(1, -3), (1, -2), (0, -2)])
    loops = closed_loops(graph(cycle(outer) + triangle))
    assert sorted(loop.size for loop in loops) == [3, 18]
    big = next(loop for loop in loops if loop.size == 18)
    assert set(big.sectors) == set(outer)


def test_ring_with_a_loop_joined_by_a_bridge_inside():
    outer = ring((0, 0), 3)
    inner = cycle([(0, 0), (1, -1), (1, 0)])
    bridge = [((0, -3), (0, -2)), ((0, -2), (0, -1)), ((0, -1), (0, 0))]
    assert sizes(graph(cycle(outer) + inner + bridge)) == [3, 18]


def test_ring_enclosing_a_separate_loop_and_a_lone_sector():
    outer = ring((0, 0), 3)
    inner = ring((0, 0), 1)
    masks = graph(cycle(outer) + cycle(inner), cells=[(0, 0)])
    loops = closed_loops(masks)
    assert sorted(loop.size for loop in loops) == [6, 18]


def test_horseshoe_whose_ends_meet_is_two_faces():
    # a loop of 12 around (0, 0) pinched at (0, -2) into the inner ring: the face between
    # them is bounded by the outer loop, the inner ring is its own block
    outer = ring((0, 0), 2)
    inner = ring((0, 0), 1)
    masks = graph(cycle(outer) + cycle(inner) + [((0, -2), (0, -1))])
    assert sizes(masks) == [6, 12]


def test_trees_single_edges_and_empty_graphs_have_no_blocks():
    assert closed_loops({}) == []
    assert closed_loops(graph([], cells=[(0, 0)])) == []
    assert closed_loops(graph([((0, 0), (1, 0))])) == []
    assert closed_loops(graph([((0, 0), (1, 0)), ((1, 0), (2, 0)), ((1, 0), (1, 1))])) == []


def test_trapezoid_of_five_and_rhombus_of_four():
    five = [(0, 0), (1, 0), (2, 0), (2, -1), (1, -1)]
    assert sizes(graph(cycle(five))) == [5]
    four = [(0, 0), (1, 0), (1, 1), (0, 1)]
    assert sizes(graph(cycle(four))) == [4]


def test_big_rings_keep_their_size():
    for radius in (2, 3, 4, 7):
        assert sizes(graph(cycle(ring((5, -3), radius)))) == [6 * radius]


def test_filled_hexagon_is_all_triangles():
    cells = [(q, r) for q in range(-2, 3) for r in range(-2, 3) if distance((q, r), (0, 0)) <= 2]
    # 19 cells, 24 unit triangles in a hexagon of radius 2
    assert sizes(induced(cells)) == [3] * 24


# --- random graphs ---------------------------------------------------------------------

REGION = [(q, r) for q in range(-4, 5) for r in range(-4, 5) if distance((q, r), (0, 0)) <= 4]
PAIRS = sorted({tuple(sorted((c, n))) for c in REGION for _, n in neighbours(c) if n in REGION})


def components(masks: dict[Hex, int]) -> int:
    seen: set[Hex] = set()
    count = 0
    for start in masks:
        if start in seen:
            continue
        count += 1
        stack = [start]
        seen.add(start)
        while stack:
            c = stack.pop()
            for s, n in neighbours(c):
                if masks[c] >> s & 1 and n not in seen:
                    seen.add(n)
                    stack.append(n)
    return count


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PAIRS), unique=True, max_size=len(PAIRS)))
def test_random_graphs_have_e_minus_v_plus_c_blocks_each_a_simple_loop(edges):
    masks = graph(edges)
    e = len(edges)
    v = len(masks)
    loops = closed_loops(masks)
    assert len(loops) == e - v + components(masks)
    for loop in loops:
        cells = loop.sectors
        assert len(cells) >= 3 and len(set(cells)) == len(cells)
        for a, b in zip(cells, cells[1:] + cells[:1], strict=True):
            assert masks[a] >> side_towards(a, b) & 1, (a, b)
    # no face is counted twice
    assert len({loop.sectors for loop in loops}) == len(loops)


def holes(cells: set[Hex]) -> int:
    """Groups of missing cells (joined across sides) that cannot reach outside the cells."""
    if not cells:
        return 0
    box = {n for c in cells for _, n in neighbours(c)} | cells
    missing = box - cells
    seen: set[Hex] = set()
    count = 0
    for start in sorted(missing):
        if start in seen:
            continue
        group = [start]
        seen.add(start)
        bounded = True
        stack = [start]
        while stack:
            c = stack.pop()
            for _, n in neighbours(c):
                if n not in box:
                    bounded = False
                elif n in missing and n not in seen:
                    seen.add(n)
                    group.append(n)
                    stack.append(n)
        count += bounded
    return count


def full_corners(cells: set[Hex]) -> int:
    """Lattice triangles (three cells around one hex corner) whose cells are all there."""
    count = 0
    for q, r in cells:
        count += (q + 1, r) in cells and (q, r + 1) in cells  # one downward triangle
        count += (q + 1, r - 1) in cells and (q + 1, r) in cells  # one upward triangle
    return count


@settings(max_examples=300, deadline=None)
@given(st.sets(st.sampled_from(REGION)))
def test_all_joined_cells_make_one_block_per_triangle_and_per_hole(cells):
    loops = closed_loops(induced(cells))
    assert sum(1 for loop in loops if loop.size == 3) == full_corners(cells)
    assert sum(1 for loop in loops if loop.size > 3) == holes(cells)


@settings(max_examples=200, deadline=None)
@given(st.sets(st.sampled_from(REGION), min_size=1))
def test_a_single_missing_cell_surrounded_by_its_six_neighbours_is_a_block_of_6(cells):
    cells = set(cells)
    for centre in list(cells)[:1]:
        around = set(ring(centre, 1))
        masks = induced((cells | around) - {centre})
        loops = closed_loops(masks)
        assert any(set(loop.sectors) == around for loop in loops)
