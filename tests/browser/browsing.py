"""What the browser tests share (fixtures imported by the test module: a conftest.py here would
shadow tests/conftest.py, which other tests import as `conftest`).

Debian's headless Chromium driven by Selenium through Debian's chromedriver (no
driver is downloaded), against bin/host-server's server on loopback, its stack on a virtual clock.

One Chromium for the whole session; one host server for the test module (its stack holds moto,
which is the process's: it is stopped before another module's test runs). Nothing sleeps: each
wait is WebDriverWait on a condition. Screenshots go to test-output/screenshots/ (gitignored).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from local_stack.aws.clock import VirtualClock
from local_stack.laptop.server import HostServer

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-output" / "screenshots"
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
START = datetime(2026, 12, 1, 12, tzinfo=UTC)
DESKTOP, PHONE = 1280, 360
"""The widths each page is looked at (a laptop, a small phone)."""
BROWSER_ZONE = "Asia/Tokyo"
WAIT_SECONDS = 20
"""The longest a condition is waited for (a page load on a loaded machine)."""


def _missing() -> list[str]:
    return [path for path in (CHROMIUM, CHROMEDRIVER) if shutil.which(path) is None]


@pytest.fixture(scope="session", name="browser")
def chromium() -> Iterator[Any]:
    """Headless Chromium, its console kept (`problems`)."""
    missing = _missing()
    if missing:
        pytest.skip(f"{' and '.join(missing)} not installed: bin/setup --browser (bin/test does) installs them")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--lang=en-US"):
        options.add_argument(argument)
    options.add_argument(f"--window-size={DESKTOP},900")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # The browser lives in Tokyo: the page gives the deadline in the browser's own zone.
    service = Service(CHROMEDRIVER, env={**os.environ, "TZ": BROWSER_ZONE})
    driver = webdriver.Chrome(options=options, service=service)
    driver.implicitly_wait(0)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module", name="server")
def host_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostServer]:
    """bin/host-server's server on free loopback ports, every game, on a virtual clock from START;
    the process environment its stack sets is restored after."""
    from game_core.aws.wiring import ports_from_environment

    saved = dict(os.environ)
    hosted = HostServer(tmp_path_factory.mktemp("host-data"), port=0, clock=VirtualClock(START))
    hosted.__enter__()
    try:
        yield hosted
    finally:
        hosted.__exit__()
        ports_from_environment.cache_clear()
        os.environ.clear()
        os.environ.update(saved)
        time.tzset()


def problems(driver: Any) -> list[str]:
    """What the browser's console said at SEVERE level since last read (a script error, a
    resource refused, a Content-Security-Policy violation), each message whole."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def screenshot(driver: Any, name: str, width: int) -> Path:
    """The whole page at `width` pixels wide, as test-output/screenshots/<name>-<width>.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver.set_window_size(width, 900)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, max(900, min(int(height), 6000)))
    path = SCREENSHOTS / f"{name}-{width}.png"
    driver.save_screenshot(str(path))
    driver.set_window_size(DESKTOP, 900)
    return path
