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
    budget = f", budget {summary['budget']}" if "mcts" in summary["bots"] else ""
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
            + (f" (budget {_e(summary['budget'])})" if "mcts" in summary["bots"] else "")
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
    return page(f"pnp-sim {summary['game']}", body)


# --- compare ----------------------------------------------------------------------------------


def compare_terminal(result: dict[str, Any]) -> str:
    from cards.safe_text import printable

    lines = [f"compare {result['game']}: A = {printable(result['a'])}, B = "
             f"{printable(result['b'])}; bots "
             f"{','.join(result['bots'])}, seed {result['seed']}, {result['games']:,} games "
             f"per player count each",
             "differences B - A with 95 % intervals; * marks a significant difference "
             "(p < 0.05)"]
    for block in result["by_players"]:
        lines.append("")
        lines.append(f"{block['players']} players")
        for row in block["rows"]:
            d = row["difference"]
            mark = "*" if d["significant"] else " "
            lines.append(f"  {mark} {row['label']:<34} {_fmt(row, d['a']):>9} -> "
                         f"{_fmt(row, d['b']):>9}  {_fmt(row, d['diff'], True):>9} "
                         f"[{_fmt(row, d['ci'][0], True)}, {_fmt(row, d['ci'][1], True)}]  "
                         f"{_p(d['p'])}")
    significant = sum(1 for b in result["by_players"] for r in b["rows"]
                      if r["difference"]["significant"])
    lines.append("")
    lines.append(f"{significant} significant difference(s)")
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
            f"<code>{_e(result['command'])}</code></p>",
            "<p class=\"note\">Differences are B - A with 95 % intervals (proportions: "
            "Newcombe's score interval and the two-proportion z-test; means: Welch's "
            "normal approximation). Marked rows are significant at 5 %.</p>"]
    body += plots_html(plots, missing)
    for block in result["by_players"]:
        body.append(f"<h2>{block['players']} players</h2>")
        rows = []
        for row in block["rows"]:
            d = row["difference"]
            cls = " class=\"sig\"" if d["significant"] else ""
            rows.append([f"<span{cls}>{_e(row['label'])}</span>", _fmt(row, d["a"]),
                         _fmt(row, d["b"]), f"<span{cls}>{_fmt(row, d['diff'], True)}</span>",
                         f"[{_fmt(row, d['ci'][0], True)}, {_fmt(row, d['ci'][1], True)}]",
                         _p(d["p"])])
        body.append(_table(["measure", "A", "B", "B - A", "95 % interval", "test"], rows))
    return page(f"pnp-sim compare {result['game']}", body)
