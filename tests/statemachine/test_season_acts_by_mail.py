"""An EC names their opponent by mail, end to end: a season of three on the real season ASL and
the games' on moto, played by bots; when the season waits on the EC's naming, the EC replies to
the Main Match's address with `NAME <player>` through the email-in function (SES's notification
as the inbound queue hands it). The naming is the EC's (not the host's, not a lot), is answered
in words to the EC alone, wakes the season at once (no 24 hours pass), and the same mail
delivered again changes nothing twice.

Domino among ada, bo, cy (RULINGS.md): the first wins 2 ToL, the last is EC; the EC may name only
the one in the middle (no ToL). The Death Match and the Finals are Domino's too (the naming is the
subject, not those games: season_outcome.on_domino)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from typing import Any

import pytest
from conftest import load_event
from moto.core import DEFAULT_ACCOUNT_ID
from moto.ses.models import ses_backends
from season_outcome import on_domino

from game_core.mail.inbound import parse_message
from game_core.season.naming import naming_turn
from local_stack.aws.clock import VirtualClock
from local_stack.aws.mail import LOCAL_DOMAIN
from local_stack.aws.stack import LocalStack
from local_stack.bots.season_play import play_season

pytestmark = pytest.mark.statemachine

START = datetime(2026, 12, 1, tzinfo=UTC)
CAST = ["ada", "bo", "cy"]
SETTINGS = on_domino(
    {
        "name": "Three by mail",
        "seed": 7,
        "cast": [{"id": p, "email": f"{p}@example.com"} for p in CAST],
        "episodes": [{"main": {"game": "domino"}}],
        "match_options": {"phase_seconds": 600, "early_close": True},
    }
)


def mail_event(match_id: str, sender: str, text: str, message_id: str) -> dict[str, Any]:
    """SES's notification of `text` from `sender` to the match's address (events/email_in.json's
    shape, its message replaced)."""
    mail = EmailMessage()
    mail["From"], mail["To"] = sender, f"{match_id}@{LOCAL_DOMAIN}"
    mail["Subject"], mail["Message-ID"] = f"Re: [{match_id}] Domino: the result", message_id
    mail.set_content(text)
    event = load_event("email_in.json")
    notification = json.loads(event["Records"][0]["body"])
    notification["content"] = mail.as_string()
    notification["receipt"]["recipients"] = notification["mail"]["destination"] = [mail["To"]]
    notification["mail"]["messageId"] = "ses-" + message_id.strip("<>").split("@")[0]
    event["Records"][0]["body"] = json.dumps(notification)
    return event


def test_the_ec_names_by_mail_and_the_season_goes_on_at_once() -> None:
    sent: list[dict[str, Any]] = []
    with LocalStack(games=("domino",), clock=VirtualClock(START)) as stack:

        def ec_mails(_status: dict[str, Any]) -> None:
            """The host never decides; the EC writes once the season waits on their naming."""
            assert stack.ports().seasons is not None
            state = stack.ports().seasons.season("s-mail").state
            ec = naming_turn(state)
            if ec is None or sent:
                return None
            episode = state.episodes[0]
            [middle] = [p for p in episode.players if p != ec and state.player(p).tol == 0]
            event = mail_event(
                episode.main_match_id, f"{ec}@example.com", f"Hi,\n\nNAME {middle}\n", "<n1@example.com>"
            )
            first = stack.invoke("EmailInFunction", event)
            again = stack.invoke("EmailInFunction", event)  # the inbound queue hands it over twice
            sent.append({"ec": ec, "named": middle, "at": stack.clock.now(), "outcomes": [first, again]})
            return None

        run = play_season(stack, SETTINGS, host=ec_mails, timeout=600, season_id="s-mail")
        ports = stack.ports()
        assert ports.seasons is not None
        state = ports.seasons.season("s-mail").state
        events = ports.seasons.season_events("s-mail")
        raws = ses_backends[DEFAULT_ACCOUNT_ID][stack.client("sesv2").meta.region_name].sent_messages
        answers = [
            (m.destinations, parse_message(m.raw_data.encode()))
            for m in raws
            if hasattr(m, "raw_data") and parse_message(m.raw_data.encode()).in_reply_to == "<n1@example.com>"
        ]
    assert run.status == "SUCCEEDED" and len(sent) == 1
    [mailed] = sent
    [naming] = state.episodes[0].namings
    assert (naming.ec, naming.opponent, naming.by) == (mailed["ec"], mailed["named"], "ec")
    assert [e.type for e in events].count("named") == 1  # delivered twice, taken once
    named_at = next(e.at for e in events if e.type == "named")
    assert named_at - mailed["at"] < timedelta(hours=1)  # at once, not at the 24-hour deadline
    [(to, answer)] = answers  # answered once, to the EC alone
    assert set(to) == {f"{mailed['ec']}@example.com"}  # moto lists the Destination and the To header both
    assert [o["outcomes"] for o in mailed["outcomes"]] == [["answered"], ["redelivered"]]
    assert f"Done: you named {mailed['named']} as your Death Match opponent." in answer.text
