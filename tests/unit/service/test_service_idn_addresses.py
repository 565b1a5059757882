"""Addresses on internationalised domains (IDN): one is accepted where addresses enter and kept as
given, for display; SES is given its domain as the IDNA A-label (SES has no SMTPUTF8); a reply
from it is its sender's whichever form its From gives. A local part outside ASCII is refused,
naming the field and saying why, as SES cannot deliver to it.

The A-labels are RFC 3492's Punycode with IDNA 2008's "xn--" (RFC 5890), worked by hand for
"bücher": the basic letters "bcher", then "-"; ü (U+00FC = 252) at index 1 of 6 code points is
delta (252 - 128) * 6 + 1 = 745, written from bias 72 as the digits 1 + 744 % 35 = 10 "k",
1 + (744 // 35 - 1) % 35 = 21 "v", 0 "a": "xn--bcher-kva". "españa": ñ (241) at index 4 is
(241 - 128) * 6 + 4 = 682: 1 + 681 % 35 = 17 "r", 1 + (681 // 35 - 1) = 19 "t", "a":
"xn--espaa-rta". "straße": ß (223) at index 4 is (223 - 128) * 6 + 4 = 574: 1 + 573 % 35 = 14
"o", 1 + (573 // 35 - 1) = 16 "q", "a": "xn--strae-oqa" (IDNA 2008 keeps ß; IDNA 2003, Python's
own codec, maps it to "strasse", another domain). "例え" is IANA's test label: "例え.テスト" is
"xn--r8jz45g.xn--zckzah"."""

from __future__ import annotations

import json
from email import message_from_bytes, policy
from typing import Any

import pytest
from automatic_mail import postfix_bounce
from crates_driver import Table
from test_host_mistakes import SETTINGS, Hosted
from test_service_addresses import COMMANDS, MID, NOT_AN_ADDRESS, players

from game_core.aws.ses_mailer import SesMailer
from game_core.mail.inbound import parse_message
from game_core.mail.ses import Receipt, Verdicts
from game_core.match.email_address import sendable_address
from game_core.service.mail.receive import Outcome, receive, registered_sender
from game_core.service.matches.lifecycle import contact

KEPT = [
    # (as given, as kept and shown, as SES is given it)
    ("ada@bücher.de", "ada@bücher.de", "ada@xn--bcher-kva.de"),
    ("ana@españa.es", "ana@españa.es", "ana@xn--espaa-rta.es"),
    ("user@例え.jp", "user@例え.jp", "user@xn--r8jz45g.jp"),
    ("ada@straße.de", "ada@straße.de", "ada@xn--strae-oqa.de"),
    # UTS 46 maps the domain to lower case; the local part keeps its own (it is the mailbox's to read)
    (" Ada.L@Bücher.DE\n", "Ada.L@Bücher.DE", "Ada.L@xn--bcher-kva.de"),
    ("bo@xn--bcher-kva.de", "bo@xn--bcher-kva.de", "bo@xn--bcher-kva.de"),  # the A-label as given
    ("cy@example.com", "cy@example.com", "cy@example.com"),
]


class RecordingSes:
    """An SES v2 client that keeps each SendEmail's Destination."""

    def __init__(self) -> None:
        self.destinations: list[dict[str, Any]] = []

    def send_email(self, Destination: dict[str, Any], **_request: Any) -> None:  # noqa: N803 (SES's name)
        self.destinations.append(Destination)


@pytest.mark.parametrize(("given", "kept", "sent_to"), KEPT, ids=[row[0].strip() for row in KEPT])
def test_an_idn_address_is_kept_as_given_and_ses_sends_to_its_a_label(given: str, kept: str, sent_to: str) -> None:
    hosted = Hosted()

    created = hosted.send({"command": "create", "match": SETTINGS | {"players": players(given, first_id="cy")}})

    assert created["ok"], created
    assert hosted.fakes.store.get(created["match_id"]).players[0].email == kept
    [opening] = [mail for mail in hosted.fakes.mailer.sent if mail.to == sent_to]
    # the mail's own To as well: an encoded word ("=?utf-8?q?b=C3=BCcher?=") is no part of an address
    assert message_from_bytes(opening.raw, policy=policy.default)["To"].addresses[0].addr_spec == sent_to
    ses = RecordingSes()
    SesMailer(ses, "play.example.com", frozenset()).send(opening)
    assert ses.destinations == [{"ToAddresses": [sent_to]}]


def test_an_address_stored_before_addresses_were_checked_is_sent_to_as_it_is_for_ses_to_refuse() -> None:
    # "_" is no letter of a domain name (IDNA 2008, RFC 5892: DISALLOWED): no A-label to give
    assert sendable_address("ada@bü_cher.de") == "ada@bü_cher.de"


SES_CANNOT = "SES cannot deliver to a local part outside ASCII: give another address"
REFUSED = [
    # (the field, the address as given, the reason after the field's path and the address)
    ("create.match.players.0.email", "jürgen@bücher.de", SES_CANNOT),
    ("create.match.players.1.email", "zoë@example.com", SES_CANNOT),  # an ASCII domain does not save it
    ("create.match.host_email", "ホスト@例え.jp", SES_CANNOT),
    ("replace.email", "dána@españa.es", SES_CANNOT),
    # Not domain names, in idna's words: RFC 5891 4.2.3.1 (no hyphen at a label's end), RFC 5892
    ("create.match.players.0.email", "ada@-bücher.de", f"{NOT_AN_ADDRESS}: Label must not start or end with a hyphen"),
    (
        "create.match.host_email",
        "host@bü_cher.de",
        f"{NOT_AN_ADDRESS}: Codepoint U+005F at position 3 of 'bü_cher' not allowed",
    ),
]


