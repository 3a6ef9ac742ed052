"""The report of a run for people: the terminal summary and ``report.html``; and the same
for ``compare``. Both read the summary (:mod:`sim.summary`), never the records."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any


def pct(x: float, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f} %"


def interval(ci: Sequence[float]) -> str:
    return f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def _p(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def first_player_line(block: dict[str, Any]) -> str:
    fp = block["first_player"]
    sign = "+" if fp["advantage"] >= 0 else "-"
    verdict = "significant" if fp["significant"] else "not significant"
    of = (f" of the {fp['decided_games']:,} games not drawn"
          if fp["decided_games"] != block["games"] else "")
    return (f"first player (seat {fp['seat']}) wins {pct(fp['rate'])} {interval(fp['ci'])}{of} "
            f"against a fair {pct(fp['fair'])}: {sign}{abs(100 * fp['advantage']):.1f} points, "
            f"{verdict} ({_p(fp['p'])})")


def seats_line(block: dict[str, Any]) -> str:
    test = block["seats_differ"]
    verdict = "differ significantly" if test["significant"] else "do not differ significantly"
    return (f"the seats' win rates {verdict} (chi-square {test['chi_square']:.2f}, "
            f"{test['df']} df, {_p(test['p'])})")


def terminal(summary: dict[str, Any], extra: Sequence[str] = ()) -> str:
    """The terminal summary: per player count, who wins, how long, what scores, what is
    done; then where the report files are (``extra``)."""
    lines = []
    bots = ",".join(summary["bots"])
    budget = f", budget {summary['budget']}" if summary.get("budget") else ""
    if summary.get("think"):
        budget = f", thinking {summary['think']} a decision"
    from cards.safe_text import printable

    lines.append(f"{summary['game'].capitalize()} from {printable(summary['definitions'])}: "
                 f"bots {bots}"
                 f"{budget}, seed {summary['seed']}")
    for block in summary["by_players"]:
        n = block["games"]
        lines.append("")
        lines.append(f"{block['players']} players, {n:,} games")
        lines.append("  win rate per seat (95 % Wilson interval; shared wins count as a share)")
        for seat in block["seats"]:
            mark = "  first" if seat["first"] else ""
            lines.append(f"    seat {seat['seat']}  {pct(seat['rate']):>7}  "
                         f"{interval(seat['ci']):<14} mean score {seat['mean_score']:+.2f}{mark}")
        lines.append("  " + first_player_line(block))
        lines.append("  " + seats_line(block))
        if block["draws"]["count"]:
            lines.append(f"  draws: {block['draws']['count']:,} ({pct(block['draws']['rate'])})")
        if len(block["bots"]) > 1:
            shown = "; ".join(f"{b['bot']} {pct(b['rate'])} {interval(b['ci'])}"
                              for b in block["bots"])
            lines.append(f"  win rate per bot: {shown}")
        length = block["length"]
        lines.append(f"  game length: {length['mean']:.1f} turns on average (median "
                     f"{length['median']}, 90 % between {length['p5']} and {length['p95']})")
        comps = block["components"]
        if comps:
            shown = ", ".join(f"{c['label']} {c['mean']:+.2f}" for c in comps.values())
            lines.append(f"  mean per player: {shown}")
        least = least_paying(block)
        if least:
            lines.append(f"  planet type that pays least: {least}")
        for name, sizes in block["per_player_counts"].items():
            if sizes:
                shown = ", ".join(f"{k}: {v:.2f}" for k, v in sizes.items())
                lines.append(f"  {name.replace('_', ' ')} per player: {shown}")
        acts = ", ".join(f"{k} {pct(v['share'])}" for k, v in block["actions"].items())
        lines.append(f"  actions: {acts}")
        ends = ", ".join(f"{k} {v:,}" for k, v in block["ends"].items())
        lines.append(f"  how games ended: {ends}")
        for key, values in block["facts"].items():
            shown = ", ".join(f"{k} {v:,}" for k, v in values.items())
            lines.append(f"  {key.replace('_', ' ')}: {shown}")
        cards = block.get("cards")
        if cards:
            most = max(cards, key=lambda c: (c["placed"], c["card"]))
            fewest = min(cards, key=lambda c: (c["placed"], c["card"]))
            lines.append(f"  cards: {most['card']} placed most ({most['placed']:.2f} per game), "
                         f"{fewest['card']} least ({fewest['placed']:.2f})")
        impact = [c for c in block.get("card_impact", []) if c["difference"]["significant"]]
        if impact:
            shown = ", ".join(f"{c['card']} {100 * c['difference']['diff']:+.1f}"
                              for c in impact[:6])
            lines.append(f"  card impact (win rate with the card in one's system minus "
                         f"without, points; correlation, not cause): {shown}")
        if block.get("feel"):
            lines.append("  " + feel_line(block["feel"]))
    lines.extend(extra)
    return "\n".join(lines) + "\n"


def least_paying(block: dict[str, Any]) -> str | None:
    """The planet type with the lowest mean points per player, in words."""
    planets = {k: v for k, v in block["components"].items() if k.startswith("planet:")}
    if not planets:
        return None
    name, entry = min(planets.items(), key=lambda kv: (kv[1]["mean"], kv[0]))
    best = max(v["mean"] for v in planets.values())
    return (f"{name.split(':', 1)[1]} ({entry['mean']:+.2f} points per player; the best "
            f"type {best:+.2f})")


# --- HTML -------------------------------------------------------------------------------------

STYLE = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:72em;color:#222;padding:0 1em}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0 1em}td,th{padding:.2em .7em;text-align:right;
border-bottom:1px solid #eee}th{background:#f4f4f4}td:first-child,th:first-child{text-align:left}
.sig{color:#b00;font-weight:bold}.note{color:#555}img{max-width:100%;margin:.5em 0}
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _table(head: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    out = ["<table><tr>", *(f"<th>{_e(h)}</th>" for h in head), "</tr>"]
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>")
    out.append("</table>")
    return "".join(out)


def page(title: str, body: list[str]) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{_e(title)}</title><style>{STYLE}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def plots_html(plots: Sequence[str], missing: str | None) -> list[str]:
    if missing:
        return [f"<p class=\"note\">{_e(missing)}</p>"]
    return [f"<img src=\"{_e(p)}\" alt=\"{_e(p)}\">" for p in plots]


def html_report(summary: dict[str, Any], plots: Sequence[str], missing: str | None) -> str:
    """``report.html``: every table of the summary and the plots (files beside it)."""
    bots = ", ".join(summary["bots"])
    body = [f"<h1>pnp-sim: {_e(summary['game'].capitalize())}</h1>",
            f"<p>Definitions {_e(summary['definitions'])}; bots {_e(bots)}"
            + (f" (budget {_e(summary['budget'])})" if summary.get("budget") else "")
            + f"; seed {_e(summary['seed'])}; {_e(summary['games'])} games per player "
            f"count. Reproduce: <code>{_e(summary['command'])}</code></p>"]
    body += plots_html(plots, missing)
    for block in summary["by_players"]:
        body.append(f"<h2>{block['players']} players, {block['games']:,} games</h2>")
        body.append(f"<p>{_e(first_player_line(block))}; "
                    f"{_e(seats_line(block))}.</p>")
        body.append(_table(["seat", "win rate", "95 % interval", "mean score"], [
            [f"{s['seat']}{' (first)' if s['first'] else ''}", pct(s["rate"]),
             interval(s["ci"]), f"{s['mean_score']:+.2f}"] for s in block["seats"]]))
        if len(block["bots"]) > 1:
            body.append(_table(["bot", "seats played", "win rate", "95 % interval"], [
                [_e(b["bot"]), b["seats_played"], pct(b["rate"]), interval(b["ci"])]
                for b in block["bots"]]))
        length = block["length"]
        body.append(f"<p>Game length: {length['mean']:.1f} turns on average (sd "
                    f"{length['sd']:.1f}; median {length['median']}; 90 % between "
                    f"{length['p5']} and {length['p95']}).</p>")
        body.append(_table(["score component (per player)", "mean", "sd", "min", "median",
                            "max"], [
            [_e(c["label"]), f"{c['mean']:+.2f}", f"{c['sd']:.2f}", c["min"], c["median"],
             c["max"]] for c in block["components"].values()]))
        for name, sizes in block["per_player_counts"].items():
            if sizes:
                body.append(_table([f"{name.replace('_', ' ')}", "per player and game"],
                                   [[_e(k), f"{v:.3f}"] for k, v in sizes.items()]))
        body.append(_table(["action", "taken", "share", "per game"], [
            [_e(k), f"{v['count']:,}", pct(v["share"]), f"{v['per_game']:.2f}"]
            for k, v in block["actions"].items()]))
        body.append(_table(["how the game ended", "games"],
                           [[_e(k), f"{v:,}"] for k, v in block["ends"].items()]))
        for key, values in block["facts"].items():
            body.append(_table([key.replace("_", " "), "games"],
                               [[_e(k), f"{v:,}"] for k, v in values.items()]))
        cards = block.get("cards")
        if cards:
            body.append(_table(["card", "placed", "removed", "discarded", "in a system at the "
                                "end", "points of those systems"], [
                [_e(c["card"]), f"{c['placed']:.3f}", f"{c['removed']:.3f}",
                 f"{c['discarded']:.3f}", f"{c['in_systems']:.3f}",
                 "" if c["system_points"] is None else f"{c['system_points']:+.2f}"]
                for c in cards]))
            body.append("<p class=\"note\">Per game: how often each card was placed, "
                        "removed and discarded, and lay in a system at the end; the last "
                        "column is the average final score of the systems holding it.</p>")
        impact = block.get("card_impact")
        if impact:
            body.append("<h3>Card impact</h3>")
            body.append(f"<p class=\"note\">{_e(IMPACT_WARNING)}</p>")
            rows = []
            for c in impact:
                d = c["difference"]
                cls = " class=\"sig\"" if d["significant"] else ""
                rows.append([_e(c["card"]), f"{c['with']:,}", pct(d["b"]), pct(d["a"]),
                             f"<span{cls}>{100 * d['diff']:+.1f}</span>",
                             f"[{100 * d['ci'][0]:+.1f}, {100 * d['ci'][1]:+.1f}]",
                             _p(c["p_adjusted"])])
            body.append(_table(["card", "seat-games with it", "win rate with it",
                                "without", "difference (points)", "95 % interval",
                                "Holm-adjusted test"], rows))
        feel = block.get("feel")
        if feel:
            body.append("<h3>How the games feel</h3>")
            body.append(_table(["measure", "value"], feel_rows(feel)))
            body.append(f"<p class=\"note\">{_e(FEEL_NOTE)}</p>")
    return page(f"pnp-sim {summary['game']}", body)


IMPACT_WARNING = ("Win rate of a seat whose system held the card at the end, against the "
                  "seats whose systems did not, with Welch's 95 % interval. This is "
                  "correlation, not cause: a card lies in the systems of players who were "
                  "doing well for other reasons too. To know what a card does, change it and "
                  "run pnp sim compare.")
FEEL_NOTE = ("From the bots' own evaluation after every move: lead changes per game; drama, "
             "how far behind the eventual winner ever was (evaluation points) and the share "
             "of moves it was behind; decisiveness, the share of the game played before the "
             "winner led for good; kingmaking (3 players or more), the share of games in "
             "which a player who could no longer win had a move that changed who won; the "
             "branching factor, the mean number of legal actions in each tenth of the game.")


def feel_rows(feel: dict[str, Any]) -> list[list[str]]:
    def num(x: float | None, fmt: str = ".2f") -> str:
        return "-" if x is None else format(x, fmt)

    branching = " / ".join("-" if b is None else f"{b:.0f}" for b in feel["branching"])
    return [["games measured", f"{feel['games']:,}"],
            ["lead changes per game", num(feel["lead_changes"])],
            ["drama: the winner's largest deficit", num(feel["drama"])],
            ["share of moves the winner was behind", "-" if feel["behind"] is None
             else pct(feel["behind"])],
            ["decisiveness", num(feel["decisiveness"])],
            ["kingmaking", "-" if feel["kingmaking"] is None else pct(feel["kingmaking"])],
            ["branching factor, each tenth of the game", _e(branching)]]


def feel_line(feel: dict[str, Any]) -> str:
    """The feel of a player count in one line of the terminal report."""
    parts = [f"{feel['lead_changes']:.1f} lead changes"]
    if feel["drama"] is not None:
        parts.append(f"drama {feel['drama']:.1f} (winner behind {pct(feel['behind'], 0)} of "
                     f"the moves)")
        parts.append(f"decisiveness {feel['decisiveness']:.2f}")
    if feel["kingmaking"] is not None:
        parts.append(f"kingmaking {pct(feel['kingmaking'], 0)}")
    known = [b for b in feel["branching"] if b is not None]
    if known:
        parts.append(f"branching {known[0]:.0f} -> {max(known):.0f} -> {known[-1]:.0f}")
    return "feel: " + ", ".join(parts)


# --- compare ----------------------------------------------------------------------------------


def _paired_words(result: dict[str, Any]) -> str:
    if result.get("paired", True):
        return "the same seeds (paired games: mean per-game difference, paired t test)"
    return (f"independent seeds (B seeded {result['seed_b']}: two independent means, Welch's "
            f"test)")


def _stars_words(result: dict[str, Any]) -> str:
    alpha = result.get("alpha", 0.05)
    if result.get("primary"):
        return (f"* marks the primary measure {result['primary']} when significant "
                f"(p < {alpha:g}); the other rows are for reading, not tested")
    how = {"holm": "Holm's adjustment across all rows", "bh": "Benjamini-Hochberg across all "
           "rows", "none": "no adjustment (every row on its own)"}[result.get("correction",
                                                                           "holm")]
    return f"* marks a significant difference (adjusted p < {alpha:g}, {how})"


def compare_terminal(result: dict[str, Any]) -> str:
    from cards.safe_text import printable

    if "sprt" in result:
        return sprt_terminal(result)
    lines = [f"compare {result['game']}: A = {printable(result['a'])}, B = "
             f"{printable(result['b'])}; bots "
             f"{','.join(result['bots'])}, seed {result['seed']}, {result['games']:,} games "
             f"per player count each, on {_paired_words(result)}",
             f"differences B - A with 95 % intervals; {_stars_words(result)}"]
    for block in result["by_players"]:
        lines.append("")
        lines.append(f"{block['players']} players, {block.get('games', 0):,} games")
        for row in block["rows"]:
            d = row["difference"]
            mark = "*" if row["significant"] else " "
            moved = ""
            if "pairs" in row:
                pr = row["pairs"]
                moved = f"  up {pr['up']}, down {pr['down']}"
            q = row.get("p_adjusted")
            adjusted = f", adjusted {_p(q)}" if q is not None and q != d["p"] else ""
            lines.append(f"  {mark} {row['label']:<40} {_fmt(row, d['a']):>9} -> "
                         f"{_fmt(row, d['b']):>9}  {_fmt(row, d['diff'], True):>9} "
                         f"[{_fmt(row, d['ci'][0], True)}, {_fmt(row, d['ci'][1], True)}]  "
                         f"{_p(d['p'])}{adjusted}{moved}")
            if row.get("same_as"):
                lines.append(f"      (game by game the same change as: "
                             f"{', '.join(row['same_as'])})")
    significant = sum(1 for b in result["by_players"] for r in b["rows"] if r["significant"])
    lines.append("")
    lines.append(f"{significant} significant difference(s)")
    return "\n".join(lines) + "\n"


def sprt_words(result: dict[str, Any]) -> list[str]:
    """What a sequential test found, in sentences."""
    s = result["sprt"]
    if s["decision"] == "H1":
        verdict = f"a change: {s['direction']} by about {s['effect']:g} or more"
    elif s["decision"] == "H0":
        verdict = f"no change as large as {s['effect']:g}"
    else:
        verdict = f"undecided after the most pairs allowed ({s['most']:,}; raise --games)"
    return [f"sequential test of {s['metric']} ({result['players']} players, alpha "
            f"{s['alpha']:g}, beta {s['beta']:g}, effect {s['effect']:g}): {verdict}",
            f"decided after {s['pairs']:,} pairs of games; a fixed-size test of the same "
            f"alpha and beta needs {s['fixed_pairs']:,} pairs (at the spread seen)",
            f"mean difference B - A {s['mean_difference']:+.4g} (sd {s['sd']:.4g}); "
            f"log-likelihood ratios {_llr(s['llr'][0])} (B above) and {_llr(s['llr'][1])} "
            f"(B below), bounds [{s['bounds'][0]:.3f}, {s['bounds'][1]:.3f}]"]


def _llr(x: float | None) -> str:
    return "infinite" if x is None else f"{x:.3f}"


def sprt_terminal(result: dict[str, Any]) -> str:
    from cards.safe_text import printable

    lines = [f"compare {result['game']} --sprt: A = {printable(result['a'])}, B = "
             f"{printable(result['b'])}; bots {','.join(result['bots'])}, seed "
             f"{result['seed']}"]
    lines += sprt_words(result)
    return "\n".join(lines) + "\n"


def _fmt(row: dict[str, Any], x: float, signed: bool = False) -> str:
    if row["kind"] == "proportion":
        return f"{100 * x:+.1f} %" if signed else f"{100 * x:.1f} %"
    return f"{x:+.2f}" if signed else f"{x:.2f}"


def compare_html(result: dict[str, Any], plots: Sequence[str], missing: str | None) -> str:
    body = [f"<h1>pnp-sim compare: {_e(result['game'].capitalize())}</h1>",
            f"<p>A = {_e(result['a'])}, B = {_e(result['b'])}; bots "
            f"{_e(', '.join(result['bots']))}; seed {_e(result['seed'])}; "
            f"{_e(result['games'])} games per player count each. Reproduce: "
            f"<code>{_e(result['command'])}</code></p>"]
    if "sprt" in result:
        body += [f"<p>{_e(line)}</p>" for line in sprt_words(result)]
        return page(f"pnp-sim compare {result['game']}", body)
    body.append(f"<p class=\"note\">Differences are B - A with 95 % intervals, on "
                f"{_e(_paired_words(result))}; seat rows add McNemar's exact test of who won "
                f"outright. {_e(_stars_words(result))}.</p>")
    body += plots_html(plots, missing)
    for block in result["by_players"]:
        body.append(f"<h2>{block['players']} players</h2>")
        rows = []
        for row in block["rows"]:
            d = row["difference"]
            cls = " class=\"sig\"" if row["significant"] else ""
            q = row.get("p_adjusted")
            pairs = row.get("pairs")
            extra = [_p(q) if q is not None else "not tested"]
            if pairs is not None:
                extra.append(f"{pairs['up']} / {pairs['down']} / {pairs['same']}")
            mc = row.get("mcnemar")
            extra.append(f"{mc['only_a']} : {mc['only_b']}, {_p(mc['p'])}" if mc else "")
            same = (f"<br><small>the same change as: {_e(', '.join(row['same_as']))}"
                    f"</small>" if row.get("same_as") else "")
            rows.append([f"<span{cls}>{_e(row['label'])}</span>{same}", _fmt(row, d["a"]),
                         _fmt(row, d["b"]), f"<span{cls}>{_fmt(row, d['diff'], True)}</span>",
                         f"[{_fmt(row, d['ci'][0], True)}, {_fmt(row, d['ci'][1], True)}]",
                         _p(d["p"]), *extra])
        head = ["measure", "A", "B", "B - A", "95 % interval", "test", "adjusted"]
        if result.get("paired", True):
            head += ["games up / down / same", "McNemar: won only in A : only in B"]
        else:
            head.append("")
        body.append(_table(head, rows))
    return page(f"pnp-sim compare {result['game']}", body)


# --- the ladder and balance per rung ----------------------------------------------------------


def ladder_html(result: dict[str, Any], plots: Sequence[str], missing: str | None) -> str:
    body = [f"<h1>pnp-sim ladder: {_e(result['game'].capitalize())}</h1>",
            f"<p>Definitions {_e(result['definitions'])}; {_e(result['players'])} players; "
            f"{'at most ' if 'sprt' in result else ''}{_e(result['games'])} games per "
            f"pairing, the line-up turning a seat every game; seed {_e(result['seed'])}."
            + (f" Each pairing ended as soon as its sequential test (alpha "
               f"{_e(result['sprt']['alpha'])}, beta {_e(result['sprt']['beta'])}) decided "
               f"whether the higher rung wins {_e(result['sprt']['effect'])} more or less "
               f"than half, or within that." if "sprt" in result else "") + "</p>",
            "<p class=\"note\">Ratings: the Bradley-Terry model on the Elo scale (400 "
            "points: the stronger wins 10 of 11), the first rung at 0, 95 % intervals. A "
            "shared win is shared.</p>"]
    body += plots_html(plots, missing)
    body.append(_table(["rung", "rating", "95 % interval", "games", "points won"],
                       [[_e(r["bot"]), f"{r['elo']:.0f}", f"[{r['ci'][0]:.0f}, "
                         f"{r['ci'][1]:.0f}]", r["games"], f"{r['points']:.1f}"]
                        for r in result["ratings"]]))
    rows = []
    for row in result["pairings"]:
        cls = " class=\"sig\"" if row["significant"] else ""
        rows.append([_e(row["high"]), _e(row["low"]), row["games"],
                     f"<span{cls}>{pct(row['high_share'])}</span>", interval(row["ci"]),
                     _p(row["p_above_half"]), "yes" if row["adjacent"] else ""]
                    + ([_e(row["decision"])] if "decision" in row else []))
    body.append("<h2>Head to head</h2>")
    body.append(_table(["rung", "against", "games", "win share", "95 % interval",
                        "one-sided test (above one half)", "next rung down"]
                       + (["sequential test"] if "sprt" in result else []), rows))
    verdict = "yes" if result["each_rung_beats_the_one_below"] else "no"
    body.append(f"<p>Each rung beats the one below significantly: <b>{verdict}</b>.</p>")
    return page(f"pnp-sim ladder {result['game']}", body)


def skill_terminal(result: dict[str, Any], conclusions: Sequence[str]) -> str:
    from cards.safe_text import printable

    lines = [f"{result['game'].capitalize()} from {printable(result['definitions'])}, "
             f"balance at every rung of skill ({result['games']:,} games per player count "
             f"and rung, seed {result['seed']})"]
    for rung in result["rungs"]:
        lines.append("")
        lines.append(f"rung {rung['bot']}")
        for block in rung["report"]["by_players"]:
            seats = ", ".join(pct(s["rate"]) for s in block["seats"])
            lines.append(f"  {block['players']} players: seats win {seats}; "
                         f"{first_player_line(block)}; {seats_line(block)}; mean length "
                         f"{block['length'].get('mean', 0):.1f} turns, score "
                         f"{block['scores'].get('mean', 0):+.2f}")
    lines.append("")
    lines += conclusions
    return "\n".join(lines) + "\n"


def conclusion_lines(found: list[dict[str, Any]]) -> list[str]:
    """One line per conclusion of a run at every rung: whether it holds at every rung, at
    none, or changes with skill."""
    lines = []
    for c in found:
        yes = [b for b, v in c["at"].items() if v["significant"]]
        no = [b for b, v in c["at"].items() if not v["significant"]]
        if c["changes_with_skill"]:
            lines.append(f"{c['players']} players: {c['claim']} with {', '.join(yes)}, not "
                         f"with {', '.join(no)}: the conclusion changes with skill")
        elif yes:
            lines.append(f"{c['players']} players: {c['claim']} at every rung")
        else:
            lines.append(f"{c['players']} players: {c['claim']} at no rung")
    return lines


def skill_html(result: dict[str, Any]) -> str:
    body = [f"<h1>pnp-sim: {_e(result['game'].capitalize())} at every rung of skill</h1>",
            f"<p>Definitions {_e(result['definitions'])}; {_e(result['games'])} games per "
            f"player count and rung; seed {_e(result['seed'])}. Each rung's full report: "
            + ", ".join(f"<a href=\"{_e(r['folder'])}/report.html\">{_e(r['bot'])}</a>"
                        for r in result["rungs"]) + ".</p>",
            "<h2>Conclusions</h2>",
            "<ul>" + "".join(f"<li>{_e(line)}</li>"
                             for line in conclusion_lines(result["conclusions"])) + "</ul>"]
    counts = sorted({b["players"] for r in result["rungs"] for b in r["report"]["by_players"]})
    for players in counts:
        rows = []
        for rung in result["rungs"]:
            block = next((b for b in rung["report"]["by_players"] if b["players"] == players),
                         None)
            if block is None:
                continue
            fp, sd = block["first_player"], block["seats_differ"]
            rows.append([_e(rung["bot"]),
                         ", ".join(f"{pct(s['rate'])} {interval(s['ci'])}"
                                   for s in block["seats"]),
                         f"{fp['advantage'] * 100:+.1f} points, {_p(fp['p'])}",
                         _p(sd["p"]), f"{block['length'].get('mean', 0):.1f}",
                         f"{block['scores'].get('mean', 0):+.2f}"])
        body.append(f"<h2>{players} players</h2>")
        body.append(_table(["rung", "win rate per seat (95 % interval)", "first player",
                            "seats equal?", "mean length", "mean score"], rows))
    return page(f"pnp-sim {result['game']} per rung", body)


# --- tuning -----------------------------------------------------------------------------------


def _values(values: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in values.items()) or "none"


def tune_lines(result: dict[str, Any]) -> list[str]:
    changed = {k: (result["original"][k], result["best"][k]) for k in result["changed"]}
    lines = [f"targets: {', '.join(result['targets'])}; {result['trials']} trials of "
             f"{result['games']:,} games per player count ({', '.join(result['bots'])})"]
    if changed:
        lines.append("proposal: " + ", ".join(f"{k} {a} -> {b}" for k, (a, b) in
                                             changed.items())
                     + f" (loss {result['loss']:.3f}; the definitions as they are: "
                       f"{_loss(result['original_loss'])})")
    else:
        lines.append(f"proposal: keep the definitions as they are (loss {result['loss']:.3f}: "
                     f"no trial did better by more than what its changes cost)")
    return lines


def _loss(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def tune_terminal(result: dict[str, Any]) -> str:
    from cards.safe_text import printable

    lines = [f"pnp-sim tune {result['game']}: {printable(result['definitions'])}"]
    lines += tune_lines(result)
    if result["diff"]:
        lines += ["", printable(result["diff"]).rstrip("\n")]
    ev = result["evidence"]
    lines += ["", f"evidence: the original (A) and the proposal (B) on {ev['games']:,} fresh "
                  f"games per player count (seed {ev['seed']}), game by game, Holm-adjusted"]
    for block in ev["by_players"]:
        marked = [r for r in block["rows"] if r["significant"]]
        wanted = [r for r in block["rows"] if r["key"].startswith("seat:")
                  or r["key"] in ("length", "score", "draws")]
        lines.append(f"  {block['players']} players:")
        for row in wanted + [r for r in marked if r not in wanted]:
            d = row["difference"]
            mark = "*" if row["significant"] else " "
            lines.append(f"    {mark} {row['label']:<34} {_fmt(row, d['a']):>9} -> "
                         f"{_fmt(row, d['b']):>9}  [{_fmt(row, d['ci'][0], True)}, "
                         f"{_fmt(row, d['ci'][1], True)}]  adjusted {_p(row['p_adjusted'])}")
    return "\n".join(lines) + "\n"


def tune_html(result: dict[str, Any]) -> str:
    body = [f"<h1>pnp-sim tune: {_e(result['game'].capitalize())}</h1>",
            f"<p>Definitions {_e(result['definitions'])}. Reproduce: "
            f"<code>{_e(result['command'])}</code></p>"]
    body += [f"<p>{_e(line)}</p>" for line in tune_lines(result)]
    if result["diff"]:
        body.append(f"<pre>{_e(result['diff'])}</pre>")
    body.append("<h2>Trials</h2>")
    body.append(_table(["trial", "state", "loss", "numbers"], [
        [t["number"], _e(t["state"]), _loss(t["loss"]), _e(_values(t["values"]))]
        for t in result["history"]]))
    ev = result["evidence"]
    body.append(f"<h2>Evidence</h2><p>The original (A) and the proposal (B) on "
                f"{ev['games']:,} fresh games per player count (seed {ev['seed']}), "
                f"compared game by game, every row Holm-adjusted.</p>")
    for block in ev["by_players"]:
        body.append(f"<h3>{block['players']} players</h3>")
        rows = []
        for row in block["rows"]:
            d = row["difference"]
            cls = " class=\"sig\"" if row["significant"] else ""
            rows.append([f"<span{cls}>{_e(row['label'])}</span>", _fmt(row, d["a"]),
                         _fmt(row, d["b"]), f"[{_fmt(row, d['ci'][0], True)}, "
                         f"{_fmt(row, d['ci'][1], True)}]", _p(row["p_adjusted"])])
        body.append(_table(["measure", "A", "B", "95 % interval of B - A", "adjusted"],
                           rows))
    return page(f"pnp-sim tune {result['game']}", body)
