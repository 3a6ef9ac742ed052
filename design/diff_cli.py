"""``pnp diff OLD [NEW]``: what changed between two versions of a design (like ``diff``:
exit 0 no change, 1 changes found, 2 a version cannot be read)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from pnp.common import (
    EXIT_OK,
    EXIT_UNREADABLE,
    EXIT_VIOLATIONS,
    Parser,
    dump_json,
    fail,
    never_raises,
    say,
    write_out,
)

GAMES = ("orbitus", "satellites")
PAGE_MARK = "<title>pnp diff: "

HELP = """\
Compare two versions of a design: the components added, removed and changed (drawn old and
new side by side with --html, the changed regions outlined), the rule numbers changed, the
booklet and player-aid texts word by word per language, and which deals and records now
play differently.

OLD and NEW are each a definitions folder, an earlier build folder (pnp build keeps the
definitions it was made from), or a git revision of the definitions folder in use
(--cards, the project file's, else the shipped cards/):

  pnp diff v0.7.1 HEAD --cards mine      two commits of mine/
  pnp diff output/ mine                  the last build against the folder now
  pnp diff v0.7.1                        a tag against the definitions as they are now

Exit codes: 0 no change, 1 changes found (like diff), 2 a version cannot be read or git
knows no such revision.
"""


def build_parser(prog: str = "pnp diff") -> Parser:
    parser = Parser(prog, HELP)
    parser.add_argument("old", metavar="OLD", help="the earlier version")
    parser.add_argument("new", metavar="NEW", nargs="?",
                        help="the later version (default: the definitions in use)")
    parser.add_argument("--cards", type=Path, metavar="DIR",
                        help="the definitions folder in use (default: the project file's, "
                             "else the shipped cards/); git revisions are of this folder")
    parser.add_argument("--game", choices=GAMES, help="compare one game only")
    parser.add_argument("--records", nargs="+", type=Path, metavar="FILE", default=[],
                        help="game records to replay with both versions (default: the project "
                             "file's records)")
    parser.add_argument("--json", action="store_true", help="print the differences as JSON")
    parser.add_argument("--html", type=Path, metavar="FILE",
                        help="also write a page with pictures of every changed component")
    return parser


def main(argv: Sequence[str] | None = None, prog: str = "pnp diff") -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    return never_raises(lambda: _run(args, prog), prog, "the two versions compared")


def _html_problem(target: Path) -> str | None:
    from cards.loader import display_path

    if target.is_dir():
        return f"--html {display_path(target)}: is a folder; give a file name, e.g. diff.html"
    if not target.parent.is_dir():
        return f"--html {display_path(target)}: the folder {display_path(target.parent)} " \
               f"does not exist"
    if target.is_symlink() or (target.exists() and not target.is_file()):
        return f"--html {display_path(target)}: not a regular file"
    if target.exists() and target.stat().st_size:
        head = target.read_bytes()[:400].decode("utf-8", errors="replace")
        if PAGE_MARK not in head:
            return (f"--html {display_path(target)}: already exists and is not a page pnp diff "
                    f"wrote; it is left alone: give a new name")
    return None


def _run(args: list[str], prog: str) -> int:
    opts = build_parser(prog).parse_args(args)
    from cards.loader import display_path
    from cards.project import current_project
    from cards.reading import DefinitionError
    from cards.sources import Source, SourceError, games_in, open_source

    project = current_project()  # read and checked by the parser already
    cards = opts.cards
    if cards is not None and not cards.is_dir():
        return fail(f"{prog}: --cards {cards}: no such folder")
    if opts.html is not None:
        problem = _html_problem(opts.html)
        if problem:
            return fail(f"{prog}: {problem}")
    records = list(opts.records) or (project.record_files() if project else [])
    for path in records:
        if not path.is_file():
            return fail(f"{prog}: --records {display_path(path)}: no such file")
    sources: list[Source] = []
    try:
        try:
            old = open_source(opts.old, cards)
            sources.append(old)
            if opts.new is None:
                from cards.files import DEFAULT_CARDS

                folder = (cards or DEFAULT_CARDS).resolve()
                new = Source("(in use)", "folder", folder, display_path(folder),
                             games_in(folder))
            else:
                new = open_source(opts.new, cards)
            sources.append(new)
        except SourceError as exc:
            return fail(f"{prog}: {exc}")
        games = (opts.game,) if opts.game else tuple(g for g in GAMES
                                                     if g in old.games or g in new.games)
        missing = [(g, s) for g in games for s in (old, new) if g not in s.games]
        if missing:
            for game, source in missing:
                fail(f"{prog}: {source.label} holds no {game} definitions")
            return EXIT_UNREADABLE if opts.game else EXIT_VIOLATIONS
        from design.diff import compare
        from design.diff_report import page, text, to_json

        try:
            diffs = compare(old, new, games, records)
        except DefinitionError as exc:
            for line in exc.problems:
                fail(line)
            return fail(f"{prog}: the definitions of a version cannot be read; nothing was "
                        f"compared")
        if opts.json:
            write_out(dump_json(to_json(diffs, old, new)), json=True)
        else:
            write_out(text(diffs, old, new))
        if opts.html is not None:
            from cards.sheet_files import write_atomically

            write_atomically(opts.html, page(diffs, old, new).encode("utf-8"))
            if not opts.json:
                say(f"{prog}: wrote {display_path(opts.html)}")
        return EXIT_VIOLATIONS if any(d.changed for d in diffs) else EXIT_OK
    finally:
        for source in sources:
            source.close()


if __name__ == "__main__":
    sys.exit(main())
