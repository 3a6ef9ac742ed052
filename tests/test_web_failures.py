"""A disk that fails under the server (issue 22, points 8 and 9): a full disk, a data folder
that turns read-only, a damaged database file, two servers on one folder. Each is answered
with what happened and what to do (503 while running; exit 2 at the start), on HTTP and on
the WebSocket (which stays open), and no move that was acknowledged is lost.

The full and read-only disks are real: a small tmpfs mounted for the test (it needs the
right to mount, so it is skipped without it)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from testkit.web import new_game, web_client, ws_url  # noqa: E402
from web.app import create_app  # noqa: E402
from web.store import StoreError  # noqa: E402


@contextlib.contextmanager
def small_disk(where: Path, size: str = "3m") -> Iterator[Path]:
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small disk here ({done.stderr.strip()})")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill(folder: Path) -> Path:
    """Fill the disk of ``folder`` to the last byte; the file that fills it."""
    filler = folder / "filler.bin"
    with open(filler, "wb", buffering=0) as out:
        with contextlib.suppress(OSError):
            while True:
                out.write(b"\0" * 65536)
                out.flush()
        with contextlib.suppress(OSError):
            while True:
                out.write(b"\0")
                out.flush()
    return filler


def first_place(msg: dict) -> str:
    card, cells = next(iter(msg["legal"]["place"].items()))
    cell, rots = next(iter(cells.items()))
    return f"place {card} @{cell} r{rots[0]}"


def test_a_full_disk_loses_nothing_and_says_so(tmp_path: Path):
    with small_disk(tmp_path / "disk") as disk:
        data = disk / "data"
        with web_client(create_app(data, bot_delay=0)) as c:
            game, tokens = new_game(c, "orbitus", ["human", "human"], seed=4)
            ok = c.post(f"/api/link/{tokens[0]}/move",
                        json={"action": first_place(c.get(f"/api/link/{tokens[0]}").json())})
            assert ok.status_code == 200
            acknowledged = ok.json()["history"]
            filler = fill(disk)
            msg = c.get(f"/api/link/{tokens[1]}").json()
            full = c.post(f"/api/link/{tokens[1]}/move", json={"action": first_place(msg)})
            assert full.status_code == 503
            error = full.json()["error"]
            assert error.startswith(f"the disk of the data folder {data} is full")
            assert error.endswith("nothing was saved, and the game is as it was before; free "
                                  "some space there and try again")
            with c.websocket_connect(ws_url(f"/ws/{tokens[1]}")) as ws:
                assert json.loads(ws.receive_text())["history"] == acknowledged
                ws.send_text(json.dumps({"type": "move", "action": first_place(msg), "id": 1}))
                reply = json.loads(ws.receive_text())
                assert (reply["type"], reply["status"], reply["id"]) == ("error", 503, 1)
                assert reply["error"] == error
                ws.send_text(json.dumps({"type": "ping", "id": 2}))
                assert json.loads(ws.receive_text())["type"] == "pong"  # the socket stays
            assert c.get(f"/api/link/{tokens[1]}").json()["history"] == acknowledged
            refused = c.post("/api/tables/orbitus", json={"name": "t", "text": "game: orbitus\n"
                             "players: [A, B]\nsectors: []\n"})
            assert refused.status_code == 503
            filler.unlink()
            again = c.post(f"/api/link/{tokens[1]}/move", json={"action": first_place(msg)})
            assert again.status_code == 200
            acknowledged = again.json()["history"]
        with web_client(create_app(data, bot_delay=0)) as c:  # every acknowledged move is kept
            assert c.get(f"/api/link/{tokens[0]}").json()["history"] == acknowledged


def test_a_read_only_data_folder(tmp_path: Path):
    with small_disk(tmp_path / "disk") as disk:
        data = disk / "data"
        with web_client(create_app(data, bot_delay=0)) as c:
            new_game(c, "satellites", ["human", "human"], seed=4)
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        with pytest.raises(StoreError) as refused:
            create_app(data, bot_delay=0)
        said = str(refused.value)
        assert said == (f"the data folder {data} is read-only: pnp web keeps its games there and "
                        f"must write to it; make it writable, or give another folder with "
                        f"--data DIR")
        done = subprocess.run([sys.executable, "-m", "web", "--no-browser", "--data", str(data)],
                              capture_output=True, text=True, timeout=60)
        assert (done.returncode, done.stderr) == (2, f"pnp-web: {said}\n")


def test_a_write_refused_by_the_file_says_so(tmp_path: Path):
    """What SQLite says when a file cannot be written (here: opened read-only) becomes the
    503's sentence."""
    import sqlite3

    from web.store import failure

    path = tmp_path / "pnp-web.sqlite3"
    sqlite3.connect(path).execute("CREATE TABLE t (x)")
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    with pytest.raises(sqlite3.OperationalError) as refused:
        db.execute("INSERT INTO t VALUES (1)")
    assert str(failure(refused.value, path)) == (
        f"the data folder {tmp_path} cannot be written now (attempt to write a readonly "
        f"database): nothing was saved, and the game is as it was before; make it writable "
        f"again, or stop pnp web and start it with another --data folder")


