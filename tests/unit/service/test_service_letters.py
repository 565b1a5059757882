"""Notices as mail (Pushing Crates on the fakes): one plain-text message per participant with an
address per event, the public announcement and their private part together, names not ids, the
deadline, how to answer, and nothing of another participant's secrets."""

from __future__ import annotations

import pytest
from fakes import Fakes

from game_core.mail.inbound import parse_message
from game_core.match.model import MatchRequest
from game_core.service.host import powers as host
from game_core.service.matches import phases
from game_core.service.matches.lifecycle import create_match
from game_core.service.matches.submit import SubmissionRequest, submit

MID = "m-000000000001"
ADA_ORDER = [-1, 2, 1, -1, 0, 1]


def open_match(fakes: Fakes) -> None:
    # Ada and Bo have addresses, Cy has none; each has a display name unlike the id
    request = MatchRequest.model_validate(
        {
            "game": "crates",
            "players": [
                {"id": "ada", "name": "Ada Lovelace", "email": "ada@example.org"},
                {"id": "bo", "name": "Bo Diddley", "email": "bo@example.org"},
                {"id": "cy", "name": "Cy Twombly"},
            ],
            "phase_seconds": 86_400,
            "seed": 7,
        }
    )
    create_match(fakes.ports, request)


def mails(fakes: Fakes, since: int = 0) -> dict[str, tuple[str, str]]:
    """(subject, text) of each message sent since `since`, by address."""
    read = {mail.to: parse_message(mail.raw) for mail in fakes.mailer.sent[since:]}
    return {to: (letter.subject, letter.text) for to, letter in read.items()}


def test_the_opening_mails_each_participant_with_an_address_once_by_name_with_how_to_answer() -> None:
    fakes = Fakes()
    open_match(fakes)
    sent = mails(fakes)
    assert sorted(sent) == ["ada@example.org", "bo@example.org"]  # Cy has no address: no mail
    assert len(fakes.mailer.sent) == 2
    subject, text = sent["ada@example.org"]
    assert subject == f"[{MID}] Pushing Crates: the match begins"
    assert text.startswith("Hello Ada Lovelace,")
    assert "Ada Lovelace, Bo Diddley, Cy Twombly" in text  # names, not ids
    # opened at 12:00 with 24-hour phases
    assert "Pregame closes Wednesday 2 December, 12:00 UTC, in 1 day." in text
    assert "To play, reply to this mail with your move for Pregame:" in text
    assert "MULTIPLIERS 2 1 1 0 -1 -1" in text  # the grammar's example
    raw = fakes.mailer.sent[0].raw.decode()
    assert f"From: Pushing Crates {MID} <{MID}@play.test>" in raw and "Auto-Submitted: auto-generated" in raw


def test_a_resolution_mails_each_their_own_moves_and_nobody_anothers() -> None:
    fakes = Fakes()
    open_match(fakes)
    submit(fakes.ports, SubmissionRequest(MID, "ada", "Pregame", "multipliers", {"multipliers": ADA_ORDER}, "test"))
    fakes.clock.advance(86_400)
    before = len(fakes.mailer.sent)
    phases.advance(fakes.ports, MID)
    sent = mails(fakes, before)
    (ada_subject, ada_text), (_bo_subject, bo_text) = sent["ada@example.org"], sent["bo@example.org"]
    assert ada_subject == f"[{MID}] Pregame resolved; Round 1 is open"
    # Ada's order is hers alone: in her mail, in nobody else's
    assert "pregame: -1 2 1 -1 0 1" in ada_text
    assert "-1 2 1 -1 0 1" not in bo_text
    # Bo and Cy sent nothing: the announcement says so, by name
    assert "No submission from: Bo Diddley, Cy Twombly." in bo_text


def test_a_reminder_goes_only_to_whoever_has_not_sent_what_the_phase_waits_for() -> None:
    fakes = Fakes()
    open_match(fakes)
    submit(fakes.ports, SubmissionRequest(MID, "ada", "Pregame", "multipliers", {"multipliers": ADA_ORDER}, "test"))
    fakes.clock.advance(12 * 3600)
    before = len(fakes.mailer.sent)
    phases.advance(fakes.ports, MID)
    sent = mails(fakes, before)
    assert list(sent) == ["bo@example.org"]
    subject, text = sent["bo@example.org"]
    assert subject == f"[{MID}] Reminder: Pregame closes in 12 hours"
    assert "A reminder: Pregame still waits for your multipliers submission." in text
    assert "Pregame closes Wednesday 2 December, 12:00 UTC, in 12 hours." in text


@pytest.mark.parametrize(
    ("act", "headline", "deadline"),
    [
        (
            lambda ports: host.extend(ports, MID, 7200),
            "extended",
            "Pregame closes Wednesday 2 December, 14:00 UTC, in 1 day 2 hours.",
        ),
        (lambda ports: host.pause(ports, MID), "paused", "Pregame is paused by the host"),
    ],
)
def test_a_host_act_mails_everyone_with_an_address_the_new_clock(act, headline, deadline) -> None:
    fakes = Fakes()
    open_match(fakes)
    before = len(fakes.mailer.sent)
    act(fakes.ports)
    sent = mails(fakes, before)
    assert sorted(sent) == ["ada@example.org", "bo@example.org"]
    subject, text = sent["bo@example.org"]
    assert headline in subject.lower() and deadline in text


def test_no_mail_goes_out_from_a_deployment_without_a_mail_domain() -> None:
    fakes = Fakes()
    fakes.mailer.domain = ""
    open_match(fakes)
    assert fakes.mailer.sent == []


def test_every_subject_is_under_100_characters_and_whole_words() -> None:
    fakes = Fakes()
    open_match(fakes)
    host.extend(fakes.ports, MID, 60)
    fakes.clock.advance(86_400 + 60)
    phases.advance(fakes.ports, MID)
    assert all(len(subject) < 100 for subject, _text in mails(fakes).values())


def test_each_participant_reads_the_deadline_in_their_own_time_zone_with_utc_beside_it() -> None:
    fakes = Fakes()
    players = [
        {"id": "ada", "email": "ada@example.org", "zone": "Europe/Paris"},
        {"id": "bo", "email": "bo@example.org", "zone": "America/New_York"},
        {"id": "cy", "email": "cy@example.org"},
    ]
    create_match(fakes.ports, MatchRequest.model_validate({"game": "crates", "players": players, "seed": 7}))
    sent = mails(fakes)
    # Opened Tuesday 1 December 12:00 UTC for a day: it closes Wednesday 12:00 UTC, which is 13:00
    # in Paris (UTC+1 in winter) and 07:00 in New York (UTC-5); Cy gave no zone: UTC alone
    # Folded at 78 columns, never inside "in 1 day"
    paris = "Pregame closes Wednesday 2 December, 13:00 (Europe/Paris) - 12:00 UTC,\nin 1 day."
    new_york = "Pregame closes Wednesday 2 December, 07:00 (America/New_York) - 12:00 UTC,\nin 1 day."
    assert paris in sent["ada@example.org"][1]
    assert new_york in sent["bo@example.org"][1]
    assert "Pregame closes Wednesday 2 December, 12:00 UTC, in 1 day." in sent["cy@example.org"][1]
