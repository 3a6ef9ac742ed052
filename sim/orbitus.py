"""Orbitus in the simulator: the deal, what a bot may know, the greedy evaluation and the
search's (through :mod:`sim.orbitus_changes` and :mod:`sim.orbitus_eval`), the
determinisation for search, restricted play, and the statistics of a finished game.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from rules.orbitus import GAME
from rules.orbitus.actions import DISCARD, KIND_NAMES, PASS, PLACE, REMOVE, Action
from rules.orbitus.engine import END_ROUND, Seating, State
from rules.orbitus.ruleset import Ruleset
from rules.orbitus.view import View, sample_state, view_for
from sim.orbitus_changes import Changes, Values, points

NAMES = ("P1", "P2", "P3", "P4", "P5", "P6")
KINDS = KIND_NAMES  # place, remove, discard, pass


class OrbitusSim:
    """The simulator's adapter of Orbitus (see the module docstring)."""

    name = "orbitus"
    game = GAME
    kinds = KINDS

    # --- a game ----------------------------------------------------------------------------

    def player_counts(self, ruleset: Ruleset) -> tuple[int, ...]:
        return tuple(n for n in ruleset.player_counts
                     if GAME.min_players <= n <= GAME.max_players)

    def new_game(self, ruleset: Ruleset, players: int, seed: int) -> State:
        return GAME.new_game(ruleset, NAMES[:players], seed)

    def first_seat(self, ruleset: Ruleset) -> int:
        return 0  # the first listed player moves first (O-20)

    def public(self, state: State) -> Seating:
        """What every seat knows of the game from the start: the players, the station and
        the ruleset (the deck's composition, never its order)."""
        return state.game

    reward_scale = 4.0  # points of margin that make a position clearly better (search)
    rollout_plies = 0  # the search scores the position it reaches as it stands
    reward_from_root = True  # rewards from the change of worth since the decision's position

    def decided(self, state: State) -> bool:
        """Whether the game is over (the engine decides that after every action)."""
        return state.end is not None

    def may_end(self, action: Action) -> bool:
        return False

    def legal(self, state: State) -> Sequence[Action]:
        """The legal actions a bot is offered (a lazy sequence: reading one is cheap)."""
        return GAME.legal_actions(state)

    def random_action(self, turn: Any, rng: random.Random) -> Action:
        """A legal action, each equally likely."""
        legal = turn.legal
        if len(legal) == 1:
            return legal[0]
        return legal[rng.randrange(len(legal))]

    def kind(self, state: State, action: Action) -> int:
        """The number of the action's kind in :attr:`kinds`."""
        return action.kind

    def components(self, ruleset: Ruleset) -> dict[str, str]:
        """The score components of a seat's record, in report order, with their labels."""
        out = {f"planet:{t}": f"{t} planets" for t in ruleset.planet_types}
        out.update({"pirates": "pirates", "open_routes": "open routes",
                    "blocks": "closed blocks"})
        return out

    def card_centres(self, ruleset: Ruleset) -> dict[str, str]:
        """Each card's centre (planet type, pirate, void), for the card plot."""
        return {c.id: c.centre for c in ruleset.deck}

    def tally(self) -> dict[str, dict[str, int]]:
        """Empty counts of what happened to each card during a game."""
        return {"placed": {}, "removed": {}, "discarded": {}}

    def count(self, tally: dict[str, dict[str, int]], state: State, action: Action) -> None:
        kind = action.kind
        if kind == PASS:
            return
        which = tally[("placed", "removed", "discarded")[kind]]
        card = action.card if kind != REMOVE else state.board[action.cell].card
        which[card] = which.get(card, 0) + 1

    # --- search ----------------------------------------------------------------------------

    def determinise(self, match: Seating, view: View, rng: random.Random) -> State:
        """A full state consistent with ``view``: the unseen cards dealt at random."""
        return sample_state(view, match, rng)

    def settle(self, match: Seating, state: State, seat: int, rng: random.Random) -> State:
        """A search leaf after the other seats' answers (:func:`sim.orbitus_eval.replies`)."""
        from sim.orbitus_eval import replies

        return replies(match, state, seat, rng)

    def values(self, state: State) -> tuple[int, ...]:
        """The score of every seat as the position stands."""
        return state.score().totals

    def action_values(self, match: Seating, view: View, legal: Sequence[Action],
                      state: State | None = None) -> list[tuple[float, Action]]:
        """``(worth after the action, action)`` for every legal action: the evaluation of
        :mod:`sim.orbitus_eval` (a search that has a determinised state passes it, so its
        table analysis is not worked out again)."""
        from sim.orbitus_eval import action_values

        return action_values(match, view, legal, None if state is None else state.info)

    def position_values(self, state: State) -> tuple[float, ...]:
        """Every seat's worth in a full state (:mod:`sim.orbitus_eval`)."""
        from sim.orbitus_eval import position_values

        return position_values(state)

    def late(self, state: State) -> bool:
        """Whether the scores as they stand are close to final (the deck is empty): when
        kingmaking is judged (:mod:`sim.feel`)."""
        return state.deck_left == 0

    def outcomes(self, state: State) -> list[tuple[int, ...]]:
        """The scores as they would stand after each legal action of the player to move
        (a placement changes the score of the system it joins, a removal the mover's)."""
        match = state.game
        legal = list(state.legal_actions())
        base = state.score().totals
        moved = [[0] * len(legal) for _ in range(match.n)]
        for s in range(match.n):
            seat_view = view_for(state, s)
            subset = legal if s == state.to_move else [a for a in legal if a.kind == PLACE]
            index = range(len(legal)) if s == state.to_move else [
                k for k, a in enumerate(legal) if a.kind == PLACE]
            for k, (change, _) in zip(index, Changes(match, seat_view, state.info).of(subset),
                                      strict=True):
                moved[s][k] = int(change)
        return [tuple(base[s] + moved[s][k] for s in range(match.n))
                for k in range(len(legal))]

    def restrictions(self, ruleset: Ruleset) -> dict[str, str]:
        """The restricted-play options (:class:`sim.bots.Restricted`): their names and what
        they forbid."""
        out = {"never-remove": "never removes a sector of its own system",
               "never-discard": "never discards",
               "never-pass": "never passes"}
        for t in ruleset.planet_types:
            out[f"never-place-{t}"] = f"never places a {t} planet"
        out["never-place-pirate"] = "never places a pirate"
        out["never-place-void"] = "never places a void sector"
        return out

    def allowed(self, restriction: str, match: Seating, view: View, action: Action) -> bool:
        """Whether ``action`` is allowed under ``restriction``."""
        kind = action.kind
        if restriction == "never-remove":
            return kind != REMOVE
        if restriction == "never-discard":
            return kind != DISCARD
        if restriction == "never-pass":
            return kind != PASS
        if restriction.startswith("never-place-"):
            if kind != PLACE:
                return True
            return match.ruleset.cards[action.card].centre != restriction.removeprefix(
                "never-place-")
        raise KeyError(restriction)

    def still_legal(self, state: State, action: Action) -> bool:
        """Whether an action found legal in another deal of the same position (the same
        table, other hidden hands) is legal in this one: a placement or a discard needs
        the card in the hand; removals and the pass depend on the table alone."""
        kind = action.kind
        if kind == PLACE or kind == DISCARD:
            return action.card in state.hands[state.to_move] and (
                kind == PLACE or state.deck_left > 0)
        return True

    # --- greedy ----------------------------------------------------------------------------

    def score_changes(self, match: Seating, view: View, legal: Sequence[Action],
                      state: State | None = None) -> list[tuple[int, Action]]:
        """``(change of my own score, action)`` for every legal action, in their order.
        A search that has a (determinised) state of its own passes it, so the table's
        analysis it already holds is not worked out again."""
        return Changes(match, view, None if state is None else state.info).of(legal)

    def best_actions(self, match: Seating, view: View, legal: Sequence[Action]) -> list[Action]:
        """The legal actions of the best change of my own score, in their order."""
        changes = self.score_changes(match, view, legal)
        best = max(value for value, _ in changes)
        return [action for value, action in changes if value == best]

    # --- statistics ------------------------------------------------------------------------

    def record(self, state: State, tally: dict[str, dict[str, int]],
               cut_short: bool) -> dict[str, Any]:
        """The statistics of a finished game: how it ended, every seat's score components,
        the cards (placed, removed, discarded; the seats whose systems hold them)."""
        result = state.score()
        seats = []
        owners: dict[str, list[int]] = {}
        index = {cell: k for k, cell in enumerate(state.board)}
        for player in result.players:
            blocks = Counter(b.size for b in player.closed_blocks)
            seat: dict[str, Any] = {f"planet:{g.type}": g.points for g in player.planets}
            seat.update({
                "pirates": player.pirate_points,
                "open_routes": player.open_route_points,
                "blocks": sum(b.points for b in player.closed_blocks),
                "planet_cards": {g.type: g.count for g in player.planets if g.count},
                "closed_blocks_by_size": {str(k): v for k, v in sorted(blocks.items())},
            })
            seats.append(seat)
            for cell in sorted(player.sectors, key=index.__getitem__):
                owners.setdefault(state.board[cell].card, []).append(player.seat)
        end = "turn-limit" if cut_short else (
            "quiet-round" if state.end == END_ROUND else "no-one-can-act")
        return {
            "end": end,
            "seats": seats,
            "cards": {**{k: dict(sorted(v.items())) for k, v in tally.items()},
                      "in_systems": dict(sorted(owners.items()))},
        }


SIM = OrbitusSim()
__all__ = ["SIM", "Changes", "OrbitusSim", "Values", "points"]
