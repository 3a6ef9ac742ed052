"""The ASGI application of ``pnp-web`` (Starlette): pages, the JSON API, the WebSocket.

Pages are static files of ``web/static/`` (plain HTML, JavaScript modules and CSS; the
fonts are the printables' DejaVu Sans). The API answers JSON; a request it refuses gets a
4xx status and ``{"error": sentence, "problems": [...]}``, and nothing is changed.

=========================================  ===================================================
``GET  /api/orbitus/cards``                every card face, the back, the planet types
``POST /api/orbitus/score``                the page's table scored as ``pnp-score`` scores it
``POST /api/orbitus/import?name=F``        a layout file (the body) read as the page's table
``POST /api/orbitus/photo?name=F&table=T`` a photo (the body, JPEG or PNG) read as the page's
                                           table (``T``: the page's players and station, as
                                           JSON), with the cells not read, the photo's
                                           findings and the debug image; several photos of
                                           one table (``name=A&name=B&sizes=NA,NB``, the
                                           body their bytes one after the other) are read
                                           each on its own and merged cell by cell
``POST /api/orbitus/export/KIND``          the table as ``yaml``, ``json``, ``txt``, ``svg``,
                                           ``png``
``GET  /api/satellites/pieces``            the board and the satellites as printed
``POST /api/satellites/score`` ...         the same five for a Satellites board (``txt`` is
                                           the board text, ``report`` the summary)
``GET|POST /api/tables/GAME``              saved transcriptions (``/api/tables/GAME/ID``)
``POST /api/games``                        a new game: its join code and links (the
                                           creator's own seat's with ``me``; never the seed)
``GET  /api/games``                        every game (no links, no codes, no seeds)
``GET  /api/games/ID/record``              a finished or abandoned game's record
``GET  /api/games/ID/replay``              its positions, for the replay viewer
``GET  /api/join/CODE``                    the game of a join code: its seats, who holds them
``POST /api/join/CODE``                    ``{"seat": n}``: take a free seat; its secret link,
                                           shown to this device only, once
``GET  /api/link/TOKEN``                   what the link may see of its game
``POST /api/link/TOKEN/move``              ``{"action": "c1-c4", "version": n}``
``POST /api/link/TOKEN/undo``, ``handon``  take a move back; hand the seat on (a seat's link)
``POST /api/link/TOKEN/abandon``, ``free``, ``ask``  the host's: ``{"seat": n}`` to free a
                                           seat whose device is gone, or to ask it to hand on
``GET  /api/link/TOKEN/view?seat=N``       a seat's view (only that seat's own link)
``WS   /ws/TOKEN``                         live updates; moves as ``{"type": "move", ...}``
=========================================  ===================================================

Every request passes :class:`web.guard.Guard` first (the Host allowlist, Origin, JSON only,
rate limits, slow bodies). Work that takes a core for a while (pictures, the scores of big
tables, bots) is done in worker processes (:mod:`web.work`). A failing disk or database is
a 503 with a sentence (:class:`web.store.StoreFailure`), and nothing half-written stays.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

import rules
from web import work
from web.adapters import Desk, play_adapter, table_adapter, web_games
from web.errors import WebError
from web.games import GONE, IDLE_DONE, Answer, Manager, Session, Watcher, record_of, replay_of
from web.guard import LOOPBACK, Guard, close_reason
from web.lock import DataLock, FolderInUse
from web.playtest_api import routes as playtest_routes
from web.store import Store, StoreError, StoreFailure, digest

STATIC = Path(__file__).parent / "static"
FONTS = Path(__file__).resolve().parent.parent / "generator" / "fonts"
MAX_BODY = 1_100_000  # bytes of a request (a layout of 2,000 sectors is about 100 kB)
MAX_PHOTO = 40_000_000  # bytes of an uploaded photo (a 50 MP phone JPEG is about 25 MB)
DEBUG_SIDE = 1600  # px: the long side of the debug image sent back with a photo's reading
LAYOUT_HINT = "a layout or board of a real game is a few kB"
PHOTO_HINT = "save the photo as a JPEG of 12-24 megapixels"
MAX_DEPTH = 64  # levels of a request's JSON (a table is four deep)
MAX_ID = 2**63 - 1  # the largest id SQLite keeps
BIG = 24_000  # bytes of a table above which its score is worked out in a worker process
KINDS = {"yaml": "application/x-yaml", "json": "application/json", "txt": "text/plain",
         "svg": "image/svg+xml", "png": "image/png", "report": "text/plain"}
log = logging.getLogger("pnp-web")


@dataclass
class Context:
    """Everything the handlers share: the definitions, the store, the games.

    Every game of the registry that the server plays or transcribes (:mod:`web.adapters`)
    is loaded when it starts, with its definitions from ``cards``."""

    store: Store
    cards: Path | None = None
    public_url: str | None = None
    bot_delay: float = 0.4
    processes: int = 2  # worker processes (pictures, big scores, bots)
    bot_games: int = 4  # games with bots played at once
    local_only: bool = False  # listening on loopback only: no other device can come
    rulesets: dict[str, Any] = field(default_factory=dict)
    desks: dict[str, Desk] = field(default_factory=dict)
    manager: Manager | None = None
    workers: work.Workers | None = None
    _readers: dict[str, Any] = field(default_factory=dict)
    _reading: dict[str, asyncio.Lock] = field(default_factory=dict)

    def __post_init__(self) -> None:
        from cards.ruleset_cache import load_definitions, load_ruleset

        for game in web_games():
            self.rulesets[game] = load_ruleset(game, self.cards)
            self.desks[game] = Desk(game, self.rulesets[game],
                                    lambda g=game: load_definitions(g, self.cards))
        self.workers = work.Workers(self.cards, self.processes)
        self.manager = Manager(self.store, self.rulesets, bot_delay=self.bot_delay,
                               workers=self.workers, bot_games=self.bot_games)
        from cards.design_cache import design  # saved games and their records name it
        from cards.files import DEFAULT_CARDS

        shipped = self.cards is None or self.cards.resolve() == DEFAULT_CARDS.resolve()
        folder = None if shipped or self.cards is None else self.cards.resolve().name
        self.manager.designs = {game: {**design(game, self.cards).to_json(), "cards": folder}
                                for game in self.rulesets}
        for game, desk in self.desks.items():  # the tables transcribed name it and check it
            desk.design = self.manager.designs.get(game)

    def defs(self, game: str) -> Any:
        """The validated definitions (pydantic models: the drawing code needs them)."""
        return self.desks[game].defs

    def photo_reader(self, game: str) -> Any:
        """The photo reader of ``game`` against the definitions the server was started with,
        built on first use and kept (call in a worker thread: it imports OpenCV)."""
        if game not in self._readers:
            from photo import marker_map, markers_missing, reader_for

            defs = self.defs(game)
            mmap = marker_map(game, defs)
            missing = markers_missing(game, mmap)
            if missing:
                raise WebError(422, missing)
            self._readers[game] = reader_for(game, mmap, defs)
        return self._readers[game]

    def reading_lock(self, game: str) -> asyncio.Lock:
        """One photo of a game read at a time (the reader is not shared between threads,
        and a read takes a core)."""
        if game not in self._reading:
            self._reading[game] = asyncio.Lock()
        return self._reading[game]

    @property
    def games(self) -> Manager:
        assert self.manager is not None
        return self.manager

    @property
    def pool(self) -> work.Workers:
        assert self.workers is not None
        return self.workers


# --- helpers ------------------------------------------------------------------------------------


def _amount(size: int, limit: int) -> str:
    return f"{size / 1_000_000:.0f} MB" if limit >= 10_000_000 else f"{size // 1000} kB"


async def read_body(request: Request, limit: int = MAX_BODY, hint: str = LAYOUT_HINT) -> bytes:
    """The request's body, refused (413) past ``limit`` bytes without reading it all."""
    size = request.headers.get("content-length")
    if size is not None and size.isdigit() and int(size) > limit:
        raise WebError(413, f"the upload is {_amount(int(size), limit)}; the largest this "
                            f"page takes is {_amount(limit, limit)} ({hint})")
    chunks: list[bytes] = []
    total = 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > limit:
            raise WebError(413, f"the upload is larger than {_amount(limit, limit)}, the "
                                f"largest this page takes ({hint})")
        chunks.append(chunk)
    return b"".join(chunks)


