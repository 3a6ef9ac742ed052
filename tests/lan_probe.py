"""Start ``pnp web`` with the arguments given, make a game through it and print what it said
and the game's join link, as JSON (for tests/test_web_lan.py, which runs this inside a network
namespace of its own, with the interfaces it chose).

    python tests/lan_probe.py PORT DATA [PNP-WEB-ARGS...]
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request


def main() -> None:
    port, data, *extra = sys.argv[1:]
    server = subprocess.Popen([sys.executable, "-m", "web", "--no-browser", "--port", port,
                               "--data", data, *extra], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    answers: dict[str, object] = {}
    try:
        end = time.time() + 60
        while True:  # the server prints its address before it listens
            try:
                with socket.create_connection(("127.0.0.1", int(port)), timeout=1):
                    break
            except OSError:
                if time.time() > end or server.poll() is not None:
                    raise
                time.sleep(0.1)
        body = json.dumps({"game": "satellites", "players": [
            {"name": "Anna", "kind": "human"}, {"name": "Boris", "kind": "human"}]}).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/games", data=body,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as res:
            answers["join"] = json.load(res)["links"]["join"]
        for host in sys.stdin.read().split():  # the Host headers to try: status each
            req = urllib.request.Request(f"http://127.0.0.1:{port}/api/games",
                                         headers={"Host": host})
            try:
                with urllib.request.urlopen(req, timeout=30) as res:
                    answers[host] = res.status
            except urllib.error.HTTPError as exc:
                answers[host] = exc.code
    finally:
        server.terminate()
        out, err = server.communicate(timeout=30)
    lines = out.splitlines(keepends=True)
    print(json.dumps({"stdout": lines, "stderr": err, **answers}))


if __name__ == "__main__":
    main()
