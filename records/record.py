"""Game records: the YAML file both games share, and the dispatch to a game by ``game:``.

A record is a YAML mapping::

    game: satellites            # which game: satellites or orbitus
    players: {red: Anna, blue: Ben}   # optional; its form is the game's
    cards: my-game              # optional: the definitions folder (next to the record)
    design: v0.7.2·3fa9c1       # optional: the design it was played with (cards.design)
    seed: 42                    # or another way to give the start (the game's fields)
    note: club night, table 3   # optional free text, ignored
    moves:                      # the moves in the order they were made
      - c1-c4
      - a5-c5

What a move looks like, and which other fields there are, is up to the game: its
``records.replay`` adapter (:func:`rules.adapter`, by convention ``records.<game>_replay``:
``FIELDS`` and ``replay``). This module reads
the file (size limit, UTF-8, YAML syntax, line numbers via
:func:`cards.loader.parse_yaml`), checks the fields every record has and hands
the record to its game; the game returns a :class:`Replay`, rendered by
``pnp-replay``.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import rules
from cards.input_text import reshown, type_name
from rules.game import MAX_SEED

if TYPE_CHECKING:
    from cards.loader import Document
    from generator.drawing import Drawing

COMMON_FIELDS = ("game", "players", "moves", "note")
DEFINITIONS_FIELD = "cards"  # listed last among the known fields, with the design
DESIGN_FIELD = "design"
MAX_RECORD_BYTES = 2_000_000
WHAT = "a game record (YAML with game:, the start, and moves:)"


class RecordError(Exception):
    """The record cannot be replayed at all; ``problems`` holds one line each (exit 2)."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Item:
    """One entry of ``moves:`` as written: its position in the list, its line, its value."""

    index: int  # 0-based position in the list
    line: int
    value: Any


@dataclass
class Record:
    """A record read from a file, checked as far as every game's records go."""

    path: Path
    source: str  # the file as the user named it
    game: str
    doc: Document
    data: dict[str, Any]
    items: list[Item]  # the entries of moves:, in order
    # problems found so far (unknown fields ...): reported with the game's own, by line
    problems: list[str] = field(default_factory=list)

    def line(self, *loc: str | int) -> int:
        return self.doc.line_of(loc)

    def at(self, *loc: str | int) -> str:
        """``FILE:LINE`` of a field, for messages."""
        return f"{self.source}:{self.line(*loc)}"


@dataclass
class Illegal:
    """The first illegal move of a record."""

    number: int  # 1-based, counting every move in the record
    line: int
    text: str  # as written
    player: str
    reason: str
    legal: list[str]  # some of what was legal there, in notation
    legal_count: int  # how many legal moves there were in all (of ``legal_of``)
    legal_of: str  # whose legal moves ``legal`` lists, e.g. "R3 on c1" or "red"
    legal_in_reason: bool = False  # the reason lists them already (the summary skips them)

    def to_json(self) -> dict[str, Any]:
        return {
            "move": self.number,
            "line": self.line,
            "text": self.text,
            "player": self.player,
            "reason": self.reason,
            "legal_of": self.legal_of,
            "legal": self.legal,
            "legal_count": self.legal_count,
        }


@dataclass(frozen=True)
class Step:
    """One move replayed: its number, line and text as written, and the state after it."""

    number: int
    line: int
    text: str
    state: Any


