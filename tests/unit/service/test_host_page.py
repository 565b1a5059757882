"""The host's page (local_stack/laptop/page.py) on the fakes, served the real host-commands handler:
who may see and drive it (the host token's session, its form token, this laptop's own Host and
Origin), what it shows, and the commands it offers from the command models, each that cannot be
undone taken only on a second, confirming step."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlencode

import pytest
from fakes import T0, Fakes
from pydantic import Field

from game_core.games.protocol import Model
from game_core.match.model import MatchRequest
from game_core.service import commands
from game_core.service.matches.lifecycle import create_match, match_status
from game_core.service.ports import Event
from local_stack.aws.lambda_adapter import FakeContext, load_handler
from local_stack.laptop import page as host_page
from local_stack.laptop.http_serving import Request
from local_stack.laptop.page import HostPage, command_forms

ROOT = Path(__file__).resolve().parents[3]
TOKEN = "the-host-token"
PORT = 8081
OWN = {"host": f"127.0.0.1:{PORT}", "origin": f"http://127.0.0.1:{PORT}"}
"""What Chromium sends with a form posted from the host's page itself."""


PAIR = [{"id": "ada", "name": "Ada Lovelace"}, {"id": "bo", "name": "Bo Peep"}]
TRIO = [*PAIR, {"id": "cy", "name": "Cy Young"}]


class Hosted:
    """A Crates match of `players` (Ada Lovelace and Bo Peep) on the fakes, in its Pregame (an
    hour long, from 12:00), and the host's page over it."""

    def __init__(self, players: list[dict[str, str]] = PAIR) -> None:
        self.fakes = Fakes()
        request = MatchRequest.model_validate({"game": "crates", "players": players, "phase_seconds": 3600})
        self.match_id = create_match(self.fakes.ports, request)["match_id"]
        handler = load_handler(ROOT / "functions" / "host_commands", "app.handler", lambda: self.fakes.ports)
        status = lambda match: match_status(self.fakes.ports, match.match_id, match)  # noqa: E731
        self.page = HostPage(TOKEN, self.matches, status, lambda command: handler(command, FakeContext("HostCommands")))
        self.page.port = PORT

    def matches(self) -> list[Any]:
        return [self.fakes.store.get(self.match_id)]

    def send(
        self, method: str, path: str, form: dict[str, str] | None = None, cookie: str = "", **headers: str
    ) -> tuple[int, str, dict[str, str]]:
        source_ip = headers.pop("source_ip", "127.0.0.1")
        sent = OWN | {"cookie": cookie} | {name.replace("_", "-"): value for name, value in headers.items()}
        body = urlencode(form or {}).encode()
        status, reply, reply_headers = self.page(Request(method, path, "", sent, body, source_ip))
        return status, reply.decode(), reply_headers

    def log_in(self) -> tuple[str, str]:
        """The session cookie and the form token of a logged-in page."""
        status, _, headers = self.send("POST", "/login", {"token": TOKEN})
        assert status == 303, headers
        cookie = headers["set-cookie"].split(";")[0]
        _, page, _ = self.send("GET", "/", cookie=cookie)
        found = re.search(r'name="csrf" value="([0-9a-f]+)"', page)
        assert found, page
        return cookie, found.group(1)

    def status(self) -> str:
        match = self.fakes.store.get(self.match_id)
        paused = match.status == "running" and match.phase is not None and match.phase.paused
        return "paused" if paused else match.status


@pytest.fixture
def hosted() -> Hosted:
    return Hosted()


def test_the_page_asks_for_the_host_token_and_keeps_the_session_in_a_strict_http_only_cookie(hosted) -> None:
    status, page, _ = hosted.send("GET", "/")
    assert status == 200 and 'action="/login"' in page and hosted.match_id not in page
    status, page, headers = hosted.send("POST", "/login", {"token": "a guess"})
    assert status == 401 and "That is not the host token." in page and "set-cookie" not in headers
    status, _, headers = hosted.send("POST", "/login", {"token": TOKEN})
    assert status == 303 and headers["location"] == "/"
    assert {"HttpOnly", "SameSite=Strict", "Path=/"} <= {part.strip() for part in headers["set-cookie"].split(";")}
    forged = "host_session=abc." + "0" * 64  # a session not signed with the host token
    assert hosted.send("GET", "/", cookie=forged)[1].count('action="/login"') == 1


