"""Our text as format=flowed (RFC 3676): lines kept hard, the lines 4.4 says must be space-stuffed
stuffed with the rest of their paragraph, and what a player wrote starting ">" read back as
written, not as a quote."""

from __future__ import annotations

from email import message_from_bytes
from email.policy import default

import pytest
from test_mail_outbound import send

from game_core.mail.inbound import parse_message
from game_core.mail.outbound import flowed


@pytest.mark.parametrize(
    ("body", "sent"),
    [
        # nothing to stuff: sent as written
        ("Hello Bo,\n\nRound 2 is open.", "Hello Bo,\n\nRound 2 is open."),
        # a relayed line starting ">": its paragraph stuffed, the next one not
        (
            "A message from Ada:\n\n> 2 crates\nDeal?\n\nTo answer",
            "A message from Ada:\n\n > 2 crates\n Deal?\n\nTo answer",
        ),
        # "From " (mbox would escape it as ">From ") and a leading space must be stuffed; "From:" and "Fromage" need not
        ("From Ada: hi", " From Ada: hi"),
        ("From: Ada\nFromage", "From: Ada\nFromage"),
        # a board whose header is indented: every row moves with it, so the columns stay aligned
        ("   A B\n1  . x\n2  x .", "    A B\n 1  . x\n 2  x ."),
        # trailing spaces would make soft breaks (joined to the next line): dropped; a line of
        # spaces is a blank line, ending the paragraph
        ("Round 2  \nis open\n   \n  - late", "Round 2\nis open\n\n   - late"),
    ],
    ids=["plain", "a relayed quote mark", "from", "from-like", "a board", "trailing spaces"],
)
def test_flowed_stuffs_whole_paragraphs_and_keeps_lines_hard(body: str, sent: str) -> None:
    assert flowed(body) == sent


def test_a_line_written_with_a_quote_mark_is_read_back_as_written_not_as_a_quote() -> None:
    body = "A message from Ada Lovelace to Bo Baggins:\n\n> 2 crates move in round two.\n\nTo answer, write PRESS."
    raw = send(body)
    part = message_from_bytes(raw, policy=default)
    assert part.get_content_type() == "text/plain" and part.get_param("format") == "flowed"
    assert parse_message(raw).text == body
