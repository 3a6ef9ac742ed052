"""The report's pictures (PNG, matplotlib): win rate per seat with intervals, the score
components, game length, actions and (Orbitus) cards. matplotlib is an optional extra
(``pip install -e '.[sim]'``); without it the report says how to get the plots."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

MISSING = ("The plots need matplotlib, which is not installed: pip install -e '.[sim]' "
           "(or pip install matplotlib), then run the same command again with --resume.")
COLOURS = ["#3b6ea8", "#d1843b", "#4e9a5b", "#b8483f", "#7a5ea8", "#8c6d46", "#d17fb7",
           "#7f7f7f", "#b5b83a", "#3bb5c4"]
DPI = 90


def available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"font.size": 9, "axes.spines.top": False,
                         "axes.spines.right": False, "svg.hashsalt": "pnp-sim"})
    return plt


def _save(fig: Any, path: Path) -> None:
    fig.tight_layout()
    fig.savefig(path, dpi=DPI, metadata={"Software": None})
    import matplotlib.pyplot as plt

    plt.close(fig)


def report_plots(summary: dict[str, Any], folder: Path) -> list[str]:
    """Draw every plot of a run into ``folder``; the file names, relative to its parent."""
    plt = _pyplot()
    folder.mkdir(parents=True, exist_ok=True)
    blocks = summary["by_players"]
    names: list[str] = []

    # win rate per seat with Wilson intervals, one group per player count
    fig, ax = plt.subplots(figsize=(max(4.5, 1.3 * len(blocks) + 2.5), 3.2))
    x0 = 0.0
    ticks, labels = [], []
    for block in blocks:
        n = block["players"]
        for seat in block["seats"]:
            x = x0 + seat["seat"] - 1
            rate = seat["rate"]
            low, high = seat["ci"]
            ax.bar(x, 100 * rate, color=COLOURS[(seat["seat"] - 1) % len(COLOURS)],
                   width=0.8)
            ax.errorbar(x, 100 * rate, yerr=[[100 * (rate - low)], [100 * (high - rate)]],
                        color="#222", capsize=2, linewidth=1)
        ax.hlines(100 / n, x0 - 0.45, x0 + n - 0.55, colors="#222", linestyles="dashed",
                  linewidth=1)
        ticks.append(x0 + (n - 1) / 2)
        labels.append(f"{n} players")
        x0 += n + 1
    ax.set_xticks(ticks, labels)
    ax.set_ylabel("win rate per seat, % (95 % interval)")
    ax.set_title("Win rate by seat, first seat on the left; dashed: a fair share")
    _save(fig, folder / "win-rates.png")
    names.append("win-rates.png")

    # score components: boxes from the histograms (5th to 95th percentile whiskers)
    first = blocks[-1]
    comps = list(first["components"].values())
    if comps:
        fig, ax = plt.subplots(figsize=(max(6.0, 0.75 * len(comps) + 1.5), 3.6))
        stats = [{"med": c["median"], "q1": c["p25"], "q3": c["p75"], "whislo": c["p5"],
                  "whishi": c["p95"], "mean": c["mean"], "label": c["label"], "fliers": []}
                 for c in comps if c["n"]]
        ax.bxp(stats, showmeans=True, meanprops={"marker": "D", "markersize": 4,
                                                 "markerfacecolor": "#b8483f",
                                                 "markeredgecolor": "#b8483f"})
        ax.axhline(0, color="#999", linewidth=0.7)
        ax.set_ylabel("per player and game")
        ax.set_title(f"Score components, {first['players']} players")
        ax.set_xlabel("box: middle half; whiskers: 5-95 %; diamond: mean", fontsize=7,
                      color="#555")
        plt.setp(ax.get_xticklabels(), rotation=30, ha="right")
        _save(fig, folder / "score-components.png")
        names.append("score-components.png")

    # game length
    fig, ax = plt.subplots(figsize=(5.5, 3.2))
    for k, block in enumerate(blocks):
        hist = {int(v): c for v, c in block["length"].get("histogram", {}).items()}
        if not hist:
            continue
        xs = sorted(hist)
        total = sum(hist.values())
        ax.step(xs, [100 * hist[x] / total for x in xs], where="mid",
                color=COLOURS[k % len(COLOURS)], label=f"{block['players']} players")
    ax.set_xlabel("turns")
    ax.set_ylabel("% of games")
    ax.set_title("Game length")
    ax.legend(frameon=False)
    _save(fig, folder / "game-length.png")
    names.append("game-length.png")

    # actions
    kinds = list(blocks[0]["actions"])
    fig, ax = plt.subplots(figsize=(5.5, 3.2))
    width = 0.8 / len(blocks)
    for k, block in enumerate(blocks):
        xs = [i + (k - (len(blocks) - 1) / 2) * width for i in range(len(kinds))]
        ax.bar(xs, [block["actions"][kind]["per_game"] for kind in kinds], width=width,
               color=COLOURS[k % len(COLOURS)], label=f"{block['players']} players")
    ax.set_xticks(range(len(kinds)), kinds)
    ax.set_ylabel("per game")
    ax.set_title("Actions taken")
    ax.legend(frameon=False)
    _save(fig, folder / "actions.png")
    names.append("actions.png")

    cards = first.get("cards")
    if cards:
        centres = summary.get("card_centres", {})
        kinds_seen = sorted({centres.get(c["card"], "?") for c in cards})
        colour = {kind: COLOURS[i % len(COLOURS)] for i, kind in enumerate(kinds_seen)}
        fig, ax = plt.subplots(figsize=(min(14, 0.14 * len(cards) + 2), 3.4))
        xs = range(len(cards))
        ax.bar(xs, [c["placed"] for c in cards],
               color=[colour[centres.get(c["card"], "?")] for c in cards], width=0.8)
        ax.bar(xs, [-c["removed"] for c in cards], color="#999", width=0.8)
        ax.set_xticks(list(xs), [c["card"] for c in cards], rotation=90, fontsize=6)
        ax.axhline(0, color="#555", linewidth=0.7)
        ax.set_ylabel("per game: placed (up), removed (down)")
        ax.set_title(f"Cards, {first['players']} players (colour: centre of the card)",
                     pad=22)
        handles = [plt.Rectangle((0, 0), 1, 1, color=colour[k]) for k in kinds_seen]
        ax.legend(handles, kinds_seen, frameon=False, ncol=min(10, len(kinds_seen)),
                  fontsize=7, loc="lower center", bbox_to_anchor=(0.5, 1.06))
        _save(fig, folder / "cards.png")
        names.append("cards.png")
    return ([f"{folder.name}/{n}" for n in names] + feel_plots(summary, folder)
            + impact_plots(summary, folder))


def compare_plots(result: dict[str, Any], folder: Path) -> list[str]:
    """One plot of every compared measure per player count: B - A with its interval."""
    plt = _pyplot()
    folder.mkdir(parents=True, exist_ok=True)
    names = []
    for block in result["by_players"]:
        rows: Sequence[dict[str, Any]] = block["rows"]
        fig, ax = plt.subplots(figsize=(6.5, 0.28 * len(rows) + 1.2))
        for k, row in enumerate(rows):
            d = row["difference"]
            scale = 100 if row["kind"] == "proportion" else 1
            colour = "#b8483f" if row["significant"] else "#555"
            y = len(rows) - 1 - k
            ax.plot([scale * d["ci"][0], scale * d["ci"][1]], [y, y], color=colour)
            ax.plot(scale * d["diff"], y, "o", color=colour, markersize=4)
        ax.axvline(0, color="#999", linewidth=0.7)
        ax.set_yticks(range(len(rows)),
                      [r["label"] + (" (% points)" if r["kind"] == "proportion" else "")
                       for r in reversed(rows)])
        ax.set_xlabel("B - A, 95 % interval (red: significant)")
        ax.set_title(f"{block['players']} players")
        name = f"compare-{block['players']}p.png"
        _save(fig, folder / name)
        names.append(f"{folder.name}/{name}")
    return names


def ladder_plots(result: dict[str, Any], folder: Path) -> list[str]:
    """The ratings of the rungs with their 95 % intervals."""
    plt = _pyplot()
    folder.mkdir(parents=True, exist_ok=True)
    ratings = result["ratings"]
    fig, ax = plt.subplots(figsize=(6.5, 0.45 * len(ratings) + 1.2))
    for k, r in enumerate(ratings):
        y = len(ratings) - 1 - k
        ax.plot([r["ci"][0], r["ci"][1]], [y, y], color=COLOURS[0])
        ax.plot(r["elo"], y, "o", color=COLOURS[0], markersize=5)
        ax.annotate(f"{r['elo']:.0f}", (r["elo"], y), textcoords="offset points",
                    xytext=(0, 6), ha="center", fontsize=8)
    ax.set_yticks(range(len(ratings)), [r["bot"] for r in reversed(ratings)])
    ax.set_xlabel("rating, Elo scale (first rung 0), 95 % interval")
    ax.set_title(f"{result['game'].capitalize()} ladder, {result['players']} players, "
                 f"{result['games']} games per pairing")
    _save(fig, folder / "ladder.png")
    return [f"{folder.name}/ladder.png"]


def feel_plots(summary: dict[str, Any], folder: Path) -> list[str]:
    """The branching factor over the game, one line per player count (runs with
    ``--feel``)."""
    blocks = [b for b in summary["by_players"] if "feel" in b]
    if not blocks:
        return []
    plt = _pyplot()
    folder.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(6.5, 3.2))
    for k, block in enumerate(blocks):
        values = block["feel"]["branching"]
        xs = [10 * d + 5 for d, v in enumerate(values) if v is not None]
        ys = [v for v in values if v is not None]
        ax.plot(xs, ys, "o-", color=COLOURS[k % len(COLOURS)], markersize=3,
                label=f"{block['players']} players")
    ax.set_xlabel("share of the game played (%)")
    ax.set_ylabel("legal actions (mean)")
    ax.set_title("Branching factor over the game")
    ax.legend(frameon=False, fontsize=8)
    _save(fig, folder / "branching.png")
    return [f"{folder.name}/branching.png"]


def impact_plots(summary: dict[str, Any], folder: Path) -> list[str]:
    """Each card's win rate when it lay in a seat's system against when it did not, with
    intervals (the first player count that has card rows)."""
    block = next((b for b in summary["by_players"] if b.get("card_impact")), None)
    if block is None:
        return []
    plt = _pyplot()
    folder.mkdir(parents=True, exist_ok=True)
    rows = block["card_impact"]
    fig, ax = plt.subplots(figsize=(max(6.5, 0.16 * len(rows) + 1.5), 3.4))
    for k, row in enumerate(rows):
        d = row["difference"]
        colour = COLOURS[3] if d["significant"] else COLOURS[0]
        ax.plot([k, k], [100 * d["ci"][0], 100 * d["ci"][1]], color=colour, linewidth=1)
        ax.plot(k, 100 * d["diff"], "o", color=colour, markersize=3)
    ax.axhline(0, color="#999", linewidth=0.7)
    ax.set_xticks(range(len(rows)), [r["card"] for r in rows], rotation=90, fontsize=6)
    ax.set_ylabel("win rate with it - without (% points)")
    ax.set_title(f"Card impact, {block['players']} players (correlation, not cause)")
    _save(fig, folder / "card-impact.png")
    return [f"{folder.name}/card-impact.png"]
