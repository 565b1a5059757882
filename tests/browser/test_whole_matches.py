"""Whole matches played through the players' pages by clicks alone (issue 30 item 7), in headless
Chromium against bin/host-server's server (one for the module), its clock moved by the stack,
never waited on: each player signed in by their own link, each move chosen in the page's
selects and drawn controls and sent by its button. Every phase's page, the finished match's and
the host's page showing the result are held to axe-core (no serious or critical violation), a
weight under 100 KB and one store read a view (clicking.Checks). Screenshots mid-match at 390
and 1280 px go to test-output/screenshots/match-<game>-<width>.png (docs/page-<game>-<width>.png
is a copy of each)."""

from __future__ import annotations

from typing import Any

import pytest
from accessibility import Reads, axe_source
from browsing import DESKTOP, chromium, host_server, problems, screenshot  # noqa: F401 - fixtures
from clicking import Checks, Clicker
from selenium.webdriver.common.by import By
from test_moves_on_the_drawing import at_cell
from test_pages import CRATES, OTHER_GAMES, crates_move, create, host_page, send_command, wait_for

PHONE_WIDTH = 390


@pytest.fixture(name="checks")
def looked_at(server) -> Checks:
    return Checks(axe_source(), Reads(server.stack))


def shoot(browser: Any, player: Clicker, name: str) -> None:
    """The player's page as it stands, at a phone's width and a laptop's (test-output/screenshots/)."""
    player.show()
    for width in (PHONE_WIDTH, DESKTOP):
        screenshot(browser, name, width)


def finish(browser: Any, server: Any, checks: Checks, match_id: str, last: Clicker, game: str) -> None:
    """The match over: its last page and the host's page with its result, looked at."""
    assert server.stack.host({"command": "status", "match_id": match_id})["status"] == "finished"
    assert last.view(checks, f"{game} over") == "The match is over."
    host_page(browser, server, match_id)
    assert browser.find_elements(By.CSS_SELECTOR, f"#match-{match_id} table.result")
    checks.look(browser, f"{game} host's result")
    assert checks.found == {}, {page: sorted({v["id"] for v in said}) for page, said in checks.found.items()}
    assert problems(browser) == []


def test_a_whole_crates_match_by_clicks(browser, server, checks) -> None:
    created = create(server, "crates", CRATES, phase_seconds=86400, early_close=True)
    match_id = created["match_id"]
    problems(browser)
    players = [Clicker(browser, server, match_id, seat["id"], created["secrets"][seat["id"]]) for seat in CRATES]
    phases = ["Pregame", *(f"Round {number}" for number in range(1, 7))]
    for phase in phases:
        for seat, player in enumerate(players):
            assert player.view(checks if seat == 0 else None, f"crates {phase}") == phase
            form_id, fields = crates_move(seat, phase, player.player)
            said = player.submit(form_id, {path: str(value) for path, value in fields.items()})
            assert said.get_attribute("id") == "notice", said.text
        server.stack.settle()
        if phase == "Round 2":
            shoot(browser, players[0], "match-crates")
    finish(browser, server, checks, match_id, players[0], "crates")


def test_a_whole_abstrac_row_match_by_clicks(browser, server, checks) -> None:
    """Death Match 12 (the row rule set): Ada, the protected player, names herself starter in
    its choice; then each lays up to three of the unused cards by clicking them on the drawing,
    and once all 24 are laid each takes up to three from the row's front by clicking the
    furthest; one player moves a phase (the phase closes on the move)."""
    created = create(server, "abstrac", CRATES, settings={"rule_set": "row"})
    match_id = created["match_id"]
    problems(browser)
    players = {
        seat["id"]: Clicker(browser, server, match_id, seat["id"], created["secrets"][seat["id"]]) for seat in CRATES
    }
    looked: set[str] = set()
    while (status := server.stack.host({"command": "status", "match_id": match_id}))["status"] == "running":
        [mover] = status["open"]["waiting_for"]
        player = players[mover]
        phase = status["open"]["phase"]
        assert player.view(checks if phase not in looked else None, f"abstrac {phase}") == phase
        looked.add(phase)
        if phase == "Choose starter":
            said = player.submit("move-starter", {"starter": "ada"})
        elif phase == "Laying move":
            for card in browser.find_elements(By.CSS_SELECTOR, "#board g[data-lay]")[:3]:
                player.click_drawn(f"#board g[data-lay='{card.get_attribute('data-lay')}']")
            said = player.send_by("card-send", "card-verdict")
        else:
            furthest = max(
                int(one.get_attribute("data-take"))
                for one in browser.find_elements(By.CSS_SELECTOR, "#board g[data-take]")
            )
            player.click_drawn(f"#board g[data-take='{furthest}']")
            said = player.send_by("card-send", "card-verdict")
        assert said.get_attribute("id") == "notice", said.text
        server.stack.settle()
        if phase == "Picking move" and "screenshot" not in looked:
            looked.add("screenshot")
            shoot(browser, player, "match-abstrac")
    finish(browser, server, checks, match_id, players["ada"], "abstrac")


