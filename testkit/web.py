"""Kits for talking to ``pnp web`` in tests, benchmarks and tools: a test client that names
the server as its pages do (the server answers only to the hosts it serves on), uploads sent
with a file's type (the server refuses the types a page of another site may send without
asking), and a game whose people's seats are all taken, as each player's device takes its
own with the join code.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable
from typing import Any

BASE = "http://127.0.0.1"
NAMES = ["Anna", "Boris", "Carla", "Dmitri", "Elena", "Fyodor"]
FILE = {"Content-Type": "application/octet-stream"}


def web_client(app: Any) -> Any:
    """A Starlette test client of ``app`` at http://127.0.0.1 (its WebSockets need
    :func:`ws_url`: the test client names them ``testserver`` otherwise)."""
    from starlette.testclient import TestClient

    return TestClient(app, base_url=BASE)


def ws_url(path: str) -> str:
    return "ws://127.0.0.1" + path


def upload(c: Any, path: str, data: bytes, **kw: Any) -> Any:
    """POST a file's bytes (an import, a photo) as a page sends them."""
    return c.post(path, content=data, headers=FILE, **kw)


def players(kinds: list[str], names: list[str] | None = None) -> list[dict[str, str]]:
    names = names or NAMES
    return [{"name": names[i], "kind": k} for i, k in enumerate(kinds)]


def take_seats(post: Any, data: dict[str, Any], kinds: list[str]) -> dict[int, str]:
    """Every person's seat of a new game taken with its join code (``post(path, body)``
    returns the answer's JSON); seat -> its secret (the creator's own seat, if any,
    included)."""
    tokens: dict[int, str] = {}
    if data.get("seat"):
        tokens[data["seat"]["seat"]] = data["seat"]["url"].rsplit("/", 1)[1]
    for seat, kind in enumerate(kinds):
        if kind == "human" and seat not in tokens:
            got = post(f"/api/join/{data['code']}", {"seat": seat})
            tokens[seat] = got["url"].rsplit("/", 1)[1]
    return tokens


def new_game(c: Any, game: str, kinds: list[str], seed: int | None = 3,
             names: list[str] | None = None, **extra: Any) -> tuple[dict[str, Any],
                                                                     dict[int, str]]:
    """A game made through a test client, every person's seat taken: its answer and
    seat -> secret."""
    out = c.post("/api/games", json={"game": game, "players": players(kinds, names),
                                     "seed": seed, **extra})
    assert out.status_code == 200, out.text
    data = out.json()

    def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
        got = c.post(path, json=body)
        assert got.status_code == 200, got.text
        result: dict[str, Any] = got.json()
        return result

    return data, take_seats(post, data, kinds)


def wait_for(client: Any, token: str, check: Callable[[dict[str, Any]], bool],
             timeout: float = 30.0) -> dict[str, Any]:
    """The message of link ``token`` once ``check`` holds for it (bots move in the
    background), asked through a test client; fails after ``timeout`` seconds."""
    end = time.time() + timeout
    while time.time() < end:
        msg: dict[str, Any] = client.get(f"/api/link/{token}").json()
        if check(msg):
            return msg
        time.sleep(0.02)
    raise AssertionError("the game did not get there in time")


def http_post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST JSON to a running server (urllib, as a program that is not a browser)."""
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as res:
        out: dict[str, Any] = json.load(res)
    return out


def http_get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=60) as res:
        return json.load(res)


def http_game(base: str, game: str, kinds: list[str], seed: int | None = 3,
              names: list[str] | None = None, **extra: Any) -> tuple[dict[str, Any],
                                                                      dict[int, str]]:
    """:func:`new_game` against a running server."""
    data = http_post(base, "/api/games", {"game": game, "players": players(kinds, names),
                                          "seed": seed, **extra})
    return data, take_seats(lambda p, b: http_post(base, p, b), data, kinds)


def seat_url(base: str, token: str) -> str:
    return f"{base}/s/{token}"
