"""pnp-build init DIR: a working, editable copy of the definitions; never a silent overwrite."""

from __future__ import annotations

import os

import pytest

from cards.definitions import DEFAULT_CARDS, load_orbitus, load_satellites
from testkit.commands import run_build

YAMLS = ["orbitus/planets.yaml", "orbitus/rules.yaml", "orbitus/sectors.yaml",
         "orbitus/station.yaml", "satellites/board.yaml", "satellites/satellites.yaml",
         "satellites/trackers.yaml"]


def _init(*args: str):
    return run_build(["init", *args])


def test_init_copies_definitions_with_resolvable_schema_lines(tmp_path):
    dest = tmp_path / "my-game"
    result = _init(str(dest))
    assert result.exit_code == 0, result.output
    assert "pnp-build --cards" in result.output
    for rel in YAMLS:
        copied = dest / rel
        assert copied.read_bytes() == (DEFAULT_CARDS / rel).read_bytes()
        first = copied.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema=")
        schema = (copied.parent / first.split("$schema=", 1)[1]).resolve()
        assert schema.is_file() and schema.is_relative_to(dest.resolve())
    assert not list(dest.rglob("*.py"))
    # the copy is a working definitions folder
    assert load_orbitus(dest).sectors.deck_size == 72
    assert load_satellites(dest).board.size == 10
    result = run_build(["--cards", str(dest), "--out", str(tmp_path / "out"),
                                      "--game", "satellites", "-q"])
    assert result.exit_code == 0, result.output


def test_init_refuses_to_overwrite_without_force(tmp_path):
    dest = tmp_path / "mine"
    assert _init(str(dest)).exit_code == 0
    planets = dest / "orbitus" / "planets.yaml"
    planets.write_text(planets.read_text(encoding="utf-8") + "# my edit\n", encoding="utf-8")
    (dest / "satellites" / "board.yaml").unlink()
    result = _init(str(dest))
    assert result.exit_code == 1
    assert "already holds" in result.output and "--force" in result.output
    assert "nothing was written" in result.output
    assert planets.read_text(encoding="utf-8").endswith("# my edit\n")
    assert not (dest / "satellites" / "board.yaml").exists()  # not even the missing file
    result = _init(str(dest), "--force")
    assert result.exit_code == 0, result.output
    assert not planets.read_text(encoding="utf-8").endswith("# my edit\n")
    assert (dest / "satellites" / "board.yaml").is_file()


def test_init_into_an_unrelated_existing_folder_is_fine(tmp_path):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    result = _init(str(tmp_path))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert (tmp_path / "orbitus" / "sectors.yaml").is_file()


def test_init_misuse_exits_2(tmp_path):
    a_file = tmp_path / "file"
    a_file.write_text("x", encoding="utf-8")
    result = _init(str(a_file))
    assert result.exit_code == 2
    assert "is a file" in result.output
    dest = tmp_path / "d"
    dest.mkdir()
    (dest / "orbitus").write_text("in the way", encoding="utf-8")
    result = _init(str(dest))
    assert result.exit_code == 2
    assert "need a folder there" in result.output
    assert _init().exit_code == 2  # DIR missing


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_init_never_writes_through_a_link_out_of_dir(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    dest = tmp_path / "d"
    dest.mkdir()
    (dest / "orbitus").symlink_to(outside, target_is_directory=True)
    result = _init(str(dest), "--force")
    assert result.exit_code == 2
    assert "leads out of" in result.output
    assert not list(outside.iterdir())
