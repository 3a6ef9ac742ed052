"""Whole Orbitus games with the shipped deck: the deal, random games played to the end for
2 to 6 players, every position they pass through checked by the scorer, the engine's legal
actions checked against an independent reading of the rules built on the scorer, and
generated records replayed to the same end."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from cards.definitions import load_orbitus
from records.orbitus_replay import record_text
from records.record import read_record, replay
from rules.hexgeo import DIRECTIONS, SIDE_INDEX, neighbours, opposite, rotate_sides
from rules.orbitus.actions import DISCARD, PASS, PASS_ACTION, PLACE, REMOVE, Action
from rules.orbitus.analysis import Analysis
from rules.orbitus.engine import (
    END_ROUND,
    END_STUCK,
    Placed,
    State,
    deal,
    random_game,
    shuffled_deck,
)
from rules.orbitus.engine import seating as game_from_definitions
from rules.orbitus.score import score

MODELS = load_orbitus()
DEFS = MODELS.ruleset
NAMES = ["Anna", "Boris", "Carla", "Dmitri", "Elena", "Fyodor"]
SEEDS = range(8)


def start(players: int, seed: int) -> State:
    game = game_from_definitions(MODELS.ruleset, NAMES[:players])
    return deal(game, shuffled_deck(game, seed))


@pytest.fixture(scope="module")
def games() -> dict[tuple[int, int, bool], tuple[State, list[Action], State]]:
    out = {}
    for players in range(2, 7):
        for seed in SEEDS:
            for by_kind in (False, True):
                first = start(players, seed)
                actions, final = random_game(first, random.Random(seed * 10 + players),
                                             by_kind=by_kind)
                out[players, seed, by_kind] = (first, actions, final)
    return out


# --- the deal -------------------------------------------------------------------------------------


def test_the_deck_is_every_card_as_often_as_its_count_shuffled_by_the_seed():
    game = game_from_definitions(MODELS.ruleset, NAMES[:3])
    order = shuffled_deck(game, 42)
    assert len(order) == 72 == sum(c.count for c in MODELS.sectors.sectors)
    assert Counter(order) == Counter({c.id: c.count for c in MODELS.sectors.sectors})
    assert order == shuffled_deck(game, 42)
    assert order != shuffled_deck(game, 43)
    assert order != game.full_deck()


@pytest.mark.parametrize("players", range(2, 7))
def test_the_deal_gives_four_each_and_the_start_lines_of_the_rules_table(players):
    s = start(players, 42)
    rules = {r.players: r for r in MODELS.rules.start_lines}[players]
    expected = {SIDE_INDEX[side]: seat for seat, sides in enumerate(rules.start_lines)
                for side in sides}
    assert s.game.start_lines == expected
    assert s.game.barriers == frozenset(SIDE_INDEX[b] for b in rules.barriers)
    assert [len(h) for h in s.hands] == [4] * players and s.limits == (4,) * players
    assert s.deck_left == 72 - 4 * players and s.to_move == 0 and not s.board
    order = shuffled_deck(s.game, 42)
    assert s.hands[0] == tuple(order[:4]) and s.hands[1] == tuple(order[4:8])


def test_hand_size_and_minimum_come_from_the_definitions(cards_copy: Path):
    rules = cards_copy / "orbitus" / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    rules.write_text(text.replace("hand_size: 4", "hand_size: 5").replace("min_hand: 2",
                                                                          "min_hand: 3"),
                     encoding="utf-8")
    models = load_orbitus(cards_copy)
    game = game_from_definitions(models.ruleset, NAMES[:2])
    s = deal(game, shuffled_deck(game, 1))
    assert [len(h) for h in s.hands] == [5, 5] and game.min_hand == 3


# --- random games ---------------------------------------------------------------------------------


def test_every_random_game_ends_and_its_end_scores_as_valid(games):
    ends = Counter()
    for (players, seed, by_kind), (first, _, final) in games.items():
        assert final.over, (players, seed, by_kind)
        ends[final.end] += 1
        result = score(final.to_table(), DEFS.scoring)
        assert result.valid, (players, seed, by_kind, [f.message for f in result.findings])
        # every card is somewhere: on the table, in a hand, in the deck or out of the game
        where = Counter(p.card for p in final.board.values())
        where.update(c for h in final.hands for c in h)
        where.update(final.deck[final.drawn:])
        where.update(final.out)
        assert where == Counter(first.deck)
    assert ends[END_ROUND] == len(games)  # the deck always runs out; nobody is ever stuck
    assert END_STUCK not in ends


def test_random_games_use_every_kind_of_action(games):
    kinds = Counter(a.kind for _, actions, _ in games.values() for a in actions)
    assert all(kinds[k] > 20 for k in (PLACE, REMOVE, DISCARD, PASS)), kinds


def positions(games, seeds: int):
    """Every position after a move of the random games of the first ``seeds`` seeds, with
    where it comes from: ``(players, seed, ply), state``."""
    for (players, seed, _kind), (first, actions, _) in games.items():
        if seed >= seeds:
            continue
        state = first
        for i, action in enumerate(actions):
            state = state.after(action)
            yield (players, seed, i), state


def test_every_position_of_a_random_game_is_a_valid_table(games):
    for where, state in positions(games, 3):
        assert score(state.to_table(), DEFS.scoring).valid, where


def test_a_states_own_score_is_the_scorers_and_forgetting_works_it_out_again(games):
    """A state scores from its own analysis, once: the same result as the scorer's own reading
    of its table, at every position; and a state that forgot what it worked out (a past
    position the browser companion keeps) gives the same score and legal actions again."""
    for where, state in positions(games, 2):
        mine = state.score()
        assert mine is state.score()  # once per state
        assert mine == score(state.to_table(), DEFS.scoring), where
        legal = list(state.legal_actions())
        state.forget()
        assert state.score() == mine and state.score() is not mine, where
        assert list(state.legal_actions()) == legal, where


def test_a_score_worked_out_from_the_position_before_is_the_scorers_at_every_position(games):
    """A game scored position after position takes over the score of each system the last
    action did not touch (State.score with the position before): at every position of
    every random game (2 to 6 players, removals, discards and passes among them) the result
    equals the scorer's reading of the table from scratch, and systems were taken over."""
    taken = worked = 0
    for (players, seed, by_kind), (first, actions, _) in games.items():
        state, before = first, first.score()
        for ply, action in enumerate(actions):
            state = state.after(action)
            assert state._before is not None and state._before[0] is before
            mine = state.score()
            assert state._before is None  # the position before is let go once used
            assert mine == score(state.to_table(), DEFS.scoring), (players, seed, by_kind, ply)
            # its table (taken from the position before's where it can be) lists the
            # sectors in the order they were placed, as a table made from scratch does
            assert list(mine.table.sectors.items()) == \
                list(state.to_table().sectors.items()), (players, seed, by_kind, ply)
            kept = sum(new is old for new, old in zip(mine.players, before.players,
                                                      strict=True))
            taken += kept
            worked += players - kept
            before = mine
    assert taken > 2 * worked  # most systems are untouched by one action


