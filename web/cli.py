"""``pnp-web``: start the browser companion on this machine and open it in the browser."""

from __future__ import annotations

import gc
import socket
import sys
import threading
import webbrowser
from collections.abc import Sequence
from pathlib import Path

from cards.safe_text import printable
from pnp.common import (
    DefinitionsFailed,
    Parser,
    fail,
    misuse,
    never_raises,
    number_in,
    say,
    shown,
    whole_number,
    write_out,
)

DESCRIPTION = """\
Start the browser companion: a local web server for transcribing a finished table by
clicking (with pnp score's breakdown live) and for playing Orbitus or Satellites in the
browser, against bots or with friends on their own phones or laptops.

It listens on 127.0.0.1 (this machine only) on a free port, prints the address and
opens it in your browser. Everything is kept in a SQLite file in the data folder; games
in progress resume after a restart. It needs no network: the pages and their scripts
are part of the package.
"""

EPILOG = """\
To play from several devices on one network, start it with --host 0.0.0.0 (every
address of this machine; your firewall may ask): it prints the address the others use,
found from the network interfaces (give --public-url when they reach it by another, a
name or a proxy). Each player takes their own seat on their own device with the game's
join code (or its QR code on the host page). Anyone who can reach the server can open
its home page and start games, so do this on a network you trust.

exit codes: 0 stopped with Ctrl-C, 1 definitions (--cards) that break a rule, 2 misuse
(a port in use, a data folder that cannot be used, a definitions file that cannot be
read)."""


MAX_BOT_DELAY = 10.0  # seconds before each bot move


def build_parser(prog: str = "pnp-web") -> Parser:
    parser = Parser(prog, DESCRIPTION, EPILOG, project=("cards", "data"))
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1: this machine only; "
                             "0.0.0.0: every network this machine is on)")
    parser.add_argument("--port", type=whole_number(0, 65535), default=0,
                        help="the port, 1 to 65535 (default: a free one, chosen at start)")
    parser.add_argument("--no-browser", action="store_true",
                        help="do not open the browser, only print the address")
    parser.add_argument("--data", metavar="DIR", type=Path,
                        help="where the SQLite file with saved tables and games lives "
                             "(default: the user's data folder, e.g. "
                             "~/.local/share/orbitus-pnp)")
    parser.add_argument("--cards", metavar="DIR", type=Path,
                        help="a definitions folder laid out like cards/ (default: the shipped "
                             "one); games and scores use its rules")
    parser.add_argument("--public-url", metavar="URL",
                        help="the address other devices use to reach this server, for the join "
                             "links and QR codes, e.g. http://192.168.1.20:8000 (default: this "
                             "machine's network address, found from its interfaces, when "
                             "--host is 0.0.0.0); requests naming it are served too")
    parser.add_argument("--bot-delay", type=number_in(0, MAX_BOT_DELAY, "s"), default=0.4,
                        metavar="SECONDS",
                        help=f"a pause before each bot move, so people can follow (default "
                             f"0.4, at most {MAX_BOT_DELAY:g})")
    parser.add_argument("--workers", type=whole_number(1, 64), default=2, metavar="N",
                        help="worker processes for pictures, the scores of big tables and the "
                             "bots, so no game waits for them (default 2)")
    parser.add_argument("--bot-games", type=whole_number(0, 10_000), default=4, metavar="N",
                        help="games with bots played at once; a new one past this is refused "
                             "until one ends (default 4)")
    parser.add_argument("--rate", type=whole_number(0, 100_000), default=30, metavar="N",
                        help="new games, seats taken (and join codes tried) and tables saved one "
                             "address may make a minute, each (default 30; 0: no limit)")
    return parser


def free_port(host: str) -> int:
    """A port nobody listens on now (the system chooses it)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


EVERYWHERE = ("0.0.0.0", "::", "")
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


def public_url_problem(url: str) -> str | None:
    """Why ``url`` cannot be the address other devices use (None: it can)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError as exc:
        return f"--public-url {printable(url)}: {exc}"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return (f"--public-url {printable(url)}: give the address with its scheme and host, "
                f"e.g. http://192.168.1.20:8000")
    if parts.query or parts.fragment:
        return f"--public-url {printable(url)}: no ? or # part, only the address"
    return None


def addresses(host: str, port: int, public: str | None) -> tuple[str | None, list[str],
                                                                 list[str]]:
    """The address for the others' links, the host names the server answers to, and the
    warnings to print, for listening on ``host``."""
    from web.lan import lan_addresses

    names = {host} if host not in EVERYWHERE else set()
    warnings: list[str] = []
    if host in EVERYWHERE:
        lan = lan_addresses()
        names |= set(lan) | {socket.gethostname(), socket.gethostname() + ".local"}
        warnings.append(f"listening on every network this machine is on (--host "
                        f"{host or '0.0.0.0'}): anyone who can reach it can open the home "
                        f"page and start games; do this on a network you trust")
        if public is None and lan:
            public = f"http://{lan[0]}:{port}"
        elif public is None:
            warnings.append("found no network address but loopback (127.0.0.1): other devices "
                            "cannot reach this server; connect this machine to the network "
                            "(then start again), or give the address they use with "
                            "--public-url")
    elif host not in LOOPBACK_HOSTS and public is None:
        public = f"http://{'[' + host + ']' if ':' in host else host}:{port}"
    return public, sorted(names), warnings


