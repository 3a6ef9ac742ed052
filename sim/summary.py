"""The summary of a run: records in, one plain-data report out (what ``--json`` prints
and ``report.json`` holds; the terminal text, the HTML and the plots read it).

Records are folded in as they come, in any order, into whole-number counts only
(histograms, sums of integers and exact fractions), so the summary is the same - byte for
byte once written as JSON - whichever process finished which game first, and its size does
not grow with the number of games.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction
from typing import Any

from sim.feel import Feel
from sim.stats import Spread, design_effect, seats_test_shares, share_interval, share_test

FORMAT = 1
IMPACT_LEAST = 30  # seat-games with a card, and without it, before its impact is shown


def _r(x: float, digits: int = 6) -> float:
    return round(float(x), digits)


class Count:
    """Everything counted over the games of one player count."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.games = 0
        self.wins = [Fraction(0)] * players  # shared wins count as a share
        self.squares = [Fraction(0)] * players  # the shares squared: their per-game variance
        self.draws = 0
        self.bot_games: Counter[str] = Counter()
        self.bot_wins: dict[str, Fraction] = defaultdict(Fraction)
        self.bot_squares: dict[str, Fraction] = defaultdict(Fraction)
        self.turns: Counter[int] = Counter()
        self.totals: Counter[int] = Counter()  # every seat's final score
        self.seat_totals: list[Counter[int]] = [Counter() for _ in range(players)]
        self.components: dict[str, Counter[int]] = defaultdict(Counter)
        self.sizes: dict[str, Counter[str]] = defaultdict(Counter)  # e.g. block sizes
        self.actions: list[int] = []  # per kind of action
        self.ends: Counter[str] = Counter()
        self.facts: dict[str, Counter[str]] = defaultdict(Counter)
        self.cards: dict[str, Counter[str]] = defaultdict(Counter)
        self.feel: Feel | None = None
        self.card_points: Counter[str] = Counter()
        # card impact: the seat-games in which a card lay in the seat's system at the end,
        # and that seat's share of the win (shares and their squares, exact)
        self.card_seats: Counter[str] = Counter()
        self.card_wins: dict[str, Fraction] = defaultdict(Fraction)
        self.card_squares: dict[str, Fraction] = defaultdict(Fraction)

    def add(self, record: dict[str, Any]) -> None:
        self.games += 1
        winners = record["winners"]
        bots = record["bots"]
        for bot in bots:
            self.bot_games[bot] += 1
        if winners:
            share = Fraction(1, len(winners))
            for seat in winners:
                self.wins[seat] += share
                self.squares[seat] += share * share
                self.bot_wins[bots[seat]] += share
                self.bot_squares[bots[seat]] += share * share
        else:
            self.draws += 1
        self.turns[record["turns"]] += 1
        scores = record["scores"]
        for seat, total in enumerate(scores):
            self.totals[total] += 1
            self.seat_totals[seat][total] += 1
        if len(self.actions) < len(record["actions"]):
            self.actions += [0] * (len(record["actions"]) - len(self.actions))
        for k, n in enumerate(record["actions"]):
            self.actions[k] += n
        self.ends[record["end"]] += 1
        for key, value in record.get("facts", {}).items():
            self.facts[key][str(value)] += 1
        for seat in record.get("seats", []):
            for name, value in seat.items():
                if isinstance(value, dict):
                    for key, n in value.items():
                        self.sizes[name][key] += n
                else:
                    self.components[name][value] += 1
        feel = record.get("feel")
        if feel is not None:
            if self.feel is None:
                self.feel = Feel()
            self.feel.add(feel)
        cards = record.get("cards")
        if cards:
            for what in ("placed", "removed", "discarded"):
                for card, n in cards.get(what, {}).items():
                    self.cards[what][card] += n
            share = Fraction(1, len(winners)) if winners else Fraction(0)
            for card, seats in cards.get("in_systems", {}).items():
                self.cards["in_systems"][card] += len(seats)
                self.card_points[card] += sum(scores[s] for s in seats)
                for seat in set(seats):
                    got = share if seat in winners else Fraction(0)
                    self.card_seats[card] += 1
                    self.card_wins[card] += got
                    self.card_squares[card] += got * got

    def summary(self, first: int, kinds: tuple[str, ...], order: list[str],
                labels: dict[str, str]) -> dict[str, Any]:
        n = self.games
        players = self.players
        fair = 1 / players
        seats = []
        for seat in range(players):
            wins, squares = float(self.wins[seat]), float(self.squares[seat])
            # the interval of a mean of per-game shares (a game shared by k seats gives each
            # 1/k), not of yes-or-no trials: many shared wins make it narrower
            low, high = share_interval(wins, squares, n)
            seats.append({"seat": seat + 1, "first": seat == first, "wins": _r(wins, 3),
                          "rate": _r(wins / n if n else 0), "ci": [_r(low), _r(high)],
                          "design_effect": _r(design_effect(wins, squares, n), 4),
                          "mean_score": _r(Spread(self.seat_totals[seat]).mean, 4)})
        # the first seat against a fair share of the decided games (a draw is nobody's)
        wins, squares = float(self.wins[first]), float(self.squares[first])
        decided = n - self.draws
        rate = wins / decided if decided else 0.0
        low, high = share_interval(wins, squares, decided)
        z, p = share_test(wins, squares, decided, fair)
        first_player = {
            "seat": first + 1, "decided_games": decided, "rate": _r(rate), "fair": _r(fair),
            "advantage": _r(rate - fair), "ci": [_r(low), _r(high)],
            "z": _r(z, 4) if z == z and abs(z) != float("inf") else None,
            "p": _r(p), "significant": p < 0.05,
        }
        deffs = [design_effect(float(self.wins[s]), float(self.squares[s]), decided)
                 for s in range(players)]
        stat, df, p_seats = seats_test_shares([float(w) for w in self.wins], deffs)
        seats_differ = {"chi_square": _r(stat, 4) if stat != float("inf") else None,
                        "df": df, "p": _r(p_seats), "significant": p_seats < 0.05,
                        "design_effect": _r(sum(deffs) / len(deffs), 4)}
        bots = []
        for bot in sorted(self.bot_games):
            seated = self.bot_games[bot]
            won = float(self.bot_wins[bot])
            low, high = share_interval(won, float(self.bot_squares[bot]), seated)
            bots.append({"bot": bot, "seats_played": seated, "wins": _r(won, 3),
                         "rate": _r(won / seated if seated else 0),
                         "ci": [_r(low), _r(high)]})
        total_actions = sum(self.actions)
        actions = {
            kind: {"count": self.actions[k] if k < len(self.actions) else 0,
                   "share": _r((self.actions[k] if k < len(self.actions) else 0)
                               / total_actions if total_actions else 0),
                   "per_game": _r((self.actions[k] if k < len(self.actions) else 0)
                                  / n if n else 0, 4)}
            for k, kind in enumerate(kinds)
        }
        components = {}
        for name in [*order, *sorted(set(self.components) - set(order))]:
            if name in self.components:
                entry = Spread(self.components[name]).to_json()
                entry["label"] = labels.get(name, name)
                components[name] = entry
        sizes = {name: {key: _r(count / (n * players), 4)
                        for key, count in sorted(found.items(), key=lambda kv: _num(kv[0]))}
                 for name, found in sorted(self.sizes.items())}
        out: dict[str, Any] = {
            "players": players,
            "games": n,
            "seats": seats,
            "first_player": first_player,
            "seats_differ": seats_differ,
            "draws": {"count": self.draws, "rate": _r(self.draws / n if n else 0)},
            "bots": bots,
            "length": Spread(self.turns).to_json(),
            "scores": Spread(self.totals).to_json(),
            "components": components,
            "per_player_counts": sizes,
            "actions": actions,
            "ends": dict(sorted(self.ends.items())),
            "stalled": self.ends.get("stalled", 0),
            "safety_net": self.ends.get("turn-limit", 0),
            "facts": {k: dict(sorted(v.items())) for k, v in sorted(self.facts.items())},
        }
        if self.cards:
            out["cards"] = self._cards(n)
            out["card_impact"] = self._impact(n)
        if self.feel is not None:
            out["feel"] = self.feel.summary()
        return out

    def _impact(self, n: int) -> list[dict[str, Any]]:
        """Per card: the win rate of a seat whose system held it at the end against that of
        the seats whose systems did not, the difference with Welch's 95 % interval and test
        (Holm-adjusted over the cards). Correlation, not cause: a card lies in the systems
        of players who were doing well for other reasons too."""
        from sim.multiple import holm
        from sim.stats import two_means

        seat_games = n * self.players
        wins = sum(self.wins, Fraction(0))
        squares = sum(self.squares, Fraction(0))
        rows = []
        for card in sorted(self.card_seats):
            k = self.card_seats[card]
            if k < IMPACT_LEAST or seat_games - k < IMPACT_LEAST:
                continue  # too few seat-games for the normal approximation
            w, q = self.card_wins[card], self.card_squares[card]
            ow, oq = wins - w, squares - q
            m1, v1 = _mean_var(ow, oq, seat_games - k)
            m2, v2 = _mean_var(w, q, k)
            d = two_means(m1, v1, seat_games - k, m2, v2, k)
            rows.append({"card": card, "with": k, "without": seat_games - k,
                         "difference": d.to_json()})
        for row, p in zip(rows, holm([r["difference"]["p"] for r in rows]), strict=True):
            row["p_adjusted"] = _r(p)
            row["difference"]["significant"] = p < 0.05
        return rows

    def _cards(self, n: int) -> list[dict[str, Any]]:
        names = sorted(set().union(*(set(c) for c in self.cards.values())))
        rows = []
        for card in names:
            held = self.cards["in_systems"][card]
            rows.append({
                "card": card,
                "placed": _r(self.cards["placed"][card] / n, 4),
                "removed": _r(self.cards["removed"][card] / n, 4),
                "discarded": _r(self.cards["discarded"][card] / n, 4),
                "in_systems": _r(held / n, 4),
                "system_points": _r(self.card_points[card] / held, 4) if held else None,
            })
        return rows


def _mean_var(total: Fraction, squares: Fraction, n: int) -> tuple[float, float]:
    """The mean and sample variance of ``n`` values of this sum and sum of squares."""
    mean = total / n
    return float(mean), float((squares - n * mean * mean) / (n - 1))


def _num(text: str) -> tuple[int, str]:
    return (int(text), "") if text.isdigit() else (1 << 30, text)


class Summary:
    """Records of one run folded into counts per player count."""

    def __init__(self, header: dict[str, Any]) -> None:
        self.header = header
        self.counts: dict[int, Count] = {}

    def add(self, record: dict[str, Any]) -> None:
        players = record["players"]
        count = self.counts.get(players)
        if count is None:
            count = self.counts[players] = Count(players)
        count.add(record)

    @property
    def games(self) -> int:
        return sum(c.games for c in self.counts.values())

    def to_json(self) -> dict[str, Any]:
        head = self.header
        return {
            "format": FORMAT,
            **{k: v for k, v in head.items() if not k.startswith("_")},
            "by_players": [self.counts[p].summary(head["first_seat"], tuple(head["kinds"]),
                                                  head["_order"], head["_labels"])
                           for p in sorted(self.counts)],
        }
