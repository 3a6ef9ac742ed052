"""``pnp-build`` (also ``python -m generator``): build the printables from the definitions.

``pnp-build [OPTIONS]`` builds (once, or on every change with ``--watch``);
``pnp-build init DIR`` copies the shipped definitions into DIR for editing.
"""

from __future__ import annotations

import math
import sys
import time
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from cards.definitions import DEFAULT_CARDS
from cards.loader import DefinitionError

app = typer.Typer(
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

MAX_BACK_OFFSET_MM = 20.0
MAX_GUTTER_MM = 20.0


class Page(StrEnum):
    a4 = "a4"
    letter = "letter"


class SvgText(StrEnum):
    font = "font"
    outline = "outline"


class Game(StrEnum):
    orbitus = "orbitus"
    satellites = "satellites"
    both = "both"


HELP = """Build the print-and-play files of Orbitus and Satellites from the YAML definitions.

Writes, under OUT (default ./output):

\b
  orbitus/sectors.pdf      every sector front, backs on alternate pages (duplex, long edge)
  orbitus/station.pdf      the station hex, start-line and barrier markers, start-line table
  satellites/tokens.pdf    the 24 satellites (red solid, blue hatched) and tracker markers
  satellites/board.pdf     the board in pieces with glue flaps, and the trackers
  <game>/svg/*.svg         one SVG per distinct component
  <game>/score-pad.pdf     score pads (Orbitus rows come from the scoring tables)
  <game>/player-aid-L.pdf  the one-page player aid in the kit's language L (--lang)
  <game>/rules-L.pdf       the rule booklet, typeset from cards/<game>/text/rules-L.md
  calibration.pdf          100 mm rulers and front/back crosshairs (duplex alignment)

\b
On request (they rasterise, which takes seconds rather than a fraction of one):
  <game>/png/*.png         --png / --dpi: one PNG per distinct component (300 dpi)
  <game>/tts/              --tts: Tabletop Simulator deck sheets, images and the
                           saved object <Game>.json (copy it to TTS's Saved Objects)

\b
Commands:
  pnp build init DIR       copy the shipped definitions into DIR to edit them, then
                           build with: pnp build --cards DIR [--watch]

A build replaces OUT all at once (the previous build stays whole if it is interrupted),
never deletes or replaces a file of yours there (OUT/.pnp-build.json lists what builds
wrote), and waits if another build is writing into OUT.

Print PDFs at 100 % (no "fit to page"). Exit codes: 0 built (or --watch stopped with
Ctrl-C), 1 a definition is wrong (nothing is overwritten), 2 the command is misused or
OUT cannot be written (it is then left as it was).
"""


def _back_offset(value: str) -> tuple[float, float]:
    parts = value.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        x, y = (float(p) for p in parts)
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError
    except ValueError:
        raise typer.BadParameter(
            f"{value!r}: expected two numbers in mm separated by a comma, "
            "e.g. --back-offset 0.5,-1") from None
    for v in (x, y):
        if abs(v) > MAX_BACK_OFFSET_MM:
            raise typer.BadParameter(
                f"{value!r}: {v:g} mm is more than a printer's duplex error (at most "
                f"{MAX_BACK_OFFSET_MM:g} mm each way); read the calibration sheet again")
    return (x, y)


@app.callback(invoke_without_command=True, help=HELP)
def main(
    ctx: typer.Context,
    page: Annotated[Page, typer.Option(help="Paper size of the PDFs.")] = Page.a4,
    out: Annotated[Path, typer.Option(help="Folder that receives the builds.")] = Path("output"),
    cards: Annotated[
        Path | None,
        typer.Option(help="Your own definitions folder, laid out like the shipped cards/ "
                          "(orbitus/*.yaml, satellites/*.yaml); `pnp build init DIR` makes "
                          "one. Default: the shipped cards/."),
    ] = None,
    game: Annotated[Game, typer.Option(help="Build one game only.")] = Game.both,
    lang: Annotated[
        str, typer.Option("--lang", metavar="LANG",
                          help="The kit's language: every printed word (sheets, markers, "
                               "pads, trackers, calibration sheet, booklet and player aid) "
                               "from <game>/text/labels-LANG.yaml, rules-LANG.md and "
                               "player-aid-LANG.md. Shipped: en, ru, it (Orbitus has no "
                               "Italian booklet, Satellites no Russian one: those are built "
                               "in English and the build says so).")
    ] = "en",
    no_bleed: Annotated[
        bool, typer.Option("--no-bleed", help="No 3 mm bleed around the components.")
    ] = False,
    gutter: Annotated[
        float, typer.Option("--gutter", metavar="MM", min=0, max=MAX_GUTTER_MM,
                            help="Space sector hexes MM apart, each with its own bleed and "
                                 "crop marks (6 gives each hex its full 3 mm bleed): for a "
                                 "cutting machine, or a knife with room for error. Default 0: "
                                 "neighbours share their cut lines (fewer cuts, more cards "
                                 "per sheet).")
    ] = 0.0,
    fit: Annotated[
        bool, typer.Option("--fit", help="Scale the Satellites board onto one page instead of "
                                         "splitting it across pages at 100 %.")
    ] = False,
    back_offset: Annotated[
        str, typer.Option("--back-offset", metavar="X,Y",
                          help="Shift every duplex back (sector backs, calibration back) by X "
                               "mm right and Y mm down, as seen on the back, to cancel a "
                               "printer's misalignment; read X,Y off calibration.pdf. Negative "
                               "first value: --back-offset=-1,0.5")
    ] = "0,0",
    svg_text: Annotated[
        SvgText, typer.Option("--svg-text",
                              help="How the SVGs carry their letters: 'font' keeps them as "
                                   "text set in DejaVu Sans (small, selectable; a machine "
                                   "without that font substitutes another and the lines run "
                                   "longer or shorter); 'outline' draws every letter as a "
                                   "path, so the SVGs look the same everywhere. Symbols (☠ ⚡ "
                                   "★ ✂ ✔) are paths either way.")
    ] = SvgText.font,
    png: Annotated[
        bool, typer.Option("--png", help="Also write <game>/png/: every distinct component "
                                         "as a PNG (300 dpi unless --dpi).")
    ] = False,
    dpi: Annotated[
        float | None,
        typer.Option(min=30, max=1200, help="Resolution of the PNGs (implies --png).")
    ] = None,
    tts: Annotated[
        bool, typer.Option("--tts", help="Also write <game>/tts/: Tabletop Simulator deck "
                                         "sheets, images and a saved-object JSON.")
    ] = False,
    watch: Annotated[
        bool, typer.Option("--watch", help="Build, then keep watching the definitions folder "
                                           "and rebuild only what a changed file affects; a "
                                           "wrong definition is reported and the watch goes "
                                           "on. Ctrl-C stops (exit 0).")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress output.")] = False,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print what was built as one JSON object (the output "
                                          "folder, every file written with its size, what "
                                          "was kept and removed); implies -q.")
    ] = False,
) -> None:
    if ctx.invoked_subcommand is not None:
        return
    from generator.build import GAMES, BuildOptions, plan, write_outputs

    try:
        offset = _back_offset(back_offset)
    except typer.BadParameter as exc:
        _err(f"{_prog()}: --back-offset {exc}")
        raise typer.Exit(2) from None
    if cards is not None and not cards.is_dir():
        _err(f"{_prog()}: --cards {cards}: no such folder (expected a folder laid out like "
             f"{DEFAULT_CARDS}, with orbitus/ and satellites/ inside)")
        raise typer.Exit(2)
    if out.exists() and not out.is_dir():
        _err(f"{_prog()}: --out {out}: is a file, expected a folder")
        raise typer.Exit(2)
    games = GAMES if game is Game.both else (game.value,)
    notes = _language(lang, games, cards)
    if notes is None:
        raise typer.Exit(2)
    from generator.export_png import DEFAULT_DPI

    opts = BuildOptions(page=page.value, bleed=not no_bleed, gutter=gutter, fit=fit,
                        back_offset=offset, svg_text=svg_text.value, lang=lang,
                        png_dpi=dpi if dpi is not None else (DEFAULT_DPI if png else None),
                        tts=tts, out_root=out.resolve())
    for note in notes:
        _err(f"{_prog()}: note: {note}")
    if watch:
        if json_out:
            _err(f"{_prog()}: --json reports one build; it does not go with --watch")
            raise typer.Exit(2)
        _watch(out, games, cards, opts, quiet)
        return
    quiet = quiet or json_out
    started = time.perf_counter()
    try:
        steps = plan(games, cards, opts)
    except DefinitionError as exc:
        for line in exc.problems:
            _err(line)
        _err(f"{_prog()}: {len(exc.problems)} problem(s) in the definitions; nothing was written")
        raise typer.Exit(1) from None
    files: dict[str, bytes] = {}
    try:
        files = _run_steps(steps, quiet)
    except ValueError as exc:  # a component that cannot be laid out on the chosen paper
        _err(f"{_prog()}: {exc}; nothing was written")
        raise typer.Exit(1) from None
    from generator.output import OutputError

    try:
        result = write_outputs(out, files, games, info=_err)
    except OutputError as exc:
        for line in exc.lines:
            _err(line)
        raise typer.Exit(2) from None
    except OSError as exc:
        _err(f"{_prog()}: cannot write to {out}: {exc.strerror or exc}")
        raise typer.Exit(2) from None
    took = time.perf_counter() - started
    if json_out:
        import json

        sys.stdout.write(json.dumps({
            "out": str(out),
            "games": list(games),
            "files": {rel: len(files[rel]) for rel in sorted(files)},
            "kept": result.kept,
            "removed": result.deleted,
            "user_files_kept": result.carried,
            "mode": result.mode,
        }, ensure_ascii=False, indent=2) + "\n")
    elif not quiet:
        _err(f"built {len(files)} files into {out} in {took:.2f} s")


