"""`match-host replace`: the console's replace command from the command line."""

from __future__ import annotations

import pytest

from game_core.cli import host
from game_core.service.commands import Replace, parse_host_command


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (
            ["replace", "m-1", "bo", "--name", "Dana Scully", "--email", "dana@example.com", "--extend", "3600"],
            {
                "command": "replace",
                "match_id": "m-1",
                "seat": "bo",
                "name": "Dana Scully",
                "email": "dana@example.com",
                "webhook": None,
                "extend_seconds": 3600,
            },
        ),
        (
            ["replace", "m-1", "Bo", "--name", "Dana", "--webhook", "https://dana.example.com/h"],
            {
                "command": "replace",
                "match_id": "m-1",
                "seat": "Bo",
                "name": "Dana",
                "email": None,
                "webhook": "https://dana.example.com/h",
                "extend_seconds": None,
            },
        ),
    ],
    ids=["by mail, an hour to read in", "by webhook alone"],
)
def test_the_replace_command_gives_a_seat_to_a_new_player(argv, command, monkeypatch) -> None:
    sent = []
    monkeypatch.setattr(host, "send", lambda command, function, endpoint: sent.append(command) or {"ok": True})

    assert host.main(["--local", *argv]) == 0

    assert sent == [command]
    assert isinstance(parse_host_command(command), Replace)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["replace", "m-1", "bo", "--email", "dana@example.com"], "the following arguments are required: --name"),
        (
            ["replace", "m-1", "bo", "--name", "D", "--extend", "1h"],
            "argument --extend: '1h' is not a number of seconds: write 3600 for 1 hour",
        ),
    ],
    ids=["no name", "an extension not in seconds"],
)
def test_a_replace_command_missing_its_name_or_with_a_bad_extension_is_refused(argv, said, monkeypatch, capsys) -> None:
    monkeypatch.setattr(host, "send", lambda *args: pytest.fail("nothing is sent"))

    assert host.main(["--local", *argv]) == 2

    assert capsys.readouterr().err == f"match-host: {said} (see match-host replace --help)\n"
