"""Players report a result from the form at phone size, in a real browser against the real
server: one player sends it, the opponent confirms it, the live page shows it; two different
claims reach the organizer as a dispute."""

from __future__ import annotations

import html
import os
import re
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By

from tests.pages.browser import chromium, wait_for
from tests.pages.evening import start

CARD = re.compile(
    r'<article class="card" data-board="(\d+)">.*?data-code>([0-9A-Z-]+)<.*?class="url">([^<]+)<',
    re.S,
)


@pytest.fixture
def phone() -> Iterator[webdriver.Chrome]:
    with chromium(390, 844) as session:
        yield session


def send(phone: webdriver.Chrome, url: str, side: int, home: int, away: int) -> str:
    """Open a board's form, fill it in as the ``side``-th player (0 home, 1 away), send it;
    the message shown."""
    phone.get(url)
    phone.find_elements(By.CSS_SELECTOR, 'input[name="side"]')[side].click()
    phone.find_element(By.CSS_SELECTOR, 'input[name="home"]').send_keys(str(home))
    phone.find_element(By.CSS_SELECTOR, 'input[name="away"]').send_keys(str(away))
    phone.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
    return wait_for(phone, lambda p: p.find_element(By.ID, "outcome").text.strip())


def shoot(browser: webdriver.Chrome, tmp_path: Path, name: str) -> None:
    """A screenshot of the page, in ``SVIZZERA_SCREENSHOTS`` (else the test's temporary
    directory), for people to look at."""
    out = Path(os.environ.get("SVIZZERA_SCREENSHOTS", tmp_path))
    out.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(out / f"report-{name}.png"))


def test_a_player_reports_the_opponent_confirms_and_a_dispute_reaches_the_organizer(
    page_server: str, phone: webdriver.Chrome, tmp_path: Path
) -> None:
    with ExitStack() as stack:
        base = page_server
        evening = stack.enter_context(start(base, players=8, player_results=True))
        matches = {m["board"]: m for m in evening.generate()["matches"]}
        printed = httpx.get(
            f"{base}/v1/tournaments/{evening.id}/print?lang=it", headers=evening.auth, timeout=30
        ).text
        cards = {
            int(board): (code, html.unescape(url)) for board, code, url in CARD.findall(printed)
        }
        assert sorted(cards) == [1, 2, 3, 4]
        live = stack.enter_context(chromium(1366, 900))
        live.get(f"{base}/v1/tournaments/{evening.id}/live")
        wait_for(
            live,
            lambda p: p.find_element(By.ID, "connection").get_attribute("data-state") == "live",
        )

        # board 1: the home player sends 3–1 from the card's QR address (the code filled in)
        code, url = cards[1]
        assert url.endswith(f"/matches/{matches[1]['id']}/report?lang=it&code={code}")
        phone.get(url)
        assert (
            phone.find_element(By.CSS_SELECTOR, 'input[name="code"]').get_attribute("value") == code
        )
        width = phone.execute_script("return document.documentElement.scrollWidth")
        assert width <= 390  # nothing wider than the phone
        said = send(phone, url, 0, 3, 1)
        assert said.startswith("Inviato.")
        shoot(phone, tmp_path, "claimed-it")
        waiting = wait_for(live, lambda p: p.find_elements(By.CSS_SELECTOR, "#reports .waiting"))
        assert waiting[0].text.endswith(": 1")

        # the opponent confirms it with the same code, in Czech
        said = send(phone, url.replace("lang=it", "lang=cs"), 1, 3, 1)
        assert said == "Potvrzeno: výsledek je zaznamenán."
        assert not phone.find_element(By.ID, "claim").is_displayed()
        shoot(phone, tmp_path, "confirmed-cs")
        score = f'td.score[data-match="{matches[1]["id"]}"]'
        wait_for(live, lambda p: p.find_element(By.CSS_SELECTOR, score).text == "3–1")
        wait_for(live, lambda p: not p.find_elements(By.CSS_SELECTOR, "#reports .waiting"))

        # board 2: the players disagree; the organizer sees both claims
        code, url = cards[2]
        send(phone, url.replace("lang=it", "lang=sk"), 0, 1, 0)
        said = send(phone, url.replace("lang=it", "lang=sk"), 1, 0, 1)
        assert said == "Súper zadal iný výsledok: rozhodne organizátor."
        shoot(phone, tmp_path, "disputed-sk")
        disputed = wait_for(live, lambda p: p.find_elements(By.CSS_SELECTOR, "#reports .disputed"))
        assert disputed[0].text.endswith(": 2")
        shoot(live, tmp_path, "live-disputed")
        claims = evening.call("GET", "/claims")
        assert [(c["match"]["board"], c["state"]) for c in claims] == [(2, "disputed")]
        assert (claims[0]["home_claim"]["home"], claims[0]["away_claim"]["away"]) == (1, 1)

        # a wrong code is refused with the page's message, nothing sent
        phone.get(url.replace(code, "2222-2222").replace("lang=it", "lang=en"))
        said = send(phone, url.replace(code, "2222-2222").replace("lang=it", "lang=en"), 0, 1, 0)
        assert said.startswith("This is not the code of this board")
        assert phone.find_element(By.ID, "outcome").get_attribute("data-code") == "wrong_board_code"
