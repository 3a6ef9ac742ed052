"""The figures of issue 25 (balance a designer can trust): how strong the bots are and how
fast, whether compare's stars mean something, and how soon the SPRT decides.

1. the top Orbitus bot (TOP_ORBITUS) against greedy, 2 players: its win share (budget >= 90 %)
   and the share of its games that end 0 : 0 (budget < 10 %);
2. one 3-player Orbitus game with the top bot in every seat, one core (budget < 5 s);
3. the top Satellites bot (TOP_SATELLITES) against greedy (budget >= 97 %);
4. A against A with independent seeds (compare --seed-b), random play, 3 players: the
   share of the 20 pairs in which any row is marked after Holm's adjustment (budget <=
   alpha, 5 %);
5. the SPRT on a 2-point change of a planet row (the group of three +2 -> +4), the mean
   score per player, alpha 0.05, beta 0.1, effect 0.25: the pairs it took and the pairs a
   fixed-size test of the same error rates needs;
6. the ladder (``pnp sim ladder orbitus --sprt``: random, greedy, value, mcts:16, mcts:64;
   2 players, at most 100 games per pairing, each ended when its sequential test decides,
   --jobs 2): each rung's rating, each rung against the one below, the wall time and the
   CPU time over two cores (budget < 30 min);
7. the two real changes of the issue at 100 games of random play (a lone planet -2 -> -1,
   3-player Orbitus; end_connected 23 -> 22, Satellites): the Holm-adjusted p of the
   score and of the length (budget < 0.05: detected);
8. whether the five-player seat finding holds for stronger play (``--bots ladder``,
   random, value and the top bot in every seat, 300 games each): the seats' chi-square p;
9. what tuning proposes for it (``pnp sim tune orbitus --players 5 --target
   "seat-gap<3%"``, random play, 16 trials of 600 games: the definitions, each of the six
   numbers one step either way, then three of the sampler's) and the evidence: each seat's
   change on fresh games;
10. the game-feel measures of both games at each player count, value bots (``--feel``;
   Orbitus 60 games per count, Satellites 40); with ``--feel-bots value,mcts:16,tactics:16``
   also the search rungs (each Orbitus rung at 2 to 6 players, 60 games a count; each
   Satellites rung 40 games; a search rung takes about 1 to 2.5 s of CPU a game, some 12
   minutes of CPU for the two search rungs, so the default run keeps to value bots);
11. what tuning proposes for the five-player finding under strong play, only when asked
   (``--only 11``: ``pnp sim tune orbitus --players 5 --bots mcts:16 --target
   "first-seat<21%" --target "seat-gap<3%" --trials 4 --games 200 --prune-every 100
   --evidence 200``, 1,000 games, about 1,100 s of CPU): the proposal and the evidence.

Run: .venv/bin/python benchmarks/bench_balance.py [--quick] [--only 1,2,...]
[--feel-bots value,mcts:16,tactics:16]
"""

from __future__ import annotations

import argparse
import multiprocessing
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import ROOT, figure  # noqa: E402

from cards.ruleset_cache import load_ruleset  # noqa: E402
from sim.play import Setup, adapter, play  # noqa: E402
from sim.report import feel_line  # noqa: E402

TOP_ORBITUS = "mcts:16"  # the strongest bot at its default budget
TOP_SATELLITES = "closer:16"  # the middle game played out too since 8fe8626 (docs/sim.md)
RUNGS = ("random", "greedy", "value", "mcts:16", "mcts:64")


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
    setup = Setup("orbitus", ruleset, (TOP_ORBITUS,), 64, 1)
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


def pnp_sim(args: list[str], out: Path) -> tuple[float, dict]:
    """Run ``pnp-sim ARGS --out OUT -q --json`` as a command: its wall time and the JSON it
    printed."""
    import json
    import subprocess

    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", "import sys; from sim.cli import main; "
                           "sys.exit(main(sys.argv[1:]))", *args, "--out", str(out), "-q",
                           "--json"], check=True, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    return time.perf_counter() - started, json.loads(done.stdout)


