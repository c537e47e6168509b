"""This computer's LAN addresses, what ``make run`` prints, and whether the server answers
there (a server bound to 127.0.0.1 does not: its QR codes keep ``localhost``)."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from app import lan

ROOT = Path(__file__).resolve().parent.parent


def test_the_addresses_are_reachable_ones_the_default_route_first() -> None:
    addresses = lan.lan_addresses()

    for address in addresses:
        assert not address.startswith(("127.", "169.254.", "0.")), addresses
        socket.inet_aton(address)  # IPv4
    assert len(set(addresses)) == len(addresses)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("localhost", True), ("127.0.0.1", True), ("[::1]", True), ("app.localhost", True),
     ("192.168.1.20", False), ("club.example", False), ("", False)],
)  # fmt: skip
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert lan.is_loopback(host) is loopback


def listening(address: str) -> socket.socket:
    server = socket.socket()
    server.bind((address, 0))
    server.listen()
    return server


def test_the_room_address_is_one_where_the_server_answers() -> None:
    addresses = lan.lan_addresses()
    if not addresses:
        pytest.skip("this machine has no network address")
    with listening("0.0.0.0") as everywhere, listening("127.0.0.1") as here_only:
        assert lan.room_address(everywhere.getsockname()[1]) == addresses[0]
        assert lan.room_address(here_only.getsockname()[1]) is None


def test_make_run_prints_the_addresses_a_phone_can_open() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "app.lan", "--host", "0.0.0.0", "--port", "8123"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    lines = done.stdout.splitlines()

    assert lines[0] == "Svizzera on this computer: http://localhost:8123/"
    addresses = lan.lan_addresses()
    assert lines[1:] == (
        [f"Phones on the same network: http://{a}:8123/" for a in addresses]
        or ["No network address found: phones cannot reach this computer"]
    )
    local = lan.announcement("127.0.0.1", 8123)
    assert local[1] == (
        "Listening on 127.0.0.1 only: phones cannot reach it (HOST=0.0.0.0 to allow)"
    )
    run = (ROOT / "Makefile").read_text().split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "$(BIN)/python -m app.lan --host $(HOST) --port $(PORT)" in run
