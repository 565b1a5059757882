"""A season on one laptop as docs/hosts/season.md gives it: its season-create.json and its
`match-host season` create and status lines, run as written from a folder holding `bin/` and the
server's `local-data/` (the server's own port put in for the page's 8081), create the season, show
its status, and the first Main Match is open to each player with the secret the season gave them."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from test_host_server import START, environment, http, player_url  # noqa: F401 - environment: autouse

from local_stack.aws.clock import VirtualClock
from local_stack.laptop.server import HostServer

pytestmark = pytest.mark.statemachine

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "hosts" / "season.md").read_text(encoding="utf-8")


def shown(language: str, holding: str) -> str:
    """The page's one block of `language` of one line holding `holding`, its indent (a list item's)
    taken off."""
    [block] = [
        re.sub(r"^" + indent, "", text, flags=re.M)
        for indent, text in re.findall(r"^( *)```" + language + r"\n(.*?)^\1```", PAGE, re.M | re.S)
        if holding in text and (language != "sh" or text.count("\n") == 1)
    ]
    return block


def run_as_written(line: str, server: HostServer, data: Path) -> dict:
    line = line.replace("http://127.0.0.1:8081", f"http://127.0.0.1:{server.host_port}")
    ran = subprocess.run(["bash", "-c", line], cwd=data.parent, capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr
    return json.loads(ran.stdout)


def test_the_pages_season_is_created_its_status_shown_and_its_first_match_open(tmp_path: Path) -> None:
    settings = shown("json", '"action": "create"')
    (tmp_path / "season-create.json").write_text(settings, encoding="utf-8")
    create = shown("sh", "season create season-create.json\n").strip()
    status = shown("sh", "season status s-0123456789ab").strip()
    (tmp_path / "bin").symlink_to(Path(__file__).resolve().parents[2] / "bin")
    data = tmp_path / "local-data"
    server = HostServer(data, port=0, clock=VirtualClock(START)).__enter__()
    try:
        created = run_as_written(create, server, data)
        assert created["ok"], created
        cast = [member["id"] for member in json.loads(settings)["season"]["cast"]]
        assert sorted(created["secrets"]) == sorted(cast)
        server.stack.settle()  # the season's machine has started its first match and waits on it

        said = run_as_written(status.replace("s-0123456789ab", created["season_id"]), server, data)
        assert said["ok"] and said["stage"] == "episode", said
        [waiting] = said["waiting"]  # the first episode's Main Match, everyone in it
        assert waiting["kind"] == "main_match" and sorted(waiting["who"]) == sorted(cast)

        secret = {"Authorization": f"Bearer {created['secrets']['ada']}"}
        code, standing = http(player_url(server, waiting["match_id"], "ada"), headers=secret)
        assert code == 200 and standing["view"]["public"]["game"] == "domino", standing
    finally:
        server.__exit__(None, None, None)
