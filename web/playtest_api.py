"""The playtest log in the browser: the page ``/playtests`` (a form to log a game people
played, and the games logged) and its API, over the same log as ``pnp playtest``
(:mod:`web.playtests`, in the server's own database).

=================================  ==========================================================
``GET  /api/playtests?game=G``     the playtests logged (``pnp playtest export --format
                                   json``'s object), with the design the server plays
``POST /api/playtests``            log one: ``{game, players, scores | file: {name, text},
                                   winner?, date?, minutes?, notes?, version?}``; the
                                   playtest logged (201), or 422 with every problem
=================================  ==========================================================

The handlers raise :class:`web.errors.WebError`; :mod:`web.app` registers them with its
error handling (:func:`routes`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from web.errors import WebError

MAX_FILE_TEXT = 2_000_000
Handler = Callable[[Request], Awaitable[Response]]


def _context(request: Request) -> Any:
    return request.app.state.context


def _text(value: Any, what: str, limit: int = 4000) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise WebError(422, f"{what}: expected text")
    if len(value) > limit:
        raise WebError(422, f"{what}: at most {limit} characters")
    return value


def _design(game: str, cards: Path | None) -> Any:
    from cards.design_cache import design

    return design(game, cards)


async def list_playtests(request: Request) -> Response:
    from web.playtests import playtests

    context = _context(request)
    game = request.query_params.get("game") or None
    if game is not None and game not in context.rulesets:
        raise WebError(404, f"no game {game!r} here")
    found = playtests(context.store, game)
    designs = {g: _design(g, context.cards).to_json() for g in context.rulesets}
    return JSONResponse({"playtests": [p.to_json() for p in found], "designs": designs})


def _scored(game: str, file: Any, cards: Path | None) -> Any:
    """The scorer's reading of a file the page sent, scored as ``pnp playtest add --file``."""
    from cards.reading import display_path
    from web.playtests import PlaytestError, score_source

    if not isinstance(file, dict):
        raise WebError(422, "file: expected {name, text}")
    name = _text(file.get("name"), "file.name", 200) or "table.yaml"
    name = "".join(ch for ch in name.replace("\\", "/").rsplit("/", 1)[-1]
                   if ch.isalnum() or ch in "._-") or "table.yaml"
    text = _text(file.get("text"), "file.text", MAX_FILE_TEXT)
    with tempfile.TemporaryDirectory(prefix="pnp-web-playtest-") as tmp:
        path = Path(tmp) / name
        path.write_text(text, encoding="utf-8")
        try:
            scored = score_source(game, path, cards)
        except PlaytestError as exc:
            shown = [p.replace(str(path), name).replace(display_path(path), name)
                     .replace("; pass --cards DIR:", "; start pnp web with --cards DIR:")
                     for p in exc.problems]  # named as the page named it, remedied here
            raise WebError(422, shown) from None
    return dataclasses.replace(scored, source=name)  # named as the page named it


async def add_playtest(request: Request) -> Response:
    from web.playtests import PlaytestError, add, entry, parse_date, parse_minutes

    context = _context(request)
    try:
        data = await request.json()
    except ValueError:
        raise WebError(400, "the body is not JSON") from None
    if not isinstance(data, dict):
        raise WebError(400, "expected {game, players, scores}")
    game = data.get("game")
    if game not in context.rulesets:
        raise WebError(422, f"game: {game!r} is not a game here; choose "
                            f"{' or '.join(context.rulesets)}")
    players = data.get("players") or []
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise WebError(422, "players: expected a list of names in seat order")
    scores = data.get("scores")
    if scores is not None and (not isinstance(scores, list) or not all(
            type(s) is int for s in scores)):
        raise WebError(422, "scores: expected a whole number per player, in seat order")
    winner = data.get("winner")
    if winner is not None and (not isinstance(winner, list) or not all(
            isinstance(w, str) for w in winner)):
        raise WebError(422, "winner: expected a list of names or seats (or [\"draw\"])")
    problems = []
    played = dt.date.today().isoformat()
    try:
        if data.get("date"):
            played = parse_date(_text(data["date"], "date", 20))
    except ValueError as exc:
        problems.append(f"date: {exc}")
    minutes = None
    try:
        if data.get("minutes") not in (None, ""):
            minutes = parse_minutes(str(data["minutes"]))
    except ValueError as exc:
        problems.append(f"minutes: {exc}")
    if problems:
        raise WebError(422, problems)
    here = _design(game, context.cards)
    version = data.get("version") or None
    version_text = None  # the version the stamp given names, kept with its hash
    if version is not None:
        from cards.design import parse_stamp

        stamp = parse_stamp(version)
        if stamp is None:
            raise WebError(422, f"version: {version!r} is not a design hash (six hex digits, "
                                f"as printed on the components)")
        version, version_text = stamp.hash, stamp.version
    scored = _scored(game, data["file"], context.cards) if data.get("file") else None
    ruleset = context.rulesets[game]
    try:
        test = entry(game, version or here.hash,
                     here.version if (version or here.hash) == here.hash else version_text,
                     players=players, scores=scores, scored=scored, winners=winner,
                     played=played, minutes=minutes,
                     notes=_text(data.get("notes"), "notes"),
                     player_counts=tuple(getattr(ruleset, "player_counts", (2,))))
    except PlaytestError as exc:
        raise WebError(422, exc.problems) from None
    snapshot = None
    if test.design == here.hash:
        from cards.ruleset_cache import load_definitions
        from cards.snapshot import snapshot_of

        snapshot = snapshot_of(load_definitions(game, context.cards))
    add(context.store, test, snapshot)
    return JSONResponse(test.to_json(), status_code=201)


def routes() -> list[tuple[str, Handler | None, list[str]]]:
    """``(path, handler, methods)`` of the playtest API; a handler of None is the page
    (``playtests.html``)."""
    async def dispatch(request: Request) -> Response:
        if request.method == "POST":
            return await add_playtest(request)
        return await list_playtests(request)

    return [("/playtests", None, ["GET"]), ("/api/playtests", dispatch, ["GET", "POST"])]
