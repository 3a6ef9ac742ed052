"""The playtest log: every game people played, against the design version they played.

Kept in the web companion's own database (``pnp-web.sqlite3`` in the ``--data`` folder,
:mod:`web.store`), in two tables: ``playtests`` (a row per game: date, game, design hash and
version, players in seat order, final scores, score components, winners, duration, moves,
the file it was scored from and free notes) and ``playtest_designs`` (the normalised
definitions of each design hash a playtest names, so a report can simulate that version
long after the definitions moved on). Every write is one transaction; a database that is
not one (or is damaged) is reported with its path and not touched.

A playtest is checked before it is written (:func:`entry`): the players (2-6 for Orbitus,
as many as the definitions have start lines for; two for Satellites, red first), a score
per player, a date that is a date, a duration in minutes. Given a scored file (an Orbitus
layout, a Satellites board, a game record of either game), the scores, components and
winners are the scorer's, and scores given as well must be those: otherwise the playtest is
refused with the scorer's breakdown of the player that differs.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from web.store import DB_NAME, Store, StoreError

SQLITE_HEADER = b"SQLite format 3\x00"
MAX_NOTES = 4000
MAX_NAME = 40
SATELLITES_SEATS = ("red", "blue")
EXPORT_COLUMNS = ("id", "played", "game", "design", "version", "players", "seats", "scores",
                  "winners", "minutes", "turns", "components", "source", "notes")


class PlaytestError(Exception):
    """A playtest that cannot be logged; ``problems`` says why, one line each. ``code`` is
    the exit code (1: it breaks a rule, 2: a file cannot be read)."""

    def __init__(self, problems: list[str], code: int = 1) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems
        self.code = code


@dataclass
class Playtest:
    game: str
    design: str  # the design hash (cards.design)
    played: str  # YYYY-MM-DD
    players: list[str]  # seat order
    seats: list[str]  # P1.. (Orbitus) or red, blue (Satellites)
    scores: list[int]
    winners: list[int]  # seats; empty: a draw
    version: str | None = None
    cards: str | None = None
    components: list[dict[str, int]] | None = None
    minutes: int | None = None
    turns: int | None = None
    source: str | None = None
    source_text: str | None = None
    notes: str = ""
    id: int | None = None
    created: float = field(default_factory=time.time)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out.pop("source_text")
        return out


# --- the database -----------------------------------------------------------------------------


def check_database(folder: Path) -> None:
    """Refuse, with the path and untouched, a database file that is no SQLite database or
    is damaged (it is opened read-only to check)."""
    path = folder / DB_NAME
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(f"{path}: cannot be read ({exc.strerror}); give another folder with "
                         f"--data DIR") from None
    if size == 0:
        return
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise StoreError(f"{path}: cannot be read ({exc.strerror})") from None
    if head != SQLITE_HEADER:
        raise StoreError(f"{path} is not an SQLite database (it does not start as one); it "
                         f"was left untouched: move it away, or give another folder with "
                         f"--data DIR")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            found = db.execute("PRAGMA quick_check").fetchone()
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path} is damaged ({exc}); it was left untouched: restore it from "
                         f"a backup, or give another folder with --data DIR") from None
    if not found or found[0] != "ok":
        raise StoreError(f"{path} is damaged ({found[0] if found else 'no answer'}); it was "
                         f"left untouched: restore it from a backup, or give another folder "
                         f"with --data DIR")


def open_log(folder: Path) -> Store:
    """The store of the data folder, checked first (see :func:`check_database`)."""
    check_database(folder)
    return Store(folder)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def add(store: Store, playtest: Playtest, snapshot: dict[str, Any] | None = None) -> int:
    """Write one playtest (and the definitions of its design, if not kept yet) in one
    transaction; its id."""
    with store.transaction() as db:
        if snapshot is not None:
            db.execute("INSERT OR IGNORE INTO playtest_designs (game, hash, version, snapshot, "
                       "created) VALUES (?, ?, ?, ?, ?)",
                       (playtest.game, playtest.design, playtest.version, _dumps(snapshot),
                        time.time()))
        cur = db.execute(
            "INSERT INTO playtests (game, design, version, cards, played, players, seats, "
            "scores, winners, components, minutes, turns, source, source_text, notes, "
            "created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (playtest.game, playtest.design, playtest.version, playtest.cards, playtest.played,
             _dumps(playtest.players), _dumps(playtest.seats), _dumps(playtest.scores),
             _dumps(playtest.winners),
             None if playtest.components is None else _dumps(playtest.components),
             playtest.minutes, playtest.turns, playtest.source, playtest.source_text,
             playtest.notes, playtest.created))
        ident = int(cur.lastrowid or 0)
    playtest.id = ident
    return ident


_COLUMNS = ("id, game, design, version, cards, played, players, seats, scores, winners, "
            "components, minutes, turns, source, source_text, notes, created")


def playtests(store: Store, game: str | None = None, design: str | None = None
              ) -> list[Playtest]:
    """The playtests logged, oldest first; of one game and one design hash (or hash prefix)
    if given."""
    where, args = [], []
    if game is not None:
        where.append("game = ?")
        args.append(game)
    if design is not None:
        where.append("design LIKE ?")
        args.append(design.lower() + "%")
    sql = f"SELECT {_COLUMNS} FROM playtests"
    if where:
        sql += " WHERE " + " AND ".join(where)
    with store.lock:
        rows = store.db.execute(sql + " ORDER BY played, id", args).fetchall()
    return [Playtest(id=r[0], game=r[1], design=r[2], version=r[3], cards=r[4], played=r[5],
                     players=json.loads(r[6]), seats=json.loads(r[7]), scores=json.loads(r[8]),
                     winners=json.loads(r[9]),
                     components=None if r[10] is None else json.loads(r[10]), minutes=r[11],
                     turns=r[12], source=r[13], source_text=r[14], notes=r[15], created=r[16])
            for r in rows]


def snapshot(store: Store, game: str, design: str) -> dict[str, Any] | None:
    """The normalised definitions of a design hash a playtest named, if kept."""
    with store.lock:
        row = store.db.execute("SELECT snapshot FROM playtest_designs WHERE game=? AND hash=?",
                               (game, design)).fetchone()
    return None if row is None else json.loads(row[0])


def prediction(store: Store, key: str) -> dict[str, Any] | None:
    """The bots' prediction kept under ``key`` (game, design, players, bots, games, seed)."""
    with store.lock:
        row = store.db.execute("SELECT block FROM playtest_predictions WHERE key=?",
                               (key,)).fetchone()
    return None if row is None else json.loads(row[0])


