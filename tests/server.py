"""Start the real server the README way: ``alembic upgrade head``, then uvicorn, on a free port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
START_LIMIT = 180.0
"""Seconds a server gets to answer /health: generous, since on a machine running several test
suites at once, importing the app in each worker process alone has taken over a minute."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def environment(database_url: str, **settings: str) -> dict[str, str]:
    """The environment of a child process: only the SVIZZERA_ settings given here."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SVIZZERA_")}
    env["SVIZZERA_DATABASE_URL"] = database_url
    env.update({f"SVIZZERA_{k.upper()}": v for k, v in settings.items()})
    return env


def upgrade(database_url: str) -> None:
    subprocess.run(
        [str(BIN / "alembic"), "upgrade", "head"],
        cwd=ROOT,
        env=environment(database_url),
        check=True,
        capture_output=True,
    )


@contextmanager
def serve(
    database_url: str,
    *,
    workers: int = 1,
    port: int | None = None,
    log: Path | None = None,
    **settings: str,
) -> Iterator[str]:
    """A uvicorn subprocess serving the app; yields its base URL, stops it afterwards.

    ``port``: where to listen (a restart on the same address); default a free one. ``log``: a
    file that gets the server's output and log at uvicorn's default level, access log
    included, as ``make run`` writes them; default warnings only, to a pipe."""
    port = port or free_port()
    command = [
        str(BIN / "uvicorn"),
        "--factory",
        "app.main:create_app",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--no-proxy-headers",  # as README: only the app's setting names proxies
        *(("--log-level", "warning") if log is None else ()),
    ]
    sink = log.open("w") if log is not None else None
    try:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=environment(database_url, **settings),
            stdout=sink,  # uvicorn's access log goes to standard output
            stderr=sink or subprocess.PIPE,
            text=True,
        )
    finally:
        if sink is not None:
            sink.close()  # the server writes to its own copy
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_LIMIT
        while True:
            if process.poll() is not None:
                written = log.read_text() if log else ""
                raise RuntimeError(
                    f"server exited: {process.stderr.read() if process.stderr else written}"
                )
            try:
                if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"server did not become healthy in {START_LIMIT:g} s")
            time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stderr is not None:
            process.stderr.close()
