"""Open /docs and /redoc in Chromium on a machine with no network: run inside ``unshare --net``.

``python -m tests.browser.offline OUT`` must run in a network namespace of its own, where only
loopback exists. It brings loopback up, starts the real server, and points Chromium at a proxy
that answers nothing and writes down every request that tried to leave the machine (Chromium
reaches loopback directly, past the proxy). It writes ``OUT/{docs,redoc}.{png,html}`` and
``OUT/escaped.json`` (the requests the proxy saw) for the test to judge.
"""

from __future__ import annotations

import fcntl
import json
import socket
import struct
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.chromium import chromium, run_chromium
from tests.server import serve, upgrade

SIOCSIFFLAGS = 0x8914
IFF_UP, IFF_LOOPBACK, IFF_RUNNING = 0x1, 0x8, 0x40
QUIET = (
    "--disable-features=NetworkTimeServiceQuerying,AutofillServerCommunication,"
    "OptimizationHints,MediaRouter,Translate,CertificateTransparencyComponentUpdater",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--disable-default-apps",
    "--no-pings",
)
"""Chromium's own calls home (clock, autofill, hints), off, so the proxy sees the page's."""
SIZE = "--window-size=1280,1600"
BROWSER_OWN = ("update.googleapis.com",)
"""Chromium's component updater, which no flag silences here: its calls are not the page's."""


def loopback_up() -> None:
    """``ip link set lo up``, without needing iproute2."""
    flags = IFF_UP | IFF_LOOPBACK | IFF_RUNNING
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags))


@contextmanager
def recording_proxy(seen: list[str]) -> Iterator[int]:
    """A proxy that refuses everything; yields its port and appends each request line to seen."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    stop = threading.Event()

    def serve_forever() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            with connection:
                connection.settimeout(5)
                try:
                    first_line = connection.recv(4096).split(b"\r\n", 1)[0]
                except TimeoutError:
                    first_line = b"(nothing sent)"
                seen.append(first_line.decode(errors="replace"))
                connection.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")

    thread = threading.Thread(target=serve_forever, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        thread.join(timeout=10)
        listener.close()


def main(out: Path) -> None:
    loopback_up()
    binary = chromium()
    database = f"sqlite:///{out / 'svizzera.db'}"
    upgrade(database)
    escaped: list[str] = []
    with recording_proxy(escaped) as proxy, serve(database) as base:
        browse = (f"--proxy-server=http://127.0.0.1:{proxy}", *QUIET, "--virtual-time-budget=20000")
        for page in ("docs", "redoc"):
            target, shot = f"{base}/{page}", f"--screenshot={out / page}.png"
            run_chromium(binary, target, out / f"{page}-1", *browse, shot, SIZE)
            dom = run_chromium(binary, target, out / f"{page}-2", *browse, "--dump-dom")
            (out / f"{page}.html").write_text(dom, encoding="utf-8")
    (out / "escaped.json").write_text(json.dumps(escaped), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
