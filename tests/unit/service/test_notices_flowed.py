"""Every game's notices as format=flowed mail (RFC 3676, `outbound.flowed`) read the same in a
client that knows flowed (the project's own reader, `inbound`, follows it) and in one that does
not: each line as written (trailing spaces aside), never joined to the next; where a paragraph is
space-stuffed, all of its lines one column right together, so boards and tables still line up,
and no line starts ">" or "From " (a quote, an mbox separator)."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage

import pytest
from fakes import Fakes
from test_mail_clients import GAMES, MID, GameCase, table

from game_core.mail import inbound, outbound
from game_core.service.matches import phases


def paragraphs(lines: list[str]) -> list[list[str]]:
    found: list[list[str]] = [[]]
    for line in lines:
        if line:
            found[-1].append(line)
        elif found[-1]:
            found.append([])
    return [paragraph for paragraph in found if paragraph]


def notices(case: GameCase, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, EmailMessage]]:
    """Each mail of the case's match through its first phase and that phase's results: the body
    written, and the text part as sent."""
    written: list[str] = []
    compose = outbound.compose

    def keeping(**fields: object) -> bytes:
        written.append(str(fields["body"]))
        return compose(**fields)  # type: ignore[arg-type]

    monkeypatch.setattr(outbound, "compose", keeping)
    fakes: Fakes = table(case)
    phase = fakes.store.get(MID).phase
    assert phase is not None
    fakes.clock.set(phase.deadline)
    phases.resolve(fakes.ports, MID, phase.number)
    phases.announce(fakes.ports, MID, phase.number)
    sent = [email.message_from_bytes(mail.raw, policy=email.policy.default) for mail in fakes.mailer.sent]
    parts = [part for message in sent if (part := message.get_body(preferencelist=("plain",))) is not None]
    assert len(parts) == len(written) > 0
    return list(zip(written, parts, strict=True))  # type: ignore[arg-type]


@pytest.mark.parametrize("case", GAMES, ids=[case.game for case in GAMES])
def test_every_notice_reads_the_same_with_and_without_format_flowed(
    case: GameCase, monkeypatch: pytest.MonkeyPatch
) -> None:
    stuffed = 0
    for body, part in notices(case, monkeypatch):
        as_written = [line.rstrip(" ") for line in body.rstrip("\n").split("\n")]
        sent = part.get_content().replace("\r\n", "\n").rstrip("\n")
        assert part.get_param("format") == "flowed"
        # A client that knows flowed: every line as written, none joined (they are as many)
        assert inbound._unflow(sent, delete_space=False).text.split("\n") == as_written
        # One that does not: each paragraph as written, or all of it one column right
        for mine, shown in zip(paragraphs(as_written), paragraphs(sent.split("\n")), strict=True):
            assert shown in (mine, [" " + line for line in mine])
            assert not any(line.startswith((">", "From ")) for line in shown)
            stuffed += shown != mine
    assert stuffed  # each game's notices have an indented paragraph (a list, a board): stuffed
