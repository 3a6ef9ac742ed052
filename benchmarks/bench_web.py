"""pnp-web's figures: the server time of one transcription edit, the server's CPU per move,
and how many games one core holds.

1. **Edit**: the server's work for one edit of the 72-sector six-player table
   (``tests/fixtures/orbitus/six-players-72.yaml``): write the layout, read it with the
   scorer's reader, score it, build the answer (median of 200, one process). Budget 30 ms.
2. **Move, in process**: the server's own work for one move of a 4-seat Orbitus game
   (check, apply, SQLite, the messages of the four seats), without the network: the
   median time of a move, and the mean CPU time of a move (budget 1 ms: the server's CPU
   per move of point 3 without the WebSocket frames); and the SQLite write of a move
   alone (the mean and median CPU of 3,000 writes to a store of 50 games).
3. **Load**: one ``pnp-web`` server process (uvicorn, started as a subprocess on a free
   loopback port, held to one core where the system allows it, the clients on the others)
   and ``--games`` Orbitus games of 4 seats, every seat a WebSocket client of this process
   (each seat taken with the game's join code, as a player's device takes it); whenever a
   seat is to move it waits ``--think`` s (0.5 to 1.5 times) and sends a random legal
   action of the ones the server sent it. A move's round trip is the time from sending it
   to the server's answer (the state message with ``"ok"``: the move's id, sent once the
   move is checked, applied and written to SQLite, as every page of the game is sent
   it). Each game plays ``--moves`` moves. Budget: no errors, median under 50 ms, 95th
   percentile under 200 ms; and the **server's CPU time per move** (its user and system
   time while the games are played, from ``/proc/PID/stat``, divided by the moves). Then
   ``--games`` new games played to their end, whose seats move at once (``--busy-think``,
   1 ms): the server's CPU time per move **with the server busy**, budget 1 ms (a game's
   later moves cost more than its first 40: a larger table, more free cells, longer
   messages). A move's CPU depends on how long the server waited for it: before the load,
   a walk through 256 KB of memory on the server's core, timed at once and after 11 ms
   asleep (the wait between moves at 50 games), shows whether this machine keeps a waiting
   process's memory in its caches; where it empties them, every move at a light load
   fetches its code and data again, and the light-load figure measures the machine as much
   as the server.
4. **Games per core**: the load again with more games each time (``--ramp``), on the one
   core; the most games whose moves still come back in under 50 ms at the median (where
   the load generator, on the other core, reaches its own limit first, the figure says so
   and gives the server's CPU use there: one core then holds more).

Run: ``.venv/bin/python benchmarks/bench_web.py`` (a few minutes; only loopback traffic,
a bounded number of moves, and the server is stopped at the end).
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from timing import figure


def scratch(prefix: str) -> Path:
    """A folder of this run's own (its SQLite stores, the server's log), removed when the
    benchmark ends, so runs do not pile up folders in the system's temporary folder."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "tests" / "fixtures" / "orbitus" / "six-players-72.yaml"
WAIT = 120.0  # seconds a seat waits for the server (to connect, a message, a send)
WHOLE = 10_000  # moves per game that no game reaches: every game is played to its end


def bench_edit(repeats: int = 200) -> None:
    from cards.ruleset_cache import load_ruleset
    from web import orbitus_table

    ruleset = load_ruleset("orbitus")
    model = orbitus_table.imported(TABLE.read_text(), ruleset, "six-players-72.yaml")["model"]
    rng = random.Random(1)
    times = []
    for _ in range(repeats):
        # an edit: one sector turned (the page sends the whole table after every edit)
        sector = model["sectors"][rng.randrange(len(model["sectors"]))]
        sector["rot"] = (sector["rot"] + 1) % 6
        start = time.perf_counter()
        out = orbitus_table.scored(model, ruleset, "six-players-72.yaml")
        times.append((time.perf_counter() - start) * 1000)
        assert out["report"]["players"]
    times.sort()
    figure("pnp web: server time of one edit of the 72-sector table (write, read, score, "
           "answer)", statistics.median(times), 30, indent="",
           note=f"median of {repeats}; 95th percentile {times[int(0.95 * len(times))]:.1f} ms, "
                f"max {times[-1]:.1f} ms")


