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
  definitions changed), status, the start and the current state (the rules core's
  ``encode``);
* ``moves`` - every action of every game in order, with the state after it;
* ``tokens`` - the unguessable links: a seat's, the spectators', the host's;
* ``playtests``, ``playtest_designs``, ``playtest_predictions`` - the playtest log, the
  definitions of each version it names and the bots' predictions for them
  (:mod:`web.playtests`).
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
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
)


class StoreError(Exception):
    """The data folder cannot be used (one sentence saying why and what to do)."""


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
        try:
            self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.execute("PRAGMA busy_timeout=5000")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} cannot be opened as a database ({exc}); move it "
                             f"away or give another folder with --data DIR") from None
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
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

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
        with self.lock:
            rows = self.db.execute("SELECT id, name, updated FROM saved_tables WHERE game=? "
                                   "ORDER BY updated DESC", (game,)).fetchall()
        return [{"id": i, "name": n, "updated": u} for i, n, u in rows]

    def table(self, game: str, ident: int) -> dict[str, Any] | None:
        with self.lock:
            row = self.db.execute("SELECT id, name, text, updated FROM saved_tables "
                                  "WHERE game=? AND id=?", (game, ident)).fetchone()
        if row is None:
            return None
        return {"id": row[0], "name": row[1], "text": row[2], "updated": row[3]}

    def delete_table(self, game: str, ident: int) -> bool:
        with self.transaction() as db:
            return db.execute("DELETE FROM saved_tables WHERE game=? AND id=?",
                              (game, ident)).rowcount > 0

    # --- games ----------------------------------------------------------------------------

    def create_game(self, row: GameRow, tokens: list[tuple[str, str, int | None]]) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT INTO games (id, game, players, seats, seed, ruleset, status, created, "
                "updated, start, state, plies) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (row.id, row.game, json.dumps(row.players), json.dumps(row.seats), row.seed,
                 json.dumps(row.ruleset), row.status, row.created, row.updated, row.start,
                 row.state, row.plies))
            db.executemany("INSERT INTO tokens (token, game_id, role, seat) VALUES (?, ?, ?, ?)",
                           [(t, row.id, role, seat) for t, role, seat in tokens])

    def game(self, ident: str) -> GameRow | None:
        with self.lock:
            row = self.db.execute(
                "SELECT id, game, players, seats, seed, ruleset, status, created, updated, "
                "start, state, plies FROM games WHERE id=?", (ident,)).fetchone()
        if row is None:
            return None
        return GameRow(row[0], row[1], json.loads(row[2]), json.loads(row[3]), row[4],
                       json.loads(row[5]), row[6], row[7], row[8], row[9], row[10], row[11])

    def games(self) -> list[dict[str, Any]]:
        with self.lock:
            rows = self.db.execute(
                "SELECT id, game, players, seats, status, created, updated, plies FROM games "
                "ORDER BY updated DESC").fetchall()
        return [{"id": r[0], "game": r[1], "players": json.loads(r[2]),
                 "seats": json.loads(r[3]), "status": r[4], "created": r[5], "updated": r[6],
                 "plies": r[7]} for r in rows]

    def moves(self, ident: str) -> list[MoveRow]:
        with self.lock:
            rows = self.db.execute("SELECT ply, seat, action, state, at FROM moves "
                                   "WHERE game_id=? ORDER BY ply", (ident,)).fetchall()
        return [MoveRow(p, s, json.loads(a), st, at) for p, s, a, st, at in rows]

    def add_moves(self, ident: str, first_ply: int, moves: list[tuple[int, Any, bytes]],
                  status: str) -> None:
        """Append moves (seat, action as JSON data, state after) from ``first_ply`` on."""
        now = time.time()
        with self.transaction() as db:
            db.executemany(
                "INSERT INTO moves (game_id, ply, seat, action, state, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(ident, first_ply + k, seat, json.dumps(action), state, now)
                 for k, (seat, action, state) in enumerate(moves)])
            last = moves[-1][2] if moves else None
            if last is not None:
                db.execute("UPDATE games SET state=?, plies=?, status=?, updated=? WHERE id=?",
                           (last, first_ply + len(moves), status, now, ident))

    def truncate(self, ident: str, plies: int, state: bytes) -> None:
        """Forget the moves from ply ``plies`` on (an undo)."""
        with self.transaction() as db:
            db.execute("DELETE FROM moves WHERE game_id=? AND ply>=?", (ident, plies))
            db.execute("UPDATE games SET state=?, plies=?, status='active', updated=? "
                       "WHERE id=?", (state, plies, time.time(), ident))

    def set_status(self, ident: str, status: str) -> None:
        with self.transaction() as db:
            db.execute("UPDATE games SET status=?, updated=? WHERE id=?",
                       (status, time.time(), ident))

    # --- links ----------------------------------------------------------------------------

    def token(self, token: str) -> tuple[str, str, int | None, float | None] | None:
        """``(game id, role, seat, revoked)`` of a link, or None if there is no such link."""
        with self.lock:
            row = self.db.execute("SELECT game_id, role, seat, revoked FROM tokens "
                                  "WHERE token=?", (token,)).fetchone()
        return None if row is None else (row[0], row[1], row[2], row[3])

    def tokens(self, ident: str) -> list[tuple[str, str, int | None]]:
        with self.lock:
            rows = self.db.execute("SELECT token, role, seat FROM tokens WHERE game_id=? "
                                   "AND revoked IS NULL ORDER BY role, seat",
                                   (ident,)).fetchall()
        return [(t, r, s) for t, r, s in rows]

    def replace_token(self, ident: str, old: str, new: str) -> None:
        with self.transaction() as db:
            row = db.execute("SELECT role, seat FROM tokens WHERE token=? AND game_id=?",
                             (old, ident)).fetchone()
            if row is None:
                return
            db.execute("UPDATE tokens SET revoked=? WHERE token=?", (time.time(), old))
            db.execute("INSERT INTO tokens (token, game_id, role, seat) VALUES (?, ?, ?, ?)",
                       (new, ident, row[0], row[1]))
