"""Properties of random legal tables grown by random matching placements.

* A grown table breaks no rule.
* Each system's number of closed blocks is E - V + C of its route graph (Euler).
* Every total is the sum of its parts, and the winners have the highest total.
* Turning the whole table by 60 degrees (cells, card rotations, inline routes,
  start lines and barriers) changes no score.
"""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.ruleset_cache import load_ruleset
from rules.hexgeo import DIRECTIONS, SIDES, rotate_cell
from rules.orbitus.score import Result
from scorer.orbitus.cli import score_file
from testkit.grow import grow_table

DEFS = load_ruleset("orbitus")
SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@st.composite
def tables(draw: st.DrawFn) -> dict[str, Any]:
    players = draw(st.integers(min_value=2, max_value=6))
    seed = draw(st.integers(min_value=0, max_value=2**32))
    use_deck = draw(st.booleans())
    size = draw(st.integers(min_value=0, max_value=72 if use_deck else 160))
    chance = draw(st.sampled_from([0.35, 0.55, 0.8]))
    return grow_table(seed, size, players, setup=DEFS.setup_for(players),
                      deck=DEFS.cards if use_deck else None, route_chance=chance)


def score_dict(tmp_path: Path, layout: dict[str, Any], name: str = "table.yaml") -> Result:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(layout, sort_keys=False), encoding="utf-8")
    return score_file(path)[0]


def turn(layout: dict[str, Any], steps: int = 1) -> dict[str, Any]:
    """The same table turned ``steps`` x 60 degrees clockwise about the station."""
    out = copy.deepcopy(layout)

    def side(name: str) -> str:
        return SIDES[(SIDES.index(name) + steps) % 6]

    out["start_lines"] = {p: [side(s) for s in sides] for p, sides in layout["start_lines"].items()}
    out["barriers"] = [side(s) for s in layout["barriers"]]
    for entry in out["sectors"]:
        entry["at"] = list(rotate_cell(tuple(entry["at"]), steps))
        if "card" in entry:
            entry["rot"] = (entry["rot"] + steps) % 6
        else:
            entry["routes"] = [side(s) for s in entry["routes"]]
    return out


def edges_vertices_components(result: Result, seat: int) -> tuple[int, int, int]:
    cells = set(result.players[seat].sectors)
    sectors = result.layout.sectors
    edges = 0
    for q, r in cells:
        for s in sectors[(q, r)].routes:
            near = (q + DIRECTIONS[s][0], r + DIRECTIONS[s][1])
            if near in cells and (s + 3) % 6 in sectors[near].routes:
                edges += 1
    seen: set[tuple[int, int]] = set()
    comps = 0
    for start in cells:
        if start in seen:
            continue
        comps += 1
        stack = [start]
        seen.add(start)
        while stack:
            q, r = stack.pop()
            for s in sectors[(q, r)].routes:
                near = (q + DIRECTIONS[s][0], r + DIRECTIONS[s][1])
                if near in cells and near not in seen and (s + 3) % 6 in sectors[near].routes:
                    seen.add(near)
                    stack.append(near)
    return edges // 2, len(cells), comps


@SETTINGS
@given(tables())
def test_grown_tables_are_legal_and_blocks_follow_euler(tmp_path, layout):
    result = score_dict(tmp_path, layout)
    assert result.valid, [f.message for f in result.findings]
    assert len(result.layout.sectors) == len(layout["sectors"])
    for p in result.players:
        e, v, c = edges_vertices_components(result, p.seat)
        assert len(p.closed_blocks) == e - v + c
        for block in p.closed_blocks:
            assert set(block.sectors) <= set(p.sectors)
            assert block.size == len(set(block.sectors)) >= 3


@SETTINGS
@given(tables())
def test_totals_are_the_sum_of_their_parts(tmp_path, layout):
    result = score_dict(tmp_path, layout)
    scoring = DEFS.scoring
    every_sector: list[tuple[int, int]] = []
    for p in result.players:
        planets = sum(scoring.planet_points(g.count) if g.count else 0 for g in p.planets)
        assert sum(g.points for g in p.planets) == planets
        assert p.pirate_points == scoring.pirate * len(p.pirates)
        assert p.open_route_points == scoring.open_route * len(p.open_routes)
        blocks = sum(scoring.block_points(b.size) for b in p.closed_blocks)
        assert p.total == planets + p.pirate_points + p.open_route_points + blocks
        assert sum(g.count for g in p.planets) + len(p.pirates) <= len(p.sectors)
        every_sector += p.sectors
    every_sector += result.neutral
    assert sorted(every_sector) == sorted(result.layout.sectors)
    best = max(p.total for p in result.players)
    assert result.winners == tuple(p.name for p in result.players if p.total == best)


def summary(result: Result) -> list[tuple[Any, ...]]:
    return [
        (p.name, p.total, len(p.sectors), tuple((g.type, g.count, g.points) for g in p.planets),
         len(p.pirates), len(p.open_routes),
         sorted(Counter(b.size for b in p.closed_blocks).items()))
        for p in result.players
    ] + [("neutral", sorted(len(z) for z in result.neutral_zones))]


@SETTINGS
@given(tables(), st.integers(min_value=1, max_value=5))
def test_turning_the_table_changes_no_score(tmp_path, layout, steps):
    before = score_dict(tmp_path, layout, "before.yaml")
    after = score_dict(tmp_path, turn(layout, steps), "after.yaml")
    assert after.valid == before.valid
    assert summary(after) == summary(before)
    for a, b in zip(before.players, after.players, strict=True):
        assert sorted(rotate_cell(c, steps) for c in a.sectors) == sorted(b.sectors)
        assert {frozenset(rotate_cell(c, steps) for c in blk.sectors) for blk in a.closed_blocks} \
            == {frozenset(blk.sectors) for blk in b.closed_blocks}


def test_turning_six_times_is_the_same_table():
    layout = grow_table(3, 50, 3, setup=DEFS.setup_for(3), deck=DEFS.cards)
    assert turn(turn(layout, 3), 3) == layout
