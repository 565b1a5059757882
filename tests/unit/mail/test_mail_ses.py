"""Reading SES's receipt notifications as SNS delivers them to Lambda: AWS's documented samples
(notifications/, from "Examples of notifications for Amazon SES email receiving"), the BASE64
encoding, missing and failing verdicts, and what refuses a message."""

from __future__ import annotations

import base64
import copy
import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from game_core.errors import Reason
from game_core.mail.inbound import MAX_BYTES, parse_message
from game_core.mail.ses import MISSING, StoredMessage, Verdicts, receipt_of, receipts, refusals

NOTIFICATIONS = Path(__file__).parent / "notifications"


def notification(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((NOTIFICATIONS / name).read_text(encoding="utf-8"))
    return loaded


def sns_event(*messages: dict[str, Any]) -> dict[str, Any]:
    """The Lambda event of an SNS subscription (as AWS documents it), one record per message."""
    return {
        "Records": [
            {
                "EventSource": "aws:sns",
                "EventVersion": "1.0",
                "EventSubscriptionArn": "arn:aws:sns:eu-west-1:123456789012:mail-in:21be56ed",
                "Sns": {
                    "Type": "Notification",
                    "MessageId": "95df01b4-ee98-5cb9-9903-4c221d41eb5e",
                    "TopicArn": "arn:aws:sns:eu-west-1:123456789012:mail-in",
                    "Subject": "Amazon SES Email Receipt Notification",
                    "Message": json.dumps(message),
                    "Timestamp": "2026-12-01T12:00:00.000Z",
                    "SignatureVersion": "1",
                    "Signature": "EXAMPLE",
                    "SigningCertUrl": "https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-0000000000.pem",
                    "UnsubscribeUrl": "https://sns.eu-west-1.amazonaws.com/?Action=Unsubscribe",
                    "MessageAttributes": {},
                },
            }
            for message in messages
        ]
    }


def test_the_documented_sns_action_notification() -> None:
    [receipt] = receipts(sns_event(notification("sns_action.json")))
    assert receipt.ses_message_id == "d6iitobk75ur44p8kdnnp7g2n800"
    assert receipt.recipients == ("recipient@example.com",)
    # The sample has no dmarcVerdict.
    assert receipt.verdicts == Verdicts(spf="PASS", dkim="PASS", dmarc=MISSING, spam="PASS", virus="PASS")
    assert receipt.dmarc_policy == ""
    assert receipt.content is not None
    letter = parse_message(receipt.content)
    assert (letter.sender, letter.subject, letter.text) == ("sender@example.com", "Example subject", "Example content")


def test_the_documented_s3_action_notification_names_where_the_message_is_stored() -> None:
    [receipt] = receipts(sns_event(notification("alert_s3_action.json")))
    # The sample's action: bucket "amzn-s3-demo-bucket", object key "\email" (JSON's "\\email")
    assert receipt.stored == StoredMessage(bucket="amzn-s3-demo-bucket", key="\\email")
    assert (receipt.content, receipt.size, receipt.too_large) == (None, 0, False)
    assert receipt.verdicts.dmarc == "PASS"


def test_an_sns_action_notification_carries_the_message_and_its_size() -> None:
    [receipt] = receipts(sns_event(notification("sns_action.json")))
    assert receipt.stored is None and receipt.content is not None
    assert receipt.size == len(receipt.content) and not receipt.too_large


def test_base64_encoding_gives_the_exact_bytes() -> None:
    raw = b"From: z@x.org\r\nContent-Type: text/plain; charset=iso-8859-1\r\n\r\nZo\xeb\r\n"
    message = notification("sns_action.json")
    message["receipt"]["action"]["encoding"] = "BASE64"
    message["content"] = base64.b64encode(raw).decode()
    [receipt] = receipts(sns_event(message))
    assert receipt.content == raw
    assert parse_message(raw).text == "Zoë"


def test_utf8_encoding_is_the_default_and_may_be_named() -> None:
    message = notification("sns_action.json")
    message["receipt"]["action"]["encoding"] = "UTF8"
    message["content"] = "Subject: caf\u00e9\r\n\r\n\u20ac\r\n"
    [receipt] = receipts(sns_event(message))
    assert receipt.content == "Subject: café\r\n\r\n€\r\n".encode()


def test_content_that_cannot_be_decoded_is_none() -> None:
    message = notification("sns_action.json")
    message["receipt"]["action"]["encoding"] = "BASE64"
    message["content"] = "!!! not base64 !!!"
    assert receipts(sns_event(message))[0].content is None


@pytest.mark.parametrize(("size", "too_large"), [(MAX_BYTES, False), (MAX_BYTES + 1, True)])
def test_a_message_over_max_bytes_is_too_large(size: int, too_large: bool) -> None:
    message = notification("sns_action.json")
    message["content"] = "x" * size
    [receipt] = receipts(sns_event(message))
    assert (receipt.size, receipt.too_large) == (size, too_large)


def test_verdicts_and_the_dmarc_policy_are_read_and_recipients_lower_cased() -> None:
    message = notification("sns_action.json")
    receipt_part = message["receipt"]
    receipt_part["recipients"] = ["M-6604CFC546DC@Play.Genius.Example"]
    receipt_part["spamVerdict"] = {"status": "FAIL"}
    receipt_part["virusVerdict"] = {"status": "GRAY"}
    receipt_part["spfVerdict"] = {"status": "PROCESSING_FAILED"}
    receipt_part["dkimVerdict"] = {"status": "FAIL"}
    receipt_part["dmarcVerdict"] = {"status": "FAIL"}
    receipt_part["dmarcPolicy"] = "reject"
    [receipt] = receipts(sns_event(message))
    assert receipt.recipients == ("m-6604cfc546dc@play.genius.example",)
    assert receipt.verdicts == Verdicts(spf="PROCESSING_FAILED", dkim="FAIL", dmarc="FAIL", spam="FAIL", virus="GRAY")
    assert receipt.dmarc_policy == "reject"


def test_every_record_is_read_and_other_notifications_skipped() -> None:
    setup = {"notificationType": "AMAZON_SES_SETUP_NOTIFICATION", "receipt": {}, "mail": {}}
    second = copy.deepcopy(notification("sns_action.json"))
    second["mail"]["messageId"] = "second"
    found = receipts(sns_event(notification("sns_action.json"), setup, second))
    assert [receipt.ses_message_id for receipt in found] == ["d6iitobk75ur44p8kdnnp7g2n800", "second"]


@pytest.mark.parametrize(
    "event",
    [
        {},
        {"Records": [{"EventSource": "aws:sqs", "Sns": {"Message": "{}"}}]},
        sns_event({"notificationType": "Received"}),
        sns_event({"receipt": {}}),
    ],
)
def test_an_event_that_is_not_ses_through_sns_raises_a_value_error(event: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        receipts(event)


def test_a_message_that_is_not_json_raises_a_value_error() -> None:
    with pytest.raises(ValueError):
        receipt_of("not json")
    with pytest.raises(ValidationError):
        receipt_of("[]")


PASSING = Verdicts(spf="PASS", dkim="PASS", dmarc="PASS", spam="PASS", virus="PASS")
ALL = frozenset({"spf", "dkim", "dmarc"})


@pytest.mark.parametrize(
    ("verdicts", "required", "codes"),
    [
        (PASSING, ALL, []),
        (PASSING, frozenset(), []),
        (Verdicts(), frozenset(), []),
        (Verdicts(), ALL, ["spf_missing", "dkim_missing", "dmarc_missing"]),
        (Verdicts(spam="FAIL", virus="FAIL"), frozenset(), ["spam_fail", "virus_fail"]),
        (Verdicts(spam="GRAY", virus="PROCESSING_FAILED"), frozenset(), []),
        (Verdicts(spf="PASS", dkim="FAIL", dmarc="GRAY"), frozenset({"spf", "dkim"}), ["dkim_fail"]),
        (Verdicts(spf="PROCESSING_FAILED", dkim="PASS"), frozenset({"spf", "dkim"}), ["spf_processing_failed"]),
        (Verdicts(dmarc="FAIL", spam="FAIL"), frozenset({"dmarc"}), ["spam_fail", "dmarc_fail"]),
    ],
)
def test_refusals(verdicts: Verdicts, required: frozenset[str], codes: list[str]) -> None:
    assert [reason.code for reason in refusals(verdicts, required)] == codes


def test_a_refusal_says_which_verdict() -> None:
    assert refusals(Verdicts(dkim="GRAY"), frozenset({"dkim"})) == [
        Reason("dkim_gray", "SES's DKIM verdict is GRAY, not PASS")
    ]


def test_an_unknown_required_check_is_a_configuration_error() -> None:
    with pytest.raises(ValueError, match="SPF"):
        refusals(PASSING, frozenset({"SPF"}))