def test_every_match_shows_its_phase_deadline_and_who_owes_what_by_name(hosted) -> None:
    cookie, _ = hosted.log_in()
    status, page, headers = hosted.send("GET", "/", cookie=cookie)
    assert status == 200 and "unsafe-inline" not in headers["content-security-policy"]
    assert headers["cache-control"] == "no-store"
    # Created at 12:00 on Tuesday 1 December 2026 (the fakes' clock), an hour a phase: the
    # Pregame's deadline is 13:00 UTC, an hour away; both owe their multipliers.
    assert "<dt>Phase</dt><dd>Pregame (phase 1)</dd>" in page
    assert "<dt>Deadline</dt><dd>Tuesday 1 December, 13:00 UTC, in 1 hour</dd>" in page
    assert "<dt>Waiting for</dt><dd>Ada Lovelace: multipliers; Bo Peep: multipliers</dd>" in page


STANDING = {
    # what each command of the models the page was written with asks for
    "extend": ["seconds"],
    "pause": [],
    "resume": [],
    "resolve_now": [],
    "cancel": [],
    "recover": [],
    "decide": [f"order.{place}" for place in range(64)],  # a choice a place, as many as it may rank
    "press": ["text", "to"],
    "reissue_secret": ["player"],
    "webhook": ["target", "url"],
}


def test_a_result_left_tied_is_shown_for_the_host_to_decide(hosted) -> None:
    tied = {"undecided": ["bo", "ada"]}  # as a result's tie across a ToL or EC line names them
    status = {"match_id": hosted.match_id, "game": "crates", "status": "finished", "result": tied}
    section = host_page.match_section(hosted.matches()[0], status, "csrf")
    assert "<dt>Tie to decide</dt><dd>Bo Peep, Ada Lovelace</dd>" in section and "Waiting for" not in section


# -- participants chosen by name ------------------------------------------------------------------

PARTICIPANT_CHOICES = [
    # (command, field): each field of the command models naming a participant of the match
    ("decide", "order.0"),
    ("decide", "order.1"),
    ("decide", "order.2"),  # a place for each of the three: a tie may hold them all
    ("press", "to"),
    ("reissue_secret", "player"),
    ("replace", "seat"),
    ("graces", "player"),
    ("absence", "player"),
]


def choices_on(section: str) -> dict[str, list[tuple[str, str]]]:
    """Each select of a match's section offering its participants: its id -> (value, shown) after
    the blank first option."""
    selects = re.findall(r'<select id="([^"]+)"[^>]*>(.*?)</select>', section)
    return {
        select_id: re.findall(r'<option value="([^"]*)">([^<]*)</option>', options)[1:]
        for select_id, options in selects
        if 'value="ada"' in options
    }


def test_each_field_naming_a_participant_offers_the_matchs_by_name_and_sends_the_id() -> None:
    section = host_page.match_section(Hosted(TRIO).matches()[0], {}, "csrf")
    # Ada, Bo and Cy in seating order, each shown by name, sent as the id the command reads.
    trio = [("ada", "Ada Lovelace"), ("bo", "Bo Peep"), ("cy", "Cy Young")]
    expected = {f"{command}-{field.replace('.', '-')}": trio for command, field in PARTICIPANT_CHOICES}
    assert choices_on(section) == expected  # decide's fourth place and on are not shown: three to rank
    # A webhook's target may also be "@public" or "@alerts": typed, as before.
    assert '<input type="text" id="webhook-target" name="target" required maxlength="80">' in section


def test_a_participant_chosen_on_the_page_is_the_one_the_command_acts_on() -> None:
    hosted = Hosted(TRIO)
    cookie, csrf = hosted.log_in()
    hashes = {player.id: player.secret_hash for player in hosted.matches()[0].players}
    _, page, _ = hosted.send("GET", "/", cookie=cookie)
    [cy] = [value for value, shown in choices_on(page)["reissue_secret-player"] if shown == "Cy Young"]
    form = {"csrf": csrf, "match_id": hosted.match_id, "command": "reissue_secret", "player": cy}  # as chosen
    status, page, _ = hosted.send("POST", "/command", form | {"confirmed": "yes", "once": "a-form"}, cookie)
    # The answer in words, the player by name (was the reply's raw JSON, naming "cy").
    assert status == 200 and '<dt>Player</dt><dd id="answer-player">Cy Young</dd>' in page
    assert "&quot;" not in page and '"player"' not in page
    now = {player.id: player.secret_hash for player in hosted.matches()[0].players}
    assert [player for player in now if now[player] != hashes[player]] == ["cy"]  # Cy's alone


