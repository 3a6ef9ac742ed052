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
* ``mcts``: information-set Monte Carlo tree search (single observer): every iteration
  deals the unseen cards at random, walks the tree with UCB among the actions that are
  legal in that deal, adds one action, plays a short rollout (four plies, every player
  greedy) and scores the position by the score margin; ``budget`` iterations (rollouts)
  per decision. New actions are tried in the order of the greedy evaluation (progressive
  widening), so a small budget already spends its rollouts on plausible moves. A game
  without hidden information (``game.hidden_information``) is searched from the view
  itself, which is the whole state. (Random
  rollouts were tried first: at the same budget they did not beat greedy in Orbitus.)

Standard library only (bots run in worker processes and on Ray nodes).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
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


# --- information-set Monte Carlo tree search -------------------------------------------------


class _Node:
    __slots__ = ("player", "visits", "available", "reward", "children", "order")

    def __init__(self, player: int) -> None:
        self.player = player  # who chose the action leading here (-1 at the root)
        self.visits = 0
        self.available = 0
        self.reward = 0.0  # summed for ``player``
        self.children: dict[Any, _Node] = {}
        self.order: list[Any] | None = None  # the root's actions, best greedy change first


def _ranked(sim: Any, public: Any, view: Any, legal: Sequence[Any],
            rng: random.Random) -> list[Any]:
    """The legal actions, the best greedy change first (equal changes in random order)."""
    changes = sim.score_changes(public, view, legal)
    keys = [(-value, rng.random(), k) for k, (value, _) in enumerate(changes)]
    keys.sort()
    return [changes[k][1] for _, _, k in keys]


def rewards(scores: Sequence[int], winners: Sequence[int] | None, scale: float) -> list[float]:
    """Every seat's reward in [0, 1]: a finished game's share of the win; else a smooth
    function of the score margin over the best other seat."""
    n = len(scores)
    if winners is not None:
        share = 1.0 / len(winners) if winners else 0.0
        return [share if s in winners else 0.0 for s in range(n)]
    out = []
    for s in range(n):
        other = max(scores[t] for t in range(n) if t != s)
        out.append(0.5 + 0.5 * math.tanh((scores[s] - other) / scale))
    return out


class MctsBot:
    """Single-observer information-set MCTS with a budget of iterations per decision."""

    name = "mcts"
    exploration = 0.7
    rollout_depth = 4  # plies after the tree's edge, each player playing greedy

    def __init__(self, budget: int = DEFAULT_BUDGET) -> None:
        self.budget = budget

    def choose(self, turn: Turn, rng: random.Random) -> Any:
        legal = turn.legal
        if len(legal) == 1:
            return legal[0]
        sim, public, view = turn.sim, turn.public, turn.view
        game = sim.game
        root = _Node(-1)
        root.order = _ranked(sim, public, view, legal, rng)
        scale = sim.reward_scale
        hidden = game.hidden_information  # else the view is the whole state
        for _ in range(self.budget):
            state = sim.determinise(public, view, rng) if hidden else view
            node = root
            path = [root]
            while True:
                if game.is_over(state):
                    break
                player = game.current_player(state)
                if node is root:
                    order = node.order
                    assert order is not None
                    allowed = _widening(node.visits)
                    if len(node.children) < min(allowed, len(order)):
                        action = order[len(node.children)]
                        node = node.children.setdefault(action, _Node(player))
                        path.append(node)
                        state = game.apply(state, action)
                        break
                    candidates = [order[k] for k in range(len(node.children))]
                else:
                    actions = game.legal_actions(state)
                    # a node holding as many actions as this deal allows adds no more
                    # (the check then costs nothing); otherwise only the tried actions
                    # legal in this deal compete, and an untried one may be added
                    present = [a for a in actions if a in node.children] \
                        if len(node.children) < len(actions) else list(actions)
                    if len(node.children) < _widening(node.visits) and \
                            len(present) < len(actions):
                        action = _first_new(sim, public, game, state, player, actions,
                                            node.children, rng)
                        node = node.children.setdefault(action, _Node(player))
                        path.append(node)
                        state = game.apply(state, action)
                        break
                    candidates = [a for a in present if a in node.children]
                    if not candidates:
                        action = _first_new(sim, public, game, state, player, actions,
                                            node.children, rng)
                        node = node.children.setdefault(action, _Node(player))
                        path.append(node)
                        state = game.apply(state, action)
                        break
                action = self._select(node, candidates)
                node = node.children[action]
                path.append(node)
                state = game.apply(state, action)
            state = self._rollout(sim, public, state, rng)
            if game.is_over(state):
                got = rewards(game.scores(state), game.result(state).winners, scale)
            else:
                got = rewards(sim.values(state), None, scale)
            for visited in path:
                visited.visits += 1
                if visited.player >= 0:
                    visited.reward += got[visited.player]
        best = max(root.children.items(),
                   key=lambda item: (item[1].visits, item[1].reward))
        return best[0]

    def _select(self, node: _Node, candidates: Sequence[Any]) -> Any:
        c = self.exploration
        best, best_value = candidates[0], -1.0
        for action in candidates:
            child = node.children[action]
            child.available += 1
            value = child.reward / child.visits + c * math.sqrt(
                math.log(max(child.available, 1)) / child.visits)
            if value > best_value:
                best, best_value = action, value
        return best

    def _rollout(self, sim: Any, public: Any, state: Any, rng: random.Random) -> Any:
        game = sim.game
        for _ in range(self.rollout_depth):
            if game.is_over(state):
                break
            actions = game.legal_actions(state)
            if len(actions) > 1:
                player = game.current_player(state)
                action = best_of(sim.score_changes(public, game.view_for(state, player),
                                                   actions, state), rng)
            else:
                action = actions[0]
            state = game.apply(state, action)
        return state


def _widening(visits: int) -> int:
    """How many actions a node may have tried after ``visits`` visits."""
    return 2 + int(math.sqrt(visits))


def _first_new(sim: Any, public: Any, game: Any, state: Any, player: int,
               actions: Sequence[Any], children: dict[Any, Any], rng: random.Random) -> Any:
    """The untried action with the best greedy change for the player to move."""
    changes = sim.score_changes(public, game.view_for(state, player), actions, state)
    best = None
    best_key: tuple[float, float] = (-math.inf, 0.0)
    for value, action in changes:
        if action in children:
            continue
        key = (value, rng.random())
        if key > best_key:
            best, best_key = action, key
    return best


BOTS: dict[str, Callable[[int], Bot]] = {
    "random": lambda budget: RandomBot(),
    "greedy": lambda budget: GreedyBot(),
    "mcts": lambda budget: MctsBot(budget),
}


def make_bot(name: str, budget: int = DEFAULT_BUDGET) -> Bot:
    """The bot called ``name`` (``KeyError`` if there is none)."""
    return BOTS[name](budget)
