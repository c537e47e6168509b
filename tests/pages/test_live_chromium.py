"""The live page in a real browser against the real server: changes appear without a reload,
and the page catches up after the server restarts.

Each step waits for the DOM to change (``browser.WAIT``, generous); the time a result takes
to show is measured by ``bench/bench_live.py``, not asserted here.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from selenium import webdriver

from tests.pages.browser import chromium, wait_for
from tests.pages.evening import HOSTILE, Evening, start
from tests.server import free_port, serve


@pytest.fixture
def database(sqlite_url: str) -> str:
    return sqlite_url


@pytest.fixture
def page() -> Iterator[webdriver.Chrome]:
    with chromium(1366, 900) as session:
        yield session


def open_live(page: webdriver.Chrome, base: str, evening: Evening, query: str = "") -> None:
    page.get(f"{base}/v1/tournaments/{evening.id}/live{query}")
    wait_for(page, lambda p: state(p) == "live")
    # Gone after a reload: proves the page changed in place.
    page.execute_script("window.notReloaded = true;")


def state(page: webdriver.Chrome) -> str:
    value: str = page.execute_script(
        "return document.getElementById('connection').dataset.state || ''"
    )
    return value


def text(page: webdriver.Chrome, css: str) -> str:
    value: str = page.execute_script(
        "const el = document.querySelector(arguments[0]); return el ? el.textContent.trim() : ''",
        css,
    )
    return value


def wait_text(page: webdriver.Chrome, css: str, expected: str) -> float:
    """Seconds until the element at ``css`` reads ``expected``."""
    begin = time.monotonic()
    wait_for(page, lambda p: text(p, css) == expected)
    return time.monotonic() - begin


STANDINGS = """return [...document.querySelectorAll('#standings tbody tr')].map(tr =>
    [tr.dataset.player, tr.classList.contains('qualified'),
     ...[...tr.cells].map(td => td.textContent.trim())].join('|'))"""


def fetches(page: webdriver.Chrome, path: str = "") -> int:
    """Requests the page's script made so far (those whose URL path ends with ``path``)."""
    count: int = page.execute_script(
        "return performance.getEntriesByType('resource')"
        ".filter(e => e.initiatorType === 'fetch' && new URL(e.name).pathname.endsWith("
        "arguments[0])).length",
        path,
    )
    return count


def standings_reads(page: webdriver.Chrome) -> list[int]:
    """The HTTP status of each standings read the page's script made (200, or 304)."""
    statuses: list[int] = page.execute_script(
        "return performance.getEntriesByType('resource')"
        ".filter(e => e.initiatorType === 'fetch' && new URL(e.name).pathname.endsWith("
        "'/standings')).map(e => e.responseStatus)"
    )
    return statuses


def scores(page: webdriver.Chrome) -> list[str]:
    found: list[str] = page.execute_script(
        "return [...document.querySelectorAll('td.score')].map(td => td.textContent.trim())"
    )
    return found


def shown_matches(page: webdriver.Chrome) -> list[int]:
    ids: list[int] = page.execute_script(
        "return [...document.querySelectorAll('td.score')].map(td => +td.dataset.match)"
    )
    return ids


def standings(page: webdriver.Chrome) -> list[str]:
    rows: list[str] = page.execute_script(STANDINGS)
    return rows


def standings_as_served(page: webdriver.Chrome, base: str, evening: Evening) -> list[str]:
    """The standings of a fresh load of the page, in a second tab."""
    here = page.current_window_handle
    page.switch_to.new_window("tab")
    try:
        page.get(f"{base}/v1/tournaments/{evening.id}/live")
        return standings(page)
    finally:
        page.close()
        page.switch_to.window(here)


def still_the_same_page(page: webdriver.Chrome) -> bool:
    return bool(page.execute_script("return window.notReloaded === true"))


