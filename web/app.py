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
                                           findings and the debug image
``POST /api/orbitus/export/KIND``          the table as ``yaml``, ``json``, ``txt``, ``svg``,
                                           ``png``
``GET  /api/satellites/pieces``            the board and the satellites as printed
``POST /api/satellites/score`` ...         the same five for a Satellites board (``txt`` is
                                           the board text, ``report`` the summary)
``GET|POST /api/tables/GAME``              saved transcriptions (``/api/tables/GAME/ID``)
``POST /api/games``                        a new game: its links
``GET  /api/games``                        every game (no links)
``GET  /api/games/ID/record``              a finished or abandoned game's record
``GET  /api/games/ID/replay``              its positions, for the replay viewer
``GET  /api/link/TOKEN``                   what the link may see of its game
``POST /api/link/TOKEN/move``              ``{"action": "c1-c4", "version": n}``
``POST /api/link/TOKEN/undo``, ``abandon``, ``relink``
``GET  /api/link/TOKEN/view?seat=N``       a seat's view (only that seat's own link)
``WS   /ws/TOKEN``                         live updates; moves as ``{"type": "move", ...}``
=========================================  ===================================================
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
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
from starlette.websockets import WebSocket, WebSocketDisconnect

import rules
from web.adapters import Desk, play_adapter, table_adapter, web_games
from web.errors import WebError
from web.games import Manager, Watcher, record_of, replay_of
from web.store import Store

STATIC = Path(__file__).parent / "static"
FONTS = Path(__file__).resolve().parent.parent / "generator" / "fonts"
MAX_BODY = 1_100_000  # bytes of a request (a layout of 2,000 sectors is about 100 kB)
MAX_PHOTO = 40_000_000  # bytes of an uploaded photo (a 50 MP phone JPEG is about 25 MB)
DEBUG_SIDE = 1600  # px: the long side of the debug image sent back with a photo's reading
LAYOUT_HINT = "a layout or board of a real game is a few kB"
PHOTO_HINT = "save the photo as a JPEG of 12-24 megapixels"
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
    rulesets: dict[str, Any] = field(default_factory=dict)
    desks: dict[str, Desk] = field(default_factory=dict)
    manager: Manager | None = None
    _readers: dict[str, Any] = field(default_factory=dict)
    _reading: dict[str, asyncio.Lock] = field(default_factory=dict)

    def __post_init__(self) -> None:
        from cards.ruleset_cache import load_definitions, load_ruleset

        for game in web_games():
            self.rulesets[game] = load_ruleset(game, self.cards)
            self.desks[game] = Desk(game, self.rulesets[game],
                                    lambda g=game: load_definitions(g, self.cards))
        self.manager = Manager(self.store, self.rulesets, bot_delay=self.bot_delay)

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


async def read_json(request: Request) -> Any:
    body = await read_body(request)
    try:
        return json.loads(body or b"null")
    except (UnicodeDecodeError, ValueError) as exc:
        raise WebError(400, f"the request is not JSON ({exc})") from None


async def read_text(request: Request) -> str:
    body = await read_body(request)
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise WebError(422, f"the file is not UTF-8 text (byte {exc.start}); save it as "
                            f"UTF-8") from None


def source_name(request: Request, default: str) -> str:
    name = request.query_params.get("name") or default
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


@api
async def score(request: Request) -> Response:
    _, table, desk = game_of(request)
    data = await read_json(request)
    if not isinstance(data, dict):
        raise WebError(400, "expected a JSON object with the table")
    return JSONResponse(table.page_score(desk, data.get(table.KEY),
                                         source_name(request, table.SOURCE)))


@api
async def import_(request: Request) -> Response:
    _, table, desk = game_of(request)
    text = await read_text(request)
    return JSONResponse(table.page_import(desk, text, source_name(request, table.SOURCE)))


# --- reading a photo ----------------------------------------------------------------------------


def _need_opencv() -> None:
    """501 with the install sentence when the optional photo reader is not installed."""
    from photo import can_read  # before NumPy: it keeps NumPy's BLAS to one thread

    if not can_read():
        from scorer.photo_layout import INSTALL_HOW

        raise WebError(501, f"reading a photo needs OpenCV, an optional part of this "
                            f"toolchain; {INSTALL_HOW}; then start pnp web again")