def bench_move(moves: int = 400, per_game: int = 0, gap: float = 0.0) -> None:
    """The server's own work for one move of a 4-seat Orbitus game, in process: check, apply,
    write to SQLite, and make and send the four seats' messages (sending itself is a no-op).
    Whole games, or their first ``per_game`` moves (as the load plays them). With ``gap``
    (seconds), the process sleeps that long before each move, outside what is timed, as a
    server does between the moves of people: the same code's CPU a move then shows what a
    move costs when it finds the core's caches and predictors taken by something else."""
    from web.app import Context
    from web.games import Watcher
    from web.store import Store

    context = Context(Store(scratch("bench-web-")), bot_delay=0)
    context.games.warm()  # as the server does when it starts
    times: list[float] = []
    cpu: list[float] = []  # the process's CPU time of each move (what the server pays)

    async def run() -> None:
        rng = random.Random(2)
        done = 0
        while done < moves:
            ply = 0
            session, _, _ = context.games.create("orbitus", [
                {"name": n, "kind": "human"} for n in ("A", "B", "C", "D")], rng.randrange(1000))

            sent: list[int] = []

            async def send(text: str, sent: list[int] = sent) -> None:
                sent.append(len(text))

            for seat in range(4):
                session.watchers.append(Watcher(send, "seat", seat))
            while session.status == "active" and done < moves and \
                    (not per_game or ply < per_game):
                options = choices(session.legal() or {})
                if gap:
                    await asyncio.sleep(gap)
                start, mine = time.perf_counter(), time.process_time()
                await context.games.move(session, session.to_move, rng.choice(options))
                cpu.append((time.process_time() - mine) * 1000)
                times.append((time.perf_counter() - start) * 1000)
                if len(sent) != 4 or len(session.watchers) != 4:  # broadcast dropped a page
                    raise SystemExit(f"bench_web: move {done + 1} sent {len(sent)} of the four "
                                     f"pages' messages (a page's message failed and the server "
                                     f"dropped it): no figure, it would leave the messages out")
                sent.clear()
                done += 1
                ply += 1

    asyncio.run(run())
    times.sort()
    games = f"the first {per_game} moves of games" if per_game else "whole games"
    asleep = f"; {gap * 1000:g} ms asleep before each move, not timed" if gap else ""
    figure("pnp web: a move's server work in a 4-seat Orbitus game (check, apply, SQLite, four "
           "messages), in process", statistics.median(times), indent="",
           note=f"median of {moves}; 95th percentile {times[int(0.95 * len(times))]:.1f} ms")
    figure("pnp web: a move's server CPU in a 4-seat Orbitus game (check, apply, SQLite, four "
           "messages), in process, mean", statistics.fmean(cpu), 1, indent="",
           note=f"the process's CPU time over {moves} moves of {games} from their start, "
                f"{sum(cpu) / 1000:.2f} s in all{asleep}; the load figure adds the WebSocket "
                f"frames")