def damage(path: Path) -> None:
    """Overwrite every page of a database but its first with noise."""
    size = path.stat().st_size
    with open(path, "r+b") as f:
        f.seek(4096)
        f.write(bytes((i * 37 + 11) % 251 for i in range(size - 4096)))


def test_a_damaged_database(tmp_path: Path):
    data = tmp_path / "data"
    with web_client(create_app(data, bot_delay=0)) as c:
        for _ in range(3):
            new_game(c, "orbitus", ["human", "human"])
    damage(data / "pnp-web.sqlite3")
    with pytest.raises(StoreError) as refused:
        create_app(data, bot_delay=0)
    text = str(refused.value)
    assert re.match(rf"{re.escape(str(data / 'pnp-web.sqlite3'))} (is damaged \(|cannot be "
                    rf"opened as a database)", text), text
    assert "internal error" not in text
    done = subprocess.run([sys.executable, "-m", "web", "--no-browser", "--data", str(data)],
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (2, f"pnp-web: {text}\n")


def test_a_database_damaged_while_the_server_runs(tmp_path: Path):
    data = tmp_path / "data"
    app = create_app(data, bot_delay=0)
    with web_client(app) as c:
        game, tokens = new_game(c, "orbitus", ["human", "human"])
        store = app.state.context.store
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        store.db.execute("PRAGMA cache_size = 0")
        damage(data / "pnp-web.sqlite3")
        answers = [c.get("/api/games"), c.post("/api/games", json={"game": "satellites",
                   "players": [{"name": "A"}, {"name": "B"}]})]
        for answer in answers:
            assert answer.status_code == 503, answer.text
            assert answer.json()["error"].startswith(f"the database {store.path} is damaged")
            assert "sqlite3" in answer.json()["error"] and ".recover" in answer.json()["error"]


def test_two_servers_on_one_data_folder(tmp_path: Path):
    data = tmp_path / "data"
    first = subprocess.Popen([sys.executable, "-m", "web", "--no-browser", "--port", "18141",
                              "--data", str(data)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        line = first.stdout.readline()
        assert "serving on http://localhost:18141/" in line, line + first.stderr.read()
        second = subprocess.run([sys.executable, "-m", "web", "--no-browser", "--port", "18142",
                                 "--data", str(data)], capture_output=True, text=True,
                                timeout=60)
        assert second.returncode == 2
        since = time.strftime("%Y-%m-%d")
        assert re.fullmatch(
            rf"pnp-web: the data folder {re.escape(str(data))} is in use by another pnp web "
            rf"\(process {first.pid} on {re.escape(os.uname().nodename)}, serving "
            rf"http://localhost:18141/, since {since} \d\d:\d\d\); two servers on one folder "
            rf"would overwrite each other's games: stop that one first, or give this one "
            rf"another folder with --data DIR\n", second.stderr), second.stderr
    finally:
        first.terminate()
        first.wait(20)
    # the lock goes with the server: the next one starts
    with web_client(create_app(data, bot_delay=0)) as c:
        assert c.get("/api/games").status_code == 200
        with pytest.raises(StoreError, match=rf"in use by another pnp web \(process "
                                             rf"{os.getpid()} "):
            create_app(data, bot_delay=0)


def test_a_fault_making_a_page_message_is_logged_not_silent(tmp_path: Path, caplog):
    """A page whose message cannot be made (a bug, not a page gone) is dropped with an
    error in the server's log naming the game and the seat; the other pages are sent."""
    import asyncio
    import logging

    from web.app import Context
    from web.games import Watcher
    from web.store import Store

    context = Context(Store(tmp_path / "data"), bot_delay=0)
    session, _, _ = context.games.create("orbitus", [
        {"name": n, "kind": "human"} for n in ("A", "B", "C")], 7)
    got: list[int] = []
    for seat in range(3):
        async def send(text: str, seat: int = seat) -> None:
            got.append(seat)
        session.watchers.append(Watcher(send, "seat", seat))
    made = session.message_text

    def broken(role: str, seat: int | None) -> str:
        if seat == 1:
            raise TypeError("a page's message could not be made")
        return made(role, seat)

    session.message_text = broken  # type: ignore[method-assign]
    with caplog.at_level(logging.ERROR, logger="pnp-web"):
        asyncio.run(context.games.broadcast(session))
    assert got == [0, 2]
    assert [w.seat for w in session.watchers] == [0, 2]
    assert f"internal error making the seat page's message of game {session.id} (seat 1)" \
        in caplog.text
    assert "TypeError: a page's message could not be made" in caplog.text
