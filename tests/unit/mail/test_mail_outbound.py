"""compose: headers, threading and a body that survives as written; fit_subject."""

from __future__ import annotations

from datetime import UTC, datetime
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from itertools import takewhile

import fast_mail_parser
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game_core.mail.inbound import Letter, parse_message
from game_core.mail.outbound import MAX_REFERENCES, compose, fit_subject

DOMAIN = "play.genius.example"
SENT_AT = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
TABLE = (
    "ROUND 3 RESULT\n"
    "┌───────┬──────┬───────┐\n"
    "│ crate │ from │ to    │\n"
    "├───────┼──────┼───────┤\n"
    "│ C     │ B2   │ B1    │\n"
    "└───────┴──────┴───────┘\n"
    "A line far longer than seventy-eight characters, which no client and no relay may fold or reflow: "
    + "x" * 300
    + "\n    indented, and with trailing spaces   \nCafé 5 € — naïve"
)


def send(body: str = TABLE, answering: Letter | None = None, subject: str = "Round 3 is open") -> bytes:
    return compose(
        sender="m-6604cfc546dc@play.genius.example",
        sender_name="Genius — Pushing Crates",
        to=["ada@x.org", "Bob <bob@y.org>"],
        subject=subject,
        body=body,
        domain=DOMAIN,
        sent_at=SENT_AT,
        answering=answering,
    )


def headers(raw: bytes) -> EmailMessage:
    message = message_from_bytes(raw, policy=default)
    assert isinstance(message, EmailMessage)
    return message


def test_a_notice() -> None:
    raw = send()
    message = headers(raw)
    assert str(message["From"]) == "Genius — Pushing Crates <m-6604cfc546dc@play.genius.example>"
    assert str(message["To"]) == "ada@x.org, Bob <bob@y.org>"
    assert str(message["Subject"]) == "Round 3 is open"
    assert str(message["Date"]) == "Tue, 01 Dec 2026 12:00:00 +0000"
    assert str(message["Message-ID"]).endswith(f"@{DOMAIN}>")
    assert str(message["Auto-Submitted"]) == "auto-generated"
    assert "In-Reply-To" not in message and "References" not in message
    assert message.get_content_type() == "text/plain" and message.get_content_charset() == "utf-8"
    assert str(message["Content-Transfer-Encoding"]) == "quoted-printable"
    assert raw.isascii() and all(len(line) <= 78 for line in raw.split(b"\r\n"))
    assert b"\n" not in raw.replace(b"\r\n", b"")


def test_the_body_arrives_as_written() -> None:
    # format=flowed (RFC 3676): a client that knows it reads each line as written, but for its
    # trailing spaces (they would join it to the next); one that does not shows the one paragraph
    # one column right (all of it space-stuffed, as its indented line must be), the table aligned
    written = TABLE.replace("trailing spaces   \n", "trailing spaces\n")
    assert headers(send()).get_content().replace("\r\n", "\n") == "".join(f" {line}\n" for line in written.split("\n"))
    assert parse_message(send()).text == written


def test_an_answer_is_threaded_under_the_message_it_answers() -> None:
    letter = Letter(message_id="<c@x.org>", references=("<a@play.genius.example>", "<b@x.org>"))
    message = headers(send(answering=letter))
    assert str(message["In-Reply-To"]) == "<c@x.org>"
    assert str(message["References"]).split() == ["<a@play.genius.example>", "<b@x.org>", "<c@x.org>"]
    assert str(message["Auto-Submitted"]) == "auto-replied"


def test_an_answer_to_a_reply_without_references_threads_by_its_in_reply_to() -> None:
    # RFC 5322 3.6.4: a parent with no References but an In-Reply-To naming one message: the
    # answer's References are that id, then the parent's own Message-ID (some clients, e.g. old
    # Outlook, write In-Reply-To alone; the thread would break in a client that reads References)
    letter = Letter(message_id="<c@x.org>", in_reply_to="<r1.m-6604cfc546dc@play.genius.example>")
    message = headers(send(answering=letter))
    assert str(message["References"]).split() == ["<r1.m-6604cfc546dc@play.genius.example>", "<c@x.org>"]


def test_an_answer_to_a_message_without_an_id_is_not_threaded() -> None:
    message = headers(send(answering=Letter(sender="ada@x.org")))
    assert "In-Reply-To" not in message and "References" not in message
    assert str(message["Auto-Submitted"]) == "auto-replied"


def test_a_long_thread_keeps_its_first_and_latest_references() -> None:
    chain = tuple(f"<{number}@x.org>" for number in range(40))
    message = headers(send(answering=Letter(message_id="<40@x.org>", references=chain)))
    references = str(message["References"]).split()
    assert len(references) == MAX_REFERENCES
    assert references[0] == "<0@x.org>" and references[-2:] == ["<39@x.org>", "<40@x.org>"]