def bench_store(rounds: int = 60, games: int = 50) -> None:
    """The SQLite write of a move alone: ``games`` four-seat Orbitus games made as the
    server makes them, then ``rounds`` moves of each written in turn (a real state's
    bytes, each game's next ply), nothing else done between the writes; the thread's CPU
    time of each write (``Store.add_moves``, one transaction)."""
    from web.app import Context
    from web.store import Store

    context = Context(Store(scratch("bench-web-store-")), bot_delay=0)
    rng = random.Random(3)
    sessions = [context.games.create("orbitus", [
        {"name": n, "kind": "human"} for n in ("A", "B", "C", "D")], rng.randrange(1000))[0]
        for _ in range(games)]
    play = sessions[0].adapter
    blobs = []
    for session in sessions:  # a state of each game from its middle: a real size
        state = session.state
        for _ in range(20):
            legal = state.legal_actions()
            state = play.game.apply(state, legal[rng.randrange(len(legal))])
        blobs.append(play.game.encode(state))
    store = context.games.store
    cpu: list[float] = []
    for ply in range(rounds):
        for session, blob in zip(sessions, blobs, strict=True):
            began = time.thread_time()
            store.add_moves(session.id, ply, [(ply % 4, [0, "S01", 0, 1, 2], blob)], "active")
            cpu.append((time.thread_time() - began) * 1e6)
    cpu.sort()
    figure("pnp web: the SQLite write of one move alone (one transaction, 50 games written "
           "in turn), mean CPU", statistics.fmean(cpu), unit="µs", indent="",
           note=f"median {statistics.median(cpu):.0f} µs, 99th percentile "
                f"{percentile(cpu, 0.99):.0f} µs over {len(cpu)} writes; inside the "
                f"server, between the rest of each move's work, the same write costs more "
                f"(--parts)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def choices(legal: dict) -> list[str]:
    if not legal:
        return ["pass"]
    out = [f"place {card} @{cell} r{rots[0]}" for card, cells in legal["place"].items()
           for cell, rots in cells.items()]
    out += [f"remove {q},{r}" for q, r in legal["remove"]]
    out += [f"discard {card}" for card in legal["discard"]]
    if legal["pass"]:
        out.append("pass")
    return out


def cpu_seconds(pid: int) -> tuple[float, float] | None:
    """The user and the system CPU time of a process so far (Linux: /proc), or None."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


class RunFailed(Exception):
    """A run that could not be measured (the seats did not all connect); says why."""


@dataclass
class Table:
    """What the seats of one run share: the round trips, errors, and the moments every seat
    is connected (the measurement starts) and every game has played its moves (it ends),
    so that connecting and closing are not counted as moves' work."""

    seats: int
    times: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    connected: int = 0
    all_connected: asyncio.Event = field(default_factory=asyncio.Event)
    start: asyncio.Event = field(default_factory=asyncio.Event)
    over: bool = False  # the run is measured; the seats are being closed


async def seat(port: int, token: str, moves: int, think: float, rng: random.Random,
               table: Table, done: asyncio.Event) -> None:
    """One seat's device: moves when the server says it is its turn. Only a message that
    carries this seat's legal actions (or the answer to its move) is read whole; the others'
    turns are seen and passed over, as a phone that is not to move does nothing. Its game's
    ``done`` is set when the game has its moves (or fails); the connection stays open until
    the run ends (the task is cancelled). A seat that fails (its connection closed or
    refused, an answer it cannot read) is an error of the run, counted and reported, and
    sets its game's ``done``: no run waits for a game that can no longer end."""
    try:
        await _seat(port, token, moves, think, rng, table, done)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # noqa: BLE001 (every way a seat fails is reported, none hangs)
        if not table.over:
            table.errors.append(f"a seat failed: {type(exc).__name__}: {exc}")
        done.set()


async def _seat(port: int, token: str, moves: int, think: float, rng: random.Random,
                table: Table, done: asyncio.Event) -> None:
    import websockets

    # asyncio.timeout, not asyncio.wait_for: Python 3.11's wait_for returns the message
    # that arrived as the task was cancelled and swallows the cancellation, so a seat went
    # on waiting (120 s) for a message that never came, and the run with it
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{token}", max_size=None,
                                  open_timeout=WAIT) as ws:
        async with asyncio.timeout(WAIT):
            first = await ws.recv()
        table.connected += 1
        if table.connected == table.seats:
            table.all_connected.set()
        await table.start.wait()
        sent_at: dict[int, float] = {}
        next_id = 0
        pending = False
        raw: str | bytes | None = first
        while not table.over:
            if raw is None:
                try:
                    async with asyncio.timeout(WAIT):
                        raw = await ws.recv()
                except TimeoutError:
                    if not table.over:
                        table.errors.append(f"no message for {WAIT:.0f} s")
                    done.set()
                    return
            text, raw = str(raw), None
            head = text[:40]
            if '"type":"ok"' in head or '"type":"error"' in head or '"type": "error"' in head:
                msg = json.loads(text)
                table.times.append((time.perf_counter() - sent_at.pop(msg["id"])) * 1000)
                pending = False
                if msg["type"] == "error":  # the game cannot go on: its seats wait no more
                    table.errors.append(msg["error"])
                    done.set()
                continue
            if head.startswith('{"type":"state","ok":'):  # the answer, in the state after it
                answer = json.loads(text)["ok"]
                table.times.append((time.perf_counter() - sent_at.pop(answer)) * 1000)
                pending = False
            if '"legal":{' not in text:
                if '"status":"active"' not in text:
                    done.set()
                continue
            msg = json.loads(text)
            if msg["status"] != "active" or len(msg["history"]) >= moves:
                done.set()
                continue
            if not pending and not done.is_set():
                if think:
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                action = rng.choice(choices(msg["legal"]))
                next_id += 1
                sent_at[next_id] = time.perf_counter()
                pending = True
                async with asyncio.timeout(WAIT):
                    await ws.send(json.dumps({"type": "move", "action": action,
                                              "version": msg["version"], "id": next_id}))


