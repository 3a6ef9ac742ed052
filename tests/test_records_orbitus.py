"""pnp-replay and pnp-setup for Orbitus: what they print, their options, and every kind of bad
record, each refused with one clear line naming file, line and move, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from records.replay_cli import main as replay_main
from records.setup_cli import main as setup_main

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "fixtures" / "records" / "orbitus"
VENV_BIN = Path(sys.executable).parent


@pytest.fixture(autouse=True)
def _plain(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")


def run_replay(args, capsys):
    code = replay_main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def run_setup(args, capsys):
    code = setup_main(["orbitus", *[str(a) for a in args]])
    out, err = capsys.readouterr()
    return code, out, err


def record(tmp_path: Path, text: str, name: str = "game.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


HEAD = "game: orbitus\nplayers: [Anna, Boris]\nseed: 42\n"


# --- pnp-setup orbitus ----------------------------------------------------------------------------


def test_setup_prints_the_start_lines_the_hands_and_the_deck(capsys):
    code, out, err = run_setup(["--players", "3", "--seed", "42"], capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[:8] == [
        "# Orbitus deal: seed 42, 3 players, 72-card deck (pnp-setup orbitus --players 3 "
        "--seed 42)",
        "",
        "Station (seat order; P1 plays first, then clockwise):",
        "  P1  start lines N NE",
        "  P2  start lines SE S",
        "  P3  start lines SW NW",
        "  barriers  none",
        "",
    ]
    assert lines[8] == ("Hands (4 each; the hand limit starts at 4 and never drops below 2):")
    assert lines[9:11] == ["  P1:", "    S50  gas      routes N SE NW"]
    assert "Deck (60 cards, top first):" in lines
    deck = lines[lines.index("Deck (60 cards, top first):") + 1:]
    assert len(" ".join(deck).split()) == 60


def test_setup_json_is_the_deal_the_engine_makes(capsys):
    from cards.definitions import load_orbitus
    from records.orbitus_setup import dealt

    code, out, _ = run_setup(["--names", "Anna,Boris,Carla,Dmitri", "--seed", "7", "--json"],
                             capsys)
    assert code == 0
    data = json.loads(out)
    assert list(data) == ["game", "seed", "players", "first", "start_lines", "barriers",
                          "hand_size", "min_hand", "hands", "deck", "design"]
    assert data["start_lines"] == {"N": "Anna", "NE": "Boris", "S": "Carla", "SW": "Dmitri"}
    assert data["barriers"] == ["SE", "NW"]
    state = dealt(load_orbitus().ruleset, ["Anna", "Boris", "Carla", "Dmitri"], 7)
    assert data["hands"] == {n: list(h) for n, h in zip(state.game.players, state.hands,
                                                         strict=True)}
    assert len(data["deck"]) == 72 - 16


def test_setup_is_reproducible_and_the_record_it_starts_replays(tmp_path, capsys, monkeypatch):
    args = ["--names", "Anna,Boris", "--seed", "42", "--record"]
    code, first, _ = run_setup(args, capsys)
    _, second, _ = run_setup(args, capsys)
    assert code == 0 and first == second
    assert "players: [Anna, Boris]\nseed: 42\n" in first and first.endswith("moves:\n")
    assert "#   Anna: S50 S19 S31 S47" in first
    path = record(tmp_path, first + "  - place S50 @0,-1 r3\n  - pass\n")
    monkeypatch.chdir(tmp_path)
    code, out, err = run_replay([path.name], capsys)
    assert (code, err) == (0, "")
    assert "2 moves replayed, all legal" in out


def test_setup_pictures(tmp_path, capsys):
    svg, png = tmp_path / "deal.svg", tmp_path / "deal.png"
    code, _, err = run_setup(["--players", "2", "--seed", "7", "--svg", svg, "--png", png],
                             capsys)
    assert (code, err) == (0, "")
    text = svg.read_text(encoding="utf-8")
    assert "Orbitus deal: seed 7, 2 players" in text and "start lines N NE SE" in text
    assert text.count('class="sector"') == 8
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    again = tmp_path / "again.svg"
    run_setup(["--players", "2", "--seed", "7", "--svg", again], capsys)
    assert again.read_bytes() == svg.read_bytes()


@pytest.mark.parametrize("args, message", [
    ([], "pnp-setup orbitus: say how many play: --players K (2 to 6) or --names A,B,..."),
    (["--players", "7"], "--players: 7 players; Orbitus is played by 2 to 6"),
    (["--players", "two"], "--players: 'two' is not a whole number"),
    (["--names", "Anna"], "--names: 1 name(s); Orbitus is played by 2 to 6"),
    (["--names", "Anna,Anna"], "a name is given twice"),
    (["--names", "Anna,,Boris"], "an empty name"),
    (["--names", "Anna:1,Boris"], "a name may not contain ':'"),
    (["--players", "3", "--names", "A,B"], "--players 3 but --names gives 2 names"),
    (["--players", "2", "--seed", "-1"], "--seed: -1 is out of range"),
    (["--players", "2", "--json", "--record"], "not allowed with argument"),
])
def test_setup_misuse_exits_2_with_one_line(args, message, capsys):
    code, out, err = run_setup(args, capsys)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_setup_with_a_deck_too_small_for_the_deal_exits_1(cards_copy, capsys):
    deck = cards_copy / "orbitus" / "sectors.yaml"
    text = deck.read_text(encoding="utf-8")
    head, _, _ = text.partition("  - {id: S08")
    deck.write_text(head, encoding="utf-8")  # S01-S07 only
    code, out, err = run_setup(["--players", "2", "--seed", "1", "--cards", cards_copy], capsys)
    assert code == 1 and out == ""
    assert err == ("pnp-setup orbitus: the deck holds 7 card(s), and 2 players need 8 to be "
                   "dealt 4 each\n")


def test_the_commands_are_installed():
    done = subprocess.run([str(VENV_BIN / "pnp-setup"), "orbitus", "--players", "2", "--seed",
                           "5"], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and done.stdout.startswith("# Orbitus deal: seed 5, 2 players")


# --- pnp-replay ---------------------------------------------------------------------------------


def test_an_illegal_move_is_named_with_number_line_reason_and_what_was_legal(capsys,
                                                                           monkeypatch):
    monkeypatch.chdir(GOLDEN)
    code, out, err = run_replay(["removal_cuts_system.yaml"], capsys)
    assert code == 1 and err == ""
    assert out.splitlines()[:6] == [
        "Replay: removal_cuts_system.yaml (orbitus, P1 Anna, P2 Boris), start: the deck "
        "written out, 2 players, 16-card deck",
        "ILLEGAL: move 5 (Anna, line 11): remove 0,-1",
        "  removing S04 on [0, -1] would cut [0, -2] off from the station; the rest of the "
        "system must stay connected to it (rule O-39)",
        "  Legal there for Anna's removals (1): remove 0,-2",
        "The position before move 5 (all 4 moves before it legal):",
        "",
    ]
    assert "Orbitus — removal_cuts_system.yaml — 3 sector(s) — valid" in out
    assert out.endswith("Hands before move 5 (5 cards left in the deck):\n"
                        "  Anna   S01 S31 S37 S10  (limit 4, to move)\n"
                        "  Boris  S40 S49 S28 S46  (limit 4, passed last turn)\n")


def test_a_wrong_rotation_names_the_rotations_that_fit(tmp_path, capsys):
    path = record(tmp_path, HEAD + "moves:\n  - place S50 @0,-1 r0\n")
    code, out, _ = run_replay([path], capsys)
    assert code == 1
    lines = out.splitlines()
    assert lines[2] == ("  S50 turned r0 does not match on [0, -1]: its S side is blank but faces "
                        "Anna's start line on the station's N side (a start line counts as a "
                        "route); facing sides must both be routes or both be blank; S50 fits "
                        "there turned r1 or r3 or r4")
    assert lines[3] == "The start position:"  # the legal turns are in the reason already


def test_a_legal_record_prints_the_final_score(capsys, monkeypatch):
    monkeypatch.chdir(GOLDEN)
    code, out, _ = run_replay(["end_quiet_round.yaml"], capsys)
    assert code == 0
    assert out.splitlines()[1:3] == [
        "7 moves replayed, all legal",
        "Game over after move 7 (line 14): the deck is empty and a full round (2 turns) went "
        "by without a sector placed",
    ]
    assert "Anna (start lines: N NE SE) — 1 sector(s) in the system" in out
    assert "Winner: Anna wins with -3 point(s)" in out


def test_json_is_the_scorers_object_plus_the_replay_and_the_position(capsys, monkeypatch):
    monkeypatch.chdir(GOLDEN)
    code, out, _ = run_replay(["--json", "forbidden_closing.yaml"], capsys)
    assert code == 1
    data = json.loads(out)
    assert data["game"] == "orbitus" and data["valid"] is True
    assert list(data)[-3:] == ["position", "replay", "design"]
    assert list(data["position"]) == ["to_move", "turns", "end", "deck_left", "hands",
                                      "hand_limits", "passed_last_turn", "out_of_game"]
    illegal = data["replay"]["illegal"]
    assert illegal["legal_of"] == "S01 from Anna's hand"
    assert illegal["legal_count"] == len(illegal["legal"]) == 45
    assert "place S01 @0,3 r0" not in illegal["legal"]
    assert "place S01 @0,-2 r3" in illegal["legal"]  # closing her own is fine


def test_lenient_exits_0_but_still_reports(capsys, monkeypatch):
    monkeypatch.chdir(GOLDEN)
    code, out, _ = run_replay(["--lenient", "systems_meet.yaml"], capsys)
    assert code == 0 and "ILLEGAL: move 3 (Anna, line 9): place S02 @1,1 r0" in out


def test_until_and_legal(capsys, monkeypatch):
    monkeypatch.chdir(GOLDEN)
    code, out, _ = run_replay(["--until", "4", "--legal", "removal.yaml"], capsys)
    assert code == 0
    assert "Replaying only the first 4 of 12 moves (--until 4)" in out
    assert "The game goes on after move 4 (line 14): Anna to move, 5 cards left in the deck" \
        in out
    last = out.splitlines()[-1]
    assert last.startswith("Legal moves for Anna (")
    assert last.endswith(", remove 0,-2, discard S01, discard S10, discard S31, discard S37, "
                         "pass")
    code, out, _ = run_replay(["--legal", "--json", "end_quiet_round.yaml"], capsys)
    assert json.loads(out)["replay"]["legal_now"] == {
        "player": "nobody (the game is over)", "moves": []}


def test_pictures_of_the_position_reached(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(GOLDEN)
    svg, png = tmp_path / "final.svg", tmp_path / "final.png"
    code, _, err = run_replay(["close_own_system.yaml", "--svg", svg, "--png", png], capsys)
    assert code == 0 and err == ""
    text = svg.read_text(encoding="utf-8")
    assert "Orbitus — close_own_system.yaml — valid" in text
    assert text.count('class="sector seat-') == 5
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_names_before_moves_are_checked_against_the_turn(tmp_path, capsys):
    path = record(tmp_path, HEAD + "moves:\n  - Anna: pass\n  - Boris: pass\n"
                                   "  - 'Anna: place S19 @0,-1 r3'\n  - Anna: pass\n")
    code, out, _ = run_replay([path], capsys)
    assert code == 1
    assert "ILLEGAL: move 4 (Boris, line 8): pass" in out
    assert "  it is Boris's turn, not Anna's (play goes clockwise, in seat order: Anna, " \
           "Boris)" in out


def test_several_actions_in_one_entry_and_any_case(tmp_path, capsys):
    path = record(tmp_path, HEAD + "moves:\n  - PLACE s50 AT [0, -1] ROT s; pass\n")
    code, out, _ = run_replay(["--json", path], capsys)
    replay = json.loads(out)["replay"]
    assert (code, replay["played"], replay["moves"]) == (0, 2, 2)


def test_the_start_lines_of_a_record_are_read_as_a_layouts(tmp_path, capsys):
    path = record(tmp_path, "game: orbitus\nplayers: [Anna, Boris]\nseed: 1\n"
                            "start_lines: {Anna: [N, S], Boris: SE}\nmoves: []\n")
    code, out, _ = run_replay(["--json", path], capsys)
    data = json.loads(out)
    assert code == 0
    assert data["station"] == {"start_lines": {"N": "Anna", "SE": "Boris", "S": "Anna"},
                               "barriers": ["NE", "SW", "NW"]}


def test_first_names_who_plays_first(tmp_path, capsys):
    path = record(tmp_path, HEAD + "first: Boris\nmoves: [pass]\n")
    code, out, _ = run_replay(["--json", path], capsys)
    assert json.loads(out)["position"]["passed_last_turn"] == ["Boris"]


# --- bad records --------------------------------------------------------------------------------


@pytest.mark.parametrize("text, message", [
    ("game: orbitus\nseed: 1\nmoves: []\n",
     "game.yaml:1: players: expected the players' names in seat order, e.g. players: [Anna, "
     "Boris, Carla], got missing"),
    ("game: orbitus\nplayers: Anna\nseed: 1\n",
     "game.yaml:2: players: expected the players' names in seat order, e.g. players: [Anna, "
     "Boris, Carla], got str 'Anna'"),
    ("game: orbitus\nplayers: [Anna]\nseed: 1\n",
     "game.yaml:2: players: 1 player(s) listed; Orbitus is played by 2 to 6"),
    ("game: orbitus\nplayers: [Anna, Anna]\nseed: 1\n",
     "game.yaml:2: players: 'Anna' is listed twice; every player needs their own name"),
    ("game: orbitus\nplayers: [Anna, Boris]\nmoves: []\n",
     "game.yaml:1: the deal is missing: write seed: N (the deal of pnp-setup orbitus --seed N) "
     "or deck: [the cards in order, top first]"),
    ("game: orbitus\nplayers: [Anna, Boris]\nseed: 1\ndeck: [S01]\n",
     "game.yaml:4: give either seed: (the deal of pnp-setup orbitus --seed N) or deck: (the "
     "cards in order, top first), not both"),
    ("game: orbitus\nplayers: [Anna, Boris]\nseed: -3\n",
     "game.yaml:3: seed: must be a whole number from 0 to 9223372036854775807 (the N of "
     "pnp-setup orbitus --seed N), got -3"),
    ("game: orbitus\nplayers: [Anna, Boris]\ndeck: [S01, S02,\n  S0X]\n",
     "game.yaml:4: deck: card 3: 'S0X' is not a card of the deck (cards/orbitus/sectors.yaml); "
     "did you mean S01?"),
    ("game: orbitus\nplayers: [Anna, Boris]\ndeck: [S01, S02, S01]\n",
     "game.yaml:3: deck: S01 is listed 2 times, but the deck holds 1 copy"),
    ("game: orbitus\nplayers: [Anna, Boris]\ndeck: [S01, S02, S03]\n",
     "game.yaml:3: the deck holds 3 card(s), and 2 players need 8 to be dealt 4 each"),
    ("game: orbitus\nplayers: [Anna, Boris]\ndeck: S01\n",
     "game.yaml:3: deck: expected the cards in order, top first, e.g. deck: [S07, S12, S33], "
     "got str 'S01'"),
    ("game: orbitus\nplayers: [Anna, Boris]\nseed: 1\nstart_lines: {Anna: N, Bors: S}\n",
     "game.yaml:4: start_lines: 'Bors' is not one of the players (Anna, Boris); did you mean "
     "Boris?"),
    ("game: orbitus\nplayers: [Anna, Boris]\nseed: 1\nstart_lines: {Anna: [N], Boris: [N]}\n",
     "game.yaml:4: start_lines: the station's N side is given to Anna and to Boris; each side "
     "is one player's start line or a barrier"),
    ("game: orbitus\nplayers: [Anna, Boris]\nseed: 1\nfirst: Bors\n",
     "game.yaml:4: first: 'Bors' is not one of the players (Anna, Boris); name who plays "
     "first; did you mean Boris?"),
    (HEAD + "moves:\n  - 12\n",
     "game.yaml:5: moves: entry 1: expected an action such as place S07 @0,-1 r2, remove 1,-2, "
     "discard S12 or pass, got a number (12)"),
    (HEAD + "moves:\n  -\n",
     "game.yaml:5: moves: entry 1: expected an action such as place S07 @0,-1 r2, remove 1,-2, "
     "discard S12 or pass, got an empty entry"),
    (HEAD + "moves:\n  - pass\n  - ' ; '\n",
     "game.yaml:6: moves: entry 2 is empty; write an action such as place S07 @0,-1 r2 or pass"),
    (HEAD + "moves:\n  - pass\n  - place S07 0,-1 r2\n",
     "game.yaml:6: move 2: 'place S07 0,-1 r2' is not a placement: write place CARD @Q,R rN, "
     "e.g. place S07 @0,-1 r2 (or place S07 at 0,-1 rot 2; the rotation is 0-5 or the "
     "direction the card's marker points to, N NE SE S SW NW)"),
    (HEAD + "moves:\n  - pass\n  - Bors: pass\n",
     "game.yaml:6: move 2: 'Bors' is not one of the players (Anna, Boris); did you mean Boris?"),
    (HEAD + "moves:\n  - discard S7\n",
     "game.yaml:5: move 1: 'S7' is not a card of the deck (cards/orbitus/sectors.yaml); did you "
     "mean S07?"),
    (HEAD + "moves: pass\n",
     "game.yaml:4: moves: expected a list, one move per line starting with '- ', got str "
     "'pass'"),
    (HEAD + "barrier: [N]\nmoves: []\n",
     "game.yaml:4: unknown field 'barrier' (an orbitus record has: game, players, moves, note, "
     "seed, deck, start_lines, barriers, first, cards, design); did you mean 'barriers'?"),
])
def test_a_bad_record_is_refused_with_its_line(text, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    record(tmp_path, text)
    code, out, err = run_replay(["game.yaml"], capsys)
    assert code == 2 and out == ""
    assert message in err.splitlines(), err
    assert "Traceback" not in err and "internal error" not in err


def test_every_problem_of_a_record_is_listed_in_line_order(capsys, monkeypatch):
    monkeypatch.chdir(GOLDEN)
    code, _, err = run_replay(["bad_record.yaml"], capsys)
    assert code == 2
    assert [line.split(":")[1] for line in err.splitlines()] == ["5", "7", "8", "9", "10", "11"]


def test_the_definitions_for_a_record_come_from_cards(cards_copy, tmp_path, capsys):
    rules = cards_copy / "orbitus" / "rules.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace("hand_size: 4", "hand_size: 3"),
                     encoding="utf-8")
    path = record(tmp_path, HEAD + "moves: []\n")
    code, out, _ = run_replay(["--json", path, "--cards", cards_copy], capsys)
    assert code == 0
    assert [len(h) for h in json.loads(out)["position"]["hands"].values()] == [3, 3]


MOVE_TEXT = st.one_of(
    st.text(max_size=30),
    st.builds(lambda verb, rest: f"{verb} {rest}",
              st.sampled_from(["place", "remove", "discard", "pass", "Anna:", "Boris:"]),
              st.text(alphabet="S0123456789@,- r[]()NESWat", max_size=20)),
)


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(moves=st.lists(MOVE_TEXT, max_size=4))
def test_no_record_makes_the_replay_crash(moves, tmp_path, capsys):
    path = tmp_path / "fuzz.yaml"
    path.write_text(HEAD + "moves: " + json.dumps(moves) + "\n", encoding="utf-8")
    code, out, err = run_replay([path], capsys)
    assert code in (0, 1, 2)
    assert "Traceback" not in err and "internal error" not in err
    if code == 2:
        assert out == "" and all(line.startswith(str(path)) for line in err.splitlines())
