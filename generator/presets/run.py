"""One preset build, start to end: find the preset, read the definitions, place and render
everything in memory, then write it into ``OUT/NAME/`` all at once.

The folder ``OUT/NAME/`` holds one preset's build: its files, ``manifest.csv`` and
``preset.yaml``. A new build replaces the files an earlier build of the tool wrote there
(files of yours there are kept, as in every build), with the same atomic folder swap as
the home kit (:mod:`generator.output`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from cards.preset_models import PresetFile
from generator.presets.build import PresetBuild, build_preset, load_games


class MissingExtra(Exception):
    """A preset that needs an optional package that is not installed; the message says
    which and how to install it."""


def make(name: str, games: tuple[str, ...], cards: Path | None = None,
         lang: str = "en") -> tuple[PresetFile, PresetBuild]:
    """The preset ``name`` and its build for ``games``, in memory. Raises
    :class:`~cards.presets.UnknownPreset` (listing the presets), ``DefinitionError``
    (file:line) or :class:`~generator.presets.place.PresetMismatch` (a product too small),
    all before anything is written."""
    from cards.presets import available, load_preset

    preset = load_preset(name, cards)
    if preset.colour == "cmyk":
        try:
            import pikepdf  # noqa: F401
        except ImportError:
            raise MissingExtra(
                f"--preset {name}: {preset.vendor} asks for CMYK PDF/X-1a, which needs "
                "pikepdf: pip install 'orbitus-pnp[print]'") from None
    text = available(cards)[name].read_bytes()
    chosen = tuple(g for g in games if any(k.startswith(g + ".")
                                           for k in (*preset.components, *preset.leave_out))
                   or preset.kind == "virtual-table")
    loaded = load_games(chosen, cards, lang)
    if preset.kind == "virtual-table":
        from generator.presets.virtual import build_virtual

        return preset, build_virtual(preset, loaded, text)
    return preset, build_preset(preset, loaded, text)


def write(out: Path, preset: PresetFile, result: PresetBuild,
          info: Callable[[str], None] | None = None) -> Path:
    """Write ``result`` into ``out/NAME``; returns that folder. Raises ``OutputError``."""
    from generator.output import write_build

    folder = out / preset.name
    write_build(folder, result.files, lambda _rel: True, info)
    return folder
