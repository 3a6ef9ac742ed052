"""A Satellites board as transcribed by a player: reading the text grid or the YAML form.

The text grid has one line per row, north (row 1) to south, and one
whitespace-separated token per cell, west (column a) to east::

    .  .  R3 .  .
    .  B2 R1 .  .

``.`` is an empty cell, ``R1``-``R4`` a red satellite, ``B1``-``B4`` a blue one
(the values are the ruleset's; lower case is accepted). Blank lines and ``#``
comments are ignored. The YAML form is ``{game: satellites, board: |<the same
grid>}`` with an optional ``grace_moves_left`` (0 to the ruleset's grace moves).

Problems fall in two kinds, as the exit codes do:

* :class:`InputError` - the file cannot be read as a board at all (missing,
  not text, broken YAML, no rows, a wrong field): exit 2, nothing scored;
* board-level :class:`~pnp.common.Violation` s - an unknown token, rows of
  different lengths, a board that is not square or out of range: the board
  is still scored (unknown tokens count as empty cells, short rows are padded
  with empty cells) and marked not valid.

Only the YAML form imports PyYAML; the text grid needs nothing beyond the
standard library, so scoring stays fast.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cards.input_text import reshown, type_name
from cards.safe_text import split_lines
from rules.satellites.analysis import spoken_list
from rules.satellites.ruleset import BLUE, COLOURS, RED
from rules.satellites.table import cell_name, column_name, parse_cell
from scorer.violation import Violation

if TYPE_CHECKING:
    from rules.satellites.ruleset import Ruleset

__all__ = ["BLUE", "COLOURS", "RED", "Board", "InputError", "Satellite", "Transcript",
           "cell_name", "column_name", "parse_cell", "parse_grid", "read_input",
           "read_string"]

MIN_SIZE = 5
MAX_SIZE = 26
# beyond this the input is not a transcription of a board at all: refuse it (exit 2)
HARD_LIMIT = 100
MAX_FILE_BYTES = 1_000_000

EMPTY = "."
WHAT = "a Satellites board (a text grid, or YAML with game: satellites and board: |)"
YAML_FIELDS = ("game", "cards", "design", "board", "grace_moves_left")


@dataclass(frozen=True, slots=True)
class Satellite:
    """One satellite on the board: its colour (``red``/``blue``) and value (1-4)."""

    colour: str
    value: int

    @property
    def token(self) -> str:
        return f"{self.colour[0].upper()}{self.value}"


Row = tuple[Satellite | None, ...]


@dataclass(frozen=True)
class Board:
    """The cells row by row, north to south, each row west to east; ``None`` is empty.

    Always rectangular (the reader pads ragged rows); a valid board is square.
    """

    rows: tuple[Row, ...]

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0]) if self.rows else 0

    @property
    def square(self) -> bool:
        return self.width == self.height

    def satellites(self) -> list[tuple[int, int, Satellite]]:
        """``(row, column, satellite)`` for every satellite, in reading order (0-based)."""
        return [
            (r, c, sat)
            for r, row in enumerate(self.rows)
            for c, sat in enumerate(row)
            if sat is not None
        ]

    @classmethod
    def from_tokens(cls, grid: list[list[str]]) -> Board:
        """A board from rows of tokens (for tests and tools): ``.``, ``R`` or ``B`` and a
        value; anything else is refused."""
        rows = []
        for row in grid:
            cells: list[Satellite | None] = []
            for token in row:
                match = _ANY_TOKEN.match(token)
                if match is None:
                    raise ValueError(f"{token!r} is not a Satellites token")
                colour, value = match.groups()
                cells.append(None if colour is None else
                             Satellite(RED if colour in "Rr" else BLUE, int(value)))
            rows.append(tuple(cells))
        return cls(tuple(rows))

    @classmethod
    def from_cells(cls, rows: int, cols: int, cells: Sequence[int]) -> Board:
        """A board from signed values per cell (``+v`` red, ``-v`` blue, ``0`` empty), as
        the rules core writes a position."""
        return cls(tuple(
            tuple(None if s == 0 else Satellite(RED, s) if s > 0 else Satellite(BLUE, -s)
                  for s in cells[r * cols:(r + 1) * cols])
            for r in range(rows)))

    def cells(self) -> list[int]:
        """The board as signed values per cell, row by row (the rules core's form)."""
        return [0 if s is None else s.value if s.colour == RED else -s.value
                for row in self.rows for s in row]

    def to_text(self) -> str:
        """The board as a text grid the reader accepts."""
        return "".join(
            " ".join(EMPTY if s is None else s.token for s in row) + "\n" for row in self.rows
        )


@dataclass(frozen=True)
class Transcript:
    """What the reader got from one input: the board, its board-level problems, extras."""

    board: Board
    problems: tuple[Violation, ...]
    grace_moves_left: int | None
    source: str
    cards: Path | None = None  # the definitions folder the file names (cards:)
    design: object = None  # the design the file names (design:), as written
    design_at: str = ""  # FILE:LINE of design:


class InputError(Exception):
    """The input cannot be read as a board; ``problems`` holds one line each."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


# --- tokens -------------------------------------------------------------------------

_ANY_TOKEN = re.compile(r"^(?:\.|([RrBb])([1-9][0-9]?))$")


def token_table(values: Sequence[int]) -> dict[str, Satellite | None]:
    """Every token a board may hold with these satellite values, upper and lower case."""
    out: dict[str, Satellite | None] = {EMPTY: None}
    for colour in COLOURS:
        for value in values:
            sat = Satellite(colour, value)
            out[sat.token] = sat
            out[sat.token.lower()] = sat
    return out


def values_said(values: Sequence[int]) -> str:
    """``1 to 4`` (or ``1, 2 or 5`` when the values have gaps)."""
    ordered = sorted(values)
    if ordered == list(range(ordered[0], ordered[-1] + 1)) and len(ordered) > 2:
        return f"{ordered[0]} to {ordered[-1]}"
    return spoken_list(ordered)


def _shown(token: str) -> str:
    """A token quoted for a message, safe for a terminal and not too long."""
    short = token if len(token) <= 12 else token[:12] + "…"
    return repr(short) if not short.isprintable() or "'" in short else f"'{short}'"


def _unknown_message(token: str, line: int, values: Sequence[int]) -> str:
    upper = token.upper()
    lo, hi = min(values), max(values)
    if len(upper) >= 2 and upper[0] in "RB" and upper[1:].isdigit():
        colour = RED if upper[0] == "R" else BLUE
        return (
            f"{_shown(token)} (line {line}) is not a satellite: {colour} satellites have "
            f"values {values_said(values)}, so write "
            f"{spoken_list(f'{upper[0]}{v}' for v in sorted(values))}"
        )
    return (
        f"{_shown(token)} (line {line}) is not a token: write R{lo}-R{hi} for a red satellite, "
        f"B{lo}-B{hi} for a blue one, or . for an empty cell"
    )


# --- the grid ----------------------------------------------------------------------


def parse_grid(lines: list[tuple[int, str]], source: str,
               values: Sequence[int]) -> tuple[Board, list[Violation]]:
    """Read numbered text lines as a grid; return the board and its board-level problems.

    ``lines`` are ``(line number in the file, text)``; ``values`` the satellite values
    there are (the ruleset's). Raises :class:`InputError` when there is no row at all or
    the grid is far too large to be a board.
    """
    known = token_table(values)
    raw_rows: list[tuple[int, list[str]]] = []
    for number, text in lines:
        tokens = text.split("#", 1)[0].split()
        if tokens:
            raw_rows.append((number, tokens))
    if not raw_rows:
        raise InputError([f"{source}: no board rows found; expected {WHAT}"])
    longest = max(len(tokens) for _, tokens in raw_rows)
    if len(raw_rows) > HARD_LIMIT or longest > HARD_LIMIT:
        raise InputError(
            [
                f"{source}: {len(raw_rows)} rows, the longest with {longest} cells, is far "
                f"too large for a Satellites board (at most {MAX_SIZE} x {MAX_SIZE})"
            ]
        )

    problems: list[Violation] = []
    unknown: list[Violation] = []
    rows: list[Row] = []
    for r, (number, tokens) in enumerate(raw_rows):
        cells: list[Satellite | None] = []
        for c, token in enumerate(tokens):
            kind = known.get(token, False)
            if kind is False:
                unknown.append(Violation("unknown-token", cell_name(r, c),
                                         _unknown_message(token, number, values)))
                kind = None
            cells.append(kind)
        cells.extend([None] * (longest - len(cells)))
        rows.append(tuple(cells))

    height = len(raw_rows)
    lengths = [len(tokens) for _, tokens in raw_rows]
    width = _usual_length(lengths)
    if not (MIN_SIZE <= height <= MAX_SIZE and MIN_SIZE <= width <= MAX_SIZE):
        problems.append(
            Violation(
                "board-size",
                None,
                f"the board has {_n(height, 'row')} of {_n(width, 'cell')}; a Satellites board is "
                f"square, from {MIN_SIZE} x {MIN_SIZE} to {MAX_SIZE} x {MAX_SIZE}",
            )
        )
    elif height != width:
        problems.append(
            Violation(
                "board-not-square",
                None,
                f"the board has {height} rows of {width} cells; a Satellites board is square "
                f"(as many rows as columns)",
            )
        )
    for r, ((number, _tokens), length) in enumerate(zip(raw_rows, lengths, strict=True)):
        if length == width:
            continue
        missing = length < width
        cell = cell_name(r, length if missing else width)
        detail = (
            f"cells {cell} to {cell_name(r, width - 1)} are missing"
            if missing and width - length > 1
            else f"cell {cell} is missing"
            if missing
            else f"it runs on past column {column_name(width - 1)}"
        )
        problems.append(
            Violation(
                "ragged-rows",
                cell,
                f"row {r + 1} (line {number}) has {length} cells but most rows have {width}; "
                f"{detail}. Every row needs one token per cell (. for an empty cell)",
            )
        )
    return Board(tuple(rows)), problems + unknown


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _usual_length(lengths: list[int]) -> int:
    """The row length most rows have (ties: the first row's among them)."""
    counts: dict[int, int] = {}
    for n in lengths:
        counts[n] = counts.get(n, 0) + 1
    best = max(counts.values())
    return next(n for n in lengths if counts[n] == best)


# --- reading a file ----------------------------------------------------------------


def display_name(path: Path) -> str:
    """A path as the user would recognise it: relative to the working dir when inside it."""
    if str(path) == "-":
        return "<stdin>"
    try:
        rel = os.path.relpath(path)
    except ValueError:  # pragma: no cover - different drive on Windows
        return str(path)
    return str(path) if rel.startswith("..") else rel


def read_input(path: Path, ruleset: Ruleset | None = None) -> Transcript:
    """Read a board from a file (``-`` for standard input); raise :class:`InputError`.
    ``ruleset`` gives the satellite values and grace moves (default: the shipped one)."""
    rules = ruleset or default_ruleset()
    shown = display_name(path)
    text = _read_text(path, shown)
    if _looks_like_yaml(path, text):
        return _from_yaml(text, path, shown, rules)
    lines = list(enumerate(split_lines(text), start=1))
    board, problems = parse_grid(lines, shown, rules.values)
    return Transcript(board, tuple(problems), None, shown)


def read_string(text: str, source: str = "<text>",
                ruleset: Ruleset | None = None) -> Transcript:
    """Read a board from text already in memory (grid or YAML by content)."""
    rules = ruleset or default_ruleset()
    if _looks_like_yaml(Path(source), text):
        return _from_yaml(text, Path(source), source, rules)
    board, problems = parse_grid(list(enumerate(split_lines(text), start=1)), source,
                                 rules.values)
    return Transcript(board, tuple(problems), None, source)


def load_rules(folder: Path | None = None) -> Ruleset:
    """The Satellites ruleset of a definitions folder (default: the shipped ``cards/``),
    validated once, then read from the cache; raises
    :class:`cards.loader.DefinitionError`."""
    from cards.ruleset_cache import load_ruleset
    from rules.satellites.ruleset import Ruleset

    found = load_ruleset("satellites", folder)
    assert isinstance(found, Ruleset)
    return found


@lru_cache(maxsize=1)
def default_ruleset() -> Ruleset:
    """The shipped definitions' ruleset (read once per process: for tools and tests that
    score many boards; the commands load theirs with :func:`load_rules`)."""
    return load_rules(None)


def grace_problem(grace: Any, ruleset: Ruleset) -> str | None:
    """Why ``grace_moves_left`` is not a number of grace moves, or None (S-55)."""
    most = ruleset.grace_moves
    if grace is None or (type(grace) is int and 0 <= grace <= most):
        return None
    return (f"must be {spoken_list(range(most + 1))} (the moves the other player still "
            f"has), got {grace!r}")


def _read_text(path: Path, shown: str) -> str:
    from cards.input_text import read_input_text

    return read_input_text(
        path, shown, WHAT, MAX_FILE_BYTES,
        f"larger than {MAX_FILE_BYTES // 1000} kB; a Satellites board is a few lines of text, "
        "is this the right file?", InputError)


_KEY_LINE = re.compile(r"^\s*[A-Za-z_]+\s*:")


def _looks_like_yaml(path: Path, text: str) -> bool:
    """YAML by name (.yaml/.yml) or when the first line that is not a comment is ``key:``."""
    if path.suffix.lower() in (".yaml", ".yml"):
        return True
    for line in split_lines(text):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return bool(_KEY_LINE.match(line)) or stripped.startswith(("{", "---"))
    return False


_BLOCK = re.compile(r"^\s*(?:board|\"board\"|'board')\s*:\s*([|>])[-+0-9]*\s*(?:#.*)?$")


def _from_yaml(text: str, path: Path, shown: str, ruleset: Ruleset) -> Transcript:
    from cards.loader import DefinitionError, parse_yaml

    _refuse_aliases(text, shown)
    try:
        doc = parse_yaml(text, path, WHAT)
    except DefinitionError as exc:
        raise InputError([reshown(p, path, shown) for p in exc.problems]) from None
    data: Any = doc.data

    def at(*loc: str | int) -> str:
        return f"{shown}:{doc.line_of(loc)}"

    if not isinstance(data, dict):
        raise InputError(
            [f"{shown}:1: expected a mapping (game: satellites, board: |), "
             f"got {type_name(data)}"]
        )
    from cards.spelling import did_you_mean

    problems = [
        f"{at(key)}: unknown field {str(key)!r} (known fields: {', '.join(YAML_FIELDS)})"
        f"{did_you_mean(str(key), YAML_FIELDS, quote=True)}"
        for key in data
        if key not in YAML_FIELDS
    ]
    game = data.get("game")
    if "game" not in data:
        problems.append(f"{shown}:1: game: is required; write game: satellites")
    elif not isinstance(game, str) or game.strip().lower() != "satellites":
        hint = " (score Orbitus tables with pnp-score orbitus)" if game == "orbitus" else ""
        problems.append(f"{at('game')}: game: {game!r} is not satellites{hint}")

    cards = _named_folder(data, path, shown, at, problems)
    grace = data.get("grace_moves_left")
    wrong = grace_problem(grace, ruleset)
    if wrong:
        problems.append(f"{at('grace_moves_left')}: grace_moves_left: {wrong}")

    lines: list[tuple[int, str]] = []
    if "board" not in data:
        problems.append(f"{shown}:1: board: is required; write board: | and the grid below it")
    else:
        board = data["board"]
        key_line = doc.line_of(("board",))
        if isinstance(board, str):
            source_lines = split_lines(text)
            header = source_lines[key_line - 1] if key_line <= len(source_lines) else ""
            block = _BLOCK.match(header)
            if block and block.group(1) == ">":
                problems.append(
                    f"{at('board')}: board: write the grid as a literal block (board: |), not "
                    f"folded (board: >), so each row stays on its own line"
                )
            first = key_line + 1 if block else key_line
            step = 1 if block else 0
            lines = [(first + i * step, ln) for i, ln in enumerate(split_lines(board))]
        elif isinstance(board, list) and all(isinstance(r, str) for r in board):
            lines = [(doc.line_of(("board", i)), r) for i, r in enumerate(board)]
        else:
            problems.append(
                f"{at('board')}: board: expected the grid as text (board: | and then one row "
                f"per line), got {type_name(board)}"
            )
    if problems:
        raise InputError(problems)
    board_obj, violations = parse_grid(lines, f"{at('board')}: board", ruleset.values)
    return Transcript(board_obj, tuple(violations), grace, shown, cards, data.get("design"),
                      at("design"))


def _named_folder(data: dict[str, Any], path: Path, shown: str, at: Any,
                  problems: list[str]) -> Path | None:
    """The definitions folder a board file names with ``cards:``, relative to the file's
    own folder and inside it, as an Orbitus layout names its own; None when it names none
    (the problem added to ``problems`` when it names no such folder)."""
    given = data.get("cards")
    if given is None:
        return None
    if not isinstance(given, str) or not given.strip():
        problems.append(f"{at('cards')}: cards: expected a definitions folder next to the "
                        f"board file (e.g. cards: my-game), got {type_name(given)}")
        return None
    base = (Path.cwd() if str(path) == "-" else path.resolve().parent).resolve()
    target = (base / given.strip()).resolve()
    if not target.is_relative_to(base):
        problems.append(f"{at('cards')}: cards: {given!r} lies outside the board file's folder "
                        f"{base}; put the definitions in that folder (or below it) and name "
                        f"them relative to it")
        return None
    if not (target / "satellites").is_dir():
        problems.append(f"{at('cards')}: cards: {given!r} is not a definitions folder with a "
                        f"satellites/ folder ({target}); pnp build init makes one")
        return None
    return target


def _refuse_aliases(text: str, shown: str) -> None:
    """A board file has no use for YAML aliases (``*name``), and nested ones can expand
    to billions of items ("billion laughs"): refuse them before anything is built."""
    import yaml

    from cards.loader import SafeLoader

    try:
        for event in yaml.parse(text, Loader=SafeLoader):
            if isinstance(event, yaml.AliasEvent):
                line = event.start_mark.line + 1 if event.start_mark else 1
                raise InputError(
                    [f"{shown}:{line}: YAML alias *{event.anchor} is not allowed in a board "
                     f"file; write the value out"]
                )
    except yaml.YAMLError:
        return  # the loader reports syntax errors with their line
