"""Games being played in the browser: seats, links, moves, bots, undo, live updates.

A :class:`Session` is one game: its states move by move (kept in memory and in SQLite, so
a restarted server resumes it), its seats (a person or a bot of the simulator), and the
pages watching it. Every page belongs to a link:

* a **seat link** (``/s/TOKEN``) plays one seat and is sent ``view_for(state, seat)``
  only: its own hand, never another's or the deck's order;
* the **spectator link** (``/w/TOKEN``) sees what is public;
* the **host link** (``/h/TOKEN``, given to whoever created the game) sees what is
  public, the seat links with their QR codes, and may abandon the game or replace a
  seat's link (the old one then stops working).

Tokens are 128-bit random (``secrets.token_urlsafe(16)``). A move is checked against the
link (the seat to move, the version of the game the page saw) before the rules core is
asked; the rules core's sentence explains an illegal move. Updates go to every page of
the game over its WebSocket as soon as a move is made.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from rules.game import MAX_SEED, IllegalAction, NotationError
from web.adapters import play_adapter
from web.errors import WebError
from web.store import GameRow, Store

BOTS = ("random", "greedy", "mcts")
MAX_NAME = 24


def clean_name(value: Any, seat: int) -> str:
    """A player's name as the page gave it: plain text, one line, at most 24 characters."""
    if not isinstance(value, str) or not value.strip():
        raise WebError(422, f"seat {seat + 1}: the name must be text, e.g. Anna")
    name = " ".join(value.split())
    if len(name) > MAX_NAME or not name.isprintable() or name[0] in "#&*!|>'\"%@`[]{},:-?":
        raise WebError(422, f"seat {seat + 1}: {name[:MAX_NAME]!r} is not a name this page "
                            f"takes: at most {MAX_NAME} letters, digits and spaces, not "
                            f"starting with a sign")
    return name


@dataclass
class Watcher:
    """One page following a game (its WebSocket's ``send`` and ``close``, its link)."""

    send: Callable[[str], Awaitable[None]]
    role: str
    seat: int | None
    token: str = ""
    close: Callable[[], Awaitable[None]] | None = None


@dataclass
class Session:
    """One game being played (see the module docstring)."""

    id: str
    game: str
    adapter: ModuleType
    ruleset: Any
    names: list[str]
    kinds: list[str]
    seed: int
    status: str
    created: float
    states: list[Any]
    actions: list[Any]
    movers: list[int]
    version: int = 0
    texts: list[str] = field(default_factory=list)  # each move as written, in order
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: list[Watcher] = field(default_factory=list)
    _public: tuple[int, dict[str, Any]] | None = None
    _legal: tuple[int, dict[str, Any] | None] | None = None
    _texts: dict[tuple[str, int | None], tuple[tuple[int, bool], str]] = field(
        default_factory=dict)
    thinking: bool = False

    def __post_init__(self) -> None:
        if len(self.texts) != len(self.actions):
            self.texts = [self.adapter.text(self.states[k], a)
                          for k, a in enumerate(self.actions)]

    @property
    def state(self) -> Any:
        return self.states[-1]

    @property
    def over(self) -> bool:
        return bool(self.adapter.game.is_over(self.state))

    @property
    def to_move(self) -> int:
        return -1 if self.over else int(self.adapter.game.current_player(self.state))

    @property
    def humans(self) -> list[int]:
        return [s for s, k in enumerate(self.kinds) if k == "human"]

    def public(self) -> dict[str, Any]:
        if self._public is None or self._public[0] != self.version:
            self._public = (self.version, self.adapter.public(self.state))
        return self._public[1]

    def legal(self) -> dict[str, Any] | None:
        if self._legal is None or self._legal[0] != self.version:
            found = None if self.over or self.status != "active" else \
                self.adapter.legal(self.state)
            self._legal = (self.version, found)
        return self._legal[1]

    def history(self) -> list[dict[str, Any]]:
        return [{"seat": seat, "text": text}
                for seat, text in zip(self.movers, self.texts, strict=True)]

    def can_undo(self, seat: int | None) -> bool:
        """Undo is for games against bots: one person, the rest bots, and a move of theirs
        to take back."""
        return (seat is not None and self.humans == [seat] and seat in self.movers
                and self.status in ("active", "finished"))

    def message(self, role: str, seat: int | None) -> dict[str, Any]:
        """The state message a page of ``role`` (for ``seat``) is sent."""
        out: dict[str, Any] = {
            "type": "state",
            "id": self.id,
            "game": self.game,
            "version": self.version,
            "role": role,
            "seat": seat,
            "players": [{"name": n, "kind": k} for n, k in zip(self.names, self.kinds,
                                                                strict=True)],
            "status": self.status,
            "thinking": self.thinking,
            "view": self.public(),
            "history": self.history(),
            "can_undo": self.can_undo(seat) if role == "seat" else False,
        }
        if role == "seat" and seat is not None:
            out["private"] = self.adapter.private(self.state, seat)
            out["legal"] = self.legal() if seat == self.to_move else None
        if self.over or self.status != "active":
            result = self.adapter.game.result(self.state)
            out["result"] = {"winners": list(result.winners), "scores": list(result.scores),
                             "reason": result.reason}
        return out

    def message_text(self, role: str, seat: int | None) -> str:
        """:meth:`message` as JSON text, made once per version and page kind."""
        key = (role, seat)
        now = (self.version, self.thinking)
        found = self._texts.get(key)
        if found is None or found[0] != now:
            found = (now, json.dumps(self.message(role, seat), separators=(",", ":")))
            self._texts[key] = found
        return found[1]


