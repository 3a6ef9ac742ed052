"""Build the printables of each game: render everything in memory, then write atomically.

What each game prints lives in its product module (:mod:`generator.products`); this
module plans the steps of the games asked for, runs them and writes the files.

A build first loads and checks the definitions (nothing is written if they are
wrong), then renders every file in memory, and only then writes them, all or
nothing (:mod:`generator.output`): the files that change are staged in full and
journaled, then renamed into the output folder, whose folders are kept as they
are. A failed build leaves the previous files intact; an interrupted one is
completed by the next build.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import rules
from generator.options import BuildOptions, Step
from generator.output import Result, family_stale_if, write_build
from generator.products import product

GAMES = rules.names("products")  # the games that have printables


# --- whole builds -----------------------------------------------------------------------


def load(game: str, cards: Path | None) -> Any:
    """The validated definitions of ``game`` (raises ``DefinitionError``)."""
    return product(game).load(cards)


def load_checked(game: str, cards: Path | None, opts: BuildOptions) -> Any:
    """The definitions of ``game``, with its labels in the kit's language checked too (a
    wrong labels file stops the build before anything is rendered, with file and line)."""
    from cards.labels import load_labels

    defs = load(game, cards)
    load_labels(cards, game, opts.lang)
    defs.design  # noqa: B018 - the stamp every sheet prints: its texts are read (and checked) now
    return defs


def game_steps(game: str, defs: Any, opts: BuildOptions) -> list[Step]:
    """Every step of one game: its printables, then the opt-in exports (PNG, TTS)."""
    from generator.export import export_steps
    from generator.ink import ink_saving

    if opts.ink_saver:
        defs = ink_saving(defs)
    steps: list[Step] = product(game).steps(defs, opts)
    return steps + [design_step(game, defs)] + export_steps(game, defs, opts)


def design_step(game: str, defs: Any) -> Step:
    """``<game>/design.json``: the definitions this build was made from, as data, so that
    ``pnp diff`` and ``pnp build --since`` can compare with this build later, whatever
    happens to the definitions folder (:mod:`cards.snapshot`)."""
    import json

    from cards.snapshot import snapshot_of

    return (f"{game.capitalize()} design", lambda: {f"{game}/design.json": (json.dumps(
        snapshot_of(defs), ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode()})


def common_steps(opts: BuildOptions, cards: Path | None = None) -> list[Step]:
    """Steps that belong to no game (they read no definitions; the calibration sheet takes
    its words from the labels in ``cards``)."""
    from generator.calibration import calibration_step

    return [calibration_step(opts, cards)]


def plan(games: tuple[str, ...], cards: Path | None, opts: BuildOptions) -> list[Step]:
    """Load every asked game's definitions (all problems raised together), then list steps."""
    from cards.loader import collect

    loaded = collect(*[(lambda g=g: load_checked(g, cards, opts)) for g in games])
    steps: list[Step] = []
    for game, defs in zip(games, loaded, strict=True):
        steps += game_steps(game, defs, opts)
    from cards.labels import load_labels

    load_labels(cards, "orbitus", opts.lang)  # the calibration sheet's words: checked now
    return steps + common_steps(opts, cards)


def render(steps: list[Step]) -> Iterator[tuple[str, dict[str, bytes]]]:
    for name, step in steps:
        yield name, step()


# Families of files of which a build writes every member at once: once a build wrote one
# member, the others the manifest lists are left-overs of components (or texts) no longer
# defined, and go. Files no build of this tool wrote are never deleted.
FAMILIES = ("svg/*.svg", "png/*.png", "tts/*.png", "tts/*.json", "rules-*.pdf",
            "player-aid-*.pdf")


def write_outputs(out_dir: Path, files: dict[str, bytes], games: tuple[str, ...],
                  info: Callable[[str], None] | None = None) -> Result:
    """Make ``out_dir`` hold ``files``, all or nothing (:mod:`generator.output`): files this
    build does not write stay, except members of a family this build wrote (a game's SVGs,
    PNGs, TTS files, booklets, player aids) that earlier builds wrote and this one no longer
    makes. Raises :class:`~generator.output.OutputError`; the folder is then as it was."""
    return write_build(out_dir, files, family_stale_if(files, games, FAMILIES), info)


def build(out_dir: Path, games: tuple[str, ...] = GAMES, cards: Path | None = None,
          opts: BuildOptions | None = None) -> dict[str, bytes]:
    """Build everything in memory, then write it; returns what was written."""
    opts = opts or BuildOptions()
    if opts.out_root is None:
        opts = replace(opts, out_root=out_dir.resolve())
    files: dict[str, bytes] = {}
    for _, produced in render(plan(games, cards, opts)):
        files.update(produced)
    write_outputs(out_dir, files, games)
    return files
