"""No freezes (issue 22, points 5 and 6): while PNG exports of the 72-sector table, scores of a
2,000-sector table and games of four mcts bots run on the server, a people's game's moves are
still answered at once (median round trip under 50 ms); games with bots are limited in
number; finished games nobody looks at leave memory and come back from SQLite.

The first test runs ``pnp web`` as its own process, as people run it, on a loopback port.
"""

from __future__ import annotations

import json
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
websockets = pytest.importorskip("websockets.sync.client")

from testkit.browser import free_port  # noqa: E402
from testkit.web import (  # noqa: E402
    http_game,
    http_get,
    http_post,
    new_game,
    players,
    web_client,
)
from web.app import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TABLE72 = ROOT / "tests" / "fixtures" / "orbitus" / "six-players-72.yaml"


def wait_listening(port: int, server: subprocess.Popen) -> None:
    end = time.time() + 60
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            assert time.time() < end and server.poll() is None, "the server did not start"
            time.sleep(0.1)


def big_tables(base: str) -> tuple[dict, dict]:
    """The 72-sector table as the page holds it, and a grown 2,000-sector one."""
    from testkit.grow import grow_table

    req = __import__("urllib.request").request.Request(
        base + "/api/orbitus/import?name=t.yaml", data=TABLE72.read_bytes(),
        headers={"Content-Type": "application/octet-stream"})
    with __import__("urllib.request").request.urlopen(req, timeout=60) as res:
        model72 = json.load(res)["model"]
    grown = grow_table(7, 2000, 6)
    return model72, {k: v for k, v in grown.items() if k != "game"}


def hammer(base: str, path: str, body: dict, stop: threading.Event, done: list[float]) -> None:
    """POST ``body`` to ``path`` again and again until ``stop``; each answer's time."""
    import urllib.request

    data = json.dumps(body).encode()
    while not stop.is_set():
        start = time.perf_counter()
        req = urllib.request.Request(base + path, data=data,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=120) as res:
            res.read()
            assert res.status == 200
        done.append(time.perf_counter() - start)


def drain_to(ws, version: int) -> dict:
    """The state message of ``version`` (the ones before it read and dropped)."""
    while True:
        msg = json.loads(ws.recv(timeout=60))
        if msg.get("type") == "state" and msg["version"] >= version:
            return msg


def test_a_peoples_game_is_answered_at_once_while_heavy_work_runs(tmp_path):
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "web", "--no-browser", "--port", str(port), "--data",
         str(tmp_path / "data"), "--workers", "2", "--bot-games", "4", "--bot-delay", "0",
         "--rate", "0"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    stop = threading.Event()
    exports: list[float] = []
    scores: list[float] = []
    threads: list[threading.Thread] = []
    try:
        wait_listening(port, server)
        model72, model2000 = big_tables(base)
        for g in range(3):  # games of four mcts bots: they play on by themselves
            http_game(base, "orbitus", ["mcts"] * 4, seed=g)
        threads = [threading.Thread(target=hammer, args=(base, "/api/orbitus/export/png",
                                                          {"table": model72}, stop, exports)),
                   threading.Thread(target=hammer, args=(base, "/api/orbitus/score",
                                                          {"table": model2000}, stop, scores))]
        for t in threads:
            t.start()
        time.sleep(2.0)  # the heavy work is under way
        plies_before = sum(g["plies"] for g in http_get(base, "/api/games"))
        game, tokens = http_game(base, "orbitus", ["human", "human"], seed=3)
        rtts: list[float] = []
        with websockets.connect(f"ws://127.0.0.1:{port}/ws/{tokens[0]}") as a, \
                websockets.connect(f"ws://127.0.0.1:{port}/ws/{tokens[1]}") as b:
            socks = [a, b]
            states = [drain_to(a, 0), drain_to(b, 0)]
            version = 0
            for k in range(60):
                seat = states[0]["view"]["to_move"]
                legal = states[seat]["legal"]
                options = [f"place {c} @{cell} r{rots[0]}" for c, cells in legal["place"].items()
                           for cell, rots in cells.items()] or ["pass"]
                start = time.perf_counter()
                socks[seat].send(json.dumps({"type": "move", "action": options[k % len(options)],
                                             "version": version, "id": k + 1}))
                while True:
                    reply = json.loads(socks[seat].recv(timeout=60))
                    if reply.get("type") == "state":
                        states[seat] = reply
                    if reply.get("ok", reply.get("id")) == k + 1:  # the state after it
                        break
                rtts.append((time.perf_counter() - start) * 1000)
                assert reply["type"] == "state" and reply["ok"] == k + 1, reply
                version = reply["version"]
                states = [s if s["version"] >= version else drain_to(w, version)
                          for s, w in zip(states, socks, strict=True)]
                time.sleep(0.08)
        plies_after = sum(g["plies"] for g in http_get(base, "/api/games")
                          if g["id"] != game["id"])
    finally:
        stop.set()
        for t in threads:
            t.join(180)
        server.terminate()
        server.wait(30)
    median = statistics.median(rtts)
    assert exports and scores, "the heavy work did not run"
    assert plies_after > plies_before, "the bots did not play meanwhile"
    assert median < 50, (f"median round trip {median:.1f} ms (max {max(rtts):.0f} ms) with "
                         f"{len(exports)} exports, {len(scores)} big scores, "
                         f"{plies_after - plies_before} bot moves meanwhile")


