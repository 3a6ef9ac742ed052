"""``pnp-build`` (also ``python -m generator``): build the printables from the definitions."""

from __future__ import annotations

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
    context_settings={"help_option_names": ["-h", "--help"]},
)


class Page(StrEnum):
    a4 = "a4"
    letter = "letter"


class Game(StrEnum):
    orbitus = "orbitus"
    satellites = "satellites"
    both = "both"


HELP = """Build the print-and-play files of Orbitus and Satellites from the YAML definitions.

Writes, under OUT (default ./output):

\b
  orbitus/sectors.pdf      every sector front, backs on alternate pages (duplex, long edge)
  orbitus/station.pdf      the station hex, start-line and barrier markers, start-line table
  satellites/tokens.pdf    the 24 satellites (red solid, blue hatched), cut circles
  satellites/board.pdf     the board with setup zones and trackers (split across pages)
  <game>/svg/*.svg         one SVG per distinct component

Print PDFs at 100 % (no "fit to page"). Exit codes: 0 built, 1 a definition is wrong
(nothing is overwritten), 2 the command is misused.
"""


@app.command(help=HELP)
def main(
    page: Annotated[Page, typer.Option(help="Paper size of the PDFs.")] = Page.a4,
    out: Annotated[Path, typer.Option(help="Folder that receives the builds.")] = Path("output"),
    cards: Annotated[
        Path | None,
        typer.Option(help="Your own definitions folder, laid out like the shipped cards/ "
                          "(orbitus/*.yaml, satellites/*.yaml). Default: the shipped cards/."),
    ] = None,
    game: Annotated[Game, typer.Option(help="Build one game only.")] = Game.both,
    no_bleed: Annotated[
        bool, typer.Option("--no-bleed", help="No 3 mm bleed around the components.")
    ] = False,
    fit: Annotated[
        bool, typer.Option("--fit", help="Scale the Satellites board onto one page instead of "
                                         "splitting it across pages at 100 %.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    from generator.build import GAMES, BuildOptions, plan, write_outputs

    if cards is not None and not cards.is_dir():
        _err(f"pnp-build: --cards {cards}: no such folder (expected a folder laid out like "
             f"{DEFAULT_CARDS}, with orbitus/ and satellites/ inside)")
        raise typer.Exit(2)
    if out.exists() and not out.is_dir():
        _err(f"pnp-build: --out {out}: is a file, expected a folder")
        raise typer.Exit(2)
    games = GAMES if game is Game.both else (game.value,)
    opts = BuildOptions(page=page.value, bleed=not no_bleed, fit=fit)
    started = time.perf_counter()
    try:
        steps = plan(games, cards, opts)
    except DefinitionError as exc:
        for line in exc.problems:
            _err(line)
        _err(f"pnp-build: {len(exc.problems)} problem(s) in the definitions; nothing was written")
        raise typer.Exit(1) from None
    files: dict[str, bytes] = {}
    try:
        files = _run_steps(steps, quiet)
    except ValueError as exc:  # a component that cannot be laid out on the chosen paper
        _err(f"pnp-build: {exc}; nothing was written")
        raise typer.Exit(1) from None
    try:
        write_outputs(out, files, games)
    except OSError as exc:
        _err(f"pnp-build: cannot write to {out}: {exc.strerror or exc}")
        raise typer.Exit(2) from None
    if not quiet:
        took = time.perf_counter() - started
        _err(f"built {len(files)} files into {out} in {took:.2f} s")


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


def run() -> None:
    app(prog_name="pnp-build")


if __name__ == "__main__":
    run()
