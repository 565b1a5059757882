"""AWS failing for hours while a season waits on its EC's naming, on the real season ASL on moto
(the games' too), played by bots, time the stack's virtual clock: the season step's Lambda, or
DynamoDB, failing (local_stack/aws/faults.py), and the EC's mail arriving meanwhile through the
inbound queue (SES's notification, the real mail function, its retries).

Domino among ada, bo and cy (test_season_acts_by_mail: RULINGS.md "Seasons"): the first wins 2
ToL, the last is the one EC and may name only the one in the middle (no ToL). The EC's own 24
hours begin when the Main Match ends ("opened"), the host's 24 more follow, then a lot names.
Worked by hand from the ASL (statemachines/season.asl.json: each step retried 6 times, 2 s
doubled: 2, 4, 8, 16, 32, 64 s), the mail queue's backoff (aws/inbound_queue.py, as
tests/integration/test_inbound_queue.py works it: tries at 0, 60, 180, 420, 900, 1860, 3780 s,
then hourly, 12 tries, then the dead letters), and SEASONS.md's recover.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import Any

import pytest
from conftest import host_alerts
from moto.core import DEFAULT_ACCOUNT_ID
from moto.ses.models import ses_backends
from test_season_acts_by_mail import SETTINGS as ON_DOMINO_SETTINGS
from test_season_acts_by_mail import START

from game_core.mail.inbound import parse_message
from game_core.season.naming import naming_turn
from game_core.service.season.host import RECOVER_GRACE_SECONDS
from local_stack.aws.clock import VirtualClock
from local_stack.aws.faults import EVERY_CALL, INVOKE, Fault, MailFaults, StepFaults
from local_stack.aws.mail import LOCAL_DOMAIN
from local_stack.aws.stack import LocalStack
from local_stack.bots.season_play import SeasonTable, begin_season, play_on

pytestmark = pytest.mark.statemachine

HOUR = 3600
BACKOFF = [2.0, 4.0, 8.0, 16.0, 32.0, 64.0]
"""The ASL's Retry of a season step: IntervalSeconds 2, BackoffRate 2, MaxAttempts 6."""
MAIL_TRIES = [0, 60, 180, 420, 900, 1860, 3780, 7380, 10980, 14580, 18180, 21780]
"""When each of a failing mail's 12 tries comes, in seconds after it arrived."""

# The season by mail's three players with the default Death Match and Finals (Abstrac `row` and
# `deal`): on Domino this seed's two-player Death Match ties and waits for the host, whom these
# outages do not play, so the season would never end.
SETTINGS = {key: value for key, value in ON_DOMINO_SETTINGS.items() if key != "final"} | {
    "episodes": [
        {key: value for key, value in episode.items() if key != "death_match"}
        for episode in ON_DOMINO_SETTINGS["episodes"]
    ]
}


class Outage:
    """AWS failing from `start` until `end` (virtual time): every invocation of the season's step
    (the Lambda failing it, or its first call of `operation` failing), and every DynamoDB call of
    the mail function's tries."""

    def __init__(self, stack: LocalStack, start: datetime, end: datetime, operation: str) -> None:
        self.stack, self.start, self.end = stack, start, end
        fault = Fault(operation)
        self.steps = StepFaults(stack, lambda _i, _event, _retry: fault if self.on() else None, "SeasonStepFunction")
        self.mail = MailFaults(stack, lambda _mail, _number: Fault(EVERY_CALL) if self.on() else None)

    def on(self) -> bool:
        return self.start <= self.stack.now() < self.end


def mail(ec: str, match_id: str, opponent: str, message_id: str) -> bytes:
    """The EC's naming as a reply to the Main Match's mail."""
    letter = EmailMessage()
    letter["From"], letter["To"] = f"{ec}@example.com", f"{match_id}@{LOCAL_DOMAIN}"
    letter["Subject"], letter["Message-ID"] = f"Re: [{match_id}] Domino: the result", message_id
    letter.set_content(f"Hi,\n\nNAME {opponent}\n\nThanks\n")
    return letter.as_bytes()


