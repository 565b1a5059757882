"""The host starts a match from the host's page (issue 30, item 5), against bin/host-server's
server (its stack on a virtual clock): a form per game with the rules' defaults filled in, the
players one a row, each refusal beside its field in words, each player's link shown once, working,
and mailed through the server's mail queue on request; `match-host create` prints the same links.

Expected values are worked by hand from the rules text and the settings' schemas, not read from
the code: e.g. Abstrac's row clock, "each move has 24 hours, plus a 48-hour reserve" (86400 and
172800 seconds), the deal game's "target (400...)" and "5 periods ... a period is 24 hours".
"""

from __future__ import annotations

import contextlib
import email
import email.policy
import http.client
import json
import os
import re
import socket
import time
from collections.abc import Iterator
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest
from conftest import load_event
from test_host_server import START

from game_core.aws.wiring import ports_from_environment
from game_core.cli import host as match_host
from local_stack.aws.clock import VirtualClock
from local_stack.aws.mail import SmtpRelay
from local_stack.laptop.mail_queue import QUEUE_FILE
from local_stack.laptop.server import HostServer

pytestmark = pytest.mark.statemachine

DEFAULTS = {
    "crates": {"rule_set": "default", "lot": None},
    "palindrome": {"rule_set": "mm8", "packs": {}, "items": {}},
    "abstrac": {
        "rule_set": "row",
        "protected": None,
        "move_seconds": 86400,
        "reserve_seconds": 172800,
        "on_empty_reserve": "lose",
        "first_starter": None,
        "target": 400,
        "period_seconds": 86400,
        "start_periods": 5,
        "deal_lines": None,
    },
    "domino": {"rule_set": "default", "tiles": {}},
    "clubs": {"rule_set": "default", "puzzles": None, "deals": None, "lot": None},
}
"""Each game's settings when the host changes nothing: the rules' defaults (rules.md of each game:
Palindrome's Main Match 8 is the first rule set; the fixed deals none, so drawn)."""
TRIO = [("Ada Lovelace", "ada@example.com"), ("Bo Peep", ""), ("Cy Young", "cy@example.net")]
GUESTS = ("Ann Hall", "Ben Ames", "Cat Ng")
"""Puzzler's Clubs: each player brings a guest (three teams of two)."""


class Fields(HTMLParser):
    """The fields a page's forms send as they stand: inputs' values, checked boxes, chosen options."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, str] = {}
        self._select = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "input" and found.get("type") not in ("checkbox", "submit") and "name" in found:
            self.fields[found["name"]] = found.get("value", "")
        elif tag == "input" and found.get("type") == "checkbox" and "checked" in found:
            self.fields[found["name"]] = found.get("value", "")
        elif tag == "select":
            self._select = found.get("name", "")
        elif tag == "option" and "selected" in found and self._select:
            self.fields[self._select] = found.get("value", "")


def fields_of(page: str) -> dict[str, str]:
    reader = Fields()
    reader.feed(page)
    return reader.fields


def error_beside(page: str, field: str) -> str:
    """The words shown beside a field of the new match's form ("" if none)."""
    found = re.search(rf'id="new-match-{field.replace(".", "-")}-error">([^<]*)<', page)
    return unescape(found.group(1)) if found else ""


class Host:
    """The host's browser on the host's page: logged in with the host token."""

    def __init__(self, server: HostServer) -> None:
        self.server = server
        status, _, headers = self.send("POST", "/login", {"token": server.host_token})
        assert status == 303
        self.cookie = headers["set-cookie"].split(";")[0]

    def send(self, method: str, path: str, form: dict[str, str] | None = None) -> tuple[int, str, dict[str, str]]:
        connection = http.client.HTTPConnection("127.0.0.1", self.server.host_port, timeout=60)
        headers = {"content-type": "application/x-www-form-urlencoded"}
        headers |= {"cookie": self.cookie} if getattr(self, "cookie", "") else {}
        connection.request(method, path, urlencode(form or {}).encode(), headers)
        reply = connection.getresponse()
        body = reply.read().decode()
        connection.close()
        return reply.status, body, {name.lower(): value for name, value in reply.getheaders()}

    def new_match(self, game: str) -> dict[str, str]:
        status, page, _ = self.send("GET", f"/new?game={game}")
        assert status == 200, page
        return fields_of(page)


def with_players(
    fields: dict[str, str], players: list[tuple[str, str]], guests: tuple[str, ...] = ()
) -> dict[str, str]:
    filled = dict(fields)
    for row, (name, address) in enumerate(players):
        filled |= {f"players.{row}.name": name, f"players.{row}.address": address}
    for row, guest in enumerate(guests):
        filled[f"players.{row}.guests.0.name"] = guest
    return filled | {"create": "yes"}


def links_on(page: str) -> dict[str, str]:
    return {who: unescape(link) for who, link in re.findall(r'<code id="link-([^"]+)">([^<]+)</code>', page)}


def created_id(page: str) -> str:
    found = re.search(r"Match <strong>(m-[0-9a-f]+)</strong> is created", page)
    assert found, page
    return found.group(1)


