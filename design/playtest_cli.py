"""``pnp playtest add|report|export``: the playtest log, against the design version played."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pnp.common import (
    EXIT_OK,
    EXIT_VIOLATIONS,
    Parser,
    dump_json,
    fail,
    misuse,
    never_raises,
    say,
    write_out,
)

GAMES = ("orbitus", "satellites")

HELP = """\
Log the games people play, against the design version they played, and compare them with
what the simulator's bots predict for that version.

  pnp playtest add GAME --players Anna,Ben --scores 12,9 [--minutes 45] [--notes TEXT]
  pnp playtest add GAME --file table.yaml        (a scored layout, board or game record)
  pnp playtest report [GAME] [--version HASH] [--bots greedy] [--sim-games 200]
  pnp playtest export [--format csv|json] [--out FILE]

The log is kept in the --data folder (the pnp web database, pnp-web.sqlite3). Players are
named in seat order (Orbitus P1, P2 ...; Satellites red, then blue). With --file the scores,
components and winner are the scorer's, and --scores given as well must agree.

Exit codes: 0 done; 1 the playtest breaks a rule (nothing is logged); 2 a file or the
database cannot be read, or misuse.
"""


def _csv_list(text: str) -> list[str]:
    return [part for part in text.split(",")]


def _scores(text: str) -> list[int]:
    out = []
    for part in text.split(","):
        try:
            out.append(int(part.strip()))
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{part.strip()!r} is not a whole number; give the final scores in seat "
                f"order, e.g. --scores 12,9,-3") from None
    return out


def _minutes(text: str) -> int:
    from web.playtests import parse_minutes

    try:
        return parse_minutes(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _date(text: str) -> str:
    from web.playtests import parse_date

    try:
        return parse_date(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _stamp(text: str) -> Any:
    """A design as printed (``v0.7.2·3fa9c1`` or ``3fa9c1``): a :class:`cards.design.Stamp`."""
    from cards.design import parse_stamp

    stamp = parse_stamp(text)
    if stamp is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a design hash (six hex digits, as "
                                         f"printed on the components: 3fa9c1 or v0.7.2·3fa9c1)")
    return stamp


def _hash(text: str) -> str:
    return str(_stamp(text).hash)


def build_parser(prog: str = "pnp playtest") -> Parser:
    parser = Parser(prog, HELP)
    sub = parser.add_subparsers(dest="action", metavar="add|report|export")

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--data", type=Path, metavar="DIR",
                       help="the data folder holding the log (default: the project file's, "
                            "else pnp web's: ~/.local/share/orbitus-pnp)")
        p.add_argument("--cards", type=Path, metavar="DIR",
                       help="the definitions in use (default: the project file's, else the "
                            "shipped cards/)")

    add = sub.add_parser("add", prog=f"{prog} add", help="log a game people played",
                         description="Log one game people played.", project=("cards", "data"))
    add.add_argument("game", choices=GAMES)
    add.add_argument("--players", type=_csv_list, metavar="NAMES",
                     help="the players in seat order, comma-separated (Satellites: red, blue)")
    add.add_argument("--scores", type=_scores, metavar="N,N,...",
                     help="the final scores in seat order (Satellites: colonies controlled); "
                          "a negative first score is written --scores=-3,5")
    add.add_argument("--file", type=Path, metavar="FILE",
                     help="the finished table as scored: an Orbitus layout, a Satellites "
                          "board, or a game record of either game")
    add.add_argument("--winner", type=_csv_list, metavar="NAME",
                     help="who won (names or seats; 'draw'); needed only where the scores "
                          "do not decide it (Satellites colonies equal)")
    add.add_argument("--date", type=_date, metavar="YYYY-MM-DD",
                     help="when it was played (default today)")
    add.add_argument("--minutes", type=_minutes, metavar="MIN",
                     help="how long it took: 45, 1h30 or 1:30")
    add.add_argument("--notes", default="", metavar="TEXT", help="free notes")
    add.add_argument("--version", type=_stamp, metavar="HASH",
                     help="the design played, as printed on its components (default: the "
                          "definitions in use)")
    add.add_argument("--json", action="store_true", help="print the playtest logged as JSON")
    common(add)

    rep = sub.add_parser("report", prog=f"{prog} report",
                         help="the playtests per version, beside the bots' predictions",
                         description="The playtests per design version and player count, "
                                     "beside what pnp sim predicts for them.",
                         project=("cards", "data"))
    rep.add_argument("game", nargs="?", choices=GAMES)
    rep.add_argument("--version", type=_hash, metavar="HASH", help="one design version only")
    rep.add_argument("--bots", default="random", metavar="LIST",
                     help="the bots of the prediction, as pnp sim --bots (default random); "
                          "a prediction is kept in the log, so the next report is instant")
    rep.add_argument("--sim-games", type=int, default=200, metavar="N",
                     help="games the bots play per version and player count (default 200)")
    rep.add_argument("--seed", type=int, default=1, metavar="S", help="the bots' run seed")
    rep.add_argument("--json", action="store_true", help="print the report as JSON")
    common(rep)

    exp = sub.add_parser("export", prog=f"{prog} export", help="the log as CSV or JSON",
                         description="Write the playtest log as CSV or JSON.",
                         project=("cards", "data"))
    exp.add_argument("game", nargs="?", choices=GAMES)
    exp.add_argument("--format", choices=("csv", "json"), default="csv")
    exp.add_argument("--version", type=_hash, metavar="HASH", help="one design version only")
    exp.add_argument("--out", type=Path, metavar="FILE",
                     help="write to FILE (never over a file that exists) instead of stdout")
    common(exp)
    return parser


def main(argv: Sequence[str] | None = None, prog: str = "pnp playtest") -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    return never_raises(lambda: _run(args, prog), prog, "the command line and the --data "
                                                         "folder")


def _say(message: str) -> None:
    say(message)


def _run(args: list[str], prog: str) -> int:
    opts = build_parser(prog).parse_args(args)
    if opts.action is None:
        return misuse(prog, "name what to do: add, report or export")
    prog = f"{prog} {opts.action}"
    from cards.project import current_project

    project = current_project()
    cards, data = opts.cards, opts.data
    if cards is not None and not cards.is_dir():
        return fail(f"{prog}: --cards {cards}: no such folder")
    from web.playtests import open_log
    from web.store import StoreError, default_data_dir

    try:
        store = open_log(data or default_data_dir())
    except StoreError as exc:
        return fail(f"{prog}: {exc}")
    try:
        if opts.action == "add":
            return _add(opts, cards, store, prog, project)
        if opts.action == "report":
            return _report(opts, cards, store, prog)
        return _export(opts, store, prog)
    finally:
        store.close()


def _add(opts: argparse.Namespace, cards: Path | None, store: Any, prog: str,
         project: Any) -> int:
    import datetime as dt

    from cards.design import parse_stamp
    from cards.design_cache import design
    from cards.loader import DefinitionError, display_path
    from cards.ruleset_cache import load_definitions, load_ruleset
    from cards.snapshot import snapshot_of
    from web.playtests import PlaytestError, add, entry, score_source

    game = opts.game
    try:
        here = design(game, cards)
        ruleset = load_ruleset(game, cards)
    except DefinitionError as exc:
        for line in exc.problems:
            fail(line)
        return fail(f"{prog}: the definitions in use cannot be read; nothing was logged")
    players = opts.players
    if players is None and project is not None and opts.file is None:
        players = None
    scored = None
    try:
        if opts.file is not None:
            scored = score_source(game, opts.file, cards)
        counts = getattr(ruleset, "player_counts", (2,))
        given = opts.version  # a Stamp: the version it names is kept with its hash
        played_design = given.hash if given is not None else None
        notes = []
        if played_design is None and scored is not None and scored.stamp is not None:
            stamp = parse_stamp(scored.stamp)
            if stamp is not None:
                played_design = stamp.hash
                if stamp.hash != here.hash:
                    notes.append(f"{scored.source} names design {stamp.text}; the definitions "
                                 f"in use are {here.stamp}: logged as {stamp.text}")
        played_design = played_design or here.hash
        version = (here.version if played_design == here.hash else
                   given.version if given is not None else None)
        test = entry(game, played_design, version, players=players or [],
                     scores=opts.scores, scored=scored, winners=opts.winner,
                     played=opts.date or dt.date.today().isoformat(), minutes=opts.minutes,
                     notes=opts.notes, cards=None if cards is None else display_path(cards),
                     player_counts=tuple(counts))
    except PlaytestError as exc:
        for line in exc.problems:
            fail(line)
        return fail(f"{prog}: nothing was logged", exc.code)
    snapshot = None
    if played_design == here.hash:
        snapshot = snapshot_of(load_definitions(game, cards))
    else:
        notes.append(f"design {played_design} is not the definitions in use ({here.stamp}), so "
                     f"its definitions are not kept: the report simulates it only if another "
                     f"playtest of it kept them")
    ident = add(store, test, snapshot)
    for note in notes:
        _say(f"{prog}: note: {note}")
    if opts.json:
        write_out(dump_json(test.to_json()), json=True)
    else:
        names = ", ".join(f"{n} {s}" for n, s in zip(test.players, test.scores, strict=True))
        won = " and ".join(test.players[w] for w in test.winners) or "a draw"
        stamp = f"v{test.version}·{test.design}" if test.version else test.design
        _say(f"logged playtest {ident}: {game} {stamp}, {test.played}: {names}; won by {won}")
    return EXIT_OK


def _report(opts: argparse.Namespace, cards: Path | None, store: Any, prog: str) -> int:
    from cards.loader import DefinitionError
    from cards.ruleset_cache import load_ruleset
    from design.playtest_report import Group, definitions_for, report, text
    from sim.command import Usage, parse_bots
    from sim.predict import predict
    from web.playtests import keep_prediction, playtests, prediction, snapshot

    try:
        bots = parse_bots(opts.bots)
    except Usage as exc:
        return fail(str(exc).replace("pnp-sim: ", f"{prog}: "))
    if not 1 <= opts.sim_games <= 100_000:
        return fail(f"{prog}: --sim-games {opts.sim_games}: give 1 to 100000")
    found = playtests(store, opts.game, opts.version)
    if opts.version and not found:
        return fail(f"{prog}: no playtest of design {opts.version} in the log", EXIT_VIOLATIONS)
    temp = tempfile.TemporaryDirectory(prefix="pnp-playtest-")

    def predictor(group: Group) -> tuple[dict[str, Any] | None, str]:
        folder, note = definitions_for(group, cards, snapshot(store, group.game, group.design),
                                       temp)
        if folder is None and note:
            return None, note
        try:
            ruleset = load_ruleset(group.game, folder)
        except DefinitionError as exc:
            return None, f"its definitions cannot be read ({exc.problems[0]})"
        if hasattr(ruleset, "player_counts") and group.players not in ruleset.player_counts:
            return None, f"its definitions have no start lines for {group.players} players"
        key = json.dumps([group.game, group.design, group.players, list(bots),
                          opts.sim_games, opts.seed])
        block = prediction(store, key)
        if block is None:
            if not opts.json:
                _say(f"{prog}: the bots play {opts.sim_games} {group.game} games of "
                     f"{group.design} with {group.players} players ...")
            block = predict(group.game, ruleset, group.players, opts.sim_games, bots,
                            opts.seed)
            keep_prediction(store, key, block)
        return block, note

    try:
        result = report(found, predictor, ", ".join(bots))
    finally:
        temp.cleanup()
    if opts.json:
        write_out(dump_json(result), json=True)
    else:
        write_out(text(result))
    return EXIT_OK


def _export(opts: argparse.Namespace, store: Any, prog: str) -> int:
    from cards.loader import display_path
    from web.playtests import export_csv, export_json, playtests

    found = playtests(store, opts.game, opts.version)
    body = export_csv(found) if opts.format == "csv" else export_json(found)
    if opts.out is None:
        write_out(body, json=opts.format == "json")
        return EXIT_OK
    out: Path = opts.out
    if out.exists() or out.is_symlink():
        return fail(f"{prog}: {display_path(out)} exists; it is left alone (give a new name)",
                    EXIT_VIOLATIONS)
    if not out.parent.is_dir():
        return fail(f"{prog}: {display_path(out.parent)}: no such folder")
    from cards.sheet_files import write_atomically

    write_atomically(out, body.encode("utf-8"))
    _say(f"wrote {len(found)} playtest(s) to {display_path(out)}")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
