"""The legal actions of an Orbitus position: a lazy sequence of them, and how they are found
(placements by cell, card and rotation, then removals, discards, the pass).

Which cells take a sector, which sides must match and which routes stay open is decided
by :mod:`rules.orbitus.analysis` (O-21 to O-37); a removal by its ``removable`` (O-39 to
O-43); a discard needs a card to draw (O-45), a pass is not allowed twice in a row (O-47).
Why one action is illegal is :mod:`rules.orbitus.why`.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from rules.hexgeo import Hex
from rules.orbitus.actions import DISCARD, PASS_ACTION, PLACE, REMOVE, Action
from rules.orbitus.analysis import ALL_SIDES, POP
from rules.orbitus.ruleset import Card, rotate_mask

if TYPE_CHECKING:
    from rules.orbitus.engine import State


class _Fits(dict[int, tuple[int, ...]]):
    """The rotations in which a card fits a free cell, by its printed routes, the sides
    facing something and the sides of those that must carry a route, six bits each
    (``routes << 12 | known << 6 | required``: at most 64 x 64 x 64 keys, looked up as one
    whole number), each worked out when first asked for (equal tuples of turns shared)."""

    def __missing__(self, key: int) -> tuple[int, ...]:
        routes, known, required = key >> 12, key >> 6 & ALL_SIDES, key & ALL_SIDES
        rots = tuple(k for k in range(6) if rotate_mask(routes, k) & known == required)
        found = self[key] = _SHARED.setdefault(rots, rots)
        return found


_SHARED: dict[tuple[int, ...], tuple[int, ...]] = {}


_ROTS = _Fits()


def fill_fits(cards: Iterable[Card]) -> int:
    """Work out at once every entry of the table of fitting turns that a deck of ``cards``
    can ask for (each distinct printed routes, every set of sides facing something and
    every part of it that must carry a route: 729 entries per distinct routes), rather
    than one by one as positions ask for them. A server calls it when it starts: a fresh
    one otherwise spends its first thousands of moves filling the table (15,181 entries,
    about 29 µs a move over the first 2,000 moves of ``benchmarks/bench_web.py``). The
    entries are made by :meth:`_Fits.__missing__`, as a lookup would make them; returns
    how many the table holds."""
    for routes in sorted({card.routes for card in cards}):
        _row(routes)  # every part of the known sides of each, made by the table's lookup
    return len(_ROTS)


def _row(routes: int) -> list[tuple[int, ...]]:
    """The fitting turns of a card with these printed ``routes`` as a list indexed by
    ``known << 6 | required`` (the table's entries for it, read from the table): a cell's
    placements look a card up by index, not by hashing a key in the whole table. Made once
    per distinct routes (a part that is not a part of the known sides has no entry)."""
    row = _ROWS.get(routes)
    if row is None:
        row = [()] * (1 << 12)
        for known in range(ALL_SIDES + 1):
            required = known
            while True:
                row[known << 6 | required] = _ROTS[routes << 12 | known << 6 | required]
                if not required:
                    break
                required = (required - 1) & known
        _ROWS[routes] = row
    return row


_ROWS: dict[int, list[tuple[int, ...]]] = {}


def fitting(card: Card, known: int, required: int) -> tuple[int, ...]:
    """The rotations in which ``card`` matches a cell whose ``known`` sides face something,
    ``required`` of them routes."""
    return _ROTS[card.routes << 12 | known << 6 | required]


class Legal(Sequence[Action]):
    """The legal actions of one position: an immutable sequence whose placements are made
    into :class:`Action` objects only when read, so choosing one of 200 actions at random
    (``legal[k]``) does not build the other 199."""

    __slots__ = ("_groups", "_ends", "_rest")

    def __init__(self) -> None:
        self._groups: list[tuple[Hex, str, tuple[int, ...]]] = []  # cell, card, rotations
        # placements up to and including each group, worked out when first counted or
        # indexed (a page that reads the groups, or the first action found, needs none)
        self._ends: list[int] | None = None
        self._rest: list[Action] = []  # removals, discards, the pass

    def _add(self, cell: Hex, card: str, rots: tuple[int, ...]) -> None:
        self._groups.append((cell, card, rots))
        self._ends = None

    def _totals(self) -> list[int]:
        ends = self._ends
        if ends is None or len(ends) != len(self._groups):
            ends, total = [], 0
            for _, _, rots in self._groups:
                total += len(rots)
                ends.append(total)
            self._ends = ends
        return ends

    @property
    def _placements(self) -> int:
        ends = self._totals()
        return ends[-1] if ends else 0

    def __len__(self) -> int:
        return self._placements + len(self._rest)

    def placement_groups(self) -> list[tuple[Hex, str, tuple[int, ...]]]:
        """The placements as ``(cell, card, rotations)``, in their order, without making an
        action of each (a page that lists, per card, the cells and turns where it fits)."""
        return list(self._groups)

    def others(self) -> list[Action]:
        """The actions that are not placements: removals, discards, the pass."""
        return list(self._rest)

    def __getitem__(self, k: Any) -> Any:
        if isinstance(k, slice):
            return list(self)[k]
        if k < 0:
            k += len(self)
        if not 0 <= k < len(self):
            raise IndexError("legal action index out of range")
        if k >= self._placements:
            return self._rest[k - self._placements]
        ends = self._totals()
        g = bisect_right(ends, k)
        cell, card, rots = self._groups[g]
        first = ends[g] - len(rots)
        return _new(Action, (PLACE, card, cell, rots[k - first]))

    def __iter__(self) -> Iterator[Action]:
        for cell, card, rots in self._groups:
            for rot in rots:
                yield _new(Action, (PLACE, card, cell, rot))
        yield from self._rest

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    def __hash__(self) -> int:  # mutable while it is built; never a key
        raise TypeError("unhashable type: 'Legal'")

    def __repr__(self) -> str:
        return f"Legal({list(self)!r})"


_new = tuple.__new__  # builds an Action without the Python-level __new__


# --- finding them ---------------------------------------------------------------------------


def placements(state: State, seat: int | None = None, cards: Iterable[str] | None = None,
               only: Hex | None = None) -> Legal:
    """Every legal placement of ``seat`` (default: the player to move), of ``cards``
    (default: the distinct cards of the hand), on cell ``only`` if given."""
    out = Legal()
    _place(state, out, state.to_move if seat is None else seat, cards, only)
    return out


def _place(state: State, out: Legal, seat: int, cards: Iterable[str] | None, only: Hex | None,
           first: bool = False) -> bool:
    """Add the placements to ``out`` (with ``first``: stop at the first one found and say
    whether there was one)."""
    info = state.info
    ids = sorted(set(state.hands[seat] if cards is None else cards))
    table = state.game.cards
    rows = _ROWS
    hand = [(rows.get(table[ident].routes) or _row(table[ident].routes), ident)
            for ident in ids]
    spots = info.spots if only is None else [s for s in info.spots if s.cell == only]
    counts = info.open_count
    n = state.game.n
    groups = out._groups
    add = groups.append
    for cell, known, required, seats, zones in spots:
        if len(seats) > 1:
            continue
        facing = known << 6 | required
        if seats and seats[0] != seat:
            # the opponent's open routes left when this cell is filled, before the new
            # sector's own sides facing empty cells are counted (O-35, O-36)
            guard = counts[seats[0]] - POP[required]
            for z in zones:
                guard += counts[n + z]
            if guard <= 0:  # only the turns that leave that system an open route
                free = ALL_SIDES & ~known
                for row, ident in hand:
                    masks = table[ident].masks
                    rots = tuple(k for k in row[facing] if guard + POP[masks[k] & free] > 0)
                    if rots:
                        if first:
                            return True
                        groups.append((cell, ident, rots))
                continue
        # the usual cell: each card of the hand in the turns that match
        for row, ident in hand:
            rots = row[facing]
            if rots:
                if first:
                    return True
                add((cell, ident, rots))
    out._ends = None  # the running totals: worked out when first counted (Legal._totals)
    return False


def removals(state: State, seat: int | None = None) -> list[Action]:
    """Every legal removal of ``seat`` (default: the player to move)."""
    seat = state.to_move if seat is None else seat
    info = state.info
    board = state.board
    return [Action(REMOVE, board[info.cells[i]].card, info.cells[i])
            for i in info.removable(seat)]


def actions(state: State, seat: int) -> Legal:
    """Every legal action of ``seat`` in ``state``, in the stable order of
    :meth:`~rules.orbitus.engine.State.legal_actions`."""
    out = placements(state, seat)
    rest = out._rest
    rest.extend(removals(state, seat))
    if state.deck_left > 0:
        rest.extend(Action(DISCARD, c) for c in sorted(set(state.hands[seat])))
    if not state.passed[seat]:
        rest.append(PASS_ACTION)
    return out


def can_act(state: State, seat: int) -> bool:
    """Whether ``seat`` would have a legal action if it were their turn now."""
    if not state.passed[seat] or (state.deck_left > 0 and state.hands[seat]):
        return True
    if state.info.roots(seat):
        return True  # a system with a sector always has one that can be removed
    return _place(state, Legal(), seat, None, None, first=True)