def _read_photo(context: Context, game: str, data: bytes, name: str) -> tuple[Any, bytes]:
    """Read ``data`` (in a worker thread): the reading and its debug image as a JPEG of at
    most ``DEBUG_SIDE`` px a side; a photo that cannot be read is a 422 with the reader's
    line."""
    import cv2

    from photo.debug import encode
    from photo.image import PhotoError

    reader = context.photo_reader(game)
    try:
        reading, work = reader.read_bytes(data, name)
    except PhotoError as exc:
        raise WebError(422, str(exc)) from None
    img = reader.draw(work.bgr, reading)
    k = DEBUG_SIDE / max(img.shape[:2])
    if k < 1.0:
        img = cv2.resize(img, (round(img.shape[1] * k), round(img.shape[0] * k)),
                         interpolation=cv2.INTER_AREA)
    return reading, encode(img, "debug.jpg")


@api
async def photo(request: Request) -> Response:
    """A photo of the table read by ``pnp-score GAME --photo``'s reader: the page's table as
    an import gives it, and ``photo``: what was read, the cells seen but not read, the
    photo's findings (the CLI's sentences) and the debug image. The server's tables and
    the page's are not changed here: the page loads the answer as an import."""
    import base64

    game, table, desk = game_of(request)
    context = ctx(request)
    name = source_name(request, table.SOURCE.rsplit(".", 1)[0] + ".jpg")
    keep = table.photo_keep(request.query_params.get("table"))
    _need_opencv()
    data = await read_body(request, MAX_PHOTO, PHOTO_HINT)
    async with context.reading_lock(game):
        reading, image = await asyncio.to_thread(_read_photo, context, game, data, name)
    if reading.homography is None:  # no station, no board: nothing could be placed
        raise WebError(422, [f"{name}: {f.rule}: {f.message}" for f in reading.findings])
    out, seen = table.page_photo(desk, reading, keep, name)
    out["photo"] = {"file": name, **seen,
                    "image": "data:image/jpeg;base64," + base64.b64encode(image).decode()}
    return JSONResponse(out)


@api
async def export(request: Request) -> Response:
    _, table, desk = game_of(request)
    kind = request.path_params["kind"]
    data = await read_json(request)
    if not isinstance(data, dict):
        raise WebError(400, "expected a JSON object with the table")
    stem = source_name(request, table.SOURCE.rsplit(".", 1)[0]).rsplit(".", 1)[0]
    made = table.page_export(desk, kind, data.get(table.KEY), stem)
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
    if ident is not None and type(ident) is not int:
        raise WebError(422, "id must be a number")
    adapter.check_text(desk, data["text"])  # only what pnp-score reads may be saved
    saved = store.save_table(game, " ".join(name.split()), data["text"], ident)
    return JSONResponse({"id": saved})


@api
async def table(request: Request) -> Response:
    game, _, _ = game_of(request)
    store = ctx(request).store
    try:
        ident = int(request.path_params["ident"])
    except ValueError:
        raise WebError(404, "no such saved table") from None
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


def qr_svg(url: str) -> str:
    import segno

    return str(segno.make(url, error="m").svg_inline(scale=4, dark="#1d1d1f", light="#ffffff"))


def _links(request: Request, context: Context, session: Any) -> dict[str, Any]:
    links = context.games.links(session)
    base = link_base(request, context)
    seats = []
    for seat, (name, kind) in enumerate(zip(session.names, session.kinds, strict=True)):
        token = links["seats"].get(str(seat))
        entry: dict[str, Any] = {"seat": seat, "name": name, "kind": kind}
        if token is not None:
            url = f"{base}/s/{token}"
            entry.update(url=url, qr=qr_svg(url))
        seats.append(entry)
    spectator = f"{base}/w/{links['spectator']}"
    return {"host": f"{base}/h/{links['host']}", "spectator": spectator,
            "spectator_qr": qr_svg(spectator), "seats": seats}


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
    session, _ = context.games.create(game, data.get("players"), data.get("seed"))
    return JSONResponse({"id": session.id, "seed": session.seed,
                         "links": _links(request, context, session)})


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


@api
async def link(request: Request) -> Response:
    context = ctx(request)
    session, role, seat = context.games.resolve(request.path_params["token"])
    out = session.message(role, seat)
    if role == "host":
        out["links"] = _links(request, context, session)
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


