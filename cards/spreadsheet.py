"""The definitions as spreadsheet sheets, and back: a row per sector, the rules tables as
sheets of their own.

Each definitions file is one sheet, named ``<game>-<file>`` (``orbitus-sectors``). A sheet
starts with its settings, one per row under a ``field | value`` header (nested fields
dotted: ``back.title``; a list in one cell, ``N, NE``), then, after an empty row, its table:
a header row naming the columns and a row per item (``id | routes | planet | pirate |
count`` for the deck; a map of names by language as one column per language,
``names.ru``; the start lines of each seat as ``P1`` ... ``P6``). The Orbitus rules' tables
(start lines, planet groups, closed blocks) have sheets of their own. An empty cell is a
field not given (its default applies), as a line left out of the YAML would be.

Reading sheets back (:func:`read_sheets`) makes, for each file, the same data the YAML
loader makes, in a :class:`SheetDocument` whose places are cells: the definitions are then
validated by the loader itself (:func:`cards.definitions.load_orbitus` with
``documents=``), so every problem is reported with the same words as in YAML, at its cell:
``orbitus-sectors!C14: sector S17: routes: 'NNE' is not a side (N, NE, SE, S, SW, NW)``.
What the YAML would say is written with :mod:`cards.yaml_patch` into the file it came from:
nothing changed, nothing rewritten.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rules
from cards.files import definitions_of
from cards.loader import Document, Loc

Cell = str | int | float | bool | None
SOURCE_SHEET = "_yaml"  # the hidden sheet holding the YAML each file was exported from
MAX_ROWS = 5000
MAX_COLUMNS = 200

# the list of each file that is its sheet's table
MAIN_TABLE: dict[tuple[str, str], tuple[str, ...]] = {
    ("orbitus", "sectors"): ("sectors",),
    ("orbitus", "planets"): ("planet_types",),
    ("satellites", "satellites"): ("satellites",),
}
# lists of a file that are tables on sheets of their own: path -> sheet name
OWN_SHEETS: dict[tuple[str, str], dict[tuple[str, ...], str]] = {
    ("orbitus", "rules"): {("start_lines",): "orbitus-start_lines",
                           ("scoring", "planet_groups"): "orbitus-planet_groups",
                           ("scoring", "closed_blocks"): "orbitus-closed_blocks"},
}
# the columns of each table, in order (columns a file has beyond these follow them)
COLUMNS: dict[tuple[str, ...], tuple[str, ...]] = {
    ("sectors",): ("id", "routes", "planet", "pirate", "count"),
    ("planet_types",): ("id", "name", "names", "colour", "symbol"),
    ("satellites",): ("colour", "value", "count"),
    ("start_lines",): ("players", "start_lines", "barriers"),
    ("scoring", "planet_groups"): ("min", "max", "points"),
    ("scoring", "closed_blocks"): ("min", "max", "points"),
}
SEAT_COLUMN = re.compile(r"P([1-9])")  # start_lines[k] of a start-lines row is column P<k+1>
SETTINGS_HEADER = ("field", "value")


def sheet_name(game: str, role: str) -> str:
    return f"{game}-{role}"


def sheet_names(game: str) -> list[str]:
    """Every sheet of ``game``, in the order they are written."""
    names = []
    for role in definitions_of(game).FILES:
        names.append(sheet_name(game, role))
        names += list(OWN_SHEETS.get((game, role), {}).values())
    return names


def owner(name: str) -> tuple[str, str] | None:
    """``(game, role)`` of the file a sheet belongs to."""
    for game in rules.names("cards"):
        for role in definitions_of(game).FILES:
            if name == sheet_name(game, role) or name in OWN_SHEETS.get((game, role),
                                                                         {}).values():
                return game, role
    return None


@dataclass
class Sheet:
    name: str
    rows: list[list[Cell]] = field(default_factory=list)
    hidden: bool = False
    source: str = ""  # the file it was read from, for messages


# --- cells ------------------------------------------------------------------------------------


def column_letter(index: int) -> str:
    """``A`` for 0, ``Z`` for 25, ``AA`` for 26."""
    out = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        out = chr(65 + rest) + out
    return out


def cell_ref(sheet: str, row: int, column: int) -> str:
    """``sheet!C14`` for row 13, column 2 (both from 0)."""
    return f"{sheet}!{column_letter(column)}{row + 1}"


def _cell(value: Any) -> Cell:
    """A value as a cell holds it: numbers and true/false as themselves, lists in one cell."""
    from cards.yaml_out import flow

    if value is None:
        return "null"
    if isinstance(value, bool | int | float):
        return value
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(
            isinstance(v, str | int | float) and not isinstance(v, bool)
            and _plain_item(str(v)) for v in value):
        return ", ".join(str(v) for v in value)
    return flow(value)


def _plain_item(text: str) -> bool:
    return bool(text) and re.fullmatch(r"[^\s,\[\]{}'\"]+", text) is not None


def _value(cell: Cell, listed: bool) -> Any:
    """What a cell says, read as the YAML loader reads a plain value (``07`` is text that
    YAML readers disagree about, ``true`` is true); a list field's cell splits at commas
    or spaces, and a cell written as ``[...]`` or ``{...}`` is read as YAML."""
    if not isinstance(cell, str):
        return [cell] if listed else cell
    text = cell.strip()
    if text.startswith(("[", "{")):
        return _yaml_value(text)
    if listed:
        return [_plain(part) for part in re.split(r"[,\s]+", text) if part]
    return _plain(text)


def _plain(text: str) -> Any:
    import yaml

    from cards.loader import _Refused, _scalar

    tag = yaml.resolver.Resolver().resolve(yaml.ScalarNode, text, (True, False))
    try:
        return _scalar(tag, text)
    except _Refused:
        return text


def _yaml_value(text: str) -> Any:
    from pathlib import Path as _P

    from cards.loader import DefinitionError, parse_yaml

    try:
        return parse_yaml(f"v: {text}\n", _P("cell"), "a value").data["v"]
    except DefinitionError:
        return text


def _blank(cell: Cell) -> bool:
    return cell is None or (isinstance(cell, str) and not cell.strip())


# --- definitions -> sheets --------------------------------------------------------------------


def _flatten(data: dict[str, Any], prefix: str = "",
             skip: Iterable[tuple[str, ...]] = (), path: tuple[str, ...] = ()
             ) -> Iterator[tuple[str, Any]]:
    """``(dotted key, value)`` of every setting, nested mappings dotted."""
    skipped = set(skip)
    for key, value in data.items():
        here = (*path, str(key))
        if here in skipped:
            continue
        name = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            yield from _flatten(value, name + ".", skipped, here)
        else:
            yield name, value


def _get(data: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    return data


def _row_columns(path: tuple[str, ...], items: list[Any]) -> list[str]:
    """The columns of a table: its known columns first, then any other the rows have; a
    mapping (names by language) is a column per key, a list of lists (seats) a column per
    item."""
    order = list(COLUMNS.get(path, ()))
    for item in items:
        if isinstance(item, dict):
            order += [k for k in item if k not in order]
    columns: list[str] = []
    for key in order:
        values = [item.get(key) for item in items if isinstance(item, dict)]
        if path == ("start_lines",) and key == "start_lines":
            width = max((len(v) for v in values if isinstance(v, list)), default=0)
            columns += [f"P{k + 1}" for k in range(max(width, 2))]
        elif any(isinstance(v, dict) for v in values):
            subs: list[str] = []
            for v in values:
                if isinstance(v, dict):
                    subs += [str(s) for s in v if str(s) not in subs]
            columns += [f"{key}.{s}" for s in subs] or [key]
        else:
            columns.append(key)
    return columns


def _table_rows(path: tuple[str, ...], items: list[Any]) -> list[list[Cell]]:
    columns = _row_columns(path, items)
    rows: list[list[Cell]] = [list(columns)]
    for item in items:
        row: list[Cell] = []
        for column in columns:
            seat = SEAT_COLUMN.fullmatch(column) if path == ("start_lines",) else None
            if not isinstance(item, dict):
                row.append(_cell(item) if column == columns[0] else None)
                continue
            if seat is not None:
                lines = item.get("start_lines")
                k = int(seat.group(1)) - 1
                row.append(_cell(lines[k]) if isinstance(lines, list) and k < len(lines)
                           else None)
            elif "." in column and column.split(".", 1)[0] in item \
                    and isinstance(item[column.split(".", 1)[0]], dict):
                key, sub = column.split(".", 1)
                inner = item[key]
                row.append(_cell(inner[sub]) if sub in inner else None)
            else:
                row.append(_cell(item[column]) if column in item else None)
        rows.append(row)
    return rows


def file_sheets(game: str, role: str, data: dict[str, Any]) -> list[Sheet]:
    """The sheets of one definitions file's data (as the YAML loader reads it)."""
    main = MAIN_TABLE.get((game, role))
    own = OWN_SHEETS.get((game, role), {})
    skip = [p for p in (main, *own) if p is not None]
    settings = list(_flatten(data, skip=skip))
    sheet = Sheet(sheet_name(game, role))
    if settings or main is None:
        sheet.rows.append(list(SETTINGS_HEADER))
        sheet.rows += [[key, _cell(value)] for key, value in settings]
    if main is not None:
        items = _get(data, main)
        if sheet.rows:
            sheet.rows.append([])
        sheet.rows += _table_rows(main, items if isinstance(items, list) else [])
    sheets = [sheet]
    for path, name in own.items():
        items = _get(data, path)
        sheets.append(Sheet(name, _table_rows(path, items if isinstance(items, list) else [])))
    return sheets


