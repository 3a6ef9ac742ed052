"""Write the JSON Schemas of the tools' ``--json`` output into ``docs/schemas/``.

One schema per report: ``pnp score orbitus|satellites``, ``pnp replay`` of each game,
``pnp setup`` of each game, ``pnp build``, and the simulator's run and comparison
(``pnp sim``). A replay's object is the scorer's object of the position reached plus
``replay`` (and, for Orbitus, ``position``), so the replay schemas are built from the same
pieces as the scorers' and cannot drift from them. Every object the tools write with a
fixed set of keys says so (``additionalProperties: false``); the rule codes of violations
are enums. ``tests/test_json_schemas.py`` checks that these files are what this script
writes and validates real output of every fixture and golden record against them.

Run from the project folder after changing a report:
``.venv/bin/python tools/make_json_schemas.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "schemas"
DRAFT = "https://json-schema.org/draft/2020-12/schema"

# The rule codes each scorer reports (docs/rules/<game>.md lists each with its rule).
ORBITUS_RULES = [
    "match-sector", "match-start-line", "match-barrier", "two-systems", "cell-taken",
    "station-cell", "unknown-card", "too-many-copies", "bad-at", "bad-rot",
    "unknown-direction", "unknown-planet", "unknown-player", "no-start-line", "side-twice",
    "player-count", "players-format", "sector-format", "start-lines-format", "unknown-field",
]
SATELLITES_RULES = [
    "same-colour-adjacent", "group-too-large", "too-many-of-value", "too-many-of-colour",
    "unknown-token", "ragged-rows", "board-not-square", "board-size", "grace-moves",
]
SIDES = ["N", "NE", "SE", "S", "SW", "NW"]
BOARD_ROW = "^(\\.|[RB][1-9])( (\\.|[RB][1-9]))*$"
MAX_SEED = 2**63 - 1

Schema = dict[str, Any]


def obj(properties: dict[str, Schema], description: str | None = None,
        required: list[str] | None = None) -> Schema:
    """An object with exactly these keys (all of them required unless ``required`` says)."""
    out: Schema = {"type": "object"}
    if description:
        out["description"] = description
    out["properties"] = properties
    out["required"] = list(properties) if required is None else required
    out["additionalProperties"] = False
    return out


def ref(name: str) -> Schema:
    return {"$ref": f"#/$defs/{name}"}


def array(items: Schema, description: str | None = None, **more: Any) -> Schema:
    out: Schema = {"type": "array"}
    if description:
        out["description"] = description
    out["items"] = items
    out.update(more)
    return out


def nullable(schema: Schema) -> Schema:
    return {"anyOf": [schema, {"type": "null"}]}


COUNT: Schema = {"type": "integer", "minimum": 0}
DESIGN: Schema = {
    "type": "object",
    "description": "the design of the definitions used (docs/definitions.md): the designer's "
                   "version, the content hash, and the stamp printed on every component",
    "properties": {
        "version": {"anyOf": [{"type": "string", "maxLength": 20}, {"type": "null"}]},
        "hash": {"type": "string", "pattern": "^[0-9a-f]{6}$"},
        "stamp": {"type": "string", "pattern": "^(v[A-Za-z0-9][A-Za-z0-9._+-]*·)?[0-9a-f]{6}$"},
    },
    "required": ["version", "hash", "stamp"],
    "additionalProperties": False,
}
NAME: Schema = {"type": "string", "description": "a player's name, as written"}


# --- Orbitus ---------------------------------------------------------------------------------

ORBITUS_DEFS: dict[str, Schema] = {
    "cell": array({"type": "integer"}, "an axial cell [q, r]; the station is [0, 0]",
                  minItems=2, maxItems=2),
    "cells": array(ref("cell")),
    "side": {"enum": SIDES, "description": "a side of a hex, or of the station"},
    "card": {"type": "string", "minLength": 1, "description": "a sector's ID, e.g. S07"},
    "violation": obj({
        "rule": {"enum": ORBITUS_RULES,
                 "description": "the violation code (docs/rules/orbitus.md lists its rule)"},
        "cell": nullable(ref("cell")) | {
            "description": "the cell concerned ([0, 0] for a station side), null for the "
                           "file as a whole"},
        "message": {"type": "string", "description": "one sentence: what is wrong where"},
        "line": nullable({"type": "integer", "minimum": 1}) | {
            "description": "the layout's line (the record's line for a replay)"},
    }),
    "group": obj({
        "count": COUNT,
        "points": {"type": "integer"},
        "sectors": ref("cells"),
    }, "a scoring item: how many, their points and the cells they lie on"),
    "player": obj({
        "name": NAME,
        "start_lines": array(ref("side"), uniqueItems=True),
        "sectors": ref("cells") | {"description": "every sector of the player's system"},
        "planets": {
            "type": "object",
            "description": "every planet type of the definitions (a group of 0 scores 0), "
                           "and any unknown type the layout names",
            "additionalProperties": ref("group"),
        },
        "pirates": ref("group"),
        "open_routes": obj({
            "count": COUNT,
            "points": {"type": "integer"},
            "routes": array(obj({"at": ref("cell"), "side": ref("side")})),
        }),
        "closed_blocks": array(obj({
            "size": {"type": "integer", "minimum": 3},
            "points": {"type": "integer"},
            "sectors": ref("cells") | {"description": "the loop, clockwise from its "
                                                      "smallest cell"},
        })),
        "total": {"type": "integer"},
    }),
}

ORBITUS_SCORE: dict[str, Schema] = {
    "game": {"const": "orbitus"},
    "file": {"type": "string", "description": "the layout (or record) as given"},
    "deck": {"type": "string", "description": "the deck file the sectors come from"},
    "valid": {"type": "boolean", "description": "true when no rule is broken"},
    "violations": array(ref("violation")),
    "players": array(ref("player"), "in seat order"),
    "neutral": ref("cells") | {"description": "every sector in no system"},
    "neutral_zones": array(array(ref("cell"), minItems=1),
                           "the neutral sectors grouped by the routes joining them"),
    "winners": array(NAME, "the player(s) with the highest total", uniqueItems=True),
    "station": obj({
        "start_lines": {
            "type": "object",
            "description": "each start line's side and its player",
            "propertyNames": ref("side"),
            "additionalProperties": NAME,
        },
        "barriers": array(ref("side"), uniqueItems=True),
    }),
}

ORBITUS_POSITION = obj({
    "to_move": nullable(NAME) | {"description": "null once the game is over"},
    "turns": COUNT,
    "end": {"enum": [None, "quiet-round", "no-one-can-act"],
            "description": "why the game ended (O-50, O-51), or null"},
    "deck_left": COUNT,
    "hands": {"type": "object", "additionalProperties": array(ref("card"))},
    "hand_limits": {"type": "object", "additionalProperties": COUNT},
    "passed_last_turn": array(NAME, uniqueItems=True),
    "out_of_game": array(ref("card"), "discarded and removed sectors, in order"),
}, "the engine's side of the position reached: turn, hands, deck")

# --- Satellites ------------------------------------------------------------------------------

COLOUR: Schema = {"enum": ["red", "blue"]}
PER_COLOUR: Schema = obj({"red": COUNT, "blue": COUNT})

SATELLITES_DEFS: dict[str, Schema] = {
    "cell": {"type": "string", "pattern": "^[a-z]+[1-9][0-9]*$",
             "description": "a cell as the board names it: column letter(s), row number"},
    "colour": COLOUR,
    "violation": obj({
        "rule": {"enum": SATELLITES_RULES,
                 "description": "the violation code (docs/rules/satellites.md lists its "
                                "rule)"},
        "cell": nullable(ref("cell")) | {"description": "null for the board as a whole"},
        "message": {"type": "string"},
    }),
    "group": obj({
        "label": {"type": "string", "pattern": "^[A-Za-z]+$",
                  "description": "capital letters for a colony, small for a pair"},
        "cells": array(ref("cell"), minItems=2),
        "size": {"type": "integer", "minimum": 2},
        "colony": {"type": "boolean"},
        "red": COUNT | {"description": "the value total of red's satellites"},
        "blue": COUNT,
        "total": COUNT,
        "controller": nullable(ref("colour")) | {
            "description": "null for pairs and contested colonies"},
        "contested": {"type": "boolean"},
        "crowned": {"type": "boolean"},
    }),
}

SATELLITES_SCORE: dict[str, Schema] = {
    "game": {"const": "satellites"},
    "size": nullable({"type": "integer", "minimum": 1}) | {
        "description": "cells per side; null when the board is not square"},
    "columns": {"type": "integer", "minimum": 1},
    "rows": {"type": "integer", "minimum": 1},
    "valid": {"type": "boolean"},
    "violations": array(ref("violation")),
    "groups": array(ref("group"), "in reading order of their first cell"),
    "connected": PER_COLOUR,
    "colonies": PER_COLOUR,
    "lowest_controlled": obj({"red": nullable(COUNT), "blue": nullable(COUNT)},
                             "the lowest total of a colony each controls: what the "
                             "tie-break compares"),
    "winner": nullable(ref("colour")) | {"description": "null: a draw"},
    "tiebreak": {"type": "boolean"},
    "decision": {"type": "string"},
    "end": obj({
        "connected": COUNT,
        "over": {"type": ["boolean", "null"],
                 "description": "null when a player has all their satellites connected "
                                "and grace_moves_left was not given"},
        "reason": {"anyOf": [{"type": "string", "pattern": "^[0-9]+-connected$"},
                             {"const": "grace-moves-used"}, {"type": "null"}]},
        "finished": array(ref("colour"), uniqueItems=True),
        "grace_player": nullable(ref("colour")),
        "grace_moves_left": nullable(COUNT),
        "message": {"type": "string"},
    }),
}

# --- the simulator ---------------------------------------------------------------------------

SHARE: Schema = {"type": "number", "minimum": 0, "maximum": 1}
P_VALUE: Schema = SHARE | {"description": "a two-sided p-value"}
INTERVAL: Schema = array({"type": "number"}, "a 95 % interval [low, high]", minItems=2,
                         maxItems=2)
HISTOGRAM: Schema = {"type": "object", "description": "how many times each value occurred",
                     "propertyNames": {"pattern": "^-?[0-9]+$"},
                     "additionalProperties": {"type": "integer", "minimum": 1}}
SPREAD_KEYS: dict[str, Schema] = {
    "n": {"type": "integer", "minimum": 1},
    "mean": {"type": "number"},
    "sd": {"type": "number", "minimum": 0},
    **{k: {"type": "integer"} for k in ("min", "p5", "p25", "median", "p75", "p95", "max")},
    "histogram": HISTOGRAM,
}
LABEL: Schema = {"type": "string", "description": "the measure in words"}
BOT: Schema = {"type": "string", "pattern": "^(random|greedy|value|mcts)(:[0-9a-z./]+)?"
                                             "(\\+never-[a-z0-9_-]+)*$",
               "description": "a bot as --bots names it (mcts:64, value+never-remove)"}


def spread(label: bool) -> Schema:
    """A distribution of whole numbers; ``{"n": 0}`` when there were none."""
    extra = {"label": LABEL} if label else {}
    return {"anyOf": [obj({**SPREAD_KEYS, **extra}),
                      obj({"n": {"const": 0}, **extra})]}


SIM_DEFS: dict[str, Schema] = {
    "interval": INTERVAL,
    "spread": spread(False),
    "component": spread(True),
    "block": obj({
        "players": {"type": "integer", "minimum": 2, "maximum": 6},
        "games": COUNT,
        "seats": array(obj({
            "seat": {"type": "integer", "minimum": 1},
            "first": {"type": "boolean", "description": "the seat that moves first"},
            "wins": {"type": "number", "minimum": 0, "description": "a shared win counts "
                                                                    "as a share"},
            "rate": SHARE,
            "ci": ref("interval"),
            "design_effect": {"type": "number", "minimum": 0, "description": "the per-game "
                              "variance of the seat's win shares against yes-or-no games "
                              "(below 1: shared wins); the interval uses it"},
            "mean_score": {"type": "number"},
        }, required=["seat", "first", "wins", "rate", "ci", "mean_score"])),
        "first_player": obj({
            "seat": {"type": "integer", "minimum": 1},
            "decided_games": COUNT,
            "rate": SHARE,
            "fair": SHARE,
            "advantage": {"type": "number"},
            "ci": ref("interval"),
            "z": nullable({"type": "number"}),
            "p": P_VALUE,
            "significant": {"type": "boolean"},
        }, "the first player's win rate against a fair share, with the score test (the "
           "variance of per-game shares; z is null when the shares never vary)"),
        "seats_differ": obj({
            "chi_square": nullable({"type": "number", "minimum": 0}),
            "df": COUNT,
            "p": P_VALUE,
            "significant": {"type": "boolean"},
            "design_effect": {"type": "number", "minimum": 0},
        }, "whether the seats win equally often (chi-square test, Rao-Scott corrected for "
           "shared wins)", required=["chi_square", "df", "p", "significant"]),
        "draws": obj({"count": COUNT, "rate": SHARE}),
        "bots": array(obj({
            "bot": BOT,
            "seats_played": COUNT,
            "wins": {"type": "number", "minimum": 0},
            "rate": SHARE,
            "ci": ref("interval"),
        })),
        "length": ref("spread") | {"description": "game length in turns"},
        "scores": ref("spread") | {"description": "every seat's final score"},
        "components": {"type": "object", "description": "score components per player",
                       "additionalProperties": ref("component")},
        "per_player_counts": {"type": "object", "additionalProperties": {
            "type": "object", "additionalProperties": {"type": "number", "minimum": 0}}},
        "actions": {"type": "object", "description": "each kind of action",
                    "additionalProperties": obj({
                        "count": COUNT, "share": SHARE,
                        "per_game": {"type": "number", "minimum": 0}})},
        "ends": {"type": "object", "description": "how the games ended",
                 "additionalProperties": COUNT},
        "feel": obj({
            "games": COUNT,
            "lead_changes": {"type": "number", "minimum": 0},
            "drama": nullable({"type": "number", "minimum": 0}),
            "behind": nullable(SHARE),
            "decisiveness": nullable(SHARE),
            "branching": array(nullable({"type": "number", "minimum": 0}), "mean legal "
                               "actions in each tenth of the game", minItems=10, maxItems=10),
            "kingmaking": nullable(SHARE),
        }, "how the games felt, from the bots' evaluations (runs with feel measures)"),
        "stalled": COUNT | {"description": "Satellites games ended by rule S-62 (stuck)"},
        "safety_net": COUNT | {"description": "games cut off by the simulator's turn limit "
                                              "(none is expected)"},
        "facts": {"type": "object", "additionalProperties": {
            "type": "object", "additionalProperties": COUNT}},
        "cards": array(obj({
            "card": {"type": "string"},
            "placed": {"type": "number", "minimum": 0},
            "removed": {"type": "number", "minimum": 0},
            "discarded": {"type": "number", "minimum": 0},
            "in_systems": {"type": "number", "minimum": 0},
            "system_points": nullable({"type": "number"}),
        }), "Orbitus: each card per game"),
        "card_impact": array(obj({
            "card": {"type": "string"},
            "with": COUNT | {"description": "seat-games whose system held the card at the end"},
            "without": COUNT | {"description": "seat-games whose system did not"},
            "difference": ref("difference") | {
                "description": "win rate with the card (b) minus without (a), Welch; "
                               "'significant' after Holm's adjustment over the cards"},
            "p_adjusted": P_VALUE,
        }), "Orbitus: each card's win rate when it lay in one's system against when it did "
            "not (correlation, not cause; cards with at least 30 seat-games each way)"),
    }, required=["players", "games", "seats", "first_player", "seats_differ", "draws",
                 "bots", "length", "scores", "components", "per_player_counts", "actions",
                 "ends", "facts"]),
    "difference": obj({
        "a": {"type": "number"},
        "b": {"type": "number"},
        "diff": {"type": "number", "description": "b - a"},
        "ci": ref("interval"),
        "z": {"type": "number"},
        "p": P_VALUE,
        "significant": {"type": "boolean"},
    }),
}

SIM_RUN: dict[str, Schema] = {
    "game": {"enum": ["orbitus", "satellites"]},
    "bots": array(BOT, minItems=1),
    "seed": {"type": "integer"},
    "games": {"type": "integer", "minimum": 1, "description": "games per player count"},
    "budget": nullable({"type": "integer", "minimum": 1}) | {
        "description": "mcts rollouts per decision (null without mcts)"},
    "command": {"type": "string", "description": "the command that plays the run again"},
    "think": nullable({"type": "string", "pattern": "^[0-9]+ms$"}) | {
        "description": "the search bots' default thinking time per decision (null: an "
                       "iteration budget; with one the games depend on the machine)"},
    "feel": {"type": "boolean", "description": "whether the games' feel was measured"},
}

SIM_REPORT: dict[str, Schema] = {
    "format": {"const": 1},
    "game": SIM_RUN["game"],
    "definitions": {"type": "string"},
    "definitions_hash": {"type": "string", "pattern": "^[0-9a-f]+$"},
    "players": array({"type": "integer", "minimum": 2, "maximum": 6}, minItems=1,
                     uniqueItems=True),
    **{k: SIM_RUN[k] for k in ("games", "bots", "budget", "seed", "think", "feel",
                               "command")},
    "first_seat": COUNT,
    "kinds": array({"type": "string"}, "the kinds of action counted"),
    "card_centres": {"type": "object", "description": "Orbitus: each card's centre",
                     "additionalProperties": {"type": "string"}},
    "by_players": array(ref("block"), "one block per player count"),
}

ROW: Schema = obj({
    "key": {"type": "string", "description": "the measure, as --primary names it"},
    "label": LABEL,
    "test": {"enum": ["paired t", "Welch"]},
    "kind": {"enum": ["proportion", "mean"]},
    "difference": ref("difference") | {"description": "B - A: the mean per-game difference "
                                                      "(paired) or of the two means (Welch); "
                                                      "its 'significant' is unadjusted"},
    "pairs": obj({"up": COUNT, "down": COUNT, "same": COUNT},
                 "paired: games in which B is above, below and equal to A"),
    "mcnemar": obj({"only_a": COUNT, "only_b": COUNT, "p": P_VALUE},
                   "seat rows, paired: games the seat won outright in A only and in B only, "
                   "McNemar's exact test"),
    "same_as": array(LABEL, "rows left out because game by game they change exactly as "
                            "this one"),
    "primary": {"type": "boolean"},
    "p_adjusted": nullable(P_VALUE) | {"description": "adjusted for all rows (null: not "
                                                      "tested, beside a primary measure)"},
    "significant": {"type": "boolean", "description": "after the adjustment, or the primary "
                                                      "measure's own test"},
}, required=["key", "label", "test", "kind", "difference", "p_adjusted", "significant"])

ROWS_BY_PLAYERS: Schema = array(obj({
    "players": {"type": "integer", "minimum": 2, "maximum": 6},
    "games": COUNT,
    "rows": array(ref("row")),
}))

SPRT: Schema = obj({
    "metric": {"type": "string"},
    "alpha": SHARE, "beta": SHARE, "effect": {"type": "number", "exclusiveMinimum": 0},
    "decision": {"enum": ["H0", "H1", "undecided"]},
    "direction": nullable({"enum": ["B above A", "B below A"]}),
    "pairs": COUNT | {"description": "pairs of games the test took"},
    "most": COUNT,
    "fixed_pairs": COUNT | {"description": "pairs a fixed-size test of the same alpha, beta "
                                           "and effect needs at the spread seen"},
    "bounds": INTERVAL | {"description": "Wald's bounds on the log-likelihood ratio"},
    "llr": array(nullable({"type": "number"}), "B above A, B below A (null: infinite)",
                 minItems=2, maxItems=2),
    "mean_difference": {"type": "number"},
    "sd": {"type": "number", "minimum": 0},
}, "the sequential probability ratio test")

SIM_COMPARE: dict[str, Schema] = {
    "game": SIM_RUN["game"],
    "a": {"type": "string", "description": "the definitions folder A"},
    "b": {"type": "string", "description": "the definitions folder B"},
    **{k: SIM_RUN[k] for k in ("bots", "seed", "games", "budget", "think", "command")},
    "seed_b": nullable({"type": "integer"}) | {"description": "B's own seed (null: A's)"},
    "paired": {"type": "boolean"},
    "correction": {"enum": ["holm", "bh", "none", "primary"]},
    "alpha": SHARE,
    "primary": nullable({"type": "string"}),
    "by_players": ROWS_BY_PLAYERS,
}

SIM_SPRT: dict[str, Schema] = {
    "game": SIM_RUN["game"],
    "a": {"type": "string"},
    "b": {"type": "string"},
    **{k: SIM_RUN[k] for k in ("bots", "seed", "command")},
    "players": {"type": "integer", "minimum": 2, "maximum": 6},
    "games": COUNT | {"description": "the most pairs it may play"},
    "sprt": SPRT,
}

SIM_LADDER: dict[str, Schema] = {
    "game": SIM_RUN["game"],
    "definitions": {"type": "string"},
    "players": {"type": "integer", "minimum": 2, "maximum": 6},
    "games": {"type": "integer", "minimum": 1, "description": "games per pairing"},
    "seed": {"type": "integer"},
    "sprt": obj({"alpha": SHARE, "beta": SHARE,
                 "effect": {"type": "number", "exclusiveMinimum": 0}},
                "--sprt: each pairing ended when its sequential test decided (games is then "
                "the most a pairing plays)"),
    "rungs": array(BOT, minItems=2),
    "ratings": array(obj({
        "bot": BOT,
        "elo": {"type": "number", "description": "Bradley-Terry on the Elo scale, the first "
                                                 "rung 0"},
        "ci": ref("interval"),
        "games": COUNT,
        "points": {"type": "number", "minimum": 0},
    })),
    "prior": {"type": "boolean", "description": "a virtual draw per pairing was added "
                                                "(a rung won or lost every game)"},
    "pairings": array(obj({
        "low": BOT, "high": BOT, "games": COUNT,
        "high_share": SHARE,
        "ci": ref("interval"),
        "p_above_half": P_VALUE | {"description": "one-sided"},
        "adjacent": {"type": "boolean"},
        "significant": {"type": "boolean"},
        "decision": {"enum": ["above one half", "below one half",
                              "within the effect of one half", "undecided"],
                     "description": "--sprt: what the pairing's sequential test decided"},
        "most": COUNT | {"description": "--sprt: the games the pairing could have played"},
    }, required=["low", "high", "games", "high_share", "ci", "p_above_half", "adjacent",
                 "significant"])),
    "each_rung_beats_the_one_below": {"type": "boolean"},
}

SIM_TUNE: dict[str, Schema] = {
    "game": SIM_RUN["game"],
    "definitions": {"type": "string"},
    "targets": array({"type": "string"}, minItems=1),
    "tunables": array(obj({"key": {"type": "string"}, "low": {"type": "integer"},
                           "high": {"type": "integer"}, "default": {"type": "integer"}})),
    "trials": COUNT,
    "games": {"type": "integer", "minimum": 1, "description": "games per trial and player "
                                                              "count"},
    "players": array({"type": "integer", "minimum": 2, "maximum": 6}, minItems=1),
    "bots": array(BOT, minItems=1),
    "seed": {"type": "integer"},
    "original": {"type": "object", "additionalProperties": {"type": "integer"}},
    "best": {"type": "object", "additionalProperties": {"type": "integer"}},
    "changed": array({"type": "string"}),
    "loss": {"type": "number", "minimum": 0},
    "original_loss": nullable({"type": "number", "minimum": 0}),
    "diff": {"type": "string", "description": "rules.yaml with the proposal, a unified diff "
                                              "(empty: no change proposed)"},
    "evidence": obj({"games": COUNT, "seed": {"type": "integer"},
                     "by_players": ROWS_BY_PLAYERS},
                    "the original (A) and the proposal (B) on fresh seeds, game by game"),
    "history": array(obj({
        "number": COUNT, "state": {"enum": ["complete", "pruned"]},
        "loss": nullable({"type": "number"}),
        "values": {"type": "object", "additionalProperties": {"type": "integer"}},
    })),
    "command": {"type": "string"},
}

# --- replay and setup ------------------------------------------------------------------------


def replay_part(players: Schema, move: str) -> Schema:
    return obj({
        "file": {"type": "string"},
        "game": {"enum": ["orbitus", "satellites"]},
        "players": players,
        "start": {"type": "string", "description": "the start position, in words"},
        "moves": COUNT | {"description": "moves in the record"},
        "played": COUNT | {"description": "legal moves replayed"},
        "over": {"type": "boolean"},
        "message": {"type": "string",
                    "description": "why the game is over, or who is to move"},
        "illegal": nullable(obj({
            "move": {"type": "integer", "minimum": 1},
            "line": {"type": "integer", "minimum": 1},
            "text": {"type": "string", "description": "the move as written"},
            "player": {"type": "string"},
            "reason": {"type": "string"},
            "legal_of": {"type": "string",
                         "description": f"whose legal {move}s 'legal' lists"},
            "legal": array({"type": "string"}, f"legal {move}s there, in notation"),
            "legal_count": COUNT,
        })) | {"description": "the first illegal move, or null"},
        "legal_now": obj({
            "player": {"type": "string"},
            "moves": array({"type": "string"}),
        }, f"with --legal: every legal {move} in the position reached"),
    }, required=["file", "game", "players", "start", "moves", "played", "over", "message",
                 "illegal"])


def document(name: str, title: str, description: str, properties: dict[str, Schema],
             defs: dict[str, Schema], optional: tuple[str, ...] = ()) -> Schema:
    return {
        "$schema": DRAFT,
        "$id": f"{name}.schema.json",
        "title": title,
        "description": description,
        "type": "object",
        "properties": properties,
        "required": [k for k in properties if k not in optional],
        "additionalProperties": False,
        "$defs": defs,
    }


ORBITUS_SCORE["design"] = DESIGN  # what the command adds to the scorer's object
SATELLITES_SCORE["design"] = DESIGN
SIM_REPORT["design"] = DESIGN


def schemas() -> dict[str, Schema]:
    """Every schema by its file name."""
    orbitus_replay = replay_part(obj({}, "P1, P2, ... and their names") | {
        "patternProperties": {"^P[1-6]$": NAME}}, "action")
    satellites_replay = replay_part(
        obj({"red": NAME, "blue": NAME}, "the names the record gives", required=[]), "move")
    return {
        "score-orbitus.schema.json": document(
            "score-orbitus", "pnp score orbitus --json",
            "A scored Orbitus table: every system, the neutral zones, the winners and "
            "every violation (docs/score-orbitus.md).", ORBITUS_SCORE, ORBITUS_DEFS,
            optional=("design",)),
        "score-satellites.schema.json": document(
            "score-satellites", "pnp score satellites --json",
            "A scored Satellites board: groups, colonies, control, the end and the winner "
            "(docs/score-satellites.md).", SATELLITES_SCORE, SATELLITES_DEFS,
            optional=("design",)),
        "replay-orbitus.schema.json": document(
            "replay-orbitus", "pnp replay --json (an Orbitus record)",
            "The position reached, scored as pnp score orbitus --json scores it, with the "
            "engine's position and the replay (docs/engines.md).",
            ORBITUS_SCORE | {"position": ORBITUS_POSITION, "replay": orbitus_replay},
            ORBITUS_DEFS),
        "replay-satellites.schema.json": document(
            "replay-satellites", "pnp replay --json (a Satellites record)",
            "The position reached, scored as pnp score satellites --json scores it, with "
            "the replay (docs/engines.md).",
            SATELLITES_SCORE | {"replay": satellites_replay}, SATELLITES_DEFS),
        "setup-orbitus.schema.json": document(
            "setup-orbitus", "pnp setup orbitus --json",
            "An Orbitus deal: the station's start lines and barriers, the hands and the "
            "deck (docs/engines.md).", {
                "game": {"const": "orbitus"},
                "seed": {"type": "integer", "minimum": 0, "maximum": MAX_SEED},
                "players": array(NAME, "in seat order", minItems=2, maxItems=6,
                                 uniqueItems=True),
                "first": NAME | {"description": "who plays first"},
                "start_lines": ORBITUS_SCORE["station"]["properties"]["start_lines"],
                "barriers": array(ref("side"), uniqueItems=True),
                "hand_size": {"type": "integer", "minimum": 1},
                "min_hand": {"type": "integer", "minimum": 1},
                "hands": {"type": "object", "description": "each player's hand",
                          "additionalProperties": array(ref("card"))},
                "deck": array(ref("card"), "the draw pile, top first"),
                "design": DESIGN,
            }, {k: ORBITUS_DEFS[k] for k in ("side", "card")}),
        "setup-satellites.schema.json": document(
            "setup-satellites", "pnp setup satellites --json",
            "A Satellites deal: the board rows as pnp score satellites reads them and every "
            "satellite's cell (docs/engines.md).", {
                "game": {"const": "satellites"},
                "seed": {"type": "integer", "minimum": 0, "maximum": MAX_SEED},
                "size": {"type": "integer", "minimum": 5, "maximum": 26},
                "first": ref("colour") | {"description": "who moves first"},
                "board": array({"type": "string", "pattern": BOARD_ROW},
                               "the rows from north to south, one token per cell"),
                "satellites": obj({colour: array(obj({
                    "cell": SATELLITES_DEFS["cell"],
                    "value": {"type": "integer", "minimum": 1},
                }), f"{colour}'s satellites in reading order") for colour in ("red", "blue")}),
                "design": DESIGN,
            }, {"colour": COLOUR}),
        "build.schema.json": document(
            "build", "pnp build --json",
            "What one build wrote into the output folder (docs/build.md).", {
                "out": {"type": "string", "description": "the output folder"},
                "games": array({"enum": ["orbitus", "satellites"]}, minItems=1,
                               uniqueItems=True),
                "designs": {"type": "object", "description": "each game's design, as its "
                                                             "components are stamped",
                            "additionalProperties": DESIGN},
                "files": {"type": "object",
                          "description": "every file the build wrote, relative to out, "
                                         "with its size in bytes",
                          "propertyNames": {"pattern": "^[^/].*[^/]$"},
                          "additionalProperties": COUNT},
                "kept": COUNT | {"description": "files of earlier builds kept as they were"},
                "removed": COUNT | {"description": "files of earlier builds this build no "
                                                   "longer writes, deleted"},
                "user_files_kept": COUNT | {"description": "files of the user's in the "
                                                           "folder, left as they were"},
                "mode": {"enum": ["new folder", "in place"],
                         "description": "new folder: the folder did not exist and was made "
                                        "whole in one step; in place: the files that changed "
                                        "were replaced in the folder (journaled), its folders "
                                        "kept"},
                "warnings": array({"type": "string"}, description=(
                    "each sentence of a booklet or aid the definitions made untrue: the "
                    "file and line, its language, the sentence and what the definitions "
                    "say (the build writes the kit anyway)")),
            }, {}),
        "sim-report.schema.json": document(
            "sim-report", "pnp sim orbitus|satellites --json (and OUT/report.json)",
            "A simulation run: win rates by seat and bot with their intervals and tests, "
            "score components, game length, actions, ends and (Orbitus) cards, per player "
            "count (docs/sim.md).", SIM_REPORT,
            {k: SIM_DEFS[k] for k in ("interval", "spread", "component", "block")},
            optional=("card_centres",)),
        "build-since.schema.json": document(
            "build-since", "pnp build --since OLD --json",
            "The reprint kit of what changed since OLD (docs/iterate.md).", {
                "out": {"type": "string", "description": "the output folder"},
                "since": {"type": "string", "description": "OLD, as given"},
                "files": {"type": "object", "description": "every file of the kit, relative "
                                                           "to out, with its size in bytes "
                                                           "(none: nothing changed)",
                          "additionalProperties": COUNT},
                "games": array(obj({
                    "game": {"enum": ["orbitus", "satellites"]},
                    "old": DESIGN["properties"]["stamp"], "new": DESIGN["properties"]["stamp"],
                    "files": array({"type": "string"}),
                    "take_out": array({"type": "string"}, "what to take out of the kit"),
                    "put_in": array({"type": "string"}, "what goes in from the reprint"),
                    "notes": array({"type": "string"}),
                })),
            }, {}),
        "diff.schema.json": document(
            "diff", "pnp diff OLD NEW --json",
            "What changed between two versions of a design (docs/iterate.md).", {
                "old": ref("version"), "new": ref("version"),
                "changed": {"type": "boolean"},
                "games": array(obj({
                    "game": {"enum": ["orbitus", "satellites"]},
                    "changed": {"type": "boolean"},
                    "old": DESIGN, "new": DESIGN,
                    "components": nullable(obj({
                        "added": array({"type": "string"}), "removed": array({"type": "string"}),
                        "changed": array(obj({"name": {"type": "string"},
                                              "changes": array({"type": "string"})})),
                        "copies": array({"type": "string"}),
                    })),
                    "rules": array(ref("change")),
                    "definitions": array(ref("change") | {}),
                    "texts": array(obj({
                        "file": {"type": "string"}, "kind": {"type": "string"},
                        "lang": {"type": "string"},
                        "state": {"enum": ["added", "removed", "changed"]},
                        "changes": array(obj({k: {"type": "string"} for k in
                                              ("before", "old", "new", "after")})),
                    })),
                    "labels": array({"type": "object"}),
                    "plays": obj({
                        "setups": array(obj({
                            "players": {"type": "integer", "minimum": 2},
                            "seeds": array({"type": "integer"}), "text": {"type": "string"}})),
                        "records": array(obj({"file": {"type": "string"}, "old": {},
                                              "new": {}, "text": {"type": "string"}})),
                        "replayed": COUNT | {"description": "the records of this game "
                                             "replayed with both versions"},
                    }),
                })),
            }, {"version": obj({"spec": {"type": "string"}, "label": {"type": "string"},
                                "kind": {"enum": ["folder", "build", "git"]}}),
                "change": {"type": "object", "required": ["path", "old", "new", "text"],
                           "properties": {"file": {"type": "string"},
                                          "path": {"type": "string"}, "old": {}, "new": {},
                                          "text": {"type": "string"}},
                           "additionalProperties": False}}),
        "playtest-log.schema.json": document(
            "playtest-log", "pnp playtest export --format json",
            "Every playtest logged (docs/iterate.md).", {
                "playtests": array(obj({
                    "id": {"type": "integer"}, "game": {"enum": ["orbitus", "satellites"]},
                    "design": DESIGN["properties"]["hash"],
                    "version": nullable({"type": "string"}),
                    "cards": nullable({"type": "string"}),
                    "played": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
                    "players": array(NAME, "in seat order", minItems=2),
                    "seats": array({"type": "string"}, minItems=2),
                    "scores": array({"type": "integer"}),
                    "winners": array(COUNT, "the seats that won; none: a draw"),
                    "components": nullable(array({"type": "object",
                                                  "additionalProperties": {"type": "integer"}})),
                    "minutes": nullable({"type": "integer", "minimum": 1}),
                    "turns": nullable(COUNT),
                    "source": nullable({"type": "string"}),
                    "notes": {"type": "string"},
                    "created": {"type": "number"},
                })),
            }, {}),
        "sim-compare.schema.json": document(
            "sim-compare", "pnp sim compare --json (and OUT/compare.json)",
            "Two runs on the same seeds (or independent ones): every measure's difference "
            "B - A with its 95 % interval, its test and its adjusted p-value, per player "
            "count (docs/sim.md).", SIM_COMPARE,
            {**{k: SIM_DEFS[k] for k in ("interval", "difference")}, "row": ROW},
            optional=("think",)),
        "sim-sprt.schema.json": document(
            "sim-sprt", "pnp sim compare --sprt --json (and OUT/compare.json)",
            "A sequential test on paired games: the decision, the pairs it took and those a "
            "fixed-size test needs (docs/sim.md).", SIM_SPRT, {}),
        "sim-ladder.schema.json": document(
            "sim-ladder", "pnp sim ladder GAME --json (and OUT/ladder.json)",
            "A round robin of bots: ratings with intervals and every pairing's win share "
            "(docs/sim.md).", SIM_LADDER, {"interval": INTERVAL}, optional=("sprt",)),
        "sim-tune.schema.json": document(
            "sim-tune", "pnp sim tune GAME --json (and OUT/result.json)",
            "A tuning: the proposal, its diff and its evidence (docs/sim.md).", SIM_TUNE,
            {k: SIM_DEFS[k] for k in ("interval", "difference")} | {"row": ROW}),
    }


def text(schema: Schema) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, schema in schemas().items():
        (OUT / name).write_text(text(schema), encoding="utf-8")
        print(f"wrote docs/schemas/{name}")


if __name__ == "__main__":
    main()
