"""Moves made on the drawing by clicks alone, in a real browser (headless Chromium against
bin/host-server's server, as tests/browser/test_pages.py), checked by the service before they are
sent and then sent and taken: a Domino Auction placement (pieces chosen in the tray, turned, put on
the own board's cells); Abstrac's laying (cards not yet laid, clicked in order) and a deal's take
(the last card taken, clicked at the top of the line).

Expected verdicts are worked from RULINGS.md: Domino Auction's tiles won are placed in the next
round, inside the grid, on no covered cell and, after the first, touching the player's cells (all
of them one orthogonally connected group); Abstrac lays 1-3 unused cards at the back of the row,
and takes 1-3 from the front of the row or the top of the line.
"""

from __future__ import annotations

from typing import Any

from browsing import DESKTOP, PHONE, appears, chromium, host_server, problems, screenshot, waiting  # noqa: F401 - fixtures
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from local_stack.laptop.server import HostServer

PLAYERS = [{"id": "ada", "name": "Ada"}, {"id": "bo", "name": "Bo"}]
ROUND_1_TILES = ["L4", "I3"] + ["O4"] * 18
"""Domino's first auction as the host sets it: tile 1 an L4 (drawn as cells (0,0) (1,0) (2,0)
(2,1): three down and a foot to the right), tile 2 an I3 (three in a row)."""


def created(server: HostServer, game: str, **match: Any) -> tuple[str, dict[str, str]]:
    reply = server.stack.host({"command": "create", "match": {"game": game, "players": PLAYERS, **match}})
    assert reply["ok"], reply
    server.stack.settle()
    return reply["match_id"], reply["secrets"]


def signed_in(driver: Any, server: HostServer, match_id: str, secret: str) -> None:
    driver.delete_all_cookies()
    driver.get("about:blank")
    driver.get(f"http://127.0.0.1:{server.port}/play/{match_id}#{secret}")
    appears(driver, By.ID, "phase-name")


