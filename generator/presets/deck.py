"""What each game's deck holds, by component: every front face's name and its copies,
worked out from the definitions alone (no drawing), so the pieces a preset prints
(:mod:`generator.presets.pieces`) and the preflight that counts them agree by
construction."""

from __future__ import annotations

from typing import Any


def orbitus_faces(defs: Any) -> dict[str, list[tuple[str, int]]]:
    need, barriers = defs.ruleset.marker_counts()
    return {
        "orbitus.sector": [(f"sector-{s.id}", s.count) for s in defs.sectors.sectors],
        "orbitus.station": [("station", 1)],
        "orbitus.start_marker": [(f"start-marker-P{seat + 1}", n)
                                 for seat, n in enumerate(need) if n],
        "orbitus.barrier_marker": [("barrier-marker", barriers)],
    }


def satellites_faces(defs: Any) -> dict[str, list[tuple[str, int]]]:
    counts: dict[str, int] = {}
    for e in defs.satellites.satellites:
        name = f"satellite-{e.colour}-{e.value}"
        counts[name] = counts.get(name, 0) + e.count
    return {
        "satellites.satellite": list(counts.items()),
        "satellites.track_marker": [("track-marker-connected", 1), ("track-marker-grace", 1)],
        "satellites.board": [("board", 1)],
    }


def faces(game: str, defs: Any) -> dict[str, list[tuple[str, int]]]:
    return orbitus_faces(defs) if game == "orbitus" else satellites_faces(defs)


def load(game: str, cards: Any = None) -> Any:
    """The game's definitions (the loader only: no printables imported)."""
    from cards.definitions import load_orbitus, load_satellites

    return load_orbitus(cards) if game == "orbitus" else load_satellites(cards)
