"""What an Orbitus position is worth to a player who builds: the search bots' evaluation.

Greedy play values a position by the score as it stands, and in the default scoring every
first step of a system costs points (a lone planet -2, each open route -1) before a group
of three pays; so greedy players never build, and each removes at once whatever the other
puts into its system. This evaluation values a system's *future* instead:

* a planet group of ``k`` of one type is worth what it can still become: the best of
  ``points(k + j) - cost * j`` over the ``j`` more planets of that type still to come
  (those not yet on the table or out of the game), blended with ``points(k)`` as the game
  goes on: early on a lone planet is the start of a group, when the deck is empty it is
  the -2 it scores;
* an open route costs little early (it is where the system grows) and its full -1 late;
* pirates and closed blocks count as they score.

``progress`` is the share of the undealt deck still to draw (1 at the start, 0 once the
deck is empty), known to every seat. The values are turned into a
:class:`~sim.orbitus_changes.Values`, so the incremental
:class:`~sim.orbitus_changes.Changes` works out the change of a seat's value for every
legal action at once, as it does the change of its score for greedy.

A position's worth to a seat is its own value minus the best value among the others.
Standard library only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from rules.orbitus.actions import PLACE
from rules.orbitus.analysis import Analysis
from rules.orbitus.engine import Seating
from rules.orbitus.ruleset import Ruleset
from sim.orbitus_changes import Changes, Values, block_sizes, points

CARD_COST = 1.5  # what each further planet a group still needs costs (turns, risk)
EARLY_OPEN_ROUTE = -0.25  # an open route at the start of the game
UNDONE = 0.25  # how much of the harm a sector put into another's system does: they remove it
STEPS = 20  # the progress is rounded to 1/STEPS (the value tables are cached per step)


def progress(view: Any, match: Seating) -> float:
    """The share of the undealt deck still to draw, rounded to 1/:data:`STEPS`."""
    undealt = max(1, view.deck_size - match.n * match.ruleset.hand_size)
    return round(STEPS * min(1.0, view.deck_left / undealt)) / STEPS


def remaining(match: Seating, board: Any, out: Sequence[str]) -> tuple[tuple[str, int], ...]:
    """How many planets of each type are neither on the table nor out of the game (in
    hands or the deck: still to come for someone)."""
    cards = match.ruleset.cards
    left = Counter(cards[c].planet for c in match.full_deck() if cards[c].planet)
    left.subtract(cards[p.card].planet for p in board.values() if cards[p.card].planet)
    left.subtract(cards[c].planet for c in out if cards[c].planet)
    return tuple(sorted((t, max(0, n)) for t, n in left.items()))


_CACHE_SIZE = 4096
_BY_RULES: dict[int, tuple[Ruleset, dict[Any, Values]]] = {}


def future_values(rules: Ruleset, step: float, supply: tuple[tuple[str, int], ...]) -> Values:
    """The :class:`~sim.orbitus_changes.Values` of a system at progress ``step`` with ``supply``
    planets of each type still to come (see the module docstring); kept per ruleset object
    (a ruleset's own hash walks all its cards, which cost a search more than the tables)."""
    held = _BY_RULES.get(id(rules))
    if held is None or held[0] is not rules:
        if len(_BY_RULES) >= 8:
            _BY_RULES.clear()
        held = _BY_RULES[id(rules)] = (rules, {})
    cache = held[1]
    key = (step, supply)
    found = cache.get(key)
    if found is None:
        if len(cache) >= _CACHE_SIZE:
            cache.clear()
        found = cache[key] = _future_values(rules, step, supply)
    return found


def _future_values(rules: Ruleset, step: float, supply: tuple[tuple[str, int], ...]) -> Values:
    real = points(rules)
    left = dict(supply)
    early, late = step, 1 - step
    planets = {t: _row(real.planets[t], step, left.get(t, 0)) for t in rules.planet_types}
    open_route = late * real.open_route + early * EARLY_OPEN_ROUTE
    return Values(planets, real.pirate, open_route, real.block)


@lru_cache(maxsize=4096)
def _row(table: Sequence[int], step: float, more: int) -> tuple[float, ...]:
    """What a group of each size is worth, ``table`` its points, at progress ``step`` with
    ``more`` of its type still to come."""
    most = len(table)
    early, late = step, 1 - step
    row = []
    for k in range(most):
        best = float(table[k])
        for j in range(1, more + 1):
            if k + j >= most:
                break
            best = max(best, table[k + j] - CARD_COST * j)
        row.append(late * table[k] + early * best)
    return tuple(row)


def values_of(view: Any, match: Seating) -> Values:
    """The values every seat's system is judged by in this position."""
    return future_values(match.ruleset, progress(view, match),
                         remaining(match, view.board, view.out))


def system_value(match: Seating, board: Any, info: Analysis, seat: int, values: Values) -> float:
    """What ``values`` make of ``seat``'s system as it lies."""
    cards = match.ruleset.cards
    nodes = info.system(seat)
    counts: Counter[str] = Counter()
    pirates = 0
    open_routes = 0
    edges = {}
    for i in nodes:
        card = cards[board[info.cells[i]].card]
        if card.planet is not None:
            counts[card.planet] += 1
        elif card.pirate:
            pirates += 1
        open_routes += bin(info.open_sides(i)).count("1")
        edges[info.cells[i]] = info.joined[i]
    total = sum(values.planets[t][k] for t, k in counts.items())
    total += values.pirate * pirates + values.open_route * open_routes
    if len(nodes) >= 3:
        total += sum(values.block(size) for size in block_sizes(edges))
    return total


class _Seat:
    """The two things :class:`~sim.orbitus_changes.Changes` reads of a view, for another seat."""

    __slots__ = ("seat", "board")

    def __init__(self, seat: int, board: Any) -> None:
        self.seat, self.board = seat, board


def action_values(match: Seating, view: Any, legal: Sequence[Any],
                  info: Analysis | None = None) -> list[tuple[float, Any]]:
    """``(worth after the action, action)`` for every legal action of ``view.seat``: its
    own value after the action minus the best of the others' (each other seat's value
    changes only when the action places a sector into its system)."""
    board = view.board
    if info is None:
        info = Analysis(match.start_lines, match.n, {c: p.mask for c, p in board.items()})
    values = values_of(view, match)
    me = view.seat
    base = [system_value(match, board, info, s, values) for s in range(match.n)]
    mine = Changes(match, view, info, values).of(legal)
    # a placement changes another seat's value only on a cell whose routes come from that
    # seat's system alone (the cells of each seat, found once)
    joins: dict[Any, tuple[int, ...]] = {}
    spot = info.spot
    placing: dict[int, list[int]] = {s: [] for s in range(match.n) if s != me}
    for k, (_, action) in enumerate(mine):
        if action.kind == PLACE:
            seats = joins.get(action.cell)
            if seats is None:
                seats = joins[action.cell] = spot(action.cell).seats
            if len(seats) == 1 and seats[0] in placing:
                placing[seats[0]].append(k)
    others = []
    for s, into in placing.items():
        change = [0.0] * len(mine)
        if into:
            placed = [mine[k][1] for k in into]
            for k, (v, _) in zip(into, Changes(match, _Seat(s, board), info, values).of(placed),
                                 strict=True):
                change[k] = v if v >= 0 else UNDONE * v
        others.append((base[s], change))
    own = base[me]
    if len(others) == 1:
        value, moved = others[0]
        best_others: Any = [value + m for m in moved]
    else:
        best_others = map(max, zip(*([value + m for m in moved] for value, moved in others),
                                   strict=True))
    return [(own + change - best_other, action)
            for (change, action), best_other in zip(mine, best_others, strict=True)]


def position_values(state: Any) -> tuple[float, ...]:
    """Every seat's worth in a full state: its value minus the best of the others'."""
    match = state.game
    from rules.orbitus.view import view_for

    values = values_of(view_for(state, 0), match)
    info = state.info
    own = [system_value(match, state.board, info, s, values) for s in range(match.n)]
    return tuple(own[s] - max(own[t] for t in range(match.n) if t != s)
                 for s in range(match.n))


OWN_MOVES = 1  # the searching seat's own next moves at a leaf, each after the others' replies
OWN_MOVES_UP_TO = 2  # ... in games of at most this many players (each own move costs a leaf
# 2n - 1 one-ply evaluations in all: with three players a game would take twice as long)
REPLIES_UP_TO = 3  # leaves are judged after replies in games of at most this many players
# (n - 1 one-ply evaluations a leaf: with five players a game would take four times as long)
REPLY_LIMIT = 12  # at most this many moves at one leaf (a table where only others move)


def replies(match: Seating, state: Any, seat: int, rng: Any) -> Any:
    """Where a search leaf is judged: the state after the other seats have answered,
    ``seat`` has made :data:`OWN_MOVES` more moves and the others have answered those
    (in games of up to :data:`OWN_MOVES_UP_TO` players; with more, the others' answers;
    with more than :data:`REPLIES_UP_TO`, the leaf as it is),
    every move the mover's best one-ply move by :func:`action_values` (the ``value``
    bot's, equal values decided by ``rng``); or the game's end, if that comes first. The
    state is a search's own deal, so each move reads that deal's hand of its mover (the
    searching seat's own hand is the real one; only its draws are dealt)."""
    from rules.orbitus import GAME
    from rules.orbitus.view import view_for

    if match.n > REPLIES_UP_TO:
        return state
    own = OWN_MOVES if match.n <= OWN_MOVES_UP_TO else 0
    for _ in range(REPLY_LIMIT):
        if state.end is not None:
            break
        if state.to_move == seat:
            if not own:
                break
            own -= 1
        legal = GAME.legal_actions(state)
        if len(legal) == 1:
            action = legal[0]
        else:
            values = action_values(match, view_for(state, state.to_move), legal, state.info)
            best = max(v for v, _ in values)
            ties = [a for v, a in values if v == best]
            action = ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]
        state = GAME.apply(state, action)
    return state
