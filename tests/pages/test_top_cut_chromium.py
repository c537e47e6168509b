"""A top 8 after a 16-player Swiss in a real browser: the live page draws the bracket and
fills it without a reload as results come in; the printed page draws the same bracket. Each
match stands between the two it takes its players from. Screenshots go to ``tmp_path`` (or to
``SVIZZERA_SCREENSHOTS``, for people to look at)."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver

from tests.pages.browser import chromium, wait_for
from tests.pages.evening import Evening, start
from tests.pages.test_live_chromium import open_live, still_the_same_page

BOXES = """return [...document.querySelectorAll('.topcut .bracket-match')].map(el => {
    const r = el.getBoundingClientRect();
    return {number: +el.dataset.number, stage: el.dataset.stage,
            names: [...el.querySelectorAll('.side .nm')].map(n => n.textContent.trim()),
            left: r.left, right: r.right, middle: (r.top + r.bottom) / 2};
})"""


@pytest.fixture
def page() -> Iterator[webdriver.Chrome]:
    with chromium(1366, 900) as session:
        yield session


def boxes(page: webdriver.Chrome) -> dict[int, dict[str, Any]]:
    found: list[dict[str, Any]] = page.execute_script(BOXES)
    return {b["number"]: b for b in found}


def check_drawn_as_a_bracket(page: webdriver.Chrome) -> None:
    """Quarterfinals 1–4 in a column, semifinals 5–6 to their right, each between its two
    quarterfinals, the final 7 between the semifinals, the third-place match 8 below it."""
    b = boxes(page)
    assert sorted(b) == list(range(1, 9))
    assert {b[n]["left"] for n in (1, 2, 3, 4)} == {b[1]["left"]}
    for semi, (upper, lower) in ((5, (1, 2)), (6, (3, 4)), (7, (5, 6))):
        assert b[semi]["left"] >= b[upper]["right"]
        assert b[upper]["middle"] < b[semi]["middle"] < b[lower]["middle"]
        assert abs(b[semi]["middle"] - (b[upper]["middle"] + b[lower]["middle"]) / 2) < 3
    assert b[8]["left"] == b[7]["left"] and b[8]["middle"] > b[7]["middle"]


def shot(page: webdriver.Chrome, tmp_path: Path, name: str) -> Path:
    folder = Path(os.environ.get("SVIZZERA_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    assert page.save_screenshot(str(path))
    return path


def test_the_live_and_printed_pages_draw_a_top_8(
    page_server: str, page: webdriver.Chrome, tmp_path: Path
) -> None:
    rng = random.Random(8)
    with ExitStack() as stack:
        base = page_server
        evening: Evening = stack.enter_context(
            start(base, players=16, final_phase="top_cut", top_cut_size=8, third_place=True)
        )
        for _ in range(5):
            evening.play(evening.generate(), rng)
        quarterfinals = evening.final_phase()["matches"]
        open_live(page, base, evening)
        check_drawn_as_a_bracket(page)
        assert boxes(page)[5]["names"] == ["Winner of match 1", "Winner of match 2"]

        for match in quarterfinals:
            evening.record(match["id"], 0, 2)
        away = {m["away"] for m in quarterfinals}
        names = {p["id"]: p["name"] for p in evening.call("GET", "/players")}
        wait_for(page, lambda p: all("Winner" not in n for n in boxes(p)[6]["names"]))
        assert set(boxes(page)[5]["names"] + boxes(page)[6]["names"]) == {names[i] for i in away}
        evening.record(
            evening.call("GET", "/bracket")["rounds"][1]["matches"][0]["match"]["id"],
            1,
            1,
            winner="home",
            decided_by="penalties",
        )
        wait_for(page, lambda p: "Loser" not in boxes(p)[8]["names"][0])
        assert still_the_same_page(page)
        check_drawn_as_a_bracket(page)
        live = shot(page, tmp_path, "top-cut-live-desktop.png")

        page.get(f"{base}/v1/tournaments/{evening.id}/print")
        check_drawn_as_a_bracket(page)
        page.execute_script("document.getElementById('final-phase').scrollIntoView()")
        printed = shot(page, tmp_path, "top-cut-print.png")
    assert live.stat().st_size > 10_000 and printed.stat().st_size > 10_000
