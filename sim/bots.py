"""The bots and the one small interface they play through.

A bot is asked for an action with a :class:`Turn`: the seat it plays, what that seat
may see (``game.view_for(state, seat)``: for Orbitus a :class:`rules.orbitus.view.View`
with the table, its own hand and the counts of everything else), the legal actions (public
knowledge given the view) and what everyone knows from the start (the players, the
station, the ruleset: never the order of the deck). The state itself is never handed to a
bot, so another hand or the deck order cannot be read from what it gets; a search bot
deals the unseen cards itself, at random, consistent with its view (a determinisation).

* ``random``: uniform over the legal actions;
* ``greedy``: the action with the best immediate change of its own score (ties broken by
  its random generator, which comes from the game's seed);
* ``value``: the action after which the game's evaluation is best (one ply; for Orbitus
  an evaluation that counts what a system can still become, :mod:`sim.orbitus_eval`);
* ``mcts``: information-set Monte Carlo tree search on that evaluation
  (:mod:`sim.search`), ``mcts:64`` iterations per decision, ``mcts:200ms`` a time budget;
* ``tactics``: that search behind the game's tactics (``sim.tactical``, Satellites only:
  :mod:`sim.satellites_search`, and the endgames :mod:`sim.satellites_endgame` solves
  exactly), with the same budgets;
* ``deep``: ``tactics`` with a deeper look first (Satellites: both sides' connections
  searched on after each move, :func:`sim.satellites_search.deep_moves`), the same budgets;
* ``wary``: ``tactics`` with a look that models the opponent as a player who sees one
  move ahead rather than a perfect one (Satellites: :mod:`sim.satellites_bounded`), the
  same budgets;
* ``closer``: ``tactics`` that, in the middle and at the end of the game, keeps the moves
  whose sampled plays end best (Satellites, three to ten satellites free:
  :mod:`sim.satellites_close`),
  the same budgets;
* restricted play: any of them after ``+`` a restriction of the game
  (``value+never-remove``, ``mcts:16+never-place-ice``), which never takes that kind of
  action while it has another.

Standard library only (bots run in worker processes and on Ray nodes).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

DEFAULT_BUDGET = 64


class Turn(NamedTuple):
    """Everything a bot gets when it is asked to move (immutable)."""

    seat: int
    view: Any  # game.view_for(state, seat)
    legal: Sequence[Any]  # the legal actions (public, given the view)
    public: Any  # what every seat knows from the start (Orbitus: the Seating)
    sim: Any  # the game's simulator adapter (stateless: the rules, evaluations, statistics)


class Bot(Protocol):
    name: str

    def choose(self, turn: Turn, rng: random.Random) -> Any: ...


class RandomBot:
    """Uniform over the legal actions."""

    name = "random"

    def choose(self, turn: Turn, rng: random.Random) -> Any:
        return turn.sim.random_action(turn, rng)


def best_of(changes: Sequence[tuple[float, Any]], rng: random.Random) -> Any:
    """The action of the largest value; equal values are decided by ``rng``."""
    best = max(value for value, _ in changes)
    return pick([action for value, action in changes if value == best], rng)


def pick(ties: Sequence[Any], rng: random.Random) -> Any:
    """One of ``ties``, each equally likely (no draw when there is one)."""
    return ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]


class GreedyBot:
    """The action with the best immediate change of its own score."""

    name = "greedy"

    def choose(self, turn: Turn, rng: random.Random) -> Any:
        if len(turn.legal) == 1:
            return turn.legal[0]
        return pick(turn.sim.best_actions(turn.public, turn.view, turn.legal), rng)


class ValueBot:
    """The action after which the game's evaluation (``sim.action_values``: what a
    position is worth, a system's future counted) is best; one ply, no search."""

    name = "value"

    def choose(self, turn: Turn, rng: random.Random) -> Any:
        if len(turn.legal) == 1:
            return turn.legal[0]
        from sim.search import action_values

        return best_of(action_values(turn.sim, turn.public, turn.view, turn.legal), rng)


