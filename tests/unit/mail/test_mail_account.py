"""The host's own mail account standing for the match domain (local_stack/aws/mail.py MailAccount):
which of its plus-addresses are a match's, and what the service's mail looks like going out
through it."""

from __future__ import annotations

import email
import email.policy
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from game_core.mail.outbound import compose
from local_stack.aws.mail import MailAccount

ACCOUNT = MailAccount("host@example.net")
MATCH = "m-0123456789ab"


@pytest.mark.parametrize(
    ("addresses", "expected"),
    [
        ([f"host+{MATCH}@example.net"], f"{MATCH}@play.local"),
        ([f"Host games <host+{MATCH}@example.net>"], f"{MATCH}@play.local"),  # as a To header has it
        (["HOST+M-0123456789AB@Example.NET."], f"{MATCH}@play.local"),  # addresses compare without case
        (["host@example.net", f"ada@example.com, host+{MATCH}@example.net"], f"{MATCH}@play.local"),  # a list
        (["host@example.net", f"host+{MATCH}@example.net"], f"{MATCH}@play.local"),  # the first tagged one
        (["host+m-0123@example.net"], None),  # not a match id
        ([f"host+{MATCH}x@example.net"], None),
        ([f"other+{MATCH}@example.net"], None),  # another user of the domain
        ([f"host+{MATCH}@example.org"], None),  # another domain
        ([f"{MATCH}@example.net"], None),
        ([], None),
    ],
)
def test_a_match_is_reached_by_the_accounts_address_tagged_with_its_id(addresses: list[str], expected: str) -> None:
    assert ACCOUNT.match_recipient(addresses) == expected


@pytest.mark.parametrize("address", ["host+games@example.net", "example.net", "host@localhost", "a b@example.net", ""])
def test_an_account_is_its_own_address_without_a_tag(address: str) -> None:
    with pytest.raises(ValueError, match="not an account's own address"):
        MailAccount(address)


@dataclass(frozen=True)
class Picture:
    filename: str
    content_type: str
    data: bytes


def test_the_services_mail_goes_out_from_the_account_with_replies_to_the_matchs_tag() -> None:
    # Given a notice as the service writes it, from the match's address, with a picture attached
    raw = compose(
        sender=f"{MATCH}@play.local",
        sender_name=f"Domino Auction {MATCH}",
        to=["ada@example.com"],
        subject="Bidding 1 is open",
        body="Hello Ada,\n\nBidding 1 is open until 30 Nov 2026 12:00 UTC.\n",
        domain="play.local",
        sent_at=datetime(2026, 11, 30, 12, tzinfo=UTC),
        message_id=f"<{MATCH}.1.0f0f0f0f@play.local>",
        attachments=[Picture("boards.png", "image/png", b"\x89PNG\r\n\x1a\n" + bytes(range(256)))],
    )

    # When it goes out through the host's account
    sent = email.message_from_bytes(ACCOUNT.outgoing(raw), policy=email.policy.default)
    written = email.message_from_bytes(raw, policy=email.policy.default)

    # Then it is from the host (the name kept), replies go to the match's tag, the Message-ID
    # names the same match and phase on the host's domain
    assert (sent["From"].addresses[0].display_name, sent["From"].addresses[0].addr_spec) == (
        f"Domino Auction {MATCH}",
        "host@example.net",
    )
    assert str(sent["Reply-To"]) == f"host+{MATCH}@example.net"
    assert str(sent["Message-ID"]) == f"<{MATCH}.1.0f0f0f0f@example.net>"
    # ...and the rest is as written: recipient, subject, text and the picture, byte for byte
    assert (str(sent["To"]), str(sent["Subject"])) == ("ada@example.com", "Bidding 1 is open")
    assert sent.get_body(("plain",)).get_content() == written.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    (picture,) = sent.iter_attachments()
    assert (picture.get_filename(), picture.get_content()) == ("boards.png", b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
