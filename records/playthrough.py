"""A game record replayed step by step as text, OpenSpiel style: after every move the
position, the player to move, how many legal actions they have (all of them when there are
few) and the running scores. The golden playthroughs in ``tests/fixtures/records/`` are
this text for every golden record, so a change in any rule shows up as a readable diff.

Works for every game of the rules registry, through the :class:`rules.game.Game` interface.
"""

from __future__ import annotations

from typing import Any

import rules
from records.record import Replay

LIST_ALL = 20  # legal actions listed in full when there are at most this many


def playthrough(replayed: Replay, source: str) -> str:
    """The step-by-step text of a replayed record (``source``: the record as named)."""
    game = rules.get(replayed.game)
    out = [f"# {replayed.game} playthrough of {source}: the position after every move, who "
           f"moves next, their legal actions and the running scores",
           f"# start: {replayed.start}", ""]
    if replayed.start_state is None:
        out.append("(the record cannot be replayed)")
        return "\n".join(out) + "\n"
    out += _position(game, replayed.start_state, "start")
    for step in replayed.history:
        out.append("")
        out += _position(game, step.state, f"move {step.number} (line {step.line}): {step.text}")
    if replayed.illegal is not None:
        bad = replayed.illegal
        out += ["", f"move {bad.number} (line {bad.line}): {bad.text}: not legal: {bad.reason}"]
    return "\n".join(out) + "\n"


def _position(game: Any, state: Any, title: str) -> list[str]:
    players = game.players(state)
    scores = game.scores(state)
    lines = [title]
    lines += ["  " + line for line in game.describe(state).splitlines()]
    lines.append("  scores: " + ", ".join(f"{name} {score}"
                                          for name, score in zip(players, scores, strict=True)))
    if game.is_over(state):
        outcome = game.result(state)
        lines.append(f"  over: {outcome.reason}")
        return lines
    legal = game.legal_actions(state)
    who = players[game.current_player(state)]
    shown = ""
    if len(legal) <= LIST_ALL:
        shown = ": " + " | ".join(game.action_text(state, a) for a in legal)
    lines.append(f"  to move: {who}, {len(legal)} legal action{'s' * (len(legal) != 1)}{shown}")
    return lines
