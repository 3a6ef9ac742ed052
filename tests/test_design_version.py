"""The design hash and version (cards/design.py): stable, and changed only by what prints."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from design_helpers import copy_cards, edit

from cards.design import design_of, normalised, parse_stamp
from cards.design_cache import design
from cards.loader import DefinitionError
from cards.ruleset_cache import load_definitions

ROOT = Path(__file__).resolve().parent.parent

# The hashes of the shipped definitions. They change when a shipped definition that prints
# changes (a sector, a colour, a rule number, a label, a booklet word), and when a model
# gains a field (its default is part of the validated data): then update them here, in the
# same commit, and say so in its message.
GOLDEN = {"orbitus": "fa9c2b", "satellites": "c5b0b2"}


@pytest.mark.parametrize("game", ["orbitus", "satellites"])
def test_the_shipped_definitions_have_their_golden_hash(game):
    assert design(game).hash == GOLDEN[game]
    assert design_of(load_definitions(game)).hash == GOLDEN[game]


def test_the_hash_is_the_same_in_another_python_process_with_another_hash_seed(tmp_path):
    # str hashes are salted per process; the design hash must not be
    code = ("from cards.design import design_of; from cards.ruleset_cache import "
            "load_definitions; print(design_of(load_definitions('orbitus')).hash)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONHASHSEED": "12345", "PATH": "/usr/bin:/bin",
                              "PNP_CACHE_DIR": str(tmp_path)}, cwd=ROOT, check=True)
    assert out.stdout.strip() == GOLDEN["orbitus"]






def test_a_copy_has_the_shipped_hash(tmp_path):
    mine = copy_cards(tmp_path / "mine")
    assert design("orbitus", mine).hash == GOLDEN["orbitus"]
    assert design("satellites", mine).hash == GOLDEN["satellites"]


def test_reformatting_the_yaml_and_reordering_keys_changes_nothing(tmp_path):
    mine = copy_cards(tmp_path / "mine")
    sectors = mine / "orbitus" / "sectors.yaml"
    # flow mapping -> block mapping, keys reordered, quoting changed, a comment added,
    # defaults written out, 50 -> 50.0
    edit(sectors, "  - {id: S01, routes: [N], planet: ice}\n",
          "  # the first card\n  - planet: 'ice'\n    count: 1\n    routes:\n      - N\n"
          "    id: \"S01\"\n    pirate: false\n")
    edit(sectors, "hex_across_flats_mm: 50\n", "hex_across_flats_mm: 50.0   # mm\n")
    edit(sectors, 'background: "#f6f3ea"\nroute_colour: "#2b3550"\n',
          "route_colour: '#2B3550'\nbackground: '#f6f3ea'\n")
    rules = mine / "satellites" / "rules.yaml"
    edit(rules, "colony_min: 3        # a group", "colony_min:    3  # a group")
    assert design("orbitus", mine).hash == GOLDEN["orbitus"]
    assert design("satellites", mine).hash == GOLDEN["satellites"]


def test_the_version_is_printed_beside_the_hash_and_does_not_change_it(tmp_path):
    mine = copy_cards(tmp_path / "mine")
    edit(mine / "orbitus" / "rules.yaml", "hand_size: 4\n", "version: 0.7.2\nhand_size: 4\n")
    found = design("orbitus", mine)
    assert (found.hash, found.version, found.stamp) == (GOLDEN["orbitus"], "0.7.2",
                                                        f"v0.7.2·{GOLDEN['orbitus']}")
    assert design("orbitus").stamp == GOLDEN["orbitus"]  # no version: the hash alone


@pytest.mark.parametrize(("file", "old", "new"), [
    ("orbitus/sectors.yaml", "{id: S01, routes: [N], planet: ice}",
     "{id: S01, routes: [NE], planet: ice}"),  # a route
    ("orbitus/sectors.yaml", "{id: S01, routes: [N], planet: ice}",
     "{id: S01, routes: [N], planet: ice, count: 2}"),  # copies
    ("orbitus/sectors.yaml", 'background: "#f6f3ea"', 'background: "#f6f3eb"'),  # a colour
    ("orbitus/sectors.yaml", "  title: ORBITUS", "  title: ORBITVS"),  # the back
    ("orbitus/rules.yaml", "{min: 6, points: 9}", "{min: 6, points: 10}"),  # a scoring row
    ("orbitus/rules.yaml", "hand_size: 4", "hand_size: 5"),
    ("orbitus/station.yaml", "name_en: Orbitus", "name_en: Orbitvs"),
    ("orbitus/planets.yaml", "symbol: snowflake", "symbol: star"),
    ("orbitus/text/rules-en.md", "the", "a"),  # a booklet word
    ("orbitus/text/labels-ru.yaml", ":", ": x", ),  # a printed word (another language)
    ("satellites/rules.yaml", "end_connected: 23", "end_connected: 21"),
    ("satellites/board.yaml", "size: 10", "size: 12"),
])
def test_any_printed_value_changes_the_hash(tmp_path, file, old, new):
    mine = copy_cards(tmp_path / "mine")
    game = file.split("/")[0]
    path = mine / file
    if file.endswith("labels-ru.yaml"):  # change the first text value
        text = path.read_text(encoding="utf-8")
        first = re.search(r"^(\s+\w+: )(\S.*)$", text, re.M)
        assert first is not None
        path.write_text(text[:first.start(2)] + "X" + text[first.start(2):], encoding="utf-8")
    else:
        edit(path, old, new)
    try:
        changed = design(game, mine)
    except DefinitionError as exc:  # the edit must still be a valid design
        raise AssertionError(exc.problems) from None
    assert changed.hash != GOLDEN[game]


def test_reordering_the_deck_changes_the_hash(tmp_path):
    # the deck's order decides the deal of every seed: another game is played
    mine = copy_cards(tmp_path / "mine")
    path = mine / "orbitus" / "sectors.yaml"
    text = path.read_text(encoding="utf-8")
    a = "  - {id: S01, routes: [N], planet: ice}\n"
    b = "  - {id: S02, routes: [N, NW], planet: ice}\n"
    path.write_text(text.replace(a + b, b + a), encoding="utf-8")
    assert design("orbitus", mine).hash != GOLDEN["orbitus"]


def test_a_booklet_with_other_line_endings_has_the_same_hash(tmp_path):
    mine = copy_cards(tmp_path / "mine")
    path = mine / "orbitus" / "text" / "rules-en.md"
    text = path.read_text(encoding="utf-8")
    path.write_bytes(text.replace("\n", "  \r\n").encode("utf-8"))
    assert design("orbitus", mine).hash == GOLDEN["orbitus"]


def test_a_folder_without_texts_hashes_the_shipped_texts_it_prints(tmp_path):
    mine = copy_cards(tmp_path / "mine")
    shutil.rmtree(mine / "orbitus" / "text")
    assert design("orbitus", mine).hash == GOLDEN["orbitus"]
    data = normalised(load_definitions("orbitus", mine))
    assert "rules-en.md" in data["texts"] and "en" in data["labels"]


@pytest.mark.parametrize(("value", "message"), [
    ("1.10", "1.1 is read as a number, so digits may be lost (1.10 becomes 1.1); write the "
             "version in quotes, e.g. version: '1.1'"),
    ("'a b'", "'a b' is not a version; use at most 20 letters, digits"),
    ("true", "True is not a version"),
    ("'" + "9" * 21 + "'", "is not a version; use at most 20"),
])
def test_a_wrong_version_is_refused_with_its_line(tmp_path, value, message):
    mine = copy_cards(tmp_path / "mine")
    edit(mine / "orbitus" / "rules.yaml", "hand_size: 4\n", f"version: {value}\nhand_size: 4\n")
    with pytest.raises(DefinitionError) as caught:
        design("orbitus", mine)
    line = caught.value.problems[0]
    assert re.match(r".*orbitus/rules\.yaml:\d+: version: ", line), line
    assert message in line


def test_a_whole_number_is_a_version():
    from cards.models import RulesFile

    base = load_definitions("orbitus").rules.model_dump()
    assert RulesFile.model_validate({**base, "version": 3}).version == "3"


def test_stamps_are_read_back():
    assert parse_stamp("v0.7.2·3fa9c1") is not None
    assert parse_stamp("v0.7.2·3fa9c1").version == "0.7.2"  # type: ignore[union-attr]
    assert parse_stamp("3FA9C1").hash == "3fa9c1"  # type: ignore[union-attr]
    for wrong in ("", "3fa9c", "v0.7.2", "3fa9c1x", 42, None):
        assert parse_stamp(wrong) is None


def test_the_cached_hash_follows_every_byte(tmp_path):
    mine = copy_cards(tmp_path / "mine")
    assert design("orbitus", mine).hash == GOLDEN["orbitus"]
    edit(mine / "orbitus" / "rules.yaml", "hand_size: 4", "hand_size: 5")
    assert design("orbitus", mine).hash != GOLDEN["orbitus"]
    edit(mine / "orbitus" / "rules.yaml", "hand_size: 5", "hand_size: 4")
    assert design("orbitus", mine).hash == GOLDEN["orbitus"]