def test_games_with_bots_are_limited_in_number(tmp_path):
    with web_client(create_app(tmp_path / "data", bot_delay=0.5, bot_games=2)) as c:
        for _ in range(2):
            assert c.post("/api/games", json={"game": "satellites", "players": players(
                ["human", "random"])}).status_code == 200
        refused = c.post("/api/games", json={"game": "satellites",
                                             "players": players(["human", "greedy"])})
        assert refused.status_code == 503
        assert refused.json()["error"] == (
            "this server is playing 2 games with bots already, its limit (pnp web --bot-games "
            "2); finish or abandon one of them, or try again later")
        # a game of people only is not limited
        assert c.post("/api/games", json={"game": "satellites", "players": players(
            ["human", "human"])}).status_code == 200


def test_a_finished_game_leaves_memory_and_comes_back(tmp_path):
    app = create_app(tmp_path / "data", bot_delay=0, idle=0.3)
    sessions = app.state.context.games.sessions
    with web_client(app) as c:
        data, tokens = new_game(c, "satellites", ["human", "human"], seed=9)
        msg = c.get(f"/api/link/{tokens[0]}").json()
        frm, targets = next(iter(msg["legal"]["moves"].items()))
        c.post(f"/api/link/{tokens[0]}/move", json={"action": f"{frm}-{next(iter(targets))}"})
        host = data["links"]["host"].rsplit("/", 1)[1]
        c.post(f"/api/link/{host}/abandon", json={})
        record = c.get(f"/api/games/{data['id']}/record").text
        replay = c.get(f"/api/games/{data['id']}/replay").json()
        active, _ = new_game(c, "satellites", ["human", "human"], seed=10)
        end = time.time() + 10
        while data["id"] in sessions and time.time() < end:
            time.sleep(0.05)
        assert data["id"] not in sessions  # the abandoned game left memory
        assert active["id"] in sessions  # the game in progress stays
        assert c.get(f"/api/games/{data['id']}/record").text == record  # back from SQLite
        assert c.get(f"/api/games/{data['id']}/replay").json() == replay
        assert c.get(f"/api/link/{tokens[1]}").json()["status"] == "abandoned"
        assert data["id"] in sessions


def test_the_json_of_a_big_table_is_made_in_a_worker(tmp_path):
    from testkit.grow import grow_table

    grown = {k: v for k, v in grow_table(7, 600, 6).items() if k != "game"}
    app = create_app(tmp_path / "data", bot_delay=0)
    with web_client(app) as c:
        answer = c.post("/api/orbitus/score", json={"table": grown})
        assert answer.status_code == 200
        assert app.state.context.pool.started  # a worker process did it
        here = c.post("/api/orbitus/score", json={"table": {**grown,
                                                            "sectors": grown["sectors"][:40]}})
        assert here.status_code == 200
    # the same answer as scoring it here
    from cards.ruleset_cache import load_ruleset
    from web import orbitus_table

    ruleset = load_ruleset("orbitus")
    assert answer.json()["report"] == orbitus_table.scored(grown, ruleset)["report"]
    assert http_post is not None
