"""What the bots predict for one ruleset and player count, in this process: the summary
block ``pnp sim`` reports for it (seat win rates with their 95 % intervals, scores, score
components, lengths), for the playtest report to set beside what people played."""

from __future__ import annotations

from typing import Any

from sim.command import searches
from sim.play import Setup, adapter, play_many
from sim.summary import Summary


def predict(game: str, ruleset: Any, players: int, games: int, bots: tuple[str, ...],
            seed: int = 1, budget: int = 64) -> dict[str, Any]:
    """The ``by_players`` block of a ``pnp sim`` report of ``games`` games."""
    sim = adapter(game)
    header = {
        "game": game, "players": [players], "games": games, "bots": list(bots),
        "budget": budget if searches(bots) else None, "seed": seed,
        "first_seat": sim.first_seat(ruleset), "kinds": list(sim.kinds),
        "_order": list(sim.components(ruleset)), "_labels": sim.components(ruleset),
    }
    summary = Summary(header)
    setup = Setup(game, ruleset, bots, budget, seed)
    for record in play_many(setup, [(players, i) for i in range(games)]):
        summary.add(record)
    block: dict[str, Any] = summary.to_json()["by_players"][0]
    return block


def central(histogram: dict[str, int], share: float = 0.95) -> tuple[int, int]:
    """The range holding the central ``share`` of a histogram's values (2.5 % to 97.5 %)."""
    values = sorted((int(v), n) for v, n in histogram.items())
    total = sum(n for _, n in values)
    low_need, high_need = total * (1 - share) / 2, total * (1 + share) / 2
    seen = 0
    low = high = values[0][0] if values else 0
    found_low = False
    for value, n in values:
        seen += n
        if not found_low and seen > low_need:
            low, found_low = value, True
        if seen >= high_need:
            high = value
            break
    return low, high