def _language(lang: str, games: tuple[str, ...], cards: Path | None) -> list[str] | None:
    """The notes on what of the kit is not in ``lang`` (built in English instead), or None
    (after saying why) when ``lang`` cannot be built at all."""
    import re

    from cards.labels import KINDS, languages, resolve

    if not re.fullmatch(r"[a-z]{2,3}", lang):
        _err(f"{_prog()}: --lang {lang!r}: expected a language code such as en, ru or it")
        return None
    have = {g: sorted({x for kind in KINDS for x in languages(cards, g, kind)}) for g in games}
    if not any(lang in langs for langs in have.values()):
        listed = "; ".join(f"{g}: {', '.join(langs) or 'none'}" for g, langs in have.items())
        _err(f"{_prog()}: --lang {lang}: no texts in that language ({listed}); add "
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
           quiet: bool) -> None:
    from generator.watch import watch

    try:
        watch(out, games, cards, opts, report=_err,  # type: ignore[arg-type]
              info=(lambda _m: None) if quiet else _err)
    except KeyboardInterrupt:
        if not quiet:
            _err("stopped watching")
    raise typer.Exit(0)


INIT_HELP = """Copy the shipped definitions into DIR for a designer to edit.

\b
Writes DIR/orbitus/*.yaml, DIR/satellites/*.yaml (each keeps its
"# yaml-language-server: $schema=../schema/..." first line), DIR/schema/*.json
(so editors complete and check fields) and the texts the player aids and
booklets are set from. Then build from it with:  pnp build --cards DIR [--watch]

Exit codes: 0 copied; 1 DIR already holds some of these files (nothing is written;
--force overwrites them); 2 DIR is a file or cannot be written.
"""


