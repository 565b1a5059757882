"""`match-host webhook`: the console's webhook command from the command line."""

from __future__ import annotations

import pytest

from game_core.cli import host
from game_core.service.commands import Webhook, parse_host_command


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (
            ["webhook", "m-1", "@public", "https://discord.com/api/webhooks/1/abc"],
            {
                "command": "webhook",
                "match_id": "m-1",
                "target": "@public",
                "url": "https://discord.com/api/webhooks/1/abc",
            },
        ),
        (["webhook", "m-1", "ada"], {"command": "webhook", "match_id": "m-1", "target": "ada", "url": None}),
    ],
)
def test_the_webhook_command_sets_or_removes_a_subscription(argv, command, monkeypatch) -> None:
    sent = []
    monkeypatch.setattr(host, "send", lambda command, function, endpoint: sent.append(command) or {"ok": True})

    assert host.main(["--local", *argv]) == 0

    assert sent == [command]
    assert isinstance(parse_host_command(command), Webhook)
