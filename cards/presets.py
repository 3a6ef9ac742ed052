"""Finding and loading presets (``presets/*.yaml``), through the definitions' own loader.

A preset file is read like every definitions file (:mod:`cards.loader`): safe YAML only,
every problem one ``FILE:LINE: field: message`` line, all of them together. The presets a
build may use are the shipped ones (``cards/presets/``) and, with ``--cards DIR``, those in
``DIR/presets/`` (a user's preset of the same name wins).
"""

from __future__ import annotations

from pathlib import Path

from cards.files import DEFAULT_CARDS
from cards.loader import DefinitionError, display_path, format_problem, load_yaml, validate
from cards.preset_models import PresetFile

PRESET_DIR = "presets"
WHAT = "a preset (cards/presets/*.yaml: a vendor's products and file rules)"


class UnknownPreset(DefinitionError):
    """No preset of that name; the message lists the ones there are."""


def preset_folders(cards: Path | None = None) -> list[Path]:
    """Where presets are looked for, the user's folder first."""
    folders = []
    if cards is not None:
        folders.append(cards / PRESET_DIR)
    folders.append(DEFAULT_CARDS / PRESET_DIR)
    return folders


def available(cards: Path | None = None) -> dict[str, Path]:
    """Every preset name a build can use, with its file (the user's shadow the shipped)."""
    found: dict[str, Path] = {}
    for folder in reversed(preset_folders(cards)):
        if folder.is_dir():
            for path in sorted(folder.glob("*.yaml")):
                found[path.stem] = path
    return dict(sorted(found.items()))


def load_preset_file(path: Path) -> PresetFile:
    """One preset file, validated (raises :class:`DefinitionError` with file:line)."""
    from cards.definitions import inside

    doc = load_yaml(inside(path.parent, path), WHAT)
    preset = validate(doc, PresetFile)
    if preset.name != path.stem and path.name != "preset.yaml":
        raise DefinitionError([format_problem(
            doc, ("name",), f"{preset.name!r} differs from the file's name; call the file "
                            f"{preset.name}.yaml or the preset {path.stem}")])
    return preset


def load_preset(name: str, cards: Path | None = None) -> PresetFile:
    """The preset ``name`` (raises :class:`UnknownPreset` listing the presets there are)."""
    presets = available(cards)
    if name not in presets:
        listed = ", ".join(presets) or "none"
        where = " or ".join(display_path(f) for f in preset_folders(cards))
        raise UnknownPreset([f"--preset {name}: no such preset (there are: {listed}); a "
                             f"preset is a file NAME.yaml in {where}"])
    return load_preset_file(presets[name])
