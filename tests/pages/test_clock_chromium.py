"""The round clock on the live page in a real browser against the real server: it appears when
the organizer starts it, pauses, resumes and ends from the events (no redraw), and counts down
to 0:00 and says time is up, on the TV and on a phone.

Every step waits for the page to change (``browser.WAIT``); no fixed sleeps. Screenshots go to
the test's temporary directory (``--basetemp`` to keep them).
"""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Any

from selenium import webdriver

from tests.pages.browser import chromium, wait_for
from tests.pages.evening import Evening, start
from tests.pages.test_live_chromium import fetches, open_live, still_the_same_page, text

# Every text the clock's digits showed, in order (a MutationObserver in the page keeps them).
RECORD_TIMES = """
window.clockTimes = [];
const digits = document.querySelector('#clock .time');
new MutationObserver(() => {
  const shown = digits.textContent;
  if (window.clockTimes[window.clockTimes.length - 1] !== shown) window.clockTimes.push(shown);
}).observe(digits, {childList: true, characterData: true, subtree: true});
"""


CLOCK_STATE = """const el = document.getElementById('clock');
return el.hidden ? 'hidden' : el.dataset.state"""


def clock(evening: Evening, action: str, **more: Any) -> dict[str, Any]:
    answer: dict[str, Any] = evening.call(
        "POST", "/rounds/1/clock", json={"action": action, **more}
    )
    return answer


def state(page: webdriver.Chrome) -> str:
    found: str = page.execute_script(CLOCK_STATE)
    return found


def seconds(shown: str) -> int:
    parts = [int(part) for part in shown.split(":")]
    return sum(part * 60**power for power, part in enumerate(reversed(parts)))


def test_the_clock_counts_down_on_the_tv_and_stops_at_zero(
    page_server: str, tmp_path: Path
) -> None:
    with ExitStack() as stack:
        base = page_server
        evening = stack.enter_context(start(base, players=8, round_duration=600))
        evening.generate()
        page = stack.enter_context(chromium(1920, 1080))
        open_live(page, base, evening, "?tv=1")
        assert state(page) == "hidden"  # not started: nothing shown
        redraws = fetches(page, "/live")

        clock(evening, "start")  # the tournament's round_duration: 10 minutes
        wait_for(page, lambda p: state(p) == "running")
        assert seconds(text(page, "#clock .time")) in (599, 600)
        assert text(page, "#clock .word") == "Round time"
        page.save_screenshot(str(tmp_path / "clock-running-tv.png"))

        paused = clock(evening, "pause")
        wait_for(page, lambda p: state(p) == "paused")
        assert text(page, "#clock .word") == "Clock paused"
        left = (paused["remaining_ms"] + 999) // 1000
        assert seconds(text(page, "#clock .time")) == left
        clock(evening, "resume")
        wait_for(page, lambda p: state(p) == "running")
        clock(evening, "end")
        wait_for(page, lambda p: state(p) == "ended")
        assert text(page, "#clock .word") == "Clock stopped"
        # each action came with its event, applied in place: the page was not read again
        assert fetches(page, "/live") == redraws
        assert still_the_same_page(page)

        page.execute_script(RECORD_TIMES)
        clock(evening, "start", duration=3)
        wait_for(page, lambda p: state(p) == "up")
        assert text(page, "#clock .time") == "0:00"
        assert text(page, "#clock .word") == "Time is up"
        page.save_screenshot(str(tmp_path / "clock-up-tv.png"))
        shown = page.execute_script("return window.clockTimes")
        # counted down second by second from the start's 3 s (the first may be missed while
        # the event travels), and stopped at 0:00
        assert shown[-1] == "0:00"
        counted = [seconds(s) for s in shown]
        assert counted[0] in (2, 3) and all(0 <= s <= 3 for s in counted)
        assert counted == list(range(counted[0], -1, -1)), shown
        # the round goes on: the server says time is up too, and the clock still runs
        read = evening.call("GET", "/rounds/1/clock")
        assert (read["state"], read["remaining_ms"], read["time_up"]) == ("running", 0, True)
        assert fetches(page, "/live") == redraws

        # a phone opened now reads the clock as it is: time up
        phone = stack.enter_context(chromium(390, 844))
        open_live(phone, base, evening)
        wait_for(phone, lambda p: state(p) == "up")
        assert text(phone, "#clock .time") == "0:00"
        phone.save_screenshot(str(tmp_path / "clock-up-phone.png"))
