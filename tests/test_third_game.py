"""A third game plugged in at run time works everywhere: Heaps (``testkit/heaps/``), its
own modules and one registration (:func:`rules.register`), no edit anywhere else, played
through ``pnp setup`` and ``pnp replay``, the simulator's runner and the browser
companion's game API, each reporting what the rules core decided."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

import rules
from testkit import heaps
from testkit.heaps.game import GAME, Ruleset


@pytest.fixture
def registered() -> Iterator[None]:
    heaps.register()
    yield
    heaps.unregister()


def played(seed: int, moves: int, players: int = 2) -> list[str]:
    """The first ``moves`` moves of a game of ``seed`` (each seat takes the most it may from
    the first heap with stones), as written."""
    state = GAME.new_game(Ruleset(), [f"P{k + 1}" for k in range(players)], seed)
    out = []
    for _ in range(moves):
        if state.over:
            break
        action = GAME.legal_actions(state)[-1]
        out.append(GAME.action_text(state, action))
        state = GAME.apply(state, action)
    return out


# --- the registry ---------------------------------------------------------------------------


def test_a_game_registered_at_run_time_is_listed_by_the_layers_it_has(registered):
    assert rules.names() == ("orbitus", "satellites", "heaps")
    assert rules.names("sim") == ("orbitus", "satellites", "heaps")
    assert rules.names("products") == ("orbitus", "satellites")  # Heaps prints nothing
    assert rules.adapter_path("heaps", "web.play") == "testkit.heaps.play"
    assert rules.adapter_path("orbitus", "web.play") == "web.play_orbitus"  # the convention
    with pytest.raises(rules.NoAdapter, match="heaps has no photo adapter"):
        rules.adapter("heaps", "photo")
    with pytest.raises(ValueError, match="'heaps' is registered already"):
        rules.register("heaps", "testkit.heaps.game")
    with pytest.raises(ValueError, match="'board' is not a layer"):
        rules.register("chess", "chess.game", ("board",))


def test_unregistered_it_is_gone(registered):
    heaps.unregister()
    assert rules.names() == ("orbitus", "satellites")
    with pytest.raises(rules.NoAdapter, match="'heaps' is not a game"):
        rules.adapter("heaps", "sim")


def test_every_game_states_its_players_and_what_a_seat_sees(registered):
    facts = {name: (rules.get(name).min_players, rules.get(name).max_players,
                    rules.get(name).hidden_information) for name in rules.names()}
    assert facts == {"orbitus": (2, 6, True), "satellites": (2, 2, False),
                     "heaps": (2, 4, False)}


def test_its_definitions_load_through_the_ruleset_cache(registered, tmp_path):
    from cards.loader import DefinitionError
    from cards.ruleset_cache import load_ruleset

    assert load_ruleset("heaps") == Ruleset()  # the shipped cards/ has no heaps/: defaults
    (tmp_path / "heaps").mkdir()
    (tmp_path / "heaps" / "rules.yaml").write_text("heaps: 5\ntake: 2\n", encoding="utf-8")
    assert load_ruleset("heaps", tmp_path) == Ruleset(heaps=5, take=2)
    assert load_ruleset("heaps", tmp_path) == Ruleset(heaps=5, take=2)  # a cache hit
    (tmp_path / "heaps" / "rules.yaml").write_text("heaps: 5\ntake: 0\n", encoding="utf-8")
    with pytest.raises(DefinitionError) as caught:
        load_ruleset("heaps", tmp_path)
    assert caught.value.problems == [
        f"{tmp_path / 'heaps' / 'rules.yaml'}:2: take: must be a whole number from 1 to 99, "
        f"got 0"]


# --- pnp setup and pnp replay ----------------------------------------------------------------


def test_pnp_setup_deals_it_and_pnp_replay_replays_it_to_the_end(registered, tmp_path, capsys):
    from records.replay_cli import main as replay
    from records.setup_cli import main as setup

    assert setup(["heaps", "--seed", "7", "--players", "3"]) == 0
    start = capsys.readouterr().out
    heaps_dealt = GAME.new_game(Ruleset(), ["P1", "P2", "P3"], 7).heaps
    assert f"# heaps: {' '.join(map(str, heaps_dealt))}\n" in start
    moves = played(7, 100, players=3)
    path = tmp_path / "game.yaml"
    path.write_text(start + "".join(f"  - {m}\n" for m in moves), encoding="utf-8")

    assert replay([str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    winner = (len(moves) - 1) % 3  # the seat that took the last stone
    assert out["over"] is True and out["heaps"] == [0] * len(heaps_dealt)
    assert out["winner"] == f"P{winner + 1}"
    assert sum(out["taken"].values()) == sum(heaps_dealt)
    assert out["replay"] == {"file": str(path), "game": "heaps",
                             "players": {"P1": "P1", "P2": "P2", "P3": "P3"},
                             "start": "seed 7", "moves": len(moves), "played": len(moves),
                             "over": True, "message": f"P{winner + 1} took the last stone and "
                                                      f"wins", "illegal": None}


def test_pnp_replay_stops_at_the_first_illegal_move_and_lists_what_was_legal(
        registered, tmp_path, capsys):
    from records.replay_cli import main as replay

    dealt = GAME.new_game(Ruleset(), ["Anna", "Ben"], 3).heaps
    path = tmp_path / "game.yaml"
    path.write_text("game: heaps\nplayers: [Anna, Ben]\nseed: 3\nmoves:\n  - 1-1\n"
                    f"  - 1-{dealt[0]}\n", encoding="utf-8")
    assert replay([str(path)]) == 1
    out = capsys.readouterr().out
    state = GAME.apply(GAME.new_game(Ruleset(), ["Anna", "Ben"], 3), (0, 1))
    legal = [GAME.action_text(state, a) for a in GAME.legal_actions(state)]
    assert f"ILLEGAL: move 2 (Ben, line 6): 1-{dealt[0]}\n" in out
    assert dealt[0] == 2 and "  heap 1 holds 1 stone(s), not 2\n" in out
    assert f"  Legal there for Ben ({len(legal)}): {', '.join(legal)}\n" in out


def test_pnp_replay_refuses_a_move_it_cannot_read_with_its_line(registered, tmp_path, capsys):
    from records.replay_cli import main as replay

    path = tmp_path / "game.yaml"
    path.write_text("game: heaps\nseed: 3\nmoves:\n  - take two\n", encoding="utf-8")
    assert replay([str(path)]) == 2
    assert capsys.readouterr().err == (
        f"{path}:4: move 1: 'take two' is not a move: write HEAP-STONES, e.g. 2-3 (three "
        f"stones from heap 2)\n")


def test_records_name_the_games_there_are(registered, tmp_path, capsys):
    from records.replay_cli import main as replay

    path = tmp_path / "game.yaml"
    path.write_text("game: chess\nmoves: []\n", encoding="utf-8")
    assert replay([str(path)]) == 2
    assert capsys.readouterr().err == (f"{path}:1: game: 'chess' is not a game this tool "
                                       f"knows; write heaps, satellites or orbitus\n")


# --- the simulator ---------------------------------------------------------------------------


def test_the_simulators_runner_plays_it_with_every_bot(registered, tmp_path):
    from sim.command import Options, run

    opts = Options(game="heaps", cards=None, players="2-4", games=30,
                   bots=("greedy", "random", "mcts"), budget=8, seed=5, jobs=1, ray=None,
                   out=tmp_path / "run", resume=False, json=True)
    summary = run(opts, "2-4", None, quiet=True)
    assert summary["game"] == "heaps" and summary["players"] == [2, 3, 4]
    assert [b["games"] for b in summary["by_players"]] == [30, 30, 30]
    for block in summary["by_players"]:
        assert sum(s["wins"] for s in block["seats"]) == 30  # someone took the last stone
        assert block["draws"]["count"] == 0
    lines = (tmp_path / "run" / "games.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 90
    for line in lines:
        game = json.loads(line)
        dealt = GAME.new_game(Ruleset(), ["P"] * game["players"], game["seed"]).heaps
        assert sum(game["scores"]) == sum(dealt)  # every stone taken, by the rules core
        assert game["end"] == "last-stone"
    # two worker processes (forked: the registration goes with them) play the same games
    again = run(replace(opts, out=tmp_path / "again", jobs=2), "2-4", None, quiet=True)
    again.pop("_timing")
    summary.pop("_timing")
    assert again == summary


def test_the_simulator_refuses_a_player_count_outside_the_range(registered, tmp_path):
    from sim.command import Options, Stop, Usage, run

    opts = Options(game="heaps", cards=None, players="5", games=10, bots=("random",),
                   budget=8, seed=1, jobs=1, ray=None, out=tmp_path / "x", resume=False,
                   json=True)
    with pytest.raises((Stop, Usage), match="Heaps is played by 2 to 4 players, not 5"):
        run(opts, "5", None, quiet=True)


# --- the browser companion -------------------------------------------------------------------


@pytest.fixture
def client(registered, tmp_path: Path):
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from testkit.web import web_client
    from web.app import create_app

    with web_client(create_app(tmp_path / "data", bot_delay=0)) as c:
        yield c


def test_two_people_play_it_in_the_browser_and_its_record_replays(client, tmp_path, capsys):
    from records.replay_cli import main as replay
    from testkit.web import new_game

    data, tokens = new_game(client, "heaps", ["human", "human"], 9, ["Anna", "Ben"])
    dealt = GAME.new_game(Ruleset(), ["Anna", "Ben"], 9).heaps
    first = client.get(f"/api/link/{tokens[0]}").json()
    assert first["view"] == {"heaps": list(dealt), "taken": [0, 0], "over": False,
                             "to_move": 0, "message": f"{sum(dealt)} stone(s) left, Anna to "
                                                      f"move"}
    assert first["legal"]["moves"][0] == "1-1"

    wrong = client.post(f"/api/link/{tokens[1]}/move", json={"action": "1-1"})
    assert wrong.status_code == 409 and "it is Anna's turn" in wrong.json()["error"]
    unread = client.post(f"/api/link/{tokens[0]}/move", json={"action": "all of them"})
    assert unread.status_code == 422
    assert unread.json()["error"].startswith("'all of them' is not a move")
    illegal = client.post(f"/api/link/{tokens[0]}/move", json={"action": "1-4"})
    assert illegal.status_code == 422
    assert illegal.json()["error"] == "a move takes at most 3 stones (rule H-3)"

    rng = random.Random(4)
    seat = 0
    msg = first
    while msg["status"] == "active":
        msg = client.get(f"/api/link/{tokens[seat]}").json()
        move = rng.choice(msg["legal"]["moves"])
        done = client.post(f"/api/link/{tokens[seat]}/move",
                           json={"action": move, "version": msg["version"]})
        assert done.status_code == 200, done.text
        msg = done.json()
        seat = 1 - seat
    assert msg["status"] == "finished" and msg["view"]["over"] is True
    winner = msg["result"]["winners"][0]
    assert msg["result"]["reason"] == f"{['Anna', 'Ben'][winner]} took the last stone and wins"
    assert sum(msg["result"]["scores"]) == sum(dealt)

    record = client.get(f"/api/games/{data['id']}/record")
    assert record.status_code == 200
    path = tmp_path / "game.yaml"
    path.write_text(record.text, encoding="utf-8")
    assert replay([str(path), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["replay"]["played"] == len(msg["history"])
    assert replayed["winner"] == ["Anna", "Ben"][winner]
    assert list(replayed["taken"].values()) == msg["result"]["scores"]
    steps = client.get(f"/api/games/{data['id']}/replay").json()["steps"]
    assert len(steps) == len(msg["history"]) + 1 and steps[-1]["view"] == msg["view"]


def test_a_bot_of_the_simulator_takes_its_seat(client):
    import time

    players = [{"name": "Anna", "kind": "human"}, {"name": "Bot", "kind": "greedy"},
               {"name": "Cleo", "kind": "random"}]
    data = client.post("/api/games", json={"game": "heaps", "players": players,
                                           "seed": 2}).json()
    token = data["seat"]["url"].rsplit("/", 1)[1]  # the only person: the creator
    msg = client.get(f"/api/link/{token}").json()
    client.post(f"/api/link/{token}/move", json={"action": msg["legal"]["moves"][0]})
    end = time.time() + 20
    while time.time() < end:
        msg = client.get(f"/api/link/{token}").json()
        if msg["status"] != "active" or (msg["view"]["to_move"] == 0 and not msg["thinking"]):
            break
        time.sleep(0.02)
    assert [h["seat"] for h in msg["history"]] == [0, 1, 2]  # both bots answered
    assert msg["history"][0]["text"] == "1-1"  # (7, 7, 1) dealt: Anna's move left 6, 7, 1
    assert msg["history"][1]["text"] in ("1-3", "2-3")  # greedy takes the most it may
    assert sum(msg["view"]["heaps"]) == 15 - 1 - 3 - int(msg["history"][2]["text"][-1])


def test_the_game_api_checks_its_players_and_knows_it_has_no_table_page(client):
    five = [{"name": n, "kind": "human"} for n in ("A", "B", "C", "D", "E")]
    refused = client.post("/api/games", json={"game": "heaps", "players": five})
    assert refused.status_code == 422
    assert refused.json()["error"] == "Heaps is played by 2 to 4 players, not 5"
    unknown = client.post("/api/games", json={"game": "chess", "players": five})
    assert unknown.json()["error"] == ("game: 'chess' is not a game; choose orbitus, satellites "
                                       "or heaps")
    table = client.post("/api/heaps/score", json={})
    assert table.status_code == 404
    assert table.json()["error"] == "'heaps' is not a game; the games are orbitus and satellites"
