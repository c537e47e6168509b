"""schemathesis, all checks, against the app served the README way on one database.

Usage: ``python .ci/schemathesis.py DATABASE_URL`` (an empty database: it is migrated here).
Migrates, starts uvicorn on a free loopback port, makes the tournaments that
``.ci/schemathesis-evening.toml`` names, runs ``schemathesis run`` with every check and each
config in turn, stops the server.
Fails when schemathesis reports a failure or the server logged an unexpected error (a 500).
The webhook worker is off and private addresses are allowed, so no delivery and no DNS look-up
leaves the machine whatever URLs the fuzzer registers.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
SEED = 20261201
"""A fixed seed: a failure here reproduces with the same command."""
CONFIGS = ("schemathesis-evening.toml", "schemathesis-fresh.toml")
"""Valid requests on a tournament in its evening, then anything on fresh ids (see each file)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def tournament(http: httpx.Client, name: str) -> tuple[str, str]:
    players = [{"name": f"Player {i}"} for i in range(1, 9)]
    created = http.post("/v1/tournaments", json={"name": name, "players": players})
    created.raise_for_status()
    return created.json()["id"], created.json()["organizer_token"]


def fixtures(http: httpx.Client) -> dict[str, str]:
    """The tournaments the config names: one in the middle of its evening, and one each for
    the calls that end a tournament (delete) or its token (rotate)."""
    tid, token = tournament(http, "Schemathesis")
    auth = {"Authorization": f"Bearer {token}"}
    base = f"/v1/tournaments/{tid}"
    matches = http.post(f"{base}/rounds", headers=auth).raise_for_status().json()["matches"]
    for match in matches[:2]:
        result = {"home": 2, "away": 1}
        http.put(f"{base}/matches/{match['id']}/result", json=result, headers=auth)
    players = http.get(f"{base}/players").raise_for_status().json()
    hook = http.post(f"{base}/webhooks", json={"url": "http://127.0.0.1:9/hook"}, headers=auth)
    scorekeeper = http.post(f"{base}/tokens", json={"label": "Table 1"}, headers=auth)
    delete_id, delete_token = tournament(http, "To delete")
    rotate_id, rotate_token = tournament(http, "To rotate")
    items = players["items"] if isinstance(players, dict) else players
    return {
        "SVZ_TOURNAMENT": tid,
        "SVZ_TOKEN": token,
        "SVZ_PLAYER": str(items[-1]["id"]),
        "SVZ_MATCH": str(matches[-1]["id"]),
        "SVZ_WEBHOOK": str(hook.raise_for_status().json()["id"]),
        "SVZ_SCOREKEEPER": str(scorekeeper.raise_for_status().json()["id"]),
        "SVZ_DELETE_TOURNAMENT": delete_id,
        "SVZ_DELETE_TOKEN": delete_token,
        "SVZ_ROTATE_TOURNAMENT": rotate_id,
        "SVZ_ROTATE_TOKEN": rotate_token,
    }


def run(config: str, base: str, env: dict[str, str], scratch: str) -> int:
    """``schemathesis run`` with ``config`` (every check, less the few it turns off for one
    operation and says why; ``--checks all`` would turn those on again); its exit code. Its
    caches go to ``scratch``."""
    command = [str(BIN / "schemathesis"), "--config-file", str(ROOT / ".ci" / config), "run"]
    command += [f"{base}/openapi.json", "--seed", str(SEED)]
    command += ["--workers", "1", "--no-color"]
    started = time.monotonic()
    outcome = subprocess.run(command, cwd=scratch, env=env, check=False)
    print(f"{config}: exit {outcome.returncode} after {time.monotonic() - started:.0f} s")
    return outcome.returncode


def wait_healthy(base: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 120
    while True:
        if server.poll() is not None:
            sys.exit(f"the server exited:\n{log.read_text()}")
        try:
            if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            sys.exit(f"the server did not become healthy in 120 s:\n{log.read_text()}")
        time.sleep(0.2)


def main(database_url: str) -> int:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SVIZZERA_")}
    env |= {
        "SVIZZERA_DATABASE_URL": database_url,
        "SVIZZERA_CREATE_RATE": "0",
        "SVIZZERA_WEBHOOK_WORKER": "false",
        "SVIZZERA_WEBHOOK_ALLOW_PRIVATE": "true",
        # A stream with no event to send ends after 2 s, not when the request times out.
        "SVIZZERA_SSE_MAX_DURATION": "2",
    }
    subprocess.run([str(BIN / "alembic"), "upgrade", "head"], cwd=ROOT, env=env, check=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as scratch:
        log = Path(scratch) / "server.log"
        with log.open("w") as sink:
            server = subprocess.Popen(
                # the README's command
                [
                    *(str(BIN / "uvicorn"), "--factory", "app.main:create_app"),
                    *("--port", str(port), "--no-proxy-headers"),
                ],
                cwd=ROOT,
                env=env,
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        try:
            wait_healthy(base, server, log)
            with httpx.Client(base_url=base, timeout=30) as http:
                env |= fixtures(http)
            outcomes = [run(config, base, env, scratch) for config in CONFIGS]
        finally:
            server.terminate()
            server.wait(timeout=30)
        written = log.read_text()
    errors = [line for line in written.splitlines() if "unexpected error" in line]
    if errors:
        print(written)
        print(f"the server logged {len(errors)} unexpected errors (500)")
        return 1
    return max(outcomes)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