def keep_prediction(store: Store, key: str, block: dict[str, Any]) -> None:
    with store.transaction() as db:
        db.execute("INSERT OR REPLACE INTO playtest_predictions (key, block, created) "
                   "VALUES (?, ?, ?)", (key, _dumps(block), time.time()))


def export_json(found: Sequence[Playtest]) -> str:
    return json.dumps({"playtests": [p.to_json() for p in found]}, ensure_ascii=False,
                      indent=2) + "\n"


def export_csv(found: Sequence[Playtest]) -> str:
    """A row per playtest; lists are joined with ``;`` (players, seats, scores, winners by
    name) and the components are JSON, so a spreadsheet opens it as it is."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(EXPORT_COLUMNS)
    for p in found:
        writer.writerow([p.id, p.played, p.game, p.design, p.version or "",
                         ";".join(p.players), ";".join(p.seats),
                         ";".join(str(s) for s in p.scores),
                         ";".join(p.players[w] for w in p.winners),
                         "" if p.minutes is None else p.minutes,
                         "" if p.turns is None else p.turns,
                         "" if p.components is None else _dumps(p.components),
                         p.source or "", _csv_text(p.notes)])
    return buffer.getvalue()


def _csv_text(text: str) -> str:
    """Text a spreadsheet will not take for a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


# --- checking an entry ------------------------------------------------------------------------


def parse_minutes(text: str) -> int:
    """``45``, ``45m``, ``1h30``, ``1h 30m``, ``1:30`` -> minutes (1 to 1440)."""
    value = text.strip().lower().replace(" ", "")
    found = re.fullmatch(r"(\d+)", value) or re.fullmatch(r"(\d+)m(?:in)?", value)
    minutes: int | None = None
    if found:
        minutes = int(found.group(1))
    else:
        hours = re.fullmatch(r"(\d+)(?:h|:)(\d{1,2})?m?", value)
        if hours:
            minutes = int(hours.group(1)) * 60 + int(hours.group(2) or 0)
    if minutes is None:
        raise ValueError(f"{text!r} is not a duration; write minutes (45), or hours and "
                         f"minutes (1h30 or 1:30)")
    if not 1 <= minutes <= 1440:
        raise ValueError(f"{text!r} is {minutes} minutes; a game lasts 1 to 1440 minutes")
    return minutes


