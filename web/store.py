"""Where ``pnp-web`` keeps everything: one SQLite file (standard library ``sqlite3``).

The database is ``pnp-web.sqlite3`` in the data folder (``--data DIR``, else the user's
data directory: ``$XDG_DATA_HOME/orbitus-pnp``, ``~/.local/share/orbitus-pnp``; on macOS
``~/Library/Application Support/orbitus-pnp``, on Windows ``%APPDATA%\\orbitus-pnp``).
It runs in WAL mode (readers never wait for the writer; a crash loses at most the move
being written), and its schema is versioned: ``PRAGMA user_version`` is the number of
:data:`MIGRATIONS` applied, each applied once, in order, in its own transaction. A file
written by a newer ``pnp-web`` (a higher version) is refused rather than guessed at.

Tables:

* ``saved_tables`` - transcriptions: the layout YAML or board text exactly as exported;
* ``games`` - one row per game played: the game, players, seats (human or which bot),
  seed, the ruleset it is played by (as data, so a saved game resumes even after the
  definitions changed), status, the start state and the state of its last change of
  status, taking back or end (the rules core's ``encode``); a move of a game being played
  writes its ``moves`` row only (one write a move, not two: the game's moves so far, its
  state now and when it was last played are read from its last move);
* ``moves`` - every action of every game in order, with the state after it;
* ``tokens`` - the unguessable links: a seat's (one per device that took the seat), the
  spectators', the host's; only their SHA-256 digests are kept (:func:`digest`), so no
  answer of the server can ever hand a seat's secret to anyone but the device it was made
  for (the spectators' link is also kept as it is, in ``games.watch``: the host page shows
  it);
* ``seat_events`` - what happened to the seats (taken, freed by the host, handed on),
  shown to every page of the game;
* ``playtests``, ``playtest_designs``, ``playtest_predictions`` - the playtest log, the
  definitions of each version it names and the bots' predictions for them
  (:mod:`web.playtests`).

A write that fails (a full disk, a read-only or damaged file) raises :class:`StoreFailure`
with a sentence saying what happened and what to do; the transaction is rolled back, so
nothing half-written stays, and what was acknowledged before stays.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

DB_NAME = "pnp-web.sqlite3"
APP = "orbitus-pnp"

MIGRATIONS: tuple[str, ...] = (
    # 1: transcriptions, games, moves, links
    """
    CREATE TABLE saved_tables (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        name TEXT NOT NULL,
        text TEXT NOT NULL,
        created REAL NOT NULL,
        updated REAL NOT NULL
    );
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        players TEXT NOT NULL,
        seats TEXT NOT NULL,
        seed INTEGER NOT NULL,
        ruleset TEXT NOT NULL,
        status TEXT NOT NULL,
        created REAL NOT NULL,
        updated REAL NOT NULL,
        start BLOB NOT NULL,
        state BLOB NOT NULL,
        plies INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        state BLOB NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, ply)
    );
    CREATE TABLE tokens (
        token TEXT PRIMARY KEY,
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        role TEXT NOT NULL,
        seat INTEGER,
        revoked REAL
    );
    CREATE INDEX tokens_by_game ON tokens(game_id);
    """,
    # 2: the list of games on the home page is sorted by when they were last played
    """
    CREATE INDEX games_by_update ON games(updated);
    """,
    # 3: the playtest log (web/playtests.py): games people played, by design version, and the
    # definitions of each version they name
    """
    CREATE TABLE playtests (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        design TEXT NOT NULL,
        version TEXT,
        cards TEXT,
        played TEXT NOT NULL,
        players TEXT NOT NULL,
        seats TEXT NOT NULL,
        scores TEXT NOT NULL,
        winners TEXT NOT NULL,
        components TEXT,
        minutes INTEGER,
        turns INTEGER,
        source TEXT,
        source_text TEXT,
        notes TEXT NOT NULL DEFAULT '',
        created REAL NOT NULL
    );
    CREATE INDEX playtests_by_design ON playtests(game, design);
    CREATE TABLE playtest_designs (
        game TEXT NOT NULL,
        hash TEXT NOT NULL,
        version TEXT,
        snapshot TEXT NOT NULL,
        created REAL NOT NULL,
        PRIMARY KEY (game, hash)
    );
    CREATE TABLE playtest_predictions (
        key TEXT PRIMARY KEY,
        block TEXT NOT NULL,
        created REAL NOT NULL
    );
    """,
    # 4: seats taken by the players themselves (issue 22): each game has a join code and a
    # spectators' link; links are kept as digests only; what happened to the seats
    """
    ALTER TABLE games ADD COLUMN join_code TEXT;
    ALTER TABLE games ADD COLUMN watch TEXT;
    ALTER TABLE games ADD COLUMN dealt TEXT NOT NULL DEFAULT 'random';
    UPDATE games SET watch = (SELECT token FROM tokens WHERE tokens.game_id = games.id
                              AND tokens.role = 'spectator' AND tokens.revoked IS NULL);
    UPDATE tokens SET token = pnp_digest(token);
    CREATE UNIQUE INDEX games_by_code ON games(join_code);
    CREATE TABLE seat_events (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        at REAL NOT NULL,
        ply INTEGER NOT NULL,
        text TEXT NOT NULL
    );
    CREATE INDEX seat_events_by_game ON seat_events(game_id);
    """,
)


class StoreError(Exception):
    """The data folder cannot be used (one sentence saying why and what to do)."""


class StoreFailure(StoreError):
    """A read or write that failed while the server runs (a full disk, a read-only folder,
    a damaged file): nothing of it was kept; the sentence says what happened and what to
    do (the server answers 503 with it)."""


def digest(token: str) -> str:
    """What the store keeps of a link's secret: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def failure(exc: BaseException, path: Path, doing: str = "save") -> StoreFailure:
    """The sentence for a database error met while the server runs (``doing``: what it
    was doing, ``save`` or ``read``)."""
    code = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc)
    folder = path.parent
    lost = "nothing was saved, and the game is as it was before" if doing == "save" else \
        "nothing was changed"
    if code == "SQLITE_FULL" or "disk is full" in text or getattr(exc, "errno", None) == \
            errno.ENOSPC:
        return StoreFailure(f"the disk of the data folder {folder} is full ({text}): {lost}; "
                            f"free some space there and try again")
    if code.startswith("SQLITE_READONLY") or "readonly" in text or "read-only" in text or \
            getattr(exc, "errno", None) == errno.EROFS:
        return StoreFailure(f"the data folder {folder} cannot be written now ({text}): {lost}; "
                            f"make it writable again, or stop pnp web and start it with "
                            f"another --data folder")
    if code in ("SQLITE_CORRUPT", "SQLITE_NOTADB") or "malformed" in text or \
            "not a database" in text:
        return StoreFailure(f"the database {path} is damaged ({text}): {lost}; stop pnp web, "
                            f"keep a copy of the file, and repair it with: sqlite3 {path} "
                            f"'.recover' | sqlite3 repaired.sqlite3 (or start with another "
                            f"--data folder)")
    if code in ("SQLITE_BUSY", "SQLITE_LOCKED") or "locked" in text:
        return StoreFailure(f"the database {path} is busy (another program holds it: "
                            f"{text}): {lost}; try again in a moment")
    return StoreFailure(f"the database {path} could not be used ({text}): {lost}; check the "
                        f"disk of the data folder, then try again")