def test_a_tie_is_decided_by_choosing_each_place_confirmed_with_the_places_chosen() -> None:
    hosted = Hosted(TRIO)
    match = hosted.matches()[0]
    tied = {  # all three tied at the top, one EC place between them
        "standings": [
            {"place": 1, "player": p, "score": "3", "tied_with": ["ada", "bo", "cy"]} for p in "ada bo cy".split()
        ],
        "tol": [],
        "tol_awarded": {},
        "ec": ["ada", "bo", "cy"],
        "undecided": ["ada", "bo", "cy"],
        "tied_lines": [{"line": "ec", "players": ["ada", "bo", "cy"], "places": 1, "award": 1}],
        "garnets": {"ada": 1, "bo": 1, "cy": 1},
        "details": {},
    }
    finished = match.model_copy(update={"status": "finished", "phase": None, "result": tied, "version": 9})
    hosted.fakes.store.save(match, finished, Event("finished", T0, {}))
    cookie, csrf = hosted.log_in()
    form = {"csrf": csrf, "match_id": hosted.match_id, "command": "decide", "once": "a-form"}
    form |= {"order.0": "cy", "order.1": "bo", "order.2": "ada"}
    status, page, _ = hosted.send("POST", "/command", form, cookie)
    # The confirming page lists the three places chosen (none of the 61 left empty), by name (the
    # ids, cy bo ada, were shown before), and keeps them.
    shown = "<dt>Order 1</dt><dd>Cy Young</dd><dt>Order 2</dt><dd>Bo Peep</dd><dt>Order 3</dt><dd>Ada Lovelace</dd>"
    assert status == 200 and f"<dl>{shown}</dl>" in page
    assert re.findall(r'name="(order\.\d+)" value="(\w+)"', page) == [
        ("order.0", "cy"),
        ("order.1", "bo"),
        ("order.2", "ada"),
    ]
    status, page, _ = hosted.send("POST", "/command", form | {"confirmed": "yes"}, cookie)
    # Cy, Bo, Ada best first: places 1, 2, 3, and the one EC place goes to the last, Ada.
    result = hosted.fakes.store.get(hosted.match_id).result
    assert status == 200 and result["decision"] == ["cy", "bo", "ada"] and result["ec"] == ["ada"]
    assert [(s["player"], s["place"]) for s in result["standings"]] == [("cy", 1), ("bo", 2), ("ada", 3)]
    # The answer is the result in a table, by name (issue 30 item 3; was the reply's raw JSON):
    # places 1, 2, 3 as decided, each with the score 3, no ToL (none was awarded), Ada the one
    # EC, each +1 garnet as the tied result had it.
    rows = [
        ("1", "Cy Young", "3", "none", "no", "+1"),
        ("2", "Bo Peep", "3", "none", "no", "+1"),
        ("3", "Ada Lovelace", "3", "none", "yes", "+1"),
    ]
    table = page[page.index('<table class="result">') : page.index("</table>")]
    assert re.findall(r"<tr><td>" + "</td><td>".join(["([^<]*)"] * 6) + "</td></tr>", table) == rows
    assert '"standings"' not in page  # the result is not shown again as JSON
    _, listing, _ = hosted.send("GET", "/", cookie=cookie)  # and so on the page of every match
    assert table in listing


@pytest.mark.parametrize(
    ("posted", "order"),
    [
        ({"order.0": "cy", "order.1": "bo", "order.2": "ada"}, ["cy", "bo", "ada"]),
        ({"order.0": "cy", "order.1": "", "order.2": "ada"}, ["cy", "ada"]),  # a place left empty is not sent
        ({"order.10": "cy", "order.2": "bo"}, ["bo", "cy"]),  # by place, 2 before 10, not as posted or as text
    ],
)
def test_decides_places_are_read_best_first(posted, order) -> None:
    [decide] = [form for form in command_forms() if form.command == "decide"]
    assert decide.command_from("m-1", posted) == {"command": "decide", "match_id": "m-1", "order": order}


def test_the_page_offers_each_command_on_one_match_a_form_can_hold() -> None:
    # status is the page itself and export a file; create (a settings file) and act (a free
    # JSON action) have fields no form holds. These, each from its model's fields (and any
    # command added since: the next test).
    offered = {form.command: [field.name for field in form.form.inputs] for form in command_forms()}
    assert not {"status", "export", "create", "act"} & set(offered)
    assert {command: offered.get(command) for command in STANDING} == STANDING


def test_a_command_added_to_the_models_appears_and_asks_for_confirmation(monkeypatch) -> None:
    class Shout(Model):
        command: Literal["shout"]
        match_id: str
        times: int = Field(ge=1, le=3)
        tone: Literal["loud", "soft"] | None = None

    union = Annotated[commands.Extend | Shout, Field(discriminator="command")]
    monkeypatch.setattr(host_page, "HostCommand", union)
    command_forms.cache_clear()
    try:
        (extend, shout) = command_forms()
        times, tone = shout.form.inputs
        assert (shout.command, shout.confirms, times.minimum, times.maximum) == ("shout", True, 1, 3)
        assert (tone.widget, tone.options, tone.required) == ("select", ("loud", "soft"), False)
        assert '<option value="soft">soft</option>' in host_page.match_section(Hosted().matches()[0], {}, "csrf")
    finally:
        command_forms.cache_clear()


