"""Messages between players (press) on the fakes: Pushing Crates with Ada Lovelace, Bo Baggins and
Cy Twombly, each with an address and (Bo, Cy and the public) a webhook. A message goes at once
to whom it names, through each of their channels, with its sender's name; nobody else hears of
it; the host's setting and the rate are kept; a redelivery sends nothing twice."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

import pytest
from crates_driver import Table, request
from fakes import Fakes
from memory_hooks import MemoryHooks
from test_service_mail_in import message, receipt

from game_core.cli import host, verify
from game_core.cli.schemas import describe
from game_core.errors import Illegal, Malformed, NotFound, NotOpen, TooMany
from game_core.mail.inbound import parse_message
from game_core.match.model import MatchRequest
from game_core.match.press import seen_by
from game_core.service.commands import SetPress, parse_host_command, run_host_command
from game_core.service.mail.lines import PressLetter, read_press
from game_core.service.mail.receive import receive
from game_core.service.matches import press
from game_core.service.matches.actions import ActionRequest, act_by_webhook, take_action
from game_core.service.matches.lifecycle import create_match, export_record, match_status
from game_core.service.matches.views import public_view, standing
from game_core.service.ports import Ports

ADDRESSES = {"ada": "ada@example.com", "bo": "bo@example.com", "cy": "cy@example.com"}
SECRET_TALK = "Meet me at crate 3?\nI push it left, you push it up."
"""What Ada tells Bo alone: no one else may ever read it."""


@dataclass
class Room:
    fakes: Fakes
    hooks: MemoryHooks
    ports: Ports
    match_id: str
    secrets: dict[str, str]

    def heard(self) -> None:
        """Forget what the match's opening told (each test looks at what its messages tell)."""
        self.fakes.notifier.published.clear()
        self.fakes.mailer.sent.clear()
        self.hooks.queued.clear()

    def mails_to(self, who: str) -> list[str]:
        return [parse_message(mail.raw).text for mail in self.fakes.mailer.sent if mail.to == ADDRESSES[who]]

    def delivered_to(self, target: str) -> list[dict[str, Any]]:
        return [one.payload for one in self.hooks.queued if one.target == target]

    def logged(self) -> list[dict[str, Any]]:
        return [event.data for event in self.fakes.store.events(self.match_id) if event.type == "press"]

    def host(self, **command: Any) -> dict[str, Any]:
        return run_host_command(self.ports, parse_host_command(command | {"match_id": self.match_id}))


def room(**settings: Any) -> Room:
    fakes, hooks = Fakes(), MemoryHooks()
    ports = replace(fakes.ports, hooks=hooks)
    written = request(("ada", "bo", "cy"), emails=ADDRESSES).model_dump(mode="json") | settings
    for entry, name in zip(written["players"], ("Ada Lovelace", "Bo Baggins", "Cy Twombly"), strict=True):
        entry["name"] = name
    written["webhooks"] = {"bo": "https://bot.example.com/bo", "cy": "https://bot.example.com/cy"}
    written["webhooks"]["@public"] = "https://site.example.com/all"
    created = create_match(ports, MatchRequest.model_validate(written))
    table = Room(fakes, hooks, ports, created["match_id"], created["secrets"])
    table.heard()
    return table