def default_data_dir() -> Path:
    """The user's data directory for ``pnp-web``."""
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / APP


@dataclass(frozen=True)
class GameRow:
    id: str
    game: str
    players: list[str]
    seats: list[str]
    seed: int
    ruleset: dict[str, Any]
    status: str
    created: float
    updated: float
    start: bytes
    state: bytes
    plies: int
    join_code: str | None = None  # what players type (or scan) to take a seat
    watch: str | None = None  # the spectators' link's secret (it shows only what is public)
    dealt: str = "random"  # "chosen": whoever created the game gave the seed


def writable(folder: Path) -> bool:
    """Whether files can be made in ``folder`` (tried, not guessed from its mode bits: the
    superuser ignores those, a read-only mount does not)."""
    probe = folder / f".pnp-web-probe-{os.getpid()}"
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError:
        return False
    return True


@dataclass(frozen=True)
class MoveRow:
    ply: int
    seat: int
    action: Any
    state: bytes
    at: float


class Store:
    """The SQLite database of one data folder. One connection, shared by the server's
    threads behind a lock (writes are a few hundred microseconds each)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the data folder {folder}: {exc.strerror}; "
                             f"give another with --data DIR") from None
        if not folder.is_dir():
            raise StoreError(f"{folder} is not a folder; give a folder with --data DIR")
        self.path = folder / DB_NAME
        if not writable(folder):
            raise StoreError(f"the data folder {folder} is read-only: pnp web keeps its games "
                             f"there and must write to it; make it writable, or give another "
                             f"folder with --data DIR")
        try:
            self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self.db.create_function("pnp_digest", 1, digest, deterministic=True)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.execute("PRAGMA busy_timeout=5000")
            damage = self.db.execute("PRAGMA quick_check(3)").fetchall()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} cannot be opened as a database ({exc}): it is "
                             f"damaged or not pnp web's; move it away (pnp web then starts a "
                             f"new one) or give another folder with --data DIR") from None
        if damage != [("ok",)]:
            found = "; ".join(str(row[0]) for row in damage)
            raise StoreError(f"{self.path} is damaged ({found}); stop here, keep a copy, and "
                             f"repair it with: sqlite3 {self.path} '.recover' | sqlite3 "
                             f"repaired.sqlite3, then start pnp web on the repaired file (or "
                             f"give another folder with --data DIR)")
        self.lock = threading.RLock()
        self.migrate()

    # --- schema ---------------------------------------------------------------------------

    @property
    def version(self) -> int:
        return int(self.db.execute("PRAGMA user_version").fetchone()[0])

    def migrate(self) -> None:
        """Apply the migrations this file has not had yet, each in its own transaction."""
        with self.lock:
            have = self.version
            if have > len(MIGRATIONS):
                raise StoreError(
                    f"{self.path} was written by a newer pnp-web (schema version {have}; this "
                    f"one knows up to {len(MIGRATIONS)}); update pnp-web or use another "
                    f"folder with --data DIR")
            for number in range(have, len(MIGRATIONS)):
                try:
                    self.db.execute("BEGIN IMMEDIATE")
                    for statement in MIGRATIONS[number].split(";"):
                        if statement.strip():
                            self.db.execute(statement)
                    self.db.execute(f"PRAGMA user_version = {number + 1}")
                    self.db.execute("COMMIT")
                except sqlite3.DatabaseError as exc:
                    self.db.execute("ROLLBACK")
                    raise StoreError(f"{self.path}: migration {number + 1} failed ({exc}); "
                                     f"the file was left at version {number}") from None

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write, all or nothing; a database error is a :class:`StoreFailure` (and the
        transaction is rolled back: nothing of it is kept)."""
        with self.lock:
            try:
                self.db.execute("BEGIN IMMEDIATE")
                try:
                    yield self.db
                    self.db.execute("COMMIT")
                except BaseException:
                    if self.db.in_transaction:
                        self.db.execute("ROLLBACK")
                    raise
            except (sqlite3.Error, OSError) as exc:
                raise failure(exc, self.path) from None

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """A read; a database error is a :class:`StoreFailure`."""
        with self.lock:
            try:
                yield self.db
            except (sqlite3.Error, OSError) as exc:
                raise failure(exc, self.path, "read") from None

    def close(self) -> None:
        with self.lock:
            self.db.close()

    # --- transcriptions -------------------------------------------------------------------

    def save_table(self, game: str, name: str, text: str, ident: int | None = None) -> int:
        now = time.time()
        with self.transaction() as db:
            if ident is not None:
                cur = db.execute("UPDATE saved_tables SET name=?, text=?, updated=? "
                                 "WHERE id=? AND game=?", (name, text, now, ident, game))
                if cur.rowcount:
                    return ident
            cur = db.execute("INSERT INTO saved_tables (game, name, text, created, updated) "
                             "VALUES (?, ?, ?, ?, ?)", (game, name, text, now, now))
            return int(cur.lastrowid or 0)

    def tables(self, game: str) -> list[dict[str, Any]]:
        with self.reading() as db:
            rows = db.execute("SELECT id, name, updated FROM saved_tables WHERE game=? "
                              "ORDER BY updated DESC", (game,)).fetchall()
        return [{"id": i, "name": n, "updated": u} for i, n, u in rows]

    def table(self, game: str, ident: int) -> dict[str, Any] | None:
        with self.reading() as db:
            row = db.execute("SELECT id, name, text, updated FROM saved_tables "
                             "WHERE game=? AND id=?", (game, ident)).fetchone()
        if row is None:
            return None
        return {"id": row[0], "name": row[1], "text": row[2], "updated": row[3]}

    def delete_table(self, game: str, ident: int) -> bool:
        with self.transaction() as db:
            return db.execute("DELETE FROM saved_tables WHERE game=? AND id=?",
                              (game, ident)).rowcount > 0

    # --- games ----------------------------------------------------------------------------

    _GAME = ("id, game, players, seats, seed, ruleset, status, created, updated, start, state, "
             "plies, join_code, watch, dealt")

    def create_game(self, row: GameRow, tokens: list[tuple[str, str, int | None]]) -> None:
        """A new game and its first links (``(secret, role, seat)``; the secrets are kept
        as digests)."""
        with self.transaction() as db:
            db.execute(
                f"INSERT INTO games ({self._GAME}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                f"?, ?, ?)",
                (row.id, row.game, json.dumps(row.players), json.dumps(row.seats), row.seed,
                 json.dumps(row.ruleset), row.status, row.created, row.updated, row.start,
                 row.state, row.plies, row.join_code, row.watch, row.dealt))
            db.executemany("INSERT INTO tokens (token, game_id, role, seat) VALUES (?, ?, ?, ?)",
                           [(digest(t), row.id, role, seat) for t, role, seat in tokens])

    def _row(self, row: Any) -> GameRow:
        return GameRow(row[0], row[1], json.loads(row[2]), json.loads(row[3]), row[4],
                       json.loads(row[5]), row[6], row[7], row[8], row[9], row[10], row[11],
                       row[12], row[13], row[14])

    # a game's moves so far, its state now and when it was last played: from its last move
    # (the moves of a game being played are not written into its games row), else its row
    _PLAYED = ("SELECT ply + 1, state, at FROM moves WHERE game_id=? ORDER BY ply DESC "
               "LIMIT 1")

    def game(self, ident: str) -> GameRow | None:
        with self.reading() as db:
            row = db.execute(f"SELECT {self._GAME} FROM games WHERE id=?", (ident,)).fetchone()
            last = None if row is None else db.execute(self._PLAYED, (ident,)).fetchone()
        if row is None:
            return None
        found = self._row(row)
        if last is not None and last[0] > found.plies:  # moves since the row was written
            found = replace(found, plies=last[0], state=last[1],
                            updated=max(found.updated, last[2]))
        return found

    def game_by_code(self, code: str) -> str | None:
        """The id of the game whose join code is ``code``."""
        with self.reading() as db:
            row = db.execute("SELECT id FROM games WHERE join_code=?", (code,)).fetchone()
        return None if row is None else str(row[0])

    def set_join(self, ident: str, code: str, watch: str) -> bool:
        """Give a game of an older version its join code and spectators' link (False: the
        code is another game's)."""
        try:
            with self.transaction() as db:
                db.execute("UPDATE games SET join_code=?, watch=COALESCE(watch, ?) WHERE id=?",
                           (code, watch, ident))
                db.execute("INSERT OR IGNORE INTO tokens (token, game_id, role) "
                           "VALUES (?, ?, 'spectator')", (digest(watch), ident))
        except StoreFailure:
            return False
        return True

    def games(self) -> list[dict[str, Any]]:
        """Every game, for the home page: no seed, no join code, no link."""
        with self.reading() as db:
            rows = db.execute(
                "SELECT id, game, players, seats, status, created, MAX(updated, COALESCE(("
                "SELECT at FROM moves WHERE game_id=games.id ORDER BY ply DESC LIMIT 1), 0)) "
                "AS played, COALESCE((SELECT MAX(ply) + 1 FROM moves WHERE "
                "game_id=games.id), 0) FROM games ORDER BY played DESC").fetchall()
        return [{"id": r[0], "game": r[1], "players": json.loads(r[2]),
                 "seats": json.loads(r[3]), "status": r[4], "created": r[5], "updated": r[6],
                 "plies": r[7]} for r in rows]

    def moves(self, ident: str) -> list[MoveRow]:
        with self.reading() as db:
            rows = db.execute("SELECT ply, seat, action, state, at FROM moves "
                              "WHERE game_id=? ORDER BY ply", (ident,)).fetchall()
        return [MoveRow(p, s, json.loads(a), st, at) for p, s, a, st, at in rows]

    def add_moves(self, ident: str, first_ply: int, moves: list[tuple[int, Any, bytes]],
                  status: str) -> None:
        """Append moves (seat, action as JSON data, state after) from ``first_ply`` on; the
        game's row is written too only when its ``status`` is no longer ``active`` (its end:
        while it is played, its moves so far are read from its last move)."""
        now = time.time()
        with self.transaction() as db:
            db.executemany(
                "INSERT INTO moves (game_id, ply, seat, action, state, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(ident, first_ply + k, seat, json.dumps(action), state, now)
                 for k, (seat, action, state) in enumerate(moves)])
            last = moves[-1][2] if moves else None
            if last is not None and status != "active":
                db.execute("UPDATE games SET state=?, plies=?, status=?, updated=? WHERE id=?",
                           (last, first_ply + len(moves), status, now, ident))

    def truncate(self, ident: str, plies: int, state: bytes) -> None:
        """Forget the moves from ply ``plies`` on (a move taken back)."""
        with self.transaction() as db:
            db.execute("DELETE FROM moves WHERE game_id=? AND ply>=?", (ident, plies))
            db.execute("UPDATE games SET state=?, plies=?, status='active', updated=? "
                       "WHERE id=?", (state, plies, time.time(), ident))

    def set_status(self, ident: str, status: str) -> None:
        with self.transaction() as db:
            db.execute("UPDATE games SET status=?, updated=? WHERE id=?",
                       (status, time.time(), ident))

    # --- links and seats ------------------------------------------------------------------

    def token(self, token: str) -> tuple[str, str, int | None, float | None] | None:
        """``(game id, role, seat, revoked)`` of a link's secret, or None if there is no such
        link."""
        with self.reading() as db:
            row = db.execute("SELECT game_id, role, seat, revoked FROM tokens WHERE token=?",
                             (digest(token),)).fetchone()
        return None if row is None else (row[0], row[1], row[2], row[3])

    def taken(self, ident: str) -> set[int]:
        """The seats of a game that a device holds (a secret not revoked)."""
        with self.reading() as db:
            rows = db.execute("SELECT seat FROM tokens WHERE game_id=? AND role='seat' "
                              "AND revoked IS NULL", (ident,)).fetchall()
        return {int(r[0]) for r in rows}

    def take_seat(self, ident: str, seat: int, token: str, event: str, ply: int) -> bool:
        """Give ``seat`` to the device holding ``token`` if no device holds it (False when
        one does), and note it in the seat events."""
        now = time.time()
        with self.transaction() as db:
            held = db.execute("SELECT 1 FROM tokens WHERE game_id=? AND role='seat' AND seat=? "
                              "AND revoked IS NULL", (ident, seat)).fetchone()
            if held is not None:
                return False
            db.execute("INSERT INTO tokens (token, game_id, role, seat) VALUES (?, ?, 'seat', ?)",
                       (digest(token), ident, seat))
            db.execute("INSERT INTO seat_events (game_id, at, ply, text) VALUES (?, ?, ?, ?)",
                       (ident, now, ply, event))
        return True

    def free_seat(self, ident: str, seat: int, event: str, ply: int) -> list[str]:
        """Revoke the secret of the device holding ``seat`` (its link then answers 410) and
        note it; the digests revoked."""
        now = time.time()
        with self.transaction() as db:
            rows = db.execute("SELECT token FROM tokens WHERE game_id=? AND role='seat' "
                              "AND seat=? AND revoked IS NULL", (ident, seat)).fetchall()
            db.execute("UPDATE tokens SET revoked=? WHERE game_id=? AND role='seat' AND seat=? "
                       "AND revoked IS NULL", (now, ident, seat))
            db.execute("INSERT INTO seat_events (game_id, at, ply, text) VALUES (?, ?, ?, ?)",
                       (ident, now, ply, event))
        return [str(r[0]) for r in rows]

    def add_event(self, ident: str, event: str, ply: int) -> None:
        with self.transaction() as db:
            db.execute("INSERT INTO seat_events (game_id, at, ply, text) VALUES (?, ?, ?, ?)",
                       (ident, time.time(), ply, event))

    def events(self, ident: str) -> list[dict[str, Any]]:
        with self.reading() as db:
            rows = db.execute("SELECT at, ply, text FROM seat_events WHERE game_id=? "
                              "ORDER BY rowid", (ident,)).fetchall()
        return [{"at": at, "ply": ply, "text": text} for at, ply, text in rows]
