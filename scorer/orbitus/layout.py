"""Read a transcribed Orbitus table (a layout YAML file) into a :class:`Layout`: the rules
core's :class:`~rules.orbitus.table.Table` with where it came from and what was wrong.

A layout names the players in seat order, optionally the station's start lines
and barriers and its definitions (``cards:``, a definitions folder or a deck file
whose folder brings its planet types and rules along), and every sector on the
table: either a deck card with its rotation, or an inline sector with its routes
as they lie.

Problems that leave nothing to score (not a mapping, no ``players`` or
``sectors`` list, another game, a deck path outside the layout's folder) raise
:class:`cards.loader.UnreadableInput`. Everything else becomes a
:class:`Finding` (a rule violation with its cell and line) and the layout keeps
what can still be scored, so scores are computed best-effort.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cards.loader import Document, UnreadableInput, display_path
from cards.safe_text import has_control, printable
from cards.spelling import closest, did_you_mean
from rules.hexgeo import SIDE_INDEX, SIDES, Hex, RotationError, parse_rotation
from rules.orbitus.ruleset import Ruleset
from rules.orbitus.table import STATION, Finding, Sector, Table, cell_text

__all__ = ["STATION", "Finding", "Layout", "Sector", "cell_text", "closest", "deck_path",
           "parse_layout", "read_players_and_station"]
TOP_KEYS = ("game", "players", "start_lines", "barriers", "cards", "design", "sectors")
SECTOR_KEYS = ("at", "card", "rot", "routes", "planet", "pirate")
SIDE_LIST = "N, NE, SE, S, SW or NW"
_SIDES_OF = [frozenset(s for s in range(6) if m >> s & 1) for m in range(64)]


@dataclass(frozen=True, slots=True)
class Layout(Table):
    """A table read from a layout file: the rules core's table, the file as the user named
    it, the deck file as messages name it, and the problems found while reading it."""

    source: str = ""
    findings: tuple[Finding, ...] = ()
    deck_file: str = ""

    @classmethod
    def of(cls, table: Table, source: str = "", deck_file: str = "",
           findings: tuple[Finding, ...] = ()) -> Layout:
        """A table (of a game, say) as if read from ``source``."""
        return cls(table.players, table.start_lines, table.barriers, table.sectors,
                   table.planet_types, source, findings, deck_file)


# --- the parts of the file that must be right before anything can be scored -----------


def deck_path(doc: Document) -> Path | None:
    """The definitions a layout names with ``cards:`` (a definitions folder laid out like
    ``cards/``, or a deck file), resolved inside the layout's folder.

    Also checks what the whole file needs (a mapping, the right game, the required
    lists), raising :class:`UnreadableInput` with the line when it is missing.
    """
    data = doc.data
    if not isinstance(data, dict):
        raise UnreadableInput(
            [f"{doc.display}:{doc.line_of(())}: expected a mapping with players and sectors "
             f"at the top level (see 'pnp-score orbitus --help'), got {_kind(data)}"]
        )
    game = data.get("game", "orbitus")
    if not (isinstance(game, str) and game.strip().lower() == "orbitus"):
        hint = (
            "; score it with 'pnp-score satellites'"
            if isinstance(game, str) and game.strip().lower() == "satellites"
            else ""
        )
        raise UnreadableInput(
            [f"{doc.where(('game',))}: game: this is a layout for {game!r}, "
             f"not for orbitus{hint}"]
        )
    problems = []
    for key, example in (("players", "players: [Anna, Boris]"),
                         ("sectors", "sectors: [{at: [0, -1], card: S07, rot: 2}]")):
        if key not in data:
            problems.append(
                f"{doc.display}:{doc.line_of(())}: {key}: is required but missing "
                f"(e.g. {example})"
            )
        elif not isinstance(data[key], list):
            problems.append(
                f"{doc.where((key,))}: {key}: expected a list, got {_kind(data[key])} "
                f"(e.g. {example})"
            )
    if problems:
        raise UnreadableInput(problems)
    if "cards" not in data or data["cards"] is None:
        return None
    given = data["cards"]
    where = doc.where(("cards",))
    if not isinstance(given, str) or not given.strip():
        raise UnreadableInput(
            [f"{where}: cards: expected a definitions folder or a deck file next to the "
             f"layout (e.g. cards: my-game or cards: my-deck.yaml), got {given!r}"]
        )
    folder = doc.path.resolve().parent
    target = (folder / given.strip()).resolve()
    if not target.is_relative_to(folder):
        raise UnreadableInput(
            [f"{where}: cards: {given!r} lies outside the layout's folder {folder}; "
             f"put the definitions in that folder (or below it) and name them relative to it"]
        )
    if target.is_dir():
        if not (target / "orbitus").is_dir():
            raise UnreadableInput(
                [f"{where}: cards: {given!r} is a folder without an orbitus/ folder "
                 f"({display_path(target)}); name a definitions folder laid out like cards/ "
                 f"(pnp-build init makes one) or a deck file"]
            )
        return target
    if not target.is_file():
        raise UnreadableInput(
            [f"{where}: cards: {given!r}: file not found ({display_path(target)}); expected a "
             f"definitions folder or a deck file laid out like cards/orbitus/sectors.yaml"]
        )
    return target


def _value(value: object) -> str:
    """A value as the YAML file shows it (true, null, 'text', 1.5); a word YAML readers
    disagree about (``no``, ``07``) with the reason."""
    why = getattr(value, "why", "")
    if why:
        return f"{value} ({why})"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return repr(value)


def _kind(value: object) -> str:
    if value is None:
        return "nothing"
    return {dict: "a mapping", list: "a list", str: "text", bool: "true/false",
            int: "a number", float: "a number"}.get(type(value), type(value).__name__)


# --- the layout ------------------------------------------------------------------------


class _Reader:
    def __init__(self, doc: Document, ruleset: Ruleset, deck_file: str = "") -> None:
        self.doc = doc
        self.ruleset = ruleset
        self.deck_file = deck_file
        self.findings: list[Finding] = []

    def add(self, rule: str, cell: Hex | None, message: str, loc: tuple[str | int, ...]) -> None:
        self.findings.append(Finding(rule, cell, message, self.doc.line_of(loc)))

    # players -----------------------------------------------------------------------

    def players(self, value: list[Any]) -> tuple[str, ...]:
        names: list[str] = []
        for i, item in enumerate(value):
            name = str(item) if type(item) is int else item
            if not isinstance(name, str) or not name.strip():
                self.add("players-format", None,
                         f"players: entry {i + 1} ({_value(item)}) is not a name; write each "
                         f"player's name as text, in seat order", ("players", i))
                continue
            name = name.strip()
            if has_control(name):
                name = printable(name)
                self.add("players-format", None,
                         f"players: entry {i + 1} ({name}) holds a control character (shown "
                         f"escaped); a name is plain text on one line", ("players", i))
            if name in names:
                self.add("players-format", None,
                         f"players: {name!r} is listed twice; every player needs their own name",
                         ("players", i))
                continue
            names.append(name)
        if not 2 <= len(names) <= 6:
            self.add("player-count", None,
                     f"players: {len(names)} player(s) listed; Orbitus is played by 2 to 6",
                     ("players",))
        return tuple(names)

    # station sides -------------------------------------------------------------------

    def side(self, value: object, loc: tuple[str | int, ...], what: str) -> int | None:
        if isinstance(value, str) and value.strip().upper() in SIDE_INDEX:
            return SIDE_INDEX[value.strip().upper()]
        hint = did_you_mean(value, SIDES) if isinstance(value, str) else ""
        self.add("unknown-direction", STATION,
                 f"{what}: {_value(value)} is not a direction; use {SIDE_LIST}{hint}", loc)
        return None

    def station(self, data: dict[str, Any], players: tuple[str, ...]) -> tuple[dict[int, int],
                                                                                frozenset[int]]:
        owner: dict[int, int] = {}
        given_by: dict[int, str] = {}
        lines = data.get("start_lines")
        if lines is not None and not isinstance(lines, dict):
            fallback = (
                "the default start lines were used"
                if self.ruleset.setup_for(len(players)) is not None
                else f"there are no default start lines for {len(players)} players"
            )
            self.add("start-lines-format", STATION,
                     f"start_lines: expected a mapping of player name to sides, "
                     f"e.g. {{Anna: [N, NE, SE]}}, got {_kind(lines)}; {fallback}",
                     ("start_lines",))
            lines = None
        if isinstance(lines, dict):
            for name, sides in lines.items():
                loc: tuple[str | int, ...] = ("start_lines", name)
                key = str(name)
                if key not in players:
                    self.add("unknown-player", STATION,
                             f"start_lines: {key!r} is not one of the players "
                             f"({', '.join(players)}){did_you_mean(key, players)}", loc)
                    continue
                seat = players.index(key)
                items = sides if isinstance(sides, list) else [sides]
                for j, item in enumerate(items):
                    at = (*loc, j) if isinstance(sides, list) else loc
                    side = self.side(item, at, f"start_lines: {key}")
                    if side is None:
                        continue
                    if side in owner:
                        self.add("side-twice", STATION,
                                 f"start_lines: the station's {SIDES[side]} side is given to "
                                 f"{given_by[side]} and to {key}; each side is one player's "
                                 f"start line or a barrier", at)
                        continue
                    owner[side] = seat
                    given_by[side] = key
            for seat, name in enumerate(players):
                if seat not in owner.values():
                    self.add("no-start-line", STATION,
                             f"start_lines: {name} has no start line; give every player "
                             f"at least one side of the station", ("start_lines",))
        else:
            setup = self.ruleset.setup_for(len(players))
            if setup is not None:
                for seat, sides in enumerate(setup.start_lines):
                    for side in sides:
                        owner[side] = seat
                        given_by[side] = players[seat]
        barriers = data.get("barriers")
        if barriers is not None:
            items = barriers if isinstance(barriers, list) else [barriers]
            seen: set[int] = set()
            for j, item in enumerate(items):
                at = ("barriers", j) if isinstance(barriers, list) else ("barriers",)
                side = self.side(item, at, "barriers")
                if side is None:
                    continue
                if side in owner:
                    self.add("side-twice", STATION,
                             f"barriers: the station's {SIDES[side]} side is {given_by[side]}'s "
                             f"start line and also listed as a barrier; a side is one or the "
                             f"other", at)
                elif side in seen:
                    self.add("side-twice", STATION,
                             f"barriers: the station's {SIDES[side]} side is listed twice", at)
                seen.add(side)
        return owner, frozenset(s for s in range(6) if s not in owner)

    # sectors -------------------------------------------------------------------------

    def sectors(self, items: list[Any]) -> dict[Hex, Sector]:
        placed: dict[Hex, Sector] = {}
        copies: dict[str, list[Sector]] = {}
        deck = self.ruleset.cards
        planet_types = self.ruleset.planet_types
        for i, item in enumerate(items):
            loc: tuple[str | int, ...] = ("sectors", i)
            if not isinstance(item, dict):
                self.add("sector-format", None,
                         f"sector #{i + 1}: expected a mapping like {{at: [1, -1], card: S07, "
                         f"rot: 2}} or {{at: [1, -1], routes: [SW, NW], planet: ice}}, "
                         f"got {_kind(item)}", loc)
                continue
            for key in item:
                if key not in SECTOR_KEYS:
                    self.add("unknown-field", None,
                             f"sector #{i + 1}: unknown field {key!r} was ignored (known: "
                             f"{', '.join(SECTOR_KEYS)}){did_you_mean(str(key), SECTOR_KEYS)}",
                             (*loc, key))
            cell = self.cell(item, i)
            if cell is None:
                continue
            where = cell_text(cell)
            line = self.doc.line_of(loc)
            if cell == STATION:
                self.add("station-cell", cell,
                         f"sector #{i + 1} is placed at [0, 0], the station's cell; sectors go "
                         f"around the station. It was left out of the score", (*loc, "at"))
                continue
            if "card" in item:
                sector = self.card(item, i, cell)
            else:
                sector = self.inline(item, i, cell, planet_types)
            if sector is None:
                continue
            if cell in placed:
                first = placed[cell]
                second = f"{sector.card} " if sector.card else ""
                self.add("cell-taken", cell,
                         f"two sectors on cell {where}: {first.label} (line {first.line}) and "
                         f"sector #{i + 1} {second}(line {line}); a cell holds one sector, so "
                         f"the second was left out of the score", (*loc, "at"))
                continue
            placed[cell] = sector
            if sector.card is not None:
                copies.setdefault(sector.card, []).append(sector)
        for ident, uses in copies.items():
            held = deck[ident].count
            if len(uses) > held:
                cells = ", ".join(cell_text(s.cell) for s in uses)
                for extra in uses[held:]:
                    self.add("too-many-copies", extra.cell,
                             f"card {ident} is placed {len(uses)} times ({cells}) but the deck "
                             f"holds {held} cop{'y' if held == 1 else 'ies'}; the one at "
                             f"{cell_text(extra.cell)} is one too many",
                             ("sectors", extra.order, "card"))
        return placed

    def cell(self, item: dict[str, Any], i: int) -> Hex | None:
        loc = ("sectors", i, "at")
        if "at" not in item:
            self.add("bad-at", None,
                     f"sector #{i + 1} has no 'at'; give its cell as at: [q, r] (two whole "
                     f"numbers, the station at [0, 0])", ("sectors", i))
            return None
        at = item["at"]
        if (
            isinstance(at, list)
            and len(at) == 2
            and all(type(v) is int for v in at)
        ):
            return (at[0], at[1])
        self.add("bad-at", None,
                 f"sector #{i + 1}: at: {_value(at)} is not a cell; write two whole numbers [q, r] "
                 f"(axial coordinates, the station at [0, 0]). It was left out of the score", loc)
        return None

    def card(self, item: dict[str, Any], i: int, cell: Hex) -> Sector | None:
        loc: tuple[str | int, ...] = ("sectors", i)
        where = cell_text(cell)
        ident = item["card"]
        if type(ident) is int:
            ident = str(ident)
        extra = [k for k in ("routes", "planet", "pirate") if k in item]
        if extra:
            self.add("sector-format", cell,
                     f"sector at {where}: a deck card takes its routes and centre from the deck; "
                     f"remove {', '.join(extra)} (or remove card for an inline sector). The "
                     f"card was used", (*loc, extra[0]))
        deck = self.ruleset.cards
        if not isinstance(ident, str) or ident not in deck:
            text = ident if isinstance(ident, str) else _value(ident)
            hint = did_you_mean(text, deck) if isinstance(ident, str) else ""
            if isinstance(ident, str):
                text = repr(printable(ident))  # quoted: ' S44' shows its space
            self.add("unknown-card", cell,
                     f"sector at {where}: card {text} is not in the deck "
                     f"({self.deck_file}), so it was left out of the score{hint}",
                     (*loc, "card"))
            return None
        card = deck[ident]
        rot = self.rotation(item.get("rot", 0), (*loc, "rot"), cell)
        if rot is None:
            return None
        return Sector(cell, _SIDES_OF[card.masks[rot]], card.planet, card.pirate,
                      ident, rot, self.doc.line_of(loc), i)

    def rotation(self, value: object, loc: tuple[str | int, ...], cell: Hex) -> int | None:
        where = cell_text(cell)
        try:
            return parse_rotation(value)
        except RotationError as exc:
            kind = exc.kind
        if kind == "direction":
            assert isinstance(value, str)
            self.add("unknown-direction", cell,
                     f"sector at {where}: rot: {value!r} is not a direction, so the sector was "
                     f"left out of the score; give the direction the card's orientation marker "
                     f"points to ({SIDE_LIST}) or 0-5{did_you_mean(value, SIDES)}", loc)
            return None
        problem = "is out of range" if kind == "range" else "is not a rotation"
        if isinstance(value, str) and kind == "range":
            text = value.strip()
            value = int(text) if len(text) <= 12 else f"{text[:12]}…"
        self.add("bad-rot", cell,
                 f"sector at {where}: rot: {_value(value)} {problem}, so the sector was left out "
                 f"of the score; use 0-5 (how many 60° steps clockwise the card is turned) or the "
                 f"direction its orientation marker points to ({SIDE_LIST})", loc)
        return None

    def inline(self, item: dict[str, Any], i: int, cell: Hex,
               planet_types: tuple[str, ...]) -> Sector | None:
        loc: tuple[str | int, ...] = ("sectors", i)
        where = cell_text(cell)
        if "routes" not in item:
            self.add("sector-format", cell,
                     f"sector at {where}: give either card: ID (a deck card, with rot) or routes: "
                     f"[...] (an inline sector, routes as it lies). It was left out of the score",
                     loc)
            return None
        given = item["routes"]
        if given is None:
            given = []
        if not isinstance(given, list):
            given = [given]
        routes: set[int] = set()
        for j, value in enumerate(given):
            at = (*loc, "routes", j)
            if isinstance(value, str) and value.strip().upper() in SIDE_INDEX:
                side = SIDE_INDEX[value.strip().upper()]
                if side in routes:
                    self.add("sector-format", cell,
                             f"sector at {where}: routes: side {SIDES[side]} is listed twice",
                             at)
                routes.add(side)
            else:
                hint = did_you_mean(value, SIDES) if isinstance(value, str) else ""
                self.add("unknown-direction", cell,
                         f"sector at {where}: routes: {_value(value)} is not a direction, so that "
                         f"route was left out; use {SIDE_LIST}{hint}", at)
        if "rot" in item:
            self.add("sector-format", cell,
                     f"sector at {where}: rot is for deck cards; an inline sector's routes are "
                     f"written as it lies on the table. rot was ignored", (*loc, "rot"))
        planet = item.get("planet")
        if type(planet) is int:
            planet = str(planet)
        if planet is not None and not isinstance(planet, str):
            self.add("unknown-planet", cell,
                     f"sector at {where}: planet: {_value(planet)} is not a planet type, so it was "
                     f"scored as void (known: {', '.join(planet_types)})", (*loc, "planet"))
            planet = None
        elif planet is not None and planet not in planet_types:
            self.add("unknown-planet", cell,
                     f"sector at {where}: planet: {planet!r} is not a planet type (known: "
                     f"{', '.join(planet_types)}); it was scored as a group of its own"
                     f"{did_you_mean(planet, planet_types)}", (*loc, "planet"))
        pirate = item.get("pirate", False)
        if pirate is None:
            pirate = False
        if type(pirate) is not bool:
            self.add("sector-format", cell,
                     f"sector at {where}: pirate: expected true or false, got {_value(pirate)}, so "
                     f"it was read as false", (*loc, "pirate"))
            pirate = False
        if pirate and planet is not None:
            self.add("sector-format", cell,
                     f"sector at {where}: a centre holds a planet or a pirate, not both. It was "
                     f"scored as a planet", (*loc, "pirate"))
            pirate = False
        return Sector(cell, frozenset(routes), planet, pirate, None, 0, self.doc.line_of(loc), i)


def parse_layout(doc: Document, ruleset: Ruleset, deck_file: str) -> Layout:
    """The table a layout document describes, and every violation found while reading it
    (``deck_file``: the deck as messages name it).

    Call :func:`deck_path` first: it checks what the whole file needs.
    """
    data: dict[str, Any] = doc.data
    reader = _Reader(doc, ruleset, deck_file)
    for key in data:
        if key not in TOP_KEYS:
            reader.add("unknown-field", None,
                       f"unknown field {key!r} at the top level was ignored (known: "
                       f"{', '.join(TOP_KEYS)}){did_you_mean(str(key), TOP_KEYS)}", (key,))
    players = reader.players(data["players"])
    start_lines, barriers = reader.station(data, players)
    sectors = reader.sectors(data["sectors"])
    return Layout(
        players=players,
        start_lines=start_lines,
        barriers=barriers,
        sectors=sectors,
        planet_types=ruleset.planet_types,
        source=doc.display,
        findings=tuple(reader.findings),
        deck_file=deck_file,
    )


def read_players_and_station(
    doc: Document, ruleset: Ruleset
) -> tuple[tuple[str, ...], dict[int, int], frozenset[int], tuple[Finding, ...]]:
    """The ``players`` list and the station (``start_lines``, ``barriers``) of a document
    whose top level uses the layout's keys (a game record does), read exactly as a layout's
    are: the players in seat order, station side -> seat, the barrier sides, and every
    problem found (with its line). ``players`` must be a list (see :func:`deck_path`)."""
    reader = _Reader(doc, ruleset)
    players = reader.players(doc.data["players"])
    start_lines, barriers = reader.station(doc.data, players)
    return players, start_lines, barriers, tuple(reader.findings)