class Manager:
    """Every game of one server: created, looked up by link, moved, persisted, broadcast."""

    def __init__(self, store: Store, rulesets: dict[str, Any], bot_delay: float = 0.4,
                 mcts_budget: int = 64) -> None:
        self.store = store
        self.rulesets = rulesets
        self.bot_delay = bot_delay
        self.mcts_budget = mcts_budget
        self.sessions: dict[str, Session] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    # --- making and finding games -------------------------------------------------------

    def create(self, game: str, players: Any, seed: Any = None) -> tuple[Session, dict[str, Any]]:
        """A new game; returns it and its links (the host's, the spectators', each
        person's seat)."""
        play = play_adapter(game)
        ruleset = self.rulesets[game]
        if not isinstance(players, list) or not players:
            raise WebError(422, "players must be a list of seats, e.g. [{\"name\": \"Anna\", "
                                "\"kind\": \"human\"}, {\"name\": \"Bot\", \"kind\": \"greedy\"}]")
        problem = play.seats_ok(ruleset, len(players))
        if problem:
            raise WebError(422, problem)
        names, kinds = [], []
        for seat, item in enumerate(players):
            if not isinstance(item, dict):
                raise WebError(422, f"seat {seat + 1}: expected {{name, kind}}")
            name = clean_name(item.get("name"), seat)
            if name in names:
                raise WebError(422, f"seat {seat + 1}: {name} is already seat "
                                    f"{names.index(name) + 1}; every player needs their own "
                                    f"name")
            kind = item.get("kind", "human")
            if kind not in ("human", *BOTS):
                raise WebError(422, f"seat {seat + 1}: {kind!r} is not a kind of seat; choose "
                                    f"human, {', '.join(BOTS)}")
            names.append(name)
            kinds.append(kind)
        if seed is None or seed == "":
            seed = secrets.randbelow(MAX_SEED + 1)
        elif isinstance(seed, str) and seed.strip().isdigit():
            seed = int(seed.strip())
        if type(seed) is not int or not 0 <= seed <= MAX_SEED:
            raise WebError(422, f"seed: {seed!r} is not a seed; give a whole number from 0 to "
                                f"2^63-1, or none for a random deal")
        try:
            start = play.new(ruleset, names, seed)
        except Exception as exc:  # SetupError: the definitions give no game
            raise WebError(422, f"these definitions give no game: {exc}") from None
        now = time.time()
        ident = secrets.token_hex(6)
        blob = play.game.encode(start)
        tokens = [(secrets.token_urlsafe(16), "host", None),
                  (secrets.token_urlsafe(16), "spectator", None)]
        tokens += [(secrets.token_urlsafe(16), "seat", s) for s, k in enumerate(kinds)
                   if k == "human"]
        self.store.create_game(GameRow(ident, game, names, kinds, seed, ruleset.to_data(),
                                       "active", now, now, blob, blob, 0), tokens)
        session = Session(ident, game, play, ruleset, names, kinds, seed, "active", now,
                          [start], [], [])
        self.sessions[ident] = session
        self.kick(session)
        return session, self.links(session)

    def links(self, session: Session) -> dict[str, Any]:
        out: dict[str, Any] = {"seats": {}}
        for token, role, seat in self.store.tokens(session.id):
            if role == "seat":
                out["seats"][str(seat)] = token
            else:
                out[role] = token
        return out

    def load(self, ident: str) -> Session | None:
        """A game from memory, else from SQLite (a restarted server resumes here)."""
        session = self.sessions.get(ident)
        if session is not None:
            return session
        row = self.store.game(ident)
        if row is None:
            return None
        play = play_adapter(row.game)
        from cards.files import definitions_of

        ruleset = definitions_of(row.game).RULESET.from_data(row.ruleset)
        states = [play.game.decode(ruleset, row.start)]
        actions, movers = [], []
        for move in self.store.moves(ident):
            actions.append(play.action_from(move.action))
            movers.append(move.seat)
            states.append(play.game.decode(ruleset, move.state))
        session = Session(row.id, row.game, play, ruleset, row.players, row.seats, row.seed,
                          row.status, row.created, states, actions, movers,
                          version=len(actions))
        self.sessions[ident] = session
        self.kick(session)
        return session

    def resolve(self, token: str) -> tuple[Session, str, int | None]:
        """The game, role and seat of a link; 404 for a link that never existed, 410 for
        one the host replaced."""
        found = self.store.token(token) if isinstance(token, str) and len(token) < 100 \
            else None
        if found is None:
            raise WebError(404, "this link belongs to no game here: check that it was copied "
                                "whole, or ask the host for the game's links again")
        ident, role, seat, revoked = found
        if revoked is not None:
            raise WebError(410, "this link was replaced by the game's host; ask the host for "
                                "the new one")
        session = self.load(ident)
        if session is None:  # pragma: no cover - tokens are deleted with their game
            raise WebError(404, "this link's game no longer exists")
        return session, role, seat

    # --- playing ----------------------------------------------------------------------------

    async def move(self, session: Session, seat: int, text: Any,
                   version: Any = None) -> int:
        """Make ``seat``'s move written ``text``; returns the game's version after it.
        Refused (4xx, the game unchanged) when it is not that seat's turn, the page
        saw an older position, or the rules forbid it (the rules core's sentence)."""
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise WebError(422, "the move must be text, e.g. place S07 @0,-1 r2 or c1-c4")
        async with session.lock:
            self._playable(session)
            if version is not None and version != session.version:
                raise WebError(409, "the game has moved on since this page last looked; it "
                                    "shows the position now, try again")
            to_move = session.to_move
            if seat != to_move:
                who = session.names[to_move]
                bot = f" (a {session.kinds[to_move]} bot)" if session.kinds[to_move] != \
                    "human" else ""
                raise WebError(409, f"it is {who}'s turn{bot}, not {session.names[seat]}'s; "
                                    f"wait for your turn")
            state = session.state
            try:
                action = session.adapter.parse(state, seat, text.strip())
            except NotationError as exc:
                raise WebError(422, str(exc)) from None
            except IllegalAction as exc:
                raise WebError(422, exc.reason) from None
            self._apply(session, seat, action)
            version = session.version
        self.kick(session)
        await self.broadcast(session)
        return version

    def _playable(self, session: Session) -> None:
        if session.status == "abandoned":
            raise WebError(409, "this game was abandoned by its host; it can be replayed "
                                "but not played on")
        if session.over or session.status == "finished":
            raise WebError(409, "this game is over")

    def _apply(self, session: Session, seat: int, action: Any) -> None:
        play = session.adapter
        new = play.game.apply(session.state, action)
        status = "finished" if play.game.is_over(new) else "active"
        self.store.add_moves(session.id, len(session.actions),
                             [(seat, play.action_data(action), play.game.encode(new))], status)
        session.texts.append(play.text(session.state, action))
        session.states.append(new)
        session.actions.append(action)
        session.movers.append(seat)
        session.status = status
        session.version += 1

    async def undo(self, session: Session, seat: int) -> dict[str, Any]:
        """Take back ``seat``'s last move and the bots' moves after it (games against
        bots only)."""
        async with session.lock:
            if not session.can_undo(seat):
                if session.humans != [seat]:
                    raise WebError(409, "undo is for games against bots (one person, every "
                                        "other seat a bot)")
                raise WebError(409, "there is no move of yours to take back")
            last = max(k for k, s in enumerate(session.movers) if s == seat)
            del session.states[last + 1:]
            del session.actions[last:]
            del session.movers[last:]
            del session.texts[last:]
            session.status = "active"
            session.version += 1
            self.store.truncate(session.id, last,
                                session.adapter.game.encode(session.state))
        await self.broadcast(session)
        return session.message("seat", seat)

    async def abandon(self, session: Session) -> None:
        async with session.lock:
            if session.status != "active":
                raise WebError(409, f"the game is already {session.status}")
            session.status = "abandoned"
            session.version += 1
            self.store.set_status(session.id, "abandoned")
        await self.broadcast(session)

    async def relink(self, session: Session, seat: Any) -> dict[str, Any]:
        """A new link for a person's seat; the old one stops working (410), and the pages
        open on it are told so and disconnected."""
        links = self.links(session)
        old = links["seats"].get(str(seat))
        if old is None:
            raise WebError(422, f"seat {seat!r} is not a person's seat of this game")
        self.store.replace_token(session.id, old, secrets.token_urlsafe(16))
        gone = WebError(410, "this link was replaced by the game's host; ask the host for the "
                             "new one")
        for watcher in [w for w in session.watchers if w.token == old]:
            session.watchers.remove(watcher)
            with contextlib.suppress(Exception):
                await watcher.send(json.dumps({"type": "error", **gone.to_json()}))
                if watcher.close is not None:
                    await watcher.close()
        return self.links(session)

    # --- bots -------------------------------------------------------------------------------

    def kick(self, session: Session) -> None:
        """Let the bots move if one is to move (in the background)."""
        if session.status != "active" or session.over or session.thinking:
            return
        if session.kinds[session.to_move] == "human":
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # loaded outside the server's loop (tests): no bots to run
            return
        session.thinking = True
        task = loop.create_task(self._bots(session))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _bots(self, session: Session) -> None:
        try:
            while True:
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                async with session.lock:
                    if session.status != "active" or session.over:
                        return
                    seat = session.to_move
                    kind = session.kinds[seat]
                    if kind == "human":
                        return
                    state, ply = session.state, len(session.actions)
                    action = await asyncio.to_thread(self._choose, session, state, seat, kind,
                                                     ply)
                    self._apply(session, seat, action)
                    more = not session.over and session.kinds[session.to_move] != "human"
                    session.thinking = more
                await self.broadcast(session)
                if not more:
                    return
        finally:
            session.thinking = False
            with contextlib.suppress(Exception):
                await self.broadcast(session)

    def _choose(self, session: Session, state: Any, seat: int, kind: str, ply: int) -> Any:
        from sim.bots import Turn, make_bot
        from sim.play import adapter as sim_adapter

        sim = sim_adapter(session.game)
        game = sim.game
        turn = Turn(seat, game.view_for(state, seat), sim.legal(state), sim.public(state), sim)
        rng = random.Random(f"{session.seed}:{ply}:{seat}")
        return make_bot(kind, self.mcts_budget).choose(turn, rng)

    # --- pages ------------------------------------------------------------------------------

    async def broadcast(self, session: Session) -> None:
        """Send every page of the game the position as its link may see it."""
        for watcher in list(session.watchers):
            try:
                await watcher.send(session.message_text(watcher.role, watcher.seat))
            except Exception:
                with contextlib.suppress(ValueError):
                    session.watchers.remove(watcher)

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(BaseException):
                await task