def test_a_message_to_one_reaches_them_by_every_channel_and_nobody_else() -> None:
    table = room()
    mid = table.match_id

    # Bo named by name in another case; the key is the webhook's Idempotency-Key
    reply = press.send(table.ports, mid, "ada", ["bO bAGGINS"], SECRET_TALK, "webhook", "key-1")

    assert reply["to"] == ["bo"] and reply["answer"] == "Your message went to Bo Baggins."
    # SNS: one private notice, to Bo, under the message's id
    [notice] = table.fakes.notifier.notices()
    assert notice.recipient == "bo" and notice.notice_id == f"{mid}/message-{reply['message_id']}/bo"
    assert notice.subject == f"[{mid}] A private message from Ada Lovelace"
    # Nothing but the message: no view, nobody's secret, the text as Ada wrote it
    said = {"id": reply["message_id"], "from": "ada", "to": ["bo"], "text": SECRET_TALK}
    assert notice.body == {"match_id": mid, "message": said}
    # Mail: Bo's, saying who wrote to whom, then the text line by line as Ada wrote it
    [mail] = table.mails_to("bo")
    # and how to answer her (a reply to the mail would be read as moves), folded at 78 columns
    said = (
        "A message from Ada Lovelace to you:\n\nMeet me at crate 3?\nI push it left, you push it up.\n\n"
        "To answer, send PRESS TO Ada Lovelace as a mail's first line, your message\nbelow it."
    )
    assert said in mail
    # Bo's webhook, under the notice's id, the same text
    [posted] = table.delivered_to("bo")
    assert posted["recipient"] == "bo" and said == posted["text"]
    # Nobody else: not Cy (mail, webhook, standing), not the public (SNS, webhook, view), not Ada
    assert table.mails_to("cy") == table.mails_to("ada") == []
    assert table.delivered_to("cy") == table.delivered_to("@public") == []
    seen = table.fakes.store.submission_view(mid, "cy", None)
    for shown in (standing(seen, "cy"), public_view(table.ports, mid)):
        assert "crate 3" not in json.dumps(shown) and "message" not in json.dumps(shown)
    # The record: in the log the host's export carries, once
    assert table.logged() == [
        {"id": reply["message_id"], "from": "ada", "to": ["bo"], "text": SECRET_TALK} | {"channel": "webhook"}
    ]
    assert "crate 3" in json.dumps(export_record(table.ports, mid).model_dump(mode="json"))


def test_a_message_to_several_names_them_all_and_leaves_the_sender_out() -> None:
    table = room()
    reply = press.send(table.ports, table.match_id, "ada", ["cy", "ada", "Bo Baggins"], "Truce?", "test")
    # In seat order, Ada herself dropped: one notice each to Bo and Cy, each naming both (its
    # reader as "you")
    assert reply["to"] == ["bo", "cy"] and reply["answer"] == "Your message went to Bo Baggins, Cy Twombly."
    assert [notice.recipient for notice in table.fakes.notifier.notices()] == ["bo", "cy"]
    for who, whom in (("bo", "you, Cy Twombly"), ("cy", "Bo Baggins, you")):
        [mail] = table.mails_to(who)
        assert f"A message from Ada Lovelace to {whom}:\n\nTruce?\n" in mail
    assert table.mails_to("ada") == [] and table.delivered_to("@public") == []


def test_a_message_to_everyone_is_a_public_notice() -> None:
    table = room()
    reply = press.send(table.ports, table.match_id, "bo", None, "Good luck, all.", "test")
    [notice] = table.fakes.notifier.notices()
    assert notice.recipient is None and notice.notice_id == f"{table.match_id}/message-{reply['message_id']}/@all"
    assert notice.subject == f"[{table.match_id}] A message from Bo Baggins to everyone"
    # Everyone's mail, the sender's too; the public webhook and each participant's
    for who in ("ada", "bo", "cy"):
        [mail] = table.mails_to(who)
        assert "A message from Bo Baggins to everyone:\n\nGood luck, all.\n" in mail
    assert [one.target for one in table.hooks.queued] == ["@public", "bo", "cy"]


@pytest.mark.parametrize(
    ("words", "error", "code"),
    [
        (["Dora"], NotFound, "not_found"),  # names nobody (the refusal lists everyone)
        (["Ada Lovelace"], Malformed, "press_to_nobody"),  # herself alone
    ],
)
def test_a_message_naming_nobody_else_is_refused_and_sends_nothing(words, error, code) -> None:
    table = room()
    with pytest.raises(error) as refused:
        press.send(table.ports, table.match_id, "ada", words, "Hello?", "test")
    assert refused.value.reasons[0].code == code
    assert not table.fakes.notifier.published and not table.fakes.mailer.sent and table.logged() == []


