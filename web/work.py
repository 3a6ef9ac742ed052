"""Work that takes a core for a while, done away from the server's event loop.

The event loop answers every page of every game; a picture of a big table (a PNG of 72
sectors takes seconds), the score of a 2,000-sector table or a searching bot would stop
all of them for as long as it runs. Such work goes to :class:`Workers`: a pool of worker
processes (``pnp web --workers N``), started on first use with the ``spawn`` method and a
lower priority (``nice`` 10) than the server, so the people's moves are answered first
even when every core is busy. Each worker loads the definitions the server was started
with once and keeps them.

Bots are the pool's too; at most ``N - 1`` bots think at once (all ``N`` with one worker),
so a picture never waits for every bot of the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import rules
from web.adapters import Desk, table_adapter
from web.errors import WebError

NICE = 10  # the workers' priority below the server's

_CARDS: Path | None = None
_DESKS: dict[str, Desk] = {}


def _start(cards: str | None, games: list[tuple[str, str, dict[str, str]]]) -> None:
    """A worker's first step: a lower priority, the games the server knows (one registered
    while it ran, by a test, say), the definitions folder."""
    global _CARDS
    with contextlib.suppress(OSError, AttributeError):
        os.nice(NICE)
    for name, module, adapters in games:
        if name not in rules.names():
            rules.register(name, module, adapters)
    _CARDS = Path(cards) if cards else None


def _desk(game: str) -> Desk:
    if game not in _DESKS:
        from cards.ruleset_cache import load_definitions, load_ruleset

        _DESKS[game] = Desk(game, load_ruleset(game, _CARDS),
                            lambda: load_definitions(game, _CARDS))
    return _DESKS[game]


def table_call(game: str, name: str, args: tuple[Any, ...]) -> Any:
    """``web.<game>_table.<name>(desk, *args)`` in a worker (a score, an import, an
    export)."""
    return getattr(table_adapter(game), name)(_desk(game), *args)


def bot_move(game: str, state: Any, seat: int, kind: str, key: str, budget: int) -> Any:
    """The action the bot ``kind`` chooses for ``seat`` (its random generator seeded by
    ``key``: the game's seed, the ply and the seat, so a game replays the same)."""
    from sim.bots import Turn, make_bot
    from sim.play import adapter as sim_adapter

    sim = sim_adapter(game)
    turn = Turn(seat, sim.game.view_for(state, seat), sim.legal(state), sim.public(state), sim)
    return make_bot(kind, budget).choose(turn, random.Random(key))


def ready() -> int:
    """Nothing: a task that makes a worker start (and says its process id)."""
    return os.getpid()


class Workers:
    """The server's pool of worker processes (see the module docstring)."""

    def __init__(self, cards: Path | None, processes: int = 2) -> None:
        if processes < 1:
            raise ValueError("at least one worker process")
        self.cards = cards
        self.processes = processes
        self.bots = asyncio.Semaphore(max(1, processes - 1))
        self._pool: ProcessPoolExecutor | None = None

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            games = [(e.name, e.module, dict(e.adapters))
                     for e in (rules.entry(n) for n in rules.names())]
            self._pool = ProcessPoolExecutor(
                self.processes, mp_context=multiprocessing.get_context("spawn"),
                initializer=_start, initargs=(str(self.cards) if self.cards else None, games))
        return self._pool

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a worker; a pool whose process died is started again (503 for
        the task that was in it)."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.pool(), fn, *args)
        except BrokenProcessPool:
            self.close()
            raise WebError(503, "a worker process of the server stopped while it worked on "
                                "this (out of memory?); nothing was changed, try again") from None

    async def bot(self, game: str, state: Any, seat: int, kind: str, key: str,
                  budget: int) -> Any:
        """A bot's move, once a worker is free for bots."""
        async with self.bots:
            return await self.run(bot_move, game, state, seat, kind, key, budget)

    async def warm(self) -> None:
        """Start every worker now (the server's first picture then comes at once)."""
        await asyncio.gather(*(self.run(ready) for _ in range(self.processes)))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
