"""Reading SES's receipt notifications as the inbound queue holds them (the topic's raw delivery):
AWS's documented samples (notifications/, from "Examples of notifications for Amazon SES email
receiving"), the BASE64 encoding, missing and failing verdicts, and what refuses a message."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from game_core.errors import Reason
from game_core.mail.inbound import MAX_BYTES, parse_message
from game_core.mail.ses import MISSING, Receipt, StoredMessage, Verdicts, receipt_of, refusals

NOTIFICATIONS = Path(__file__).parent / "notifications"


def notification(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((NOTIFICATIONS / name).read_text(encoding="utf-8"))
    return loaded


def read(message: dict[str, Any]) -> Receipt:
    """The receipt of an SES notification as the inbound queue holds it (the topic delivers it raw)."""
    receipt = receipt_of(json.dumps(message))
    assert receipt is not None
    return receipt


def test_the_documented_sns_action_notification() -> None:
    receipt = read(notification("sns_action.json"))
    assert receipt.ses_message_id == "d6iitobk75ur44p8kdnnp7g2n800"
    assert receipt.recipients == ("recipient@example.com",)
    # The sample has no dmarcVerdict.
    assert receipt.verdicts == Verdicts(spf="PASS", dkim="PASS", dmarc=MISSING, spam="PASS", virus="PASS")
    assert receipt.dmarc_policy == ""
    assert receipt.content is not None
    letter = parse_message(receipt.content)
    assert (letter.sender, letter.subject, letter.text) == ("sender@example.com", "Example subject", "Example content")


def test_the_documented_s3_action_notification_names_where_the_message_is_stored() -> None:
    receipt = read(notification("alert_s3_action.json"))
    # The sample's action: bucket "amzn-s3-demo-bucket", object key "\email" (JSON's "\\email")
    assert receipt.stored == StoredMessage(bucket="amzn-s3-demo-bucket", key="\\email")
    assert (receipt.content, receipt.size, receipt.too_large) == (None, 0, False)
    assert receipt.verdicts.dmarc == "PASS"


def test_an_sns_action_notification_carries_the_message_and_its_size() -> None:
    receipt = read(notification("sns_action.json"))
    assert receipt.stored is None and receipt.content is not None
    assert receipt.size == len(receipt.content) and not receipt.too_large


def test_base64_encoding_gives_the_exact_bytes() -> None:
    raw = b"From: z@x.org\r\nContent-Type: text/plain; charset=iso-8859-1\r\n\r\nZo\xeb\r\n"
    message = notification("sns_action.json")
    message["receipt"]["action"]["encoding"] = "BASE64"
    message["content"] = base64.b64encode(raw).decode()
    receipt = read(message)
    assert receipt.content == raw
    assert parse_message(raw).text == "Zoë"


def test_utf8_encoding_is_the_default_and_may_be_named() -> None:
    message = notification("sns_action.json")
    message["receipt"]["action"]["encoding"] = "UTF8"
    message["content"] = "Subject: caf\u00e9\r\n\r\n\u20ac\r\n"
    receipt = read(message)
    assert receipt.content == "Subject: café\r\n\r\n€\r\n".encode()


def test_content_that_cannot_be_decoded_is_none() -> None:
    message = notification("sns_action.json")
    message["receipt"]["action"]["encoding"] = "BASE64"
    message["content"] = "!!! not base64 !!!"
    assert read(message).content is None


@pytest.mark.parametrize(("size", "too_large"), [(MAX_BYTES, False), (MAX_BYTES + 1, True)])
def test_a_message_over_max_bytes_is_too_large(size: int, too_large: bool) -> None:
    message = notification("sns_action.json")
    message["content"] = "x" * size
    receipt = read(message)
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
    receipt = read(message)
    assert receipt.recipients == ("m-6604cfc546dc@play.genius.example",)
    assert receipt.verdicts == Verdicts(spf="PROCESSING_FAILED", dkim="FAIL", dmarc="FAIL", spam="FAIL", virus="GRAY")
    assert receipt.dmarc_policy == "reject"


def test_other_notifications_are_about_no_message() -> None:
    setup = {"notificationType": "AMAZON_SES_SETUP_NOTIFICATION", "receipt": {}, "mail": {}}
    assert receipt_of(json.dumps(setup)) is None


@pytest.mark.parametrize("message", [{}, {"notificationType": "Received"}, {"receipt": {}}])
def test_a_notification_that_is_not_sess_raises_a_value_error(message: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        receipt_of(json.dumps(message))


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
