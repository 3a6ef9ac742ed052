"""The server's one gate against other sites and the rest of the network (ASGI middleware).

Every request and WebSocket passes :class:`Guard` before any route, so a route added later
(the playtest form, say) is guarded the same way without doing anything:

* **Host allowlist.** The ``Host`` header must name an address this server serves on
  (loopback, the addresses of ``--host``, the interfaces when it listens on all of them,
  ``--public-url``'s host). A page of another site that makes its own name point at this
  machine (DNS rebinding) is refused before it can read anything (400).
* **Origin.** A request that changes something (any method but GET, HEAD, OPTIONS) and
  every WebSocket upgrade must come from a page of this server: an ``Origin`` header, when
  there is one, must be this server's own (scheme, host and port), and ``Sec-Fetch-Site``,
  when there is one, must say ``same-origin`` or ``none``. Programs that are not browsers
  send neither and are let through (they are not led by another site's page). 403; a
  WebSocket is closed before it opens (code 4403, with the reason).
* **JSON only.** A request that changes something must be ``application/json`` (415),
  except the uploads of files (``/api/GAME/import``, ``/api/GAME/photo``), which may be
  any type but the three a page of another site may send without asking first
  (``text/plain``, ``multipart/form-data``, ``application/x-www-form-urlencoded``).
* **Rate limits.** New games, seats taken (and join codes looked up), tables saved: at most
  ``rate`` a minute from one address (429 with ``Retry-After``).
* **Slow bodies.** A body must keep arriving (at most ``idle`` seconds between two parts)
  and be whole within ``deadline`` seconds (408): a half-sent body does not hold a
  connection forever.

Refusals are the server's usual JSON error: ``{"error", "problems", "status"}``.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import time
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from web.errors import WebError

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})
# what a page of any site may POST here without the browser asking this server first
SIMPLE_TYPES = ("text/plain", "multipart/form-data", "application/x-www-form-urlencoded")
UPLOADS = re.compile(r"^/api/[a-z_0-9]+/(import|photo)$")
LIMITED: tuple[tuple[str | None, re.Pattern[str], str], ...] = (
    ("POST", re.compile(r"^/api/games$"), "new games"),
    ("POST", re.compile(r"^/api/tables/[^/]+$"), "saved tables"),
    (None, re.compile(r"^/api/join/"), "seats taken or join codes tried"),
)


class SlowBody(WebError):
    """A request body that stopped arriving (408)."""


def host_name(value: str) -> str:
    """The host of a ``Host`` header or a URL's netloc, lower case, without the port
    (``[::1]:8000`` -> ``::1``)."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value[1:]
    if value.count(":") == 1:
        return value.split(":", 1)[0]
    return value


def _origin_of(url: str) -> str:
    """``scheme://host:port`` of a URL, the port always written."""
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme in ("https", "wss") else 80)
    host = parts.hostname or ""
    shown = f"[{host}]" if ":" in host else host
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    return f"{scheme}://{shown}:{port}".lower()


@dataclass
class Bucket:
    tokens: float
    at: float


@dataclass
class RateLimit:
    """At most ``per_minute`` requests of a kind a minute from one address (a token bucket
    that holds a minute's worth); 0: no limit."""

    per_minute: int
    buckets: dict[tuple[str, str], Bucket] = field(default_factory=dict)

    def wait(self, kind: str, client: str, now: float) -> float:
        """0 if the request may go ahead (and it is counted), else the seconds to wait."""
        if self.per_minute <= 0:
            return 0.0
        rate = self.per_minute / 60.0
        bucket = self.buckets.get((kind, client))
        if bucket is None:
            if len(self.buckets) > 10_000:  # forget the fullest ones: they are idle
                self.buckets = {k: b for k, b in self.buckets.items()
                                if b.tokens + (now - b.at) * rate < self.per_minute}
            bucket = self.buckets[(kind, client)] = Bucket(float(self.per_minute), now)
        bucket.tokens = min(float(self.per_minute), bucket.tokens + (now - bucket.at) * rate)
        bucket.at = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return 0.0
        return (1.0 - bucket.tokens) / rate


