"""Each participant's page link (issue 30, item 5): create's reply through the host-commands
function, as the console gets it (the players' address from PLAYERS_URL, else the path alone),
and `mail_links`, which mails each participant with an address their own link, once, and refuses
a link that does not carry its participant's secret. On the fakes, the real handler.

Expected links are worked from the README's form: <players' address>/play/<match_id>#<secret>."""

from __future__ import annotations

import email
import email.policy
from pathlib import Path
from typing import Any

import pytest
from fakes import Fakes

from game_core.service.telling.links import PLAYERS_URL
from local_stack.aws.lambda_adapter import FakeContext, load_handler

ROOT = Path(__file__).resolve().parents[3]
API = "https://abc123.execute-api.us-east-1.amazonaws.com"
PLAYERS = [{"id": "ada", "name": "Ada", "email": "ada@example.com"}, {"id": "bo", "name": "Bo"}]


def console(fakes: Fakes) -> Any:
    handler = load_handler(ROOT / "functions" / "host_commands", "app.handler", lambda: fakes.ports)
    return lambda command: handler(command, FakeContext("HostCommands"))


def text_of(raw: bytes) -> str:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    return str(message["subject"]) + "\n" + message.get_content()  # type: ignore[attr-defined]


def created(fakes: Fakes) -> dict[str, Any]:
    reply: dict[str, Any] = console(fakes)({"command": "create", "match": {"game": "crates", "players": PLAYERS}})
    assert reply["ok"], reply
    return reply


def test_the_console_gets_each_link_with_the_api_address(monkeypatch) -> None:
    monkeypatch.setenv(PLAYERS_URL, API)
    reply = created(Fakes())
    match, secrets = reply["match_id"], reply["secrets"]
    assert reply["links"] == {who: f"{API}/play/{match}#{secrets[who]}" for who in ("ada", "bo")}


def test_without_the_players_address_each_link_is_the_path(monkeypatch) -> None:
    monkeypatch.delenv(PLAYERS_URL, raising=False)
    reply = created(Fakes())
    assert reply["links"]["bo"] == f"/play/{reply['match_id']}#{reply['secrets']['bo']}"


def test_each_player_with_an_address_is_mailed_their_own_link_once(monkeypatch) -> None:
    monkeypatch.setenv(PLAYERS_URL, API)
    fakes = Fakes()
    reply = created(fakes)
    command = {"command": "mail_links", "match_id": reply["match_id"], "links": reply["links"]}
    mailed = console(fakes)(command)
    assert (mailed["mailed"], mailed["no_address"]) == (["ada"], ["bo"])
    (mail,) = [sent for sent in fakes.mailer.sent if "your page" in text_of(sent.raw)]
    assert (mail.to, reply["links"]["ada"] in text_of(mail.raw).split()) == ("ada@example.com", True)
    count = len(fakes.mailer.sent)
    again = console(fakes)(command)  # sent again: not mailed twice
    assert (again["mailed"], again["mailed_before"], len(fakes.mailer.sent)) == ([], ["ada"], count)


@pytest.mark.parametrize(
    ("link", "code"),
    [
        ("{API}/play/{match}#not-her-secret", "link_secret"),
        ("{API}/play/m-000000000000#{secret}", "link_not_this_match"),
        ("/play/{match}#{secret}", "link_not_whole"),
        ("{API}/play/{match}#{bo}", "link_secret"),  # Bo's secret in Ada's link: not Ada's page
    ],
)
def test_a_link_not_carrying_its_players_secret_mails_nobody(monkeypatch, link, code) -> None:
    monkeypatch.setenv(PLAYERS_URL, API)
    fakes = Fakes()
    reply = created(fakes)
    match, secrets = reply["match_id"], reply["secrets"]
    sent = len(fakes.mailer.sent)
    written = link.format(API=API, match=match, secret=secrets["ada"], bo=secrets["bo"])
    refused = console(fakes)({"command": "mail_links", "match_id": match, "links": {"ada": written}})
    assert (refused["ok"], [reason["code"] for reason in refused["reasons"]]) == (False, [code])
    assert len(fakes.mailer.sent) == sent


def test_a_deployment_without_mail_of_its_own_mails_no_link(monkeypatch) -> None:
    monkeypatch.setenv(PLAYERS_URL, API)
    fakes = Fakes()
    reply = created(fakes)
    fakes.mailer.domain = ""
    refused = console(fakes)({"command": "mail_links", "match_id": reply["match_id"], "links": reply["links"]})
    assert refused["ok"] is False and "share each link yourself" in refused["message"]


def test_a_reissued_secret_comes_with_its_new_link(monkeypatch) -> None:
    monkeypatch.setenv(PLAYERS_URL, API)
    fakes = Fakes()
    match = created(fakes)["match_id"]
    reissued = console(fakes)({"command": "reissue_secret", "match_id": match, "player": "Bo"})
    assert reissued["links"] == {"bo": f"{API}/play/{match}#{reissued['secret']}"}
