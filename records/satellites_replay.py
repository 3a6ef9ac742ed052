"""A Satellites game record, replayed move by move with the rules core
(:mod:`rules.satellites.engine`).

The record (see :mod:`records.record` for the frame)::

    game: satellites
    players: {red: Anna, blue: Ben}   # optional (or a list: [Anna, Ben], red first)
    seed: 42                          # the start dealt by pnp-setup satellites --seed 42
    # setup: |                        # ... or the start position written out
    #   .  .  R3 .  ...
    first: red                        # optional: who moves first (default red)
    grace_moves_left: 2               # only with setup: when a player has all connected
    moves:
      - c1-c4                         # one move per entry, or several: - c1-c4, a5-c5
      - a5-c5
      - c4-e6+                        # + marks a connection move (checked if written)
      - d5-d6>d8                      # displacement: the satellite on d6 is pushed to d8
      - pass                          # only when the player has no legal move

Moves are numbered from 1 in the order written, whatever the entry they are in. The rule
numbers come from the definitions folder (``--cards``, default the shipped ``cards/``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cards.input_text import type_name
from records.record import Illegal, Record, RecordError, Replay, Step, seed_of
from rules.game import IllegalAction, NotationError, SetupError
from rules.satellites.actions import parts
from rules.satellites.engine import State, action_text, apply, deal, end_message, is_over, start
from rules.satellites.legal import legal_actions
from rules.satellites.notation import Written, parse_move, readable
from rules.satellites.ruleset import COLOURS, SEAT_OF
from rules.satellites.why import check_written

if TYPE_CHECKING:
    from generator.drawing import Drawing
    from rules.satellites.ruleset import Ruleset
    from scorer.satellites.board import Board
    from scorer.satellites.score import Score
    from scorer.violation import Violation

FIELDS = ("seed", "setup", "first", "grace_moves_left")

# an entry of moves: parts separated by commas or semicolons, each one move or several
# separated by spaces
_PARTS = re.compile(r"[,;]")


@dataclass
class SatellitesReplay(Replay):
    state: State | None = None
    result: Score | None = None
    cards: Path | None = None

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
        from cards.definitions import load_satellites
        from scorer.satellites.picture import board_picture

        assert self.result is not None
        return board_picture(self.result, title=f"Satellites: {self._where()}",
                             defs=load_satellites(self.cards))

    def legal_now(self) -> tuple[str, list[str]]:
        assert self.state is not None
        state = self.state
        if is_over(state):
            return "nobody (the game is over)", []
        return COLOURS[state.to_move], _listed(state, legal_actions(state))


def board_of(state: State) -> Board:
    """The position as the scorer's :class:`~scorer.satellites.board.Board`."""
    from scorer.satellites.board import Board

    return Board.from_cells(state.table.rows, state.table.cols, state.cells)


def replay(record: Record, cards: Path | None = None, until: int | None = None) -> Replay:
    """Replay a Satellites record; raise :class:`RecordError` if it cannot be replayed."""
    from scorer.satellites.score import score

    problems: list[str] = []
    players = _players(record, problems)
    moves = _moves(record, problems)
    first = _first(record, problems)
    ruleset = _ruleset(record, cards, problems)
    begun = _start(record, ruleset, first, problems) if ruleset is not None else None
    if problems or begun is None or ruleset is None:
        raise RecordError(problems)
    state, start_text = begun
    state = state._replace(players=(players.get("red", "Red"), players.get("blue", "Blue")))
    first_state = state
    history: list[Step] = []

    total = len(moves)
    if until is not None:
        moves = moves[:until]
    illegal: Illegal | None = None
    played, last_line = 0, None
    for number, line, written in moves:
        try:
            move = check_written(state, written)
        except IllegalAction as exc:
            illegal = _illegal(state, number, line, written, exc.reason)
            break
        state = apply(state, move)
        played, last_line = number, line
        history.append(Step(number, line, written.text.strip(), state))

    result = score(board_of(state), state.grace_moves_left, ruleset=ruleset)
    return SatellitesReplay(
        game="satellites",
        source=record.source,
        players=players,
        start=start_text,
        moves=total,
        played=played,
        over=is_over(state),
        message=end_message(state),
        illegal=illegal,
        last_line=last_line,
        start_state=first_state,
        history=history,
        state=state,
        result=result,
        cards=cards,
    )


# --- the fields ------------------------------------------------------------------------------


def _players(record: Record, problems: list[str]) -> dict[str, str]:
    raw = record.data.get("players")
    if raw is None:
        return {}
    from cards.safe_text import has_control, printable

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
    if isinstance(raw, str) and raw.strip().lower() in SEAT_OF:
        return SEAT_OF[raw.strip().lower()]
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
            if len(words) > 1 and not all(readable(w) for w in words):
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


def _ruleset(record: Record, cards: Path | None, problems: list[str]) -> Ruleset | None:
    """The rule numbers of the definitions folder (through the ruleset cache);
    :class:`pnp.common.DefinitionsFailed` when the definitions cannot be used."""
    from cards.loader import DefinitionError
    from pnp.common import DefinitionsFailed
    from scorer.satellites.board import load_rules

    try:
        return load_rules(cards)
    except DefinitionError as exc:  # the one rule of every command for unusable definitions
        raise DefinitionsFailed(exc, "nothing was replayed") from None


