"""``pnp build`` (also ``pnp-build``, ``python -m generator``): build the printables from
the definitions.

``pnp build [OPTIONS]`` builds (once, or on every change with ``--watch``);
``pnp build init DIR`` copies the shipped definitions into DIR for editing. The command
line is argparse, as every command's (:class:`pnp.common.Parser`).
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import rules
from pnp.common import (
    EXIT_OK,
    EXIT_UNREADABLE,
    EXIT_VIOLATIONS,
    Parser,
    definitions_failed,
    dump_json,
    fail,
    misuse,
    never_raises,
    number_in,
    say,
    shown,
    write_out,
)

MAX_BACK_OFFSET_MM = 20.0
MAX_GUTTER_MM = 20.0
PAGES = ("a4", "letter")
SVG_TEXTS = ("font", "outline")
BOTH = "both"
DPI_RANGE = (30.0, 1200.0)

HELP = """\
Build the print-and-play files of Orbitus and Satellites from the YAML definitions.

Writes, under OUT (default ./output):

  orbitus/sectors.pdf      every sector front, backs on alternate pages (duplex, long edge)
  orbitus/station.pdf      the station hex, start-line and barrier markers, start-line table
  satellites/tokens.pdf    the 24 satellites (red solid, blue hatched) and tracker markers
  satellites/board.pdf     the board in pieces with glue flaps, and the trackers
  <game>/svg/*.svg         one SVG per distinct component
  <game>/score-pad.pdf     score pads (Orbitus rows come from the scoring tables)
  <game>/player-aid-L.pdf  the one-page player aid in the kit's language L (--lang);
                           -2up.pdf: on half the paper, two to a sheet (fold it);
                           -cards.pdf: on poker-size cards
  <game>/rules-L.pdf       the rule booklet, typeset from cards/<game>/text/rules-L.md
  calibration.pdf          100 mm rulers and front/back crosshairs (duplex alignment)

On request (they rasterise, which takes seconds rather than a fraction of one):
  <game>/png/*.png         --png / --dpi: one PNG per distinct component (300 dpi)
  <game>/tts/              --tts: Tabletop Simulator deck sheets, images and the
                           saved object <Game>.json (copy it to TTS's Saved Objects)

For a print shop or a virtual table (docs/print-shops.md):
  NAME/                    --preset NAME: the files that vendor asks for, named and
                           ordered as it asks, a manifest.csv and the preset used,
                           then a preflight of them (thegamecrafter, makeplayingcards,
                           drivethrucards, printshop, playingcards-io, screentop, or
                           your own in CARDS/presets/)
  --preflight DIR          check such a folder again: sizes, dpi, bleed, safe zone,
                           page boxes, fonts, colour, counts, file sizes

Commands:
  pnp build init DIR       copy the shipped definitions into DIR to edit them, then
                           build with: pnp build --cards DIR [--watch]
  pnp build GAME ...       the same as pnp build --game GAME ...

A build replaces OUT all at once (the previous build stays whole if it is
interrupted), never deletes or replaces a file of yours there (OUT/.pnp-build.json
lists what builds wrote), and waits if another build is writing into OUT.
"""

EPILOG = """\
Print PDFs at 100 % (no "fit to page").

exit codes:
  0  built (or --watch stopped with Ctrl-C), or --preflight found no problems
  1  a definition is wrong (nothing is overwritten), a preset cannot hold a component,
     or the preflight found problems (one line each)
  2  the command is misused, a definitions file cannot be read at all (missing, not
     UTF-8, not YAML), or OUT cannot be written (it is then left as it was)
"""

INIT_HELP = """\
Copy the shipped definitions into DIR for a designer to edit.

Writes DIR/orbitus/*.yaml, DIR/satellites/*.yaml (each keeps its
"# yaml-language-server: $schema=../schema/..." first line), DIR/schema/*.json
(so editors complete and check fields) and the texts the player aids and
booklets are set from. Then build from it with:  pnp build --cards DIR [--watch]
"""

INIT_EPILOG = """\
exit codes: 0 copied; 1 DIR already holds some of these files (nothing is written;
--force overwrites them); 2 DIR is a file or cannot be written.
"""


def _back_offset(value: str) -> tuple[float, float]:
    """``X,Y`` in mm (a dot before the decimals: ``1.5,-0.5``), or ``X;Y`` where the
    numbers may carry a decimal comma as Russian and Italian write them (``1,5;-0,5``); else
    ValueError with the message, which says exactly what to type."""
    text = value.strip().replace("−", "-")
    if ";" in text:
        parts = [p.strip().replace(",", ".") for p in text.split(";")]
    else:
        parts = [p.strip() for p in text.split(",")]
    try:
        if len(parts) != 2:
            raise ValueError
        x, y = (float(p) for p in parts)
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError
    except ValueError:
        raise ValueError(f"{value!r}: {_offset_hint(text)}") from None
    for v in (x, y):
        if abs(v) > MAX_BACK_OFFSET_MM:
            raise ValueError(
                f"{value!r}: {v:g} mm is more than a printer's duplex error (at most "
                f"{MAX_BACK_OFFSET_MM:g} mm each way); read the calibration sheet again")
    return (x, y)


def _offset_hint(text: str) -> str:
    """What to type instead of ``text``: four numbers with commas are two numbers with
    decimal commas (``1,5,0,5`` is 1.5 and 0.5)."""
    parts = text.split(",")
    if len(parts) == 4 and all(re.fullmatch(r"-?\d+", p.strip()) for p in parts[0::2]) \
            and all(re.fullmatch(r"\d+", p.strip()) for p in parts[1::2]):
        x, y = f"{parts[0].strip()}.{parts[1].strip()}", f"{parts[2].strip()}.{parts[3].strip()}"
        return (f"two numbers with decimal commas? type --back-offset={x},{y} (a dot before "
                f"the decimals) or --back-offset='{parts[0]},{parts[1]};{parts[2]},{parts[3]}' "
                "(a semicolon between the numbers)")
    return ("expected two numbers in mm separated by a comma, a dot before the decimals "
            "(--back-offset=0.5,-1), or by a semicolon with decimal commas "
            "(--back-offset='0,5;-1')")


def build_parser(prog: str = "pnp-build") -> Parser:
    """The command line of ``pnp build`` (``pnp build init`` has its own,
    :func:`init_parser`)."""
    games = (*rules.names("products"), BOTH)
    parser = Parser(prog, HELP, EPILOG, project=("cards", "out", "lang", "page"),
                    usage="%(prog)s [GAME] [OPTIONS]\n       %(prog)s init DIR [--force]")
    add = parser.add_argument
    add("--page", choices=PAGES, default="a4",
        help="paper size of the PDFs (default: a4)")
    add("--out", type=Path, default=Path("output"), metavar="DIR",
        help="folder that receives the builds (default: output)")
    add("--cards", type=Path, metavar="DIR",
        help="your own definitions folder, laid out like the shipped cards/ "
             "(orbitus/*.yaml, satellites/*.yaml); `pnp build init DIR` makes one. "
             "Default: the shipped cards/.")
    add("--game", choices=games, default=BOTH,
        help=f"build one game only (default: {BOTH})")
    add("--lang", default="en", metavar="LANG",
        help="the kit's language: every printed word (sheets, markers, pads, trackers, "
             "calibration sheet, booklet and player aid, Tabletop Simulator names) from "
             "<game>/text/labels-LANG.yaml, rules-LANG.md and player-aid-LANG.md. Shipped: "
             "en, ru, it, for both games (a text your own --cards folder lacks is built in "
             "English and the build says so). Default: en.")
    add("--no-bleed", action="store_true", help="no 3 mm bleed around the components")
    add("--gutter", type=number_in(0, MAX_GUTTER_MM, "mm"), default=0.0, metavar="MM",
        help=f"space sector hexes MM apart (0 to {MAX_GUTTER_MM:g}), each with its own bleed "
             "and crop marks (6 gives each hex its full 3 mm bleed): for a cutting machine, "
             "or a knife with room for error. Default 0: neighbours share their cut lines "
             "(fewer cuts, more cards per sheet).")
    add("--fit", action="store_true",
        help="scale the Satellites board onto one page instead of splitting it across pages "
             "at 100 %%")
    add("--back-offset", default="0,0", metavar="X,Y",
        help="shift every duplex back (sector backs, calibration back) by X mm right and Y "
             "mm down, as seen on the back, to cancel a printer's misalignment; read X,Y off "
             "calibration.pdf (at most 20 mm each way). A dot before the decimals, or a "
             "semicolon between numbers with decimal commas: --back-offset=-1.5,0.5 or "
             "--back-offset='-1,5;0,5' (default: 0,0)")
    add("--ink-saver", action="store_true",
        help="light sector backs (a fine screen keeps the fronts from showing through), "
             "fronts on a near-white ground, lighter routes and station: the sector sheets "
             "take about half the ink. The build summary gives each sheet's ink either way.")
    add("--fold", action="store_true",
        help="for printers without duplex: every sector sheet holds fronts on its upper "
             "half and their backs on the lower half; print one-sided, fold along the "
             "dashed line, glue, and cut through both layers (the backs cannot be out of "
             "register; fewer cards a sheet)")
    add("--svg-text", choices=SVG_TEXTS, default="font",
        help="how the SVGs carry their letters: 'font' keeps them as text set in DejaVu Sans "
             "(small, selectable; a machine without that font substitutes another and the "
             "lines run longer or shorter); 'outline' draws every letter as a path, so the "
             "SVGs look the same everywhere. Symbols (☠ ⚡ ★ ✂ ✔) are paths either way. "
             "Default: font.")
    add("--png", action="store_true",
        help="also write <game>/png/: every distinct component as a PNG (300 dpi unless "
             "--dpi)")
    add("--dpi", type=number_in(*DPI_RANGE, "dpi"), metavar="DPI",
        help=f"resolution of the PNGs, {DPI_RANGE[0]:g} to {DPI_RANGE[1]:g} (implies --png)")
    add("--tts", action="store_true",
        help="also write <game>/tts/: Tabletop Simulator deck sheets, images and a "
             "saved-object JSON")
    add("--tts-base-url", metavar="URL",
        help="name the Tabletop Simulator images by URL, the address OUT is uploaded to "
             "(e.g. https://example.org/kit/), instead of their paths on this machine, so "
             "the saved object works for every player; implies --tts")
    add("--preset", metavar="NAME",
        help="write the files a print shop or virtual table asks for into OUT/NAME/ "
             "instead of the home kit, then check them (a preflight); an unknown NAME "
             "lists the presets")
    add("--preflight", type=Path, metavar="DIR",
        help="check a preset build folder (OUT/NAME) against its preset and the deck; "
             "exit 1 with one line per problem")
    add("--watch", action="store_true",
        help="build, then keep watching the definitions folder and rebuild only what a "
             "changed file affects (and what was deleted from OUT); a wrong definition is "
             "reported and the watch goes on. Ctrl-C stops (exit 0).")
    add("--since", metavar="OLD",
        help="write only a reprint kit into OUT/reprint/: the components added or changed "
             "since OLD (a definitions folder, an earlier build folder, or a git revision of "
             "the definitions), with their backs, on the full build's sheets, the other "
             "sheets that print differently, and take-out.pdf listing what to take out of "
             "the printed kit; nothing changed: nothing is written")
    add("-q", "--quiet", action="store_true", help="no progress output")
    add("--json", action="store_true", dest="json_out",
        help="print what was built as one JSON object (the output folder, every file "
             "written with its size, what was kept and removed); implies -q")
    return parser


def init_parser(prog: str = "pnp-build init") -> Parser:
    """The command line of ``pnp build init``."""
    parser = Parser(prog, INIT_HELP, INIT_EPILOG)
    parser.add_argument("dir", metavar="DIR", help="folder to create or fill")
    parser.add_argument("--force", action="store_true",
                        help="overwrite definition files already in DIR")
    return parser


def build_args(args: Sequence[str]) -> list[str]:
    """The arguments as the build's own parser reads them: a game named first, as the other
    commands take it (``pnp build orbitus``), is the same as ``--game orbitus``."""
    args = list(args)
    if args and args[0] in (*rules.names("products"), BOTH):
        return ["--game", args[0], *args[1:]]
    return args


def main(argv: Sequence[str] | None = None, prog: str = "pnp-build") -> int:
    """The ``pnp build`` command (``prog`` names it in every message): the exit code; a bug
    ends in one clear line (exit 2), not a traceback (``PNP_DEBUG=1`` lets it through)."""
    args = build_args(sys.argv[1:] if argv is None else argv)

    def body() -> int:
        try:
            return _run(args, prog)
        except KeyboardInterrupt:
            return fail(f"{prog}: interrupted; the output folder holds the previous build", 130)

    return never_raises(body, prog, "your definitions folder")


def run(argv: Sequence[str] | None = None, prog: str = "pnp-build") -> NoReturn:
    """The ``pnp-build`` console script: :func:`main`, then exit with its code."""
    sys.exit(main(argv, prog))


def _run(args: list[str], prog: str) -> int:
    if args and not args[0].startswith("-") and args[0] != "init":
        from cards.spelling import did_you_mean

        known = ("init", *rules.names("products"), BOTH)
        return misuse(prog, f"{args[0]!r} is neither a game ({', '.join(known[1:])}) nor "
                            f"init{did_you_mean(args[0], known)}")
    if args and args[0] == "init":
        opts = init_parser(f"{prog} init").parse_args(args[1:])
        return _init(opts.dir, opts.force, f"{prog} init", prog)
    return _build(build_parser(prog).parse_args(args), prog)


def _say_as(prog: str) -> Any:
    """Lines of the build's modules, which name the command ``pnp-build``, as ``prog``."""
    def report(line: str) -> None:
        if prog != "pnp-build" and line.startswith("pnp-build"):
            line = prog + line[len("pnp-build"):]
        say(line)
    return report


def _build(opts: argparse.Namespace, prog: str) -> int:
    from generator.build import BuildOptions, plan, write_outputs

    report = _say_as(prog)
    try:
        offset = _back_offset(opts.back_offset)
    except ValueError as exc:
        return fail(f"{prog}: --back-offset {exc}")
    cards: Path | None = opts.cards
    out: Path = opts.out
    if cards is not None and not cards.is_dir():
        from cards.definitions import DEFAULT_CARDS

        return fail(f"{prog}: --cards {shown(cards)}: no such folder (expected a folder laid "
                    f"out like {DEFAULT_CARDS}, with orbitus/ and satellites/ inside)")
    if out.exists() and not out.is_dir():
        return fail(f"{prog}: --out {shown(out)}: is a file, expected a folder")
    from generator.output import OutputError, refuse_folder

    try:
        refuse_folder(out.resolve(), shown(out))  # "/" and the home folder, before any work
    except OutputError as exc:
        return fail(exc.lines[0])
    games = tuple(rules.names("products")) if opts.game == BOTH else (opts.game,)
    if opts.preflight is not None or opts.preset is not None:
        return _preset(opts, prog, games, cards, out, report)
    if opts.tts_base_url is not None:
        from generator.presets.command import check_base_url

        why = check_base_url(opts.tts_base_url)
        if why is not None:
            return fail(f"{prog}: --tts-base-url {why}")
    notes = _language(prog, opts.lang, games, cards)
    if notes is None:
        return EXIT_UNREADABLE
    from generator.export_png import DEFAULT_DPI

    dpi = opts.dpi if opts.dpi is not None else (DEFAULT_DPI if opts.png else None)
    build_opts = BuildOptions(page=opts.page, bleed=not opts.no_bleed, gutter=opts.gutter,
                              fit=opts.fit, back_offset=offset, svg_text=opts.svg_text,
                              lang=opts.lang, png_dpi=dpi,
                              tts=opts.tts or opts.tts_base_url is not None,
                              out_root=out.resolve(), tts_base_url=opts.tts_base_url,
                              ink_saver=opts.ink_saver, fold=opts.fold)
    for note in notes:
        say(f"{prog}: note: {note}")
    if opts.since is not None:
        if opts.watch:
            return misuse(prog, "--since writes one reprint kit; it does not go with --watch")
        return _since(opts.since, games, cards, out, build_opts, opts, prog)
    if opts.watch:
        if opts.json_out:
            return misuse(prog, "--json reports one build; it does not go with --watch")
        return _watch(out, games, cards, build_opts, opts.quiet, prog)
    quiet = opts.quiet or opts.json_out
    started = time.perf_counter()
    from cards.loader import DefinitionError

    try:
        steps = plan(games, cards, build_opts)
    except DefinitionError as exc:
        return definitions_failed(prog, exc, "nothing was written")
    warnings = _prose_warnings(games, cards, opts.lang)
    for warning in warnings:
        say(f"{prog}: warning: {warning}")
    try:
        files = _run_steps(steps, quiet)
    except DefinitionError as exc:  # a text of the booklets, read by its step
        return definitions_failed(prog, exc, "nothing was written")
    except ValueError as exc:  # a component that cannot be laid out on the chosen paper
        return fail(f"{prog}: {exc}; nothing was written", EXIT_VIOLATIONS)
    result, failed = _written(prog, out, lambda: write_outputs(out, files, games, info=report),
                              report)
    if failed is not None:
        return failed
    took = time.perf_counter() - started
    if opts.json_out:
        from cards.design_cache import design
        from pnp.common import dump_json

        write_out(dump_json({
            "out": str(out),
            "games": list(games),
            "designs": {g: design(g, cards).to_json() for g in games},
            "files": {rel: len(files[rel]) for rel in sorted(files)},
            "kept": result.kept,
            "removed": result.deleted,
            "user_files_kept": result.carried,
            "mode": result.mode,
            "warnings": warnings,
        }), json=True)
    elif not quiet:
        from generator.ink import kit_summary

        say(f"built {len(files)} files into {shown(out)} in {took:.2f} s")
        for line in kit_summary(files, fold=opts.fold):
            say(f"  ink: {line}")
    return EXIT_OK


def _prose_warnings(games: tuple[str, ...], cards: Path | None, lang: str) -> list[str]:
    """The sentences of the kit's booklets and aids a change of the definitions made untrue
    (:func:`generator.aids.prose_warnings`): the build says which, and builds anyway."""
    from generator.aids import prose_warnings
    from generator.build import load

    out: list[str] = []
    for game in games:
        out += prose_warnings(game, load(game, cards), lang)
    return out
def _written(prog: str, out: Path, write: Any, say: Any) -> tuple[Any, int | None]:
    """``write()``'s result, or the exit code of a folder it could not write (the lines
    of an output problem said with ``say``)."""
    from generator.output import OutputError

    try:
        return write(), None
    except OutputError as exc:
        for line in exc.lines:
            say(line)
        return None, EXIT_UNREADABLE
    except OSError as exc:
        return None, fail(f"{prog}: cannot write to {shown(out)}: {exc.strerror or exc}")


def _since(since: str, games: tuple[str, ...], cards: Path | None, out: Path, build_opts: Any,
           opts: argparse.Namespace, prog: str) -> int:
    """``--since OLD``: the reprint kit of what changed since OLD, or nothing and a line
    saying so."""
    from cards.loader import DefinitionError
    from cards.ruleset_cache import load_definitions
    from cards.sources import SourceError, open_source
    from generator.build import load_checked
    from generator.output import write_build
    from generator.reprint import FOLDER, reprint

    try:
        source = open_source(since, cards)
    except SourceError as exc:
        return fail(f"{prog}: --since {exc}")
    with source:
        missing = [g for g in games if g not in source.games]
        if missing and opts.game != BOTH:
            return fail(f"{prog}: --since {source.label} holds no {missing[0]} definitions")
        games = tuple(g for g in games if g in source.games)
        try:
            new = {g: load_checked(g, cards, build_opts) for g in games}
        except DefinitionError as exc:
            return definitions_failed(prog, exc, "nothing was written")
        try:
            old = {g: load_definitions(g, source.folder) for g in games}
        except DefinitionError as exc:
            for line in exc.problems:
                fail(line)
            return fail(f"{prog}: --since {source.label}: its definitions cannot be read; "
                        f"nothing was written")
        files, parts = reprint(games, old, new, build_opts, source.label)
    if not files:
        same = [p.game for p in parts if p.old_stamp == p.new_stamp]
        why = ("the definitions are the same" if len(same) == len(parts) else
               "no printed component of this kit changed")
        stamps = ", ".join(f"{p.game} {p.new_stamp}" for p in parts)
        if opts.json_out:
            write_out(dump_json({"out": str(out), "since": since, "files": {},
                                 "games": [_part_json(p) for p in parts]}), json=True)
        else:
            say(f"{prog}: nothing to reprint since {source.label}: {why} ({stamps}); "
                f"nothing was written")
        return EXIT_OK
    _, failed = _written(prog, out, lambda: write_build(
        out, files, lambda rel: rel.startswith(f"{FOLDER}/"), info=_say_as(prog)), say)
    if failed is not None:
        return failed
    if opts.json_out:
        write_out(dump_json({"out": str(out), "since": since,
                             "files": {rel: len(files[rel]) for rel in sorted(files)},
                             "games": [_part_json(p) for p in parts]}), json=True)
        return EXIT_OK
    for part in parts:
        if not part.any:
            continue
        say(f"{part.game}: {part.old_stamp} → {part.new_stamp}")
        for note in part.notes:
            say(f"  note: {note}")
        for row in part.take_out:
            say(f"  take out  {row}")
        for row in part.put_in:
            say(f"  put in    {row}")
    said = ", ".join(sorted(files))
    say(f"wrote the reprint kit into {shown(out / FOLDER)}: {said}")
    return EXIT_OK


def _part_json(part: Any) -> dict[str, Any]:
    return {"game": part.game, "old": part.old_stamp, "new": part.new_stamp,
            "files": sorted(part.files), "take_out": part.take_out, "put_in": part.put_in,
            "notes": part.notes}


def _preset(opts: argparse.Namespace, prog: str, games: tuple[str, ...],
            cards: Path | None, out: Path, report: Any) -> int:
    """``--preset NAME`` (a preset build and its preflight) or ``--preflight DIR``."""
    from generator.presets import command

    if opts.preflight is not None and opts.preset is not None:
        return misuse(prog, "--preset builds and checks; --preflight only checks a folder "
                            "built before: give one of them")
    home = [name for name, given in (("--watch", opts.watch), ("--json", opts.json_out),
                                     ("--png", opts.png or opts.dpi is not None),
                                     ("--tts", opts.tts or opts.tts_base_url is not None))
            if given]
    if home:
        return misuse(prog, f"{', '.join(home)}: for the home kit, not with "
                            f"--{'preset' if opts.preset is not None else 'preflight'}")

    def out_text(text: str) -> None:
        write_out(text + "\n")

    if opts.preflight is not None:
        return command.preflight(opts.preflight, cards, out_text)
    notes = _language(prog, opts.lang, games, cards)
    if notes is None:
        return EXIT_UNREADABLE
    for note in notes:
        say(f"{prog}: note: {note}")
    return command.build(opts.preset, games, cards, opts.lang, out, prog, report, out_text,
                         opts.quiet)


def _language(prog: str, lang: str, games: tuple[str, ...],
              cards: Path | None) -> list[str] | None:
    """The notes on what of the kit is not in ``lang`` (built in English instead), or None
    (after saying why) when ``lang`` cannot be built at all."""
    import re

    from cards.labels import KINDS, languages, resolve

    if not re.fullmatch(r"[a-z]{2,3}", lang):
        fail(f"{prog}: --lang {lang!r}: expected a language code such as en, ru or it")
        return None
    have = {g: sorted({x for kind in KINDS for x in languages(cards, g, kind)}) for g in games}
    if not any(lang in langs for langs in have.values()):
        listed = "; ".join(f"{g}: {', '.join(langs) or 'none'}" for g, langs in have.items())
        fail(f"{prog}: --lang {lang}: no texts in that language ({listed}); add "
             f"<game>/text/labels-{lang}.yaml (and rules-{lang}.md, player-aid-{lang}.md) "
             "to translate a kit")
        return None
    notes = []
    for g in games:
        for kind in KINDS:
            choice = resolve(cards, g, kind, lang)
            if choice.note:
                notes.append(choice.note)
    return notes


def _watch(out: Path, games: tuple[str, ...], cards: Path | None, opts: object,
           quiet: bool, prog: str) -> int:
    from generator.watch import watch

    report = _say_as(prog)
    try:
        watch(out, games, cards, opts, report=report,  # type: ignore[arg-type]
              info=(lambda _m: None) if quiet else report)
    except KeyboardInterrupt:
        if not quiet:
            say("stopped watching")
    return EXIT_OK


def _init(given: str, force: bool, prog: str, build: str) -> int:
    from generator.init import InitError, init_definitions

    if not given.strip():
        return fail(f"{prog}: DIR is empty; give the folder to fill (write . for the current "
                    "folder if you mean it)")
    folder = Path(given)
    try:
        result = init_definitions(folder, force, prog=prog)
    except InitError as exc:
        return fail(str(exc), exc.code)
    except OSError as exc:
        return fail(f"{prog}: cannot write to {shown(folder)}: {exc.strerror or exc}")
    replaced = f" ({len(result.replaced)} replaced)" if result.replaced else ""
    say(f"copied {len(result.written)} definition files into {shown(folder)}{replaced}")
    project = _project_file(folder, prog)
    if project:
        say(f"edit them, then build with:  {build}   (add --watch to rebuild on every save; "
            f"{project} names the folder)")
    else:
        say(f"edit them, then build with:  {build} --cards {shown(folder)}   (add --watch to "
            "rebuild on every save)")
    return EXIT_OK


def _project_file(folder: Path, prog: str) -> str | None:
    """Write ``pnp.toml`` in the working folder naming ``folder``, when ``folder`` lies inside
    the working folder and no project file is there yet; the file's name when one names it."""
    from cards.project import FILE_NAME, load_project, project_text
    from cards.reading import display_path

    here = Path.cwd().resolve()
    target = folder.resolve()
    existing = here / FILE_NAME
    if not target.is_relative_to(here) or target == here:
        return None
    if existing.exists():
        try:
            names = load_project(existing).cards
        except Exception:  # noqa: BLE001 - a project file of the user's: left alone
            names = None
        if names == target:
            return FILE_NAME
        say(f"{prog}: note: {display_path(existing)} exists and names another folder; it "
            f"is left alone")
        return None
    from cards.sheet_files import write_atomically

    write_atomically(existing, project_text(target.relative_to(here).as_posix()).encode())
    say(f"wrote {FILE_NAME}: every pnp command in this folder uses {shown(folder)}")
    return FILE_NAME


class _Bar:
    """The build's progress on a terminal (stderr): the step, a bar, done/total and the
    time; wiped when the build is done. Nothing when stderr is not a terminal."""

    def __init__(self, total: int) -> None:
        try:
            self.on = sys.stderr.isatty()
        except (AttributeError, ValueError):
            self.on = False
        self.total, self.done, self.started = total, 0, time.perf_counter()

    def show(self, name: str) -> None:
        if not self.on:
            return
        width = 24
        filled = width * self.done // max(self.total, 1)
        seconds = int(time.perf_counter() - self.started)
        line = (f"{name[:20]:<20} [{'#' * filled}{'-' * (width - filled)}] "
                f"{self.done}/{self.total} {seconds // 60}:{seconds % 60:02d}")
        sys.stderr.write(f"\r{shown(line)}\x1b[K")
        sys.stderr.flush()

    def close(self) -> None:
        if self.on:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def _run_steps(steps: list, quiet: bool) -> dict[str, bytes]:  # type: ignore[type-arg]
    files: dict[str, bytes] = {}
    bar = _Bar(len(steps)) if not quiet else None
    try:
        for name, step in steps:
            if bar is not None:
                bar.show(name)
            files.update(step())
            if bar is not None:
                bar.done += 1
    finally:
        if bar is not None:
            bar.close()
    return files


if __name__ == "__main__":
    run()