# The garbage collector's thresholds in the server process (Python's are 700, 10, 10).
GC_THRESHOLDS = (10_000, 50, 50)


def event_loop() -> str:
    """The name of the event loop the server runs on, as uvicorn's own ``loop="auto"``
    chooses it: ``uvloop`` where it is installed (the [fast] extra; it has no Windows
    build), else Python's ``asyncio``. Both serve the same pages and frames; uvloop's
    sockets and callbacks are written in C (``benchmarks/bench_web.py`` says which one it
    measured)."""
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return "asyncio"
    return "uvloop"


def settle_collector() -> None:
    """Set the garbage collector for a long-running server, once everything it starts with
    is loaded: what is there now (modules, definitions, the application) is frozen, so no
    collection walks it again, and the youngest generation is collected after 10,000 new
    objects rather than 700. Measured under ``benchmarks/bench_web.py``, collections took
    8 % of the server's CPU with Python's thresholds (a collection of the youngest
    generation walked what each move had just made, about 1 ms, every few moves); the
    objects of a move are mostly freed by their reference counts before 10,000 are made,
    and what does form cycles is collected all the same, a little later."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def main(argv: Sequence[str] | None = None, prog: str = "pnp-web") -> int:
    """Run the server until Ctrl-C; the exit code (``prog``: the command as typed). Never
    raises."""
    args = list(sys.argv[1:] if argv is None else argv)
    return never_raises(lambda: _run(args, prog), prog, "the command you ran")


def _run(args: list[str], prog: str) -> int:
    opts = build_parser(prog).parse_args(args)
    try:
        import uvicorn

        from web.app import create_app
    except ImportError as exc:
        return fail(f"{prog}: the server's packages are not installed ({exc.name}); install "
                    f"them with: pip install 'orbitus-pnp[web]'")
    from cards.loader import DefinitionError
    from web.store import StoreError, default_data_dir

    if not 0 <= opts.bot_delay <= 10:
        return misuse(prog, "--bot-delay must be from 0 to 10 seconds")
    if opts.public_url is not None:
        problem = public_url_problem(opts.public_url)
        if problem:
            return misuse(prog, problem)
    if opts.cards is not None and not opts.cards.is_dir():
        return fail(f"{prog}: --cards {shown(opts.cards)}: not a folder; give a folder laid out "
                    f"like cards/")
    try:
        port = opts.port or free_port(opts.host)
        with socket.socket(socket.AF_INET6 if ":" in opts.host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((opts.host, port))
    except (OSError, OverflowError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        return fail(f"{prog}: cannot listen on {printable(opts.host)}:{opts.port or ''} "
                    f"({reason}); choose another --port or --host")
    data = opts.data or default_data_dir()
    local = opts.host in LOOPBACK_HOSTS
    public, names, warnings = addresses(opts.host, port, opts.public_url)
    shown_host = "localhost" if local else "127.0.0.1" if opts.host in EVERYWHERE else \
        (f"[{opts.host}]" if ":" in opts.host else opts.host)
    url = f"http://{shown_host}:{port}/"
    try:
        app = create_app(data, opts.cards, public, opts.bot_delay, hosts=names,
                         workers=opts.workers, bot_games=opts.bot_games, rate=opts.rate,
                         warm=True, local_only=local, url=public or url)
    except StoreError as exc:
        return fail(f"{prog}: {exc}")
    except DefinitionError as exc:  # the one rule of every command for unusable definitions
        raise DefinitionsFailed(exc, "the server was not started") from None
    write_out(f"{prog}: serving on {url} (data: {shown(data / 'pnp-web.sqlite3')}); Ctrl-C "
              f"stops it\n")
    for warning in warnings:
        say(f"{prog}: warning: {warning}")
    if public:
        others = [a for a in names if a[0].isdigit() and a not in public]
        also = f" (this machine's other addresses: {', '.join(others)})" if others and \
            opts.public_url is None else ""
        write_out(f"{prog}: other devices on the network reach it at {printable(public)}/"
                  f"{also}\n")
    elif local:
        write_out(f"{prog}: only this machine can open it; to play from other devices, start "
                  f"it with --host 0.0.0.0\n")
    if not opts.no_browser:
        threading.Timer(0.8, webbrowser.open, (url,)).start()
    config = uvicorn.Config(app, host=opts.host, port=port, log_level="warning",
                            loop="auto", ws_max_size=64 * 1024,
                            ws_per_message_deflate=False)
    server = uvicorn.Server(config)
    settle_collector()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    return 0


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
