"""The live page shows why a board is paired as it is: tapped, the board opens a panel with
the steps of its explanation, in the page's language, read from the explanation endpoint.

``SVIZZERA_SCREENSHOTS=DIR`` saves what the test saw (``why-<system>-<lang>.png``) to look at.
"""

from __future__ import annotations

import os
import random
from contextlib import ExitStack
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.common.keys import Keys

from tests.pages.browser import chromium, wait_for
from tests.pages.evening import Evening, start
from tests.pages.test_live_chromium import open_live


def panel(page: webdriver.Chrome) -> list[str]:
    lines: list[str] = page.execute_script(
        "const why = document.getElementById('why');"
        "return why.hidden ? [] : [...why.querySelectorAll('.steps li')]"
        ".map(li => li.textContent)"
    )
    return lines


def tap(page: webdriver.Chrome, css: str) -> None:
    page.find_element("css selector", css).click()


def save(page: webdriver.Chrome, name: str) -> None:
    folder = os.environ.get("SVIZZERA_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.save_screenshot(str(Path(folder) / name))


def second_round(evening: Evening) -> dict[str, object]:
    evening.play(evening.generate(), random.Random(3))
    return evening.generate()


@pytest.mark.parametrize(("system", "language"), [("nearest", "en"), ("lim", "it")])
def test_a_tapped_board_shows_why_it_is_paired(
    page_server: str, system: str, language: str
) -> None:
    with ExitStack() as stack:
        base = page_server
        evening = stack.enter_context(start(base, players=7, pairing=system))
        second_round(evening)
        explained = evening.http.get(
            f"/v1/tournaments/{evening.id}/rounds/2/explanation", params={"lang": language}
        ).json()
        page = stack.enter_context(chromium(390, 844, language=language))
        open_live(page, base, evening, f"?lang={language}")
        assert panel(page) == []

        tap(page, '#round tr[data-board="2"]')
        (board_2,) = [p for p in explained["placements"] if p["board"] == 2]
        expected = [s["text"] for s in board_2["steps"]]
        wait_for(page, lambda p: panel(p) == expected)
        names = " – ".join(p["name"] for p in board_2["players"])
        who = page.find_element("css selector", "#why .who").text
        assert who.endswith(names)
        heading = page.find_element("css selector", "#why h2").text
        assert heading == {"en": "Why this pairing?", "it": "Perché questo abbinamento?"}[language]
        save(page, f"why-{system}-{language}.png")

        tap(page, "#why .close")  # on a phone the panel covers the bye's line
        wait_for(page, lambda p: panel(p) == [])
        tap(page, "#round p.byes")
        (bye,) = [p for p in explained["placements"] if p["board"] is None]
        wait_for(page, lambda p: panel(p) == [s["text"] for s in bye["steps"]])
        page.find_element("css selector", "body").send_keys(Keys.ESCAPE)
        wait_for(page, lambda p: panel(p) == [])
        assert page.execute_script("return window.notReloaded === true")
