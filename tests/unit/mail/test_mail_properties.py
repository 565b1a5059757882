"""Properties: parse_message reads any bytes and any message-shaped input without raising and
always answers strings; what compose sends, parse_message reads back exactly."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from game_core.mail.inbound import Letter, parse_message
from game_core.mail.outbound import compose

STRING_FIELDS = ("sender", "sender_name", "subject", "message_id", "in_reply_to", "text")


def assert_well_formed(letter: Letter) -> None:
    assert all(isinstance(getattr(letter, field), str) for field in STRING_FIELDS)
    assert all(isinstance(value, str) for value in (*letter.to, *letter.cc, *letter.references))
    assert letter.json_body is None or isinstance(letter.json_body, dict)


@settings(max_examples=300)
@given(st.binary(max_size=4000))
def test_any_bytes(raw: bytes) -> None:
    assert_well_formed(parse_message(raw))


HEADER_NAMES = st.sampled_from(
    ["From", "To", "Cc", "Subject", "Message-ID", "In-Reply-To", "References", "Content-Type", "MIME-Version"]
    + ["Content-Transfer-Encoding", "Content-Disposition", "X-Mailer"]
)
HEADER_VALUES = st.one_of(
    st.text(max_size=80),
    st.sampled_from(
        [
            "Ada <ada@x.org>",
            '"Lovelace, Ada" <ada@x.org>, bob@y.org',
            "=?utf-8?q?Zo=C3=AB?= <zoe@x.org>",
            "=?x-unknown?b?////?= <@>",
            "<a@b> <c@d>",
            "text/plain; charset=utf-8; format=flowed; delsp=yes",
            "text/plain; charset*=utf-8''%E2%82%AC",
            "text/html; charset=windows-1252",
            "text/plain; charset=x-klingon",
            "multipart/alternative; boundary=b",
            "multipart/mixed; boundary=b",
            "attachment; filename=a.pdf",
            "quoted-printable",
            "base64",
            "8bit",
        ]
    ),
)
BODY_PIECES = st.one_of(
    st.binary(max_size=200),
    st.sampled_from(
        [
            b"--b\nContent-Type: text/plain\n\nPUSH A L\n",
            b"--b\nContent-Type: text/html\n\n<div>PUSH<br>A L</div><blockquote>old",
            b"--b--\n",
            b"> quoted\n",
            b"-- \nsig\n",
            b"On Tue, Dec 1, 2026 at 12:00 PM Ada <ada@x.org>\nwrote:\n",
            b'{"kind": "push"}\n',
            b"=E2=82=AC=\n",
            b"4oKs\n",
        ]
    ),
)


@settings(max_examples=300)
@given(
    st.lists(st.tuples(HEADER_NAMES, HEADER_VALUES), max_size=12),
    st.lists(BODY_PIECES, max_size=12),
    st.sampled_from([b"\n", b"\r\n"]),
)
def test_any_message_shaped_input(headers: list[tuple[str, str]], body: list[bytes], newline: bytes) -> None:
    head = b"".join(f"{name}: {value}".encode("utf-8", "surrogatepass") + newline for name, value in headers)
    assert_well_formed(parse_message(head + newline + b"".join(body)))


def looks_like_a_quote_or_signature(line: str) -> bool:
    start = line.lstrip().lower()
    return start.startswith((">", "--", "__", "on ", "from:", "*from:", "sent ", "get outlook", "begin forwarded"))


LINE = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=120).filter(
    lambda line: not looks_like_a_quote_or_signature(line)
)
WRITTEN = st.lists(LINE, min_size=1, max_size=15).filter(lambda lines: bool(lines[0].strip() and lines[-1].strip()))


@settings(max_examples=200)
@given(WRITTEN)
def test_what_compose_sends_parse_message_reads_back(lines: list[str]) -> None:
    text = "\n".join(lines)
    raw = compose(
        sender="m-6604cfc546dc@play.genius.example",
        sender_name="Genius",
        to=["ada@x.org"],
        subject="Round 3",
        body=text,
        domain="play.genius.example",
        sent_at=datetime(2026, 12, 1, tzinfo=UTC),
    )
    # Trailing spaces are not sent: in format=flowed they would join a line to the next
    assert parse_message(raw).text == "\n".join(line.rstrip(" ") for line in lines)
