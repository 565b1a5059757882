"""Mail in through the inbound queue (issue 29): SES stores the mail and notifies the inbound
topic, the topic queues it, and the real mail function takes it as Lambda's SQS event source
would (local_stack/aws/inbound_queue.py), with DynamoDB failing as local_stack/aws/faults.py injects it.
Time is the stack's virtual clock (moto's SQS reads it): six hours of retries take no real time.

The expected tries are worked by hand from the backoff aws/inbound_queue.py states (the next try
waits 60 s doubled each try, at most an hour; 12 tries, then the dead letters), not read from
the code: tries come at 0, 60, 180, 420, 900, 1860, 3780 s, then an hour apart."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import host_alerts, load_event
from moto.core import DEFAULT_ACCOUNT_ID
from moto.ses.models import ses_backends
from test_static_checks import template
from webhook_receiver import Receiver

from game_core.aws.inbound_queue import MAX_RECEIVES, retry_seconds
from game_core.mail.inbound import parse_message
from game_core.service.mail.dead_letters import KEPT_DAYS
from local_stack.aws.faults import EVERY_CALL, Fault, MailFaults
from local_stack.aws.inbound_queue import BATCH, VISIBILITY_SECONDS, FunctionFailed

MOVE = {"multipliers": {"multipliers": [2, 1, 1, 0, -1, -1]}}
SIX_HOURS = 6 * 3600


def create_sample(stack: Any, webhooks: dict[str, str] | None = None) -> dict[str, Any]:
    """The sample match (events/host_create.json: Ada plays by mail), Pregame open; create's reply."""
    event = load_event("host_create.json")
    if webhooks:
        event["match"]["webhooks"] = webhooks
    created: dict[str, Any] = stack.host(event)
    assert created["ok"], created
    stack.settle()
    return created


def adas_mail(match_id: str, message_id: str, text: str) -> bytes:
    return (
        f"From: Ada <ada@example.com>\r\nTo: {match_id}@play.local\r\nSubject: Re: [{match_id}] Pregame\r\n"
        f"Message-ID: {message_id}\r\nContent-Type: text/plain; charset=UTF-8\r\n\r\n{text}\r\n"
    ).encode()


def answers_to(stack: Any, message_id: str) -> list[str]:
    """The text of every answer SES v2 sent to the mail `message_id`."""
    sent = ses_backends[DEFAULT_ACCOUNT_ID][stack.client("sesv2").meta.region_name].sent_messages
    letters = [parse_message(m.raw_data.encode()) for m in sent if hasattr(m, "raw_data")]
    return [letter.text for letter in letters if letter.in_reply_to == message_id]


def accepted(stack: Any, match_id: str) -> list[Any]:
    return [event for event in stack.ports().store.events(match_id) if event.type == "submission_accepted"]


class Tries:
    """A fault plan that notes when each try of each mail came (seconds since `start`)."""

    def __init__(self, stack: Any, faults: dict[str, list[Fault | None]]) -> None:
        self.stack = stack
        self.start = stack.now().timestamp()
        self.faults = faults
        self.at: dict[str, list[float]] = {}

    def __call__(self, mail: str, number: int) -> Fault | None:
        self.at.setdefault(mail, []).append(self.stack.now().timestamp() - self.start)
        planned = self.faults.get(mail, [])
        return planned[number - 1] if number <= len(planned) else None