def test_results_rounds_corrections_withdrawals_and_the_final_phase_appear_live(
    page_server: str, page: webdriver.Chrome
) -> None:
    rng = random.Random(5)
    with ExitStack() as stack:
        base = page_server
        evening = stack.enter_context(start(base, players=8))
        first = evening.generate()
        open_live(page, base, evening)
        match = first["matches"][0]
        score = f'td.score[data-match="{match["id"]}"]'
        assert text(page, score) == ""

        evening.record(match["id"], 2, 1)  # result.recorded
        seconds = wait_text(page, score, "2–1")
        print(f"result shown {seconds:.3f} s after the PUT returned")

        evening.record(match["id"], 0, 3)  # result.corrected
        wait_text(page, score, "0–3")
        row = page.find_element("css selector", f'tr[data-key="match-{match["id"]}"]')
        assert "changed" in (row.get_attribute("class") or "").split()

        both = {"forfeit": "both"}  # a double forfeit: both players marked absent
        evening.call("PUT", f"/matches/{match['id']}/result", json=both)
        wait_text(page, score, "forfeit")
        marked = page.execute_script(
            "return [...arguments[0].querySelectorAll('td.home, td.away')]"
            ".map(td => td.classList.contains('absent'))",
            row,
        )
        assert marked == [True, True]
        evening.record(match["id"], 0, 3)
        wait_text(page, score, "0–3")

        redraws = fetches(page, "/live")
        evening.play(first, rng)  # boards from the events, the standings read again
        wait_for(page, lambda p: "" not in scores(p))
        played = evening.call("GET", "/rounds/1")["matches"]
        assert scores(page) == [f"{m['result']['home']}–{m['result']['away']}" for m in played]
        served = standings_as_served(page, base, evening)
        wait_for(page, lambda p: standings(p) == served)
        assert fetches(page, "/live") == redraws  # no redraw: read the standings, not the page
        assert 1 <= fetches(page, "/standings") <= 1 + len(played)

        second = evening.generate()  # round.generated
        wait_text(page, "#round h2", "Round 2")
        assert fetches(page, "/live") > redraws  # a new round is redrawn from the server
        boards = [int(m["id"]) for m in second["matches"]]
        shown = page.execute_script(
            "return [...document.querySelectorAll('td.score')].map(td => +td.dataset.match)"
        )
        assert shown == boards

        players = evening.call("GET", "/players")
        leaving = next(p for p in players if p["name"] == HOSTILE)
        evening.call("PATCH", f"/players/{leaving['id']}", json={"withdrawn": True})
        wait_text(page, f'tr[data-player="{leaving["id"]}"] .tag', "withdrawn")

        evening.play(second, rng)
        for _ in range(2):
            evening.play(evening.generate(), rng)
        phase = evening.final_phase()  # final_phase.started
        wait_for(page, lambda p: text(p, "#final-phase:not(.plan) .sf1 .nm") != "")
        names = {p["id"]: p["name"] for p in players}
        sf1 = phase["matches"][0]
        assert text(page, "#final-phase .sf1 .nm") == names[sf1["home"]]
        assert text(page, ".phase strong") == "Final phase"

        assert still_the_same_page(page)
        assert page.title.startswith("Thursday Cup")  # the hostile name ran no script
        assert page.execute_script("return document.querySelectorAll('main img').length") == 0


@pytest.mark.parametrize("groups", [False, True], ids=["one table", "two groups"])
def test_a_bulk_of_results_is_shown_with_one_conditional_standings_read(
    page_server: str, page: webdriver.Chrome, groups: bool
) -> None:
    """A request recording a whole round sends one small event per match, all with the batch's
    version: the page shows each board from its event and reads the standings (each group's)
    once, not once per event."""
    settings = {"groups": {"count": 2, "assignment": "seeded"}} if groups else {}
    with ExitStack() as stack:
        base = page_server
        evening = stack.enter_context(start(base, players=24, **settings))
        matches = evening.generate()["matches"]
        open_live(page, base, evening)
        results = [
            {"match_id": m["id"], "home": i % 4, "away": (i + 1) % 3} for i, m in enumerate(matches)
        ]
        evening.call("POST", "/results", json={"results": results})
        expected = {r["match_id"]: f"{r['home']}–{r['away']}" for r in results}
        wait_for(page, lambda p: scores(p) == [expected[m] for m in shown_matches(p)])
        served = standings_as_served(page, base, evening)
        assert len(served) == 24
        wait_for(page, lambda p: standings(p) == served)
        assert standings_reads(page) == [200] * (2 if groups else 1)
        assert fetches(page, "/live") == 0
        changed = page.execute_script(
            "return document.querySelectorAll('#standings tbody tr.changed').length"
        )
        assert changed == 24  # every player's figures moved: each row flashes
        assert still_the_same_page(page)


def test_the_page_shows_it_is_offline_and_catches_up_after_a_server_restart(
    database: str, page: webdriver.Chrome
) -> None:
    port = free_port()
    with ExitStack() as stack:
        server = ExitStack()
        base = server.enter_context(serve(database, port=port))
        evening = stack.enter_context(start(base, players=6))
        first = evening.generate()
        open_live(page, base, evening)

        server.close()  # SIGTERM: the server ends its streams and stops
        wait_for(page, lambda p: state(p) == "offline")
        assert text(page, "#connection") == "Offline · reconnecting…"

        # While the page's server is down, a result is recorded through another one.
        with serve(database) as elsewhere:
            evening.http.base_url = elsewhere
            match = first["matches"][1]
            evening.record(match["id"], 4, 0)

        with serve(database, port=port):
            wait_text(page, f'td.score[data-match="{match["id"]}"]', "4–0")
            wait_for(page, lambda p: state(p) == "live")
        assert still_the_same_page(page)