def answers_to(stack: LocalStack, message_id: str) -> list[tuple[list[str], str]]:
    """(to, text) of each answer SES sent to the mail `message_id`."""
    sent = ses_backends[DEFAULT_ACCOUNT_ID][stack.client("sesv2").meta.region_name].sent_messages
    letters = [(m.destinations, parse_message(m.raw_data.encode())) for m in sent if hasattr(m, "raw_data")]
    return [(to, letter.text) for to, letter in letters if letter.in_reply_to == message_id]


def to_the_naming(stack: LocalStack) -> tuple[SeasonTable, dict[str, Any]]:
    """The season played by its bots until it waits on its EC: the table, and the EC, whom they
    may name, the Main Match and when the turn opened."""
    table = begin_season(stack, SETTINGS, season_id="s-outage")
    seasons = stack.ports().seasons
    assert seasons is not None
    run = play_on(stack, table, timeout=600, until=lambda: naming_turn(seasons.season("s-outage").state) is not None)
    assert run.status == "RUNNING"
    state = seasons.season("s-outage").state
    [waiting] = stack.host({"command": "season", "action": "status", "season_id": "s-outage"})["waiting"]
    assert state.opened_at is not None and waiting["kind"] == "naming"
    [middle] = waiting["among"]
    return table, {
        "ec": waiting["who"][0],
        "middle": middle,
        "main": state.episodes[0].main_match_id,
        "opened": state.opened_at,
    }


def season_log(stack: LocalStack) -> list[Any]:
    seasons = stack.ports().seasons
    assert seasons is not None
    return seasons.season_events("s-outage")


def advance_to(stack: LocalStack, moment: datetime) -> None:
    stack.advance((moment - stack.now()).total_seconds())


OUTAGES = [
    # (what fails, whether the Stalled step fails too: it reads the season, then the Main Match,
    # and publishes the host's alert)
    (INVOKE, True),  # the Lambda service fails every invocation of the season's step
    (EVERY_CALL, True),  # every step's first AWS call fails (the table unreachable)
    ("GetItem", False),  # DynamoDB's GetItem alone: Advance's first call; the Stalled step reads otherwise
]