@pytest.mark.parametrize(
    ("text", "code"),
    [("\n  \n", "press_empty"), ("x" * 2001, "press_too_long")],
)
def test_an_empty_or_too_long_message_is_refused(text, code) -> None:
    table = room()
    with pytest.raises(Malformed) as refused:
        press.send(table.ports, table.match_id, "ada", ["bo"], text, "test")
    assert refused.value.reasons[0].code == code and table.logged() == []


def test_the_host_turns_press_off_and_every_message_is_refused() -> None:
    table = room()
    reply = table.host(command="press_mode", mode="off")
    assert reply == {"match_id": table.match_id, "press": "off", "press_per_hour": 10, "changed": True}
    # Everyone is told, publicly
    [told] = table.fakes.notifier.notices()
    assert told.recipient is None and told.body["press_mode"] == "off"
    assert "The host has set messages between players: no messages between players" in table.mails_to("cy")[0]
    table.heard()

    for to in (["bo"], None):
        with pytest.raises(Illegal) as refused:
            press.send(table.ports, table.match_id, "ada", to, "Psst", "test")
        assert refused.value.reasons[0].text == "the host has turned messages between players off"
    assert not table.fakes.notifier.published and table.logged() == []
    assert [event.data for event in table.fakes.store.events(table.match_id) if event.type == "press_mode"] == [
        {"mode": "off", "per_hour": 10}
    ]
    # The host's status shows the setting, where it is not the default (on, 10 an hour)
    assert match_status(table.ports, table.match_id)["press"] == {"mode": "off", "per_hour": 10}
    fresh = room()
    assert "press" not in match_status(fresh.ports, fresh.match_id)


def test_a_match_created_public_only_takes_messages_to_everyone_alone() -> None:
    table = room(press="public")
    with pytest.raises(Illegal) as refused:
        press.send(table.ports, table.match_id, "ada", ["bo"], "Psst", "test")
    assert refused.value.reasons[0].code == "press_public_only"
    press.send(table.ports, table.match_id, "ada", None, "Hello table", "test")
    assert [notice.recipient for notice in table.fakes.notifier.notices()] == [None]


def test_the_rate_refuses_the_third_message_in_an_hour_saying_when_the_next_may_go() -> None:
    table = room(press_per_hour=2)
    clock = table.fakes.clock
    press.send(table.ports, table.match_id, "ada", ["bo"], "one", "test")  # 12:00
    clock.advance(600)
    press.send(table.ports, table.match_id, "ada", ["bo"], "two", "test")  # 12:10
    clock.advance(600)
    with pytest.raises(TooMany) as refused:  # 12:20: two went in the last hour
        press.send(table.ports, table.match_id, "ada", ["bo"], "three", "test")
    # The oldest (12:00) leaves the hour at 13:00, 40 minutes on; 1 December 2026 is a Tuesday
    assert refused.value.reasons[0].text == (
        "you have sent 2 messages in the last hour, the most this match allows; "
        "the next may go Tuesday 1 December, 13:00 UTC, in 40 minutes"
    )
    assert refused.value.retry_after == 2400
    # Bo's own count is his: he may write
    press.send(table.ports, table.match_id, "bo", ["ada"], "hi", "test")
    clock.advance(2400)  # 13:00
    press.send(table.ports, table.match_id, "ada", ["bo"], "three", "test")
    assert [data["text"] for data in table.logged()] == ["one", "two", "hi", "three"]