def post(port: int, path: str, body: dict) -> dict:
    import urllib.request

    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}",
                                 data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as res:
        out: dict[str, Any] = json.load(res)
    return out


def new_games(port: int, games: int, seed: int) -> list[list[str]]:
    """``games`` new 4-seat Orbitus games, each seat taken with the join code."""
    names = ["Anna", "Boris", "Carla", "Dmitri"]
    tokens = []
    for g in range(games):
        made = post(port, "/api/games", {"game": "orbitus", "seed": seed + g, "players": [
            {"name": n, "kind": "human"} for n in names]})
        tokens.append([post(port, f"/api/join/{made['code']}", {"seat": s})["url"]
                       .rsplit("/", 1)[1] for s in range(4)])
    return tokens


async def play(port: int, tokens: list[list[str]], moves: int, think: float, seed: int,
               pid: int) -> dict[str, Any]:
    """Play the games; the round trips, errors, wall time and the server's CPU time, from
    the moment every seat is connected to the moment every game has its moves."""
    table = Table(seats=sum(len(game) for game in tokens))
    rng = random.Random(seed)
    dones = [asyncio.Event() for _ in tokens]
    tasks = [asyncio.create_task(seat(port, token, moves, think,
                                      random.Random(rng.random() + g * 10 + s), table,
                                      dones[g]))
             for g, game in enumerate(tokens) for s, token in enumerate(game)]
    try:
        waiting = asyncio.create_task(table.all_connected.wait())
        await asyncio.wait([waiting, *tasks], timeout=300,
                           return_when=asyncio.FIRST_COMPLETED)
        if not table.all_connected.is_set():
            raise RunFailed(f"the seats did not all connect ({table.connected} of "
                            f"{table.seats}): "
                            f"{table.errors[0] if table.errors else 'none for 300 s'}")
        cpu0, mine0, start = cpu_seconds(pid), time.process_time(), time.perf_counter()
        table.start.set()
        await asyncio.gather(*(d.wait() for d in dones))
        wall = time.perf_counter() - start
        cpu1, mine1 = cpu_seconds(pid), time.process_time()
    finally:
        table.over = True
        closing = time.perf_counter()
        for task in tasks:
            task.cancel()
        _, stuck = await asyncio.wait(tasks, timeout=WAIT)
        if stuck:  # never seen since asyncio.timeout; said rather than waited for
            print(f"  {len(stuck)} seats did not close in {WAIT:.0f} s; left behind",
                  flush=True)
        closing = time.perf_counter() - closing
    times = sorted(table.times)
    split = None if cpu0 is None or cpu1 is None else (cpu1[0] - cpu0[0], cpu1[1] - cpu0[1])
    return {"times": times, "errors": table.errors, "wall": wall,
            "cpu": None if split is None else sum(split), "split": split,
            "clients": mine1 - mine0, "closing": closing}


