"""The host runs a season from the host's page (issue 31 item 3), against bin/host-server's server
(its stack on a virtual clock), driven as a browser drives it (forms posted with the session's
cookie and token): a new season from the form (the rules' defaults filled in, each refusal beside
its field in words, nothing created) or from its settings file; the confirmation shows each
player by name with their secret once; the "Seasons" list and the season's page say where it
stands; and each of the host's acts on the page (decide for a silent EC, extend, pause, resume,
cancel) reaches the state `match-host season ...` reaches.

Expected values are worked by hand from docs/SEASONS.md and RULINGS.md's "Seasons": a naming
turn's deadlines are `naming_hours` (24) after the turn opened, then `host_hours` (24) more; a
Domino Main Match names one EC, its last place; with three players, one Death Match leaves two,
`finals_at` (2): the Finals follow.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import datetime, timedelta
from html import unescape
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

import pytest
from test_host_create_page import Host, fields_of
from test_host_season import shown
from test_host_server import START, environment, http, player_url  # noqa: F401 - environment: autouse

from game_core.cli import host as match_host_cli
from game_core.match.clock import moment_text
from local_stack.aws.clock import VirtualClock
from local_stack.aws.faults import StepFaults, always
from local_stack.bots.season_play import SeasonRun, SeasonTable
from local_stack.laptop.season_view import season_ids
from local_stack.laptop.server import HostServer

pytestmark = pytest.mark.statemachine

THREE = [("ada", "Ada Lovelace", "ada@example.com"), ("bo", "Bo Peep", ""), ("cy", "Cy Young", "cy@example.net")]


def started(data: Path, games: tuple[str, ...] = ("domino", "abstrac"), **options: Any) -> HostServer:
    return HostServer(data, port=0, clock=VirtualClock(START), games=games, **options).__enter__()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[HostServer]:
    running = started(tmp_path / "data")
    try:
        yield running
    finally:
        running.__exit__()


def new_season_form(host: Host) -> dict[str, str]:
    status, page, _ = host.send("GET", "/seasons/new")
    assert status == 200, page
    return fields_of(page)


def with_cast(fields: dict[str, str], cast: list[tuple[str, str, str]], episodes: list[str]) -> dict[str, str]:
    filled = dict(fields)
    for row, (player, name, email) in enumerate(cast):
        filled |= {f"cast.{row}.id": player, f"cast.{row}.name": name, f"cast.{row}.email": email}
    for row, game in enumerate(episodes):
        filled[f"episodes.{row}.main"] = game
    return filled | {"create": "yes"}


def season_of(page: str) -> str:
    found = re.search(r"Season <strong>(s-[0-9a-z-]+)</strong> is created", page)
    assert found, page
    return found.group(1)


def secrets_on(page: str) -> dict[str, str]:
    return {who: unescape(secret) for who, secret in re.findall(r'<code id="secret-([^"]+)">([^<]+)</code>', page)}


def text_of(page: str) -> str:
    """The page's words, its tags taken off."""
    return unescape(re.sub(r"\s+([.,;:])", r"\1", re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))))


def status(server: HostServer, season_id: str) -> dict[str, Any]:
    reply = server.stack.host({"command": "season", "action": "status", "season_id": season_id})
    assert reply["ok"], reply
    return reply


