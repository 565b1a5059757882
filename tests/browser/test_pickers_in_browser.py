"""Moves picked by clicks only, in a real browser (headless Chromium against bin/host-server's
server, as tests/browser/test_page_check_in_browser.py): Palindrome Construction's bid in the table
of the round's packs and items, and Puzzler's Clubs' draft as six cards put in order; each checked
by the service as it is picked (reasons beside the row), then sent and taken."""

from __future__ import annotations

from typing import Any

from accessibility import axe_source, serious_violations
from browsing import appears, chromium, host_server, problems, screenshot  # noqa: F401 - fixtures
from selenium.webdriver.common.by import By

PALINDROME = [{"id": "ada", "name": "Ada", "garnets": 1}, {"id": "bo", "name": "Bo"}]
ROUND_1_PACKS = ["012", "345", "678", "901", "234", "567", "890", "123", "456", "789"]
"""Round 1's ten packs of three, fixed: every digit 0-9 at least twice (mm8)."""


def verdict(driver: Any, form: str, legal: str) -> str:
    """The check's words under the form, once it says `legal` ("true"/"false")."""
    box = appears(driver, By.CSS_SELECTOR, f"#{form}-check[data-legal='{legal}']")
    return str(box.text)


def opened(browser: Any, server: Any, game: str, players: list[dict[str, Any]], **match: Any) -> tuple[str, Any]:
    reply = server.stack.host({"command": "create", "match": {"game": game, "players": players, **match}})
    assert reply["ok"], reply
    server.stack.settle()
    return reply["match_id"], reply["secrets"]


def visit(browser: Any, server: Any, match_id: str, secret: str, ready: str) -> None:
    problems(browser)
    browser.delete_all_cookies()
    browser.get("about:blank")
    browser.get(f"http://127.0.0.1:{server.port}/play/{match_id}#{secret}")
    appears(browser, By.CSS_SELECTOR, ready)


def sent_lines(browser: Any, kind: str, shot: str) -> list[str]:
    """The form of `kind` sent (a screenshot `shot` at 390 px first, and the page with its picker
    filled in held to axe-core: no serious or critical violation): what the page says was sent."""
    screenshot(browser, shot, 390)
    browser.set_window_size(390, 844)  # a phone: the page with its picker never scrolls sideways
    wide = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    browser.set_window_size(1280, 900)
    assert wide[0] <= wide[1], wide
    assert serious_violations(browser, axe_source()) == []
    browser.find_element(By.CSS_SELECTOR, f"#move-{kind} button[type=submit]").click()
    appears(browser, By.ID, f"sent-{kind}")
    return list(browser.find_element(By.ID, f"sent-{kind}").text.splitlines())


def card_on(browser: Any, row: str, card: int) -> Any:
    return browser.find_element(By.CSS_SELECTOR, f"#bid-{row} button[data-card='{card}']")


def test_a_palindrome_bid_made_by_clicks_in_the_table_is_checked_row_by_row_and_taken(browser, server) -> None:
    settings = {"rule_set": "mm8", "packs": {"1": ROUND_1_PACKS}, "items": {"1": ["Mirror"]}}
    match_id, secrets = opened(browser, server, "palindrome", PALINDROME, settings=settings, phase_seconds=86400)
    assert server.stack.host({"command": "resolve_now", "match_id": match_id})["ok"]  # the pregame takes no move
    server.stack.settle()
    visit(browser, server, match_id, secrets["ada"], "#bid-table #bid-pack-10")
    assert browser.find_element(By.ID, "phase-name").text == "Round 1 bidding"
    assert browser.find_element(By.CSS_SELECTOR, "#bid-pack-3 th").text.replace("\n", " ") == "Pack 3 6 7 8"
    # A click on the drawn table's row of pack 2 leads to its row of the bid table (its first card focused).
    drawn = browser.find_element(By.CSS_SELECTOR, "svg g[data-pack='2'] > text")
    drawn.click()
    assert browser.switch_to.active_element == card_on(browser, "pack-2", 0)
    card_on(browser, "pack-3", 9).click()
    card_on(browser, "pack-7", 9).click()  # a card is used once: 9 moves from pack 3 to pack 7
    card_on(browser, "pack-1", 4).click()
    card_on(browser, "item-1", 5).click()
    card_on(browser, "item-1", 2).click()
    assert card_on(browser, "pack-3", 9).get_attribute("aria-pressed") == "false"
    assert card_on(browser, "pack-7", 9).get_attribute("aria-pressed") == "true"
    # Item 1 (Mirror): cards 2 and 5, sum 7 (the rules: an item goes to the highest sum).
    assert browser.find_element(By.CSS_SELECTOR, "#bid-item-1 .mine").text == "Your cards 2, 5: sum 7"
    assert verdict(browser, "move-bid", "true").startswith("\u2713 Legal")
    # Two garnets on the item: each +5 in mm8, but Ada holds 1 garnet: refused beside the item's row.
    plus = browser.find_element(By.CSS_SELECTOR, "#bid-item-1 .garnets button:last-child")
    plus.click()
    plus.click()
    assert browser.find_element(By.CSS_SELECTOR, "#bid-item-1 .mine").text == "Your cards 2, 5: sum 17"
    verdict(browser, "move-bid", "false")
    said = browser.find_element(By.ID, "bid-item-1-said").text
    assert "balance is 1" in said, said
    browser.find_element(By.CSS_SELECTOR, "#bid-item-1 .garnets button:first-child").click()  # one garnet: +5
    assert verdict(browser, "move-bid", "true").startswith("\u2713 Legal: it would spend 1 garnet")
    assert browser.find_element(By.ID, "bid-item-1-said").text == ""
    sent = sent_lines(browser, "bid", "pick-palindrome")
    assert sent == ["CARD 2 ITEM 1", "CARD 4 PACK 1", "CARD 5 ITEM 1", "CARD 9 PACK 7", "GARNETS 1"]
    # The board draws the bid as it stands, on the table's rows (sealed: Ada's alone).
    row = browser.find_element(By.CSS_SELECTOR, "svg g[data-mark='pack-1-7']")
    assert "9" in [t.text for t in row.find_elements(By.CSS_SELECTOR, "text")]
    assert problems(browser) == []