def started(data: Path, **options: Any) -> HostServer:
    return HostServer(data, port=0, clock=VirtualClock(START), **options).__enter__()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostServer]:
    """One server with every game (its stack sets the process environment: restored afterwards)."""
    saved = dict(os.environ)
    with free_port() as down:  # a relay that is down: the server's mail waits in its queue, as all of it does
        running = started(tmp_path_factory.mktemp("data"), relay=SmtpRelay("127.0.0.1", down, security="plain"))
    try:
        yield running
    finally:
        running.__exit__()
        ports_from_environment.cache_clear()
        os.environ.clear()
        os.environ.update(saved)
        time.tzset()


@pytest.mark.parametrize("game", list(DEFAULTS))
def test_a_match_of_each_game_is_created_from_the_page_with_the_rules_defaults(server, game) -> None:
    host = Host(server)
    clubs = game == "clubs"
    fields = host.new_match(game)
    players = TRIO if clubs else TRIO[:2]  # Abstrac seats two, Clubs three
    status, page, _ = host.send("POST", "/new", with_players(fields, players, GUESTS if clubs else ()))
    assert status == 200, page
    match = server.stack.ports().store.get(created_id(page))
    assert (match.game, match.settings) == (game, DEFAULTS[game])
    assert match.phase_seconds == 86400  # the form's 24 hours
    assert not match.early_close
    ids = ["ada-lovelace", "bo-peep", "cy-young"] if clubs else ["ada-lovelace", "bo-peep"]  # made from the names
    guests = {"ann-hall": "ada-lovelace", "ben-ames": "bo-peep", "cat-ng": "cy-young"} if clubs else {}
    assert ({p.id for p in match.players}, match.guests) == (set(ids) | set(guests), guests)
    ids += list(guests)
    # each participant's link, once each, to the players' port of this server
    assert sorted(links_on(page)) == sorted(ids)
    assert all(
        link.startswith(f"http://127.0.0.1:{server.port}/play/{match.match_id}#") for link in links_on(page).values()
    )
    assert "These links are not shown again" in page


@pytest.mark.parametrize(
    ("game", "change", "field", "said"),
    [
        # no players at all: beside the first row, with the game's count (rules: 2 to 16 crates)
        ("crates", {}, "players.0.name", "Pushing Crates takes 2 to 16 players (none named yet): one a row."),
        # a bad address, in row 2
        (
            "crates",
            {"players.0.name": "Ada", "players.1.name": "Bo", "players.1.address": "bo@"},
            "players.1.address",
            "'bo@' is not an e-mail address (local@domain)",
        ),
        # a name twice (names compare ignoring case)
        (
            "crates",
            {"players.0.name": "Ada", "players.1.name": "ADA"},
            "players.1.name",
            "Too like the name in row 1: give each player a name of their own.",
        ),
        # a number out of range: at most 100 periods (MOST_PERIODS), a phase of at least an hour
        (
            "abstrac",
            {"players.0.name": "Ada", "players.1.name": "Bo", "settings.start_periods": "101"},
            "settings.start_periods",
            "At most 100.",
        ),
        (
            "abstrac",
            {"players.0.name": "Ada", "players.1.name": "Bo", "phase_hours": "0"},
            "phase_hours",
            "A whole number of hours, from 1 to 8784 (24 is a day).",
        ),
        # a time zone that is none
        (
            "crates",
            {"players.0.name": "Ada", "players.1.name": "Bo", "players.0.zone": "Mars/Olympus"},
            "players.0.zone",
            "Mars/Olympus",
        ),
    ],
)
def test_each_mistake_is_refused_beside_its_field_in_words_and_nothing_is_created(
    server, game, change, field, said
) -> None:
    host = Host(server)
    before = len(server._matches())
    fields = host.new_match(game) | change | {"create": "yes"}
    status, page, _ = host.send("POST", "/new", fields)
    assert status == 422, page
    assert said in error_beside(page, field)
    assert not re.search(
        r"\b(players|settings)\.\d*\.?\w+[.:]", re.sub(r'(name|id|for|aria-describedby)="[^"]*"', "", page)
    )  # no raw path
    assert all(fields_of(page).get(name) == value for name, value in change.items())  # what was typed is kept
    assert len(server._matches()) == before


def test_a_setting_naming_a_player_is_chosen_by_row_and_sent_as_their_id(server) -> None:
    host = Host(server)
    # Abstrac's deal game, Bo (row 2) starting the first deal, to 500, two periods of an hour each
    chosen = {"settings.rule_set": "deal", "settings.first_starter": "2", "settings.target": "500"}
    chosen |= {"settings.period_seconds": "3600", "settings.start_periods": "2"}
    status, page, _ = host.send("POST", "/new", with_players(host.new_match("abstrac") | chosen, TRIO[:2]))
    assert status == 200, page
    settings = server.stack.ports().store.get(created_id(page)).settings
    assert (
        DEFAULTS["abstrac"]
        | {"rule_set": "deal", "first_starter": "bo-peep", "target": 500}
        | {
            "period_seconds": 3600,
            "start_periods": 2,
        }
        == settings
    )