ANALYSED = ("cells", "routes", "near", "joined", "empties", "facing_empty", "around", "owner",
            "reached", "zones", "zone_of", "open_count", "spots")


def same_analysis(mine: Analysis, fresh: Analysis, where: object) -> None:
    """Everything an analysis tells, the same (the sectors' numbers, neighbours, systems,
    zones, open routes, free cells, meetings, removals of every seat)."""
    for name in ANALYSED:
        assert getattr(mine, name) == getattr(fresh, name), (where, name)
    assert list(mine.index.items()) == list(fresh.index.items()), where
    assert mine.meetings() == fresh.meetings(), where
    order = list(range(len(fresh.cells)))[::-1]
    assert mine.table_mismatches(order) == fresh.table_mismatches(order), where
    for seat in range(fresh.seats):
        assert mine.removable(seat) == fresh.removable(seat), (where, seat)


def analysed(state: State) -> Analysis:
    """The analysis of ``state``'s table from scratch, nothing in it worked out yet."""
    return Analysis(state.game.start_lines, state.game.n,
                    {c: p.mask for c, p in state.board.items()})


@pytest.mark.parametrize("worked_out", [True, False])
def test_an_analysis_carried_from_the_position_before_is_the_one_from_scratch(games,
                                                                           worked_out):
    """A game analysed position after position makes each position's analysis from the one
    before (a placement: Analysis.placed; a discard or a pass: the same analysis; a removal:
    from scratch): at every position of every random game (2 to 6 players, removals,
    discards and passes among them) it is the analysis of the table from scratch, whether
    the analysis before had its zones, open routes and free cells worked out (they are then
    carried too) or had nothing worked out; and the placements were carried, not analysed
    again."""
    carried = 0
    for (players, seed, by_kind), (first, actions, _) in games.items():
        state = first
        for ply, action in enumerate(actions):
            info = state.info if worked_out else analysed(state)
            child = state.after(action)
            where = (players, seed, by_kind, ply, worked_out)
            if worked_out:
                if action.kind == PLACE:
                    carried += child._carry is not None and child._carry[0] is info
                elif action.kind in (DISCARD, PASS):
                    assert child.info is info, where  # the table did not change
                mine = child.info
            elif action.kind == PLACE:
                mine = info.placed(action.cell, child.board[action.cell].mask)
                carried += 1
            else:
                mine = analysed(child)
            same_analysis(mine, analysed(child), where)
            state = child
    assert carried > 3000


