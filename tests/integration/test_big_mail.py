"""Mail of any size through the email-in function as template.yaml's receipt rule delivers it: SES
stores the message in the inbound bucket and notifies its key (the local stack does the same on
moto's S3). Up to 10 MB is read (an Outlook HTML reply whose signature carries an inline image,
as heavy as pictures make it); a larger message is not read, and its sender is told why, once;
a message gone from the bucket (expired, deleted) is not read, says so in the log, and a retry
changes nothing. The notification that carries the message itself (an SNS action's, up to 150
KB) is still read.

Each move is the sample match's (events/host_create.json: Ada, ada@example.com, Pregame open):
"MULTIPLIERS 2 1 1 0 -1 -1" is the multipliers [2, 1, 1, 0, -1, -1], which cost no garnets.
"""

from __future__ import annotations

import json
import logging
import os
import smtplib
from email.message import EmailMessage
from typing import Any

import pytest
from botocore.exceptions import ClientError
from botocore.stub import Stubber
from test_email_in import answers, create_sample

from game_core.aws.mail_bucket import MailBucket
from game_core.aws.wiring import ports_from_environment
from game_core.mail.inbound import MAX_BYTES, parse_message
from game_core.mail.ses import Receipt
from game_core.mail.ses import receipt_of as read_notification
from local_stack.aws.inbound_bucket import INBOUND_BUCKET, deliver, queued_event, ses_event
from local_stack.laptop.smtp import SmtpListener

KB = 1024
MB = 1024 * KB
MOVE = {"multipliers": {"multipliers": [2, 1, 1, 0, -1, -1]}}


def outlook_html_reply(match_id: str, image_bytes: int) -> bytes:
    """Ada's reply as Outlook writes one with a logo in its signature: text and HTML alternatives,
    the HTML related to its inline image (random bytes: base64 makes them a third larger)."""
    reply = EmailMessage()
    reply["From"] = "Ada Lovelace <ada@example.com>"
    reply["To"] = f"{match_id}@play.local"
    reply["Subject"] = "RE: Pushing Crates: the match begins"
    reply["Message-ID"] = "<CAFsample0001@mail.example.com>"
    reply.set_content("MULTIPLIERS 2 1 1 0 -1 -1\n\nAda Lovelace\nAnalytical Engines Ltd\n")
    reply.add_alternative(
        "<html><body><div>MULTIPLIERS 2 1 1 0 -1 -1</div>"
        '<div id="Signature"><p>Ada Lovelace<br>Analytical Engines Ltd</p>'
        '<img src="cid:image001.png@01DB4321.ABCDEF00"></div></body></html>',
        subtype="html",
    )
    html = reply.get_payload()[1]
    html.add_related(os.urandom(image_bytes), "image", "png", cid="<image001.png@01DB4321.ABCDEF00>")
    return reply.as_bytes()


