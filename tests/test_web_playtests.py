"""The playtest form of pnp web: the same log as pnp playtest, the same checks; saved
games and their records name their design."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from cards.design_cache import design  # noqa: E402
from web.app import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LAYOUT = ROOT / "tests" / "fixtures" / "orbitus" / "two-players.yaml"


@pytest.fixture
def client(tmp_path: Path):
    app = create_app(tmp_path / "data", bot_delay=0)
    with TestClient(app) as c:
        yield c


def test_the_page_is_served(client):
    page = client.get("/playtests")
    assert page.status_code == 200 and "Log a game people played" in page.text
    assert client.get("/static/playtests.js").status_code == 200


def test_a_playtest_logged_in_the_browser_is_in_the_cli_log(client, tmp_path, capsys):
    done = client.post("/api/playtests", json={
        "game": "orbitus", "players": ["Anna", "Boris", "Carla"], "scores": [12, 9, 15],
        "date": "2024-05-01", "minutes": "1h10", "notes": "first table"})
    assert done.status_code == 201, done.text
    logged = done.json()
    assert (logged["design"], logged["winners"], logged["minutes"]) == (
        design("orbitus").hash, [2], 70)
    listed = client.get("/api/playtests").json()
    assert listed["designs"]["orbitus"]["hash"] == design("orbitus").hash
    assert [p["players"] for p in listed["playtests"]] == [["Anna", "Boris", "Carla"]]
    from design.playtest_cli import main

    capsys.readouterr()
    assert main(["export", "--format", "json", "--data", str(tmp_path / "data")]) == 0
    assert '"first table"' in capsys.readouterr().out


def test_a_scored_file_sent_by_the_page_gives_the_scores(client):
    done = client.post("/api/playtests", json={
        "game": "orbitus", "file": {"name": "two-players.yaml",
                                    "text": LAYOUT.read_text(encoding="utf-8")}})
    assert done.status_code == 201, done.text
    assert done.json()["scores"] == [-1, -9] and done.json()["source"] == "two-players.yaml"


@pytest.mark.parametrize(("body", "message"), [
    ({"game": "chess"}, "game: 'chess' is not a game here"),
    ({"game": "orbitus", "players": ["A", "B"], "scores": [1]},
     "--scores gives 1 score(s) for 2 players"),
    ({"game": "orbitus", "players": ["A", "B"], "scores": [1, 2], "date": "yesterday"},
     "date: 'yesterday' is not a date"),
    ({"game": "orbitus", "players": ["A", "B"], "scores": [1, "x"]},
     "scores: expected a whole number per player"),
    ({"game": "orbitus", "players": ["Anna", "Boris"], "scores": [-1, -8],
      "file": {"name": "t.yaml", "text": LAYOUT.read_text(encoding="utf-8")}},
     "--scores: Boris (P2): -8 given, but t.yaml scores -9"),
    ({"game": "orbitus", "file": {"name": "t.yaml", "text": "game: orbitus\nsectors: [\n"}},
     "t.yaml:3: YAML syntax error"),
])
def test_bad_playtests_are_refused_with_the_reason_and_nothing_is_logged(client, body,
                                                                         message):
    done = client.post("/api/playtests", json=body)
    assert done.status_code == 422, done.text
    assert any(message in p for p in done.json()["problems"]), done.json()
    assert client.get("/api/playtests").json()["playtests"] == []


def test_a_saved_game_and_its_record_name_the_design(client, tmp_path):
    made = client.post("/api/games", json={"game": "satellites", "seed": 7, "players": [
        {"name": "R", "kind": "random"}, {"name": "B", "kind": "random"}]}).json()
    ident = made["id"]
    host = made["links"]["host"].rsplit("/", 1)[-1]
    client.post(f"/api/link/{host}/abandon")
    record = client.get(f"/api/games/{ident}/record")
    assert record.status_code == 200, record.text
    assert f"design: {design('satellites').stamp}\n" in record.text
    import sqlite3

    db = sqlite3.connect(tmp_path / "data" / "pnp-web.sqlite3")
    kept = db.execute("SELECT ruleset FROM games WHERE id=?", (ident,)).fetchone()[0]
    db.close()
    assert f'"hash": "{design("satellites").hash}"' in kept
