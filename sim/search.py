"""The search bot: information-set Monte Carlo tree search on the game's own evaluation.

Every iteration deals the cards the bot cannot see at random, consistent with its view
(a determinisation; Satellites has nothing hidden), walks down the tree among the actions
that are legal in that deal, adds one action and scores the position it reaches with the
game's static evaluation (``sim.position_values``: what each seat's position is worth,
its own value minus the best of the others'; for Orbitus a value that counts a system's
future, so that building beats attack-and-remove). That worth becomes a reward in [0, 1]
(``0.5 + 0.5 tanh(worth / reward_scale)``; a finished game gives the share of the win);
an adapter with ``reward_from_root`` (Orbitus) counts the worth from the decision's own
position (its worth is public, the same in every deal), so a lead or a deficit of many
points does not push every reward to 1 or 0 and leave the actions alike.

* **Progressive widening**: a node's actions are ranked once by the evaluation after each
  of them (``sim.action_values``, the same numbers the one-ply ``value`` bot plays by), and
  a node visited *n* times may have tried the best ``2 + sqrt(n)`` of them, so a small
  budget spends itself on plausible actions among Orbitus's ~300.
* **Leaf replies**: an adapter with a ``settle`` plays, from the position a walk reaches,
  the moves the game expects next (Orbitus, up to three players: each other seat's
  one-ply ``value`` move in this deal until the searching seat is to move again; in
  2-player games then its own next ``value`` move and the answer to that), so a line is
  judged after the answer it will meet rather than before it.
* **Selection** by UCB1 over the tried actions legal in this deal, each counted only in
  the deals where it was available (Cowling, Powley and Whitehouse's information-set
  MCTS).
* **Budget**: ``budget`` iterations per decision, or a time budget (``think`` seconds; the
  choice then depends on the machine's speed, so such runs are not reproducible), or
  both (whichever ends first).
* **Root parallelism**: ``trees`` independent trees share the budget, each seeded from
  the bot's generator, and their root visits are added up. The result does not depend on
  where the trees run: in turn here, or in a pool of worker processes
  (:func:`use_pool`) when cores are free.

The move played is the root action visited most (equal visits: the better ranked).
Standard library only.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sim.bots import Turn


class Node:
    __slots__ = ("player", "visits", "available", "reward", "children", "order", "mover")

    def __init__(self, player: int) -> None:
        self.player = player  # who chose the action leading here (-1 at the root)
        self.visits = 0
        self.available = 0
        self.reward = 0.0  # summed for ``player``
        self.children: dict[Any, Node] = {}
        self.order: list[Any] | None = None  # the actions of the player to move, best first
        self.mover = -1  # the player to move here (in the deal that ranked ``order``)


def ranked(values: Sequence[tuple[float, Any]], rng: random.Random) -> list[Any]:
    """The actions, the best value first (equal values in random order)."""
    keys = sorted((-value, rng.random(), k) for k, (value, _) in enumerate(values))
    return [values[k][1] for _, _, k in keys]


def widening(visits: int) -> int:
    """How many of its ranked actions a node may have tried after ``visits`` visits."""
    return 2 + int(math.sqrt(visits))


def reward(worth: Sequence[float], scale: float) -> list[float]:
    """Every seat's reward in [0, 1] for a position worth ``worth`` to each."""
    return [0.5 + 0.5 * math.tanh(w / scale) for w in worth]


def finished(scores: Sequence[int], winners: Sequence[int]) -> list[float]:
    """Every seat's share of the win of a finished game."""
    share = 1.0 / len(winners) if winners else 0.0
    return [share if s in winners else 0.0 for s in range(len(scores))]