def test_a_whole_palindrome_match_by_clicks(browser, server, checks) -> None:
    """Main Match 5 (five rounds): each round's bid picked in the table of its packs (Ada's card 9
    on pack 1, Bo's on pack 2: each the only card on their pack, so each receives it) and sent;
    each construction built in the step list (a "Place digits" step, the first of the digits to
    place tapped onto string 1) and sent, before the bid of the same phase. Every participant has
    then sent all the phase takes: it closes early."""
    day = 86400
    created = create(server, "palindrome", CRATES, settings={"rule_set": "mm5"}, phase_seconds=day, early_close=True)
    match_id = created["match_id"]
    problems(browser)
    players = [Clicker(browser, server, match_id, seat["id"], created["secrets"][seat["id"]]) for seat in CRATES]
    while (status := server.stack.host({"command": "status", "match_id": match_id}))["status"] == "running":
        phase = status["open"]["phase"]
        for seat, player in enumerate(players):
            assert player.view(checks if seat == 0 else None, f"palindrome {phase}") == phase
            if "construction" in phase:
                build_by_clicks(browser, player)
            if "bidding" in phase:
                card = browser.find_element(By.CSS_SELECTOR, f"#bid-pack-{seat + 1} button[data-card='9']")
                card.click()
                said = player.submit("move-bid", checked=True)
                assert said.get_attribute("id") == "notice", said.text
        server.stack.settle()
        closed = server.stack.host({"command": "status", "match_id": match_id})
        assert (closed.get("open") or {}).get("phase") != phase  # all sent: the phase closed early
        if phase.startswith("Round 3"):
            shoot(browser, players[0], "match-palindrome")
    finish(browser, server, checks, match_id, players[0], "palindrome")


def build_by_clicks(browser: Any, player: Clicker) -> None:
    """A construction of one step made in the step list: the first digit to place onto string 1."""
    [place] = [
        b for b in browser.find_elements(By.CSS_SELECTOR, "#build-steps .add-step button") if b.text == "Place digits"
    ]
    place.click()
    browser.find_element(By.CSS_SELECTOR, "#build-step-1 .cards button").click()
    said = player.submit("move-construction", checked=True)
    assert said.get_attribute("id") == "notice", said.text
    player.show()


def test_a_whole_clubs_match_by_clicks(browser, server, checks) -> None:
    """Three players, each with a guest: each draft picked by clicks (six cards, no club: a club
    needs a token), in the order clicked, and sent; every participant drafts in round 1, the three
    players in every round after. The guests' later drafts, and the builds and guesses (their own
    pickers are tested in test_pickers_in_browser.py), are left to the deadline, the stack's clock
    moved there: fewer pages, the same controls."""
    day = 86400
    seats = OTHER_GAMES["clubs"]
    created = create(server, "clubs", seats, phase_seconds=day, early_close=True)
    match_id = created["match_id"]
    problems(browser)
    everyone = [seat["id"] for seat in seats] + [guest["id"] for seat in seats for guest in seat["guests"]]
    players = [Clicker(browser, server, match_id, who, created["secrets"][who]) for who in everyone]
    while (status := server.stack.host({"command": "status", "match_id": match_id}))["status"] == "running":
        phase = status["open"]["phase"]
        drafting = players if phase == "1A" else players[: len(seats)] if "A" in phase else players[:1]
        for seat, player in enumerate(drafting):
            assert player.view(checks if seat == 0 else None, f"clubs {phase}") == phase
            if "A" in phase:
                offered = browser.find_elements(
                    By.CSS_SELECTOR, "#draft-picker .cards:not([aria-label='clubs']) button"
                )
                for card in offered[:6]:
                    card.click()
                said = player.submit("move-draft", checked=True)
                assert said.get_attribute("id") == "notice", said.text
        server.stack.settle()
        if server.stack.host({"command": "status", "match_id": match_id}).get("open", {}).get("phase") == phase:
            server.stack.advance(day)  # what was not sent: the phase closes at its deadline
            server.stack.settle()
        if phase == "3A+2B":
            shoot(browser, players[0], "match-clubs")
    finish(browser, server, checks, match_id, players[0], "clubs")