def parse_json(raw: bytes | str) -> Any:
    """JSON as a request sends it; 400 with the reason for what is not JSON, or is nested
    deeper than :data:`MAX_DEPTH` levels (nothing the pages send is)."""
    try:
        data = json.loads(raw or b"null")
    except RecursionError:
        data = None
        too_deep = True
    except (UnicodeDecodeError, ValueError) as exc:
        raise WebError(400, f"the request is not JSON ({exc})") from None
    else:
        too_deep = depth(data) > MAX_DEPTH
    if too_deep:
        raise WebError(400, f"the request's JSON is nested more than {MAX_DEPTH} levels deep; "
                            f"nothing this server takes is (a table is four levels deep)")
    return data


def depth(data: Any) -> int:
    """How deeply lists and objects nest in ``data`` (without recursion)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, level)
            if level > MAX_DEPTH:
                return level
            stack.extend((v, level + 1) for v in (item.values() if isinstance(item, dict)
                                                  else item))
    return deepest


async def read_json(request: Request) -> Any:
    return parse_json(await read_body(request))


async def read_text(request: Request) -> str:
    body = await read_body(request)
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise WebError(422, f"the file is not UTF-8 text (byte {exc.start}); save it as "
                            f"UTF-8") from None


def source_name(request: Request, default: str) -> str:
    return source_name_of(request.query_params.get("name") or default, default)


def source_name_of(name: str, default: str) -> str:
    """A file name as a page may show it: no folders, printable, at most 80 characters."""
    name = name.replace("\\", "/").rsplit("/", 1)[-1]
    return "".join(ch for ch in name if ch.isprintable())[:80] or default


Handler = Callable[[Request], Awaitable[Response]]


def api(handler: Handler) -> Handler:
    """Turn a :class:`WebError` into its status and JSON body."""

    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except WebError as exc:
            return JSONResponse(exc.to_json(), status_code=exc.status)
        except (StoreFailure, FolderInUse) as exc:  # the disk or the database: 503
            log.warning("%s: %s", request.url.path, exc)
            return JSONResponse(WebError(503, str(exc)).to_json(), status_code=503)
        except Exception as exc:  # a bug: one clear line, never a traceback to the page
            log.exception("internal error on %s", request.url.path)
            error = WebError(500, f"internal error ({type(exc).__name__}); nothing was "
                                  f"changed. Please report it with what you did")
            return JSONResponse(error.to_json(), status_code=500)

    wrapped.__name__ = handler.__name__
    return wrapped


def ctx(request: Request) -> Context:
    context: Context = request.app.state.context
    return context


def game_of(request: Request) -> tuple[str, ModuleType, Desk]:
    """The game a transcription route names, its table adapter and its desk (404 for a
    game whose tables are not transcribed here)."""
    game = request.path_params["game"]
    return game, table_adapter(game), ctx(request).desks[game]


def download(data: bytes | str, kind: str, filename: str) -> Response:
    body = data.encode("utf-8") if isinstance(data, str) else data
    media = KINDS[kind]
    if media.startswith("text/") or media.endswith(("yaml", "json", "svg+xml")):
        media += "; charset=utf-8"
    return Response(body, media_type=media,
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


# --- pages ----------------------------------------------------------------------------------------


def page(name: str) -> Handler:
    async def handler(request: Request) -> Response:
        return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

    return handler


async def font(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
        return JSONResponse({"error": "no such font"}, status_code=404)
    return FileResponse(FONTS / name, media_type="font/ttf",
                        headers={"Cache-Control": "max-age=86400"})


# --- transcription --------------------------------------------------------------------------------


@api
async def pieces(request: Request) -> Response:
    _, table, desk = game_of(request)
    return JSONResponse({**desk.drawn("pieces", lambda: table.page_pieces(desk)),
                         "max_photo": MAX_PHOTO})


async def table_work(request: Request, name: str, heavy: bool, *args: Any) -> Any:
    """``web.<game>_table.<name>(desk, *args)``: in a worker process when ``heavy`` (a
    picture, a big table), so the event loop keeps answering every game meanwhile."""
    game, table, desk = game_of(request)
    if heavy:
        return await ctx(request).pool.run(work.table_call, game, name, args)
    return getattr(table, name)(desk, *args)


async def table_answer(request: Request, name: str, heavy: bool, *args: Any) -> Response:
    """:func:`table_work`'s answer as JSON (encoded in the worker too when ``heavy``)."""
    if not heavy:
        return JSONResponse(await table_work(request, name, False, *args))
    game = request.path_params["game"]
    table_adapter(game)
    body = await ctx(request).pool.run(work.table_json, game, name, args)
    return Response(body, media_type="application/json")