CLUBS = [
    {"id": seat, "name": name, "guests": [{"id": f"{seat}-guest", "name": f"{name}'s guest"}]}
    for seat, name in (("ada", "Ada"), ("bo", "Bo"), ("cy", "Cy"))
]


def test_a_clubs_draft_chosen_and_put_in_order_by_clicks_is_checked_beside_each_card_and_taken(browser, server) -> None:
    match_id, secrets = opened(browser, server, "clubs", CLUBS, phase_seconds=86400)
    visit(browser, server, match_id, secrets["ada"], "#draft-picker .deck button")
    out = browser.find_element(By.CSS_SELECTOR, "svg g[data-out-of-draft]").get_attribute("data-out-of-draft").split()
    offered = [
        b.get_attribute("aria-label") for b in browser.find_elements(By.CSS_SELECTOR, "#draft-picker .deck button")
    ]
    # 52 cards less the community card and six hole cards (never clubs, out of the draft): 45 offered.
    assert len(out) == 7 and len(offered) == 45
    spades = browser.find_elements(By.CSS_SELECTOR, "#draft-picker .cards[aria-label='spades'] button")[:3]
    hearts = browser.find_elements(By.CSS_SELECTOR, "#draft-picker .cards[aria-label='hearts'] button")[:2]
    club = browser.find_elements(By.CSS_SELECTOR, "#draft-picker .cards[aria-label='clubs'] button")[-1]  # the ace
    for one in [*spades, *hearts, club]:
        one.click()
    # In Round 1's Phase A no puzzle is solved yet: a club has no token to name (RULINGS: each club
    # drafted names one of the participant's unused tokens): said beside the club, priority 6.
    verdict(browser, "move-draft", "false")
    # (awaited: a check of the cards clicked so far, sent while a slow machine clicks on, may say
    # "false" before the check of all six does)
    said = appears(browser, By.XPATH, "//*[@id='draft-pick-6-said'][normalize-space()]")
    assert "AC is a club: name one of your unused tokens" in said.text
    club.click()  # taken back
    diamond = browser.find_elements(By.CSS_SELECTOR, "#draft-picker .cards[aria-label='diamonds'] button")[-1]
    diamond.click()
    # The diamond came last: moved up to priority 1 by its up button, five times, by keyboard focus.
    for at in range(6, 1, -1):
        browser.find_element(By.CSS_SELECTOR, f"#draft-pick-{at} button.up").click()
    first = browser.find_element(By.ID, "draft-pick-1").text
    assert "priority 1" in first and "diamonds" in first
    card = browser.find_element(By.ID, "move-draft-picks-0-card").get_attribute("value")
    assert (
        card.endswith("D") and browser.find_element(By.ID, "move-draft-picks-0-priority").get_attribute("value") == "1"
    )
    assert verdict(browser, "move-draft", "true").startswith("\u2713 Legal")
    assert browser.find_element(By.ID, "draft-pick-6-said").text == ""
    sent = sent_lines(browser, "draft", "pick-clubs")
    assert sent[0] == f"PICK {card} 1" and len(sent) == 6
    # Phase A resolved: Phase B's build from the community card, the hole card and the cards won.
    assert server.stack.host({"command": "resolve_now", "match_id": match_id})["ok"]
    server.stack.settle()
    visit(browser, server, match_id, secrets["ada"], "#build-picker button")
    usable = browser.find_element(By.CSS_SELECTOR, "svg g[data-usable]").get_attribute("data-usable").split()
    assert out[0] in usable  # the community card is everyone's to build with
    for one in browser.find_elements(By.CSS_SELECTOR, "#build-picker .cards button")[:2]:
        one.click()
    assert verdict(browser, "move-build", "true").startswith("\u2713 Legal")
    assert browser.find_element(By.ID, "move-build-cards").get_attribute("value") == " ".join(usable[:2])
    assert sent_lines(browser, "build", "pick-clubs-build") == [f"BUILD {' '.join(usable[:2])}"]
    # The guesses: for Bo's guest, the ace and king of spades (any card may be guessed).
    appears(browser, By.CSS_SELECTOR, "#guess-picker button[data-participant]")
    whom = [
        b.get_attribute("data-participant")
        for b in browser.find_elements(By.CSS_SELECTOR, "#guess-picker button[data-participant]")
    ]
    assert "ada" not in whom and sorted(whom) == ["ada-guest", "bo", "bo-guest", "cy", "cy-guest"]
    browser.find_element(By.CSS_SELECTOR, "#guess-picker button[data-participant='bo-guest']").click()
    for card in ("A\u2660, ace of spades", "K\u2660, king of spades"):
        browser.find_element(By.CSS_SELECTOR, f"#guess-picker .deck button[aria-label='{card}']").click()
    assert browser.find_element(By.ID, "guess-bo-guest").text.startswith("Bo's guest: ace of spades, king of spades")
    assert verdict(browser, "move-guess", "true").startswith("\u2713 Legal")
    assert sent_lines(browser, "guess", "pick-clubs-guess") == ["GUESS bo-guest AS KS"]
    assert problems(browser) == []
