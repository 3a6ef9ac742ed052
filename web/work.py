"""Work that takes a core for a while, done away from the server's event loop.

The event loop answers every page of every game; a picture of a big table (a PNG of 72
sectors takes seconds), the score of a 2,000-sector table or a searching bot would stop
all of them for as long as it runs. Such work goes to :class:`Workers`: a pool of worker
processes (``pnp web --workers N``), started on first use with the ``spawn`` method and a
lower priority (``nice`` 10) than the server, so the people's moves are answered first
even when every core is busy. Each worker loads the definitions the server was started
with once and keeps them.

The workers are split in two pools, so neither kind of work waits for the other: half of
them (at least one) for the pictures and scores, the rest for the bots (one worker alone
does both).
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
from pnp.common import leave_with_parent
from web.adapters import Desk, table_adapter
from web.errors import WebError

NICE = 10  # the workers' priority below the server's

_CARDS: Path | None = None
_DESKS: dict[str, Desk] = {}


def _start(cards: str | None, games: list[tuple[str, str, dict[str, str]]]) -> None:
    """A worker's first step: a lower priority, the games the server knows (one registered
    while it ran, by a test, say), the definitions folder."""
    global _CARDS
    leave_with_parent()  # a server killed outright leaves no worker behind
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


def table_json(game: str, name: str, args: tuple[Any, ...]) -> bytes:
    """:func:`table_call` as the JSON bytes of the answer (a big table's score is a large
    text: encoded here, not in the event loop)."""
    import json

    return json.dumps(table_call(game, name, args), separators=(",", ":")).encode("utf-8")


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
    """The server's worker processes (see the module docstring)."""

    def __init__(self, cards: Path | None, processes: int = 2) -> None:
        if processes < 1:
            raise ValueError("at least one worker process")
        self.cards = cards
        self.processes = processes
        self.sizes = {"tables": max(1, processes // 2), "bots": max(1, processes - processes // 2)}
        self._pools: dict[str, ProcessPoolExecutor] = {}

    def pool(self, kind: str = "tables") -> ProcessPoolExecutor:
        """The pool of ``kind`` (``tables`` or ``bots``; with one worker, one pool)."""
        if self.processes == 1:
            kind = "tables"
        if kind not in self._pools:
            games = [(e.name, e.module, dict(e.adapters))
                     for e in (rules.entry(n) for n in rules.names())]
            self._pools[kind] = ProcessPoolExecutor(
                self.sizes[kind], mp_context=multiprocessing.get_context("spawn"),
                initializer=_start, initargs=(str(self.cards) if self.cards else None, games))
        return self._pools[kind]

    @property
    def started(self) -> bool:
        return bool(self._pools)

    async def run(self, fn: Callable[..., Any], *args: Any, kind: str = "tables") -> Any:
        """``fn(*args)`` in a worker; a pool whose process died is started again (503 for
        the task that was in it)."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.pool(kind), fn, *args)
        except BrokenProcessPool:
            self.close()
            raise WebError(503, "a worker process of the server stopped while it worked on "
                                "this (out of memory?); nothing was changed, try again") from None

    async def bot(self, game: str, state: Any, seat: int, kind: str, key: str,
                  budget: int) -> Any:
        """A bot's move, chosen in the bots' pool."""
        return await self.run(bot_move, game, state, seat, kind, key, budget, kind="bots")

    async def warm(self) -> None:
        """Start every worker now (the server's first picture then comes at once)."""
        jobs = [self.run(ready, kind=kind) for kind, size in self.sizes.items()
                for _ in range(size)]
        await asyncio.gather(*jobs)

    def close(self) -> None:
        for pool in self._pools.values():
            pool.shutdown(wait=False, cancel_futures=True)
        self._pools = {}
