"""The JSON Schemas an editor checks as you type catch
every mistake a schema can express, and the loader catches every one of them, with a
file:line message and never a traceback or a hang.

Each mutation below changes one shipped definitions file the way a designer might get it
wrong. Every one is run through the loader (``pnp-build``'s reading) and through a real
JSON Schema validator (``jsonschema``, draft 2020-12) on the file as an editor's YAML 1.2
reads it. ``SCHEMA`` marks the mistakes a schema can express (a value's form or range, a
list's length or repeats, a field that may not be there); the others need two values
compared (min_hand against hand_size), two files (a planet type), or counting, which JSON
Schema cannot say.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest
import yaml

from cards.definitions import load_orbitus, load_satellites
from cards.loader import DefinitionError

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "cards"
SCHEMA = True
CROSS = False

# (name, file, pattern, replacement, a schema can express it)
MUTATIONS: list[tuple[str, str, str, str, bool]] = [
    ("route side NNE", "orbitus/sectors.yaml", r"\{id: S17, routes: \[",
     "{id: S17, routes: [NNE, ", SCHEMA),
    ("empty routes", "orbitus/sectors.yaml", r"\{id: S01, routes: \[N\]", "{id: S01, routes: []",
     SCHEMA),
    ("a side listed twice", "orbitus/sectors.yaml", r"\{id: S01, routes: \[N\]",
     "{id: S01, routes: [N, N]", SCHEMA),
    ("an ID with a space", "orbitus/sectors.yaml", r"\{id: S01,", "{id: S 01,", SCHEMA),
    ("planet plus pirate", "orbitus/sectors.yaml", r"planet: ice\}", "planet: ice, pirate: true}",
     SCHEMA),
    ("an unknown field", "orbitus/sectors.yaml", r"\{id: S01,", "{id: S01, colour: red,", SCHEMA),
    ("count zero", "orbitus/sectors.yaml", r"\{id: S01, routes: \[N\], planet: ice\}",
     "{id: S01, routes: [N], planet: ice, count: 0}", SCHEMA),
    ("count a million", "orbitus/sectors.yaml", r"\{id: S01, routes: \[N\], planet: ice\}",
     "{id: S01, routes: [N], planet: ice, count: 1000000}", SCHEMA),
    ("background red", "orbitus/sectors.yaml", r'background: "#f6f3ea"', "background: red",
     SCHEMA),
    ("a colour without #", "orbitus/sectors.yaml", r'route_colour: "#2b3550"',
     'route_colour: "2b3550"', SCHEMA),
    ("hex 0.001 mm", "orbitus/sectors.yaml", r"hex_across_flats_mm: 50",
     "hex_across_flats_mm: 0.001", SCHEMA),
    ("hex .inf", "orbitus/sectors.yaml", r"hex_across_flats_mm: 50", "hex_across_flats_mm: .inf",
     SCHEMA),
    # NaN is no JSON value, so a JSON Schema has no word for it (the loader still has)
    ("hex .nan", "orbitus/sectors.yaml", r"hex_across_flats_mm: 50", "hex_across_flats_mm: .nan",
     CROSS),
    ("hex 2 metres", "orbitus/sectors.yaml", r"hex_across_flats_mm: 50",
     "hex_across_flats_mm: 2000", SCHEMA),
    ("an unknown planet", "orbitus/sectors.yaml", r"\{id: S01, routes: \[N\], planet: ice\}",
     "{id: S01, routes: [N], planet: rock}", CROSS),
    ("duplicate sector IDs", "orbitus/sectors.yaml", r"\{id: S02,", "{id: S01,", CROSS),
    ("planet symbol neither a shape nor a letter", "orbitus/planets.yaml", r"symbol: snowflake\}",
     "symbol: snowy}", SCHEMA),
    ("planet colour blue", "orbitus/planets.yaml", r'colour: "#86cdf5"', "colour: blue", SCHEMA),
    ("planet ID with a dot", "orbitus/planets.yaml", r"\{id: ice,", "{id: ice.1,", SCHEMA),
    ("no planet types", "orbitus/planets.yaml", r"planet_types:\n(  - .*\n)+",
     "planet_types: []\n", SCHEMA),
    ("duplicate planet IDs", "orbitus/planets.yaml", r"\{id: lava,", "{id: ice,", CROSS),
    ("five seat colours", "orbitus/station.yaml", r', "#5bcbee"\]', "]", SCHEMA),
    ("station colour grey", "orbitus/station.yaml", r'barrier_colour: "#5b5b5b"',
     "barrier_colour: grey", SCHEMA),
    ("start-line side X", "orbitus/rules.yaml", r"\[\[N, NE, SE\], \[S, SW, NW\]\]",
     "[[N, NE, X], [S, SW, NW]]", SCHEMA),
    ("barrier on", "orbitus/rules.yaml", r"barriers: \[NW\]", "barriers: [on]", SCHEMA),
    ("players 7", "orbitus/rules.yaml", r"\{players: 6,", "{players: 7,", SCHEMA),
    ("too few seats for the count", "orbitus/rules.yaml",
     r"\{players: 3, start_lines: \[\[N, NE\], \[SE, S\], \[SW, NW\]\]\}",
     "{players: 3, start_lines: [[N, NE], [SE, S]], barriers: [SW, NW]}", SCHEMA),
    ("a side twice in a setup", "orbitus/rules.yaml", r"barriers: \[NW\]", "barriers: [N]",
     CROSS),
    ("a player count missing", "orbitus/rules.yaml",
     r"  - \{players: 6, start_lines: .*\n", "", SCHEMA),
    ("min hand above hand size", "orbitus/rules.yaml", r"min_hand: 2", "min_hand: 5", CROSS),
    ("hand size zero", "orbitus/rules.yaml", r"hand_size: 4", "hand_size: 0", SCHEMA),
    ("hand size a thousand", "orbitus/rules.yaml", r"hand_size: 4", "hand_size: 1000", SCHEMA),
    ("overlapping score bands", "orbitus/rules.yaml", r"\{min: 5, max: 9, points: 3\}",
     "{min: 4, max: 9, points: 3}", CROSS),
    ("band max below min", "orbitus/rules.yaml", r"\{min: 5, max: 9, points: 3\}",
     "{min: 5, max: 2, points: 3}", CROSS),
    ("band min negative", "orbitus/rules.yaml", r"\{min: 3, max: 4, points: 1\}",
     "{min: -3, max: 4, points: 1}", SCHEMA),
    ("points a billion", "orbitus/rules.yaml", r"pirate: -3", "pirate: -1000000000", SCHEMA),
    ("no planet-group bands", "orbitus/rules.yaml", r"  planet_groups:\n(    - .*\n)+",
     "  planet_groups: []\n", SCHEMA),
    ("the same edges for red and blue", "satellites/board.yaml", r"edges: \[W, E\]",
     "edges: [N, E]", CROSS),
    ("an edge twice", "satellites/board.yaml", r"edges: \[W, E\]", "edges: [W, W]", SCHEMA),
    ("edge X", "satellites/board.yaml", r"edges: \[W, E\]", "edges: [W, X]", SCHEMA),
    ("three edges", "satellites/board.yaml", r"edges: \[W, E\]", "edges: [W, E, S]", SCHEMA),
    ("pattern striped", "satellites/board.yaml", r"pattern: hatched", "pattern: striped",
     SCHEMA),
    ("board size 40", "satellites/board.yaml", r"size: 10", "size: 40", SCHEMA),
    ("cell 0.000000001 mm", "satellites/board.yaml", r"cell_mm: 30", "cell_mm: 0.000000001",
     SCHEMA),
    ("cell .inf", "satellites/board.yaml", r"cell_mm: 30", "cell_mm: .inf", SCHEMA),
    ("zones too big", "satellites/board.yaml", r"setup_zone_cells: 6", "setup_zone_cells: 8",
     CROSS),
    ("inward value 5", "satellites/board.yaml", r"inward_values: \[1, 2\]",
     "inward_values: [1, 5]", SCHEMA),
    ("board colour navy", "satellites/board.yaml", r'grid: "#3a3a3a"', "grid: navy", SCHEMA),
    ("wrong satellite copies", "satellites/satellites.yaml",
     r"\{colour: red, value: 1, count: 3\}", "{colour: red, value: 1, count: 2}", CROSS),
    ("satellite value 5", "satellites/satellites.yaml", r"\{colour: red, value: 1, count: 3\}",
     "{colour: red, value: 5, count: 3}", SCHEMA),
    ("satellite colour green", "satellites/satellites.yaml",
     r"\{colour: red, value: 1, count: 3\}", "{colour: green, value: 1, count: 3}", SCHEMA),
    ("diameter .inf", "satellites/satellites.yaml", r"diameter_mm: 25", "diameter_mm: .inf",
     SCHEMA),
    ("diameter 0.01", "satellites/satellites.yaml", r"diameter_mm: 25", "diameter_mm: 0.01",
     SCHEMA),
    ("token wider than a cell", "satellites/satellites.yaml", r"diameter_mm: 25",
     "diameter_mm: 40", CROSS),
    ("tracker max ten million", "satellites/trackers.yaml", r"max: 24", "max: 10000000",
     SCHEMA),
    ("grace steps ten million", "satellites/trackers.yaml", r"  symbol: ⚡",
     "  symbol: ⚡\n  steps: 10000000", SCHEMA),
    ("tracker below the end count", "satellites/trackers.yaml", r"max: 24", "max: 20", CROSS),
    ("grace moves 50", "satellites/rules.yaml", r"grace_moves: 3 ", "grace_moves: 50 ", SCHEMA),
    ("colony max below min", "satellites/rules.yaml", r"colony_max: 6 ", "colony_max: 2 ",
     CROSS),
    ("first colour green", "satellites/rules.yaml", r"first: red ", "first: green ", SCHEMA),
    ("stall moves 0", "satellites/rules.yaml", r"stall_moves: 1000 ", "stall_moves: 0 ",
     SCHEMA),
    ("stall moves a million", "satellites/rules.yaml", r"stall_moves: 1000 ",
     "stall_moves: 1000000 ", SCHEMA),
]


class Yaml12Loader(yaml.SafeLoader):
    """PyYAML's safe loader read as YAML 1.2 (what yaml-language-server uses): only
    true/false are booleans, no sexagesimal or octal surprises."""


Yaml12Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers
            if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:int")]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
Yaml12Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|false)$"),
                                   list("tf"))
Yaml12Loader.add_implicit_resolver("tag:yaml.org,2002:int", re.compile(r"^[-+]?[0-9]+$"),
                                   list("-+0123456789"))


def _schema_for(rel: str) -> dict:
    first = (CARDS / rel).read_text(encoding="utf-8").splitlines()[0]
    name = re.search(r"\$schema=\.\./schema/(.+)$", first).group(1)
    return json.loads((CARDS / "schema" / name).read_text(encoding="utf-8"))


def _schema_errors(rel: str, text: str) -> list[str]:
    data = yaml.load(text, Loader=Yaml12Loader)  # noqa: S506 - a safe loader
    validator = jsonschema.Draft202012Validator(_schema_for(rel))
    return [e.message for e in validator.iter_errors(data)]


@pytest.fixture
def folder(tmp_path) -> Path:
    dest = tmp_path / "cards"
    for game in ("orbitus", "satellites"):
        (dest / game).mkdir(parents=True)
        for f in (CARDS / game).glob("*.yaml"):
            shutil.copy(f, dest / game / f.name)
    return dest


def test_schemas_are_valid_and_accept_the_shipped_files():
    for path in sorted(CARDS.glob("*/*.yaml")):
        rel = path.relative_to(CARDS).as_posix()
        jsonschema.Draft202012Validator.check_schema(_schema_for(rel))
        assert _schema_errors(rel, path.read_text(encoding="utf-8")) == [], rel


@pytest.mark.parametrize("name,rel,pattern,replacement,expressible", MUTATIONS,
                         ids=[m[0] for m in MUTATIONS])
def test_mutation_is_caught(folder, name, rel, pattern, replacement, expressible):
    path = folder / rel
    text = path.read_text(encoding="utf-8")
    mutated, count = re.subn(pattern, replacement, text, count=1)
    assert count == 1, f"the mutation {name!r} does not apply"
    path.write_text(mutated, encoding="utf-8")
    load = load_orbitus if rel.startswith("orbitus") else load_satellites
    with pytest.raises(DefinitionError) as caught:
        load(folder)
    shown = rel.split("/")[1]
    assert any(re.search(rf"{re.escape(shown)}:\d+: ", p) for p in caught.value.problems), (
        caught.value.problems)
    if expressible:
        assert _schema_errors(rel, mutated), f"the schema lets {name!r} through"


def test_the_schemas_catch_everything_a_schema_can_say():
    """The count the issue measured (12 of 39) against today's: every expressible one."""
    expressible = [m for m in MUTATIONS if m[4]]
    caught = 0
    for _name, rel, pattern, replacement, _ in expressible:
        text = (CARDS / rel).read_text(encoding="utf-8")
        mutated = re.sub(pattern, replacement, text, count=1)
        caught += bool(_schema_errors(rel, mutated))
    assert caught == len(expressible)
    assert len(MUTATIONS) >= 39


