"""pnp-web's server without a browser: the transcription API gives pnp-score's results and
round-trips its files byte for byte; games keep hidden information per seat, refuse bad
input with a clear 4xx and leave the game unharmed, resume after a restart, and export
records that pnp-replay replays to the same result."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from cards.design_cache import design  # noqa: E402
from testkit.web import new_game, upload, wait_for, web_client, ws_url  # noqa: E402
from web.app import create_app  # noqa: E402
from web.store import MIGRATIONS, Store, StoreError  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ORBITUS = ROOT / "tests" / "fixtures" / "orbitus"
SATELLITES = ROOT / "tests" / "fixtures" / "satellites"


@pytest.fixture
def client(tmp_path: Path):
    app = create_app(tmp_path / "data", bot_delay=0)
    with web_client(app) as c:
        yield c


def cli_json(game: str, path: Path) -> dict:
    done = subprocess.run([sys.executable, "-m", "scorer", game, "--json", "--lenient", str(path)],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def without_file(report: dict) -> dict:
    """A report without what names the file (and without the design the command adds: the
    page's report shows the server's definitions beside it)."""
    return {k: v for k, v in report.items() if k not in ("file", "design")}


# --- the store -------------------------------------------------------------------------------


def test_the_store_is_wal_and_versioned(tmp_path: Path):
    store = Store(tmp_path)
    assert store.version == len(MIGRATIONS)
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store.close()


def test_an_older_database_is_migrated_and_a_newer_one_refused(tmp_path: Path):
    db = sqlite3.connect(tmp_path / "pnp-web.sqlite3")
    db.executescript(MIGRATIONS[0])
    db.execute("PRAGMA user_version = 1")
    db.execute("INSERT INTO saved_tables (game, name, text, created, updated) "
               "VALUES ('orbitus', 'kept', 'x', 0, 0)")
    db.commit()
    db.close()
    store = Store(tmp_path)
    assert store.version == len(MIGRATIONS)
    assert [t["name"] for t in store.tables("orbitus")] == ["kept"]
    store.db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    store.close()
    with pytest.raises(StoreError, match="newer pnp-web"):
        Store(tmp_path)


# --- transcribing Orbitus ---------------------------------------------------------------------


def test_the_readme_table_imports_and_scores_as_the_cli(client, tmp_path: Path):
    path = ORBITUS / "two-players.yaml"
    out = upload(client, "/api/orbitus/import?name=two-players.yaml", path.read_bytes()).json()
    cli = cli_json("orbitus", path)
    assert without_file(out["report"]) == without_file(cli)
    assert [p["total"] for p in out["report"]["players"]] == [-1, -9]
    # the exported text is what was scored; pnp-score reads it to the same report
    exported = tmp_path / "exported.yaml"
    exported.write_text(client.post("/api/orbitus/export/yaml",
                                    json={"table": out["model"]}).text, encoding="utf-8")
    assert without_file(cli_json("orbitus", exported)) == without_file(cli)


@pytest.mark.parametrize("name", ["two-players.yaml", "ring-with-hub.yaml",
                                  "six-players-72.yaml"])
def test_export_import_export_is_byte_stable(client, name):
    first = upload(client, f"/api/orbitus/import?name={name}", (ORBITUS / name).read_bytes()).json()
    text = client.post("/api/orbitus/export/yaml", json={"table": first["model"]}).text
    again = upload(client, "/api/orbitus/import?name=x.yaml", text.encode()).json()
    assert client.post("/api/orbitus/export/yaml",
                       json={"table": again["model"]}).text == text
    assert again["text"] == text


def test_violations_carry_the_cli_sentences(client, tmp_path: Path):
    text = """game: orbitus
players: [Anna, Boris]
sectors:
  - {at: [0, -1], routes: [S, N], planet: ice}
  - {at: [0, -2], routes: [NE]}
  - {at: [0, 0], card: S04}
  - {at: [3, 3], card: Q1}
  - {at: [1, 1], card: S05, rot: 9}
