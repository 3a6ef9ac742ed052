"""Load a definitions folder (laid out like ``cards/``) into validated models.

``load_orbitus(folder)`` and ``load_satellites(folder)`` read every file of a
game, validate each against its model, then check what spans files (planet
types used by sectors, duplicate IDs, satellite counts). All problems found are
raised together in one :class:`~cards.loader.DefinitionError`, one line each.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
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
    collect,
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
from cards.reading import inside

if TYPE_CHECKING:
    from cards.design import Design
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
    def design(self) -> Design:
        """The version of these definitions: the designer's ``version:`` and their hash."""
        from cards.design import design_of

        return design_of(self)

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

    @cached_property
    def design(self) -> Design:
        """The version of these definitions: the designer's ``version:`` and their hash."""
        from cards.design import design_of

        return design_of(self)


# The parsed files to use instead of reading them, by role (a spreadsheet being imported
# gives its sheets as documents whose places are cells: one validation path for both).
Documents = Mapping[str, Document]


def _load(path: Path, what: str, model: type[M], given: Document | None = None
          ) -> tuple[Document, M]:
    doc = given if given is not None else load_yaml(inside(path.parent, path), what)
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
                    f"duplicate {what} ID {ident!r} (first used on "
                    f"{doc.place((key, first[ident]))}); every {what} needs its own ID",
                )
            )
        else:
            first[ident] = i
    return problems


def load_sectors_file(path: Path, planets: PlanetsFile, given: Document | None = None
                      ) -> SectorsFile:
    """Load one sector deck file (or the document ``given`` for it) and check it against
    ``planets``."""
    doc = given if given is not None else load_yaml(path, ORBITUS_FILES["sectors"])
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


def load_orbitus(folder: Path | None = None, deck_file: Path | None = None,
                 documents: Documents | None = None) -> OrbitusDefinitions:
    """Load and cross-check the Orbitus definitions in ``folder`` (default: shipped), with
    the deck ``deck_file`` if given (see :func:`game_files`); ``documents`` are parsed files
    to use instead of the folder's, by role."""
    root = (folder or DEFAULT_CARDS).resolve()
    files = game_files("orbitus", root, deck_file)
    given = documents or {}
    for role, path in files.items():
        if path.parent == root / "orbitus" and role not in given:
            inside(root, path)

    def planets() -> PlanetsFile:
        doc, model = _load(files["planets"], ORBITUS_FILES["planets"], PlanetsFile,
                           given.get("planets"))
        problems = _duplicates(
            doc, "planet_types", [p.id for p in model.planet_types], "planet type"
        )
        if problems:
            raise DefinitionError(problems)
        return model

    planets_model, station, rules = collect(
        planets,
        lambda: _load(files["station"], ORBITUS_FILES["station"], StationFile,
                      given.get("station"))[1],
        lambda: _load(files["rules"], ORBITUS_FILES["rules"], RulesFile, given.get("rules"))[1],
    )
    sectors = load_sectors_file(files["sectors"] if "sectors" in given else
                                inside(files["sectors"].parent, files["sectors"]),
                                planets_model, given.get("sectors"))
    return OrbitusDefinitions(planets_model, sectors, station, rules, root, files)


def load_satellites(folder: Path | None = None, documents: Documents | None = None
                    ) -> SatellitesDefinitions:
    """Load and cross-check the Satellites definitions in ``folder`` (default: shipped);
    ``documents`` are parsed files to use instead of the folder's, by role."""
    root = (folder or DEFAULT_CARDS).resolve()
    files = game_files("satellites", root)
    given = documents or {}
    for role, path in files.items():
        if role not in given:
            inside(root, path)

    def satellites() -> SatellitesFile:
        doc, model = _load(files["satellites"], SATELLITES_FILES["satellites"], SatellitesFile,
                           given.get("satellites"))
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
        if "rules" not in given and not path.exists() and not path.is_symlink():
            return None, SatRulesFile()
        return _load(path, SATELLITES_FILES["rules"], SatRulesFile, given.get("rules"))

    board, (sdoc, sats), (tdoc, tracks), (rdoc, numbers) = collect(
        lambda: _load(files["board"], SATELLITES_FILES["board"], BoardFile,
                      given.get("board"))[1],
        satellites,
        lambda: _load(files["trackers"], SATELLITES_FILES["trackers"], TrackersFile,
                      given.get("trackers")),
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
