"""Rulesets changed in one number, for the comparisons of tests and benchmarks (what a
designer would do by editing a copy of ``cards/``)."""

from __future__ import annotations

import dataclasses

from rules.orbitus.ruleset import Band, Ruleset


def planet_row(ruleset: Ruleset, size: int, change: int) -> Ruleset:
    """``ruleset`` with the points of a planet group of exactly ``size`` moved by
    ``change`` (the row of that size in ``scoring.planet_groups``)."""
    scoring = ruleset.scoring
    rows = tuple(Band(b.min, b.max, b.points + change) if (b.min, b.max) == (size, size)
                 else b for b in scoring.planet_groups)
    if rows == scoring.planet_groups:
        raise ValueError(f"the scoring has no row for exactly {size} planets")
    return dataclasses.replace(ruleset, scoring=dataclasses.replace(scoring,
                                                                     planet_groups=rows))
