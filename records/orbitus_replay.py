"""An Orbitus game record, replayed action by action with the engine.

The record (see :mod:`records.record` for the frame)::

    game: orbitus
    players: [Anna, Boris, Carla]     # seat order, 2-6 names (play goes clockwise)
    seed: 42                          # the deal of pnp-setup orbitus --names ... --seed 42
    # deck: [S50, S19, ...]           # ... or the deck in order, top first
    start_lines: {Anna: [N, NE], Boris: [SE, S], Carla: [SW, NW]}   # optional
    barriers: []                      # optional
    first: Boris                      # optional: who plays first (default: the first listed)
    moves:
      - place S07 @0,-1 r2            # card S07 on cell [0, -1], its marker turned to SE
      - remove 1,-2                   # the sector on [1, -2] leaves the game
      - discard S12
      - pass
      - Anna: place S19 at 1,-1 rot N # NAME: says whose turn it is (checked)

``start_lines`` and ``barriers`` are read exactly as in a layout for
``pnp-score orbitus`` (the code is the scorer's), the actions are checked by the
rules core's engine (:mod:`rules.orbitus.engine`) and the position reached is scored
by the rules core's scoring, as ``pnp-score orbitus`` scores a table. Actions are
numbered from 1 in the order written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cards.input_text import type_name
from records.record import Illegal, Record, RecordError, Replay, Step, seed_of
from rules.game import IllegalAction, NotationError, SetupError
from rules.hexgeo import Hex
from rules.orbitus.actions import DISCARD, PASS, PLACE, REMOVE, Action
from rules.orbitus.engine import State, end_message
from rules.orbitus.notation import Written, notation, parse_move
from rules.orbitus.ruleset import Ruleset
from rules.orbitus.table import cell_text
from rules.orbitus.why import check

if TYPE_CHECKING:
    from generator.drawing import Drawing
    from rules.orbitus.score import Result

FIELDS = ("seed", "deck", "start_lines", "barriers", "first")
_PARTS = re.compile(r";")


@dataclass
class OrbitusReplay(Replay):
    state: State | None = None
    result: Result | None = None
    cards: Path | None = None  # the definitions folder (the picture draws its cards)
    skips: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        assert self.result is not None
        return self.result.valid

    def _when(self) -> str:
        if self.illegal is not None:
            return f"before move {self.illegal.number}"
        return f"after move {self.played}" if self.played else "at the start"

    def score_json(self) -> dict[str, Any]:
        from scorer.orbitus.report import to_json

        assert self.result is not None and self.state is not None
        out = to_json(self.result)
        out["position"] = position_json(self.state)
        return out

    def score_summary(self, colour: bool) -> str:
        from scorer.orbitus.report import to_text

        assert self.result is not None and self.state is not None
        return to_text(self.result) + "\n" + position_text(self.state, self._when(), self.skips)

    def picture(self) -> Drawing:
        from cards.definitions import load_orbitus
        from scorer.orbitus.picture import draw_table

        assert self.result is not None
        return draw_table(self.result, load_orbitus(self.cards))

    def legal_now(self) -> tuple[str, list[str]]:
        assert self.state is not None
        state = self.state
        if state.over:
            return "nobody (the game is over)", []
        return state.player, [notation(a) for a in state.legal_actions()]


def position_json(state: State) -> dict[str, Any]:
    """Whose turn it is and what everyone holds (the engine's side of the position)."""
    game = state.game
    return {
        "to_move": None if state.over else state.player,
        "turns": state.turn,
        "end": state.end,
        "deck_left": state.deck_left,
        "hands": {name: list(state.hands[seat]) for seat, name in enumerate(game.players)},
        "hand_limits": {name: state.limits[seat] for seat, name in enumerate(game.players)},
        "passed_last_turn": [game.players[s] for s in range(game.n) if state.passed[s]],
        "out_of_game": list(state.out),
    }


def position_text(state: State, when: str, skips: list[str] | None = None) -> str:
    game = state.game
    out = [f"Hands {when} ({state.deck_left} card{'s' if state.deck_left != 1 else ''} left in "
           f"the deck):"]
    width = max(len(n) for n in game.players)
    for seat, name in enumerate(game.players):
        notes = [f"limit {state.limits[seat]}"]
        if state.passed[seat]:
            notes.append("passed last turn")
        if not state.over and seat == state.to_move:
            notes.append("to move")
        held = " ".join(state.hands[seat]) or "nothing"
        out.append(f"  {name:<{width}}  {held}  ({', '.join(notes)})")
    if state.out:
        out.append(f"Out of the game: {' '.join(state.out)}")
    for note in skips or []:
        out.append(note)
    return "\n".join(out) + "\n"


def replay(record: Record, cards: Path | None = None, until: int | None = None) -> Replay:
    """Replay an Orbitus record; raise :class:`RecordError` if it cannot be replayed."""
    from rules.orbitus.score import score
    from scorer.orbitus.layout import Layout

    problems: list[str] = []
    loaded = _definitions(record, cards, problems)
    if loaded is None:
        raise RecordError(problems)
    ruleset, shown = loaded
    start = _start(record, ruleset, shown, problems)
    names = record.data.get("players")
    listed = tuple(str(n).strip() for n in names) if isinstance(names, list) else ()
    moves = _moves(record, listed, ruleset, shown, problems)
    if problems or start is None:
        raise RecordError(problems)
    state, start_text = start

    total = len(moves)
    if until is not None:
        moves = moves[:until]
    illegal: Illegal | None = None
    played, last_line = 0, None
    lines: dict[Hex, int] = {}
    skips: list[str] = []
    first = state
    history: list[Step] = []
    for number, line, written in moves:
        try:
            action = _checked(state, written)
        except IllegalAction as exc:
            illegal = _illegal(state, number, line, written, exc.reason)
            break
        state = state.after(action)
        history.append(Step(number, line, written.text.strip(), state))
        if action.kind == PLACE:
            lines[action.cell] = line
        played, last_line = number, line
        if state.skipped:
            names = " and ".join(state.game.players[s] for s in state.skipped)
            skips.append(f"After move {number} (line {line}) {names} could not act (no legal "
                         f"action) and {'was' if len(state.skipped) == 1 else 'were'} skipped.")

    layout = Layout.of(state.to_table(lines), record.source, shown)
    return OrbitusReplay(
        game="orbitus",
        source=record.source,
        players={f"P{i + 1}": name for i, name in enumerate(state.game.players)},
        start=start_text,
        moves=total,
        played=played,
        over=state.over,
        message=end_message(state),
        illegal=illegal,
        last_line=last_line,
        notes=skips,
        start_state=first,
        history=history,
        state=state,
        result=score(layout, ruleset.scoring),
        cards=cards,
        skips=skips,
    )


# --- the fields ------------------------------------------------------------------------------


def _definitions(record: Record, cards: Path | None,
                 problems: list[str]) -> tuple[Ruleset, str] | None:
    """The validated ruleset of ``cards`` (default: shipped) and the deck as messages name
    it; :class:`pnp.common.DefinitionsFailed` when the definitions cannot be used."""
    from cards.files import game_files, shown_deck
    from cards.loader import DefinitionError
    from cards.ruleset_cache import load_ruleset
    from pnp.common import DefinitionsFailed

    try:
        ruleset = load_ruleset("orbitus", cards)
    except DefinitionError as exc:  # the one rule of every command for unusable definitions
        raise DefinitionsFailed(exc, "nothing was replayed") from None
    assert isinstance(ruleset, Ruleset)
    return ruleset, shown_deck(game_files("orbitus", cards)["sectors"])


def _start(record: Record, ruleset: Ruleset, shown: str,
           problems: list[str]) -> tuple[State, str] | None:
    from rules.orbitus.engine import Seating, deal, seating, shuffled_deck
    from scorer.orbitus.layout import read_players_and_station

    data = record.data
    raw = data.get("players")
    if not isinstance(raw, list):
        what = "missing" if raw is None else f"{type_name(raw)}"
        where = record.at("players") if "players" in data else f"{record.source}:1"
        problems.append(f"{where}: players: expected the players' names in seat order, e.g. "
                        f"players: [Anna, Boris, Carla], got {what}")
        return None
    count = len(problems)
    players, start_lines, barriers, findings = read_players_and_station(record.doc, ruleset)
    for finding in findings:
        problems.append(f"{record.source}:{finding.line}: {finding.message}")
    first = _first(record, players, problems)
    order = _deck(record, ruleset, shown, problems)
    if len(problems) > count or order is None:
        return None
    try:
        game: Seating = seating(ruleset, players, start_lines, barriers)
    except SetupError as exc:
        problems.append(f"{record.at('players')}: {exc}")
        return None
    deck, how = order
    if deck is None:
        seed = data["seed"]
        deck = shuffled_deck(game, seed)
    try:
        state = deal(game, deck, first)
    except SetupError as exc:
        problems.append(f"{record.at('deck' if 'deck' in data else 'seed')}: {exc}")
        return None
    return state, f"{how}, {game.n} players, {len(deck)}-card deck"


def _first(record: Record, players: tuple[str, ...], problems: list[str]) -> int:
    raw = record.data.get("first")
    if raw is None:
        return 0
    name = str(raw).strip() if isinstance(raw, str | int) and not isinstance(raw, bool) else None
    if name is not None and name in players:
        return players.index(name)
    from cards.spelling import closest

    guess = closest(name, players) if name else None
    hint = f"; did you mean {guess}?" if guess else ""
    problems.append(f"{record.at('first')}: first: {raw!r} is not one of the players "
                    f"({', '.join(players)}); name who plays first{hint}")
    return 0


def _deck(record: Record, ruleset: Ruleset, shown: str,
          problems: list[str]) -> tuple[list[str] | None, str] | None:
    """``(None, 'seed N')`` for a seed, ``(order, 'the deck in deck:')`` for a written deck."""

    data = record.data
    if "seed" in data and "deck" in data:
        problems.append(f"{record.at('deck')}: give either seed: (the deal of pnp-setup orbitus "
                        f"--seed N) or deck: (the cards in order, top first), not both")
        return None
    if "seed" in data:
        seed = seed_of(record, problems)
        return None if seed is None else (None, f"seed {seed}")
    if "deck" not in data:
        problems.append(f"{record.source}:1: the deal is missing: write seed: N (the deal of "
                        f"pnp-setup orbitus --seed N) or deck: [the cards in order, top first]")
        return None
    raw = data["deck"]
    if not isinstance(raw, list) or not raw:
        problems.append(f"{record.at('deck')}: deck: expected the cards in order, top first, "
                        f"e.g. deck: [S07, S12, S33], got {type_name(raw)}")
        return None
    known = ruleset.cards
    order: list[str] = []
    used: dict[str, int] = {}
    bad = False
    for i, item in enumerate(raw):
        ident = _card_id(item, known)
        where = f"{record.source}:{record.line('deck', i)}"
        if ident is None:
            problems.append(f"{where}: deck: card {i + 1}: "
                            f"{_unknown_card(item, known, shown)}")
            bad = True
            continue
        used[ident] = used.get(ident, 0) + 1
        if used[ident] > known[ident].count:
            held = known[ident].count
            problems.append(f"{where}: deck: {ident} is listed {used[ident]} times, but the deck "
                            f"holds {held} cop{'y' if held == 1 else 'ies'}")
            bad = True
        order.append(ident)
    if bad:
        return None
    return order, "the deck written out"


def _card_id(item: object, known: dict[str, Any]) -> str | None:
    """The card ID written (any case, as text or a number), or None if the deck has no such."""
    if isinstance(item, bool) or not isinstance(item, str | int):
        return None
    text = str(item).strip()
    if text in known:
        return text
    folded = [k for k in known if k.lower() == text.lower()]
    return folded[0] if len(folded) == 1 else None


def _unknown_card(item: object, known: dict[str, Any], shown: str) -> str:
    from cards.spelling import closest

    if isinstance(item, bool) or not isinstance(item, str | int):
        return f"expected a card ID such as S07, got {type_name(item)}"
    guess = closest(str(item), known)
    hint = f"; did you mean {guess}?" if guess else ""
    return f"{str(item)!r} is not a card of the deck ({shown}){hint}"


def _moves(record: Record, players: tuple[str, ...], ruleset: Ruleset,
           shown: str, problems: list[str]) -> list[tuple[int, int, Written]]:
    """Every action written, as ``(number, line, action)``; unreadable ones become problems."""
    from cards.spelling import closest

    known = ruleset.cards
    out: list[tuple[int, int, Written]] = []
    number = 0
    for item in record.items:
        where = f"{record.source}:{item.line}"
        value = item.value
        who: str | None = None
        if isinstance(value, dict) and len(value) == 1:
            # "- Anna: place S07 @0,-1 r2" is read by YAML as {Anna: "place ..."}
            key, value = next(iter(value.items()))
            who = str(key).strip()
        if not isinstance(value, str):
            what = "an empty entry" if value is None else type_name(value)
            problems.append(f"{where}: moves: entry {item.index + 1}: expected an action such as "
                            f"place S07 @0,-1 r2, remove 1,-2, discard S12 or pass, got {what}")
            continue
        parts = [p for p in _PARTS.split(value) if p.strip()]
        if not parts:
            problems.append(f"{where}: moves: entry {item.index + 1} is empty; write an action "
                            f"such as place S07 @0,-1 r2 or pass")
        for part in parts:
            number += 1
            try:
                written = parse_move(part.strip(), who)
            except NotationError as exc:
                problems.append(f"{where}: move {number}: {exc}")
                continue
            if written.player is not None and players and written.player not in players:
                guess = closest(written.player, players)
                hint = f"; did you mean {guess}?" if guess else ""
                problems.append(f"{where}: move {number}: {written.player!r} is not one of the "
                                f"players ({', '.join(players)}){hint}")
                continue
            if written.card:
                ident = _card_id(written.card, known)
                if ident is None:
                    problems.append(f"{where}: move {number}: "
                                    f"{_unknown_card(written.card, known, shown)}")
                    continue
                written = Written(written.text, written.kind, ident, written.cell, written.rot,
                                  written.player)
            out.append((number, item.line, written))
    return out


# --- one action --------------------------------------------------------------------------------


def _checked(state: State, written: Written) -> Action:
    if state.over:
        raise IllegalAction(f"the game is already over ({end_message(state)})")
    if written.player is not None and written.player != state.player:
        order = ", ".join(state.game.players)
        raise IllegalAction(f"it is {state.player}'s turn, not {written.player}'s (play goes "
                          f"clockwise, in seat order: {order})")
    return check(state, written.action())


def _illegal(state: State, number: int, line: int, written: Written, reason: str) -> Illegal:
    text = written.text.strip()
    who = state.player
    if state.over:
        return Illegal(number, line, text, who, reason, [], 0, "nobody (the game is over)")
    legal = state.legal_actions()
    legal_of = who
    kind = written.kind
    if written.player is None or written.player == who:
        if kind == PLACE and written.card in state.hands[state.to_move]:
            mine = [a for a in legal if a.kind == PLACE and a.card == written.card]
            here = [a for a in mine if a.cell == written.cell]
            if here:
                legal, legal_of = here, f"{written.card} on {cell_text(here[0].cell)}"
                rots = " or ".join(f"r{a.rot}" for a in here)
                if reason.endswith(f"{written.card} fits there turned {rots}"):
                    return Illegal(number, line, text, who, reason, [notation(a) for a in here],
                                   len(here), legal_of, legal_in_reason=True)
            elif mine:
                legal, legal_of = mine, f"{written.card} from {who}'s hand"
            else:
                reason += f"; {written.card} fits nowhere on the table now"
        elif kind == REMOVE:
            removals = [a for a in legal if a.kind == REMOVE]
            if removals:
                legal, legal_of = removals, f"{who}'s removals"
            else:
                reason += f"; {who} can remove no sector now"
        elif kind in (DISCARD, PASS):
            pass
    return Illegal(number, line, text, who, reason, [notation(a) for a in legal], len(legal),
                   legal_of)


# --- writing a record ------------------------------------------------------------------------


def record_text(start: State, actions: list[Action], seed: int | None = None,
                note: str = "") -> str:
    """A game record of ``actions`` played from ``start`` (dealt from ``seed`` if given,
    else its deck is written out), which ``pnp-replay`` replays to the same end."""
    from cards.safe_text import split_lines
    from cards.yaml_out import comment, flow
    from rules.hexgeo import SIDES

    game = start.game
    out = []
    if note:
        out.extend(f"# {comment(line)}".rstrip() for line in split_lines(note))
    out.append("game: orbitus")
    out.append(f"players: {flow(list(game.players))}")
    if seed is not None:
        out.append(f"seed: {seed}")
    else:
        out.append(f"deck: {flow(list(start.deck))}")
    out.append("start_lines: " + flow({
        p: [SIDES[s] for s in game.start_lines_of(seat)] for seat, p in enumerate(game.players)
    }))
    out.append(f"barriers: {flow([SIDES[s] for s in sorted(game.barriers)])}")
    if start.to_move:
        out.append(f"first: {flow(game.players[start.to_move])}")
    out.append("moves:")
    state = start
    for number, action in enumerate(actions, 1):
        text = notation(action)
        out.append(f"  - {text:<22} # {number} {comment(state.player)}")
        state = state.after(action)
    return "\n".join(out) + "\n"


__all__ = ["FIELDS", "OrbitusReplay", "record_text", "replay"]