@pytest.mark.parametrize(("field", "given", "reason"), REFUSED, ids=[f"{row[0]} {row[1]}" for row in REFUSED])
def test_a_local_part_outside_ascii_or_a_domain_that_is_no_idn_is_refused_naming_the_field(
    field: str, given: str, reason: str
) -> None:
    hosted = Hosted()
    before, matches = hosted.stored(), hosted.fakes.ids.matches

    reply = hosted.send(json.loads(json.dumps(COMMANDS[field](given)).replace(MID, hosted.match_id)))

    assert (reply["ok"], reply["error"]) == (False, "Malformed"), reply
    [refused] = reply["reasons"]
    expected = f"{field}: {given!r}: {reason}" if reason == SES_CANNOT else f"{field}: {given!r} {reason}"
    assert (refused["code"], refused["text"]) == ("value_error", expected), refused
    assert hosted.stored() == before and hosted.fakes.ids.matches == matches
    assert not hosted.fakes.notifier.published and not hosted.fakes.mailer.sent


# -- mail in ----------------------------------------------------------------------------------------

REGISTERED = {"ada": "ada@bücher.de", "bo": "bo@xn--espaa-rta.es"}
HOST = "host@例え.jp"
SENDERS = [
    # (the From header as the bytes of the mail, whose it is: a player's id or "host", None for a stranger)
    ("ada@xn--bcher-kva.de", "ada"),  # the A-label, as an envelope gives it
    ("Ada <ADA@XN--BCHER-KVA.DE>", "ada"),
    ("Ada <ada@Bücher.de>", "ada"),  # the Unicode form, in UTF-8 (RFC 6532), as Gmail shows it
    ("bo@españa.es", "bo"),  # registered as the A-label, written in Unicode
    ("bo@xn--espaa-rta.es", "bo"),
    ("host@xn--r8jz45g.jp", "host"),
    ("host@例え.jp", "host"),
    ("ada@bucher.de", None),  # "u" is not "ü": another domain
    ("ada@xn--bcher-kva.com", None),
]


def raw_mail(sender: str, match_id: str, text: str = "hello") -> bytes:
    """A message from `sender`, its headers in UTF-8 as written (as an SMTPUTF8 client sends them)."""
    headers = f"From: {sender}\r\nTo: {match_id}@play.test\r\nSubject: [{match_id}] Round 1\r\n"
    return f"{headers}Message-ID: <1@client.test>\r\n\r\n{text}\r\n".encode()


@pytest.mark.parametrize(("sender", "whose"), SENDERS, ids=[row[0] for row in SENDERS])
def test_a_sender_is_matched_to_the_participant_in_either_form_of_the_domain(sender: str, whose: str | None) -> None:
    match = Table.open(emails=REGISTERED, host_email=HOST).match()

    found = registered_sender(match, parse_message(raw_mail(sender, match.match_id)).sender)

    if whose is None:
        assert found is None
        return
    assert found is not None
    assert (found.player.id if found.player else "host", found.address) == (
        whose,
        REGISTERED.get(whose, HOST),  # the address as registered: the answer goes there
    )


def test_a_move_from_the_a_label_is_answered_to_the_address_as_registered() -> None:
    table = Table.open(emails=REGISTERED, host_email=HOST)
    table.resolve_at_deadline()
    table.fakes.mailer.sent.clear()
    passing = Verdicts(spf="PASS", dkim="PASS", dmarc="PASS", spam="PASS", virus="PASS")
    raw = raw_mail("ada@xn--bcher-kva.de", table.match_id, "GROUND ICE")

    outcome = receive(table.ports, Receipt("ses-1", (f"{table.match_id}@play.test",), passing, "", raw))

    assert outcome is Outcome.ANSWERED
    assert [mail.to for mail in table.fakes.mailer.sent] == ["ada@xn--bcher-kva.de"]  # Ada's, as SES takes it


@pytest.mark.parametrize("failed", ["ada@xn--bcher-kva.de", "ADA@Bücher.de"])
def test_a_bounce_naming_either_form_of_an_idn_address_is_its_participants(failed: str) -> None:
    table = Table.open(emails=REGISTERED, host_email=HOST)
    passing = Verdicts(spf="PASS", dkim="PASS", dmarc="PASS", spam="PASS", virus="PASS")
    raw = postfix_bounce(failed, failed)  # its Final-Recipient names the address that failed

    outcome = receive(table.ports, Receipt("ses-2", (f"{table.match_id}@play.test",), passing, "", raw))

    assert outcome is Outcome.AUTOMATIC
    assert [bounce.player for bounce in table.fakes.store.bounces(table.match_id)] == ["ada"]


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        ("ada@bücher.de", "ADA@xn--bcher-kva.de", True),  # one mailbox, its domain in either form
        (" Ada@Bücher.DE", "ada@bücher.de", True),
        ("ada@bücher.de", "ada@bucher.de", False),  # "u" is not "ü"
    ],
)
def test_a_contact_is_the_same_in_either_form_of_its_domain(one: str, other: str, same: bool) -> None:
    # a replacement given the old player's address in its other form is refused as that address
    assert (contact(one) == contact(other)) is same