@pytest.mark.parametrize(("operation", "stalled_fails"), OUTAGES, ids=["the step's Lambda", "every call", "GetItem"])
def test_an_outage_over_the_lots_deadline_stalls_the_season_and_recover_takes_the_ecs_kept_mail_before_a_lot(
    operation: str, stalled_fails: bool
) -> None:
    with LocalStack(games=("domino", "abstrac"), clock=VirtualClock(START)) as stack:
        table, turn = to_the_naming(stack)
        alerts = host_alerts(stack)  # what the host is told from here on
        ec, middle, main, opened = turn["ec"], turn["middle"], turn["main"], turn["opened"]
        lot_due = opened + timedelta(hours=48)  # the EC's 24 hours, then the host's 24

        # Given AWS failing from 40 to 52 hours after the turn opened, across the lot's deadline,
        # and the EC naming by mail at 41 hours (the host's turn: the EC may still name)
        advance_to(stack, opened + timedelta(hours=40))
        outage = Outage(stack, stack.now(), opened + timedelta(hours=52), operation)
        advance_to(stack, opened + timedelta(hours=41))
        sent = stack.mail_in.send(mail(ec, main, middle, "<name-1@example.com>"))
        retries_before = len(stack.clock.skipped_retries)  # type: ignore[union-attr]

        # When the mail queue and the clock run on for 11 hours, to the outage's end (a second past it)
        outcomes = stack.mail_in.run_for(11 * HOUR + 1, stack.advance)

        # Then the mail was tried 12 times over 6 h 3 min, each failing, and is in the dead letters
        assert outcomes == ["failed"] * 12 and outage.mail.tries[sent] == 12
        assert [dead["mail"]["messageId"] for dead in stack.mail_in.dead_letters()] == [sent]
        # ...at 48 hours the naming's wait ended and its Advance failed 7 times, the ASL waiting
        # 2, 4, ... 64 s between; then the Stalled step alerted the host "run `match-host season
        # recover`", or failed as often (it cannot read the season either: then the
        # SeasonStateMachineFailedAlarm tells the host), and the execution failed
        stalled = ["stalled"] * 7 if stalled_fails else []
        assert [struck.step for struck in outage.steps.injected] == ["advance"] * 7 + stalled
        assert stack.clock.skipped_retries[retries_before:] == BACKOFF * (2 if stalled_fails else 1)  # type: ignore[union-attr]
        told = [alert["subject"] for alert in alerts()]
        recover_alerts = [subject for subject in told if "match-host season recover s-outage" in subject]
        assert len(recover_alerts) == (0 if stalled_fails else 1), told
        assert stack.execution("s-outage", "season")["status"] == "FAILED"
        # ...and nothing of the season changed: no lot was drawn, nobody named
        assert "named" not in [event.type for event in season_log(stack)]

        # When AWS is back and the host recovers the season, then redrives the match's mail
        assert not outage.on()
        back = stack.now()
        recovered = stack.host({"command": "season", "action": "recover", "season_id": "s-outage"})
        stack.settle()
        # Then the turn passed its lot's deadline while stopped: it is open an hour more, its
        # deadlines put off by the 4 hours since the lot's and that hour (RECOVER_GRACE_SECONDS)
        assert recovered["ok"] and recovered["matches_recovered"] == [], recovered
        assert RECOVER_GRACE_SECONDS == HOUR and timedelta(hours=4) <= back - lot_due <= timedelta(hours=4, seconds=1)
        assert recovered["turn_reopened_until"] == (back + timedelta(hours=1)).isoformat()
        assert stack.execution("s-outage", "season")["status"] == "RUNNING"
        assert "named" not in [event.type for event in season_log(stack)]  # no lot at once
        redriven = stack.host({"command": "redrive_mail", "match_id": main})
        applied = stack.mail_in.deliver()

        # Then the EC's naming is taken as theirs (not the host's, not a lot's), answered once
        assert (redriven["requeued"], applied) == (1, ["answered"])
        [(to, answer)] = answers_to(stack, "<name-1@example.com>")
        assert set(to) == {f"{ec}@example.com"} and f"Done: you named {middle}" in answer

        # And the season plays on to its champion, each step once
        run = play_on(stack, table, timeout=600)
        log = season_log(stack)
    assert run.status == "SUCCEEDED"
    [named] = [event.data for event in log if event.type == "named"]
    assert (named["ec"], named["opponent"], named["by"]) == (ec, middle, "ec")
    put_off = int((back - lot_due).total_seconds()) + HOUR
    assert [event.data for event in log if event.type == "extended"] == [{"seconds": put_off, "recovered": True}]
    kinds = [event.type for event in log]
    assert kinds.count("episode_started") == 1 and kinds.count("eliminated") == 1 and kinds.count("champion") == 1


def test_an_ecs_naming_mailed_while_dynamodb_fails_is_kept_and_taken_once_it_is_back() -> None:
    with LocalStack(games=("domino", "abstrac"), clock=VirtualClock(START)) as stack:
        table, turn = to_the_naming(stack)
        ec, middle, main, opened = turn["ec"], turn["middle"], turn["main"], turn["opened"]

        # Given DynamoDB failing from 1 to 4 hours after the turn opened, and the EC's naming
        # mailed at 1 hour (their own turn)
        advance_to(stack, opened + timedelta(hours=1))
        outage = Outage(stack, stack.now(), opened + timedelta(hours=4), "GetItem")
        sent = stack.mail_in.send(mail(ec, main, middle, "<name-2@example.com>"))

        # When the mail queue runs for 7 hours
        outcomes = stack.mail_in.run_for(7 * HOUR, stack.advance)

        # Then its tries at 0, 60, ... 7380 s failed; the 9th, at 10980 s (past the 3 hours), took it
        assert outcomes == ["failed"] * 8 + ["answered"] and outage.mail.tries[sent] == 9
        assert stack.mail_in.waiting() == 0 and stack.mail_in.dead_letters() == []
        assert len(answers_to(stack, "<name-2@example.com>")) == 1
        assert outage.steps.injected == []  # the season's machine slept through it, in the Naming wait
        run = play_on(stack, table, timeout=600)
        log = season_log(stack)
    assert run.status == "SUCCEEDED"
    [named] = [event for event in log if event.type == "named"]
    assert (named.data["ec"], named.data["opponent"], named.data["by"]) == (ec, middle, "ec")
    assert named.at == opened + timedelta(seconds=HOUR + MAIL_TRIES[8])  # taken at its 9th try, woken at once
    assert "extended" not in [event.type for event in log]
