"""The cached ruleset the scorer reads agrees with the validated definitions, to the letter.

There is one way from YAML to a ruleset (the pydantic models); the cache may only save
that work for files it has seen pass. Each mutation below breaks (or oddly writes) one
field; the cached path must give exactly what the models give: the same ruleset, or the
same problem lines. The mutated file is read after the shipped files were cached, so a
stale entry would show.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from cards.definitions import load_orbitus
from cards.loader import DefinitionError
from cards.ruleset_cache import cache_folder, load_ruleset
from rules.orbitus.ruleset import Ruleset


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PNP_CACHE_DIR", str(folder))
    return folder


def _models_outcome(folder: Path, deck: Path | None = None) -> object:
    try:
        return load_orbitus(folder, deck).ruleset
    except DefinitionError as exc:
        return exc.problems


def _cached_outcome(folder: Path, deck: Path | None = None) -> object:
    try:
        return load_ruleset("orbitus", folder, deck)
    except DefinitionError as exc:
        return exc.problems


def test_the_shipped_cards_give_the_models_ruleset_cold_and_warm(cache):
    cold = load_ruleset("orbitus")
    assert len(list(cache.glob("ruleset-orbitus-*.json"))) == 1
    warm = load_ruleset("orbitus")
    assert cold == warm == load_orbitus().ruleset
    assert isinstance(warm, Ruleset)
    assert len(warm.deck) == 72 and warm.deck_size == 72
    assert warm.scoring.planet_points(6) == 9
    assert warm.scoring.block_points(19) == 9 and warm.scoring.block_points(2) == 0
    setup = warm.setup_for(4)
    assert setup is not None and setup.barriers == (2, 5)


MUTATIONS = [
    # (file, pattern, replacement)
    ("planets.yaml", 'colour: "#86cdf5"', 'colour: "#86cdf"'),
    ("planets.yaml", "symbol: snowflake}", "symbol: III}"),
    ("planets.yaml", "{id: lava,", "{id: ice,"),
    ("planets.yaml", "name: Ice,", "name: Ice, glow: 1,"),
    ("planets.yaml", "{id: ice, ", "{id: 7, "),
    ("planets.yaml", "names: {ru: Лёд, it: Ghiaccio}", "names: [Лёд]"),
    ("planets.yaml", "names: {ru: Лёд, it: Ghiaccio}", "names: {ru: 5}"),
    ("planets.yaml", "names: {ru: Лёд, it: Ghiaccio}", "names: {}"),
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
    # the station is part of the definitions too: a broken one is reported, not ignored
    ("station.yaml", "name_en: Orbitus", "name_en: ''"),
    ("station.yaml", "player_colours:", "bogus: 1\nplayer_colours:"),
]


@pytest.mark.parametrize("name,old,new", MUTATIONS)
def test_the_cached_path_accepts_and_rejects_exactly_what_the_models_do(cards_copy, cache, name,
                                                                        old, new):
    assert _cached_outcome(cards_copy) == _models_outcome(cards_copy)  # cached as shipped
    path = cards_copy / "orbitus" / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    expected = _models_outcome(cards_copy)
    assert _cached_outcome(cards_copy) == expected
    assert _cached_outcome(cards_copy) == expected  # and again, now perhaps from the cache


def test_a_broken_station_file_stops_scoring_with_or_without_a_picture(cards_copy, cache,
                                                                       tmp_path, capsys):
    from scorer.orbitus.cli import run

    station = cards_copy / "orbitus" / "station.yaml"
    station.write_text(station.read_text(encoding="utf-8") + "bogus: 1\n", encoding="utf-8")
    layout = tmp_path / "table.yaml"
    layout.write_text("game: orbitus\nplayers: [Anna, Boris]\nsectors: []\n", encoding="utf-8")
    for extra in ([], ["--svg", str(tmp_path / "t.svg")]):
        assert run([str(layout), "--cards", str(cards_copy), *extra]) == 1  # a rule broken
        err = capsys.readouterr().err
        assert "station.yaml" in err and "unknown field 'bogus'" in err
        assert err.endswith("pnp-score orbitus: 1 problem(s) in the definitions; nothing was "
                            "scored\n")


def test_changed_numbers_reach_the_scorer(cards_copy, cache):
    load_ruleset("orbitus", cards_copy)
    path = cards_copy / "orbitus" / "rules.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("pirate: -3", "pirate: -4"),
                    encoding="utf-8")
    ruleset = load_ruleset("orbitus", cards_copy)
    assert isinstance(ruleset, Ruleset) and ruleset.scoring.pirate == -4


def test_a_deck_beside_its_own_definitions_brings_its_planet_types(cards_copy, cache):
    """``pnp-build init mine``, a new planet type on two sectors: a layout naming the deck
    file gets the planet types of the deck's own folder, not the shipped ones."""
    planets = cards_copy / "orbitus" / "planets.yaml"
    planets.write_text(planets.read_text(encoding="utf-8") + '  - {id: crystal, name: Crystal, '
                       'colour: "#aaccee", symbol: C}\n', encoding="utf-8")
    deck = cards_copy / "orbitus" / "sectors.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("planet: ice}", "planet: crystal}", 2), encoding="utf-8")
    ruleset = load_ruleset("orbitus", None, deck)  # no --cards: the deck's folder decides
    assert isinstance(ruleset, Ruleset) and "crystal" in ruleset.planet_types
    assert sum(1 for c in ruleset.deck if c.planet == "crystal") == 2