def memory_walk(kb: int = 256, gap: float = 0.011, rounds: int = 40) -> tuple[float, float]:
    """How this machine treats a process's memory while the process waits: a walk through
    ``kb`` KB in a random cycle, one step per 64-byte line (a cache line), timed right after
    ``gap`` seconds asleep and then again at once; the nanoseconds a step of each (the mean
    of ``rounds``, after three rounds not counted). Both include Python's own cost of a step
    (some 50 ns); where the machine keeps the memory of a sleeping process in its caches the
    two are about the same, where it empties them (other work on the core, another virtual
    machine of the host) the first walk fetches every line from memory again."""
    from array import array

    lines = kb * 1024 // 64
    order = list(range(lines))
    random.Random(1).shuffle(order)
    step = array("q", bytes(8 * 8 * lines))  # one slot in each line of 8 slots
    for k in range(lines):
        step[order[k] * 8] = order[(k + 1) % lines] * 8
    after_sleep = at_once = 0.0
    for n in range(rounds + 3):
        time.sleep(gap)
        at = 0
        start = time.perf_counter()
        for _ in range(lines):
            at = step[at]
        middle = time.perf_counter()
        for _ in range(lines):
            at = step[at]
        end = time.perf_counter()
        if n >= 3:
            after_sleep += middle - start
            at_once += end - middle
    return after_sleep / rounds / lines * 1e9, at_once / rounds / lines * 1e9


def report_memory_walk(core: int | None, gap: float) -> None:
    """The walk of :func:`memory_walk` on the server's core (the server started and idle,
    before the load), as two figures: what a move's code and data cost this machine after
    a wait between moves."""
    before = os.sched_getaffinity(0) if core is not None else None
    if core is not None:
        os.sched_setaffinity(0, {core})
    try:
        slept, warm = memory_walk(gap=gap)
    finally:
        if before is not None:
            os.sched_setaffinity(0, before)
    where = f"on core {core}" if core is not None else "on this machine"
    figure("pnp web: the machine: a step of a walk through 256 KB of a process's memory "
           f"(Python, one step per 64-byte line), read again at once, {where}", warm,
           unit="ns", note="a step's mean over 40 walks")
    kept = "keeps" if slept < 1.5 * warm else "empties"
    figure("pnp web: the machine: the same walk after "
           f"{gap * 1000:g} ms asleep (the wait between moves at 50 games, think 500 ms)",
           slept, unit="ns",
           note=f"{slept / warm:.1f} times as long: this machine {kept} a process's "
                f"caches while it waits")


def percentile(times: list[float], q: float) -> float:
    return times[min(len(times) - 1, int(q * len(times)))]


def report_load(out: dict[str, Any], games: int, think: float) -> None:
    times = out["times"]
    load = (f"{games} Orbitus games x 4 seats over WebSockets, one server process, think "
            f"{think * 1000:.0f} ms")
    print(f"load: {load}: {len(times)} moves in {out['wall']:.1f} s (the seats closed in "
          f"{out['closing']:.1f} s after)")
    figure(f"pnp web: {load}, moves per second", len(times) / out["wall"], unit="moves/s",
           better="higher")
    figure(f"pnp web: {load}, errors", len(out["errors"]), 1, unit="")
    figure(f"pnp web: {load}, move round trip, median", statistics.median(times), 50)
    figure(f"pnp web: {load}, move round trip, 95th percentile", percentile(times, 0.95), 200,
           note=f"99th {percentile(times, 0.99):.1f} ms, max {times[-1]:.1f} ms")
    if out["cpu"] is not None:
        from web.cli import event_loop
        from web.wire import ENCODER

        # no budget here: at this load the server waits between moves, and what a move
        # costs then depends on what the machine does with its caches meanwhile (the memory
        # walk); the budget is the busy figure's (main)
        figure("pnp web: the server's CPU time per move (WebSockets in and out, checks, rules, "
               "SQLite, four seats' messages)", out["cpu"] * 1000 / len(times),
               note=f"{out['cpu']:.2f} s of CPU ({out['split'][0]:.2f} user, "
                    f"{out['split'][1]:.2f} system) for {len(times)} moves in "
                    f"{out['wall']:.0f} s with {games} games, think {think * 1000:.0f} ms, "
                    f"the server busy {out['cpu'] / out['wall']:.0%} of its core; "
                    f"JSON by {ENCODER}, event loop {event_loop()}")
    if out["errors"]:
        print("  first errors:", out["errors"][:3])