def test_a_given_message_id_is_used_and_parses_back() -> None:
    raw = compose(
        sender="m-6604cfc546dc@play.genius.example",
        sender_name="Genius",
        to=["ada@x.org"],
        subject="Results",
        body="done",
        domain=DOMAIN,
        sent_at=SENT_AT,
        message_id="<r3.m-6604cfc546dc@play.genius.example>",
    )
    letter = parse_message(raw)
    assert (letter.message_id, letter.sender, letter.sender_name, letter.to, letter.text) == (
        "<r3.m-6604cfc546dc@play.genius.example>",
        "m-6604cfc546dc@play.genius.example",
        "Genius",
        ("ada@x.org",),
        "done",
    )


def test_the_subject_is_fitted() -> None:
    assert parse_message(send(subject="Round\n3  is\topen " + "word " * 40)).subject == fit_subject(
        "Round 3 is open " + "word " * 40
    )


LONG = "Pushing Crates, match m-6604cfc546dc: round 3 is open until Wednesday 12:00 UTC; " * 2  # 166 characters


@pytest.mark.parametrize(
    ("text", "fitted"),
    [
        ("Round 3 is open", "Round 3 is open"),
        ("  Round\t3\n is   open  ", "Round 3 is open"),
        ("", ""),
        ("x" * 99, "x" * 99),
        ("word " * 19 + "abcd", "word " * 19 + "abcd"),  # exactly 99
        (
            LONG[:150],
            "Pushing Crates, match m-6604cfc546dc: round 3 is open until Wednesday 12:00 UTC; Pushing Crates…",
        ),
        ("y" * 120, "y" * 98 + "…"),
        ("short " + "y" * 120, "short…"),
        ("a" * 97 + " bc", "a" * 97 + "…"),
        ("a" * 98 + " bc", "a" * 98 + "…"),
    ],
)
def test_fit_subject(text: str, fitted: str) -> None:
    assert fit_subject(text) == fitted
    assert len(fitted) < 100


def test_fit_subject_never_cuts_inside_a_word_that_fits() -> None:
    for length in range(100, 200):
        fitted = fit_subject(("crate " * 40)[:length])
        assert len(fitted) <= 99 and fitted.endswith("…")
        assert set(fitted.removesuffix("…").split()) == {"crate"}


def subject_lines(raw: bytes) -> list[bytes]:
    """The Subject field as sent: its first line and the folded lines after it."""
    lines = raw.split(b"\r\n\r\n", 1)[0].split(b"\r\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(b"Subject:"))
    return [lines[start], *takewhile(lambda line: line.startswith(b" "), lines[start + 1 :])]


# Each subject as fitted, and the Subject field that carries it (worked out by hand: ASCII on one
# line whatever its length; otherwise UTF-8 base64 encoded words of at most 42 bytes, a fold
# between two)
SUBJECTS = [
    pytest.param(
        "[m-6604cfc546dc] Reminder: Palindrome Construction round 3 closes in 1 day 23 hours",
        [b"Subject: [m-6604cfc546dc] Reminder: Palindrome Construction round 3 closes in 1 day 23 hours"],
        id="long ASCII: one line, never folded (92 characters, within the 998 a line may have)",
    ),
    pytest.param(
        "Café",  # C a f = 3 bytes, é = C3 A9: "Q2Fmw6k=" in base64
        [b"Subject: =?utf-8?b?Q2Fmw6k=?="],
        id="non-ASCII: one encoded word",
    ),
    pytest.param(
        "x" * 41 + "é",  # 41 + 2 bytes is over 42: é starts the second word, never split inside
        [b"Subject: =?utf-8?b?" + b"eHh4" * 13 + b"eHg=?=", b" =?utf-8?b?w6k=?="],
        id="words break between characters, the fold between words",
    ),
    pytest.param(
        "Re: =?utf-8?q?x?=",  # a player's subject that looks encoded: sent encoded, read as written
        [b"Subject: =?utf-8?b?UmU6ID0/dXRmLTg/cT94Pz0=?="],
        id="text that looks like an encoded word",
    ),
]


@pytest.mark.parametrize(("subject", "field"), SUBJECTS)
def test_a_subject_unfolds_to_exactly_its_text_in_the_stdlib_and_in_a_second_parser(
    subject: str, field: list[bytes]
) -> None:
    raw = send(subject=subject)
    assert subject_lines(raw) == field
    assert all(len(line) <= 78 for line in field[1:] or [b""])  # folded lines keep to 78 columns
    assert message_from_bytes(raw, policy=default)["Subject"] == subject
    assert fast_mail_parser.parse_email(raw).subject == subject  # mailparse (Rust): not the stdlib's reading


@given(
    st.lists(st.sampled_from(["Round", "3", "é", "«Crates»", "—", "a" * 40, "b" * 70, "日本語", "😀", "e\u0301", ":"]))
)
def test_any_subject_reads_back_as_fitted_where_the_stdlib_alone_folded_a_space_in(words: list[str]) -> None:
    # The stdlib's own folding wrote "b...b \r\n =?utf-8?q?=C3=A9?=": the space before the fold
    # and the fold's own made two where the subject had one, in both parsers
    fitted = fit_subject(" ".join(words))
    raw = send(subject=" ".join(words))
    assert message_from_bytes(raw, policy=default)["Subject"] == fitted
    assert fast_mail_parser.parse_email(raw).subject == fitted
