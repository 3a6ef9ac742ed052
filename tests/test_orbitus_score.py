"""Scoring whole tables: the rules page's examples and the shapes the issue names.

Tables are written as layout files (inline sectors, routes as they lie) and
scored through the same path as the command. ``table()`` builds the routes
from the pairs of cells a test joins, so every sector matches its neighbours
unless a test says otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
import yaml

from rules.hexgeo import SIDES, Hex, neighbours, side_towards
from rules.orbitus.score import Result
from scorer.orbitus.cli import score_file
from scorer.orbitus.report import to_json

DEFAULT_LINES = {
    2: [["N", "NE", "SE"], ["S", "SW", "NW"]],
    3: [["N", "NE"], ["SE", "S"], ["SW", "NW"]],
    4: [["N"], ["NE"], ["S"], ["SW"]],
    5: [["N"], ["NE"], ["SE"], ["S"], ["SW"]],
    6: [["N"], ["NE"], ["SE"], ["S"], ["SW"], ["NW"]],
}
NAMES = ["Anna", "Boris", "Carla", "Dmitri", "Elena", "Fyodor"]


def table(
    joins: Iterable[tuple[Hex, Hex]],
    cells: Iterable[Hex] = (),
    players: int = 2,
    centres: dict[Hex, dict[str, Any]] | None = None,
    start_lines: dict[str, list[str]] | None = None,
    barriers: list[str] | None = None,
    open_ends: dict[Hex, list[str]] | None = None,
    station_routes: bool = True,
) -> dict[str, Any]:
    """A layout whose sectors carry routes exactly towards the cells they are joined to.

    A sector next to the station also gets a route towards a start line (a start line
    counts as a route) unless ``station_routes`` is false; ``open_ends`` adds routes
    towards empty cells.
    """
    names = NAMES[:players]
    lines = start_lines
    if lines is None:
        lines = {names[i]: sides for i, sides in enumerate(DEFAULT_LINES[players])}
    starts = {s for sides in lines.values() for s in sides}
    routes: dict[Hex, set[int]] = {c: set() for c in cells}
    for a, b in joins:
        routes.setdefault(a, set()).add(side_towards(a, b))
        routes.setdefault(b, set()).add(side_towards(b, a))
    for cell, sides in (open_ends or {}).items():
        routes.setdefault(cell, set()).update(SIDES.index(s) for s in sides)
    if station_routes:
        for cell in routes:
            for side, near in neighbours(cell):
                if near == (0, 0) and SIDES[(side + 3) % 6] in starts:
                    routes[cell].add(side)
    sectors = []
    for cell in routes:
        entry: dict[str, Any] = {"at": list(cell),
                                 "routes": [SIDES[s] for s in sorted(routes[cell])]}
        entry.update((centres or {}).get(cell, {}))
        sectors.append(entry)
    layout: dict[str, Any] = {"game": "orbitus", "players": names}
    if start_lines is not None:
        layout["start_lines"] = start_lines
    if barriers is not None:
        layout["barriers"] = barriers
    layout["sectors"] = sectors
    return layout


def score_layout(tmp_path: Path, layout: dict[str, Any]) -> Result:
    path = tmp_path / "table.yaml"
    path.write_text(yaml.safe_dump(layout, sort_keys=False), encoding="utf-8")
    return score_file(path)[0]


def chain(cells: list[Hex]) -> list[tuple[Hex, Hex]]:
    return list(zip(cells, cells[1:], strict=False))


def cycle(cells: list[Hex]) -> list[tuple[Hex, Hex]]:
    return chain(cells) + [(cells[-1], cells[0])]


def ring(centre: Hex, radius: int) -> list[Hex]:
    q, r = centre[0] - radius, centre[1] + radius
    out = []
    for dq, dr in ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)):
        for _ in range(radius):
            out.append((q, r))
            q, r = q + dq, r + dr
    return out


def player(result: Result, name: str) -> dict[str, Any]:
    return next(p for p in to_json(result)["players"] if p["name"] == name)


def block_sizes(result: Result, name: str) -> list[int]:
    return sorted(b["size"] for b in player(result, name)["closed_blocks"])


# --- the rules page's examples ---------------------------------------------------------

TRIANGLE = [(0, -1), (0, -2), (1, -2)]  # around one hex corner, (0, -1) on Anna's N start line


def test_triangle_is_one_block_of_3(tmp_path):
    result = score_layout(tmp_path, table(cycle(TRIANGLE)))
    assert result.valid
    anna = player(result, "Anna")
    assert anna["closed_blocks"] == [
        {"size": 3, "points": 1, "sectors": [[0, -2], [1, -2], [0, -1]]}
    ]
    assert anna["open_routes"]["count"] == 0
    assert anna["total"] == 1
    assert player(result, "Boris")["total"] == 0
    assert to_json(result)["winners"] == ["Anna"]


RING = ring((0, -2), 1)  # six sectors around the empty cell (0, -2); (0, -1) on the N start line


def test_ring_of_six_around_an_empty_cell_is_one_block_of_6(tmp_path):
    result = score_layout(tmp_path, table(cycle(RING)))
    assert result.valid
    anna = player(result, "Anna")
    assert [(b["size"], b["points"]) for b in anna["closed_blocks"]] == [(6, 3)]
    assert sorted(map(tuple, anna["closed_blocks"][0]["sectors"])) == sorted(RING)
    assert anna["total"] == 3


def test_ring_with_a_seventh_sector_joined_to_all_six_is_six_blocks_of_3(tmp_path):
    joins = cycle(RING) + [((0, -2), c) for c in RING]
    result = score_layout(tmp_path, table(joins))
    assert result.valid
    anna = player(result, "Anna")
    assert [(b["size"], b["points"]) for b in anna["closed_blocks"]] == [(3, 1)] * 6
    assert anna["total"] == 6


# --- the shapes ------------------------------------------------------------------


def test_dead_end_sector_inside_a_ring_does_not_count(tmp_path):
    joins = cycle(RING) + [((0, -2), (1, -3))]
    result = score_layout(tmp_path, table(joins))
    assert result.valid
    assert block_sizes(result, "Anna") == [6]
    assert len(player(result, "Anna")["sectors"]) == 7


def test_two_rings_sharing_an_edge_are_two_blocks(tmp_path):
    other = ring((2, -3), 1)
    assert set(RING) & set(other) == {(1, -3), (1, -2)}  # joined to each other in both rings
    result = score_layout(tmp_path, table(cycle(RING) + cycle(other)))
    assert result.valid
    assert block_sizes(result, "Anna") == [6, 6]
    assert player(result, "Anna")["total"] == 6


def test_ring_enclosing_another_players_sector(tmp_path):
    # Anna's loop of 12 runs round the station at distance 2, fed from her N start line
    # through (0, -1); Boris's sector (0, 1) sits inside her loop on his S start line.
    outer = ring((0, 0), 2)
    joins = cycle(outer) + [((0, -1), (0, -2))]
    layout = table(joins, cells=[(0, 1)], centres={(0, 1): {"planet": "ice"}})
    result = score_layout(tmp_path, layout)
    assert result.valid
    assert block_sizes(result, "Anna") == [12]
    anna = player(result, "Anna")
    assert [0, 1] not in anna["closed_blocks"][0]["sectors"]
    assert anna["total"] == 6
    boris = player(result, "Boris")
    assert boris["sectors"] == [[0, 1]]
    assert boris["planets"]["ice"] == {"count": 1, "points": -2, "sectors": [[0, 1]]}
    assert boris["total"] == -2


def test_ring_with_a_triangle_hanging_inward_from_one_sector(tmp_path):
    outer = ring((0, -5), 3)  # a loop of 18; (0, -2) on it is fed from the N start line
    triangle = [(1, -3), (1, -4), (0, -3)]  # hangs from (1, -3) into the loop
    assert (0, -2) in outer and (1, -3) in outer
    assert not set(triangle[1:]) & set(outer)
    joins = cycle(outer) + cycle(triangle) + [((0, -1), (0, -2))]
    result = score_layout(tmp_path, table(joins))
    assert result.valid, result.findings
    assert block_sizes(result, "Anna") == [3, 18]
    big = next(b for b in player(result, "Anna")["closed_blocks"] if b["size"] == 18)
    assert sorted(map(tuple, big["sectors"])) == sorted(outer)
    assert player(result, "Anna")["total"] == 1 + 6


def test_closed_own_system_is_legal_and_scores(tmp_path):
    result = score_layout(tmp_path, table(cycle(TRIANGLE)))
    assert result.valid
    assert player(result, "Anna")["open_routes"] == {"count": 0, "points": 0, "routes": []}


def test_neutral_zones_score_nothing_and_are_listed(tmp_path):
    # a triangle of Anna's, a loose pair far away and a lone sector with a blank side to
    # a barrier (4 players: SE is a barrier)
    joins = cycle(TRIANGLE) + [((5, 0), (5, 1))]
    layout = table(joins, cells=[(1, 0)], players=4,
                   centres={(5, 0): {"planet": "gas"}, (5, 1): {"planet": "gas"},
                            (1, 0): {"pirate": True}})
    result = score_layout(tmp_path, layout)
    assert result.valid
    out = to_json(result)
    assert out["neutral"] == [[1, 0], [5, 0], [5, 1]]
    assert out["neutral_zones"] == [[[1, 0]], [[5, 0], [5, 1]]]
    assert player(result, "Anna")["total"] == 1
    assert all(p["total"] == 0 for p in out["players"][1:])


def test_open_routes_pirates_and_planet_groups(tmp_path):
    # a chain north of the station with planets of every type in different numbers
    line = [(0, -k) for k in range(1, 29)]
    kinds = ["ice"] * 1 + ["lava"] * 2 + ["jungle"] * 3 + ["desert"] * 4 + ["ocean"] * 5 \
        + ["gas"] * 7 + [None] * 3 + ["pirate"] * 3
    centres: dict[Hex, dict[str, Any]] = {}
    for cell, kind in zip(line, kinds, strict=True):
        if kind == "pirate":
            centres[cell] = {"pirate": True}
        elif kind:
            centres[cell] = {"planet": kind}
    layout = table(chain(line), centres=centres,
                   open_ends={(0, -28): ["N", "NE"], (0, -5): ["SW"]})
    result = score_layout(tmp_path, layout)
    assert result.valid
    anna = player(result, "Anna")
    points = {k: (v["count"], v["points"]) for k, v in anna["planets"].items()}
    assert points == {"ice": (1, -2), "lava": (2, -1), "jungle": (3, 2), "desert": (4, 6),
                      "ocean": (5, 7), "gas": (7, 9)}
    assert anna["pirates"]["count"] == 3 and anna["pirates"]["points"] == -9
    assert anna["open_routes"]["count"] == 3 and anna["open_routes"]["points"] == -3
    assert {(tuple(o["at"]), o["side"]) for o in anna["open_routes"]["routes"]} == {
        ((0, -28), "N"), ((0, -28), "NE"), ((0, -5), "SW")}
    assert anna["total"] == -2 - 1 + 2 + 6 + 7 + 9 - 9 - 3


@pytest.mark.parametrize("cells,size,points", [
    ([(0, -3), (1, -3), (2, -3), (2, -4), (1, -4)], 5, 3),
    ([(0, -3), (1, -3), (1, -2), (0, -2)], 4, 1),
])
def test_block_points_by_size(tmp_path, cells, size, points):
    joins = cycle(cells) + [((0, -1), (0, -2))] + ([((0, -2), (0, -3))] if (0, -2) not in cells
                                                      else [])
    result = score_layout(tmp_path, table(joins))
    assert result.valid, result.findings
    blocks = player(result, "Anna")["closed_blocks"]
    assert [(b["size"], b["points"]) for b in blocks] == [(size, points)]


@pytest.mark.parametrize("radius,points", [(2, 6), (3, 6), (4, 9)])
def test_big_loops_score_by_band(tmp_path, radius, points):
    outer = ring((0, -1 - radius), radius)
    assert (0, -1) in outer
    result = score_layout(tmp_path, table(cycle(outer)))
    assert result.valid
    assert [(b["size"], b["points"]) for b in player(result, "Anna")["closed_blocks"]] == [
        (6 * radius, points)]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_default_start_lines_for_each_player_count(tmp_path, players):
    # one sector on every station side; each is in the system of the side's owner,
    # or neutral when the side is a barrier
    cells = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]
    centres = {c: {"planet": "ice"} for c in cells}
    result = score_layout(tmp_path, table([], cells=cells, players=players, centres=centres))
    assert result.valid, result.findings
    out = to_json(result)
    expected = DEFAULT_LINES[players]
    for seat, p in enumerate(out["players"]):
        assert p["start_lines"] == expected[seat]
        owned = [list(cells[SIDES.index(s)]) for s in expected[seat]]
        assert p["sectors"] == sorted(owned)
    barriers = [s for s in SIDES if all(s not in lines for lines in expected)]
    assert out["station"]["barriers"] == barriers
    assert out["neutral"] == sorted(list(cells[SIDES.index(s)]) for s in barriers)


def test_start_lines_and_barriers_given_in_the_layout(tmp_path):
    layout = table([], cells=[(0, -1), (0, 1), (1, 0)],
                   start_lines={"Anna": ["N"], "Boris": ["S"]}, barriers=["SE"])
    result = score_layout(tmp_path, layout)
    assert result.valid
    out = to_json(result)
    assert out["station"] == {"start_lines": {"N": "Anna", "S": "Boris"},
                              "barriers": ["NE", "SE", "SW", "NW"]}
    assert player(result, "Anna")["sectors"] == [[0, -1]]
    assert player(result, "Boris")["sectors"] == [[0, 1]]
    assert out["neutral"] == [[1, 0]]


def test_equal_totals_share_the_win(tmp_path):
    layout = table([], cells=[(0, -1), (0, 1)], centres={(0, -1): {"planet": "ice"},
                                                         (0, 1): {"planet": "gas"}})
    result = score_layout(tmp_path, layout)
    assert [p.total for p in result.players] == [-2, -2]
    assert result.winners == ("Anna", "Boris")


def test_system_is_whoever_placed_it_connected_by_routes_only(tmp_path):
    # (1, -2) touches Anna's (0, -1) without a route between them: it stays neutral
    layout = table([((0, -1), (0, -2))], cells=[(1, -2)])
    result = score_layout(tmp_path, layout)
    assert result.valid
    assert player(result, "Anna")["sectors"] == [[0, -2], [0, -1]]
    assert to_json(result)["neutral"] == [[1, -2]]
