"""Which AWS refusals a host act answers as `Unavailable`, and what each tells the host
(game_core/aws/busy.py). Expected words worked from the issue: a throttle (or a 503) is not
applied, so the command is sent again; a 500 may have been applied, so the host looks first."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError

from game_core.aws.busy import AwsBusy, aws_busy
from game_core.aws.store import StoreUnavailable


def refused(code: str, status: int) -> ClientError:
    return ClientError({"Error": {"Code": code, "Message": "m"}, "ResponseMetadata": {"HTTPStatusCode": status}}, "Op")


@pytest.mark.parametrize(
    ("code", "status", "reason"),
    [
        ("ProvisionedThroughputExceededException", 400, "aws_throttled"),
        ("ThrottlingException", 400, "aws_throttled"),
        ("Throttling", 400, "aws_throttled"),
        ("TooManyRequestsException", 429, "aws_throttled"),
        ("ServiceUnavailable", 503, "aws_throttled"),
        ("SomethingNew", 503, "aws_throttled"),  # any 503 or 429: not taken
        ("InternalServerError", 500, "aws_failed"),
        ("ConditionalCheckFailedException", 400, None),  # the act's own to handle
        ("ValidationException", 400, None),
        ("ExecutionDoesNotExist", 400, None),
    ],
)
def test_which_refusals_are_aws_busy_and_what_the_host_is_told(code: str, status: int, reason: str | None) -> None:
    busy = aws_busy(refused(code, status))
    if reason is None:
        assert busy is None
        return
    assert busy is not None
    reply = busy.to_json()
    assert (reply["error"], reply["reasons"][0]["code"], reply["retry_after"]) == ("Unavailable", reason, 5)
    assert f"(Op: {code})" in reply["message"]
    if reason == "aws_throttled":
        assert "send the same command again" in reply["message"] and "nothing is applied twice" in reply["message"]
    else:
        assert "may have applied it" in reply["message"] and "check with `status`" in reply["message"]


def test_a_read_dynamodb_left_unanswered_is_told_as_a_throttle() -> None:
    busy = AwsBusy.of(StoreUnavailable([{"pk": {"S": "MATCH#m"}, "sk": {"S": "META"}}]))
    assert busy.to_json()["reasons"][0]["code"] == "aws_throttled"
    assert "(BatchGetItem: keys left unread)" in busy.to_json()["message"]
