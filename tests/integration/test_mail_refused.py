"""SES refusing one address for good on the real adapters (moto's SES v2, one recipient's
SendEmail calls answered with an error injected before they reach it): the others are told once
each, the state machine's step goes through, and the host's status names the one refused, once.
A throttle of the same mail is transient: the step fails, and the state machine's retry tells
that recipient alone (everyone's mail once). The answer to a player's mail likewise: refused for
good, her move stands, the mail counts as answered and the host's status says so; throttled, the
mail function fails and its redelivery answers."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest
from botocore.exceptions import ClientError
from conftest import crates_request, load_event

from game_core.aws.wiring import ports_from_environment

ADDRESSES = {"p1": "p1@example.com", "p2": "p2@example.com", "p3": "p3@example.com"}
NOT_VERIFIED = (
    "Email address is not verified. The following identities failed the check in region US-EAST-1: p2@example.com"
)
"""SES's words in its sandbox, for a recipient not verified in the account."""


class Refuses:
    """SES answers `address`'s SendEmail calls with `code`: every one (`left` None), or the next `left`."""

    def __init__(self, stack: Any, address: str, code: str, message: str, left: int | None) -> None:
        self.address, self.code, self.message, self.left = address, code, message, left
        self.calls = 0
        """SendEmail calls for the address, refused or not."""
        for client in stack.port_clients():
            client.meta.events.register("before-parameter-build.sesv2.SendEmail", self._before)

    def _before(self, params: dict[str, Any], **_kwargs: Any) -> None:
        if params["Destination"]["ToAddresses"] != [self.address]:
            return
        self.calls += 1
        if self.left is None or self.left > 0:
            self.left = None if self.left is None else self.left - 1
            raise ClientError({"Error": {"Code": self.code, "Message": self.message}}, "SendEmail")


@dataclass(frozen=True)
class Refusal:
    code: str
    message: str
    mailed: dict[str, int]
    """What each address got: the opening (at create) and the Pregame's resolution."""
    p2_calls: int
    host_reads: str | None
    """The host's status line of it (a pattern: its time is the virtual clock's); None: a
    transient refusal, of the resolution's mail alone."""


REFUSALS = {
    # Refused at both occasions, each tried once (no retry: it would fail the same way)
    "not verified in the sandbox, for good": Refusal(
        "MessageRejected", NOT_VERIFIED, {"p1@example.com": 2, "p3@example.com": 2}, 2,
        r"p2's mail was refused by SES at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: MessageRejected: "
        + re.escape(NOT_VERIFIED + " (is SES still in its sandbox?)"),
    ),
    # Once at the resolution's announcement (create's went through): that step fails, and its
    # retry sends P2's mail alone: 3 calls (create's, the throttled one, the retry's)
    "throttled once: the step is retried": Refusal(
        "TooManyRequestsException", "Maximum sending rate exceeded.", dict.fromkeys(ADDRESSES.values(), 2), 3,
        None,
    ),
}  # fmt: skip


@pytest.mark.parametrize("refusal", REFUSALS.values(), ids=REFUSALS)
def test_one_recipient_refused_among_three(stack: Any, refusal: Refusal) -> None:
    request = crates_request(3)
    for player in request["players"]:
        player["email"] = ADDRESSES[player["id"]]
    transient = refusal.host_reads is None
    fault = Refuses(stack, ADDRESSES["p2"], refusal.code, refusal.message, 0 if transient else None)

    # When the match is created (its opening mail) and its Pregame resolved at once by the host
    created = stack.host({"command": "create", "match": request})
    stack.settle()
    fault.left = 1 if transient else fault.left  # the throttle strikes the resolution's mail
    resolved = stack.host({"command": "resolve_now", "match_id": created["match_id"]})
    stack.settle()

    # Then create warned of nothing, every step went through (Round 1 is open, nothing stalled)
    assert created["ok"] and "warnings" not in created, created
    assert resolved["ok"], resolved
    status = stack.host({"command": "status", "match_id": created["match_id"]})
    assert status["open"]["phase"] == "Round 1" and "stalled" not in status, status
    # And each address got what the table says, P2's calls were counted, and the host reads it
    assert Counter(mail.to for mail in stack.outbox.sent) == refusal.mailed
    assert fault.calls == refusal.p2_calls
    lines = status.get("mail_bounced", [])
    assert len(lines) == (0 if transient else 1), lines
    if refusal.host_reads is not None:
        assert re.fullmatch(refusal.host_reads, lines[0]), lines


ADA = "ada@example.com"
"""The sample match's one address (events/host_create.json); events/email_in.json is her mail."""
ADA_NOT_VERIFIED = NOT_VERIFIED.replace(ADDRESSES["p2"], ADA)


@dataclass(frozen=True)
class Answering:
    code: str
    message: str
    left: int | None
    """Refused calls (None: every one)."""
    outcomes: list[Any]
    """The mail function's outcomes of each of two deliveries of Ada's mail."""
    ada_calls: int
    """SendEmail calls for Ada: the answer's attempts."""
    host_reads: str | None


ANSWERINGS = {
    # Tried once: the redelivery finds the mail answered
    "not verified in the sandbox, for good": Answering(
        "MessageRejected", ADA_NOT_VERIFIED, None, [["answer_refused"], ["redelivered"]], 1,
        r"Ada's mail was refused by SES at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: MessageRejected: "
        + re.escape(ADA_NOT_VERIFIED + " (is SES still in its sandbox?)"),
    ),
    # The mail fails (the queue hands it over again) and the redelivery answers
    "throttled once: the redelivery answers": Answering(
        "TooManyRequestsException", "Maximum sending rate exceeded.", 1, [["failed"], ["answered"]], 2, None,
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", ANSWERINGS.values(), ids=ANSWERINGS)
def test_the_answer_to_a_players_mail_refused(stack: Any, case: Answering) -> None:
    created = stack.host(load_event("host_create.json"))
    stack.settle()
    match_id = created["match_id"]
    fault = Refuses(stack, ADA, case.code, case.message, case.left)  # after create: the answer alone

    # When the queue hands over Ada's mail (her Pregame multipliers), and hands it over again
    outcomes = [
        stack.invoke("EmailInFunction", load_event("email_in.json", match_id))["outcomes"] for _ in case.outcomes
    ]

    # Then the table's outcomes, her multipliers stored once, her answer tried as counted
    assert outcomes == case.outcomes
    stored = ports_from_environment().store.submissions(match_id, 1)
    assert stored == {"ada": {"multipliers": {"multipliers": [2, 1, 1, 0, -1, -1]}}}
    assert fault.calls == case.ada_calls
    status = stack.host({"command": "status", "match_id": match_id})
    lines = status.get("mail_bounced", [])
    assert len(lines) == (0 if case.host_reads is None else 1), lines
    if case.host_reads is not None:
        assert re.fullmatch(case.host_reads, lines[0]), lines
