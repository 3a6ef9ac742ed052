"""A Heaps game record, replayed by ``pnp replay`` (the game's ``records.replay`` adapter)::

    game: heaps
    players: [Anna, Ben]      # seat order, 2 to 4 (default: P1, P2)
    seed: 7                   # the deal of pnp setup heaps --seed 7
    moves:
      - 2-3                   # three stones from heap 2
      - 1-1

Every move is checked by the rules core (:mod:`testkit.heaps.game`); the replay stops at
the first illegal one and says why and what was legal there.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cards.input_text import type_name
from records.record import Illegal, Record, RecordError, Replay, Step, seed_of
from rules.game import IllegalAction, NotationError, SetupError
from testkit.heaps.game import GAME, Action, State, parse_move

if TYPE_CHECKING:
    from generator.drawing import Drawing

FIELDS = ("seed",)
STONE_MM = 8.0


@dataclass
class HeapsReplay(Replay):
    state: State | None = None

    @property
    def valid(self) -> bool:
        return True  # every position the rules core reaches is one the rules allow

    def score_json(self) -> dict[str, Any]:
        state = self._state()
        outcome = GAME.result(state)
        return {"game": "heaps", "heaps": list(state.heaps),
                "taken": dict(zip(state.players, state.taken, strict=True)),
                "over": state.over,
                "winner": state.players[outcome.winners[0]] if outcome.winners else None,
                "reason": outcome.reason}

    def score_summary(self, colour: bool) -> str:
        return GAME.describe(self._state())

    def picture(self) -> Drawing:
        """The heaps as rows of stones, with who took how many."""
        from generator.drawing import Circle, Drawing, Style, Text

        state = self._state()
        items: list[Any] = []
        for row, size in enumerate(state.heaps):
            y = 14.0 + row * (STONE_MM + 2.0)
            items.append(Text(2.0, y + 3.0, f"{row + 1}", 5.0))
            items += [Circle(12.0 + k * (STONE_MM + 1.0), y, STONE_MM / 2.0,
                             Style(fill="#8a8a8a", stroke="#1d1d1f", width=0.3))
                      for k in range(size)]
        width = 14.0 + max([*state.heaps, 1]) * (STONE_MM + 1.0)
        height = 14.0 + len(state.heaps) * (STONE_MM + 2.0) + 8.0
        items.append(Text(2.0, height - 3.0, GAME.result(state).reason, 4.0))
        return Drawing(max(width, 80.0), height, items, f"Heaps: {self.source}")

    def legal_now(self) -> tuple[str, list[str]]:
        state = self._state()
        if state.over:
            return "nobody (the game is over)", []
        return state.players[state.to_move], _texts(state, GAME.legal_actions(state))

    def _state(self) -> State:
        assert self.state is not None
        return self.state


def _texts(state: State, actions: Any) -> list[str]:
    return [GAME.action_text(state, a) for a in actions]


def replay(record: Record, cards: Path | None = None, until: int | None = None) -> Replay:
    """Replay a Heaps record; :class:`RecordError` when it cannot be replayed at all."""
    from cards.loader import DefinitionError
    from cards.ruleset_cache import load_ruleset

    problems: list[str] = []
    names = _players(record, problems)
    seed = seed_of(record, problems) if "seed" in record.data else None
    if "seed" not in record.data:
        problems.append(f"{record.source}:1: seed: is required (the N of pnp setup heaps "
                        f"--seed N)")
    moves = _moves(record, problems)
    try:
        ruleset = load_ruleset("heaps", cards)
    except DefinitionError as exc:
        problems.extend(exc.problems)
        ruleset = None
    state = None
    if ruleset is not None and seed is not None:
        try:
            state = GAME.new_game(ruleset, names, seed)
        except SetupError as exc:
            problems.append(f"{record.source}:1: {exc}")
    if problems or state is None:
        raise RecordError(problems)
    start, history = state, []
    total = len(moves)
    illegal, played, last_line = None, 0, None
    for number, line, text, action in moves[:until]:
        try:
            GAME.check(state, action)
        except IllegalAction as exc:
            legal = GAME.legal_actions(state)
            who = state.players[state.to_move] if not state.over else "nobody"
            illegal = Illegal(number, line, text, who, exc.reason, _texts(state, legal),
                              len(legal), who if legal else "nobody (the game is over)")
            break
        state = GAME.apply(state, action)
        played, last_line = number, line
        history.append(Step(number, line, text, state))
    return HeapsReplay(game="heaps", source=record.source,
                       players={f"P{i + 1}": n for i, n in enumerate(names)},
                       start=f"seed {seed}", moves=total, played=played, over=state.over,
                       message=GAME.result(state).reason, illegal=illegal,
                       last_line=last_line, start_state=start, history=history, state=state)


def _players(record: Record, problems: list[str]) -> list[str]:
    raw = record.data.get("players")
    if raw is None:
        return ["P1", "P2"]
    if isinstance(raw, list) and all(isinstance(n, str) and n.strip() for n in raw):
        return [n.strip() for n in raw]
    problems.append(f"{record.at('players')}: players: write a list of names in seat order, "
                    f"e.g. [Anna, Ben], got {type_name(raw)}")
    return ["P1", "P2"]


def _moves(record: Record, problems: list[str]) -> list[tuple[int, int, str, Action]]:
    out = []
    for item in record.items:
        where = f"{record.source}:{item.line}: move {item.index + 1}"
        if not isinstance(item.value, str | int):
            problems.append(f"{where}: expected a move such as 2-3, got "
                            f"{type_name(item.value)}")
            continue
        text = str(item.value).strip()
        try:
            out.append((item.index + 1, item.line, text, parse_move(text)))
        except NotationError as exc:
            problems.append(f"{where}: {exc}")
    return out
