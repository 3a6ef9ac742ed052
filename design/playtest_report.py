"""``pnp playtest report``: what people played, per design version and player count, beside
what the simulator's bots predict for the same version and player count.

For each version: the games, each seat's win rate (a shared win counts as a share), the
mean final score and score components, the length (minutes; moves where a record was
logged); beside them the bots' seat win rates with their 95 % intervals and the range
holding 95 % of the bots' games for every other number. A human figure outside the bots'
95 % range is flagged, naming the bots: random and greedy bots do not play like people, so a
flag says where to look, not that the design is wrong (nor that the bots are right).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.predict import central
from web.playtests import Playtest

CAVEAT = ("The bots' figures come from {bots} bots, which do not play like people: random "
          "bots play any legal move, greedy bots the move that scores most at once, and "
          "neither plans, bluffs or learns a table. A flag says where people and bots "
          "differ, worth a look; it does not say which of them is right.")
FEW = 10  # fewer games than this: the people's figures are anecdotes, said so


@dataclass(frozen=True)
class Group:
    game: str
    design: str
    version: str | None
    players: int
    tests: list[Playtest]


def groups(found: Sequence[Playtest]) -> list[Group]:
    """The playtests by game, design hash and player count, in the order first logged."""
    out: dict[tuple[str, str, int], list[Playtest]] = {}
    for p in found:
        out.setdefault((p.game, p.design, len(p.players)), []).append(p)
    return [Group(g, d, next((t.version for t in tests if t.version), None), n, tests)
            for (g, d, n), tests in out.items()]


def _r(x: float, digits: int = 3) -> float:
    return round(float(x), digits)


def people(group: Group) -> dict[str, Any]:
    """The people's figures of a group."""
    n = len(group.tests)
    seats = group.players
    wins = [0.0] * seats
    draws = 0
    totals: list[list[int]] = [[] for _ in range(seats)]
    components: dict[str, list[int]] = {}
    minutes = [t.minutes for t in group.tests if t.minutes is not None]
    turns = [t.turns for t in group.tests if t.turns is not None]
    for test in group.tests:
        if test.winners:
            for w in test.winners:
                wins[w] += 1 / len(test.winners)
        else:
            draws += 1
        for seat, score in enumerate(test.scores):
            totals[seat].append(score)
        for seat_parts in test.components or []:
            for name, value in seat_parts.items():
                components.setdefault(name, []).append(value)
    from sim.stats import wilson

    return {
        "games": n,
        "dates": [group.tests[0].played, group.tests[-1].played],
        "seats": [{"seat": group.tests[0].seats[k], "wins": _r(wins[k]),
                   "rate": _r(wins[k] / n), "ci": [_r(x) for x in wilson(wins[k], n)],
                   "mean_score": _r(sum(totals[k]) / n)} for k in range(seats)],
        "draws": draws,
        "mean_score": _r(sum(sum(t) for t in totals) / (n * seats)),
        "components": {k: _r(sum(v) / len(v)) for k, v in components.items()},
        "minutes": _r(sum(minutes) / len(minutes), 1) if minutes else None,
        "turns": _r(sum(turns) / len(turns), 1) if turns else None,
    }


def flags(group: Group, mine: dict[str, Any], bots: dict[str, Any], bot_names: str
          ) -> list[str]:
    """Where the people's figures fall outside the bots' 95 % ranges."""
    out = []
    for seat, theirs in zip(mine["seats"], bots["seats"], strict=False):
        low, high = theirs["ci"]
        if not low <= seat["rate"] <= high:
            out.append(f"{seat['seat']} wins {seat['rate']:.0%} of the people's games, outside "
                       f"the {bot_names} bots' 95 % range ({low:.0%} to {high:.0%})")
    hist = bots["scores"].get("histogram", {})
    if hist:
        low_s, high_s = central(hist)
        for seat in mine["seats"]:
            if not low_s <= seat["mean_score"] <= high_s:
                out.append(f"{seat['seat']} scores {seat['mean_score']:g} on average, outside "
                           f"the range of 95 % of the {bot_names} bots' scores ({low_s} to "
                           f"{high_s})")
    for name, value in mine["components"].items():
        theirs = bots["components"].get(name)
        if not theirs or not theirs.get("histogram"):
            continue
        low_c, high_c = central(theirs["histogram"])
        if not low_c <= value <= high_c:
            out.append(f"{theirs.get('label', name)}: {value:+g} a player on average, outside "
                       f"the range of 95 % of the {bot_names} bots' ({low_c:+d} to "
                       f"{high_c:+d})")
    length = bots.get("length", {}).get("histogram")
    if mine["turns"] is not None and length:
        low_t, high_t = central(length)
        if not low_t <= mine["turns"] <= high_t:
            out.append(f"the games last {mine['turns']:g} moves on average, outside the range "
                       f"of 95 % of the {bot_names} bots' games ({low_t} to {high_t})")
    return out