@dataclass
class Replay(ABC):
    """A replayed record: how far it got, why it stopped, the position it reached.

    A game subclasses it and renders the reached position through its scorer.
    """

    game: str
    source: str
    players: dict[str, str]
    start: str  # how the game started, in words ("seed 42", "the board given in setup:")
    moves: int  # moves in the record
    played: int  # legal moves replayed
    over: bool
    message: str  # the state of the game after the last move replayed, one sentence
    illegal: Illegal | None = None
    last_line: int | None = None  # line of the last move replayed
    notes: list[str] = field(default_factory=list)
    design: dict[str, Any] | None = None  # the design replayed with (cards.design)
    design_note: str | None = None  # the record names another design, replayed on purpose
    start_state: Any = None  # the rules core's state before the first move
    history: list[Step] = field(default_factory=list)  # every move replayed, in order

    @property
    @abstractmethod
    def valid(self) -> bool:
        """The reached position breaks no rule (the scorer's verdict)."""

    @abstractmethod
    def score_json(self) -> dict[str, Any]:
        """The scorer's JSON object for the reached position."""

    @abstractmethod
    def score_summary(self, colour: bool) -> str:
        """The scorer's summary of the reached position."""

    @abstractmethod
    def picture(self) -> Drawing:
        """The scorer's picture of the reached position."""

    def legal_now(self) -> tuple[str, list[str]]:
        """Whose moves and every legal move in the reached position (for ``--legal``)."""
        return "", []

    def to_json(self) -> dict[str, Any]:
        out = self.score_json()
        out["replay"] = {
            "file": self.source,
            "game": self.game,
            "players": self.players,
            "start": self.start,
            "moves": self.moves,
            "played": self.played,
            "over": self.over,
            "message": self.message,
            "illegal": None if self.illegal is None else self.illegal.to_json(),
        }
        out["design"] = self.design
        return out


# --- reading ---------------------------------------------------------------------------------


def read_record(path: Path, shown: str | None = None) -> Record:
    """Read and check a record file (``-``: standard input); raise :class:`RecordError`."""
    from cards.loader import DefinitionError, parse_yaml

    shown = shown or _display(path)
    text = _read_text(path, shown)
    loader_path = path if str(path) != "-" else Path("<stdin>")
    try:
        doc = parse_yaml(text, loader_path, WHAT)
    except DefinitionError as exc:
        raise RecordError([reshown(p, loader_path, shown) for p in exc.problems]) from None
    doc.display = shown
    data = doc.data
    if not isinstance(data, dict):
        raise RecordError([f"{shown}:1: expected a mapping with game:, the start and moves:, "
                           f"got {type_name(data)}"])
    game = data.get("game")
    games = tuple(reversed(rules.names("records.replay")))  # the newest game first
    if "game" not in data:
        raise RecordError([f"{shown}:1: game: is required; write "
                           f"{rules.listed(tuple(f'game: {g}' for g in games), 'or')}"])
    if not isinstance(game, str) or game.strip().lower() not in games:
        raise RecordError([f"{shown}:{doc.line_of(('game',))}: game: {game!r} is not a game "
                           f"this tool knows; write {rules.listed(games, 'or')}"])
    game = game.strip().lower()
    module = game_module(game, shown)
    known = COMMON_FIELDS + tuple(getattr(module, "FIELDS", ())) + (DEFINITIONS_FIELD,
                                                                      DESIGN_FIELD)
    from cards.spelling import did_you_mean

    problems = [
        f"{shown}:{doc.line_of((key,))}: unknown field {str(key)!r} "
        f"({'an' if game[0] in 'aeiou' else 'a'} {game} record has: {', '.join(known)})"
        f"{did_you_mean(str(key), known, quote=True)}"
        for key in data if key not in known
    ]
    note = data.get("note")
    if note is not None and not isinstance(note, str | int | float):
        problems.append(f"{shown}:{doc.line_of(('note',))}: note: expected text, got "
                        f"{type_name(note)}")
    moves = data.get("moves")
    items: list[Item] = []
    if moves is None:
        pass  # "moves:" with nothing after it, or no moves at all: the start position
    elif not isinstance(moves, list):
        problems.append(f"{shown}:{doc.line_of(('moves',))}: moves: expected a list, one move "
                        f"per line starting with '- ', got {type_name(moves)}")
    else:
        items = [Item(i, doc.line_of(("moves", i)), value) for i, value in enumerate(moves)]
    return Record(path, shown, game, doc, data, items, problems)


def game_module(game: str, shown: str = "") -> ModuleType:
    """The game's ``records.replay`` adapter (imported only when a record of that game is
    read)."""
    return rules.adapter(game, "records.replay")


