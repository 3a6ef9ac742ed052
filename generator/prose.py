"""Prose that follows the definitions: what a hand-written sentence of a text relies on.

Every number a booklet or an aid states is a ``{value}`` filled from the ruleset
(:mod:`generator.aids`). A few sentences state a *consequence* of the numbers that no
value can carry: that the colony diagram's four satellites make a colony, that the last
row of the planet table covers every larger group. Such a sentence carries a fact marker,
``{?name}``, in every language; the marker prints nothing, and the build checks the fact
against the definitions it builds from. When a designer's change makes a fact untrue, the
build says which sentence, in which file and language, what it assumes and what the
definitions say instead (:func:`check`), so the sentence is rewritten, not left wrong.

The facts of each game are listed here (:data:`FACTS`); a marker naming no fact is a
mistake in the text, reported with its line like any other.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

FACT_RE = re.compile(r"\s?\{\?([A-Za-z_][A-Za-z0-9_]*)\}")


@dataclass(frozen=True)
class Fact:
    """What some sentences assume of the definitions, and whether they still do."""

    rule: str  # the rule the sentences state (O-55, S-27, ...)
    assumes: str  # in words, for the message
    test: Callable[[Any], str | None]  # the definitions -> None, or what they say instead


# --- Orbitus --------------------------------------------------------------------------------


def _planet_top_open(defs: Any) -> str | None:
    bands = sorted(defs.ruleset.scoring.planet_groups, key=lambda b: b.min)
    top = bands[-1]
    if top.max is None:
        return None
    return (f"the last row of scoring.planet_groups is {top.label} (it has an upper bound), "
            f"so a group of {top.max + 1} or more scores 0 (rule O-62)")


# --- Satellites -----------------------------------------------------------------------------


def _values(defs: Any) -> set[int]:
    return set(defs.ruleset.values)


def _colony_diagram(defs: Any) -> str | None:
    rules = defs.ruleset
    problems = []
    if not rules.colony_min <= 4 <= rules.colony_max:
        problems.append(f"a colony is {rules.colony_min} to {rules.colony_max} satellites, "
                        "so the diagram's four are no colony")
    if rules.colony_min <= 2:
        problems.append(f"colony_min is {rules.colony_min}, so the diagram's pair is a colony")
    if not {1, 2, 3, 4} <= _values(defs):
        problems.append(f"the satellites' values are {sorted(_values(defs))}, not 1 to 4")
    return "; ".join(problems) or None


def _displacement_example(defs: Any) -> str | None:
    rules = defs.ruleset
    problems = []
    if not rules.colony_min <= 3 <= rules.colony_max:
        problems.append(f"a colony is {rules.colony_min} to {rules.colony_max} satellites, "
                        "so R3, B2, R2 make none")
    if rules.push_reach < 2:
        problems.append(f"push_reach is {rules.push_reach}, so B1 cannot be pushed two cells")
    if not {1, 2, 3} <= _values(defs):
        problems.append(f"the satellites' values are {sorted(_values(defs))}")
    if rules.size < 7:
        problems.append(f"the board is {rules.size} x {rules.size}, too small for d7")
    return "; ".join(problems) or None


FACTS: Mapping[str, Mapping[str, Fact]] = {
    "orbitus": {
        "planet_top_open": Fact(
            "O-55", "the last row of the planet table covers every larger group",
            _planet_top_open),
    },
    "satellites": {
        "colony_diagram": Fact(
            "S-27", "the colony diagram's four satellites are a colony, its two a pair, and "
                    "values 1 to 4 exist", _colony_diagram),
        "displacement_example": Fact(
            "S-33", "R3, B2 and R2 make a colony, B1 can be pushed two cells, and the board "
                    "reaches d7", _displacement_example),
    },
}


def facts_in(line: str) -> list[str]:
    """The fact names marked on one line of a text."""
    return FACT_RE.findall(line)


def strip(line: str) -> str:
    """A line without its fact markers (what prints)."""
    return FACT_RE.sub("", line)


def unknown(game: str, names: list[str]) -> list[str]:
    return [n for n in names if n not in FACTS.get(game, {})]


def check(game: str, defs: Any, source: str, lang: str,
          marked: list[tuple[int, str, str]]) -> list[str]:
    """One message per marked sentence whose fact the definitions no longer hold:
    ``marked`` is (line, fact name, the sentence as printed) of one text."""
    out: list[str] = []
    verdicts: dict[str, str | None] = {}
    for lineno, name, sentence in marked:
        fact = FACTS[game][name]
        if name not in verdicts:
            verdicts[name] = fact.test(defs)
        says = verdicts[name]
        if says is None:
            continue
        quoted = sentence if len(sentence) <= 90 else sentence[:87].rstrip() + "…"
        out.append(f"{source}:{lineno} ({lang}): «{quoted}» assumes {fact.assumes} "
                   f"(rule {fact.rule}), but {says}; rewrite the sentence for these "
                   f"definitions")
    return out
