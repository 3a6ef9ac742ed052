"""The server's gate (issue 22, points 7 and 8, without a browser): the Host allowlist, Origin
on writes and WebSocket upgrades, JSON only, rate-limited creation, slow bodies timed out;
and the requests that used to get a 500 (deep JSON, huge ids, bad WebSocket frames) answered
with a 4xx and a sentence, the connection kept."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

from starlette.websockets import WebSocketDisconnect  # noqa: E402

from testkit.browser import serving  # noqa: E402
from testkit.web import new_game, players, upload, web_client, ws_url  # noqa: E402
from web.app import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "tests" / "fixtures" / "orbitus" / "two-players.yaml"
GAME = {"game": "satellites", "players": players(["human", "human"])}


@pytest.fixture
def client(tmp_path: Path):
    with web_client(create_app(tmp_path / "data", bot_delay=0, rate=5)) as c:
        yield c


def test_a_request_naming_another_host_is_refused(client):
    for path in ("/", "/api/games", "/api/tables/orbitus"):
        refused = client.get(path, headers={"Host": "evil.test:8000"})
        assert refused.status_code == 400
        assert refused.json()["error"] == (
            'this server answers to 127.0.0.1, ::1, localhost only, and the request\'s Host '
            'header says "evil.test:8000": open it by one of those addresses (a page of another '
            'site that points its own name at this machine, DNS rebinding, is refused)')
    assert client.get("/api/games", headers={"Host": "localhost:8000"}).status_code == 200
    with pytest.raises(WebSocketDisconnect) as closed, \
            client.websocket_connect("ws://evil.test/ws/whatever-token"):
        pass
    assert closed.value.code == 4400


def test_a_write_from_a_page_of_another_site_is_refused(client, tmp_path):
    saved = client.post("/api/tables/orbitus", json={"name": "mine", "text": TABLE.read_text()})
    ident = saved.json()["id"]
    attempts = [
        client.post("/api/tables/orbitus", json={"name": "x", "text": "", "id": ident},
                    headers={"Origin": "http://127.0.0.1:18199"}),
        client.post("/api/games", json=GAME, headers={"Origin": "null"}),
        client.post("/api/games", json=GAME, headers={"Sec-Fetch-Site": "cross-site"}),
        client.delete(f"/api/tables/orbitus/{ident}", headers={"Origin": "http://evil.test"}),
    ]
    for refused in attempts:
        assert refused.status_code == 403, refused.text
        assert "from a page of another site" in refused.json()["error"]
    assert attempts[0].json()["error"] == (
        "a request that changes something from a page of another site (http://127.0.0.1:18199) "
        "is refused: only this server's own pages may do that")
    # the server's own page (same origin) and programs that are not browsers may
    own = client.post("/api/games", json=GAME, headers={"Origin": "http://127.0.0.1",
                                                         "Sec-Fetch-Site": "same-origin"})
    assert own.status_code == 200
    assert client.get(f"/api/tables/orbitus/{ident}").json()["name"] == "mine"
    assert len(client.get("/api/games").json()) == 1
    data, tokens = new_game(client, "satellites", ["human", "human"])
    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(
            ws_url(f"/ws/{tokens[0]}"), headers={"Origin": "http://127.0.0.1:18199"}):
        pass
    assert closed.value.code == 4403
    assert closed.value.reason == ("a WebSocket from a page of another site "
                                   "(http://127.0.0.1:18199) is refused: only this server's own "
                                   "pages may do that")


def test_only_json_changes_anything(client):
    forms = [("text/plain", b'{"game": "satellites"}'),
             ("application/x-www-form-urlencoded", b"game=satellites"),
             ("multipart/form-data; boundary=x", b"--x--"), ("", b"{}")]
    for kind, body in forms:
        refused = client.post("/api/games", content=body,
                              headers={"Content-Type": kind} if kind else {})
        assert refused.status_code == 415, (kind, refused.text)
    assert refused.json()["error"] == ("this request must be JSON (Content-Type: "
                                       "application/json), and it came without a type: pages "
                                       "of other sites cannot send JSON here without asking "
                                       "first, which is why only JSON is taken")
    assert client.get("/api/games").json() == []
    # a file is sent with its own type, never one another site's page may send unasked
    plain = client.post("/api/orbitus/import", content=TABLE.read_bytes(),
                        headers={"Content-Type": "text/plain"})
    assert plain.status_code == 415
    assert upload(client, "/api/orbitus/import", TABLE.read_bytes()).status_code == 200


def test_new_games_and_seats_are_rate_limited(client):
    for _ in range(5):
        assert client.post("/api/games", json=GAME).status_code == 200
    refused = client.post("/api/games", json=GAME)
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["retry-after"]) <= 12
    assert refused.json()["error"].startswith("too many new games from testclient (5 a minute "
                                              "at most); try again in ")
    assert len(client.get("/api/games").json()) == 5
    # join codes cannot be tried fast either
    tries = [client.get(f"/api/join/AAAAA{c}").status_code for c in "BCDEFGH"]
    assert tries[:5] == [404] * 5 and tries[5:] == [429, 429]


def test_a_body_that_stops_arriving_is_timed_out(tmp_path):
    with serving(tmp_path / "data", body_idle=0.5, body_deadline=3) as base:
        port = int(base.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(b"POST /api/orbitus/import HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Type: application/octet-stream\r\nContent-Length: 5000\r\n"
                         b"\r\ngame: orbitus\n")
            started = time.monotonic()
            answer = b""
            while not answer.endswith(b"}"):
                part = sock.recv(65536)
                if not part:
                    break
                answer += part
            waited = time.monotonic() - started
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408"), answer
        assert json.loads(body)["error"] == ("the request's body stopped arriving (14 bytes came, "
                                             "then nothing for 0.5 s); nothing was changed, "
                                             "send it again")
        assert waited < 5


def test_what_used_to_be_a_server_error_is_a_sentence(client):
    deep = client.post("/api/orbitus/score", content=b"[" * 4000 + b"]" * 4000,
                       headers={"Content-Type": "application/json"})
    assert deep.status_code == 400
    assert deep.json()["error"] == ("the request's JSON is nested more than 64 levels deep; "
                                    "nothing this server takes is (a table is four levels deep)")
    huge = client.get("/api/tables/orbitus/" + "1" + "0" * 30)
    assert huge.status_code == 404
    assert huge.json()["error"] == ("no saved table has the id '1000000000000000000000000000000'"
                                    ": ids are whole numbers from 1 to 9223372036854775807, as "
                                    "the list of saved tables gives them")
    overwrite = client.post("/api/tables/orbitus", json={"name": "x", "text": TABLE.read_text(),
                                                         "id": 10**30})
    assert overwrite.status_code == 422
    assert overwrite.json()["error"].startswith("id must be the number of a saved table")


def test_the_live_connection_survives_a_bad_frame_and_says_why(client):
    data, tokens = new_game(client, "satellites", ["human", "human"])
    with client.websocket_connect(ws_url(f"/ws/{tokens[0]}")) as ws:
        assert json.loads(ws.receive_text())["type"] == "state"
        ws.send_bytes(b"\x00\x01\x02")
        binary = json.loads(ws.receive_text())
        assert (binary["type"], binary["status"]) == ("error", 400)
        assert binary["error"] == ("this connection takes text frames of JSON ({type: "
                                   "move|undo|ping, ...}); a binary frame of 3 bytes came and "
                                   "was ignored")
        ws.send_text("[" * 4000)
        deep = json.loads(ws.receive_text())
        assert deep["status"] == 400 and "nested more than 64 levels" in deep["error"]
        ws.send_text("{not json")
        assert json.loads(ws.receive_text())["error"].startswith("the request is not JSON")
        ws.send_text(json.dumps({"type": "ping", "id": 5}))
        assert json.loads(ws.receive_text()) == {"type": "pong", "id": 5}  # still alive
    with pytest.raises(WebSocketDisconnect) as closed, \
            client.websocket_connect(ws_url("/ws/no-such-link-at-all")) as ws:
        assert json.loads(ws.receive_text())["status"] == 404
        ws.receive_text()
    assert closed.value.code == 4404
    assert closed.value.reason.startswith("this link belongs to no game here")
