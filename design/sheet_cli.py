"""``pnp sheet export|import``: the definitions as a spreadsheet, and back into YAML."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from pnp.common import (
    EXIT_OK,
    EXIT_UNREADABLE,
    EXIT_VIOLATIONS,
    Parser,
    fail,
    misuse,
    never_raises,
    say,
)

GAMES = ("orbitus", "satellites")

HELP = """\
Designers keep card lists in spreadsheets: export the definitions to one, edit it there,
import it back into the YAML.

  pnp sheet export [--cards DIR] OUT.xlsx|OUT.ods|OUT.csv
  pnp sheet import [--cards DIR] [--force] FILE...

Each definitions file is a sheet named <game>-<file> (orbitus-sectors: a row per sector,
columns id, routes, planet, pirate, count); the Orbitus rules' tables (start lines, planet
groups, closed blocks) are sheets of their own. OUT.csv writes a CSV per sheet beside it
(OUT.orbitus-sectors.csv ...). Import checks every cell with the definitions' own rules and
names the cell of each problem (orbitus-sectors!C14: ...); it then changes only what
changed in the YAML (comments and layout stay, an unchanged sheet rewrites nothing).

.xlsx needs openpyxl and .ods odfpy: pip install -e '.[sheets]'. CSV needs nothing. A
sheet published on the web as CSV is not fetched: download it (curl -o
orbitus-sectors.csv URL) and import the file.

