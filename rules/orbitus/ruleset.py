"""Everything about Orbitus a designer may change, as plain frozen dataclasses.

A :class:`Ruleset` is built from a definitions folder by :mod:`cards.ruleset` (YAML,
validated) and is all the rules core knows of the definitions: the deck, the planet
types, hand size and minimum, the start-line table and the scoring tables. Sides are
numbered 0=N clockwise (:mod:`rules.hexgeo`); route sides are bit masks, bit ``s`` for
side ``s``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

ALL_SIDES = 63


def rotate_mask(mask: int, rot: int) -> int:
    """Route sides after turning a card ``rot`` steps clockwise (as bit masks)."""
    rot %= 6
    return ((mask << rot) | (mask >> (6 - rot))) & ALL_SIDES


def mask_of(sides: Iterable[int]) -> int:
    out = 0
    for s in sides:
        out |= 1 << s
    return out


@dataclass(frozen=True, slots=True)
class Card:
    """A sector card of the deck as printed, marker up (side N on top)."""

    id: str
    routes: int  # printed route sides, bit mask
    planet: str | None = None
    pirate: bool = False
    count: int = 1
    masks: tuple[int, ...] = field(default=(), compare=False, repr=False)  # rot 0..5

    def __post_init__(self) -> None:
        if not self.masks:
            object.__setattr__(self, "masks", tuple(rotate_mask(self.routes, k)
                                                    for k in range(6)))

    @property
    def centre(self) -> str:
        """The planet type, ``'pirate'`` or ``'void'``."""
        if self.planet is not None:
            return self.planet
        return "pirate" if self.pirate else "void"


@dataclass(frozen=True, slots=True)
class Band:
    """Points for a size from ``min`` to ``max`` (``max`` None: and above)."""

    min: int
    max: int | None
    points: int

    def contains(self, size: int) -> bool:
        return size >= self.min and (self.max is None or size <= self.max)

    @property
    def label(self) -> str:
        """``3``, ``3–4`` or ``6+``, as tables print it."""
        if self.max is None:
            return f"{self.min}+"
        return str(self.min) if self.max == self.min else f"{self.min}–{self.max}"


def band_points(bands: tuple[Band, ...], size: int) -> int:
    for band in bands:
        if band.contains(size):
            return band.points
    return 0


@dataclass(frozen=True, slots=True)
class Scoring:
    """The scoring tables: planet groups by size, each pirate, each open route, closed
    blocks by size."""

    planet_groups: tuple[Band, ...]
    pirate: int
    open_route: int
    closed_blocks: tuple[Band, ...]

    def planet_points(self, count: int) -> int:
        """Points of ``count`` planets of one type in a system (0 planets: 0)."""
        return band_points(self.planet_groups, count) if count else 0

    def block_points(self, size: int) -> int:
        return band_points(self.closed_blocks, size)


@dataclass(frozen=True, slots=True)
class StartLines:
    """The station's sides for one player count: start lines per seat, barriers."""

    players: int
    start_lines: tuple[tuple[int, ...], ...]  # per seat, station sides
    barriers: tuple[int, ...]

    def owners(self) -> dict[int, int]:
        """Station side -> seat."""
        return {side: seat for seat, sides in enumerate(self.start_lines) for side in sides}


@dataclass(frozen=True)
class Ruleset:
    """One definitions folder's Orbitus: deck, planet types, hands, start lines, scoring."""

    GAME: ClassVar[str] = "orbitus"

    planet_types: tuple[str, ...]
    deck: tuple[Card, ...]  # in the deck file's order
    hand_size: int
    min_hand: int
    start_lines: tuple[StartLines, ...]
    scoring: Scoring

    def __post_init__(self) -> None:
        object.__setattr__(self, "_cards", {c.id: c for c in self.deck})

    def __getstate__(self) -> dict[str, Any]:  # the lookup table is rebuilt, not pickled
        state = dict(self.__dict__)
        state.pop("_cards", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.__post_init__()

    @property
    def cards(self) -> dict[str, Card]:
        """Card ID -> card."""
        cards: dict[str, Card] = self.__dict__["_cards"]
        return cards

    @property
    def deck_size(self) -> int:
        return sum(c.count for c in self.deck)

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted(s.players for s in self.start_lines))

    def setup_for(self, players: int) -> StartLines | None:
        for setup in self.start_lines:
            if setup.players == players:
                return setup
        return None

    def marker_counts(self) -> tuple[list[int], int]:
        """Start-line markers a kit needs per seat (the largest need over every player
        count, six seats) and barrier markers (the most any player count uses)."""
        need = [0] * 6
        for setup in self.start_lines:
            for seat, lines in enumerate(setup.start_lines):
                need[seat] = max(need[seat], len(lines))
        return need, max(len(s.barriers) for s in self.start_lines)

    def full_deck(self) -> list[str]:
        """Every card, each as often as its count, in the deck file's order."""
        return [c.id for c in self.deck for _ in range(c.count)]

    # --- a plain-data form (the definitions cache stores it as JSON) ----------------------

    def to_data(self) -> dict[str, Any]:
        def bands(items: tuple[Band, ...]) -> list[list[int | None]]:
            return [[b.min, b.max, b.points] for b in items]

        return {
            "planet_types": list(self.planet_types),
            "deck": [[c.id, c.routes, c.planet, c.pirate, c.count] for c in self.deck],
            "hand_size": self.hand_size,
            "min_hand": self.min_hand,
            "start_lines": [[s.players, [list(x) for x in s.start_lines], list(s.barriers)]
                            for s in self.start_lines],
            "scoring": {
                "planet_groups": bands(self.scoring.planet_groups),
                "pirate": self.scoring.pirate,
                "open_route": self.scoring.open_route,
                "closed_blocks": bands(self.scoring.closed_blocks),
            },
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Ruleset:
        def bands(items: list[list[Any]]) -> tuple[Band, ...]:
            return tuple(Band(int(a), None if b is None else int(b), int(p)) for a, b, p in items)

        scoring = data["scoring"]
        return cls(
            planet_types=tuple(str(p) for p in data["planet_types"]),
            deck=tuple(Card(str(i), int(r), None if p is None else str(p), bool(x), int(n))
                       for i, r, p, x, n in data["deck"]),
            hand_size=int(data["hand_size"]),
            min_hand=int(data["min_hand"]),
            start_lines=tuple(
                StartLines(int(n), tuple(tuple(int(s) for s in seat) for seat in lines),
                           tuple(int(b) for b in barriers))
                for n, lines, barriers in data["start_lines"]),
            scoring=Scoring(bands(scoring["planet_groups"]), int(scoring["pirate"]),
                            int(scoring["open_route"]), bands(scoring["closed_blocks"])),
        )