def test_a_sector_placed_beside_two_systems_or_on_a_table_where_they_meet_is_analysed_again():
    """The analysis carried from the table before is the one from scratch where the carrying
    gives up: a sector whose routes join two systems (O-27), and any sector on a table where
    two systems already meet."""
    # seat 0 starts on the station's N side, seat 1 on its NE side; seat 0's sector on
    # [0, -1] has routes S (the start line), N and NE, seat 1's on [1, -1] SW and N: both
    # systems' routes face the empty [1, -2]
    lines = {0: 0, 1: 1}
    table = {(0, -1): 0b001011, (1, -1): 0b010001}
    before = Analysis(lines, 2, table)
    before.spots  # noqa: B018 (worked out, so the free cells are carried too)
    assert before.owner == [0, 1] and not before.meetings()
    assert before.table_mismatches([0, 1]) == []  # known to match: carried where it still does
    matched = 0
    for cell in ((1, -2), (0, -2), (2, -2), (-1, 0)):
        for mask in range(64):
            mine = before.placed(cell, mask)
            matched += mine._matched
            same_analysis(mine, Analysis(lines, 2, {**table, cell: mask}), (cell, mask))
    assert 0 < matched < 4 * 64
    met = before.placed((1, -2), 0b111111)
    # [1, -2] joins seat 0's system (reached first) and meets seat 1's across [1, -1]'s N
    assert met.cells == [(0, -1), (1, -2), (1, -1)] and met.owner == [0, 0, 1]
    assert met.meetings() == [(2, 0, 1)]
    onwards = met.placed((0, -2), 0b111111)
    same_analysis(onwards, Analysis(lines, 2, {**table, (1, -2): 0b111111,
                                               (0, -2): 0b111111}), "after a meeting")
    with pytest.raises(ValueError, match="already holds a sector"):
        before.placed((0, -1), 0)


def test_the_hand_limits_follow_the_removals(games):
    for first, actions, final in games.values():
        removed = Counter()
        state = first
        for action in actions:
            if action.kind == REMOVE:
                removed[state.to_move] += 1
            state = state.after(action)
        for seat in range(first.game.n):
            assert final.limits[seat] == max(2, 4 - removed[seat])


# --- an independent reading of the rules, built on the scorer -------------------------------------


def _open(state: State, result, seat: int) -> int:
    lines = sum(1 for d in state.game.start_lines_of(seat) if DIRECTIONS[d] not in state.board)
    return len(result.players[seat].open_routes) + lines


def _with(state: State, board: dict) -> State:
    return State(state.game, board, state.deck, state.drawn, state.hands, state.limits,
                 state.to_move, state.passed, state.quiet)


PRINTED = {c.id: c.route_sides for c in MODELS.sectors.sectors}