def test_a_season_is_created_from_the_form_with_the_rules_defaults(server) -> None:
    host = Host(server)
    fields = new_season_form(host)
    # the defaults of docs/SEASONS.md's table: a day each turn, the Finals at 2, Abstrac deal; Death Matches Abstrac row
    assert (fields["naming_hours"], fields["host_hours"], fields["finals_at"]) == ("24", "24", "2")
    assert (fields["final"], fields["episodes.0.death_match"], fields["phase_hours"]) == (
        "abstrac/deal",
        "abstrac/row",
        "24",
    )
    code, page, _ = host.send("POST", "/seasons/new", with_cast(fields, THREE, ["domino"]))
    assert code == 200, text_of(page)
    season_id = season_of(page)
    shown = secrets_on(page)
    assert sorted(shown) == ["ada", "bo", "cy"]
    assert "Ada Lovelace" in text_of(page) and "not shown again" in text_of(page)
    stored = server.stack.ports().seasons.season(season_id)
    settings = stored.settings
    assert [(m.id, m.name, m.email) for m in settings.cast] == [(p, n, e or None) for p, n, e in THREE]
    assert (settings.naming_hours, settings.host_hours, settings.finals_at, settings.tol_spending) == (24, 24, 2, False)
    assert (settings.final.game, settings.final.rule_set) == ("abstrac", "deal")
    assert [(e.main.game, e.death_match.game, e.death_match.rule_set) for e in settings.episodes] == [
        ("domino", "abstrac", "row")
    ]
    assert settings.match_options == {"phase_seconds": 86400, "early_close": False}
    # the secret shown opens the player's first match (the season's machine starts it)
    server.stack.settle()
    [waiting] = status(server, season_id)["waiting"]
    assert waiting["kind"] == "main_match"
    secret = {"Authorization": f"Bearer {shown['ada']}"}
    code, standing = http(player_url(server, waiting["match_id"], "ada"), headers=secret)
    assert code == 200 and standing["view"]["public"]["game"] == "domino", standing
    # sent again (a reload): no second season, no secret shown again
    again_code, again, _ = host.send("POST", "/seasons/new", with_cast(fields, THREE, ["domino"]))
    assert again_code == 200 and not secrets_on(again)
    assert all(secret not in again for secret in shown.values())


def play_until(server: HostServer, table: SeasonTable, kind: str, most: int = 400) -> dict[str, Any]:
    """Let the bots play the season's matches until it waits on `kind` (its status then)."""
    for _ in range(most):
        server.stack.settle()
        now = status(server, table.run.season_id)
        if any(wait["kind"] == kind for wait in now["waiting"]):
            return now
        if table.read() or table.pending:
            table.send()
        else:
            server.stack.advance_to_next_wake()
    raise AssertionError(f"the season never waited on {kind}: {now}")


def created_from_page(server: HostServer, host: Host, episodes: list[str], **change: str) -> SeasonTable:
    """A season created on the page (three players, early close), and its bots' table."""
    inbox = server.stack.subscribe([player for player, _, _ in THREE])
    fields = with_cast(new_season_form(host), THREE, episodes) | {"early_close": "true", "seed": "7"} | change
    code, page, _ = host.send("POST", "/seasons/new", fields)
    assert code == 200, text_of(page)
    return SeasonTable(server.stack, SeasonRun(season_of(page), secrets_on(page)), inbox, lambda *_: None)


def act(host: Host, season_id: str, form_id: str, **fields: str) -> tuple[int, str]:
    """The host's act as the season's page offers it: its form filled in and sent, then, where the
    page asks "are you sure?", its one button."""
    code, page, _ = host.send("GET", f"/seasons/{season_id}")
    assert code == 200 and f'id="{form_id}"' in page, text_of(page)
    form = re.search(rf'<details class="command" id="{form_id}".*?</details>', page, re.S)
    assert form, page
    code, answer, _ = host.send("POST", f"/seasons/{season_id}/act", fields_of(form.group(0)) | fields)
    if "are you sure?" in answer:
        code, answer, _ = host.send("POST", f"/seasons/{season_id}/act", fields_of(answer))
    return code, answer


def match_host(server: HostServer, *args: str) -> dict[str, Any]:
    """`match-host season ...` sent to the server, as the host types it."""
    code = match_host_cli.main(["--server", f"http://127.0.0.1:{server.host_port}", "--data", str(server.data), *args])
    assert code == 0
    return {}


def comparable(server: HostServer, season_id: str) -> str:
    """The season's state and log as stored, but for what differs between two seasons of the same
    settings: their ids (and so their matches'), and each player's secret."""
    seasons = server.stack.ports().seasons
    state = seasons.season(season_id).state.model_dump(mode="json", exclude={"secret_hashes"})
    log = [(event.type, event.at.isoformat(), event.data) for event in seasons.season_events(season_id)]
    said = json.dumps({"state": state, "log": log}, sort_keys=True)
    return re.sub(r"m-[0-9a-f]{12}", "M", said.replace(season_id, "S"))


