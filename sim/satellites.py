"""Satellites in the simulator: the deal, the greedy evaluation and the statistics of a
finished game (colonies, crowns, how the winner was decided, how the game ended).

Satellites has no hidden information: a seat's view is the whole state, so the search
needs no determinisation. Seats: 0 is red, 1 is blue.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from rules.satellites import GAME
from rules.satellites.actions import PASS, parts
from rules.satellites.analysis import controller, value_sum
from rules.satellites.engine import State, apply, connects, end_reason, standing_of
from rules.satellites.legal import quiet_and_loud, random_action
from rules.satellites.ruleset import COLOURS, Ruleset
from sim.satellites_eval import changed_groups, colonies

KINDS = ("normal", "connection", "displacement", "pass")


class SatellitesSim:
    """The simulator's adapter of Satellites."""

    name = "satellites"
    game = GAME
    kinds = KINDS
    reward_scale = 1.0  # a colony of margin makes a position clearly better (search)
    rollout_plies = 4  # the search plays greedy moves this far before it scores a position

    def player_counts(self, ruleset: Ruleset) -> tuple[int, ...]:
        return (2,)

    def new_game(self, ruleset: Ruleset, players: int, seed: int) -> State:
        return GAME.new_game(ruleset, ("Red", "Blue"), seed)

    def first_seat(self, ruleset: Ruleset) -> int:
        return COLOURS.index(ruleset.first)

    def public(self, state: State) -> None:
        return None  # everything is on the board

    def decided(self, state: State) -> bool:
        """Whether a move ended the game (S-37, S-39, S-42). The one end no move decides,
        neither player able to move (S-41), is found by :meth:`may_end`: the player to move
        can then only pass, so a pass is checked with the rules core's ``is_over`` instead
        of looking for moves of both players before every turn."""
        return state.ended is not None

    def may_end(self, action: int) -> bool:
        return action == PASS

    def legal(self, state: State) -> Sequence[int]:
        """The legal actions a bot is offered, listed only when a bot reads them (the
        random bot draws its move without the list)."""
        return Lazy(state)

    def random_action(self, turn: Any, rng: random.Random) -> int:
        """A legal move, each equally likely (:data:`PASS` when there is none), drawn by
        the rules core without listing them all."""
        return random_action(turn.view, rng)

    def random_loop(self, state: State, rngs: Sequence[random.Random], kinds: list[int],
                    tally: dict[str, Any], most: int) -> tuple[State, int]:
        """Play every seat as the random bot until the game ends (or ``most`` moves):
        the rules core's random moves, counted by kind; the final state and the moves."""
        turns = 0
        while state.ended is None and turns < most:
            action = random_action(state, rngs[state.to_move])
            if action == PASS:
                if GAME.is_over(state):
                    break
                kinds[3] += 1
            elif (action & 1023) - 1 >= 0:
                kinds[2] += 1
            else:
                kinds[1 if connects(state, action) else 0] += 1
            state = apply(state, action)
            turns += 1
        return state, turns

    def kind(self, state: State, action: int) -> int:
        if action == PASS:
            return 3
        if parts(action)[2] >= 0:
            return 2
        return 1 if connects(state, action) else 0

    def components(self, ruleset: Ruleset) -> dict[str, str]:
        return {"colonies": "colonies controlled", "crowns": "crowned colonies",
                "connected": "satellites connected"}

    def tally(self) -> dict[str, Any]:
        return {}

    def count(self, tally: dict[str, Any], state: State, action: int) -> None:
        return None

    # --- search ----------------------------------------------------------------------------

    def values(self, state: State) -> tuple[int, ...]:
        return GAME.scores(state)

    def action_values(self, public: None, view: State, legal: Sequence[int],
                      state: State | None = None) -> list[tuple[float, int]]:
        """``(worth to the mover after the move, move)`` (:mod:`sim.satellites_eval`); the
        quiet moves' look at what they prepare only at the root of a search (``state`` is
        given inside the tree, where it would cost too much)."""
        from sim.satellites_eval import action_values

        return action_values(view, list(legal), quiet_terms=state is None)

    def position_values(self, state: State) -> tuple[float, float]:
        from sim.satellites_eval import position_values

        return position_values(state)

    def still_legal(self, state: State, action: int) -> bool:
        return True  # nothing is hidden

    def tactical(self, turn: Any, deep: bool = False, wary: bool = False,
                 rng: random.Random | None = None) -> Any:
        """The turn the ``tactics`` bot searches: once few satellites are free, the moves
        that keep the position's exact value (:func:`sim.satellites_endgame.best_moves`);
        else only the moves an exact look at the end of the game keeps
        (:func:`sim.satellites_search.sure_moves`), and with ``deep`` (the ``deep`` bot) of
        those only the moves a deeper look keeps (:func:`sim.satellites_search.deep_moves`:
        both sides' connections searched on), and with ``rng`` (the ``closer`` bot) of
        those, at the end of the game, the moves whose sampled plays end best
        (:func:`sim.satellites_close.closing_moves`, the plays drawn from ``rng``);
        searched with the evaluation that judges colonies against what could still turn
        them. With ``wary`` (the ``wary`` bot), the moves the look against an opponent who
        sees one move ahead keeps (:func:`sim.satellites_bounded.wary_moves`) instead of
        the exact look's."""
        from sim.satellites_close import closing_moves
        from sim.satellites_endgame import best_moves
        from sim.satellites_search import deep_moves, sure_moves

        legal = list(turn.legal)
        kept = best_moves(turn.view, legal)
        if kept is None and wary:
            from sim.satellites_bounded import wary_moves

            kept = wary_moves(turn.view, legal)
        if kept is None:
            kept = sure_moves(turn.view, legal)
            if deep and len(kept) > 1:
                kept = deep_moves(turn.view, kept)
            if rng is not None:
                kept = closing_moves(turn.view, legal, kept, rng, self.rollout_moves)
        return turn._replace(legal=kept, sim=TACTICAL)

    def restrictions(self, ruleset: Ruleset) -> dict[str, str]:
        """The restricted-play options: their names and what they forbid."""
        return {"never-displace": "never displaces an opponent's satellite"}

    def allowed(self, restriction: str, public: None, view: State, action: int) -> bool:
        if restriction == "never-displace":
            return action == PASS or parts(action)[2] < 0
        raise KeyError(restriction)

    def score_changes(self, public: None, view: State, legal: Sequence[int],
                      state: State | None = None) -> list[tuple[int, int]]:
        """``(change of my colonies, action)``: only a move that connects can change
        a colony (a normal move lands where it touches no opponent), so only those are
        played out and scored."""
        seat = view.to_move
        colour = COLOURS[seat]
        opp = view.blue if seat == 0 else view.red
        orth = view.table.orth_mask
        out = []
        append = out.append
        for action in legal:
            # a move without a push connects only if it lands next to an opponent
            if action == PASS or (action & 1023 == 0 and not orth[action >> 10 & 1023] & opp):
                append((0, action))
                continue
            append((_change(view, apply(view, action), action, colour), action))
        return out

    def rollout_moves(self, state: State) -> Sequence[int]:
        """The moves a rollout (and a play of :mod:`sim.satellites_close`) draws one of:
        greedy's (:meth:`best_actions`), the legal moves never listed when quiet."""
        return self.best_actions(None, state, Lazy(state))

    def best_actions(self, public: None, view: State, legal: Sequence[int]) -> Sequence[int]:
        """The legal moves of the best change of my colonies, in their order (the values
        of :meth:`score_changes`). Only the moves that may connect (landing next to an
        opponent, or pushing) are played out; the quiet ones change nothing, and stay a lazy
        sequence that is never listed."""
        quiet, loud = legal.parts() if isinstance(legal, Lazy) else quiet_and_loud(view)
        if not quiet and not loud:
            return list(legal)  # [PASS]
        colour = COLOURS[view.to_move]
        values = {a: _change(view, apply(view, a), a, colour) for a in loud}
        best = max(values.values(), default=0)
        if len(quiet):
            best = max(best, 0)  # the quiet moves change nothing
        if best == 0:
            level = [a for a in loud if values[a] == 0]
            return quiet.plus(level) if level else quiet  # type: ignore[attr-defined]
        return [a for a in loud if values[a] == best]

    # --- statistics ------------------------------------------------------------------------

    def record(self, state: State, tally: dict[str, Any], cut_short: bool) -> dict[str, Any]:
        found = standing_of(state)
        from rules.satellites.analysis import groups

        crowns = dict.fromkeys(COLOURS, 0)
        for group in groups(state.table, state.red, state.blue, state.vals, state.ruleset,
                            state.conn):
            if group.colony and group.crowned and group.controller in crowns:
                crowns[group.controller] += 1
        seats = []
        for seat, colour in enumerate(COLOURS):
            own = state.red if seat == 0 else state.blue
            seats.append({"colonies": found.colonies[colour], "crowns": crowns[colour],
                          "connected": (state.conn & own).bit_count()})
        decided = "draw" if found.winner is None else (
            "tie-break" if found.tiebreak else "more colonies")
        end = "turn-limit" if cut_short else (end_reason(state) or "unfinished")
        return {"end": end, "seats": seats, "facts": {"decided_by": decided}}


