"""The state messages a move sends, made fast (issue 22, scale): every page's message is put
together from pieces encoded once per moment, and a seat's legal actions are read from the
rules core's groups of placements. Both must say exactly what the plain ways say: the
message as one ``json.dumps`` of :meth:`Session.message`, the legal actions grouped from
every action the rules core lists."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from rules.orbitus import GAME as ORBITUS  # noqa: E402
from rules.orbitus.actions import DISCARD, PASS, PLACE, REMOVE  # noqa: E402
from rules.orbitus.score import score  # noqa: E402
from scorer.orbitus.report import to_json  # noqa: E402
from testkit.web import players  # noqa: E402
from web import play_orbitus  # noqa: E402
from web.app import Context  # noqa: E402
from web.games import Session, Watcher  # noqa: E402
from web.store import Store  # noqa: E402
from web.wire import standard  # noqa: E402


def _random_games(ruleset: Any, seeds: Any, offset: int, kinds: set[int],
                  forget: bool = False) -> Any:
    """``(seed, state)`` at every position of whole random games of 2 to 6 players (the
    game of ``seed`` has ``2 + seed % 5``), each move a random action of a random kind
    (its generator seeded ``offset + seed``), the kinds played added to ``kinds``; with
    ``forget``, each past position forgets what it worked out, as the server does."""
    for seed in seeds:
        rng = random.Random(offset + seed)
        names = ["A", "B", "C", "D", "E", "F"][:2 + seed % 5]
        state = ORBITUS.new_game(ruleset, names, seed)
        while True:
            yield seed, state
            if ORBITUS.is_over(state):
                break
            legal = list(ORBITUS.legal_actions(state))
            kind = rng.choice(sorted({a.kind for a in legal}))
            kinds.add(kind)
            before = state
            state = ORBITUS.apply(state, rng.choice([a for a in legal if a.kind == kind]))
            if forget:
                before.forget()  # a past position keeps only the position


def grouped_plainly(state: Any) -> dict[str, Any]:
    """The page's legal actions as they were made before: from every action, one by one."""
    place: dict[str, dict[str, list[int]]] = {}
    remove: list[list[int]] = []
    discard: list[str] = []
    can_pass = False
    for action in ORBITUS.legal_actions(state):
        if action.kind == PLACE:
            place.setdefault(action.card, {}).setdefault(
                f"{action.cell[0]},{action.cell[1]}", []).append(action.rot)
        elif action.kind == REMOVE:
            remove.append(list(action.cell))
        elif action.kind == DISCARD:
            discard.append(action.card)
        else:
            can_pass = True
    return {"place": place, "remove": remove, "discard": discard, "pass": can_pass}


def pages(session: Session) -> list[tuple[str, int | None]]:
    return [("host", None), ("spectator", None)] + [("seat", s) for s in range(len(session.names))]


def same_messages(session: Session) -> None:
    for role, seat in pages(session):
        text = session.message_text(role, seat)
        assert json.loads(text) == session.message(role, seat), (role, seat, session.version)
        assert text == standard(session.message(role, seat)), (role, seat, session.version)
        assert session.message_text(role, seat) is text  # made once per moment


def test_the_legal_actions_grouped_from_the_rules_cores_groups_are_every_action(
        tmp_path: Path) -> None:
    context = Context(Store(tmp_path / "data"), bot_delay=0)
    rng = random.Random(5)
    positions = 0
    for seed in range(3):
        state = ORBITUS.new_game(context.rulesets["orbitus"], ["A", "B", "C"], seed)
        while not ORBITUS.is_over(state) and positions < 150:
            out = play_orbitus.legal(state)
            plain = grouped_plainly(state)
            assert {k: out[k] for k in plain} == plain
            positions += 1
            state = ORBITUS.apply(state, rng.choice(list(ORBITUS.legal_actions(state))))
    assert positions >= 100


