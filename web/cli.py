"""``pnp-web``: start the browser companion on this machine and open it in the browser."""

from __future__ import annotations

import contextlib
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
To play from several devices on one network, start it with --host 0.0.0.0 (any
address of this machine; your firewall may ask) and open the game's host page: every
seat has its own link and QR code. Anyone who can reach the server can open its home
page, so do this on a network you trust.

exit codes: 0 stopped with Ctrl-C, 1 definitions (--cards) that break a rule, 2 misuse
(a port in use, a data folder that cannot be used, a definitions file that cannot be
read)."""


def build_parser(prog: str = "pnp-web") -> Parser:
    parser = Parser(prog, DESCRIPTION, EPILOG)
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
                        help="the address other devices use to reach this server, for the seat "
                             "links and QR codes (default: worked out from --host)")
    parser.add_argument("--bot-delay", type=float, default=0.4, metavar="SECONDS",
                        help="a pause before each bot move, so people can follow (default 0.4)")
    return parser


def free_port(host: str) -> int:
    """A port nobody listens on now (the system chooses it)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def lan_address() -> str | None:
    """This machine's address on its network (no packet is sent), for the seat links."""
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = str(info[4][0])
            if not address.startswith("127."):
                return address
    return None


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
    host = "localhost" if opts.host in ("127.0.0.1", "::1") else opts.host
    public = opts.public_url
    if public is None and opts.host in ("0.0.0.0", "::"):
        lan = lan_address()
        if lan is not None:
            public = f"http://{lan}:{port}"
    try:
        app = create_app(data, opts.cards, public, opts.bot_delay)
    except StoreError as exc:
        return fail(f"{prog}: {exc}")
    except DefinitionError as exc:  # the one rule of every command for unusable definitions
        raise DefinitionsFailed(exc, "the server was not started") from None
    url = f"http://{host if host != '0.0.0.0' else '127.0.0.1'}:{port}/"
    write_out(f"{prog}: serving on {url} (data: {shown(data / 'pnp-web.sqlite3')}); Ctrl-C "
              f"stops it\n")
    if public:
        write_out(f"{prog}: other devices on the network reach it at {printable(public)}/\n")
    if not opts.no_browser:
        threading.Timer(0.8, webbrowser.open, (url,)).start()
    config = uvicorn.Config(app, host=opts.host, port=port, log_level="warning",
                            ws_max_size=64 * 1024, ws_per_message_deflate=False)
    server = uvicorn.Server(config)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    return 0


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
