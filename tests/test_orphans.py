"""A web server's worker process never outlives the server: a ``ProcessPoolExecutor``'s
worker waits on a pipe it holds both ends of, so a server killed outright (``kill -9``)
would leave it waiting forever (one such worker of a server stopped by a test was found
idle long after the suite). (``pnp sim``'s ``multiprocessing.Pool`` workers end by
themselves when their parent is killed, with fork or spawn: checked, no watchdog needed.)"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="kill -9 and /proc")

WEB = """
import asyncio, sys
from web.work import Workers, ready
workers = Workers(None, 1)
print(asyncio.run(workers.run(ready)), flush=True)
sys.stdin.read()
"""


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_web_worker_ends_when_its_server_is_killed():
    parent = subprocess.Popen([sys.executable, "-c", WEB], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        worker = int(parent.stdout.readline())
        assert worker != parent.pid and alive(worker)
        time.sleep(0.3)
        assert alive(worker)  # it waits for work while its parent lives
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(10)
        deadline = time.monotonic() + 10
        while alive(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not alive(worker), f"worker {worker} still runs after its parent was killed"
    finally:
        if parent.poll() is None:
            parent.kill()
        parent.stdin.close()
        parent.stdout.close()
