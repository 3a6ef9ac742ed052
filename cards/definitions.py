"""Load a definitions folder (laid out like ``cards/``) into validated models.

``load_orbitus(folder)`` and ``load_satellites(folder)`` read every file of a
game, validate each against its model, then check what spans files (planet
types used by sectors, duplicate IDs, satellite counts). All problems found are
raised together in one :class:`~cards.loader.DefinitionError`, one line each.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from cards.files import (
    DEFAULT_CARDS,
    ORBITUS_FILES,
    SATELLITES_FILES,
    game_files,
)
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
    SAT_VALUES,
    BoardFile,
    PlanetsFile,
    RulesFile,
    SatellitesFile,
    SatRulesFile,
    SectorDef,
    SectorsFile,
    StationFile,
    TrackersFile,
)

if TYPE_CHECKING:
    from rules.orbitus.ruleset import Ruleset as OrbitusRuleset
    from rules.satellites.ruleset import Ruleset as SatellitesRuleset

M = TypeVar("M")

@dataclass(frozen=True)
class OrbitusDefinitions:
    planets: PlanetsFile
    sectors: SectorsFile
    station: StationFile
    rules: RulesFile
    folder: Path
    files: dict[str, Path] = field(default_factory=dict, compare=False)  # role -> file read
    # the printables' ink-saving look (pnp build --ink-saver): a build option, read from no
    # file (a live rebuild does not follow it)
    ink_saver: bool = field(default=False, metadata={"option": True})

    def sector(self, ident: str) -> SectorDef:
        return self.sectors.by_id()[ident]

    @cached_property
    def ruleset(self) -> OrbitusRuleset:
        """The rules core's view of these definitions (every rule number comes from it)."""
        from cards.ruleset import orbitus_ruleset

        return orbitus_ruleset(self)


@dataclass(frozen=True)
class SatellitesDefinitions:
    board: BoardFile
    satellites: SatellitesFile
    trackers: TrackersFile
    folder: Path
    rules: SatRulesFile = SatRulesFile()
    files: dict[str, Path] = field(default_factory=dict, compare=False)

    @cached_property
    def ruleset(self) -> SatellitesRuleset:
        """The rules core's view of these definitions (every rule number comes from it)."""
        from cards.ruleset import satellites_ruleset

        return satellites_ruleset(self)


def inside(folder: Path, path: Path) -> Path:
    """``path`` if it stays inside ``folder`` once links are resolved; else a clear error."""
    try:
        resolved = path.resolve()
    except (RuntimeError, OSError):  # a link loop: reading the file reports it
        return path
    if not resolved.is_relative_to(folder.resolve()):
        raise UnreadableInput([
            f"{display_path(path)}: leads outside {display_path(folder)} (to {resolved}); "
            "definitions are read only from inside the folder you gave"
        ])
    return path


def _load(path: Path, what: str, model: type[M]) -> tuple[Document, M]:
    doc = load_yaml(inside(path.parent, path), what)
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
    """Load one sector deck file and check it against ``planets``."""
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


def load_orbitus(folder: Path | None = None, deck_file: Path | None = None) -> OrbitusDefinitions:
    """Load and cross-check the Orbitus definitions in ``folder`` (default: shipped), with
    the deck ``deck_file`` if given (see :func:`game_files`)."""
    root = (folder or DEFAULT_CARDS).resolve()
    files = game_files("orbitus", root, deck_file)
    for path in files.values():
        if path.parent == root / "orbitus":
            inside(root, path)

    def planets() -> PlanetsFile:
        doc, model = _load(files["planets"], ORBITUS_FILES["planets"], PlanetsFile)
        problems = _duplicates(
            doc, "planet_types", [p.id for p in model.planet_types], "planet type"
        )
        if problems:
            raise DefinitionError(problems)
        return model

    planets_model, station, rules = collect(
        planets,
        lambda: _load(files["station"], ORBITUS_FILES["station"], StationFile)[1],
        lambda: _load(files["rules"], ORBITUS_FILES["rules"], RulesFile)[1],
    )
    sectors = load_sectors_file(inside(files["sectors"].parent, files["sectors"]), planets_model)
    return OrbitusDefinitions(planets_model, sectors, station, rules, root, files)