def source_sheet(texts: dict[tuple[str, str], str]) -> Sheet:
    """The hidden sheet that keeps each file's YAML as it was exported (a row per line), so
    an import writes back exactly the file it came from, comments and all, where nothing
    changed."""
    rows: list[list[Cell]] = [["file", "line", "text"]]
    for (game, role), text in texts.items():
        for number, line in enumerate(text.split("\n"), start=1):
            rows.append([f"{game}/{role}.yaml", number, line])
    return Sheet(SOURCE_SHEET, rows, hidden=True)


def sources_of(sheet: Sheet) -> dict[tuple[str, str], str]:
    """The YAML texts a :func:`source_sheet` keeps."""
    lines: dict[tuple[str, str], list[tuple[int, str]]] = {}
    for row in sheet.rows[1:]:
        if len(row) < 2 or not isinstance(row[0], str):
            continue
        found = re.fullmatch(r"(\w+)/(\w+)\.yaml", row[0])
        number = int(row[1]) if isinstance(row[1], str) and row[1].isdigit() else row[1]
        if found is None or not isinstance(number, int | float):
            continue
        text = row[2] if len(row) > 2 and row[2] is not None else ""
        lines.setdefault((found.group(1), found.group(2)), []).append(
            (int(number), text if isinstance(text, str) else str(text)))
    return {key: "\n".join(t for _, t in sorted(rows)) for key, rows in lines.items()}


