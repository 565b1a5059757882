"""Mail in through the email-in function, exactly as the inbound queue hands it SES's SNS action's
notification (AWS's documented notification: every verdict, the SNS action, the whole message as
`content`): a move from a
registered address is stored and answered through SES v2, once however often the event comes;
a message SES judged spam changes nothing and is not answered."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from conftest import load_event
from moto.core import DEFAULT_ACCOUNT_ID
from moto.ses.models import ses_backends

from game_core.aws.wiring import ports_from_environment
from game_core.mail.inbound import parse_message

SAMPLE_MESSAGE_ID = "<CAFsample0001@mail.example.com>"
"""The Message-ID of the player's message in events/email_in.json."""


def create_sample(stack: Any) -> str:
    """The sample match (events/host_create.json: Ada registered as ada@example.com), Pregame open."""
    created = stack.host(load_event("host_create.json"))
    assert created["ok"], created
    stack.settle()
    match_id: str = created["match_id"]
    return match_id


def answers(stack: Any) -> list[tuple[list[str], bytes]]:
    """(destinations, raw message) of every answer to the sample message SES v2 has sent."""
    sent = ses_backends[DEFAULT_ACCOUNT_ID][stack.client("sesv2").meta.region_name].sent_messages
    raws = [(message.destinations, message.raw_data.encode()) for message in sent if hasattr(message, "raw_data")]
    return [(to, raw) for to, raw in raws if parse_message(raw).in_reply_to == SAMPLE_MESSAGE_ID]


def edited(event: dict[str, Any], edit: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    """The event with SES's notification in it changed by `edit`."""
    notification = json.loads(event["Records"][0]["body"])
    edit(notification)
    event["Records"][0]["body"] = json.dumps(notification)
    return event


def with_verdict(event: dict[str, Any], check: str, status: str) -> dict[str, Any]:
    return edited(event, lambda notification: notification["receipt"].update({f"{check}Verdict": {"status": status}}))


def test_the_sample_mail_is_stored_and_answered_through_ses_once_however_often_it_comes(stack) -> None:
    match_id = create_sample(stack)
    event = load_event("email_in.json", match_id)

    # When the queue hands the function Ada's sample message, and then hands it over again
    first = stack.invoke("EmailInFunction", event)
    again = stack.invoke("EmailInFunction", event)

    # Then her multipliers are stored once, from the e-mail channel
    assert (first["outcomes"], again["outcomes"]) == (["answered"], ["redelivered"])
    ports = ports_from_environment()
    assert ports.store.submissions(match_id, 1) == {"ada": {"multipliers": {"multipliers": [2, 1, 1, 0, -1, -1]}}}
    accepted = [event for event in ports.store.events(match_id) if event.type == "submission_accepted"]
    assert [event.data["channel"] for event in accepted] == ["email"]
    # And one answer went, through SES v2, to her registered address, threaded under her message
    [(to, raw)] = answers(stack)
    assert set(to) == {"ada@example.com"}  # moto lists the Destination and the To header both
    letter = parse_message(raw)
    assert letter.sender == f"{match_id}@play.local"
    assert letter.subject == f"Re: [{match_id}] Pushing Crates: the match begins"
    assert "Accepted for Pregame:\n  MULTIPLIERS 2 1 1 0 -1 -1\nIt costs no garnets." in letter.text


def test_a_client_resend_of_the_sample_mail_is_a_new_ses_delivery_but_stored_and_answered_once(stack) -> None:
    match_id = create_sample(stack)
    first = stack.invoke("EmailInFunction", load_event("email_in.json", match_id))

    # When Ada's client sends the same message again (the same Message-ID): SES receives it anew
    resent = edited(load_event("email_in.json", match_id), lambda n: n["mail"].update({"messageId": "ses-resent-1"}))
    again = stack.invoke("EmailInFunction", resent)

    # Then it is known for the same message: her multipliers stored once, one answer
    assert (first["outcomes"], again["outcomes"]) == (["answered"], ["redelivered"])
    accepted = [
        event for event in ports_from_environment().store.events(match_id) if event.type == "submission_accepted"
    ]
    assert len(accepted) == 1
    assert len(answers(stack)) == 1


def test_a_message_ses_judged_spam_changes_nothing_and_is_not_answered(stack) -> None:
    match_id = create_sample(stack)
    event = with_verdict(load_event("email_in.json", match_id), "spam", "FAIL")

    reply = stack.invoke("EmailInFunction", event)

    assert reply == {"batchItemFailures": [], "outcomes": ["refused"]}
    assert ports_from_environment().store.submissions(match_id, 1) == {}
    assert answers(stack) == []


def test_a_record_that_is_not_sess_notification_is_dropped_not_tried_again(stack) -> None:
    event = edited(load_event("email_in.json"), lambda notification: notification.pop("receipt"))
    assert stack.invoke("EmailInFunction", event) == {"batchItemFailures": [], "outcomes": ["dropped"]}