def test_a_layouts_deck_is_checked_against_the_folders_planets(cards_copy, cache, tmp_path):
    deck = tmp_path / "deck.yaml"
    deck.write_text("sectors:\n  - {id: X, routes: [N], planet: plasma}\n", encoding="utf-8")
    problems = _cached_outcome(cards_copy, deck)
    assert problems == _models_outcome(cards_copy, deck)
    assert isinstance(problems, list) and re.search(r"'plasma' is not a planet type", problems[0])
    deck.write_text("sectors:\n  - {id: X, routes: [N], planet: gas, count: 3}\n",
                    encoding="utf-8")
    cached = _cached_outcome(cards_copy, deck)
    assert cached == _models_outcome(cards_copy, deck)
    assert isinstance(cached, Ruleset) and cached.cards["X"].count == 3


def test_a_hit_takes_no_validation(cache, monkeypatch):
    load_ruleset("orbitus")

    def refuse(*args, **kwargs):
        raise AssertionError("the pydantic loader was used")

    monkeypatch.setattr("cards.definitions.load_orbitus", refuse)
    monkeypatch.setitem(__import__("cards.definitions").definitions.LOADERS, "orbitus", refuse)
    ruleset = load_ruleset("orbitus")
    assert isinstance(ruleset, Ruleset) and len(ruleset.deck) == 72


@pytest.mark.parametrize("damage", ["", "{", '{"format": 99}', '{"format": 2, "ruleset": 5}',
                                    '{"format": 2, "ruleset": {"deck": 3}}'])
def test_a_damaged_entry_is_validated_again_and_replaced(cache, damage, capsys):
    load_ruleset("orbitus")
    (entry,) = cache.glob("ruleset-orbitus-*.json")
    entry.write_text(damage, encoding="utf-8")
    assert load_ruleset("orbitus") == load_orbitus().ruleset
    assert capsys.readouterr().err == (f"{entry}: note: not a cache entry of this tool (no "
                                       "header); not used, made again\n")
    assert entry.read_bytes().startswith(b"orbitus-pnp cache entry 2 ruleset-orbitus ")
    assert load_ruleset("orbitus") == load_orbitus().ruleset
    assert capsys.readouterr().err == ""  # made again: a hit


def test_no_usable_cache_folder_still_scores(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setenv("PNP_CACHE_DIR", str(blocker / "cache"))  # below a file: unusable
    assert load_ruleset("orbitus") == load_orbitus().ruleset
    monkeypatch.delenv("PNP_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_folder() == tmp_path / "xdg" / "orbitus-pnp"


def test_a_link_out_of_the_folder_is_refused_even_when_its_content_is_cached(cards_copy, cache,
                                                                             tmp_path):
    load_ruleset("orbitus", cards_copy)  # the content of rules.yaml is now in the cache
    outside = tmp_path / "elsewhere.yaml"
    rules = cards_copy / "orbitus" / "rules.yaml"
    outside.write_bytes(rules.read_bytes())
    rules.unlink()
    os.symlink(outside, rules)
    with pytest.raises(DefinitionError) as info:
        load_ruleset("orbitus", cards_copy)
    assert "leads outside" in info.value.problems[0]


def test_old_entries_are_pruned(cache, cards_copy):
    from cards import ruleset_cache as module

    path = cards_copy / "orbitus" / "rules.yaml"
    text = path.read_text(encoding="utf-8")
    for k in range(module.CACHE_KEEP + 5):
        path.write_text(text.replace("pirate: -3", f"pirate: -{k + 3}"), encoding="utf-8")
        load_ruleset("orbitus", cards_copy)
    assert len(list(cache.glob("orbitus-*.json"))) <= module.CACHE_KEEP
