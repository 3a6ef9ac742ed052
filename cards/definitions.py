"""Load a definitions folder (laid out like ``cards/``) into validated models.

``load_orbitus(folder)`` and ``load_satellites(folder)`` read every file of a
game, validate each against its model, then check what spans files (planet
types used by sectors, duplicate IDs, satellite counts). All problems found are
raised together in one :class:`~cards.loader.DefinitionError`, one line each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from cards.loader import (
    DefinitionError,
    Document,
    UnreadableInput,
    collect,
    display_path,
    format_problem,
    load_yaml,
    validate,
)
from cards.models import (
    COPIES_PER_VALUE,
    SAT_VALUES,
    BoardFile,
    PlanetsFile,
    RulesFile,
    SatellitesFile,
    SectorDef,
    SectorsFile,
    StationFile,
    TrackersFile,
)

DEFAULT_CARDS = Path(__file__).resolve().parent
M = TypeVar("M")

ORBITUS_FILES: dict[str, str] = {
    "planets": "the Orbitus planet types",
    "sectors": "the Orbitus sector deck",
    "station": "the Orbitus station",
    "rules": "the Orbitus hand sizes, start lines and scoring tables",
}
SATELLITES_FILES: dict[str, str] = {
    "board": "the Satellites board",
    "satellites": "the Satellites satellite tokens",
    "trackers": "the Satellites trackers",
}


@dataclass(frozen=True)
class OrbitusDefinitions:
    planets: PlanetsFile
    sectors: SectorsFile
    station: StationFile
    rules: RulesFile
    folder: Path

    def sector(self, ident: str) -> SectorDef:
        return self.sectors.by_id()[ident]


@dataclass(frozen=True)
class SatellitesDefinitions:
    board: BoardFile
    satellites: SatellitesFile
    trackers: TrackersFile
    folder: Path


def inside(folder: Path, path: Path) -> Path:
    """``path`` if it stays inside ``folder`` once links are resolved; else a clear error."""
    resolved = path.resolve()
    if not resolved.is_relative_to(folder.resolve()):
        raise UnreadableInput([
            f"{display_path(path)}: leads outside {display_path(folder)} (to {resolved}); "
            "definitions are read only from inside the folder you gave"
        ])
    return path


def _load(folder: Path, game: str, name: str, what: str, model: type[M]) -> tuple[Document, M]:
    doc = load_yaml(inside(folder, folder / game / f"{name}.yaml"), what)
    return doc, validate(doc, model)


def _duplicates(doc: Document, key: str, ids: Sequence[str], what: str) -> list[str]:
    problems: list[str] = []
    first: dict[str, int] = {}
    for i, ident in enumerate(ids):
        if ident in first:
            problems.append(
                format_problem(
                    doc,
                    (key, i, "id"),
                    f"duplicate {what} ID {ident!r} (first used on line "
                    f"{doc.line_of((key, first[ident]))}); every {what} needs its own ID",
                )
            )
        else:
            first[ident] = i
    return problems


def load_sectors_file(path: Path, planets: PlanetsFile) -> SectorsFile:
    """Load one sector deck file (a layout may name its own) and check it against ``planets``."""
    doc = load_yaml(path, ORBITUS_FILES["sectors"])
    deck = validate(doc, SectorsFile)
    problems = _duplicates(doc, "sectors", [s.id for s in deck.sectors], "sector")
    known = planets.by_id()
    for i, sector in enumerate(deck.sectors):
        if sector.planet is not None and sector.planet not in known:
            problems.append(
                format_problem(
                    doc,
                    ("sectors", i, "planet"),
                    f"{sector.planet!r} is not a planet type (known: {', '.join(known)})",
                )
            )
    if problems:
        raise DefinitionError(problems)
    return deck


def load_orbitus(folder: Path | None = None) -> OrbitusDefinitions:
    """Load and cross-check the Orbitus definitions in ``folder`` (default: shipped)."""
    folder = (folder or DEFAULT_CARDS).resolve()

    def planets() -> PlanetsFile:
        doc, model = _load(folder, "orbitus", "planets", ORBITUS_FILES["planets"], PlanetsFile)
        problems = _duplicates(
            doc, "planet_types", [p.id for p in model.planet_types], "planet type"
        )
        if problems:
            raise DefinitionError(problems)
        return model

    planets_model, station, rules = collect(
        planets,
        lambda: _load(folder, "orbitus", "station", ORBITUS_FILES["station"], StationFile)[1],
        lambda: _load(folder, "orbitus", "rules", ORBITUS_FILES["rules"], RulesFile)[1],
    )
    sectors = load_sectors_file(inside(folder, folder / "orbitus" / "sectors.yaml"),
                                planets_model)
    return OrbitusDefinitions(planets_model, sectors, station, rules, folder)


def load_satellites(folder: Path | None = None) -> SatellitesDefinitions:
    """Load and cross-check the Satellites definitions in ``folder`` (default: shipped)."""
    folder = (folder or DEFAULT_CARDS).resolve()

    def satellites() -> SatellitesFile:
        doc, model = _load(
            folder, "satellites", "satellites", SATELLITES_FILES["satellites"], SatellitesFile
        )
        problems = []
        for colour in ("red", "blue"):
            for value in SAT_VALUES:
                n = sum(e.count for e in model.satellites
                        if e.colour == colour and e.value == value)
                if n != COPIES_PER_VALUE:
                    problems.append(
                        format_problem(
                            doc,
                            ("satellites",),
                            f"{colour} has {n} satellite(s) of value {value}; the rules give "
                            f"each player {COPIES_PER_VALUE} of every value 1-4",
                        )
                    )
        if problems:
            raise DefinitionError(problems)
        return model

    board, sats, trackers = collect(
        lambda: _load(folder, "satellites", "board", SATELLITES_FILES["board"], BoardFile)[1],
        satellites,
        lambda: _load(
            folder, "satellites", "trackers", SATELLITES_FILES["trackers"], TrackersFile
        )[1],
    )
    return SatellitesDefinitions(board, sats, trackers, folder)