def mail_of_about(match_id: str, size: int) -> bytes:
    """The reply, its image sized so that the whole message comes within 1 KB under `size`."""
    image = size * 3 // 4
    for _ in range(4):  # base64 with its line breaks: 4 characters per 3 bytes, 77 per 76
        raw = outlook_html_reply(match_id, image)
        if size - KB < len(raw) <= size:
            return raw
        image += (size - KB // 2 - len(raw)) * 3 * 76 // (4 * 77)
    raise AssertionError(f"no mail of about {size} bytes: {len(raw)}")


def taken(outcome: str) -> dict[str, Any]:
    """The mail function's reply to one record it took (none failed: the queue deletes it)."""
    return {"batchItemFailures": [], "outcomes": [outcome]}


def event_key(event: dict[str, Any]) -> str:
    """The object key an S3 action's event names."""
    key: str = json.loads(event["Records"][0]["body"])["receipt"]["action"]["objectKey"]
    return key


def stored_moves(match_id: str) -> dict[str, Any]:
    submissions: dict[str, Any] = ports_from_environment().store.submissions(match_id, 1)
    return submissions


@pytest.mark.parametrize(
    ("size", "delivered"),
    [(149 * KB, "stored"), (3 * MB, "stored"), (149 * KB, "in the notification")],
    ids=["149KB-stored", "3MB-stored", "149KB-in-the-notification"],
)
def test_a_mail_up_to_10_mb_is_read_and_answered_once(stack: Any, size: int, delivered: str) -> None:
    match_id = create_sample(stack)
    raw = mail_of_about(match_id, size)
    in_notification = ses_event(raw)["Records"][0]["Sns"]["Message"]  # as an SNS action's would carry it
    event = deliver(stack.client("s3"), raw) if delivered == "stored" else queued_event(in_notification)

    first = stack.invoke("EmailInFunction", event)
    again = stack.invoke("EmailInFunction", event)  # the queue handing it over again

    assert (first, again) == (taken("answered"), taken("redelivered"))
    assert stored_moves(match_id) == {"ada": MOVE}
    [(_to, answer)] = answers(stack)
    assert "Accepted for Pregame:\n  MULTIPLIERS 2 1 1 0 -1 -1" in parse_message(answer).text


def test_the_stored_notification_carries_no_content_and_names_the_object(stack: Any) -> None:
    match_id = create_sample(stack)
    event = deliver(stack.client("s3"), mail_of_about(match_id, 149 * KB))

    notification = json.loads(event["Records"][0]["body"])
    action = notification["receipt"]["action"]
    assert "content" not in notification
    assert (action["type"], action["bucketName"], action["objectKey"]) == (
        "S3",
        INBOUND_BUCKET,
        notification["mail"]["messageId"],
    )


def test_a_mail_over_10_mb_is_not_read_and_its_sender_is_told_why_once(stack: Any) -> None:
    match_id = create_sample(stack)
    raw = mail_of_about(match_id, 11 * MB)
    assert len(raw) > MAX_BYTES
    event = deliver(stack.client("s3"), raw)

    first = stack.invoke("EmailInFunction", event)
    again = stack.invoke("EmailInFunction", event)

    assert (first, again) == (taken("too_large"), taken("redelivered"))
    assert stored_moves(match_id) == {}
    [(to, answer)] = answers(stack)
    assert "ada@example.com" in to
    text = " ".join(parse_message(answer).text.split())
    # 11 MB less under 1 KB, in MB of 1,048,576 bytes to one decimal: 11.0
    assert "Nothing was read: your mail is 11.0 MB, and mail to a match is read up to 10 MB." in text
    assert "Send your moves again as plain text, without attachments or pictures" in text


def test_a_mail_gone_from_the_bucket_is_not_read_the_log_says_so_and_a_retry_changes_nothing(
    stack: Any, caplog: pytest.LogCaptureFixture
) -> None:
    match_id = create_sample(stack)
    s3 = stack.client("s3")
    event = deliver(s3, mail_of_about(match_id, 149 * KB))
    key = event_key(event)
    s3.delete_object(Bucket=INBOUND_BUCKET, Key=key)  # as the lifecycle rule expires it

    with caplog.at_level(logging.ERROR, logger="game_core.aws.mail_bucket"):
        first = stack.invoke("EmailInFunction", event)
        again = stack.invoke("EmailInFunction", event)

    assert (first, again) == (taken("gone"), taken("gone"))
    assert stored_moves(match_id) == {}
    assert answers(stack) == []
    gone = [record for record in caplog.records if record.name == "game_core.aws.mail_bucket"]
    assert [(r.getMessage(), r.bucket, r.key) for r in gone] == [  # type: ignore[attr-defined]
        ("stored mail is gone (expired or deleted): nothing to read", INBOUND_BUCKET, key)
    ] * 2


def test_a_mail_answered_then_expired_and_delivered_again_changes_nothing(stack: Any) -> None:
    match_id = create_sample(stack)
    s3 = stack.client("s3")
    event = deliver(s3, mail_of_about(match_id, 3 * MB))
    assert stack.invoke("EmailInFunction", event) == taken("answered")
    s3.delete_object(Bucket=INBOUND_BUCKET, Key=event_key(event))

    assert stack.invoke("EmailInFunction", event) == taken("gone")
    assert stored_moves(match_id) == {"ada": MOVE}
    assert len(answers(stack)) == 1


def test_the_laptop_hosts_smtp_port_takes_mail_as_large_as_ses_does() -> None:
    # SES's S3 action stores up to 40 MB, so that the service answers a mail over its 10 MB
    listener = SmtpListener(object(), "127.0.0.1", 0)
    try:
        with smtplib.SMTP("127.0.0.1", listener.port, timeout=30) as smtp:
            smtp.ehlo()
            assert smtp.esmtp_features["size"] == str(40 * 1024 * 1024)
    finally:
        listener.stop()


def receipt_of(event: dict[str, Any]) -> Receipt:
    receipt = read_notification(event["Records"][0]["body"])
    assert receipt is not None
    return receipt


def test_an_empty_stored_message_is_read_as_empty(stack: Any) -> None:
    # S3 has no byte range of an empty object to give (InvalidRange): nothing to read, not an error
    event = deliver(stack.client("s3"), b"")
    read = MailBucket(stack.client("s3")).read(receipt_of(event))
    assert (read.content, read.size) == (b"", 0)


def test_a_failure_of_s3_other_than_a_missing_object_raises_so_lambda_delivers_again(stack: Any) -> None:
    s3 = stack.client("s3")
    event = deliver(s3, b"Subject: hi\r\n\r\nhi\r\n")
    with Stubber(s3) as stubbed:
        stubbed.add_client_error("get_object", service_error_code="SlowDown", http_status_code=503)
        with pytest.raises(ClientError, match="SlowDown"):
            MailBucket(s3).read(receipt_of(event))