@api
async def score(request: Request) -> Response:
    _, table, _ = game_of(request)
    body = await read_body(request)
    data = parse_json(body)
    if not isinstance(data, dict):
        raise WebError(400, "expected a JSON object with the table")
    return await table_answer(request, "page_score", len(body) > BIG, data.get(table.KEY),
                              source_name(request, table.SOURCE))


@api
async def import_(request: Request) -> Response:
    _, table, _ = game_of(request)
    text = await read_text(request)
    return await table_answer(request, "page_import", len(text) > BIG, text,
                              source_name(request, table.SOURCE))


# --- reading a photo ----------------------------------------------------------------------------


def _need_opencv() -> None:
    """501 with the install sentence when the optional photo reader is not installed."""
    from photo import can_read  # before NumPy: it keeps NumPy's BLAS to one thread

    if not can_read():
        from scorer.photo_layout import INSTALL_HOW

        raise WebError(501, f"reading a photo needs OpenCV, an optional part of this "
                            f"toolchain; {INSTALL_HOW}; then start pnp web again")


MAX_PHOTOS = 4  # photos of one table read together


def _photos(request: Request, data: bytes, default: str) -> list[tuple[str, bytes]]:
    """The photos of one upload: the body alone, or (``sizes=N1,N2``) several photos one
    after the other, named by as many ``name`` parameters; a 400 when they do not add up."""
    names = [source_name_of(n, default) for n in request.query_params.getlist("name")] or \
        [default]
    sizes = request.query_params.get("sizes")
    if sizes is None:
        return [(names[0], data)]
    try:
        lengths = [int(n) for n in sizes.split(",")]
    except ValueError:
        lengths = []
    if not 1 <= len(lengths) <= MAX_PHOTOS or any(n <= 0 for n in lengths) or \
            sum(lengths) != len(data) or len(names) != len(lengths):
        raise WebError(400, f"sizes must give the byte length of each photo (1 to {MAX_PHOTOS}, "
                            f"adding up to the {len(data)} bytes sent), with a name for each")
    out, start = [], 0
    for name, n in zip(names, lengths, strict=True):
        out.append((name, data[start:start + n]))
        start += n
    return out


