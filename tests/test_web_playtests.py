"""The playtest form of pnp web: the same log as pnp playtest, the same checks; saved
games and their records name their design."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from cards.design_cache import design  # noqa: E402
from testkit.web import upload, web_client  # noqa: E402
from web.app import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LAYOUT = ROOT / "tests" / "fixtures" / "orbitus" / "two-players.yaml"


@pytest.fixture
def client(tmp_path: Path):
    app = create_app(tmp_path / "data", bot_delay=0)
    with web_client(app) as c:
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
    ({"game": "orbitus", "file": {"name": "t.yaml", "text": LAYOUT.read_text(
        encoding="utf-8").replace("game: orbitus\n", "game: orbitus\ndesign: abc123\n")}},
     "another game; start pnp web with --cards DIR: the definitions of abc123 (a playtest "
     "is scored by the design it was played with)"),
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
    client.post(f"/api/link/{host}/abandon", json={})
    record = client.get(f"/api/games/{ident}/record")
    assert record.status_code == 200, record.text
    assert f"design: {design('satellites').stamp}\n" in record.text
    import sqlite3

    db = sqlite3.connect(tmp_path / "data" / "pnp-web.sqlite3")
    kept = db.execute("SELECT ruleset FROM games WHERE id=?", (ident,)).fetchone()[0]
    db.close()
    assert f'"hash": "{design("satellites").hash}"' in kept


def test_a_saved_game_goes_on_by_its_design_and_says_so_when_the_server_s_moved_on(
        tmp_path: Path):
    """A game begun with the shipped definitions, resumed by a server given other ones: it
    plays on by the rules it was saved with, its page names that design and says the server's
    is now another, and its record names the design it was played by."""
    import os
    import subprocess
    import sys

    from tests.design_helpers import copy_cards, edit

    mine = copy_cards(tmp_path / "mine")
    edit(mine / "satellites" / "rules.yaml", "grace_moves: 3", "grace_moves: 2")
    data = tmp_path / "data"
    shipped, theirs = design("satellites"), design("satellites", mine)
    with web_client(create_app(data, bot_delay=0)) as c:
        made = c.post("/api/games", json={"game": "satellites", "seed": 7, "players": [
            {"name": "R", "kind": "human"}, {"name": "B", "kind": "human"}]}).json()
        host = made["links"]["host"].rsplit("/", 1)[-1]
        msg = c.get(f"/api/link/{host}").json()
        assert msg["design"] == {"stamp": shipped.stamp, "note": None}
    with web_client(create_app(data, cards=mine, bot_delay=0)) as c:
        msg = c.get(f"/api/link/{host}").json()
        assert msg["design"] == {"stamp": shipped.stamp, "note": (
            f"This game goes on by design {shipped.stamp}, the one it was started with; the "
            f"server's definitions are now design {theirs.stamp}, which new games are dealt "
            f"by.")}
        assert c.post(f"/api/link/{host}/abandon", json={}).json()["status"] == "abandoned"
        record = c.get(f"/api/games/{made['id']}/record").text
        assert ("\ngame: satellites\n# definitions: the shipped cards/ (pnp web's)\n"
                f"design: {shipped.stamp}\n") in record
        new = c.post("/api/games", json={"game": "satellites", "seed": 7, "players": [
            {"name": "R", "kind": "random"}, {"name": "B", "kind": "random"}]}).json()
        c.post(f"/api/link/{new['links']['host'].rsplit('/', 1)[-1]}/abandon", json={})
        second = c.get(f"/api/games/{new['id']}/record").text
        assert ("# definitions: pnp web's folder mine/ (replay with --cards DIR: that "
                f"folder)\ndesign: {theirs.stamp}\n") in second
    path = tmp_path / "second.yaml"
    path.write_text(second, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "records.replay_cli", str(path)],
                          capture_output=True, text=True,
                          env={**os.environ, "PNP_NO_PROJECT": "1"})
    assert done.returncode == 2  # replayed with the shipped cards/: refused, both named
    assert f"design: the file was made with design {theirs.stamp}, but" in done.stderr


def test_a_transcribed_table_names_the_server_s_design_and_another_is_refused(client):
    """A layout or board the companion exports names the design it was scored by; one that
    names another design is refused naming both, as pnp score refuses it: scored by these
    definitions it would be another game's score."""
    orbitus, satellites = design("orbitus"), design("satellites")
    text = LAYOUT.read_text(encoding="utf-8")
    ours = upload(client, "/api/orbitus/import?name=t.yaml", text.encode()).json()
    exported = client.post("/api/orbitus/export/yaml", json={"table": ours["model"]}).text
    assert exported.endswith(f"\ndesign: {orbitus.stamp}\n")
    again = upload(client, "/api/orbitus/import?name=t.yaml", exported.encode())
    assert again.status_code == 200 and again.json()["text"] == exported
    other = exported.replace(f"design: {orbitus.stamp}", "design: v0.7.2·3fa9c1")
    done = upload(client, "/api/orbitus/import?name=t.yaml", other.encode())
    assert done.status_code == 422
    assert done.json()["problems"] == [
        f"t.yaml:{other.count(chr(10))}: design: the file was made with design v0.7.2·3fa9c1, "
        f"but pnp web's definitions (the shipped cards/) are design {orbitus.stamp}, with "
        f"which it would deal or score another game; start pnp web with --cards DIR: the "
        f"definitions of v0.7.2·3fa9c1; or, to score it with these on purpose, remove the "
        f"design line"]
    board = (ROOT / "tests" / "fixtures" / "satellites" / "crowned.txt").read_text("utf-8")
    read = upload(client, "/api/satellites/import?name=b.txt", board.encode()).json()
    made = client.post("/api/satellites/export/txt", json={"board": read["model"]})
    assert made.text.startswith(f"game: satellites\ndesign: {satellites.stamp}\nboard: |\n")
    assert 'filename="board.yaml"' in made.headers["content-disposition"]
    bad = made.text.replace(satellites.stamp, "abc123")
    done = upload(client, "/api/satellites/import?name=b.yaml", bad.encode())
    assert done.status_code == 422
    assert done.json()["problems"][0].startswith(
        "b.yaml:2: design: the file was made with design abc123, but pnp web's definitions")
    nonsense = made.text.replace(satellites.stamp, "latest")
    done = upload(client, "/api/satellites/import?name=b.yaml", nonsense.encode())
    assert "'latest' is not a design" in done.json()["problems"][0]


def test_the_form_logs_a_game_of_another_design_by_its_stamp(client):
    done = client.post("/api/playtests", json={"game": "orbitus", "players": ["A", "B"],
                                               "scores": [4, 2], "version": "v0.7.1·abc123"})
    assert done.status_code == 201, done.text
    assert (done.json()["design"], done.json()["version"]) == ("abc123", "0.7.1")
    bad = client.post("/api/playtests", json={"game": "orbitus", "players": ["A", "B"],
                                              "scores": [4, 2], "version": "latest"})
    assert bad.status_code == 422
    assert bad.json()["error"] == ("version: 'latest' is not a design hash (six hex digits, "
                                   "as printed on the components)")
    assert [p["design"] for p in client.get("/api/playtests").json()["playtests"]] == ["abc123"]