@app.command("init", help=INIT_HELP)
def init_command(
    given: Annotated[str, typer.Argument(metavar="DIR", help="Folder to create or fill.",
                                         show_default=False)],
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite definition files already in DIR.")
    ] = False,
) -> None:
    from generator.init import InitError, init_definitions

    if not given.strip():
        _err(f"{_prog()} init: DIR is empty; give the folder to fill (write . for the current "
             "folder if you mean it)")
        raise typer.Exit(2)
    dir = Path(given)

    try:
        result = init_definitions(dir, force)
    except InitError as exc:
        _err(str(exc))
        raise typer.Exit(exc.code) from None
    except OSError as exc:
        _err(f"{_prog()} init: cannot write to {dir}: {exc.strerror or exc}")
        raise typer.Exit(2) from None
    replaced = f" ({len(result.replaced)} replaced)" if result.replaced else ""
    _err(f"copied {len(result.written)} definition files into {dir}{replaced}")
    _err(f"edit them, then build with:  {_prog()} --cards {dir}   (add --watch to rebuild "
         "on every save)")


def _run_steps(steps: list, quiet: bool) -> dict[str, bytes]:  # type: ignore[type-arg]
    files: dict[str, bytes] = {}
    if quiet:
        for _, step in steps:
            files.update(step())
        return files
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description:<20}"), BarColumn(), TextColumn("{task.completed}"
                  "/{task.total}"), TimeElapsedColumn(), transient=True,
                  console=_console()) as progress:
        task = progress.add_task("building", total=len(steps))
        for name, step in steps:
            progress.update(task, description=name)
            files.update(step())
            progress.advance(task)
    return files


def _console():  # noqa: ANN202
    from rich.console import Console

    return Console(stderr=True)


def _err(message: str) -> None:
    sys.stderr.write(message + "\n")


def build_args(args: list[str]) -> list[str]:
    """The arguments as the build's own parser reads them: a game named first, as the other
    commands take it (``pnp build orbitus``), is the same as ``--game orbitus``."""
    if args and args[0] in {g.value for g in Game}:
        return ["--game", args[0], *args[1:]]
    return args


_PROG = ["pnp-build"]  # the name the command was run by, for its messages


def _prog() -> str:
    return _PROG[0]


def run(argv: list[str] | None = None, prog: str = "pnp-build") -> None:
    """The ``pnp-build`` command: a bug ends in one clear line (exit 2), not a traceback;
    ``PNP_DEBUG=1`` lets the traceback through for developers."""
    import os

    before, _PROG[0] = _PROG[0], prog
    args = build_args(list(sys.argv[1:] if argv is None else argv))
    try:
        app(args=args, prog_name=prog)
    except KeyboardInterrupt:
        _err(f"{prog}: interrupted; the output folder holds the previous build")
        sys.exit(130)
    except Exception as exc:
        if os.environ.get("PNP_DEBUG"):
            raise
        _err(f"{prog}: internal error ({type(exc).__name__}: {exc}); please report it "
             "together with your definitions folder (PNP_DEBUG=1 shows the details)")
        sys.exit(2)
    finally:
        _PROG[0] = before


if __name__ == "__main__":
    run()
