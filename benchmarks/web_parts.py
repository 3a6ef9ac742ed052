"""``pnp web`` with the CPU time of the parts of a move counted (``bench_web.py --parts``).

Runs the server as ``python -m web`` would (the same arguments), with the synchronous
parts of a move wrapped: each call's thread CPU time (``time.thread_time``, user and
system) is summed per part from the first move on (seats connecting are not counted),
and so is the garbage collector's, per generation (wherever it ran: inside the parts and
outside them).
Every 100 moves the sums, the moves and the process's CPU time since the first move are
written as JSON to the file named by ``$BENCH_WEB_PARTS`` (the server is stopped from
outside, so it never writes at its end). The wrapping costs a few microseconds a call:
the whole is a little slower than the server alone.
"""

from __future__ import annotations

import gc
import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any

# what a move's CPU is split into, by (module, owner, function); nested parts are indented
PARTS: tuple[tuple[str, str | None, str, str], ...] = (
    ("web.games", "Manager", "_apply", "applying and saving the move (rules, SQLite)"),
    ("web.store", "Store", "add_moves", "  of which the SQLite write"),
    ("web.play_orbitus", None, "parse", "reading and checking the move"),
    ("web.games", "Session", "message_text", "the messages of every page (all of it)"),
    ("web.play_orbitus", None, "public", "  of which the public view with its score"),
    ("web.play_orbitus", None, "public_text", "  of which the public view with its score"),
    ("web.play_orbitus", None, "legal", "  of which the legal actions, the page's form"),
)
MOVE = "applying and saving the move (rules, SQLite)"  # one call a move
EVERY = 100  # moves between two writes of the file


def install(target: str) -> None:
    """Wrap every part of :data:`PARTS`, writing the sums to ``target``."""
    import importlib

    sums: dict[str, list[float]] = {}  # part -> [CPU seconds, calls]
    start: list[float] = []  # the process's CPU time at the first move
    collector = [[0.0, 0] for _ in range(3)]  # per generation: [CPU seconds, collections]
    began_gc: list[float] = [0.0]

    def collected(phase: str, info: dict[str, Any]) -> None:
        if not start:
            return
        if phase == "start":
            began_gc[0] = time.thread_time()
            return
        entry = collector[info["generation"]]
        entry[0] += time.thread_time() - began_gc[0]
        entry[1] += 1

    gc.callbacks.append(collected)

    def write() -> None:
        moves = int(sums[MOVE][1])
        data = {"moves": moves, "process": time.process_time() - start[0],
                "parts": {part: {"seconds": sums[part][0], "calls": int(sums[part][1])}
                          for *_, part in PARTS if part in sums},  # in the order of PARTS
                "gc": [{"seconds": seconds, "collections": int(count)}
                       for seconds, count in collector]}
        with open(target, "w", encoding="utf-8") as out:
            json.dump(data, out)

    def timed(inner: Callable[..., Any], part: str) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            if not start:
                if part != MOVE:
                    return inner(*args, **kwargs)
                start.append(time.process_time())
            began = time.thread_time()
            try:
                return inner(*args, **kwargs)
            finally:
                entry = sums.setdefault(part, [0.0, 0])
                entry[0] += time.thread_time() - began
                entry[1] += 1
                if part == MOVE and entry[1] % EVERY == 0:
                    write()
        return run

    for module_name, owner_name, name, part in PARTS:
        module = importlib.import_module(module_name)
        owner = module if owner_name is None else getattr(module, owner_name)
        if hasattr(owner, name):  # the public view as a dict, or as its text (the same part)
            setattr(owner, name, timed(getattr(owner, name), part))


def main() -> int:
    install(os.environ["BENCH_WEB_PARTS"])
    from web.cli import main as serve

    return serve(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
