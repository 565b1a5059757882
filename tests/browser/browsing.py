"""What the browser tests share (fixtures imported by the test module: a conftest.py here would
shadow tests/conftest.py, which other tests import as `conftest`).

Debian's headless Chromium driven by Selenium through Debian's chromedriver (no
driver is downloaded), against bin/host-server's server on loopback, its stack on a virtual clock.

One Chromium for the whole session; one host server for the test module (its stack holds moto,
which is the process's: it is stopped before another module's test runs). Nothing sleeps: a wait
for an element is awaited in the page (`appears`), any other is WebDriverWait on a condition.
Screenshots go to test-output/screenshots/ (gitignored).
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
APPEARS = """
const [how, what, done] = arguments;
const find = () => how === 'xpath'
  ? document.evaluate(what, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue
  : document.querySelector(what);
const found = find();
if (found) { done(found); } else {
  const watch = new MutationObserver(() => {
    const now = find();
    if (now) { watch.disconnect(); done(now); }
  });
  watch.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
}
"""
"""Answers with the first element `what` finds (a CSS selector, or an XPath when `how` is "xpath")
once the page has one: looked for again at each change of the page, no timer."""


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


def waiting(driver: Any) -> Any:
    """A wait looking every 20 ms (Selenium's default, 500 ms, would be most of a page's time),
    looking again when a look lands mid-navigation ("aborted by navigation" on a loaded machine),
    for what `appears` cannot wait on in the page (a script's state, a thing gone)."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT_SECONDS, poll_frequency=0.02, ignored_exceptions=[WebDriverException])


def appears(driver: Any, how: str, what: str) -> Any:
    """The first element found by `how` (By.ID, By.CSS_SELECTOR or By.XPATH) and `what`, once the
    page has one: looked for once, then awaited in the page, woken by its changes, not looked for
    every few ms (each look is a round trip and work in Chromium). A navigation ends the page's
    wait: then the next page is asked. Chromium's script timeout bounds each ask; WAIT_SECONDS
    all of them."""
    from selenium.common.exceptions import TimeoutException, WebDriverException

    try:
        found = driver.find_elements(how, what)  # most often there at once: no script, no timer in the page
    except WebDriverException:  # asked mid-navigation
        found = []
    if found:
        return found[0]
    if how == "id":
        how, what = "css selector", f"[id='{what}']"
    deadline, said = time.monotonic() + WAIT_SECONDS, None
    while time.monotonic() < deadline:
        try:
            return driver.execute_async_script(APPEARS, how, what)
        except WebDriverException as error:  # the page left (a navigation), or the ask timed out
            said = error.msg
    raise TimeoutException(f"no {what!r} on the page within {WAIT_SECONDS} s (last: {said})")


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
