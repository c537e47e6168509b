"""Secrets never reach the logs: not the parameters of a failed statement, not a query string."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text

from app.logs import ACCESS_LOGGER, DropQueryString
from app.services import webhooks
from tests.api.helpers import create
from tests.client import ApiClient
from tests.server import serve, upgrade

WEBHOOK_SECRET = "whsec_NeverInTheLog0123456789abcdefghijklmnopqrstu"
URL_TOKEN = "UrlTokenNeverInTheLog42"


def test_a_failed_statement_is_logged_without_its_parameters(
    app: FastAPI,
    client: ApiClient,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t = create(client)
    # The webhook insert now fails in the database (an unknown column), carrying the secret
    # and a URL with a token among its parameters: an unexpected error, logged with its SQL.
    with app.state.engine.begin() as connection:
        connection.execute(text("ALTER TABLE webhook_endpoint RENAME COLUMN cursor TO moved"))
    monkeypatch.setattr(webhooks, "new_secret", lambda: WEBHOOK_SECRET)

    async def call() -> httpx.Response:
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
            return await http.post(
                f"/v1/tournaments/{t.id}/webhooks",
                json={"url": f"https://93.184.215.14/hook?token={URL_TOKEN}"},
                headers=t.auth,
            )

    with caplog.at_level(logging.INFO):
        answer = asyncio.run(call())

    assert answer.status_code == 500
    assert answer.json()["code"] == "internal_error"
    assert "INSERT INTO webhook_endpoint" in caplog.text  # the failed statement was logged
    assert "parameters hidden" in caplog.text
    assert WEBHOOK_SECRET not in caplog.text
    assert URL_TOKEN not in caplog.text


def test_the_access_log_filter_cuts_the_query_string() -> None:
    record = logging.LogRecord(
        ACCESS_LOGGER,
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", "/v1/tournaments/abc?token=s3cret&lang=it", "1.1", 200),
        None,
    )
    assert DropQueryString().filter(record)
    assert record.getMessage() == '127.0.0.1:5000 - "GET /v1/tournaments/abc HTTP/1.1" 200'


def refused(log: str) -> list[str]:
    """The access log's lines of refused GETs (the start-up checks of /health answer 200)."""
    return [line for line in log.splitlines() if '"GET ' in line and re.search(r'" 4\d\d ', line)]


def test_the_served_access_log_never_shows_a_query_string(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'svizzera.db'}"
    upgrade(url)
    log = tmp_path / "server.log"
    paths = [f"/health?token=HealthToken{i}" for i in range(10)]
    paths += ["/v1/tournaments?token=ListToken1&q=x", "/v1/nowhere?token=MissingToken1"]
    with serve(url, workers=2, log=log) as base, httpx.Client(base_url=base, timeout=10) as http:
        for path in paths:  # a new connection each: both workers get some
            assert http.get(path, headers={"Connection": "close"}).status_code in (200, 404, 422)
        deadline = time.monotonic() + 120  # generous: a loaded machine writes late
        while len(refused(log.read_text())) < len(paths):  # written after each response
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
    written = log.read_text()
    access = refused(written)
    assert len(access) == len(paths)
    assert sum('"GET /v1/tournaments HTTP/1.1" 422' in line for line in access) == 1
    assert sum('"GET /v1/nowhere HTTP/1.1" 404' in line for line in access) == 1
    assert sum('"GET /health HTTP/1.1" 422' in line for line in access) == 10  # unknown ?token
    assert re.search(r"Token\d", written) is None
    assert "?" not in written
