"""The rules core stays a pure, standard-library package behind one interface."""

from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

import rules
from cards.ruleset_cache import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = ("pydantic", "yaml", "reportlab", "svgwrite", "typer", "PIL", "pypdfium2",
             "cards", "generator", "scorer")


@pytest.mark.parametrize("name", rules.names())
def test_importing_and_playing_loads_only_the_standard_library(name, tmp_path):
    game = rules.get(name)
    data = load_ruleset(name).to_data()
    players = ["A", "B", "C"][:max(game.min_players, min(3, game.max_players))]
    code = (
        "import json, random, sys\n"
        "import rules\n"
        f"from rules.{name}.ruleset import Ruleset\n"
        f"ruleset = Ruleset.from_data(json.loads({json.dumps(json.dumps(data))}))\n"
        f"game = rules.get({name!r})\n"
        f"state = game.new_game(ruleset, {players!r}, 1)\n"
        "rng = random.Random(1)\n"
        "while not game.is_over(state):\n"
        "    legal = game.legal_actions(state)\n"
        "    state = game.apply(state, legal[rng.randrange(len(legal))])\n"
        "print(game.result(state).scores)\n"
        f"heavy = {FORBIDDEN!r}\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & set(heavy)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=tmp_path, check=True).stdout.splitlines()
    assert out[-1] == "[]"


def test_the_registry_knows_both_games_and_refuses_others():
    assert rules.names() == ("orbitus", "satellites")
    assert rules.get("orbitus").name == "orbitus"
    with pytest.raises(KeyError, match="'chess' is not a game"):
        rules.get("chess")


def test_orbitus_through_the_interface():
    game = rules.get("orbitus")
    ruleset = load_ruleset("orbitus")
    state = game.new_game(ruleset, ["Anna", "Boris", "Carla"], 42)
    assert game.current_player(state) == 0 and not game.is_over(state)
    rng = random.Random(3)
    seen_sizes = []
    while not game.is_over(state):
        legal = game.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        text = game.action_text(state, action)
        assert game.parse_action(state, text) == action
        state = game.apply(state, action)
        seen_sizes.append(len(pickle.dumps(state)))
        assert game.decode(ruleset, game.encode(state)).describe() == state.describe()
    assert max(seen_sizes) <= 10_000
    outcome = game.result(state)
    assert outcome.scores == game.scores(state) == state.score().totals
    assert outcome.winners == tuple(s for s, t in enumerate(outcome.scores)
                                    if t == max(outcome.scores))


def test_a_view_shows_one_hand_and_never_the_deck_order():
    game = rules.get("orbitus")
    state = game.new_game(load_ruleset("orbitus"), ["Anna", "Boris", "Carla"], 7)
    view = game.view_for(state, 1)
    assert view.hand == state.hands[1] and view.hand_sizes == (4, 4, 4)
    text = json.dumps(view.to_json())
    for seat in (0, 2):
        for card in state.hands[seat]:
            if card not in state.hands[1]:
                assert card not in text
    assert not hasattr(view, "deck") and view.deck_left == state.deck_left


def test_a_sampled_state_keeps_what_the_seat_knows():
    from rules.orbitus.view import sample_state

    game = rules.get("orbitus")
    ruleset = load_ruleset("orbitus")
    state = game.new_game(ruleset, ["Anna", "Boris"], 9)
    rng = random.Random(9)
    for _ in range(20):
        legal = game.legal_actions(state)
        state = game.apply(state, legal[rng.randrange(len(legal))])
    view = game.view_for(state, 0)
    guess = sample_state(view, state.game, random.Random(1))
    assert guess.hands[0] == state.hands[0] and guess.board == state.board
    assert len(guess.hands[1]) == len(state.hands[1]) and guess.deck_left == state.deck_left
    assert sorted(guess.hands[1] + guess.deck[guess.drawn:]) == \
        sorted(state.hands[1] + state.deck[state.drawn:])


def test_orbitus_legal_actions_read_by_groups_are_the_same_actions():
    """``placement_groups`` and ``others`` (for a page that lists cells and turns per card
    without an action made for each) give exactly the sequence, in its order."""
    from rules.orbitus.actions import PLACE

    game = rules.get("orbitus")
    state = game.new_game(load_ruleset("orbitus"), ["Anna", "Boris", "Carla"], 5)
    rng = random.Random(5)
    while not game.is_over(state):
        legal = state.legal_actions()
        expanded = [(PLACE, card, cell, rot) for cell, card, rots in legal.placement_groups()
                    for rot in rots] + [tuple(a) for a in legal.others()]
        assert expanded == [tuple(a) for a in legal]
        assert all(a.kind != PLACE for a in legal.others())
        state = game.apply(state, legal[rng.randrange(len(legal))])
