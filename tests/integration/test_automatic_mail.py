"""Automatic mail on the local stack (SES's S3 action, then the email-in function on moto) and
through a laptop host's own mailbox (IMAP, the same function): an out-of-office reply sends
nothing and changes nothing; a bounce of a participant's notice reaches the host's status, once."""

from __future__ import annotations

import re
from typing import Any

from automatic_mail import MID, outlook_auto_reply, postfix_bounce
from moto.core import DEFAULT_ACCOUNT_ID
from moto.ses.models import ses_backends
from test_email_in import create_sample
from test_host_mailbox import VOUCHED, Hosted, hosted, provider  # noqa: F401 - the fixtures
from test_host_server import environment, host  # noqa: F401 - environment: the autouse fixture restoring os.environ

from game_core.aws.wiring import ports_from_environment

ADA = "ada@example.com"
"""Ada's address in events/host_create.json (and in test_host_mailbox's match)."""


def for_match(raw: bytes, match_id: str, domain: str) -> bytes:
    """A sample written for m-000000000001 on play.test, made about `match_id` on `domain`."""
    return raw.replace(MID.encode(), match_id.encode()).replace(b"play.test", domain.encode())


def sent_count(stack: Any) -> int:
    """Every message SES v2 has sent (answers and notices alike)."""
    return len(ses_backends[DEFAULT_ACCOUNT_ID][stack.client("sesv2").meta.region_name].sent_messages)


def stored(match_id: str) -> tuple[str, list[Any], dict[str, Any]]:
    """The match as stored, its log, and the open phase's submissions."""
    store = ports_from_environment().store
    match = store.get(match_id)
    assert match.phase is not None
    return match.model_dump_json(), store.events(match_id), store.submissions(match_id, match.phase.number)


def test_an_out_of_office_reply_on_the_stack_sends_nothing_and_changes_nothing(stack: Any) -> None:
    match_id = create_sample(stack)
    stack.settle()
    before, sent = stored(match_id), sent_count(stack)

    # When Ada's Outlook answers the match's notice with her out-of-office reply
    reply = stack.receive_mail(for_match(outlook_auto_reply(ADA), match_id, "play.local"), [f"{match_id}@play.local"])

    # Then nothing is sent (no answer, no refusal), and nothing is stored
    assert reply == {"outcomes": ["automatic"]}
    stack.settle()
    assert sent_count(stack) == sent
    assert stored(match_id) == before


def test_a_bounce_of_adas_notice_on_the_stack_is_in_the_hosts_status_once(stack: Any) -> None:
    match_id = create_sample(stack)
    bounce = for_match(postfix_bounce(ADA, ADA), match_id, "play.local")

    # When her server's bounce comes, and comes again (the MTA retried its own delivery)
    replies = [stack.receive_mail(bounce, [f"{match_id}@play.local"]) for _ in range(2)]

    # Then the host's status has one line of it: her name, when, the DSN's status and diagnostic
    assert replies == [{"outcomes": ["automatic"]}] * 2
    [line] = stack.host({"command": "status", "match_id": match_id})["mail_bounced"]
    assert re.fullmatch(
        r"Ada's mail bounced at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: 5\.1\.1 550 5\.1\.1 <ada@example\.com>: "
        r"Recipient address rejected: User unknown in virtual mailbox table",
        line,
    ), line


def test_an_out_of_office_reply_through_the_hosts_mailbox_sends_nothing_and_changes_nothing(
    hosted: Hosted,  # noqa: F811 - the fixture imported above
) -> None:
    tagged = f"host+{hosted.match_id}@example.net"
    before = host(hosted.server, "status", match_id=hosted.match_id)
    sent = len(hosted.provider.envelopes)

    # When Ada's out-of-office reply to the notice lands in the host's inbox, vouched for by the provider
    vouched = f"Authentication-Results: {VOUCHED.format(sender=ADA, domain='example.com')}\r\n".encode()
    reply = for_match(outlook_auto_reply(ADA), hosted.match_id, "example.net").replace(
        f"{hosted.match_id}@example.net".encode(), tagged.encode()
    )
    uid = hosted.provider.imap.deliver(vouched + reply)

    # Then it is taken (marked read, out of the inbox) and nothing else: no mail out, nothing stored
    assert hosted.read(uid).outcome == "automatic"
    assert len(hosted.provider.envelopes) == sent
    assert hosted.submitted("ada") == {}
    after = host(hosted.server, "status", match_id=hosted.match_id)
    assert {**after, "checked_at": ""} == {**before, "checked_at": ""}
