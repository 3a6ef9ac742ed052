"""Hidden information against the host (issue 22, points 1, 2, 10, 12): the seed stays on the
server until the game is over, each player takes their own seat with the join code and gets a
secret nobody else ever sees, the host reseats a gone seat only by freeing it (every page is
told), a move is taken back only until the next player acts and never across a draw or the
end of the game."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from rules.orbitus import GAME as ORBITUS  # noqa: E402
from testkit.web import new_game, players, wait_for, web_client, ws_url  # noqa: E402
from web.app import create_app  # noqa: E402
from web.store import MIGRATIONS, digest  # noqa: E402


@pytest.fixture
def app(tmp_path: Path):
    return create_app(tmp_path / "data", bot_delay=0)


@pytest.fixture
def client(app):
    with web_client(app) as c:
        yield c


def token_of(url: str) -> str:
    return url.rsplit("/", 1)[1]


def test_the_host_learns_no_seed_and_holds_no_other_seats_secret(app, client):
    made = client.post("/api/games", json={"game": "orbitus", "players": players(
        ["human", "human", "human"]), "me": 0})
    assert made.status_code == 200
    data = made.json()
    session = app.state.context.games.sessions[data["id"]]
    seed = str(session.seed)
    assert session.dealt == "random"
    # the creator's answer: the join code, the host's and spectators' links, its own seat
    assert "seed" not in data and seed not in made.text
    assert set(data["links"]) >= {"host", "join", "join_qr", "spectator", "spectator_qr"}
    assert data["seat"]["seat"] == 0 and data["seat"]["name"] == "Anna"
    host = token_of(data["links"]["host"])
    # the others take their seats on their own devices
    boris = client.post(f"/api/join/{data['code']}", json={"seat": 1}).json()
    carla = client.post(f"/api/join/{data['code']}", json={"seat": 2}).json()
    secrets = [token_of(boris["url"]), token_of(carla["url"])]
    # nothing the host (or anyone but those devices) can read holds their secrets or the seed
    answers = [client.get(f"/api/link/{host}").text, client.get("/api/games").text,
               client.get(f"/api/join/{data['code']}").text,
               client.get(f"/api/link/{token_of(data['seat']['url'])}").text]
    with client.websocket_connect(ws_url(f"/ws/{host}")) as ws:
        answers.append(ws.receive_text())
    for text in answers:
        assert seed not in text
        assert not [s for s in secrets if s in text]
    # a secret is kept as its digest only
    db = sqlite3.connect(app.state.context.store.path)
    kept = {row[0] for row in db.execute("SELECT token FROM tokens")}
    assert digest(secrets[0]) in kept and secrets[0] not in kept
    # the seed is told once the game is over: its record holds it
    assert client.get(f"/api/games/{data['id']}/record").status_code == 409
    client.post(f"/api/link/{host}/abandon", json={})
    record = client.get(f"/api/games/{data['id']}/record").text
    assert f"seed: {seed}" in record
    replay = client.get(f"/api/games/{data['id']}/replay").json()
    assert replay["seed"] == seed  # as a string: a page's numbers cannot hold every seed


def test_a_seat_is_taken_by_one_device_and_every_page_is_told(app, client):
    data, tokens = new_game(client, "orbitus", ["human", "human", "human"], seed=8)
    code = data["code"]
    again = client.post(f"/api/join/{code}", json={"seat": 1})
    assert again.status_code == 409
    assert again.json()["error"].startswith("Boris's seat is taken already, on another device")
    assert client.post(f"/api/join/{code}", json={"seat": 7}).status_code == 422
    assert client.get("/api/join/ZZZZZZ").status_code == 404
    assert client.get(f"/api/join/{code.lower()}").json()["id"] == data["id"]  # as typed
    host = token_of(data["links"]["host"])
    with client.websocket_connect(ws_url(f"/ws/{tokens[0]}")) as anna, \
            client.websocket_connect(ws_url(f"/ws/{tokens[1]}")) as boris:
        for ws in (anna, boris):
            ws.receive_text()
        anna.receive_text()  # Boris came: Anna's page is told who is connected
        here = json.loads(client.get(f"/api/link/{host}").text)["players"]
        assert [p["connected"] for p in here] == [True, True, False]
        assert [p["taken"] for p in here] == [True, True, True]
        # Carla's device is gone: the host frees her seat; everyone is told
        freed = client.post(f"/api/link/{host}/free", json={"seat": 2})
        assert freed.status_code == 200
        told = "the host freed Carla's seat (its old link no longer works); it can be taken " \
               "again with the join code"
        for ws in (anna, boris):
            msg = json.loads(ws.receive_text())
            assert msg["events"][-1]["text"] == told
            assert msg["players"][2]["taken"] is False
        assert client.get(f"/api/link/{tokens[2]}").status_code == 410
        # the seat is taken again with the code, on a new device; everyone is told that too
        new = client.post(f"/api/join/{code}", json={"seat": 2}).json()
        for ws in (anna, boris):
            msg = json.loads(ws.receive_text())
            assert msg["events"][-1]["text"] == "Carla's seat was taken on a device"
        assert client.get(f"/api/link/{token_of(new['url'])}").json()["seat"] == 2
        # a connected seat cannot be freed by the host (only asked)
        assert client.post(f"/api/link/{host}/free", json={"seat": 0}).status_code == 409
        assert client.post(f"/api/link/{tokens[0]}/free", json={"seat": 1}).status_code == 403
    # what happened to the seats is kept: a restarted server shows it
    kept = client.get(f"/api/link/{tokens[0]}").json()["events"]
    assert told in [e["text"] for e in kept]


def test_a_chosen_seed_is_told_to_every_seat(client):
    data, tokens = new_game(client, "orbitus", ["human", "human"], seed=12)
    assert client.get(f"/api/link/{tokens[1]}").json()["dealt"] == "chosen"
    data, tokens = new_game(client, "orbitus", ["human", "human"], seed=None)
    assert client.get(f"/api/link/{tokens[1]}").json()["dealt"] == "random"
    # Orbitus hides the hands, so a chosen seed matters; Satellites hides nothing
    data, tokens = new_game(client, "orbitus", ["human", "human"], seed=12)
    assert client.get(f"/api/link/{tokens[1]}").json()["hides"] is True
    assert client.get(f"/api/join/{data['code']}").json()["hides"] is True
    data, tokens = new_game(client, "satellites", ["human", "human"], seed=12)
    seat = client.get(f"/api/link/{tokens[1]}").json()
    assert (seat["dealt"], seat["hides"]) == ("chosen", False)
    assert client.get(f"/api/join/{data['code']}").json()["hides"] is False


def test_undo_never_crosses_a_draw(client):
    data, tokens = new_game(client, "orbitus", ["human", "greedy"], seed=5)
    msg = client.get(f"/api/link/{tokens[0]}").json()
    card, cells = next(iter(msg["legal"]["place"].items()))
    cell, rots = next(iter(cells.items()))
    deck = msg["view"]["deck_left"]
    client.post(f"/api/link/{tokens[0]}/move", json={"action": f"place {card} @{cell} r{rots[0]}"})
    moved = wait_for(client, tokens[0], lambda m: len(m["history"]) == 2 and not m["thinking"])
    assert moved["view"]["deck_left"] < deck  # Anna drew the card the placement left room for
    assert moved["can_undo"] is False
    refused = client.post(f"/api/link/{tokens[0]}/undo", json={})
    assert refused.status_code == 409
    assert refused.json()["error"] == (f"your move ({moved['history'][0]['text']}) drew a card; "
                                       f"a move is never taken back across a draw (the card "
                                       f"has been seen)")
    assert client.get(f"/api/link/{tokens[0]}").json()["history"] == moved["history"]


def test_undo_never_crosses_the_end_of_a_game(client):
    data, tokens = new_game(client, "satellites", ["human", "random"], seed=4)
    rng = random.Random(3)
    while True:
        msg = wait_for(client, tokens[0], lambda m: m["status"] != "active" or (
            m["view"]["to_move"] == 0 and not m["thinking"]))
        if msg["status"] != "active":
            break
        options = [f"{f}-{t}" + (f">{rng.choice(p)}" if p else "")
                   for f, ts in msg["legal"]["moves"].items() for t, p in ts.items()] or ["pass"]
        client.post(f"/api/link/{tokens[0]}/move", json={"action": rng.choice(options),
                                                         "version": msg["version"]})
        if client.get(f"/api/link/{tokens[0]}").json()["can_undo"] and rng.random() < 0.05:
            assert client.post(f"/api/link/{tokens[0]}/undo", json={}).status_code == 200
    record = client.get(f"/api/games/{data['id']}/record")
    assert record.status_code == 200  # readable: the game is over
    assert msg["can_undo"] is False
    refused = client.post(f"/api/link/{tokens[0]}/undo", json={})
    assert refused.status_code == 409
    assert refused.json()["error"] == ("the game is over; its end stands (a move is never taken "
                                       "back across the end of a game)")
    after = client.get(f"/api/link/{tokens[0]}").json()
    assert after["status"] == "finished" and after["history"] == msg["history"]
    assert client.get(f"/api/games/{data['id']}/record").text == record.text


def a_removal(client, tokens, seed=31):
    """Play random placements in a 2-person game until the seat to move may remove one of
    its sectors; that seat's number and its message."""
    rng = random.Random(seed)
    for _ in range(200):
        seat = client.get(f"/api/link/{tokens[0]}").json()["view"]["to_move"]
        msg = client.get(f"/api/link/{tokens[seat]}").json()
        if msg["legal"]["remove"]:
            return seat, msg
        options = [f"place {c} @{cell} r{rots[0]}" for c, cells in msg["legal"]["place"].items()
                   for cell, rots in cells.items()] or ["pass"]
        assert client.post(f"/api/link/{tokens[seat]}/move",
                           json={"action": rng.choice(options)}).status_code == 200
    raise AssertionError("no removal came up")


