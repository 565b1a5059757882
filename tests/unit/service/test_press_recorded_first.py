"""Press recorded before it is told (`service.matches.press`), on the fakes: Ada, Bo and Cy of
test_service_press's room (each with an address; Bo, Cy and the public with a webhook).

Two messages racing the rate are counted one after the other, so the one past it is refused
before anyone hears it; a message whose telling fails midway is finished by its retry under the
same key, each recipient told exactly once; and the host's messages are in the match's log."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from test_service_press import Room, room

from game_core.cli.replay import logged_lines
from game_core.errors import TooMany
from game_core.service.matches import press
from game_core.service.matches.actions import ActionRequest, act_by_webhook
from game_core.service.matches.lifecycle import export_record

# -- the rate under concurrency ------------------------------------------------------------------


def rival_before_the_first_save(table: Room, monkeypatch: pytest.MonkeyPatch, rival: Callable[[], Any]) -> None:
    """The store runs `rival` (a whole send) just before the next save goes through: both sends
    have read the match as it was, and both found the sender within the rate."""
    store = table.fakes.store
    save = store.save

    def staged(*args: Any, **kwargs: Any) -> None:
        monkeypatch.setattr(store, "save", save)
        rival()
        save(*args, **kwargs)

    monkeypatch.setattr(store, "save", staged)


@pytest.mark.parametrize(
    ("per_hour", "earlier"),
    [
        (1, 0),  # the race is for Ada's only message of the hour
        (3, 2),  # two went already: the race is for the third
    ],
)
def test_two_messages_racing_the_rate_send_only_the_one_within_it(monkeypatch, per_hour, earlier) -> None:
    table = room(press_per_hour=per_hour)
    mid = table.match_id
    for number in range(earlier):
        press.send(table.ports, mid, "ada", ["bo"], f"earlier {number}", "webhook", f"key-{number}")
    table.heard()

    # When Ada's "mine" has read the match and is about to record itself, her "theirs" (another
    # webhook call, the same instant) reads, records and tells first
    theirs = lambda: press.send(table.ports, mid, "ada", ["bo"], "theirs", "webhook", "key-theirs")  # noqa: E731
    rival_before_the_first_save(table, monkeypatch, theirs)
    with pytest.raises(TooMany) as refused:
        press.send(table.ports, mid, "ada", ["bo"], "mine", "webhook", "key-mine")

    # Then "mine" read the match again, found the hour full and went nowhere: per_hour messages
    # in all. All were sent at 12:00, so the next may go at 13:00, 3600 seconds on
    assert refused.value.retry_after == 3600
    texts = [data["text"] for data in table.logged()]
    assert texts == [f"earlier {number}" for number in range(earlier)] + ["theirs"]
    assert len(table.fakes.store.get(mid).press_sent["ada"]) == per_hour
    assert [notice.body["message"]["text"] for notice in table.fakes.notifier.notices()] == ["theirs"]
    assert len(table.mails_to("bo")) == 1 and len(table.delivered_to("bo")) == 1


# -- a telling that fails midway ----------------------------------------------------------------


def sns_fails_after_bos_notice(table: Room) -> None:
    table.fakes.notifier.fail_after = 1


def ses_fails_after_bos_mail(table: Room) -> None:
    table.fakes.mailer.fail_after = 1


def the_told_mark_fails(table: Room, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second write (the message marked told, its reply kept) fails once: everyone heard it."""
    store = table.fakes.store
    save = store.save

    def failing(before: Any, after: Any, event: Any, *args: Any, **kwargs: Any) -> None:
        if event.type == "press_told":
            monkeypatch.setattr(store, "save", save)
            raise RuntimeError("DynamoDB is unavailable")
        save(before, after, event, *args, **kwargs)

    monkeypatch.setattr(store, "save", failing)


FAULTS = {
    "sns": lambda table, _monkeypatch: sns_fails_after_bos_notice(table),
    "ses": lambda table, _monkeypatch: ses_fails_after_bos_mail(table),
    "told mark": the_told_mark_fails,
}


def counted(table: Room) -> dict[str, Counter[str]]:
    """Who was told how often, by channel (SNS notices, mails, webhook deliveries)."""
    return {
        "sns": Counter(str(notice.recipient) for notice in table.fakes.notifier.notices()),
        "mail": Counter(mail.to.split("@")[0] for mail in table.fakes.mailer.sent),
        "webhook": Counter(delivery.target for delivery in table.hooks.queued),
    }