VIEWS = ("round", "standings")


def test_tv_mode_rotates_views_that_do_not_fit_and_pages_long_standings(page_server: str) -> None:
    base = page_server
    with start(base, players=40) as evening, chromium(1920, 1080) as tv:
        boards = [m["id"] for m in evening.generate()["matches"]]
        open_live(tv, base, evening, "?tv=1")
        wait_for(tv, lambda p: p.execute_script("return !!document.querySelector('main.rotating')"))

        seen: set[str] = set()
        last_result = [time.monotonic()]

        def slide(p: webdriver.Chrome) -> bool:
            # A result every 3 s meanwhile: redraws must not hold the 10 s rotation back.
            if boards and time.monotonic() - last_result[0] >= 3:
                evening.record(boards.pop(), 1, 0)
                last_result[0] = time.monotonic()
            shown = p.execute_script(
                "const v = document.querySelectorAll('main .view.shown');"
                "const fits = document.documentElement.scrollHeight <= innerHeight + 1;"
                "const page = v[0].querySelector('h2').dataset.page || '';"
                "return [v.length, v[0].dataset.view + ' ' + page, fits]"
            )
            assert shown[0] == 1 and shown[2], shown  # one view at a time, and it fits
            seen.add(shown[1])
            return all(every_page(view) for view in VIEWS)

        def every_page(view: str) -> bool:
            """Seen whole (``"round "``) or each of its pages (``"standings 1/3"``, …)."""
            if f"{view} " in seen:
                return True
            pages = {s.split(" ", 1)[1] for s in seen if s.startswith(view + " ")}
            if not pages:
                return False
            count = int(next(iter(pages)).split("/")[1])
            return {f"{n}/{count}" for n in range(1, count + 1)} <= pages

        # A slide every 10 s; 40 players' standings take more than one page.
        wait_for(tv, slide, limit=90)
        assert any(s.startswith("standings ") and "/" in s for s in seen), seen
        assert len(boards) < 17  # results kept coming while it rotated
        rows = tv.execute_script("return document.querySelectorAll('#standings tbody tr').length")
        assert rows == 40
        assert still_the_same_page(tv)


SHOWN_PAGE = """
const view = document.querySelector('main .view.shown');
const heading = view.querySelector('h2');
const rows = [...view.querySelectorAll('[data-item]')].filter(el => !el.classList.contains('off'));
return [view.dataset.view, rows.map(el => el.dataset.key),
        getComputedStyle(heading, '::after').content];
"""


def test_tv_pages_share_the_rows_evenly_and_show_their_number_in_the_heading(
    page_server: str,
) -> None:
    """40 players at 1920 × 1080: the round's 20 boards need two pages, cut 10 and 10 (not 19
    and 1), and the heading reads "1/2", "2/2" as docs/live.md promises."""
    base = page_server
    with start(base, players=40) as evening, chromium(1920, 1080) as tv:
        evening.generate()
        open_live(tv, base, evening, "?tv=1")
        wait_for(tv, lambda p: p.execute_script("return !!document.querySelector('main.rotating')"))
        pages: dict[str, tuple[int, str]] = {}  # first board shown -> (boards shown, ::after)

        def every_round_page(p: webdriver.Chrome) -> bool:
            view, keys, after = p.execute_script(SHOWN_PAGE)
            if view == "round":
                pages[keys[0]] = (len(keys), after)
            return sum(rows for rows, _ in pages.values()) >= 20

        wait_for(tv, every_round_page, limit=90)
        sizes = sorted(rows for rows, _ in pages.values())
        assert len(sizes) >= 2 and sum(sizes) == 20, pages
        assert sizes[-1] - sizes[0] <= 1, pages  # 10 and 10, not 19 and 1
        numbers = sorted(after.strip('" ') for _, after in pages.values())
        assert numbers == [f"{n}/{len(sizes)}" for n in range(1, len(sizes) + 1)], pages
        assert still_the_same_page(tv)


CUT_HEADERS = """
return [...document.querySelectorAll('#round thead th')]
  .filter(th => th.scrollWidth > th.clientWidth)
  .map(th => [th.textContent.trim(), th.scrollWidth, th.clientWidth]);
"""


def test_no_board_column_header_is_cut_on_a_phone_in_any_language(page_server: str) -> None:
    """390 px wide (a phone): "Risultato", "Výsledok", "Tav", … read whole above the boards."""
    base = page_server
    with start(base, players=16) as evening, chromium(390, 844) as phone:
        evening.generate()
        for language in ("en", "it", "sk", "cs"):
            phone.get(f"{base}/v1/tournaments/{evening.id}/live?lang={language}")
            wait_for(phone, lambda p: state(p) == "live")
            assert phone.execute_script(CUT_HEADERS) == [], language
