"""Games being played in the browser: seats, links, moves, bots, taking back, live updates.

A :class:`Session` is one game: its states move by move (kept in memory and in SQLite, so
a restarted server resumes it), its seats (a person or a bot of the simulator), and the
pages watching it. Every page belongs to a link:

* a **seat link** (``/s/SECRET``) plays one seat and is sent ``view_for(state, seat)``
  only: its own hand, never another's or the deck's order. Nobody hands it out: each
  player *takes* their seat on their own device, with the game's **join code** (``/j/CODE``
  or typed on the home page), and the server makes that device a secret of its own, shown
  to it once (the store keeps only its digest). Whoever created the game takes their own
  seat the same way (or at once, when the game is created), so the host never holds
  another seat's secret;
* the **spectators' link** (``/w/TOKEN``) sees what is public;
* the **host link** (``/h/TOKEN``, given once to whoever created the game) sees what is
  public, the join code and who holds which seat, may abandon the game, ask a seat's
  device to hand the seat on, and free a seat whose device is gone (its secret then stops
  working, and the seat can be taken again with the join code). Every page of the game
  is told when a seat is taken, freed or handed on.

The seed stays on the server until the game is over (a seed gives every hand and the
deck's order): no answer carries it before; the record and the replay, which hold it, open
once the game is finished or abandoned. A game whose creator chose the seed says so to
every seat (``dealt: "chosen"``).

A move is checked against the link (the seat to move, the version of the game the page
saw) before the rules core is asked; the rules core's sentence explains an illegal move.
A move may be taken back by the seat that made it while no one has moved since (against
bots: with the bots' answers), never across a card drawn (the adapter's ``reveals``) or
the end of the game. Updates go to every page of the game over its WebSocket as soon as a
move is made. Bots choose their moves in the server's worker processes (:mod:`web.work`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import rules
from rules.game import MAX_SEED, IllegalAction, NotationError
from web import wire
from web.adapters import play_adapter
from web.errors import WebError
from web.store import GameRow, Store, StoreFailure, digest
from web.work import Workers

BOTS = ("random", "greedy", "mcts")
MAX_NAME = 24
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no I, O, 0, 1: read aloud, typed
CODE_LENGTH = 6
IDLE_DONE = 120.0  # s: a finished game nobody looks at leaves memory after this
IDLE_ACTIVE = 3600.0  # s: and a game in progress nobody looks at (and no bot plays)
BOT_IDLE = 900.0  # s: a game with bots not played for this long does not count as playing
RETRY = 5.0  # s: a bot's move that could not be saved is tried again after this
GONE = "this seat was handed to another device (or freed by the game's host); take it " \
       "again with the game's join code"


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


def clean_code(value: Any) -> str:
    """A join code as typed: upper case, without spaces or dashes."""
    if not isinstance(value, str):
        return ""
    return "".join(ch for ch in value.upper() if ch.isalnum())[:20]


def new_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


@dataclass
class Watcher:
    """One page following a game (its WebSocket's ``send`` and ``close``, its link)."""

    send: Callable[[str], Awaitable[None]]
    role: str
    seat: int | None
    token: str = ""  # the digest of its link's secret
    close: Callable[[int, str], Awaitable[None]] | None = None


@dataclass
class Answer:
    """The answer a page is owed for a move (or a taking back) it sent over its WebSocket:
    its ``id``, told to that page in the first state message it is sent after the move is
    saved (``"ok": id``, :func:`answered`), not in a frame of its own. ``sent`` says
    whether it went: when it could not (the page was no longer listed), the WebSocket
    answers ``{"type": "ok", "id": ..., "version": ...}`` as before."""

    watcher: Watcher
    id: Any
    sent: bool = False


def answered(text: str, ident: Any) -> str:
    """A state message's text (``{"type":"state",...}``) with the answer to the page's move
    ``ident`` in it, right after its type: ``{"type":"state","ok":ident,...}``."""
    return f'{text[:16]}"ok":{_dumps(ident)},{text[16:]}'


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
    code: str = ""
    watch: str = ""
    dealt: str = "random"
    taken: set[int] = field(default_factory=set)
    events: list[dict[str, Any]] = field(default_factory=list)
    asked: set[int] = field(default_factory=set)  # seats the host asked to hand on
    texts: list[str] = field(default_factory=list)  # each move as written, in order
    design: dict[str, Any] | None = None  # the design it is played by (cards.design)
    design_note: str | None = None  # said when the server's definitions are now another
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: list[Watcher] = field(default_factory=list)
    thinking: bool = False
    touched: float = field(default_factory=time.monotonic)
    played: float = field(default_factory=time.monotonic)  # the last move
    presence: int = 0  # counts every change of who holds and watches the seats
    _public: tuple[int, dict[str, Any]] | None = None
    _legal: tuple[int, dict[str, Any] | None] | None = None
    _texts: dict[tuple[str, int | None], tuple[tuple[int, bool, int], str]] = field(
        default_factory=dict)
    _shared: tuple[tuple[int, bool, int], dict[str, str]] | None = None
    _steady: tuple[tuple[Any, ...], dict[str, str]] | None = None  # _steady_texts's
    _view_text: tuple[int, str] | None = None  # version, the view's JSON
    _legal_text: tuple[int, str] | None = None  # version, the legal actions' JSON
    _moves_text: list[str] = field(default_factory=list)  # each move's JSON, in order
    # the moves' JSON joined: how many, the last of them (the very string), the text
    _history: tuple[int, str | None, str] = (0, None, "")
    _undo: tuple[int, dict[int | None, bool]] = field(default_factory=lambda: (-1, {}))

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
    def hides(self) -> bool:
        """Whether a seat holds something the others do not see (so a chosen seed matters)."""
        return bool(getattr(self.adapter, "HIDES", True))

    @property
    def humans(self) -> list[int]:
        return [s for s, k in enumerate(self.kinds) if k == "human"]

    @property
    def has_bots(self) -> bool:
        return any(k != "human" for k in self.kinds)

    def connected(self) -> list[bool]:
        """Whether each seat has a page open now."""
        here = {w.seat for w in self.watchers if w.role == "seat"}
        return [s in here for s in range(len(self.names))]

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

    def public_text(self) -> str:
        """:meth:`public` as JSON text: the adapter's ``public_text`` where it has one (the
        same text, made from pieces it keeps from move to move)."""
        made = getattr(self.adapter, "public_text", None)
        if made is None or self._public is not None and self._public[0] == self.version:
            return _dumps(self.public())
        return str(made(self.state))

    def history(self) -> list[dict[str, Any]]:
        return [{"seat": seat, "text": text}
                for seat, text in zip(self.movers, self.texts, strict=True)]

    # --- taking a move back -----------------------------------------------------------

    def take_back_from(self, seat: int | None) -> tuple[int | None, str]:
        """The ply ``seat`` may take the game back to, or None and why not: its last move
        (against bots, with the bots' answers after it) while no one else has moved since,
        the game is not over, and no card was drawn since (a card once seen stays drawn)."""
        if seat is None or seat not in self.movers:
            return None, "there is no move of yours to take back"
        if self.status == "abandoned":
            return None, "the game was abandoned; its moves stand"
        if self.status != "active" or self.over:
            return None, "the game is over; its end stands (a move is never taken back " \
                         "across the end of a game)"
        last = len(self.movers) - 1 - self.movers[::-1].index(seat)  # its last move
        others = [s for s in self.movers[last + 1:] if s != seat]
        if any(self.kinds[s] == "human" for s in others):
            who = self.names[next(s for s in others if self.kinds[s] == "human")]
            return None, f"{who} has moved since; a move can be taken back only until the " \
                         f"next player acts"
        for k in range(last, len(self.actions)):
            if self.adapter.reveals(self.states[k], self.states[k + 1]):
                what = "your move" if k == last else f"{self.names[self.movers[k]]}'s move"
                return None, f"{what} ({self.texts[k]}) drew a card; a move is never taken " \
                             f"back across a draw (the card has been seen)"
        return last, ""

    def can_undo(self, seat: int | None) -> bool:
        """Whether ``seat`` may take a move back now (worked out once per position)."""
        if self._undo[0] != self.version:
            self._undo = (self.version, {})
        found = self._undo[1]
        if seat not in found:
            movers = self.movers
            if movers and movers[-1] != seat and self.kinds[movers[-1]] == "human":
                # another person made the last move: they moved since this seat's last move
                # (take_back_from's answer, without walking the moves)
                found[seat] = False
            else:
                found[seat] = self.take_back_from(seat)[0] is not None
        return found[seat]

    # --- what the pages are sent --------------------------------------------------------

    def message(self, role: str, seat: int | None) -> dict[str, Any]:
        """The state message a page of ``role`` (for ``seat``) is sent."""
        here = self.connected()
        out: dict[str, Any] = {
            "type": "state",
            "id": self.id,
            "game": self.game,
            "version": self.version,
            "role": role,
            "seat": seat,
            "players": [{"name": n, "kind": k, "taken": s in self.taken, "connected": here[s]}
                        for s, (n, k) in enumerate(zip(self.names, self.kinds, strict=True))],
            "status": self.status,
            "thinking": self.thinking,
            "dealt": self.dealt,
            "hides": self.hides,
            "view": self.public(),
            "history": self.history(),
            "events": self.events[-20:],
            "can_undo": role == "seat" and self.can_undo(seat),
        }
        if role in ("host", "seat"):
            out["code"] = self.code
        if self.design:
            out["design"] = {"stamp": self.design.get("stamp"), "note": self.design_note}
        if role == "seat" and seat is not None:
            out["private"] = self.adapter.private(self.state, seat)
            out["legal"] = self.legal() if seat == self.to_move else None
            out["asked"] = seat in self.asked
        if self.over or self.status != "active":
            result = self.adapter.game.result(self.state)
            out["result"] = {"winners": list(result.winners), "scores": list(result.scores),
                             "reason": result.reason}
        return out

    def message_text(self, role: str, seat: int | None) -> str:
        """:meth:`message` as JSON text, made once per moment and page kind. What every page
        of the moment shares (the view, the moves, the players) is encoded once and put
        together with what is its own (a seat's hand, its legal actions): a move costs one
        encoding of the table, not one per page."""
        key = (role, seat)
        now = (self.version, self.thinking, self.presence)
        found = self._texts.get(key)
        if found is not None and found[0] == now:
            return found[1]
        shared = self._shared_texts(now)
        parts = ['{"type":"state",', shared["head"], ',"role":', _ROLES.get(role) or _dumps(role),
                 ',"seat":', "null" if seat is None else str(int(seat)), shared["body"],
                 ',"can_undo":', "true" if role == "seat" and self.can_undo(seat) else "false"]
        if role in ("host", "seat"):
            parts += [',"code":', shared["code"]]
        parts.append(shared["design"])
        if role == "seat" and seat is not None:
            parts += [',"private":', _dumps(self.adapter.private(self.state, seat)),
                      ',"legal":', self._legal_json() if seat == self.to_move else "null",
                      ',"asked":', "true" if seat in self.asked else "false"]
        parts += [shared["result"], "}"]
        text = "".join(parts)
        self._texts[key] = (now, text)
        return text

    def _legal_json(self) -> str:
        """The legal actions' JSON, made when the page of the seat to move is sent it (a
        seat played by a bot, or whose page is closed, has none made at each move)."""
        if self._legal_text is None or self._legal_text[0] != self.version:
            self._legal_text = (self.version, _dumps(self.legal()))
        return self._legal_text[1]

    def _history_text(self) -> str:
        """The moves' JSON joined by commas, made from the text of the moves before with the
        new ones added (a move adds one entry, not a join of every move again). The moves
        joined before are still these while the last of them is the very string it was: a
        move taken back removes it, and a move made after puts a new string there."""
        count, last, text = self._history
        moves = self._moves_text
        if count > len(moves) or count and moves[count - 1] is not last:
            count, text = 0, ""  # moves taken back since: joined again
        if count < len(moves):
            more = ",".join(moves[count:])
            text = f"{text},{more}" if count else more
            self._history = (len(moves), moves[-1], text)
        return text

    def _shared_texts(self, now: tuple[int, bool, int]) -> dict[str, str]:
        if self._shared is not None and self._shared[0] == now:
            return self._shared[1]
        if self._view_text is None or self._view_text[0] != self.version:
            self._view_text = (self.version, self.public_text())
        del self._moves_text[len(self.actions):]  # moves taken back
        for k in range(len(self._moves_text), len(self.actions)):
            self._moves_text.append(_dumps({"seat": self.movers[k], "text": self.texts[k]}))
        steady = self._steady_texts()
        result = ""
        if self.over or self.status != "active":
            outcome = self.adapter.game.result(self.state)
            result = ',"result":' + _dumps({"winners": list(outcome.winners),
                                            "scores": list(outcome.scores),
                                            "reason": outcome.reason})
        texts = {
            "head": f'{steady["ident"]},"version":{self.version}',
            "body": f'{steady["people"]},"view":{self._view_text[1]},'
                    f'"history":[{self._history_text()}]{steady["events"]}',
            "result": result,
            "design": steady["design"],
            "code": steady["code"],
        }
        self._shared = (now, texts)
        return texts

    def _steady_texts(self) -> dict[str, str]:
        """The parts of the pages' texts that a move leaves as they were (who holds and
        watches the seats, the status, the events, the design, the join code): made again
        only when one of them changed, not at every move."""
        key = (self.presence, self.status, self.thinking, len(self.events), self.code,
               self.design_note, self.dealt)
        if self._steady is not None and self._steady[0] == key:
            return self._steady[1]
        here = self.connected()
        players = [{"name": n, "kind": k, "taken": s in self.taken, "connected": here[s]}
                   for s, (n, k) in enumerate(zip(self.names, self.kinds, strict=True))]
        texts = {
            "ident": f'"id":{_dumps(self.id)},"game":{_dumps(self.game)}',
            "people": f',"players":{_dumps(players)},"status":{_dumps(self.status)},'
                      f'"thinking":{_dumps(self.thinking)},"dealt":{_dumps(self.dealt)},'
                      f'"hides":{_dumps(self.hides)}',
            "events": f',"events":{_dumps(self.events[-20:])}',
            "design": ',"design":' + _dumps({"stamp": self.design.get("stamp"),
                                              "note": self.design_note})
                      if self.design else "",
            "code": _dumps(self.code),
        }
        self._steady = (key, texts)
        return texts


_dumps = wire.dumps
_ROLES = {role: _dumps(role) for role in ("host", "seat", "spectator")}  # as the texts write them
log = logging.getLogger("pnp-web")


class Manager:
    """Every game of one server: created, looked up by link, moved, persisted, broadcast."""

    def __init__(self, store: Store, rulesets: dict[str, Any], bot_delay: float = 0.4,
                 mcts_budget: int = 64, workers: Workers | None = None,
                 bot_games: int = 4) -> None:
        self.store = store
        self.rulesets = rulesets
        self.bot_delay = bot_delay
        self.mcts_budget = mcts_budget
        self.workers = workers or Workers(None, 1)
        self.bot_games = bot_games
        self.sessions: dict[str, Session] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.idle_done = IDLE_DONE
        self.idle_active = IDLE_ACTIVE
        self.designs: dict[str, dict[str, Any]] = {}  # game -> the design of its definitions

    def warm(self) -> None:
        """Let each game's play adapter work out at once what its rules core would
        otherwise work out as the first moves come (its ``prepare``, where it has one)."""
        for game, ruleset in self.rulesets.items():
            if game in rules.names("web.play"):
                prepare = getattr(play_adapter(game), "prepare", None)
                if prepare is not None:
                    prepare(ruleset)

    def design_note(self, game: str, kept: dict[str, Any] | None) -> str | None:
        """What a saved game says when the server's definitions are now of another design
        than the one it was started with (it goes on by its own: its rules were saved)."""
        now = self.designs.get(game)
        if now is None or kept is None or kept.get("hash") == now.get("hash"):
            return None
        return (f"This game goes on by design {kept.get('stamp')}, the one it was started "
                f"with; the server's definitions are now design {now.get('stamp')}, which "
                f"new games are dealt by.")

    # --- making and finding games -------------------------------------------------------

    def create(self, game: str, players: Any, seed: Any = None,
               me: Any = None) -> tuple[Session, str, str | None]:
        """A new game: the session, the host's secret and, when the creator plays seat
        ``me`` (by default the only person's seat of a game against bots), that seat's
        secret."""
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
        humans = [s for s, k in enumerate(kinds) if k == "human"]
        if me is None and len(humans) == 1:
            me = humans[0]
        if me is not None and (type(me) is not int or me not in humans):
            raise WebError(422, f"me: {me!r} is not a person's seat of this game (the people's "
                                f"seats: {', '.join(str(s) for s in humans) or 'none'})")
        dealt = "random"
        if seed is None or seed == "":
            seed = secrets.randbelow(MAX_SEED + 1)
        else:
            dealt = "chosen"
            if isinstance(seed, str) and seed.strip().isdigit():
                seed = int(seed.strip())
        if type(seed) is not int or not 0 <= seed <= MAX_SEED:
            raise WebError(422, f"seed: {seed!r} is not a seed; give a whole number from 0 to "
                                f"2^63-1, or none for a random deal")
        if len(humans) < len(kinds):
            playing = self.bot_games_playing()
            if playing >= self.bot_games:
                raise WebError(503, f"this server is playing {playing} games with bots already, "
                                    f"its limit (pnp web --bot-games {self.bot_games}); finish "
                                    f"or abandon one of them, or try again later")
        try:
            start = play.new(ruleset, names, seed)
        except Exception as exc:  # SetupError: the definitions give no game
            raise WebError(422, f"these definitions give no game: {exc}") from None
        now = time.time()
        ident = secrets.token_hex(6)
        code = self._free_code()
        blob = play.game.encode(start)
        host = secrets.token_urlsafe(16)
        watch = secrets.token_urlsafe(16)
        tokens: list[tuple[str, str, int | None]] = [(host, "host", None),
                                                     (watch, "spectator", None)]
        mine = None
        if me is not None:
            mine = secrets.token_urlsafe(16)
            tokens.append((mine, "seat", me))
        design = self.designs.get(game)
        kept = {**ruleset.to_data(), **({"design": design} if design else {})}
        self.store.create_game(GameRow(ident, game, names, kinds, seed, kept,
                                       "active", now, now, blob, blob, 0, code, watch, dealt),
                               tokens)
        session = Session(ident, game, play, ruleset, names, kinds, seed, "active", now,
                          [start], [], [], code=code, watch=watch, dealt=dealt, design=design)
        if me is not None:
            session.taken.add(me)
            text = f"{names[me]}'s seat was taken by the device that created the game"
            self.store.add_event(ident, text, 0)
            session.events.append({"at": now, "ply": 0, "text": text})
        self.sessions[ident] = session
        self.kick(session)
        return session, host, mine

    def _free_code(self) -> str:
        for _ in range(20):
            code = new_code()
            if self.store.game_by_code(code) is None:
                return code
        raise WebError(503, "no free join code was found; try again")  # pragma: no cover

    def bot_games_playing(self) -> int:
        """Games with a bot seat being played now (a game not moved for a quarter of an
        hour does not count)."""
        now = time.monotonic()
        return sum(1 for s in self.sessions.values()
                   if s.status == "active" and s.has_bots and now - s.played < BOT_IDLE)

    def load(self, ident: str) -> Session | None:
        """A game from memory, else from SQLite (a restarted server resumes here, and a
        game that left memory comes back)."""
        session = self.sessions.get(ident)
        if session is not None:
            session.touched = time.monotonic()
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
        code, watch = row.join_code, row.watch
        if code is None:  # a game of an older version: it gets its join code now
            code, watch = self._free_code(), watch or secrets.token_urlsafe(16)
            self.store.set_join(ident, code, watch)
        kept = row.ruleset.get("design") if isinstance(row.ruleset, dict) else None
        kept = kept if isinstance(kept, dict) else None
        session = Session(row.id, row.game, play, ruleset, row.players, row.seats, row.seed,
                          row.status, row.created, states, actions, movers,
                          version=len(actions), code=code, watch=watch or "", dealt=row.dealt,
                          taken=self.store.taken(ident), events=self.store.events(ident),
                          design=kept, design_note=self.design_note(row.game, kept))
        self.sessions[ident] = session
        self.kick(session)
        return session

    def resolve(self, token: str) -> tuple[Session, str, int | None]:
        """The game, role and seat of a link; 404 for a link that never existed, 410 for
        one whose seat was handed on or freed."""
        found = self.store.token(token) if isinstance(token, str) and 10 < len(token) < 100 \
            else None
        if found is None:
            raise WebError(404, "this link belongs to no game here: check that it was copied "
                                "whole, or take your seat again with the game's join code")
        ident, role, seat, revoked = found
        if revoked is not None:
            raise WebError(410, GONE)
        session = self.load(ident)
        if session is None:  # pragma: no cover - tokens are deleted with their game
            raise WebError(404, "this link's game no longer exists")
        return session, role, seat

    def by_code(self, code: Any) -> Session:
        """The game of a join code (404 with what a code looks like)."""
        clean = clean_code(code)
        ident = self.store.game_by_code(clean) if len(clean) == CODE_LENGTH else None
        session = self.load(ident) if ident is not None else None
        if session is None:
            raise WebError(404, f"{str(code)[:20]!r} is no game's join code here; a code is "
                                f"{CODE_LENGTH} letters and digits (e.g. K7M2QX), as the "
                                f"game's host page shows it")
        return session

    # --- seats ------------------------------------------------------------------------------

    async def take_seat(self, session: Session, seat: Any) -> str:
        """Give a person's free seat to the device asking; its secret (shown to it once)."""
        if type(seat) is not int or not 0 <= seat < len(session.names) or \
                session.kinds[seat] != "human":
            humans = ", ".join(f"{s} ({session.names[s]})" for s in session.humans)
            raise WebError(422, f"seat {seat!r} is not a person's seat of this game (the "
                                f"people's seats: {humans or 'none'})")
        name = session.names[seat]
        if session.status != "active":
            raise WebError(409, f"the game is {session.status}; its seats cannot be taken any "
                                f"more (its record and replay are on its page)")
        async with session.lock:
            token = secrets.token_urlsafe(16)
            text = f"{name}'s seat was taken on a device"
            if seat in session.taken or not self.store.take_seat(
                    session.id, seat, token, text, len(session.actions)):
                raise WebError(409, f"{name}'s seat is taken already, on another device; if "
                                    f"that was you, go back to it on that device (its home "
                                    f"page lists it), hand it on from there, or ask the host "
                                    f"to free it")
            session.taken.add(seat)
            session.asked.discard(seat)
            self._event(session, text, record=False)
        await self.broadcast(session)
        return token

    async def free_seat(self, session: Session, seat: Any, by_host: bool) -> None:
        """The seat's device lets it go (``by_host`` False: its own choice, or its consent
        when the host asked) or the host frees it (only when no page of it is open): its
        secret stops working (410), its pages are told and closed, every page is told."""
        if type(seat) is not int or seat not in session.taken:
            raise WebError(422, f"seat {seat!r} is not a seat a device holds in this game")
        name = session.names[seat]
        if by_host and session.connected()[seat]:
            raise WebError(409, f"{name} is connected; a connected seat is not freed by the "
                                f"host: ask {name} to hand it on (their page then asks them)")
        text = (f"the host freed {name}'s seat (its old link no longer works); it can be "
                f"taken again with the join code") if by_host else \
            f"{name} handed the seat on; it can be taken again with the join code"
        async with session.lock:
            gone = set(self.store.free_seat(session.id, seat, text, len(session.actions)))
            session.taken.discard(seat)
            session.asked.discard(seat)
            self._event(session, text, record=False)
        error = WebError(410, GONE)
        for watcher in [w for w in session.watchers if w.token in gone]:
            session.watchers.remove(watcher)
            with contextlib.suppress(Exception):
                await watcher.send(json.dumps({"type": "error", **error.to_json()}))
                if watcher.close is not None:
                    await watcher.close(4410, GONE)
        await self.broadcast(session)

    async def ask_hand_on(self, session: Session, seat: Any) -> None:
        """The host asks a seat's device to hand the seat on (its page asks its player)."""
        if type(seat) is not int or seat not in session.taken:
            raise WebError(422, f"seat {seat!r} is not a seat a device holds in this game")
        session.asked.add(seat)
        self._event(session, f"the host asked {session.names[seat]} to hand the seat to "
                             f"another device")
        await self.broadcast(session)

    def _event(self, session: Session, text: str, record: bool = True) -> None:
        if record:
            self.store.add_event(session.id, text, len(session.actions))
        session.events.append({"at": time.time(), "ply": len(session.actions), "text": text})
        session.presence += 1

    # --- pages ------------------------------------------------------------------------------

    async def watch(self, session: Session, watcher: Watcher) -> None:
        session.watchers.append(watcher)
        session.presence += 1
        session.touched = time.monotonic()
        await self.broadcast(session)

    async def unwatch(self, session: Session, watcher: Watcher) -> None:
        if watcher in session.watchers:
            session.watchers.remove(watcher)
            session.presence += 1
            session.touched = time.monotonic()
            await self.broadcast(session)

    # --- playing ----------------------------------------------------------------------------

    async def move(self, session: Session, seat: int, text: Any,
                   version: Any = None, answer: Answer | None = None) -> int:
        """Make ``seat``'s move written ``text``; returns the game's version after it.
        Refused (4xx, the game unchanged) when it is not that seat's turn, the page
        saw an older position, or the rules forbid it (the rules core's sentence).
        ``answer``: the page that sent it over its WebSocket, told in its state message."""
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
        await self.broadcast(session, answer)
        return version

    def _playable(self, session: Session) -> None:
        if session.status == "abandoned":
            raise WebError(409, "this game was abandoned by its host; it can be replayed "
                                "but not played on")
        if session.over or session.status == "finished":
            raise WebError(409, "this game is over")

    def _apply(self, session: Session, seat: int, action: Any) -> None:
        """Apply and save a move: written to SQLite first, so a move that cannot be saved
        (:class:`StoreFailure`) leaves the game in memory as it was."""
        play = session.adapter
        new = play.game.apply(session.state, action)
        status = "finished" if play.game.is_over(new) else "active"
        self.store.add_moves(session.id, len(session.actions),
                             [(seat, play.action_data(action), play.game.encode(new))], status)
        session.texts.append(play.text(session.state, action))
        forget = getattr(session.state, "forget", None)  # a past position: kept, not its caches
        if forget is not None:
            forget()
        session.states.append(new)
        session.actions.append(action)
        session.movers.append(seat)
        session.status = status
        session.version += 1
        session.played = session.touched = time.monotonic()

    async def undo(self, session: Session, seat: int,
                   answer: Answer | None = None) -> dict[str, Any]:
        """Take back ``seat``'s last move (and the bots' answers after it), as
        :meth:`Session.take_back_from` allows (``answer``: as for :meth:`move`)."""
        async with session.lock:
            last, why = session.take_back_from(seat)
            if last is None:
                raise WebError(409, why)
            self.store.truncate(session.id, last,
                                session.adapter.game.encode(session.states[last]))
            del session.states[last + 1:]
            del session.actions[last:]
            del session.movers[last:]
            del session.texts[last:]
            del session._moves_text[last:]  # their JSON, made again for the moves after
            session.status = "active"
            session.version += 1
        self.kick(session)
        await self.broadcast(session, answer)
        return session.message("seat", seat)

    async def abandon(self, session: Session) -> None:
        async with session.lock:
            if session.status != "active":
                raise WebError(409, f"the game is already {session.status}")
            self.store.set_status(session.id, "abandoned")
            session.status = "abandoned"
            session.version += 1
        await self.broadcast(session)

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
        """The bots' moves, one after the other, until a person is to move. Each is chosen
        in a worker process (the state as it was, so the page keeps answering), then
        applied if the game has not changed meanwhile (a move taken back, the game
        abandoned)."""
        try:
            while session.status == "active" and not session.over:
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                seat = session.to_move
                kind = session.kinds[seat]
                if kind == "human" or session.status != "active":
                    return
                version, ply = session.version, len(session.actions)
                action = await self.workers.bot(session.game, session.state, seat, kind,
                                                f"{session.seed}:{ply}:{seat}",
                                                self.mcts_budget)
                async with session.lock:
                    if session.version != version or session.status != "active":
                        continue
                    try:
                        self._apply(session, seat, action)
                    except StoreFailure as exc:
                        problem = WebError(503, f"the bot's move was not saved: {exc}; it is "
                                                f"tried again in {RETRY:g} s")
                        await self._tell(session, {"type": "error", **problem.to_json()})
                        await asyncio.sleep(RETRY)
                        continue
                    session.thinking = not session.over and \
                        session.kinds[session.to_move] != "human"
                await self.broadcast(session)
        finally:
            session.thinking = False
            with contextlib.suppress(Exception):
                await self.broadcast(session)

    # --- pages ------------------------------------------------------------------------------

    async def broadcast(self, session: Session, answer: Answer | None = None) -> None:
        """Send every page of the game the position as its link may see it; the page owed
        ``answer`` gets it in its message (one frame, not two)."""
        for watcher in list(session.watchers):
            try:
                text = session.message_text(watcher.role, watcher.seat)
            except Exception:  # a fault in making the message, not a page gone: say so
                log.exception("internal error making the %s page's message of game %s "
                              "(seat %s); the page is sent nothing more", watcher.role,
                              session.id, watcher.seat)
                with contextlib.suppress(ValueError):
                    session.watchers.remove(watcher)
                    session.presence += 1
                continue
            try:
                if answer is not None and watcher is answer.watcher and not answer.sent:
                    await watcher.send(answered(text, answer.id))
                    answer.sent = True
                else:
                    await watcher.send(text)
            except Exception:
                with contextlib.suppress(ValueError):
                    session.watchers.remove(watcher)
                    session.presence += 1  # one page fewer: who is connected changed

    async def _tell(self, session: Session, message: dict[str, Any]) -> None:
        text = json.dumps(message)
        for watcher in list(session.watchers):
            with contextlib.suppress(Exception):
                await watcher.send(text)

    def sweep(self, now: float | None = None) -> int:
        """Let games nobody looks at leave memory (they come back from SQLite when opened):
        a finished or abandoned one after ``idle_done`` seconds, one in progress with no
        bot to move after ``idle_active``. Returns how many left."""
        now = time.monotonic() if now is None else now
        gone = 0
        for ident, session in list(self.sessions.items()):
            idle = now - session.touched
            limit = self.idle_active if session.status == "active" else self.idle_done
            if session.watchers or session.thinking or session.lock.locked() or idle < limit:
                continue
            del self.sessions[ident]
            gone += 1
        return gone

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(BaseException):
                await task


def replay_of(session: Session) -> dict[str, Any]:
    """Every position of a finished or abandoned game, with the move that led to it (the
    replay viewer); refused while the game is being played (it would show the hands). The
    seed is a string: a page's JavaScript numbers cannot hold every seed."""
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
            "kinds": session.kinds, "seed": str(session.seed), "status": session.status,
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
    text: str = session.adapter.record(session.states[0], session.actions, session.seed, note)
    stamp = (session.design or {}).get("stamp")
    if not stamp:
        return text
    from cards.yaml_out import comment, flow

    lines = text.split("\n")
    at = next((i + 1 for i, line in enumerate(lines) if line.startswith("game:")), 0)
    kept = session.design or {}
    folder = kept.get("cards")
    said = ("those pnp web played it with" if "cards" not in kept else
            "the shipped cards/ (pnp web's)" if not folder else
            f"pnp web's folder {comment(folder)}/ (replay with --cards DIR: that folder)")
    lines[at:at] = [f"# definitions: {said}", f"design: {flow(stamp)}"]
    return "\n".join(lines)


__all__ = ["GONE", "Answer", "Manager", "Session", "Watcher", "answered", "digest", "record_of",
           "replay_of"]
