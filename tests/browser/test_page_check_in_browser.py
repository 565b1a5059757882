"""Moves made on the drawing and checked before they are sent, in a real browser (headless
Chromium against bin/host-server's server, as tests/browser/test_pages.py): in Pushing Crates'
round, a push is picked on the track (a crate's arrow, by click and by keyboard), written into the
round form, and the service's check says beside the form whether it is legal; a fourth push with
no garnet is said not to be (RULINGS: up to 3 pushes a round, one more per garnet spent)."""

from __future__ import annotations

from typing import Any

from browsing import appears, chromium, host_server, problems  # noqa: F401 - fixtures
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

CRATES = [{"id": "ada", "name": "Ada"}, {"id": "bo", "name": "Bo"}]
MULTIPLIERS = {"ada": [2, 1, 1, 0, -1, -1], "bo": [-1, -1, 0, 1, 1, 2]}


def verdict(driver: Any, legal: str) -> str:
    """The check's words under the round form, once it says `legal` ("true"/"false")."""
    box = appears(driver, By.CSS_SELECTOR, f"#move-round-check[data-legal='{legal}']")
    return str(box.text)


def test_pushes_picked_on_the_track_fill_the_round_form_and_are_checked(browser, server) -> None:
    reply = server.stack.host(
        {
            "command": "create",
            "match": {"game": "crates", "players": CRATES, "phase_seconds": 86400, "early_close": True},
        }
    )
    assert reply["ok"], reply
    match_id, secrets = reply["match_id"], reply["secrets"]
    server.stack.settle()
    for player, order in MULTIPLIERS.items():  # the pregame by webhook (it closes early): round 1 is looked at
        body = {"phase": "Pregame", "kind": "multipliers", "submission": {"multipliers": order}}
        assert server.stack.submit(match_id, player, secrets[player], body)[0] == 200, player
    server.stack.settle()
    problems(browser)
    browser.delete_all_cookies()
    browser.get("about:blank")
    browser.get(f"http://127.0.0.1:{server.port}/play/{match_id}#{secrets['ada']}")
    appears(browser, By.CSS_SELECTOR, "g.push[data-crate='bo'][data-direction='left']")
    assert browser.find_element(By.ID, "phase-name").text == "Round 1"
    left_bo = browser.find_element(By.CSS_SELECTOR, "g.push[data-crate='bo'][data-direction='left']")
    assert left_bo.get_attribute("aria-label") == "Push Bo's crate left"
    left_bo.click()
    # Written into the round form's first row, and checked: one push is within the three of a round.
    assert browser.find_element(By.ID, "move-round-pushes-0-crate").get_attribute("value") == "bo"
    assert browser.find_element(By.ID, "move-round-pushes-0-direction").get_attribute("value") == "left"
    assert verdict(browser, "true").startswith("\u2713 Legal")
    assert browser.find_element(By.ID, "push-said").text == "Push 1: Bo's crate left."
    # By keyboard: her own crate right, three times: four pushes, one more than a round's three, and
    # Ada holds no garnet to pay for it.
    own_right = browser.find_element(By.CSS_SELECTOR, "g.push[data-crate='ada'][data-direction='right']")
    assert own_right.get_attribute("aria-label") == "Push your crate right"
    for _ in range(3):
        browser.execute_script("arguments[0].focus()", own_right)
        own_right.send_keys(Keys.ENTER)
    assert browser.find_element(By.ID, "move-round-pushes-3-crate").get_attribute("value") == "ada"
    said = verdict(browser, "false")
    assert "but your balance is 0" in said and "pushes.3" not in said
    assert server.stack.host({"command": "status", "match_id": match_id})["open"]["waiting_for"] == ["ada", "bo"]
    # Pushes picked on the track are writing in the form: a minute on, the page's own reload (which
    # would lose them) does not come.
    browser.execute_script("window.marker = 1; var now = Date.now; Date.now = () => now() + 61000;")
    browser.execute_script("document.dispatchEvent(new Event('visibilitychange'))")
    assert browser.execute_script("return window.marker") == 1
    assert browser.find_element(By.ID, "move-round-pushes-0-crate").get_attribute("value") == "bo"
    assert problems(browser) == []