def naming_by(run: str, tmp_path: Path) -> str:
    """A three-player Domino season played by bots to its EC's naming; then the host extends the
    naming by 12 hours and names the only player the EC may name: on the page (`run` "page") or
    with `match-host season` ("cli"). The season as it stands after (`comparable`)."""
    server = started(tmp_path / run)
    try:
        host = Host(server)
        table = created_from_page(server, host, ["domino"])
        season_id = table.run.season_id
        naming = play_until(server, table, "naming")
        [turn] = [wait for wait in naming["waiting"] if wait["kind"] == "naming"]
        opened = datetime.fromisoformat(naming["opened_at"])
        code, page, _ = host.send("GET", f"/seasons/{season_id}")
        # the EC's 24 hours from the turn's opening, then the host's 24 (docs/SEASONS.md)
        names = {player: name for player, name, _ in THREE}
        zone = None
        said = text_of(page)
        assert f"{names[turn['who'][0]]} to name a Death Match opponent among" in said
        assert f"theirs until {moment_text(opened + timedelta(hours=24), opened, zone)}" in said
        assert f"then yours until {moment_text(opened + timedelta(hours=48), opened, zone)}" in said
        opponent = turn["among"][-1]
        if run == "page":
            code, answer = act(host, season_id, "season-extend", hours="12")
            assert code == 200 and "put off by 12 hours" in text_of(answer), text_of(answer)
            assert f"theirs until {moment_text(opened + timedelta(hours=36), opened, zone)}" in text_of(answer)
            barred = next(p for p, _, _ in THREE if p not in turn["among"])  # the EC, or one holding a ToL
            code, refused = act(host, season_id, "season-decide-0", player=barred)  # posted by hand: not offered
            beside = re.search(r'id="season-decide-0-player-error">([^<]*)<', refused)
            assert code == 422 and beside and beside.group(1) == "Choose one of those offered.", text_of(refused)
            code, answer = act(host, season_id, "season-decide-0", player=opponent)
            assert code == 200, text_of(answer)
            assert f"{names[opponent]} is named {names[turn['who'][0]]}'s Death Match opponent" in text_of(answer)
        else:
            match_host(server, "season", "extend", season_id, "43200")
            match_host(server, "season", "decide", season_id, opponent)
        server.stack.settle()
        naming_done = server.stack.ports().seasons.season(season_id).state.episodes[0].namings[0]
        assert (naming_done.by, naming_done.opponent) == ("host", opponent)
        return comparable(server, season_id)
    finally:
        server.__exit__()


def test_the_host_extends_and_names_for_a_silent_ec_on_the_page_as_match_host_does(tmp_path) -> None:
    assert naming_by("page", tmp_path) == naming_by("cli", tmp_path)


def test_pause_resume_and_cancel_on_the_page_reach_the_state_match_host_reaches(server) -> None:
    host = Host(server)
    on_page = created_from_page(server, host, ["domino"]).run.season_id
    code, page, _ = host.send("GET", f"/seasons/{on_page}")
    settings = server.stack.ports().seasons.season(on_page).settings.model_dump(mode="json")
    by_cli = server.stack.host({"command": "season", "action": "create", "season": settings})["season_id"]
    server.stack.settle()  # both wait on their first Main Match
    [main] = [wait["match_id"] for wait in status(server, on_page)["waiting"]]
    code, answer = act(host, on_page, "season-pause")  # taken at once: a resume undoes it
    assert code == 200 and "Its matches paused: Episode 1 Main Match." in text_of(answer), text_of(answer)
    assert "Paused since" in text_of(answer) and 'id="season-resume"' not in answer  # the answer has no forms
    match_host(server, "season", "pause", by_cli)
    assert (
        status(server, on_page)["paused"]
        and server.stack.host({"command": "status", "match_id": main})["open"]["paused"]
    )
    code, page, _ = host.send("GET", f"/seasons/{on_page}")
    assert 'id="season-resume"' in page and 'id="season-pause"' not in page  # paused: resume offered instead
    code, answer = act(host, on_page, "season-resume")
    assert code == 200 and "Its matches resumed: Episode 1 Main Match." in text_of(answer), text_of(answer)
    match_host(server, "season", "resume", by_cli)
    code, answer = act(host, on_page, "season-cancel")  # asked "are you sure?" first (act says yes)
    assert code == 200 and "Cancelled: nothing more is played" in text_of(answer), text_of(answer)
    match_host(server, "season", "cancel", by_cli)
    server.stack.settle()
    assert comparable(server, on_page) == comparable(server, by_cli)
    assert status(server, on_page)["stage"] == "cancelled"
    code, page, _ = host.send("GET", f"/seasons/{on_page}")
    assert "Cancelled" in text_of(page) and 'id="season-acts"' not in page  # nothing more to do