@api
async def link_action(request: Request) -> Response:
    context = ctx(request)
    session, role, seat = context.games.resolve(request.path_params["token"])
    what = request.path_params["what"]
    data = await read_json(request) if what in ("move", "relink") else None
    if what == "move":
        if role != "seat" or seat is None:
            raise WebError(403, f"a {role} link watches the game; only a seat's link makes "
                                f"moves")
        if not isinstance(data, dict):
            raise WebError(400, "expected {action, version}")
        await context.games.move(session, seat, data.get("action"), data.get("version"))
        return JSONResponse(session.message(role, seat))
    if what == "undo":
        if role != "seat" or seat is None:
            raise WebError(403, "only a seat's link takes back its moves")
        return JSONResponse(await context.games.undo(session, seat))
    if what == "abandon":
        if role != "host":
            raise WebError(403, "only the host's link can abandon the game")
        await context.games.abandon(session)
        return JSONResponse(session.message(role, seat))
    if what == "relink":
        if role != "host":
            raise WebError(403, "only the host's link can replace a seat's link")
        await context.games.relink(session, (data or {}).get("seat"))
        out = session.message(role, seat)
        out["links"] = _links(request, context, session)
        return JSONResponse(out)
    raise WebError(404, f"{what!r} is not something a link can do")


async def ws(websocket: WebSocket) -> None:
    """A page's live connection: the state now, then every change; moves and undo too."""
    context: Context = websocket.app.state.context
    await websocket.accept()
    try:
        session, role, seat = context.games.resolve(websocket.path_params["token"])
    except WebError as exc:
        await websocket.send_text(json.dumps({"type": "error", **exc.to_json()}))
        await websocket.close(code=4000 + exc.status)
        return
    lock = asyncio.Lock()

    async def send(text: str) -> None:
        async with lock:
            await websocket.send_text(text)

    async def close() -> None:
        await websocket.close(code=4410)

    token = websocket.path_params["token"]
    watcher = Watcher(send, role, seat, token, close)
    session.watchers.append(watcher)
    try:
        await send(session.message_text(role, seat))
        while True:
            raw = await websocket.receive_text()
            reply = await _ws_message(context, token, raw)
            if reply is not None:
                await send(json.dumps(reply, separators=(",", ":")))
    except WebSocketDisconnect:
        pass
    finally:
        if watcher in session.watchers:
            session.watchers.remove(watcher)


async def _ws_message(context: Context, token: str, raw: str) -> dict[str, Any] | None:
    try:
        data = json.loads(raw) if len(raw) < 10_000 else None
    except ValueError:
        data = None
    ident = data.get("id") if isinstance(data, dict) else None
    try:
        session, role, seat = context.games.resolve(token)  # a link replaced since: 410
        if not isinstance(data, dict) or data.get("type") not in ("move", "undo", "ping"):
            raise WebError(400, "expected {type: move|undo|ping, ...}")
        if data["type"] == "ping":
            return {"type": "pong", "id": ident}
        if role != "seat" or seat is None:
            raise WebError(403, f"a {role} link watches the game; only a seat's link plays")
        if data["type"] == "move":
            version = await context.games.move(session, seat, data.get("action"),
                                               data.get("version"))
        else:
            version = (await context.games.undo(session, seat))["version"]
        return {"type": "ok", "id": ident, "version": version}
    except WebError as exc:
        return {"type": "error", "id": ident, **exc.to_json()}


# --- the application ------------------------------------------------------------------------------


def create_app(data: Path, cards: Path | None = None, public_url: str | None = None,
               bot_delay: float = 0.4) -> Starlette:
    """The application for a data folder (and definitions folder)."""
    store = Store(data)
    context = Context(store, cards, public_url, bot_delay)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await context.games.stop()
        store.close()

    routes = [
        Route("/", page("index.html")),
        *(Route(f"/transcribe/{game}", page(table_adapter(game).PAGE))
          for game in rules.names("web.table")),
        Route("/s/{token}", page("play.html")),
        Route("/w/{token}", page("play.html")),
        Route("/h/{token}", page("play.html")),
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
        Route("/api/link/{token}", link),
        Route("/api/link/{token}/view", link_view),
        Route("/api/link/{token}/{what}", link_action, methods=["POST"]),
        WebSocketRoute("/ws/{token}", ws),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(GZipMiddleware, minimum_size=2000)])
    app.state.context = context
    return app
