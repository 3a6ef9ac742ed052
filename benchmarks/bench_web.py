"""pnp-web's figures: the server time of one transcription edit, and a load of many games.

1. **Edit**: the server's work for one edit of the 72-sector six-player table
   (``tests/fixtures/orbitus/six-players-72.yaml``): write the layout, read it with the
   scorer's reader, score it, build the answer (median of 200, one process). Budget 30 ms.
2. **Load**: one ``pnp-web`` server process (uvicorn, started as a subprocess on a free
   loopback port) and ``--games`` Orbitus games of 4 seats, every seat a WebSocket client
   of this process; whenever a seat is to move it waits ``--think`` ms and sends a random
   legal action of the ones the server sent it. A move's round trip is the time from
   sending it to the server's answer (``ok``, after the move is checked, applied, written
   to SQLite and sent to every page of the game). Each game plays ``--moves`` moves.
   Budget: no errors, median under 50 ms, 95th percentile under 200 ms.

Run: ``.venv/bin/python benchmarks/bench_web.py`` (about a minute; only loopback traffic,
a bounded number of moves, and the server is stopped at the end).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import figure

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "tests" / "fixtures" / "orbitus" / "six-players-72.yaml"


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


def bench_move(moves: int = 200) -> None:
    """The server's own work for one move of a 4-seat Orbitus game, in process: check, apply,
    write to SQLite, and make and send the four seats' messages (sending itself is a no-op)."""
    from web.app import Context
    from web.games import Watcher
    from web.store import Store

    context = Context(Store(Path(tempfile.mkdtemp(prefix="bench-web-"))), bot_delay=0)
    times: list[float] = []

    async def run() -> None:
        rng = random.Random(2)
        done = 0
        while done < moves:
            session, _ = context.games.create("orbitus", [
                {"name": n, "kind": "human"} for n in ("A", "B", "C", "D")], rng.randrange(1000))

            async def send(text: str) -> None:
                return None

            for seat in range(4):
                session.watchers.append(Watcher(send, "seat", seat))
            while session.status == "active" and done < moves:
                options = choices(session.legal() or {})
                start = time.perf_counter()
                await context.games.move(session, session.to_move, rng.choice(options))
                times.append((time.perf_counter() - start) * 1000)
                done += 1

    asyncio.run(run())
    times.sort()
    figure("pnp web: a move's server work in a 4-seat Orbitus game (check, apply, SQLite, four "
           "messages), in process", statistics.median(times), indent="",
           note=f"median of {moves}; 95th percentile {times[int(0.95 * len(times))]:.1f} ms")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def post(port: int, path: str, body: dict) -> dict:
    import urllib.request

    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}",
                                 data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as res:
        return json.load(res)


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


async def seat(port: int, token: str, moves: int, think: float, rng: random.Random,
               times: list[float], errors: list[str], done: asyncio.Event) -> None:
    import websockets

    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{token}", max_size=None) as ws:
        sent_at: dict[int, float] = {}
        next_id = 0
        pending = False
        while not done.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=60)
            except TimeoutError:
                errors.append("no message for 60 s")
                return
            msg = json.loads(raw)
            kind = msg.get("type")
            if kind in ("ok", "error"):
                times.append((time.perf_counter() - sent_at.pop(msg["id"])) * 1000)
                pending = False
                if kind == "error":
                    errors.append(msg["error"])
                continue
            if kind != "state":
                continue
            if msg["status"] != "active" or len(msg["history"]) >= moves:
                done.set()
                return
            if msg.get("legal") and not pending:
                if think:
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                action = rng.choice(choices(msg["legal"]))
                next_id += 1
                sent_at[next_id] = time.perf_counter()
                pending = True
                await ws.send(json.dumps({"type": "move", "action": action,
                                          "version": msg["version"], "id": next_id}))


async def load(port: int, games: int, moves: int, think: float, seed: int) -> None:
    names = ["Anna", "Boris", "Carla", "Dmitri"]
    tokens = []
    for g in range(games):
        out = post(port, "/api/games", {"game": "orbitus", "seed": seed + g, "players": [
            {"name": n, "kind": "human"} for n in names]})
        tokens.append([s["url"].rsplit("/", 1)[1] for s in out["links"]["seats"]])
    times: list[float] = []
    errors: list[str] = []
    rng = random.Random(seed)
    start = time.perf_counter()
    tasks = []
    for g, game in enumerate(tokens):
        done = asyncio.Event()
        for s, token in enumerate(game):
            tasks.append(seat(port, token, moves, think, random.Random(rng.random() + g * 10 + s),
                              times, errors, done))
    await asyncio.gather(*tasks)
    wall = time.perf_counter() - start
    times.sort()
    p = lambda q: times[min(len(times) - 1, int(q * len(times)))]  # noqa: E731
    load = (f"{games} Orbitus games x 4 seats over WebSockets, one server process, think "
            f"{think * 1000:.0f} ms")
    print(f"load: {load}: {len(times)} moves in {wall:.1f} s")
    figure(f"pnp web: {load}, moves per second", len(times) / wall, unit="moves/s",
           better="higher")
    figure(f"pnp web: {load}, errors", len(errors), 1, unit="")
    figure(f"pnp web: {load}, move round trip, median", statistics.median(times), 50)
    figure(f"pnp web: {load}, move round trip, 95th percentile", p(0.95), 200,
           note=f"99th {p(0.99):.1f} ms, max {times[-1]:.1f} ms")
    if errors:
        print("  first errors:", errors[:3])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=40, help="moves per game")
    parser.add_argument("--think", type=float, default=0.5,
                        help="seconds a seat waits before it moves (0.5-1.5 times this)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-edit", action="store_true")
    opts = parser.parse_args()
    if not opts.skip_edit:
        bench_edit()
        bench_move()
    port = free_port()
    data = tempfile.mkdtemp(prefix="bench-web-")
    server = subprocess.Popen(
        [sys.executable, "-m", "web", "--no-browser", "--port", str(port), "--data", data],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ})
    try:
        end = time.time() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError as exc:
                if time.time() > end or server.poll() is not None:
                    raise SystemExit("the server did not start: " + (
                        server.stderr.read().decode() if server.stderr else "")) from exc
                time.sleep(0.1)
        asyncio.run(load(port, opts.games, opts.moves, opts.think, opts.seed))
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
