"""Which webhook URLs may be called: ``http``/``https`` only, and (unless the deployment allows
it) no loopback, private, link-local, multicast, reserved or unspecified address, nor an IPv6
address that embeds one of these IPv4 addresses (a gateway or relay would forward to it).

The address rule is checked at registration and again at every delivery, on the addresses the
host name resolves to then; the delivery connects to the address it checked (the name is kept
for ``Host`` and TLS), so a name that re-resolves to a private address in between (DNS
rebinding) gets nowhere.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import SplitResult, urlsplit, urlunsplit

SCHEMES = {"http": 80, "https": 443}
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class UrlRefused(ValueError):
    """A webhook URL that is not well-formed ``http``/``https``."""


class AddressForbidden(UrlRefused):
    """A webhook URL that reaches a loopback, private or otherwise non-public address."""


def parse(url: str) -> SplitResult:
    """The URL split, or ``UrlRefused``: an absolute ``http``/``https`` URL with a host."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError as error:
        raise UrlRefused(f"not a valid URL: {error}") from None
    if parts.scheme not in SCHEMES:
        raise UrlRefused("only http and https URLs can receive webhooks")
    if not parts.hostname:
        raise UrlRefused("the URL has no host")
    if parts.username is not None or parts.password is not None:
        raise UrlRefused("credentials in the URL are not accepted; use the signature instead")
    return parts


NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
"""RFC 6052's well-known NAT64 prefix: a translator forwards to the IPv4 address in the last
32 bits."""
NAT64_LOCAL = ipaddress.IPv6Network("64:ff9b:1::/48")
"""RFC 8215's local-use NAT64 prefix: a network's own translator, the IPv4 address placed
where that network chooses; never a public destination, refused whole."""
IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")
"""The deprecated IPv4-compatible form ``::a.b.c.d`` (RFC 4291)."""


def embedded_ipv4(address: IPAddress) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries to a gateway or relay: IPv4-mapped
    (``::ffff:a.b.c.d``), IPv4-compatible (``::a.b.c.d``), 6to4 (``2002::/16``), NAT64
    (``64:ff9b::/96``), and Teredo (``2001::/32``: both its server and its client)."""
    if isinstance(address, ipaddress.IPv4Address):
        return []
    found: list[ipaddress.IPv4Address] = []
    if address.ipv4_mapped is not None:
        found.append(address.ipv4_mapped)
    if address.sixtofour is not None:
        found.append(address.sixtofour)
    if address.teredo is not None:
        found.extend(address.teredo)
    if address in NAT64 or (address in IPV4_COMPATIBLE and int(address) > 1):
        found.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    return found


def forbidden(address: IPAddress) -> bool:
    """Loopback, private, link-local, multicast, reserved, unspecified, or not globally routed
    (e.g. 100.64.0.0/10); an IPv6 address also when an IPv4 address it embeds is (see
    ``embedded_ipv4``), and anywhere in the local-use NAT64 prefix. An IPv4-mapped address is
    judged as its IPv4 address: it is that address."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if isinstance(address, ipaddress.IPv6Address) and (
        address in NAT64_LOCAL or any(forbidden(v4) for v4 in embedded_ipv4(address))
    ):
        return True
    return (
        address.is_loopback
        or address.is_private
        or address.is_link_local
        or address.is_multicast
        or address.is_reserved
        or address.is_unspecified
        or not address.is_global
    )


def _literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def _port(parts: SplitResult) -> int:
    return parts.port or SCHEMES[parts.scheme]


def _allowed(host: str, addresses: list[IPAddress]) -> list[IPAddress]:
    if not addresses:
        raise UrlRefused(f"{host} does not resolve")
    refused = [a for a in addresses if forbidden(a)]
    if refused:
        inside = ", ".join(str(v4) for v4 in embedded_ipv4(refused[0]))
        shown = f"{refused[0]} (which embeds {inside})" if inside else str(refused[0])
        raise AddressForbidden(
            f"{host} reaches {shown}: loopback, private or reserved addresses are "
            "refused here (SVIZZERA_WEBHOOK_ALLOW_PRIVATE)"
        )
    return addresses


def _addresses(infos: list[Any]) -> list[IPAddress]:
    # scope ids (fe80::1%eth0) are cut off: they are link-local, refused either way
    return [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos]


def check(url: str, *, allow_private: bool) -> None:
    """At registration: refuse a URL that is malformed or (unless allowed) reaches a
    non-public address. Resolves the host name (blocking: call it off the event loop)."""
    parts = parse(url)
    if allow_private:
        return
    host = parts.hostname or ""
    literal = _literal(host)
    if literal is not None:
        _allowed(host, [literal])
        return
    try:
        infos = socket.getaddrinfo(host, _port(parts), type=socket.SOCK_STREAM)
    except OSError:
        raise UrlRefused(f"{host} does not resolve") from None
    _allowed(host, _addresses(infos))


@dataclass(frozen=True, slots=True)
class Target:
    """Where a delivery connects: the URL (its host replaced by the checked address when
    pinned), the ``Host`` header and the TLS server name of the original URL."""

    url: str
    headers: dict[str, str] = field(default_factory=dict)
    extensions: dict[str, Any] = field(default_factory=dict)


async def target(url: str, *, allow_private: bool) -> Target:
    """At delivery: the URL checked again after resolving its host now, pinned to the address
    checked. Raises ``UrlRefused``/``AddressForbidden``."""
    parts = parse(url)
    if allow_private:
        return Target(url)
    host = parts.hostname or ""
    literal = _literal(host)
    if literal is not None:
        _allowed(host, [literal])
        return Target(url)
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(
            host, _port(parts), type=socket.SOCK_STREAM
        )
    except OSError:
        raise UrlRefused(f"{host} does not resolve") from None
    address = _allowed(host, _addresses(infos))[0]
    shown = f"[{address}]" if address.version == 6 else str(address)
    netloc = f"{shown}:{parts.port}" if parts.port else shown
    host_header = f"{host}:{parts.port}" if parts.port else host
    pinned = urlunsplit(parts._replace(netloc=netloc))
    extensions = {"sni_hostname": host} if parts.scheme == "https" else {}
    return Target(pinned, {"Host": host_header}, extensions)
