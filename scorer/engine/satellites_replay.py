"""A Satellites game record, replayed move by move with the engine.

The record (see :mod:`scorer.engine.records` for the frame)::

    game: satellites
    players: {red: Anna, blue: Ben}   # optional (or a list: [Anna, Ben], red first)
    seed: 42                          # the start dealt by pnp-setup satellites --seed 42
    # setup: |                        # ... or the start position written out
    #   .  .  R3 .  ...
    first: red                        # optional: who moves first (default red)
    grace_moves_left: 2               # only with setup: when a player has all 12 connected
    moves:
      - c1-c4                         # one move per entry, or several: - c1-c4, a5-c5
      - a5-c5
      - c4-e6+                        # + marks a connection move (checked if written)
      - d5-d6>d8                      # displacement: the satellite on d6 is pushed to d8
      - pass                          # only when the player has no legal move

Moves are numbered from 1 in the order written, whatever the entry they are in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorer.common import type_name
from scorer.engine.records import Illegal, Record, RecordError, Replay
from scorer.engine.satellites import (
    COLOUR_OF,
    NAME,
    RED,
    IllegalMove,
    NotationError,
    State,
    Written,
    check,
    end_message,
    from_board,
    notation,
    parse_move,
)

if TYPE_CHECKING:
    from generator.drawing import Drawing
    from scorer.common import Violation
    from scorer.satellites.score import Score

FIELDS = ("seed", "setup", "first", "grace_moves_left")

# an entry of moves: parts separated by commas or semicolons, each one move or several
# separated by spaces
_PARTS = re.compile(r"[,;]")


@dataclass
class SatellitesReplay(Replay):
    state: State | None = None
    result: Score | None = None

    @property
    def valid(self) -> bool:
        assert self.result is not None
        return self.result.valid

    def _where(self) -> str:
        if self.illegal is not None:
            return f"{self.source}, before move {self.illegal.number}"
        return f"{self.source}, after move {self.played}" if self.played else \
            f"{self.source}, start"

    def score_json(self) -> dict[str, Any]:
        from scorer.satellites.report import to_json

        assert self.result is not None
        return to_json(self.result)

    def score_summary(self, colour: bool) -> str:
        from scorer.satellites.report import summary

        assert self.result is not None
        return summary(self.result, self._where(), colour=colour)

    def picture(self) -> Drawing:
        from scorer.satellites.picture import board_picture

        assert self.result is not None
        return board_picture(self.result, title=f"Satellites: {self._where()}")

    def legal_now(self) -> tuple[str, list[str]]:
        assert self.state is not None
        state = self.state
        if state.over:
            return "nobody (the game is over)", []
        return NAME[state.to_move], _listed(state, state.legal_moves())


def replay(record: Record, cards: Path | None = None, until: int | None = None) -> Replay:
    """Replay a Satellites record; raise :class:`RecordError` if it cannot be replayed."""
    from scorer.satellites.score import score

    problems: list[str] = []
    players = _players(record, problems)
    moves = _moves(record, problems)
    first = _first(record, problems)
    start = _start(record, cards, first, problems)
    if problems or start is None:
        raise RecordError(problems)
    state, start_text = start

    total = len(moves)
    if until is not None:
        moves = moves[:until]
    illegal: Illegal | None = None
    played, last_line = 0, None
    for number, line, written in moves:
        try:
            move = check(state, written)
        except IllegalMove as exc:
            illegal = _illegal(state, number, line, written, exc.reason)
            break
        state = state.after(move)
        played, last_line = number, line

    result = score(state.to_board(), state.grace_moves_left)
    return SatellitesReplay(
        game="satellites",
        source=record.source,
        players=players,
        start=start_text,
        moves=total,
        played=played,
        over=state.over,
        message=end_message(state),
        illegal=illegal,
        last_line=last_line,
        state=state,
        result=result,
    )


# --- the fields ------------------------------------------------------------------------------


def _players(record: Record, problems: list[str]) -> dict[str, str]:
    raw = record.data.get("players")
    if raw is None:
        return {}
    from scorer.safe_text import has_control, printable

    names = raw.values() if isinstance(raw, dict) else raw if isinstance(raw, list) else []
    for name in names:
        if isinstance(name, str) and has_control(name):
            problems.append(f"{record.at('players')}: players: {printable(name)!r} holds a "
                            f"control character; a name is plain text on one line")
            return {}
    if isinstance(raw, list) and len(raw) == 2 and all(_name_ok(n) for n in raw):
        return {"red": str(raw[0]), "blue": str(raw[1])}
    if isinstance(raw, dict) and set(raw) <= {"red", "blue"} and all(
            _name_ok(n) for n in raw.values()):
        return {c: str(raw[c]) for c in ("red", "blue") if c in raw}
    problems.append(f"{record.at('players')}: players: write {{red: NAME, blue: NAME}} or "
                    f"[RED'S NAME, BLUE'S NAME], got {type_name(raw)}")
    return {}


def _name_ok(value: Any) -> bool:
    return isinstance(value, str | int) and not isinstance(value, bool) and len(str(value)) < 80


def _first(record: Record, problems: list[str]) -> int | None:
    raw = record.data.get("first")
    if raw is None:
        return None
    if isinstance(raw, str) and raw.strip().lower() in COLOUR_OF:
        return COLOUR_OF[raw.strip().lower()]
    problems.append(f"{record.at('first')}: first: must be red or blue (who makes the first "
                    f"move), got {raw!r}")
    return None


def _moves(record: Record, problems: list[str]) -> list[tuple[int, int, Written]]:
    """Every move written, as ``(number, line, move)``; unreadable ones become problems."""
    out: list[tuple[int, int, Written]] = []
    number = 0
    for item in record.items:
        where = f"{record.source}:{item.line}"
        value = item.value
        if not isinstance(value, str):
            what = "an empty entry" if value is None else type_name(value)
            problems.append(f"{where}: moves: entry {item.index + 1}: expected a move such as "
                            f"c1-c4 or pass, got {what}")
            continue
        pieces = []
        for part in _PARTS.split(value):
            words = part.split()
            if not words:
                continue
            if len(words) > 1 and not all(_readable(w) for w in words):
                words = [part.strip()]  # "c1 - c4" is one move; "a6 to e6" one unreadable
            pieces.extend(words)
        if not pieces:
            problems.append(f"{where}: moves: entry {item.index + 1} is empty; write a move "
                            f"such as c1-c4 or pass")
        for piece in pieces:
            number += 1
            try:
                written = parse_move(piece)
            except NotationError as exc:
                problems.append(f"{where}: move {number}: {exc}")
            else:
                out.append((number, item.line, written))
    return out


def _readable(word: str) -> bool:
    try:
        parse_move(word)
    except NotationError:
        return False
    return True


def _start(record: Record, cards: Path | None, first: int | None,
           problems: list[str]) -> tuple[State, str] | None:
    data = record.data
    has_seed, has_setup = "seed" in data, "setup" in data
    if has_seed and has_setup:
        problems.append(f"{record.at('setup')}: give either seed: (the deal of pnp-setup "
                        f"satellites --seed N) or setup: (the position written out), not both")
        return None
    if not has_seed and not has_setup:
        problems.append(f"{record.source}:1: the start is missing: write seed: N (the deal of "
                        f"pnp-setup satellites --seed N) or setup: | and the board")
        return None
    if "grace_moves_left" in data and not has_setup:
        problems.append(f"{record.at('grace_moves_left')}: grace_moves_left: only goes with a "
                        f"setup: board in which a player has all 12 satellites connected")
        return None
    if has_seed:
        return _from_seed(record, cards, first, problems)
    return _from_setup(record, first, problems)


def _from_seed(record: Record, cards: Path | None, first: int | None,
               problems: list[str]) -> tuple[State, str] | None:
    from scorer.engine.satellites_setup import MAX_SEED, SetupError, deal

    seed = record.data["seed"]
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        problems.append(f"{record.at('seed')}: seed: must be a whole number from 0 to "
                        f"{MAX_SEED} (the N of pnp-setup satellites --seed N), got {seed!r}")
        return None
    from cards.definitions import load_satellites
    from cards.loader import DefinitionError

    try:
        defs = load_satellites(cards)
    except DefinitionError as exc:
        problems.extend(exc.problems)
        problems.append(f"{record.at('seed')}: seed: the Satellites definitions could not be "
                        f"loaded, so the deal cannot be made")
        return None
    try:
        state = deal(defs, seed)
    except SetupError as exc:
        problems.append(f"{record.at('seed')}: seed: {exc}")
        return None
    if first is not None:
        state = State(state.geo, state.cells, first)
    n = state.geo.size
    return state, f"seed {seed} ({n} x {n} board)"


_BLOCK = re.compile(r"^\s*(?:setup|\"setup\"|'setup')\s*:\s*([|>])[-+0-9]*\s*(?:#.*)?$")


def _from_setup(record: Record, first: int | None,
                problems: list[str]) -> tuple[State, str] | None:
    from scorer.satellites.board import parse_cell, parse_grid
    from scorer.satellites.score import score

    raw = record.data["setup"]
    key_line = record.line("setup")
    where = f"{record.source}:{key_line}: setup"
    if isinstance(raw, str):
        from cards.loader import UnreadableInput, read_bytes_safely
        from scorer.engine.records import MAX_RECORD_BYTES
        from scorer.safe_text import split_lines

        try:  # the record's own text again, for the line that opens the board
            text_lines = split_lines(read_bytes_safely(
                record.path, "", MAX_RECORD_BYTES).decode("utf-8")) \
                if str(record.path) != "-" else []
        except (UnreadableInput, UnicodeDecodeError):
            text_lines = []
        header = text_lines[key_line - 1] if 0 < key_line <= len(text_lines) else ""
        block = _BLOCK.match(header)
        if block and block.group(1) == ">":
            problems.append(f"{where}: write the board as a literal block (setup: |), not "
                            f"folded (setup: >), so each row stays on its own line")
            return None
        first_line = key_line + 1 if block else key_line
        lines = [(first_line + i, ln) for i, ln in enumerate(split_lines(raw))]
    elif isinstance(raw, list) and all(isinstance(r, str) for r in raw):
        lines = [(record.line("setup", i), r) for i, r in enumerate(raw)]
    else:
        problems.append(f"{where}: expected the board as text (setup: | and then one row per "
                        f"line, as pnp-score satellites reads it), got {type_name(raw)}")
        return None
    from scorer.satellites.board import InputError

    try:
        board, board_problems = parse_grid(lines, where)
    except InputError as exc:
        problems.extend(exc.problems)
        return None
    row_lines = [number for number, text in lines if text.split("#", 1)[0].split()]

    def located(v: Violation, what: str) -> str:
        cell = parse_cell(v.cell) if isinstance(v.cell, str) else None
        at = row_lines[cell[0]] if cell is not None and 0 <= cell[0] < len(row_lines) \
            else key_line
        return f"{record.source}:{at}: setup: {what}{v.cell or 'board'}: {v.message}"

    if board_problems:
        problems.extend(located(v, "") for v in board_problems)
        return None

    grace = record.data.get("grace_moves_left")
    if grace is not None and (type(grace) is not int or not 0 <= grace <= 3):
        problems.append(f"{record.at('grace_moves_left')}: grace_moves_left: must be 0, 1, 2 or "
                        f"3 (the moves the other player still has), got {grace!r}")
        return None
    checked = score(board, grace)
    if checked.violations:
        problems.extend(located(v, "the start position breaks a rule: ")
                        for v in checked.violations)
        return None
    finished = checked.end.finished
    if finished and not checked.end.over and grace is None:
        problems.append(f"{where}: {finished[0]} has all 12 satellites connected; add "
                        f"grace_moves_left: (0-3, the moves {checked.end.grace_player} still has)")
        return None
    to_move = RED if first is None else first
    if finished and checked.end.grace_player and first is not None \
            and NAME[first] != checked.end.grace_player:
        problems.append(f"{record.at('first')}: first: {NAME[first]} has all 12 satellites "
                        f"connected and moves no more; only {checked.end.grace_player} moves")
        return None
    state = from_board(board, to_move, grace)
    return state, f"the position in setup: (line {key_line})"


# --- an illegal move -------------------------------------------------------------------------


def _illegal(state: State, number: int, line: int, written: Written, reason: str) -> Illegal:
    who = NAME[state.to_move]
    legal = state.legal_moves()
    legal_of = who
    if state.over:
        return Illegal(number, line, written.text.strip(), who, reason, [], 0,
                       "nobody (the game is over)")
    geo = state.geo
    o = geo.index(*written.frm) if written.frm is not None else None
    if o is not None and state.cells[o] * state.to_move > 0:
        t = geo.index(*written.to) if written.to is not None else None
        onto = [m for m in legal if m.frm == o and m.to == t and m.push >= 0]
        mine = [m for m in legal if m.frm == o]
        if onto and t is not None:
            return Illegal(number, line, written.text.strip(), who, reason, _listed(state, onto),
                           len(onto), f"{state.token(o)} onto {geo.names[t]}",
                           legal_in_reason=written.push is None)
        if mine:
            legal, legal_of = mine, state.token(o)
        elif not state.info.conn[o]:
            reason += f"; {state.token(o)} has no legal move at all"
    return Illegal(number, line, written.text.strip(), who, reason, _listed(state, legal),
                   len(legal), legal_of)


def _listed(state: State, moves: list[Any]) -> list[str]:
    return [notation(state.geo, m, state.cells) for m in sorted(moves)]

