"""The pages in a real browser (headless Chromium), against bin/host-server's server on loopback
with its stack on a virtual clock: the host's page (log in, read, act, confirm) and the players'
pages (sign in by the link, every move through the forms, a message between players, a refusal's
reasons beside the form, the countdown against the virtual clock, the page reloading itself,
each game at a laptop's and a phone's width). Every page is also looked at for what its console
says: no script error, no resource or inline code refused by its Content-Security-Policy.

Tests run in this order on one server whose clock starts at START (Tuesday 1 December 2026,
12:00 UTC); only the last ones move it.
"""

from __future__ import annotations

from typing import Any

from browsing import (  # noqa: F401 - fixtures
    DESKTOP,
    PHONE,
    appears,
    chromium,
    host_server,
    problems,
    screenshot,
    waiting,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as shown
from selenium.webdriver.support.ui import Select

from local_stack.laptop.server import HostServer

CRATES = [{"id": "ada", "name": "Ada"}, {"id": "bo", "name": "Bo"}]
DOMINO = [{"id": "ada", "name": "Ada"}, {"id": "bo", "name": "Bo"}]
ROUND_1_TILES = ["O4", "I3", "L4", "I5", "X5", "T4", "S4", "L3", "P5", "U5"] * 2
"""Domino's first auction as the host sets it: tile 1 is an O4 (a 2x2 square)."""
MULTIPLIERS = [2, 1, 1, 0, -1, -1]
GROUNDS = ["stone", "ice", "stone", "rubber", "ice", "stone"]
"""Six rounds' grounds within the limits (rubber once, ice twice), rotated per seat."""
INLINE_SCRIPT = (
    "const s = document.createElement('script'); s.textContent = 'window.inlineRan = 1'; document.body.append(s);"
)
"""An inline script added to the page (this call itself is the driver's, outside the page's policy)."""
FILL = "for (const [id, value] of Object.entries(arguments[0])) document.getElementById(id).value = value;"
"""Sets each input or select (by id) to its value."""


def create(server: HostServer, game: str, players: list[dict[str, Any]], **match: Any) -> dict[str, Any]:
    """A match created as `match-host create` does, its machine parked in the first phase's wait."""
    reply = server.stack.host({"command": "create", "match": {"game": game, "players": players, **match}})
    assert reply["ok"], reply
    server.stack.settle()
    return reply


def wait_for(driver: Any, locator: tuple[str, str]) -> Any:
    if locator[0] in (By.ID, By.CSS_SELECTOR, By.XPATH):
        return appears(driver, *locator)
    return waiting(driver).until(shown.presence_of_element_located(locator))


def described(section: Any) -> dict[str, str]:
    """A match's <dl> on the host's page as term -> description."""
    terms = section.find_elements(By.CSS_SELECTOR, "dl > dt")
    return {term.text: term.find_element(By.XPATH, "following-sibling::dd[1]").text for term in terms}


def host_page(driver: Any, server: HostServer, match_id: str) -> Any:
    """The host's page (logged in with the host token first if this browser is not), and the
    match's section on it."""
    driver.get(f"http://127.0.0.1:{server.host_port}/")
    shown = appears(driver, By.XPATH, "//*[@id='token'] | //h1[text()='Matches']")
    if shown.get_attribute("id") == "token":
        shown.send_keys(server.host_token)
        driver.find_element(By.CSS_SELECTOR, "form[action='/login'] button").click()
    return wait_for(driver, (By.ID, f"match-{match_id}"))


def send_command(driver: Any, section_id: str, title: str, **fields: str) -> None:
    """Open a command of a match on the host's page, fill its fields (a choice by what it shows),
    send it."""
    section = driver.find_element(By.ID, section_id)
    summary = section.find_element(By.XPATH, f".//details/summary[text()='{title}']")
    summary.click()
    form = summary.find_element(By.XPATH, "following-sibling::form")
    for name, value in fields.items():
        field = form.find_element(By.NAME, name)
        if field.tag_name == "select":
            Select(field).select_by_visible_text(value)
        else:
            field.send_keys(value)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()


def test_the_host_logs_in_reads_who_owes_and_acts_confirming_what_cannot_be_undone(browser, server) -> None:
    match_id = create(server, "crates", CRATES, phase_seconds=86400)["match_id"]
    section_id = f"match-{match_id}"
    problems(browser)  # what earlier pages said is not this test's
    browser.delete_all_cookies()
    browser.get(f"http://127.0.0.1:{server.host_port}/")
    wait_for(browser, (By.ID, "token")).send_keys(server.host_token)
    browser.find_element(By.CSS_SELECTOR, "form[action='/login'] button").click()
    section = wait_for(browser, (By.ID, section_id))
    # Created at START (12:00 UTC on Tuesday 1 December), a day a phase: the Pregame closes at
    # noon on Wednesday; both owe their multipliers.
    assert described(section) | {"Game": "crates"} == {
        "Game": "crates",
        "Status": "running",
        "Phase": "Pregame (phase 1)",
        "Deadline": "Wednesday 2 December, 12:00 UTC, in 1 day",
        "Waiting for": "Ada: multipliers; Bo: multipliers",
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
    section = host_page(browser, server, match_id)
    csrf = section.find_element(By.NAME, "csrf").get_attribute("value")
    fields = {"csrf": csrf, "match_id": match_id, "command": "pause"}
    inputs = "".join(f"<input type=hidden name={name} value={value}>" for name, value in fields.items())
    action = f"http://127.0.0.1:{server.host_port}/command"
    browser.get(f"data:text/html,<form method=post action='{action}'>{inputs}<button id=go>go</button></form>")
    browser.find_element(By.ID, "go").click()
    wait_for(browser, (By.XPATH, "//h1[text()='Forbidden']"))
    assert server.stack.host({"command": "status", "match_id": match_id})["open"]["paused"] is False
    problems(browser)  # the refused page's 403 is logged as a failed load: expected here


def test_a_secret_reissued_from_the_hosts_page_ends_the_old_session_and_the_new_link_opens(browser, server) -> None:
    created = create(server, "crates", CRATES, phase_seconds=86400)
    match_id = created["match_id"]
    ada = Player(browser, server, match_id, "ada", created["secrets"]["ada"])
    section_id = host_page(browser, server, match_id).get_attribute("id")
    send_command(browser, section_id, "Reissue secret", player="Ada")  # chosen by name, her id sent
    wait_for(browser, (By.XPATH, "//button[text()='Yes: reissue secret']")).click()  # the confirming page, once loaded
    secret = wait_for(browser, (By.ID, "answer-secret")).text  # the answer in words: Ada by name
    assert browser.find_element(By.ID, "answer-player").text == "Ada" and secret != created["secrets"]["ada"]
    browser.add_cookie(ada.cookie)  # Ada's browser, still holding the session of the old secret
    browser.get(ada.page)
    wait_for(browser, (By.ID, "sign-in"))  # asked to sign in again
    Player(browser, server, match_id, "ada", secret)  # the new link opens her page
    assert problems(browser) == []


def test_the_host_starts_a_match_on_the_page_and_the_link_shown_opens_the_players_page(browser, server) -> None:
    """Issue 30, item 5: no JSON written. A name twice is refused beside the second (nothing made),
    a row added without a script keeps what was typed, and the link shown signs the player in."""
    browser.get(f"http://127.0.0.1:{server.host_port}/")
    listed = appears(browser, By.CSS_SELECTOR, "#token, #new-match-games")
    if listed.get_attribute("id") == "token":
        listed.send_keys(server.host_token)
        browser.find_element(By.CSS_SELECTOR, "form[action='/login'] button").click()
    wait_for(browser, (By.ID, "new-match-games")).find_element(By.LINK_TEXT, "Pushing Crates").click()
    wait_for(browser, (By.ID, "new-match-players-0-name")).send_keys("Ada Lovelace")
    browser.find_element(By.ID, "new-match-players-1-name").send_keys("ADA LOVELACE")
    browser.find_element(By.XPATH, "//button[text()='Create the match']").click()
    said = wait_for(browser, (By.ID, "new-match-players-1-name-error")).text
    assert said == "Too like the name in row 1: give each player a name of their own."
    problems(browser)  # the refusal's 422 is logged as a failed load: expected here
    renamed = browser.find_element(By.ID, "new-match-players-1-name")
    renamed.clear()
    renamed.send_keys("Bo Peep")
    browser.find_element(By.XPATH, "//button[text()='Add a player row']").click()
    wait_for(browser, (By.ID, "new-match-players-4-name")).send_keys("Cy Young")  # the fifth row: four at first
    assert browser.find_element(By.ID, "new-match-players-1-name").get_attribute("value") == "Bo Peep"
    for width in (DESKTOP, PHONE):
        screenshot(browser, "host-new-match", width)
    browser.find_element(By.XPATH, "//button[text()='Create the match']").click()
    match_id = wait_for(browser, (By.CSS_SELECTOR, "#created strong")).text
    link = browser.find_element(By.ID, "link-cy-young").text
    assert link.startswith(f"http://127.0.0.1:{server.port}/play/{match_id}#")
    Player(browser, server, match_id, "cy-young", link.partition("#")[2])  # the link opens Cy's page
    assert "Cy Young" in browser.find_element(By.ID, "you").text
    assert problems(browser) == []


# -- the players' pages ---------------------------------------------------------------------------


class Player:
    """A participant at the browser: signed in once by the host's link (`/play/<match>#<secret>`,
    the secret in the fragment, which no server sees), their session cookie kept to come back."""

    def __init__(self, driver: Any, server: HostServer, match_id: str, player: str, secret: str) -> None:
        self.driver, self.match_id, self.player = driver, match_id, player
        self.page = f"http://127.0.0.1:{server.port}/play/{match_id}"
        driver.delete_all_cookies()
        driver.get("about:blank")  # else a link differing from the page shown only by its fragment loads nothing
        driver.get(f"{self.page}#{secret}")
        wait_for(driver, (By.ID, "you"))
        assert "#" not in driver.current_url and secret not in driver.page_source  # the page took it off
        self.cookie = driver.get_cookie(f"genius_{match_id}")

    def show(self) -> Any:
        """This participant's page, freshly loaded."""
        if self.driver.get_cookie(self.cookie["name"]) != self.cookie:
            self.driver.delete_all_cookies()
            self.driver.add_cookie(self.cookie)
        self.driver.get(self.page)
        return wait_for(self.driver, (By.ID, "phase-name"))

    def messages(self) -> Any:
        """This participant's messages page, freshly loaded: its list."""
        self.show()
        self.driver.find_element(By.ID, "messages-link").click()
        return wait_for(self.driver, (By.ID, "messages"))

    def send(self, form_id: str, values: dict[str, Any]) -> Any:
        """Fill the form's inputs (by field path: "pushes.0.crate") and send it; the page after."""
        form = self.driver.find_element(By.ID, form_id)
        inputs = {f"{form_id}-{path.replace('.', '-')}": str(value) for path, value in values.items()}
        # Set in one call (typing each is a round trip a field); sent by the button, as a player does.
        self.driver.execute_script(FILL, inputs)
        self.driver.execute_script("window.leaving = true")  # gone with this page: the next has none
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        # The page after it, not this one (whose reasons a refused form shows): asked while the
        # browser is between the two, the driver may answer with an error; asked again.
        waiting(self.driver).until(lambda driver: driver.execute_script("return window.leaving === undefined"))
        return appears(self.driver, By.CSS_SELECTOR, "#notice, #reasons")


def crates_move(seat: int, phase: str, player: str) -> tuple[str, dict[str, Any]]:
    """The scripted move of the player in `seat` (0, 1, 2): rotated multipliers, then 1-3 pushes
    of their own crate to the right and a ground, the grounds rotated within their limits."""
    if phase == "Pregame":
        rotated = MULTIPLIERS[seat:] + MULTIPLIERS[:seat]
        return "move-multipliers", {f"multipliers.{index}": value for index, value in enumerate(rotated)}
    number = int(phase.split()[-1])
    pushes = (seat + number) % 3 + 1
    fields: dict[str, Any] = {"ground": GROUNDS[(seat + number) % 6]}
    for row in range(pushes):
        fields |= {f"pushes.{row}.crate": player, f"pushes.{row}.direction": "right"}
    return "move-round", fields


REVEALED = {
    "Pregame": {},
    # Each pushes their own crate only, on their own ground: it moves pushes x the ground's
    # multiplier (rubber 0, stone 1, ice 3), shown mod 5 from 0. Round 1: Ada 2 pushes on ice
    # (6: 1), Bo 3 on stone (3); round 2: Ada 3 on stone (1 + 3: 4), Bo 1 on rubber (3 + 0: 3).
    "Round 1": {"Ada": ["1"], "Bo": ["3"]},
    "Round 2": {"Ada": ["1", "4"], "Bo": ["3", "3"]},
}
"""The crates' locations a player's page reveals once each phase has resolved."""


def crate_locations(view_text: str) -> dict[str, list[str]]:
    """The view's table of crates' locations after each round: crate -> location a round."""
    rows = [line.split() for line in view_text.splitlines()]
    return {row[0]: row[1:] for row in rows if row and row[0] in {seat["name"] for seat in CRATES}}


def test_a_whole_crates_match_played_through_the_players_pages(browser, server) -> None:
    created = create(server, "crates", CRATES, phase_seconds=86400, early_close=True)
    match_id, secrets = created["match_id"], created["secrets"]
    problems(browser)
    players = [Player(browser, server, match_id, seat["id"], secrets[seat["id"]]) for seat in CRATES]
    # Ada writes to Bo from her messages page; Bo reads it on his (that no third player does: the
    # page's unit leak test).
    ada, bo = players
    ada.messages()
    browser.find_element(By.ID, "press-to-bo").click()
    browser.find_element(By.ID, "press-text").send_keys("Crate 3, left?")
    browser.find_element(By.CSS_SELECTOR, "#press button[type=submit]").click()
    assert wait_for(browser, (By.ID, "notice")).text == "Your message went to Bo."
    assert browser.find_element(By.CSS_SELECTOR, "#messages li.sent").text.endswith("Crate 3, left?")
    read = bo.messages().text
    assert "Ada to Bo" in read and "Crate 3, left?" in read
    phases = ["Pregame", *(f"Round {number}" for number in range(1, 7))]
    for number, phase in enumerate(phases, start=1):
        for seat, player in enumerate(players):
            assert player.show().text == phase
            form_id, fields = crates_move(seat, phase, player.player)
            said = player.send(form_id, fields)
            assert said.get_attribute("id") == "notice", said.text
            if seat < len(players) - 1:  # the last one's move closes the phase (early close)
                assert browser.find_element(By.ID, f"sent-{form_id.removeprefix('move-')}").text
                awaited = ", ".join(other["name"] for other in CRATES[seat + 1 :])
                assert browser.find_element(By.ID, "owes").text == f"Waiting for: {awaited}."
        server.stack.settle()
        shown_next = players[0].show().text
        assert shown_next == (phases[number] if number < len(phases) else "The match is over."), phase
        if phase == "Round 2":  # mid-match: two rounds revealed, the third open
            for width in (DESKTOP, PHONE):
                screenshot(browser, "page-crates", width)
        folded = browser.find_element(By.ID, "view-text")  # in a closed `details`: its text, not what shows
        revealed = crate_locations(folded.get_attribute("textContent") or "")
        assert revealed == REVEALED.get(phase, revealed) and all(len(row) == number - 1 for row in revealed.values())
    assert server.stack.host({"command": "status", "match_id": match_id})["status"] == "finished"
    assert problems(browser) == []


def test_a_domino_placement_through_the_page_refused_with_the_services_reasons_then_taken(browser, server) -> None:
    created = create(server, "domino", DOMINO, settings={"tiles": {"1": ROUND_1_TILES}}, early_close=True)
    match_id, secrets = created["match_id"], created["secrets"]
    # The first auction by webhook: Ada alone bids (a chip on tile 1, the O4), so she wins it.
    for player, bids in (("ada", [{"tile": 1, "chips": 1}]), ("bo", [])):
        move = {"phase": "Auction 1", "kind": "bid", "submission": {"bids": bids}}
        assert server.stack.submit(match_id, player, secrets[player], move)[0] == 200
    server.stack.settle()
    problems(browser)
    ada = Player(browser, server, match_id, "ada", secrets["ada"])
    assert ada.show().text == "Auction 2 and placing 1"

    said = ada.send("move-place", {"placements.0.tile": 1, "placements.0.cells": "A1 A2 A3 A4"})
    # In the form itself (beside its fields), the service's reason and its code: four in a line
    # are an I4, not the O4 tile 1 is.
    assert said.get_attribute("id") == "reasons"
    assert said.find_element(By.XPATH, "..").get_attribute("id") == "move-place"
    reasons = said.find_elements(By.TAG_NAME, "li")
    assert [(li.get_attribute("data-code"), li.text) for li in reasons] == [
        ("wrong_shape", "placement 1 (tile 1): A1 A2 A3 A4 do not form a O4")
    ]
    assert browser.find_element(By.ID, "move-place-placements-0-cells").get_attribute("value") == "A1 A2 A3 A4"
    assert not browser.find_elements(By.ID, "sent-place")  # nothing stands
    assert [line.split(" - ")[1] for line in problems(browser)] == [  # the refusal's status, as the console says it
        "Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)"
    ]

    said = ada.send("move-place", {"placements.0.tile": 1, "placements.0.cells": "A1 B1 A2 B2"})
    assert said.get_attribute("id") == "notice", said.text
    assert "A1" in browser.find_element(By.ID, "sent-place").text
    assert browser.find_elements(By.CSS_SELECTOR, "#board svg [data-mark=board-ada]")  # the tiles and boards, drawn
    for width in (DESKTOP, PHONE):
        screenshot(browser, "page-domino", width)
    assert problems(browser) == []


OTHER_GAMES = {
    "palindrome": [{"id": "ada", "name": "Ada"}, {"id": "bo", "name": "Bo"}],
    "abstrac": [{"id": "ada", "name": "Ada"}, {"id": "bo", "name": "Bo"}],
    "clubs": [
        {"id": seat, "name": name, "guests": [{"id": f"{seat}-guest", "name": f"{name}'s guest"}]}
        for seat, name in (("ada", "Ada"), ("bo", "Bo"), ("cy", "Cy"))
    ],
}
"""The other games' smallest tables (Clubs: three players, each with a guest)."""


def test_every_other_games_page_opens_at_a_laptops_and_a_phones_width(browser, server) -> None:
    problems(browser)
    for game, players in OTHER_GAMES.items():
        created = create(server, game, players)
        Player(browser, server, created["match_id"], "ada", created["secrets"]["ada"])
        assert browser.find_element(By.ID, "moves")  # what Ada may send in the first phase
        for width in (DESKTOP, PHONE):
            screenshot(browser, f"page-{game}", width)
    assert problems(browser) == []


SKEWED_CLOCK = """
window.skew = 0; window.delays = [];
const frozen = Date.now(), realTimeout = window.setTimeout;
Date.now = () => frozen + window.skew;
window.setTimeout = (callback, ms) => { window.delays.push(ms); return realTimeout(callback, ms); };
"""
"""Run before each page's own script: the browser's clock stopped where the page began, moved
only by `window.skew` ms (a minute passes without waiting for it), and each timer's delay kept in
`window.delays`: a delay is then exactly what the page's script computed, whatever the machine's load."""


def test_a_page_reloads_itself_a_minute_on_or_3_s_after_its_countdown_reaches_zero(browser, server) -> None:
    added = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SKEWED_CLOCK})
    try:
        for phase_seconds, delay in ((86400, 60_000), (30, 33_000)):  # a minute; the deadline's 30 s and 3
            created = create(server, "crates", CRATES, phase_seconds=phase_seconds)
            ada = Player(browser, server, created["match_id"], "ada", created["secrets"]["ada"])
            ada.show()
            # Scheduled from the page's load (the browser's clock stopped: no time passes in between).
            assert browser.execute_script("return Math.max(...window.delays)") == delay
            server.stack.host({"command": "cancel", "match_id": created["match_id"]})
        # A minute on, shown again: the page reloads at once (the next has no marker).
        browser.execute_script("window.marker = 1; window.skew = 61000;")
        browser.execute_script("document.dispatchEvent(new Event('visibilitychange'))")
        waiting(browser).until(lambda driver: driver.execute_script("return window.marker === undefined"))
        assert problems(browser) == []
    finally:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})