def test_a_redelivered_message_goes_once_and_a_failed_telling_is_finished_by_the_retry() -> None:
    table = room()
    table.fakes.notifier.fail_after = 1  # SNS takes Bo's notice, then fails on Cy's
    with pytest.raises(RuntimeError):
        press.send(table.ports, table.match_id, "ada", ["bo", "cy"], "Deal?", "webhook", "key-7")
    assert [data["text"] for data in table.logged()] == ["Deal?"]  # recorded before anyone was told

    # The sender's retry (the same key) tells Cy alone, and records nothing again
    press.send(table.ports, table.match_id, "ada", ["bo", "cy"], "Deal?", "webhook", "key-7")
    assert [notice.recipient for notice in table.fakes.notifier.notices()] == ["bo", "cy"]
    assert [data["text"] for data in table.logged()] == ["Deal?"]

    # Once more: recorded, so nothing goes again; it counts once against the rate
    again = press.send(table.ports, table.match_id, "ada", ["bo", "cy"], "Deal?", "webhook", "key-7")
    assert again["sent_before"] is True and len(table.fakes.notifier.published) == 2
    assert again["to"] == ["bo", "cy"] and again["answer"] == "Your message went to Bo Baggins, Cy Twombly."
    assert len(table.fakes.store.get(table.match_id).press_sent["ada"]) == 1
    # Another key is another message
    press.send(table.ports, table.match_id, "ada", ["bo", "cy"], "Deal?", "webhook", "key-8")
    assert len(table.logged()) == 2


def test_a_webhook_redelivery_a_day_later_gets_the_first_reply_and_sends_nothing() -> None:
    table = room()

    def post(key: str, text: str) -> dict[str, Any]:
        request = ActionRequest(table.match_id, "bo", "press", {"to": ["cy"], "text": text}, "webhook")
        return act_by_webhook(table.ports, table.match_id, "bo", table.secrets["bo"], key, lambda: request)

    first = post("key-3", "Deal?")
    table.fakes.clock.advance(86_400)
    second = post("key-4", "Still there?")  # the match keeps Bo's ids of the last hour only
    assert [sent.id for sent in table.fakes.store.get(table.match_id).press_sent["bo"]] == [second["message_id"]]
    # The reply kept under the key answers the redelivery: nothing is told again
    assert post("key-3", "Deal?") == first and first["to"] == ["cy"]
    assert len(table.fakes.notifier.published) == 2 and [data["text"] for data in table.logged()] == [
        "Deal?",
        "Still there?",
    ]


def test_a_webhook_message_is_judged_on_the_read_that_checked_the_secret() -> None:
    # One read to check the secret and judge the message, one to record it after it is told
    table = room()
    store = table.fakes.store
    store.reads.clear()
    request = ActionRequest(table.match_id, "bo", "press", {"to": ["cy"], "text": "Deal?"}, "webhook")
    act_by_webhook(table.ports, table.match_id, "bo", table.secrets["bo"], "key-1", lambda: request)
    assert store.reads == ["view", "get", "get"]  # the fake's view reads the header through get


def test_a_message_whose_record_failed_is_told_to_nobody_and_sent_whole_by_the_retry(monkeypatch) -> None:
    table = room()
    store = table.fakes.store
    real = store.save

    def fail_once(*args: Any, **kwargs: Any) -> None:
        monkeypatch.setattr(store, "save", real)
        raise RuntimeError("DynamoDB is unavailable")

    monkeypatch.setattr(store, "save", fail_once)
    with pytest.raises(RuntimeError):
        press.send(table.ports, table.match_id, "ada", ["bo"], "Deal?", "webhook", "key-9")
    sent = (len(table.fakes.notifier.published), len(table.fakes.mailer.sent), len(table.hooks.queued))
    assert sent == (0, 0, 0) and table.logged() == []

    press.send(table.ports, table.match_id, "ada", ["bo"], "Deal?", "webhook", "key-9")
    assert (len(table.fakes.notifier.published), len(table.fakes.mailer.sent), len(table.hooks.queued)) == (1, 1, 1)
    assert len(table.logged()) == 1


def test_the_webhook_action_sends_a_message_and_a_malformed_one_is_refused() -> None:
    table = room()
    action = {"to": "all", "text": "Hello table"}
    reply = take_action(table.ports, ActionRequest(table.match_id, "cy", "press", action, "webhook"), "key-1")
    assert reply["to"] == "all" and [notice.recipient for notice in table.fakes.notifier.notices()] == [None]
    for wrong in (
        {"to": [], "text": "x"},
        {"to": "bo", "text": "x"},
        {"to": ["bo"]},
        {"to": ["bo"], "text": "x", "file": 1},
    ):
        with pytest.raises(Malformed):
            take_action(table.ports, ActionRequest(table.match_id, "cy", "press", wrong, "webhook"))
    schema = describe("crates", None)
    assert set(schema["press_action_schema"]["properties"]) == {"to", "text"}
    assert schema["press_settings_schema"]["press"]["enum"] == ["on", "public", "off"]


