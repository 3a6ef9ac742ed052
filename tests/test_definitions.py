"""The definitions load, and every kind of bad definition gets its own one-line message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cards.definitions import load_orbitus, load_satellites
from cards.models import SCHEMAS
from cards.schema import SCHEMA_DIR, schema_text
from rules.hexgeo import SIDES
from testkit.commands import run_build

ROOT = Path(__file__).resolve().parent.parent


def test_shipped_definitions_load():
    orb = load_orbitus()
    assert orb.sectors.deck_size == 72
    assert orb.station.name == "Орбитус"
    assert (orb.rules.hand_size, orb.rules.min_hand) == (4, 2)
    assert orb.sectors.hex_across_flats_mm == 50
    sat = load_satellites()
    assert sat.board.size == 10 and sat.board.cell_mm == 30
    assert sat.satellites.diameter_mm == 25
    assert sum(e.count for e in sat.satellites.satellites) == 24
    assert sat.trackers.connected.max == 24
    assert sat.ruleset.end_connected == 23 and sat.ruleset.grace_moves == 3


def test_default_deck_composition():
    deck = load_orbitus().sectors.sectors
    centres = [s.planet or ("pirate" if s.pirate else "void") for s in deck]
    assert centres.count("pirate") == 8
    assert centres.count("void") == 10
    for planet in ("ice", "lava", "jungle", "desert", "ocean", "gas"):
        assert centres.count(planet) == 9

    def canonical(sides: frozenset[int]) -> tuple[int, ...]:
        return min(tuple(sorted((s + k) % 6 for s in sides)) for k in range(6))

    assert len({canonical(s.route_sides) for s in deck}) == 13
    mostly = sum(1 for s in deck if 2 <= len(s.route_sides) <= 4)
    assert mostly > len(deck) * 0.75


def test_scoring_tables_match_rules_page():
    scoring = load_orbitus().ruleset.scoring
    assert [scoring.planet_points(n) for n in range(0, 9)] == [0, -2, -1, 2, 6, 7, 9, 9, 9]
    assert scoring.pirate == -3 and scoring.open_route == -1
    assert [scoring.block_points(n) for n in (3, 4, 5, 9, 10, 18, 19, 40)] == [1, 1, 3, 3, 6, 6,
                                                                             9, 9]
    rules = load_orbitus().rules
    assert rules.setup_for(4).barriers == ["SE", "NW"]
    assert rules.setup_for(2).start_lines == [["N", "NE", "SE"], ["S", "SW", "NW"]]


def test_schemas_shipped_match_models_and_files_name_them():
    for name in SCHEMAS:
        shipped = (SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8")
        assert shipped == schema_text(name), f"run python -m cards.schema ({name} is stale)"
        json.loads(shipped)
    for game in ("orbitus", "satellites"):
        for f in (ROOT / "cards" / game).glob("*.yaml"):
            first = f.read_text(encoding="utf-8").splitlines()[0]
            assert first == (f"# yaml-language-server: $schema=../schema/{game}-{f.stem}"
                             ".schema.json"), f


# --- bad definitions: one clear line each, exit 1 (2: a file that cannot be read) ---


def _build(cards: Path, out: Path) -> tuple[int, str]:
    result = run_build(["--cards", str(cards), "--out", str(out), "-q"])
    return result.exit_code, result.output


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


SECTORS = "orbitus/sectors.yaml"
CASES = {
    "bad side": (
        SECTORS, "{id: S17, routes: [N, SE,", "{id: S17, routes: [NNE, SE,",
        "cards/orbitus/sectors.yaml:54: sector S17: routes: 'NNE' is not a side "
        "(N, NE, SE, S, SW, NW)",
    ),
    "yaml syntax": (
        SECTORS, "  - {id: S30, routes: [NE, S], planet: desert}",
        "  - {id: S30, routes: [NE, S, planet: desert}",
        "cards/orbitus/sectors.yaml:67: YAML syntax error: ",
    ),
    "misspelt field": (
        SECTORS, "  - {id: S30, routes: [NE, S], planet: desert}",
        "  - {id: S30, routes: [NE, S], plannet: desert}",
        "cards/orbitus/sectors.yaml:67: sector S30: plannet: unknown field 'plannet' "
        "(known fields: id, routes, planet, pirate, count); did you mean 'planet'?",
    ),
    "a tab": (
        SECTORS, "  - {id: S30, routes: [NE, S], planet: desert}",
        "\t- {id: S30, routes: [NE, S], planet: desert}",
        "cards/orbitus/sectors.yaml:67:1: a tab character; YAML indents with spaces only "
        "(replace the tab with spaces)",
    ),
    "unknown field": (
        SECTORS, "{id: S30, routes: [NE, S], planet: desert}",
        "{id: S30, routes: [NE, S], planet: desert, colr: red}",
        "cards/orbitus/sectors.yaml:67: sector S30: colr: unknown field 'colr' "
        "(known fields: id, routes, planet, pirate, count)",
    ),
    "duplicate id": (
        SECTORS, "{id: S30,", "{id: S17,",
        "cards/orbitus/sectors.yaml:67: sector S17: id: duplicate sector ID 'S17' "
        "(first used on line 54); every sector needs its own ID",
    ),
    "unknown planet": (
        SECTORS, "planet: desert}\n  - {id: S31", "planet: mars}\n  - {id: S31",
        "cards/orbitus/sectors.yaml:67: sector S30: planet: 'mars' is not a planet type "
        "(known: ice, lava, jungle, desert, ocean, gas)",
    ),
    "count below one": (
        SECTORS, "{id: S30, routes: [NE, S], planet: desert}",
        "{id: S30, routes: [NE, S], planet: desert, count: 0}",
        "cards/orbitus/sectors.yaml:67: sector S30: count: must be at least 1, got 0",
    ),
    "size not positive": (
        SECTORS, "hex_across_flats_mm: 50", "hex_across_flats_mm: 0",
        "cards/orbitus/sectors.yaml:29: hex_across_flats_mm: must be at least 20, got 0",
    ),
    "no routes": (
        SECTORS, "{id: S40, routes: [N, S],", "{id: S40, routes: [],",
        "cards/orbitus/sectors.yaml:77: sector S40: routes: none given; a sector needs at "
        "least one route side (N, NE, SE, S, SW, NW)",
    ),
    "satellite count": (
        "satellites/satellites.yaml", "{colour: blue, value: 2, count: 3}",
        "{colour: blue, value: 2, count: 2}",
        "cards/satellites/satellites.yaml:5: satellites: blue has 2 satellite(s) of value 2 "
        "and red has 3; both players have the same satellites (docs/rules/satellites.md S-6)",
    ),
    "board cell size": (
        "satellites/board.yaml", "cell_mm: 30", "cell_mm: -5",
        "cards/satellites/board.yaml:6: cell_mm: must be at least 10, got -5",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_definition_message(case, cards_copy, tmp_path, monkeypatch):
    rel, old, new, expected = CASES[case]
    _edit(cards_copy / rel, old, new)
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    code, output = _build(Path("cards"), out)
    assert code == (2 if case in ("yaml syntax", "a tab") else 1)  # unreadable: 2; wrong: 1
    first = output.splitlines()[0]
    assert first.startswith(expected), output
    assert "Traceback" not in output
    assert "nothing was written" in output
    assert not out.exists()


def test_empty_file(cards_copy, tmp_path, monkeypatch):
    (cards_copy / "orbitus" / "planets.yaml").write_text("# only a comment\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, output = _build(Path("cards"), tmp_path / "out")
    assert code == 2  # a file that cannot be read at all
    assert output.splitlines()[0] == (
        "cards/orbitus/planets.yaml:1: the file is empty; expected the Orbitus planet types")


def test_missing_file(cards_copy, tmp_path, monkeypatch):
    (cards_copy / "satellites" / "trackers.yaml").unlink()
    monkeypatch.chdir(tmp_path)
    code, output = _build(Path("cards"), tmp_path / "out")
    assert code == 2  # a file that cannot be read at all
    assert output.splitlines()[0] == (
        "cards/satellites/trackers.yaml: file not found; expected the Satellites trackers")


def test_all_problems_reported_together(cards_copy, tmp_path, monkeypatch):
    _edit(cards_copy / SECTORS, "{id: S17, routes: [N, SE,", "{id: S17, routes: [NNE, SE,")
    _edit(cards_copy / SECTORS, "{id: S40, routes: [N, S],", "{id: S40, routes: [],")
    _edit(cards_copy / "satellites/board.yaml", "cell_mm: 30", "cell_mm: 0")
    monkeypatch.chdir(tmp_path)
    code, output = _build(Path("cards"), tmp_path / "out")
    assert code == 1
    lines = output.splitlines()
    assert lines[0].startswith("cards/orbitus/sectors.yaml:54: sector S17: routes:")
    assert lines[1].startswith("cards/orbitus/sectors.yaml:77: sector S40: routes:")
    assert lines[2].startswith("cards/satellites/board.yaml:6: cell_mm:")
    assert lines[3] == "pnp-build: 3 problem(s) in the definitions; nothing was written"


def test_bad_definitions_never_overwrite_previous_output(cards_copy, tmp_path, monkeypatch):
    out = tmp_path / "out"
    code, _ = _build(cards_copy, out)
    assert code == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    _edit(cards_copy / SECTORS, "{id: S40, routes: [N, S],", "{id: S40, routes: [],")
    code, _ = _build(cards_copy, out)
    assert code == 1
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before


def test_missing_cards_folder_is_misuse(tmp_path):
    code, output = _build(tmp_path / "nope", tmp_path / "out")
    assert code == 2
    assert "no such folder" in output


def test_side_names_listed_in_order():
    assert SIDES == ("N", "NE", "SE", "S", "SW", "NW")


def test_links_out_of_the_cards_folder_are_refused(cards_copy, tmp_path, monkeypatch):
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text((cards_copy / "orbitus" / "planets.yaml").read_text(encoding="utf-8"),
                       encoding="utf-8")
    (cards_copy / "orbitus" / "planets.yaml").unlink()
    (cards_copy / "orbitus" / "planets.yaml").symlink_to(outside)
    monkeypatch.chdir(tmp_path)
    code, output = _build(Path("cards"), tmp_path / "out")
    assert code == 2  # a file that cannot be read at all
    assert output.splitlines()[0].startswith(
        "cards/orbitus/planets.yaml: leads outside cards (to ")


def test_yaml_aliases_cannot_explode(tmp_path):
    from cards.loader import DefinitionError, parse_yaml

    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n"
    for i in range(1, 12):
        prev = chr(ord("a") + i - 1)
        name = chr(ord("a") + i)
        bomb += f"{name}: &{name} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"
    with pytest.raises(DefinitionError) as err:
        parse_yaml(bomb, tmp_path / "bomb.yaml", "a test")
    assert "YAML aliases (*name) of lists or mappings are not accepted" in err.value.problems[0]
    # aliases of plain values stay allowed
    doc = parse_yaml("colour: &c '#112233'\nother: *c\n", tmp_path / "ok.yaml", "a test")
    assert doc.data == {"colour": "#112233", "other": "#112233"}