# --- sheets -> definitions --------------------------------------------------------------------


@dataclass
class SheetDocument(Document):
    """A definitions file read from sheets: every problem is placed at its cell."""

    cells: dict[Loc, str] = field(default_factory=dict)
    home: str = ""  # the cell a problem without a place of its own is put at

    def _ref(self, loc: Iterable[str | int]) -> str:
        parts = tuple(loc)
        while parts:
            if parts in self.cells:
                return self.cells[parts]
            parts = parts[:-1]
        return self.cells.get((), self.home)

    def where(self, loc: Iterable[str | int]) -> str:
        return self._ref(loc)

    def place(self, loc: Iterable[str | int]) -> str:
        return f"cell {self._ref(loc)}"


@dataclass
class Imported:
    """The definitions files found in a spreadsheet, with the problems of its layout."""

    documents: dict[tuple[str, str], SheetDocument] = field(default_factory=dict)
    sources: dict[tuple[str, str], str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _field_is_list(game: str, role: str, path: tuple[str | int, ...]) -> bool:
    """Whether the field at ``path`` of a file holds a list (by its model)."""
    from typing import get_args, get_origin

    from cards.loader import _inner_model
    from cards.models import SCHEMAS

    model: Any = SCHEMAS.get(f"{game}-{role}")
    annotation: Any = None
    for part in path:
        if isinstance(part, int):
            annotation = _list_item(annotation)
            model = _inner_model(annotation) if annotation is not None else None
            continue
        value = _dict_value(annotation)
        if value is not None:  # a key of a mapping with keys of its own (tune)
            annotation = value
            model = _inner_model(annotation)
            continue
        if model is None or not hasattr(model, "model_fields"):
            return False
        info = model.model_fields.get(part)
        if info is None:
            return False
        annotation = info.annotation
        model = _inner_model(annotation)
    return _is_list(annotation, get_origin, get_args)


def _dict_value(annotation: Any) -> Any:
    """The values' type of a ``dict[str, X]`` field (``X``), or None for any other."""
    from typing import Annotated, get_args, get_origin

    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    for candidate in (annotation, *get_args(annotation)):
        if get_origin(candidate) is dict:
            return get_args(candidate)[1]
    return None


def _setting_keys(game: str, role: str, name: str) -> tuple[str, ...]:
    """The path of a dotted setting's name: split at its dots, except in the key of a
    mapping whose keys are the designer's own (``tune.scoring.planet_groups.1`` is the
    key ``scoring.planet_groups.1`` of ``tune``)."""
    from cards.loader import _inner_model
    from cards.models import SCHEMAS

    parts = name.split(".")
    model: Any = SCHEMAS.get(f"{game}-{role}")
    for k, part in enumerate(parts[:-1]):
        info = model.model_fields.get(part) if hasattr(model, "model_fields") else None
        if info is None:
            break
        if _dict_value(info.annotation) is not None and _inner_model(
                info.annotation) is None:
            return (*parts[:k + 1], ".".join(parts[k + 1:]))
        model = _inner_model(info.annotation)
    return tuple(parts)


def _list_item(annotation: Any) -> Any:
    from typing import Annotated, get_args, get_origin

    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    if get_origin(annotation) is list:
        return get_args(annotation)[0]
    for arg in get_args(annotation):
        if get_origin(arg) is list:
            return get_args(arg)[0]
    return None


def _is_list(annotation: Any, get_origin: Any, get_args: Any) -> bool:
    from typing import Annotated

    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    if get_origin(annotation) is list:
        return True
    return any(get_origin(a) is list for a in get_args(annotation))


def _put(target: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    for key in path[:-1]:
        inner = target.get(key)
        if not isinstance(inner, dict):
            inner = target[key] = {}
        target = inner
    target[path[-1]] = value


def _split_sheet(sheet: Sheet) -> tuple[list[tuple[int, list[Cell]]],
                                        list[tuple[int, list[Cell]]]]:
    """The rows of a sheet's settings and of its table, each with its row index."""
    rows = [(i, row) for i, row in enumerate(sheet.rows)]
    settings: list[tuple[int, list[Cell]]] = []
    table: list[tuple[int, list[Cell]]] = []
    k = 0
    while k < len(rows) and all(_blank(c) for c in rows[k][1]):
        k += 1
    if k < len(rows) and [str(c).strip().lower() if c is not None else "" for c in
                          rows[k][1][:2]] == list(SETTINGS_HEADER):
        k += 1
        while k < len(rows) and not all(_blank(c) for c in rows[k][1]):
            settings.append(rows[k])
            k += 1
    table = [(i, row) for i, row in rows[k:] if not all(_blank(c) for c in row)]
    return settings, table


def _read_table(sheet: Sheet, rows: list[tuple[int, list[Cell]]], game: str, role: str,
                path: tuple[str, ...], doc: SheetDocument, problems: list[str]
                ) -> list[Any]:
    if not rows:
        return []
    header_index, header = rows[0]
    names = [str(c).strip() if not _blank(c) else "" for c in header]
    doc.cells.setdefault(path, cell_ref(sheet.name, header_index, 0))
    items: list[Any] = []
    for n, (index, row) in enumerate(rows[1:]):
        item: dict[str, Any] = {}
        loc_item: Loc = (*path, n)
        doc.cells[loc_item] = cell_ref(sheet.name, index, 0)
        for col, cell in enumerate(row):
            if _blank(cell):
                continue
            ref = cell_ref(sheet.name, index, col)
            name = names[col] if col < len(names) else ""
            if not name:
                problems.append(f"{ref}: a value in a column without a name in row "
                                f"{header_index + 1}; name the column or empty the cell")
                continue
            seat = SEAT_COLUMN.fullmatch(name) if path == ("start_lines",) else None
            if seat is not None:
                k = int(seat.group(1)) - 1
                lines = item.setdefault("start_lines", [])
                while len(lines) <= k:
                    lines.append(None)
                lines[k] = _value(cell, True)
                doc.cells[(*loc_item, "start_lines", k)] = ref
                doc.cells.setdefault((*loc_item, "start_lines"), ref)
                continue
            keys = tuple(name.split(".", 1)) if "." in name else (name,)
            listed = _field_is_list(game, role, (*path, 0, *keys))
            _put(item, keys, _value(cell, listed))
            doc.cells[(*loc_item, *keys)] = ref
            if len(keys) > 1:
                doc.cells.setdefault((*loc_item, keys[0]), ref)
        if "start_lines" in item and None in item["start_lines"]:
            lines = item["start_lines"]
            first = lines.index(None)
            if any(x is not None for x in lines[first:]):
                problems.append(f"{doc.cells[loc_item]}: P{first + 1} is empty but a later "
                                f"seat has start lines; give the seats in order")
            item["start_lines"] = [x for x in lines if x is not None]
        items.append(item)
    return items


def _read_settings(sheet: Sheet, rows: list[tuple[int, list[Cell]]], game: str, role: str,
                   data: dict[str, Any], doc: SheetDocument, problems: list[str]) -> None:
    seen: dict[str, str] = {}
    for index, row in rows:
        key_cell = row[0] if row else None
        if _blank(key_cell):
            problems.append(f"{cell_ref(sheet.name, index, 0)}: a value without a field name; "
                            f"name the field in column A")
            continue
        name = str(key_cell).strip()
        ref = cell_ref(sheet.name, index, 1)
        if name in seen:
            problems.append(f"{cell_ref(sheet.name, index, 0)}: {name}: given twice (first "
                            f"in {seen[name]})")
            continue
        seen[name] = cell_ref(sheet.name, index, 0)
        for col in range(2, len(row)):
            if not _blank(row[col]):
                problems.append(f"{cell_ref(sheet.name, index, col)}: {name}: a setting has "
                                f"one value, in column B (a list goes in one cell: N, NE)")
        cell = row[1] if len(row) > 1 else None
        if _blank(cell):
            continue  # an empty value: the field is not given
        keys = _setting_keys(game, role, name)
        _put(data, keys, _value(cell, _field_is_list(game, role, keys)))
        doc.cells[keys] = ref
        for k in range(1, len(keys)):
            doc.cells.setdefault(keys[:k], cell_ref(sheet.name, index, 0))


def read_sheets(sheets: list[Sheet], source: Path) -> Imported:
    """The definitions files the ``sheets`` hold (read from ``source``, for messages)."""
    from cards.loader import display_path

    found = Imported()
    by_file: dict[tuple[str, str], list[Sheet]] = {}
    for sheet in sheets:
        if sheet.name == SOURCE_SHEET:
            found.sources = sources_of(sheet)
            continue
        which = owner(sheet.name)
        if which is None:
            known = ", ".join(n for g in rules.names("cards") for n in sheet_names(g))
            found.notes.append(f"{sheet.source or display_path(source)}: sheet {sheet.name!r} "
                               f"is not a definitions sheet, so it is not read (the sheets "
                               f"are: {known})")
            continue
        if len(sheet.rows) > MAX_ROWS or any(len(r) > MAX_COLUMNS for r in sheet.rows):
            found.problems.append(f"{sheet.name}: more than {MAX_ROWS} rows or {MAX_COLUMNS} "
                                  f"columns; is this the right sheet?")
            continue
        by_file.setdefault(which, []).append(sheet)
    for (game, role), parts in by_file.items():
        doc = SheetDocument(path=source, display=display_path(source), data={},
                            home=cell_ref(sheet_name(game, role), 0, 0))
        data: dict[str, Any] = {}
        problems: list[str] = []
        main = MAIN_TABLE.get((game, role))
        own = OWN_SHEETS.get((game, role), {})
        for sheet in parts:
            settings, table = _split_sheet(sheet)
            if sheet.name == sheet_name(game, role):
                doc.cells[()] = cell_ref(sheet.name, 0, 0)
                _read_settings(sheet, settings, game, role, data, doc, problems)
                if main is not None:
                    _put(data, main, _read_table(sheet, table, game, role, main, doc,
                                                 problems))
                elif table:
                    index = table[0][0]
                    problems.append(f"{cell_ref(sheet.name, index, 0)}: {sheet.name} has only "
                                    f"settings (field | value, no empty rows between them)")
            else:
                path = next(p for p, n in own.items() if n == sheet.name)
                if settings:
                    problems.append(f"{cell_ref(sheet.name, settings[0][0], 0)}: "
                                    f"{sheet.name} is a table: a header row, then a row each")
                doc.cells.setdefault(path[:1], cell_ref(sheet.name, 0, 0))
                _put(data, path, _read_table(sheet, table, game, role, path, doc, problems))
        doc.data = data
        found.documents[(game, role)] = doc
        found.problems += problems
    return found


# --- the whole round --------------------------------------------------------------------------


def definition_texts(cards: Path | None, games: Iterable[str]) -> dict[tuple[str, str], str]:
    """The YAML text of every definitions file of ``games`` in ``cards`` (default shipped)."""
    from cards.files import game_files
    from cards.loader import read_text

    out: dict[tuple[str, str], str] = {}
    for game in games:
        for role, path in game_files(game, cards).items():
            if path.exists() or path.is_symlink():
                out[(game, role)] = read_text(path, f"the {game} {role} definitions",
                                              folder=path.parent)
    return out


def export_sheets(cards: Path | None, games: Iterable[str]) -> list[Sheet]:
    """Every sheet of the definitions of ``games``: what ``pnp sheet export`` writes (the
    definitions are checked first: a wrong one is reported, not exported)."""
    from cards.files import game_files
    from cards.loader import parse_yaml

    games = list(games)
    for game in games:
        definitions_of(game).load(cards)
    texts = definition_texts(cards, games)
    sheets: list[Sheet] = []
    for (game, role), text in texts.items():
        path = game_files(game, cards)[role]
        data = parse_yaml(text, path, role).data
        sheets += file_sheets(game, role, data if isinstance(data, dict) else {})
    sheets.append(source_sheet(texts))
    return sheets