def test_pause_is_taken_at_once_and_cancel_only_once_confirmed(hosted) -> None:
    cookie, csrf = hosted.log_in()
    form = {"csrf": csrf, "match_id": hosted.match_id, "once": "a-form"}
    status, page, _ = hosted.send("POST", "/command", form | {"command": "pause"}, cookie)
    assert (status, hosted.status()) == (200, "paused") and "Done." in page
    status, page, _ = hosted.send("POST", "/command", form | {"command": "cancel"}, cookie)
    assert status == 200 and "This cannot be undone." in page and hosted.status() == "paused"
    assert 'name="confirmed" value="yes"' in page
    confirmed = form | {"command": "cancel", "confirmed": "yes", "once": "another-form"}
    status, page, _ = hosted.send("POST", "/command", confirmed, cookie)
    assert (status, hosted.status()) == (200, "cancelled")


def test_a_command_sent_again_is_answered_the_same_and_done_once(hosted) -> None:
    cookie, csrf = hosted.log_in()
    form = {"csrf": csrf, "match_id": hosted.match_id, "command": "extend", "seconds": "600", "confirmed": "yes"}
    first = hosted.send("POST", "/command", form | {"once": "form-1"}, cookie)
    again = hosted.send("POST", "/command", form | {"once": "form-1"}, cookie)  # a reload of the answer
    assert first[0] == 200 and again == first
    # The Pregame closed at 13:00 (an hour from 12:00): 600 s once is 13:10, not 13:20.
    assert hosted.fakes.store.get(hosted.match_id).phase.deadline.strftime("%H:%M") == "13:10"
    said = re.search(r'<dd id="answer-deadline">([^<]*)</dd>', first[1])  # the answer says it in words
    assert said is not None and said.group(1).endswith(", 13:10 UTC"), said
    hosted.send("POST", "/command", form | {"once": "form-2"}, cookie)  # another form: another extension
    assert hosted.fakes.store.get(hosted.match_id).phase.deadline.strftime("%H:%M") == "13:20"
    assert hosted.send("POST", "/command", form, cookie)[0] == 400  # a form without its key is not the page's


def test_a_refused_command_shows_the_services_reasons(hosted) -> None:
    cookie, csrf = hosted.log_in()
    form = {"csrf": csrf, "match_id": hosted.match_id, "command": "extend", "seconds": "soon", "confirmed": "yes"}
    form["once"] = "a-form"
    status, page, _ = hosted.send("POST", "/command", form, cookie)
    # The command model takes whole seconds: "soon" is refused by the service, naming the field.
    assert status == 422 and "Refused: the command is malformed" in page and "seconds" in page
    assert hosted.status() == "running"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"csrf": ""}, 403),  # no form token: a form made elsewhere
        ({"csrf": "0" * 64}, 403),  # another session's (or a guessed) form token
        ({"origin": "https://evil.example"}, 403),  # another site's page posting to the laptop
        ({"origin": "http://127.0.0.1:8080"}, 403),  # the players' port: the same site, not the host's page
        ({"origin": "null"}, 403),  # a sandboxed page or a file
        ({"host": "rebound.example:8081"}, 403),  # a name rebound to 127.0.0.1
        ({"source_ip": "192.168.1.20"}, 403),  # not this laptop
        ({"cookie": ""}, 401),  # no session: log in first
    ],
)
def test_a_command_not_from_the_hosts_own_page_changes_nothing(hosted, change, expected) -> None:
    cookie, csrf = hosted.log_in()
    form = {"csrf": change.pop("csrf", csrf), "match_id": hosted.match_id, "command": "pause", "once": "a-form"}
    status, _, _ = hosted.send("POST", "/command", form, change.pop("cookie", cookie), **change)
    assert (status, hosted.status()) == (expected, "running")


def test_only_the_pages_paths_and_methods_are_served(hosted) -> None:
    assert hosted.send("GET", "/command")[0] == 405
    assert hosted.send("POST", "/")[0] == 405
    assert hosted.send("GET", "/elsewhere")[0] == 404


def test_the_style_sheet_is_linked_by_its_contents_hash_and_kept_a_year(hosted) -> None:
    # As the player's page links it (assets.url): an update is a new address, never a stale sheet.
    _, page, _ = hosted.send("GET", "/")
    found = re.search(r'<link rel="stylesheet" href="/static/page\.css\?v=([0-9a-f]{12})">', page)
    assert found is not None, page
    css = (ROOT / "layers/game_core/game_core/service/page/static/page.css").read_bytes()
    assert found.group(1) == hashlib.sha256(css).hexdigest()[:12]
    status, served, headers = hosted.send("GET", "/static/page.css")  # the query is not the path
    assert (status, served.encode(), headers["cache-control"]) == (200, css, "public, max-age=31536000")
