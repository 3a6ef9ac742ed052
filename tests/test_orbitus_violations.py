"""Every violation the issue lists, with its rule, cell, line and exact sentence.

Each test writes a small layout, so the line numbers in the expectations can be
read off the text above them.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from rules.orbitus.score import Result
from scorer.orbitus.cli import run, score_file

HEAD = "game: orbitus\nplayers: [Anna, Boris]\n"
SIDES_HELP = "N, NE, SE, S, SW or NW"


def check(tmp_path: Path, *parts: str) -> Result:
    path = tmp_path / "table.yaml"
    path.write_text("".join(textwrap.dedent(p) for p in parts), encoding="utf-8")
    return score_file(path)[0]


def found(result: Result) -> list[tuple[str, list[int] | None, int | None, str]]:
    return [(f.rule, None if f.cell is None else list(f.cell), f.line, f.message)
            for f in result.findings]


def only(result: Result) -> tuple[str, list[int] | None, int | None, str]:
    assert len(result.findings) == 1, found(result)
    return found(result)[0]


# --- sides that don't match ---------------------------------------------------------------


def test_sector_sector_sides_dont_match(tmp_path):
    result = check(tmp_path, HEAD, """\
        sectors:
          - {at: [0, -1], routes: [S, N]}
          - {at: [0, -2], routes: [NE]}
        """)
    assert only(result) == (
        "match-sector", [0, -2], 5,
        "sector at [0, -2] has no route on its S side, but sector at [0, -1] has a route on "
        "its N side facing it; facing sides must both be routes or both be blank")
    assert not result.valid


def test_sector_start_line_sides_dont_match(tmp_path):
    result = check(tmp_path, HEAD, """\
        sectors:
          - {at: [-1, 1], card: S01, rot: 3}
        """)
    # S01 prints one route on N; turned to S it has no route on its NE side
    assert only(result) == (
        "match-start-line", [-1, 1], 4,
        "sector S01 at [-1, 1] has no route on its NE side, which faces Boris's start line on "
        "the station's SW side; a start line counts as a route, so that side must carry one")


def test_sector_barrier_sides_dont_match(tmp_path):
    result = check(tmp_path, """\
        players: [Anna, Boris, Carla, Dmitri]
        sectors:
          - {at: [1, 0], routes: [NW, S]}
        """)
    assert only(result) == (
        "match-barrier", [1, 0], 3,
        "sector at [1, 0] has a route on its NW side, which faces the barrier on the station's "
        "SE side; a barrier counts as a blank side, so that side must be blank")


def test_a_blank_side_on_a_barrier_and_a_route_to_an_empty_cell_are_fine(tmp_path):
    result = check(tmp_path, """\
        players: [Anna, Boris, Carla, Dmitri]
        sectors:
          - {at: [1, 0], routes: [S, SE]}
        """)
    assert result.valid
    assert result.neutral == ((1, 0),)


def test_sector_reachable_from_two_players_start_lines(tmp_path):
    result = check(tmp_path, """\
        players: [Anna, Boris]
        start_lines: {Anna: N, Boris: NE}
        sectors:
          - {at: [0, -1], routes: [S, SE]}
          - {at: [1, -1], routes: [SW, NW]}
        """)
    assert only(result) == (
        "two-systems", [1, -1], 5,
        "sector at [0, -1] in Anna's system and sector at [1, -1] in Boris's system are joined "
        "by routes across the SE side of [0, -1]; a sector reachable from two players' start "
        "lines is illegal")
    # best effort: each keeps the sector nearer its start line
    assert [p.sectors for p in result.players] == [((0, -1),), ((1, -1),)]


def test_two_systems_meeting_through_a_neutral_zone(tmp_path):
    result = check(tmp_path, """\
        players: [Anna, Boris]
        start_lines: {Anna: N, Boris: S}
        sectors:
          - {at: [0, -1], routes: [S, SE]}
          - {at: [1, -1], routes: [NW, S]}
          - {at: [1, 0], routes: [N, SW]}
          - {at: [0, 1], routes: [NE, N]}
        """)
    assert [f[0] for f in found(result)] == ["two-systems"]
    assert "Anna's system" in result.findings[0].message
    assert "Boris's system" in result.findings[0].message


# --- cells --------------------------------------------------------------------------------


def test_two_sectors_on_one_cell(tmp_path):
    result = check(tmp_path, HEAD, """\
        sectors:
          - {at: [0, -1], card: S04}
          - {at: [0, -1], card: S13}
        """)
    assert only(result) == (
        "cell-taken", [0, -1], 5,
        "two sectors on cell [0, -1]: sector S04 at [0, -1] (line 4) and sector #2 S13 "
        "(line 5); a cell holds one sector, so the second was left out of the score")
    assert result.layout.sectors[(0, -1)].card == "S04"


def test_sector_on_the_station_cell(tmp_path):
    result = check(tmp_path, HEAD, """\
        sectors:
          - {at: [0, 0], card: S04}
        """)
    assert only(result) == (
        "station-cell", [0, 0], 4,
        "sector #1 is placed at [0, 0], the station's cell; sectors go around the station. It "
        "was left out of the score")


@pytest.mark.parametrize("at,shown", [
    ("[1]", "[1]"), ("[1, x]", "[1, 'x']"), ("[1.5, 2]", "[1.5, 2]"), ("[true, 0]", "[True, 0]"),
    ("x", "'x'"), ("[1, 2, 3]", "[1, 2, 3]"), ("null", "null"),
    ("{q: 1, r: 2}", "{'q': 1, 'r': 2}"),
])
def test_at_not_two_integers(tmp_path, at, shown):
    result = check(tmp_path, HEAD, f"""\
        sectors:
          - {{at: {at}, card: S04}}
        """)
    assert only(result) == (
        "bad-at", None, 4,
        f"sector #1: at: {shown} is not a cell; write two whole numbers [q, r] (axial "
        f"coordinates, the station at [0, 0]). It was left out of the score")


def test_at_missing(tmp_path):
    result = check(tmp_path, HEAD, """\
        sectors:
          - {card: S04}
        """)
    assert only(result) == (
        "bad-at", None, 4,
        "sector #1 has no 'at'; give its cell as at: [q, r] (two whole numbers, the station at "
        "[0, 0])")


# --- cards ---------------------------------------------------------------------------------


@pytest.mark.parametrize("card,guess", [("s07", "S07"), ("S7", "S07"), ("S007", "S07"),
                                        ("SO7", "S07"), ("Q99", None)])
def test_card_not_in_the_deck_suggests_the_closest(tmp_path, card, guess):
    result = check(tmp_path, HEAD, f"""\
        sectors:
          - {{at: [3, 3], card: {card}}}
        """)
    rule, cell, line, message = only(result)
    assert (rule, cell, line) == ("unknown-card", [3, 3], 4)
    hint = f"; did you mean {guess}?" if guess else ""
    assert message == (
        f"sector at [3, 3]: card '{card}' is not in the deck (cards/orbitus/sectors.yaml), so it "
        f"was left out of the score{hint}")


def test_more_copies_of_a_card_than_the_deck_holds(tmp_path):
    result = check(tmp_path, HEAD, """\
        sectors:
          - {at: [0, -1], card: S04}
          - {at: [5, 5], card: S04, rot: 1}
          - {at: [7, 5], card: S04, rot: 1}
        """)
    expected = ("card S04 is placed 3 times ([0, -1], [5, 5], [7, 5]) but the deck holds 1 copy; "
                "the one at {} is one too many")
    assert found(result) == [
        ("too-many-copies", [5, 5], 5, expected.format("[5, 5]")),
        ("too-many-copies", [7, 5], 6, expected.format("[7, 5]")),
    ]


def test_a_card_with_routes_of_its_own(tmp_path):
    result = check(tmp_path, HEAD, """\
        sectors:
          - {at: [0, -1], card: S04, routes: [N], planet: gas}
        """)
    assert only(result) == (
        "sector-format", [0, -1], 4,
        "sector at [0, -1]: a deck card takes its routes and centre from the deck; remove "
        "routes, planet (or remove card for an inline sector). The card was used")
    assert result.layout.sectors[(0, -1)].planet == "ice"


# --- rotations and directions ------------------------------------------------------------------

ROT_HELP = ("use 0-5 (how many 60° steps clockwise the card is turned) or the direction its "
            "orientation marker points to (N, NE, SE, S, SW or NW)")


@pytest.mark.parametrize("rot,shown,problem", [
    ("7", "7", "is out of range"), ("-1", "-1", "is out of range"),
    ("2.5", "2.5", "is not a rotation"), ("true", "true", "is not a rotation"),
    ("[1]", "[1]", "is not a rotation"),
])
def test_rot_out_of_range(tmp_path, rot, shown, problem):
    result = check(tmp_path, HEAD, f"""\
        sectors:
          - {{at: [4, 4], card: S04, rot: {rot}}}
        """)
    assert only(result) == (
        "bad-rot", [4, 4], 4,
        f"sector at [4, 4]: rot: {shown} {problem}, so the sector was left out of the score; "
        f"{ROT_HELP}")
    assert result.layout.sectors == {}


@pytest.mark.parametrize("rot,side", [("2", 2), ("SE", 2), ("nw", 5), (" S ", 3), ("'4'", 4)])
def test_rot_as_number_or_direction_name(tmp_path, rot, side):
    result = check(tmp_path, HEAD, f"""\
        sectors:
          - {{at: [4, 4], card: S01, rot: {rot!s}}}
        """)
    assert result.valid
    assert result.layout.sectors[(4, 4)].routes == frozenset({side})  # S01: one route, N


def test_unknown_direction_name_in_rot(tmp_path):
    result = check(tmp_path, HEAD, """\
        sectors:
          - {at: [4, 4], card: S04, rot: north}
        """)
    assert only(result) == (
        "unknown-direction", [4, 4], 4,
        "sector at [4, 4]: rot: 'north' is not a direction, so the sector was left out of the "
        "score; give the direction the card's orientation marker points to (N, NE, SE, S, SW "
        "or NW) or 0-5")


def test_unknown_direction_name_in_routes(tmp_path):
    result = check(tmp_path, HEAD, """\
        sectors:
          - {at: [4, 4], routes: [NNE, N, N]}
        """)
    assert found(result) == [
        ("unknown-direction", [4, 4], 4,
         f"sector at [4, 4]: routes: 'NNE' is not a direction, so that route was left out; use "
         f"{SIDES_HELP}; did you mean NE?"),
        ("sector-format", [4, 4], 4, "sector at [4, 4]: routes: side N is listed twice"),
    ]
    assert result.layout.sectors[(4, 4)].routes == frozenset({0})


def test_unknown_direction_in_start_lines_and_barriers(tmp_path):
    result = check(tmp_path, """\
        players: [Anna, Boris]
        start_lines:
          Anna: [N, NNW]
          Boris: [S]
        barriers: [up]
        sectors: []
        """)
    assert found(result) == [
        ("unknown-direction", [0, 0], 3,
         f"start_lines: Anna: 'NNW' is not a direction; use {SIDES_HELP}; did you mean NW?"),
        ("unknown-direction", [0, 0], 5, f"barriers: 'up' is not a direction; use {SIDES_HELP}"),
    ]


# --- planets --------------------------------------------------------------------------------


def test_unknown_planet_type(tmp_path):
    result = check(tmp_path, HEAD, """\
        sectors:
          - {at: [0, -1], routes: [S], planet: icee}
        """)
    assert only(result) == (
        "unknown-planet", [0, -1], 4,
        "sector at [0, -1]: planet: 'icee' is not a planet type (known: ice, lava, jungle, "
        "desert, ocean, gas); it was scored as a group of its own; did you mean ice?")
    anna = result.players[0]
    assert [(g.type, g.count, g.points) for g in anna.planets if g.count] == [("icee", 1, -2)]


def test_planet_and_pirate_on_one_centre(tmp_path):
    result = check(tmp_path, HEAD, """\
        sectors:
          - {at: [0, -1], routes: [S], planet: ice, pirate: true}
        """)
    assert only(result) == (
        "sector-format", [0, -1], 4,
        "sector at [0, -1]: a centre holds a planet or a pirate, not both. It was scored as a "
        "planet")


# --- players and the station ------------------------------------------------------------------


def test_player_in_start_lines_not_in_players(tmp_path):
    result = check(tmp_path, """\
        players: [Anna, Boris]
        start_lines:
          Anna: [N, NE, SE]
          Bors: [S, SW, NW]
        sectors: []
        """)
    assert found(result) == [
        ("no-start-line", [0, 0], 2,
         "start_lines: Boris has no start line; give every player at least one side of the "
         "station"),
        ("unknown-player", [0, 0], 4,
         "start_lines: 'Bors' is not one of the players (Anna, Boris); did you mean Boris?"),
    ]


def test_side_given_to_two_players(tmp_path):
    result = check(tmp_path, """\
        players: [Anna, Boris]
        start_lines:
          Anna: [N, NE]
          Boris: [NE, S]
        sectors: []
        """)
    assert only(result) == (
        "side-twice", [0, 0], 4,
        "start_lines: the station's NE side is given to Anna and to Boris; each side is one "
        "player's start line or a barrier")


def test_side_both_start_line_and_barrier_or_barrier_twice(tmp_path):
    result = check(tmp_path, """\
        players: [Anna, Boris]
        start_lines: {Anna: [N], Boris: [S]}
        barriers: [N, SE, SE]
        sectors: []
        """)
    assert found(result) == [
        ("side-twice", [0, 0], 3,
         "barriers: the station's N side is Anna's start line and also listed as a barrier; a "
         "side is one or the other"),
        ("side-twice", [0, 0], 3, "barriers: the station's SE side is listed twice"),
    ]


@pytest.mark.parametrize("names", [["Anna"], [], ["A", "B", "C", "D", "E", "F", "G"]])
def test_player_count_outside_2_to_6(tmp_path, names):
    result = check(tmp_path, f"players: {json.dumps(names)}\nsectors: []\n")
    assert only(result) == (
        "player-count", None, 1,
        f"players: {len(names)} player(s) listed; Orbitus is played by 2 to 6")


def test_players_listed_twice_or_not_names(tmp_path):
    result = check(tmp_path, """\
        players: [Anna, Boris, Anna, "", {x: 1}]
        sectors: []
        """)
    assert found(result) == [
        ("players-format", None, 1, "players: 'Anna' is listed twice; every player needs their "
                                    "own name"),
        ("players-format", None, 1, "players: entry 4 ('') is not a name; write each player's "
                                    "name as text, in seat order"),
        ("players-format", None, 1, "players: entry 5 ({'x': 1}) is not a name; write each "
                                    "player's name as text, in seat order"),
    ]
    assert result.layout.players == ("Anna", "Boris")


def test_start_lines_not_a_mapping_falls_back_to_the_defaults(tmp_path):
    result = check(tmp_path, """\
        players: [Anna, Boris]
        start_lines: [N]
        sectors: []
        """)
    assert only(result) == (
        "start-lines-format", [0, 0], 2,
        "start_lines: expected a mapping of player name to sides, e.g. {Anna: [N, NE, SE]}, got "
        "a list; the default start lines were used")
    assert result.layout.start_lines == {0: 0, 1: 0, 2: 0, 3: 1, 4: 1, 5: 1}


# --- the shape of entries --------------------------------------------------------------------


def test_unknown_fields_are_reported_with_the_closest_name(tmp_path):
    result = check(tmp_path, """\
        players: [Anna, Boris]
        barrier: [SE]
        sectors:
          - {at: [0, -1], routes: [S], planett: ice}
        """)
    assert found(result) == [
        ("unknown-field", None, 2,
         "unknown field 'barrier' at the top level was ignored (known: game, players, "
         "start_lines, barriers, cards, design, sectors); did you mean barriers?"),
        ("unknown-field", None, 4,
         "sector #1: unknown field 'planett' was ignored (known: at, card, rot, routes, planet, "
         "pirate); did you mean planet?"),
    ]


def test_sector_entries_of_the_wrong_shape(tmp_path):
    result = check(tmp_path, HEAD, """\
        sectors:
          - [1, 2]
          - {at: [10, 3]}
          - {at: [12, 3], routes: [N], pirate: maybe}
          - {at: [13, 3], routes: [N], rot: 2}
        """)
    assert found(result) == [
        ("sector-format", None, 4,
         "sector #1: expected a mapping like {at: [1, -1], card: S07, rot: 2} or {at: [1, -1], "
         "routes: [SW, NW], planet: ice}, got a list"),
        ("sector-format", [10, 3], 5,
         "sector at [10, 3]: give either card: ID (a deck card, with rot) or routes: [...] (an "
         "inline sector, routes as it lies). It was left out of the score"),
        ("sector-format", [12, 3], 6,
         "sector at [12, 3]: pirate: expected true or false, got 'maybe', so it was read as "
         "false"),
        ("sector-format", [13, 3], 7,
         "sector at [13, 3]: rot is for deck cards; an inline sector's routes are written as it "
         "lies on the table. rot was ignored"),
    ]


def test_every_violation_at_once_is_listed_and_scores_are_still_given(tmp_path, capsys):
    path = tmp_path / "table.yaml"
    path.write_text(HEAD + textwrap.dedent("""\
        sectors:
          - {at: [0, -1], routes: [S, N], planet: ice}
          - {at: [0, -2], routes: [NE]}
          - {at: [0, 0], card: S04}
          - {at: [3, 3], card: Q1}
        """), encoding="utf-8")
    assert run([str(path), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] is False
    assert [v["rule"] for v in out["violations"]] == ["match-sector", "station-cell",
                                                      "unknown-card"]
    assert all(set(v) == {"rule", "cell", "message", "line"} for v in out["violations"])
    # one ice; the route north of (0, -1) faces a sector, not an empty cell: not open
    assert out["players"][0]["total"] == -2
    assert run([str(path), "--json", "--lenient"]) == 0
    assert run([str(path)]) == 1
    text = capsys.readouterr().out
    assert "NOT VALID: 3 violation(s), scores are best-effort" in text
    assert "table.yaml:5: match-sector: sector at [0, -2] has no route on its S side" in text


# --- the matching check itself, on many broken tables --------------------------------------


def _mismatches_side_by_side(info, order):
    """Every side of every sector read in turn (how the check was first written): each pair
    of facing sides that differ, reported at the sector listed later."""
    from rules.orbitus.analysis import EMPTY, OPP, STATION_NODE, Mismatch

    out = []
    for i, mask in enumerate(info.routes):
        for side in range(6):
            j = info.near[6 * i + side]
            if j == EMPTY or j >= 0 and order[j] > order[i]:
                continue
            route = bool(mask >> side & 1)
            if j == STATION_NODE:
                line = OPP[side] in info.start_lines
                if line != route:
                    out.append((i, Mismatch(side, route, STATION_NODE, line)))
                continue
            other = bool(info.routes[j] >> OPP[side] & 1)
            if route != other:
                out.append((i, Mismatch(side, route, j, other)))
    return out


def test_the_matching_check_finds_what_reading_every_side_finds_on_random_tables():
    """The check looks only at route sides not joined to a route and at the station's
    neighbours; on 3,000 random tables (random routes, start lines, sectors listed in any
    order, some in the same place of the order) it reports the same mismatches, at the
    same sectors, in the same order, as reading every side of every sector."""
    import random

    from rules.orbitus.analysis import Analysis

    rng = random.Random(1)
    found = 0
    for _ in range(3000):
        cells = {(rng.randrange(-4, 5), rng.randrange(-4, 5))
                 for _ in range(rng.randrange(40))} - {(0, 0)}
        lines = {s: rng.randrange(3) for s in rng.sample(range(6), rng.randrange(7))}
        info = Analysis(lines, 3, {c: rng.randrange(64) for c in cells})
        order = [rng.randrange(len(cells) // 2 + 1) for _ in info.cells]
        expected = _mismatches_side_by_side(info, order)
        assert info.table_mismatches(order) == expected
        found += len(expected)
    assert found > 10_000
