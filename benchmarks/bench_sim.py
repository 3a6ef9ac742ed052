"""Speed and strength of the balance simulator (``pnp-sim``).

1. Random bots, one core, games played through the simulator (bots asked through the
   policy interface with the view, records with every statistic): Orbitus 3 players
   (budget >= 50 games/s) and Satellites (budget >= 300 games/s); the rules core's own
   random games beside them, to show the simulator's overhead per game.
2. ``--jobs 2`` against one job: the same games in the process pool (budget >= 1.8x).
3. Greedy bots against random ones, one core (budget: at least a third of the speed).
4. 100,000 Satellites games with random bots, the whole command with --jobs 2: wall time
   (budget < 3 minutes) and the peak memory of all its processes together (< 500 MB).
5. Whole-run overhead for 1,000 games (start, ruleset, report, plots): the command's wall
   time minus the time its games take in one process (budget < 3 s).
6. Head-to-head strength: win rate of one bot against another in 2-player games, each
   bot taking each seat equally often (``--strength-games``, default 1,000 per pairing):
   greedy against random and mcts against greedy (``--search-games``, default 200: a
   search game costs 25 times a greedy one; the ladder and figures 1 and 3 of
   ``bench_balance.py`` measure the search bots more fully).

Run: .venv/bin/python benchmarks/bench_sim.py [--quick] [--only 1,2,...]
     [--strength-games N] [--search-games N] [--budget N]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from timing import figure

import rules
from cards.ruleset_cache import load_ruleset
from sim.play import Setup, play_many
from sim.run import chunked, pool

ROOT = Path(__file__).resolve().parent.parent


def has_satellites() -> bool:
    return hasattr(__import__("rules.satellites", fromlist=["x"]), "GAME")


def cpu_now() -> float:
    """CPU seconds of this process and its finished children."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


CPU: dict[str, float] = {}  # the CPU seconds per game of the last rate() call


def rate(setup: Setup, players: int, games: int, jobs: int = 1) -> float:
    """Games per wall-clock second of ``games`` games (in one process, or a pool of
    ``jobs``); ``CPU["per_game"]`` gets the CPU seconds they took per game (all processes),
    which other work on a shared machine does not change."""
    todo = [(players, i) for i in range(games)]
    cpu = cpu_now()
    started = time.perf_counter()
    turns = 0
    if jobs == 1:
        turns = sum(r["turns"] for r in play_many(setup, todo))
    else:
        for batch in pool(setup, chunked(todo, jobs, 100), jobs):
            turns += sum(r["turns"] for r in batch)
    wall = time.perf_counter() - started
    CPU["per_game"] = (cpu_now() - cpu) / games
    CPU["per_move"] = (cpu_now() - cpu) / turns
    return games / wall


def core_rate(game: str, players: int, games: int) -> float:
    """The rules core alone: its own random games (``rules.<game>.engine.random_game``,
    no bots, no statistics), games per CPU-second."""
    import importlib

    engine = importlib.import_module(f"rules.{game}.engine")
    g = rules.get(game)
    ruleset = load_ruleset(game)
    names = ["P1", "P2", "P3", "P4", "P5", "P6"][:players]
    started = time.process_time()
    for seed in range(games):
        engine.random_game(g.new_game(ruleset, names, seed), random.Random(seed))
    return games / (time.process_time() - started)