def parse_date(text: str, today: dt.date | None = None) -> str:
    today = today or dt.date.today()
    try:
        day = dt.date.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"{text!r} is not a date; write it as YYYY-MM-DD, e.g. "
                         f"{today.isoformat()}") from None
    if day > today + dt.timedelta(days=1):
        raise ValueError(f"{day.isoformat()} is in the future (today is {today.isoformat()})")
    return day.isoformat()


def seat_names(game: str, players: int) -> list[str]:
    return list(SATELLITES_SEATS) if game == "satellites" else \
        [f"P{k + 1}" for k in range(players)]


@dataclass(frozen=True)
class Scored:
    """What a scored file says: the players' names (if it names them), scores, components,
    winners, moves, whether it breaks a rule, and how the file is named."""

    source: str
    text: str
    names: list[str] | None
    scores: list[int]
    components: list[dict[str, int]]
    breakdown: list[str]  # a line per seat: how its score is made up
    winners: list[int]
    valid: bool
    problems: list[str]
    turns: int | None = None
    over: bool = True
    stamp: str | None = None  # the design the file names (design:)


def _orbitus_components(player: dict[str, Any]) -> tuple[dict[str, int], str]:
    parts: dict[str, int] = {f"planet:{t}": g["points"] for t, g in player["planets"].items()}
    parts["pirates"] = player["pirates"]["points"]
    parts["open_routes"] = player["open_routes"]["points"]
    parts["blocks"] = sum(b["points"] for b in player["closed_blocks"])
    planets = sum(v for k, v in parts.items() if k.startswith("planet:"))
    said = (f"planets {planets:+d}, pirates {parts['pirates']:+d}, open routes "
            f"{parts['open_routes']:+d}, closed blocks {parts['blocks']:+d}")
    return parts, said


def _from_orbitus_json(data: dict[str, Any], source: str, text: str, names: bool) -> Scored:
    players = data["players"]
    components, breakdown = [], []
    for p in players:
        parts, said = _orbitus_components(p)
        components.append(parts)
        breakdown.append(said)
    problems = [v.get("message", str(v)) for v in data.get("violations", [])]
    by_name = [p["name"] for p in players]
    winners = [by_name.index(w) if isinstance(w, str) else int(w)
               for w in data.get("winners", [])]
    return Scored(source, text, by_name if names else None, [p["total"] for p in players],
                  components, breakdown, winners, bool(data["valid"]), problems)


def _from_satellites_json(data: dict[str, Any], source: str, text: str) -> Scored:
    colonies = data["colonies"]
    crowns: dict[str, int] = dict.fromkeys(SATELLITES_SEATS, 0)
    for group in data.get("groups", []):
        if group.get("colony") and group.get("crowned") and group.get("controller") in crowns:
            crowns[group["controller"]] += 1
    connected = data.get("connected", {})
    components = [{"colonies": colonies[c], "crowns": crowns[c],
                   "connected": connected.get(c, 0)} for c in SATELLITES_SEATS]
    breakdown = [f"{colonies[c]} colonies controlled ({data['decision']})"
                 for c in SATELLITES_SEATS]
    winner = data.get("winner")
    winners = [SATELLITES_SEATS.index(winner)] if winner in SATELLITES_SEATS else []
    problems = [v.get("message", str(v)) for v in data.get("violations", [])]
    over = bool(data.get("end", {}).get("over", True))
    return Scored(source, text, None, [colonies[c] for c in SATELLITES_SEATS], components,
                  breakdown, winners, bool(data["valid"]), problems, over=over)


def score_source(game: str, path: Path, cards: Path | None) -> Scored:
    """Score a layout, board or record file as ``pnp score`` / ``pnp replay`` would; one
    naming another design than the definitions it is scored with is refused, without the
    choice of scoring it with these on purpose: a playtest is logged against one design."""
    try:
        return _score_source(game, path, cards)
    except PlaytestError as exc:
        from cards.design_check import only_its_own

        raise PlaytestError([only_its_own(p, "a playtest is scored by the design it was "
                                             "played with") for p in exc.problems],
                            exc.code) from None


