"""A designer's project file, ``pnp.toml``: which definitions folder, and the defaults.

Found as git finds ``.git``: in the working folder, else its parent, and so on up to the
root. It names the definitions folder (relative to the file) and the defaults the
designer wants, so ``--cards`` need not be repeated on every command::

    # pnp.toml
    cards = "my-game"          # the definitions folder, relative to this file

    [defaults]
    out = "output"             # pnp build --out
    lang = "en"                # pnp build --lang
    page = "a4"                # pnp build --page (a4 or letter)
    players = 4                # pnp setup / pnp sim / pnp playtest: the player count
    data = "playtests"         # pnp web / pnp playtest --data

    # the records that pnp diff replays with both versions (globs, relative to this file)
    records = ["records/*.yaml"]

Options given on the command line win over the file. Every problem is one line naming the
file and line (exit 2): TOML that does not parse, an unknown key (with the known ones), a
value of the wrong kind, a folder that does not exist or lies outside the project.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FILE_NAME = "pnp.toml"
MAX_PROJECT_BYTES = 100_000
PAGES = ("a4", "letter")
# key -> (what it is, the kind checked)
DEFAULTS: dict[str, str] = {
    "out": "the output folder of pnp build (--out)",
    "lang": "the kit's language (--lang), e.g. en",
    "page": "the paper size (--page): a4 or letter",
    "players": "the player count (--players), 2 to 6",
    "data": "the data folder of pnp web and pnp playtest (--data)",
}
TOP = ("cards", "records", "defaults")


class ProjectError(Exception):
    """The project file cannot be used; ``problems`` holds one line each."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Project:
    """A ``pnp.toml`` read and checked."""

    path: Path  # the file
    cards: Path | None  # the definitions folder it names (absolute), or None
    defaults: dict[str, Any] = field(default_factory=dict)
    records: tuple[str, ...] = ()  # globs, relative to the project folder

    @property
    def folder(self) -> Path:
        return self.path.parent

    def default(self, key: str, fallback: Any = None) -> Any:
        return self.defaults.get(key, fallback)

    def record_files(self) -> list[Path]:
        """The files the ``records`` globs match, inside the project folder, sorted."""
        found: set[Path] = set()
        root = self.folder.resolve()
        for pattern in self.records:
            for path in root.glob(pattern):
                if path.is_file() and path.resolve().is_relative_to(root):
                    found.add(path)
        return sorted(found)