def _matches(state: State, cell, routes: frozenset[int]) -> bool:
    """Every side of a sector with ``routes`` on ``cell`` matches what it faces."""
    for side, other in neighbours(cell):
        if other == (0, 0):
            if (side in routes) != (opposite(side) in state.game.start_lines):
                return False
        elif other in state.board:
            placed = state.board[other]
            theirs = rotate_sides(PRINTED[placed.card], placed.rot)
            if (side in routes) != (opposite(side) in theirs):
                return False
    return True


def reference(state: State) -> set[Action]:
    """Every legal action, found by trying every cell, card and rotation and asking the
    scorer whether the table after it is valid and which systems it leaves open."""
    game, seat, board = state.game, state.to_move, state.board
    before = score(state.to_table(), DEFS.scoring)
    out: set[Action] = set()
    cells = set(DIRECTIONS)
    for q, r in board:
        cells |= {(q + dq, r + dr) for dq, dr in DIRECTIONS}
    cells -= set(board) | {(0, 0)}
    for cell in cells:
        for card in set(state.hands[seat]):
            for rot in range(6):
                if not _matches(state, cell, rotate_sides(PRINTED[card], rot)):
                    continue  # (the scorer would say so too; this only saves time)
                after = _with(state, {**board, cell: Placed(card, rot,
                                                            game.cards[card].masks[rot])})
                result = score(after.to_table(), DEFS.scoring)
                if result.findings:
                    continue  # a mismatch, or two systems joined
                if all(_open(state, before, o) == 0 or _open(after, result, o) > 0
                       for o in range(game.n) if o != seat):
                    out.add(Action(PLACE, card, cell, rot))
    mine = set(before.players[seat].sectors)
    for cell in mine:
        rest = dict(board)
        del rest[cell]
        result = score(_with(state, rest).to_table(), DEFS.scoring)
        if set(result.players[seat].sectors) == mine - {cell}:
            out.add(Action(REMOVE, board[cell].card, cell))
    if state.deck_left:
        out |= {Action(DISCARD, c) for c in state.hands[seat]}
    if not state.passed[seat]:
        out.add(PASS_ACTION)
    return out


def test_the_legal_actions_are_exactly_those_the_rules_allow(games):
    checked = 0
    for (players, seed, by_kind), (first, actions, _) in games.items():
        if seed > 0:
            continue
        state = first
        for i, action in enumerate(actions):
            if i % 7 == 3:
                legal = state.legal_actions()
                assert len(set(legal)) == len(legal)
                assert set(legal) == reference(state), (players, seed, by_kind, i)
                checked += 1
            state = state.after(action)
    assert checked > 100


# --- records ------------------------------------------------------------------------------------


@pytest.mark.parametrize("players, seed", [(2, 3), (4, 1), (6, 5)])
def test_a_generated_record_replays_to_the_same_end(players, seed, tmp_path, games):
    first, actions, final = games[players, seed, True]
    path = tmp_path / "game.yaml"
    path.write_text(record_text(first, actions, seed, "generated"), encoding="utf-8")
    result = replay(read_record(path))
    assert result.illegal is None and result.played == len(actions) and result.over
    state = result.state
    assert state.board == final.board and list(state.board) == list(final.board)
    assert (state.hands, state.limits, state.drawn, state.out, state.end, state.to_move) == \
        (final.hands, final.limits, final.drawn, final.out, final.end, final.to_move)
    assert result.valid


def test_a_record_with_the_deck_written_out_replays_the_same(tmp_path, games):
    first, actions, final = games[3, 2, False]
    path = tmp_path / "game.yaml"
    path.write_text(record_text(first, actions), encoding="utf-8")
    assert "deck: [" in path.read_text(encoding="utf-8")
    state = replay(read_record(path)).state
    assert state.board == final.board and state.hands == final.hands


def test_until_stops_at_the_position_after_that_many_moves(tmp_path, games):
    first, actions, _ = games[5, 4, True]
    path = tmp_path / "game.yaml"
    path.write_text(record_text(first, actions, 4), encoding="utf-8")
    expected = first
    for action in actions[:17]:
        expected = expected.after(action)
    got = replay(read_record(path), until=17)
    assert got.played == 17 and got.moves == len(actions)
    assert got.state.board == expected.board and got.state.hands == expected.hands