def test_a_removal_is_taken_back_until_the_next_player_acts(client):
    data, tokens = new_game(client, "orbitus", ["human", "human"], seed=17)
    seat, msg = a_removal(client, tokens)
    other = 1 - seat
    q, r = msg["legal"]["remove"][0]
    before = msg["view"]["board"]
    done = client.post(f"/api/link/{tokens[seat]}/move",
                       json={"action": f"remove {q},{r}", "version": msg["version"]}).json()
    assert done["can_undo"] is True  # a removal draws nothing
    assert len(done["view"]["board"]) == len(before) - 1
    back = client.post(f"/api/link/{tokens[seat]}/undo", json={}).json()
    assert back["view"]["board"] == before and back["history"] == msg["history"]
    assert back["private"] == msg["private"]
    # once the next player has acted, the move stands
    client.post(f"/api/link/{tokens[seat]}/move", json={"action": f"remove {q},{r}"})
    after = client.get(f"/api/link/{tokens[other]}").json()
    client.post(f"/api/link/{tokens[other]}/move", json={"action": "pass",
                                                        "version": after["version"]})
    refused = client.post(f"/api/link/{tokens[seat]}/undo", json={})
    assert refused.status_code == 409
    assert refused.json()["error"] == (f"{['Anna', 'Boris'][other]} has moved since; a move can "
                                       f"be taken back only until the next player acts")


