"""Scoring a transcribed Satellites board: the rules core's breakdown
(:func:`rules.satellites.score.score`, S-43 to S-55) for a :class:`Board`, with the
reader's board-level problems kept first.

Every item of the result says where on the board it came from (cells), so the
terminal summary, the JSON and the picture are all renderings of one :class:`Score`.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.satellites.analysis import Group, masks
from rules.satellites.ruleset import Ruleset
from rules.satellites.score import Cell, End, Finding, Standing
from rules.satellites.score import score as core_score
from rules.satellites.table import parse_cell, table
from scorer.satellites.board import Board, Satellite, default_ruleset
from scorer.violation import Violation

__all__ = ["Cell", "End", "Group", "Score", "score"]


@dataclass(frozen=True)
class Score:
    board: Board
    ruleset: Ruleset
    satellites: dict[Cell, Satellite]
    connected_cells: frozenset[Cell]
    links: tuple[tuple[Cell, Cell], ...]  # every connection, in reading order
    groups: tuple[Group, ...]
    connected: dict[str, int]  # connected satellites per colour
    colonies: dict[str, int]  # colonies controlled per colour
    lowest: dict[str, int | None]  # lowest total of a colony each colour controls
    lowest_label: dict[str, str | None]
    winner: str | None
    tiebreak: bool  # the colony counts were equal, so the tie-break was needed
    decision: str  # one sentence: how the winner (or the draw) was decided
    end: End
    violations: tuple[Violation, ...]
    # for each violation, every cell it concerns (the violation names the first one)
    violation_cells: tuple[tuple[Cell, ...], ...]

    @property
    def valid(self) -> bool:
        return not self.violations

    @property
    def standing(self) -> Standing:
        """Who controls how many colonies and the decision, as the rules core words them."""
        return Standing(self.colonies, self.lowest, self.lowest_label, self.winner,
                        self.tiebreak, self.decision)

    @property
    def group_of(self) -> dict[Cell, Group]:
        return {cell: g for g in self.groups for cell in g.cells}


def score(board: Board, grace_moves_left: int | None = None,
          problems: tuple[Violation, ...] = (), ruleset: Ruleset | None = None) -> Score:
    """Score ``board``; ``problems`` are the reader's board-level violations, kept first.
    ``ruleset``: the rule numbers (default: the shipped definitions')."""
    rules = ruleset or default_ruleset()
    red, blue, vals = masks(board.cells())
    found = core_score(table(board.height, board.width), red, blue, vals, rules,
                       grace_moves_left)
    standing = found.standing
    violations = [*((v, _named_cell(v)) for v in problems),
                  *((violation(f), f.cells) for f in found.findings)]
    return Score(
        board=board,
        ruleset=rules,
        satellites={(r, c): s for r, c, s in board.satellites()},
        connected_cells=found.connected_cells,
        links=found.links,
        groups=found.groups,
        connected=found.connected,
        colonies=standing.colonies,
        lowest=standing.lowest,
        lowest_label=standing.lowest_label,
        winner=standing.winner,
        tiebreak=standing.tiebreak,
        decision=standing.decision,
        end=found.end,
        violations=tuple(v for v, _ in violations),
        violation_cells=tuple(cells for _, cells in violations),
    )


def violation(finding: Finding) -> Violation:
    """A rule the board breaks, as the scorer reports it."""
    return Violation(finding.rule, finding.cell, finding.message)


def _named_cell(v: Violation) -> tuple[Cell, ...]:
    cell = parse_cell(v.cell) if isinstance(v.cell, str) else None
    return () if cell is None else (cell,)