@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_message_whose_telling_failed_is_finished_by_the_webhooks_retry_each_told_once(monkeypatch, fault) -> None:
    table = room()
    mid = table.match_id

    def post() -> dict[str, Any]:
        request = ActionRequest(mid, "ada", "press", {"to": ["bo", "cy"], "text": "Deal?"}, "webhook")
        return act_by_webhook(table.ports, mid, "ada", table.secrets["ada"], "key-7", lambda: request)

    # Given Ada's message to Bo and Cy, whose first attempt fails partway
    FAULTS[fault](table, monkeypatch)
    with pytest.raises(RuntimeError):
        post()
    # it is recorded (counted against Ada once), not yet marked told, and its reply not kept:
    # the webhook's redelivery is not answered from the store but finishes the telling
    [entry] = table.fakes.store.get(mid).press_sent["ada"]
    assert entry.told is False and len(table.logged()) == 1
    assert table.fakes.store.delivered(mid, "ada", "key-7") is None

    # When Ada's bot sends it again under the same key, and once more
    first = post()
    assert first["answer"] == "Your message went to Bo Baggins, Cy Twombly."
    told_once = {"sns": Counter(bo=1, cy=1), "mail": Counter(bo=1, cy=1), "webhook": Counter(bo=1, cy=1)}
    assert counted(table) == told_once
    assert post() == first  # the reply kept under the key: nothing is told again

    # Then Bo and Cy each heard it exactly once on each channel, and it counts once
    assert counted(table) == told_once
    [entry] = table.fakes.store.get(mid).press_sent["ada"]
    assert entry.told is True and [data["text"] for data in table.logged()] == ["Deal?"]
    marks = [event.data for event in table.fakes.store.events(mid) if event.type == "press_told"]
    assert marks == [{"id": first["message_id"], "from": "ada"}]


def test_a_message_told_whole_costs_one_record_and_one_mark() -> None:
    table = room()
    press.send(table.ports, table.match_id, "ada", ["bo"], "Deal?", "webhook", "key-1")
    # The record before telling, the mark after it (with the reply kept): two writes, counted
    saves = [event for match_id, event in table.fakes.store.saves if match_id == table.match_id]
    assert saves[-2:] == ["press", "press_told"]
    # Without a key no retry can name it: recorded told at once, one write
    press.send(table.ports, table.match_id, "ada", ["bo"], "Still there?", "test")
    saves = [event for match_id, event in table.fakes.store.saves if match_id == table.match_id]
    assert saves[-3:] == ["press", "press_told", "press"]


# -- the host's messages -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("to", "sent_to", "logged_to", "said"),
    [
        (None, "everyone", "all", "the host messaged everyone"),
        ("Bo Baggins", "bo", ["bo"], "the host messaged bo"),  # named by name, logged by id
    ],
)
def test_the_hosts_message_is_logged_once_for_the_export_and_replay(caplog, to, sent_to, logged_to, said) -> None:
    table = room()
    caplog.set_level(logging.DEBUG)
    command = {"command": "press", "text": "Back at 8 tonight"} | ({"to": to} if to else {})
    assert table.host(**command) == {"match_id": table.match_id, "sent_to": sent_to}
    # The same command sent again (its reply lost, say): nothing told twice, nothing logged twice
    again = table.host(**command)
    assert again == {"match_id": table.match_id, "sent_to": sent_to, "sent_before": True}
    assert [notice.recipient for notice in table.fakes.notifier.notices()] == [to and "bo"]

    record = export_record(table.ports, table.match_id).model_dump(mode="json")
    [logged] = [event["data"] for event in record["events"] if event["type"] == "host_press"]
    assert logged == {"id": logged["id"], "to": logged_to, "text": "Back at 8 tonight"}
    # match-replay says who was messaged (in the Pregame, phase 1), never what
    assert logged_lines(record["events"])[1] == [said]
    assert not any("Back at 8" in line.getMessage() for line in caplog.records)


def test_the_hosts_message_whose_telling_failed_is_finished_by_the_same_command_again() -> None:
    table = room()
    table.fakes.notifier.fail_after = 0  # SNS fails on the public notice
    with pytest.raises(RuntimeError):
        table.host(command="press", text="Back at 8 tonight")
    assert counted(table)["mail"] == Counter()

    # Sent again: told now, to everyone once, and logged once
    assert table.host(command="press", text="Back at 8 tonight")["sent_to"] == "everyone"
    assert counted(table) == {
        "sns": Counter({"None": 1}),
        "mail": Counter(ada=1, bo=1, cy=1),
        "webhook": Counter({"@public": 1, "bo": 1, "cy": 1}),
    }
    events = [event.type for event in table.fakes.store.events(table.match_id)]
    assert events.count("host_press") == 1 and events.count("press_told") == 1


def test_the_same_host_message_an_hour_later_is_another_one() -> None:
    table = room()
    table.host(command="press", text="Deadline soon")
    table.fakes.clock.advance(3601)  # its record has left the hour
    table.host(command="press", text="Deadline soon")
    ids = [notice.notice_id for notice in table.fakes.notifier.notices()]
    # Two notices with two ids (a receiver dropping repeats by id keeps both), two log entries
    assert len(ids) == len(set(ids)) == 2
    events = [event.type for event in table.fakes.store.events(table.match_id)]
    assert events.count("host_press") == 2