Predictor = Callable[[Group], tuple[dict[str, Any] | None, str]]


def report(found: Sequence[Playtest], predict: Predictor, bot_names: str) -> dict[str, Any]:
    """The report of ``found``: per group the people's figures, the bots' (``predict``
    gives the block and a note, or None and why not) and the flags."""
    out = []
    for group in groups(found):
        mine = people(group)
        bots, note = predict(group)
        out.append({
            "game": group.game, "design": group.design, "version": group.version,
            "stamp": f"v{group.version}·{group.design}" if group.version else group.design,
            "players": group.players, "people": mine, "bots": bots, "bots_note": note,
            "flags": flags(group, mine, bots, bot_names) if bots else [],
        })
    return {"bots": bot_names, "caveat": CAVEAT.format(bots=bot_names), "versions": out}


def _pct(x: float) -> str:
    return f"{x:.0%}"


def text(result: dict[str, Any]) -> str:
    """The report as the terminal shows it."""
    lines: list[str] = []
    for block in result["versions"]:
        mine, bots = block["people"], block["bots"]
        game = block["game"].capitalize()
        first, last = mine["dates"]
        when = first if first == last else f"{first} to {last}"
        lines.append(f"{game} {block['stamp']}, {block['players']} players: {mine['games']} "
                     f"game(s) played ({when})")
        head = f"bots ({result['bots']}, {bots['games']} games)" if bots else "bots"
        lines.append(f"  {'':<22}{'people':<24}{head}")
        for k, seat in enumerate(mine["seats"]):
            theirs = bots["seats"][k] if bots else None
            said = f"{_pct(seat['rate'])} ({seat['wins']:g} of {mine['games']})"
            right = (f"{_pct(theirs['rate'])}  [{_pct(theirs['ci'][0])} to "
                     f"{_pct(theirs['ci'][1])}]") if theirs else ""
            lines.append(f"  {seat['seat'] + ' wins':<22}{said:<24}{right}")
        if bots:
            low, high = central(bots["scores"]["histogram"]) if bots["scores"].get(
                "histogram") else (0, 0)
            right = f"{bots['scores'].get('mean', 0):.1f}  [95 % of games: {low} to {high}]"
        else:
            right = ""
        lines.append(f"  {'mean score':<22}{mine['mean_score']:<24.1f}{right}")
        for name, value in mine["components"].items():
            theirs = bots["components"].get(name) if bots else None
            label = theirs.get("label", name) if theirs else name.replace("planet:", "") \
                .replace("_", " ")
            right = ""
            if theirs and theirs.get("histogram"):
                low_c, high_c = central(theirs["histogram"])
                right = f"{theirs['mean']:+.1f}  [{low_c:+d} to {high_c:+d}]"
            lines.append(f"  {label:<22}{value:<+24.1f}{right}")
        length = []
        if mine["minutes"] is not None:
            length.append(f"{mine['minutes']:.0f} min")
        if mine["turns"] is not None:
            length.append(f"{mine['turns']:.0f} moves")
        right = ""
        if bots and bots.get("length", {}).get("histogram"):
            low_t, high_t = central(bots["length"]["histogram"])
            right = f"{bots['length']['mean']:.0f} moves  [{low_t} to {high_t}]"
        lines.append(f"  {'length':<22}{', '.join(length) or '-':<24}{right}")
        if not bots:
            lines.append(f"  no prediction: {block['bots_note']}")
        elif block["bots_note"]:
            lines.append(f"  {block['bots_note']}")
        for flag in block["flags"]:
            lines.append(f"  ! {flag}")
        if mine["games"] < FEW:
            lines.append(f"  ({mine['games']} game(s): too few for the people's rates to be "
                         f"more than anecdotes)")
        lines.append("")
    if not result["versions"]:
        lines.append("no playtests logged (pnp playtest add logs one)")
    else:
        import textwrap

        lines += textwrap.wrap(result["caveat"], 88)
    return "\n".join(lines) + "\n"


def definitions_for(group: Group, cards: Path | None, kept: dict[str, Any] | None,
                    temp: tempfile.TemporaryDirectory[str]) -> tuple[Path | None, str]:
    """The definitions folder of a group's design: the one in use when it has that hash,
    else the kept data made a folder again; ``(None, why)`` when neither."""
    from cards.design_cache import design

    try:
        here = design(group.game, cards)
    except Exception:  # noqa: BLE001 - the definitions in use may be broken: then not them
        here = None
    if here is not None and here.hash == group.design:
        return cards, ""
    if kept is None:
        return None, (f"the definitions of {group.design} are not kept in the log and are not "
                      f"the ones in use ({here.hash if here else 'unreadable'})")
    from cards.snapshot import materialise

    folder = Path(temp.name) / group.design
    materialise(kept, folder)
    return folder, f"(simulated with the definitions kept for {group.design})"
