"""``pnp sheet import``: spreadsheet sheets into the YAML definitions they stand for.

The sheets are read (:mod:`cards.sheet_files`), turned into each file's data
(:func:`cards.spreadsheet.read_sheets`) and validated by the definitions' own loader, so a
mistake is reported exactly as in YAML, at its cell. Each file is then written by changing
only what changed in the YAML it came from (:func:`cards.yaml_patch.patch`): the target
folder's own file, else the YAML the workbook keeps (exported files carry it), else the
file of the folder the definitions came from. A sheet that changed nothing gives back the
file byte for byte (and nothing is written).

A file that would be replaced is left alone unless ``force``; every file is written through
a temporary file and a rename, and only once every sheet has been read and validated.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cards.files import DEFAULT_CARDS, definitions_of, game_files
from cards.loader import DefinitionError, display_path


@dataclass
class FilePlan:
    game: str
    role: str
    path: Path
    text: str
    exists: bool
    changed_lines: int  # lines that differ from the file there now (0: unchanged)


@dataclass
class ImportPlan:
    files: list[FilePlan] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def changed(self) -> list[FilePlan]:
        return [f for f in self.files if f.changed_lines or not f.exists]

    @property
    def replacing(self) -> list[FilePlan]:
        return [f for f in self.files if f.exists and f.changed_lines]


def _plain(data: Any) -> Any:
    """The data with the loader's text subclasses made plain text (for the YAML writer)."""
    if isinstance(data, dict):
        return {_plain(k): _plain(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_plain(v) for v in data]
    if isinstance(data, str):
        return str(data)
    return data


def _header(game: str, role: str) -> str:
    return f"# yaml-language-server: $schema=../schema/{game}-{role}.schema.json\n"


def plan_import(sources: list[Path], target: Path, base: Path | None = None,
                sheet_name: str | None = None) -> ImportPlan:
    """What importing ``sources`` into the definitions folder ``target`` writes.

    ``base`` is the folder the definitions came from (default: the shipped ones): its files
    are the YAML a CSV sheet is written into when ``target`` has none yet. Raises
    :class:`~cards.sheet_files.SheetFileError` (a file that cannot be read) and
    :class:`~cards.loader.DefinitionError` (the sheets' problems, at their cells)."""
    import copy

    from cards.loader import parse_yaml, read_text
    from cards.sheet_files import SheetFileError, read_file
    from cards.spreadsheet import read_sheets
    from cards.yaml_patch import dump, patch, same

    if sheet_name is not None and (len(sources) != 1 or sources[0].suffix.lower() != ".csv"):
        raise SheetFileError("--sheet names the sheet of one CSV file; give one .csv file")
    sheets = []
    seen: dict[str, str] = {}
    for source in sources:
        for sheet in read_file(source, sheet_name):
            if sheet.name in seen and sheet.name != "_yaml":
                raise SheetFileError(f"{display_path(source)}: sheet {sheet.name} is also in "
                                     f"{seen[sheet.name]}; give each sheet once")
            seen[sheet.name] = display_path(source)
            sheets.append(sheet)
    imported = read_sheets(sheets, sources[0])
    plan = ImportPlan(notes=list(imported.notes))
    if imported.problems:
        raise DefinitionError(imported.problems)
    if not imported.documents:
        why = " ".join(n.split(": ", 1)[1] + "." for n in imported.notes)
        hint = (" Name a CSV file after its sheet (orbitus-sectors.csv), or give --sheet NAME."
                if any(s.suffix.lower() == ".csv" for s in sources) else "")
        raise SheetFileError(f"{', '.join(display_path(s) for s in sources)}: no definitions "
                             f"sheet in it. {why}{hint}".rstrip())
    raw = {key: _plain(copy.deepcopy(doc.data)) for key, doc in imported.documents.items()}
    base = (base or DEFAULT_CARDS).resolve()
    problems: list[str] = []
    games = sorted({game for game, _ in imported.documents})
    for game in games:
        docs = {role: doc for (g, role), doc in imported.documents.items() if g == game}
        folder = target if (target / game).is_dir() else base
        try:
            definitions_of(game).load(folder, documents=docs)
        except DefinitionError as exc:
            problems += exc.problems
    if problems:
        raise DefinitionError(problems)
    for (game, role), data in raw.items():
        path = game_files(game, target)[role]
        exists = path.exists() or path.is_symlink()
        if exists:
            current = read_text(path, f"the {game} {role} definitions", folder=target)
            base_text = current
        else:
            current = None
            base_text = imported.sources.get((game, role))
            if base_text is None:
                from_base = game_files(game, base)[role]
                if from_base.is_file():
                    base_text = read_text(from_base, f"the {game} {role} definitions")
        if base_text is None:
            text = dump(data, _header(game, role))
        else:
            old = parse_yaml(base_text, path, f"the {game} {role} definitions").data
            text = patch(base_text, _plain(old), data)
        written = parse_yaml(text, path, f"the {game} {role} definitions").data
        if not same(_plain(written), data):  # pragma: no cover - a bug, never a quiet loss
            raise SheetFileError(f"{display_path(path)}: the YAML written would not hold the "
                                 f"sheet's values; nothing was written (please report it "
                                 f"with the spreadsheet)")
        changed = 0 if current == text else _changed_lines(current or "", text)
        plan.files.append(FilePlan(game, role, path, text, exists, changed))
    missing = [f"{g}-{r}" for g in games for r in game_files(g, target)
               if (g, r) not in imported.documents
               and not game_files(g, target)[r].exists()]
    if missing:
        plan.notes.append(f"{display_path(target)}: the spreadsheet has no sheet "
                          f"{', '.join(missing)}, and the folder no file for it yet; copy "
                          f"those files in (pnp build init makes a whole folder)")
    return plan


def _changed_lines(old: str, new: str) -> int:
    matcher = difflib.SequenceMatcher(a=old.split("\n"), b=new.split("\n"), autojunk=False)
    return sum(max(a1 - a0, b1 - b0) for op, a0, a1, b0, b1 in matcher.get_opcodes()
               if op != "equal")


def write_plan(plan: ImportPlan) -> list[FilePlan]:
    """Write the files of ``plan`` that are new or changed (each through a temporary file
    and a rename); the files written."""
    from cards.sheet_files import write_atomically

    written = []
    for item in plan.changed:
        item.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(item.path, item.text.encode("utf-8"))
        written.append(item)
    return written