def ladder(games: int, rungs: tuple[str, ...], out: Path) -> None:
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    took, found = pnp_sim(["ladder", "orbitus", "--rungs", ",".join(rungs), "--games",
                           str(games), "--sprt", "--jobs", "2"], out)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    for r in found["ratings"]:
        figure(f"ladder: {r['bot']}, rating (Elo scale, random 0)", r["elo"], unit="",
               note=f"95 % interval [{r['ci'][0]:.0f}, {r['ci'][1]:.0f}]")
    for row in found["pairings"]:
        if row["adjacent"]:
            figure(f"ladder: {row['high']} against {row['low']}, win share (at most {games} "
                   f"games)", 100 * row["high_share"], unit="%",
                   note=f"{row['games']} games, [{100 * row['ci'][0]:.1f}, "
                        f"{100 * row['ci'][1]:.1f}], one-sided p = {row['p_above_half']:.2g}, "
                        f"sequential test: {row['decision']}")
    played = sum(row["games"] for row in found["pairings"])
    figure(f"ladder of {', '.join(rungs)}, at most {games} 2-player Orbitus games per "
           f"pairing (--sprt), 2 cores, wall time", took / 60, 30, unit="min",
           note=f"{played} games in all")
    figure("ladder: CPU time of every process, over 2 cores", cpu / 2 / 60, 30, unit="min",
           note=f"{cpu / 60:.1f} min of CPU")


def real_changes(games: int) -> None:
    import dataclasses

    from sim.compare import compare_records
    from testkit.rulesets import planet_row

    orbitus = load_ruleset("orbitus")
    for label, game, players, base, changed, key in (
            ("a lone planet -2 -> -1, score per player", "orbitus", 3, orbitus,
             planet_row(orbitus, 1, +1), "score"),
            ("end_connected 23 -> 22, game length", "satellites", 2,
             load_ruleset("satellites"),
             dataclasses.replace(load_ruleset("satellites"), end_connected=22), "length")):
        runs = [[play(Setup(game, r, ("random",), 8, 1), players, i) for i in range(games)]
                for r in (base, changed)]
        (block,) = compare_records(*runs, adapter(game).kinds)
        row = next(r for r in block["rows"] if r["key"] == key)
        figure(f"compare at {games} games of random play, {label}: Holm-adjusted p",
               row["p_adjusted"], 0.05, unit="",
               note=f"B - A {row['difference']['diff']:+.2f}; games up {row['pairs']['up']}, "
                    f"down {row['pairs']['down']}")


def strong_seats(games: int, rungs: tuple[str, ...], out: Path) -> None:
    _, found = pnp_sim(["orbitus", "--bots", "ladder", "--rungs", ",".join(rungs),
                        "--players", "5", "--games", str(games), "--jobs", "2"], out)
    for rung in found["rungs"]:
        (block,) = rung["report"]["by_players"]
        seats = ", ".join(f"{100 * s['rate']:.1f}" for s in block["seats"])
        figure(f"5 players, {rung['bot']} in every seat ({games} games): do the seats "
               f"differ? chi-square p", block["seats_differ"]["p"], unit="",
               note=f"seats 1-5 win {seats} %")


def tuning(games: int, trials: int, out: Path, bots: str = "random",
           targets: tuple[str, ...] = ("seat-gap<3%",), extra: tuple[str, ...] = ()) -> None:
    args = ["tune", "orbitus", "--players", "5", "--bots", bots, "--trials", str(trials),
            "--games", str(games), "--jobs", "2", *extra]
    for target in targets:
        args += ["--target", target]
    _, found = pnp_sim(args, out)
    changed = ", ".join(f"{k} {found['original'][k]} -> {found['best'][k]}"
                        for k in found["changed"]) or "no change"
    figure(f"tune 5-player Orbitus towards {', '.join(targets)} ({trials} trials of {games} "
           f"{bots} games): loss of the proposal", found["loss"], unit="",
           note=f"{changed}; the definitions as they are: {found['original_loss']}")
    (block,) = found["evidence"]["by_players"]
    for row in block["rows"]:
        if row["key"].startswith("seat:"):
            d = row["difference"]
            figure(f"tune evidence, {found['evidence']['games']} fresh games: {row['label']}, "
                   f"B - A", 100 * d["diff"], unit="points",
                   note=f"{100 * d['a']:.1f} % -> {100 * d['b']:.1f} %, adjusted p = "
                        f"{row['p_adjusted']:.2g}")