def test_the_live_score_made_from_the_systems_parts_kept_is_pnp_scores_at_every_position(
        tmp_path: Path) -> None:
    """The public view's score (each system's part made once and kept while a game takes
    its score over from the position before) and its owner map, position after position of
    games with removals and discards, say what ``pnp score --json`` says of the table and
    who owns each sector, worked out from scratch."""
    context = Context(Store(tmp_path / "data"), bot_delay=0)
    positions = kinds = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = ORBITUS.new_game(context.rulesets["orbitus"], ["A", "B", "C", "D"], seed)
        while not ORBITUS.is_over(state):
            view = play_orbitus.public(state)
            fresh = score(state.to_table(), state.game.ruleset.scoring)
            assert view["score"] == to_json(fresh), (seed, positions)
            assert view["owner"] == {f"{q},{r}": p.seat for p in fresh.players
                                     for q, r in p.sectors}, (seed, positions)
            positions += 1
            legal = list(ORBITUS.legal_actions(state))
            kind = rng.choice(sorted({a.kind for a in legal}))  # removals come up too
            kinds |= 1 << kind
            state = ORBITUS.apply(state, rng.choice([a for a in legal if a.kind == kind]))
    assert positions >= 200 and kinds == 0b1111


def test_the_public_views_text_made_from_kept_pieces_is_its_json_byte_for_byte(
        tmp_path: Path) -> None:
    """The public view's text (the game's seats and station, each sector's entry, each
    system's part of the score and of the owner map kept from move to move) is the text
    both JSON writers make of the view, byte for byte, at every position of whole games of
    2 to 6 players with placements, removals, discards and passes, to their end."""
    from web.wire import dumps, standard

    context = Context(Store(tmp_path / "data"), bot_delay=0)
    positions = 0
    kinds: set[int] = set()
    for seed, state in _random_games(context.rulesets["orbitus"], range(15), 0, kinds):
        view = play_orbitus.public(state)
        text = play_orbitus.public_text(state)
        assert text == dumps(view) == standard(view), (seed, positions)
        positions += 1
    assert positions >= 1000 and kinds == {DISCARD, PLACE, REMOVE, PASS}


def test_the_public_view_and_legal_actions_of_a_game_played_on_are_those_of_the_position_alone(
        tmp_path: Path) -> None:
    """A game played on works out each position from the one before (its analysis, free
    cells, open routes and score carried over); the public view's text and the legal
    actions' JSON the pages are sent are, byte for byte, those of the same position read
    back from its SQLite bytes with nothing carried (analysed and scored from scratch), at
    every position of whole games of 2 to 6 players with placements, removals, discards
    and passes, to their end."""
    from web.wire import dumps

    context = Context(Store(tmp_path / "data"), bot_delay=0)
    ruleset = context.rulesets["orbitus"]
    positions = 0
    kinds: set[int] = set()
    for seed, state in _random_games(ruleset, range(10), 100, kinds, forget=True):
        alone = ORBITUS.decode(ruleset, ORBITUS.encode(state))
        assert alone._info is None and alone._before is None
        assert play_orbitus.public_text(state) == play_orbitus.public_text(alone), \
            (seed, positions)
        assert dumps(play_orbitus.legal(state)) == dumps(play_orbitus.legal(alone)), \
            (seed, positions)
        positions += 1
    assert positions >= 700 and kinds == {DISCARD, PLACE, REMOVE, PASS}


