"""Reaching the room in a real browser: the QR code the TV shows, photographed (a screenshot)
and read back, opens the live page; a phone looks back at an earlier round and returns.

One server and one browser per size for the whole module (starting them is most of the time).
"""

from __future__ import annotations

import io
import random
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import zxingcpp
from PIL import Image
from selenium import webdriver

from tests.chromium import chromium as chromium_binary
from tests.pages.browser import chromedriver, chromium, wait_for
from tests.pages.evening import Evening, start
from tests.server import serve


@pytest.fixture(scope="module")
def base(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    chromium_binary(), chromedriver()  # skipped where missing before a server starts for nothing
    path = tmp_path_factory.mktemp("room") / "svizzera.db"
    shutil.copyfile(sqlite_template, path)  # the session's migrated template (conftest.py)
    with serve(f"sqlite:///{path}") as served:
        yield served


@pytest.fixture(scope="module")
def evening(base: str) -> Iterator[Evening]:
    """Sixteen players, two rounds played and the third in play."""
    rng = random.Random(11)
    with start(base, players=16) as played:
        for _ in range(2):
            played.play(played.generate(), rng)
        played.generate()
        yield played


@pytest.fixture(scope="module")
def tv() -> Iterator[webdriver.Chrome]:
    with chromium(1920, 1080) as session:
        yield session


@pytest.fixture(scope="module")
def phone() -> Iterator[webdriver.Chrome]:
    with chromium(390, 844) as session:
        yield session


def connected(page: webdriver.Chrome) -> bool:
    return bool(page.execute_script("return document.getElementById('connection').dataset.state"))


def shot(page: webdriver.Chrome, path: Path) -> Image.Image:
    png = page.get_screenshot_as_png()
    path.write_bytes(png)
    return Image.open(io.BytesIO(png))


BOXES = """return [document.getElementById('room-qr'), ...document.querySelectorAll('main .view')]
  .filter(el => el.offsetParent !== null || el.id === 'room-qr')
  .map(el => el.getBoundingClientRect()).map(r => [r.left, r.top, r.right, r.bottom])"""


def test_the_qr_code_on_the_tv_opens_the_live_page(
    base: str, evening: Evening, tv: webdriver.Chrome, tmp_path: Path
) -> None:
    tv.get(f"{base}/v1/tournaments/{evening.id}/live?tv=1&lang=cs")
    wait_for(tv, connected)

    (code,) = zxingcpp.read_barcodes(shot(tv, tmp_path / "tv.png"))

    # The server listens on 127.0.0.1 only: no LAN address answers, the code keeps the host.
    assert code.format == zxingcpp.BarcodeFormat.QRCode
    assert code.text == f"{base}/v1/tournaments/{evening.id}/live"
    tv.get(code.text)  # what a phone does with it: the live page, in the phone's language
    wait_for(tv, connected)
    assert tv.find_element("css selector", "#round h2").text.startswith("Round 3")
    assert tv.execute_script("return document.body.className") == "screen"

    tv.get(f"{base}/v1/tournaments/{evening.id}/live?tv=1")
    wait_for(tv, connected)
    qr, *views = tv.execute_script(BOXES)
    left, top, right, bottom = qr
    assert right - left >= 200 and bottom <= 1080  # large enough to read across a room
    for view in views:  # beside the views, never over them
        assert view[2] <= left or view[3] <= top, (view, qr)


def board_ids(page: webdriver.Chrome) -> list[int]:
    ids: list[int] = page.execute_script(
        "return [...document.querySelectorAll('#round td.score')].map(td => +td.dataset.match)"
    )
    return ids


def heading(page: webdriver.Chrome) -> str:
    text: str = page.execute_script(
        "const h = document.querySelector('#round h2'); return h ? h.textContent.trim() : ''"
    )
    return text


def test_a_phone_looks_back_at_an_earlier_round_and_returns_to_the_one_in_play(
    base: str, evening: Evening, phone: webdriver.Chrome, tmp_path: Path
) -> None:
    first, _, third = (evening.call("GET", f"/rounds/{n}") for n in (1, 2, 3))
    phone.get(f"{base}/v1/tournaments/{evening.id}/live?lang=it")
    wait_for(phone, connected)
    assert heading(phone) == "Turno 3"

    phone.find_element("css selector", ".round-picker a[href$='round=1']").click()
    wait_for(phone, lambda p: heading(p) == "Turno 1" and connected(p))
    shot(phone, tmp_path / "phone-round-1.png")

    assert board_ids(phone) == [m["id"] for m in first["matches"]]
    shown = phone.execute_script(
        "return [...document.querySelectorAll('#round td.score')].map(td => td.textContent)"
    )
    assert shown == [f"{m['result']['home']}–{m['result']['away']}" for m in first["matches"]]
    assert "Turno 3 di" in phone.find_element("css selector", ".phase").text
    current = phone.find_element("css selector", ".round-picker a[aria-current]")
    assert current.text == "1"
    width = phone.execute_script("return document.documentElement.scrollWidth")
    assert width <= 390  # the picker wraps, nothing runs off a phone's screen

    # A result of the round in play: the page redraws and still shows round 1.
    evening.record(third["matches"][0]["id"], 3, 0)
    phone.execute_script("window.notReloaded = true")
    evening.record(third["matches"][1]["id"], 0, 2)
    wait_for(phone, lambda p: p.execute_script(
        "return [...document.querySelectorAll('#standings td[data-col=played]')]"
        ".filter(td => td.textContent === '3').length") == 4)  # fmt: skip
    assert heading(phone) == "Turno 1"
    assert phone.execute_script("return window.notReloaded === true")

    phone.find_element("css selector", ".round-picker a:last-child").click()
    wait_for(phone, lambda p: heading(p) == "Turno 3" and connected(p))
    assert board_ids(phone) == [m["id"] for m in third["matches"]]
    assert phone.current_url.endswith("/live?lang=it")  # following the round in play again
