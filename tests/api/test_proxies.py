"""``X-Forwarded-For`` is believed only from the proxies of ``SVIZZERA_FORWARDED_ALLOW_IPS``: a
real server started as the README starts it, a client on the same host (127.0.0.1)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

import httpx
import pytest
from pydantic import ValidationError

from app.settings import Settings
from tests.api.helpers import assert_problem
from tests.server import serve

WAIT = 60.0
BODY = {"name": "Proxy", "players": [{"name": "A"}, {"name": "B"}]}


T = TypeVar("T")


def create_as(http: httpx.Client, forwarded_for: str) -> httpx.Response:
    return http.post("/v1/tournaments", json=BODY, headers={"X-Forwarded-For": forwarded_for})


def in_one_minute(requests: Callable[[], T]) -> T:
    """``requests()``, sent again from the start of a fresh minute if a minute of the clock
    ended while they ran: the quota counts each minute apart (a fixed window), and on a busy
    machine a few requests can straddle one's end."""
    for _ in range(3):
        minute = time.time() // 60
        answers = requests()
        if time.time() // 60 == minute:
            return answers
        time.sleep(60 - time.time() % 60)  # every address's count starts again
    raise AssertionError("a minute ended during the requests three times")


def test_a_client_on_the_same_host_cannot_claim_another_address(db_url: str) -> None:
    with (
        serve(db_url, create_rate="1") as base,
        httpx.Client(base_url=base, timeout=WAIT) as http,
    ):
        first, second = in_one_minute(
            lambda: (
                create_as(http, "203.0.113.1"),
                create_as(http, "203.0.113.2"),  # uvicorn alone would count it apart
            )
        )
    assert first.status_code == 201, first.text
    assert_problem(second, 429, "too_many_requests")


def test_a_named_proxy_is_believed(db_url: str) -> None:
    with (
        serve(db_url, create_rate="1", forwarded_allow_ips="127.0.0.1") as base,
        httpx.Client(base_url=base, timeout=WAIT) as http,
    ):
        first, second, again = in_one_minute(
            lambda: (
                create_as(http, "203.0.113.1"),
                create_as(http, "203.0.113.2"),
                # The right-most address not of a named proxy is the client: a spoofed one
                # before it changes nothing.
                create_as(http, "198.51.100.9, 203.0.113.1"),
            )
        )
    assert (first.status_code, second.status_code) == (201, 201), (first.text, second.text)
    assert_problem(again, 429, "too_many_requests")


def test_the_setting_reads_addresses_and_networks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SVIZZERA_FORWARDED_ALLOW_IPS", " 127.0.0.1, 10.0.0.0/8 ,::1,")
    assert Settings().forwarded_allow_ips == ["127.0.0.1", "10.0.0.0/8", "::1"]
    monkeypatch.setenv("SVIZZERA_FORWARDED_ALLOW_IPS", "")
    assert Settings().forwarded_allow_ips == []
    monkeypatch.setenv("SVIZZERA_FORWARDED_ALLOW_IPS", "proxy.example")
    with pytest.raises(ValidationError, match=r"proxy\.example"):
        Settings()