def find_project(start: Path | None = None) -> Path | None:
    """The nearest ``pnp.toml`` in ``start`` (default: the working folder) or above it."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        candidate = folder / FILE_NAME
        if candidate.is_file():
            return candidate
    return None


def _line_of(text: str, key: str, table: str | None = None) -> int:
    """The line where ``key`` is set (inside ``[table]`` if given), for messages."""
    in_table = table is None
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        if stripped.startswith("["):
            in_table = table is not None and re.fullmatch(
                rf"\[\s*{re.escape(table)}\s*\]\s*(#.*)?", stripped) is not None
            if table is None:
                in_table = False
            continue
        if in_table and re.match(rf"[\"']?{re.escape(key)}[\"']?\s*=", stripped):
            return number
    return 1


def load_project(path: Path) -> Project:
    """Read and check the project file at ``path``."""
    from cards.loader import display_path
    from cards.reading import UnreadableInput, read_bytes_safely

    shown = display_path(path)
    try:
        raw = read_bytes_safely(path, "a project file (pnp.toml)", MAX_PROJECT_BYTES)
    except UnreadableInput as exc:
        raise ProjectError(exc.problems) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProjectError([f"{shown}: not UTF-8 text (byte {exc.start}); save it as UTF-8"]
                           ) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        found = re.search(r"\(at line (\d+), column \d+\)", message)
        line = found.group(1) if found else "1"
        reason = re.sub(r"\s*\(at line \d+, column \d+\)|\s*\(at end of document\)", "",
                        message)
        raise ProjectError([f"{shown}:{line}: not valid TOML: {reason}"]) from None
    problems: list[str] = []
    for key in data:
        if key not in TOP:
            problems.append(f"{shown}:{_line_of(text, key)}: unknown key {key!r} (a project "
                            f"file has: {', '.join(TOP)})")
    root = path.resolve().parent
    cards = _folder(data, "cards", text, shown, root, problems, must_exist=True)
    records: tuple[str, ...] = ()
    given = data.get("records")
    if given is not None:
        if not isinstance(given, list) or not all(isinstance(g, str) and g for g in given):
            problems.append(f"{shown}:{_line_of(text, 'records')}: records: expected a list of "
                            f"file patterns, e.g. records = [\"records/*.yaml\"]")
        elif any(Path(g).is_absolute() or ".." in Path(g).parts for g in given):
            problems.append(f"{shown}:{_line_of(text, 'records')}: records: patterns are "
                            f"relative to the project folder and stay inside it")
        else:
            records = tuple(given)
    defaults: dict[str, Any] = {}
    table = data.get("defaults", {})
    if not isinstance(table, dict):
        problems.append(f"{shown}:{_line_of(text, 'defaults')}: defaults: expected a table "
                        f"([defaults] with out, lang, page, players, data)")
        table = {}
    for key, value in table.items():
        at = f"{shown}:{_line_of(text, key, 'defaults')}"
        if key not in DEFAULTS:
            problems.append(f"{at}: unknown default {key!r} (known: {', '.join(DEFAULTS)})")
        elif key in ("out", "data"):
            folder = _folder(table, key, text, shown, root, problems, must_exist=False,
                             section="defaults")
            if folder is not None:
                defaults[key] = folder
        elif key == "lang":
            if not isinstance(value, str) or not re.fullmatch(r"[a-z]{2,3}", value):
                problems.append(f"{at}: lang: expected a language code such as en, ru or it, "
                                f"got {value!r}")
            else:
                defaults[key] = value
        elif key == "page":
            if value not in PAGES:
                problems.append(f"{at}: page: expected a4 or letter, got {value!r}")
            else:
                defaults[key] = value
        elif key == "players":
            if type(value) is not int or not 2 <= value <= 6:
                problems.append(f"{at}: players: expected a whole number from 2 to 6, got "
                                f"{value!r}")
            else:
                defaults[key] = value
    if problems:
        raise ProjectError(problems)
    return Project(path, cards, defaults, records)


def _folder(table: dict[str, Any], key: str, text: str, shown: str, root: Path,
            problems: list[str], must_exist: bool, section: str | None = None) -> Path | None:
    value = table.get(key)
    if value is None:
        return None
    at = f"{shown}:{_line_of(text, key, section)}"
    if not isinstance(value, str) or not value.strip():
        problems.append(f"{at}: {key}: expected a folder, relative to the project file "
                        f"(e.g. {key} = \"my-game\"), got {value!r}")
        return None
    target = (root / value).resolve()
    if not target.is_relative_to(root):
        problems.append(f"{at}: {key}: {value!r} lies outside the project folder {root}; "
                        f"name a folder inside it, relative to {FILE_NAME}")
        return None
    if must_exist and not target.is_dir():
        problems.append(f"{at}: {key}: {value!r} is not a folder ({target}); pnp build init "
                        f"{value} makes one")
        return None
    if not must_exist and target.exists() and not target.is_dir():
        problems.append(f"{at}: {key}: {value!r} is a file, not a folder")
        return None
    return target


def current_project(start: Path | None = None) -> Project | None:
    """The project file that applies in ``start`` (default: the working folder), read and
    checked; None when there is none, or when ``PNP_NO_PROJECT`` is set."""
    if os.environ.get("PNP_NO_PROJECT"):
        return None
    path = find_project(start)
    return None if path is None else load_project(path)


PROJECT_TEMPLATE = """\
# The project file of this design (pnp.toml): every pnp command run in this folder
# or below it uses these, and options on the command line win over them.
# `pnp COMMAND -v` says which project file it used.

cards = {cards}          # the definitions folder, relative to this file

[defaults]
# out = "output"           # pnp build --out
# lang = "en"              # pnp build --lang
# page = "a4"              # pnp build --page: a4 or letter
# players = 4              # pnp setup, pnp sim, pnp playtest: --players
# data = "playtests"       # pnp web, pnp playtest: --data

# records that `pnp diff` replays with both versions, to say which now play differently
# records = ["records/*.yaml"]
"""


def project_text(cards_relative: str) -> str:
    """The text ``pnp build init`` writes to a new ``pnp.toml``."""
    return PROJECT_TEMPLATE.format(cards=_toml_string(cards_relative))


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
