"""bin/host-server starts with the garbage collector off (local_stack/laptop/__main__.py: the start's
objects live as long as the server) and turns it back on once the server serves, never later."""

from __future__ import annotations

import gc
from typing import Any

from local_stack.laptop import cli


class Started:
    """A HostServer that notes whether the collector runs as it starts and as it is announced."""

    seen: list[tuple[str, bool]] = []

    def __init__(self, *args: Any, **options: Any) -> None:
        pass

    def __enter__(self) -> Started:
        Started.seen.append(("starting", gc.isenabled()))
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def test_the_collector_is_off_while_the_server_starts_and_on_once_it_serves(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(cli, "HostServer", Started)
    monkeypatch.setattr(cli, "_say_where", lambda *args: Started.seen.append(("serving", gc.isenabled())))

    monkeypatch.setattr(cli, "say_resumed", lambda server: None)

    def interrupted(seconds: float) -> None:
        raise KeyboardInterrupt  # Ctrl-C while it serves: main returns

    monkeypatch.setattr(cli.time, "sleep", interrupted)
    Started.seen = []
    gc.disable()  # as local_stack/laptop/__main__.py leaves it
    try:
        assert cli.main(["--data", str(tmp_path), "--port", "0"]) == 0
    finally:
        gc.enable()
    assert Started.seen == [("starting", False), ("serving", True)]
