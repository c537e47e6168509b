"""Reaching the room: the QR code of the live page's address (TV page, printed page), the
address it carries (Host, a believed proxy's scheme, ``SVIZZERA_PUBLIC_URL``, a LAN address
for ``localhost``), relative links, and the round picker a phone looks back with."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
import zxingcpp

from app.api import public_address
from app.main import create_app
from app.settings import Settings
from tests.api.helpers import Organizer, assert_problem, create, generate, play_round
from tests.client import ApiClient
from tests.pages.test_qr import rasterize


def get(client: ApiClient, path: str, **headers: str) -> str:
    response = client.get(path, headers=headers)
    assert response.status_code == 200, response.text
    return response.text


def qr_text(page: str, container: str) -> str:
    """What the QR code inside the element with id ``container`` decodes to."""
    block = page.split(f'id="{container}"', 1)[1]
    svg = re.search(r"<svg.*?</svg>", block, re.S).group(0)  # type: ignore[union-attr]
    (decoded,) = zxingcpp.read_barcodes(rasterize(svg))
    return decoded.text


def tv(client: ApiClient, t: Organizer, **headers: str) -> str:
    return get(client, f"/v1/tournaments/{t.id}/live?tv=1", **headers)


def test_the_tv_page_shows_a_qr_code_of_the_live_page_at_the_host_it_was_opened_with(
    client: ApiClient,
) -> None:
    t = create(client, 8)
    generate(client, t)

    page = tv(client, t)
    other = tv(client, t, Host="club.example:8080")

    assert qr_text(page, "room-qr") == f"http://svizzera.test/v1/tournaments/{t.id}/live"
    assert f">http://svizzera.test/v1/tournaments/{t.id}/live</p>" in page
    assert "Follow on your phone" in page
    # The rendered page is cached once for every host; each answer carries its own address.
    assert qr_text(other, "room-qr") == f"http://club.example:8080/v1/tournaments/{t.id}/live"
    assert "<!-- room-qr -->" not in page
    tags = {
        client.get(f"/v1/tournaments/{t.id}/live?tv=1", headers={"Host": host}).headers["ETag"]
        for host in ("svizzera.test", "club.example:8080")
    }
    assert len(tags) == 2  # a page cached under one host is not "not modified" under another
    screen = get(client, f"/v1/tournaments/{t.id}/live")
    assert "room-qr" not in screen and "<svg" not in screen  # phones need no code


def test_the_printed_page_carries_the_qr_code_too(client: ApiClient) -> None:
    t = create(client, 8)
    play_round(client, t)

    page = get(client, f"/v1/tournaments/{t.id}/print?lang=it")

    address = f"http://svizzera.test/v1/tournaments/{t.id}/live"
    assert qr_text(page, "live-qr") == address
    assert f"<strong>Pagina in diretta</strong><br>{address}</figcaption>" in page


def test_a_page_opened_as_localhost_carries_the_lan_address_where_the_server_answers(
    client: ApiClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = create(client, 4)
    asked: list[int] = []

    def answering(port: int) -> str | None:
        asked.append(port)
        return "192.168.1.20" if port == 8000 else None

    monkeypatch.setattr(public_address, "room_address", answering)

    lan = tv(client, t, Host="localhost:8000")
    printed = get(client, f"/v1/tournaments/{t.id}/print", Host="127.0.0.1:8000")
    alone = tv(client, t, Host="localhost:9000")  # no LAN address answers on 9000
    named = tv(client, t, Host="svizzera.test:8000")
    get(client, f"/v1/tournaments/{t.id}/live", Host="localhost:8000")  # no code: not asked

    assert qr_text(lan, "room-qr") == f"http://192.168.1.20:8000/v1/tournaments/{t.id}/live"
    assert qr_text(printed, "live-qr") == f"http://192.168.1.20:8000/v1/tournaments/{t.id}/live"
    assert qr_text(alone, "room-qr") == f"http://localhost:9000/v1/tournaments/{t.id}/live"
    assert qr_text(named, "room-qr") == f"http://svizzera.test:8000/v1/tournaments/{t.id}/live"
    assert asked == [8000, 8000, 9000]  # a host that is not localhost is taken as it is


@pytest.fixture
def proxied(db_url: str, request: pytest.FixtureRequest) -> Iterator[ApiClient]:
    settings = Settings(database_url=db_url, **request.param)
    with ApiClient(create_app(settings)) as api_client:
        yield api_client


@pytest.mark.parametrize(
    ("proxied", "address"),
    [
        ({"public_url": "https://club.example/svizzera/"}, "https://club.example/svizzera"),
        ({"forwarded_allow_ips": "127.0.0.1"}, "https://svizzera.test"),
        ({}, "http://svizzera.test"),  # X-Forwarded-Proto from a proxy nobody named: ignored
    ],
    indirect=["proxied"],
    ids=["public url", "believed proxy", "unknown proxy"],
)
def test_behind_a_proxy_the_address_is_the_setting_or_the_believed_scheme(
    proxied: ApiClient, address: str
) -> None:
    t = create(proxied, 4)

    page = tv(proxied, t, **{"X-Forwarded-Proto": "https"})

    assert qr_text(page, "room-qr") == f"{address}/v1/tournaments/{t.id}/live"


def test_a_public_url_that_is_not_a_web_address_is_refused() -> None:
    for wrong in ("club.example", "ftp://club.example", "https://club.example/?a=1"):
        with pytest.raises(ValueError, match="SVIZZERA_PUBLIC_URL"):
            Settings(public_url=wrong)
    assert Settings(public_url="").public_url is None


def test_every_link_of_the_live_page_is_relative(client: ApiClient) -> None:
    """Links, script, style and the script's reads work from whatever host (or a proxy's path
    prefix) the page was opened at."""
    t = create(client, 8)
    play_round(client, t)
    generate(client, t)

    for query in ("", "?tv=1", "?round=1"):
        page = get(client, f"/v1/tournaments/{t.id}/live{query}")
        urls = re.findall(
            r'(?:href|src|data-events|data-standings|data-explanation)="([^"]*)"', page
        )
        assert len(urls) >= 5, query
        assert [u for u in urls if re.match(r"[a-z]+:|/", u)] == [], query
        assert "../../../static/live.js?v=" in page


def board_ids(page: str) -> list[int]:
    return [int(m) for m in re.findall(r'<td class="score" data-match="(\d+)">', page)]


def picker(page: str) -> list[tuple[str, str, bool]]:
    nav = re.search(r'<nav class="round-picker".*?</nav>', page, re.S)
    assert nav is not None
    links = re.findall(r'<a href="([^"]+)"( aria-current="page")?>(\d+)</a>', nav.group(0))
    return [(number, href.replace("&amp;", "&"), bool(here)) for href, here, number in links]


def test_a_phone_picks_an_earlier_round_and_comes_back_to_the_one_in_play(
    client: ApiClient,
) -> None:
    t = create(client, 8)
    first = play_round(client, t)
    play_round(client, t)
    third = generate(client, t)

    latest = get(client, f"/v1/tournaments/{t.id}/live?lang=it")
    earlier = get(client, f"/v1/tournaments/{t.id}/live?lang=it&round=1")
    beyond = get(client, f"/v1/tournaments/{t.id}/live?round=7")

    assert board_ids(latest) == [m["id"] for m in third["matches"]]
    assert picker(latest) == [
        ("1", "live?lang=it&round=1", False),
        ("2", "live?lang=it&round=2", False),
        ("3", "live?lang=it", True),  # the one in play: followed as rounds come
    ]
    assert board_ids(earlier) == [m["id"] for m in first["matches"]]
    assert re.search(r"<h2>Turno 1\b", earlier)
    assert "Turno 3 di 4" in earlier  # the round in play is still named at the top
    assert [here for _, _, here in picker(earlier)] == [True, False, False]
    assert 'data-explanation="rounds/1/explanation?lang=it"' in earlier  # its boards' why
    assert board_ids(beyond) == board_ids(latest)  # not drawn: the round in play
    assert "round-picker" not in tv(client, t)
    assert_problem(client.get(f"/v1/tournaments/{t.id}/live?round=0"), 422, "validation_error")


def test_after_the_swiss_rounds_the_picker_still_reaches_each_of_them(
    client: ApiClient,
) -> None:
    t = create(client, 4, swiss_rounds=2, final_phase="final")
    play_round(client, t)
    second = play_round(client, t)
    started = client.post(f"/v1/tournaments/{t.id}/final-phase", headers=t.auth)
    assert started.status_code in (200, 201), started.text

    page = get(client, f"/v1/tournaments/{t.id}/live")
    looking_back = get(client, f"/v1/tournaments/{t.id}/live?round=2")

    assert board_ids(page) == []
    assert picker(page) == [
        ("1", "live?lang=en&round=1", False),
        ("2", "live?lang=en&round=2", False),
    ]
    assert board_ids(looking_back) == [m["id"] for m in second["matches"]]
    assert picker(looking_back)[1][2]
    assert 'id="final-phase"' in looking_back