def test_the_retries_span_six_hours_before_the_dead_letters_as_the_template_says() -> None:
    # Worked by hand: 60 * (1 + 2 + 4 + 8 + 16 + 32) = 3780 s, then 3600 s for each of tries 7 to 11
    waits = [retry_seconds(tries) for tries in range(1, MAX_RECEIVES)]
    assert waits == [60, 120, 240, 480, 960, 1920, 3600, 3600, 3600, 3600, 3600]
    assert sum(waits) == 21780 >= SIX_HOURS
    resources = template()["Resources"]
    queue = resources["MailQueue"]["Properties"]
    assert queue["RedrivePolicy"] == {"deadLetterTargetArn": {"!GetAtt": "MailDeadLetters.Arn"}, "maxReceiveCount": 12}
    assert queue["VisibilityTimeout"] * MAX_RECEIVES >= SIX_HOURS  # a crashed try waits the queue's timeout
    assert queue["MessageRetentionPeriod"] > sum(waits) + queue["VisibilityTimeout"]
    # A dead letter is kept as long as the mail it names, and no longer
    dead = resources["MailDeadLetters"]["Properties"]["MessageRetentionPeriod"]
    [expiry] = resources["InboundMailBucket"]["Properties"]["LifecycleConfiguration"]["Rules"]
    assert dead == expiry["ExpirationInDays"] * 86400 == KEPT_DAYS * 86400  # as the host's alert says
    source = resources["EmailInFunction"]["Properties"]["Events"]["Received"]["Properties"]
    assert source["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert (source["BatchSize"], queue["VisibilityTimeout"]) == (BATCH, VISIBILITY_SECONDS)  # the local stack's
    alarm = resources["MailDeadLettersAlarm"]["Properties"]
    assert alarm["Dimensions"] == [{"Name": "QueueName", "Value": {"!GetAtt": "MailDeadLetters.QueueName"}}]
    assert (alarm["Threshold"], alarm["AlarmActions"]) == (1, [{"!Ref": "HostAlertsTopic"}])


def test_a_move_whose_first_five_tries_fail_is_stored_once_and_answered_once_and_its_neighbour_once(
    stack: Any,
) -> None:
    # Given Ada's move and her HELP, mailed together while DynamoDB fails her move's first five
    # tries (four with the table unreachable, the fifth storing the move and losing the reply)
    match_id = create_sample(stack)["match_id"]
    move_id, help_id = "<ada-move-1@example.com>", "<ada-help-1@example.com>"
    move = stack.mail_in.send(adas_mail(match_id, move_id, "MULTIPLIERS 2 1 1 0 -1 -1"))
    helped = stack.mail_in.send(adas_mail(match_id, help_id, "HELP"))
    failing = [Fault(EVERY_CALL)] * 4 + [Fault("TransactWriteItems", after=True)]
    tries = Tries(stack, {move: failing})
    faults = MailFaults(stack, tries)

    # When the queue is worked for seven hours
    outcomes = stack.mail_in.run_for(7 * 3600, stack.advance)

    # Then her move was tried six times, at the backoff's times, and her HELP once (the batch's
    # failure was her move's alone); the move is stored once and each mail answered once
    assert tries.at == {move: [0, 60, 180, 420, 900, 1860], helped: [0]}
    assert [struck[:2] for struck in faults.injected][-1] == (move, 5)
    assert sorted(outcomes) == ["answered", "answered", *["failed"] * 5]
    assert stack.ports().store.submissions(match_id, 1) == {"ada": MOVE}
    assert [event.data["channel"] for event in accepted(stack, match_id)] == ["email"]
    [answer] = answers_to(stack, move_id)
    assert "Accepted for Pregame:\n  MULTIPLIERS 2 1 1 0 -1 -1" in answer
    assert len(answers_to(stack, help_id)) == 1
    assert stack.mail_in.waiting() == 0 and stack.mail_in.dead_letters() == []


@pytest.fixture
def receiver():
    with Receiver() as receiving:
        yield receiving


def test_a_mail_failing_every_try_reaches_the_dead_letters_the_host_is_told_and_a_redrive_applies_it_once(
    stack: Any, receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a host with an alerts URL and topic, and Ada's client sending her move twice (one
    # Message-ID, two SES deliveries) while the table refuses every write of a move
    monkeypatch.setenv("WEBHOOKS_ALLOW_LOOPBACK", "1")
    stack.cold_start()
    alerts_topic = host_alerts(stack)
    created = create_sample(stack, {"@alerts": receiver.url("alerts")})
    match_id = created["match_id"]
    receiver.secrets["alerts"] = created["webhook_secrets"]["@alerts"]
    move_id = "<ada-move-1@example.com>"
    sent = [stack.mail_in.send(adas_mail(match_id, move_id, "MULTIPLIERS 2 1 1 0 -1 -1")) for _ in range(2)]
    tries = Tries(stack, {mail: [Fault("TransactWriteItems")] * MAX_RECEIVES for mail in sent})
    faults = MailFaults(stack, tries)

    # When the queue is worked for eight hours
    outcomes = stack.mail_in.run_for(8 * 3600, stack.advance)

    # Then each was tried 12 times over 6 h 3 min and is in the dead letters; nothing is stored
    # or answered; the host is told of each by the topic and by the alerts URL (signed)
    hourly = [3780 + 3600 * hour for hour in range(6)]  # tries 7 to 12: the last at 21780 s
    assert tries.at == {mail: [0, 60, 180, 420, 900, 1860, *hourly] for mail in sent}
    assert outcomes == ["failed"] * 24
    assert sorted(dead["mail"]["messageId"] for dead in stack.mail_in.dead_letters()) == sorted(sent)
    assert stack.mail_in.waiting() == 0
    assert stack.ports().store.submissions(match_id, 1) == {} and answers_to(stack, move_id) == []
    told = alerts_topic()
    assert sorted((alert["match_id"], alert["ses_message_id"], alert["tries"]) for alert in told) == sorted(
        (match_id, mail, 12) for mail in sent
    )
    assert all("match-host redrive-mail" in alert["what_to_do"] for alert in told)
    stack.webhooks.deliver()
    hooked = receiver.accepted("alerts")
    assert sorted(one.payload["ses_message_id"] for one in hooked) == sorted(sent)
    assert all(one.verified and one.payload["type"] == "host.alert" for one in hooked)

    # When AWS is well again and the host redrives the match's mail, and redrives it again
    faults.plan = lambda _mail, _number: None
    first = stack.host(load_event("host_redrive_mail.json", match_id))
    after_first = stack.mail_in.deliver()
    second = stack.host(load_event("host_redrive_mail.json", match_id))
    after_second = stack.mail_in.deliver()

    # Then the first queues both deliveries again, which store her move once and answer it once
    # (the second delivery is known by its Message-ID); the second redrive finds nothing
    assert (first["ok"], first["requeued"], second["ok"], second["requeued"]) == (True, 2, True, 0)
    assert sorted(after_first) == ["answered", "redelivered"] and after_second == []
    assert stack.ports().store.submissions(match_id, 1) == {"ada": MOVE}
    assert len(accepted(stack, match_id)) == 1
    [answer] = answers_to(stack, move_id)
    assert "Accepted for Pregame:\n  MULTIPLIERS 2 1 1 0 -1 -1" in answer
    assert stack.mail_in.dead_letters() == [] and stack.mail_in.waiting() == 0


def test_the_laptops_hand_in_is_not_queued_and_says_when_a_mail_failed_so_its_sender_tries_again(stack: Any) -> None:
    # Given the laptop's host server handing Ada's move in (its SMTP port, its mailbox poller)
    # while the table is unreachable for the first try
    match_id = create_sample(stack)["match_id"]
    raw = adas_mail(match_id, "<ada-move-1@example.com>", "MULTIPLIERS 2 1 1 0 -1 -1")
    MailFaults(stack, Tries(stack, {"laptop-1": [Fault(EVERY_CALL)]}))

    # When it hands the mail in, and hands it in again (the SMTP sender after a 451, the poller
    # on its next look)
    with pytest.raises(FunctionFailed):
        stack.mail_in.hand_in(raw, None, None, "laptop-1")
    again = stack.mail_in.hand_in(raw, None, None, "laptop-1")

    # Then the second is taken and answered, and nothing waits in the queue
    assert again["outcomes"] == ["answered"]
    assert stack.ports().store.submissions(match_id, 1) == {"ada": MOVE}
    assert len(answers_to(stack, "<ada-move-1@example.com>")) == 1
    assert stack.mail_in.waiting() == 0


def test_a_redrive_takes_only_its_matchs_dead_mail_and_leaves_the_others_there(stack: Any) -> None:
    # Given Ada's moves to two matches, each dead after every try failed
    first, second = (create_sample(stack)["match_id"] for _ in range(2))
    mails = {
        match_id: stack.mail_in.send(adas_mail(match_id, f"<ada-{match_id}@example.com>", "MULTIPLIERS 2 1 1 0 -1 -1"))
        for match_id in (first, second)
    }
    faults = MailFaults(
        stack, Tries(stack, {mail: [Fault("TransactWriteItems")] * MAX_RECEIVES for mail in mails.values()})
    )
    stack.mail_in.run_for(8 * 3600, stack.advance)
    assert len(stack.mail_in.dead_letters()) == 2

    # When the first match's host redrives its mail
    faults.plan = lambda _mail, _number: None
    redriven = stack.host({"command": "redrive_mail", "match_id": first})
    outcomes = stack.mail_in.deliver()

    # Then only that match's mail is read; the other match's stays in the dead letters, in view
    # again (at once on AWS; moto shows a message once its clock is past the instant it was shown)
    stack.advance(1)
    assert (redriven["requeued"], outcomes) == (1, ["answered"])
    assert stack.ports().store.submissions(first, 1) == {"ada": MOVE}
    assert stack.ports().store.submissions(second, 1) == {}
    assert [dead["mail"]["messageId"] for dead in stack.mail_in.dead_letters()] == [mails[second]]