PLAYS = {"orbitus": ("random", "greedy", "value", "mcts"),
         "satellites": ("random", "greedy", "value", "mcts", "tactics")}  # who plays what


def feel(games: dict[str, int], out: Path, bots: tuple[str, ...] = ("value",)) -> None:
    for bot in bots:
        for game, players in (("orbitus", "2-6"), ("satellites", None)):
            if bot.split(":")[0] in PLAYS[game]:
                feel_rows(game, players, bot, games[game], out / f"{game}-{bot}")


def feel_rows(game: str, players: str | None, bot: str, games: int, out: Path) -> None:
    args = [game, "--bots", bot, "--feel", "--games", str(games), "--jobs", "2"]
    if players:
        args += ["--players", players]
    _, report = pnp_sim(args, out)
    for block in report["by_players"]:
        f = block["feel"]
        where = f"{game.capitalize()}, {block['players']} players, {bot} bots"
        figure(f"feel: {where}: lead changes per game", f["lead_changes"], unit="",
               note=f"{feel_line(f)}, length {block['length']['mean']:.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small settings")
    parser.add_argument("--only", default="1,2,3,4,5,6,7,8,9,10",
                        help="which figures, e.g. 1,5 (11, the strong-play tuning, only when "
                             "named)")
    parser.add_argument("--feel-bots", default="value",
                        help="figure 10's bots, each in every seat, e.g. value,mcts:16,"
                             "tactics:16 (default value)")
    args = parser.parse_args()
    only = {int(x) for x in args.only.split(",")}
    q = args.quick
    if 1 in only:
        n = 6 if q else 200
        share, zero = head_to_head("orbitus", TOP_ORBITUS, "greedy", n, jobs=2)
        figure(f"Orbitus: {TOP_ORBITUS} against greedy, 2 players, win share ({n} games)",
               100 * share, 90, unit="%", better="higher")
        figure(f"Orbitus: games of {TOP_ORBITUS} against greedy that end 0 : 0 ({n} games)",
               100 * zero, 10, unit="%")
    if 2 in only:
        n = 1 if q else 5
        figure(f"Orbitus: a 3-player game, {TOP_ORBITUS} in every seat, CPU time per game",
               self_play_seconds(n), 5, unit="s")
    if 3 in only:
        n = 4 if q else 200
        share, _ = head_to_head("satellites", TOP_SATELLITES, "greedy", n, jobs=2)
        figure(f"Satellites: {TOP_SATELLITES} against greedy, win share ({n} games)",
               100 * share, 97,
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
    work = Path(tempfile.mkdtemp(prefix="bench-balance-"))
    try:
        if 6 in only:
            games = 4 if q else 100
            ladder(games, RUNGS, work / "ladder")
        if 7 in only:
            real_changes(100)  # the issue asks for 100 games; random games are cheap
        if 8 in only:
            strong_seats(10 if q else 300, ("random", "value", TOP_ORBITUS), work / "seats")
        if 9 in only:
            tuning(20 if q else 600, 3 if q else 16, work / "tune")
        if 10 in only:
            feel({"orbitus": 3 if q else 60, "satellites": 3 if q else 40}, work / "feel",
                 tuple(args.feel_bots.split(",")))
        if 11 in only:
            tuning(20 if q else 200, 2 if q else 4, work / "tune-strong", "mcts:16",
                   ("first-seat<21%", "seat-gap<3%"),
                   ("--prune-every", "10" if q else "100", "--evidence", "20" if q else "200"))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