def report_parts(path: Path) -> None:
    """The parts of a move's server CPU (``--parts``): thread CPU time per move, from the
    server's last count (written every 100 moves; :mod:`web_parts`)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"  parts: the server wrote no counts ({exc})")
        return
    moves = data["moves"]
    timed = 0.0
    for part, entry in data["parts"].items():
        share = entry["seconds"] * 1000 / moves
        if not part.startswith(" "):
            timed += share
        figure(f"pnp web: server CPU per move, {part.strip()}", share, indent="    ",
               note=f"{entry['calls']} calls over {moves} moves")
    whole = data["process"] * 1000 / moves
    figure("pnp web: server CPU per move, outside those parts (frames in and out, the "
           "event loop, the kernel's loopback traffic)", whole - timed, indent="    ",
           note=f"the process: {whole:.3f} ms a move over those {moves} moves, parts timed")
    collector = data.get("gc") or []
    if collector:
        figure("pnp web: server CPU per move, the garbage collector (inside the parts above "
               "and outside them)", sum(g["seconds"] for g in collector) * 1000 / moves,
               indent="    ", note="collections of generations 0, 1, 2: " + ", ".join(
                   f"{g['collections']} ({g['seconds'] * 1000:.0f} ms)" for g in collector))


def think_sweep(port: int, pid: int, games: int, moves: int, think: float,
                seed: int, label: str = "", budget: float | None = None,
                runs: int = 1) -> None:
    """The server's CPU per move with ``games`` new games whose seats think ``think``
    seconds: the same moves cost a server more CPU the longer it waits between them.
    ``label`` and ``budget``: the figure's own (the busy figure is one such run);
    ``runs``: played that many times (new games each), the figure their median and the
    note every run's (on a shared virtual machine runs of a few seconds differ by 15 %)."""
    what = label or "think sweep"
    seen: list[tuple[float, float, float, int, int, float]] = []
    for run in range(runs):
        try:
            out = asyncio.run(play(port, new_games(port, games, seed + run), moves, think,
                                   seed + run, pid))
        except RunFailed as exc:
            print(f"  {what}: think {think * 1000:g} ms: {exc}", flush=True)
            return
        if out["cpu"] is None:
            print(f"  {what}: the server's CPU time cannot be read here (no /proc)")
            return
        if not out["times"]:
            print(f"  {what}: no move came back (errors: {out['errors'][:3]})", flush=True)
            return
        seen.append((out["cpu"] * 1000 / len(out["times"]), len(out["times"]) / out["wall"],
                     out["cpu"] / out["wall"], len(out["times"]), len(out["errors"]),
                     statistics.median(out["times"])))
    per_move = statistics.median(s[0] for s in seen)
    each = (f"runs: {', '.join(f'{s[0]:.2f}' for s in seen)} ms; " if runs > 1 else "")
    figure(label or f"pnp web: the server's CPU time per move, {games} games, think "
           f"{think * 1000:g} ms", per_move, budget,
           note=f"{each}{statistics.median(s[1] for s in seen):,.0f} moves/s, the server "
                f"busy {statistics.median(s[2] for s in seen):.0%} of its core, "
                f"{sum(s[3] for s in seen)} moves, errors {sum(s[4] for s in seen)}, median "
                f"round trip {statistics.median(s[5] for s in seen):.1f} ms"
                + (f" (the median of {runs} runs)" if runs > 1 else ""))