def test_messages_go_only_while_the_match_runs() -> None:
    table = room()
    table.host(command="cancel")
    with pytest.raises(NotOpen):
        press.send(table.ports, table.match_id, "ada", None, "gg", "test")


# -- by mail ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("PRESS TO bo\nDeal?\n\nAda", PressLetter(("bo",), "Deal?\n\nAda")),
        ("\n  press to Bo Baggins ,cy\nDeal?", PressLetter(("Bo Baggins", "cy"), "Deal?")),
        ("Press To All\nHello table", PressLetter(None, "Hello table")),
        ("Hi Bo,\n\nPRESS TO bo\nDeal?", PressLetter(("bo",), "Deal?")),  # a greeting above, left out
        ("Deal, Bo?\nPRESS TO bo", None),  # no greeting: the mail is no message (read as moves)
        ("PRESS TO ALL, bo\nHi", PressLetter(("ALL", "bo"), "Hi")),  # ALL alone means everyone
        ("PUSH bo LEFT 3", None),
        ("PRESSING matters\nx", None),
        ("", None),
    ],
)
def test_the_press_line_and_the_message_below_it(text, read) -> None:
    assert read_press(text) == read


@pytest.mark.parametrize("text", ["PRESS bo\nDeal?", "PRESS TO\nDeal?", "PRESS TO , \nDeal?"])
def test_a_press_line_naming_nobody_is_malformed(text) -> None:
    with pytest.raises(Malformed) as refused:
        read_press(text)
    assert refused.value.reasons[0].code == "press_line"


def test_a_press_mail_is_sent_echoed_to_its_sender_and_once_however_often_it_is_redelivered() -> None:
    table = room()
    raw = message(ADDRESSES["ada"], "PRESS TO bo, CY\nDeal?\nAda", subject=f"[{table.match_id}] Pregame")
    receive(table.ports, receipt(raw, match_id=table.match_id))
    receive(table.ports, receipt(raw, ses_id="ses-again", match_id=table.match_id))  # the client sent it again

    assert [notice.recipient for notice in table.fakes.notifier.notices()] == ["bo", "cy"]
    assert "A message from Ada Lovelace to you, Cy Twombly:\n\nDeal?\nAda\n" in table.mails_to("bo")[0]
    [echo] = table.mails_to("ada")
    assert echo == "Hello Ada Lovelace,\n\nYour message went to Bo Baggins, Cy Twombly.\n\n  Deal?\n  Ada"
    assert [data["channel"] for data in table.logged()] == ["email"]


def test_a_press_mail_refused_says_why_and_sends_nothing() -> None:
    table = room(press="off")
    raw = message(ADDRESSES["bo"], "PRESS TO ada\nPsst", subject=f"[{table.match_id}] Pregame")
    receive(table.ports, receipt(raw, match_id=table.match_id))
    [answer] = table.mails_to("bo")
    assert "Your message was not sent:" in answer and "the host has turned messages between players off" in answer
    assert table.mails_to("ada") == [] and not table.fakes.notifier.published


@pytest.mark.parametrize(
    ("mode", "line"),
    [
        ("on", "Send PRESS TO <name> (names apart by commas, or ALL) and your message on the"),
        ("public", "Send PRESS TO ALL and your message on the lines below it: it goes to them at"),
        ("off", None),
    ],
)
def test_help_offers_press_as_the_match_allows_it(mode, line) -> None:
    table = room(press=mode)
    raw = message(ADDRESSES["ada"], "HELP", subject=f"[{table.match_id}] Pregame")
    receive(table.ports, receipt(raw, match_id=table.match_id))
    [answer] = table.mails_to("ada")
    assert (line in answer) if line else ("PRESS" not in answer)