def _controls(state: State, group: int, colour: str) -> bool:
    return controller(state.ruleset, group.bit_count(), value_sum(state.vals, group & state.red),
                      value_sum(state.vals, group & state.blue)) == colour


def _change(before: State, after: State, action: int, colour: str) -> int:
    """How many more colonies ``colour`` controls after ``action`` (only the groups the
    move makes and those it swallows change)."""
    new, gone = changed_groups(before, after, action)
    return (sum(1 for g in new if _controls(after, g, colour))
            - sum(1 for g in gone if _controls(before, g, colour)))


class Lazy(Sequence[int]):
    """``GAME.legal_actions(state)``, worked out on first use (in the core's two parts:
    the quiet normal moves and the moves that may connect, which greedy weighs)."""

    __slots__ = ("_state", "_list", "_parts")

    def __init__(self, state: State) -> None:
        self._state: State | None = state
        self._list: Sequence[int] | None = None
        self._parts: tuple[Sequence[int], list[int]] | None = None

    def parts(self) -> tuple[Sequence[int], list[int]]:
        """``(quiet, loud)`` as :func:`rules.satellites.legal.quiet_and_loud` gives them."""
        if self._parts is None:
            assert self._state is not None
            self._parts = quiet_and_loud(self._state)
        return self._parts

    def _actions(self) -> Sequence[int]:
        if self._list is None:
            quiet, loud = self.parts()
            if not quiet and not loud:
                assert self._state is not None
                self._list = GAME.legal_actions(self._state)  # [PASS], or none at the end
            else:
                self._list = quiet.plus(loud) if loud else quiet  # type: ignore[attr-defined]
            self._state = None
        return self._list

    def __len__(self) -> int:
        if self._list is None and self._state is not None:
            quiet, loud = self.parts()
            if quiet or loud:
                return len(quiet) + len(loud)
        return len(self._actions())

    def __getitem__(self, k: Any) -> Any:
        return self._actions()[k]

    def __iter__(self) -> Iterator[int]:
        return iter(self._actions())

    def __contains__(self, action: object) -> bool:
        return action in self._actions()


class TacticalSim(SatellitesSim):
    """The adapter the ``tactics`` bot searches with: Satellites with the evaluation that
    judges a colony against the satellites that could still turn it
    (:func:`sim.satellites_eval.at_risk`)."""

    def action_values(self, public: None, view: State, legal: Sequence[int],
                      state: State | None = None) -> list[tuple[float, int]]:
        from sim.satellites_eval import action_values

        return action_values(view, list(legal), quiet_terms=state is None, risk=True)

    def position_values(self, state: State) -> tuple[float, float]:
        from sim.satellites_eval import position_values

        return position_values(state, risk=True)


SIM = SatellitesSim()
TACTICAL = TacticalSim()
__all__ = ["SIM", "TACTICAL", "SatellitesSim", "TacticalSim", "colonies"]
