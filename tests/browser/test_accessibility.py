"""Every kind of page, of every game, held to accessibility, weight and reads (issue 30 item 7):
axe-core reports no serious or critical violation on a player's page (each game's first phase),
their messages page, the sign-in page, a refused move's page, the host's log-in page, its page
of matches, its new-match forms, a confirmation and a command's answer, and its seasons' pages
(the new season's form, refused and created, a season's page, an act's confirmation and
answer); each player page and messages page view weighs under 100 KB and reads the store once.
The pages of later phases, of a finished match and of the host deciding a tie are held to the
same in the whole matches (test_whole_matches.py)."""

from __future__ import annotations

from typing import Any

from accessibility import MOST_BYTES, Reads, axe_source, serious_violations, weight
from browsing import chromium, host_server, problems  # noqa: F401 - fixtures
from clicking import Clicker
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from test_pages import CRATES, DOMINO, OTHER_GAMES, Player, create, host_page, send_command, wait_for

GAMES = {"crates": CRATES, "domino": DOMINO, **OTHER_GAMES}


def test_each_games_player_page_and_messages_page_pass_axe_weigh_little_and_read_once(browser, server) -> None:
    source, reads = axe_source(), Reads(server.stack)
    found: dict[str, Any] = {}
    for game, players in GAMES.items():
        created = create(server, game, players)
        ada = Player(browser, server, created["match_id"], "ada", created["secrets"]["ada"])
        server.stack.settle()
        reads.taken()
        ada.show()
        # One Query or BatchGetItem of the match's items (the page's one read), nothing else.
        assert sum(reads.taken().values()) == 1, game
        total, loaded = weight(browser)
        assert total < MOST_BYTES, (game, loaded)
        found[f"{game} page"] = serious_violations(browser, source)
        reads.taken()
        browser.find_element(By.ID, "messages-link").click()
        wait_for(browser, (By.ID, "messages"))
        assert sum(reads.taken().values()) == 1, game  # the messages page: one Query of the match's log
        assert weight(browser)[0] < MOST_BYTES, game
        found[f"{game} messages"] = serious_violations(browser, source)
    assert {page: said for page, said in found.items() if said} == {}


def test_the_sign_in_page_and_a_refused_moves_page_pass_axe(browser, server) -> None:
    source = axe_source()
    created = create(server, "crates", CRATES)
    browser.delete_all_cookies()
    browser.get(f"http://127.0.0.1:{server.port}/play/{created['match_id']}")  # no session: asked to sign in
    found: dict[str, Any] = {"sign-in": serious_violations(browser, wait_for(browser, (By.ID, "sign-in")) and source)}
    ada = Clicker(browser, server, created["match_id"], "ada", created["secrets"]["ada"])
    ada.show()
    # Six 1s: each a multiplier the form offers, but not the rules' -1 -1 0 1 1 2: refused, the
    # reasons at the form (a page answering a POST, without the page's reload).
    said = ada.submit("move-multipliers", {f"multipliers.{i}": "1" for i in range(6)}, legal="false")
    assert said.get_attribute("id") == "reasons"
    found["refused"] = serious_violations(browser, source)
    problems(browser)  # the refusal's 422 is logged as a failed load: expected here
    assert {page: said for page, said in found.items() if said} == {}


def test_the_hosts_pages_pass_axe(browser, server) -> None:
    source = axe_source()
    created = create(server, "crates", CRATES, phase_seconds=86400)
    browser.delete_all_cookies()
    browser.get(f"http://127.0.0.1:{server.host_port}/")
    found: dict[str, Any] = {"log in": serious_violations(browser, wait_for(browser, (By.ID, "token")) and source)}
    section = host_page(browser, server, created["match_id"])
    found["matches"] = serious_violations(browser, source)
    for game in GAMES:
        browser.get(f"http://127.0.0.1:{server.host_port}/new?game={game}")
        wait_for(browser, (By.ID, "new-match-players-0-name"))
        found[f"new {game}"] = serious_violations(browser, source)
    section = host_page(browser, server, created["match_id"])
    send_command(browser, section.get_attribute("id"), "Reissue secret", player="Ada")
    found["confirmation"] = serious_violations(browser, source)
    wait_for(browser, (By.XPATH, "//button[text()='Yes: reissue secret']")).click()
    wait_for(browser, (By.XPATH, "//p[text()='Done.']"))
    found["answer"] = serious_violations(browser, source)
    assert {page: said for page, said in found.items() if said} == {}
    assert problems(browser) == []


def test_the_hosts_season_pages_pass_axe(browser, server) -> None:
    source = axe_source()
    host_page(browser, server, create(server, "crates", CRATES)["match_id"])  # logged in
    browser.get(f"http://127.0.0.1:{server.host_port}/seasons/new")
    wait_for(browser, (By.ID, "new-season-cast-0-id"))
    found: dict[str, Any] = {"new season": serious_violations(browser, source)}
    browser.find_element(By.NAME, "cast.0.id").send_keys("ada")
    browser.find_element(By.CSS_SELECTOR, "button[name='create']").click()  # one player: refused
    wait_for(browser, (By.ID, "reasons"))
    found["new season refused"] = serious_violations(browser, source)
    problems(browser)  # the refusal's 422 is logged as a failed load: expected here
    for row, player in enumerate(("bo", "cy"), start=1):
        browser.find_element(By.NAME, f"cast.{row}.id").send_keys(player)
    Select(browser.find_element(By.NAME, "episodes.0.main")).select_by_visible_text("Domino Auction")
    browser.find_element(By.CSS_SELECTOR, "button[name='create']").click()
    wait_for(browser, (By.ID, "created"))
    found["season created"] = serious_violations(browser, source)
    browser.find_element(By.XPATH, '//a[text()="The season\'s page"]').click()
    wait_for(browser, (By.ID, "season-acts"))
    found["season"] = serious_violations(browser, source)
    browser.find_element(By.XPATH, "//details[@id='season-cancel']/summary").click()
    browser.find_element(By.XPATH, "//details[@id='season-cancel']//button").click()
    wait_for(browser, (By.XPATH, "//button[text()='Yes: cancel the season']"))
    found["season confirmation"] = serious_violations(browser, source)
    browser.find_element(By.XPATH, "//button[text()='Yes: cancel the season']").click()
    wait_for(browser, (By.ID, "done"))
    found["season act answered"] = serious_violations(browser, source)
    browser.get(f"http://127.0.0.1:{server.host_port}/")
    wait_for(browser, (By.ID, "seasons"))
    found["matches and seasons"] = serious_violations(browser, source)
    assert {page: said for page, said in found.items() if said} == {}
