"""Kits for driving ``pnp web`` in a real browser (tests and tools): a server in a thread of
this process on a loopback port, and the flags Debian's Chromium runs headless with here.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


PORTS_ENV = "PNP_WEB_TEST_PORTS"


def free_port() -> int:
    return ports(1)[0]


def ports(count: int) -> list[int]:
    """``count`` loopback ports for test servers: free ones, chosen by the system (two runs
    at once do not collide), or the first of ``$PNP_WEB_TEST_PORTS`` (``8722,8723``) on a
    machine where only some ports may be used."""
    given = [int(p) for p in os.environ.get(PORTS_ENV, "").split(",") if p.strip()]
    if given:
        if len(given) < count:
            raise RuntimeError(f"${PORTS_ENV} gives {len(given)} port(s); this needs {count}")
        return given[:count]
    probes = [socket.socket() for _ in range(count)]
    try:
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        return [int(probe.getsockname()[1]) for probe in probes]
    finally:
        for probe in probes:
            probe.close()


@contextmanager
def serving(data: Path, port: int | None = None, **options: Any) -> Iterator[str]:
    """``pnp web``'s application on ``data`` served by uvicorn in a thread, on
    127.0.0.1:``port`` (a free one by default); yields its address, stops it after.
    ``options`` go to :func:`web.app.create_app` (``bot_delay`` 0 unless given)."""
    import uvicorn

    from web.app import create_app

    options.setdefault("bot_delay", 0)
    app = create_app(data, **options)
    port = port or free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    end = time.time() + 30
    while not server.started:
        if time.time() > end or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(15)
