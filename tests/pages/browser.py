"""Headless Chromium driven by Selenium through Debian's ``chromium-driver`` (no browser
download): ``.ci/run`` installs both. Skipped only where they are missing on a developer's
machine; in CI (``CI`` set) a missing browser fails the test."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

T = TypeVar("T")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
)
WAIT = 20.0
"""Seconds a test waits for the page to change (generous: the machine is shared)."""


def binaries() -> tuple[str, str]:
    browser = shutil.which("chromium")
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        message = (
            "chromium and chromium-driver are needed (apt-get install chromium chromium-driver)"
        )
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message + "; CI requires them")
    return browser, driver


@contextmanager
def chromium(width: int, height: int, *, language: str = "en") -> Iterator[webdriver.Chrome]:
    """A headless Chromium with a ``width`` × ``height`` viewport."""
    browser, driver = binaries()
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--window-size={width},{height}")
    options.add_argument(f"--lang={language}")
    session = webdriver.Chrome(options=options, service=Service(executable_path=driver))
    # The window has a frame; the page gets exactly width × height (a phone: a mobile viewport).
    session.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )
    try:
        yield session
    finally:
        session.quit()


def wait_for(session: webdriver.Chrome, condition: Callable[[webdriver.Chrome], T]) -> T:
    """Polls ``condition`` until it is truthy, at most ``WAIT`` seconds."""
    result: T = WebDriverWait(session, WAIT, poll_frequency=0.05).until(condition)
    return result