SIX = [(f"p{i}", f"Player {i}", "") for i in range(1, 7)]
REFUSED = [
    # (the cast, the episodes' Main Matches, other fields, the field, what is said beside it)
    (THREE[:1], ["domino"], {}, "cast.1.name", "List should have at least 2 items"),  # a season takes 2 to 64
    (THREE[:2], ["domino"], {"cast.1.email": "bo@"}, "cast.1.email", "'bo@' is not an e-mail address"),
    # Bo named "ADA": the word ada would name both (names compare ignoring case)
    (THREE[:2], ["domino"], {"cast.1.name": "ADA LOVELACE"}, "cast.1.name", "would name both 'ada' and 'bo'"),
    # Domino names one EC, one Death Match: 3 -> 2 = finals_at after episode 1, so episode 2 is never played
    (THREE, ["domino", "domino"], {}, "episodes.1.main", "episode 2 would never be played: 2 left before it"),
    # six players, one Domino episode: 5 left, more than finals_at (2)
    (SIX, ["domino"], {}, "episodes.0.main", "after episode 1 5 players would be left, more than finals_at (2)"),
    # Puzzler's Clubs seats exactly three
    (SIX, ["clubs"], {}, "episodes.0.main", "episode 1 main match (clubs) would have 6 players; clubs takes 3"),
    # the Finals at 3 of three players: Abstrac (deal) seats two
    (THREE, ["domino"], {"finals_at": "3"}, "final", "final (abstrac deal) would have 3 players; abstrac takes 2"),
    (THREE, ["domino"], {"naming_hours": "0"}, "naming_hours", "greater than or equal to 1"),
    (THREE, ["domino"], {"phase_hours": "0"}, "phase_hours", "A whole number from 1, please."),
    (THREE, ["domino"], {"season_id": "Winter"}, "season_id", "s- then up to 40 small letters"),
]


def test_each_mistake_in_the_form_is_refused_beside_its_field_in_words_and_nothing_is_created(server) -> None:
    host = Host(server)
    fields = new_season_form(host)
    taken = with_cast(fields, THREE, ["domino"]) | {"season_id": "s-winter"}
    assert host.send("POST", "/seasons/new", taken)[0] == 200
    cases = [*REFUSED, (THREE, ["domino"], {"season_id": "s-winter"}, "season_id", "season s-winter exists already")]
    for cast, episodes, change, field, said in cases:
        sent = with_cast(new_season_form(host), cast, episodes) | change
        code, page, _ = host.send("POST", "/seasons/new", sent)
        assert code == 422, (field, text_of(page))
        beside = re.search(rf'id="new-season-{field.replace(".", "-")}-error">([^<]*)<', page)
        assert beside and said.lower() in unescape(beside.group(1)).lower(), (field, said, text_of(page))
        assert all(fields_of(page).get(name) == value for name, value in change.items())  # what was typed is kept
        words = re.sub(r'(name|id|for|aria-describedby)="[^"]*"', "", page)
        assert not re.search(r"\b(cast|episodes)\.\d+\.\w+[.:]", words), field  # no raw path: the label says it
    assert season_ids(server.stack.client("dynamodb")) == ["s-winter"]  # nothing more was created
    # "Add a player row" and "Add an episode row": the form again, one row more, what was typed kept
    code, page, _ = host.send("POST", "/seasons/new", with_cast(fields, THREE, ["domino"]) | {"more": "cast"})
    shown = fields_of(page)
    assert code == 200 and "cast.6.id" in shown and "cast.7.id" not in shown and shown["cast.2.id"] == "cy"
    code, page, _ = host.send("POST", "/seasons/new", shown | {"more": "episodes"})
    assert code == 200 and 'name="episodes.3.main"' in page and fields_of(page)["episodes.0.main"] == "domino"


