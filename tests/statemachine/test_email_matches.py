"""Every game and rule set played to the end by e-mail on the local stack: bots mail their moves
in the game's plain-text grammar to the match address (as SES delivers them), and every
participant's mailbox is checked.

Given a match whose participants all have addresses, with day-long phases (so reminders are due
12 hours and 1 hour before each deadline) and early close off
When bots read their notices and mail their moves at once
Then the match ends; each participant got one mail per notice the service published for them,
each mail holding their own view and no line of another participant's private view, and
attaching only the pictures of their own view (Domino's boards); every move
got an answer threaded under it; and no reminder went out, since everyone had sent their moves.
"""

from __future__ import annotations

import email
import email.policy

import pytest

from game_core.games import registry
from game_core.games.capabilities import DrawsViews
from game_core.mail.inbound import parse_message
from game_core.mail.outbound import fit_subject
from game_core.match.engine import guests_per_player
from local_stack.aws.clock import VirtualClock
from local_stack.aws.stack import LocalStack
from local_stack.bots.play import bot_matches
from local_stack.bots.play import seat as seat_entry
from local_stack.bots.runner import run_match

pytestmark = pytest.mark.statemachine

MATCHES = bot_matches("few")
"""Every available game and rule set, with its fewest players (`Game.demo`)."""


def named(entry: dict) -> dict:
    """A seat (and its guests) with a display name unlike its id: mail must show names."""
    guests = [named(guest) for guest in entry.get("guests", [])]
    return entry | {"name": f"Player {entry['id'][1:]}"} | ({"guests": guests} if guests else {})


def attachments(raw: bytes) -> list[email.message.EmailMessage]:
    return list(email.message_from_bytes(raw, policy=email.policy.default).iter_attachments())


def header(raw: bytes, name: str) -> str:
    head = raw.split(b"\r\n\r\n", 1)[0].decode()
    return next(
        (line.split(":", 1)[1].strip() for line in head.split("\r\n") if line.lower().startswith(name.lower() + ":")),
        "",
    )


@pytest.mark.parametrize(("game_id", "rule_set", "players"), MATCHES, ids=[f"{g}-{r}" for g, r, _ in MATCHES])
def test_a_match_played_by_email_reaches_every_mailbox_with_its_own_view_only(game_id, rule_set, players) -> None:
    game = registry.load(game_id)
    entries = [named(seat_entry(f"p{i:02d}", guests_per_player(game))) for i in range(1, players + 1)]
    seats = [entry["id"] for player in entries for entry in (player, *player.get("guests", []))]
    request = {
        "game": game_id,
        "settings": {"rule_set": rule_set},
        "players": entries,
        "phase_seconds": 86_400,
        "early_close": False,
        "seed": 4242,
    }
    with LocalStack(clock=VirtualClock()) as stack:
        run = run_match(stack, request, timeout=240, channel="email")

    assert run.status == "SUCCEEDED"
    names = {seat: f"Player {seat[1:]}" for seat in seats}
    for seat in seats:
        mails = [(mail.raw, parse_message(mail.raw)) for mail in run.mailboxes[seat]]
        notices = [(raw, letter) for raw, letter in mails if header(raw, "Auto-Submitted") == "auto-generated"]
        answers = [(raw, letter) for raw, letter in mails if header(raw, "Auto-Submitted") == "auto-replied"]

        # One mail per notice published for this participant, in order (subjects fitted under 100)
        published = [fit_subject(notice["subject"]) for notice in run.private[seat]]
        assert [letter.subject for _raw, letter in notices] == published
        assert not any("Reminder:" in letter.subject for _raw, letter in notices)

        # Each holds the participant's own view, and no line that only another's private view has
        # (every participant is told of every event: the i-th notices are of the same moment)
        for index, ((raw, letter), notice) in enumerate(zip(notices, run.private[seat], strict=True)):
            # Pictures of the view only (Domino's boards), drawn from this participant's own view
            drawn = game.text.draw_view(notice["view"], names) if isinstance(game.text, DrawsViews) else None
            attached = [(part.get_filename(), part.get_payload(decode=True)) for part in attachments(raw)]
            assert attached == [(p.filename, p.data) for p in (drawn.pictures if drawn else ())]
            own = game.text.render_view(notice["view"], names)
            # (line by line: SNS delivers the view with its keys sorted, so lists of pairs may differ in order)
            written = letter.text.splitlines()
            assert [line for line in own.splitlines() if line not in written] == []
            for other in seats:
                if other == seat:
                    continue
                theirs = run.private[other][index]
                assert theirs["subject"] == notice["subject"]
                foreign = set(game.text.render_view(theirs["view"], names).splitlines()) - set(own.splitlines())
                leaked = [line for line in foreign if line.strip() and line in written]
                assert leaked == [], (seat, other, letter.subject, leaked)

        # Every move mailed got exactly one answer, threaded under it, saying it was understood
        sent_ids = [header(raw, "Message-ID") for raw in run.mailed[seat]]
        assert sorted(letter.in_reply_to for _raw, letter in answers) == sorted(sent_ids)
