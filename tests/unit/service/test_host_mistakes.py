"""The mistakes a host makes copying the README's commands for graces, absences, press and
replacements (and the settings file's fields for them), each sent as the console or match-host
sends it, through the host-commands handler on the fakes: each is refused with one reason that
names what is wrong and how to write it, and changes nothing (no write, nothing told). Then what
a copy does to a command before it reaches the service (a placeholder left in, dashes and quotes
set in type) and to the host server (a port another program holds, a data folder given by a
relative path), each named in one line.

The match: Pushing Crates of Ada Lovelace (ada@example.com) and Bo (bo@example.com), 2 graces of
12 hours each, press on at 10 an hour, in its Pregame from Tuesday 1 December 2026, 12:00 UTC;
Ada has declared herself away 24 to 27 December (UTC, her zone being unset)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fakes import Fakes

from game_core.match.model import MatchRequest
from game_core.service import commands
from game_core.service.matches import absence
from game_core.service.matches.lifecycle import create_match
from local_stack.aws.lambda_adapter import FakeContext, load_handler

ROOT = Path(__file__).resolve().parents[3]
SETTINGS: dict[str, Any] = {
    "game": "crates",
    "players": [
        {"id": "ada", "name": "Ada Lovelace", "email": "ada@example.com"},
        {"id": "bo", "name": "Bo", "email": "bo@example.com"},
    ],
    "phase_seconds": 86400,
    "graces": 2,
    "grace_seconds": 43200,
}


class Hosted:
    def __init__(self) -> None:
        self.fakes = Fakes()
        self.match_id = create_match(self.fakes.ports, MatchRequest.model_validate(SETTINGS))["match_id"]
        absence.declare(self.fakes.ports, self.match_id, "ada", "2026-12-24", "2026-12-27", "test")
        self.handler = load_handler(ROOT / "functions" / "host_commands", "app.handler", lambda: self.fakes.ports)
        self.fakes.notifier.published.clear()
        self.fakes.mailer.sent.clear()

    def send(self, command: dict[str, Any]) -> dict[str, Any]:
        reply: dict[str, Any] = self.handler(command, FakeContext("HostCommands"))
        return reply

    def stored(self) -> tuple[Any, int]:
        """The match as stored and how many events its log holds."""
        return self.fakes.store.get(self.match_id), len(self.fakes.store.events(self.match_id))


def settings(**changes: Any) -> dict[str, Any]:
    """The create command of SETTINGS with `changes` (a value None: that field left out)."""
    changed = {key: value for key, value in (SETTINGS | changes).items() if value is not None}
    return {"command": "create", "match": changed}


MID = "{match}"
"""Stands for the match's id in a row's command."""
MISTAKES = [
    # (the mistake, the command, the error, the reason's code, its text worked out from the rule)
    (
        "a settings field misspelt (grace for graces)",
        settings(graces=None, grace=2),
        "Malformed",
        "extra_forbidden",
        "create.match.grace: no such field: did you mean graces?",
    ),
    (
        "graces without grace_seconds",
        settings(grace_seconds=None),
        "Malformed",
        "value_error",
        "create.match: graces (2) and grace_seconds (0) go together: give both",
    ),
    (
        "grace_seconds as 12h: 12 x 3600 = 43200",
        settings(grace_seconds="12h"),
        "Malformed",
        "int_parsing",
        "create.match.grace_seconds: '12h' is not a number of seconds: write 43200 for 12 hours",
    ),
    (
        "a phase of 1 day: 86400 seconds",
        settings(phase_seconds="1 day"),
        "Malformed",
        "int_parsing",
        "create.match.phase_seconds: '1 day' is not a number of seconds: write 86400 for 1 day",
    ),
    (
        "a reminder 12h before the deadline: 43200 seconds",
        settings(reminders=[3600, "12h"]),
        "Malformed",
        "int_parsing",
        "create.match.reminders.1: '12h' is not a number of seconds: write 43200 for 12 hours",
    ),
    (
        "an absence rule misspelt (day for days)",
        settings(absence_rules={"day": 7}),
        "Malformed",
        "extra_forbidden",
        "create.match.absence_rules.day: no such field: did you mean days?",
    ),
    (
        "a player's field misspelt",
        settings(players=[{"id": "ada", "name": "Ada", "emial": "ada@example.com"}, {"id": "bo", "name": "Bo"}]),
        "Malformed",
        "extra_forbidden",
        "create.match.players.0.emial: no such field: did you mean email?",
    ),
    (
        "press as yes",
        settings(press="yes"),
        "Malformed",
        "literal_error",
        "create.match.press: Input should be 'on', 'public' or 'off'",
    ),
    (
        "the extension as 2h in the console's event: 2 x 3600 = 7200",
        {"command": "extend", "match_id": MID, "seconds": "2h"},
        "Malformed",
        "int_parsing",
        "extend.seconds: '2h' is not a number of seconds: write 7200 for 2 hours",
    ),
    (
        "graces' seconds as 12 hours",
        {"command": "graces", "match_id": MID, "left": 2, "seconds": "12 hours"},
        "Malformed",
        "int_parsing",
        "graces.seconds: '12 hours' is not a number of seconds: write 43200 for 12 hours",
    ),
    (
        "graces' field misspelt (second for seconds)",
        {"command": "graces", "match_id": MID, "left": 2, "second": 43200},
        "Malformed",
        "extra_forbidden",
        "graces.second: no such field: did you mean seconds?",
    ),
    (
        "a participant's name cut short",
        {"command": "graces", "match_id": MID, "left": 1, "player": "Ada L."},
        "NotFound",
        "not_found",
        "'Ada L.' is not a participant of match {match} (Ada Lovelace (ada), Bo (bo))",
    ),
    (
        "the sample event sent as it is (its match id is an example's)",
        json.loads((ROOT / "events" / "host_graces.json").read_text()),
        "NotFound",
        "not_found",
        "no match 'm-0123456789ab': that is the sample events' id; put your match's id (create's reply gives it)",
    ),
    (
        "press mode in capitals in the console's event",
        {"command": "press_mode", "match_id": MID, "mode": "PUBLIC"},
        "Malformed",
        "literal_error",
        "press_mode.mode: Input should be 'on', 'public' or 'off'",
    ),
    (
        "a replacement given the old player's address (in other case)",
        {"command": "replace", "match_id": MID, "seat": "bo", "name": "Dana", "email": "BO@example.com"},
        "Illegal",
        "email_taken",
        "BO@example.com is Bo's, whom 'Dana' replaces: give the new player's own address (or none)",
    ),
    (
        "an absence refused on a participant without one",
        {"command": "absence", "match_id": MID, "player": "BO", "act": "refuse"},
        "Illegal",
        "no_absence",
        "Bo has no absence under way or to come",
    ),
    (
        "a cut without its day",
        {"command": "absence", "match_id": MID, "player": "ada", "act": "cut"},
        "Malformed",
        "cut_to",
        "a cut says the absence's new last day: --to 2026-12-25 (the console's to)",
    ),
    (
        "a cut to a day written 25/12/2026",
        {"command": "absence", "match_id": MID, "player": "ada lovelace", "act": "cut", "to": "25/12/2026"},
        "Malformed",
        "absence_moment",
        "'25/12/2026' is not a date (2026-12-24: the whole day) or a date and time (2026-12-24T18:00), "
        "in Ada Lovelace's time zone",
    ),
    (
        "a cut past the absence's end (the 27th included: it ends at the 28th's midnight)",
        {"command": "absence", "match_id": MID, "player": "ada", "act": "cut", "to": "2026-12-30"},
        "Illegal",
        "cut_out_of_range",
        "a cut ends the absence after Thursday 24 December, 00:00 UTC and before Monday 28 December, 00:00 UTC",
    ),
]


@pytest.mark.parametrize(("mistake", "command", "error", "code", "text"), MISTAKES, ids=[m[0] for m in MISTAKES])
def test_a_hosts_mistake_is_refused_naming_it_and_changes_nothing(mistake, command, error, code, text) -> None:
    hosted = Hosted()
    before = hosted.stored()
    filled = json.loads(json.dumps(command).replace(MID, hosted.match_id))

    reply = hosted.send(filled)

    assert reply["ok"] is False and reply["error"] == error, reply
    [reason] = reply["reasons"]
    assert reason["code"] == code and reason["text"].startswith(text.replace(MID, hosted.match_id)), reason
    assert hosted.stored() == before
    assert not hosted.fakes.notifier.published and not hosted.fakes.mailer.sent


def test_the_absence_refusal_that_finds_none_says_nothing_was_done() -> None:
    # "the absence is refused" would read as the host's refusal done
    hosted = Hosted()
    reply = hosted.send({"command": "absence", "match_id": hosted.match_id, "player": "bo", "act": "refuse"})
    assert reply["message"] == "the absence was neither refused nor cut"


def test_press_mode_sent_twice_changes_nothing_the_second_time() -> None:
    hosted = Hosted()
    command = {"command": "press_mode", "match_id": hosted.match_id, "mode": "public", "per_hour": 5}

    first, again = hosted.send(command), hosted.send(command)

    assert first == {"ok": True, "match_id": hosted.match_id, "press": "public", "press_per_hour": 5, "changed": True}
    assert again == first | {"changed": False}
    # One setting logged, told once to everyone (one public notice, one mail to each of Ada and Bo)
    logged = [event.data for event in hosted.fakes.store.events(hosted.match_id) if event.type == "press_mode"]
    assert logged == [{"mode": "public", "per_hour": 5}]
    assert [notice.recipient for _, notice in hosted.fakes.notifier.published] == [None]
    assert sorted(mail.to for mail in hosted.fakes.mailer.sent) == ["ada@example.com", "bo@example.com"]
    # Another rate alone is a change
    assert hosted.send(command | {"per_hour": 6})["changed"] is True


def test_the_fields_a_host_command_allows_where_a_typo_stands() -> None:
    assert "grace_seconds" in commands.command_fields(("create", "match"))
    assert commands.command_fields(("create", "match", "absence_rules")) == ["days", "longest_days", "margin_hours"]
    assert commands.command_fields(("absence",)) == ["command", "match_id", "player", "act", "to", "from"]


# -- the command line: a command copied from the README with what a copy does to it ----------------

CLI_MISTAKES = [
    # (the mistake, match-host's arguments after --local, the one line it says on stderr)
    (
        "the README's MATCH_ID left in",
        ["status", "MATCH_ID"],
        "match-host: argument match_id: MATCH_ID stands for your match's id: put the id create's reply gives "
        "(m- and 12 hex digits) in its place (see match-host status --help)",
    ),
    (
        "a placeholder in angle brackets, quoted so the shell passes it",
        ["extend", "<match-id>", "3600"],
        "match-host: argument match_id: <match-id> stands for your match's id: put the id create's reply gives "
        "(m- and 12 hex digits) in its place (see match-host extend --help)",
    ),
    (
        # “Back at 8 tonight” in curly quotes: the shell splits it in four words, the last three left over
        "a message in typographic quotes",
        ["press", "m-0123456789ab", "\u201cBack", "at", "8", "tonight\u201d"],
        "match-host: unrecognized arguments: at 8 tonight\u201d; \u201cBack has a typographic quote, which the shell "
        'keeps as a letter: retype the quotes as plain " (see match-host --help)',
    ),
    (
        "--to set as an en dash",
        ["press", "m-0123456789ab", "Back at 8", "\u2013to", "ada"],
        "match-host: unrecognized arguments: \u2013to ada; \u2013to begins with a typographic dash, not --: "
        "type --to (see match-host --help)",
    ),
    (
        "--name set as an em dash: the option it needs is then missing",
        ["replace", "m-0123456789ab", "bo", "\u2014name", "Dana"],
        "match-host: the following arguments are required: --name; \u2014name begins with a typographic dash, "
        "not --: type --name (see match-host replace --help)",
    ),
]


@pytest.fixture
def sent(monkeypatch) -> list[dict[str, Any]]:
    """What match-host sends, kept here instead of sent (answered ok)."""
    from game_core.cli import host

    kept: list[dict[str, Any]] = []
    monkeypatch.setattr(host, "send", lambda command, function, endpoint: kept.append(command) or {"ok": True})
    return kept


@pytest.mark.parametrize(("mistake", "argv", "said"), CLI_MISTAKES, ids=[m[0] for m in CLI_MISTAKES])
def test_a_pasted_commands_mistake_is_named_in_one_line_and_nothing_is_sent(mistake, argv, said, sent, capsys) -> None:
    from game_core.cli import host

    code = host.main(["--local", *argv])

    assert (code, capsys.readouterr().err, sent) == (2, said + "\n", [])


def test_a_match_id_pasted_with_the_spaces_around_it_is_the_id(sent) -> None:
    from game_core.cli import host

    assert host.main(["--local", "extend", " m-0123456789ab ", "3600"]) == 0
    assert sent == [{"command": "extend", "match_id": "m-0123456789ab", "seconds": 3600}]


def test_a_restart_on_a_port_another_program_holds_is_refused_before_it_reads_or_tells_anything(tmp_path) -> None:
    # A restart first reopens the phases whose deadline passed while it was down and tells everyone
    # so: on a port it then cannot serve, players would be told of a server that never came up, and
    # the next start would take the failed one's time as when the server went down.
    import socket

    from game_core.cli.failures import CliError
    from local_stack.laptop.server import HostServer

    about = b'{"pid": 1, "seen": "2026-12-01T12:00:00+00:00", "players": "127.0.0.1:8080"}'
    (tmp_path / "server.json").write_bytes(about)
    with socket.create_server(("127.0.0.1", 0)) as other_program:
        port = other_program.getsockname()[1]
        server = HostServer(tmp_path, port=port, host_port=0)
        with pytest.raises(CliError) as refused:
            server.__enter__()

    said = f"the players' port {port} is in use (another server still running?): stop it, or give --port another"
    assert str(refused.value) == said
    # Nothing read, made or told; the last holder's word kept for the next start
    assert sorted(path.name for path in tmp_path.iterdir()) == ["server.json", "server.lock"]
    assert json.loads((tmp_path / "server.json").read_bytes()) == json.loads(about)


@pytest.mark.parametrize(
    ("data", "printed"),
    [
        # the default: match-host's own default too, run in the checkout as the README does
        ("local-data", "bin/match-host --server http://127.0.0.1:8081"),
        # another folder: bin/host-server runs in its checkout, match-host in the host's folder, so the
        # host token's folder is printed whole (here the test's checkout), quoted for the shell
        ("match two", "bin/match-host --server http://127.0.0.1:8081 --data '{cwd}/match two'"),
        ("/srv/genius", "bin/match-host --server http://127.0.0.1:8081 --data /srv/genius"),
    ],
)
def test_the_host_servers_printed_command_finds_its_host_token_from_any_folder(data, printed) -> None:
    from local_stack.laptop.cli import match_host_command

    assert match_host_command(Path(data), 8081) == printed.format(cwd=Path.cwd())
