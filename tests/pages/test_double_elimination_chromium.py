"""A 16-player double elimination in a real browser: the live page draws the winners' bracket
with the grand final above the losers' bracket, each match between the two it takes its players
from, and fills it without a reload as results come in; the printed page draws the same. The
screenshot goes to ``tmp_path`` (or to ``SVIZZERA_SCREENSHOTS``: ``docs/`` keeps one,
``double-elimination-live-desktop.png``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import ExitStack
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver

from tests.pages.browser import chromium, wait_for
from tests.pages.evening import Evening, start
from tests.pages.test_live_chromium import open_live, still_the_same_page
from tests.pages.test_top_cut_chromium import shot
from tests.server import serve, upgrade

BOXES = """return [...document.querySelectorAll('.double-elimination .bracket-match')].map(el => {
    const r = el.getBoundingClientRect();
    return {number: +el.dataset.number, stage: el.dataset.stage,
            names: [...el.querySelectorAll('.side .nm')].map(n => n.textContent.trim()),
            left: r.left, right: r.right, top: r.top, bottom: r.bottom,
            middle: (r.top + r.bottom) / 2};
})"""


@pytest.fixture
def database(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path}/svizzera.db"
    upgrade(url)
    return url


@pytest.fixture
def page() -> Iterator[webdriver.Chrome]:
    with chromium(1600, 1400) as session:
        yield session


def boxes(page: webdriver.Chrome) -> dict[int, dict[str, Any]]:
    found: list[dict[str, Any]] = page.execute_script(BOXES)
    return {b["number"]: b for b in found}


def check_drawn(page: webdriver.Chrome, layout: dict[str, Any]) -> None:
    """Every match of the bracket read is drawn once; each round a column to the right of the
    one before on its side, a halving round's matches between the two they take their winners
    from; the losers' bracket wholly below the winners' bracket and the grand final."""
    b = boxes(page)
    rounds = layout["rounds"]
    assert sorted(b) == sorted(m["number"] for r in rounds for m in r["matches"])
    by_side: dict[str, list[list[int]]] = {}
    for r in rounds:
        by_side.setdefault("upper" if r["side"] != "losers" else "lower", []).append(
            [m["number"] for m in r["matches"]]
        )
    for columns in by_side.values():
        for before, after in pairwise(columns):
            assert {b[n]["left"] for n in after} == {b[after[0]]["left"]}
            assert b[after[0]]["left"] >= max(b[n]["right"] for n in before)
            if len(after) * 2 == len(before):
                for i, n in enumerate(after):
                    upper, lower = b[before[2 * i]], b[before[2 * i + 1]]
                    assert upper["middle"] < b[n]["middle"] < lower["middle"]
    upper_bottom = max(b[n]["bottom"] for c in by_side["upper"] for n in c)
    assert min(b[n]["top"] for c in by_side["lower"] for n in c) > upper_bottom


def test_the_live_and_printed_pages_draw_a_16_player_double_elimination(
    database: str, page: webdriver.Chrome, tmp_path: Path
) -> None:
    rng = random.Random(16)
    with ExitStack() as stack:
        base = stack.enter_context(serve(database))
        evening: Evening = stack.enter_context(
            start(
                base,
                players=16,
                final_phase="double_elimination",
                top_cut_size=16,
                swiss_rounds=3,
            )
        )
        # the evening's hostile name (tested elsewhere) would fill the picture in docs/
        for player in evening.call("GET", "/players"):
            if player["name"].startswith("<"):
                evening.call("PATCH", f"/players/{player['id']}", json={"name": "Bruno Costa"})
        for _ in range(3):
            evening.play(evening.generate(), rng)
        evening.final_phase()
        open_live(page, base, evening)
        layout = evening.call("GET", "/bracket")
        check_drawn(page, layout)
        assert boxes(page)[9]["names"] == ["Winner of match 1", "Winner of match 2"]
        assert boxes(page)[13]["names"] == ["Loser of match 1", "Loser of match 2"]

        # results come in until only the grand final is left: the page fills without a reload
        while True:
            phase = evening.call("GET", "/final-phase")
            pending = [m for m in phase["matches"] if m["result"] is None]
            if [m["stage"] for m in pending] == ["grand_final"]:
                break
            for m in pending:
                home, away = rng.choice([(2, 1), (0, 3), (3, 1), (1, 2)])
                evening.record(m["id"], home, away)
        final = pending[0]
        names = {p["id"]: p["name"] for p in evening.call("GET", "/players")}
        wait_for(
            page,
            lambda p: (
                sorted(boxes(p)[30]["names"])
                == sorted([names[final["home"]], names[final["away"]]])
            ),
        )
        assert still_the_same_page(page)
        check_drawn(page, evening.call("GET", "/bracket"))
        assert boxes(page)[31]["names"] == ["Winner of match 30", "Loser of match 30"]
        # the whole bracket is in the page's width: the grand final's reset is not cut off
        width = page.execute_script("return document.documentElement.clientWidth")
        assert boxes(page)[31]["right"] <= width
        page.execute_script("document.getElementById('final-phase').scrollIntoView()")
        live = shot(page, tmp_path, "double-elimination-live-desktop.png")

        page.get(f"{base}/v1/tournaments/{evening.id}/print")
        check_drawn(page, layout)
        page.execute_script("document.getElementById('final-phase').scrollIntoView()")
        printed = shot(page, tmp_path, "double-elimination-print.png")
    assert live.stat().st_size > 10_000 and printed.stat().st_size > 10_000
