"""The figures of issue 25 (balance a designer can trust): how strong the bots are and how
fast, whether compare's stars mean something, and how soon the SPRT decides.

1. the top Orbitus bot (mcts:16) against greedy, 2 players: its win share (budget >= 90 %)
   and the share of its games that end 0 : 0 (budget < 10 %);
2. one 3-player Orbitus game with the top bot in every seat, one core (budget < 5 s);
3. the top Satellites bot (mcts:16) against greedy (budget >= 97 %);
4. A against A with independent seeds (compare --seed-b), random play, 3 players: the
   share of the 20 pairs in which any row is marked after Holm's adjustment (budget <=
   alpha, 5 %);
5. the SPRT on a 2-point change of a planet row (the group of three +2 -> +4), the mean
   score per player, alpha 0.05, beta 0.1, effect 0.25: the pairs it took and the pairs a
   fixed-size test of the same error rates needs;
6. a ladder (random, greedy, value, mcts:16, mcts:64; 2-player Orbitus) on 2 cores, wall
   time (budget < 30 min).

Run: .venv/bin/python benchmarks/bench_balance.py [--quick] [--only 1,2,...]
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import figure  # noqa: E402

from cards.ruleset_cache import load_ruleset  # noqa: E402
from sim.play import Setup, adapter, play  # noqa: E402


def head_to_head(game: str, bot: str, other: str, games: int, players: int = 2,
                 jobs: int = 1) -> tuple[float, float]:
    """The first bot's win share against the other, and the share of 0 : 0 games."""
    ruleset = load_ruleset(game)
    setup = Setup(game, ruleset, (bot, other), 64, 1)
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        records = pool.starmap(play, [(setup, players, i) for i in range(games)])
    won = zero = 0.0
    for r in records:
        winners = r["winners"]
        if winners:
            won += sum(1 for s in winners if r["bots"][s] == bot) / len(winners)
        else:
            won += 0.5
        zero += all(s == 0 for s in r["scores"])
    return won / games, zero / games


def self_play_seconds(games: int) -> float:
    ruleset = load_ruleset("orbitus")
    setup = Setup("orbitus", ruleset, ("mcts:16",), 64, 1)
    started = time.process_time()
    for i in range(games):
        play(setup, 3, i)
    return (time.process_time() - started) / games


def false_alarms(pairs: int, games: int) -> float:
    from sim.compare import compare_records

    ruleset = load_ruleset("orbitus")
    kinds = adapter("orbitus").kinds
    alarms = 0
    for k in range(pairs):
        a = [play(Setup("orbitus", ruleset, ("random",), 8, 1000 + 2 * k), 3, i)
             for i in range(games)]
        b = [play(Setup("orbitus", ruleset, ("random",), 8, 1001 + 2 * k), 3, i)
             for i in range(games)]
        (block,) = compare_records(a, b, kinds, paired=False)
        alarms += any(r["significant"] for r in block["rows"])
    return alarms / pairs


def sprt_pairs() -> tuple[int, int]:
    from sim.sequential import run_sprt
    from sim.sprt import Sprt
    from testkit.rulesets import planet_row

    orbitus = load_ruleset("orbitus")
    changed = planet_row(orbitus, 3, +2)
    sa, sb = (Setup("orbitus", r, ("random",), 8, 7) for r in (orbitus, changed))
    found = run_sprt(Sprt(0.05, 0.1, 0.25), "score", 0,
                     lambda games: [(play(sa, 3, i), play(sb, 3, i)) for i in games], 10, 5000)
    return found["pairs"], found["fixed_pairs"]


def ladder_seconds(games: int, rungs: tuple[str, ...]) -> float:
    from sim.ladder import ladder

    ruleset = load_ruleset("orbitus")
    context = multiprocessing.get_context("fork")
    started = time.perf_counter()
    with context.Pool(2) as pool:
        def run(bots: tuple[str, str], indices: range) -> list[dict]:
            setup = Setup("orbitus", ruleset, bots, 64, 1)
            return pool.starmap(play, [(setup, 2, i) for i in indices])

        ladder(list(rungs), run, games)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small settings")
    parser.add_argument("--only", default="1,2,3,4,5,6", help="which figures, e.g. 1,5")
    args = parser.parse_args()
    only = {int(x) for x in args.only.split(",")}
    q = args.quick
    if 1 in only:
        n = 6 if q else 200
        share, zero = head_to_head("orbitus", "mcts:16", "greedy", n, jobs=2)
        figure(f"Orbitus: mcts:16 against greedy, 2 players, win share ({n} games)",
               100 * share, 90, unit="%", better="higher")
        figure(f"Orbitus: games of mcts:16 against greedy that end 0 : 0 ({n} games)",
               100 * zero, 10, unit="%")
    if 2 in only:
        n = 1 if q else 5
        figure("Orbitus: a 3-player game, mcts:16 in every seat, CPU time per game",
               self_play_seconds(n), 5, unit="s")
    if 3 in only:
        n = 4 if q else 200
        share, _ = head_to_head("satellites", "mcts:16", "greedy", n, jobs=2)
        figure(f"Satellites: mcts:16 against greedy, win share ({n} games)", 100 * share, 97,
               unit="%", better="higher")
    if 4 in only:
        pairs, games = (2, 40) if q else (20, 300)
        figure(f"compare A against A, independent seeds: pairs with any row marked after "
               f"Holm ({pairs} pairs of {games} random 3-player games)",
               100 * false_alarms(pairs, games), 5, unit="%")
    if 5 in only:
        took, fixed = sprt_pairs()
        figure("compare --sprt, a 2-point planet row (3 planets +2 -> +4), score per player, "
               "effect 0.25: pairs played", took, fixed, unit="pairs",
               note=f"a fixed-size test of the same alpha 0.05 and beta 0.1: {fixed} pairs")
    if 6 in only:
        games = 4 if q else 100
        rungs = ("random", "greedy", "value", "mcts:16", "mcts:64")
        figure(f"ladder of {', '.join(rungs)}, {games} 2-player Orbitus games per pairing, "
               f"2 cores, wall time", ladder_seconds(games, rungs) / 60, 30, unit="min")


if __name__ == "__main__":
    main()
