"""Domino Auction's boards go with the mail as pictures (on the fakes): each notice that carries a
view is multipart/mixed, its text first (quoted-printable UTF-8, as every mail) and then the boards
as SVG and PNG, drawn from that recipient's own view alone and named in the text."""

from __future__ import annotations

import email
import email.policy
import io
import xml.etree.ElementTree as ET
from email.message import EmailMessage

import pytest
from fakes import Fakes
from PIL import Image

from game_core.games import registry
from game_core.mail.ses import Receipt, Verdicts
from game_core.match import engine
from game_core.match.model import MatchRequest
from game_core.service.mail.receive import receive
from game_core.service.matches import phases
from game_core.service.matches.lifecycle import create_match
from game_core.service.matches.submit import SubmissionRequest, submit

MID = "m-000000000001"
GAME = registry.load("domino")
TILES = ["O4", "I3", *["L4"] * 18]
"""Each auction's tiles as the host sets them: tile 1 an O4, tile 2 an I3."""
O4_RGB = (221, 213, 95)
"""hsl(56, 65%, 62%), worked by hand in tests/unit/games/domino/test_domino_png.py."""


def open_match(fakes: Fakes, host_email: str | None = None) -> None:
    request = MatchRequest.model_validate(
        {
            "game": "domino",
            "host_email": host_email,
            "settings": {"tiles": {"1": TILES, "2": TILES, "3": TILES}},
            "players": [
                {"id": "ann", "name": "Ann Archer", "email": "ann@example.org"},
                {"id": "bob", "name": "Bob Boyd", "email": "bob@example.org"},
            ],
            "phase_seconds": 86_400,
            "seed": 7,
        }
    )
    create_match(fakes.ports, request)


def send(fakes: Fakes, player: str, phase: str, kind: str, submission: dict) -> None:
    submit(fakes.ports, SubmissionRequest(MID, player, phase, kind, submission, "test"))


def resolve_phase(fakes: Fakes) -> list[email.message.EmailMessage]:
    before = len(fakes.mailer.sent)
    fakes.clock.advance(86_400)
    phases.advance(fakes.ports, MID)
    return [email.message_from_bytes(mail.raw, policy=email.policy.default) for mail in fakes.mailer.sent[before:]]


def placed(fakes: Fakes, host_email: str | None = None) -> list[email.message.EmailMessage]:
    """Auction 1: Ann alone bids on tile 1, Bob alone on tile 2. Placing 1: Ann puts her O4 at
    A1 B1 A2 B2, Bob his I3 down column C from row 5. The mails of that resolution."""
    open_match(fakes, host_email)
    send(fakes, "ann", "Auction 1", "bid", {"bids": [{"tile": 1, "chips": 5}]})
    send(fakes, "bob", "Auction 1", "bid", {"bids": [{"tile": 2, "chips": 5}]})
    resolve_phase(fakes)
    phase = "Auction 2 and placing 1"
    send(fakes, "ann", phase, "place", {"placements": [{"tile": 1, "cells": ["A1", "B1", "A2", "B2"]}]})
    send(fakes, "bob", phase, "place", {"placements": [{"tile": 2, "cells": ["C5", "C6", "C7"]}]})
    return resolve_phase(fakes)


def test_a_notice_attaches_the_boards_as_svg_and_png_after_its_text() -> None:
    fakes = Fakes()
    mails = placed(fakes)
    assert sorted(message["To"] for message in mails) == ["ann@example.org", "bob@example.org"]
    for message in mails:
        assert message.get_content_type() == "multipart/mixed"
        text, svg, png = message.iter_parts()
        assert text.get_content_type() == "text/plain" and text["Content-Transfer-Encoding"] == "quoted-printable"
        assert text.get_content_charset() == "utf-8"
        assert [(part.get_filename(), part.get_content_type()) for part in (svg, png)] == [
            ("domino-after-phase-2-all.svg", "image/svg+xml"),
            ("domino-after-phase-2-all.png", "image/png"),
        ]
        body = " ".join(text.get_content().split())
        assert (
            "Attached: the boards, left to right: Ann Archer, Bob Boyd "
            "(domino-after-phase-2-all.svg, domino-after-phase-2-all.png)." in body
        )
        board = ET.fromstring(svg.get_content())
        cells = [rect.get("data-cell") for rect in board.iter("{http://www.w3.org/2000/svg}rect")]
        assert sorted(cell for cell in cells if cell) == ["A1", "A2", "B1", "B2", "C5", "C6", "C7"]
        image = Image.open(io.BytesIO(png.get_content()))
        # two boards of 193 pixels, 24 apart; Ann's A1 centred at (8, 8), Bob's C5 at (217 + 40, 72)
        assert image.size == (410, 193) and image.getpixel((8, 8)) == O4_RGB
        assert image.getpixel((257, 72)) == (221, 95, 95)  # the I3's colour, worked by hand there too