def test_a_database_of_the_version_before_keeps_its_links(tmp_path: Path):
    """Links of a game saved before seats were taken by code (schema version 3: secrets kept
    as they are) still open it after the migration, which keeps only their digests."""
    from cards.ruleset_cache import load_ruleset

    folder = tmp_path / "data"
    folder.mkdir()
    db = sqlite3.connect(folder / "pnp-web.sqlite3")
    for script in MIGRATIONS[:3]:
        db.executescript(script)
    db.execute("PRAGMA user_version = 3")
    ruleset = load_ruleset("orbitus")
    start = ORBITUS.encode(ORBITUS.new_game(ruleset, ["Anna", "Boris"], 3))
    db.execute("INSERT INTO games VALUES ('g1', 'orbitus', ?, ?, 3, ?, 'active', 0, 0, ?, ?, 0)",
               (json.dumps(["Anna", "Boris"]), json.dumps(["human", "human"]),
                json.dumps(ruleset.to_data()), start, start))
    db.executemany("INSERT INTO tokens (token, game_id, role, seat) VALUES (?, 'g1', ?, ?)",
                   [("seat-zero-secret-x", "seat", 0), ("seat-one-secret-xx", "seat", 1),
                    ("the-host-secret-xx", "host", None), ("the-spectators-xx", "spectator",
                                                           None)])
    db.commit()
    db.close()
    with web_client(create_app(folder, bot_delay=0)) as c:
        anna = c.get("/api/link/seat-zero-secret-x").json()
        assert anna["seat"] == 0 and anna["private"]["hand"]
        assert c.get("/api/link/the-spectators-xx").json()["role"] == "spectator"
        host = c.get("/api/link/the-host-secret-xx").json()
        code = host["links"]["code"]
        assert len(code) == 6 and host["links"]["spectator"].endswith("/w/the-spectators-xx")
        assert c.get(f"/api/join/{code}").json()["players"][1]["taken"] is True
    db = sqlite3.connect(folder / "pnp-web.sqlite3")
    assert "seat-zero-secret-x" not in {r[0] for r in db.execute("SELECT token FROM tokens")}
