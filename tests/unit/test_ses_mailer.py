"""The SES adapter tells a refusal for good (`MailRefused`: skip that mail, tell the host) from a
failure to retry (the error as it came), by SES's error code."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError

from game_core.aws.ses_mailer import SesMailer
from game_core.errors import MailRefused
from game_core.service.ports import OutgoingMail

MAIL = OutgoingMail(to="bo@example.com", raw=b"Subject: hello\r\n\r\nhello\r\n")


class AnsweringSes:
    """An SES v2 client whose SendEmail answers with one error."""

    def __init__(self, code: str, message: str) -> None:
        self.error = ClientError({"Error": {"Code": code, "Message": message}}, "SendEmail")

    def send_email(self, **_request: Any) -> None:
        raise self.error


NOT_VERIFIED = (
    "Email address is not verified. The following identities failed the check in region US-EAST-1: bo@example.com"
)
REFUSED = [
    # (SES's code and message, what the host reads: the code, the message, the sandbox hint when unverified)
    ("MessageRejected", NOT_VERIFIED, f"MessageRejected: {NOT_VERIFIED} (is SES still in its sandbox?)"),
    ("BadRequestException", "Illegal address", "BadRequestException: Illegal address"),
    ("InvalidParameterValue", "Missing domain", "InvalidParameterValue: Missing domain"),  # moto's SES
]
RETRIED = [
    ("TooManyRequestsException", "Maximum sending rate exceeded."),
    ("Throttling", "Daily message quota exceeded."),  # SES v1's name
    ("LimitExceededException", "There are too many instances of the specified resource type."),
    ("InternalFailure", "An internal error occurred."),
    ("SendingPausedException", "Sending is paused for this account."),
    ("MailFromDomainNotVerifiedException", "play.example.com is not verified."),
]


@pytest.mark.parametrize(("code", "message", "host_reads"), REFUSED, ids=[row[0] for row in REFUSED])
def test_a_refusal_for_good_is_a_mail_refused_with_ses_words(code: str, message: str, host_reads: str) -> None:
    with pytest.raises(MailRefused) as refused:
        SesMailer(AnsweringSes(code, message), "play.example.com", frozenset()).send(MAIL)
    assert (refused.value.code, str(refused.value)) == (code, host_reads)


@pytest.mark.parametrize(("code", "message"), RETRIED, ids=[row[0] for row in RETRIED])
def test_a_transient_or_deployment_wide_failure_goes_on_as_it_came(code: str, message: str) -> None:
    with pytest.raises(ClientError) as failed:
        SesMailer(AnsweringSes(code, message), "play.example.com", frozenset()).send(MAIL)
    assert failed.value.response["Error"]["Code"] == code