def _read_photo(context: Context, game: str,
                photos: list[tuple[str, bytes]]) -> tuple[Any, list[bytes]]:
    """Read the photos (in a worker thread), each on its own, merged cell by cell: the
    reading and each photo's debug image as a JPEG of at most ``DEBUG_SIDE`` px a side; a
    photo that cannot be read is a 422 with the reader's line."""
    import cv2

    from photo.debug import encode
    from photo.image import PhotoError
    from photo.merge import evidence_of, merge, shown_in

    reader = context.photo_reader(game)
    readings, works, images = [], [], []
    for name, data in photos:
        try:
            reading, work = reader.read_bytes(data, name)
        except PhotoError as exc:
            raise WebError(422, str(exc)) from None
        readings.append(reading)
        works.append(work)
    merged = merge(game, readings, [name for name, _ in photos],
                   evidence_of(reader, readings, works))
    for i, work in enumerate(works):  # each photo drawn with what the photos read together
        img = reader.draw(work.bgr, shown_in(game, merged, readings, i))
        k = DEBUG_SIDE / max(img.shape[:2])
        if k < 1.0:
            img = cv2.resize(img, (round(img.shape[1] * k), round(img.shape[0] * k)),
                             interpolation=cv2.INTER_AREA)
        images.append(encode(img, "debug.jpg"))
    return merged, images


def _lifted_note(reading: Any) -> list[str]:
    """The note naming the cards read that do not lie flat (Orbitus), as the CLI says it."""
    from scorer.photo_layout import orbitus_lifted

    cells = getattr(reading, "lifted", None)
    return [orbitus_lifted(cells)] if cells else []


@api
async def photo(request: Request) -> Response:
    """A photo of the table read by ``pnp-score GAME --photo``'s reader: the page's table as
    an import gives it, and ``photo``: what was read, the cells seen but not read, the
    photo's findings (the CLI's sentences) and the debug image. The server's tables and
    the page's are not changed here: the page loads the answer as an import."""
    import base64

    game, table, desk = game_of(request)
    context = ctx(request)
    keep = table.photo_keep(request.query_params.get("table"))
    _need_opencv()
    data = await read_body(request, MAX_PHOTO, PHOTO_HINT)
    photos = _photos(request, data, table.SOURCE.rsplit(".", 1)[0] + ".jpg")
    name = " + ".join(n for n, _ in photos)
    async with context.reading_lock(game):
        reading, images = await asyncio.to_thread(_read_photo, context, game, photos)
    if reading.homography is None:  # no station, no board: nothing could be placed
        raise WebError(422, [f"{name}: {f.rule}: {f.message}" for f in reading.findings])
    out, seen = table.page_photo(desk, reading, keep, name)
    shown = ["data:image/jpeg;base64," + base64.b64encode(image).decode() for image in images]
    out["photo"] = {"file": name, "files": [n for n, _ in photos], **seen, "image": shown[0],
                    "images": shown, "notes": reading.notes + _lifted_note(reading)}
    return JSONResponse(out)


