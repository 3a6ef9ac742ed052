"""Scoring a Satellites position: every group and colony, who wins and why, the end of
the game as the board shows it, and the rules the board breaks (S-43 to S-55).

:func:`score` is pure and returns a :class:`Breakdown`; ``pnp-score satellites``, the
replay and the pictures render it, :func:`score_state` is the same for an engine state
(the browser's live score), and the engine's :func:`standing` is the same decision.
:data:`WINNING` lists the winning criteria (S-46 to S-48) in order: the score pad has a
row for each; :func:`decide` applies them and words the decision the way the scorer
reports it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.satellites.analysis import (
    END_CONNECTED,
    END_GRACE,
    Group,
    connected,
    connected_reason,
    end_after,
    finished_colours,
    groups,
    links,
    ordinal,
    per_player,
    plural,
)
from rules.satellites.ruleset import BLUE, COLOURS, RED, Ruleset
from rules.satellites.table import Table

if TYPE_CHECKING:
    from rules.satellites.engine import State

Cell = tuple[int, int]  # (row, column), 0-based; row 0 is the north edge


# --- how a game is won (S-46, S-47, S-48) -------------------------------------------------------


@dataclass(frozen=True)
class Criterion:
    """One step of deciding the winner, in order: ``key`` names it for the printables (the
    score pad has a row per criterion, its words in each language's labels file,
    ``cards/satellites/text/labels-<lang>.yaml``: ``pad.<key>`` and ``pad.<key>_rule``);
    ``rule`` is the rule it applies."""

    key: str
    rule: str


WINNING: tuple[Criterion, ...] = (
    Criterion("colonies", "S-46: more colonies controlled wins"),
    Criterion("lowest", "S-47: on equal counts, the lowest controlled colony wins"),
    Criterion("winner", "S-48: equal again, or no colony controlled: a draw"),
)


def end_rule(ruleset: Ruleset) -> str:
    """When the game ends (S-37, S-39), as the scorer says it of a game that goes on."""
    return (f"it ends at {ruleset.end_connected}, or "
            f"{plural(ruleset.grace_moves, 'move')} after a player has all "
            f"{per_player(ruleset)} connected")


def end_numbers(ruleset: Ruleset) -> dict[str, str]:
    """The numbers a printed reminder of the end (S-37, S-39) states: ``end`` (connected
    satellites), ``grace`` (grace moves), ``count`` (each player's satellites)."""
    return {"end": str(ruleset.end_connected), "grace": str(ruleset.grace_moves),
            "count": per_player(ruleset)}


@dataclass(frozen=True)
class Standing:
    """Who controls how many colonies, the tie-break's lowest totals, and the decision."""

    colonies: dict[str, int]  # colonies controlled per colour
    lowest: dict[str, int | None]  # lowest total of a colony each colour controls
    lowest_label: dict[str, str | None]
    winner: str | None
    tiebreak: bool  # the colony counts were equal, so the tie-break was needed (S-50)
    decision: str  # one sentence: how the winner (or the draw) was decided


def standing(found: Sequence[Group]) -> Standing:
    """The winner of the position's groups if the game ended now (S-46 to S-48)."""
    colonies = {colour: 0 for colour in COLOURS}
    lowest: dict[str, int | None] = {colour: None for colour in COLOURS}
    label: dict[str, str | None] = {colour: None for colour in COLOURS}
    for g in found:
        owner = g.controller
        if owner is None:
            continue
        colonies[owner] += 1
        best = lowest[owner]
        if best is None or g.total < best:
            lowest[owner] = g.total
            label[owner] = g.label
    winner, tiebreak, decision = decide(colonies, lowest, label)
    return Standing(colonies, lowest, label, winner, tiebreak, decision)


def decide(colonies: dict[str, int], lowest: dict[str, int | None],
           label: dict[str, str | None]) -> tuple[str | None, bool, str]:
    """``(winner, tiebreak, sentence)`` by :data:`WINNING`."""
    red, blue = colonies[RED], colonies[BLUE]
    if red != blue:
        winner, loser = (RED, BLUE) if red > blue else (BLUE, RED)
        return (winner, False,
                f"{winner} controls more colonies, {colonies[winner]} to {colonies[loser]}")
    if red == 0:
        return None, True, "neither player controls a colony, so the game is a draw"
    lr, lb = lowest[RED], lowest[BLUE]
    assert lr is not None and lb is not None  # both control at least one colony
    each = f"{red} {'colony' if red == 1 else 'colonies'} each"
    if lr == lb:
        return (None, True,
                f"{each}, and the lowest-valued colonies they control have the same total, "
                f"{lr} ({label[RED]} for red, {label[BLUE]} for blue), so the game is a draw")
    winner, loser = (RED, BLUE) if lr < lb else (BLUE, RED)
    return (winner, True,
            f"{each}; {winner} controls the lowest-valued colony, {label[winner]} with a total "
            f"of {lowest[winner]} ({loser}'s lowest: {label[loser]} with {lowest[loser]})")


# --- the end as a board shows it (S-51, S-55) ---------------------------------------------------


@dataclass(frozen=True)
class End:
    """The end-of-game state the board shows.

    ``over`` is ``None`` when it cannot be told from the board: a player has all their
    satellites connected but the input does not say how many grace moves are left.
    """

    connected: int  # both colours together
    over: bool | None
    reason: str | None  # "23-connected" (the end count), "grace-moves-used" or None
    finished: tuple[str, ...]  # colours with all their satellites connected
    grace_player: str | None  # who makes the grace moves, while they matter
    grace_moves_left: int | None
    message: str


def end_state(ruleset: Ruleset, red_connected: int, blue_connected: int,
              grace: int | None) -> End:
    """The end as the board shows it (S-51): ``grace`` is the input's ``grace_moves_left``
    (``None``: not given). The end itself is :func:`~rules.satellites.analysis.end_after`'s."""
    total = red_connected + blue_connected
    ending = end_after(ruleset, red_connected, blue_connected, grace=grace)
    finished = finished_colours(ruleset, red_connected, blue_connected)
    grace_moves = ruleset.grace_moves
    if ending.ended == END_CONNECTED:
        return End(total, True, connected_reason(ruleset), finished, None, grace,
                   f"game over: {total} satellites are connected (the game ends at once at "
                   f"{ruleset.end_connected})")
    if ending.finished is None:
        return End(total, False, None, (), None, grace,
                   f"the game goes on: {total} satellites connected; {end_rule(ruleset)}")
    done, other = COLOURS[ending.finished], COLOURS[1 - ending.finished]
    head = f"{done} has all {ruleset.colour(done).count} satellites connected and is done"
    if grace is None:
        return End(total, None, None, finished, other, None,
                   f"{head}; {other} makes {plural(grace_moves, 'grace move')}, then the "
                   f"game ends (grace_moves_left is not given, so whether they are used up "
                   f"is not known)")
    if ending.ended == END_GRACE:
        return End(total, True, END_GRACE, finished, other, grace,
                   f"game over: {head}, and {other} has made all "
                   f"{plural(grace_moves, 'grace move')}")
    return End(total, False, None, finished, other, grace,
               f"{head}; {other} has {plural(grace, 'grace move')} left")


# --- what breaks a rule (S-54) ------------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    """One rule the board breaks: its code, the cell it names (``None``: the board), a
    sentence, and every cell it concerns."""

    rule: str
    cell: str | None
    message: str
    cells: tuple[Cell, ...]


def _list_cells(tb: Table, cells: Sequence[int]) -> str:
    return tb.list_names(list(cells), limit=8)


def _count_findings(tb: Table, red: int, blue: int, vals: Sequence[int],
                    ruleset: Ruleset) -> list[Finding]:
    out: list[Finding] = []
    same = len({ruleset.colour(c).copies(v) for c in COLOURS for v in ruleset.values}) == 1
    for colour, mask in ((RED, red), (BLUE, blue)):
        have = ruleset.colour(colour)
        for value in range(1, len(vals)):
            cells = tb.cells_of(mask & vals[value])
            copies = have.copies(value)
            if len(cells) > copies:
                only = (f"each player has only {copies} of every value" if same
                        else f"{colour} has only {copies} of value {value}")
                out.append(Finding(
                    "too-many-of-value", tb.names[cells[copies]],
                    f"{len(cells)} {colour} satellites of value {value} "
                    f"({_list_cells(tb, cells)}); {only}",
                    tuple(tb.rc(i) for i in cells)))
        mine = tb.cells_of(mask)
        count = have.count
        if len(mine) > count:
            extra = tb.names[mine[count]]
            only = (f"each player has only {count}" if ruleset.red.count == ruleset.blue.count
                    else f"{colour} has only {count}")
            out.append(Finding(
                "too-many-of-colour", extra,
                f"{len(mine)} {colour} satellites on the board; {only} (the one at {extra} is "
                f"the {ordinal(count + 1)} in reading order)",
                tuple(tb.rc(i) for i in mine[count:])))
    return out


def _adjacency_findings(tb: Table, red: int, conn: int) -> list[Finding]:
    """Connected neighbours of one colour (S-24), each pair once, by its first cell."""
    out: list[Finding] = []
    for cell in tb.cells_of(conn):
        r, c = tb.rc(cell)
        colour = RED if red >> cell & 1 else BLUE
        for other in ((cell + 1) if c + 1 < tb.cols else -1,
                      (cell + tb.cols) if r + 1 < tb.rows else -1):
            if other >= 0 and conn >> other & 1 and (red >> other & 1) == (red >> cell & 1):
                a, b = tb.names[cell], tb.names[other]
                out.append(Finding(
                    "same-colour-adjacent", a,
                    f"{a} and {b} are both connected {colour} satellites and touch "
                    f"orthogonally; two connected satellites of one colour may never be "
                    f"adjacent", (tb.rc(cell), tb.rc(other))))
    return out


def _group_findings(found: Sequence[Group], ruleset: Ruleset) -> list[Finding]:
    """Groups over the largest colony (S-28; a merge of colonies always shows as one)."""
    most = ruleset.colony_max
    return [Finding("group-too-large", g.names[0],
                    f"group {g.label} ({', '.join(g.names[:8])}"
                    f"{f' and {g.size - 8} more' if g.size > 8 else ''}) has {g.size} "
                    f"satellites; a group may hold at most {most} (colonies never merge or grow "
                    f"past {most})", g.cells)
            for g in found if g.size > most]


def _grace_findings(ruleset: Ruleset, end: End, grace: int | None) -> list[Finding]:
    if grace is None or end.finished:
        return []
    n = per_player(ruleset)
    return [Finding(
        "grace-moves", None,
        f"grace_moves_left is {grace}, but no player has all {n} satellites connected, so "
        f"there are no grace moves yet; leave grace_moves_left out until a player has all "
        f"{n} connected", ())]


# --- the whole breakdown ------------------------------------------------------------------------


@dataclass(frozen=True)
class Breakdown:
    """Everything the scorer reports about one position."""

    connected_cells: frozenset[Cell]
    links: tuple[tuple[Cell, Cell], ...]  # every connection, in reading order
    groups: tuple[Group, ...]
    connected: dict[str, int]  # connected satellites per colour
    standing: Standing
    end: End
    findings: tuple[Finding, ...]


def score(tb: Table, red: int, blue: int, vals: Sequence[int], ruleset: Ruleset,
          grace_moves_left: int | None = None, conn: int | None = None,
          group_masks: Sequence[int] | None = None) -> Breakdown:
    """Score a position (any board size); ``grace_moves_left`` as the input gives it.
    ``conn`` and ``group_masks``: the connected satellites and the mask of every group, if
    they are known already (an engine state keeps them); by default they are worked out."""
    if conn is None:
        conn = connected(tb, red, blue)
    found = groups(tb, red, blue, vals, ruleset, conn, group_masks)
    counts = {RED: (conn & red).bit_count(), BLUE: (conn & blue).bit_count()}
    end = end_state(ruleset, counts[RED], counts[BLUE], grace_moves_left)
    findings = [
        *_count_findings(tb, red, blue, vals, ruleset),
        *_adjacency_findings(tb, red, conn),
        *_group_findings(found, ruleset),
        *_grace_findings(ruleset, end, grace_moves_left),
    ]
    return Breakdown(
        connected_cells=frozenset(tb.rc(i) for i in tb.cells_of(conn)),
        links=tuple((tb.rc(a), tb.rc(b)) for a, b in links(tb, red, blue)),
        groups=found,
        connected=counts,
        standing=standing(found),
        end=end,
        findings=tuple(findings),
    )


def score_state(st: State) -> Breakdown:
    """The breakdown of an engine state, from the masks it keeps (its connections and groups,
    its grace moves): what :func:`score` says of the same board, without a board."""
    return score(st.table, st.red, st.blue, st.vals, st.ruleset, st.grace_moves_left, st.conn,
                 st.groups)
