"""The real service in a subprocess, the README way: ``alembic upgrade head`` on a SQLite file,
then uvicorn. The client's tests talk to it over HTTP only (they import nothing of ``app``)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]  # the service's checkout: client/tests/../..
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """A uvicorn process serving the app on a fixed port, which ``restart`` keeps."""

    def __init__(self, database: Path, **settings: str) -> None:
        self.database_url = f"sqlite:///{database}"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("SVIZZERA_")}
        self.env["SVIZZERA_DATABASE_URL"] = self.database_url
        # One server serves many tests: on a fast machine they create more than the default
        # 30 tournaments a minute from 127.0.0.1 (429s seen at 7 minutes a suite). A test of the
        # quota sets its own (``create_rate=...``).
        self.env["SVIZZERA_CREATE_RATE"] = "0"
        self.env.update({f"SVIZZERA_{k.upper()}": v for k, v in settings.items()})
        self._process: subprocess.Popen[bytes] | None = None
        self.log = database.parent / "server.log"

    @classmethod
    def started(cls, directory: Path, **settings: str) -> LiveServer:
        """A migrated database in ``directory`` and a server on it, answering."""
        server = cls(directory / "svizzera.db", **settings)
        server.migrate()
        server.start()
        return server

    def migrate(self) -> None:
        subprocess.run(
            [str(BIN / "alembic"), "upgrade", "head"],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
        )

    def start(self) -> None:
        command = [str(BIN / "uvicorn"), "--factory", "app.main:create_app"]
        command += ["--host", "127.0.0.1", "--port", str(self.port), "--no-proxy-headers"]
        command += ["--log-level", "warning"]
        with self.log.open("ab") as log:  # the child keeps its own copy of the descriptor
            self._process = subprocess.Popen(command, cwd=ROOT, env=self.env, stderr=log)
        deadline = time.monotonic() + 180  # generous: app imports on a loaded machine
        while True:
            if self._process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/health", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("server did not become healthy in 180 s")
            time.sleep(0.05)

    def kill(self) -> None:
        """Stop dead (SIGKILL): open connections drop without a clean end."""
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None

    def stop(self) -> None:
        if self._process is None:
            return
        self._process.terminate()
        try:
            self._process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._process = None