class Tree:
    """One search tree of one decision."""

    exploration = 0.3

    def __init__(self, turn: Turn, order: list[Any], rng: random.Random) -> None:
        self.turn = turn
        self.rng = rng
        self.root = Node(-1)
        self.root.order = order
        self.origin: Sequence[float] | None = None  # the root's worth (``reward_from_root``)

    def run(self, budget: int, deadline: float | None) -> dict[Any, int]:
        """Iterate ``budget`` times (or until ``deadline``, at least once); the visits of
        each root action."""
        for done in range(budget):
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self.iterate()
        return {a: child.visits for a, child in self.root.children.items()}

    def iterate(self) -> None:
        turn, rng = self.turn, self.rng
        sim = turn.sim
        game = sim.game
        state = sim.determinise(turn.public, turn.view, rng) if game.hidden_information \
            else turn.view  # nothing hidden: the view is the whole state
        if self.origin is None and getattr(sim, "reward_from_root", False):
            self.origin = position_values(sim, state)  # public: the same in every deal
        node = self.root
        path = [node]
        while not game.is_over(state):
            player = game.current_player(state)
            if node is self.root:
                legal = node.order
            elif node.order is None:
                legal = node.order = self._ranked(state, player)
                node.mover = player
            elif node.mover != player:
                legal = self._ranked(state, player)  # another player moves here in this deal
            else:
                legal = [a for a in node.order if still_legal(sim, state, a)]
                if not legal:
                    legal = self._reorder(node, state, player)
            assert legal is not None
            tried = [a for a in legal if a in node.children]
            # widen when the node may try another action, or when none it tried is legal
            # in this deal
            if len(tried) < len(legal) and (not tried
                                            or len(node.children) < widening(node.visits)):
                action = next(a for a in legal if a not in node.children)
                child = Node(player)
                node.children[action] = child
                node = child
                path.append(node)
                state = game.apply(state, action)
                break
            action = self._select(node, tried)
            node = node.children[action]
            path.append(node)
            state = game.apply(state, action)
        settle = getattr(sim, "settle", None)
        if settle is not None and not game.is_over(state):
            state = settle(turn.public, state, turn.seat, rng)  # the replies a leaf meets
        for _ in range(getattr(sim, "rollout_plies", 0)):
            if game.is_over(state):
                break
            state = game.apply(state, self._rollout_action(state))
        if game.is_over(state):
            got = finished(game.scores(state), game.result(state).winners)
        else:
            worth = position_values(sim, state)
            if self.origin is not None:
                worth = [w - o for w, o in zip(worth, self.origin, strict=True)]
            got = reward(worth, sim.reward_scale)
        for visited in path:
            visited.visits += 1
            if visited.player >= 0:
                visited.reward += got[visited.player]

    def _reorder(self, node: Node, state: Any, player: int) -> list[Any]:
        """None of the node's ranked actions is legal in this deal (another hand): rank
        this deal's actions and add the new ones."""
        fresh = self._ranked(state, player)
        assert node.order is not None
        known = set(node.order)
        node.order += [a for a in fresh if a not in known]
        return fresh

    def _ranked(self, state: Any, player: int) -> list[Any]:
        sim = self.turn.sim
        game = sim.game
        legal = sim.legal(state)
        if len(legal) == 1:
            return list(legal)
        return ranked(action_values(sim, self.turn.public, game.view_for(state, player), legal,
                                    state), self.rng)

    def _rollout_action(self, state: Any) -> Any:
        """A heuristic rollout's move: what greedy would play here."""
        sim = self.turn.sim
        game = sim.game
        legal = sim.legal(state)
        if len(legal) == 1:
            return legal[0]
        best = sim.best_actions(self.turn.public, game.view_for(state, game.current_player(
            state)), legal)
        return best[self.rng.randrange(len(best))] if len(best) > 1 else best[0]

    def _select(self, node: Node, candidates: Sequence[Any]) -> Any:
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


# --- what the search asks of a game's simulator adapter -------------------------------------
# An adapter without an evaluation of its own (the test game in testkit/) is searched on its
# greedy one: the change of the mover's score, and the score margins.


def action_values(sim: Any, public: Any, view: Any, legal: Sequence[Any],
                  state: Any = None) -> list[tuple[float, Any]]:
    """``(worth after the action, action)`` of every legal action, for the ranking."""
    if hasattr(sim, "action_values"):
        return sim.action_values(public, view, legal, state)
    return sim.score_changes(public, view, legal)


def position_values(sim: Any, state: Any) -> Sequence[float]:
    """Every seat's worth: the adapter's evaluation, or the score margin over the best
    other seat."""
    if hasattr(sim, "position_values"):
        return sim.position_values(state)
    scores = sim.values(state)
    return [s - max(scores[t] for t in range(len(scores)) if t != k)
            for k, s in enumerate(scores)]


def still_legal(sim: Any, state: Any, action: Any) -> bool:
    """Whether an action ranked in another deal of this node is legal in this one."""
    if hasattr(sim, "still_legal"):
        return sim.still_legal(state, action)
    return action in sim.legal(state)


# --- root parallelism ----------------------------------------------------------------------

_POOL: Any = None


def use_pool(pool: Any) -> None:
    """Run the trees of every search from now on in ``pool`` (a ``multiprocessing`` pool;
    None: here, one after the other). The choices are the same either way."""
    global _POOL
    _POOL = pool


def _grow(args: tuple[Turn, list[Any], int, int, float | None]) -> dict[Any, int]:
    turn, order, seed, budget, think = args
    deadline = None if think is None else time.perf_counter() + think
    return Tree(turn, order, random.Random(seed)).run(budget, deadline)


class MctsBot:
    """Information-set MCTS on the game's evaluation (see the module docstring)."""

    name = "mcts"

    def __init__(self, budget: int | None = 64, think: float | None = None,
                 trees: int = 1) -> None:
        if budget is None and think is None:
            raise ValueError("a search needs an iteration budget, a time budget or both")
        self.budget = budget
        self.think = think
        self.trees = trees

    def choose(self, turn: Turn, rng: random.Random) -> Any:
        legal = turn.legal
        if len(legal) == 1:
            return legal[0]
        sim = turn.sim
        order = ranked(action_values(sim, turn.public, turn.view, legal), rng)
        budget = self.budget if self.budget is not None else 1 << 30
        share = [budget // self.trees + (k < budget % self.trees) for k in range(self.trees)]
        seeds = [rng.getrandbits(63) for _ in range(self.trees)]
        jobs = [(turn, order, seed, max(1, n), self.think) for seed, n in zip(seeds, share,
                                                                            strict=True)]
        grown: Sequence[dict[Any, int]]
        if _POOL is not None and self.trees > 1:
            grown = _POOL.map(_grow, jobs)
        else:
            grown = [_grow(job) for job in jobs]
        visits: dict[Any, int] = {}
        for counts in grown:
            for action, n in counts.items():
                visits[action] = visits.get(action, 0) + n
        rank = {a: k for k, a in enumerate(order)}
        return max(visits, key=lambda a: (visits[a], -rank[a]))

