"""Build the printables of each game: render everything in memory, then write atomically.

What each game prints lives in its product module (:mod:`generator.products`); this
module plans the steps of the games asked for, runs them and writes the files.

A build first loads and checks the definitions (nothing is written if they are
wrong), then renders every file, and only then replaces the files in the output
folder one by one, each through a temporary file and a rename. A failed or
interrupted build therefore leaves the previous files intact.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import rules
from generator.options import BuildOptions, Step
from generator.output import write_atomic
from generator.products import product

GAMES = rules.names()


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
    return defs


def game_steps(game: str, defs: Any, opts: BuildOptions) -> list[Step]:
    """Every step of one game: its printables, then the opt-in exports (PNG, TTS)."""
    from generator.export import export_steps

    steps: list[Step] = product(game).steps(defs, opts)
    return steps + export_steps(game, defs, opts)


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


# folders one step writes completely: files there that this build did not write are stale
# Families of files of which a build writes every member at once: once a build wrote one
# member, the others on disk are left-overs of components (or texts) no longer defined.
FAMILIES = ("svg/*.svg", "png/*.png", "tts/*.png", "tts/*.json", "rules-*.pdf",
            "player-aid-*.pdf")


def write_outputs(out_dir: Path, files: dict[str, bytes], games: tuple[str, ...]) -> None:
    """Replace each file atomically; then, in each family of files this build wrote (a
    game's SVGs, PNGs, TTS files, booklets, player aids), drop the members no longer made."""
    from fnmatch import fnmatchcase

    for rel in sorted(files):
        write_atomic(out_dir / rel, files[rel])
    for game in games:
        for family in FAMILIES:
            pattern = f"{game}/{family}"
            if not any(fnmatchcase(rel, pattern) for rel in files):
                continue
            for old in sorted((out_dir / game).glob(family)):
                rel = old.relative_to(out_dir).as_posix()
                if old.is_file() and rel not in files:
                    old.unlink()


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