def _score_source(game: str, path: Path, cards: Path | None) -> Scored:
    from cards.input_text import read_input_text
    from cards.loader import DefinitionError, display_path

    shown = display_path(path)
    try:
        text = read_input_text(path, shown, "a scored layout, board or game record",
                               2_000_000, "larger than 2 MB; is this the right file?",
                               lambda lines: PlaytestError(lines, 2))
    except PlaytestError:
        raise
    is_record = re.search(r"^moves\s*:", text, re.M) is not None
    stamp = None
    found = re.search(r"^design\s*:\s*['\"]?([^'\"\s#]+)", text, re.M)
    if found:
        stamp = found.group(1)
    if is_record:
        from records.record import RecordError, read_record, replay

        try:
            record = read_record(path, shown)
            if record.game != game:
                raise PlaytestError([f"{shown}: a {record.game} record, not {game}"], 2)
            result = replay(record, cards)
        except RecordError as exc:
            raise PlaytestError(exc.problems, 2) from None
        except DefinitionError as exc:
            raise PlaytestError(exc.problems, 2) from None
        data = result.score_json()
        names = list(result.players.values()) if result.players else None
        if game == "orbitus":
            scored = _from_orbitus_json(data, shown, text, True)
        else:
            scored = _from_satellites_json(data, shown, text)
        problems = list(scored.problems)
        if result.illegal is not None:
            problems.insert(0, f"{shown}:{result.illegal.line}: move {result.illegal.number} "
                               f"is illegal: {result.illegal.reason}")
        return Scored(scored.source, text, names if game == "satellites" and names else
                      scored.names, scored.scores, scored.components, scored.breakdown,
                      scored.winners, scored.valid and result.illegal is None, problems,
                      turns=result.played, over=result.over, stamp=stamp)
    try:
        if game == "orbitus":
            from scorer.orbitus.cli import score_file
            from scorer.orbitus.report import to_json

            result_o, _ = score_file(path, cards)
            scored = _from_orbitus_json(to_json(result_o), shown, text, True)
        else:
            from scorer.satellites.board import InputError, load_rules, read_input
            from scorer.satellites.report import to_json as sat_json
            from scorer.satellites.score import score

            try:
                ruleset = load_rules(cards)
                transcript = read_input(path, ruleset)
            except InputError as exc:
                raise PlaytestError(exc.problems, 2) from None
            result_s = score(transcript.board, transcript.grace_moves_left,
                             transcript.problems, ruleset)
            scored = _from_satellites_json(sat_json(result_s), shown, text)
    except DefinitionError as exc:
        raise PlaytestError(exc.problems, 2) from None
    return Scored(scored.source, text, scored.names, scored.scores, scored.components,
                  scored.breakdown, scored.winners, scored.valid, scored.problems,
                  over=scored.over, stamp=stamp)


def _names(given: Sequence[str], game: str, problems: list[str]) -> list[str]:
    names = [n.strip() for n in given]
    for n in names:
        if not n:
            problems.append("--players: a player's name is empty (names are separated by "
                            "commas: Anna,Ben)")
        elif len(n) > MAX_NAME or not n.isprintable():
            problems.append(f"--players: {n[:MAX_NAME]!r}: a name is at most {MAX_NAME} "
                            f"printable characters")
    for n in set(names):
        if n and names.count(n) > 1:
            problems.append(f"--players: {n!r} is named twice; give each player once")
    return names