def ramp(port: int, pid: int, sizes: list[int], moves: int, think: float, seed: int) -> None:
    """More games each time, until a median round trip reaches 50 ms or the load generator
    is at its own limit; the most games one core held under 50 ms."""
    held, note = 0, ""
    held_cpu: tuple[float, float] | None = None  # the CPU per move and share of the core there
    for n in sizes:
        tokens = new_games(port, n, seed + 10_000 * n)
        try:
            out = asyncio.run(play(port, tokens, moves, think, seed, pid))
        except RunFailed as exc:
            print(f"  ramp: {n} games: {exc}", flush=True)
            note = (f"{note}; {n} games: {exc}" if held else f"not even the fewest tried "
                    f"({n} games: {exc})")
            break
        times = out["times"]
        median = statistics.median(times)
        busy = out["cpu"] / out["wall"] if out["cpu"] is not None else float("nan")
        clients = out["clients"] / out["wall"]
        per_move = out["cpu"] * 1000 / len(times) if out["cpu"] is not None else float("nan")
        print(f"  ramp: {n} games: {len(times)} moves in {out['wall']:.1f} s, median "
              f"{median:.1f} ms, 95th {percentile(times, 0.95):.1f} ms, server CPU "
              f"{busy:.0%} of a core ({per_move:.2f} ms a move), clients {clients:.0%}, "
              f"errors {len(out['errors'])}", flush=True)
        if median >= 50 or out["errors"]:
            over = (f"{n} games: median {median:.1f} ms, server at {busy:.0%} of a core"
                    + (f", {len(out['errors'])} errors" if out["errors"] else ""))
            note = (f"{note}; {over}" if held else
                    f"not even the fewest tried ({over}; a loaded machine gives the server "
                    f"less than its core)")
            break
        held = n
        held_cpu = (per_move, busy)
        note = (f"median {median:.1f} ms, server at {busy:.0%} of its core, think "
                f"{think * 1000:.0f} ms (0.5 to 1.5 times)")
        if clients > 0.9:
            note += (f"; the load generator was at its limit ({clients:.0%} of its core): one "
                     f"core holds more, about {n / max(busy, 0.01):.0f} at full use")
            break
    if held_cpu is not None:
        figure("pnp web: the server's CPU time per move at the most four-seat games one core "
               f"held under 50 ms, think {think * 1000:.0f} ms", held_cpu[0],
               note=f"{held} games, the server at {held_cpu[1]:.0%} of its core")
    figure(f"pnp web: four-seat games one core holds at a median move round trip under 50 "
           f"ms, think {think * 1000:.0f} ms", held, unit="games", better="higher", note=note)


def usable_cores() -> list[int]:
    """The cores this process may run on (none known where the system does not say); the
    first is the server's (:func:`pin`) when there are two or more."""
    return sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []


