"""Whose mail the host's own mailbox takes (local_stack/laptop/mail_trust.py): only as far as the
provider's own Authentication-Results header (RFC 8601) vouches for the From address.

The provider here is `mx.example.net`; every row is a message From ada@example.com unless it
says otherwise, its headers top to bottom as they arrive (the provider's is added on top).
Each expected verdict is read off RFC 8601 and RFC 7489's relaxed alignment by hand.
"""

from __future__ import annotations

import email
import email.policy

import pytest

from local_stack.laptop.mail_trust import trust

PROVIDER = "mx.example.net"
ADA = "From: Ada <ada@example.com>"

# (case, headers above the body, the check that vouches ("" : none))
ROWS = [
    (
        "dmarc pass for From's domain",
        ["Authentication-Results: mx.example.net; dmarc=pass header.from=example.com"],
        "dmarc",
    ),
    (
        "Gmail's own shape, comments and all",
        [
            "Authentication-Results: mx.example.net;\r\n       dkim=pass header.i=@example.com header.s=20230601"
            ' header.b="Ab/Cd+12";\r\n       spf=pass (example.net: domain of ada@example.com designates 192.0.2.1'
            " as permitted sender) smtp.mailfrom=ada@example.com;\r\n       dmarc=pass (p=NONE sp=NONE dis=NONE)"
            " header.from=example.com",
        ],
        # dkim is the first result that passes aligned (RFC 8601 lists results in any order)
        "dkim",
    ),
    (
        "the authserv-id in another case, with a version",
        ["Authentication-Results: MX.Example.NET 1; spf=pass smtp.mailfrom=example.com"],
        "spf",
    ),
    (
        "dkim pass signed by a subdomain of From's (relaxed)",
        ["Authentication-Results: mx.example.net; dkim=pass header.d=mail.example.com"],
        "dkim",
    ),
    (
        "spf pass for a bounce subdomain (relaxed)",
        ["Authentication-Results: mx.example.net; spf=pass smtp.mailfrom=bounce@lists.example.com"],
        "spf",
    ),
    # -- refused -----------------------------------------------------------------------------------
    ("no header at all", [], ""),
    (
        "a pass written by someone else's server (anyone can)",
        ["Authentication-Results: mx.evil.example; dmarc=pass header.from=example.com"],
        "",
    ),
    (
        "the provider's fail on top, a pass forged below it under the provider's name",
        [
            "Authentication-Results: mx.example.net; spf=pass smtp.mailfrom=x@evil.example;"
            " dkim=pass header.d=evil.example; dmarc=fail header.from=example.com",
            "Authentication-Results: mx.example.net; dmarc=pass header.from=example.com",
        ],
        "",
    ),
    (
        "spf pass for another domain only",
        ["Authentication-Results: mx.example.net; spf=pass smtp.mailfrom=x@evil.example; dmarc=none"],
        "",
    ),
    (
        "dkim pass for a lookalike domain",
        ["Authentication-Results: mx.example.net; dkim=pass header.d=example.com.evil.example"],
        "",
    ),
    (
        "dkim pass for the parent of a lookalike",
        ["Authentication-Results: mx.example.net; dkim=pass header.d=ample.com"],
        "",
    ),
    (
        "dmarc pass for another From domain",
        ["Authentication-Results: mx.example.net; dmarc=pass header.from=evil.example"],
        "",
    ),
    (
        "a pass only inside a comment",
        ["Authentication-Results: mx.example.net; dmarc=fail (dmarc=pass header.from=example.com)"],
        "",
    ),
    (
        "dkim neutral, spf softfail",
        [
            "Authentication-Results: mx.example.net; dkim=neutral header.d=example.com;"
            " spf=softfail smtp.mailfrom=example.com"
        ],
        "",
    ),
    ("nothing checked", ["Authentication-Results: mx.example.net; none"], ""),
]


def _message(headers: list[str], sender: str = ADA) -> email.message.Message:
    raw = "\r\n".join(
        [
            *headers,
            *([sender] if sender else []),
            "To: host+m-0123456789ab@example.net",
            "Subject: moves",
            "",
            "MULTIPLIERS 1",
        ]
    )
    return email.message_from_bytes(raw.encode(), policy=email.policy.default)


@pytest.mark.parametrize(("headers", "check"), [row[1:] for row in ROWS], ids=[row[0] for row in ROWS])
def test_a_message_is_from_its_sender_only_as_far_as_the_providers_own_header_says(
    headers: list[str], check: str
) -> None:
    verdict = trust(_message(headers), PROVIDER)
    assert (verdict.check, verdict.sender) == ((check, "ada@example.com") if check else ("", ""))
    assert bool(verdict.reason) != bool(check)  # a refusal always says why, for the log


@pytest.mark.parametrize(
    "sender",
    ["From: Ada <ada@example.com>, Eve <eve@evil.example>", ""],
    ids=["two From addresses", "no From"],
)
def test_a_message_with_other_than_one_from_address_is_never_vouched_for(sender: str) -> None:
    passing = ["Authentication-Results: mx.example.net; dmarc=pass header.from=example.com"]
    assert trust(_message(passing, sender), PROVIDER).sender == ""


def test_the_verdicts_read_are_each_methods_result() -> None:
    header = (
        "Authentication-Results: mx.example.net; spf=softfail smtp.mailfrom=example.com; dkim=pass header.d=example.com"
    )
    assert trust(_message([header]), PROVIDER).verdicts == (("spf", "SOFTFAIL"), ("dkim", "PASS"))
