"""One simulated game, and a batch of them, from nothing but the run's settings.

Every game is decided by the run's seed, the player count and the game's number
(:func:`game_seed`), never by which process plays it or when, so a run gives the same
records whatever ``--jobs`` is, on a Ray cluster too. The bots' line-up turns one seat
further every game (:func:`lineup`), so each bot plays each seat equally often.

Standard library only (this runs in worker processes and on Ray nodes).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import rules
from sim.bots import Turn, make_bot
from sim.feel import kingmaker, of_game
from sim.search import position_values

MAX_TURNS = 100_000  # a safety net no game reaches: Satellites ends by S-62 at the latest


def adapter(game: str) -> Any:
    """The simulator adapter of ``game``: the ``SIM`` of its ``sim`` adapter module (by
    convention ``sim.<game>``, imported on first use)."""
    return rules.adapter(game, "sim").SIM


@dataclass(frozen=True)
class Setup:
    """What decides a run's games: the game, its ruleset, the bots, their budget, the seed;
    ``think``: the search bots' time budget per decision (None: iterations only; with one
    the games depend on the machine's speed); ``feel``: record each game's feel
    (:mod:`sim.feel`), which the bots' evaluation of every position costs."""

    game: str
    ruleset: Any
    bots: tuple[str, ...]
    budget: int
    seed: int
    think: float | None = None
    feel: bool = False


def game_seed(seed: int, players: int, index: int) -> int:
    """The seed of game ``index`` of the ``players``-player games of a run seeded ``seed``
    (63 bits of a SHA-256, the same on every machine and Python)."""
    digest = hashlib.sha256(f"pnp-sim:{seed}:{players}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


def lineup(bots: tuple[str, ...], players: int, index: int) -> tuple[str, ...]:
    """The bot in each seat of game ``index``: the list of bots, turned ``index`` seats."""
    return tuple(bots[(seat + index) % len(bots)] for seat in range(players))


def play(setup: Setup, players: int, index: int, fast: bool = True) -> dict[str, Any]:
    """Play one game and return its record (plain data; one JSON line of the results).
    ``fast=False`` never takes an adapter's loop for random bots (the tests compare)."""
    sim = adapter(setup.game)
    game = sim.game
    seed = game_seed(setup.seed, players, index)
    names = lineup(setup.bots, players, index)
    bots = [make_bot(name, setup.budget, setup.think) for name in names]
    rngs = [random.Random(seed * 8 + seat + 1) for seat in range(players)]
    state = sim.new_game(setup.ruleset, players, seed)
    public = sim.public(state)
    kinds = [0] * len(sim.kinds)
    tally = sim.tally()
    turns = 0
    trace: list[Sequence[float]] = []
    counts: list[int] = []
    kingmaking: bool | None = None
    if setup.feel and players >= 3 and hasattr(sim, "outcomes"):
        kingmaking = False
    if fast and not setup.feel and all(name == "random" for name in names) \
            and hasattr(sim, "random_loop"):
        # every seat random: the adapter's own loop does exactly what the one below does
        # (the same draws from the same generators), without a turn object per move
        state, turns = sim.random_loop(state, rngs, kinds, tally, MAX_TURNS)
    while not sim.decided(state) and turns < MAX_TURNS:
        seat = game.current_player(state)
        turn = Turn(seat, game.view_for(state, seat), sim.legal(state), public, sim)
        if setup.feel:
            counts.append(len(turn.legal))
            if kingmaking is False and sim.late(state):
                kingmaking = kingmaker(seat, sim.outcomes(state))
        action = bots[seat].choose(turn, rngs[seat])
        if sim.may_end(action) and game.is_over(state):
            break  # nobody could move: over, though ``decided`` does not know it yet
        kinds[sim.kind(state, action)] += 1
        sim.count(tally, state, action)
        state = game.apply(state, action)
        turns += 1
        if setup.feel:
            trace.append(tuple(position_values(sim, state)))
    outcome = game.result(state)
    record: dict[str, Any] = {
        "players": players,
        "game": index,
        "seed": seed,
        "bots": list(names),
        "winners": list(outcome.winners),
        "scores": list(outcome.scores),
        "turns": turns,
        "actions": kinds,
    }
    record.update(sim.record(state, tally, turns >= MAX_TURNS))
    if setup.feel:
        record["feel"] = of_game(trace, counts, outcome.winners, kingmaking)
    return record


def play_many(setup: Setup, games: Iterable[tuple[int, int]]) -> list[dict[str, Any]]:
    """Records of the games given as ``(players, index)``, in that order."""
    return [play(setup, players, index) for players, index in games]
