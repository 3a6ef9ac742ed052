"""Running a run's games: here, in a process pool, or as tasks on a Ray cluster, with the
records streamed to ``games.jsonl`` as the games finish and an interrupted run resumed.

The games of a run are the pairs ``(players, index)``; which of them are still to be
played (what ``games.jsonl`` does not hold yet: :mod:`sim.games_file`) is all a backend is
given, and each game's record depends on nothing but the pair
and the :class:`~sim.play.Setup`, so every backend gives the same records.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from sim.bots import SEARCHES
from sim.play import Setup, play_many

RUN_FILE = "run.json"
GAMES_FILE = "games.jsonl"
TOOL = "pnp-sim"
Game = tuple[int, int]  # (players, index)


def cores() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def chunked(todo: Sequence[Game], jobs: int, cap: int) -> list[list[Game]]:
    """The games cut into batches: small enough to spread over ``jobs`` workers and show
    progress, large enough that handing them out costs little."""
    size = max(1, min(cap, len(todo) // max(1, jobs * 16)))
    return [list(todo[k:k + size]) for k in range(0, len(todo), size)]


def batch_cap(bots: Sequence[str]) -> int:
    """The largest batch for these bots (a search bot's game takes seconds)."""
    return 1 if any(b.startswith(SEARCHES) for b in bots) else 100


# --- backends: each yields lists of records as they finish ----------------------------------------

def here(setup: Setup, batches: list[list[Game]]) -> Iterator[list[dict[str, Any]]]:
    for batch in batches:
        yield play_many(setup, batch)


_SETUP: Setup | None = None


def _worker_start(setup: Setup) -> None:
    global _SETUP
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle
    _SETUP = setup


def _worker_play(batch: list[Game]) -> list[dict[str, Any]]:
    assert _SETUP is not None
    return play_many(_SETUP, batch)


def pool(setup: Setup, batches: list[list[Game]],
         jobs: int) -> Iterator[list[dict[str, Any]]]:
    """A pool of ``jobs`` worker processes."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    workers = context.Pool(jobs, initializer=_worker_start, initargs=(setup,))
    try:
        yield from workers.imap_unordered(_worker_play, batches)
        workers.close()
    finally:
        workers.terminate()
        workers.join()


class RayMissing(Exception):
    """``--ray`` without Ray installed."""


class RayUnreachable(Exception):
    """No Ray cluster answers at the address given."""


class RayRefused(RayUnreachable):
    """A Ray cluster answers at the address but will not let this process in (with Ray's
    token authentication, a missing or wrong token: Ray itself only says it failed to
    connect, and logs ``InvalidAuthToken``)."""


TOKEN_HINT = ("if it uses token authentication (Ray's default from 2.61 on), give its "
              "token: RAY_AUTH_MODE=token and RAY_AUTH_TOKEN=THE-TOKEN (or "
              "RAY_AUTH_TOKEN_PATH=FILE) in the environment; 'ray get-auth-token' on the "
              "head node prints it")


def probe(address: str, timeout: float = 5.0) -> None:
    """Raise :class:`RayUnreachable` at once when nothing listens at a ``host:port``
    address (Ray itself would keep trying for minutes)."""
    import socket

    target = address.removeprefix("ray://")
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit():
        return  # "auto", "local" or a form Ray resolves itself
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        raise RayUnreachable(f"nothing answers at {target} ({exc.strerror or exc})") from None


def on_ray(setup: Setup, batches: list[list[Game]], address: str,
           jobs: int) -> Iterator[list[dict[str, Any]]]:
    """Tasks on a Ray cluster: ``address`` of a running cluster, ``auto`` (the one this
    machine belongs to) or ``local`` (start one here with ``jobs`` CPUs). A Ray session
    already started by the caller (``ray.init``) is used as it is."""
    try:
        import ray
    except ImportError:
        raise RayMissing() from None
    started = connect(address, jobs)
    try:
        task = ray.remote(play_many)
        shared = ray.put(setup)
        pending = [task.remote(shared, batch) for batch in batches]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()


def connect(address: str, jobs: int) -> bool:
    """Join the Ray cluster at ``address`` (or start one here for ``local``) unless this
    process is already in one; whether it joined now (and so should leave again:
    ``ray.shutdown()``). :class:`RayUnreachable` or :class:`RayRefused` when it cannot."""
    import ray

    started = False
    if not ray.is_initialized():
        if address == "local":
            ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False)
        else:
            import rules
            import sim

            probe(address)
            # the workers need only the standard library, rules/ and sim/: ship those two
            modules = [str(Path(rules.__file__).parent), str(Path(sim.__file__).parent)]
            try:
                ray.init(address=address, log_to_driver=False,
                         runtime_env={"py_modules": modules})
            except (ConnectionError, RuntimeError, ValueError) as exc:
                first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                if type(exc).__name__ == "AuthenticationError" or (
                        isinstance(exc, ConnectionError) and ":" in address):
                    # something answered at host:port (probe), yet Ray could not connect
                    raise RayRefused(f"{first}; the cluster answers but refused the "
                                     f"connection: {TOKEN_HINT}") from None
                raise RayUnreachable(first) from None
        started = True
    return started


# --- the results folder ---------------------------------------------------------------------------


class Stream:
    """``games.jsonl``, appended one sealed line per game (:func:`sim.games_file.seal`) and
    flushed after every batch; ``resume``: appended to the file as it is (left clean by
    :func:`sim.games_file.rewrite`), else started anew."""

    def __init__(self, path: Path, resume: bool, key: str) -> None:
        self.path = path
        self.key = key
        self.handle: TextIO = path.open("a" if resume else "w", encoding="utf-8")

    def write(self, records: list[dict[str, Any]]) -> None:
        from sim.games_file import seal

        for record in records:
            self.handle.write(seal(record, self.key))
        self.handle.flush()

    def close(self) -> None:
        self.handle.close()


class Progress:
    """``done/total games, games/s, ETA`` on a terminal (stderr); silent in pipes."""

    def __init__(self, total: int, done: int = 0, stream: TextIO | None = None,
                 enabled: bool | None = None) -> None:
        self.stream = stream or sys.stderr
        if enabled is None:
            try:
                enabled = self.stream.isatty()
            except (AttributeError, ValueError):
                enabled = False
        self.enabled = enabled
        self.total = total
        self.done = done
        self.start_done = done
        self.started = time.perf_counter()
        self.shown = 0.0

    def update(self, n: int) -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.shown < 0.1 and self.done < self.total:
            return
        self.shown = now
        played = self.done - self.start_done
        rate = played / max(now - self.started, 1e-9)
        left = (self.total - self.done) / rate if rate > 0 else 0
        width = 24
        filled = int(width * self.done / self.total) if self.total else width
        bar = "#" * filled + "-" * (width - filled)
        self.stream.write(f"\r[{bar}] {self.done:,}/{self.total:,} games  "
                          f"{rate:,.0f} games/s  ETA {_clock(left)} ")
        self.stream.flush()

    def finish(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()

    @property
    def rate(self) -> float:
        played = self.done - self.start_done
        return played / max(time.perf_counter() - self.started, 1e-9)


def _clock(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
