"""Heaps in the definitions layer: its ``cards`` adapter (see :mod:`cards.orbitus`).

One optional file, ``<folder>/heaps/rules.yaml``, with whole numbers ``heaps``, ``most``
and ``take`` (each optional); without it the defaults of :class:`~testkit.heaps.game.Ruleset`
apply. A wrong value is a :class:`~cards.loader.DefinitionError` with file and line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from testkit.heaps.game import Ruleset

FILES = {"rules": "the Heaps numbers (heaps, most, take)"}
OPTIONAL: frozenset[str] = frozenset({"rules"})
RULESET = Ruleset
PARTS: dict[str, tuple[str, ...]] = {"heaps": ("rules",), "most": ("rules",),
                                     "take": ("rules",)}
LIMITS = {"heaps": (1, 9), "most": (1, 99), "take": (1, 99)}


@dataclass(frozen=True)
class HeapsDefinitions:
    ruleset: Ruleset
    folder: Path
    files: dict[str, Path] = field(default_factory=dict, compare=False)


def load(folder: Path | None = None, deck_file: Path | None = None) -> HeapsDefinitions:
    """The definitions in ``folder`` (default: the shipped ``cards/``, which has none)."""
    from cards.files import DEFAULT_CARDS, game_files
    from cards.loader import DefinitionError, format_problem, load_yaml

    root = (folder or DEFAULT_CARDS).resolve()
    files = game_files("heaps", root)
    path = files["rules"]
    if not path.exists():
        return HeapsDefinitions(Ruleset(), root, files)
    doc = load_yaml(path, FILES["rules"])
    if not isinstance(doc.data, dict):
        raise DefinitionError([f"{doc.where(())}: expected a mapping of heaps, most and take"])
    data = doc.data
    problems = [format_problem(doc, (key,), f"unknown field (known: {', '.join(LIMITS)})")
                for key in data if key not in LIMITS]
    numbers = {}
    for key, (low, high) in LIMITS.items():
        if key not in data:
            continue
        value = data[key]
        if type(value) is not int or not low <= value <= high:
            problems.append(format_problem(doc, (key,), f"must be a whole number from {low} "
                                                        f"to {high}, got {value!r}"))
        else:
            numbers[key] = value
    if problems:
        raise DefinitionError(problems)
    return HeapsDefinitions(Ruleset(**numbers), root, files)