def seed_of(record: Record, problems: list[str]) -> int | None:
    """The record's ``seed:`` (the N of ``pnp-setup GAME --seed N``); None, with the problem
    added to ``problems``, when it is not a whole number from 0 to :data:`MAX_SEED`."""
    seed = record.data["seed"]
    if type(seed) is int and 0 <= seed <= MAX_SEED:
        return seed
    why = ""
    if isinstance(seed, str) and seed.strip().isdigit() and seed.strip().startswith("0"):
        why = (f" (a number written with a leading 0 is read as text, since YAML readers "
               f"disagree about it; write {int(seed.strip())})")
    problems.append(f"{record.at('seed')}: seed: must be a whole number from 0 to "
                           f"{MAX_SEED} (the N of pnp-setup {record.game} --seed N), got "
                           f"{seed!r}{why}")
    return None


def definitions_folder(record: Record) -> Path | None:
    """The definitions folder a record names with ``cards:`` (relative to the record's own
    folder, and inside it), or None; :class:`RecordError` when it names no such folder."""
    given = record.data.get(DEFINITIONS_FIELD)
    if given is None:
        return None
    where = record.at(DEFINITIONS_FIELD)
    if not isinstance(given, str) or not given.strip():
        raise RecordError([f"{where}: cards: expected a definitions folder next to the record "
                           f"(e.g. cards: my-game), got {type_name(given)}"])
    base = (Path.cwd() if str(record.path) == "-" else record.path.resolve().parent).resolve()
    target = (base / given.strip()).resolve()
    if not target.is_relative_to(base):
        raise RecordError([f"{where}: cards: {given!r} lies outside the record's folder {base}; "
                           f"put the definitions in that folder (or below it) and name them "
                           f"relative to it"])
    if not (target / record.game).is_dir():
        from cards.loader import display_path

        raise RecordError([f"{where}: cards: {given!r} is not a definitions folder with a "
                           f"{record.game}/ folder ({display_path(target)}); pnp-build init "
                           f"makes one"])
    return target


def replay(record: Record, cards: Path | None = None, until: int | None = None,
           override: bool = False, explicit: bool = False) -> Replay:
    """Replay ``record`` with its game's engine (the first ``until`` moves if given); the
    definitions come from the record's ``cards:`` folder, else from ``cards``, else the
    shipped ones; ``override`` (a comparison of versions) or ``explicit`` (``--cards`` given
    on purpose): from ``cards``, whatever the record names.

    A record that names its ``design:`` is replayed only with definitions of that design
    (:func:`cards.design_check.check`): others are refused, both named, unless ``explicit``
    (then :attr:`Replay.design_note` says they differ)."""
    from cards.design_check import check

    module = game_module(record.game, record.source)
    try:
        named = definitions_folder(record)
        if not ((override or explicit) and cards is not None):
            cards = named or cards
        checked = check(record.at(DESIGN_FIELD), record.data.get(DESIGN_FIELD), record.game,
                        cards, explicit or override) if DESIGN_FIELD in record.data \
            else None
        if checked is not None and checked.problem:
            raise RecordError([checked.problem])
        result: Replay = module.replay(record, cards, until)
    except RecordError as exc:
        raise RecordError(by_line(record.problems + exc.problems)) from None
    if record.problems:
        raise RecordError(by_line(record.problems))
    from cards.design_cache import design

    result.design = design(record.game, cards).to_json()
    if checked is not None and checked.note and not override:
        result.design_note = checked.note
    return result


def by_line(problems: list[str]) -> list[str]:
    """Problems in the order of their line in the file (those without a line first)."""

    def line(problem: str) -> int:
        match = _LINE.match(problem)
        return int(match.group(1)) if match else 0

    return sorted(dict.fromkeys(problems), key=line)


_LINE = re.compile(r"^[^\n]*?:(\d+): ")


def _display(path: Path) -> str:
    if str(path) == "-":
        return "<stdin>"
    from cards.loader import display_path

    return display_path(path)


def _read_text(path: Path, shown: str) -> str:
    from cards.input_text import read_input_text

    return read_input_text(
        path, shown, WHAT, MAX_RECORD_BYTES,
        f"larger than {MAX_RECORD_BYTES // 1_000_000} MB; a game record is a page of text, "
        "is this the right file?", RecordError)