SQUARES = {"ada": "A1", "bo": "A1"}
"""Where each player's first 2x2 tile goes on their own board; each later one two columns right."""


def test_a_whole_domino_match_by_clicks(browser, server, checks) -> None:
    """Every tile a 2x2 square (O4), fixed for the three auctions. Each auction, Ada bids a chip on
    its first tile and Bo on its second, each tile clicked on the drawing and its chips written in
    the tray's chips box (a number, the one thing typed: no grammar), sent by the tray's button;
    each tile won is placed by clicking a cell of the player's own board (its top-left cell there:
    A1, then C1 and E1, each touching the one before), sent by the place tray's button."""
    tiles = {str(number): ["O4"] * 20 for number in (1, 2, 3)}
    created = create(server, "domino", CRATES, settings={"tiles": tiles}, phase_seconds=86400, early_close=True)
    match_id = created["match_id"]
    problems(browser)
    players = [Clicker(browser, server, match_id, seat["id"], created["secrets"][seat["id"]]) for seat in CRATES]
    placed = 0
    while (status := server.stack.host({"command": "status", "match_id": match_id}))["status"] == "running":
        phase = status["open"]["phase"]
        for seat, player in enumerate(players):
            assert player.view(checks if seat == 0 else None, f"domino {phase}") == phase
            if phase.startswith("Auction"):
                auction = int(phase.split()[1])
                player.click_drawn(f"#board g[data-mark='tile-{20 * (auction - 1) + seat + 1}']")
                browser.find_element(By.ID, "bid-chips").send_keys("1")
                said = player.send_by("bid-send", "bid-verdict")
                assert said.get_attribute("id") == "notice", said.text
            if "lacing" in phase:
                target = browser.find_element(By.CSS_SELECTOR, "#board rect.place-target")
                at_cell(browser, target, f"{'ACE'[placed]}1")
                said = player.send_by("place-send", "place-piece-0")
                assert said.get_attribute("id") == "notice", said.text
        placed += "lacing" in phase
        server.stack.settle()
        if phase.startswith("Auction 3"):
            shoot(browser, players[0], "match-domino")
    # Each board covered A1 to F2 (three 2x2 squares in a row): the largest fully covered square
    # is 2 x 2 (RULINGS: the score is that k), each with 300 - 3 chips left.
    result = server.stack.host({"command": "status", "match_id": match_id})["result"]
    assert {(one["player"], one["score"]) for one in result["standings"]} == {("ada", "2"), ("bo", "2")}
    assert {one["chips_left"] for one in result["details"].values()} == {297}
    assert result["undecided"] == ["ada", "bo"]  # tied on every line: the host's to decide
    finish(browser, server, checks, match_id, players[0], "domino")
    # The host decides the tie on the page, by name (Bo first), confirmed, answered with the table.
    send_command(browser, f"match-{match_id}", "Decide", **{"order.0": "Bo", "order.1": "Ada"})
    # the confirmation page's own button first: the host's page it replaces has <dl>s too
    confirm = wait_for(browser, (By.XPATH, "//button[text()='Yes: decide']"))
    shown = browser.find_element(By.XPATH, "//dl/dd[1]").find_element(By.XPATH, "..").text
    assert "Bo" in shown and "Ada" in shown and "bo" not in shown.split(), shown
    checks.look(browser, "domino decide: are you sure?")
    confirm.click()
    rows = wait_for(browser, (By.CSS_SELECTOR, "table.result")).find_elements(By.TAG_NAME, "tr")
    assert [row.text.split()[:2] for row in rows[1:]] == [["1", "Bo"], ["2", "Ada"]]
    assert not browser.find_elements(By.TAG_NAME, "pre")  # no raw JSON
    checks.look(browser, "domino decided")
    assert checks.found == {}
