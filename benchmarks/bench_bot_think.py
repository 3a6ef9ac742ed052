"""How long the web companion's search bot thinks a move (``pnp-web``: an mcts seat).

The server asks :func:`web.work.bot_move` for a bot's move with its ``mcts`` budget
(``web.games.Manager``'s ``mcts_budget``). A player waits for it, so a move should come
in about a second or two. For 2- and 3-player Orbitus, the first seat played by the
``value`` bot (a stand-in for a person who builds), every other seat by ``mcts`` at each
``--budgets``: the CPU time of each of the search's moves (the same call the server makes,
in this process), whole games, ``--games`` of them per player count: the median, the 90th
percentile and the longest. CPU time is what an idle core gives; on a shared machine the
wall time is longer.

Run: .venv/bin/python benchmarks/bench_bot_think.py [--games 2] [--budgets 16,32,64]
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
from sim.play import adapter  # noqa: E402
from web.work import bot_move  # noqa: E402


def think_times(players: int, budget: int, games: int) -> list[float]:
    """The CPU seconds of every move of the mcts seats over ``games`` games."""
    ruleset = load_ruleset("orbitus")
    sim = adapter("orbitus")
    person = make_bot("value")
    took = []
    for seed in range(games):
        state = sim.new_game(ruleset, players, seed)
        ply = 0
        while not sim.game.is_over(state):
            seat = sim.game.current_player(state)
            if seat == 0:
                turn = Turn(seat, sim.game.view_for(state, seat), sim.legal(state),
                            sim.public(state), sim)
                action = person.choose(turn, random.Random(f"{seed}:{ply}"))
            else:
                started = time.process_time()
                action = bot_move("orbitus", state, seat, "mcts", f"{seed}:{ply}:{seat}",
                                  budget)
                took.append(time.process_time() - started)
            state = sim.game.apply(state, action)
            ply += 1
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games per player count")
    parser.add_argument("--budgets", default="16,32,64", help="mcts budgets, e.g. 16,64")
    parser.add_argument("--players", default="2,3", help="player counts, e.g. 2,3")
    args = parser.parse_args()
    for players in (int(p) for p in args.players.split(",")):
        for budget in (int(b) for b in args.budgets.split(",")):
            took = sorted(think_times(players, budget, args.games))
            p90 = took[min(len(took) - 1, int(0.9 * len(took)))]
            figure(f"pnp-web: a {players}-player Orbitus mcts move at budget {budget}, median "
                   f"CPU time", 1000 * statistics.median(took), unit="ms",
                   note=f"90th percentile {1000 * p90:.0f} ms, longest {1000 * took[-1]:.0f} "
                        f"ms; {len(took)} moves of {args.games} games, the first seat the "
                        f"value bot")


if __name__ == "__main__":
    main()
