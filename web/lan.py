"""This machine's addresses on its networks: what the seat links and QR codes should say.

The machine's *name* is no guide: Debian and Ubuntu map it to ``127.0.1.1`` (``/etc/hosts``),
so a link made from it opens nothing on another device. The addresses are read from the
network interfaces themselves (Linux: each interface's IPv4 address through
``SIOCGIFADDR``; elsewhere the addresses the machine's name resolves to and the one the
system would send from, found without sending anything). Loopback (``127.x``) and
link-local (``169.254.x``) addresses are left out; private addresses (``10.x``,
``172.16-31.x``, ``192.168.x``) come first, those of virtual interfaces (containers,
bridges, VPN tunnels) last.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import struct
import sys

SIOCGIFADDR = 0x8915
VIRTUAL = ("docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "tun", "tap", "wg", "zt",
           "tailscale", "lxc", "cni", "flannel", "podman")


def interface_addresses() -> list[tuple[str, str]]:
    """``(interface, IPv4 address)`` of every interface that has one (the name is ``""``
    where the interfaces cannot be listed)."""
    found: list[tuple[str, str]] = []
    if sys.platform.startswith("linux"):
        import fcntl

        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            with contextlib.suppress(OSError):
                for _, name in socket.if_nameindex():
                    with contextlib.suppress(OSError):
                        packed = fcntl.ioctl(probe.fileno(), SIOCGIFADDR,
                                             struct.pack("256s", name.encode()[:15]))
                        found.append((name, socket.inet_ntoa(packed[20:24])))
        if found:
            return found
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(("", str(info[4][0])))
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))  # TEST-NET-1: no packet is sent by a UDP connect
        found.append(("", str(s.getsockname()[0])))
    return found


def lan_addresses(found: list[tuple[str, str]] | None = None) -> list[str]:
    """The addresses other devices can reach this machine at, best first (see the module
    docstring); empty when there is only loopback."""
    ranked: list[tuple[int, int, str]] = []
    seen: set[str] = set()
    for order, (name, text) in enumerate(interface_addresses() if found is None else found):
        try:
            address = ipaddress.IPv4Address(text)
        except ValueError:
            continue
        if address.is_loopback or address.is_link_local or address.is_unspecified or \
                text in seen:
            continue
        seen.add(text)
        virtual = name.startswith(VIRTUAL)
        rank = (2 if virtual else 0) + (0 if address.is_private else 1)
        ranked.append((rank, order, text))
    return [text for _, _, text in sorted(ranked)]
