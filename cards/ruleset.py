"""Validated definitions -> the rules core's ``Ruleset``.

There is one way from YAML to a ruleset: :func:`cards.definitions.load_orbitus` /
:func:`~cards.definitions.load_satellites` read and validate every file through the
pydantic models, and :func:`orbitus_ruleset` / :func:`satellites_ruleset` turn the
validated models into the plain dataclasses of :mod:`rules`. The cache that spares a
scorer the validation is :mod:`cards.ruleset_cache`; which ruleset class each game has, and
which file gives which of its parts, is the game's ``cards`` adapter's
(:mod:`cards.orbitus`, :mod:`cards.satellites`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.hexgeo import SIDE_INDEX
from rules.orbitus import ruleset as orb
from rules.satellites import ruleset as sat

if TYPE_CHECKING:
    from cards.definitions import OrbitusDefinitions, SatellitesDefinitions
    from cards.models import ScoreBand



# --- models -> ruleset --------------------------------------------------------------------


def _bands(items: list[ScoreBand]) -> tuple[orb.Band, ...]:
    return tuple(orb.Band(b.min, b.max, b.points) for b in items)


def orbitus_ruleset(defs: OrbitusDefinitions) -> orb.Ruleset:
    """The rules core's Orbitus ruleset of validated definitions."""
    rules = defs.rules
    return orb.Ruleset(
        planet_types=tuple(p.id for p in defs.planets.planet_types),
        deck=tuple(orb.Card(s.id, orb.mask_of(s.route_sides), s.planet, s.pirate, s.count)
                   for s in defs.sectors.sectors),
        hand_size=rules.hand_size,
        min_hand=rules.min_hand,
        start_lines=tuple(
            orb.StartLines(s.players,
                           tuple(tuple(SIDE_INDEX[x] for x in lines) for lines in s.start_lines),
                           tuple(SIDE_INDEX[x] for x in s.barriers))
            for s in sorted(rules.start_lines, key=lambda s: s.players)),
        scoring=orb.Scoring(_bands(rules.scoring.planet_groups), rules.scoring.pirate,
                            rules.scoring.open_route, _bands(rules.scoring.closed_blocks)),
    )


def satellites_ruleset(defs: SatellitesDefinitions) -> sat.Ruleset:
    """The rules core's Satellites ruleset of validated definitions."""
    board, numbers = defs.board, defs.rules

    def colour(name: str) -> sat.Colour:
        player = board.red if name == sat.RED else board.blue
        values = sorted(e.value for e in defs.satellites.satellites if e.colour == name
                        for _ in range(e.count))
        return sat.Colour(name, tuple(player.edges), tuple(values))

    return sat.Ruleset(
        size=board.size,
        setup_zone_cells=board.setup_zone_cells,
        inward_values=tuple(board.inward_values),
        red=colour(sat.RED),
        blue=colour(sat.BLUE),
        colony_min=numbers.colony_min,
        colony_max=numbers.colony_max,
        end_connected=numbers.end_connected,
        grace_moves=numbers.grace_moves,
        first=numbers.first,
        push_reach=numbers.push_reach,
        stall_moves=numbers.stall_moves,
    )