def test_the_countdown_follows_the_virtual_clock_in_the_browsers_own_zone(browser, server) -> None:
    """Last: it moves the clock (5 h 29 min 30 s, before any other match's first reminder)."""
    created = create(server, "crates", CRATES, phase_seconds=3 * 86400)
    ada = Player(browser, server, created["match_id"], "ada", created["secrets"]["ada"])
    moved = 5 * 3600 + 29 * 60 + 30
    server.stack.advance(moved)
    countdown = ada.show() and browser.find_element(By.ID, "countdown")
    # Opened at START (Tuesday 1 December, 12:00 UTC) for three days: it closes on Friday 4
    # December at 12:00 UTC (21:00 in Tokyo); the page is read at 17:29:30, so 2 days 18 hours
    # 30 minutes 30 seconds are left, which the page's script gives to the minute.
    assert countdown.get_attribute("datetime") == "2026-12-04T12:00:00Z"
    assert countdown.get_attribute("data-now") == "2026-12-01T17:29:30Z"
    assert browser.find_element(By.ID, "countdown-left").text == "2 d 18 h 30 min left"
    local = browser.find_element(By.ID, "countdown-local").text
    assert "December 4" in local and "09:00 PM" in local and "GMT+9" in local, local
    assert problems(browser) == []
    # The console is read for what the policy refuses: an inline script put into the page is not
    # run, and the refusal is there.
    browser.execute_script(INLINE_SCRIPT)
    assert browser.execute_script("return window.inlineRan === undefined")
    assert any("Content Security Policy" in line for line in problems(browser))