def _start(record: Record, ruleset: Ruleset, first: int | None,
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
                        f"setup: board in which a player has all {_all(ruleset)} satellites "
                        f"connected")
        return None
    if has_seed:
        return _from_seed(record, ruleset, first, problems)
    return _from_setup(record, ruleset, first, problems)


def _all(ruleset: Ruleset) -> str:
    from rules.satellites.analysis import per_player

    return per_player(ruleset)


def _from_seed(record: Record, ruleset: Ruleset, first: int | None,
               problems: list[str]) -> tuple[State, str] | None:
    seed = seed_of(record, problems)
    if seed is None:
        return None
    try:
        state = deal(ruleset, seed)
    except SetupError as exc:
        problems.append(f"{record.at('seed')}: seed: {exc}")
        return None
    if first is not None:
        state = state._replace(to_move=first)
    n = state.table.size
    return state, f"seed {seed} ({n} x {n} board)"


_BLOCK = re.compile(r"^\s*(?:setup|\"setup\"|'setup')\s*:\s*([|>])[-+0-9]*\s*(?:#.*)?$")


def _from_setup(record: Record, ruleset: Ruleset, first: int | None,
                problems: list[str]) -> tuple[State, str] | None:
    from scorer.satellites.board import grace_problem, parse_cell, parse_grid
    from scorer.satellites.score import score

    raw = record.data["setup"]
    key_line = record.line("setup")
    where = f"{record.source}:{key_line}: setup"
    if isinstance(raw, str):
        from cards.reading import UnreadableInput, read_bytes_safely
        from cards.safe_text import split_lines
        from records.record import MAX_RECORD_BYTES

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
        board, board_problems = parse_grid(lines, where, ruleset.values)
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
    wrong = grace_problem(grace, ruleset)
    if wrong:
        problems.append(f"{record.at('grace_moves_left')}: grace_moves_left: {wrong}")
        return None
    checked = score(board, grace, ruleset=ruleset)
    if checked.violations:
        problems.extend(located(v, "the start position breaks a rule: ")
                        for v in checked.violations)
        return None
    finished = checked.end.finished
    if finished and not checked.end.over and grace is None:
        problems.append(f"{where}: {finished[0]} has all "
                        f"{ruleset.colour(finished[0]).count} satellites connected; add "
                        f"grace_moves_left: (0-{ruleset.grace_moves}, the moves "
                        f"{checked.end.grace_player} still has)")
        return None
    if finished and checked.end.grace_player and first is not None \
            and COLOURS[first] != checked.end.grace_player:
        problems.append(f"{record.at('first')}: first: {COLOURS[first]} has all "
                        f"{ruleset.colour(COLOURS[first]).count} satellites connected and "
                        f"moves no more; only {checked.end.grace_player} moves")
        return None
    state = start(ruleset, board.width, board.cells(), first, grace)
    return state, f"the position in setup: (line {key_line})"


# --- an illegal move -------------------------------------------------------------------------


def _illegal(state: State, number: int, line: int, written: Written, reason: str) -> Illegal:
    who = COLOURS[state.to_move]
    legal = legal_actions(state)
    legal_of = who
    if is_over(state):
        return Illegal(number, line, written.text.strip(), who, reason, [], 0,
                       "nobody (the game is over)")
    tb = state.table
    own = state.red if state.to_move == 0 else state.blue
    o = tb.index(*written.frm) if written.frm is not None else None
    if o is not None and own >> o & 1:
        t = tb.index(*written.to) if written.to is not None else None
        onto = [m for m in legal if parts(m)[:2] == (o, t) and parts(m)[2] >= 0]
        mine = [m for m in legal if parts(m)[0] == o]
        if onto and t is not None:
            return Illegal(number, line, written.text.strip(), who, reason, _listed(state, onto),
                           len(onto), f"{state.token(o)} onto {tb.names[t]}",
                           legal_in_reason=written.push is None)
        if mine:
            legal, legal_of = mine, state.token(o)
        elif not state.conn >> o & 1:
            reason += f"; {state.token(o)} has no legal move at all"
    return Illegal(number, line, written.text.strip(), who, reason, _listed(state, legal),
                   len(legal), legal_of)


def _listed(state: State, moves: list[int]) -> list[str]:
    return [action_text(state, m) for m in sorted(moves)]


# --- writing a record ------------------------------------------------------------------------


def record_text(start: State, actions: list[int], seed: int, note: str = "") -> str:
    """A game record of ``actions`` played from the deal of ``seed`` (``start``), which
    ``pnp-replay`` replays to the same end; every move as the engine writes it (``+`` on a
    connection), numbered, with the colour that made it."""
    from cards.safe_text import split_lines
    from cards.yaml_out import comment, flow

    out = [f"# {comment(line)}".rstrip() for line in split_lines(note)] if note else []
    out.append("game: satellites")
    red, blue = start.players
    out.append(f"players: {flow({'red': red, 'blue': blue})}")
    out.append(f"seed: {seed}")
    if start.to_move != SEAT_OF[start.ruleset.first]:
        out.append(f"first: {COLOURS[start.to_move]}")
    out.append("moves:")
    state = start
    for number, code in enumerate(actions, 1):
        text = action_text(state, code)
        out.append(f"  - {text:<12} # {number} {COLOURS[state.to_move]}")
        state = apply(state, code)
    return "\n".join(out) + "\n"
