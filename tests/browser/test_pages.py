"""The pages in a real browser (headless Chromium), against bin/host-server's server on loopback
with its stack on a virtual clock: the host's page (log in, read, act, confirm). Every page is
also looked at for what its console says: no script error, no resource or inline code refused
by its Content-Security-Policy.

Tests run in this order on one server whose clock starts at START (Tuesday 1 December 2026,
12:00 UTC); only the last ones move it.
"""

from __future__ import annotations

from typing import Any

from browsing import DESKTOP, PHONE, WAIT_SECONDS, chromium, host_server, problems, screenshot  # noqa: F401 - fixtures
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as shown
from selenium.webdriver.support.ui import WebDriverWait

from local_stack.host_server import HostServer

CRATES = [{"id": "ada", "name": "Ada"}, {"id": "bo", "name": "Bo"}, {"id": "cy", "name": "Cy"}]


def create(server: HostServer, game: str, players: list[dict[str, Any]], **match: Any) -> dict[str, Any]:
    """A match created as `match-host create` does, its machine parked in the first phase's wait."""
    reply = server.stack.host({"command": "create", "match": {"game": game, "players": players, **match}})
    assert reply["ok"], reply
    server.stack.settle()
    return reply


def wait_for(driver: Any, locator: tuple[str, str]) -> Any:
    return WebDriverWait(driver, WAIT_SECONDS).until(shown.presence_of_element_located(locator))


def described(section: Any) -> dict[str, str]:
    """A match's <dl> on the host's page as term -> description."""
    terms = section.find_elements(By.CSS_SELECTOR, "dl > dt")
    return {term.text: term.find_element(By.XPATH, "following-sibling::dd[1]").text for term in terms}


def send_command(driver: Any, section_id: str, title: str, **fields: str) -> None:
    """Open a command of a match on the host's page, fill its fields, send it."""
    section = driver.find_element(By.ID, section_id)
    summary = section.find_element(By.XPATH, f".//details/summary[text()='{title}']")
    summary.click()
    form = summary.find_element(By.XPATH, "following-sibling::form")
    for name, value in fields.items():
        form.find_element(By.NAME, name).send_keys(value)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()


def test_the_host_logs_in_reads_who_owes_and_acts_confirming_what_cannot_be_undone(browser, server) -> None:
    match_id = create(server, "crates", CRATES, phase_seconds=86400)["match_id"]
    section_id = f"match-{match_id}"
    problems(browser)  # what earlier pages said is not this test's
    browser.get(f"http://127.0.0.1:{server.host_port}/")
    wait_for(browser, (By.ID, "token")).send_keys(server.host_token)
    browser.find_element(By.CSS_SELECTOR, "form[action='/login'] button").click()
    section = wait_for(browser, (By.ID, section_id))
    # Created at START (12:00 UTC on Tuesday 1 December), a day a phase: the Pregame closes at
    # noon on Wednesday; all three owe their multipliers.
    assert described(section) | {"Game": "crates"} == {
        "Game": "crates",
        "Status": "running",
        "Phase": "Pregame (phase 1)",
        "Deadline": "Wednesday 2 December, 12:00 UTC, in 1 day",
        "Waiting for": "Ada: multipliers; Bo: multipliers; Cy: multipliers",
    }
    for width in (DESKTOP, PHONE):
        screenshot(browser, "host", width)

    send_command(browser, section_id, "Extend", seconds="3600")
    wait_for(browser, (By.XPATH, "//h1[text()='Extend: are you sure?']"))
    assert server.stack.host({"command": "status", "match_id": match_id})["open"]["deadline"] == "2026-12-02T12:00:00Z"
    browser.find_element(By.XPATH, "//button[text()='Yes: extend']").click()
    wait_for(browser, (By.XPATH, "//p[text()='Done.']"))
    browser.find_element(By.LINK_TEXT, "Back to the matches").click()
    section = wait_for(browser, (By.ID, section_id))
    assert described(section)["Deadline"] == "Wednesday 2 December, 13:00 UTC, in 1 day 1 hour"  # an hour more

    send_command(browser, section_id, "Pause")  # undone by resume: taken at once
    wait_for(browser, (By.XPATH, "//p[text()='Done.']"))
    browser.get(f"http://127.0.0.1:{server.host_port}/")
    assert described(wait_for(browser, (By.ID, section_id)))["Paused"] == "yes"
    assert problems(browser) == []


def test_a_form_on_another_page_cannot_drive_the_hosts_page(browser, server) -> None:
    """Even with the page's form token in hand, a form posted from elsewhere (here a data: page,
    Origin null) while the host is logged in is refused: Chromium sends no SameSite=Strict cookie
    from another site, and the port refuses a foreign Origin."""
    match_id = create(server, "crates", CRATES, phase_seconds=86400)["match_id"]
    browser.get(f"http://127.0.0.1:{server.host_port}/")
    section = wait_for(browser, (By.ID, f"match-{match_id}"))  # logged in: the first test's session
    csrf = section.find_element(By.NAME, "csrf").get_attribute("value")
    fields = {"csrf": csrf, "match_id": match_id, "command": "pause"}
    inputs = "".join(f"<input type=hidden name={name} value={value}>" for name, value in fields.items())
    action = f"http://127.0.0.1:{server.host_port}/command"
    browser.get(f"data:text/html,<form method=post action='{action}'>{inputs}<button id=go>go</button></form>")
    browser.find_element(By.ID, "go").click()
    wait_for(browser, (By.XPATH, "//h1[text()='Forbidden']"))
    assert server.stack.host({"command": "status", "match_id": match_id})["open"]["paused"] is False
    problems(browser)  # the refused page's 403 is logged as a failed load: expected here