def posted_file(host: Host, fields: dict[str, str], upload: bytes | None = None) -> tuple[int, str]:
    """The settings file's form sent as a browser sends it (multipart/form-data), the file uploaded or pasted."""
    boundary = "----season-file-7f3a"
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, value in fields.items()
    ]
    if upload is not None:
        head = f'--{boundary}\r\nContent-Disposition: form-data; name="upload"; filename="season.json"\r\n'
        parts.append(head.encode() + b"Content-Type: application/json\r\n\r\n" + upload + b"\r\n")
    body = b"".join(parts) + f"--{boundary}--\r\n".encode()
    connection = HTTPConnection("127.0.0.1", host.server.host_port, timeout=60)
    headers = {"content-type": f"multipart/form-data; boundary={boundary}", "cookie": host.cookie}
    connection.request("POST", "/seasons/file", body, headers)
    reply = connection.getresponse()
    page = reply.read().decode()
    connection.close()
    return reply.status, page


def file_fields(host: Host) -> dict[str, str]:
    """The settings file form's hidden fields (its session token and `once`), as the page has them."""
    _, page, _ = host.send("GET", "/seasons/new")
    form = re.search(r'<form method="post" action="/seasons/file".*?</form>', page, re.S)
    assert form, page
    return fields_of(form.group(0))


def test_a_season_is_created_from_its_settings_file_pasted_or_uploaded(tmp_path) -> None:
    server = started(tmp_path / "data", allow_loopback_webhooks=True)
    try:
        host = Host(server)
        # docs/hosts/season.md's season-create.json (the console's event), pasted: six players by name
        event = json.loads(shown("json", '"action": "create"'))
        code, page = posted_file(host, file_fields(host) | {"settings_file": json.dumps(event)})
        assert code == 200, text_of(page)
        assert sorted(secrets_on(page)) == ["ada", "bo", "cy", "di", "ed", "fay"]
        assert all(name in text_of(page) for name in ("Ada", "Bo", "Cy", "Di", "Ed", "Fay"))
        stored = server.stack.ports().seasons.season(season_of(page)).settings
        assert [e.main.game for e in stored.episodes] == ["domino", "crates", "domino"]
        # the settings alone, uploaded, a bot's webhook among the cast: its signing secret shown once
        settings = {
            "cast": [{"id": "ada"}, {"id": "bo", "webhook": "http://127.0.0.1:9/bo"}, {"id": "cy"}],
            "episodes": [{"main": {"game": "domino"}}],
        }
        code, page = posted_file(host, file_fields(host), json.dumps(settings).encode())
        assert code == 200, text_of(page)
        assert re.search(r'<code id="webhook-bo">[^<]{20,}</code>', page) and 'id="webhook-ada"' not in page
        # a file that cannot make a season: every reason in words, naming its field; nothing created
        before = season_ids(server.stack.client("dynamodb"))
        wrong = {"cast": [{"id": "ada"}], "episodes": [{"main": {"game": "domino"}}], "finals_at": 1}
        code, page = posted_file(host, file_fields(host) | {"settings_file": json.dumps(wrong)})
        reasons = re.search(r'<div id="file-reasons" role="alert">(.*?)</div>', page, re.S)
        assert code == 422 and reasons, text_of(page)
        said = text_of(reasons.group(1))
        assert "cast: List should have at least 2 items" in said and "finals_at: Input should be greater" in said
        code, page = posted_file(host, file_fields(host) | {"settings_file": "{not json"})
        assert code == 422 and "Not JSON" in text_of(page)
        assert season_ids(server.stack.client("dynamodb")) == before
    finally:
        server.__exit__()


GUESTS = {"ada": ("Ann Hall", "ann@example.com"), "bo": ("Ben Ames", ""), "cy": ("Cat Ng", "")}
"""Puzzler's Clubs: each player brings one guest (three teams of two); none is eliminated yet, so
each is someone new, their id made from their name."""


