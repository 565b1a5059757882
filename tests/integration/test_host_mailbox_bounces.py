"""A bounce of mail a laptop host sent through their own account comes back to the account's plain
address (the envelope sender), not to a match's tag: the poller hands it to the match whose mail
it returns (the original's Message-ID `<match id>.…@` the account's domain), so it reaches the
host's status as on AWS. Everything else at the plain address is left as it was, its body unread.

The provider is tests/integration/imap_responder.py on loopback (test_host_mailbox's `Provider`)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from automatic_mail import MID, NOTICE_ID, outlook_auto_reply, postfix_bounce
from test_host_mailbox import (  # noqa: F401 - the fixtures
    HOST,
    VOUCHED,
    Hosted,
    Provider,
    hosted,
    letter,
    provider,
)
from test_host_server import environment, host  # noqa: F401 - environment: the autouse fixture restoring os.environ

from local_stack.aws.mail import MailAccount
from local_stack.laptop.mailbox import MailboxPoller, Read

pytestmark = pytest.mark.statemachine

ADA = "ada@example.com"
DAEMON = "MAILER-DAEMON@mail.example.org"
MATCH_ID = "m-0123456789ab"


def bounce_to_host(original_id: str, match_id: str = MATCH_ID, *, vouched: bool = True) -> bytes:
    """Postfix's bounce of Ada's copy of a mail (Message-ID `original_id`), come back to the host's
    plain address; vouched for by the provider (its Authentication-Results on top) or not."""
    raw = (
        postfix_bounce(ADA, ADA)
        .replace(NOTICE_ID.encode(), original_id.encode())
        .replace(f"To: {MID}@play.test".encode(), f"To: {HOST}".encode())
        .replace(MID.encode(), match_id.encode())
    )
    results = VOUCHED.format(sender=DAEMON, domain="mail.example.org") if vouched else "mx.example.net; spf=fail"
    return f"Authentication-Results: {results}\r\n".encode() + raw


OURS = f"<{MATCH_ID}.2.5f0c9e@example.net>"
"""A mail of the match as the account sent it (`MailAccount.outgoing`: on the account's domain)."""

ROWS: list[tuple[str, bytes, str | None]] = [
    # (id, what lands at the plain address, the match address it is handed in to; None: left alone)
    ("a bounce of the match's notice to Ada", bounce_to_host(OURS), f"{MATCH_ID}@play.local"),
    # the host's own mail (not the match's) bounced: the host's business, not the match's
    ("a bounce of the host's own mail", bounce_to_host("<CAF0c9e@mail.example.net>"), None),
    # a match's id on a domain the account never sends from: no mail of ours
    ("a match-like id on another domain", bounce_to_host(f"<{MATCH_ID}.2.5f0c9e@elsewhere.example>"), None),
    # a person writing to the plain address, even pasting a notice's id: never read beyond its headers
    ("a person's mail naming the notice", letter("bo@example.org", HOST, f"Message-ID: {OURS}\n"), None),
    ("an out-of-office reply", outlook_auto_reply(ADA).replace(f"{MID}@play.test".encode(), HOST.encode()), None),
]


def test_a_bounce_at_the_plain_address_goes_to_the_match_whose_mail_it_returns(
    tmp_path: Path,
    provider: Provider,  # noqa: F811 - the fixture imported above
) -> None:
    handed: list[tuple[bytes, list[str]]] = []

    def mail_function(raw: bytes, recipients: list[str], verdicts: dict[str, str], message_id: str) -> dict[str, Any]:
        handed.append((raw, recipients))
        return {"outcomes": ["automatic"]}

    poller = MailboxPoller(provider.settings(), MailAccount(HOST), mail_function, tmp_path)
    assert poller.poll_once() == []  # the first start: the mailbox's history is none of the matches'
    uids = [provider.imap.deliver(raw) for _, raw, _ in ROWS]
    unvouched = provider.imap.deliver(bounce_to_host(OURS, vouched=False))
    fetches = provider.imap.commands["UID FETCH"]

    read = poller.poll_once()

    # Then the bounce of the match's mail is handed in (to the match's own address) and marked
    # read; the unvouched one is refused as a tagged mail would be, left unread
    wanted = [(uid, recipient) for uid, (_, _, recipient) in zip(uids, ROWS, strict=True) if recipient]
    assert read == [*(Read(uid, "automatic") for uid, _ in wanted), Read(unvouched, "untrusted")]
    assert handed == [(raw, [recipient]) for _, raw, recipient in ROWS if recipient]
    for uid, (name, _, recipient) in zip(uids, ROWS, strict=True):
        assert provider.imap.flags(uid) == ({"\\Seen"} if recipient else set()), name
    assert provider.imap.flags(unvouched) == set()
    # ...and only what the headers say is a bounce (the three bounces, the unvouched one) is read
    # whole: one fetch of every header, then one of each of those four (taken once, not twice)
    assert provider.imap.commands["UID FETCH"] - fetches == 1 + 4


def test_a_bounce_of_adas_notice_at_the_plain_address_is_in_the_hosts_status_once(
    hosted: Hosted,  # noqa: F811 - the fixture imported above
) -> None:
    # Given the match's opening notice to Ada, as the account sent it
    (notice,) = hosted.provider.to(ADA)
    sent = len(hosted.provider.envelopes)

    # When her server's bounce of it comes to the host's plain address, and comes again (a retry)
    bounce = bounce_to_host(str(notice["Message-ID"]), hosted.match_id)
    uids = [hosted.provider.imap.deliver(bounce) for _ in range(2)]

    # Then both are taken, nothing is sent, and the host's status has one line of it
    assert [hosted.read(uid).outcome for uid in uids] == ["automatic", "automatic"]
    assert len(hosted.provider.envelopes) == sent
    [line] = host(hosted.server, "status", match_id=hosted.match_id)["mail_bounced"]
    assert re.fullmatch(r"Ada's mail bounced at \S+: 5\.1\.1 550 5\.1\.1 <ada@example\.com>: .*", line), line