class TacticalBot:
    """A search bot that first lets the game narrow its moves and choose its evaluation
    (``sim.tactical(turn)``: for Satellites, no move that loses by force at once, a move
    that wins by force alone); the search then chooses among the moves left. A game
    without tactics (the command line refuses ``tactics`` for it) is searched as it is.
    ``deep``: the game's deeper tactics (``sim.tactical(turn, deep=True)``), the ``deep``
    bot; ``wary``: its tactics against a bounded opponent (``sim.tactical(turn,
    wary=True)``), the ``wary`` bot; ``close``: the game's end judged by sampled plays
    drawn from the bot's generator (``sim.tactical(turn, deep=False, rng=rng)``), the
    ``closer`` bot."""

    def __init__(self, search: Bot, deep: bool = False, wary: bool = False,
                 close: bool = False) -> None:
        self.search = search
        self.deep = deep
        self.wary = wary
        self.close = close
        self.name = ("wary" if wary else "closer" if close else
                     "deep" if deep else "tactics")

    def choose(self, turn: Turn, rng: random.Random) -> Any:
        if len(turn.legal) == 1:
            return turn.legal[0]
        tactical = getattr(turn.sim, "tactical", None)
        if tactical is not None:
            turn = tactical(turn, deep=self.deep, wary=self.wary,
                            rng=rng if self.close else None)
        if len(turn.legal) == 1:
            return turn.legal[0]
        return self.search.choose(turn, rng)


class Restricted:
    """A bot that never takes some kind of action while it has any other (restricted
    play: what the option is worth shows in how much worse it plays without it). The
    restrictions are the game's (``sim.restrictions``); the bot underneath chooses among
    the actions left."""

    def __init__(self, base: Bot, restrictions: Sequence[str]) -> None:
        self.base = base
        self.restrictions = tuple(restrictions)
        self.name = "+".join((base.name, *self.restrictions))

    def choose(self, turn: Turn, rng: random.Random) -> Any:
        sim = turn.sim
        allowed = getattr(sim, "allowed", None)
        if allowed is None:
            return self.base.choose(turn, rng)  # the game has no restrictions
        left = [a for a in turn.legal
                if all(allowed(r, turn.public, turn.view, a) for r in self.restrictions)]
        if not left or len(left) == len(turn.legal):
            return self.base.choose(turn, rng)
        return self.base.choose(turn._replace(legal=left), rng)


# --- bots by name ----------------------------------------------------------------------------

NAMES = ("random", "greedy", "value", "mcts", "tactics", "deep", "wary", "closer")
SEARCHES = ("mcts", "tactics", "deep", "wary", "closer")  # the bots that take a budget
TACTICAL = ("tactics", "deep", "wary", "closer")  # the bots that need the game's tactics


class BotError(ValueError):
    """A bot name that cannot be read (the message says what would be right)."""


@dataclass(frozen=True)
class Spec:
    """A bot as the command line names it: ``mcts:64`` (iterations per decision),
    ``mcts:200ms`` (thinking time), ``mcts:256x4`` (four trees of 64), and restrictions
    after a ``+`` (``value+never-remove``; a restriction alone restricts ``value``)."""

    name: str
    budget: int | None = None
    think: float | None = None
    trees: int = 1
    restrictions: tuple[str, ...] = ()

    def text(self) -> str:
        head = self.name
        if self.budget is not None or self.think is not None:
            parts = []
            if self.budget is not None:
                parts.append(str(self.budget))
            if self.think is not None:
                parts.append(f"{round(self.think * 1000)}ms")
            head += ":" + "/".join(parts)
            if self.trees > 1:
                head += f"x{self.trees}"
        return "+".join((head, *self.restrictions))


