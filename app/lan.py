"""This computer's addresses on its local networks, so phones in the room can reach the server.

Found without any external service, so it works offline: the address the system would send
from towards a few private and documentation networks (a UDP socket that is connected, which
sends nothing, then asked for its own address), and the addresses the host name resolves to.
IPv4 only: the address a person types or a QR code carries in a club room.

``make run`` prints them before uvicorn starts (``python -m app.lan --host … --port …``); the
live page and the printed page put one in their QR code when they are opened as ``localhost``
(``app/api/public_address.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import socket
import time
from functools import lru_cache

PROBES = ("10.255.255.255", "172.31.255.255", "192.168.255.255", "198.51.100.1")
"""Destinations whose route names the interface a phone on the same network would use (no
packet is sent: a UDP ``connect`` only chooses the route)."""

LISTEN_CHECK_SECONDS = 0.5
REMEMBER_SECONDS = 60.0
"""Seconds the addresses found, and whether the server answers at one, are remembered (a page
asks at each request; a host name that resolves slowly must not slow every page down)."""


def _usable(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def lan_addresses() -> list[str]:
    """The IPv4 addresses of this computer that other machines can reach, the one of the
    default route first; empty when it has none (no network at all)."""
    found: list[str] = []
    for destination in PROBES:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect((destination, 9))
                found.append(probe.getsockname()[0])
        except OSError:
            continue  # no route there
    with contextlib.suppress(OSError):  # a host name that does not resolve
        found += socket.gethostbyname_ex(socket.gethostname())[2]
    return [address for address in dict.fromkeys(found) if _usable(address)]


def is_loopback(host: str) -> bool:
    """``localhost``, ``127.0.0.1``, ``[::1]``: an address only this computer can open."""
    name = host.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _period() -> int:
    return int(time.monotonic() // REMEMBER_SECONDS)


def answers(address: str, port: int) -> bool:
    """Whether a TCP connection to ``address:port`` is accepted (the server listens there, not
    only on 127.0.0.1), remembered for a minute."""
    return _answers(address, port, _period())


@lru_cache(maxsize=64)
def _answers(address: str, port: int, _period: int) -> bool:
    try:
        with socket.create_connection((address, port), timeout=LISTEN_CHECK_SECONDS):
            return True
    except OSError:
        return False


@lru_cache(maxsize=1)
def _lan_addresses(_period: int) -> tuple[str, ...]:
    return tuple(lan_addresses())


def room_address(port: int) -> str | None:
    """The first LAN address where this server answers on ``port``, if any (the addresses and
    the answer remembered for a minute)."""
    return next((a for a in _lan_addresses(_period()) if answers(a, port)), None)


def announcement(host: str, port: int) -> list[str]:
    """What ``make run`` prints: where to open the service here and from a phone."""
    lines = [f"Svizzera on this computer: http://localhost:{port}/"]
    if host not in ("0.0.0.0", "::", ""):
        lines.append(f"Listening on {host} only: phones cannot reach it (HOST=0.0.0.0 to allow)")
        return lines
    addresses = lan_addresses()
    if not addresses:
        lines.append("No network address found: phones cannot reach this computer")
    for address in addresses:
        lines.append(f"Phones on the same network: http://{address}:{port}/")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description="Print the addresses phones can open")
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    for line in announcement(args.host, args.port):
        print(line, flush=True)


if __name__ == "__main__":
    main()