def at_cell(driver: Any, target: Any, cell: str, click: bool = True) -> None:
    """The pointer on a cell of the own board's grid (a letter A-L and a row 1-12), clicked or not."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'start'}); window.scrollBy(0, -60);", target)
    waiting(driver).until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#bid-tray.stuck"))  # auction out of sight
    column, row = ord(cell[0]) - ord("A"), int(cell[1:]) - 1
    size = target.rect  # the grid's 12 x 12 cells on screen
    dx = (column + 0.5) * size["width"] / 12 - size["width"] / 2
    dy = (row + 0.5) * size["height"] / 12 - size["height"] / 2
    moved = ActionChains(driver).move_to_element_with_offset(target, int(dx), int(dy))
    (moved.click() if click else moved).perform()


def entry(driver: Any, index: int, legal: str) -> str:
    """The tray's piece `index` once the service's verdict on it is `legal` ("true"/"false")."""
    found = appears(driver, By.CSS_SELECTOR, f"#place-piece-{index}[data-legal='{legal}']")
    return str(found.text)


def test_a_domino_placement_made_by_clicks_on_the_own_board_is_checked_then_sent(browser, server) -> None:
    match_id, secrets = created(server, "domino", settings={"tiles": {"1": ROUND_1_TILES}}, early_close=True)
    # The first auction by webhook: Ada bids a chip on each of tiles 1 and 2, alone: she wins both.
    for player, bids in (("ada", [{"tile": 1, "chips": 1}, {"tile": 2, "chips": 1}]), ("bo", [])):
        move = {"phase": "Auction 1", "kind": "bid", "submission": {"bids": bids}}
        assert server.stack.submit(match_id, player, secrets[player], move)[0] == 200
    server.stack.settle()
    problems(browser)
    signed_in(browser, server, match_id, secrets["ada"])
    assert browser.find_element(By.ID, "phase-name").text == "Auction 2 and placing 1"
    appears(browser, By.ID, "place-tray")
    pieces = [one.text for one in browser.find_elements(By.CSS_SELECTOR, "#place-tray button.piece")]
    # Her two tiles, then the three 1x1 squares a match allows (none used yet).
    assert pieces[:2] == ["Tile 1 (L4): not placed yet", "Tile 2 (I3): not placed yet"] and len(pieces) == 5
    target = browser.find_element(By.CSS_SELECTOR, "#board rect.place-target")

    # Tile 1 on C3: its first cell there, so C3 C4 C5 and the foot D5. The first piece may go
    # anywhere inside the grid: legal.
    at_cell(browser, target, "C3")
    assert entry(browser, 0, "true") == "Tile 1 (L4): on C3 C4 C5 D5"
    assert browser.find_element(By.ID, "move-place-placements-0-tile").get_attribute("value") == "1"
    assert browser.find_element(By.ID, "move-place-placements-0-cells").get_attribute("value") == "C3 C4 C5 D5"

    # Tile 2 (chosen next by itself) on H8: H8 I8 J8 touches none of C3 C4 C5 D5: not legal, said
    # in words in the tray, no field path.
    at_cell(browser, target, "H8")
    said = entry(browser, 1, "false")
    assert said == (
        "Tile 2 (I3): on H8 I8 J8. Not legal: placement 2 (tile 2): touches none of your cells"
        " (after the first, all your cells are one group)"
    )
    assert "placements." not in browser.find_element(By.ID, "place-tray").text

    # Turned a quarter, the I3 stands upright; looked at on E3 (E3 E4 E5, E5 beside D5) the preview
    # is said legal before it is placed, then placed there.
    browser.find_element(By.ID, "place-rotate").click()
    at_cell(browser, target, "E3", click=False)
    appears(browser, By.CSS_SELECTOR, "#board path.preview[data-legal='true']")
    assert browser.find_element(By.ID, "place-said").text == (
        "Tile 2 (I3) on E3 E4 E5: legal here. Click or press Enter to place it."
    )
    at_cell(browser, target, "E3")
    assert entry(browser, 1, "true") == "Tile 2 (I3): on E3 E4 E5"
    said = appears(browser, By.CSS_SELECTOR, "#place-verdict[data-legal='true']")
    assert said.text.startswith("Legal: the service would take this move")
    appears(browser, By.CSS_SELECTOR, "#move-place-check[data-legal='true']")
    for width in (DESKTOP, PHONE):  # test-output/screenshots: the tray under the board, both pieces drawn
        screenshot(browser, "moves-domino-placing", width)

    browser.find_element(By.ID, "place-send").click()
    notice = appears(browser, By.ID, "notice")
    assert notice.text.startswith("Your place submission is in")
    sent = browser.find_element(By.ID, "sent-place").get_attribute("textContent") or ""
    assert "C3 C4 C5 D5" in sent and "E3 E4 E5" in sent
    assert problems(browser) == []


def card_verdict(driver: Any, legal: str) -> str:
    """The service's verdict in the cards' tray once it says `legal` ("true"/"false")."""
    found = appears(driver, By.CSS_SELECTOR, f"#card-verdict[data-legal='{legal}']")
    return str(found.text)


def click_card(driver: Any, selector: str) -> None:
    """A click on a card's face or a tile's box (its `rect`: chromedriver places a pointer on an SVG
    group amiss)."""
    card = driver.find_element(By.CSS_SELECTOR, f"{selector} > rect")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", card)
    ActionChains(driver).move_to_element(card).click().perform()


def test_abstrac_cards_laid_by_clicks_in_order_are_checked_then_sent(browser, server) -> None:
    match_id, secrets = created(server, "abstrac", settings={"rule_set": "row"})
    # Ada, the protected player (the first), names herself to lay first, by webhook.
    move = {"phase": "Choose starter", "kind": "starter", "submission": {"starter": "ada"}}
    assert server.stack.submit(match_id, "ada", secrets["ada"], move)[0] == 200
    server.stack.settle()
    problems(browser)
    signed_in(browser, server, match_id, secrets["ada"])
    assert browser.find_element(By.ID, "phase-name").text == "Laying move"
    appears(browser, By.ID, "card-tray")
    # The seed text's example: green 2, blue 4, red 3, then a fourth, red 5: one more than a
    # laying move's three.
    for card in ("2G", "4B", "3R", "5R"):
        click_card(browser, f"#board g[data-lay='{card}']")
    assert browser.find_element(By.ID, "move-lay-cards").get_attribute("value") == "2G 4B 3R 5R"
    said = card_verdict(browser, "false")
    assert "a laying move lays 1, 2 or 3 cards, not 4" in said and "cards." not in said
    click_card(browser, "#board g[data-lay='5R']")  # taken back
    assert browser.find_element(By.ID, "card-said").text == (
        "You lay green 2, blue 4, red 3, in this order, at the back of the row."
    )
    assert card_verdict(browser, "true").startswith("\u2713 Legal")
    # Each chosen card ringed and numbered with its place in the move (2G, 3R and 4B in the drawing's order).
    assert browser.find_element(By.CSS_SELECTOR, "#board g[data-lay='4B']").get_attribute("aria-pressed") == "true"
    assert [one.text for one in browser.find_elements(By.CSS_SELECTOR, "#board text.order")] == ["1", "3", "2"]
    for width in (DESKTOP, PHONE):
        screenshot(browser, "moves-abstrac-laying", width)
    browser.find_element(By.ID, "card-send").click()
    appears(browser, By.ID, "notice")
    server.stack.settle()  # a move closes its phase: Bo lays next
    browser.refresh()
    row = [one.get_attribute("data-card") for one in browser.find_elements(By.CSS_SELECTOR, "#board g[data-card]")]
    assert row == ["2G", "4B", "3R"]  # the row, front first, as laid
    assert problems(browser) == []


def test_an_abstrac_deals_take_made_by_clicking_its_last_card_is_checked_then_sent(browser, server) -> None:
    line = [f"{number}{colour}" for number in range(1, 7) for colour in "RYGB"]  # 1R 1Y 1G 1B 2R ...
    match_id, secrets = created(server, "abstrac", settings={"rule_set": "deal", "deal_lines": [line]})
    problems(browser)
    signed_in(browser, server, match_id, secrets["ada"])  # Ada, the first player, starts the first deal
    appears(browser, By.ID, "card-tray")
    # The top three are takeable, each meaning a take up to it.
    takes = browser.find_elements(By.CSS_SELECTOR, "#board g[data-take]")
    assert [(one.get_attribute("data-card"), one.get_attribute("data-take")) for one in takes] == [
        ("1R", "1"),
        ("1Y", "2"),
        ("1G", "3"),
    ]
    click_card(browser, "#board g[data-take='3']")
    assert browser.find_element(By.ID, "move-take-count").get_attribute("value") == "3"
    assert browser.find_element(By.ID, "card-said").text == (
        "You take 3 cards from the top of the line: red 1, yellow 1, green 1."
    )
    assert card_verdict(browser, "true").startswith("\u2713 Legal")
    browser.find_element(By.ID, "card-send").click()
    appears(browser, By.ID, "notice")
    server.stack.settle()
    browser.refresh()
    # Three 1s are a set of three: 2 base points (RULINGS); no run (three colours). The line's top is now 1B.
    ada = browser.find_element(By.CSS_SELECTOR, "#board g[data-mark='player-ada']").text
    assert "Three-of-a-kind of 1: 2 points" in ada and "in-a-row" not in ada, ada
    top = browser.find_elements(By.CSS_SELECTOR, "#board g[data-card]")[0]
    assert top.get_attribute("data-card") == "1B"
    assert problems(browser) == []


def test_domino_bids_made_on_the_open_auctions_tiles_are_checked_then_sent(browser, server) -> None:
    match_id, secrets = created(server, "domino", settings={"tiles": {"1": ROUND_1_TILES}})
    problems(browser)
    signed_in(browser, server, match_id, secrets["ada"])
    assert browser.find_element(By.ID, "phase-name").text == "Auction 1"
    appears(browser, By.ID, "bid-tray")
    chips = browser.find_element(By.ID, "bid-chips")
    # 200 on tile 1 and 150 on tile 2: 350 chips, 50 more than the 300 a player has for the match.
    for tile, amount in ((1, "200"), (2, "150")):
        click_card(browser, f"#board g[data-mark='tile-{tile}']")
        assert browser.find_element(By.CSS_SELECTOR, "label[for='bid-chips']").text.startswith(
            f"Chips on tile {tile} ("
        )
        chips.clear()
        chips.send_keys(amount)
    assert browser.find_element(By.ID, "bid-total").text == "You bid 350 chips in all, of the 300 you have left."
    said = appears(browser, By.CSS_SELECTOR, "#bid-verdict[data-legal='false']")
    assert "you bid 350 chips in all, but you have 300 left" in said.text
    click_card(browser, "#board g[data-mark='tile-2']")  # back to tile 2: its bid shown, and lowered
    assert chips.get_attribute("value") == "150"
    chips.clear()
    chips.send_keys("100")
    appears(browser, By.CSS_SELECTOR, "#bid-verdict[data-legal='true']")
    rows = [
        (browser.find_element(By.ID, f"move-bid-bids-{row}-{part}").get_attribute("value"))
        for row in (0, 1)
        for part in ("tile", "chips")
    ]
    assert rows == ["1", "200", "2", "100"]
    tile_2 = browser.find_element(By.CSS_SELECTOR, "#board g[data-mark='tile-2'] > rect.hit")  # the tile's button
    assert tile_2.get_attribute("aria-label") == "Bid on tile 2 (I3), 100 chips bid"
    assert "bid 100" in [one.text for one in browser.find_elements(By.CSS_SELECTOR, "#board text.bid-now")]
    browser.find_element(By.ID, "bid-send").click()
    notice = appears(browser, By.ID, "notice")
    assert notice.text.startswith("Your bid submission is in")
    assert problems(browser) == []
