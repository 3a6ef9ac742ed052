"""The address other devices use (issue 22, point 4): found from the network interfaces, not
from the machine's name (which Debian maps to 127.0.1.1, and this machine to 127.0.0.1), a
warning when listening on every network and when only loopback is there, ``--public-url``
over everything. The server runs in a network namespace of its own (``unshare -n``) with the
interfaces each test gives it: no address outside this machine is ever used."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")

from web.lan import lan_addresses  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PROBE = ROOT / "tests" / "lan_probe.py"
LOOPBACK_UP = "ip link set lo up"
A_NETWORK = ("ip link add pnpa type veth peer name pnpb && ip addr add 10.222.0.2/24 dev pnpa "
             "&& ip link set pnpa up")


def in_namespace(setup: str, port: int, data: Path, args: list[str], hosts: str = "") -> dict:
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        pytest.skip("unshare and ip are needed to give the server a network of its own")
    probe = subprocess.run(["unshare", "-n", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("no network namespace can be made here (unshare -n)")
    script = " ".join([sys.executable, str(PROBE), str(port), str(data), *args])
    done = subprocess.run(["unshare", "-n", "sh", "-c", f"{setup} && exec {script}"],
                          input=hosts, capture_output=True, text=True, timeout=180, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_address_comes_from_the_interfaces_not_the_name(tmp_path):
    # this machine's name resolves to loopback: the old way found nothing to give out
    assert all(a.startswith("127.") for a in {i[4][0] for i in socket.getaddrinfo(
        socket.gethostname(), None, socket.AF_INET)})
    out = in_namespace(f"{LOOPBACK_UP} && {A_NETWORK}", 18150, tmp_path / "data",
                       ["--host", "0.0.0.0"], hosts="10.222.0.2:18150 evil.test:18150")
    assert out["stdout"][1] == "pnp-web: other devices on the network reach it at " \
                               "http://10.222.0.2:18150/\n"
    assert out["join"].startswith("http://10.222.0.2:18150/j/")
    assert "pnp-web: warning: listening on every network this machine is on (--host 0.0.0.0): " \
           "anyone who can reach it can open the home page and start games; do this on a " \
           "network you trust\n" in out["stderr"]
    assert "found no network address" not in out["stderr"]
    assert out["10.222.0.2:18150"] == 200 and out["evil.test:18150"] == 400


def test_only_loopback_is_warned_about(tmp_path):
    out = in_namespace(LOOPBACK_UP, 18151, tmp_path / "data", ["--host", "0.0.0.0"])
    assert "pnp-web: warning: found no network address but loopback (127.0.0.1): other devices " \
           "cannot reach this server; connect this machine to the network (then start again), " \
           "or give the address they use with --public-url\n" in out["stderr"]
    assert not any("reach it at" in line for line in out["stdout"])


def test_the_public_url_is_what_the_links_say(tmp_path):
    out = in_namespace(f"{LOOPBACK_UP} && {A_NETWORK}", 18152, tmp_path / "data",
                       ["--host", "0.0.0.0", "--public-url", "http://games.example:8000"],
                       hosts="games.example:8000 other.example:8000")
    assert out["stdout"][1] == "pnp-web: other devices on the network reach it at " \
                               "http://games.example:8000/\n"
    assert out["join"].startswith("http://games.example:8000/j/")
    assert out["games.example:8000"] == 200 and out["other.example:8000"] == 400


def test_a_public_url_that_is_no_address_is_misuse():
    done = subprocess.run([sys.executable, "-m", "web", "--no-browser", "--public-url",
                           "games.example"], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (2, (
        "pnp-web: --public-url games.example: give the address with its scheme and host, e.g. "
        "http://192.168.1.20:8000 (see pnp-web --help)\n"))


def test_the_addresses_are_ranked_for_the_others():
    found = [("lo", "127.0.0.1"), ("docker0", "172.17.0.1"), ("wlan0", "192.168.1.20"),
             ("eth1", "169.254.3.4"), ("tun0", "10.8.0.2"), ("eth0", "203.0.113.9"),
             ("wlan0", "192.168.1.20")]
    assert lan_addresses(found) == ["192.168.1.20", "203.0.113.9", "172.17.0.1", "10.8.0.2"]
    assert lan_addresses([("lo", "127.0.0.1"), ("lo", "127.0.1.1")]) == []
