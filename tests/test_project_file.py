"""The project file pnp.toml (cards/project.py): found as git finds .git, every problem a line."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from cards.project import (
    ProjectError,
    current_project,
    find_project,
    load_project,
    project_text,
)


def _project(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "pnp.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_found_in_the_folder_or_any_parent_nearest_first(tmp_path):
    outer = _project(tmp_path / "a", 'cards = "defs"\n')
    (tmp_path / "a" / "defs").mkdir()
    deep = tmp_path / "a" / "b" / "c"
    deep.mkdir(parents=True)
    assert find_project(deep) == outer
    inner = _project(tmp_path / "a" / "b", "")
    assert find_project(deep) == inner
    assert find_project(tmp_path) is None


def test_names_the_folder_and_defaults_relative_to_the_file(tmp_path):
    (tmp_path / "defs").mkdir()
    path = _project(tmp_path, 'cards = "defs"\nrecords = ["games/*.yaml"]\n[defaults]\n'
                              'out = "kit"\nlang = "ru"\npage = "letter"\nplayers = 4\n'
                              'data = "log"\n')
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "one.yaml").write_text("game: satellites\n")
    project = load_project(path)
    assert project.cards == (tmp_path / "defs").resolve()
    assert project.defaults == {"out": (tmp_path / "kit").resolve(), "lang": "ru",
                                "page": "letter", "players": 4,
                                "data": (tmp_path / "log").resolve()}
    assert [p.name for p in project.record_files()] == ["one.yaml"]


@pytest.mark.parametrize(("text", "expected"), [
    ('cards = "defs\n', r"pnp.toml:1: not valid TOML: "),
    ('cards = "nowhere"\n', "pnp.toml:1: cards: 'nowhere' is not a folder"),
    ('cards = "../.."\n', "pnp.toml:1: cards: '../..' lies outside the project folder"),
    ('card = "defs"\n', "pnp.toml:1: unknown key 'card' (a project file has: cards, records, "
                        "defaults)"),
    ('[defaults]\npage = "a3"\n', "pnp.toml:2: page: expected a4 or letter, got 'a3'"),
    ('[defaults]\n\nplayers = 7\n', "pnp.toml:3: players: expected a whole number from 2 to 6, "
                                    "got 7"),
    ('[defaults]\nplayers = true\n', "pnp.toml:2: players: expected a whole number"),
    ('[defaults]\nlang = "English"\n', "pnp.toml:2: lang: expected a language code"),
    ('[defaults]\ncolour = 1\n', "pnp.toml:2: unknown default 'colour' (known: out, lang, "
                                 "page, players, data)"),
    ('records = "x"\n', "pnp.toml:1: records: expected a list of file patterns"),
    ('records = ["../*.yaml"]\n', "pnp.toml:1: records: patterns are relative to the project"),
    ('defaults = 3\n', "pnp.toml:1: defaults: expected a table"),
])
def test_every_problem_is_one_line_with_file_and_line(tmp_path, monkeypatch, text, expected):
    (tmp_path / "defs").mkdir()
    _project(tmp_path, text)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ProjectError) as caught:
        current_project()
    assert len(caught.value.problems) == 1
    assert caught.value.problems[0].startswith(expected.split(" ", 1)[0])
    assert expected in caught.value.problems[0], caught.value.problems[0]


def test_not_utf8_and_not_a_file(tmp_path):
    path = _project(tmp_path, "")
    path.write_bytes(b'cards = "\xff"\n')
    with pytest.raises(ProjectError, match="not UTF-8 text"):
        load_project(path)
    path.unlink()
    path.mkdir()
    assert find_project(tmp_path) is None  # a folder named pnp.toml is no project file


def test_switched_off_by_the_environment(tmp_path, monkeypatch):
    _project(tmp_path, "x = 1\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PNP_NO_PROJECT", "1")
    assert current_project() is None


def test_the_written_template_is_valid_toml_and_names_the_folder(tmp_path):
    text = project_text('my "game"')
    assert tomllib.loads(text)["cards"] == 'my "game"'
    (tmp_path / 'my "game"').mkdir()
    assert load_project(_project(tmp_path, text)).cards == (tmp_path / 'my "game"').resolve()
