"""`match-host absence`: the console's absence command (refuse, or cut) from the command line."""

from __future__ import annotations

import pytest

from game_core.cli import host
from game_core.service.commands import AbsenceAct, parse_host_command


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (
            ["absence", "m-1", "ada", "refuse"],
            {"command": "absence", "match_id": "m-1", "player": "ada", "act": "refuse", "to": None, "from": None},
        ),
        (
            ["absence", "m-1", "Ada Lovelace", "cut", "--to", "2026-12-25", "--from", "2026-12-24"],
            {
                "command": "absence",
                "match_id": "m-1",
                "player": "Ada Lovelace",
                "act": "cut",
                "to": "2026-12-25",
                "from": "2026-12-24",
            },
        ),
    ],
)
def test_the_absence_command_refuses_or_cuts(argv, command, monkeypatch) -> None:
    sent = []
    monkeypatch.setattr(host, "send", lambda command, function, endpoint: sent.append(command) or {"ok": True})

    assert host.main(["--local", *argv]) == 0

    assert sent == [command]
    parsed = parse_host_command(command)
    assert isinstance(parsed, AbsenceAct) and (parsed.to, parsed.start) == (command["to"], command["from"])


def test_an_act_that_is_neither_is_refused_in_one_line(capsys) -> None:
    assert host.main(["--local", "absence", "m-1", "ada", "shorten"]) == 2
    assert "invalid choice: 'shorten'" in capsys.readouterr().err
