"""One address the mail service refuses for good does not silence a match (`letters.tell`).

Ada, Bo and Cy play Pushing Crates, each with an address; the match is created at 12:00 UTC on
Tuesday 1 December 2026 (the fakes' clock), its Pregame closes an hour later. SES refusing one of
them for good (MessageRejected: the sandbox's unverified address) is no failure of the step: the
other two are told once each, the step goes through, and the host's status names the one refused,
in one line however many mails were refused. A transient failure (SES unavailable) still fails the
step, whose retry tells only the rest.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import pytest
from crates_driver import Table
from fakes import Fakes

from game_core.errors import MailRefused
from game_core.service import phases
from game_core.service.matches import match_status

EMAILS = {"ada": "ada@example.com", "bo": "bo@example.com", "cy": "cy@example.com"}
NOT_VERIFIED = "Email address is not verified. The following identities failed the check in region US-EAST-1: {}"
"""SES's own words in its sandbox, naming the recipient (`ses_mailer` adds the sandbox hint)."""


def refused(player: str) -> MailRefused:
    said = NOT_VERIFIED.format(EMAILS[player]) + " (is SES still in its sandbox?)"
    return MailRefused("MessageRejected", said)


def refused_line(player: str, at: str) -> str:
    """The host's status line of the player's refusal (`_bounce_line`): named by their name, here their id."""
    said = NOT_VERIFIED.format(EMAILS[player])
    return f"{player}'s mail was refused by SES at {at}: MessageRejected: {said} (is SES still in its sandbox?)"


def three_with_mail(fakes: Fakes | None = None) -> Table:
    return Table.open(fakes, players=("ada", "bo", "cy"), emails=EMAILS)


def mailed(table: Table) -> Counter[str]:
    return Counter(mail.to for mail in table.fakes.mailer.sent)


@pytest.mark.parametrize("refused_player", ["ada", "bo", "cy"])
def test_one_address_refused_for_good_among_three_leaves_the_other_two_told_once_and_the_host_told(
    refused_player: str,
) -> None:
    # Given SES refuses one address for good from the start (first, middle or last of the three)
    fakes = Fakes()
    fakes.mailer.refuses[EMAILS[refused_player]] = refused(refused_player)

    # When the match opens (create's opening notices) and its Pregame resolves and is announced
    table = three_with_mail(fakes)
    created = table.created
    table.resolve_at_deadline()

    # Then create warned of nothing, the announcement went through, and the other two were told
    # twice each (the opening, the Pregame's resolution), the refused one never
    assert "warnings" not in created, created
    assert table.match().announced == 1
    others = {EMAILS[player]: 2 for player in EMAILS if player != refused_player}
    assert mailed(table) == others
    # And the host's status names the refusal once, at its first time (create's, 12:00), though
    # both occasions' mails were refused
    assert match_status(table.ports, table.match_id)["mail_bounced"] == [
        refused_line(refused_player, "2026-12-01T12:00:00Z")
    ]


@dataclass(frozen=True)
class Fault:
    refused: tuple[str, ...]
    """Whose address SES refuses for good (the first attempt only: a retry that tried one again would send it)."""
    fail_after: int | None
    """Mails SES takes before it fails once, transiently (`RecordingMailer.fail_after`)."""
    step_fails: bool
    first_attempt: dict[str, int]
    """Who the first attempt of the announcement mailed."""
    told: dict[str, int]
    """Who is mailed in the end, after the state machine's retry of a failed step."""
    host_reads: list[str]


# Pregame resolves at 13:00: announcing it is the step that mails Ada, Bo and Cy in that order
FAULTS = {
    "SES unavailable at Bo's mail: the step fails, its retry tells Bo and Cy only": Fault(
        (), 1, True, {"ada@example.com": 1}, dict.fromkeys(EMAILS.values(), 1), []
    ),
    "Bo refused for good: Ada and Cy told, the step goes through": Fault(
        ("bo",), None, False, {"ada@example.com": 1, "cy@example.com": 1},
        {"ada@example.com": 1, "cy@example.com": 1}, [refused_line("bo", "2026-12-01T13:00:00Z")],
    ),
    "Ada refused, then SES unavailable at Bo's: the retry does not try Ada again": Fault(
        ("ada",), 0, True, {}, {"bo@example.com": 1, "cy@example.com": 1},
        [refused_line("ada", "2026-12-01T13:00:00Z")],
    ),
}  # fmt: skip


@pytest.mark.parametrize("fault", FAULTS.values(), ids=FAULTS)
def test_a_transient_failure_fails_the_step_and_a_refusal_for_good_does_not(fault: Fault) -> None:
    table = three_with_mail()
    table.resolve_at_deadline(announce=False)
    table.fakes.mailer.sent.clear()
    table.fakes.mailer.refuses = {EMAILS[player]: refused(player) for player in fault.refused}
    table.fakes.mailer.fail_after = fault.fail_after

    try:
        phases.announce(table.ports, table.match_id, 1)
        failed = False
    except RuntimeError:
        failed = True
    assert failed is fault.step_fails
    assert mailed(table) == fault.first_attempt
    table.fakes.mailer.refuses.clear()  # were a refused mail tried again, SES would now take it
    phases.announce(table.ports, table.match_id, 1)  # the state machine's retry (none due when it went through)

    assert mailed(table) == fault.told
    assert table.match().announced == 1
    assert match_status(table.ports, table.match_id).get("mail_bounced", []) == fault.host_reads