def tree_rss_mb(pid: int) -> float:
    """Resident memory of a process and its children, MB (from /proc)."""
    total = 0
    pids = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(c) for c in children]
    except OSError:
        pass
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def command(args: list[str], cwd: Path) -> tuple[float, float, str]:
    """Wall seconds, peak MB of the whole process tree, stdout of a pnp-sim command."""
    exe = Path(sys.executable).with_name("pnp-sim")
    peak = [0.0]
    started = time.perf_counter()
    proc = subprocess.Popen([str(exe), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=cwd)
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], tree_rss_mb(proc.pid))
            time.sleep(0.1)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    out, err = proc.communicate()
    took = time.perf_counter() - started
    done.set()
    watcher.join()
    if proc.returncode != 0:
        raise SystemExit(f"pnp-sim {' '.join(args)} failed: {err}")
    return took, peak[0], out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer games everywhere")
    parser.add_argument("--only", default="1,2,3,4,5,6", help="which figures, e.g. 1,3")
    parser.add_argument("--strength-games", type=int, default=1000)
    parser.add_argument("--search-games", type=int, default=200,
                        help="games of the mcts pairing of figure 6")
    parser.add_argument("--budget", type=int, default=16, help="mcts rollouts per decision")
    args = parser.parse_args()
    only = {int(x) for x in args.only.split(",")}
    quick = args.quick
    sat = has_satellites()
    print(f"machine: {platform.machine()} {platform.processor() or ''}, {os.cpu_count()} "
          f"cores, Python {platform.python_version()}")
    orb = load_ruleset("orbitus")
    random_orb = Setup("orbitus", orb, ("random",), 1, 1)
    greedy_orb = Setup("orbitus", orb, ("greedy",), 1, 1)
    n_orb = 100 if quick else 400
    if sat:
        sat_rules = load_ruleset("satellites")
        random_sat = Setup("satellites", sat_rules, ("random",), 1, 1)
        greedy_sat = Setup("satellites", sat_rules, ("greedy",), 1, 1)
    n_sat = 1000 if quick else 5000

    one_orb = one_sat = 0.0
    cpu_orb = cpu_sat = 0.0
    print(f"load average before: {os.getloadavg()[0]:.2f} (figures per CPU-second are "
          f"what an idle core would give; wall-clock figures suffer from other work)")
    if 1 in only or 2 in only or 3 in only:
        one_orb = max(rate(random_orb, 3, n_orb) for _ in range(2))
        cpu_orb, move_orb = CPU["per_game"], CPU["per_move"]
        if sat:
            one_sat = max(rate(random_sat, 2, n_sat) for _ in range(2))
            cpu_sat, move_sat = CPU["per_game"], CPU["per_move"]
    if 1 in only:
        print("1. random bots, one core:")
        figure("pnp sim: random bots, one core, Orbitus 3 players, wall time", one_orb,
               unit="games/s", better="higher")
        figure("pnp sim: random bots, one core, Orbitus 3 players, per CPU-second",
               1 / cpu_orb, 50, unit="games/s", better="higher")
        figure("the rules core's own random Orbitus 3-player games, per CPU-second",
               core_rate("orbitus", 3, n_orb // 2), unit="games/s", better="higher")
        if sat:
            figure("pnp sim: random bots, one core, Satellites, wall time", one_sat,
                   unit="games/s", better="higher")
            figure("pnp sim: random bots, one core, Satellites, per CPU-second", 1 / cpu_sat,
                   300, unit="games/s", better="higher")
            figure("the rules core's own random Satellites games, per CPU-second",
                   core_rate("satellites", 2, n_sat // 2), unit="games/s", better="higher")
        else:
            print("   Satellites: the Satellites rules core is not on this branch yet")
    if 2 in only:
        two_orb = rate(random_orb, 3, 2 * n_orb, jobs=2)
        ratio = cpu_orb / CPU["per_game"] * 2
        print("2. --jobs 2 against one job:")
        figure("pnp sim --jobs 2 against one job, Orbitus, wall time", two_orb / one_orb,
               unit="×", better="higher", note=f"{two_orb:,.1f} games/s")
        figure("pnp sim --jobs 2 against one job, Orbitus, by CPU per game", ratio, 1.8,
               unit="×", better="higher",
               note=f"{1000 * CPU['per_game']:.1f} ms per game in the pool, main process "
                    f"included, against {1000 * cpu_orb:.1f} ms in one")
        if sat:
            two_sat = rate(random_sat, 2, 2 * n_sat, jobs=2)
            ratio = cpu_sat / CPU["per_game"] * 2
            figure("pnp sim --jobs 2 against one job, Satellites, wall time",
                   two_sat / one_sat, unit="×", better="higher", note=f"{two_sat:,.0f} games/s")
            figure("pnp sim --jobs 2 against one job, Satellites, by CPU per game", ratio, 1.8,
                   unit="×", better="higher")
    if 3 in only:
        g_orb = rate(greedy_orb, 3, n_orb // 2)
        print("3. greedy bots against random ones, one core:")
        figure("pnp sim: greedy bots against random, Orbitus 3 players, per CPU-second",
               cpu_orb / CPU["per_game"], 1 / 3, unit="×", better="higher",
               note=f"{1 / CPU['per_game']:,.1f} games per CPU-second; {g_orb / one_orb:.2f} "
                    f"by wall time; moves per CPU-second {move_orb / CPU['per_move']:.2f} of "
                    f"random's")
        if sat:
            g_sat = rate(greedy_sat, 2, n_sat // 2)
            figure("pnp sim: greedy bots against random, Satellites, per CPU-second",
                   cpu_sat / CPU["per_game"], 1 / 3, unit="×", better="higher",
                   note=f"{g_sat / one_sat:.2f} by wall time; moves per CPU-second "
                        f"{move_sat / CPU['per_move']:.2f} of random's (greedy games are "
                        f"longer)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if 4 in only and sat:
            games = 10_000 if quick else 100_000
            cpu = cpu_now()
            took, peak, _ = command(["satellites", "--games", str(games), "--jobs", "2",
                                     "--out", "s100k"], folder)
            cpu = cpu_now() - cpu
            print(f"4. {games:,} Satellites games, random bots, --jobs 2, whole command:")
            figure(f"pnp sim satellites --games {games:,} --jobs 2, whole command", took, 180,
                   unit="s", note=f"{cpu:.1f} CPU-s in all processes, at most {cpu / 2:.1f} s "
                                  f"on two idle cores")
            figure(f"pnp sim satellites --games {games:,} --jobs 2, peak memory of all its "
                   f"processes", peak, 500, unit="MB")
        elif 4 in only:
            took, peak, _ = command(["orbitus", "--players", "3", "--games", "4000",
                                     "--jobs", "2", "--out", "o4k"], folder)
            print("4. (no Satellites core yet) 4,000 Orbitus 3-player games, --jobs 2:")
            figure("pnp sim orbitus --players 3 --games 4,000 --jobs 2, whole command", took,
                   unit="s")
            figure("pnp sim orbitus --players 3 --games 4,000 --jobs 2, peak memory", peak,
                   unit="MB")
        if 5 in only:
            for game, players, setup in (("orbitus", 3, random_orb),
                                         *((("satellites", 2, random_sat),) if sat else ())):
                extra = ["--players", str(players)] if game == "orbitus" else []
                cpu = cpu_now()
                took, _, _ = command([game, *extra, "--games", "1000", "--jobs", "1",
                                      "--out", f"{game}-1k"], folder)
                cpu_command = cpu_now() - cpu
                playing = 1000 / rate(setup, players, 1000)
                cpu_playing = 1000 * CPU["per_game"]
                figure(f"pnp sim: whole-run overhead of 1,000 {game} games (start, ruleset, "
                       f"summary, report, plots), CPU time", cpu_command - cpu_playing, 3,
                       unit="s", note=f"{took - playing:.2f} s by wall time; the run "
                                      f"{took:.2f} s, its games {playing:.2f} s")
        if 6 in only:
            pairs = [("greedy", "random"), ("mcts", "greedy")]
            print(f"6. head-to-head, 2 players, seats alternating (mcts budget "
                  f"{args.budget}):")
            for game in ("orbitus", *(("satellites",) if sat else ())):
                for a, b in pairs:
                    n = 100 if quick else args.search_games if a == "mcts" \
                        else args.strength_games
                    extra = ["--players", "2"] if game == "orbitus" else []
                    took, _, out = command([game, *extra, "--games", str(n), "--bots",
                                            f"{a},{b}", "--budget", str(args.budget),
                                            "--jobs", "2", "--json", "--out",
                                            f"{game}-{a}-{b}"], folder)
                    block = json.loads(out)["by_players"][0]
                    bots = {x["bot"]: x for x in block["bots"]}
                    w = bots[a]
                    figure(f"pnp sim head-to-head, {game}, 2 players: {a} against {b}, win rate "
                           f"of {a}", 100 * w["rate"], unit="%", better="higher",
                           note=f"95 % interval [{100 * w['ci'][0]:.1f}, "
                                f"{100 * w['ci'][1]:.1f}], shared wins as a share; draws "
                                f"{block['draws']['count']}; {n:,} games, {took:.0f} s"
                                + (f"; budget {args.budget}" if a == "mcts" else ""))


if __name__ == "__main__":
    main()