def entry(game: str, design: str, version: str | None, *, players: Sequence[str] = (),
          scores: Sequence[int] | None = None, scored: Scored | None = None,
          winners: Sequence[str] | None = None, played: str, minutes: int | None = None,
          notes: str = "", cards: str | None = None, player_counts: Sequence[int] = (2, 6)
          ) -> Playtest:
    """A playtest checked, ready to log; :class:`PlaytestError` with every problem."""
    problems: list[str] = []
    names = _names(players, game, problems) if players else []
    if scored is not None and scored.names:
        if names and names != scored.names:
            problems.append(f"--players {', '.join(names)}: {scored.source} names the players "
                            f"{', '.join(scored.names)} (in seat order); give those, or leave "
                            f"--players out")
        names = list(scored.names)
    if not names:
        problems.append("--players: name the players in seat order (Orbitus P1, P2 ...; "
                        "Satellites red, then blue): --players Anna,Ben")
        raise PlaytestError(problems)
    count = len(names)
    if game == "satellites" and count != 2:
        problems.append(f"--players: Satellites has two players (red, then blue), got {count}")
    if game == "orbitus" and count not in player_counts:
        problems.append(f"--players: {count} players; the definitions have start lines for "
                        f"{', '.join(map(str, player_counts))} players")
    seats = seat_names(game, count)
    components = None
    turns = None
    source = source_text = None
    if scored is not None:
        source, source_text, turns = scored.source, scored.text, scored.turns
        if len(scored.scores) != count:
            problems.append(f"{scored.source} scores {len(scored.scores)} players, but "
                            f"{count} are named")
        if not scored.valid:
            problems.append(f"{scored.source} breaks a rule, so its scores are not final:")
            problems += [f"  {p}" for p in scored.problems]
        if not scored.over:
            problems.append(f"{scored.source}: the game is not over yet (log a finished "
                            f"game)")
        if scores is not None:
            if len(scores) != len(scored.scores):
                problems.append(f"--scores gives {len(scores)} score(s), {scored.source} "
                                f"scores {len(scored.scores)} players")
            else:
                for k, (said, found) in enumerate(zip(scores, scored.scores, strict=True)):
                    if said != found:
                        who = names[k] if k < len(names) else seats[k]
                        problems.append(
                            f"--scores: {who} ({seats[k]}): {said} given, but "
                            f"{scored.source} scores {found}: {scored.breakdown[k]}; "
                            f"correct the score or the file")
        final = list(scored.scores)
        components = list(scored.components)
        won = list(scored.winners)
    else:
        if scores is None:
            problems.append("--scores: give each player's final score in seat order "
                            "(--scores 12,9), or the scored file (--file table.yaml)")
            raise PlaytestError(problems)
        if len(scores) != count:
            problems.append(f"--scores gives {len(scores)} score(s) for {count} players")
        final = list(scores)
        won = _winners(game, final, problems) if len(scores) == count and winners is None \
            and not problems else []
    if winners is not None:
        wanted = _named_winners(winners, names, seats, problems)
        if scored is not None and wanted is not None and sorted(wanted) != sorted(won):
            said = ", ".join(names[w] for w in won) or "a draw"
            problems.append(f"--winner: {scored.source} is won by {said}")
        elif wanted is not None:
            won = wanted
    if len(notes) > MAX_NOTES:
        problems.append(f"--notes: {len(notes)} characters; at most {MAX_NOTES}")
    if problems:
        raise PlaytestError(problems)
    return Playtest(game=game, design=design, version=version, cards=cards, played=played,
                    players=names, seats=seats, scores=final, winners=won,
                    components=components, minutes=minutes, turns=turns, source=source,
                    source_text=source_text, notes=notes)


def _winners(game: str, scores: list[int], problems: list[str]) -> list[int]:
    """The winners of final scores, by the rules core."""
    if game == "orbitus":
        from rules.orbitus.game import winners_of

        return list(winners_of(scores))
    from rules.satellites.score import decide

    colonies = dict(zip(SATELLITES_SEATS, scores, strict=True))
    if colonies["red"] == colonies["blue"] and colonies["red"] > 0:
        problems.append(f"--scores: red and blue control {colonies['red']} colonies each; the "
                        f"lowest-valued colony decides (rule S-47), which the scores do not "
                        f"show: give --winner red|blue|draw, or the board (--file)")
        return []
    winner, _, _ = decide(colonies, dict.fromkeys(SATELLITES_SEATS), dict.fromkeys(
        SATELLITES_SEATS))
    return [] if winner is None else [SATELLITES_SEATS.index(winner)]


def _named_winners(given: Sequence[str], names: list[str], seats: list[str],
                   problems: list[str]) -> list[int] | None:
    if [g.strip().lower() for g in given] == ["draw"]:
        return []
    out = []
    for g in given:
        g = g.strip()
        if g in names:
            out.append(names.index(g))
        elif g.lower() in [s.lower() for s in seats]:
            out.append([s.lower() for s in seats].index(g.lower()))
        else:
            problems.append(f"--winner {g!r}: not a player ({', '.join(names)}) or a seat "
                            f"({', '.join(seats)}), nor 'draw'")
            return None
    return sorted(set(out))
