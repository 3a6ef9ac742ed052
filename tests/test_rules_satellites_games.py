"""Whole Satellites games with the rules core: the deal, random games played to the end, and
the engine's legal moves checked against an independent reading of the rules built on the
scorer."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from records.record import read_record, replay
from records.satellites_replay import board_of
from rules.game import IllegalAction
from rules.satellites.actions import action, parts
from rules.satellites.engine import (
    END_CONNECTED,
    END_GRACE,
    State,
    action_text,
    apply,
    deal,
    end_reason,
    is_over,
    random_game,
)
from rules.satellites.legal import legal_actions
from rules.satellites.notation import move_text, parse_move
from rules.satellites.ruleset import RED_SEAT
from rules.satellites.table import DIRECTIONS
from rules.satellites.why import check_written
from scorer.satellites.board import Board, load_rules
from scorer.satellites.score import score

RULES = load_rules()
SEEDS = range(30)


@pytest.fixture(scope="module")
def games() -> dict[int, tuple[State, list[int], State]]:
    out = {}
    for seed in SEEDS:
        start = deal(RULES, seed)
        moves, final = random_game(start, random.Random(seed))
        out[seed] = (start, moves, final)
    return out


def positions(start: State, moves: list[int], every: int):
    state = start
    for i, move in enumerate(moves):
        if i % every == 0:
            yield state
        state = apply(state, move)


# --- the deal ----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 42, 2**40])
def test_the_deal_follows_the_rules_page(seed):
    s = deal(RULES, seed)
    assert s.to_move == RED_SEAT and not is_over(s)
    n = s.table.size
    central = range(2, 8)  # the 6 central cells of each edge on 10 x 10: c-h, rows 3-8
    red_cells = {(r, c) for i, v in enumerate(s.cells) if v > 0 for r, c in [divmod(i, n)]}
    blue_cells = {(r, c) for i, v in enumerate(s.cells) if v < 0 for r, c in [divmod(i, n)]}
    assert len(red_cells) == len(blue_cells) == 12
    for i, v in enumerate(s.cells):
        if not v:
            continue
        r, c = divmod(i, n)
        if v > 0:  # red: north and south edges, 1 and 2 one row inward
            assert c in central
            assert r in ((1, 8) if v in (1, 2) else (0, 9))
        else:  # blue: west and east edges, 1 and 2 one column inward
            assert r in central
            assert c in ((1, 8) if -v in (1, 2) else (0, 9))
    # one satellite per start column/row of each edge
    for edge_rows in ((0, 1), (8, 9)):
        assert sorted(c for r, c in red_cells if r in edge_rows) == list(central)
    for edge_cols in ((0, 1), (8, 9)):
        assert sorted(r for r, c in blue_cells if c in edge_cols) == list(central)
    values = sorted(abs(v) for v in s.cells if v > 0)
    assert values == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]
    assert score(board_of(s)).valid


def test_the_deal_is_reproducible_and_varies_with_the_seed():
    assert deal(RULES, 7).cells == deal(RULES, 7).cells
    assert len({deal(RULES, seed).cells for seed in range(20)}) == 20


def test_every_start_cell_is_used_across_deals():
    # over many deals every value shows up at every central start column of red's north edge
    seen = {(c, abs(v)) for seed in range(200) for i, v in enumerate(deal(RULES, seed).cells)
            if v > 0 and i < 20 for c in [i % 10]}
    assert seen == {(c, v) for c in range(2, 8) for v in (1, 2, 3, 4)}


# --- random games ----------------------------------------------------------------------------


def test_random_games_end_by_the_rules(games):
    reasons = set()
    for seed, (_start, moves, final) in games.items():
        assert is_over(final), f"seed {seed}: no end after {len(moves)} moves"
        reasons.add(end_reason(final))
        assert end_reason(final) in (END_CONNECTED, END_GRACE)
    assert reasons == {END_CONNECTED, END_GRACE}  # both ends happen in 30 games


def test_every_position_of_a_random_game_scores_valid(games):
    for seed, (start, moves, final) in games.items():
        for state in [*positions(start, moves, 5), final]:
            result = score(board_of(state), state.grace_moves_left)
            assert result.valid, (seed, [v.message for v in result.violations])
        result = score(board_of(final), final.grace_moves_left)
        assert result.end.over is True, seed
        if end_reason(final) == END_GRACE:
            assert result.end.reason == "grace-moves-used"
            assert result.end.finished == ("red" if final.finished == RED_SEAT else "blue",)
        else:
            assert result.end.connected >= 23


def test_the_score_of_a_state_is_the_scorers_score_of_its_board(games):
    """The browser's live score (score_state: the state's own masks) is, key for key, what
    pnp score satellites --json says of the same board and grace moves."""
    from rules.satellites.score import score_state
    from scorer.satellites.report import breakdown_json, to_json

    seen = set()
    for start, moves, final in games.values():
        for state in [*positions(start, moves, 3), final]:
            found = score_state(state)
            board = score(board_of(state), state.grace_moves_left)
            assert breakdown_json(state.table, found) == to_json(board)
            assert found.links == board.links
            assert [g.cells for g in found.groups] == [g.cells for g in board.groups]
            seen.add((found.end.over, bool(found.groups)))
    assert seen >= {(False, True), (True, True)}  # games going on and over, with groups


def test_a_generated_record_replays_to_the_same_final_state(games, tmp_path: Path):
    for seed in (0, 1, 2, 3):
        start, moves, final = games[seed]
        written, state = [], start
        for move in moves:
            written.append(action_text(state, move))
            state = apply(state, move)
        path = tmp_path / f"game{seed}.yaml"
        path.write_text(
            f"game: satellites\nseed: {seed}\nmoves:\n" + "".join(f"  - {m}\n" for m in written),
            encoding="utf-8",
        )
        result = replay(read_record(path))
        assert result.illegal is None
        assert result.played == len(moves)
        assert result.state.cells == final.cells
        assert end_reason(result.state) == end_reason(final)
        assert result.over


def test_the_explaining_path_accepts_exactly_the_generated_moves(games):
    """check_written() (which says why) and legal_actions() (fast) agree on every move
    tried."""
    tried = 0
    for seed in (0, 5, 9):
        start, moves, _ = games[seed]
        for state in positions(start, moves, 23):
            legal = set(legal_actions(state))
            accepted = set()
            for move in candidates(state):
                written = parse_move(text_of(state, move))
                tried += 1
                try:
                    accepted.add(check_written(state, written))
                except IllegalAction:
                    pass
            assert accepted == legal, seed
    assert tried > 10_000


# --- an independent reading of the rules -------------------------------------------------------


def sign(state: State) -> int:
    """+1 when red is to move, -1 for blue (the sign of the mover's cells)."""
    return 1 if state.to_move == RED_SEAT else -1


def candidates(state: State):
    """Every move on one of the 8 lines up to 4 cells; pushes up to 3 cells (some too far)."""
    geo, cells = state.table, state.cells
    rays = geo.rays(4)
    for o, s in enumerate(cells):
        if s * sign(state) <= 0:
            continue
        for ray in rays[o]:
            for t in ray:
                if not cells[t]:
                    yield action(o, t)
                    continue
                for ray2 in rays[t]:
                    for p in ray2[:3]:
                        yield action(o, t, p)


def text_of(state: State, move: int) -> str:
    return move_text(state.table, move)


def board(n: int, cells) -> Board:
    return Board.from_cells(n, n, cells)


def reference_legal(state: State, move: int) -> bool:
    """The rules page read directly, with the scorer for connections and groups."""
    geo, cells, x = state.table, state.cells, sign(state)
    n = geo.size
    rc = geo.rc
    before = score(board(n, cells))
    connected = before.connected_cells
    o, t, p = parts(move)
    s = cells[o]
    if is_over(state) or s * x <= 0 or rc(o) in connected:
        return False
    (r0, c0), (r1, c1) = rc(o), rc(t)
    dr, dc = r1 - r0, c1 - c0
    k = max(abs(dr), abs(dc))
    if k == 0 or (dr and dc and abs(dr) != abs(dc)) or k > abs(s):
        return False
    after = list(cells)
    after[o] = 0
    if p < 0:
        if cells[t]:
            return False
    else:
        if cells[t] * x >= 0 or rc(t) in connected or k != abs(s):
            return False
        if not any(cells[a] * x > 0 and rc(a) in connected for a in geo.around[t]):
            return False
        (r2, c2) = rc(p)
        pr, pc = r2 - r1, c2 - c1
        kp = max(abs(pr), abs(pc))
        if kp == 0 or kp > 2 or (pr and pc and abs(pr) != abs(pc)):
            return False
        if cells[p] and p != o:
            return False
        after[p] = cells[t]
    after[t] = s
    result = score(board(n, after))
    if result.violations:  # connected neighbours of one colour, groups over 6
        return False
    now = result.connected_cells
    moved = {rc(t)} | ({rc(p)} if p >= 0 else set())
    fresh = {cell for cell in now if cell not in connected or cell in moved}
    if fresh:
        edges = ([(0, j) for j in range(n)], [(n - 1, j) for j in range(n)],
                 [(j, 0) for j in range(n)], [(j, n - 1) for j in range(n)])
        if not any(all(not after[r * n + c] for r, c in edge) for edge in edges):
            return False
    if rc(t) in now and k != abs(s):
        return False
    if p >= 0:
        mid = list(after)
        mid[p] = 0
        landing = score(board(n, mid))
        if rc(t) not in landing.connected_cells or landing.group_of[rc(t)].size < 3:
            return False
    old_colonies = [set(g.cells) for g in before.groups if g.colony]
    for g in result.groups:
        if sum(1 for colony in old_colonies if colony & set(g.cells)) > 1:
            return False
    return True


def test_legal_moves_match_an_independent_reading_of_the_rules(games):
    compared, displacements, connections = 0, 0, 0
    for seed in (1, 2, 3, 4):
        start, moves, _ = games[seed]
        for state in positions(start, moves, 31):
            expected = {m for m in candidates(state) if reference_legal(state, m)}
            got = set(legal_actions(state))
            assert got == expected, (seed, sorted(text_of(state, m) for m in got ^ expected))
            compared += 1
            displacements += sum(1 for m in got if parts(m)[2] >= 0)
            connections += sum(1 for m in got if action_text(state, m)[-1] == "+")
    assert compared > 30 and connections > 50 and displacements > 5


def test_displacements_happen_in_random_games(games):
    pushes = sum(1 for _, moves, _ in games.values() for m in moves if m >= 0 and parts(m)[2] >= 0)
    assert pushes > 0


def test_directions_are_the_8_lines():
    assert len(set(DIRECTIONS)) == 8 and (0, 0) not in DIRECTIONS