# -- the host's command line ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (
            ["press-mode", "m-1", "public"],
            {"command": "press_mode", "match_id": "m-1", "mode": "public", "per_hour": None},
        ),
        (
            ["press-mode", "m-1", "on", "--per-hour", "4"],
            {"command": "press_mode", "match_id": "m-1", "mode": "on", "per_hour": 4},
        ),
    ],
)
def test_match_host_press_mode_sends_the_consoles_command(argv, command, monkeypatch) -> None:
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(host, "send", lambda command, function, endpoint: sent.append(command) or {"ok": True})
    assert host.main(["--local", *argv]) == 0
    assert sent == [command] and isinstance(parse_host_command(command), SetPress)


def test_match_host_press_mode_refuses_a_mode_it_does_not_know(monkeypatch, capsys) -> None:
    monkeypatch.setattr(host, "send", lambda *args: pytest.fail("nothing is sent"))
    assert host.main(["--local", "press-mode", "m-1", "quiet"]) == 2
    said = "argument mode: invalid choice: 'quiet' (choose from 'on', 'public', 'off')"
    assert capsys.readouterr().err == f"match-host: {said} (see match-host press-mode --help)\n"


# -- who may see a logged message ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("viewer", "seen"),
    [
        ("ada", ["to bo", "to all", "from cy"]),  # her own, the public one, and one to her
        ("bo", ["to bo", "to all"]),
        ("cy", ["to all", "from cy"]),
        (None, ["to all"]),  # the public sees only what went to everyone
    ],
)
def test_a_logged_message_is_seen_by_its_parties_alone(viewer, seen) -> None:
    log = [
        {"id": "to bo", "from": "ada", "to": ["bo"]},
        {"id": "to all", "from": "bo", "to": "all"},
        {"id": "from cy", "from": "cy", "to": ["ada"]},
    ]
    assert [data["id"] for data in log if seen_by(data, viewer)] == seen


# -- the record ----------------------------------------------------------------------------------


def test_a_played_match_with_messages_verifies_and_a_message_edited_in_its_record_fails(tmp_path, capsys) -> None:
    table = Table.open()  # Ada and Bo, two players
    table.submit("ada", "Pregame", "multipliers", {"multipliers": [2, 1, 1, 0, -1, -1]})
    press.send(table.ports, table.match_id, "ada", ["bo"], "Deal?", "test")
    table.resolve_at_deadline()
    press.send(table.ports, table.match_id, "bo", None, "gg soon", "test")
    while table.match().phase is not None:
        table.resolve_at_deadline()
    record = export_record(table.ports, table.match_id).model_dump(mode="json")
    path = tmp_path / "record.json"

    def verified(written: dict[str, Any]) -> int:
        path.write_text(json.dumps(written), encoding="utf-8")
        return verify.main([str(path)])

    # created, Ada's submission, her message, 7 phases resolved, 6 opened, Bo's message, finished
    assert verified(record) == 0 and capsys.readouterr().out.startswith("verified: 18 events, head ")
    [said] = [event for event in record["events"] if event["type"] == "press" and event["data"]["to"] == ["bo"]]
    said["data"]["text"] = "No deal."
    assert verified(record) == 1


def test_each_reads_the_messages_they_are_party_to_and_the_public_those_to_everyone() -> None:
    table = room()
    press.send(table.ports, table.match_id, "ada", ["bo"], "to bo", "test")  # 12:00
    table.fakes.clock.advance(60)
    press.send(table.ports, table.match_id, "cy", None, "to all", "test")  # 12:01
    read = {
        who: [m["text"] for m in press.messages_for(table.ports, table.match_id, who)] for who in ("ada", "bo", "cy")
    }
    assert read == {"ada": ["to bo", "to all"], "bo": ["to bo", "to all"], "cy": ["to all"]}
    [public] = press.messages_for(table.ports, table.match_id, None)
    assert public == {"id": public["id"], "from": "cy", "to": "all", "text": "to all", "at": "2026-12-01T12:01:00Z"}