def test_each_recipient_gets_the_pictures_of_their_own_view_only() -> None:
    fakes = Fakes()
    mails = placed(fakes)
    match = fakes.store.get(MID)
    state = engine.game_state(GAME, match)
    names = {"ann": "Ann Archer", "bob": "Bob Boyd"}
    for message in mails:
        player = message["To"].split("@")[0]
        own = GAME.text.draw_view(GAME.view(state, player), names)
        attached = [(part.get_filename(), part.get_payload(decode=True)) for part in message.iter_attachments()]
        assert attached == [(picture.filename, picture.data) for picture in own.pictures]


def test_a_mail_that_carries_no_view_attaches_nothing() -> None:
    # The opening notice carries the view (empty boards); a reminder carries none
    fakes = Fakes()
    open_match(fakes)
    send(fakes, "ann", "Auction 1", "bid", {"bids": [{"tile": 1, "chips": 5}]})
    before = len(fakes.mailer.sent)
    fakes.clock.advance(12 * 3600)
    phases.advance(fakes.ports, MID)
    (reminder,) = [email.message_from_bytes(m.raw, policy=email.policy.default) for m in fakes.mailer.sent[before:]]
    assert reminder["To"] == "bob@example.org" and "Reminder" in reminder["Subject"]
    assert reminder.get_content_type() == "text/plain" and "Attached:" not in reminder.get_content()


def status_by_mail(fakes: Fakes, sender: str) -> email.message.EmailMessage:
    """`sender` mails STATUS to the match: the one answer, to them, in reply to it."""
    before = len(fakes.mailer.sent)
    asked = EmailMessage()
    asked["From"], asked["To"], asked["Subject"] = sender, f"{MID}@play.test", f"[{MID}] Status"
    asked["Message-ID"] = "<status-1@example.org>"
    asked.set_content("STATUS\n")
    verdicts = Verdicts(spf="PASS", dkim="PASS", dmarc="PASS", spam="PASS", virus="PASS")
    assert (
        receive(fakes.ports, Receipt("ses-1", (f"{MID}@play.test",), verdicts, "", asked.as_bytes())).value
        == "answered"
    )
    (sent,) = fakes.mailer.sent[before:]
    answer = email.message_from_bytes(sent.raw, policy=email.policy.default)
    assert sent.to == sender and answer["In-Reply-To"] == "<status-1@example.org>"
    return answer


def own_pictures(fakes: Fakes, player: str) -> list[tuple[str, bytes]]:
    state = engine.game_state(GAME, fakes.store.get(MID))
    own = GAME.text.draw_view(GAME.view(state, player), {"ann": "Ann Archer", "bob": "Bob Boyd"})
    return [(picture.filename, picture.data) for picture in own.pictures]


def attachments(answer: email.message.EmailMessage) -> list[tuple[str | None, bytes]]:
    return [(part.get_filename(), part.get_payload(decode=True)) for part in answer.iter_attachments()]


def test_status_by_mail_attaches_the_senders_own_boards() -> None:
    # Ann asks for STATUS after placing 1: her answer carries the boards as her view draws them
    # (the same two files a notice of that view attaches), named in its text; Bob gets nothing
    fakes = Fakes()
    placed(fakes)
    answer = status_by_mail(fakes, "ann@example.org")
    attached = attachments(answer)
    assert [name for name, _ in attached] == ["domino-after-phase-2-all.svg", "domino-after-phase-2-all.png"]
    assert attached == own_pictures(fakes, "ann")
    body = " ".join(next(answer.iter_parts()).get_content().split())
    assert "Attached: the boards, left to right: Ann Archer, Bob Boyd" in body and "Your garnets:" in body


@pytest.mark.parametrize(
    ("host", "pictures_of"),
    [
        # Ann hosts and plays: the host's STATUS, with the two files her own STATUS as a player
        # carries (her view's; every board is public, drawn from the view's public part alone)
        ("ann@example.org", "ann"),
        # a host who does not play has no view of their own: the host's STATUS alone
        ("host@example.org", None),
    ],
)
def test_a_hosts_status_by_mail_carries_the_boards_of_the_hosts_own_view_only(
    host: str, pictures_of: str | None
) -> None:
    fakes = Fakes()
    placed(fakes, host_email=host)
    answer = status_by_mail(fakes, host)
    text = answer.get_body(preferencelist=("plain",))
    assert text is not None
    body = " ".join(text.get_content().split())
    # the host's STATUS (the console's), not a player's standing: 2 phases resolved, nobody sent
    # in the third (Auction 3 and placing 2) yet
    assert f"Match {MID} (domino) is running; 2 phases resolved." in body
    assert "Waiting for: Ann Archer, Bob Boyd" in body and "Your garnets:" not in body
    if pictures_of is None:
        assert answer.get_content_type() == "text/plain" and "Attached:" not in body
        return
    assert attachments(answer) == own_pictures(fakes, pictures_of)
    assert body.endswith(
        "Attached: the boards, left to right: Ann Archer, Bob Boyd "
        "(domino-after-phase-2-all.svg, domino-after-phase-2-all.png)."
    )