def replay_of(session: Session) -> dict[str, Any]:
    """Every position of a finished or abandoned game, with the move that led to it (the
    replay viewer); refused while the game is being played (it would show the hands)."""
    if session.status == "active":
        raise WebError(409, "the game is still being played; its replay (which shows every "
                            "hand) opens once it is finished or abandoned")
    play = session.adapter
    steps = [{"ply": 0, "seat": None, "text": "the deal", "view": play.full(session.states[0])}]
    for k, (seat, action) in enumerate(zip(session.movers, session.actions, strict=True)):
        steps.append({"ply": k + 1, "seat": seat, "text": play.text(session.states[k], action),
                      "view": play.full(session.states[k + 1])})
    result = play.game.result(session.state)
    return {"id": session.id, "game": session.game, "players": session.names,
            "kinds": session.kinds, "seed": session.seed, "status": session.status,
            "steps": steps, "result": {"winners": list(result.winners),
                                       "scores": list(result.scores),
                                       "reason": result.reason}}


def record_of(session: Session) -> str:
    """The game record ``pnp-replay`` replays to the same position (finished or abandoned
    games only: the record holds the seed, so it tells the deal)."""
    if session.status == "active":
        raise WebError(409, "the game is still being played; its record (which tells the "
                            "deal) can be exported once it is finished or abandoned")
    seats = ", ".join(f"{n} ({k})" for n, k in zip(session.names, session.kinds, strict=True))
    note = (f"{session.game} played in pnp-web, game {session.id}, {session.status}; "
            f"seats: {seats}")
    return session.adapter.record(session.states[0], session.actions, session.seed, note)
