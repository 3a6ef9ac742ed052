"""Properties that hold for every board, valid or not.

* Swapping the colours (red <-> blue, values kept) swaps every result.
* Mirroring or rotating the board changes no result (only where things are).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.satellites.board import Board, Satellite
from scorer.satellites.score import Score, score

SWAP = {"red": "blue", "blue": "red", None: None}
TOKENS = [".", "R1", "R2", "R3", "R4", "B1", "B2", "B3", "B4"]


@st.composite
def boards(draw: st.DrawFn) -> tuple[Board, int | None]:
    n = draw(st.integers(min_value=5, max_value=9))
    density = draw(st.sampled_from([0.2, 0.45, 0.7]))
    rows = []
    for _ in range(n):
        row = []
        for _ in range(n):
            if draw(st.floats(min_value=0, max_value=1)) < density:
                row.append(draw(st.sampled_from(TOKENS[1:])))
            else:
                row.append(".")
        rows.append(row)
    grace = draw(st.one_of(st.none(), st.integers(min_value=0, max_value=3)))
    return Board.from_tokens(rows), grace


def swap_colours(board: Board) -> Board:
    return Board(tuple(
        tuple(None if s is None else Satellite(SWAP[s.colour], s.value) for s in row)
        for row in board.rows
    ))


Transform = Callable[[int, int, int], tuple[int, int]]  # (row, col, n) -> (row, col)

TRANSFORMS: dict[str, Transform] = {
    "mirror west-east": lambda r, c, n: (r, n - 1 - c),
    "mirror north-south": lambda r, c, n: (n - 1 - r, c),
    "rotate 90": lambda r, c, n: (c, n - 1 - r),
    "rotate 180": lambda r, c, n: (n - 1 - r, n - 1 - c),
    "rotate 270": lambda r, c, n: (n - 1 - c, r),
    "transpose": lambda r, c, n: (c, r),
}


def transform(board: Board, f: Transform) -> Board:
    n = board.height
    cells: list[list[Satellite | None]] = [[None] * n for _ in range(n)]
    for r, row in enumerate(board.rows):
        for c, sat in enumerate(row):
            nr, nc = f(r, c, n)
            cells[nr][nc] = sat
    return Board(tuple(tuple(row) for row in cells))


def group_facts(result: Score, move: Callable[[tuple[int, int]], tuple[int, int]],
                swap: bool = False) -> Counter:
    colour = (lambda c: SWAP[c]) if swap else (lambda c: c)
    facts = Counter()
    for g in result.groups:
        red, blue = (g.blue, g.red) if swap else (g.red, g.blue)
        facts[(frozenset(move(cell) for cell in g.cells), g.size, g.colony, red, blue,
               colour(g.controller), g.contested, g.crowned)] += 1
    return facts


def summary_facts(result: Score, swap: bool = False) -> tuple:
    def sw(d: dict) -> dict:
        return {SWAP[k]: v for k, v in d.items()} if swap else dict(d)

    colour = (lambda c: SWAP[c]) if swap else (lambda c: c)
    end = result.end
    return (
        sw(result.connected),
        sw(result.colonies),
        sw(result.lowest),
        colour(result.winner),
        result.tiebreak,
        (end.connected, end.over, end.reason, frozenset(colour(f) for f in end.finished),
         colour(end.grace_player), end.grace_moves_left),
        result.valid,
        Counter(v.rule for v in result.violations),
    )


@settings(max_examples=150, deadline=None)
@given(boards())
def test_colour_swap_swaps_every_result(case):
    board, grace = case
    before = score(board, grace)
    after = score(swap_colours(board), grace)
    same = lambda cell: cell  # noqa: E731
    assert group_facts(after, same) == group_facts(before, same, swap=True)
    assert summary_facts(after) == summary_facts(before, swap=True)
    # violations stay on the same cells
    assert Counter((v.rule, v.cell) for v in after.violations) == Counter(
        (v.rule, v.cell) for v in before.violations)


@settings(max_examples=150, deadline=None)
@given(boards(), st.sampled_from(sorted(TRANSFORMS)))
def test_mirror_and_rotation_change_no_result(case, name):
    board, grace = case
    f = TRANSFORMS[name]
    n = board.height
    before = score(board, grace)
    after = score(transform(board, f), grace)
    move = lambda cell: f(cell[0], cell[1], n)  # noqa: E731
    assert group_facts(after, lambda cell: cell) == group_facts(before, move)
    assert summary_facts(after) == summary_facts(before)


@settings(max_examples=100, deadline=None)
@given(boards())
def test_results_hang_together(case):
    """Cross-checks between the parts of one result."""
    board, grace = case
    r = score(board, grace)
    in_groups = [cell for g in r.groups for cell in g.cells]
    assert len(in_groups) == len(set(in_groups)) == len(r.connected_cells)
    assert sum(r.connected.values()) == r.end.connected == len(r.connected_cells)
    assert r.colonies["red"] == sum(1 for g in r.groups if g.controller == "red")
    assert all(g.size >= 2 for g in r.groups)
    assert all((g.controller is None) == (not g.colony or g.red == g.blue) for g in r.groups)
    assert r.tiebreak == (r.colonies["red"] == r.colonies["blue"])
    if r.colonies["red"] != r.colonies["blue"]:
        assert r.winner == max(r.colonies, key=r.colonies.__getitem__)