"""
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    out = upload(client, "/api/orbitus/import?name=bad.yaml", text.encode()).json()
    cli = cli_json("orbitus", path)
    assert out["report"]["violations"] == cli["violations"]
    assert {v["rule"] for v in cli["violations"]} >= {"match-sector", "station-cell",
                                                      "unknown-card", "bad-rot"}


def test_an_edit_is_scored_and_the_exports_are_the_scorers(client):
    model = {"players": ["Anna", "Boris"],
             "sectors": [{"at": [0, -1], "card": "S44", "rot": 0}]}
    out = client.post("/api/orbitus/score", json={"table": model}).json()
    assert out["text"] == ("game: orbitus\nplayers: [Anna, Boris]\nsectors:\n"
                           "  - {at: [0, -1], card: S44, rot: 0}\n"
                           f"design: {design('orbitus').stamp}\n")  # the server's
    assert out["owner"] == {"0,-1": 0}
    report = client.post("/api/orbitus/export/json", json={"table": model})
    assert report.headers["content-disposition"].startswith("attachment")
    assert json.loads(report.text)["players"][0]["sectors"] == [[0, -1]]
    svg = client.post("/api/orbitus/export/svg", json={"table": model})
    assert svg.text.startswith("<?xml") and "S44" in svg.text
    png = client.post("/api/orbitus/export/png", json={"table": model})
    assert png.content[:8] == b"\x89PNG\r\n\x1a\n"


def test_malformed_and_oversized_layouts_are_refused_clearly(client):
    bad = upload(client, "/api/orbitus/import?name=game.yaml",
                 b"game: orbitus\nplayers: [Anna, Boris\nsectors: []\n")
    assert bad.status_code == 422
    assert bad.json()["problems"][0].startswith("game.yaml:")
    assert "YAML syntax error" in bad.json()["problems"][0]
    big = upload(client, "/api/orbitus/import?name=big.yaml", b"#" * 2_000_000)
    assert big.status_code == 413
    assert "kB" in big.json()["error"]
    not_json = client.post("/api/orbitus/score", content=b"{nope",
                           headers={"Content-Type": "application/json"})
    assert not_json.status_code == 400
    elsewhere = upload(client, "/api/orbitus/import?name=x.yaml",
                       b"game: orbitus\ncards: ../cards\nplayers: [A, B]\nsectors: []\n")
    assert elsewhere.status_code == 422


# --- transcribing Satellites ------------------------------------------------------------------


@pytest.mark.parametrize("name", ["crowned.txt", "tie_draw.txt", "all_12_grace.yaml",
                                  "end_23_connected.txt"])
def test_satellites_boards_score_as_the_cli_and_round_trip(client, name):
    path = SATELLITES / name
    out = upload(client, f"/api/satellites/import?name={name}", path.read_bytes()).json()
    assert without_file(out["report"]) == without_file(cli_json("satellites", path))
    text = client.post("/api/satellites/export/txt", json={"board": out["model"]}).text
    again = upload(client, "/api/satellites/import?name=b", text.encode()).json()
    assert client.post("/api/satellites/export/txt", json={"board": again["model"]}).text == text
    assert again["report"] == out["report"]


def test_a_ragged_paste_is_read_as_the_cli_reads_it(client):
    out = upload(client, "/api/satellites/import?name=p", b". . .\n. R1 B1 .\n. . . . .\n").json()
    rules = {v["rule"] for v in out["import_report"]["violations"]}
    assert "ragged-rows" in rules or "board-size" in rules
    unreadable = upload(client, "/api/satellites/import?name=p", b"game: satellites\n")
    assert unreadable.status_code == 422


# --- games ----------------------------------------------------------------------------------------


def create(client, game, kinds, seed=3, names=None):
    """A game with every person's seat taken with its join code: its answer and seat ->
    secret."""
    return new_game(client, game, kinds, seed, names)


def test_each_seat_sees_only_its_own_hand(client):
    data, tokens = create(client, "orbitus", ["human", "human", "human"])
    host = data["links"]["host"].rsplit("/", 1)[1]
    spectator = data["links"]["spectator"].rsplit("/", 1)[1]
    hands = []
    for seat in range(3):
        msg = client.get(f"/api/link/{tokens[seat]}").json()
        assert msg["seat"] == seat and msg["role"] == "seat"
        hands.append(msg["private"]["hand"])
        assert (msg["legal"] is not None) == (seat == 0)
    for seat in range(3):
        text = client.get(f"/api/link/{tokens[seat]}").text
        for other in range(3):
            if other != seat:
                assert not any(card in text for card in set(hands[other]) - set(hands[seat]))
    for token in (host, spectator):
        msg = client.get(f"/api/link/{token}").json()
        assert "private" not in msg and "hand" not in msg["view"]
        body = json.dumps(msg["view"]) + json.dumps(msg.get("history"))
        assert not any(card in body for hand in hands for card in hand)
    # the WebSocket carries the same: seat 1 never sees seat 0's or 2's cards
    with client.websocket_connect(ws_url(f"/ws/{tokens[1]}")) as ws:
        first = ws.receive_text()
        assert json.loads(first)["private"]["hand"] == hands[1]
        client.post(f"/api/link/{tokens[0]}/move", json={"action": "pass", "version": 0})
        second = ws.receive_text()
        for text in (first, second):
            assert not any(card in text for card in set(hands[0]) | set(hands[2])
                           if card not in hands[1])


def test_a_move_over_the_websocket_is_answered_in_the_state_after_it(client):
    """One frame answers a move: the mover's state message, with the move's id as ``ok``
    right after its type; the other seat's state has no ``ok``; a refused move is an error
    frame with its id; taking back is answered the same way."""
    data, tokens = create(client, "orbitus", ["human", "human"])
    with client.websocket_connect(ws_url(f"/ws/{tokens[0]}")) as anna, \
            client.websocket_connect(ws_url(f"/ws/{tokens[1]}")) as boris:
        msg = json.loads(anna.receive_text())
        assert json.loads(anna.receive_text())["players"][1]["connected"]  # Boris came
        json.loads(boris.receive_text())
        card, cells = next(iter(msg["legal"]["place"].items()))
        cell, rots = next(iter(cells.items()))
        anna.send_text(json.dumps({"type": "move", "action": f"place {card} @{cell} r{rots[0]}",
                                   "version": 0, "id": 7}))
        text = anna.receive_text()
        assert text.startswith('{"type":"state","ok":7,"id":')
        mine = json.loads(text)
        assert (mine["version"], mine["seat"], len(mine["history"])) == (1, 0, 1)
        assert text == '{"type":"state","ok":7,' + \
            client.get(f"/api/link/{tokens[0]}/view?seat=0").text[16:]
        theirs = boris.receive_text()
        assert "ok" not in json.loads(theirs) and json.loads(theirs)["version"] == 1
        anna.send_text(json.dumps({"type": "ping", "id": 8}))
        assert json.loads(anna.receive_text()) == {"type": "pong", "id": 8}  # no frame more
        anna.send_text(json.dumps({"type": "move", "action": "pass", "version": 1, "id": 9}))
        refused = json.loads(anna.receive_text())
        assert (refused["type"], refused["status"], refused["id"]) == ("error", 409, 9)
        boris.send_text(json.dumps({"type": "move", "action": "pass", "version": 1, "id": 3}))
        assert json.loads(boris.receive_text())["ok"] == 3
        assert "ok" not in json.loads(anna.receive_text())
        boris.send_text(json.dumps({"type": "undo", "id": 4}))
        back = json.loads(boris.receive_text())
        assert (back["ok"], back["version"], len(back["history"])) == (4, 3, 1)


def test_bad_requests_are_refused_and_leave_the_game_as_it_was(client):
    data, tokens = create(client, "orbitus", ["human", "human"])
    before = client.get(f"/api/link/{tokens[0]}").json()
    spectator = data["links"]["spectator"].rsplit("/", 1)[1]
    cases = [
        (client.get("/api/link/not-a-token"), 404, "belongs to no game"),
        (client.post(f"/api/link/{tokens[1]}/move", json={"action": "pass"}), 409,
         "it is Anna's turn"),
        (client.get(f"/api/link/{tokens[0]}/view?seat=1"), 403, "Boris's own link"),
        (client.post(f"/api/link/{spectator}/move", json={"action": "pass"}), 403,
         "only a seat's link makes moves"),
        (client.post(f"/api/link/{tokens[0]}/move", json={"action": "place S99 @0,-1 r0"}),
         422, "is not in your hand"),
        (client.post(f"/api/link/{tokens[0]}/move", json={"action": "jump"}), 422,
         "is not a move"),
        (client.post(f"/api/link/{tokens[0]}/move", json={"action": "pass", "version": 7}),
         409, "moved on"),
        (client.post(f"/api/link/{tokens[0]}/undo", json={}), 409,
         "no move of yours to take back"),
        (client.post(f"/api/link/{tokens[0]}/move", content=b"x" * 2_000_000,
                     headers={"Content-Type": "application/json"}), 413, "kB"),
    ]
    for response, status, words in cases:
        assert response.status_code == status, response.text
        assert words in response.json()["error"]
    hand = before["private"]["hand"]
    card = hand[0]
    wrong = client.post(f"/api/link/{tokens[0]}/move",
                        json={"action": f"place {card} @5,5 r0", "version": 0})
    assert wrong.status_code == 422
    assert "is not next to the station or a placed sector" in wrong.json()["error"]
    after = client.get(f"/api/link/{tokens[0]}").json()
    assert after["version"] == before["version"] and after["history"] == []
    assert after["private"] == before["private"]
    # a seat the host frees: its old link stops working (410), it is taken again by code
    host = data["links"]["host"].rsplit("/", 1)[1]
    assert client.post(f"/api/link/{host}/free", json={"seat": 1}).status_code == 200
    assert client.get(f"/api/link/{tokens[1]}").status_code == 410
    again = client.post(f"/api/join/{data['code']}", json={"seat": 1}).json()
    new = again["url"].rsplit("/", 1)[1]
    assert client.get(f"/api/link/{new}").json()["seat"] == 1


def play_out(client, token, seat, rng, game, limit=2000):
    """Play ``seat`` with random legal moves until the game ends (bots answer)."""
    for _ in range(limit):
        msg = wait_for(client, token, lambda m: m["status"] != "active" or (
            m["view"]["to_move"] == seat and not m["thinking"]))
        if msg["status"] != "active":
            return msg
        legal = msg["legal"]
        if game == "satellites":
            options = [f"{f}-{t}" + (f">{rng.choice(p)}" if p else "")
                       for f, ts in legal["moves"].items() for t, p in ts.items()]
            options = options or ["pass"]
        else:
            options = [f"place {c} @{cell} r{rots[0]}" for c, cells in legal["place"].items()
                       for cell, rots in cells.items()]
            options += [f"discard {c}" for c in legal["discard"]]
            if legal["pass"] or not options:
                options.append("pass")
        r = client.post(f"/api/link/{token}/move", json={"action": rng.choice(options),
                                                         "version": msg["version"]})
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game,kinds", [("satellites", ["human", "random"]),
                                        ("orbitus", ["human", "greedy", "random"])])
def test_a_game_against_bots_ends_and_its_record_replays_to_the_same_result(client, tmp_path,
                                                                            game, kinds):
    data, tokens = create(client, game, kinds, seed=11)
    end = play_out(client, tokens[0], 0, random.Random(5), game)
    assert end["status"] == "finished" and end["result"] is not None
    record = client.get(f"/api/games/{data['id']}/record")
    assert record.status_code == 200
    path = tmp_path / "game.yaml"
    path.write_text(record.text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "records.replay_cli", "--json",
                           str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    replayed = json.loads(done.stdout)
    assert replayed["replay"]["played"] == len(end["history"])
    assert replayed["replay"]["illegal"] is None and replayed["replay"]["over"] is True
    if game == "satellites":
        assert replayed["winner"] == ([None, "red", "blue"][len(end["result"]["winners"]) and
                                                           end["result"]["winners"][0] + 1])
        assert replayed["colonies"] == end["view"]["score"]["colonies"]
    else:
        assert [p["total"] for p in replayed["players"]] == end["result"]["scores"]
    steps = client.get(f"/api/games/{data['id']}/replay").json()["steps"]
    assert len(steps) == len(end["history"]) + 1


def test_undo_takes_back_the_move_and_the_bots_answers(client):
    data, tokens = create(client, "satellites", ["human", "random"])
    msg = client.get(f"/api/link/{tokens[0]}").json()
    frm, targets = next(iter(msg["legal"]["moves"].items()))
    client.post(f"/api/link/{tokens[0]}/move", json={"action": f"{frm}-{next(iter(targets))}"})
    moved = wait_for(client, tokens[0], lambda m: len(m["history"]) == 2 and not m["thinking"])
    assert moved["can_undo"]
    back = client.post(f"/api/link/{tokens[0]}/undo", json={}).json()
    assert back["history"] == [] and back["view"]["cells"] == msg["view"]["cells"]


def test_the_games_list_reads_the_moves_a_game_row_does_not_hold(client):
    """A move writes its moves row only: the home page's list still says how many moves
    each game has and lists the one played last first, a taking back included, and the
    store's game row holds the state after the last move."""
    first, a = create(client, "satellites", ["human", "human"], seed=5)
    second, _ = create(client, "satellites", ["human", "human"], seed=6)

    def move(token: str) -> None:
        msg = client.get(f"/api/link/{token}").json()
        frm, targets = next(iter(msg["legal"]["moves"].items()))
        moved = client.post(f"/api/link/{token}/move",
                            json={"action": f"{frm}-{next(iter(targets))}"})
        assert moved.status_code == 200, moved.text

    def listed() -> list[tuple[str, int]]:
        return [(g["id"], g["plies"]) for g in client.get("/api/games").json()]

    move(a[0])
    move(a[1])
    assert listed() == [(first["id"], 2), (second["id"], 0)]
    store = client.app.state.context.store
    db = sqlite3.connect(store.path)
    assert db.execute("SELECT plies FROM games WHERE id=?", (first["id"],)).fetchone() == (0,)
    last = db.execute("SELECT state FROM moves WHERE game_id=? AND ply=1",
                      (first["id"],)).fetchone()[0]
    assert (store.game(first["id"]).plies, store.game(first["id"]).state) == (2, last)
    assert client.post(f"/api/link/{a[1]}/undo", json={}).status_code == 200
    assert listed() == [(first["id"], 1), (second["id"], 0)]
    assert store.game(first["id"]).plies == 1