def pin(pid: int) -> str:
    """Hold the server to one core and this process (the clients) to the others, where the
    system allows it; says what was done."""
    cores = usable_cores()
    if len(cores) < 2:
        return "the server and the clients share the machine's cores"
    os.sched_setaffinity(pid, {cores[0]})
    os.sched_setaffinity(0, set(cores[1:]))
    return f"the server on core {cores[0]}, the clients on {len(cores) - 1} other core(s)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=40, help="moves per game")
    parser.add_argument("--think", type=float, default=0.5,
                        help="seconds a seat waits before it moves (0.5-1.5 times this)")
    parser.add_argument("--ramp", default="100,200,400,800",
                        help="numbers of games for the games-per-core figure ('' for none)")
    parser.add_argument("--port", type=int, default=0,
                        help="the loopback port of the server (default: a free one)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-edit", action="store_true")
    parser.add_argument("--parts", action="store_true",
                        help="split the server's CPU per move into its parts (the server "
                             "then runs with the parts timed: benchmarks/web_parts.py)")
    parser.add_argument("--in-process", type=int, metavar="MOVES",
                        help="only the move in process, over this many moves, and stop (for "
                             "a count of instructions that the machine's load does not "
                             "change: valgrind --tool=cachegrind at two numbers of moves)")
    parser.add_argument("--game-moves", type=int, default=0, metavar="N",
                        help="with --in-process: play only the first N moves of each game, as "
                             "the load does with --moves (default: whole games)")
    parser.add_argument("--gap", type=float, default=0.0, metavar="MS",
                        help="with --in-process: sleep this many milliseconds before each "
                             "move, outside what is timed, as a server waits between the "
                             "moves of people (default: none, moves back to back)")
    parser.add_argument("--busy-think", type=float, default=0.001, metavar="SECONDS",
                        help="after the load, --games new games whose seats move this soon "
                             "after their turn comes (0.5-1.5 times): the server's CPU per "
                             "move with the server busy, the figure held to 1 ms (0: not "
                             "run; default 0.001)")
    parser.add_argument("--busy-runs", type=int, default=3, metavar="N",
                        help="play the busy figure's games this many times and report the "
                             "median (default 3)")
    parser.add_argument("--think-sweep", default="", metavar="SECONDS,...",
                        help="after the load, the server's CPU per move again at each of "
                             "these think times (seconds), with --games new games each: how "
                             "a move's CPU depends on how busy the server is")
    opts = parser.parse_args()
    if opts.gap < 0 or (opts.gap and not opts.in_process):
        parser.error("--gap is a number of milliseconds, 0 or more, and goes with "
                     "--in-process")
    try:
        sweep = [float(t) for t in opts.think_sweep.split(",") if t.strip()]
    except ValueError:
        parser.error(f"--think-sweep: {opts.think_sweep!r} is not a list of seconds "
                     f"(e.g. 0.001,0.05,0.2,0.5,1)")
    if any(t <= 0 for t in sweep):
        parser.error("--think-sweep: every think time is a number of seconds above 0")
    if opts.busy_think < 0:
        parser.error("--busy-think is a number of seconds, 0 (not run) or more")
    if opts.busy_runs < 1:
        parser.error("--busy-runs is a whole number of runs, 1 or more")
    if opts.in_process:
        bench_move(opts.in_process, opts.game_moves, opts.gap / 1000)
        return
    if not opts.skip_edit:
        bench_edit()
        bench_move()
        bench_store()
    port = opts.port or free_port()
    data = scratch("bench-web-")
    # the server's warnings go to a file (a pipe nobody reads would fill and stop it)
    log = open(Path(data) / "server.log", "w+b")  # noqa: SIM115 (closed in the finally)
    parts = Path(data) / "parts.json"
    launch = [str(ROOT / "benchmarks" / "web_parts.py")] if opts.parts else ["-m", "web"]
    server = subprocess.Popen(
        [sys.executable, *launch, "--no-browser", "--port", str(port), "--data",
         str(Path(data) / "games"), "--rate", "0", "--workers", "1"],
        stdout=subprocess.DEVNULL, stderr=log, env={**os.environ, "BENCH_WEB_PARTS": str(parts)})
    try:
        end = time.time() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError as exc:
                if time.time() > end or server.poll() is not None:
                    log.seek(0)
                    raise SystemExit("the server did not start: " + log.read().decode(
                        errors="replace")) from exc
                time.sleep(0.1)
        cores = usable_cores()
        report_memory_walk(cores[0] if len(cores) > 1 else None, 0.011)
        print(f"load: {pin(server.pid)}")
        tokens = new_games(port, opts.games, opts.seed)
        try:
            out = asyncio.run(play(port, tokens, opts.moves, opts.think, opts.seed,
                                   server.pid))
        except RunFailed as exc:
            raise SystemExit(f"load: {exc}") from None
        report_load(out, opts.games, opts.think)
        if opts.parts:
            report_parts(parts)
        if opts.busy_think:  # whole games: their later moves cost more than the first 40
            think_sweep(port, server.pid, opts.games, WHOLE, opts.busy_think,
                        opts.seed + 500,
                        label=f"pnp web: the server's CPU time per move, the server busy "
                              f"({opts.games} whole Orbitus games x 4 seats over WebSockets, "
                              f"think {opts.busy_think * 1000:g} ms)", budget=1,
                        runs=opts.busy_runs)
        for n, think in enumerate(sweep, 1):
            think_sweep(port, server.pid, opts.games, opts.moves, think, opts.seed + 1000 * n)
        sizes = [int(n) for n in opts.ramp.split(",") if n.strip()]
        if sizes:
            ramp(port, server.pid, sizes, opts.moves, opts.think, opts.seed)
    finally:
        server.terminate()
        server.wait(10)
        log.close()


if __name__ == "__main__":
    main()