class Guard:
    """The middleware (see the module docstring). ``hosts``: the host names the server
    answers to; ``public_url``: the address other devices use (its origin is this server's
    too); ``rate``: see :class:`RateLimit`; ``idle``/``deadline``: the body's timeouts."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str] = LOOPBACK,
                 public_url: str | None = None, rate: int = 30, idle: float = 10.0,
                 deadline: float = 120.0) -> None:
        self.app = app
        self.hosts = {host_name(h) for h in hosts} | set(LOOPBACK)
        self.public = _origin_of(public_url) if public_url else None
        if public_url:
            self.hosts.add(host_name(urlsplit(public_url).netloc))
        self.limit = RateLimit(rate)
        self.idle = idle
        self.deadline = deadline

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        try:
            self._check_host(headers)
            method = scope.get("method", "GET") if kind == "http" else "WEBSOCKET"
            if method not in SAFE_METHODS:
                self._check_origin(scope, headers)
            if kind == "http" and method not in SAFE_METHODS:
                self._check_type(scope["path"], headers)
            self._check_rate(scope, method)
        except WebError as exc:
            if kind == "websocket":
                await send({"type": "websocket.close", "code": 4000 + exc.status,
                            "reason": close_reason(exc.problems[0])})
            else:
                await respond(send, exc)
            return
        if kind == "websocket":
            await self.app(scope, receive, send)
            return
        started = False

        async def watched_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, self._timed(receive), watched_send)
        except SlowBody as exc:
            if not started:
                await respond(send, exc)

    # --- the checks ---------------------------------------------------------------------

    def _check_host(self, headers: dict[str, str]) -> None:
        given = headers.get("host", "")
        if host_name(given) in self.hosts:
            return
        shown = ", ".join(sorted(self.hosts))
        said = json.dumps(given[:80]) if given else "nothing"
        raise WebError(400, f"this server answers to {shown} only, and the request's Host "
                            f"header says {said}: open it by one of those addresses (a page "
                            f"of another site that points its own name at this machine, DNS "
                            f"rebinding, is refused)")

    def _own_origins(self, scope: Scope, headers: dict[str, str]) -> set[str]:
        scheme = scope.get("scheme", "http")
        own = {_origin_of(f"{scheme}://{headers.get('host', '')}")}
        if self.public:
            own.add(self.public)
        return own

    def _check_origin(self, scope: Scope, headers: dict[str, str]) -> None:
        origin = headers.get("origin")
        fetch_site = headers.get("sec-fetch-site")
        what = "a WebSocket" if scope["type"] == "websocket" else "a request that changes " \
            "something"
        if origin is not None:
            if origin == "null" or _origin_of(origin) not in self._own_origins(scope, headers):
                raise WebError(403, f"{what} from a page of another site ({origin[:80]}) is "
                                    f"refused: only this server's own pages may do that")
        if fetch_site is not None and fetch_site not in ("same-origin", "none"):
            raise WebError(403, f"{what} from a page of another site (Sec-Fetch-Site: "
                                f"{fetch_site[:20]}) is refused: only this server's own pages "
                                f"may do that")

    def _check_type(self, path: str, headers: dict[str, str]) -> None:
        given = headers.get("content-type", "")
        media = given.split(";", 1)[0].strip().lower()
        if UPLOADS.match(path):
            if not media or media in SIMPLE_TYPES:
                raise WebError(415, f"a file is sent here with its own type (e.g. "
                                    f"application/octet-stream or image/jpeg), not "
                                    f"{media or 'without a Content-Type'}: that type is one a "
                                    f"page of any site may send without asking, so it is "
                                    f"refused")
            return
        if media != "application/json":
            raise WebError(415, f"this request must be JSON (Content-Type: application/json), "
                                f"and it came {('as ' + media) if media else 'without a type'}: "
                                f"pages of other sites cannot send JSON here without asking "
                                f"first, which is why only JSON is taken")

    def _check_rate(self, scope: Scope, method: str) -> None:
        path = scope.get("path", "")
        for wanted, pattern, what in LIMITED:
            if (wanted is None or wanted == method) and pattern.match(path):
                client = (scope.get("client") or ("?", 0))[0]
                wait = self.limit.wait(what, str(client), time.monotonic())
                if wait > 0:
                    raise RateLimited(math.ceil(wait), what, str(client),
                                      self.limit.per_minute)
                return

    # --- slow bodies ---------------------------------------------------------------------

    def _timed(self, receive: Receive) -> Receive:
        loop = asyncio.get_running_loop()
        end = loop.time() + self.deadline
        done = False
        got = 0

        async def timed() -> Message:
            nonlocal done, got
            if done:
                return await receive()
            left = min(self.idle, end - loop.time())
            try:
                message = await asyncio.wait_for(receive(), max(left, 0.001))
            except TimeoutError:
                whole = self.idle if left >= self.idle else self.deadline
                raise SlowBody(408, f"the request's body stopped arriving ({got} bytes came, "
                                    f"then nothing for {whole:g} s); nothing was changed, send "
                                    f"it again") from None
            if message["type"] != "http.request" or not message.get("more_body", False):
                done = True
            got += len(message.get("body", b""))
            return message

        return timed


class RateLimited(WebError):
    """Too many requests of a kind from one address (429)."""

    def __init__(self, seconds: int, what: str, client: str, per_minute: int) -> None:
        super().__init__(429, f"too many {what} from {client} ({per_minute} a minute at "
                              f"most); try again in {seconds} s")
        self.seconds = seconds


def close_reason(text: str) -> str:
    """A WebSocket close reason: at most 123 bytes of UTF-8."""
    raw = text.encode("utf-8")
    if len(raw) <= 123:
        return text
    return raw[:120].decode("utf-8", "ignore") + "…"


async def respond(send: Send, error: WebError) -> None:
    """Answer with ``error`` as the server's JSON error (and close the connection after)."""
    body = json.dumps(error.to_json()).encode("utf-8")
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode()), (b"connection", b"close")]
    if isinstance(error, RateLimited):
        headers.append((b"retry-after", str(error.seconds).encode()))
    await send({"type": "http.response.start", "status": error.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
