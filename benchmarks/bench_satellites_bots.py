"""How much CPU the strongest Satellites bots take a game against greedy.

docs/sim.md measures a Satellites bot's cost as its own CPU time (process time: a loaded
machine slows it less than the wall time) over its moves in games 0 to 10, but 7, of
``pnp sim satellites --bots BOT,greedy --seed 1`` (game 7 is left out as the docs' first
figures left it out; the line-up turns as ``pnp sim`` turns it, so the bot plays red in
the even games and blue in the odd ones). The issue's aim is about 5 s a game for the top
bot. Each bot's games are played here one by one with ``pnp sim``'s deals and generators
(:func:`sim.play.game_seed`), and the note gives its wins and the games' lengths.

Run: .venv/bin/python benchmarks/bench_satellites_bots.py
[--bots wary:16,closer:16,deep:16,tactics:16] [--games 0,1,2,3,4,5,6,8,9,10] [--seed 1]
(``--seed 2 --games 4,28``: the two seed-2 games ``closer:16`` played to the stall of S-62.)
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import figure  # noqa: E402

from cards.ruleset_cache import load_ruleset  # noqa: E402
from sim.bots import Turn, make_bot  # noqa: E402
from sim.play import adapter, game_seed, lineup  # noqa: E402

GAMES = (0, 1, 2, 3, 4, 5, 6, 8, 9, 10)
SECONDS_A_GAME = 5.0  # the aim for the top bot


def bot_cpu(spec: str, index: int, seed: int = 1) -> tuple[float, bool, int]:
    """``spec``'s CPU seconds over its moves in game ``index`` of ``--bots spec,greedy``,
    whether it won, and the game's moves."""
    sim = adapter("satellites")
    game = sim.game
    number = game_seed(seed, 2, index)
    names = lineup((spec, "greedy"), 2, index)
    bots = [make_bot(name) for name in names]
    rngs = [random.Random(number * 8 + seat + 1) for seat in range(2)]
    state = sim.new_game(load_ruleset("satellites"), 2, number)
    seat_of_bot = names.index(spec)
    took = 0.0
    moves = 0
    while not sim.decided(state):
        seat = game.current_player(state)
        turn = Turn(seat, game.view_for(state, seat), sim.legal(state), None, sim)
        start = time.process_time()
        action = bots[seat].choose(turn, rngs[seat])
        if seat == seat_of_bot:
            took += time.process_time() - start
        if sim.may_end(action) and game.is_over(state):
            break
        state = game.apply(state, action)
        moves += 1
    return took, tuple(game.result(state).winners) == (seat_of_bot,), moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bots", default="wary:16,closer:16,deep:16,tactics:16")
    parser.add_argument("--games", default=",".join(map(str, GAMES)))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = [int(g) for g in args.games.split(",")]
    for spec in args.bots.split(","):
        runs = [bot_cpu(spec, g, args.seed) for g in games]
        cpu = [c for c, _, _ in runs]
        won = sum(w for _, w, _ in runs)
        lengths = [n for _, _, n in runs]
        aimed = SECONDS_A_GAME if spec.startswith(("deep", "wary", "closer")) else None
        figure(f"Satellites {spec} against greedy, its CPU a game (seed {args.seed}, "
               f"games {args.games})",
               statistics.fmean(cpu), aimed,
               unit="s", note=f"won {won} of {len(games)}; longest {max(cpu):.1f} s; moves a "
                              f"game median {statistics.median(lengths):.0f}, most "
                              f"{max(lengths)}")


if __name__ == "__main__":
    main()
