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

from tests.chromium import FLAGS
from tests.chromium import chromium as chromium_binary

T = TypeVar("T")
WEBDRIVER_FLAGS = ("--disable-dev-shm-usage", "--hide-scrollbars")
WAIT = 20.0
"""Seconds a test waits for the page to change (generous: the machine is shared)."""


def chromedriver() -> str:
    driver = shutil.which("chromedriver")
    if driver is None:
        message = "chromium-driver is not installed (apt-get install -y chromium-driver)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message + "; CI requires it")
    return driver


@contextmanager
def chromium(width: int, height: int, *, language: str = "en") -> Iterator[webdriver.Chrome]:
    """A headless Chromium with a ``width`` × ``height`` viewport."""
    browser, driver = chromium_binary(), chromedriver()
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in (*FLAGS, *WEBDRIVER_FLAGS):
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


def wait_for(
    session: webdriver.Chrome, condition: Callable[[webdriver.Chrome], T], *, limit: float = WAIT
) -> T:
    """Polls ``condition`` until it is truthy, at most ``limit`` seconds."""
    result: T = WebDriverWait(session, limit, poll_frequency=0.05).until(condition)
    return result