@api
async def export(request: Request) -> Response:
    _, table, _ = game_of(request)
    kind = request.path_params["kind"]
    body = await read_body(request)
    data = parse_json(body)
    if not isinstance(data, dict):
        raise WebError(400, "expected a JSON object with the table")
    stem = source_name(request, table.SOURCE.rsplit(".", 1)[0]).rsplit(".", 1)[0]
    heavy = kind in ("png", "svg") or len(body) > BIG
    made = await table_work(request, "page_export", heavy, kind, data.get(table.KEY), stem)
    if made is None:
        raise WebError(404, f"{kind!r} is not an export; choose yaml, json, txt, svg or png")
    body, filename = made
    return download(body, kind, filename)


# --- saved transcriptions -------------------------------------------------------------------------


@api
async def tables(request: Request) -> Response:
    game, adapter, desk = game_of(request)
    store = ctx(request).store
    if request.method == "GET":
        return JSONResponse(store.tables(game))
    data = await read_json(request)
    if not isinstance(data, dict) or not isinstance(data.get("text"), str):
        raise WebError(400, "expected {name, text}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 80:
        raise WebError(422, "give the table a name of 1 to 80 characters")
    ident = data.get("id")
    if ident is not None and (type(ident) is not int or not 1 <= ident <= MAX_ID):
        raise WebError(422, f"id must be the number of a saved table, from 1 to {MAX_ID}, or "
                            f"none for a new one")
    adapter.check_text(desk, data["text"])  # only what pnp-score reads may be saved
    saved = store.save_table(game, " ".join(name.split()), data["text"], ident)
    return JSONResponse({"id": saved})


@api
async def table(request: Request) -> Response:
    game, _, _ = game_of(request)
    store = ctx(request).store
    raw = request.path_params["ident"]
    ident = int(raw) if raw.isdigit() and len(raw) < 30 else 0
    if not 1 <= ident <= MAX_ID:
        raise WebError(404, f"no saved table has the id {raw[:40]!r}: ids are whole numbers "
                            f"from 1 to {MAX_ID}, as the list of saved tables gives them")
    if request.method == "DELETE":
        if not store.delete_table(game, ident):
            raise WebError(404, "no such saved table")
        return JSONResponse({"deleted": ident})
    found = store.table(game, ident)
    if found is None:
        raise WebError(404, "no such saved table")
    return JSONResponse(found)


# --- games ----------------------------------------------------------------------------------------


def link_base(request: Request, context: Context) -> str:
    if context.public_url:
        return context.public_url.rstrip("/")
    return str(request.base_url).rstrip("/")


@functools.lru_cache(maxsize=512)
def qr_svg(url: str) -> str:
    """The QR code of ``url`` as inline SVG that scales to its box: a ``viewBox`` and no
    size of its own (the page sets the size), the quiet zone of four modules included."""
    import segno

    return str(segno.make(url, error="m").svg_inline(scale=1, border=4, omitsize=True,
                                                       dark="#000000", light="#ffffff"))


def _links(request: Request, context: Context, session: Session, role: str) -> dict[str, Any]:
    """What a host's page (or a seat's, to hand the seat on) shows for others to come in:
    the join code, its link and QR code, and for the host the spectators' link."""
    base = link_base(request, context)
    join = f"{base}/j/{session.code}"
    out: dict[str, Any] = {"code": session.code, "join": join, "join_qr": qr_svg(join),
                           "reachable": not context.local_only or bool(context.public_url)}
    if role == "host":
        watch = f"{base}/w/{session.watch}"
        out.update(spectator=watch, spectator_qr=qr_svg(watch))
    return out


@api
async def games(request: Request) -> Response:
    context = ctx(request)
    if request.method == "GET":
        return JSONResponse(context.store.games())
    data = await read_json(request)
    if not isinstance(data, dict):
        raise WebError(400, "expected {game, players, seed}")
    game = data.get("game")
    if game not in rules.names("web.play"):
        raise WebError(422, f"game: {game!r} is not a game; choose "
                            f"{rules.listed(rules.names('web.play'), 'or')}")
    session, host, mine = context.games.create(game, data.get("players"), data.get("seed"),
                                               data.get("me"))
    base = link_base(request, context)
    out: dict[str, Any] = {"id": session.id, "code": session.code,
                           "links": {"host": f"{base}/h/{host}",
                                     **_links(request, context, session, "host")},
                           "seat": None}
    if mine is not None:
        seat = next(iter(session.taken))
        out["seat"] = {"seat": seat, "name": session.names[seat], "url": f"{base}/s/{mine}"}
    return JSONResponse(out)


def _finished(request: Request) -> Any:
    session = ctx(request).games.load(request.path_params["ident"])
    if session is None:
        raise WebError(404, "no such game")
    return session


@api
async def record(request: Request) -> Response:
    session = _finished(request)
    return download(record_of(session), "yaml", f"{session.game}-{session.id}.yaml")


@api
async def replay(request: Request) -> Response:
    out = replay_of(_finished(request))
    out.update(_extras(ctx(request), out["game"], out["steps"][0]["view"]))
    return JSONResponse(out)


def _extras(context: Context, game: str, view: dict[str, Any]) -> dict[str, Any]:
    """What the play adapter adds to a page's message besides the view."""
    extras: dict[str, Any] = play_adapter(game).page_extras(context.desks[game], view)
    return extras


def _seats(session: Session) -> list[dict[str, Any]]:
    here = session.connected()
    return [{"seat": s, "name": n, "kind": k, "taken": s in session.taken,
             "connected": here[s]}
            for s, (n, k) in enumerate(zip(session.names, session.kinds, strict=True))]


@api
async def join(request: Request) -> Response:
    """A join code's game (GET: its seats and who holds them; POST ``{"seat": n}``: take a
    free seat, whose secret link is in the answer, for this device only)."""
    context = ctx(request)
    session = context.games.by_code(request.path_params["code"])
    base = link_base(request, context)
    if request.method == "GET":
        return JSONResponse({"id": session.id, "game": session.game, "code": session.code,
                             "status": session.status, "dealt": session.dealt,
                             "hides": session.hides,
                             "players": _seats(session),
                             "spectator": f"{base}/w/{session.watch}"})
    data = await read_json(request)
    if not isinstance(data, dict):
        raise WebError(400, "expected {seat}")
    seat = data.get("seat")
    token = await context.games.take_seat(session, seat)
    return JSONResponse({"id": session.id, "game": session.game, "seat": seat,
                         "name": session.names[seat], "url": f"{base}/s/{token}"})


@api
async def link(request: Request) -> Response:
    context = ctx(request)
    session, role, seat = context.games.resolve(request.path_params["token"])
    out = session.message(role, seat)
    if role in ("host", "seat"):
        out["links"] = _links(request, context, session, role)
    out.update(_extras(context, session.game, out["view"]))
    return JSONResponse(out)


@api
async def link_view(request: Request) -> Response:
    context = ctx(request)
    session, role, seat = context.games.resolve(request.path_params["token"])
    asked = request.query_params.get("seat")
    if asked is None or not asked.isdigit() or int(asked) >= len(session.names):
        raise WebError(422, f"seat must be a seat number from 0 to {len(session.names) - 1}")
    wanted = int(asked)
    if role != "seat" or seat != wanted:
        who = session.names[wanted]
        mine = f"{session.names[seat]}'s seat" if role == "seat" and seat is not None \
            else f"the {role}'s"
        raise WebError(403, f"this link is {mine}; {who}'s view (their hand) is sent to "
                            f"{who}'s own link only")
    return JSONResponse(session.message(role, seat))


HOST_ONLY = {"abandon": "abandon the game", "free": "free a seat", "ask": "ask a seat to "
             "hand itself on"}


@api
async def link_action(request: Request) -> Response:
    context = ctx(request)
    session, role, seat = context.games.resolve(request.path_params["token"])
    what = request.path_params["what"]
    data = await read_json(request)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise WebError(400, "expected a JSON object")
    if what in HOST_ONLY:
        if role != "host":
            raise WebError(403, f"only the host's link can {HOST_ONLY[what]}")
        if what == "abandon":
            await context.games.abandon(session)
        elif what == "free":
            await context.games.free_seat(session, data.get("seat"), by_host=True)
        else:
            await context.games.ask_hand_on(session, data.get("seat"))
        out = session.message(role, seat)
        out["links"] = _links(request, context, session, role)
        return JSONResponse(out)
    if what not in ("move", "undo", "handon"):
        raise WebError(404, f"{what!r} is not something a link can do")
    if role != "seat" or seat is None:
        raise WebError(403, f"a {role} link watches the game; only a seat's link "
                            f"{'makes moves' if what == 'move' else 'does that'}")
    if what == "move":
        await context.games.move(session, seat, data.get("action"), data.get("version"))
        return JSONResponse(session.message(role, seat))
    if what == "undo":
        return JSONResponse(await context.games.undo(session, seat))
    await context.games.free_seat(session, seat, by_host=False)
    return JSONResponse({"handed_on": seat, "code": session.code,
                         **_links(request, context, session, "seat")})


class LivePage:
    """The WebSocket route as a plain ASGI application (:func:`ws` does the work), so that
    the frames of every move go out through the server's own ASGI ``send``: not through
    Starlette's ``WebSocket.send_text``, its state checks and the exception wrapper of a
    function endpoint, four calls fewer for each of the four frames of a move."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await ws(WebSocket(scope, receive, send), send)


async def ws(websocket: WebSocket, raw: Send | None = None) -> None:
    """A page's live connection: the state now, then every change; moves and taking back
    too (``{type: move|undo, id, ...}``: a move made is answered in the first state
    message after it, ``{"type":"state","ok":id,...}``; a move refused by an error message
    with its ``id``). A frame it cannot use (binary, not JSON, nested too deep) is
    answered with an error and the connection stays; a link that does not open a game is
    told why, then closed with 4000 + the HTTP status and the sentence as the reason.
    ``raw``: the connection's ASGI ``send``, which sends the text frames once the
    connection is accepted (``websocket.send_text`` without it)."""
    context: Context = websocket.app.state.context
    await websocket.accept()
    token = websocket.path_params["token"]
    try:
        session, role, seat = context.games.resolve(token)
    except (WebError, StoreFailure) as exc:
        error = exc if isinstance(exc, WebError) else WebError(503, str(exc))
        await websocket.send_text(json.dumps({"type": "error", **error.to_json()}))
        await websocket.close(code=4000 + error.status, reason=close_reason(error.problems[0]))
        return
    lock = asyncio.Lock()  # the frames of one page go out one after the other, in order
    out = raw or websocket.send

    async def send(text: str) -> None:
        await lock.acquire()
        try:
            await out({"type": "websocket.send", "text": text})
        except OSError:  # the page has gone (what Starlette's send_text would raise)
            raise WebSocketDisconnect(code=1006) from None
        finally:
            lock.release()

    async def close(code: int, reason: str) -> None:
        await websocket.close(code=code, reason=close_reason(reason))

    watcher = Watcher(send, role, seat, digest(token), close)
    try:
        await context.games.watch(session, watcher)
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            if message.get("text") is None:
                size = len(message.get("bytes") or b"")
                error = WebError(400, f"this connection takes text frames of JSON ({{type: "
                                      f"move|undo|ping, ...}}); a binary frame of {size} "
                                      f"bytes came and was ignored")
                await send(json.dumps({"type": "error", "id": None, **error.to_json()}))
                continue
            reply = await _ws_message(context, session, watcher, message["text"])
            if reply is not None:
                await send(json.dumps(reply, separators=(",", ":")))
    except WebSocketDisconnect:
        pass
    except Exception as exc:  # a bug: the page is told, and reconnects
        log.exception("internal error on the WebSocket of game %s", session.id)
        with contextlib.suppress(Exception):
            await websocket.close(code=1011, reason=close_reason(
                f"internal error ({type(exc).__name__}); the page reconnects"))
    finally:
        await context.games.unwatch(session, watcher)


async def _ws_message(context: Context, session: Session, watcher: Watcher,
                      raw: str) -> dict[str, Any] | None:
    ident = None
    try:
        if len(raw) > 10_000:
            raise WebError(413, f"a message of {len(raw)} characters; a move is a few dozen")
        data = parse_json(raw)
        ident = data.get("id") if isinstance(data, dict) else None
        if watcher not in session.watchers:  # its seat was handed on or freed since
            raise WebError(410, GONE)
        if not isinstance(data, dict) or data.get("type") not in ("move", "undo", "ping"):
            raise WebError(400, "expected {type: move|undo|ping, ...}")
        if data["type"] == "ping":
            return {"type": "pong", "id": ident}
        role, seat = watcher.role, watcher.seat
        if role != "seat" or seat is None:
            raise WebError(403, f"a {role} link watches the game; only a seat's link plays")
        answer = Answer(watcher, ident)
        if data["type"] == "move":
            version = await context.games.move(session, seat, data.get("action"),
                                               data.get("version"), answer)
        else:
            version = (await context.games.undo(session, seat, answer))["version"]
        if answer.sent:  # told in the page's state message after the move: no frame more
            return None
        return {"type": "ok", "id": ident, "version": version}
    except WebError as exc:
        return {"type": "error", "id": ident, **exc.to_json()}
    except StoreFailure as exc:
        return {"type": "error", "id": ident, **WebError(503, str(exc)).to_json()}


# --- the application ------------------------------------------------------------------------------


def create_app(data: Path, cards: Path | None = None, public_url: str | None = None,
               bot_delay: float = 0.4, *, hosts: Iterable[str] = LOOPBACK, workers: int = 2,
               bot_games: int = 4, rate: int = 30, idle: float = IDLE_DONE,
               body_idle: float = 10.0, body_deadline: float = 120.0, warm: bool = False,
               local_only: bool = False, url: str | None = None) -> Starlette:
    """The application for a data folder (and definitions folder).

    ``hosts``: the host names it answers to (:class:`web.guard.Guard`); ``workers``: its
    worker processes; ``bot_games``: how many games with bots it plays at once; ``rate``:
    new games (seats taken, tables saved) one address may make a minute; ``idle``: seconds
    after which a finished game nobody looks at leaves memory; ``body_idle`` and
    ``body_deadline``: a request body's timeouts; ``warm``: start the worker processes at
    once and work out the rules cores' tables (:meth:`Manager.warm`); ``local_only``: it
    listens on loopback only (the host page says other devices cannot come); ``url``: its
    address, named in the data folder's lock file. The folder
    is locked (:mod:`web.lock`) until the application stops: a second server on it is
    refused (:class:`~web.store.StoreError`, naming the first)."""
    store = Store(data)
    try:
        lock = DataLock(data, url)
    except FolderInUse as exc:
        store.close()
        raise StoreError(str(exc)) from None
    context = Context(store, cards, public_url, bot_delay, workers, bot_games, local_only)
    context.games.idle_done = idle
    if warm:
        context.games.warm()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async def sweep() -> None:
            every = max(0.05, min(30.0, idle / 2))
            while True:
                await asyncio.sleep(every)
                context.games.sweep()

        sweeper = asyncio.get_running_loop().create_task(sweep())
        if warm:
            with contextlib.suppress(Exception):
                await context.pool.warm()
        try:
            yield
        finally:
            sweeper.cancel()
            await context.games.stop()
            context.pool.close()
            store.close()
            lock.release()

    routes = [
        Route("/", page("index.html")),
        *(Route(f"/transcribe/{game}", page(table_adapter(game).PAGE))
          for game in rules.names("web.table")),
        Route("/s/{token}", page("play.html")),
        Route("/w/{token}", page("play.html")),
        Route("/h/{token}", page("play.html")),
        Route("/j/{code}", page("join.html")),
        Route("/replay/{ident}", page("replay.html")),
        Route("/fonts/{name}", font),
        Route("/api/{game}/pieces", pieces),
        Route("/api/{game}/score", score, methods=["POST"]),
        Route("/api/{game}/import", import_, methods=["POST"]),
        Route("/api/{game}/photo", photo, methods=["POST"]),
        Route("/api/{game}/export/{kind}", export, methods=["POST"]),
        Route("/api/tables/{game}", tables, methods=["GET", "POST"]),
        Route("/api/tables/{game}/{ident}", table, methods=["GET", "DELETE"]),
        Route("/api/games", games, methods=["GET", "POST"]),
        Route("/api/games/{ident}/record", record),
        Route("/api/games/{ident}/replay", replay),
        Route("/api/join/{code}", join, methods=["GET", "POST"]),
        Route("/api/link/{token}", link),
        Route("/api/link/{token}/view", link_view),
        Route("/api/link/{token}/{what}", link_action, methods=["POST"]),
        *(Route(path, page("playtests.html") if handler is None else api(handler),
                methods=methods) for path, handler, methods in playtest_routes()),
        WebSocketRoute("/ws/{token}", LivePage()),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(Guard, hosts=hosts, public_url=public_url, rate=rate,
                                           idle=body_idle, deadline=body_deadline),
                                Middleware(GZipMiddleware, minimum_size=2000)])
    app.state.context = context
    return app
