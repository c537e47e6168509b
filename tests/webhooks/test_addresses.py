"""IPv6 forms that carry an IPv4 address to a gateway or relay (6to4, NAT64, Teredo) are judged
by that IPv4 address too: refused at registration and again at delivery."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI

from app.main import create_app
from app.settings import Settings
from app.webhooks import addresses
from tests.api.helpers import assert_problem, create, generate
from tests.client import ApiClient
from tests.webhooks.conftest import worker_running
from tests.webhooks.test_delivery import _wait, register

V4 = ipaddress.IPv4Address

EMBEDDING = {
    "2002:7f00:1::": [V4("127.0.0.1")],  # 6to4
    "2002:c0a8:10a::1": [V4("192.168.1.10")],
    "64:ff9b::a00:1": [V4("10.0.0.1")],  # NAT64, well-known prefix
    "64:ff9b::7f00:1": [V4("127.0.0.1")],
    "::127.0.0.1": [V4("127.0.0.1")],  # IPv4-compatible
    "::ffff:169.254.169.254": [V4("169.254.169.254")],  # IPv4-mapped
    # Teredo: server 8.8.8.8, client 127.8.0.1 (stored inverted, 80f7:fffe)
    "2001:0:808:808:0:ffff:80f7:fffe": [V4("8.8.8.8"), V4("127.8.0.1")],
    # Teredo: server 10.0.0.1, client 8.8.8.8 (f7f7:f7f7)
    "2001:0:a00:1:0:0:f7f7:f7f7": [V4("10.0.0.1"), V4("8.8.8.8")],
}
REFUSED = [*EMBEDDING, "64:ff9b:1::808:808", "64:ff9b:1:7f00:1::"]  # + local-use NAT64, whole
"""Every IPv6 form above reaches a private or loopback IPv4 address somewhere."""
HOST = "hook.svizzera.test"
"""A name the tests' resolver answers (see ``resolving``)."""


@pytest.mark.parametrize("address", EMBEDDING)
def test_the_embedded_ipv4_addresses_are_found(address: str) -> None:
    assert addresses.embedded_ipv4(ipaddress.ip_address(address)) == EMBEDDING[address]


def test_an_ipv6_address_embedding_a_private_ipv4_is_forbidden() -> None:
    assert [a for a in REFUSED if not addresses.forbidden(ipaddress.ip_address(a))] == []
    # the same forms around public IPv4 addresses are judged as any other address
    assert not addresses.forbidden(ipaddress.ip_address("2002:808:808::1"))
    assert not addresses.forbidden(ipaddress.ip_address("::ffff:8.8.8.8"))
    assert addresses.embedded_ipv4(ipaddress.ip_address("2606:4700::1111")) == []
    assert addresses.embedded_ipv4(ipaddress.ip_address("::1")) == []


@pytest.fixture
def resolving(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """``HOST`` resolves to the address put under its key (other names as usual)."""
    answers: dict[str, str] = {}
    real = socket.getaddrinfo

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host == HOST:
            return [(socket.AF_INET6, socket.SOCK_STREAM, 6, "", (answers[HOST], port, 0, 0))]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    yield answers


def test_registration_refuses_them_as_literals_and_behind_a_name(
    db_url: str, resolving: dict[str, str]
) -> None:
    app = create_app(Settings(database_url=db_url, webhook_allow_private=False))
    with ApiClient(app) as client:
        t = create(client)
        hooks = f"/v1/tournaments/{t.id}/webhooks"
        details = {}
        for address in REFUSED:
            literal = client.post(hooks, json={"url": f"http://[{address}]/h"}, headers=t.auth)
            assert_problem(literal, 422, "webhook_url_forbidden")
            resolving[HOST] = address
            named = client.post(hooks, json={"url": f"https://{HOST}/h"}, headers=t.auth)
            assert_problem(named, 422, "webhook_url_forbidden")
            details[address] = named.json()["detail"]
        assert details["2002:7f00:1::"].startswith(
            f"{HOST} reaches 2002:7f00:1:: (which embeds 127.0.0.1): loopback, private"
        )
        assert client.get(hooks, headers=t.auth).json() == []
        # 6to4 around a public address is accepted
        register(client, t, "http://[2002:808:808::1]/hook")
    app.state.engine.dispose()


def test_the_delivery_check_refuses_them_when_the_name_resolves_there_later(
    resolving: dict[str, str],
) -> None:
    for address in REFUSED:
        resolving[HOST] = address
        with pytest.raises(addresses.AddressForbidden):
            asyncio.run(addresses.target(f"https://{HOST}/h", allow_private=False))
    resolving[HOST] = "2002:808:808::1"
    target = asyncio.run(addresses.target(f"https://{HOST}:8443/h", allow_private=False))
    assert target.url == "https://[2002:808:808::1]:8443/h"  # pinned to the address checked
    assert target.headers == {"Host": f"{HOST}:8443"}


def test_a_delivery_to_a_name_now_on_6to4_loopback_fails_without_a_request(
    app: FastAPI, client: ApiClient, settings: Settings, resolving: dict[str, str]
) -> None:
    t = create(client)
    resolving[HOST] = "2002:7f00:1::"
    hook = register(client, t, f"http://{HOST}:9/hook")  # private addresses allowed then
    strict = settings.model_copy(update={"webhook_allow_private": False, "webhook_max_attempts": 1})
    with worker_running(app.state.engine, strict):
        generate(client, t)
        failed = _wait(client, t, hook["id"], "failed")[0]
    assert "2002:7f00:1:: (which embeds 127.0.0.1)" in failed["last_error"]
    assert failed["last_status_code"] is None