@pytest.mark.parametrize("game", ["orbitus", "satellites"])
def test_every_pages_message_text_says_what_its_message_says(tmp_path: Path, game: str) -> None:
    """Through moves, who is connected, a seat asked to hand on, a move taken back (the
    moves' cached text then made again), and the end of the game with its result."""
    context = Context(Store(tmp_path / "data"), bot_delay=0)
    manager = context.games
    rng = random.Random(11)

    async def nothing(text: str) -> None:
        return None

    async def run() -> None:
        kinds = ["human", "human"] if game == "satellites" else ["human"] * 3
        session, _, _ = manager.create(game, players(kinds), 4)
        for seat in range(len(kinds)):
            await manager.take_seat(session, seat)
        same_messages(session)
        watcher = Watcher(nothing, "seat", 0)
        await manager.watch(session, watcher)
        same_messages(session)
        await manager.ask_hand_on(session, 1)
        same_messages(session)
        took_back = 0
        moves = 0
        while session.status == "active" and moves < 400:
            legal = session.adapter.game.legal_actions(session.state)
            action = rng.choice(list(legal))
            seat = session.to_move
            await manager.move(session, seat, session.adapter.text(session.state, action))
            moves += 1
            same_messages(session)
            # can_undo's shortcut (another person moved last) says what take_back_from says
            assert [session.can_undo(s) for s in range(len(kinds))] == \
                [session.take_back_from(s)[0] is not None for s in range(len(kinds))]
            if session.take_back_from(seat)[0] is not None and took_back < 5:
                await manager.unwatch(session, watcher)  # no page: nothing made at the undo
                await manager.undo(session, seat)
                took_back += 1
                other = [a for a in session.adapter.game.legal_actions(session.state)
                         if a != action]
                if other:  # another move in its place: its text, not the one taken back
                    await manager.move(session, seat,
                                       session.adapter.text(session.state, rng.choice(other)))
                    moves += 1
                same_messages(session)
                assert [m["text"] for m in json.loads(session.message_text(
                    "host", None))["history"]] == session.texts
                await manager.watch(session, watcher)
        assert took_back
        if session.status == "active":
            await manager.abandon(session)
        same_messages(session)
        assert "result" in json.loads(session.message_text("spectator", None))

    asyncio.run(run())


def test_the_legal_actions_are_made_only_for_a_seat_to_move_whose_page_is_open(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A move sends every page its message; the legal actions go only to the page of the
    seat to move, so they are worked out only when that page is open (a seat played by a
    bot, or whose player closed the page, costs none): here seats 1 and 2 of three have
    pages, and the legal actions are made at exactly the positions where one of them is
    to move, once each."""
    context = Context(Store(tmp_path / "data"), bot_delay=0)
    manager = context.games
    made: list[int] = []
    legal = play_orbitus.legal
    monkeypatch.setattr(play_orbitus, "legal", lambda state: made.append(state.turn) or
                        legal(state))
    sent: list[str] = []

    async def send(text: str) -> None:
        sent.append(text)

    async def run() -> list[int]:
        session, _, _ = manager.create("orbitus", players(["human"] * 3), 8)
        for seat in (1, 2):
            await manager.watch(session, Watcher(send, "seat", seat))
        rng = random.Random(3)
        wanted = []
        for _ in range(30):
            state = session.state
            if session.to_move in (1, 2):
                wanted.append(state.turn)
            action = rng.choice(list(ORBITUS.legal_actions(state)))
            await manager.move(session, session.to_move, session.adapter.text(state, action))
        if session.to_move in (1, 2):
            wanted.append(session.state.turn)
        return wanted

    wanted = asyncio.run(run())
    assert made == wanted and 15 <= len(made) <= 25
    assert sum('"legal":{' in text for text in sent) == len(made)


def test_a_page_dropped_when_its_send_fails_shows_as_gone_on_the_others(tmp_path: Path) -> None:
    """The texts that a move leaves as they were (who is connected among them) are made
    again when a page is dropped because its frame could not be sent."""
    context = Context(Store(tmp_path / "data"), bot_delay=0)
    manager = context.games

    async def fine(text: str) -> None:
        return None

    async def gone(text: str) -> None:
        raise ConnectionResetError("the page went away")

    async def run() -> None:
        session, _, _ = manager.create("orbitus", players(["human"] * 3), 4)
        await manager.watch(session, Watcher(fine, "seat", 0))
        session.watchers.append(Watcher(gone, "seat", 1))
        session.presence += 1
        assert json.loads(session.message_text("seat", 0))["players"][1]["connected"]
        legal = ORBITUS.legal_actions(session.state)
        await manager.move(session, session.to_move, session.adapter.text(session.state,
                                                                          legal[0]))
        said = json.loads(session.message_text("seat", 0))["players"]
        assert [p["connected"] for p in said] == [True, False, False]
        same_messages(session)

    asyncio.run(run())