def parse_think(text: str) -> float:
    """``200ms``, ``1.5s`` or ``2`` (seconds) as seconds; :class:`BotError` if it is no
    time or not above 0."""
    raw = text.strip().lower()
    scale = 1.0
    if raw.endswith("ms"):
        raw, scale = raw[:-2], 0.001
    elif raw.endswith("s"):
        raw = raw[:-1]
    try:
        value = float(raw) * scale
    except ValueError:
        raise BotError(f"{text!r} is not a time; e.g. 200ms or 1.5s") from None
    if not value > 0 or value != value or value == float("inf"):
        raise BotError(f"{text!r}: a thinking time must be above 0; e.g. 200ms")
    return value


def parse_spec(text: str, restrictions: Sequence[str] | None = None) -> Spec:
    """The :class:`Spec` written ``text``; ``restrictions`` are the names the game allows
    after a ``+`` (None: any name that starts with ``never-``, checked by the game later).
    :class:`BotError` says what is wrong."""
    parts = [p.strip().lower() for p in text.split("+")]

    def restriction(name: str) -> bool:
        return name in restrictions if restrictions is not None else name.startswith("never-")

    head, rest = parts[0], parts[1:]
    if restriction(head):
        head, rest = "value", parts
    for r in rest:
        if not restriction(r):
            allowed = ", ".join(restrictions or ()) or "none for this game"
            raise BotError(f"{r!r} is not a restriction; the restrictions are {allowed}")
    name, sep, budget_text = head.partition(":")
    if name not in NAMES:
        raise BotError(f"{name or '(empty)'!r} is not a bot; the bots are {', '.join(NAMES)}"
                       + (f", and the restrictions {', '.join(restrictions)}"
                          if restrictions else ""))
    if not sep:
        return Spec(name, restrictions=tuple(rest))
    if name not in SEARCHES:
        raise BotError(f"{head!r}: only {', '.join(SEARCHES[:-1])} and {SEARCHES[-1]} take a "
                       f"budget ({name} has none)")
    trees = 1
    if "x" in budget_text:
        budget_text, _, count = budget_text.partition("x")
        if not count.isdigit() or int(count) < 1:
            raise BotError(f"{head!r}: the number of trees after x must be a whole number "
                           f"from 1; e.g. mcts:256x4")
        trees = int(count)
    budget = think = None
    for piece in budget_text.split("/"):
        if piece.isdigit():
            budget = int(piece)
            if budget < 1:
                raise BotError(f"{head!r}: a budget of 0 iterations; give at least 1, e.g. "
                               f"mcts:64")
        elif piece.endswith("s") and piece[:1].isdigit():
            think = parse_think(piece)
        else:
            raise BotError(f"{head!r}: {piece!r} is neither a number of iterations nor a "
                           f"time; e.g. mcts:64, mcts:200ms or mcts:64/200ms")
    if budget is not None and trees > budget:
        raise BotError(f"{head!r}: {trees} trees need at least {trees} iterations")
    return Spec(name, budget, think, trees, tuple(rest))


def make(spec: Spec, budget: int = DEFAULT_BUDGET, think: float | None = None) -> Bot:
    """The bot ``spec`` names; ``budget`` and ``think`` are the run's defaults for a search
    bot whose spec gives neither."""
    from sim.search import MctsBot

    bot: Bot
    if spec.name in SEARCHES:
        if spec.budget is None and spec.think is None:
            bot = MctsBot(budget if think is None else None, think, spec.trees)
        else:
            bot = MctsBot(spec.budget, spec.think, spec.trees)
        if spec.name in TACTICAL:
            bot = TacticalBot(bot, deep=spec.name == "deep", wary=spec.name == "wary",
                              close=spec.name == "closer")
    else:
        bot = {"random": RandomBot, "greedy": GreedyBot, "value": ValueBot}[spec.name]()
    return Restricted(bot, spec.restrictions) if spec.restrictions else bot


def make_bot(name: str, budget: int = DEFAULT_BUDGET, think: float | None = None) -> Bot:
    """The bot written ``name`` (:class:`BotError` if there is none)."""
    return make(parse_spec(name), budget, think)


BOTS = NAMES