def test_a_restarted_server_resumes_every_game_from_sqlite(tmp_path: Path):
    data_dir = tmp_path / "data"
    with web_client(create_app(data_dir, bot_delay=0)) as c:
        data, tokens = create(c, "orbitus", ["human", "human"])
        for seat in (0, 1, 0):
            msg = c.get(f"/api/link/{tokens[seat]}").json()
            legal = msg["legal"]
            card, cells = next(iter(legal["place"].items()))
            cell, rots = next(iter(cells.items()))
            assert c.post(f"/api/link/{tokens[seat]}/move",
                          json={"action": f"place {card} @{cell} r{rots[0]}"}).status_code == 200
        before = c.get(f"/api/link/{tokens[1]}").json()
    with web_client(create_app(data_dir, bot_delay=0)) as c:
        after = c.get(f"/api/link/{tokens[1]}").json()
        assert after["view"] == before["view"] and after["history"] == before["history"]
        assert after["private"] == before["private"] and after["legal"] == before["legal"]
        assert c.post(f"/api/link/{tokens[1]}/move", json={"action": "pass"}).status_code == 200


def test_an_abandoned_game_is_kept_and_exports_its_record(client, tmp_path):
    data, tokens = create(client, "satellites", ["human", "human"], seed=42)
    host = data["links"]["host"].rsplit("/", 1)[1]
    assert client.get(f"/api/games/{data['id']}/record").status_code == 409
    msg = client.get(f"/api/link/{tokens[0]}").json()
    frm, targets = next(iter(msg["legal"]["moves"].items()))
    client.post(f"/api/link/{tokens[0]}/move", json={"action": f"{frm}-{next(iter(targets))}"})
    assert client.post(f"/api/link/{tokens[0]}/abandon", json={}).status_code == 403
    assert client.post(f"/api/link/{host}/abandon", json={}).json()["status"] == "abandoned"
    assert client.post(f"/api/link/{tokens[1]}/move", json={"action": "pass"}).status_code == 409
    record = client.get(f"/api/games/{data['id']}/record").text
    assert "seed: 42" in record and "abandoned" in record
    path = tmp_path / "abandoned.yaml"
    path.write_text(record, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "records.replay_cli", "--json",
                           str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["replay"]["played"] == 1


def test_new_games_are_checked(client):
    bad = [
        ({"game": "chess", "players": []}, "not a game"),
        ({"game": "satellites", "players": [{"name": "A"}]}, "2 players"),
        ({"game": "orbitus", "players": [{"name": "A"}, {"name": "A"}]}, "already seat 1"),
        ({"game": "orbitus", "players": [{"name": "A"}, {"name": "B", "kind": "alphago"}]},
         "not a kind of seat"),
        ({"game": "orbitus", "players": [{"name": "A"}, {"name": "B"}], "seed": -1},
         "not a seed"),
    ]
    for body, words in bad:
        r = client.post("/api/games", json=body)
        assert r.status_code == 422 and words in r.json()["error"], r.text


# --- the command ----------------------------------------------------------------------------------


def test_pnp_web_starts_on_a_free_port_and_serves_the_pages(tmp_path: Path):
    import re
    import urllib.request

    server = subprocess.Popen([sys.executable, "-m", "web", "--no-browser", "--data",
                               str(tmp_path / "data")], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        found = re.search(r"serving on (http://localhost:(\d+)/)", line)
        assert found, line
        url = found.group(1).replace("localhost", "127.0.0.1")
        end = time.time() + 20
        while True:
            try:
                page = urllib.request.urlopen(url, timeout=5).read().decode()
                break
            except OSError:
                assert time.time() < end
                time.sleep(0.1)
        assert "<title>pnp-web" in page and "/static/home.js" in page
        script = urllib.request.urlopen(url + "static/common.js", timeout=5).read().decode()
        assert "http://" not in script.replace("http://www.w3.org/2000/svg", "")  # no CDN
        assert (tmp_path / "data" / "pnp-web.sqlite3").exists()
    finally:
        server.terminate()
        server.wait(10)


def test_pnp_web_misuse_exits_2(tmp_path: Path):
    (tmp_path / "file").write_text("x")
    done = subprocess.run([sys.executable, "-m", "web", "--no-browser", "--port", "70000"],
                          capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (
        2, "pnp-web: --port: 70000 is out of range (0 to 65535) (see pnp-web --help)\n")
    done = subprocess.run([sys.executable, "-m", "web", "--no-browser", "--data",
                           str(tmp_path / "file")], capture_output=True, text=True)
    assert done.returncode == 2 and "--data" in done.stderr
    assert "--no-browser" in subprocess.run([sys.executable, "-m", "web", "--help"],
                                            capture_output=True, text=True).stdout


def test_the_scorer_never_imports_the_server():
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "scorer", "orbitus",
                           str(ORBITUS / "two-players.yaml")], capture_output=True, text=True)
    assert done.returncode == 0
    imported = {line.rsplit("|", 1)[-1].strip().split(".")[0]
                for line in done.stderr.splitlines() if "|" in line}
    assert not imported & {"starlette", "uvicorn", "segno", "websockets", "web", "anyio"}


def test_a_seat_handed_on_is_cut_off_at_once(client):
    from starlette.websockets import WebSocketDisconnect

    data, tokens = create(client, "satellites", ["human", "human"])
    host = data["links"]["host"].rsplit("/", 1)[1]
    with client.websocket_connect(ws_url(f"/ws/{tokens[0]}")) as ws:
        assert json.loads(ws.receive_text())["seat"] == 0
        # a connected seat is not freed by the host: the host asks, the seat's page asks
        refused = client.post(f"/api/link/{host}/free", json={"seat": 0})
        assert refused.status_code == 409
        assert refused.json()["error"] == ("Anna is connected; a connected seat is not freed "
                                           "by the host: ask Anna to hand it on (their page "
                                           "then asks them)")
        assert client.post(f"/api/link/{host}/ask", json={"seat": 0}).status_code == 200
        asked = json.loads(ws.receive_text())
        assert asked["asked"] is True
        assert asked["events"][-1]["text"] == ("the host asked Anna to hand the seat to "
                                               "another device")
        handed = client.post(f"/api/link/{tokens[0]}/handon", json={})
        assert handed.status_code == 200 and handed.json()["code"] == data["code"]
        told = json.loads(ws.receive_text())
        assert told["type"] == "error" and told["status"] == 410
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == 4410
        assert closed.value.reason.startswith("this seat was handed to another device")
    with client.websocket_connect(ws_url(f"/ws/{tokens[0]}")) as ws:
        refused = json.loads(ws.receive_text())
        assert refused["type"] == "error" and refused["status"] == 410
    assert client.get(f"/api/link/{tokens[0]}").status_code == 410


def test_odd_tables_and_boards_are_scored_or_refused_never_a_server_error(client):
    rng = random.Random(7)
    base = upload(client, "/api/orbitus/import?name=t.yaml",
                  (ORBITUS / "two-players.yaml").read_bytes()).json()["model"]
    odd = [None, True, -1, 1e300, "", "N", "S99", [], {}, [1, 2, 3], {"a": [None]}, "x" * 300,
           "- Bob", "2024-05-01", "\u2028", [0, 0], {"at": [0, 0]}]
    for _ in range(120):
        model = json.loads(json.dumps(base))
        for _ in range(rng.randint(1, 3)):
            where = rng.choice(["players", "sectors", "start_lines", "barriers", "sector"])
            if where == "sector" and isinstance(model["sectors"], list) and model["sectors"]:
                sector = rng.choice(model["sectors"])
                if isinstance(sector, dict):
                    sector[rng.choice(["at", "card", "rot", "routes", "planet", "pirate",
                                       "zzz"])] = rng.choice(odd)
            else:
                model[where] = rng.choice(odd) if rng.random() < 0.3 else model.get(where)
        r = client.post("/api/orbitus/score", json={"table": model})
        assert r.status_code in (200, 400, 413, 422), (model, r.text)
    board = upload(client, "/api/satellites/import?name=b",
                   (SATELLITES / "crowned.txt").read_bytes()).json()["model"]
    for _ in range(60):
        rows = json.loads(json.dumps(board["rows"]))
        row = rng.randrange(len(rows))
        rows[row][rng.randrange(len(rows[row]))] = rng.choice(["R9", "x", "B0", ".", "r1", "?"])
        if rng.random() < 0.2:
            rows[row] = rows[row][:rng.randrange(1, 10)]
        grace = rng.choice([None, 0, 3, 5, "2", -1])
        r = client.post("/api/satellites/score", json={"board": {"rows": rows,
                                                                 "grace_moves_left": grace}})
        assert r.status_code in (200, 422), r.text