def load_satellites(folder: Path | None = None) -> SatellitesDefinitions:
    """Load and cross-check the Satellites definitions in ``folder`` (default: shipped)."""
    root = (folder or DEFAULT_CARDS).resolve()
    files = game_files("satellites", root)
    for path in files.values():
        inside(root, path)

    def satellites() -> SatellitesFile:
        doc, model = _load(files["satellites"], SATELLITES_FILES["satellites"], SatellitesFile)
        problems = []
        # both players have the same satellites (S-6); how many of each value is the
        # designer's to choose
        for value in SAT_VALUES:
            n = {colour: sum(e.count for e in model.satellites
                             if e.colour == colour and e.value == value)
                 for colour in ("red", "blue")}
            if n["red"] != n["blue"]:
                problems.append(format_problem(
                    doc, ("satellites",),
                    f"blue has {n['blue']} satellite(s) of value {value} and red has "
                    f"{n['red']}; both players have the same satellites (docs/rules/"
                    f"satellites.md S-6)"))
        if problems:
            raise DefinitionError(problems)
        return doc, model

    def rules() -> tuple[Document | None, SatRulesFile]:
        path = files["rules"]
        if not path.exists() and not path.is_symlink():
            return None, SatRulesFile()
        return _load(path, SATELLITES_FILES["rules"], SatRulesFile)

    board, (sdoc, sats), (tdoc, tracks), (rdoc, numbers) = collect(
        lambda: _load(files["board"], SATELLITES_FILES["board"], BoardFile)[1],
        satellites,
        lambda: _load(files["trackers"], SATELLITES_FILES["trackers"], TrackersFile),
        rules,
    )
    problems = _satellites_across(sats, tdoc, tracks, rdoc, numbers)
    if sats.diameter_mm > board.cell_mm:
        problems.append(format_problem(
            sdoc, ("diameter_mm",),
            f"{sats.diameter_mm:g} mm tokens do not fit the board's {board.cell_mm:g} mm "
            f"cells (satellites/board.yaml cell_mm); make them at most {board.cell_mm:g}"))
    for colour, player in (("red", board.red), ("blue", board.blue)):
        have = sum(e.count for e in sats.satellites if e.colour == colour)
        cells = len(player.edges) * board.setup_zone_cells
        if have != cells:
            problems.append(format_problem(
                sdoc, ("satellites",),
                f"{colour} has {have} satellites but {cells} start cells (setup_zone_cells "
                f"{board.setup_zone_cells} on each of its {len(player.edges)} edges in "
                f"satellites/board.yaml); the deal puts one satellite on every start cell "
                f"(docs/rules/satellites.md S-12)"))
    if problems:
        raise DefinitionError(problems)
    return SatellitesDefinitions(board, sats, tracks, root, numbers, files)


# The shipped games' loaders by name, for code that names them; every game's own way to its
# definitions is its ``cards`` adapter's ``load`` (:func:`cards.files.definitions_of`).
LOADERS: dict[str, Callable[..., Any]] = {"orbitus": load_orbitus,
                                          "satellites": load_satellites}


def _satellites_across(sats: SatellitesFile, tdoc: Document, tracks: TrackersFile,
                       rdoc: Document | None, numbers: SatRulesFile) -> list[str]:
    """What spans the Satellites files: the rule numbers against the satellites there are
    and against the trackers that print them."""
    problems: list[str] = []
    total = sum(e.count for e in sats.satellites)
    if rdoc is not None:
        for key in ("end_connected", "colony_max"):
            value = getattr(numbers, key)
            if value > total:
                problems.append(format_problem(
                    rdoc, (key,), f"{value} is more than the {total} satellites there are "
                    f"(satellites.yaml)"))
    marked = tracks.connected.marked
    if marked is not None and marked != [numbers.end_connected]:
        problems.append(format_problem(
            tdoc, ("connected", "marked"),
            f"{marked} disagrees with end_connected {numbers.end_connected} of "
            f"satellites/rules.yaml; the track marks the end count given there, so remove "
            f"marked (or make it [{numbers.end_connected}])"))
    steps = tracks.grace.steps
    if steps is not None and steps != numbers.grace_moves:
        problems.append(format_problem(
            tdoc, ("grace", "steps"),
            f"{steps} disagrees with grace_moves {numbers.grace_moves} of "
            f"satellites/rules.yaml; the track has as many steps as there are grace moves, so "
            f"remove steps (or make it {numbers.grace_moves})"))
    if tracks.connected.max < numbers.end_connected:
        problems.append(format_problem(
            tdoc, ("connected", "max"),
            f"{tracks.connected.max} is below end_connected {numbers.end_connected} of "
            f"satellites/rules.yaml; the track must reach the count that ends the game"))
    return problems