def test_add_a_row_shows_one_more_without_a_script_and_keeps_what_was_typed(server) -> None:
    host = Host(server)
    fields = host.new_match("crates") | {"players.0.name": "Ada", "more": "yes"}
    assert "players.4.name" not in fields  # four rows at first
    status, page, _ = host.send("POST", "/new", fields)
    assert status == 200
    shown = fields_of(page)
    assert "players.4.name" in shown and "players.5.name" not in shown
    assert shown["players.0.name"] == "Ada"


def test_the_links_sign_each_player_in_and_are_shown_once(server) -> None:
    host = Host(server)
    sent = with_players(host.new_match("crates"), TRIO)
    _, page, _ = host.send("POST", "/new", sent)
    links = links_on(page)
    for who, name in (("ada-lovelace", "Ada Lovelace"), ("cy-young", "Cy Young")):
        parts = urlsplit(links[who])
        players = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        players.request("GET", parts.path)
        first = players.getresponse()
        assert (first.status, b'id="sign-in"' in first.read()) == (200, True)
        players.request(
            "POST",
            f"{parts.path}/session",
            urlencode({"secret": parts.fragment}),
            {"content-type": "application/x-www-form-urlencoded"},
        )
        signed = players.getresponse()
        signed.read()
        assert signed.status == 303
        players.request("GET", parts.path, headers={"cookie": signed.getheader("set-cookie").split(";")[0]})
        own = players.getresponse()
        assert own.status == 200 and name in own.read().decode()
        players.close()
    # the same form sent again (a reload) makes no second match and shows no link
    again_status, again, _ = host.send("POST", "/new", sent)
    assert again_status == 200 and "created match" in again and not links_on(again)
    assert all(urlsplit(link).fragment not in again for link in links.values())


def test_the_mail_button_mails_each_player_with_an_address_their_link_through_the_mail_queue(server) -> None:
    host = Host(server)
    _, page, _ = host.send("POST", "/new", with_players(host.new_match("crates"), TRIO))
    links = links_on(page)
    assert 'id="mail-links"' in page
    sent = {"csrf": fields_of(page)["csrf"], "once": fields_of(page)["once"]}
    status, mailed, _ = host.send("POST", "/links", sent)
    assert status == 200, mailed
    assert "<dt>Mailed</dt><dd>Ada Lovelace, Cy Young</dd>" in mailed
    assert "<dt>No address: send it yourself</dt><dd>Bo Peep</dd>" in mailed

    def to_ada() -> list[str]:
        told = (
            email.message_from_bytes(mail.raw, policy=email.policy.default)
            for mail in server.stack.outbox.to("ada@example.com")
        )
        return [message.get_content() for message in told if message["subject"] == "Pushing Crates: your page"]

    assert len(to_ada()) == 1 and links["ada-lovelace"] in to_ada()[0].split()
    queued = (server.data / QUEUE_FILE).read_text()  # waiting for the relay, as the rest of its mail
    assert links["cy-young"][-12:] in queued.replace("=\r\n", "") or "cy@example.net" in queued
    # sent again: nobody is mailed twice
    _, again, _ = host.send("POST", "/links", sent)
    assert "<dt>Mailed before (not again)</dt><dd>Ada Lovelace, Cy Young</dd>" in again
    assert len(to_ada()) == 1


@contextlib.contextmanager
def free_port() -> Iterator[int]:
    """A free loopback port (nothing listens on it after the block)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        yield int(probe.getsockname()[1])


def test_match_host_create_prints_each_players_link(server, tmp_path, capsys) -> None:
    settings = tmp_path / "settings.json"
    players = [{"id": "flo", "name": "Flo", "email": "flo@example.com"}, {"id": "gus", "name": "Gus"}]
    settings.write_text(json.dumps({"game": "crates", "players": players}))
    (tmp_path / "host-token").write_text(server.host_token)
    code = match_host.main(
        ["--server", f"http://127.0.0.1:{server.host_port}", "--data", str(tmp_path), "create", str(settings)]
    )
    out, err = capsys.readouterr()
    assert code == 0, out + err
    reply = json.loads(out)  # still JSON on stdout, for scripts
    expected = {
        who: f"http://127.0.0.1:{server.port}/play/{reply['match_id']}#{secret}"
        for who, secret in reply["secrets"].items()
    }
    assert reply["links"] == expected
    assert f"flo: {expected['flo']}" in err and f"gus: {expected['gus']}" in err  # and for the host to read


def test_the_consoles_sample_event_with_creates_links_mails_them_and_refuses_another_secret(server) -> None:
    created = server.stack.host(load_event("host_create.json"))  # the console's samples, one after the other
    assert created["ok"], created
    sample = load_event("host_mail_links.json", created["match_id"])
    refused = server.stack.host(sample)  # sent as it stands: no secret of Ada's
    assert (refused["ok"], [reason["code"] for reason in refused["reasons"]]) == (False, ["link_secret"])
    mailed = server.stack.host(sample | {"links": created["links"]})
    assert (mailed["mailed"], mailed["no_address"]) == (["ada"], ["bo", "cy", "di", "ed"])  # Ada alone has an address