Exit codes: 0 done; 1 a cell or definition breaks a rule, or a file would be replaced
without --force (nothing is written); 2 a file cannot be read or written, or misuse.
"""


def build_parser(prog: str = "pnp sheet") -> Parser:
    parser = Parser(prog, HELP)
    sub = parser.add_subparsers(dest="action", metavar="export|import")
    export = sub.add_parser("export", prog=f"{prog} export",
                            help="write the definitions as a spreadsheet",
                            description="Write each definitions file as a sheet of OUT.")
    export.add_argument("out", type=Path, metavar="OUT",
                        help="the spreadsheet to write: .xlsx, .ods or .csv (a CSV per sheet)")
    export.add_argument("--cards", type=Path, metavar="DIR",
                        help="the definitions folder (default: the project file's, else the "
                             "shipped cards/)")
    export.add_argument("--game", choices=GAMES, help="export one game only (default both)")
    export.add_argument("--force", action="store_true",
                        help="replace OUT if it exists")
    imp = sub.add_parser("import", prog=f"{prog} import",
                         help="read a spreadsheet back into the YAML definitions",
                         description="Read the sheets of FILE... into the YAML definitions "
                                     "of --cards DIR.")
    imp.add_argument("files", type=Path, nargs="+", metavar="FILE",
                     help=".xlsx, .ods or .csv files (a CSV holds the sheet its name says: "
                          "orbitus-sectors.csv)")
    imp.add_argument("--cards", type=Path, metavar="DIR",
                     help="the definitions folder to write into (default: the project "
                          "file's); the shipped cards/ are never written")
    imp.add_argument("--sheet", metavar="NAME",
                     help="the sheet a single CSV file holds, when its name does not say it")
    imp.add_argument("--force", action="store_true",
                     help="replace the YAML files that change (without it, nothing is "
                          "replaced)")
    imp.add_argument("--dry-run", action="store_true",
                     help="check and say what would change; write nothing")
    return parser


def _say(message: str) -> None:
    say(message)


def main(argv: Sequence[str] | None = None, prog: str = "pnp sheet") -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    return never_raises(lambda: _run(args, prog), prog, "the spreadsheet and the definitions")


def _run(args: list[str], prog: str) -> int:
    opts = build_parser(prog).parse_args(args)
    if opts.action is None:
        return misuse(prog, "name what to do: export or import")
    cards = opts.cards
    if opts.action == "export":
        return _export(opts, cards, f"{prog} export")
    return _import(opts, cards, f"{prog} import")


def _export(opts: argparse.Namespace, cards: Path | None, prog: str) -> int:
    from cards.loader import DefinitionError, UnreadableInput, display_path
    from cards.sheet_files import SheetFileError, kind_of, render, write_atomically
    from cards.spreadsheet import export_sheets

    try:
        kind_of(opts.out)
    except SheetFileError as exc:
        return fail(f"{prog}: {exc}")
    if cards is not None and not cards.is_dir():
        return fail(f"{prog}: --cards {cards}: no such folder")
    games = (opts.game,) if opts.game else GAMES
    try:
        sheets = export_sheets(cards, games)
    except DefinitionError as exc:
        for line in exc.problems:
            fail(line)
        fail(f"{prog}: {len(exc.problems)} problem(s) in the definitions; nothing was "
             f"exported")
        return EXIT_UNREADABLE if isinstance(exc, UnreadableInput) else EXIT_VIOLATIONS
    try:
        files = render(opts.out, sheets)
    except SheetFileError as exc:
        return fail(f"{prog}: {exc}")
    for path in files:
        if not path.parent.is_dir():
            return fail(f"{prog}: {display_path(path.parent)}: no such folder")
        if (path.exists() or path.is_symlink()) and not opts.force:
            return fail(f"{prog}: {display_path(path)} exists; it is left alone (pass --force "
                        f"to replace it)", EXIT_VIOLATIONS)
        if path.is_symlink() or (path.exists() and not path.is_file()):
            return fail(f"{prog}: {display_path(path)} is not a regular file; give another "
                        f"name")
    try:
        for path, data in files.items():
            write_atomically(path, data)
    except OSError as exc:
        return fail(f"{prog}: cannot write {display_path(opts.out)}: {exc.strerror or exc}")
    count = sum(1 for s in sheets if not s.hidden)
    where = ", ".join(display_path(p) for p in files)
    _say(f"wrote {count} sheet(s) of {' and '.join(games)} to {where}")
    return EXIT_OK


def _import(opts: argparse.Namespace, cards: Path | None, prog: str) -> int:
    from cards.files import DEFAULT_CARDS
    from cards.loader import DefinitionError, UnreadableInput, display_path
    from cards.sheet_files import SheetFileError
    from cards.sheet_import import plan_import, write_plan

    if cards is None:
        return fail(f"{prog}: name the definitions folder to write into: --cards DIR (or a "
                    f"pnp.toml naming it); the shipped cards/ are never written")
    if cards.resolve() == DEFAULT_CARDS.resolve():
        return fail(f"{prog}: --cards {cards} is the shipped definitions folder, which is "
                    f"never written; pnp build init DIR makes a copy to import into")
    if cards.exists() and not cards.is_dir():
        return fail(f"{prog}: --cards {cards}: is a file, expected a folder")
    try:
        plan = plan_import(opts.files, cards, sheet_name=opts.sheet)
    except SheetFileError as exc:
        return fail(f"{prog}: {exc}")
    except DefinitionError as exc:
        for line in exc.problems:
            fail(line)
        fail(f"{prog}: {len(exc.problems)} problem(s); nothing was written")
        return EXIT_UNREADABLE if isinstance(exc, UnreadableInput) else EXIT_VIOLATIONS
    for note in plan.notes:
        _say(f"{prog}: note: {note}")
    if plan.replacing and not opts.force and not opts.dry_run:
        for item in plan.replacing:
            fail(f"{display_path(item.path)}: would change ({item.changed_lines} line(s))")
        return fail(f"{prog}: {len(plan.replacing)} YAML file(s) would be replaced; nothing was "
                    f"written (pass --force to write them, --dry-run to only see this)",
                    EXIT_VIOLATIONS)
    for item in plan.files:
        state = ("new" if not item.exists else f"{item.changed_lines} line(s) changed"
                 if item.changed_lines else "unchanged")
        _say(f"{display_path(item.path)}: {state}")
    if opts.dry_run:
        _say(f"{prog}: --dry-run: nothing was written")
        return EXIT_OK
    try:
        written = write_plan(plan)
    except OSError as exc:
        return fail(f"{prog}: cannot write into {display_path(cards)}: {exc.strerror or exc}")
    _say(f"{prog}: {len(written)} file(s) written, {len(plan.files) - len(written)} unchanged")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