@pytest.mark.parametrize("rel,pattern,replacement,field", [
    ("orbitus/sectors.yaml", r"hex_across_flats_mm: 50", "hex_across_flats_mm: 0.001",
     "hex_across_flats_mm: must be at least 20"),
    ("orbitus/sectors.yaml", r"\{id: S01, routes: \[N\], planet: ice\}",
     "{id: S01, routes: [N], planet: ice, count: 1000000}", "count: must be at most 30"),
    ("satellites/board.yaml", r"cell_mm: 30", "cell_mm: .inf",
     "cell_mm: .inf is not a finite number"),  # the loader refuses it before the range
    ("satellites/board.yaml", r"cell_mm: 30", "cell_mm: 1000", "cell_mm: must be at most 60"),
    ("satellites/trackers.yaml", r"max: 24", "max: 10000000", "max: must be at most 99"),
])
def test_pnp_build_reports_an_impossible_number_with_file_and_line(folder, tmp_path, rel,
                                                                   pattern, replacement,
                                                                   field):
    """These hung the build, ran it out of memory or built a kit of
    nothing; now each is one line naming the file, the line and the range, exit 1."""

    from testkit.commands import run_build

    path = folder / rel
    path.write_text(re.sub(pattern, replacement, path.read_text(encoding="utf-8"), count=1),
                    encoding="utf-8")
    out = tmp_path / "out"
    result = run_build(["--cards", str(folder), "--out", str(out), "-q"])
    assert result.exit_code == 1, result.output
    assert re.search(rf"{re.escape(rel.split('/')[1])}:\d+: .*{re.escape(field)}", result.output)
    assert "Traceback" not in result.output and not out.exists()