def test_the_guests_of_a_clubs_episode_are_named_on_the_page_as_match_host_names_them(tmp_path) -> None:
    server = started(tmp_path / "data", games=("clubs", "abstrac"))
    try:
        host = Host(server)
        # Clubs seats three and fixes one Death Match's pair, its winner a finalist: 3 -> 2 left, the Finals
        on_page = created_from_page(server, host, ["clubs"]).run.season_id
        settings = server.stack.ports().seasons.season(on_page).settings.model_dump(mode="json")
        by_cli = server.stack.host({"command": "season", "action": "create", "season": settings})["season_id"]
        server.stack.settle()
        code, page, _ = host.send("GET", f"/seasons/{on_page}")
        assert "You: name each player's guests for episode 1 (Puzzler's Clubs)" in text_of(page), text_of(page)
        # Cy's guest left out, then given as Ada (still in the season): each refused beside Cy's guest
        named = {f"guests.{i}.0.name": GUESTS[p][0] for i, p in enumerate(("ada", "bo"))}
        named["guests.0.0.email"] = GUESTS["ada"][1]
        code, refused = act(host, on_page, "season-guests", **named)
        beside = re.search(r'id="season-guests-guests-2-0-name-error">([^<]*)<', refused)
        assert code == 422 and beside and "Choose an eliminated player, or give a name." in beside.group(1)
        code, refused = act(host, on_page, "season-guests", **named, **{"guests.2.0.name": "ada"})
        beside = re.search(r'id="season-guests-guests-2-0-name-error">([^<]*)<', refused)
        assert code == 422 and beside and "ada is still in the season: no guest" in unescape(beside.group(1))
        assert not server.stack.ports().seasons.season(on_page).state.guests  # nothing named
        code, answer = act(host, on_page, "season-guests", **named, **{"guests.2.0.name": GUESTS["cy"][0]})
        assert code == 200 and "The guests of episode 1 are named." in text_of(answer), text_of(answer)
        links = {who: unescape(link) for who, link in re.findall(r'<code id="link-([^"]+)">([^<]+)</code>', answer)}
        assert sorted(links) == ["ann-hall", "ben-ames", "cat-ng"], links
        assert all(
            re.fullmatch(rf"http://127\.0\.0\.1:{server.port}/play/m-[0-9a-f]{{12}}#.+", link)
            for link in links.values()
        )
        given = {
            player: [{"id": name.lower().replace(" ", "-"), "name": name} | ({"email": email} if email else {})]
            for player, (name, email) in GUESTS.items()
        }
        (tmp_path / "guests.json").write_text(json.dumps(given), encoding="utf-8")
        match_host(server, "season", "guests", by_cli, str(tmp_path / "guests.json"))
        server.stack.settle()  # each season starts its Clubs Main Match, its guests seated
        assert comparable(server, on_page) == comparable(server, by_cli)
    finally:
        server.__exit__()


def recovered_by(run: str, tmp_path: Path) -> str:
    """A season whose first Main Match cannot store its resolution (every try fails, as in
    tests/statemachine/test_season_machine.py): the match stalls, and so does the season. The
    season's page says so and offers recover; once AWS works again, the host recovers it on the
    page (`run` "page") or with `match-host season recover` ("cli"). The season as it stands after."""
    server = started(tmp_path / run)
    try:
        host = Host(server)
        faults = StepFaults(server.stack, always("TransactWriteItems"))
        table = created_from_page(server, host, ["domino"])
        season_id = table.run.season_id
        for _ in range(400):
            server.stack.settle()
            if server.stack.execution(season_id, "season")["status"] != "RUNNING":
                break
            if table.read() or table.pending:
                table.send()
            else:
                server.stack.advance_to_next_wake()
        assert server.stack.execution(season_id, "season")["status"] == "FAILED"
        faults.stop()
        code, page, _ = host.send("GET", f"/seasons/{season_id}")
        assert "Stalled: its state machine stopped" in text_of(page) and 'id="season-recover"' in page
        if run == "page":
            code, answer = act(host, season_id, "season-recover")
            assert code == 200, text_of(answer)
            assert "Its state machine runs again. Its matches recovered: Episode 1 Main Match." in text_of(answer)
        else:
            match_host(server, "season", "recover", season_id)
        server.stack.settle()
        assert server.stack.execution(season_id, "season")["status"] == "RUNNING"
        code, page, _ = host.send("GET", f"/seasons/{season_id}")
        assert "Stalled" not in text_of(page) and 'id="season-recover"' not in page
        return comparable(server, season_id)
    finally:
        server.__exit__()


def test_the_host_recovers_a_stalled_season_on_the_page_as_match_host_does(tmp_path) -> None:
    assert recovered_by("page", tmp_path) == recovered_by("cli", tmp_path)
