"""AWS saying "not now" to a host act, after botocore's own retries: a typed error and the clear
reply the host gets, instead of an unhandled ClientError (issue 29: a throttled `cancel`).

What is true when it happens, for every host act (tests/integration/test_host_acts_throttled.py
throttles each AWS call of each act): a throttle or a 503 means AWS did not apply the refused
call, and every act is safe to send again: its change is one conditional write, whose repeat is
known (a clock act or a cancel whose wake or tell failed is kept as untold, a message recorded
untold is finished; a recovery whose execution did not start is another attempt, as after any
stop). So the host is told that the command did not finish and that the same command sent again
finishes it, applying nothing twice.
A 500 (an internal error) is different: AWS may have applied the call before failing, so the
host is told to look before sending it again.
"""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from game_core.errors import Unavailable

THROTTLED = frozenset(
    {
        "ThrottlingException",  # DynamoDB, Step Functions, SQS, Lambda's control plane
        "ProvisionedThroughputExceededException",  # DynamoDB, a table's or index's capacity
        "RequestLimitExceeded",  # DynamoDB, the account's
        "Throttling",  # SNS and SES (query APIs)
        "ThrottledException",  # SNS
        "TooManyRequestsException",  # SES v2, Lambda
        "RequestThrottled",  # SQS
        "ServiceUnavailable",  # 503s: the service did not take the request
        "ServiceUnavailableException",
    }
)
"""Codes of a request AWS refused without applying it: sent again later, it is applied once."""
FAILED = frozenset({"InternalServerError", "InternalFailure", "InternalError", "ServiceException"})
"""Codes of a request AWS failed while handling it: it may have been applied."""
RETRY_AFTER = 5
"""Seconds the host is told to wait before sending the command again (botocore's own retries
have already waited about as long)."""


class AwsBusy(Unavailable):
    """A call of a host act that AWS throttled or failed after every retry."""

    retry_after = RETRY_AFTER

    def __init__(self, operation: str, code: str) -> None:
        self.operation, self.code = operation, code
        self.applied_maybe = code in FAILED
        """True: AWS may have applied the failed call (a 500), so a resend could apply it twice."""
        super().__init__(f"{operation}: {code}")

    @classmethod
    def of(cls, error: Unavailable) -> AwsBusy:
        """Any `Unavailable` as one: a store's read left unanswered (StoreUnavailable) is a throttle."""
        return error if isinstance(error, AwsBusy) else cls("BatchGetItem", "keys left unread")

    def to_json(self) -> dict[str, Any]:
        """The host's reply (after "ok": false), as a refusal's: error, message, reasons."""
        which = f"({self.operation}: {self.code})"
        if self.applied_maybe:
            message = (
                f"AWS failed this command {which} even after retrying, and may have applied it first:"
                " check with `status` whether it took, then send it again only if it did not"
            )
            code = "aws_failed"
        else:
            message = (
                f"AWS is throttling {which} and refused a step of this command even after retrying, so it did not"
                f" finish: send the same command again in {self.retry_after} seconds or so; it finishes what this"
                " one began, and nothing is applied twice"
            )
            code = "aws_throttled"
        return {
            "error": "Unavailable",
            "message": message,
            "reasons": [{"code": code, "text": message}],
            "retry_after": self.retry_after,
        }


def aws_busy(error: ClientError) -> AwsBusy | None:
    """The error as an `AwsBusy` when AWS throttled or failed the call; None for any other
    refusal (a condition, a missing resource, a bad request: the act's own to handle)."""
    code = str(error.response.get("Error", {}).get("Code", ""))
    status = int(error.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0) or 0)
    if code not in THROTTLED | FAILED and status not in (429, 503):
        return None
    return AwsBusy(error.operation_name, code or f"HTTP {status}")
