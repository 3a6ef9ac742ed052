"""Speed of the Orbitus rules engine.

1. Legal-action generation: every position of random games (2 to 6 players, 10 deals
   each, random legal actions to the end, half of them drawing the kind of action
   first), each analysed from scratch (systems, neutral zones, open routes, free
   cells) and all legal actions of the player to move listed: every placement of
   every card in hand in every rotation, the removals, discards and the pass.
   Figure: positions per second (and the average number of legal actions), best of
   three passes, and the first pass alone (each card remembers, per cell and
   neighbourhood, the placements that fit; the first pass fills that memory).
2. Applying actions and detecting the end: whole random games, actions per second.
3. Explaining: check() of an action (the path pnp-replay uses), actions per second.
4. The commands, interpreter start included (median of several runs):
   pnp-setup orbitus --players 4 --seed 42, and pnp-replay of the 98-action golden
   record random_game_3p_seed5.yaml (loads the card definitions, scores the end).

Run: .venv/bin/python benchmarks/bench_engine_orbitus.py [--runs N]
"""

from __future__ import annotations

import argparse
import platform
import random
from pathlib import Path

from timing import best_of, command, median_wall_ms

from cards.definitions import load_orbitus
from scorer.engine.orbitus import (
    State,
    check,
    deal,
    game_from_definitions,
    random_game,
    shuffled_deck,
)

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "tests" / "fixtures" / "records" / "orbitus"
NAMES = ["Anna", "Boris", "Carla", "Dmitri", "Elena", "Fyodor"]
SEEDS = range(10)


def fresh(s: State) -> State:
    """The same position with nothing computed yet."""
    return State(s.game, s.board, s.deck, s.drawn, s.hands, s.limits, s.to_move, s.passed,
                 s.quiet, s.end, s.turn, s.skipped, s.out)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    models = load_orbitus()

    games = []
    for players in range(2, 7):
        for seed in SEEDS:
            game = game_from_definitions(models, NAMES[:players])
            start = deal(game, shuffled_deck(game, seed))
            actions, _ = random_game(start, random.Random(seed), by_kind=seed % 2 == 1)
            games.append((start, actions))
    states = []
    for start, actions in games:
        state = start
        for action in actions:
            states.append(state)
            state = state.after(action)
    n_actions = sum(len(a) for _, a in games)
    legal_total = sum(len(fresh(s).legal_actions()) for s in states)
    sectors = sum(len(s.board) for s in states) / len(states)

    def generate() -> None:
        for s in states:
            fresh(s).legal_actions()

    def forget() -> None:  # the placements each card remembers per cell and neighbourhood
        for card in states[0].game.cards.values():
            card.fits.clear()

    forget()
    t_cold = best_of(generate, repeat=1)
    t_gen = best_of(generate)

    def play() -> None:
        for start, actions in games:
            state = start
            for action in actions:
                state = state.after(action)

    t_play = best_of(play)

    pairs = [(fresh(s), a) for (start, actions) in games
             for s, a in zip(_walk(start, actions), actions, strict=True)]

    def explain() -> None:
        for s, a in pairs:
            check(fresh(s), a)

    t_check = best_of(explain)

    print(f"machine: {platform.machine()} {platform.processor() or ''}, "
          f"Python {platform.python_version()}")
    print(f"{len(games)} random games (2-6 players), {n_actions} actions, {len(states)} "
          f"positions, {sectors:.1f} sectors on the table on average")
    print(f"legal-action generation: {len(states) / t_gen:,.0f} positions/s "
          f"({legal_total / len(states):.0f} legal actions per position on average, "
          f"{legal_total / t_gen:,.0f} actions/s); the first pass, before the cards have "
          f"remembered where they fit: {len(states) / t_cold:,.0f} positions/s")
    print(f"applying actions (and detecting the end): {n_actions / t_play:,.0f} actions/s")
    print(f"checking written actions: {len(pairs) / t_check:,.0f} actions/s")
    setup = median_wall_ms([*command("pnp-setup"), "orbitus", "--players", "4", "--seed", "42"],
                           runs)
    print(f"pnp-setup orbitus --players 4 --seed 42: {setup:.0f} ms (median of {runs})")
    record = "random_game_3p_seed5.yaml"
    replay = median_wall_ms([*command("pnp-replay"), record], runs, cwd=RECORDS)
    print(f"pnp-replay {record} (98 actions): {replay:.0f} ms (median of {runs})")


def _walk(start: State, actions: list) -> list[State]:
    out = []
    state = start
    for action in actions:
        out.append(state)
        state = state.after(action)
    return out


if __name__ == "__main__":
    main()
