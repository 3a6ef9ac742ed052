"""The scorer's fast read of the definitions agrees with the pydantic models.

The fast path may only accept what the models accept; anything else goes to
the models, whose messages the user then sees. Each mutation below breaks (or
oddly writes) one field the scorer reads; the outcome must be what the models
say, to the letter.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cards.definitions import load_orbitus, load_sectors_file
from cards.loader import DefinitionError
from scorer.orbitus import definitions
from scorer.orbitus.definitions import from_models, load_definitions


def test_fast_read_of_the_shipped_cards_equals_the_models():
    fast, models = load_definitions()
    assert models is None
    full, loaded = load_definitions(full=True)
    assert loaded is not None
    assert fast == full
    assert fast == from_models(load_orbitus(), load_orbitus().sectors, fast.deck_file)
    assert len(fast.deck) == 72 and fast.scoring.planet_points(6) == 9
    assert fast.scoring.block_points(19) == 9 and fast.scoring.block_points(2) == 0
    assert fast.setups[4].barriers == frozenset({2, 5})


def _models_outcome(folder: Path, deck: Path | None) -> object:
    try:
        models = load_orbitus(folder)
        sectors = load_sectors_file(deck, models.planets) if deck else models.sectors
        return from_models(models, sectors, (deck or folder / "orbitus" / "sectors.yaml")
                           .resolve())
    except DefinitionError as exc:
        return exc.problems


def _scorer_outcome(folder: Path, deck: Path | None) -> object:
    try:
        return load_definitions(folder, deck)[0]
    except DefinitionError as exc:
        return exc.problems


MUTATIONS = [
    # (file, pattern, replacement)
    ("planets.yaml", 'colour: "#8fd3f4"', 'colour: "#8fd3f"'),
    ("planets.yaml", "symbol: I}", "symbol: III}"),
    ("planets.yaml", "{id: lava,", "{id: ice,"),
    ("planets.yaml", "name: Ice,", "name: Ice, glow: 1,"),
    ("planets.yaml", "{id: ice, ", "{id: 7, "),
    ("planets.yaml", "names: {ru: Лёд}", "names: [Лёд]"),
    ("planets.yaml", "names: {ru: Лёд}", "names: {ru: 5}"),
    ("planets.yaml", "names: {ru: Лёд}", "names: {}"),
    ("sectors.yaml", "routes: [N], planet: ice}", "routes: [N, N], planet: ice}"),
    ("sectors.yaml", "routes: [N], planet: ice}", "routes: [], planet: ice}"),
    ("sectors.yaml", "routes: [N], planet: ice}", "routes: [n ], planet: ice}"),
    ("sectors.yaml", "routes: [N], planet: ice}", "routes: [N], planet: icy}"),
    ("sectors.yaml", "routes: [N], planet: ice}", "routes: [N], planet: ice, pirate: true}"),
    ("sectors.yaml", "routes: [N], planet: ice}", "routes: [N], planet: ice, count: 0}"),
    ("sectors.yaml", "routes: [N], planet: ice}", "routes: [N], planet: ice, count: '2'}"),
    ("sectors.yaml", "routes: [N], planet: ice}", "routes: [N], planet: ice, count: 2.0}"),
    ("sectors.yaml", "routes: [N], planet: ice}", "routes: [N], planet: ice, count: true}"),
    ("sectors.yaml", "routes: [N], planet: ice}", "routes: [N], planet: ice, colour: red}"),
    ("sectors.yaml", "routes: [N, NE], pirate: true}", "routes: [N, NE], pirate: yes}"),
    ("sectors.yaml", "routes: [N, NE], pirate: true}", "routes: [N, NE], pirate: 'true'}"),
    ("sectors.yaml", "{id: S02,", "{id: S01,"),
    ("sectors.yaml", "{id: S02,", "{id: 'S 02',"),
    ("sectors.yaml", "{id: S02,", "{id: 2,"),
    ("sectors.yaml", "hex_across_flats_mm: 50", "hex_across_flats_mm: -50"),
    ("sectors.yaml", "hex_across_flats_mm: 50", "hex_across_flats_mm: '50'"),
    ("sectors.yaml", 'background: "#f6f3ea"', 'background: beige'),
    ("sectors.yaml", "  title: ORBITUS", "  title: ORBITUS\n  tilte: x"),
    ("sectors.yaml", "sectors:\n", "extra: 1\nsectors:\n"),
    ("rules.yaml", "{min: 3, max: 4, points: 1}", "{min: 3, max: 5, points: 1}"),
    ("rules.yaml", "{min: 3, max: 4, points: 1}", "{min: 4, max: 3, points: 1}"),
    ("rules.yaml", "{min: 3, max: 4, points: 1}", "{min: 3, max: 4, points: '1'}"),
    ("rules.yaml", "{min: 6, points: 9}", "{min: 6, max: null, points: 9}"),
    ("rules.yaml", "pirate: -3", "pirate: -3.5"),
    ("rules.yaml", "pirate: -3", "pirate: -4"),
    ("rules.yaml", "open_route: -1", "open_route: -2"),
    ("rules.yaml", "{players: 4, start_lines: [[N], [NE], [S], [SW]], barriers: [SE, NW]}",
     "{players: 4, start_lines: [[N], [NE], [S], [SW]], barriers: [SE, N]}"),
    ("rules.yaml", "{players: 4, start_lines: [[N], [NE], [S], [SW]], barriers: [SE, NW]}",
     "{players: 4, start_lines: [[N], [NE], [S]], barriers: [SE, NW]}"),
    ("rules.yaml", "  - {players: 6, start_lines: [[N], [NE], [SE], [S], [SW], [NW]]}\n", ""),
    ("rules.yaml", "min_hand: 2", "min_hand: 5"),
    ("rules.yaml", "min_hand: 2", "min_hand: 2\nhand: 3"),
]


@pytest.mark.parametrize("name,old,new", MUTATIONS)
def test_the_scorer_accepts_and_rejects_exactly_what_the_models_do(cards_copy, name, old, new):
    path = cards_copy / "orbitus" / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert _scorer_outcome(cards_copy, None) == _models_outcome(cards_copy, None)


def test_changed_numbers_reach_the_scorer(cards_copy):
    path = cards_copy / "orbitus" / "rules.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("pirate: -3", "pirate: -4"),
                    encoding="utf-8")
    assert load_definitions(cards_copy)[0].scoring.pirate == -4


def test_a_layouts_deck_is_checked_against_the_folders_planets(cards_copy, tmp_path):
    deck = tmp_path / "deck.yaml"
    deck.write_text("sectors:\n  - {id: X, routes: [N], planet: plasma}\n", encoding="utf-8")
    problems = _scorer_outcome(cards_copy, deck)
    assert problems == _models_outcome(cards_copy, deck)
    assert isinstance(problems, list) and re.search(r"'plasma' is not a planet type", problems[0])
    deck.write_text("sectors:\n  - {id: X, routes: [N], planet: gas, count: 3}\n",
                    encoding="utf-8")
    fast = _scorer_outcome(cards_copy, deck)
    assert fast == _models_outcome(cards_copy, deck)
    assert fast.deck["X"].count == 3  # type: ignore[attr-defined]


def test_the_fast_path_really_is_taken_for_the_shipped_cards(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the pydantic loader was used")

    monkeypatch.setattr("cards.definitions.load_orbitus", refuse)
    assert len(definitions.load_definitions()[0].deck) == 72
