"""Palindrome Construction's construction built by clicks only, in a real browser (headless
Chromium against bin/host-server's server, as test_pickers_in_browser.py): each step added by its
button, its operands chosen from the player's own digits and strings, the service's check shown
beside the step it refuses, then sent and taken. Worked by hand from RULINGS.md's Palindrome
section: Ada alone bids (card 9 on pack 1 "012", 8 on pack 2 "345", 5 on item 1, a Shift), so she
receives both packs and the Shift (the highest card nobody else played); round 1's construction
then has digits 0 1 2 3 4 5 to place. A Shift of 3 into 3 is refused (a different digit); 3 into 1
leaves 0 1 1 2 4 5, from which 1, 2, 1 go onto string 1: "121"."""

from __future__ import annotations

from typing import Any

from browsing import chromium, host_server, problems  # noqa: F401 - fixtures
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from test_pickers_in_browser import PALINDROME, ROUND_1_PACKS, card_on, opened, sent_lines, verdict, visit


def adder(browser: Any, words: str) -> Any:
    """The "Add a step" button whose words start with `words`."""
    found = [
        b for b in browser.find_elements(By.CSS_SELECTOR, "#build-steps .add-step button") if b.text.startswith(words)
    ]
    assert len(found) == 1, [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#build-steps .add-step button")]
    return found[0]


def choose(browser: Any, step: int, field: str, value: str) -> None:
    Select(browser.find_element(By.CSS_SELECTOR, f"#build-step-{step} select[data-field='{field}']")).select_by_value(
        value
    )


def resolve(server: Any, match_id: str) -> None:
    assert server.stack.host({"command": "resolve_now", "match_id": match_id})["ok"]
    server.stack.settle()


def test_a_construction_built_by_clicks_is_checked_step_by_step_and_taken(browser, server) -> None:
    settings = {"rule_set": "mm8", "packs": {"1": ROUND_1_PACKS}, "items": {"1": ["Shift"]}}
    match_id, secrets = opened(browser, server, "palindrome", PALINDROME, settings=settings, phase_seconds=86400)
    resolve(server, match_id)  # the pregame takes no move
    visit(browser, server, match_id, secrets["ada"], "#bid-table #bid-pack-10")
    for row, card in (("pack-1", 9), ("pack-2", 8), ("item-1", 5)):
        card_on(browser, row, card).click()
    assert verdict(browser, "move-bid", "true").startswith("\u2713 Legal")
    assert sent_lines(browser, "bid", "pick-palindrome-bid-again") == [
        "CARD 5 ITEM 1",
        "CARD 8 PACK 2",
        "CARD 9 PACK 1",
    ]
    resolve(server, match_id)  # round 1's bidding over: Ada has both packs and the Shift
    visit(browser, server, match_id, secrets["ada"], "#build-steps .add-step button")
    assert browser.find_element(By.ID, "phase-name").text == "Round 2 bidding and round 1 construction"
    adder(browser, "Shift a digit (your Shift)").click()
    choose(browser, 1, "digit", "3")
    choose(browser, 1, "to", "3")
    verdict(browser, "move-construction", "false")
    said = browser.find_element(By.ID, "build-step-1-said").text
    assert "into a different one, not 3 into 3" in said, said
    choose(browser, 1, "to", "1")
    adder(browser, "Place digits").click()
    assert not [b for b in browser.find_elements(By.CSS_SELECTOR, "#build-steps .add-step button") if "Shift" in b.text]
    for digit in "121":  # the list is drawn anew after each click: each button found afresh
        browser.find_element(By.CSS_SELECTOR, f"#build-step-2 button[aria-label='Place a {digit}']").click()
    assert verdict(browser, "move-construction", "true").startswith("\u2713 Legal")
    assert browser.find_element(By.ID, "build-step-1-said").text == ""
    # The order matters: placed first, 1 2 1 needs two 1s of 0 1 2 3 4 5 (the Shift has not made
    # the second yet): refused beside the placing, now step 1; moved back below the Shift, legal.
    browser.find_element(By.CSS_SELECTOR, "#build-step-2 button[aria-label='Move step 2 up']").click()
    verdict(browser, "move-construction", "false")
    said = browser.find_element(By.ID, "build-step-1-said").text
    assert "1 not among this round's unplaced digits" in said, said
    browser.find_element(By.CSS_SELECTOR, "#build-step-2 button[aria-label='Move step 2 up']").click()
    assert verdict(browser, "move-construction", "true").startswith("\u2713 Legal")
    after = browser.find_element(By.ID, "build-after").text
    assert after == "After these steps: string 1 121, string 2 empty, string 3 empty; left unplaced: 0 4 5.", after
    assert sent_lines(browser, "construction", "build-palindrome") == ["SHIFT 3 TO 1", "APPEND 121 TO 1"]
    # Sent: the page comes back with the construction as it stands, read back into the steps.
    assert [li.get_attribute("data-action") for li in browser.find_elements(By.CSS_SELECTOR, "#build-steps li")] == [
        "shift",
        "append",
    ]
    assert problems(browser) == []


def test_after_an_insert_the_placing_offers_where_in_the_string(browser, server) -> None:
    # Ada receives packs 1 and 2 (digits 0 1 2 3 4 5) and an Insert. Insert on string 1; 1 2 at its
    # end ("12"); then 0 at position 1 (before the first digit: "012"), which only an Insert allows.
    settings = {"rule_set": "mm8", "packs": {"1": ROUND_1_PACKS}, "items": {"1": ["Insert"]}}
    match_id, secrets = opened(browser, server, "palindrome", PALINDROME, settings=settings, phase_seconds=86400)
    resolve(server, match_id)
    visit(browser, server, match_id, secrets["ada"], "#bid-table #bid-pack-10")
    for row, card in (("pack-1", 9), ("pack-2", 8), ("item-1", 5)):
        card_on(browser, row, card).click()
    assert sent_lines(browser, "bid", "pick-palindrome-bid-insert") == [
        "CARD 5 ITEM 1",
        "CARD 8 PACK 2",
        "CARD 9 PACK 1",
    ]
    resolve(server, match_id)
    visit(browser, server, match_id, secrets["ada"], "#build-steps .add-step button")
    adder(browser, "Insert into a string (your Insert)").click()
    adder(browser, "Place digits").click()
    for digit in "12":
        browser.find_element(By.CSS_SELECTOR, f"#build-step-2 button[aria-label='Place a {digit}']").click()
    adder(browser, "Place digits").click()
    browser.find_element(By.CSS_SELECTOR, "#build-step-3 button[aria-label='Place a 0']").click()
    choose(browser, 3, "position", "1")
    assert verdict(browser, "move-construction", "true").startswith("\u2713 Legal")
    after = browser.find_element(By.ID, "build-after").text
    assert after.startswith("After these steps: string 1 012, string 2 empty"), after
    assert sent_lines(browser, "construction", "build-palindrome-insert") == [
        "INSERT 1",
        "APPEND 12 TO 1",
        "APPEND 0 TO 1 AT 1",
    ]
    assert problems(browser) == []
